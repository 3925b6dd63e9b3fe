#include "compress_for_tests.h"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <stdexcept>
#include <vector>

namespace ssdvp::workload::test {

std::string compress(const std::string& text, const std::string& kind) {
  std::vector<char> out(text.size() + text.size() / 50 + 1024);
  size_t n = 0;
  if (kind == "gzip") {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("deflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    const int r = deflate(&z, Z_FINISH);
    n = out.size() - z.avail_out;
    deflateEnd(&z);
    if (r != Z_STREAM_END) throw std::runtime_error("deflate");
  } else if (kind == "xz") {
    if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
                                text.size(), reinterpret_cast<uint8_t*>(out.data()), &n, out.size()) != LZMA_OK)
      throw std::runtime_error("lzma_easy_buffer_encode");
  } else if (kind == "zstd") {
    // With the content checksum, as the zstd tool writes frames.
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    n = ZSTD_compress2(c, out.data(), out.size(), text.data(), text.size());
    ZSTD_freeCCtx(c);
    if (ZSTD_isError(n)) throw std::runtime_error("ZSTD_compress2");
  } else if (kind == "bzip2") {
    unsigned len = unsigned(out.size());
    if (BZ2_bzBuffToBuffCompress(out.data(), &len, const_cast<char*>(text.data()), unsigned(text.size()), 9, 0, 0) !=
        BZ_OK)
      throw std::runtime_error("BZ2_bzBuffToBuffCompress");
    n = len;
  } else {
    throw std::invalid_argument("compress: unknown kind " + kind);
  }
  return std::string(out.data(), n);
}

}  // namespace ssdvp::workload::test
