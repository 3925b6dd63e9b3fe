// Choices that need other keys (an Open-Channel device a host FTL, a host FTL pblk's ring, ...):
// the keys they need take the needed values as their defaults, and one set to anything else is a
// conflict, every conflict named in one error with the key's origin and the choice's.
//
// Models: a declared table, one row a need: when every condition holds (KEY=V1|V2, ...), KEY
// takes VALUE if it was left at its default; a value among ALLOWED set by hand is kept; any other
// is a conflict.  Rows are applied until nothing changes, so a value one row implies may imply
// others (device.interface = ocssd gives host.ftl = pblk, which gives ftl.write_buffer = ring).
// Leaves out: needs that depend on numbers (a host FTL's memory for its map), which the
// parameters' checks (models/common/params.cpp) keep.
#include <vector>

#include "models/common/config.h"

namespace ssdvp {

namespace {

struct Need {
  const char* when;      // "key=v1|v2", conditions separated by ','
  const char* key;       // the key the choice needs ...
  const char* value;     // ... the value it takes when left at its default ...
  const char* allowed;   // ... and the values that do, "v1|v2" (nullptr: value alone)
  const char* why;
  const char* unless = nullptr;   // conditions under which the need does not arise (as `when`)
};

constexpr Need kNeeds[] = {
    {"device.interface=ocssd", "host.ftl", "pblk", "pblk|mtftl",
     "an Open-Channel device needs a host FTL to drive it (docs/host-ftl.md)"},
    {"host.ftl=pblk|mtftl", "device.interface", "ocssd", "ocssd|zns",
     "a host FTL runs over a host-managed device (a conventional one runs its own FTL)"},
    {"host.ftl=pblk|mtftl", "ftl.write_buffer", "ring", nullptr, "a host FTL buffers writes in pblk's ring"},
    {"host.ftl=pblk|mtftl", "ftl.mapping", "opt", nullptr, "a host FTL keeps its whole map in host memory"},
    {"host.ftl=pblk|mtftl", "ftl.placement", "none", nullptr, "an Open-Channel device has one cell type"},
    {"host.ftl=pblk|mtftl", "precondition.mode", "timed", "timed",
     "a host FTL's map is on the host: the fill goes through it in simulated time (functional preconditioning "
     "has the device's firmware write it)", "precondition.fill=0,precondition.overwrite=0"},
    {"host.ftl=pblk|mtftl,device.interface=zns", "device.zns.dies_per_zone", "1", nullptr,
     "a host FTL over zones takes a zone as one of its blocks"},
    {"host.ftl=pblk|mtftl,device.interface=zns", "device.zns.stripes_per_zone", "1", nullptr,
     "a host FTL over zones takes a zone as one of its blocks"},
    {"host.ftl=pblk|mtftl,device.interface=zns", "device.zns.spare_stripes", "0", nullptr,
     "a host FTL over zones takes a zone as one of its blocks"},
};

bool one_of(const std::string& value, const std::string& choices);

// Every "key=v1|v2" of `conditions` (',' between them) holds in `c`; `cause` collects those set
// by hand, "key = value (origin)".
bool all_hold(const Config& c, const std::string& conditions, std::string* cause) {
  for (size_t at = 0; at <= conditions.size();) {
    const size_t comma = std::min(conditions.find(',', at), conditions.size());
    const std::string cond = conditions.substr(at, comma - at);
    const size_t eq = cond.find('=');
    const std::string key = cond.substr(0, eq);
    if (!one_of(c.text(key), cond.substr(eq + 1))) return false;
    if (cause && c.origin(key) != "default") {
      const std::string& from = c.origin(key);
      *cause += std::string(cause->empty() ? "" : ", ") + key + " = " + c.text(key) + " (" +
                (from.rfind("implied by ", 0) == 0 ? std::string("implied") : from) + ")";
    }
    at = comma + 1;
  }
  return true;
}

bool one_of(const std::string& value, const std::string& choices) {
  for (size_t at = 0; at <= choices.size();) {
    const size_t bar = std::min(choices.find('|', at), choices.size());
    if (choices.compare(at, bar - at, value) == 0) return true;
    at = bar + 1;
  }
  return false;
}

}  // namespace

std::string config_needs_markdown() {
  std::string out =
      "\n## What choices need\n\nA choice that needs other keys at given values gives them those values when they are left "
      "at their defaults (the run's summary says so on its `implied:` line, run.json in `config_implied`); one set to "
      "anything else is refused, every such conflict in one error naming both keys and their origins.\n\n"
      "| when | key | takes | also allowed | why |\n|---|---|---|---|---|\n";
  for (const Need& n : kNeeds) {
    std::string when = n.when, also = n.allowed && std::string(n.allowed) != n.value ? n.allowed : "",
                unless = n.unless ? n.unless : "";
    for (std::string* s : {&when, &also, &unless})
      for (size_t at = 0; (at = s->find_first_of(",|", at)) != std::string::npos; at++)
        s->replace(at, 1, (*s)[at] == ',' ? ", " : " or "), at += 1;
    out += "| `" + when + "`" + (unless.empty() ? "" : " unless `" + unless + "`") + " | `" + n.key + "` | `" +
           n.value + "` | " + (also.empty() ? "" : "`" + also + "`") + " | " + n.why + " |\n";
  }
  return out;
}

std::string Config::apply_needs() {
  std::string errors;
  bool changed = true;
  std::vector<bool> reported(std::size(kNeeds), false);
  while (changed) {
    changed = false;
    for (size_t i = 0; i < std::size(kNeeds); i++) {
      const Need& need = kNeeds[i];
      std::string cause;   // "device.interface = ocssd (--set device.interface)"
      if (!all_hold(*this, need.when, &cause) || cause.empty()) continue;   // (defaults need nothing)
      if (need.unless && all_hold(*this, need.unless, nullptr)) continue;
      const std::string allowed = need.allowed ? need.allowed : need.value;
      if (one_of(text(need.key), allowed)) continue;
      if (origin(need.key) == "default") {
        set(need.key, need.value, "implied by " + cause);
        implied_.push_back(std::string(need.key) + " = " + need.value + " (" + cause + ")");
        changed = true;
      } else if (!reported[i]) {
        reported[i] = true;
        std::string choices = allowed;
        for (char& ch : choices)
          if (ch == '|') ch = '/';
        errors += std::string(errors.empty() ? "" : "\n  ") + origin(need.key) + ": " + need.key + " = " + text(need.key) +
                  " conflicts with " + cause + ": " + need.why + ": " + need.key + " = " + choices;
      }
    }
  }
  return errors;
}

}  // namespace ssdvp
