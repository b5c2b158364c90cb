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
# Without a visible GPU the GPU tests skip, so PTX for one virtual architecture is enough to
# prove the CUDA code compiles: CMake's default for such a machine (four, cmake/
# cuda_architectures.cmake) costs a device compile of every CUDA source each, and real code
# (90-real) adds ptxas: cuda_tangent_engine.cu took 8m59s of CPU with it against 5m58s as
# PTX only (2-core development machine, 2026-12-07); a GPU would compile that PTX when a run
# starts, so build on the GPU machine (or give CUDAARCHS) for runs there. A build folder
# already configured keeps its choice, and so does an explicit CUDAARCHS.
cuda_arch=()
if ! nvidia-smi -L >/dev/null 2>&1 && [ ! -f build/CMakeCache.txt ] && [ -z "${CUDAARCHS:-}" ]; then
  cuda_arch=(-DCMAKE_CUDA_ARCHITECTURES=90-virtual)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda_arch[@]}"
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
# A minute of fuzzing under ASan/UBSan where clang with libFuzzer and libomp is installed: half
# of it the deck reader, a third whole runs, a sixth resumed restarts (docs/fuzzing.md;
# HALFSTEP_FUZZ_SECONDS=0 skips it). A finding fails the run. The seed is fixed (HALFSTEP_FUZZ_SEED)
# and each harness's executions capped (HALFSTEP_FUZZ_RUNS: about what one minute gives on the
# 2-core development machine), so CI runs the inputs last checked there, or a prefix of them on a
# slower machine; the campaigns in docs/fuzzing.md explore at random.
fuzz_seconds="${HALFSTEP_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" != 0 ] && command -v clang++ >/dev/null 2>&1 &&
   echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
     clang++ -x c++ -fsanitize=fuzzer -fopenmp - -o /tmp/halfstep_fuzz_probe.$$ >/dev/null 2>&1; then
  rm -f /tmp/halfstep_fuzz_probe.$$
  if FUZZ_BUILD_JOBS="$jobs" HALFSTEP_FUZZ_RUNS="${HALFSTEP_FUZZ_RUNS-200000,18000,2000}" \
       ./scripts/fuzz.sh "$fuzz_seconds" -seed="${HALFSTEP_FUZZ_SEED:-1}" > build/fuzz-smoke.log 2>&1; then
    grep -E "^fuzz.sh:|stat::number_of_executed_units|^fuzz_(run|restart):|^fuzz: allowed finding '" build/fuzz-smoke.log
  else
    # CI keeps only the tail of what a run prints: name the harness, the report and the input
    # itself (base64), so that a finding on another machine can be replayed here.
    grep -n -E "^fuzz.sh:|^fuzz(_run|_restart)?: |==[0-9]+==ERROR|SUMMARY: |runtime error|deadly signal|Test unit written|libFuzzer: (timeout|out-of-memory)|^fuzz: " \
      build/fuzz-smoke.log | grep -v -E "^[0-9]+:#[0-9]+" | head -40 || true
    grep -n -A12 -E "==[0-9]+==ERROR|runtime error|deadly signal|libFuzzer: timeout" build/fuzz-smoke.log | head -60 || true
    for f in build-fuzz/findings/*; do
      [ -f "$f" ] || continue
      echo "test.sh: finding $f ($(wc -c < "$f") bytes), base64:"
      if [ "$(wc -c < "$f")" -le 24576 ]; then base64 -w 0 "$f"; echo; fi
    done
    echo "test.sh: fuzzing found something (build/fuzz-smoke.log; inputs in build-fuzz/findings/)" >&2
    exit 1
  fi
else
  echo "test.sh: no clang with libFuzzer here (Debian: clang libomp-dev): the minute of fuzzing is skipped"
fi
