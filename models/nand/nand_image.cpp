// The drive's persistent state file: see nand_image.h.
#include "models/nand/nand_image.h"

#include <fstream>
#include <stdexcept>

namespace ssdvp::nand {

namespace {
constexpr char kMagic[8] = {'S', 'S', 'D', 'V', 'P', 'N', 'A', 'N'};
constexpr uint32_t kVersion = 2;   // 2: the SPI NOR's words after the NVRAM's
}  // namespace

void save_nand_image(const std::string& path, const std::vector<std::unique_ptr<Die>>& dies,
                     const std::vector<uint32_t>& nvram, const std::vector<uint32_t>& nor) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot write the NAND image");
  out.write(kMagic, sizeof kMagic);
  const uint32_t head[4] = {kVersion, uint32_t(dies.size()), uint32_t(nvram.size()), uint32_t(nor.size())};
  out.write(reinterpret_cast<const char*>(head), sizeof head);
  out.write(reinterpret_cast<const char*>(nvram.data()), std::streamsize(nvram.size() * 4));
  out.write(reinterpret_cast<const char*>(nor.data()), std::streamsize(nor.size() * 4));
  for (const auto& d : dies) d->save(out);
  if (!out) throw std::runtime_error(path + ": cannot write the NAND image");
}

void load_nand_image(const std::string& path, const std::vector<std::unique_ptr<Die>>& dies,
                     std::vector<uint32_t>& nvram, std::vector<uint32_t>& nor) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the NAND image");
  char magic[8];
  uint32_t head[4];
  if (!in.read(magic, sizeof magic) || std::string(magic, 8) != std::string(kMagic, 8))
    throw std::runtime_error(path + ": not a ssdvp NAND image");
  if (!in.read(reinterpret_cast<char*>(head), sizeof head)) throw std::runtime_error(path + ": NAND image is truncated");
  if (head[0] != kVersion)
    throw std::runtime_error(path + ": NAND image version " + std::to_string(head[0]) + ", this build reads " +
                             std::to_string(kVersion));
  if (head[1] != dies.size())
    throw std::runtime_error(path + ": the image has " + std::to_string(head[1]) + " dies, this platform " +
                             std::to_string(dies.size()));
  if (head[2] != nvram.size())
    throw std::runtime_error(path + ": the image has " + std::to_string(head[2]) + " NVRAM words, this build " +
                             std::to_string(nvram.size()));
  if (head[3] != nor.size())
    throw std::runtime_error(path + ": the image has " + std::to_string(head[3]) + " SPI NOR words, this build " +
                             std::to_string(nor.size()));
  if (!in.read(reinterpret_cast<char*>(nvram.data()), std::streamsize(nvram.size() * 4)) ||
      !in.read(reinterpret_cast<char*>(nor.data()), std::streamsize(nor.size() * 4)))
    throw std::runtime_error(path + ": NAND image is truncated");
  for (const auto& d : dies) d->load(in, path);
}

}  // namespace ssdvp::nand
