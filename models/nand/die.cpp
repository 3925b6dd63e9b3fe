#include "models/nand/die.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace ssdvp::nand {

namespace {
bool all_zero(const uint8_t* p, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    acc |= w;
    if ((i & 4095) == 4088 && acc) return false;
  }
  return acc == 0;
}
}  // namespace

using sc_core::sc_time;

void Die::keep_payloads_in(const std::string& file) {
  if (!payload_) return;
  for (const Block& b : blocks_)
    if (b.payload) throw std::logic_error("Die::keep_payloads_in after the first program");
  payloads_.open(blocks_.size(), size_t(std::max(timing_.pages_per_block, pslc_timing_.pages_per_block)) * spp_ * 4096, file);
}

Die::Die(uint32_t index, CellType cell, const NandParams& p, bool payload)
    : index_(index),
      cell_(cell),
      timing_(p.timing(cell)),
      pslc_timing_(p.pslc),
      pslc_blocks_(cell == CellType::SLC ? 0 : p.pslc_blocks_per_plane),
      planes_(p.planes),
      blocks_per_plane_(p.blocks_of(index)),
      spp_(p.sectors_per_page),
      payload_(payload),
      independent_reads_(p.independent_plane_reads),
      multiplane_extra_(p.multiplane_extra),
      ecc_retry_(p.ecc_retry),
      p_uncorrectable_(p.uncorrectable_per_million / 1e6),
      p_corrected_(p.corrected_per_million / 1e6),
      faults_(p.fault_seed * 1000003u + index),
      p_program_fail_(p.program_fail_per_million / 1e6),
      p_erase_fail_(p.erase_fail_per_million / 1e6),
      worn_factor_(p.worn_fail_factor),
      endurance_(p.endurance_pe),
      block_faults_(p.fault_seed * 2000003u + index + 17u),
      rber_(p.rber),
      rber_max_retries_(p.rber.max_retries),
      blocks_(size_t(p.planes) * p.blocks_of(index)),
      regs_(size_t(p.planes) * p.sectors_per_page),
      status_(size_t(p.planes) * p.sectors_per_page) {
  payload_regs_.resize(size_t(planes_) * spp_ * 4096);
  if (payload_)
    payloads_.open(blocks_.size(), size_t(std::max(timing_.pages_per_block, pslc_timing_.pages_per_block)) * spp_ * 4096);
  reg_meta_.assign(planes_, 0);
  reg_zero_.assign(planes_, 0);
  plane_busy_until_.assign(planes_, sc_time(sc_core::SC_ZERO_TIME));
  for (const auto& f : p.injected_failures)
    if (f.die == index) injected_.push_back(f);
  for (uint32_t pl = 0; pl < planes_; pl++)
    for (uint32_t blk = 0; blk < pslc_blocks_ && blk < blocks_per_plane_; blk++) block_at(pl, blk).slc = true;
  if (p.factory_bad_permille > 0) {
    // Its own stream, so that the choice does not depend on any other fault setting.
    std::mt19937_64 factory(p.fault_seed * 3000017u + index);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (Block& b : blocks_)
      if (u(factory) < p.factory_bad_permille / 1000.0) b.bad = kFactoryBad, b.bad_at_power_on = true;
  }
}

bool Die::fails(ArrayOp op, uint32_t block, sc_time now) {
  bool fail = false;
  for (auto it = injected_.begin(); it != injected_.end(); ++it)
    if (it->block == block && it->erase == (op == ArrayOp::Erase) && now >= it->at) {
      injected_.erase(it);
      fail = true;
      break;
    }
  double p = op == ArrayOp::Erase ? p_erase_fail_ : p_program_fail_;
  for (uint32_t pl = 0; pl < planes_; pl++) {
    if (!(mask_ >> pl & 1u)) continue;
    const Block& b = block_at(pl, block);
    if (b.bad) fail = true;
    if (p > 0) {
      const double rate = endurance_ && b.erases >= endurance_ ? std::min(1.0, p * worn_factor_) : p;
      if (std::uniform_real_distribution<double>(0.0, 1.0)(block_faults_) < rate) fail = true;
    }
  }
  return fail;
}

void Die::count_bad_block_op(bool erase) {
  for (uint32_t pl = 0; pl < planes_; pl++)
    if (mask_ >> pl & 1u && block_at(pl, block_).bad_at_power_on) {
      bad_block_ops_[erase]++;
      return;
    }
}

std::string Die::address(uint32_t plane, uint32_t block, uint32_t page) const {
  std::ostringstream s;
  const bool slc = plane < planes_ && block < blocks_per_plane_ && block_at(plane, block).slc;
  s << "die " << index_ << " (" << cell_name(cell_) << (slc ? ", block in SLC mode" : "") << ") plane " << plane << " block " << block
    << " page " << page;
  return s.str();
}

void Die::violation(const std::string& what, uint32_t plane, uint32_t block, uint32_t page) const {
  throw RuleViolation("NAND rule violation (firmware bug): " + what + " at " +
                      address(plane, block, page));
}

void Die::latch(ArrayOp op, uint8_t plane_mask, uint32_t block, uint32_t page, sc_time now, bool slc_mode) {
  if (plane_mask == 0 || plane_mask >> planes_) violation("bad plane mask", plane_mask, block, page);
  const uint8_t occupied = occupied_planes(op, plane_mask);
  if (now < busy_until(occupied)) {
    std::ostringstream s;
    s << "command while busy (ready at " << busy_until(occupied) << ", now " << now << ")";
    violation(s.str(), uint32_t(__builtin_ctz(plane_mask)), block, page);
  }
  if (block >= blocks_per_plane_) violation("block out of range", 0, block, page);
  const uint32_t first = uint32_t(__builtin_ctz(plane_mask));
  if (op == ArrayOp::Erase) {
    latched_slc_ = slc_mode && cell_ != CellType::SLC;
  } else {
    latched_slc_ = block_at(first, block).slc;
    for (uint32_t pl = first + 1; pl < planes_; pl++)
      if (plane_mask >> pl & 1u && block_at(pl, block).slc != latched_slc_)
        violation("multi-plane operation over blocks in different modes (SLC and native)", pl, block, page);
    if (page >= pages_in(first, block))
      violation(latched_slc_ ? "page out of range (an SLC-mode block)" : "page out of range", first, block, page);
  }
  if (op == ArrayOp::Program) {
    for (uint32_t pl = 0; pl < planes_; pl++) {
      if (!(plane_mask >> pl & 1u)) continue;
      const Block& b = block_at(pl, block);
      if (page < b.next_page) violation("program of a page already programmed (no erase)", pl, block, page);
      if (page > b.next_page) {
        std::ostringstream s;
        s << "program out of order (next programmable page is " << b.next_page << ")";
        violation(s.str(), pl, block, page);
      }
    }
  }
  latched_ = op;
  for (uint32_t pl = 0; pl < planes_; pl++)
    if (plane_mask >> pl & 1u) reg_meta_[pl] = reg_zero_[pl] = 0;
  mask_ = plane_mask;
  block_ = block;
  page_ = page;
}

// The RBER model's read retries for the latched read (its registers and statuses are loaded):
// the steps of the worst plane, each another page read plus the ECC retry time; a plane past
// the last step reads uncorrectable.
sc_time Die::read_retries(sc_time now, sc_time t_read) {
  uint32_t steps = 0;
  for (uint32_t pl = 0; pl < planes_; pl++) {
    if (!(mask_ >> pl & 1u)) continue;
    const Block& b = block_at(pl, block_);
    if (!b.sectors.allocated() || page_ >= b.next_page || b.bad == kFactoryBad) continue;   // erased: no errors
    const uint32_t s = rber_.retry_steps(b.erases, (now - b.written_at).to_seconds() / 3600.0);
    if (s == RberModel::kUncorrectable) {
      for (uint32_t k = 0; k < spp_; k++) status_[pl * spp_ + k] = SectorStatus{0, 1};
      rber_uncorrectable_++;
      steps = std::max(steps, rber_max_retries_);
    } else {
      steps = std::max(steps, s);
    }
  }
  if (steps == 0) return sc_time(sc_core::SC_ZERO_TIME);
  retried_reads_++;
  retry_steps_ += steps;
  return double(steps) * (t_read + ecc_retry_);
}

sc_time Die::start_array(sc_time now) {
  if (latched_ == ArrayOp::None) violation("array operation without a command", 0, block_, page_);
  const CellTiming& timing = timing_of(latched_slc_);
  const uint32_t types = page_types(latched_slc_);
  const bool multi = (mask_ & (mask_ - 1u)) != 0;
  sc_time t;
  switch (latched_) {
    case ArrayOp::Read: {
      t = timing.t_read[timing.t_read.size() == 1 ? 0 : page_ % types];
      bool retry = false;
      for (uint32_t pl = 0; pl < planes_; pl++) {
        if (!(mask_ >> pl & 1u)) continue;
        const Block& b = block_at(pl, block_);
        for (uint32_t s = 0; s < spp_; s++) {
          Sector& r = regs_[pl * spp_ + s];
          r = (b.sectors.allocated() && page_ < b.next_page) ? b.sectors.get(size_t(page_) * spp_ + s) : Sector{};
          if (b.bad == kFactoryBad) r = Sector{{0, 0}, {0, 0}};   // the bad-block marker
          if (payload_) {
            uint8_t* dst = &payload_regs_[(size_t(pl) * spp_ + s) * 4096];
            if (page_ >= b.next_page)
              std::memset(dst, 0xFF, 4096);
            else if (b.payload)
              std::memcpy(dst, &b.payload[(size_t(page_) * spp_ + s) * 4096], 4096);
            else
              std::memset(dst, 0, 4096);   // a block of zero pages keeps no payload
          } else if (const uint8_t* meta = b.meta()) {
            uint8_t* dst = &payload_regs_[(size_t(pl) * spp_ + s) * 4096];
            if (page_ < b.next_page) std::memcpy(dst, &meta[(size_t(page_) * spp_ + s) * 4096], 4096);
            else std::memset(dst, 0xFF, 4096);
          }
          SectorStatus& st = status_[pl * spp_ + s];
          st = SectorStatus{};
          if (b.corrupt() && b.corrupt()[page_]) {
            st.uncorrectable = 1;
            continue;
          }
          if (p_uncorrectable_ > 0 || p_corrected_ > 0) {
            double u = std::uniform_real_distribution<double>(0.0, 1.0)(faults_);
            if (u < p_uncorrectable_) st.uncorrectable = 1;
            else if (u < p_uncorrectable_ + p_corrected_) { st.corrected = 1; retry = true; }
          }
        }
      }
      if (retry) t += ecc_retry_;
      if (rber_.enabled()) t += read_retries(now, t);
      break;
    }
    case ArrayOp::Program: {
      t = timing.t_prog[timing.t_prog.size() == 1 ? 0 : page_ % types];
      count_bad_block_op(false);
      last_failed_ = fails(ArrayOp::Program, block_, now);
      if (last_failed_) failed_programs_++;
      for (uint32_t pl = 0; pl < planes_; pl++) {
        if (!(mask_ >> pl & 1u)) continue;
        Block& b = block_at(pl, block_);
        if (!b.sectors.allocated())   // (in the form its first page needs: no lean array grown at once)
          b.sectors.allocate(size_t(timing.pages_per_block) * spp_, SectorStore::form_needed(&regs_[pl * spp_], spp_));
        b.sectors.put(size_t(page_) * spp_, &regs_[pl * spp_], spp_);
        if (payload_) {
          // Payloads are kept from a block's first page that is not all zeros on (the pages
          // before it read as zeros): a preconditioned drive's blocks cost no payload memory.
          const uint8_t* src = &payload_regs_[size_t(pl) * spp_ * 4096];
          const size_t page_bytes = size_t(spp_) * 4096;
          if (reg_zero_[pl]) {
            if (b.payload) std::memset(&b.payload[size_t(page_) * page_bytes], 0, page_bytes);
          } else {
            if (!b.payload && !all_zero(src, page_bytes)) b.payload = payloads_.slot(index_of(b));   // (zeros so far)
            if (b.payload) std::memcpy(&b.payload[size_t(page_) * page_bytes], src, page_bytes);
          }
        }
        if (!payload_ && reg_meta_[pl]) {
          std::memcpy(&b.meta(size_t(timing.pages_per_block) * spp_ * 4096)[size_t(page_) * spp_ * 4096], &payload_regs_[size_t(pl) * spp_ * 4096],
                      size_t(spp_) * 4096);
        }
        reg_meta_[pl] = reg_zero_[pl] = 0;
        if (page_ == 0 || b.next_page == 0) b.written_at = now;
        b.next_page = page_ + 1;
        programmed_sectors_ += spp_;
        if (last_failed_) {          // the page holds nothing readable; the block is bad
          mark_corrupt(b, page_);
          if (!b.bad) b.bad = kGrownBad;
        }
      }
      break;
    }
    case ArrayOp::Erase: {
      t = timing.t_erase;
      count_bad_block_op(true);
      last_failed_ = fails(ArrayOp::Erase, block_, now);
      if (last_failed_) failed_erases_++;
      for (uint32_t pl = 0; pl < planes_; pl++) {
        if (!(mask_ >> pl & 1u)) continue;
        Block& b = block_at(pl, block_);
        b.sectors.reset();
        if (b.payload) payloads_.discard(index_of(b));
        b.payload = nullptr;
        b.rare.reset();
        b.slc = latched_slc_;
        if (last_failed_) {          // as an interrupted erase: neither erased nor intact
          b.erases++;
          if (!b.bad) b.bad = kGrownBad;
          b.next_page = pages_of(b);
          for (uint32_t pg = 0; pg < pages_of(b); pg++) mark_corrupt(b, pg);
          continue;
        }
        b.next_page = 0;
        b.erases++;
      }
      break;
    }
    default: break;
  }
  if (multi) t += multiplane_extra_;
  op_counts_[size_t(latched_)]++;
  const sc_time end = now + t;
  const uint8_t occupied = occupied_planes(latched_, mask_);
  for (uint32_t pl = 0; pl < planes_; pl++)
    if (occupied >> pl & 1u) plane_busy_until_[pl] = end;
  running_ = latched_;
  Started rec{now, end, end, 0, latched_ == ArrayOp::Erase};
  if (latched_ == ArrayOp::Program) rec.programmed = uint32_t(spp_) * uint32_t(__builtin_popcount(mask_));
  latched_ = ArrayOp::None;
  if (end > busy_until_) {                  // busy time: the union of the planes' operations
    rec.busy_from = std::max(now, busy_until_);
    busy_ps_ += uint64_t((end - rec.busy_from).value());
    busy_until_ = end;
  }
  const sc_time sim_now = sc_core::sc_time_stamp();
  recent_.erase(std::remove_if(recent_.begin(), recent_.end(), [&](const Started& r) { return r.busy_to <= sim_now && r.start <= sim_now; }),
                recent_.end());
  recent_.push_back(rec);
  return end;
}

uint64_t Die::array_busy_ps_at(sc_time t) const {
  uint64_t ps = busy_ps_;
  for (const Started& r : recent_)
    if (r.busy_to > t) ps -= uint64_t((r.busy_to - std::max(t, r.busy_from)).value());
  return ps;
}

uint64_t Die::total_erases_at(sc_time t) const {
  uint64_t n = total_erases();
  for (const Started& r : recent_)
    if (r.erase && r.start > t) n--;
  return n;
}

uint64_t Die::programmed_sectors_at(sc_time t) const {
  uint64_t n = programmed_sectors_;
  for (const Started& r : recent_)
    if (r.start > t) n -= r.programmed;
  return n;
}

void Die::mark_corrupt(Block& b, uint32_t page) {
  b.corrupt(pages_of(b))[page] = 1;
}

std::string Die::power_cut(sc_time now, bool paired_page_loss, uint64_t* paired_lost) {
  latched_ = ArrayOp::None;                 // a command latched but not started does nothing
  if (running_ == ArrayOp::None || now >= busy_until_) return "";
  const ArrayOp op = running_;
  running_ = ArrayOp::None;
  busy_until_ = now;
  for (sc_time& t : plane_busy_until_) t = std::min(t, now);
  std::string what;
  for (uint32_t pl = 0; pl < planes_; pl++) {
    if (!(mask_ >> pl & 1u)) continue;
    Block& b = block_at(pl, block_);
    if (op == ArrayOp::Program) {
      mark_corrupt(b, page_);
      if (paired_page_loss)
        for (uint32_t k = 1; k <= page_ % page_types(latched_slc_); k++) {
          if (paired_lost && page_ - k < b.next_page && !(b.corrupt() && b.corrupt()[page_ - k])) ++*paired_lost;   // it held data
          mark_corrupt(b, page_ - k);
        }
    } else if (op == ArrayOp::Erase) {
      b.next_page = pages_of(b);           // neither erased nor intact: erase before programming
      for (uint32_t pg = 0; pg < pages_of(b); pg++) mark_corrupt(b, pg);
    }
  }
  if (op == ArrayOp::Program)
    what = "program of " + address(0, block_, page_) + (paired_page_loss && page_ % page_types(latched_slc_) ? " (and its paired pages)" : "");
  else if (op == ArrayOp::Erase)
    what = "erase of " + address(0, block_, 0);
  else
    what = "read of " + address(0, block_, page_);
  return what;
}

uint32_t Die::erase_count(uint32_t plane, uint32_t block) const { return block_at(plane, block).erases; }
uint32_t Die::next_page(uint32_t plane, uint32_t block) const { return block_at(plane, block).next_page; }

bool Die::stored(uint32_t plane, uint32_t block, uint32_t page, Sector* out) const {
  const Block& b = block_at(plane, block);
  if (!b.sectors.allocated() || page >= b.next_page) return false;
  for (uint32_t k = 0; k < spp_; k++) out[k] = b.sectors.get(size_t(page) * spp_ + k);
  return true;
}

}  // namespace ssdvp::nand
