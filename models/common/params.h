// Typed parameters of every block, derived from a Config with the cross-key checks the
// schema alone cannot express.  Blocks take these structs, never the Config itself.
#pragma once

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/sim_time.h"

namespace ssdvp {

enum class CellType : uint8_t { SLC = 1, MLC = 2, TLC = 3 };
const char* cell_name(CellType c);

struct CellTiming {
  uint32_t pages_per_block = 0;
  std::vector<sc_core::sc_time> t_read;   // one per page type (page p: type p % size)
  std::vector<sc_core::sc_time> t_prog;
  sc_core::sc_time t_erase;
};

// Raw bit error rate as blocks wear and data ages, and the read retries it costs
// (models/nand/rber_model.h; nand.rber.*).
struct RberParams {
  double base = 0, wear_coeff = 0, wear_exp = 1;
  double retention_coeff = 0, retention_wear_exp = 1, retention_exp = 0.5;
  double age_offset_hours = 0;   // every page reads as if written this much earlier
  double ecc_limit = 1e-3;
  double retry_gain = 2;
  uint32_t max_retries = 8;
  bool enabled() const { return base > 0 || wear_coeff > 0 || retention_coeff > 0; }
};

struct NandParams {
  uint32_t channels = 0, ways = 0, planes = 0, blocks_per_plane = 0;
  uint32_t page_bytes = 0, sectors_per_page = 0, oob_bytes = 0;
  CellType cell = CellType::MLC;
  uint32_t slc_dies = 0;
  uint32_t slc_blocks_per_plane = 0;      // SLC dies' blocks per plane (mixed devices)
  uint32_t pslc_blocks_per_plane = 0;     // pSLC cache: the first blocks of each plane of the
                                          // non-SLC dies run in SLC mode (timing pslc)
  CellTiming slc, mlc, tlc;
  CellTiming pslc;                        // SLC mode on nand.cell dies: pages = theirs / bits
  sc_core::sc_time multiplane_extra;
  bool independent_plane_reads = false;   // a read takes only its planes; reads of other planes
                                          // may start while it runs (models/nand/die.h)
  double uncorrectable_per_million = 0, corrected_per_million = 0;
  bool paired_page_loss = false;          // power loss in an upper page's program takes its lower pages
  sc_core::sc_time ecc_retry;
  uint64_t fault_seed = 0;
  // Block failures (models/nand/die.h): factory bad blocks, program and erase failures, the
  // endurance past which they rise, and failures injected at a given block and time.
  double factory_bad_permille = 0, program_fail_per_million = 0, erase_fail_per_million = 0;
  uint32_t endurance_pe = 0;                // 0: no limit
  double worn_fail_factor = 1;              // failure rates past endurance_pe, times this
  struct InjectedFailure {
    bool erase = false;                     // false: a program
    uint32_t die = 0, block = 0;
    sc_core::sc_time at;                    // the first such operation starting at or after
  };
  std::vector<InjectedFailure> injected_failures;
  RberParams rber;

  uint32_t dies() const { return channels * ways; }
  CellType cell_of(uint32_t die) const { return die < slc_dies ? CellType::SLC : cell; }
  uint32_t blocks_of(uint32_t die) const { return die < slc_dies ? slc_blocks_per_plane : blocks_per_plane; }
  // Block `block` of `die` runs in SLC mode on a die whose cells hold more bits (pSLC).
  uint32_t max_blocks_per_plane() const { return slc_dies ? std::max(slc_blocks_per_plane, blocks_per_plane) : blocks_per_plane; }
  const CellTiming& timing(CellType c) const {
    return c == CellType::SLC ? slc : c == CellType::MLC ? mlc : tlc;
  }
  uint32_t pslc_pages_per_block() const { return pslc.pages_per_block; }
  uint32_t max_pages_per_block() const;
  uint64_t physical_bytes() const;
};

struct ChannelParams {
  std::string model;
  std::string rtl_trace;   // FST path ("" = none)
  bool rtl_monitor = false;   // the protocol monitor on the RTL's pins
  double bus_mbps = 0;
  // The bus clock: one cycle moves one byte of the 8-bit bus (1 / bus_mbps, rounded to a
  // picosecond).  Both channel models work on this grid: phase lengths are whole cycles (the
  // timing values below are rounded to cycles), and a phase starts on a cycle boundary.
  sc_core::sc_time cycle;
  uint32_t cmd_addr_cycles = 0, data_setup_cycles = 0, status_cycles = 0;
  sc_core::sc_time cmd_addr, data_setup, status;   // the cycle counts above, as times
  // Bus time of moving `bytes` of data (without setup): one cycle per byte.
  sc_core::sc_time transfer(uint64_t bytes) const { return cycle * double(bytes); }
  // The first bus clock edge at or after t.
  sc_core::sc_time on_grid(sc_core::sc_time t) const {
    const uint64_t c = cycle.value();
    return time_ps((t.value() + c - 1) / c * c);
  }
};

struct HostParams {
  uint32_t queues = 0, queue_entries = 0;
  uint32_t cpus = 0;                     // host CPUs (host.cpus; 0 in the TOML = queues)
  std::vector<uint32_t> thread_cpus;     // CPU of each thread at the start; empty: t mod cpus
  double link_mbps = 0;
  sc_core::sc_time link_latency;
  // host.submit_ns, host.irq_ns: fixed delays (host.stack = none; 0 with a modelled stack).
  sc_core::sc_time submit, irq;
  // The modelled host I/O stack (host.stack; models/host/host_io_stack.h): CPU time per command
  // submitted, per interrupt-driven completion, per polled completion reaped.
  enum class Stack { None, Interrupt, Poll } stack = Stack::None;
  sc_core::sc_time stack_submit, stack_irq, stack_poll;
  uint32_t tlp_overhead_bytes = 0;
  uint32_t max_payload_bytes = 4096;   // PCIe Max_Payload_Size
  uint32_t max_transfer_sectors = 0;
  // host.cpu.*, host.migration*: the host CPU model (models/host/cpu_scheduler.h)
  std::vector<std::pair<uint32_t, uint32_t>> cpu_types;   // (io %, cpu %); empty: off
  double cpu_cycle_ms = 0, cpu_io_us = 0, cpu_balance_ms = 0;
  uint64_t migration_rounds = 0;
  double migration_select_instructions = 0;
  bool migration = false;
};

// The FTL on the host (host.ftl; models/host/host_ftl.h) and the host CPUs it runs on.
struct HostFtlParams {
  std::string kind = "none";              // none | pblk | mtftl
  uint32_t writeback_cpu = 0, gc_cpu = 0; // pblk's write-back thread, the GC thread
  uint64_t memory_bytes = 0;              // host memory for its tables and rings
  double copy_gbps = 0;                   // one CPU's memory copy bandwidth
  uint32_t sockets = 1;                   // host.cpu.sockets
  sc_core::sc_time socket_handoff;        // a lock handed to another socket
  double clock_mhz = 0, ipc = 0;          // host.cpu.clock_mhz, host.cpu.ipc
  std::vector<double> cost_instructions;  // per hal_cost kind (ftl-sw/hal/hal.h)
  double writeback_sector_instructions = 0;   // a write-back's added work per programmed sector
  bool full_ring_yield = true;            // host.ftl.full_ring: a blocked writer retries and yields (else sleeps)
  bool on() const { return kind != "none"; }
  // The FTL's ring parts: pblk one, MT-FTL one per CPU.
  uint32_t cores(uint32_t cpus) const { return kind == "mtftl" ? cpus : 1u; }
};

struct DramParams {
  uint64_t size_bytes = 0;
  double bandwidth_mbps = 0;
  sc_core::sc_time latency;
  uint64_t reserved_bytes = 0;
};

struct FctlParams {
  sc_core::sc_time desc, cpl;
};

struct FirmwareParams {
  std::string mode;
  std::string image;                    // iss: ELF path ("" = the built-in default)
  double clock_mhz = 800, cpi = 1.0;     // iss
  uint32_t quantum_instructions = 1000;  // iss
  bool exact_quanta = false;             // iss: quanta end exactly, not at a block end
  bool skip_idle_syncs = true;           // iss: run through sync points that change nothing
  bool profile = false;                  // iss
  uint32_t cores = 1;
  std::vector<sc_core::sc_time> cost;   // indexed by enum hal_cost
  sc_core::sc_time quantum;
};

struct FtlParams {
  std::string mapping, gc_policy, sched, placement;
  uint32_t fdp_handles = 0, fdp_groups = 1;   // Flexible Data Placement (0 handles: off)
  bool fdp_persistent = false;
  double cmt_ratio = 0, cmt_clean_ratio = 0;
  uint32_t adapt_window = 0;
  double op = 0;
  uint32_t gc_low_blocks = 0, gc_high_blocks = 0;
  uint32_t slc_gc_low_blocks = 0, slc_gc_high_blocks = 0;
  uint64_t logical_sectors = 0;   // ftl.logical_sectors (0: from ftl.op)   // ftl.slc_gc_*_blocks (0: as above)
  bool gc_pacing = false;                     // GC paced against writes (ftl-sw/gc/pacing.h)
  bool gc_check_victims = false;              // the victim index checked against the scan
  bool check_pool_walk = false;               // the write buffer's resumed walks checked against a full one
  std::string test_defect = "none";          // a deliberately broken drive (ftl.test_defect)
  std::string lapt_tie_order = "oldest-first";   // ftl.lapt.tie_order
  std::string lapt_logical_block = "slc-block";  // ftl.lapt.logical_block
  uint32_t bad_block_reserve = 0;             // resolved (auto: 1 if the NAND can fail)
  uint32_t wear_spread = 0;                   // static wear levelling (0: off)
  uint32_t wear_record_step = 16;             // erases per erase-count record in the NOR
  std::string write_buffer;                   // slots | ring
  uint32_t wbuf_sectors = 0;
  uint32_t ring_stripe_sectors = 0;           // a superpage on every die
  uint32_t ring_timeout_us = 0;
  uint32_t die_program_queue = 0;
  uint32_t combo_hot_sectors = 0, combo_survivals = 0;   // 4 KiB sectors
  uint32_t combo_unit_blocks = 0, combo_unit_extra = 0;  // MLC superblocks
  double idle_migration_us = 0, idle_migration_free_ratio = 0;
  uint32_t slc_dynamic_blocks = 0;            // dynamic SLC cache: native superblocks a die may lend
  std::string readahead;
  uint32_t read_cache_sectors = 0, readahead_item_sectors = 0;
  uint32_t pattern_branches = 0, pattern_depth = 0, pattern_sequential_run = 0, pattern_min_repeats = 0;
  uint32_t pattern_bytes = 0;
  uint32_t seq_window_sectors = 0, seq_trigger = 0;
};

struct PreconditionParams {
  double fill = 0, overwrite = 0;
  uint32_t seed = 0;
  bool timed = false;   // precondition.mode = "timed": written by the host through the drive, in simulated time
};

enum class DeviceInterface { Conventional, OpenChannel, Zoned };

struct DeviceParams {
  DeviceInterface interface = DeviceInterface::Conventional;   // device.interface
  uint32_t ocssd_open_chunks_per_pu = 4;
  struct Zns {                                // device.zns.* (a zoned device: ftl-sw/zns/zns_layout.h)
    uint32_t dies_per_zone = 0, stripes_per_zone = 1, spare_stripes = 0;
    bool pow2_zone_size = true;
    uint32_t max_open = 14, max_active = 14, zasl_sectors = 256;
  } zns;
  bool volatile_write_cache = true;
  uint32_t nor_bytes = 0;                     // the SPI NOR (device.nor_kib)
  sc_core::sc_time plp_holdup;                // power-loss protection: hold-up time (0: none)
};

struct PlatformParams {
  std::string name;
  DeviceParams device;
  HostParams host;
  HostFtlParams host_ftl;
  DramParams dram;
  NandParams nand;
  ChannelParams channel;
  FctlParams fctl;
  FirmwareParams firmware;
  FtlParams ftl;
  PreconditionParams precondition;
  bool payload = false;
  bool host_data = false;      // sim.host_data: the host's own bytes, tags beside them (implies payload)
  bool check_flush_durability = false;

  // Throws ConfigError naming the key(s) for impossible combinations.
  static PlatformParams from(const Config& c);
  // DRAM bytes the firmware will allocate for this configuration (an estimate from the same
  // formulas the firmware uses); from() checks it fits.
  uint64_t firmware_dram_estimate() const;
  // A zoned device's zones (device.interface = zns: ftl-sw/zns/zns_layout.h), in 4 KiB sectors;
  // nullopt for another device.
  struct ZoneGeometry {
    uint64_t zone_size = 0, zone_capacity = 0;
    uint32_t zones = 0, max_open = 0, max_active = 0;
  };
  std::optional<ZoneGeometry> zone_geometry() const;
  // The FTL as a host FTL sees the Open-Channel device (models/host/oc_flash_backend.h): a die
  // per parallel unit of one plane, a page per write unit, its DRAM the host memory, its cores
  // its ring parts, a conventional drive's firmware.
  PlatformParams host_ftl_view() const;
};

// The smallest SPI NOR (device.nor_kib: a power of two from 64 to 65536) that holds the
// bad-block table and erase-count log of `superblocks` (65536 if none does).
uint32_t nor_kib_needed(uint32_t superblocks);

}  // namespace ssdvp
