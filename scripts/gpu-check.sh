#!/usr/bin/env bash
# On a GPU host: configure and build for sm_90 (Hopper) in build-gpu/, run the GPU tests
# (CUDA backend against the CPU backend) and the benchmark, print a short table.
# Usage: scripts/gpu-check.sh [bench sizes...]   (default sizes: 72 224 708, i.e. 1e4 1e5 1e6 elements)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(72 224 708)
jobs=$(nproc)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build build-gpu -j "$jobs"
grep -q "HALFSTEP_HAVE_CUDA" build-gpu/build.ninja || { echo "gpu-check: CUDA backend not built (nvcc not found?)"; exit 1; }
echo "== GPU tests"
status=0
(cd build-gpu && ctest -L gpu --output-on-failure -j 1) || status=1
echo "== benchmark (pinched cylinder, 200 increments per run, every scheme and precision)"
python3 bench/shell_bench.py --build build-gpu --sizes "${sizes[@]}" --steps 200 --backends cuda cpu \
  --threads "$jobs" --schemes atomic gather colored element-local --precisions double single \
  --out build-gpu/bench
exit $status
