// The host's side of the Open-Channel command set: see oc_host.h.
#include "models/host/oc_host.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ssdvp {

OcHost::OcHost(HostInterface& hif) : port_(hif) {}

OcHost::Result OcHost::result_of(const HostCommand& c) {
  Result r;
  r.status = c.status;
  r.failed_listed = c.unreadable_listed;
  if (c.unreadable_listed) r.failed = uint64_t(c.unreadable[0]) | uint64_t(c.unreadable[1]) << 32;
  r.submitted = c.t_submit;
  r.completed = c.t_complete;
  return r;
}

void OcHost::submit(HostCommand* cmd, sc_core::sc_time delay, std::function<void(HostCommand*, const Result&)> done) {
  port_.submit(cmd, delay, [done = std::move(done)](HostCommand* c) { done(c, result_of(*c)); });
}

OcHost::Result OcHost::send(HostCommand& c) {
  port_.send(c);
  return result_of(c);
}

ssd_oc_geometry OcHost::geometry(uint16_t queue) {
  HostCommand c;
  std::vector<uint8_t> bytes(4096);
  c.opcode = SSD_HOP_OC_GEOMETRY;
  c.queue = queue;
  c.nsect = 1;
  c.payload = bytes.data();
  const Result r = send(c);
  if (r.status != SSD_ST_OK) throw std::runtime_error("Open-Channel geometry: status " + std::to_string(r.status));
  ssd_oc_geometry g;
  static_assert(sizeof(g) == 4096, "the spec's geometry is 4 KiB");
  std::memcpy(&g, bytes.data(), sizeof(g));
  return g;
}

std::vector<ssd_oc_chunk> OcHost::chunk_log(uint32_t first, uint32_t count, uint16_t queue) {
  constexpr uint32_t kPer = 4096 / sizeof(ssd_oc_chunk);
  const uint32_t s0 = first / kPer, s1 = (first + count + kPer - 1) / kPer;
  HostCommand c;
  std::vector<uint8_t> bytes(size_t(s1 - s0) * 4096);
  c.opcode = SSD_HOP_OC_CHUNK_LOG;
  c.queue = queue;
  c.lba = uint64_t(s0) * 4096;   // the log's byte offset
  c.nsect = s1 - s0;
  c.payload = bytes.data();
  const Result r = send(c);
  if (r.status != SSD_ST_OK) throw std::runtime_error("Open-Channel chunk log: status " + std::to_string(r.status));
  std::vector<ssd_oc_chunk> out(count);
  std::memcpy(out.data(), bytes.data() + size_t(first - s0 * kPer) * sizeof(ssd_oc_chunk), count * sizeof(ssd_oc_chunk));
  return out;
}

uint64_t OcHost::lba(const ssd_oc_geometry& g, uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) {
  const ssd_oc_lbaf& f = g.lbaf;
  return uint64_t(sec) | uint64_t(chk) << f.lba_len | uint64_t(pu) << (f.lba_len + f.chk_len) |
         uint64_t(grp) << (f.lba_len + f.chk_len + f.pu_len);
}

// A vector command's opcode, queue and LBAs (the one inline, or the list).
void OcHost::address(HostCommand& c, uint8_t opcode, const std::vector<uint64_t>& lbas, uint16_t queue) {
  c.opcode = opcode;
  c.queue = queue;
  c.nsect = uint32_t(lbas.size());
  c.lba = lbas.empty() ? 0 : lbas[0];
  c.lba_list = lbas.size() > 1 ? lbas.data() : nullptr;
}

OcHost::Result OcHost::reset(const std::vector<uint64_t>& lbas, uint16_t queue) {
  HostCommand c;
  address(c, SSD_HOP_OC_RESET, lbas, queue);
  return send(c);
}

OcHost::Result OcHost::write(const std::vector<uint64_t>& lbas, const std::vector<ssd_sector_tag>& tags, uint16_t queue,
                             const std::vector<ssd_oob>* meta) {
  if (tags.size() != lbas.size() || (meta && meta->size() != lbas.size()))
    throw std::invalid_argument("OcHost::write: a tag (and metadata) per LBA");
  std::vector<ssd_oob> m(meta ? *meta : std::vector<ssd_oob>());
  HostCommand c;
  std::vector<ssd_sector_tag> data(tags);
  address(c, SSD_HOP_OC_WRITE, lbas, queue);
  c.data = data.data();
  c.meta = meta ? m.data() : nullptr;
  return send(c);
}

OcHost::Result OcHost::read(const std::vector<uint64_t>& lbas, std::vector<ssd_sector_tag>& tags, uint16_t queue,
                            std::vector<ssd_oob>* meta) {
  HostCommand c;
  tags.assign(lbas.size(), ssd_sector_tag{0xFFFFFFFFu, 0xFFFFFFFFu});
  if (meta) meta->assign(lbas.size(), ssd_oob{0xFFFFFFFFu, 0xFFFFFFFFu});
  c.meta = meta ? meta->data() : nullptr;
  address(c, SSD_HOP_OC_READ, lbas, queue);
  c.data = tags.data();
  return send(c);
}

OcHost::Result OcHost::raw(uint8_t opcode, uint64_t lba, uint32_t nsect, uint16_t queue) {
  HostCommand c;
  std::vector<ssd_sector_tag> data(std::min<uint32_t>(nsect, 4096));   // should the device move data
  std::vector<uint8_t> bytes(opcode == SSD_HOP_OC_GEOMETRY || opcode == SSD_HOP_OC_CHUNK_LOG ? 4096ull * nsect : 0);
  c.data = data.data();
  c.payload = bytes.empty() ? nullptr : bytes.data();
  c.opcode = opcode;
  c.queue = queue;
  c.lba = lba;
  c.nsect = nsect;
  return send(c);
}

}  // namespace ssdvp
