#!/usr/bin/env bash
# Seed 004's strip peeling (issue 14) on a GPU host: the six meshes of the seed run on the GPU
# (cuDSS), the coarsest also on all CPU cores, with their moment-rotation curves and timings,
# and the element matrices + assembly of each mesh on the GPU against one and all CPU cores.
# Usage: scripts/peel-bench.sh BUILD OUTDIR [ANGLE [MESHES...]]
#   BUILD: a build folder with halfstep and bench/tangent_bench (CUDA, cuDSS);
#   ANGLE: the end rotation in degrees (default 120), in increments of 0.1 degree.
# Writes OUTDIR/peel<k>_{gpu,cpu}.csv (time = rotation in degrees, RM3 = the end moment in
# nN nm per nm of width), OUTDIR/peel<k>_{gpu,cpu}.json (summary.json) and OUTDIR/bench.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?build folder}
out=${2:?output folder}
angle=${3:-120}
shift $(($# < 3 ? $# : 3))
meshes=("$@")
[ ${#meshes[@]} -eq 0 ] && meshes=(1 2 3 4 5 6)
mkdir -p "$out"
work=$(mktemp -d)
threads=$(nproc)
for k in "${meshes[@]}"; do
  python3 examples/generate_peeling_deck.py --mesh "$k" --angle "$angle" --stabilize 1e-6 -o "$work/peel$k.inp"
  echo "== mesh $k, GPU"
  if timeout 900 "$build/halfstep" run "$work/peel$k.inp" -o "$work/peel${k}_gpu" --backend cuda --linear-solver cudss \
      >"$work/peel${k}_gpu.log" 2>&1; then :; else echo "mesh $k GPU run failed:"; fi
  tail -n 2 "$work/peel${k}_gpu.log"
  cp "$work/peel${k}_gpu/history/RP.csv" "$out/peel${k}_gpu.csv" 2>/dev/null || true
  cp "$work/peel${k}_gpu/summary.json" "$out/peel${k}_gpu.json" 2>/dev/null || true
done
echo "== element matrices + assembly" | tee "$out/bench.txt"
for k in "${meshes[@]}"; do
  "$build/bench/tangent_bench" --reps 3 --deck "$work/peel$k.inp" | tee -a "$out/bench.txt"
done
rm -rf "$work"
