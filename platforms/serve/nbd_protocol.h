// The NBD protocol's constants and wire forms (the network block device protocol, fixed
// newstyle negotiation, simple and structured replies), as the protocol document of the NBD
// project gives them.  Only what ssdvp serve speaks: no TLS, no metadata contexts (block
// status), no extended headers.
#pragma once

#include <cstdint>

namespace ssdvp::nbd {

// Handshake
constexpr uint64_t kNbdMagic = 0x4e42444d41474943ull;       // "NBDMAGIC"
constexpr uint64_t kOptMagic = 0x49484156454F5054ull;       // "IHAVEOPT"
constexpr uint64_t kRepMagic = 0x3e889045565a9ull;          // option reply magic
constexpr uint16_t kFlagFixedNewstyle = 1, kFlagNoZeroes = 2;
constexpr uint32_t kClientFixedNewstyle = 1, kClientNoZeroes = 2;

enum Opt : uint32_t {
  kOptExportName = 1,
  kOptAbort = 2,
  kOptList = 3,
  kOptStartTls = 5,
  kOptInfo = 6,
  kOptGo = 7,
  kOptStructuredReply = 8,
};
enum Rep : uint32_t {
  kRepAck = 1,
  kRepServer = 2,
  kRepInfo = 3,
  kRepErrUnsup = 0x80000001u,
  kRepErrPolicy = 0x80000002u,
  kRepErrInvalid = 0x80000003u,
  kRepErrUnknown = 0x80000006u,
};
enum Info : uint16_t { kInfoExport = 0, kInfoName = 1, kInfoDescription = 2, kInfoBlockSize = 3 };

// Transmission flags
constexpr uint16_t kFlagHasFlags = 1, kFlagSendFlush = 4, kFlagSendFua = 8, kFlagSendTrim = 32,
                   kFlagSendWriteZeroes = 64, kFlagCanMultiConn = 256;

// Transmission
constexpr uint32_t kRequestMagic = 0x25609513u;
constexpr uint32_t kSimpleReplyMagic = 0x67446698u;
constexpr uint32_t kStructuredReplyMagic = 0x668e33efu;
enum Cmd : uint16_t {
  kCmdRead = 0,
  kCmdWrite = 1,
  kCmdDisc = 2,
  kCmdFlush = 3,
  kCmdTrim = 4,
  kCmdCache = 5,
  kCmdWriteZeroes = 6,
  kCmdBlockStatus = 7,
};
constexpr uint16_t kCmdFlagFua = 1, kCmdFlagNoHole = 2, kCmdFlagDf = 4, kCmdFlagReqOne = 8, kCmdFlagFastZero = 16;
constexpr uint16_t kReplyFlagDone = 1;
constexpr uint16_t kReplyTypeNone = 0, kReplyTypeOffsetData = 1, kReplyTypeError = 0x8001;

// Errors (the protocol's values, which are Linux's errno values)
enum Error : uint32_t {
  kOk = 0,
  kEperm = 1,
  kEio = 5,
  kEnomem = 12,
  kEinval = 22,
  kEnospc = 28,
  kEoverflow = 75,
  kEnotsup = 95,
  kEshutdown = 108,
};

}  // namespace ssdvp::nbd
