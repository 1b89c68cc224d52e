// process_usage.h: what the process used during a section of a run: CPU time (user, system) and
// the peak resident set. Linux resets the peak-RSS mark (VmHWM) when "5" is written to
// /proc/self/clear_refs, so the peak can cover the measured section alone. And what the rest of
// the machine did meanwhile (contention): the busy and stolen CPU time of the CPUs the process may
// run on, from /proc/stat, from which the cores other processes used are their busy time minus
// ours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/cpu_stat.h"
#include "util/thread_cpu.h"

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

// CPU time since boot of the CPUs this process may run on (its affinity mask: util/cpu_stat.h; the
// whole machine when the mask cannot be read), in seconds summed over those CPUs (/proc/stat's
// per-CPU lines divided by the clock tick): busy = user + nice + system + irq + softirq (guest
// time is inside user), steal = time the hypervisor ran something else on those virtual CPUs.
// ok = false where /proc/stat cannot be read.
struct SystemCpu {
  double busy_s = 0, steal_s = 0;
  bool ok = false;
};
SystemCpu system_cpu();
// The same from ticks already read (util::read_cpu_ticks) at `ticks_per_s` ticks per second.
SystemCpu system_cpu_of(const util::CpuTicks& ticks, double ticks_per_s);
// Parses /proc/stat's text with `ticks_per_s` ticks per second: the lines of `cpus`, or the
// whole machine's "cpu " line when `cpus` is empty.
SystemCpu parse_proc_stat(const std::string& text, double ticks_per_s, const std::vector<int>& cpus = {});

// What a section shared its cores with (docs/training.md "Contention"):
//   other_cpu = (system busy - own CPU time) / wall: cores other processes used on average;
//   steal_cpu = system steal / wall: cores the hypervisor took;
//   cpu_share = own CPU time / (wall x threads): the share of its cores the run got.
// contended when other processes used at least half a core per training thread or the run got
// less than 75 % of its cores (steal or oversubscription). known = false without /proc/stat.
struct Contention {
  double other_cpu = 0, steal_cpu = 0, cpu_share = 0;
  bool contended = false, known = false;
};
inline constexpr double kContendedOtherPerThread = 0.5;
using util::kContendedShare;  // engine/util/thread_cpu.h: the peaks' threshold too
Contention contention_of(double wall_s, double own_cpu_s, const SystemCpu& before, const SystemCpu& after,
                         int64_t threads);

}  // namespace rlx::train
