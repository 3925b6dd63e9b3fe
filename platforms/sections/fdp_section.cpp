// run.json's "fdp" section: see fdp_section.h.
#include "platforms/sections/fdp_section.h"

#include <cstring>

#include "ftl-sw/hal/fdp_formats.h"
#include "models/host/host_driver.h"

namespace ssdvp {

using nlohmann::json;

namespace {

template <typename T>
T at(const std::vector<uint8_t>& bytes, size_t offset) {
  T v{};
  if (offset + sizeof(T) <= bytes.size()) std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

const char* event_name(uint8_t type) {
  switch (type) {
    case SSD_FDP_EVT_RU_NOT_FULLY_WRITTEN: return "ru_not_fully_written";
    case SSD_FDP_EVT_INVALID_PID: return "invalid_placement_identifier";
    case SSD_FDP_EVT_MEDIA_REALLOCATED: return "media_reallocated";
    default: return "other";
  }
}

}  // namespace

SectionReporter fdp_section(const HostDriver& driver, const FtlParams& ftl,
                            std::shared_ptr<const NandCountsAtFdpLogs> nand) {
  return [&driver, &ftl, nand](json& r, const MeasuredWindow&) {
    const FdpLogs& logs = driver.fdp_logs();
    json out = {{"handles", ftl.fdp_handles},
                {"reclaim_groups", ftl.fdp_groups},
                {"isolation", ftl.fdp_persistent ? "persistent" : "initial"},
                {"logs_read", logs.read},
                {"log_status", logs.status}};
    if (!logs.read || logs.status) {
      r["fdp"] = out;
      return;
    }
    const auto cfg = at<ssd_fdp_config_desc>(logs.configs, sizeof(ssd_fdp_config_log));
    json ruht = json::array();
    for (uint32_t k = 0; k < cfg.nruh; k++)
      ruht.push_back(at<ssd_fdp_ruh_desc>(logs.configs, sizeof(ssd_fdp_config_log) + sizeof cfg + k * sizeof(ssd_fdp_ruh_desc)).ruht);
    out["configuration"] = {{"valid", (cfg.fdpa & SSD_FDPA_VALID) != 0},
                            {"rgif", cfg.fdpa & 0xF},
                            {"volatile_write_cache", (cfg.fdpa & SSD_FDPA_FDPVWC) != 0},
                            {"reclaim_groups", cfg.nrg},
                            {"handles", cfg.nruh},
                            {"max_placement_ids", cfg.maxpids + 1u},
                            {"ru_nominal_bytes", cfg.runs},
                            {"handle_types", ruht}};
    const auto usage_n = at<ssd_fdp_ruhu_log>(logs.usage, 0).nruh;
    json usage = json::array();
    for (uint32_t k = 0; k < usage_n; k++) {
      const uint8_t a = at<ssd_fdp_ruhu_desc>(logs.usage, sizeof(ssd_fdp_ruhu_log) + k * sizeof(ssd_fdp_ruhu_desc)).ruha;
      usage.push_back({{"host_specified", (a & SSD_FDP_RUHA_HOST) != 0}, {"controller_specified", (a & SSD_FDP_RUHA_CTRL) != 0}});
    }
    out["handle_usage"] = usage;
    const auto st = at<ssd_fdp_stats_log>(logs.stats, 0);
    out["statistics"] = {{"host_bytes_written", st.hbmw[0]},
                         {"media_bytes_written", st.mbmw[0]},
                         {"media_bytes_erased", st.mbe[0]},
                         {"waf", st.hbmw[0] ? double(st.mbmw[0]) / double(st.hbmw[0]) : 0.0}};
    if (nand && nand->taken)
      out["nand_at_log_read"] = {{"programmed_bytes", nand->programmed_bytes},
                                 {"erased_bytes", nand->erased_bytes},
                                 {"drive_at_rest", nand->at_rest}};
    const auto ev = at<ssd_fdp_events_log>(logs.events, 0);
    json by_type = json::object(), list = json::array();
    for (uint32_t k = 0; k < ev.n && k < SSD_FDP_EVENTS_MAX; k++) {
      const auto e = at<ssd_fdp_event>(logs.events, sizeof(ssd_fdp_events_log) + k * sizeof(ssd_fdp_event));
      const std::string name = event_name(e.type);
      by_type[name] = by_type.value(name, 0) + 1;
      uint64_t info = 0;
      std::memcpy(&info, e.type_specific, sizeof info);
      list.push_back({{"type", name}, {"pid", e.pid}, {"reclaim_group", e.rgid}, {"handle", e.ruhid},
                      {"timestamp_ms", e.timestamp}, {"info", info}});
    }
    out["events"] = {{"count", ev.n}, {"by_type", by_type}, {"list", list}};
    const auto rs = at<ssd_fdp_ruh_status>(logs.ruh_status, 0);
    json status = json::array();
    for (uint32_t k = 0; k < rs.nruhsd; k++) {
      const auto d = at<ssd_fdp_ruh_status_desc>(logs.ruh_status, sizeof rs + k * sizeof(ssd_fdp_ruh_status_desc));
      status.push_back({{"pid", d.pid}, {"handle", d.ruhid}, {"ru_available_sectors", d.ruamw}});
    }
    out["handle_status"] = status;
    r["fdp"] = out;
  };
}

}  // namespace ssdvp
