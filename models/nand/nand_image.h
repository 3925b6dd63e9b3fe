// The drive's persistent state in one file: every die's array (Die::save), the
// controller's NVRAM words and its SPI NOR's contents.  Power loss keeps exactly this (docs/reliability.md); the next
// power-on loads it into a newly built platform of the same geometry.
// Leaves out: compression, the drive-state snapshots of DRAM and models (issue 16).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/nand/die.h"

namespace ssdvp::nand {

void save_nand_image(const std::string& path, const std::vector<std::unique_ptr<Die>>& dies,
                     const std::vector<uint32_t>& nvram, const std::vector<uint32_t>& nor);
// Throws std::runtime_error naming the file and what does not fit (format, version, geometry).
void load_nand_image(const std::string& path, const std::vector<std::unique_ptr<Die>>& dies,
                     std::vector<uint32_t>& nvram, std::vector<uint32_t>& nor);

}  // namespace ssdvp::nand
