// After-power-cut expectations: see power_cut_check.h.
#include "models/host/power_cut_check.h"

#include <fstream>
#include <stdexcept>

namespace ssdvp {

namespace {
constexpr uint32_t kMagic = 0x44555245u;   // "ERUD"
constexpr uint32_t kVersion = 2;

template <class T>
void put_vec(std::ofstream& out, const std::vector<T>& v) {
  const uint64_t n = v.size();
  out.write(reinterpret_cast<const char*>(&n), sizeof n);
  out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(n * sizeof(T)));
}

template <class T>
void get_vec(std::ifstream& in, std::vector<T>& v, const std::string& path) {
  uint64_t n = 0;
  if (!in.read(reinterpret_cast<char*>(&n), sizeof n) || n > (1ull << 36))
    throw std::runtime_error(path + ": truncated or corrupt durability record");
  v.resize(n);
  if (!in.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(T))))
    throw std::runtime_error(path + ": truncated durability record");
}
}  // namespace

void DurableState::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const uint32_t head[2] = {kMagic, kVersion};
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  out.write(reinterpret_cast<const char*>(&precond_below), sizeof precond_below);
  out.write(reinterpret_cast<const char*>(&cut_ns), sizeof cut_ns);
  put_vec(out, durable);
  put_vec(out, zeros_ok);
  put_vec(out, writes);
  if (!out) throw std::runtime_error(path + ": cannot write the durability record");
}

DurableState DurableState::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the durability record");
  uint32_t head[2] = {0, 0};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  if (head[0] != kMagic || head[1] != kVersion) throw std::runtime_error(path + ": not a durability record of this build");
  DurableState s;
  in.read(reinterpret_cast<char*>(&s.precond_below), sizeof s.precond_below);
  in.read(reinterpret_cast<char*>(&s.cut_ns), sizeof s.cut_ns);
  get_vec(in, s.durable, path);
  get_vec(in, s.zeros_ok, path);
  get_vec(in, s.writes, path);
  if (s.zeros_ok.size() != s.durable.size()) throw std::runtime_error(path + ": corrupt durability record");
  return s;
}

std::string DurableState::check(uint64_t lba, const ssd_sector_tag& t, bool unreadable) const {
  if (lba >= durable.size()) return "LBA " + std::to_string(lba) + " beyond the namespace the host knew";
  const uint32_t d = durable[lba];
  const bool precond = lba < precond_below;
  const std::string where = "LBA " + std::to_string(lba) + ": ";
  const std::string want = d ? "write #" + std::to_string(d) : precond ? std::string("preconditioned data") : std::string("zeros");
  if (unreadable) {
    if (zeros_ok[lba]) return "";
    return where + "unreadable (media error) where " + want + " was durable";
  }
  if (t.seq == 0) {
    const bool is_precond = t.lba == uint32_t(lba) && precond;
    const bool is_zeros = t.lba == 0;
    if (is_zeros && zeros_ok[lba]) return "";
    if (is_precond && d == 0) return "";
    if (is_zeros) return where + "zeros where " + want + " was durable";
    if (t.lba == uint32_t(lba)) return where + "preconditioned data, older than durable " + want;
    return where + "another sector's data (tag " + std::to_string(t.lba) + ", 0)";
  }
  if (t.lba != uint32_t(lba)) return where + "another sector's data (tag " + std::to_string(t.lba) + ", #" + std::to_string(t.seq) + ")";
  if (t.seq > writes.size()) return where + "garbage: write #" + std::to_string(t.seq) + " was never submitted";
  const Write& w = writes[t.seq - 1];
  if (lba < w.lba || lba >= w.lba + w.nsect) return where + "garbage: write #" + std::to_string(t.seq) + " did not cover it";
  if (t.seq < d && w.complete_ns < writes[d - 1].submit_ns)   // acknowledged before the durable one was sent
    return where + "older version #" + std::to_string(t.seq) + " (durable: #" + std::to_string(d) + ")";
  return "";
}

}  // namespace ssdvp
