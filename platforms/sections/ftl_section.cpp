// The FTL's totals in run.json: see ftl_section.h.
#include "platforms/sections/ftl_section.h"

#include <algorithm>
#include <cstdint>

#include "models/dram/dram.h"
#include "models/flash/flash_controller.h"
#include "models/host/host_driver.h"
#include "models/nand/die.h"

namespace ssdvp {

using nlohmann::json;

namespace {

// Bad blocks since the drive was formatted (preconditioning included): the firmware's table
// and failures beside the NAND's own counts (P/E cycles are run.json's "wear").
json media_report(const ssd_fw_stats& b, const std::vector<std::unique_ptr<nand::Die>>& dies,
                  const FlashController& fctl) {
  uint64_t factory = 0, grown = 0, failed_programs = 0, failed_erases = 0, bad_programs = 0, bad_erases = 0;
  for (const auto& d : dies) {
    failed_programs += d->failed_programs();
    failed_erases += d->failed_erases();
    bad_programs += d->bad_block_programs();
    bad_erases += d->bad_block_erases();
    for (uint32_t pl = 0; pl < d->planes(); pl++)
      for (uint32_t blk = 0; blk < d->blocks_per_plane(); blk++) {
        const uint8_t bad = d->bad(pl, blk);
        if (bad == nand::Die::kFactoryBad) factory++;
        else if (bad == nand::Die::kGrownBad) grown++;
      }
  }
  return {{"factory_bad_superblocks", b.factory_bad_superblocks},
          {"grown_bad_superblocks", b.grown_bad_superblocks},
          {"retiring_superblocks", b.retiring_superblocks},
          {"program_failures", b.program_failures},
          {"erase_failures", b.erase_failures},
          {"program_retry_sectors", b.program_retry_sectors},
          {"read_only", b.read_only != 0},
          {"writes_refused", b.writes_refused},
          {"nand", {{"factory_bad_blocks", factory},
                    {"grown_bad_blocks", grown},
                    {"failed_programs", failed_programs},
                    {"failed_erases", failed_erases},
                    {"programs_on_blocks_bad_at_power_on", bad_programs},
                    {"erases_on_blocks_bad_at_power_on", bad_erases},
                    {"read_retries", fctl.corrected_reads()}}}};
}

// Wear levelling (ftl-sw/wear/): the firmware's erase counts of its good superblocks at the
// end (the NAND's own per-block counts are run.json's "wear"), the levelling moves of the
// measured window and the NOR log's totals.  `s`: the firmware's statistics now.
json wear_report(const ssd_fw_stats& a, const ssd_fw_stats& b, const ssd_fw_stats* s, const PlatformParams& p,
                 Dram& dram) {
  uint64_t lo = UINT64_MAX, hi = 0, sum = 0, n = 0;
  if (s && s->sb_erases_addr && s->superblocks) {
    const auto* erases = reinterpret_cast<const uint32_t*>(dram.at(s->sb_erases_addr, 4ull * s->superblocks));
    const auto* state = reinterpret_cast<const uint8_t*>(dram.at(s->sb_state_addr, s->superblocks));
    const uint32_t per_die = s->superblocks / p.nand.dies();
    for (uint32_t sb = 0; sb < s->superblocks; sb++) {
      if (sb % per_die >= p.nand.blocks_of(sb / per_die) || state[sb] == 4 /* SB_BAD */) continue;
      lo = std::min<uint64_t>(lo, erases[sb]);
      hi = std::max<uint64_t>(hi, erases[sb]);
      sum += erases[sb];
      n++;
    }
  }
  return {{"spread_limit", p.ftl.wear_spread},
          {"runs", b.wear_level_runs - a.wear_level_runs},
          {"sectors_moved", b.wear_level_sectors - a.wear_level_sectors},
          {"superblock_erases", {{"min", n ? lo : 0}, {"mean", n ? double(sum) / double(n) : 0.0}, {"max", hi}}},
          {"nor_log", {{"records", b.erase_log_records}, {"compactions", b.erase_log_compactions},
                       {"record_step", p.ftl.wear_record_step}}}};
}

}  // namespace

SectionReporter recovery_section(const HostDriver& driver, std::function<const ssd_fw_stats*()> fw_now,
                                 const uint64_t& ops_before_start, bool checked) {
  return [&driver, fw_now, &ops_before_start, checked](json& r, const MeasuredWindow&) {
    const ssd_fw_stats* fs = fw_now();
    if (!fs || !fs->recovered) return;
    r["recovery"] = {{"boot_to_ready_s", driver.ready_at().to_seconds()},
                     {"plane_reads", fs->recovery_reads},
                     {"flash_operations", ops_before_start},
                     {"used_superblocks", fs->recovery_used_blocks},
                     {"partly_written_superblocks", fs->recovery_open_blocks},
                     {"unreadable_superpages", fs->recovery_unreadable_pages},
                     {"translation_pages_found", fs->recovery_tp_found},
                     {"translation_pages_written", fs->recovery_tp_writes},
                     {"trim_records_found", fs->recovery_trim_records},
                     {"pools_given_gc_room", fs->recovery_gc_room_pools}};
    if (!checked) return;
    const auto& rc = driver.recovery_check();
    r["recovery"]["check"] = {{"sectors_checked", rc.sectors},
                              {"lost", rc.lost},
                              {"newer_than_durable", rc.newer},
                              {"zeros", rc.zeros},
                              {"first_lost", rc.first_lost}};
  };
}

SectionReporter ftl_section(const PlatformParams& p, const std::vector<std::unique_ptr<nand::Die>>& dies,
                            const FlashController& fctl, Dram& dram,
                            std::function<const ssd_fw_stats*()> fw_now) {
  return [&p, &dies, &fctl, &dram, fw_now](json& r, const MeasuredWindow& w) {
    const ssd_fw_stats& a = w.start.fw;
    const ssd_fw_stats& b = w.end.fw;
    const uint64_t host_w = b.host_write_sectors - a.host_write_sectors;
    const uint64_t prog = b.flash_prog_sectors - a.flash_prog_sectors;
    r["waf"] = host_w ? double(prog) / double(host_w) : 0.0;
    r["program_unit_sectors"] = uint64_t(p.nand.planes) * p.nand.sectors_per_page;
    r["ftl"] = {{"host_write_sectors", host_w},
                {"host_read_sectors", b.host_read_sectors - a.host_read_sectors},
                {"flash_program_sectors", prog},
                {"gc_copied_sectors", b.gc_prog_sectors - a.gc_prog_sectors},
                {"padding_sectors", b.pad_sectors - a.pad_sectors},
                {"host_padding_sectors", b.host_pad_sectors - a.host_pad_sectors},
                {"gc_runs", b.gc_runs - a.gc_runs},
                {"gc_index_picks", b.gc_index_picks - a.gc_index_picks},
                {"gc_index_checks", b.gc_index_checks - a.gc_index_checks},
                {"gc_pace_holds", b.gc_pace_holds - a.gc_pace_holds},
                {"gc_pace_host_waits", b.gc_pace_host_waits - a.gc_pace_host_waits},
                {"erases", b.erases - a.erases},
                {"flash_reads", b.flash_reads - a.flash_reads},
                {"write_buffer_read_hits", b.wbuf_read_hits - a.wbuf_read_hits},
                {"unmapped_reads", b.unmapped_reads - a.unmapped_reads},
                {"media_errors", b.media_errors - a.media_errors},
                {"write_stalls", b.write_stalls - a.write_stalls},
                {"durable_writes", b.durable_writes - a.durable_writes},
                {"write_through", {{"partial_programs", b.wt_partial_programs - a.wt_partial_programs},
                                   {"superblocks_closed_early", b.wt_closed_early - a.wt_closed_early}}},
                {"trim_log", {{"sectors_written", b.trim_log_sectors - a.trim_log_sectors},
                              {"generations", b.trim_log_generations - a.trim_log_generations},
                              {"records_peak", b.trim_log_peak},
                              {"trims_ignored", b.trims_ignored - a.trims_ignored}}},
                {"bad_blocks", media_report(fw_now() ? *fw_now() : b, dies, fctl)},   // at the end, not the measured window
                {"wear_levelling", wear_report(a, b, fw_now(), p, dram)},
                {"logical_sectors", b.logical_sectors},
                {"physical_sectors", p.nand.physical_bytes() / 4096},
                {"firmware_dram_bytes", b.dram_bytes_used}};
  };
}

}  // namespace ssdvp
