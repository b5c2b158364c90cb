// How many OpenMP threads a run uses when the user names none.
#pragma once

#include <omp.h>

#include <cstdio>
#include <cstdlib>

namespace halfstep {

/// Cores the process's control group may use (cgroup v2 cpu.max, else v1 cfs quota), rounded
/// up; 0 when no quota is set or none can be read.
inline int cgroup_core_quota() {
  long long quota = -1, period = 0;
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/cpu.max", "r")) {
    char q[32] = {};
    if (std::fscanf(f, "%31s %lld", q, &period) == 2 && q[0] != 'm') quota = std::atoll(q);  // "max": none
    std::fclose(f);
  } else if (std::FILE* fq = std::fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r")) {
    if (std::fscanf(fq, "%lld", &quota) != 1) quota = -1;
    std::fclose(fq);
    if (std::FILE* fp = std::fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r")) {
      if (std::fscanf(fp, "%lld", &period) != 1) period = 0;
      std::fclose(fp);
    }
  }
  if (quota <= 0 || period <= 0) return 0;
  return static_cast<int>((quota + period - 1) / period);
}

/// The default thread count: OpenMP's (OMP_NUM_THREADS when set, else the cores this process
/// may run on), capped by a container's CPU quota when OMP_NUM_THREADS is not set. A container
/// limited to 2 cores of a 64-core host still sees 64 cores; 64 threads then take turns on 2,
/// and each fork and join waits a scheduler slice.
inline int default_threads() {
  const int omp = omp_get_max_threads();
  if (std::getenv("OMP_NUM_THREADS")) return omp;
  static const int quota = cgroup_core_quota();  // fixed for the process: read the files once
  return quota > 0 && quota < omp ? quota : omp;
}

}  // namespace halfstep
