// The CPU cores a program may run on, printed by the demos that time a CPU baseline
// (OpenMP, OpenBLAS), so that a CPU figure can be traced back to the cores that made it:
// on a cluster a job gets the cores it asked for (--cpus-per-task), not the node's.
#pragma once

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace course {

// The cores in this process's affinity mask: what Slurm's --cpus-per-task or taskset
// left it, which OpenMP's and OpenBLAS's default thread counts follow.
inline int usable_cpu_cores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) != 0) return 1;
  return CPU_COUNT(&mask);
}

// One line: the usable cores, the node's, and the variables that set the thread counts,
// e.g. "CPU: 8 of the node's 64 cores usable (SLURM_CPUS_PER_TASK=8, OMP_NUM_THREADS=8)".
inline void print_cpu_cores() {
  const auto shown = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "unset";
  };
  std::printf("CPU: %d of the node's %ld cores usable (SLURM_CPUS_PER_TASK=%s, OMP_NUM_THREADS=%s, "
              "OPENBLAS_NUM_THREADS=%s)\n",
              usable_cpu_cores(), sysconf(_SC_NPROCESSORS_ONLN), shown("SLURM_CPUS_PER_TASK"),
              shown("OMP_NUM_THREADS"), shown("OPENBLAS_NUM_THREADS"));
}

}  // namespace course
