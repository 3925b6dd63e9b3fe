// Rv32Iss on Unicorn 2.
//
// Counting: per block (default) a block hook adds each translated block's instruction count
// (decoded once from the code and cached) before the block runs, and ends the run before the
// first block that starts at or past the budget: Unicorn checks for a stop request between
// the block hook and the block's first instruction, so a stopped block does not execute and
// the PC is its start.  Exact runs use a code hook before every instruction instead.
//
// Peripheral accesses: the MMIO callback does not know the PC (Unicorn updates it only at
// block ends), but TCG writes the guest registers back before every load/store helper, so
// the accessing instruction is found exactly by decoding the current block: the first load
// or store (after the one matched last in this block) of the access's direction and size
// whose base register plus offset is the accessed address.  That gives the exact retired
// count (the local time of the access) and the PC for error messages.
//
// Stores: QEMU's softmmu sends a store to its slow path while the page's TLB entry is
// marked not-dirty, and Unicorn clears that mark only for pages that are not executable and
// not watched by a memory hook (2.1; 2.0 never clears it).  In M-mode every page is
// executable (no translation: read, write, execute).  So the hart's data accesses go through
// an identity Sv32 map: mstatus.MPRV with MPP = U and SUM, one root table of 4 MiB pages,
// executable only where code is mapped; invalid accesses are watched only in the unmapped
// gaps.  Same addresses, same results; data stores take the fast path (a store loop: 4x
// with Unicorn 2.1.4, 1.6x with 2.0.1).  Visible to the firmware: satp, and mstatus MPRV,
// SUM and MPP (a trap handler's mret returns to M-mode as before and leaves MPP = U).
//
// Early ends requested from MMIO callbacks take effect at the next instruction (exact) or
// block (per block): stopping Unicorn inside an MMIO callback would restart the accessing
// instruction.  ecall is reported with the PC Unicorn gives (already past it) turned back
// into the instruction's address; ebreak, which Unicorn reports as an invalid instruction,
// becomes the breakpoint trap it is.
#include <unicorn/unicorn.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "models/cpu/rv32_decode.h"
#include "models/cpu/rv32_iss.h"

namespace ssdvp {

namespace {

constexpr uint32_t kCauseEcallU = 8, kCauseEcallM = 11, kCauseBreakpoint = 3;

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

void check(uc_err e, const std::string& what) {
  if (e != UC_ERR_OK) throw std::runtime_error("ISS: " + what + ": " + uc_strerror(e));
}

int csr_reg(Rv32Iss::Csr c) {
  switch (c) {
    case Rv32Iss::Csr::Mstatus: return UC_RISCV_REG_MSTATUS;
    case Rv32Iss::Csr::Mtvec: return UC_RISCV_REG_MTVEC;
    case Rv32Iss::Csr::Mepc: return UC_RISCV_REG_MEPC;
    case Rv32Iss::Csr::Mcause: return UC_RISCV_REG_MCAUSE;
    default: return UC_RISCV_REG_MIE;
  }
}

// Executable memory as the host sees it, with the instruction count of every block that has
// started at each 2-byte address (size in bytes << 16 | count; 0 = not known yet).
struct CodeRegion {
  uint32_t base = 0, size = 0;
  const uint8_t* host = nullptr;
  std::vector<uint32_t> block_counts;

  bool contains(uint64_t a, uint64_t len) const { return a >= base && a + len <= uint64_t(base) + size; }
  uint16_t parcel(uint32_t a) const {
    uint16_t v;
    std::memcpy(&v, host + (a - base), 2);
    return v;
  }
  uint32_t insn(uint32_t a) const {
    const uint16_t lo = parcel(a);
    return rv32_length(lo) == 2 || !contains(a, 4) ? lo : uint32_t(lo) | uint32_t(parcel(a + 2)) << 16;
  }
};

class UnicornRv32 final : public Rv32Iss {
 public:
  UnicornRv32() {
    check(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &uc_), "cannot open a RISC-V 32 engine");
    install_counting_hook();
    uc_hook h;
    check(uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&UnicornRv32::hook_intr), this, 1, 0), "trap hook");
  }
  ~UnicornRv32() override { uc_close(uc_); }

  std::string engine() const override {
    const unsigned v = uc_version(nullptr, nullptr);
    return "Unicorn " + std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 0xFF) + "." +
           std::to_string((v >> 8) & 0xFF);
  }

  void map_memory(uint32_t base, uint32_t size, uint8_t* host, bool executable) override {
    check(uc_mem_map_ptr(uc_, base, size, executable ? UC_PROT_ALL : (UC_PROT_READ | UC_PROT_WRITE), host),
          "map memory at " + hex(base));
    if (executable) {
      code_.push_back(CodeRegion{base, size, host, std::vector<uint32_t>(size / 2, 0u)});
      hot_counts_ = code_.front().block_counts.data();   // the first code region: the direct path
      hot_base_ = code_.front().base;
      hot_size_ = code_.front().size;
    }
    mapped_.push_back({base, uint64_t(base) + size});
  }
  void map_mmio(uint32_t base, uint32_t size, Bus& bus) override {
    mmio_base_ = base;
    check(uc_mmio_map(uc_, base, size, &UnicornRv32::mmio_read_cb, this, &UnicornRv32::mmio_write_cb, this),
          "map peripherals");
    bus_ = &bus;
    mapped_.push_back({base, uint64_t(base) + size});
  }

  void set_exact(bool exact) override {
    if (exact == exact_requested_) return;
    exact_requested_ = exact;
    install_counting_hook();
  }
  bool exact() const override { return exact_; }

  uint64_t simulate(uint64_t count) override { return simulate(count, nullptr); }
  uint64_t simulate(uint64_t count, const std::function<uint64_t(uint64_t)>& more) override {
    if (!prepared_) prepare_address_space();
    const uint64_t start = counter_;
    limit_ = counter_ + count;
    more_ = more ? &more : nullptr;
    error_.clear();
    block_pc_ = kNoBlock;
    const uc_err err = uc_emu_start(uc_, pc(), 0xFFFFFFFFull, 0, 0);
    if (err == UC_ERR_INSN_INVALID && !trap_pending_ && error_.empty() && breakpoint_at(pc())) {
      trap_ = Trap{kCauseBreakpoint, pc()};
      trap_pending_ = true;
    } else if (err != UC_ERR_OK && !trap_pending_ && error_.empty())
      error_ = std::string(uc_strerror(err)) + " at pc " + hex(pc());
    block_pc_ = kNoBlock;
    more_ = nullptr;
    return counter_ - start;
  }
  void end_after_current() override {
    limit_ = counter_;
    more_ = nullptr;   // an early end: the budget is not extended
  }
  uint64_t retired() const override { return in_access_ ? access_retired_ : counter_; }
  uint32_t access_pc() const override { return access_pc_; }
  uint64_t unlocated_accesses() const override { return unlocated_; }
  bool take_trap(Trap& out) override {
    if (!trap_pending_) return false;
    trap_pending_ = false;
    out = trap_;
    return true;
  }
  std::string error() const override { return error_; }

  uint32_t reg(unsigned n) const override {
    uint32_t v = 0;
    if (n) uc_reg_read(uc_, int(UC_RISCV_REG_X0 + n), &v);
    return v;
  }
  void set_reg(unsigned n, uint32_t v) override {
    if (n) uc_reg_write(uc_, int(UC_RISCV_REG_X0 + n), &v);
  }
  uint32_t pc() const override {
    uint32_t v = 0;
    uc_reg_read(uc_, UC_RISCV_REG_PC, &v);
    return v;
  }
  void set_pc(uint32_t v) override {
    uc_reg_write(uc_, UC_RISCV_REG_PC, &v);
    skip_breakpoint_at_ = v;
  }
  uint32_t csr(Csr c) const override {
    uint32_t v = 0;
    uc_reg_read(uc_, csr_reg(c), &v);
    return v;
  }
  void set_csr(Csr c, uint32_t v) override { uc_reg_write(uc_, csr_reg(c), &v); }
  bool read_mem(uint32_t addr, uint8_t* out, uint32_t len) override {
    return uc_mem_read(uc_, addr, out, len) == UC_ERR_OK;
  }
  bool write_mem(uint32_t addr, const uint8_t* in, uint32_t len) override {
    if (uc_mem_write(uc_, addr, in, len) != UC_ERR_OK) return false;
    // Code may have changed: forget the block counts around it (a block is at most a page).
    for (CodeRegion& r : code_) {
      if (uint64_t(addr) + len + 4096 <= r.base || addr >= uint64_t(r.base) + r.size) continue;
      const uint32_t lo = addr > r.base + 4096 ? addr - 4096 - r.base : 0;
      const uint32_t hi = std::min<uint64_t>(uint64_t(addr) + len - r.base, r.size);
      std::fill(r.block_counts.begin() + lo / 2, r.block_counts.begin() + (hi + 1) / 2, 0u);
    }
    return true;
  }

  void set_breakpoint_filter(std::function<bool(uint32_t)> f) override {
    breakpoint_ = std::move(f);
    install_counting_hook();
  }
  void enable_profile(uint32_t code_size) override {
    profile_.assign(code_size / 2, 0);
    install_counting_hook();
  }
  const std::vector<uint32_t>& profile_counts() const override { return profile_; }
  void reset_profile() override { std::fill(profile_.begin(), profile_.end(), 0u); }
  void set_pc_observer(std::function<void(uint32_t, uint64_t)> observer) override { pc_observer_ = std::move(observer); }

 private:
  static constexpr uint32_t kNoBlock = 0xFFFFFFFFu;

  // One counting hook at a time: per block, or before every instruction (exact runs,
  // breakpoints, profiling; the plain one only counts).  Deleting a hook makes Unicorn drop
  // the blocks it instrumented; the flush also drops blocks translated before any hook.
  void install_counting_hook() {
    const bool full = breakpoint_ || !profile_.empty();
    const bool exact = exact_requested_ || full;
    void* fn = !exact ? reinterpret_cast<void*>(&UnicornRv32::hook_block)
               : full ? reinterpret_cast<void*>(&UnicornRv32::hook_code_full)
                      : reinterpret_cast<void*>(&UnicornRv32::hook_code);
    if (counting_hook_ && fn == counting_fn_) return;
    if (counting_hook_) uc_hook_del(uc_, counting_hook_);
    check(uc_hook_add(uc_, &counting_hook_, exact ? UC_HOOK_CODE : UC_HOOK_BLOCK, fn, this, 1, 0), "counting hook");
    check(uc_ctl(uc_, UC_CTL_WRITE(UC_CTL_TB_FLUSH, 0)), "flush translated blocks");
    counting_fn_ = fn;
    exact_ = exact;
  }

  // Before the first run, once the memory map is known: the identity map for data accesses
  // and the invalid-access hooks over the gaps (see the file comment).
  void prepare_address_space() {
    prepared_ = true;
    constexpr uint64_t kMega = 1ull << 22;
    auto overlaps = [&](uint64_t b, uint64_t e, const std::vector<std::pair<uint64_t, uint64_t>>& set) {
      for (const auto& [mb, me] : set)
        if (mb < e && b < me) return true;
      return false;
    };
    std::vector<std::pair<uint64_t, uint64_t>> code;
    for (const CodeRegion& r : code_) code.push_back({r.base, uint64_t(r.base) + r.size});
    uint32_t table_page = 0;   // the highest free 4 MiB page holds the table
    for (uint32_t i = 1023; i > 0 && !table_page; i--)
      if (!overlaps(i * kMega, (i + 1) * kMega, mapped_)) table_page = i;
    if (table_page) {
      constexpr uint32_t kV = 1, kR = 2, kW = 4, kX = 8, kU = 16, kA = 64, kD = 128;
      page_table_ = std::make_unique<PageTable>();
      std::array<uint32_t, 1024>& pt = page_table_->entries;
      for (uint32_t i = 0; i < 1024; i++)
        pt[i] = i == table_page ? 0u
                                         : (i << 20) | kV | kR | kW | kU | kA | kD |
                                               (overlaps(i * kMega, (i + 1) * kMega, code) ? kX : 0u);
      const uint32_t table = table_page << 22;
      check(uc_mem_map_ptr(uc_, table, sizeof pt, UC_PROT_READ | UC_PROT_WRITE, pt.data()),
            "map the address-translation table");
      mapped_.push_back({table, uint64_t(table) + sizeof pt});
      const uint32_t satp = 0x80000000u | (table >> 12);   // Sv32
      check(uc_reg_write(uc_, UC_RISCV_REG_SATP, &satp), "satp");
      constexpr uint32_t kMprv = 1u << 17, kSum = 1u << 18, kMpp = 3u << 11;
      set_csr(Csr::Mstatus, (csr(Csr::Mstatus) & ~kMpp) | kMprv | kSum);   // MPP = U
    }
    std::sort(mapped_.begin(), mapped_.end());
    uint64_t from = 0;
    for (size_t i = 0; i <= mapped_.size(); i++) {
      const uint64_t to = i < mapped_.size() ? mapped_[i].first : 1ull << 32;
      if (to > from) {
        uc_hook h;
        check(uc_hook_add(uc_, &h, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&UnicornRv32::hook_invalid), this, from,
                          to - 1),
              "invalid-access hook");
      }
      if (i < mapped_.size()) from = std::max(from, mapped_[i].second);
    }
  }

  CodeRegion* region_of(uint64_t address, uint64_t len) {
    for (CodeRegion& r : code_)
      if (r.contains(address, len)) return &r;
    return nullptr;
  }

  // Instructions in the block [address, address + size).
  uint32_t block_count(uint64_t address, uint32_t size) {
    CodeRegion* r = region_of(address, size);
    if (!r || size == 0 || size > 0xFFFF) return count_instructions(r, address, size);
    uint32_t& slot = r->block_counts[(address - r->base) >> 1];
    if ((slot >> 16) != size) slot = size << 16 | count_instructions(r, address, size);
    return slot & 0xFFFFu;
  }
  uint32_t count_instructions(const CodeRegion* r, uint64_t address, uint32_t size) {
    uint32_t n = 0;
    for (uint64_t a = address; a < address + size; n++) {
      uint16_t parcel = 0;
      if (r && r->contains(a, 2)) parcel = r->parcel(uint32_t(a));
      else uc_mem_read(uc_, a, &parcel, 2);
      a += rv32_length(parcel);
    }
    return n ? n : 1;   // a block always holds at least the instruction it starts with
  }

  // The budget is spent: a new one from the caller's `more`, if it grants one.
  bool extend() {
    if (!more_) return false;
    const uint64_t to = (*more_)(counter_);
    if (to <= counter_) return false;
    limit_ = to;
    return true;
  }

  // Before every block: ends the run if the budget is spent (the block does not execute),
  // else counts the whole block as retiring.
  static void hook_block(uc_engine* uc, uint64_t address, uint32_t size, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    if (c->counter_ >= c->limit_ && !c->extend()) {
      uc_emu_stop(uc);
      return;
    }
    c->block_pc_ = uint32_t(address);
    c->block_end_ = uint32_t(address + size);
    c->block_first_ = c->counter_;
    c->matched_index_ = -1;
    c->matched_kinds_ = 0;
    const uint64_t off = address - c->hot_base_;
    const uint32_t slot = off < c->hot_size_ ? c->hot_counts_[off >> 1] : 0u;
    c->counter_ += slot && (slot >> 16) == size ? slot & 0xFFFFu : c->block_count(address, size);   // 0: not known yet
  }

  static void hook_code(uc_engine* uc, uint64_t address, uint32_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    if (c->counter_ >= c->limit_ && !c->extend()) {
      uc_emu_stop(uc);
      return;
    }
    c->insn_pc_ = uint32_t(address);
    c->counter_++;
  }

  // Before every instruction: ends the run at the budget or a breakpoint, else counts it.
  static void hook_code_full(uc_engine* uc, uint64_t address, uint32_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    if (c->counter_ >= c->limit_ && !c->extend()) {
      uc_emu_stop(uc);
      return;
    }
    if (c->breakpoint_ && uint32_t(address) != c->skip_breakpoint_at_ && c->breakpoint_(uint32_t(address))) {
      c->skip_breakpoint_at_ = uint32_t(address);   // resuming from here steps over it
      uc_emu_stop(uc);
      return;
    }
    c->skip_breakpoint_at_ = 0xFFFFFFFFu;
    c->insn_pc_ = uint32_t(address);
    if (c->pc_observer_ && !c->profile_.empty()) c->pc_observer_(uint32_t(address), c->counter_);
    c->counter_++;
    if (address < c->profile_.size() * 2) c->profile_[address >> 1]++;
  }

  // Sets access_retired_ and access_pc_ for a peripheral access (see the file comment).
  void locate_access(uint32_t addr, bool write, unsigned size) {
    in_access_ = true;
    if (exact_) {
      access_retired_ = counter_;
      access_pc_ = insn_pc_;
      return;
    }
    const CodeRegion* r = block_pc_ == kNoBlock ? nullptr : region_of(block_pc_, block_end_ - block_pc_);
    const unsigned kind = write ? 2u : 1u;
    int index = 0;
    for (uint32_t a = block_pc_; r && a < block_end_; index++) {
      const uint32_t insn = r->insn(a);
      Rv32MemAccess m;
      const bool later = index > matched_index_ || (index == matched_index_ && !(matched_kinds_ & kind));
      if (later && rv32_memory_access(insn, m) && (write ? m.store : m.load) && m.size == size &&
          reg(m.base) + uint32_t(m.offset) == addr) {
        if (index != matched_index_) matched_kinds_ = 0;
        matched_index_ = index;
        matched_kinds_ |= kind;
        access_retired_ = block_first_ + uint64_t(index) + 1;
        access_pc_ = a;
        return;
      }
      a += rv32_length(uint16_t(insn));
    }
    // Not found (code the decoder does not know): the block's start, counted.
    unlocated_++;
    access_retired_ = block_pc_ == kNoBlock ? counter_ : block_first_ + 1;
    access_pc_ = block_pc_ == kNoBlock ? pc() : block_pc_;
  }

  static void hook_intr(uc_engine* uc, uint32_t intno, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    const uint32_t pc = c->pc();
    // Unicorn reports ecall as the U-mode code (8) whatever the privilege (the hart runs in
    // M-mode: 11), with the PC already past it.
    c->trap_ = intno == kCauseEcallU || intno == kCauseEcallM ? Trap{kCauseEcallM, pc - 4} : Trap{intno, pc};
    c->trap_pending_ = true;
    uc_emu_stop(uc);
  }

  // Unicorn ends the run on ebreak / c.ebreak as an invalid instruction, with the PC on it:
  // a breakpoint exception, as the hardware would take it.
  bool breakpoint_at(uint32_t pc) {
    uint8_t b[4] = {0, 0, 0, 0};
    if (uc_mem_read(uc_, pc, b, 2) != UC_ERR_OK) return false;
    if (b[0] == 0x02 && b[1] == 0x90) return true;   // c.ebreak
    return uc_mem_read(uc_, pc + 2, b + 2, 2) == UC_ERR_OK && b[0] == 0x73 && b[1] == 0x00 && b[2] == 0x10 &&
           b[3] == 0x00;
  }

  static bool hook_invalid(uc_engine*, uc_mem_type type, uint64_t address, int size, int64_t, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    const char* what = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT   ? "fetch from"
                       : type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT ? "write to"
                                                                                    : "read from";
    c->error_ = std::string(what) + " unmapped address " + hex(address) + " (" + std::to_string(size) + " bytes)";
    return false;
  }

  static uint64_t mmio_read_cb(uc_engine*, uint64_t offset, unsigned size, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    c->locate_access(c->mmio_base_ + uint32_t(offset), false, size);
    const uint32_t v = c->bus_->mmio_read(uint32_t(offset), size);
    c->in_access_ = false;
    return v;
  }
  static void mmio_write_cb(uc_engine*, uint64_t offset, unsigned size, uint64_t value, void* self) {
    auto* c = static_cast<UnicornRv32*>(self);
    c->locate_access(c->mmio_base_ + uint32_t(offset), true, size);
    c->bus_->mmio_write(uint32_t(offset), size, uint32_t(value));
    c->in_access_ = false;
  }

  // Touched on every block: kept together.
  uint64_t counter_ = 0, limit_ = 0;
  uint64_t block_first_ = 0;             // retired before the block running now
  uint32_t block_pc_ = kNoBlock, block_end_ = 0, insn_pc_ = 0;
  int matched_index_ = -1;               // the block's instruction matched by the last access
  unsigned matched_kinds_ = 0;           // which directions it matched (1 read, 2 write)
  uint32_t* hot_counts_ = nullptr;       // block counts of the first code region
  uint64_t hot_base_ = 0, hot_size_ = 0;
  const std::function<uint64_t(uint64_t)>* more_ = nullptr;   // simulate()'s, during the run

  uc_engine* uc_ = nullptr;
  uc_hook counting_hook_ = 0;
  void* counting_fn_ = nullptr;
  bool exact_requested_ = false, exact_ = false;
  std::vector<CodeRegion> code_;
  std::vector<std::pair<uint64_t, uint64_t>> mapped_;   // [base, end) of memory and peripherals
  bool prepared_ = false;
  struct alignas(4096) PageTable {
    std::array<uint32_t, 1024> entries{};   // Sv32 root: 4 MiB identity pages
  };
  std::unique_ptr<PageTable> page_table_;
  Bus* bus_ = nullptr;
  uint32_t mmio_base_ = 0;

  bool in_access_ = false;
  uint64_t access_retired_ = 0;
  uint32_t access_pc_ = 0;
  uint64_t unlocated_ = 0;

  bool trap_pending_ = false;
  Trap trap_;
  std::string error_;
  std::function<bool(uint32_t)> breakpoint_;
  uint32_t skip_breakpoint_at_ = 0xFFFFFFFFu;
  std::vector<uint32_t> profile_;
  std::function<void(uint32_t, uint64_t)> pc_observer_;
};

}  // namespace

std::unique_ptr<Rv32Iss> make_unicorn_rv32() { return std::make_unique<UnicornRv32>(); }

}  // namespace ssdvp
