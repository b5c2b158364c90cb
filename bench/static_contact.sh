#!/usr/bin/env bash
# Issue 44's static contact benchmark: two C3D8 blocks pressed through a contact pair
# (examples/generate_contact_blocks.py) in one linear static step, at growing sizes, on the
# GPU (cuDSS) and on the CPU (CHOLMOD, all cores), and with CalculiX where `ccx` is on the PATH.
# Prints one line per run: elements, equations, the solver, the wall time of the run, the
# static step's time, the printed reaction against the closed form; keeps the logs in OUT.
#
# Usage: bench/static_contact.sh BUILD OUT SIZE... [--cpu-only] [--gpu-only] [--ccx]
#   BUILD  a Release build with halfstep (with cuDSS for the GPU runs)
#   SIZE   N:NX or N:NX:W: A's elements across and along (B has N + 1 across), the blocks'
#          width (default 1): 100:50 is 1.01 M in a cube, 320:5:64 1.03 M cube elements in plates
#   --ccx  also run `ccx` (CalculiX) on each deck, OMP_NUM_THREADS = all cores
set -euo pipefail
build=$(realpath "$1"); out=$2; shift 2
gpu=1; cpu=1; ccx=0; sizes=()
for a in "$@"; do
  case $a in
    --cpu-only) gpu=0 ;;
    --gpu-only) cpu=0 ;;
    --ccx) ccx=1 ;;
    *:*) sizes+=("$a") ;;
    *) echo "static_contact.sh: unknown argument '$a' (expected N:NX, --cpu-only, --gpu-only, --ccx)" >&2; exit 2 ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || { echo "static_contact.sh: give at least one size N:NX" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"; out=$(realpath "$out")
cores=$(nproc)
printf '%-10s %10s %-28s %9s %9s %14s %14s\n' elements equations solver wall_s step_s reaction closed_form
for s in "${sizes[@]}"; do
  IFS=: read -r n nx width <<< "$s"; width=${width:-1}
  deck=$out/blocks_${n}_${nx}.inp
  line=$(python3 "$root/examples/generate_contact_blocks.py" -o "$deck" --n "$n" --nx "$nx" --width "$width")
  elements=$(echo "$line" | sed -E 's/.*: ([0-9]+) C3D8.*/\1/')
  closed=$(echo "$line" | sed -E 's/.*RF1 total = ([-0-9.eE+]+).*/\1/')
  runs=()
  [ $gpu -eq 1 ] && runs+=("cuda:cudss")
  [ $cpu -eq 1 ] && runs+=("cpu:cholmod")
  for r in "${runs[@]}"; do
    backend=${r%%:*}; solver=${r##*:}
    o=$out/${backend}_${n}_${nx}
    rm -rf "$o"
    t0=$(date +%s.%N)
    if "$build/halfstep" run --dialect calculix --backend "$backend" --linear-solver "$solver" \
        $([ "$backend" = cpu ] && echo "--threads $cores") -o "$o" "$deck" > "$o.log" 2>&1; then
      t1=$(date +%s.%N)
      eq=$(grep -oE '[0-9]+ equations' "$o.log" | head -1 | grep -oE '[0-9]+')
      step=$(grep -oE 'static step\(s\): [0-9]+ increments, [0-9]+ Newton iterations, [0-9]+ cut-backs, [0-9.]+ s' "$o.log" | grep -oE '[0-9.]+ s$' | grep -oE '[0-9.]+')
      rf=$(tail -1 "$o/$(basename "$deck" .inp).dat" | awk '{print $1}')
      printf '%-10s %10s %-28s %9.2f %9s %14s %14s\n' "$elements" "$eq" "halfstep $backend $solver" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" "$step" "$rf" "-$closed"
    else
      printf '%-10s %10s %-28s %9s %9s %14s %14s\n' "$elements" - "halfstep $backend $solver" failed - "(see $o.log)" -
    fi
  done
  if [ $ccx -eq 1 ] && command -v ccx > /dev/null; then
    d=$out/ccx_${n}_${nx}; mkdir -p "$d"; cp "$deck" "$d/blocks.inp"
    t0=$(date +%s.%N)
    if (cd "$d" && OMP_NUM_THREADS=$cores ccx blocks > ccx.log 2>&1); then
      t1=$(date +%s.%N)
      rf=$(tail -1 "$d/blocks.dat" | awk '{print $1}')
      printf '%-10s %10s %-28s %9.2f %9s %14s %14s\n' "$elements" - "CalculiX $(ccx -v 2>/dev/null | grep -oE '[0-9]+\.[0-9]+' | head -1)" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" - "$rf" "-$closed"
    else
      printf '%-10s %10s %-28s %9s %9s %14s %14s\n' "$elements" - CalculiX failed - "(see $d/ccx.log)" -
    fi
  fi
done
