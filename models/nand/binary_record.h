// Little helpers for the binary records of a die (Die::save / Die::save_runtime): plain
// values and byte runs in host byte order, and reads that throw naming the file and the
// record when it ends early.  Host byte order: images are read back on the machine kind
// that wrote them (a snapshot is refused by another build anyway).
#pragma once

#include <cstddef>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>

namespace ssdvp::nand::record {

template <class T>
void put(std::ostream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}

inline void put_bytes(std::ostream& out, const void* p, size_t n) {
  out.write(static_cast<const char*>(p), std::streamsize(n));
}

// `what` names the record in the error ("NAND image", "die state").
inline void get_bytes(std::istream& in, void* p, size_t n, const std::string& source, const char* what) {
  if (!in.read(static_cast<char*>(p), std::streamsize(n))) throw std::runtime_error(source + ": " + what + " is truncated");
}

template <class T>
T get(std::istream& in, const std::string& source, const char* what) {
  T v{};
  get_bytes(in, &v, sizeof v, source, what);
  return v;
}

}  // namespace ssdvp::nand::record
