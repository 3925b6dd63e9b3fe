// The device's hardware in run.json: see device_sections.h.
#include "platforms/sections/device_sections.h"

#include <algorithm>
#include <cstdint>

#include "models/cpu/iss_core.h"
#include "models/cpu/mailbox.h"
#include "models/cpu/uart.h"
#include "models/flash/channel_if.h"
#include "models/flash/rtl_channel.h"
#include "models/nand/die.h"

namespace ssdvp {

using nlohmann::json;

SectionReporter utilisation_section() {
  return [](json& r, const MeasuredWindow& w) {
    json dies = json::array(), chans = json::array();
    for (size_t i = 0; i < w.end.die_busy_ps.size(); i++)
      dies.push_back(w.busy_share(w.end.die_busy_ps[i], w.start.die_busy_ps.empty() ? 0 : w.start.die_busy_ps[i]));
    for (size_t i = 0; i < w.end.channel_busy_ps.size(); i++)
      chans.push_back(w.busy_share(w.end.channel_busy_ps[i], w.start.channel_busy_ps.empty() ? 0 : w.start.channel_busy_ps[i]));
    r["utilisation"] = {{"dies", dies},
                        {"channels", chans},
                        {"pcie_host_to_device", w.busy_share(w.end.link_busy_ps[0], w.start.link_busy_ps[0])},
                        {"pcie_device_to_host", w.busy_share(w.end.link_busy_ps[1], w.start.link_busy_ps[1])},
                        {"dram", w.busy_share(w.end.dram_busy_ps, w.start.dram_busy_ps)}};
  };
}

SectionReporter rtl_channel_section(const std::vector<ChannelIf*>& channels, const ChannelParams& channel) {
  return [&channels, &channel](json& r, const MeasuredWindow& w) {
    uint64_t clocked = 0, late = 0, seen = 0, decoded = 0, violations = 0;
    for (ChannelIf* ch : channels)
      if (auto* rtl = dynamic_cast<RtlChannel*>(ch)) {
        clocked += rtl->cycles_clocked(), late += rtl->late_starts();
        if (const NandProtocolMonitor* m = rtl->monitor())
          seen += m->cycles_seen(), decoded += m->operations_decoded(), violations += m->violations().size();
      }
    const double cycles = w.sim_s / channel.cycle.to_seconds() * double(channels.size());
    r["rtl"] = {{"bus_cycles_simulated", cycles},
                {"cycles_clocked", clocked},
                {"late_starts", late},
                {"bus_cycles_per_wall_s", w.run_wall_s > 0 ? cycles / w.run_wall_s : 0.0}};
    // The whole run's (the monitor starts with the drive, before the measured window).
    if (channel.rtl_monitor)
      r["rtl"]["monitor"] = {{"cycles_seen", seen}, {"operations_decoded", decoded}, {"violations", violations}};
  };
}

SectionReporter firmware_cores_section(const std::vector<FirmwareCore*>& cores, const FirmwareParams& firmware,
                                       const Uart& uart, const Mailbox& mailbox) {
  return [&cores, &firmware, &uart, &mailbox](json& r, const MeasuredWindow& w) {
    json list = json::array();
    for (size_t i = 0; i < w.end.cores.size(); i++) {
      const auto& b = w.end.cores[i];
      const PlatformSnapshot::Core a = i < w.start.cores.size() ? w.start.cores[i] : PlatformSnapshot::Core{};
      const double host = b.host_s - a.host_s;
      const ssd_core_stats& fa = w.start.fw.core[i % SSD_MAX_CORES];
      const ssd_core_stats& fb = w.end.fw.core[i % SSD_MAX_CORES];
      const double busy = double(b.busy_ps - a.busy_ps) * 1e-12, idle = double(b.idle_ps - a.idle_ps) * 1e-12;
      list.push_back({{"busy_s", busy},
                      {"idle_s", idle},
                      {"busy_share", busy + idle > 0 ? busy / (busy + idle) : 0.0},
                      {"host_commands", fb.host_cmds - fa.host_cmds},
                      {"buffer_inserted_sectors", fb.wbuf_inserts - fa.wbuf_inserts},
                      {"flushes", fb.flushes - fa.flushes},
                      {"programs", fb.programs - fa.programs},
                      {"passes", fb.passes - fa.passes},
                      {"lock_waits", fb.lock_waits - fa.lock_waits},
                      {"lock_spins", fb.lock_spins - fa.lock_spins},
                      {"ipis_sent", fb.ipis_sent - fa.ipis_sent},
                      {"wakeups", b.wakeups - a.wakeups},
                      {"mmio_accesses", b.mmio - a.mmio},
                      {"instructions", b.instructions - a.instructions},
                      {"quanta", b.quanta - a.quanta},
                      {"syncs_skipped", b.syncs_skipped - a.syncs_skipped},
                      {"host_seconds_executing", host},
                      {"mips_while_executing", host > 0 ? double(b.instructions - a.instructions) / host / 1e6 : 0.0}});
      if (!b.cost_units.empty()) {   // native: each kind of work's units (scripts/host_ftl_costs.py fits to them)
        static const char* kinds[] = {"loop", "host_cmd", "sector", "flash_submit", "flash_done", "dma_submit", "gc_sector", "spin"};
        json units = json::object();
        for (size_t k = 0; k < b.cost_units.size() && k < 8; k++)
          units[kinds[k]] = b.cost_units[k] - (k < a.cost_units.size() ? a.cost_units[k] : 0u);
        list.back()["cost_units"] = units;
      }
    }
    r["firmware"] = {{"mode", firmware.mode}, {"cores", list}, {"uart", uart.lines()},
                     {"mailbox_messages", mailbox.messages_sent()}};
    if (auto* iss = dynamic_cast<const IssCore*>(cores.empty() ? nullptr : cores[0])) {
      r["firmware"]["iss_engine"] = iss->engine();
      r["firmware"]["exact_quanta"] = iss->exact_quanta();
      r["firmware"]["skip_idle_syncs"] = firmware.skip_idle_syncs;
      uint64_t unlocated = 0;
      for (size_t i = 0; i < cores.size(); i++) {
        const auto* c = static_cast<const IssCore*>(cores[i]);
        unlocated += c->unlocated_accesses();
        r["firmware"]["cores"][i]["pc_at_end"] = c->pc();   // where a stuck core is
      }
      r["firmware"]["mmio_accesses_unlocated"] = unlocated;
    }
    if (auto* iss = dynamic_cast<const IssCore*>(cores.empty() ? nullptr : cores[0]); iss && firmware.profile) {
      json prof = json::array();
      for (const auto& [fn, n] : iss->profile()) prof.push_back({{"function", fn}, {"instructions", n}});
      r["firmware"]["profile"] = prof;
    }
  };
}

SectionReporter nand_section(const std::vector<std::unique_ptr<nand::Die>>& dies, const NandParams& nand) {
  return [&dies, &nand](json& r, const MeasuredWindow& w) {
    const uint64_t host_w = w.end.fw.host_write_sectors - w.start.fw.host_write_sectors;
    // Wear: erase counts of every block (preconditioning included), and timed erases per die.
    uint64_t wear_min = UINT64_MAX, wear_max = 0, wear_sum = 0, blocks = 0;
    json erases_per_die = json::array();
    uint64_t die_programmed = 0;
    for (size_t d = 0; d < dies.size(); d++) {
      for (uint32_t pl = 0; pl < nand.planes; pl++)
        for (uint32_t b = 0; b < nand.blocks_of(uint32_t(d)); b++) {
          const uint64_t e = dies[d]->erase_count(pl, b);
          wear_min = std::min(wear_min, e);
          wear_max = std::max(wear_max, e);
          wear_sum += e;
          blocks++;
        }
      erases_per_die.push_back(w.end.die_erases[d] - (w.start.die_erases.empty() ? 0 : w.start.die_erases[d]));
      die_programmed += w.end.die_programmed[d] - (w.start.die_programmed.empty() ? 0 : w.start.die_programmed[d]);
    }
    // The dies' own count of programmed sectors, next to the firmware's (ftl.flash_program_sectors).
    uint64_t compact_blocks = 0, wide_blocks = 0, lean_blocks = 0;
    uint64_t slc_mode_blocks = 0;
    for (const auto& d : dies) {
      d->count_stored_blocks(compact_blocks, wide_blocks, lean_blocks);
      for (uint32_t pl = 0; pl < d->planes(); pl++)
        for (uint32_t b = 0; b < d->blocks_per_plane(); b++) slc_mode_blocks += d->slc_mode(pl, b);
    }
    r["nand"] = {{"programmed_sectors", die_programmed},
                 {"waf", host_w ? double(die_programmed) / double(host_w) : 0.0},
                 {"compact_blocks", compact_blocks},
                 {"wide_blocks", wide_blocks},
                 {"lean_blocks", lean_blocks},
                 {"slc_mode_blocks", slc_mode_blocks}};
    uint64_t retried = 0, steps = 0, rber_lost = 0;
    for (const auto& d : dies) {
      retried += d->retried_reads();
      steps += d->retry_steps();
      rber_lost += d->rber_uncorrectable();
    }
    r["wear"] = {{"block_erases_min", blocks ? wear_min : 0},
                 {"block_erases_mean", blocks ? double(wear_sum) / double(blocks) : 0.0},
                 {"block_erases_max", wear_max},
                 {"erases_per_die", erases_per_die},
                 {"read_retry", {{"reads", retried}, {"steps", steps}, {"uncorrectable_plane_reads", rber_lost}}}};
  };
}

}  // namespace ssdvp
