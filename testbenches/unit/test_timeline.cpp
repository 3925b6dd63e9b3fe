// The timeline recorder (models/common/timeline.h): events kept when they end inside the
// window, written in time order with their tracks named, arguments labelled, names escaped,
// and the cap cutting the file with a marker.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "models/common/timeline.h"

using ssdvp::Timeline;

namespace {
nlohmann::json written(const Timeline& t) {
  std::ostringstream out;
  t.write(out, R"({"note":1})");
  return nlohmann::json::parse(out.str());
}
}  // namespace

TEST(Timeline, KeepsEventsEndingInTheWindowInTimeOrder) {
  Timeline t(Timeline::Options{100, 1'000'000, 5'000'000});   // 1 us .. 5 us
  const uint32_t die = t.add_track("NAND \"dies\"", "die 0");
  const uint32_t q = t.add_track("host queue 0", "requests");
  static const std::vector<const char*> kinds = {"zero", "one"};
  static const Timeline::ArgNames names{{"block", "kind", nullptr, nullptr}, {nullptr, &kinds, nullptr, nullptr}};
  t.slice(die, "program", 3'000'000, 4'000'000, &names, {7, 1, 0, 0});
  t.slice(die, "read", 0, 500'000);                    // ends before the window
  t.slice(die, "read", 4'500'000, 6'000'000);          // ends after it
  t.span(q, "write", 42, 500'000, 2'000'000, &names, {9, 5, 0, 0});   // began before, ends inside: kept
  t.counter(die, "free", 2'500'000, 12);
  EXPECT_EQ(t.kept(), 3u);
  const auto j = written(t);
  std::vector<std::string> order;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] != "M") order.push_back(e["ph"].get<std::string>() + ":" + e["name"].get<std::string>());
  EXPECT_EQ(order, (std::vector<std::string>{"b:write", "e:write", "C:free", "X:program"}));
  const auto& program = j["traceEvents"][j["traceEvents"].size() - 1];
  EXPECT_EQ(program["ts"], 3.0);
  EXPECT_EQ(program["dur"], 1.0);
  EXPECT_EQ(program["args"]["block"], 7);
  EXPECT_EQ(program["args"]["kind"], "one");
  bool named = false;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name" && e["args"]["name"] == "NAND \"dies\"") named = true;
  EXPECT_TRUE(named);
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "b") {
      EXPECT_EQ(e["args"]["kind"], 5);   // past the labels: the number
    }
  }
  EXPECT_EQ(j["otherData"]["run"]["note"], 1);
  EXPECT_EQ(j["otherData"]["ssdvp_timeline"]["events_kept"], 3);
}

TEST(Timeline, TheCapCutsTheFileAndSaysWhere) {
  Timeline t(Timeline::Options{2, 0, UINT64_MAX});
  const uint32_t die = t.add_track("dies", "die 0");
  for (uint64_t i = 0; i < 5; i++) t.slice(die, "read", i * 1'000'000, i * 1'000'000 + 500'000);
  EXPECT_EQ(t.kept(), 2u);
  EXPECT_EQ(t.dropped(), 3u);
  const auto j = written(t);
  EXPECT_EQ(j["otherData"]["ssdvp_timeline"]["events_dropped"], 3);
  const auto& cut = j["traceEvents"].back();
  EXPECT_EQ(cut["ph"], "i");
  EXPECT_NE(cut["name"].get<std::string>().find("cap of 2 events"), std::string::npos);
  EXPECT_EQ(cut["ts"], 2.5);   // where the first dropped event ended
}
