#!/usr/bin/env bash
# A NURBS problem of over 5 M equations on a GPU host (issue 14): a square plate, degree-2
# NURBS (plane strain), 40 x 40 knot spans refined to 1600 x 1600 elements (1602^2 control
# points, 5.13 M equations), clamped on one side and pulled by a pressure on the opposite one;
# a linear static step on the GPU (element matrices, assembly, cuDSS) and the element
# matrices + assembly on the GPU against one and all CPU cores (tangent_bench; one core takes
# about 40 s at the point-wise tangent's 6.7e4 element matrices per second, H200 host).
# Usage: scripts/nurbs-bench.sh BUILD OUTDIR [SPANS REFINE]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?build folder}
out=${2:?output folder}
spans=${3:-40}
refine=${4:-39}
mkdir -p "$out"
work=$(mktemp -d)
python3 - "$work/plate.inp" "$spans" "$refine" <<'PY'
import sys
path, n, refine = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = 2
knots = [0.0] * (p + 1) + [i / n for i in range(1, n)] + [1.0] * (p + 1)
cp = n + p
grev = [sum(knots[i + 1:i + p + 1]) / p for i in range(cp)]
with open(path, "w") as f:
    f.write("*HEADING\nNURBS plate, degree 2\n")
    f.write(f"*NURBS PATCH, NAME=P, TYPE=CPE, ELSET=ALL, REFINE={refine}\n{p}, {p}\n{cp}, {cp}\n")
    for _ in range(2):
        f.write(", ".join(f"{k:.17g}" for k in knots) + "\n")
    for j in range(cp):
        for i in range(cp):
            f.write(f"{grev[i]:.17g}, {grev[j]:.17g}, 1\n")
    f.write("*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*SOLID SECTION, ELSET=ALL, MATERIAL=M\n1\n")
    f.write("*STEP\n*STATIC\n*BOUNDARY\nP-U0, 1, 2\n*DSLOAD\nP-U1, P, -1\n*END STEP\n")
PY
echo "== linear static run on the GPU" | tee "$out/nurbs.txt"
start=$(python3 -c "import time; print(time.time())")
"$build/halfstep" run "$work/plate.inp" -o "$work/plate" --backend "${BACKEND:-cuda}" --linear-solver "${SOLVER:-cudss}" >"$work/run.log" 2>&1 ||
  echo "the GPU run failed"
echo "whole run (reading, set-up, solve, output): $(python3 -c "import time; print(round(time.time() - $start, 2))") s" | tee -a "$out/nurbs.txt"
tail -n 3 "$work/run.log" | tee -a "$out/nurbs.txt"
cp "$work/plate/summary.json" "$out/nurbs.json" 2>/dev/null || true
echo "== element matrices + assembly" | tee -a "$out/nurbs.txt"
"$build/bench/tangent_bench" --reps 3 --deck "$work/plate.inp" | tee -a "$out/nurbs.txt"
rm -rf "$work"
