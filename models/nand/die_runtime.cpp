// A die's state beyond its array, for drive-state snapshots (Die::save_runtime /
// Die::load_runtime): what a run continuing from the snapshot needs to behave as the run
// that saved it would have: each block's data age (retention errors), the fault
// generators' states (so the same operations fail), the injected failures not yet met, the
// statistics counters.  Page registers and ready/busy state are not saved: the platform
// saves only when every die is idle.
#include <initializer_list>
#include <sstream>
#include <stdexcept>

#include "models/nand/binary_record.h"
#include "models/nand/die.h"

namespace ssdvp::nand {

namespace {

constexpr uint32_t kRuntimeMagic = 0x54524444u;   // "DDRT"
constexpr uint32_t kRuntimeVersion = 2;   // 2: the bad-block operation counts

using record::put;
using record::put_bytes;

template <class T>
T get(std::istream& in, const std::string& source) {
  return record::get<T>(in, source, "die state");
}

void put_rng(std::ostream& out, const std::mt19937_64& r) {
  std::ostringstream s;
  s << r;
  const std::string text = s.str();
  put(out, uint32_t(text.size()));
  put_bytes(out, text.data(), text.size());
}

void get_rng(std::istream& in, std::mt19937_64& r, const std::string& source) {
  const auto n = get<uint32_t>(in, source);
  if (n > 1u << 16) throw std::runtime_error(source + ": die state has a bad generator record");
  std::string text(n, '\0');
  record::get_bytes(in, text.data(), n, source, "die state");
  std::istringstream s(text);
  s >> r;
  if (!s) throw std::runtime_error(source + ": die state has a bad generator record");
}

}  // namespace

void Die::save_runtime(std::ostream& out) const {
  put(out, kRuntimeMagic);
  put(out, kRuntimeVersion);
  put(out, index_);
  put(out, uint32_t(blocks_.size()));
  for (const Block& b : blocks_) put(out, b.written_at.value());
  put_rng(out, faults_);
  put_rng(out, block_faults_);
  put(out, uint32_t(injected_.size()));
  for (const auto& f : injected_) {
    put(out, uint8_t(f.erase));
    put(out, f.die);
    put(out, f.block);
    put(out, f.at.value());
  }
  put(out, uint8_t(last_failed_));
  for (uint64_t v : std::initializer_list<uint64_t>{failed_programs_, failed_erases_, retried_reads_, retry_steps_, rber_uncorrectable_,
                     busy_until_.value(), busy_ps_, op_counts_[0], op_counts_[1], op_counts_[2], op_counts_[3],
                     programmed_sectors_, bad_block_ops_[0], bad_block_ops_[1]})
    put(out, v);
  if (!out) throw std::runtime_error("cannot write the state of die " + std::to_string(index_));
}

void Die::load_runtime(std::istream& in, const std::string& source) {
  if (get<uint32_t>(in, source) != kRuntimeMagic) throw std::runtime_error(source + ": not a ssdvp die state record");
  const auto version = get<uint32_t>(in, source);
  if (version != kRuntimeVersion)
    throw std::runtime_error(source + ": die state version " + std::to_string(version) + ", this build reads " +
                             std::to_string(kRuntimeVersion));
  const auto index = get<uint32_t>(in, source);
  const auto blocks = get<uint32_t>(in, source);
  if (index != index_ || blocks != blocks_.size())
    throw std::runtime_error(source + ": die state of die " + std::to_string(index) + " with " + std::to_string(blocks) +
                             " blocks, this platform's die " + std::to_string(index_) + " has " +
                             std::to_string(blocks_.size()));
  const auto ps = [](uint64_t v) { return sc_core::sc_time::from_value(v); };
  for (Block& b : blocks_) b.written_at = ps(get<uint64_t>(in, source));
  get_rng(in, faults_, source);
  get_rng(in, block_faults_, source);
  const auto n = get<uint32_t>(in, source);
  if (n > 1u << 20) throw std::runtime_error(source + ": die state has a bad failure list");
  injected_.clear();
  for (uint32_t i = 0; i < n; i++) {
    NandParams::InjectedFailure f;
    f.erase = get<uint8_t>(in, source) != 0;
    f.die = get<uint32_t>(in, source);
    f.block = get<uint32_t>(in, source);
    f.at = ps(get<uint64_t>(in, source));
    injected_.push_back(f);
  }
  last_failed_ = get<uint8_t>(in, source) != 0;
  for (uint64_t* v : {&failed_programs_, &failed_erases_, &retried_reads_, &retry_steps_, &rber_uncorrectable_})
    *v = get<uint64_t>(in, source);
  busy_until_ = ps(get<uint64_t>(in, source));
  busy_ps_ = get<uint64_t>(in, source);
  for (uint64_t& v : op_counts_) v = get<uint64_t>(in, source);
  programmed_sectors_ = get<uint64_t>(in, source);
  for (uint64_t& v : bad_block_ops_) v = get<uint64_t>(in, source);
}

}  // namespace ssdvp::nand
