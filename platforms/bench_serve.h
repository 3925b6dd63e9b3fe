// `ssdvp bench --serve`: the real-time headroom of `ssdvp serve` (docs/serve.md, docs/
// performance.md).  For a platform, natively and (with --iss) with its firmware on the ISS, the
// highest rate of 4 KiB random reads, and of random writes, at QD16 on the filled drive that the
// simulation sustains in real time without lag: `ssdvp serve --pace realtime` with Debian's fio
// (ioengine=nbd, rate_iops=R, time-based) as the client, one serve process per rate tried.
// The clients' bytes are kept in memory (`serve --data memory`) so that the figure is the
// simulation's; random writes are measured once more with them in sparse files (serve's
// default), where a write's page fault can wait milliseconds for the host's file system.
//
// "Without lag": fio completes at least 98% of the rate it asked for; the requests' lag (how
// late each entered the drive after its wall-clock arrival) and the replies' (how late the
// simulation reached each completion after its wall-clock time: a stall after a request
// entered), run.json serve.lag, each have a mean of at most two pacing quanta (20 us) and a
// 99th percentile of at most 50 us; and the drive answers none with an error.  The lag has a
// floor that is the machine's, not the simulation's: a realtime pacer sleeps between quanta
// and the kernel wakes it late (on this project's 2-core VM by 15 us at the median, 29 us at
// the 99th percentile, measured apart), so even at 125 IOPS the mean lag is 6-10 us and its
// p99 20-33 us (entering and replies alike), and about 30% of requests enter more than a
// quantum late.  The bounds were set from that floor before the searches ran.  A rate fails
// when it falls behind three runs in a row: one stall of the virtual machine (milliseconds)
// delays every request behind it and fails a run on its own.  The search doubles the rate
// from 1,000 until a rate fails (or halves it down to 125 and then looks at 2,000 either way:
// lower rates are not always easier, and a lower rate that fell behind is printed beside the
// one kept), then bisects the last interval three times: the figure is the highest rate that
// passed, to within an eighth of that interval.  The preconditioned drive comes from a state cache (ssdvp-bench-serve.state), so
// each rate costs the fio run and a snapshot load; the cache is synced to disk before the
// first rate (its writeback disturbed the first rates, and a search that starts behind only
// goes down).  An Open-Channel device under a host FTL (mtftl-femu) has no drive-state snapshot:
// each of its probes preconditions in simulated time (precondition.mode = "timed") before
// serve accepts fio.
//
// Leaves out: other block sizes and queue depths, mixed workloads, the aged drive (GC steps
// are the simulation's slowest stretches: the aged limit is lower), TCP (the export is a Unix
// socket), and the machine's own noise beyond taking every figure in one run.
#pragma once

#include <string>
#include <vector>

namespace ssdvp {

// `jobs`: the rows to measure, any of read, write, files (writes with the bytes in files),
// iss-read, iss-write; empty: read, write, files, and with `iss` also iss-read and iss-write.
int bench_serve(const std::string& self, const std::string& platform, const std::vector<std::string>& sets, bool iss,
                double seconds, const std::vector<std::string>& jobs = {});

}  // namespace ssdvp
