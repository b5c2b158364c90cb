#!/usr/bin/env bash
# Builds halfstep with its tests and runs the whole CPU test suite. Usage: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# A container's CPU quota, when lower than the cores it sees, bounds the jobs too.
if [ -r /sys/fs/cgroup/cpu.max ]; then
  read -r quota period < /sys/fs/cgroup/cpu.max
  if [ "$quota" != max ] && [ "${period:-0}" -gt 0 ]; then
    cores=$(( (quota + period - 1) / period ))
    if [ "$cores" -lt "$jobs" ]; then jobs=$cores; fi
  fi
fi
# ctest runs $jobs tests side by side; one OpenMP thread each (tests that compare thread
# counts pass --threads) keeps them from taking turns on each other's cores.
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
