// The shipped platforms (platforms/*.toml of the source tree): `ssdvp platforms` lists them, and
// `-p NAME` takes a bare name for one of them as sweep.py does.
//
// Models: a platform's name (its file's stem) and the first sentence of its header comment;
// resolving what -p was given (an existing file, else a shipped name) with one error naming it
// and the near names.
// Leaves out: platforms installed anywhere but the source tree's platforms/ folder.
#pragma once

#include <string>
#include <vector>

namespace ssdvp {

struct PlatformEntry {
  std::string name;      // "ocssd"
  std::string path;      // DIR/ocssd.toml
  std::string summary;   // the first sentence of its header comment
};

// The *.toml files of `dir`, by name.
std::vector<PlatformEntry> shipped_platforms(const std::string& dir);

// What `-p ARG` names: "" (the built-in default), ARG itself when it is a file, else the shipped
// platform named ARG (with or without .toml).  Throws ConfigError naming ARG, the near names and
// `ssdvp platforms` otherwise.
std::string resolve_platform(const std::string& arg, const std::string& dir);

// The listing of `ssdvp platforms`: a name and a summary a line.
std::string platform_listing(const std::string& dir);

}  // namespace ssdvp
