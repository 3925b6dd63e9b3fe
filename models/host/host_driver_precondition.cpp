// Preconditioning (precondition.*; docs/traces.md): the drive written before the measured run,
// either by its own firmware (functional: the vendor command, no simulated time) or by the host
// through the drive's normal path (timed: what a host FTL needs, its map being on the host, and
// what fio does when it lays out its file).
//
// Models (timed): one host thread, the first workload thread's CPU and queue, writes the fill
// sequentially in commands of host.max_transfer_kib, then the overwrites as single 4 KiB writes
// at random sectors (the functional path's generator and seed, so both write the same sectors),
// kTimedDepth commands in flight, each sector tagged (lba, seq 0) as the functional path tags
// it; then a flush, so the measured run starts with the fill on flash as after the vendor
// command.  Its commands pay every cost the workload's pay (the host stack's, a host FTL's CPU
// time and lock); the measured run's figures leave them out (the platform's snapshots, the
// stack's and host FTL's start_measuring).
// Leaves out: fio's own layout pattern (one sequential writer at queue depth 1): the depth is
// chosen so that the fill is as fast as the drive takes it.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "models/host/host_driver.h"

#include <algorithm>
#include <cstdio>

#include "models/common/fatal.h"
#include "models/host/host_request.h"

namespace ssdvp {

namespace {
constexpr uint32_t kTimedDepth = 32;   // commands in flight (chosen)
constexpr uint64_t kPrecondIndex = UINT32_MAX - 1;   // HostCommand::user >> 16 of its commands

uint64_t next_random(uint64_t* s) {   // xorshift64*, as ftl-sw/core/precondition.c
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
}  // namespace

bool HostDriver::is_precondition_command(const HostCommand* c) { return (c->user >> 16) == kPrecondIndex; }

// Runs in the driver's thread before the measured run; false after a fatal error.
bool HostDriver::precondition() {
  const uint32_t fill_permille = uint32_t(o_.precond.fill * 1000 + 0.5);
  const uint32_t over_permille = uint32_t(o_.precond.overwrite * 1000 + 0.5);
  if (o_.progress) {   // a long silence otherwise: the functional fill is one firmware call
    std::fprintf(stderr, "  preconditioning: %.1f GiB written %s, %.0f%% of it overwritten at random%s\n",
                 double(capacity_) * fill_permille / 1000 * 4096 / double(1ull << 30),
                 o_.precond.timed ? "by the host (timed)" : "by the firmware (functional: no progress until it is done)",
                 over_permille / 10.0, o_.precond.timed ? "" : "; Ctrl-C ends the run at once");
    std::fflush(stderr);
  }
  if (o_.precond.timed) {
    if (!precondition_timed(capacity_ * fill_permille / 1000, capacity_ * over_permille / 1000)) return false;
  } else {
    admin_ = HostCommand{};
    admin_.opcode = SSD_HOP_PRECONDITION;
    admin_.cdw[0] = fill_permille;
    admin_.cdw[1] = over_permille;
    admin_.cdw[2] = o_.precond.seed;
    admin_.user = uint64_t(UINT32_MAX) << 16;   // marks the admin command
    hif_.submit(&admin_);
    hif_.ring_doorbell(0, sc_core::SC_ZERO_TIME, 0);
    wait(admin_done_);
    if (!precondition_status_ok(admin_.status, "the vendor command")) return false;
  }
  preconditioned_below_ = capacity_ * fill_permille / 1000;
  checker_->set_preconditioned_below(preconditioned_below_);
  return true;
}

bool HostDriver::precondition_status_ok(uint16_t status, const std::string& what) {
  if (status == SSD_ST_OK) return true;
  if (status == SSD_ST_WRITE_PROTECTED) {
    report_fatal("preconditioning stopped: the drive went read-only (its spare blocks ran out: the bad blocks "
                 "of nand.factory_bad_permille, nand.program_fail_per_million, nand.erase_fail_per_million, "
                 "nand.fail_at took more than ftl.op leaves; docs/reliability.md)");
    return false;
  }
  report_fatal("preconditioning failed: " + what + " completed with status " + std::to_string(status));
  return false;
}

bool HostDriver::precondition_timed(uint64_t fill, uint64_t over) {
  const uint32_t cpu = streams_.empty() ? 0 : streams_[0].cpu;
  const uint16_t queue = uint16_t(queue_of_cpu(cpu));
  const uint32_t max = p_.max_transfer_sectors;
  const uint32_t depth = std::min<uint32_t>(kTimedDepth, std::max<uint32_t>(1, p_.queue_entries - 1));
  pre_cmds_.assign(depth, HostCommand{});
  pre_completed_slot_.assign(depth, 0);
  std::vector<std::vector<ssd_sector_tag>> tags(depth, std::vector<ssd_sector_tag>(max));
  std::vector<std::vector<uint8_t>> payload(o_.payload ? depth : 0, std::vector<uint8_t>(size_t(max) * 4096, 0));
  std::vector<uint32_t> free_slots;
  for (uint32_t k = depth; k-- > 0;) free_slots.push_back(k);
  uint64_t rng = 0x9E3779B97F4A7C15ull ^ o_.precond.seed;
  if (rng == 0) rng = 1;
  uint64_t next = 0;   // sectors of the fill, then overwrites, sent
  uint64_t handled = 0;   // completions whose slots are free again
  pre_inflight_ = 0;
  pre_completed_ = 0;
  pre_failed_ = nullptr;
  for (;;) {
    if (pre_completed_ != handled) {
      handled = pre_completed_;
      for (uint32_t k = 0; k < depth; k++)
        if (pre_completed_slot_[k]) {
          pre_completed_slot_[k] = 0;
          free_slots.push_back(k);
        }
    }
    if (pre_failed_ || (next >= fill + over && !pre_inflight_)) break;
    bool sent = false;
    while (next < fill + over && !free_slots.empty()) {
      const uint32_t k = free_slots.back();
      free_slots.pop_back();
      HostCommand& c = pre_cmds_[k];
      c = HostCommand{};
      c.opcode = SSD_HOP_WRITE;
      c.queue = queue;
      if (next < fill) {
        c.lba = next;
        c.nsect = uint32_t(std::min<uint64_t>(max, fill - next));
      } else {
        c.lba = next_random(&rng) % capacity_;
        c.nsect = 1;
      }
      next += c.nsect;
      for (uint32_t i = 0; i < c.nsect; i++) tags[k][i] = ssd_sector_tag{uint32_t(c.lba + i), 0};
      c.data = tags[k].data();
      c.payload = o_.payload ? payload[k].data() : nullptr;
      c.user = kPrecondIndex << 16;
      c.t_submit = sc_core::sc_time_stamp();
      hif_.submit(&c);
      pre_inflight_++;
      sent = true;
    }
    if (sent) hif_.ring_doorbell(queue, sc_core::SC_ZERO_TIME, cpu);   // (a host FTL inserts here, waiting)
    if (pre_completed_ == handled && pre_inflight_)
      hif_.wait_for_completion(cpu, pre_done_, [this, handled] { return pre_completed_ != handled; });
  }
  if (pre_failed_) {
    while (pre_inflight_) {
      const uint64_t seen = pre_completed_;
      hif_.wait_for_completion(cpu, pre_done_, [this, seen] { return pre_completed_ != seen; });
    }
    return precondition_status_ok(pre_failed_->status, "its write of " + std::to_string(pre_failed_->nsect) +
                                                           " sectors at LBA " + std::to_string(pre_failed_->lba));
  }
  admin_ = HostCommand{};   // everything on flash, as after the vendor command
  admin_.opcode = SSD_HOP_FLUSH;
  admin_.queue = queue;
  admin_.user = uint64_t(UINT32_MAX) << 16;
  admin_submit_ns_ = ns_of(sc_core::sc_time_stamp());
  hif_.submit(&admin_);
  hif_.ring_doorbell(queue, sc_core::SC_ZERO_TIME, cpu);
  wait(admin_done_);
  return precondition_status_ok(admin_.status, "its flush");
}

// A timed preconditioning command completed: its slot is marked free for precondition_timed.
// (The low 16 bits of HostCommand::user are the target's while the command is in it.)
void HostDriver::precondition_command_done(HostCommand* c) {
  if (c->status != SSD_ST_OK && !pre_failed_) pre_failed_ = c;
  pre_completed_slot_.at(size_t(c - pre_cmds_.data())) = 1;
  pre_inflight_--;
  pre_completed_++;
  pre_done_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace ssdvp
