#!/usr/bin/env bash
# On a GPU host (one or more GPUs): build for sm_90 in build-gpu/, run the distributed
# agreement test on the GPUs (2, 3 and 4 ranks against one GPU process; ranks share the GPUs
# when there are fewer), then, with --scaling, the strong/weak scaling benchmark at 10M
# elements (bench/scaling_bench.py; needs numpy).
# Usage: scripts/gpu-distributed-check.sh [--scaling] [bench options...]
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # device hosts run as root
scaling=0
if [[ ${1:-} == --scaling ]]; then scaling=1; shift; fi
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader || true
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DHALFSTEP_BENCH=OFF >/dev/null
cmake --build build-gpu -j "$(nproc)" --target halfstep
status=0
echo "== distributed agreement on GPUs"
python3 tests/parallel/distributed_runs.py --halfstep build-gpu/halfstep --mpirun "$(command -v mpirun)" \
  --backend cuda --work build-gpu/distributed_runs || status=1
if ((scaling)); then
  echo "== scaling benchmark"
  python3 bench/scaling_bench.py --build build-gpu --backend cuda --weak --out build-gpu/scaling "$@" || status=1
fi
exit $status
