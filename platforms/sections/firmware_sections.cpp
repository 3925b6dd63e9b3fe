// The firmware's statistics by mechanism in run.json: see firmware_sections.h.
#include "platforms/sections/firmware_sections.h"

namespace ssdvp {

using nlohmann::json;

namespace {
uint64_t d(uint64_t x, uint64_t y) { return x - y; }
}  // namespace

SectionReporter mapping_section(const FtlParams& ftl) {
  return [&ftl](json& r, const MeasuredWindow& w) {
    if (ftl.mapping == "opt") return;
    const ssd_fw_stats& a = w.start.fw;
    const ssd_fw_stats& b = w.end.fw;
    r["mapping"] = {
        {"scheme", ftl.mapping},
        {"sched", ftl.sched},
        {"translation_pages", b.translation_pages},
        {"cmt_slots", b.cmt_slots},
        {"cmt_clean_slots", b.cmt_clean_slots},
        {"dirty_entry_capacity", b.dirty_entry_capacity},
        {"dram_bytes", {{"cmt", b.cmt_bytes}, {"gtd", b.gtd_bytes}, {"dirty_entries", b.dirty_entry_bytes},
                        {"budget", uint64_t(double(b.logical_sectors) * 4 * ftl.cmt_ratio)},
                        {"metadata", b.map_meta_bytes}}},
        {"read_lookups", {{"hits", d(b.cmt_read_hits, a.cmt_read_hits)},
                          {"misses", d(b.cmt_read_misses, a.cmt_read_misses)},
                          {"clean_hits", d(b.cmt_clean_hits, a.cmt_clean_hits)},
                          {"dirty_hits", d(b.cmt_dirty_hits, a.cmt_dirty_hits)}}},
        {"updates", {{"hits", d(b.cmt_update_hits, a.cmt_update_hits)},
                     {"misses", d(b.cmt_update_misses, a.cmt_update_misses)}}},
        {"tp_reads", d(b.tp_reads, a.tp_reads)},
        {"tp_writes", d(b.tp_writes, a.tp_writes)},
        {"tp_dirty_evictions", d(b.tp_dirty_evictions, a.tp_dirty_evictions)},
        {"batch_updates", d(b.batch_updates, a.batch_updates)},
        {"batch_entries", d(b.batch_entries, a.batch_entries)},
        {"translation_gc_runs", d(b.map_gc_runs, a.map_gc_runs)},
        {"translation_gc_moves", d(b.map_gc_moves, a.map_gc_moves)},
        {"adapt_steps", d(b.adapt_steps, a.adapt_steps)},
        {"host_read_commands", d(b.host_read_cmds, a.host_read_cmds)},
        {"reads_waited_for", {{"map_read", d(b.reads_waited_map_read, a.reads_waited_map_read)},
                              {"map_write", d(b.reads_waited_map_write, a.reads_waited_map_write)},
                              {"gc", d(b.reads_waited_gc, a.reads_waited_gc)},
                              {"queued_behind_writes", d(b.reads_queued_behind_writes, a.reads_queued_behind_writes)}}}};
  };
}

SectionReporter placement_section(const FtlParams& ftl) {
  return [&ftl](json& r, const MeasuredWindow& w) {
    if (ftl.placement == "none") return;
    const ssd_fw_stats& a = w.start.fw;
    const ssd_fw_stats& b = w.end.fw;
    r["placement"] = {{"policy", ftl.placement},
                      {"host_slc_sectors", b.host_slc_sectors - a.host_slc_sectors},
                      {"host_mlc_sectors", b.host_mlc_sectors - a.host_mlc_sectors},
                      {"slc_gc_runs", b.slc_gc_runs - a.slc_gc_runs},
                      {"slc_fill_at_first_gc", b.slc_first_gc_seen ? json(b.slc_fill_at_first_gc_permille / 1000.0) : json()},
                      {"slc_gc_low_blocks", ftl.slc_gc_low_blocks},
                      {"slc_gc_high_blocks", ftl.slc_gc_high_blocks},
                      {"mlc_gc_runs", b.mlc_gc_runs - a.mlc_gc_runs},
                      {"migrated_sectors", b.migrated_sectors - a.migrated_sectors},
                      {"idle_migrated_sectors", b.idle_migrated_sectors - a.idle_migrated_sectors},
                      {"slc_kept_sectors", b.slc_kept_sectors - a.slc_kept_sectors},
                      {"idle_migration_runs", b.idle_migration_runs - a.idle_migration_runs},
                      {"idle_migration_stops", b.idle_migration_stops - a.idle_migration_stops},
                      {"idle_ops_while_stopped", b.idle_ops_while_stopped - a.idle_ops_while_stopped},
                      {"lapt_bytes", b.lapt_bytes},
                      {"lapt_tie_order", ftl.lapt_tie_order},
                      {"lapt_logical_block", ftl.lapt_logical_block},
                      {"lapt_block_sectors", b.lapt_block_sectors},
                      {"map_bytes", b.map_bytes},
                      {"units", b.units},
                      {"unit_gc_runs", b.unit_gc_runs - a.unit_gc_runs},
                      {"unit_map_bytes", b.unit_map_bytes}};
    if (ftl.slc_dynamic_blocks)
      r["placement"]["slc_cache"] = {{"dynamic_blocks_per_plane", ftl.slc_dynamic_blocks},
                                     {"borrowed_superblocks", b.slc_borrowed},
                                     {"borrows", b.slc_borrows - a.slc_borrows},
                                     {"returns", b.slc_returns - a.slc_returns},
                                     {"recovery_erases", b.slc_recovery_erases}};
  };
}

SectionReporter write_buffer_section(const FtlParams& ftl) {
  return [&ftl](json& r, const MeasuredWindow& w) {
    const ssd_fw_stats& a = w.start.fw;
    const ssd_fw_stats& b = w.end.fw;
    // The write buffer: what host writes and reads saw of it (measured window).
    const uint64_t inserts = b.wbuf_inserts - a.wbuf_inserts;
    const uint64_t read_sectors = b.host_read_sectors - a.host_read_sectors;
    const uint64_t hits = b.wbuf_read_hits - a.wbuf_read_hits;
    json wb = {{"kind", ftl.write_buffer},
               {"sectors", ftl.wbuf_sectors},
               {"mib", double(ftl.wbuf_sectors) / 256.0},
               {"inserted_sectors", inserts},
               {"read_hit_sectors", hits},
               {"read_hit_ratio", read_sectors ? double(hits) / double(read_sectors) : 0.0},
               {"part_sectors", b.wbuf_part_sectors},   // each firmware core's part
               {"fill_at_insert", inserts && b.wbuf_part_sectors
                                      ? double(b.wbuf_used_at_insert - a.wbuf_used_at_insert) / double(inserts) /
                                            double(b.wbuf_part_sectors)
                                      : 0.0},
               {"write_stalls", b.write_stalls - a.write_stalls}};
    if (ftl.write_buffer == "ring")
      wb["ring"] = {{"stripe_sectors", b.ring_stripe_sectors},
                    {"timeout_drains", b.ring_timeout_drains - a.ring_timeout_drains},
                    {"limiter_holds", b.ring_limiter_holds - a.ring_limiter_holds},
                    {"l2p_updates", b.ring_l2p_updates - a.ring_l2p_updates},
                    {"user_limit_min", b.ring_user_limit_min},
                    {"superseded_written_sectors", b.wbuf_superseded_written - a.wbuf_superseded_written},
                    {"mem", b.ring_mem},
                    {"sync", b.ring_sync},
                    {"used", b.ring_used},
                    {"used_max", b.ring_used_max}};
    r["write_buffer"] = wb;
  };
}

SectionReporter readahead_section(const FtlParams& ftl) {
  return [&ftl](json& r, const MeasuredWindow& w) {
    if (ftl.readahead == "none") return;
    const ssd_fw_stats& a = w.start.fw;
    const ssd_fw_stats& b = w.end.fw;
    const uint64_t hits = d(b.ra_hit_sectors, a.ra_hit_sectors), misses = d(b.ra_miss_sectors, a.ra_miss_sectors);
    const uint64_t behind = d(b.ra_reads_behind_prefetch, a.ra_reads_behind_prefetch);
    r["readahead"] = {
        {"policy", ftl.readahead},
        {"hit_sectors", hits},
        {"late_hit_sectors", d(b.ra_late_hit_sectors, a.ra_late_hit_sectors)},
        {"miss_sectors", misses},
        {"hit_ratio", hits + misses ? double(hits) / double(hits + misses) : 0.0},
        {"predicted_sectors", d(b.ra_predicted_sectors, a.ra_predicted_sectors)},
        {"not_read_ahead_sectors",   // of the predicted sectors, and why (docs/readahead.md)
         {{"beyond_half_the_cache", d(b.ra_dropped_half_cache_sectors, a.ra_dropped_half_cache_sectors)},
          {"no_cache_entry_free", d(b.ra_dropped_no_room_sectors, a.ra_dropped_no_room_sectors)},
          {"past_the_namespace", d(b.ra_dropped_beyond_end_sectors, a.ra_dropped_beyond_end_sectors)},
          {"map_not_cached", d(b.ra_pred_map_miss_sectors, a.ra_pred_map_miss_sectors)},
          {"already_in_the_cache", d(b.ra_pred_cached_sectors, a.ra_pred_cached_sectors)},
          {"in_the_write_buffer", d(b.ra_pred_buffered_sectors, a.ra_pred_buffered_sectors)}}},
        {"queued_sectors", d(b.ra_pred_queued_sectors, a.ra_pred_queued_sectors)},   // the rest: given an entry
        {"waiting_for_room_sectors", b.ra_pending_sectors},   // at the end of the run
        {"predictions_waited_for_room", d(b.ra_waited_for_room, a.ra_waited_for_room)},
        {"prefetch_sectors", d(b.ra_prefetch_sectors, a.ra_prefetch_sectors)},
        {"prefetch_useful", d(b.ra_prefetch_useful, a.ra_prefetch_useful)},
        {"prefetch_wasted", d(b.ra_prefetch_wasted, a.ra_prefetch_wasted)},
        {"prefetch_cancelled", d(b.ra_prefetch_cancelled, a.ra_prefetch_cancelled)},
        {"skipped_map_miss", d(b.ra_skipped_map_miss, a.ra_skipped_map_miss)},
        {"predictions_tree", d(b.ra_predictions_tree, a.ra_predictions_tree)},
        {"predictions_sequential", d(b.ra_predictions_seq, a.ra_predictions_seq)},
        {"invalidated_sectors", d(b.ra_invalidated_sectors, a.ra_invalidated_sectors)},
        {"invalidated_busy", b.ra_invalidated_busy - a.ra_invalidated_busy},
        {"reads_behind_prefetch", behind},
        {"prefetch_delay_us",
         {{"mean", behind ? double(d(b.ra_prefetch_delay_sum_ns, a.ra_prefetch_delay_sum_ns)) / double(behind) / 1e3 : 0.0},
          {"max", double(b.ra_prefetch_delay_max_ns) / 1e3}}},
        {"cache_sectors", b.ra_cache_sectors},
        {"tree_drops", d(b.ra_tree_drops, a.ra_tree_drops)},
        {"tree_nodes", b.ra_tree_nodes},
        {"tree_nodes_max", b.ra_tree_nodes_max},
        {"tree_node_capacity", b.ra_tree_node_capacity},
        {"dram_bytes", {{"cache", b.ra_cache_bytes}, {"analyser", b.ra_tree_bytes},
                        {"analyser_budget", uint64_t(ftl.pattern_bytes)}}}};
  };
}

}  // namespace ssdvp
