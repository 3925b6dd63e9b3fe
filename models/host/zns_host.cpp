// The host's side of the zoned command set: see zns_host.h.
#include "models/host/zns_host.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace ssdvp {

ZnsHost::Result ZnsHost::send(HostCommand& c) {
  c.result = 0;
  port_.send(c);
  Result r;
  r.status = c.status;
  r.lba = c.result;
  r.submitted = c.t_submit;
  r.completed = c.t_complete;
  return r;
}

ssd_zns_id_ns ZnsHost::identify_namespace(uint16_t queue) {
  std::vector<uint8_t> bytes(4096);
  HostCommand c;
  c.opcode = SSD_HOP_ZNS_IDENTIFY;
  c.queue = queue;
  c.nsect = 1;
  c.cdw[0] = SSD_ZNS_CNS_NS;
  c.payload = bytes.data();
  const Result r = send(c);
  if (r.status != SSD_ST_OK) throw std::runtime_error("zoned Identify namespace: status " + std::to_string(r.status));
  ssd_zns_id_ns ns;
  std::memcpy(&ns, bytes.data(), sizeof(ns));
  return ns;
}

ssd_zns_id_ctrl ZnsHost::identify_controller(uint16_t queue) {
  std::vector<uint8_t> bytes(4096);
  HostCommand c;
  c.opcode = SSD_HOP_ZNS_IDENTIFY;
  c.queue = queue;
  c.nsect = 1;
  c.cdw[0] = SSD_ZNS_CNS_CTRL;
  c.payload = bytes.data();
  const Result r = send(c);
  if (r.status != SSD_ST_OK) throw std::runtime_error("zoned Identify controller: status " + std::to_string(r.status));
  ssd_zns_id_ctrl ctrl;
  std::memcpy(&ctrl, bytes.data(), sizeof(ctrl));
  return ctrl;
}

ZnsHost::Geometry ZnsHost::geometry(uint16_t queue) {
  const ssd_zns_id_ns ns = identify_namespace(queue);
  const ssd_zns_id_ctrl ctrl = identify_controller(queue);
  ssd_zns_vs vs;
  std::memcpy(&vs, ns.vs, sizeof(vs));
  Geometry g;
  g.nr_zones = vs.nr_zones;
  g.zsze = ns.lbafe[0].zsze;
  g.zcap = vs.zcap;
  g.max_open = ns.mor == 0xFFFFFFFFu ? 0 : ns.mor + 1;
  g.max_active = ns.mar == 0xFFFFFFFFu ? 0 : ns.mar + 1;
  g.zasl_sectors = 1u << ctrl.zasl;
  return g;
}

ZnsHost::Result ZnsHost::write(uint64_t lba, const std::vector<ssd_sector_tag>& tags, uint16_t queue) {
  std::vector<ssd_sector_tag> data(tags);
  HostCommand c;
  c.opcode = SSD_HOP_WRITE;
  c.queue = queue;
  c.lba = lba;
  c.nsect = uint32_t(tags.size());
  c.data = data.data();
  return send(c);
}

ZnsHost::Result ZnsHost::append(uint64_t zslba, const std::vector<ssd_sector_tag>& tags, uint16_t queue) {
  std::vector<ssd_sector_tag> data(tags);
  HostCommand c;
  c.opcode = SSD_HOP_ZNS_APPEND;
  c.queue = queue;
  c.lba = zslba;
  c.nsect = uint32_t(tags.size());
  c.data = data.data();
  return send(c);
}

ZnsHost::Result ZnsHost::read(uint64_t lba, uint32_t n, std::vector<ssd_sector_tag>& tags, uint16_t queue) {
  tags.assign(n, ssd_sector_tag{0xFFFFFFFFu, 0xFFFFFFFFu});
  HostCommand c;
  c.opcode = SSD_HOP_READ;
  c.queue = queue;
  c.lba = lba;
  c.nsect = n;
  c.data = tags.data();
  return send(c);
}

ZnsHost::Result ZnsHost::manage(uint64_t zslba, uint8_t action, bool select_all, uint16_t queue) {
  HostCommand c;
  c.opcode = SSD_HOP_ZNS_MGMT_SEND;
  c.queue = queue;
  c.lba = zslba;
  c.cdw[0] = action | (select_all ? SSD_ZNS_SELECT_ALL : 0u);
  return send(c);
}

ZnsHost::Report ZnsHost::report(uint64_t slba, uint8_t option, bool partial, uint32_t sectors, uint16_t queue) {
  std::vector<uint8_t> bytes(size_t(sectors) * 4096);
  HostCommand c;
  c.opcode = SSD_HOP_ZNS_MGMT_RECV;
  c.queue = queue;
  c.lba = slba;
  c.nsect = sectors;
  c.cdw[0] = SSD_ZNS_ZRA_REPORT | uint32_t(option) << 8 | (partial ? SSD_ZNS_PARTIAL_REPORT : 0u);
  c.payload = bytes.data();
  Report out;
  out.status = send(c).status;
  if (out.status != SSD_ST_OK) return out;
  ssd_zns_report_header h;
  std::memcpy(&h, bytes.data(), sizeof(h));
  out.nr_zones = h.nr_zones;
  const uint64_t room = uint64_t(sectors) * 4096 / sizeof(ssd_zns_zone_desc) - 1;
  const uint64_t n = std::min<uint64_t>(h.nr_zones, room);   // partial or not: what fits
  out.zones.resize(n);
  std::memcpy(out.zones.data(), bytes.data() + sizeof(h), n * sizeof(ssd_zns_zone_desc));
  return out;
}

ZnsHost::Result ZnsHost::flush(uint16_t queue) {
  HostCommand c;
  c.opcode = SSD_HOP_FLUSH;
  c.queue = queue;
  return send(c);
}

ZnsHost::Result ZnsHost::raw(uint8_t opcode, uint64_t lba, uint32_t nsect, uint32_t cdw0, uint16_t queue) {
  std::vector<ssd_sector_tag> data(std::min<uint32_t>(nsect, 4096));
  std::vector<uint8_t> bytes(opcode == SSD_HOP_ZNS_MGMT_RECV || opcode == SSD_HOP_ZNS_IDENTIFY ? 4096ull * nsect : 0);
  HostCommand c;
  c.opcode = opcode;
  c.queue = queue;
  c.lba = lba;
  c.nsect = nsect;
  c.cdw[0] = cdw0;
  c.data = data.data();
  c.payload = bytes.empty() ? nullptr : bytes.data();
  return send(c);
}

}  // namespace ssdvp
