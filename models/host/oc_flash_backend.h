// The host FTL's flash side over an Open-Channel device (models/host/flash_backend.h): the FTL's
// flash seen as the device's geometry, its descriptors as vector commands.
//
// Models: the FTL sees a flash of one plane per die whose page is a write unit (ws_min sectors):
// die = parallel unit (channel = group, way = unit), block = chunk, page = write unit.  A
// program is a vector write of the unit's ws_min LBAs with their data tags and metadata (the
// FTL's spare-area words: its reverse map, its versions), a read a vector read of the LBAs of
// its sectors, an erase a chunk reset.  A media error reads as uncorrectable, a failed program
// (chunk early close) as a program failure, a failed reset (offline chunk) as an erase failure.
// What the spec makes the host keep, it keeps: the data of each chunk's last mw_cunits written
// (a unit is readable from the device only once mw_cunits more of its chunk are written, or the
// chunk is full); a read of such a unit is served from that copy in host memory (its bytes
// charged to the reading CPU), as pblk serves them from its ring.  The factory scan reads an
// offline chunk as bad from the factory, any other as erased (the chunk log read at boot).
// Leaves out: a device that holds data at boot (the host FTL's recovery over a used device is
// not built: the run stops naming the chunk).
#pragma once

#include <deque>
#include <vector>

#include "models/host/flash_backend.h"
#include "models/host/oc_host.h"

namespace ssdvp {

class OcFlashBackEnd : public FlashBackEnd {
 public:
  OcFlashBackEnd(sc_core::sc_module_name name, uint32_t cores, Dram& mem, SysCtl& irq, OcHost& oc, uint32_t geometry_addr,
                 bool payload);
  bool attach_device(const PlatformParams& view, std::string& why) override;
  // The device as read (tests): its geometry and chunk log; the FTL's flash geometry written.
  void attach(const ssd_oc_geometry& g, std::vector<ssd_oc_chunk> log);

 protected:
  bool encode(Op* op, std::string& why) override;
  bool answer_locally(Op* op) override;
  void sending(Op* op) override;
  bool factory_bad(const ssd_flash_desc& d) const override;
  uint16_t flash_status(Op* op, uint16_t status) override;
  void submit(Op* op, sc_core::sc_time delay, std::function<void(uint16_t)> done) override;
  const char* device_name() const override { return "Open-Channel"; }

 private:
  // The last mw_cunits of a chunk, kept on the host (by the chunk's log index).
  struct KeptUnit {
    uint32_t unit = 0;
    std::vector<ssd_sector_tag> tags;
    std::vector<ssd_oob> meta;
    std::vector<uint8_t> payload;
  };
  struct Kept {
    uint32_t completed = 0;           // units whose program completed, in order
    std::deque<KeptUnit> units;
  };
  uint32_t chunk_of(const ssd_flash_desc& d) const { return (uint32_t(d.channel) * geo_.num_pu + d.way) * geo_.num_chk + d.block; }
  uint64_t lba(uint32_t grp, uint32_t pu, uint32_t chk, uint32_t sec) const;

  OcHost& oc_;
  ssd_oc_geometry geo_{};
  std::vector<ssd_oc_chunk> log_;
  std::vector<Kept> kept_;
  uint32_t mw_units_ = 0, units_per_chunk_ = 0;
};

}  // namespace ssdvp
