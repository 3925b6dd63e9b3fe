// Firmware image checks: the built firmware loads; every kind of bad image is an error that
// names the file and the problem.
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "models/cpu/elf_image.h"
#include "models/cpu/iss_core.h"

using ssdvp::ElfImage;
using ssdvp::ElfImageError;
using ssdvp::IssCore;

namespace {

std::vector<uint8_t> built() {
  std::ifstream in(SSDVP_DEFAULT_FIRMWARE, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

std::string error_for(std::vector<uint8_t> bytes) {
  const std::string path = std::string(::testing::TempDir()) + "image.elf";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  try {
    ElfImage::load(path, IssCore::loadable_regions(0));
  } catch (const ElfImageError& e) {
    return e.what();
  }
  return "";
}

void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; i++) b[off + i] = uint8_t(v >> (8 * i));
}

}  // namespace

TEST(ElfImage, BuiltFirmwareLoads) {
  const ElfImage img = ElfImage::load(SSDVP_DEFAULT_FIRMWARE, IssCore::loadable_regions(0));
  EXPECT_EQ(img.entry, img.symbol("_start"));
  EXPECT_FALSE(img.segments.empty());
  EXPECT_NO_THROW(img.symbol("fw_main"));
}

TEST(ElfImage, BadImagesNameTheProblem) {
  const auto good = built();
  ASSERT_GT(good.size(), 64u);
  EXPECT_NE(error_for({'h', 'i'}).find("truncated"), std::string::npos);
  auto b = good;
  b[0] = 'X';
  EXPECT_NE(error_for(b).find("not an ELF file"), std::string::npos);
  b = good;
  b[4] = 2;
  EXPECT_NE(error_for(b).find("not ELF32"), std::string::npos);
  b = good;
  b[18] = 62;  // x86-64
  b[19] = 0;
  EXPECT_NE(error_for(b).find("wrong machine 62"), std::string::npos);
  b = good;
  put32(b, 24, 0x00200000);  // entry outside every segment
  EXPECT_NE(error_for(b).find("entry point 0x200000"), std::string::npos);
  b = good;
  const uint32_t phoff = uint32_t(b[28] | b[29] << 8 | b[30] << 16 | b[31] << 24);
  put32(b, phoff + 8, 0x20000000);  // first segment's vaddr outside the core's regions
  EXPECT_NE(error_for(b).find("outside the core's code and SRAM regions"), std::string::npos);
  EXPECT_NE(error_for({}).find("truncated"), std::string::npos);
}
