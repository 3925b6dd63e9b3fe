// PcieLink (models/host/pcie_link.h): a transfer pays one TLP header per host.max_payload_bytes
// of payload; a Max_Payload_Size that is not a power of two is a configuration error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/common/params.h"
#include "models/host/pcie_link.h"

using namespace ssdvp;
using sc_core::sc_time;
using sc_core::SC_PS;
using sc_core::SC_ZERO_TIME;

namespace {

HostParams host(std::vector<std::string> sets) {
  sets.push_back("host.link_mbps=1000");   // 1 byte per ns
  sets.push_back("host.link_latency_ns=0");
  sets.push_back("host.tlp_overhead_bytes=24");
  return PlatformParams::from(Config::load("", sets)).host;
}

}  // namespace

TEST(PcieLink, EachTlpOfMaxPayloadPaysItsHeader) {
  PcieLink big(host({}));                                  // 4096: 32 TLPs for 128 KiB
  EXPECT_EQ(big.send(PcieLink::DeviceToHost, SC_ZERO_TIME, 131072), sc_time(131072 + 32 * 24, sc_core::SC_NS));
  PcieLink mps256(host({"host.max_payload_bytes=256"}));   // 512 TLPs
  EXPECT_EQ(mps256.send(PcieLink::DeviceToHost, SC_ZERO_TIME, 131072), sc_time(131072 + 512 * 24, sc_core::SC_NS));
  // A partial TLP pays a whole header; an empty transfer (a doorbell's worth) one.
  PcieLink small(host({"host.max_payload_bytes=128"}));
  EXPECT_EQ(small.send(PcieLink::HostToDevice, SC_ZERO_TIME, 129), sc_time(129 + 2 * 24, sc_core::SC_NS));
}

TEST(PcieLink, MaxPayloadMustBeAPowerOfTwo) {
  try {
    host({"host.max_payload_bytes=384"});
    FAIL() << "384 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("host.max_payload_bytes = 384 is not a power of two"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(host({"host.max_payload_bytes=64"}), ConfigError);   // below PCIe's smallest
}
