// A compressed file read as the text it holds: a std::streambuf that runs gzip (zlib), xz
// (liblzma), zstd (libzstd) or bzip2 (libbz2) over a file, a buffer at a time, so that memory
// stays bounded however long the trace.
//
// Models: every stream the tools write, members concatenated (pigz, pzstd, pbzip2, `cat
// a.gz b.gz`); a stream must end with its end marker: input that ends inside a member (a file
// cut short, even at a line's end) is an error, as is corrupt data.  An error stops the
// stream (underflow returns EOF, the istream goes bad) and error() says what happened.
// Leaves out: seeking, writing, the lzip and lz4 formats, gzip's multi-gigabyte header
// extras beyond what zlib itself handles.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

namespace ssdvp::workload {

enum class Compression { Gzip, Xz, Zstd, Bzip2 };
const char* compression_name(Compression c);

class DecompressingStreambuf : public std::streambuf {
 public:
  // Reads `path` from its first byte.  Throws std::runtime_error when it cannot be opened or
  // the decoder cannot start.
  DecompressingStreambuf(const std::string& path, Compression c);
  ~DecompressingStreambuf() override;
  DecompressingStreambuf(const DecompressingStreambuf&) = delete;
  DecompressingStreambuf& operator=(const DecompressingStreambuf&) = delete;

  // Why the stream stopped early ("" while it is good or ended well).
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override;

 public:
  class Decoder;

 private:
  // Fills out_ with the next decoded bytes; false at the end or on an error.
  bool decode_more();
  bool read_input();
  std::ifstream file_;
  std::unique_ptr<Decoder> decoder_;
  std::vector<char> in_, out_;
  size_t in_pos_ = 0, in_len_ = 0;
  bool file_done_ = false, finished_ = false;
  bool between_members_ = false;   // the last member ended where the input is now
  const char* name_ = "";
  std::string error_;
};

}  // namespace ssdvp::workload
