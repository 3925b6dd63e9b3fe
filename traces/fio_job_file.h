// fio job files (`ssdvp run --workload job.fio`): the sections fio reads, as a workload spec of
// fio: generators, jobs of a group side by side ('&'), groups one after the other (';').
//
// Models: [global] sections (their options apply to the jobs after them, as fio's), job
// sections, key=value and bare flags, ';' and '#' comments, stonewall / wait_for_previous (a job
// starts a new group once the jobs before it are done), randseed (the generator's seed), fio's
// per-direction commas in rate, rate_iops and fdp_pli; the options that shape the request
// stream are the fio: generator's (docs/traces.md), each refused by name if unknown.  Options
// with no effect on a simulated host (ioengine, filename, direct=1, logging and reporting, CPU
// affinity, batching hints) are left out and listed, so that fio's own job files run.
// Leaves out: include directives, $VARIABLES, per-direction block sizes (bs=4k,8k), buffered
// I/O (direct=0: there is no page cache), fio's per-job size (here size is the jobs' shared
// range, docs/traces.md).
#pragma once

#include <string>
#include <vector>

#include "traces/workload.h"

namespace ssdvp::workload {

// true when `path` is a file whose first line that is not blank or a comment is a [section].
bool is_fio_job_file(const std::string& path);

struct FioJobFile {
  std::string spec;                    // "fio:...&fio:...;fio:..."
  std::vector<std::string> ignored;    // "ioengine=libaio (line 3)", ...
};

// Reads the job file and checks every job against `ctx` (as make_workload would); throws
// WorkloadError "PATH:LINE: ..." (a job's error: its section's line and name).
FioJobFile read_fio_job_file(const std::string& path, const WorkloadContext& ctx);

}  // namespace ssdvp::workload
