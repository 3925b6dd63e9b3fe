#include "models/common/timeline.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace ssdvp {

uint32_t Timeline::add_track(const std::string& group, const std::string& name) {
  auto g = std::find(groups_.begin(), groups_.end(), group);
  if (g == groups_.end()) g = groups_.insert(groups_.end(), group);
  tracks_.push_back({uint32_t(g - groups_.begin()), name});
  return uint32_t(tracks_.size() - 1);
}

void Timeline::set_window(uint64_t begin_ps, uint64_t end_ps) {
  o_.window_begin_ps = begin_ps;
  o_.window_end_ps = end_ps;
}

bool Timeline::keep(uint64_t end_ps) {
  return end_ps >= o_.window_begin_ps && end_ps <= o_.window_end_ps;
}

void Timeline::push(const Event& e) {
  if (events_.size() >= o_.max_events) {
    if (dropped_++ == 0) {
      first_dropped_ps_ = e.end_ps;
      first_dropped_track_ = e.track;
    }
    return;
  }
  events_.push_back(e);
}

void Timeline::slice(uint32_t track, const char* name, uint64_t begin_ps, uint64_t end_ps, const ArgNames* names,
                     const Args& args) {
  if (keep(end_ps)) push({begin_ps, end_ps, 0, name, names, track, Phase::Slice, args});
}

void Timeline::span(uint32_t track, const char* name, uint64_t id, uint64_t begin_ps, uint64_t end_ps,
                    const ArgNames* names, const Args& args) {
  if (keep(end_ps)) push({begin_ps, end_ps, id, name, names, track, Phase::Span, args});
}

void Timeline::counter(uint32_t track, const char* name, uint64_t at_ps, int64_t value) {
  if (keep(at_ps)) push({at_ps, at_ps, 0, name, nullptr, track, Phase::Counter, {value, 0, 0, 0}});
}

void Timeline::instant(uint32_t track, const char* name, uint64_t at_ps) {
  if (keep(at_ps)) push({at_ps, at_ps, 0, name, nullptr, track, Phase::Instant, {}});
}

namespace {

// Picoseconds as microseconds with nanosecond digits (the trace-event format's unit).
std::string micros(uint64_t ps) {
  const uint64_t ns = ps / 1000;
  return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
}

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace

void Timeline::write(std::ostream& out, const std::string& other) const {
  // Every record: an event's begin (all phases) and a span's end, in time order; at the same
  // time a span's end goes before other begins (ids are never reused while open anyway).
  struct Record {
    uint64_t at;
    uint32_t event;
    bool end;
  };
  std::vector<Record> records;
  records.reserve(events_.size() + events_.size() / 4);
  for (uint32_t i = 0; i < events_.size(); i++) {
    records.push_back({events_[i].begin_ps, i, false});
    if (events_[i].phase == Phase::Span) records.push_back({events_[i].end_ps, i, true});
  }
  std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    return a.at != b.at ? a.at < b.at : a.end > b.end;
  });

  std::unordered_map<const char*, std::string> names;   // event names, quoted once
  auto name_of = [&](const char* n) -> const std::string& {
    auto it = names.find(n);
    if (it == names.end()) it = names.emplace(n, quoted(n)).first;
    return it->second;
  };
  auto args_of = [&](const Event& e) {
    std::string s = "{";
    if (e.names)
      for (size_t k = 0; k < kArgs; k++) {
        if (!e.names->arg[k]) continue;
        if (s.size() > 1) s += ',';
        s += '"';
        s += e.names->arg[k];
        s += "\":";
        const auto* labels = e.names->labels[k];
        if (labels && e.args[k] >= 0 && size_t(e.args[k]) < labels->size())
          s += name_of((*labels)[size_t(e.args[k])]);
        else
          s += std::to_string(e.args[k]);
      }
    return s + "}";
  };

  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto sep = [&] {
    if (!first) out << ",\n";
    first = false;
  };
  for (uint32_t g = 0; g < groups_.size(); g++) {
    sep();
    out << fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"tid":0,"args":{{"name":{}}}}})", g + 1,
                       quoted(groups_[g]));
    sep();
    out << fmt::format(R"({{"ph":"M","name":"process_sort_index","pid":{},"tid":0,"args":{{"sort_index":{}}}}})",
                       g + 1, g);
  }
  for (uint32_t t = 0; t < tracks_.size(); t++) {
    sep();
    out << fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}})",
                       tracks_[t].group + 1, t + 1, quoted(tracks_[t].name));
    sep();
    out << fmt::format(R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                       tracks_[t].group + 1, t + 1, t);
  }
  for (const Record& r : records) {
    const Event& e = events_[r.event];
    const uint32_t pid = tracks_[e.track].group + 1, tid = e.track + 1;
    sep();
    switch (e.phase) {
      case Phase::Slice:
        out << fmt::format(R"({{"ph":"X","name":{},"pid":{},"tid":{},"ts":{},"dur":{},"args":{}}})", name_of(e.name),
                           pid, tid, micros(e.begin_ps), micros(e.end_ps - e.begin_ps), args_of(e));
        break;
      case Phase::Span:
        if (r.end)
          out << fmt::format(R"({{"ph":"e","cat":"ssdvp","name":{},"id":{},"pid":{},"tid":{},"ts":{}}})",
                             name_of(e.name), e.id, pid, tid, micros(e.end_ps));
        else
          out << fmt::format(R"({{"ph":"b","cat":"ssdvp","name":{},"id":{},"pid":{},"tid":{},"ts":{},"args":{}}})",
                             name_of(e.name), e.id, pid, tid, micros(e.begin_ps), args_of(e));
        break;
      case Phase::Counter:
        out << fmt::format(R"({{"ph":"C","name":{},"pid":{},"tid":{},"ts":{},"args":{{"value":{}}}}})",
                           name_of(e.name), pid, tid, micros(e.begin_ps), e.args[0]);
        break;
      case Phase::Instant:
        out << fmt::format(R"({{"ph":"i","s":"t","name":{},"pid":{},"tid":{},"ts":{}}})", name_of(e.name), pid, tid,
                           micros(e.begin_ps));
        break;
    }
  }
  if (dropped_) {
    sep();
    out << fmt::format(R"({{"ph":"i","s":"g","name":{},"pid":{},"tid":{},"ts":{}}})",
                       quoted(fmt::format("timeline cut: the cap of {} events was reached here; {} later events "
                                          "were not kept",
                                          o_.max_events, dropped_)),
                       tracks_.empty() ? 1 : tracks_[first_dropped_track_].group + 1, first_dropped_track_ + 1,
                       micros(first_dropped_ps_));
  }
  out << "\n],\n\"otherData\":{\"ssdvp_timeline\":{"
      << fmt::format(R"("events_kept":{},"events_dropped":{},"max_events":{},"window_us":[{},{}])", events_.size(),
                     dropped_, o_.max_events, micros(o_.window_begin_ps),
                     o_.window_end_ps == std::numeric_limits<uint64_t>::max() ? std::string("null")
                                                                              : micros(o_.window_end_ps))
      << "},\"run\":" << other << "}}\n";
}

}  // namespace ssdvp
