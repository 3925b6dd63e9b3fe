// What the firmware finds in controller DRAM at boot: see firmware_boot_config.h.
#include "platforms/firmware_boot_config.h"

#include <algorithm>

#include "models/common/config.h"
#include "models/dram/dram.h"
#include "ftl-sw/hal/fdp_formats.h"

namespace ssdvp {

namespace {

uint32_t gc_policy_code(const std::string& p) {
  if (p == "greedy") return SSD_GC_GREEDY;
  if (p == "fifo") return SSD_GC_FIFO;
  if (p == "cost-benefit") return SSD_GC_COST_BENEFIT;
  throw ConfigError("ftl.gc_policy = \"" + p + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}
uint32_t placement_code(const std::string& p) {
  if (p == "none") return SSD_PLACE_NONE;
  if (p == "lapt") return SSD_PLACE_LAPT;
  if (p == "slc-only") return SSD_PLACE_SLC_ONLY;
  if (p == "combo") return SSD_PLACE_COMBO;
  if (p == "slc-direct") return SSD_PLACE_SLC_DIRECT;
  throw ConfigError("ftl.placement = \"" + p + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}
uint32_t defect_code(const std::string& d) {
  const char* names[] = {"none", "flush-before-program", "recovery-skips-open-superblock", "trim-log-not-replayed"};
  for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (d == names[i]) return i;   // SSD_DEFECT_* in that order
  throw ConfigError("ftl.test_defect = \"" + d + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}
uint32_t readahead_code(const std::string& r) {
  const char* names[] = {"none", "lru", "dtree", "dtree-lru", "seq"};
  for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (r == names[i]) return i;
  throw ConfigError("ftl.readahead = \"" + r + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}
uint32_t mapping_code(const std::string& m) {
  const char* names[] = {"opt", "dftl", "part", "part-sched", "writeopt", "adaptive"};
  for (uint32_t i = 0; i < 6; i++)
    if (m == names[i]) return i;
  throw ConfigError("ftl.mapping = \"" + m + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}
uint32_t sched_code(const std::string& s) {
  if (s == "bypass") return SSD_SCHED_BYPASS;
  if (s == "fifo") return SSD_SCHED_FIFO;
  if (s == "write-stop") return SSD_SCHED_WRITE_STOP;
  if (s == "adaptive") return SSD_SCHED_ADAPTIVE;
  throw ConfigError("ftl.sched = \"" + s + "\" has no firmware code (platforms/firmware_boot_config.cpp)");
}

}  // namespace

void write_firmware_boot_config(Dram& dram, const PlatformParams& p, uint32_t config_addr, uint32_t geometry_addr) {
  const NandParams& n = p.nand;
  auto* fc = dram.as<ssd_fw_config>(config_addr);
  *fc = ssd_fw_config{};
  fc->magic = SSD_FW_CONFIG_MAGIC;
  fc->version = 1;
  fc->op_permille = uint32_t(p.ftl.op * 1000 + 0.5);
  fc->logical_sectors = uint32_t(p.ftl.logical_sectors);
  fc->gc_low_blocks = p.ftl.gc_low_blocks;
  fc->gc_high_blocks = p.ftl.gc_high_blocks;
  fc->slc_gc_low_blocks = p.ftl.slc_gc_low_blocks;
  fc->slc_gc_high_blocks = p.ftl.slc_gc_high_blocks;
  fc->wbuf_sectors = p.ftl.wbuf_sectors;
  fc->wbuf_kind = p.ftl.write_buffer == "ring" ? SSD_WBUF_RING : SSD_WBUF_SLOTS;
  fc->ring_timeout_us = p.ftl.ring_timeout_us;
  fc->write_through = p.device.volatile_write_cache ? 0u : 1u;
  fc->interface = p.device.interface == DeviceInterface::OpenChannel ? SSD_IF_OCSSD
                  : p.device.interface == DeviceInterface::Zoned     ? SSD_IF_ZNS
                                                                     : SSD_IF_CONVENTIONAL;
  {   // a zoned device's zones (ftl-sw/zns/zns_layout.h)
    const auto& z = p.device.zns;
    fc->zns_dies_per_zone = z.dies_per_zone;
    fc->zns_stripes_per_zone = z.stripes_per_zone;
    fc->zns_spare_stripes = z.spare_stripes;
    fc->zns_pow2_zone_size = z.pow2_zone_size ? 1u : 0u;
    fc->zns_max_open = z.max_open;
    fc->zns_max_active = z.max_active;
    fc->zns_zasl_sectors = z.zasl_sectors;
  }
  {   // what an Open-Channel device reports of its media (ftl-sw/ocssd/oc_geometry.h)
    const CellTiming& t = p.nand.timing(p.nand.cell);
    fc->oc_bits_per_cell = p.nand.cell == CellType::SLC ? 1u : p.nand.cell == CellType::MLC ? 2u : 3u;
    fc->oc_open_chunks_per_pu = p.device.ocssd_open_chunks_per_pu;
    auto ns = [](const sc_core::sc_time& x) { return uint32_t(x.to_seconds() * 1e9 + 0.5); };
    auto typical_max = [&](const std::vector<sc_core::sc_time>& v, uint32_t out[2]) {
      double sum = 0;
      out[1] = 0;
      for (const auto& x : v) {
        sum += x.to_seconds();
        out[1] = std::max(out[1], ns(x));
      }
      out[0] = v.empty() ? 0u : uint32_t(sum / double(v.size()) * 1e9 + 0.5);
    };
    typical_max(t.t_read, fc->oc_t_read_ns);
    typical_max(t.t_prog, fc->oc_t_prog_ns);
    fc->oc_t_erase_ns = ns(t.t_erase);
  }
  fc->bad_block_reserve = p.ftl.bad_block_reserve;
  fc->wear_spread = p.ftl.wear_spread;
  fc->wear_record_step = p.ftl.wear_record_step;
  fc->die_prog_limit = p.ftl.die_program_queue;
  fc->dram_heap_addr = uint32_t(SSD_DRAM_BASE + p.dram.reserved_bytes);
  fc->dram_heap_bytes = uint32_t(p.dram.size_bytes - p.dram.reserved_bytes);
  fc->mapping = mapping_code(p.ftl.mapping);
  fc->cmt_permille = uint32_t(p.ftl.cmt_ratio * 1000 + 0.5);
  fc->cmt_clean_permille = uint32_t(p.ftl.cmt_clean_ratio * 1000 + 0.5);
  fc->sched = sched_code(p.ftl.sched);
  fc->adapt_window = p.ftl.adapt_window;
  {
    const auto& t = n.timing(n.cell);
    fc->map_write_cost = uint32_t(t.t_prog[0].to_seconds() / t.t_read[0].to_seconds() * 1000 + 0.5);
  }
  fc->gc_policy = gc_policy_code(p.ftl.gc_policy);
  fc->gc_check_victims = p.ftl.gc_check_victims ? 1u : 0u;
  fc->gc_pacing = p.ftl.gc_pacing ? 1u : 0u;
  fc->test_defect = defect_code(p.ftl.test_defect);
  fc->lapt_tie_order = p.ftl.lapt_tie_order == "recent-first" ? 1u : 0u;   // LAPT_TIE_* (ftl-sw/place/lapt.h)
  fc->lapt_superblocks = p.ftl.lapt_logical_block == "slc-superblock" ? 1u : 0u;
  fc->slc_dynamic_blocks = p.ftl.slc_dynamic_blocks;
  fc->placement = placement_code(p.ftl.placement);
  fc->combo_hot_sectors = p.ftl.combo_hot_sectors;
  fc->fdp_handles = p.ftl.fdp_handles;
  fc->fdp_groups = p.ftl.fdp_groups;
  fc->fdp_isolation = p.ftl.fdp_persistent ? SSD_FDP_RUHT_PERSISTENTLY_ISOLATED : SSD_FDP_RUHT_INITIALLY_ISOLATED;
  // Every platform (and a host FTL) builds its DRAM at power-on, a fresh mapping that reads as
  // zeros: the controller's DRAM initialization (models/dram/dram.h).  The firmware then leaves
  // the heap's untouched memory alone (ftl-sw/core/heap.c).
  fc->dram_zeroed = dram.zeroed_at_power_on() ? 1u : 0u;
  fc->check_pool_walk = p.ftl.check_pool_walk ? 1u : 0u;
  fc->combo_survivals = p.ftl.combo_survivals;
  fc->combo_unit_blocks = p.ftl.combo_unit_blocks;
  fc->combo_unit_extra = p.ftl.combo_unit_extra;
  fc->idle_migration_us = uint32_t(std::min(p.ftl.idle_migration_us, 4.0e9) + 0.5);
  fc->idle_free_permille = uint32_t(p.ftl.idle_migration_free_ratio * 1000 + 0.5);
  fc->readahead = readahead_code(p.ftl.readahead);
  fc->rc_sectors = p.ftl.read_cache_sectors;
  fc->item_sectors = p.ftl.readahead_item_sectors;
  fc->pt_branches = p.ftl.pattern_branches;
  fc->pt_depth = p.ftl.pattern_depth;
  fc->pt_seq_run = p.ftl.pattern_sequential_run;
  fc->pt_min_repeats = p.ftl.pattern_min_repeats;
  fc->pt_bytes = p.ftl.pattern_bytes;
  fc->seq_window_sectors = p.ftl.seq_window_sectors;
  fc->seq_trigger = p.ftl.seq_trigger;
  auto* geo = dram.as<ssd_geometry>(geometry_addr);
  *geo = ssd_geometry{};
  geo->channels = n.channels;
  geo->ways = n.ways;
  geo->planes = n.planes;
  geo->blocks_per_plane = n.blocks_per_plane;
  geo->pages_per_block = n.timing(n.cell).pages_per_block;
  geo->sectors_per_page = n.sectors_per_page;
  geo->slc_pages_per_block = n.slc.pages_per_block;
  geo->slc_blocks_per_plane = n.slc_blocks_per_plane;
  geo->pslc_blocks_per_plane = n.pslc_blocks_per_plane;
  geo->pslc_pages_per_block = n.pslc_pages_per_block();
  for (uint32_t d = 0; d < std::min<uint32_t>(n.slc_dies, 64); d++) {
    if (d < 32) geo->slc_dies_mask_lo |= 1u << d;
    else geo->slc_dies_mask_hi |= 1u << (d - 32);
  }
}

std::string explain_firmware_halt(uint32_t code) {
  // The configuration keys behind each reason the firmware refuses a configuration.
  if ((code & 0xFFFFFF00u) != SSD_HALT_BAD_CONFIG) return "";
  switch (code & 0xFFu) {
    case SSD_BADCFG_DEVICE_TOO_SMALL: return "configuration: nand.blocks_per_plane, ftl.gc_high_blocks, ftl.op";
    case SSD_BADCFG_CAPACITY: return "configuration: ftl.logical_sectors (more than the NAND holds next to the GC spare: ftl.gc_high_blocks and the reserves, two open superblocks per die)";
    case SSD_BADCFG_DRAM: return "configuration: dram.size_mib (too small for the firmware's tables)";
    case SSD_BADCFG_WBUF_SIZE: return "configuration: ftl.write_buffer_mib";
    case SSD_BADCFG_DIE_QUEUE: return "configuration: ftl.die_program_queue";
    case SSD_BADCFG_SCHEME: return "configuration: ftl.mapping, ftl.sched";
    case SSD_BADCFG_MAP_CACHE: return "configuration: ftl.cmt_ratio, ftl.cmt_clean_ratio, ftl.adapt_window";
    case SSD_BADCFG_PSLC: return "configuration: nand.pslc.blocks_per_plane";
    case SSD_BADCFG_WBUF_KIND: return "configuration: ftl.write_buffer";
    case SSD_BADCFG_RING_STRIPE: return "configuration: ftl.write_buffer_mib, ftl.ring.stripes, firmware.cores";
    case SSD_BADCFG_CORES: return "configuration: firmware.cores";
    case SSD_BADCFG_MAP_CACHE_SMALL: return "configuration: ftl.cmt_ratio (raise it), ftl.cmt_clean_ratio";
    case SSD_BADCFG_MAP_CACHE_LARGE: return "configuration: ftl.cmt_ratio (lower it)";
    case SSD_BADCFG_DIRTY_ENTRIES: return "configuration: ftl.cmt_ratio, ftl.cmt_clean_ratio (the dirty share)";
    case SSD_BADCFG_PLACEMENT: return "configuration: ftl.placement, ftl.mapping";
    case SSD_BADCFG_PLACEMENT_REGIONS: return "configuration: ftl.placement needs nand.slc_dies or nand.pslc.blocks_per_plane";
    case SSD_BADCFG_PLACEMENT_CAPACITY:
      return "configuration: ftl.logical_sectors, ftl.placement, nand.slc_dies (lapt, slc-only and slc-direct "
             "migrate every SLC victim to MLC, so the logical space must fit the MLC dies next to their GC spare)";
    case SSD_BADCFG_UNIT_QUOTA: return "configuration: ftl.combo.unit_blocks, ftl.combo.unit_extra_blocks";
    case SSD_BADCFG_COMBO_CAPACITY:
      return "configuration: precondition.fill, ftl.placement = \"combo\", nand.slc_dies, "
             "nand.slc.blocks_per_plane, ftl.op (combo keeps sequential data in MLC, and the fill is more than "
             "the MLC dies hold with GC's spare, as the logical space counts the SLC dies: a smaller "
             "precondition.fill, fewer SLC dies or blocks, or a larger ftl.op)";
    case SSD_BADCFG_RECOVERY: return "configuration: ftl.mapping, ftl.placement (--power-cut / --load-nand)";
    case SSD_BADCFG_FORMAT: return "configuration: nand.*, ftl.op, device.interface (the NAND image's drive was another)";
    case SSD_BADCFG_FDP: return "configuration: ftl.fdp.handles, ftl.fdp.reclaim_groups (at most 32 queues: groups x handles; groups dividing nand.channels x nand.ways)";
    case SSD_BADCFG_INTERFACE: return "configuration: device.interface (the firmware has no such interface, or cannot expose this nand.* as it)";
    case SSD_BADCFG_OC_BUFFERS: return "configuration: dram.size_mib (an Open-Channel device's command buffers do not fit)";
    case SSD_BADCFG_SNAPSHOT: return "configuration: --load-state (no quiet firmware state of this configuration), device.interface";
    case SSD_BADCFG_BBT:
      return "configuration: device.nor_kib (the SPI NOR cannot hold the bad-block table and erase-count log "
             "of nand.channels x nand.ways x nand.blocks_per_plane superblocks)";
    default: return "a configuration the firmware refuses";
  }
}

}  // namespace ssdvp
