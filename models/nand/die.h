// NAND die (architecture seam 4): the die owns its array timing (tR, tPROG, tBERS by cell
// type and page type), its ready/busy state, its page registers and its contents.
//
// Models: SLC/MLC/TLC cells with per-page-type timing (page p has type p mod bits-per-cell),
// SLC-mode (pSLC) blocks on MLC/TLC dies (one page type, their own timing, pages per block
// divided by the bits per cell): a block's mode is set by each erase (SSD_FDF_SLC_MODE), as a
// dynamic SLC cache needs, and the first nand.pslc.blocks_per_plane of each plane leave the
// factory in SLC mode; planes with one page register each, multi-plane operations (same block and page on every
// plane of the mask), independent multi-plane reads (nand.independent_plane_reads: a read makes
// only its planes busy, and a read of other planes may start while it runs; a program or an
// erase takes every plane and starts only when all are idle), erase-before-write and in-order programming inside a block (violations
// are firmware bugs: RuleViolation with the full address), erase counts per block, the data
// tag and OOB words of every 4 KiB sector (full payloads optional), and injected ECC faults.
// Power loss (power_cut): the page a program was writing reads back uncorrectable (and, with
// paired-page loss, the lower pages of its word line: page p's are p-1 ... p-type, type = p
// mod bits per cell), a block being erased is neither erased nor intact (every page reads
// uncorrectable, none can be programmed before an erase); the array persists (save/load).
// Block failures: factory bad blocks (a rate per plane; their pages read the bad-block marker,
// an all-zero spare), program failures (the page reads uncorrectable, the write pointer moves
// past it) and erase failures (left as an interrupted erase), at a rate that rises by a factor
// past the rated P/E cycles, or injected at a given block and time; a block that failed once
// fails every later program and erase (a grown defect).  The status of the last program or
// erase is the die's FAIL bit (last_failed), read in the operation's status phase.
// Raw bit errors rising with wear and data age (rber_model.h): a read needing read-retry steps
// takes another tR (plus the ECC retry time) per step, or is uncorrectable past the last.
// Leaves out: cache/read-retry command variants, program/erase suspend, read disturb, per-page
// variation of the error rate, the LSB/MSB pairing order of real MLC parts.
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/common/params.h"
#include "models/nand/rber_model.h"
#include "models/nand/payload_store.h"
#include "models/nand/sector_store.h"

extern "C" {
#include "ftl-sw/hal/regs.h"
}

namespace ssdvp::nand {

class RuleViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ArrayOp : uint8_t { None, Read, Program, Erase };

struct SectorStatus {
  uint8_t corrected = 0, uncorrectable = 0;
};

class Die {
 public:
  enum : uint8_t { kGood = 0, kFactoryBad = 1, kGrownBad = 2 };
  Die(uint32_t index, CellType cell, const NandParams& p, bool payload);

  uint32_t index() const { return index_; }
  // With payloads: keep them in a sparse file at `file` instead of memory (ssdvp serve), from
  // before the first program.  Throws std::runtime_error naming the file.
  void keep_payloads_in(const std::string& file);
  const std::string& payload_file() const { return payloads_.file(); }
  CellType cell() const { return cell_; }
  uint32_t pages_per_block() const { return timing_.pages_per_block; }   // native mode
  // A block's mode: SLC (1 bit per cell, nand.pslc timing and pages) or the die's own.  The
  // first nand.pslc.blocks_per_plane of each plane leave the factory in SLC mode; every erase
  // then sets the mode the block runs in until the next one (Die::latch, slc_mode).
  bool slc_mode(uint32_t plane, uint32_t block) const { return block_at(plane, block).slc; }
  uint32_t pages_in(uint32_t plane, uint32_t block) const { return pages_of(block_at(plane, block)); }
  uint32_t planes() const { return planes_; }
  uint32_t blocks_per_plane() const { return blocks_per_plane_; }
  uint32_t sectors_per_page() const { return spp_; }

  // Ready/busy: the die is busy until every array operation under way has finished.
  bool ready(sc_core::sc_time now) const { return now >= busy_until_; }
  sc_core::sc_time busy_until() const { return busy_until_; }
  // Per plane (R/B# of each plane, as 3D NAND with independent plane reads reports them).
  bool independent_reads() const { return independent_reads_; }
  sc_core::sc_time plane_busy_until(uint32_t plane) const { return plane_busy_until_[plane]; }
  // The planes an operation occupies, and must find idle: a read's own with independent plane
  // reads, else every plane of the die.
  uint8_t occupied_planes(ArrayOp op, uint8_t plane_mask) const {
    return independent_reads_ && op == ArrayOp::Read ? plane_mask : uint8_t((1u << planes_) - 1u);
  }
  // When the planes of `mask` are all idle.
  sc_core::sc_time busy_until(uint8_t mask) const {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    for (uint32_t pl = 0; pl < planes_; pl++)
      if (mask >> pl & 1u) t = std::max(t, plane_busy_until_[pl]);
    return t;
  }

  // Command/address phase: latches an operation.  Throws RuleViolation for a bad address, a
  // command while a plane it occupies is busy (occupied_planes), a program out of order or onto a programmed page, a multi-plane read
  // or program over blocks in different modes.  An erase sets the blocks' mode: SLC with
  // slc_mode (on an MLC/TLC die; an SLC die's blocks are SLC either way), else the die's own.
  void latch(ArrayOp op, uint8_t plane_mask, uint32_t block, uint32_t page, sc_core::sc_time now,
             bool slc_mode = false);

  // Data phases: the page register of `plane` (sectors_per_page entries).  For a program the
  // channel fills it before start_array(); for a read it is valid after the array time.
  Sector* page_register(uint32_t plane) { return &regs_[plane * spp_]; }
  // The plane's 4 KiB payloads: with sim.payload always; otherwise only for FTL metadata
  // (SSD_FDF_PAYLOAD: translation pages), which the die then keeps for the page it programs.
  // A program's payloads are all zeros (preconditioning's sectors with the host's own bytes):
  // instead of filling the register, the flash controller says so.
  void zero_payload_register(uint32_t plane) { reg_zero_[plane] = 1; }
  uint8_t* payload_register(uint32_t plane, bool metadata = false) {
    if (!payload_ && !metadata) return nullptr;
    if (!payload_) reg_meta_[plane] = 1;
    return &payload_regs_[size_t(plane) * spp_ * 4096];
  }

  // Array phase of the latched operation, starting at `now`; returns when it ends.
  // Program: commits the page registers to the array.  Read: loads them (with injected ECC
  // outcomes in read_status()).  Erase: clears the blocks and counts the erase.
  sc_core::sc_time start_array(sc_core::sc_time now);

  // Executes a whole operation with no simulated time and without touching ready/busy
  // (functional preconditioning): fill(plane) loads each page register before a program,
  // drain(plane) takes each one after a read.  Rules are checked as for a timed operation.
  template <class Fill, class Drain>
  void functional(ArrayOp op, uint8_t plane_mask, uint32_t block, uint32_t page, Fill fill, Drain drain,
                  bool slc_mode = false) {
    const sc_core::sc_time saved = busy_until_;
    sc_core::sc_time saved_planes[8];   // plane masks are 8 bits: no allocation per operation
    std::copy(plane_busy_until_.begin(), plane_busy_until_.end(), saved_planes);
    const uint64_t saved_ps = busy_ps_;
    latch(op, plane_mask, block, page, busy_until_, slc_mode);
    for (uint32_t pl = 0; pl < planes_; pl++)
      if (plane_mask >> pl & 1u) fill(pl);
    const size_t saved_recent = recent_.size();
    start_array(busy_until_);
    recent_.resize(std::min(recent_.size(), saved_recent));
    for (uint32_t pl = 0; pl < planes_; pl++)
      if (plane_mask >> pl & 1u) drain(pl);
    busy_until_ = saved;
    std::copy(saved_planes, saved_planes + plane_busy_until_.size(), plane_busy_until_.begin());
    busy_ps_ = saved_ps;
    op_counts_[size_t(op)]--;
  }

  // A hint that an operation on this page is coming: its stored sectors are brought into the
  // host's cache early (simulation speed only, no effect on the model).
  void prefetch(uint8_t plane_mask, uint32_t block, uint32_t page) const {
    for (uint32_t pl = 0; pl < planes_; pl++) {
      if (!(plane_mask >> pl & 1u) || block >= blocks_per_plane_) continue;
      const Block& b = block_at(pl, block);
      if (b.sectors.allocated() && page < pages_of(b))
        __builtin_prefetch(b.sectors.words() + size_t(page) * spp_ * b.sectors.words_per_sector());
    }
  }

  // The FAIL bit of the status register: the last program or erase started failed.
  bool last_failed() const { return last_failed_; }
  // Block state (tests, statistics): 0 good, 1 bad from the factory, 2 grown bad.
  uint8_t bad(uint32_t plane, uint32_t block) const { return block_at(plane, block).bad; }
  uint64_t failed_programs() const { return failed_programs_; }
  uint64_t failed_erases() const { return failed_erases_; }
  // Programs and erases started on a block that was bad when the die powered on (from the
  // factory, or in the NAND image it was loaded from): firmware that knows its bad blocks
  // never does either, so each is a bad-block table that did not survive or was not read.
  uint64_t bad_block_programs() const { return bad_block_ops_[0]; }
  uint64_t bad_block_erases() const { return bad_block_ops_[1]; }
  // Reads that needed read-retry steps (the RBER model, rber_model.h), the steps they took, and
  // plane reads that stayed uncorrectable after the last step.
  uint64_t retried_reads() const { return retried_reads_; }
  uint64_t retry_steps() const { return retry_steps_; }
  uint64_t rber_uncorrectable() const { return rber_uncorrectable_; }

  const SectorStatus& read_status(uint32_t plane, uint32_t sector) const {
    return status_[plane * spp_ + sector];
  }

  // Inspection (tests, statistics).
  uint32_t erase_count(uint32_t plane, uint32_t block) const;
  uint32_t next_page(uint32_t plane, uint32_t block) const;
  // The page's sectors (sectors_per_page of them) into `out`; false if it is not programmed.
  bool stored(uint32_t plane, uint32_t block, uint32_t page, Sector* out) const;
  // A program of this page is still under way at `now` (its data is in the array already,
  // but not yet durable).  A program runs alone on the die, so the latest operation is it.
  bool programming(uint32_t plane, uint32_t block, uint32_t page, sc_core::sc_time now) const {
    return running_ == ArrayOp::Program && now < busy_until_ && (mask_ >> plane & 1u) && block == block_ &&
           page == page_;
  }
  // The page reads back uncorrectable (a program or erase that power loss interrupted).
  bool corrupt(uint32_t plane, uint32_t block, uint32_t page) const {
    const Block& b = block_at(plane, block);
    return b.corrupt() && page < pages_of(b) && b.corrupt()[page];
  }

  // Power is lost at `now`: the array operation under way, if any, is left as power loss
  // leaves it (see the header).  Returns what it interrupted ("" if nothing), for the run's
  // report, e.g. "program of die 3 ... page 7 (and its paired pages)".  `paired_lost` (if given) counts
  // the pages programmed before that the cut made unreadable (the paired pages' planes).
  std::string power_cut(sc_core::sc_time now, bool paired_page_loss, uint64_t* paired_lost = nullptr);

  // The array's contents (pages, OOB, payloads, erase counts, interrupted pages), in a
  // versioned binary form; load() refuses another geometry naming what differs.
  void save(std::ostream& out) const;
  void load(std::istream& in, const std::string& source);
  // What else a drive-state snapshot keeps (platforms/drive_snapshot.h), beside the array
  // above: the blocks' data ages, the fault generators' states, the injected failures not
  // yet met, the counters.  Saved only when the die is idle.
  void save_runtime(std::ostream& out) const;
  void load_runtime(std::istream& in, const std::string& source);
  uint64_t array_busy_ps() const { return busy_ps_; }
  uint64_t total_erases() const { return op_counts_[size_t(ArrayOp::Erase)]; }
  // Sectors committed to the array by programs, timed or functional: the die's own count,
  // independent of the firmware's statistics (write amplification is checked against it).
  uint64_t programmed_sectors() const { return programmed_sectors_; }
  // The same three as of simulated time t: an array operation counts from the time it starts
  // and its busy time up to t.  A channel may start a die's array ahead of the SystemC time
  // (the TLM channel when it grants the command phase, the RTL channel when it clocks
  // array_go, each by a different amount); a run's figures are taken as of its end, so that
  // both agree on what was in flight then.
  uint64_t array_busy_ps_at(sc_core::sc_time t) const;
  uint64_t total_erases_at(sc_core::sc_time t) const;
  uint64_t programmed_sectors_at(sc_core::sc_time t) const;
  // Blocks holding data, by how their tags and OOB are kept (sector_store.h): compact (at
  // most 12 bytes per sector; of them lean, 8) or wide (16).
  void count_stored_blocks(uint64_t& compact, uint64_t& wide, uint64_t& lean) const {
    for (const Block& b : blocks_) {
      if (!b.sectors.allocated()) continue;
      (b.sectors.wide() ? wide : compact)++;
      lean += b.sectors.form() == SectorStore::kLean;
    }
  }

  std::string address(uint32_t plane, uint32_t block, uint32_t page) const;

 private:
  // One per block of the drive (half a million on a 1 TiB drive): 48 bytes, the three small
  // fields in the sector store's tail padding.
  struct Block {
    [[no_unique_address]] SectorStore sectors;   // allocated at the first program
    uint8_t bad = 0;                         // kGood, kFactoryBad, kGrownBad
    bool bad_at_power_on = false;            // bad when the die was built or loaded
    bool slc = false;                        // in SLC mode (set by its last erase)
    uint32_t next_page = 0;
    uint32_t erases = 0;
    sc_core::sc_time written_at;             // its first program since the erase (data age)
    uint8_t* payload = nullptr;              // with payloads, from the first page not all zeros on
                                             // (its slot in payloads_; none: zeros)
    // What few blocks have, allocated when one of them is first needed:
    struct Rare {
      std::unique_ptr<uint8_t[]> meta;       // without payloads: the payloads of metadata pages
      std::unique_ptr<uint8_t[]> corrupt;    // per page: interrupted by power loss
    };
    std::unique_ptr<Rare> rare;
    uint8_t* meta() const { return rare ? rare->meta.get() : nullptr; }
    uint8_t* corrupt() const { return rare ? rare->corrupt.get() : nullptr; }
    // The arrays, allocated if the block has none yet: the metadata pages' payloads left as
    // allocated (each program fills its page; a large array is then committed only as pages are
    // written), the corrupt flags zeroed.
    uint8_t* meta(size_t bytes) { return made(&Rare::meta, bytes, false); }
    uint8_t* corrupt(size_t pages) { return made(&Rare::corrupt, pages, true); }
    uint8_t* made(std::unique_ptr<uint8_t[]> Rare::*which, size_t bytes, bool zeroed) {
      if (!rare) rare = std::make_unique<Rare>();
      auto& a = (*rare).*which;
      if (!a) a.reset(zeroed ? new uint8_t[bytes]() : new uint8_t[bytes]);
      return a.get();
    }
  };
  static_assert(sizeof(Block) <= 48, "a die keeps one Block per block: keep it small");
  void mark_corrupt(Block& b, uint32_t page);
  sc_core::sc_time read_retries(sc_core::sc_time now, sc_core::sc_time t_read);
  // Whether this program or erase of `block` (started at `now`) fails; consumes an injected
  // failure it meets.
  bool fails(ArrayOp op, uint32_t block, sc_core::sc_time now);
  Block& block_at(uint32_t plane, uint32_t block) { return blocks_[plane * blocks_per_plane_ + block]; }
  const Block& block_at(uint32_t plane, uint32_t block) const {
    return blocks_[plane * blocks_per_plane_ + block];
  }
  const CellTiming& timing_of(bool slc) const { return slc ? pslc_timing_ : timing_; }
  uint32_t pages_of(const Block& b) const { return timing_of(b.slc).pages_per_block; }
  // Page types of a block in that mode (paired pages, per-page-type timing): 1 in SLC mode.
  uint32_t page_types(bool slc) const { return slc ? 1u : uint32_t(cell_); }
  [[noreturn]] void violation(const std::string& what, uint32_t plane, uint32_t block, uint32_t page) const;

  uint32_t index_;
  CellType cell_;
  CellTiming timing_;
  CellTiming pslc_timing_;
  uint32_t pslc_blocks_;                    // blocks per plane in SLC mode (0 on SLC dies)
  bool latched_slc_ = false;                // the latched blocks' mode (an erase: the mode it sets)
  uint32_t planes_, blocks_per_plane_, spp_;
  bool payload_;
  bool independent_reads_;
  sc_core::sc_time multiplane_extra_, ecc_retry_;
  double p_uncorrectable_, p_corrected_;
  std::mt19937_64 faults_;
  double p_program_fail_, p_erase_fail_, worn_factor_;
  uint32_t endurance_;
  std::mt19937_64 block_faults_;            // program/erase failures (own stream: enabling them
                                            // leaves the read faults' draws as they were)
  std::vector<NandParams::InjectedFailure> injected_;   // this die's, not yet met
  bool last_failed_ = false;
  uint64_t failed_programs_ = 0, failed_erases_ = 0;
  uint64_t bad_block_ops_[2] = {0, 0};      // programs, erases on blocks bad at power-on
  // Counts an operation on a block of the latched planes that was bad at power-on.
  void count_bad_block_op(bool erase);
  RberModel rber_;
  uint32_t rber_max_retries_;
  uint64_t retried_reads_ = 0, retry_steps_ = 0, rber_uncorrectable_ = 0;

  std::vector<Block> blocks_;
  PayloadStore payloads_;                   // with payloads: a slot per block
  size_t index_of(const Block& b) const { return size_t(&b - blocks_.data()); }
  std::vector<Sector> regs_;
  std::vector<uint8_t> payload_regs_;
  std::vector<uint8_t> reg_zero_;           // per plane: the register holds zeros (zero_payload_register)
  std::vector<uint8_t> reg_meta_;           // per plane: the register holds a metadata payload
  std::vector<SectorStatus> status_;

  ArrayOp latched_ = ArrayOp::None;
  ArrayOp running_ = ArrayOp::None;        // the array operation that ends at busy_until_
  uint8_t mask_ = 0;
  uint32_t block_ = 0, page_ = 0;
  sc_core::sc_time busy_until_ = sc_core::SC_ZERO_TIME;   // the latest end of any plane's operation
  std::vector<sc_core::sc_time> plane_busy_until_;
  uint64_t busy_ps_ = 0;                    // time with any plane busy
  uint64_t op_counts_[4] = {0, 0, 0, 0};
  uint64_t programmed_sectors_ = 0;
  // The latest array operations, for the "as of t" figures: when each starts, the busy time it
  // added (from busy_from to busy_to), what it programmed, whether an erase.  Those that ended
  // before the SystemC time are dropped as new ones start.
  struct Started {
    sc_core::sc_time start, busy_from, busy_to;
    uint32_t programmed;
    bool erase;
  };
  std::vector<Started> recent_;
};

}  // namespace ssdvp::nand
