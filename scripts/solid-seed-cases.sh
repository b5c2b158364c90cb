#!/bin/sh
# Seed 002's tetrahedral beam (examples/generate_solid_deck.py tet-beam, C3D4, pulled 1 %) at
# the given refinement levels: whole runs on the GPU (gather and atomic, FP64) and on the CPU
# (all cores, and one core where --one-core names the levels), with wall and solve seconds
# from summary.json. Usage: scripts/solid-seed-cases.sh BUILD_DIR OUT_DIR "3 4" "3"
set -eu
build=$1 out=$2 levels=$3 one_core=${4:-}
mkdir -p "$out"
cores=$(nproc)
row() {  # label summary.json
  python3 - "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
print(f"{sys.argv[1]:34s} {s['elements']:9d} el {s['steps']:6d} incr  wall {s['wall_seconds']:9.2f} s  "
      f"solve {s['solve_seconds']:9.2f} s  {s['element_steps_per_second']:.3e} el-steps/s")
PY
}
for l in $levels; do
  deck="$out/tetbeam_l$l.inp"
  python3 "$(dirname "$0")/../examples/generate_solid_deck.py" tet-beam --level "$l" -o "$deck" > /dev/null
  for scheme in gather atomic; do
    "$build/halfstep" run "$deck" -o "$out/l${l}_cuda_$scheme" --backend cuda --gpu-scheme $scheme --quiet
    row "level $l cuda $scheme fp64" "$out/l${l}_cuda_$scheme/summary.json"
  done
  "$build/halfstep" run "$deck" -o "$out/l${l}_cpu_all" --backend cpu --threads "$cores" --quiet
  row "level $l cpu $cores threads" "$out/l${l}_cpu_all/summary.json"
  case " $one_core " in *" $l "*)
    "$build/halfstep" run "$deck" -o "$out/l${l}_cpu_1" --backend cpu --threads 1 --quiet
    row "level $l cpu 1 thread" "$out/l${l}_cpu_1/summary.json";;
  esac
  tail -1 "$out/l${l}_cuda_gather/history/X0_total.csv" | cut -d, -f1,2 | sed "s/^/level $l reaction (time, RF1): /"
done
