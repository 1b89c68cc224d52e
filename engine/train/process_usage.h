// process_usage.h: what the process used during a section of a run: CPU time (user, system) and
// the peak resident set. Linux resets the peak-RSS mark (VmHWM) when "5" is written to
// /proc/self/clear_refs, so the peak can cover the measured section alone.
#pragma once

#include <cstdint>

namespace rlx::train {

struct CpuTimes {
  double user_s = 0, sys_s = 0;
  int64_t maxrss_bytes = 0;  // getrusage's peak over the whole process
  int64_t page_faults = 0;   // minor + major, since the process started
};

CpuTimes cpu_times();
// Resets the kernel's peak-RSS mark; false where /proc/self/clear_refs cannot be written.
bool reset_peak_rss();
// VmHWM of /proc/self/status in bytes; -1 when it cannot be read.
int64_t peak_rss_bytes();

}  // namespace rlx::train
