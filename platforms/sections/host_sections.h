// run.json sections of the host side (models/host): what the workload's requests saw per
// operation ("ops", "total"), per thread and queue ("threads", "host", "host_cpu"), and the
// integrity checker's verdict with the error contract ("integrity").
// Leaves out: the device's view of the same requests (firmware_sections.h, device_sections.h).
#pragma once

#include <cstdint>
#include <functional>

#include "platforms/run_sections.h"

namespace ssdvp {

class HostDriver;
class FlashController;

// "ops" (per operation: requests, bytes, errors, IOPS, MB/s, latency percentiles, reads by what
// they waited for) and "total".
SectionReporter host_ops_section(const HostDriver& driver);
// "threads" (each host thread's CPU, queue and operations), "host" (CPUs, queues, commands per
// queue, unaligned and folded requests, error statuses) and "host_cpu" (the CPU model's).
SectionReporter host_threads_section(const HostDriver& driver, uint32_t cpus, uint32_t queues);
// "integrity": reads checked, mismatches, and every error explained (an injected media error,
// a refusal of a read-only drive) or counted as unexplained.  `fctl` counts the uncorrectable
// sectors the dies injected; `read_only` tells whether the firmware went read-only.
SectionReporter integrity_section(const HostDriver& driver, const FlashController& fctl,
                                  std::function<bool()> read_only);

}  // namespace ssdvp
