// Compressed trace files as text: see decompressing_streambuf.h.
#include "traces/decompressing_streambuf.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <stdexcept>

namespace ssdvp::workload {

namespace {
constexpr size_t kInputBytes = 1 << 16;
constexpr size_t kOutputBytes = 1 << 16;
}  // namespace

const char* compression_name(Compression c) {
  switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Xz: return "xz";
    case Compression::Zstd: return "zstd";
    case Compression::Bzip2: return "bzip2";
  }
  return "?";
}

// One codec's decoder: turns input into output a step at a time and says when a member
// (gzip member, xz stream, zstd frame, bzip2 stream) has ended.
class DecompressingStreambuf::Decoder {
 public:
  enum class Step { Progress, MemberEnd, Error };
  virtual ~Decoder() = default;
  virtual Step step(const char* in, size_t in_len, char* out, size_t out_cap, size_t& consumed, size_t& produced,
                    std::string& error) = 0;
  // The member before ended: get ready for another.
  virtual void next_member() = 0;
};

namespace {

using Step = DecompressingStreambuf::Decoder::Step;

class GzipDecoder : public DecompressingStreambuf::Decoder {
 public:
  GzipDecoder() {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw std::runtime_error("zlib: cannot start a gzip decoder");
  }
  ~GzipDecoder() override { inflateEnd(&z_); }
  Step step(const char* in, size_t in_len, char* out, size_t out_cap, size_t& consumed, size_t& produced,
            std::string& error) override {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    z_.avail_in = uInt(in_len);
    z_.next_out = reinterpret_cast<Bytef*>(out);
    z_.avail_out = uInt(out_cap);
    const int r = inflate(&z_, Z_NO_FLUSH);
    consumed = in_len - z_.avail_in;
    produced = out_cap - z_.avail_out;
    if (r == Z_STREAM_END) return Step::MemberEnd;
    if (r == Z_OK || r == Z_BUF_ERROR) return Step::Progress;
    error = std::string("gzip data corrupt (zlib: ") + (z_.msg ? z_.msg : "error " + std::to_string(r)) + ")";
    return Step::Error;
  }
  void next_member() override { inflateReset(&z_); }

 private:
  z_stream z_{};
};

class XzDecoder : public DecompressingStreambuf::Decoder {
 public:
  XzDecoder() { start(); }
  ~XzDecoder() override { lzma_end(&s_); }
  Step step(const char* in, size_t in_len, char* out, size_t out_cap, size_t& consumed, size_t& produced,
            std::string& error) override {
    s_.next_in = reinterpret_cast<const uint8_t*>(in);
    s_.avail_in = in_len;
    s_.next_out = reinterpret_cast<uint8_t*>(out);
    s_.avail_out = out_cap;
    const lzma_ret r = lzma_code(&s_, LZMA_RUN);
    consumed = in_len - s_.avail_in;
    produced = out_cap - s_.avail_out;
    if (r == LZMA_STREAM_END) return Step::MemberEnd;
    if (r == LZMA_OK || r == LZMA_BUF_ERROR) return Step::Progress;
    error = "xz data corrupt (liblzma error " + std::to_string(int(r)) + ")";
    return Step::Error;
  }
  void next_member() override {
    lzma_end(&s_);
    start();
  }

 private:
  void start() {
    s_ = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&s_, UINT64_MAX, 0) != LZMA_OK) throw std::runtime_error("liblzma: cannot start an xz decoder");
  }
  lzma_stream s_ = LZMA_STREAM_INIT;
};

class ZstdDecoder : public DecompressingStreambuf::Decoder {
 public:
  ZstdDecoder() : d_(ZSTD_createDStream()) {
    if (!d_ || ZSTD_isError(ZSTD_initDStream(d_))) throw std::runtime_error("libzstd: cannot start a zstd decoder");
  }
  ~ZstdDecoder() override { ZSTD_freeDStream(d_); }
  Step step(const char* in, size_t in_len, char* out, size_t out_cap, size_t& consumed, size_t& produced,
            std::string& error) override {
    ZSTD_inBuffer i{in, in_len, 0};
    ZSTD_outBuffer o{out, out_cap, 0};
    const size_t r = ZSTD_decompressStream(d_, &o, &i);
    consumed = i.pos;
    produced = o.pos;
    if (ZSTD_isError(r)) {
      error = std::string("zstd data corrupt (libzstd: ") + ZSTD_getErrorName(r) + ")";
      return Step::Error;
    }
    return r == 0 ? Step::MemberEnd : Step::Progress;   // 0: a frame decoded and flushed whole
  }
  void next_member() override {}   // the stream goes on with the next frame

 private:
  ZSTD_DStream* d_;
};

class Bzip2Decoder : public DecompressingStreambuf::Decoder {
 public:
  Bzip2Decoder() { start(); }
  ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&b_); }
  Step step(const char* in, size_t in_len, char* out, size_t out_cap, size_t& consumed, size_t& produced,
            std::string& error) override {
    b_.next_in = const_cast<char*>(in);
    b_.avail_in = unsigned(in_len);
    b_.next_out = out;
    b_.avail_out = unsigned(out_cap);
    const int r = BZ2_bzDecompress(&b_);
    consumed = in_len - b_.avail_in;
    produced = out_cap - b_.avail_out;
    if (r == BZ_STREAM_END) return Step::MemberEnd;
    if (r == BZ_OK) return Step::Progress;
    error = "bzip2 data corrupt (libbz2 error " + std::to_string(r) + ")";
    return Step::Error;
  }
  void next_member() override {
    BZ2_bzDecompressEnd(&b_);
    start();
  }

 private:
  void start() {
    b_ = bz_stream{};
    if (BZ2_bzDecompressInit(&b_, 0, 0) != BZ_OK) throw std::runtime_error("libbz2: cannot start a bzip2 decoder");
  }
  bz_stream b_{};
};

}  // namespace

DecompressingStreambuf::DecompressingStreambuf(const std::string& path, Compression c)
    : file_(path, std::ios::in | std::ios::binary), in_(kInputBytes), out_(kOutputBytes) {
  if (!file_) throw std::runtime_error("cannot open " + path);
  switch (c) {
    case Compression::Gzip: decoder_ = std::make_unique<GzipDecoder>(); break;
    case Compression::Xz: decoder_ = std::make_unique<XzDecoder>(); break;
    case Compression::Zstd: decoder_ = std::make_unique<ZstdDecoder>(); break;
    case Compression::Bzip2: decoder_ = std::make_unique<Bzip2Decoder>(); break;
  }
  name_ = compression_name(c);
  setg(out_.data(), out_.data(), out_.data());
}

DecompressingStreambuf::~DecompressingStreambuf() = default;

bool DecompressingStreambuf::read_input() {
  file_.read(in_.data(), std::streamsize(in_.size()));
  in_len_ = size_t(file_.gcount());
  in_pos_ = 0;
  if (file_.bad()) {
    error_ = "read error in the compressed file";
    return false;
  }
  if (in_len_ == 0) file_done_ = true;
  return true;
}

bool DecompressingStreambuf::decode_more() {
  // Steps that neither took input nor gave output: a decoder that needs what is not there.
  int idle_steps = 0;
  while (!finished_) {
    if (in_pos_ == in_len_ && !file_done_ && !read_input()) break;
    if (in_pos_ == in_len_ && file_done_) {
      if (!between_members_)
        error_ = std::string("the ") + name_ + " stream is cut short (no end marker: a truncated file?)";
      break;
    }
    if (between_members_) {
      decoder_->next_member();
      between_members_ = false;
    }
    size_t consumed = 0, produced = 0;
    const Step s = decoder_->step(in_.data() + in_pos_, in_len_ - in_pos_, out_.data(), out_.size(), consumed,
                                  produced, error_);
    in_pos_ += consumed;
    if (s == Step::Error) break;
    if (s == Step::MemberEnd) between_members_ = true;
    if (produced) {
      setg(out_.data(), out_.data(), out_.data() + produced);
      return true;
    }
    if (consumed == 0 && s == Step::Progress && ++idle_steps > 2) {
      error_ = std::string(name_) + " decoder made no progress (corrupt data?)";
      break;
    }
  }
  finished_ = true;
  return false;
}

DecompressingStreambuf::int_type DecompressingStreambuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (!decode_more()) {
    if (!error_.empty()) throw std::runtime_error(error_);   // the istream sets badbit
    return traits_type::eof();
  }
  return traits_type::to_int_type(*gptr());
}

}  // namespace ssdvp::workload
