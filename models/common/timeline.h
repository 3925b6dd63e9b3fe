// A run's timeline: what each die, channel, firmware core and host queue did and when, kept
// in memory and written as a Chrome trace-event JSON file (Perfetto UI, chrome://tracing,
// trace_processor open it; docs/architecture.md says how).
//
// Models: tracks grouped into processes (one JSON pid per group, one tid per track, both
// named by metadata events); slices (ph X: one activity at a time on a track: a die's array
// operation, a channel's bus phase, a core's busy spell), spans (ph b/e, async: activities that
// overlap on a track, such as a queue's requests in flight, paired by id), counters (ph C) and
// instants (ph i).  An event is recorded when it has ended, so a span's begin and end are
// always written together; events are kept if they end inside the window (simulated time);
// past the cap on events the rest are counted, not kept, and the file says so (otherData
// and an instant "timeline cut" at the first event dropped).  Written sorted by time, so that
// every track's events are in time order.  Times are simulated picoseconds, written in
// microseconds with nanosecond digits.
// Leaves out: flow events (arrows from a host request to its flash operations), Perfetto's
// protobuf format (the JSON needs no library and is read by every viewer), streaming the
// file while the run goes on (events are sorted at the end).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace ssdvp {

class Timeline {
 public:
  static constexpr size_t kArgs = 4;
  // How the arguments of one kind of event are named and shown: arg[i] names argument i
  // (nullptr: unused); labels[i], if set, maps its value to a word (values past the table are
  // shown as numbers).
  struct ArgNames {
    std::array<const char*, kArgs> arg{};
    std::array<const std::vector<const char*>*, kArgs> labels{};
  };
  using Args = std::array<int64_t, kArgs>;

  struct Options {
    uint64_t max_events = 1'000'000;
    uint64_t window_begin_ps = 0;
    uint64_t window_end_ps = std::numeric_limits<uint64_t>::max();
  };
  explicit Timeline(const Options& o) : o_(o) {}

  // A track named `name` in the group (process) `group`; returns its handle.  Tracks and
  // groups are listed in the order they were added.
  uint32_t add_track(const std::string& group, const std::string& name);
  // The window and the cap may be set once the run knows them (before any event is kept).
  void set_window(uint64_t begin_ps, uint64_t end_ps);
  uint64_t window_begin_ps() const { return o_.window_begin_ps; }
  uint64_t window_end_ps() const { return o_.window_end_ps; }

  // `name` must outlive the timeline (a string literal or a table entry).
  void slice(uint32_t track, const char* name, uint64_t begin_ps, uint64_t end_ps, const ArgNames* names = nullptr,
             const Args& args = {});
  void span(uint32_t track, const char* name, uint64_t id, uint64_t begin_ps, uint64_t end_ps,
            const ArgNames* names = nullptr, const Args& args = {});
  void counter(uint32_t track, const char* name, uint64_t at_ps, int64_t value);
  void instant(uint32_t track, const char* name, uint64_t at_ps);

  uint64_t kept() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }

  // Writes the trace-event JSON; `other` is a JSON object text put under otherData beside
  // the timeline's own figures (events kept, dropped, the cap, the window).
  void write(std::ostream& out, const std::string& other = "{}") const;

 private:
  enum class Phase : uint8_t { Slice, Span, Counter, Instant };
  struct Event {
    uint64_t begin_ps, end_ps, id;
    const char* name;
    const ArgNames* names;
    uint32_t track;
    Phase phase;
    Args args;
  };
  struct Track {
    uint32_t group;
    std::string name;
  };
  bool keep(uint64_t end_ps);
  void push(const Event& e);
  Options o_;
  std::vector<std::string> groups_;
  std::vector<Track> tracks_;
  std::vector<Event> events_;
  uint64_t dropped_ = 0, first_dropped_ps_ = 0;
  uint32_t first_dropped_track_ = 0;
};

}  // namespace ssdvp
