#!/usr/bin/env bash
# Seed 004's strip peeling (issue 14) on a GPU host: the seed's six meshes on the GPU (cuDSS)
# at 0.1 degree per increment, mesh 1 also on all CPU cores, each against the steady-state
# peeling moment (validation/peeling.py), then the element matrices + assembly of every mesh
# on the GPU against one and all CPU cores (bench/tangent_bench --deck).
# Usage: scripts/peel-bench.sh BUILD OUTDIR [ANGLE [MESHES...]]
#   BUILD: a build folder with halfstep and bench/tangent_bench (CUDA, cuDSS);
#   ANGLE: the end rotation in degrees (default 120).
# Writes OUTDIR/gpu/ and OUTDIR/cpu/ (peel<k>.csv: rotation, moment, end displacement;
# peeling.png) and OUTDIR/bench.txt; the runs' summaries are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?build folder}
out=${2:?output folder}
angle=${3:-120}
shift $(($# < 3 ? $# : 3))
meshes=("$@")
[ ${#meshes[@]} -eq 0 ] && meshes=(1 2 3 4 5 6)
mkdir -p "$out"
python3 validation/peeling.py --halfstep "$build/halfstep" --backend cuda --meshes "${meshes[@]}" --angle "$angle" \
  --out "$out/gpu"
python3 validation/peeling.py --halfstep "$build/halfstep" --backend cpu --threads "$(nproc)" --meshes 1 \
  --angle "$angle" --out "$out/cpu"
echo "== element matrices + assembly" | tee "$out/bench.txt"
for k in "${meshes[@]}"; do
  "$build/bench/tangent_bench" --reps 3 --deck "$out/gpu/peel$k.inp" | tee -a "$out/bench.txt"
done
