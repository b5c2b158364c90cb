#!/usr/bin/env bash
# Issue 21 in one run per machine: the deck reader's speed and memory, the element rate as the
# model grows (MITC4 and C3D8R at 1, 5, 10 and, on a GPU, 50 M elements), the cost of
# --dt-update, the node pass in one launch or two, checking a 10 M-element deck, and seed 000's
# 3.28 M-element pinched cylinder. Prints every table and keeps
# them in OUT/issue21.txt; docs/performance.md records what they gave and why.
#
# Usage: bench/issue21.sh BUILD OUT [--cpu] [--big] [SECTION...]
#   BUILD     a Release build with halfstep and bench/reader_bench
#   --cpu     a machine without a GPU: 1 and 5 M elements, 50 increments on all cores (the rates
#             of a short run are start-up bound lower limits), no seed case
#   --big     adds 50 M elements to the rates (GPU; writing those decks alone takes ~10 min)
#   SECTION   reader, rates, renumber, dt-update, node-pass, check, seed (default: all; check writes a
#             1 GB deck, ~3 min). The whole GPU run takes ~18 min,
#             more than one device call allows: run it as two or three calls of sections.
set -euo pipefail
build=$(realpath "$1"); out=$2; shift 2
cpu=0; big=0; sections=()
for a in "$@"; do
  case $a in
    --cpu) cpu=1 ;;
    --big) big=1 ;;
    reader|rates|renumber|dt-update|node-pass|check|seed) sections+=("$a") ;;
    *) echo "issue21.sh: unknown argument '$a' (expected --cpu, --big, reader, rates, renumber, dt-update, node-pass, check, seed)" >&2; exit 2 ;;
  esac
done
[ ${#sections[@]} -eq 0 ] && sections=(reader rates renumber dt-update node-pass check seed)
want() { [[ " ${sections[*]} " == *" $1 "* ]]; }
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"; out=$(realpath "$out")
log=$out/issue21.txt; touch "$log"
say() { echo "$@" | tee -a "$log"; }
gen() { python3 "$root/examples/generate_deck.py" "$@" 2>/dev/null >/dev/null; }

say "# issue 21 benchmark, $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'no git'), sections: ${sections[*]}"
say "# CPU: $(lscpu | sed -n 's/^Model name: *//p') x $(nproc)"
if [ $cpu = 0 ]; then say "# GPU: $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)"; fi

# 1. The reader on one core: a 1 M-element shell deck and a 1 M-element C3D8R deck (the decks
#    are written in parallel: Python takes ~6 s per million elements). The solid block is
#    4n x n x n cells: n = 63 is 1.0 M elements.
if want reader; then
gen pinched-cylinder --n 708 --time 2e-5 -o "$out/read_shell_1m.inp" &
python3 -c "import sys; sys.path.insert(0, '$root/bench'); import solid_bench as b
b.write_mesh('$out/read_solid_1m_mesh.inp', 'C3D8R', 63); b.write_main('$out/read_solid_1m.inp', '$out/read_solid_1m_mesh.inp', 'svk', 2e-5)" &
wait
say "## reader (one core, best of 3)"
for d in read_shell_1m read_solid_1m; do
  "$build/bench/reader_bench" "$out/$d.inp" --reps 3 | tee -a "$log"
done
rm -f "$out"/read_*.inp
fi

# 2. Element rate against model size. The cylinder's pinch is 0.1, not the generator's 500: at
#    50 M elements (6.4e-4 wide, 0.03 thick) 500 inverts the loaded node's elements within 20
#    increments; the elastic rate does not depend on the load.
if want rates; then
if [ $cpu = 1 ]; then
  shells=(708 1581); cells=(63 108); steps=50; backend=(--backends cpu --threads "$(nproc)")
else
  shells=(708 1581 2236); cells=(63 108 136); steps=2000; backend=(--backends cuda --schemes gather)
  [ $big = 1 ] && shells+=(5000) && cells+=(232)
fi
say "## MITC4 pinched cylinder, rate against size (2N x N elements, N = ${shells[*]}: 1, 5, 10, 50 M; $steps increments)"
python3 "$root/bench/shell_bench.py" --build "$build" --sizes "${shells[@]}" --steps $steps "${backend[@]}" \
  --load 0.1 --out "$out/shell" 2>&1 | tee -a "$log"
say "## C3D8R block, rate against size (4n x n x n cells, n = ${cells[*]}: 1, 5, 10, 50 M; $steps increments)"
python3 "$root/bench/solid_bench.py" --build "$build" --cells "${cells[@]}" --kinds C3D8R --steps $steps \
  "${backend[@]}" --out "$out/solid" 2>&1 | tee -a "$log"
rm -f "$out"/shell/*.inp "$out"/solid/*.inp
fi

# 3. Locality renumbering: the same 1 M-element cylinder written in shuffled order, run with
#    --renumber on and off, and the ordered deck (docs/performance.md "Locality renumbering").
summarize() {  # summary.json, label -> one line
  python3 - "$1" "$2" <<'EOF' | tee -a "$log"
import json, sys
s = json.load(open(sys.argv[1]))
r = s.get("renumbering", {})
print(f"{sys.argv[2]:<28} {s['steps']} increments, solve {s['solve_seconds']:.2f} s, "
      f"{s['element_steps_per_second']:.3e} el-steps/s, read {s['read_seconds']:.2f} s, set-up {s['setup_seconds']:.2f} s, "
      f"renumbering {r.get('seconds', 0):.2f} s (span {r.get('mean_node_span_deck', 0):.0f} -> {r.get('mean_node_span_run', 0):.0f})")
EOF
}
if want renumber; then
say "## locality renumbering at 1 M MITC4 elements"
t=$([ $cpu = 1 ] && echo 6e-4 || echo 4e-2)
gen pinched-cylinder --n 708 --time $t --field-interval 0 -o "$out/ordered.inp" &
gen pinched-cylinder --n 708 --time $t --field-interval 0 --shuffle 1 -o "$out/shuffled.inp" &
wait
args=(--quiet); [ $cpu = 1 ] && args+=(--backend cpu) || args+=(--backend cuda)
for d in ordered shuffled; do
  for r in on off; do
    "$build/halfstep" run "$out/$d.inp" -o "$out/renumber_${d}_$r" "${args[@]}" --renumber $r || true
    summarize "$out/renumber_${d}_$r/summary.json" "$d deck, --renumber $r"
  done
done
rm -f "$out"/ordered.inp "$out"/shuffled.inp
fi

# 4. --dt-update: the same 1 M-element shell run with the increment re-evaluated every N.
if want dt-update; then
say "## --dt-update at 1 M MITC4 elements"
gen pinched-cylinder --n 708 --time $([ $cpu = 1 ] && echo 6e-4 || echo 4e-2) -o "$out/dt_update.inp"
args=(--quiet); [ $cpu = 1 ] && args+=(--backend cpu) || args+=(--backend cuda)
for n in 0 100 10 1; do
  "$build/halfstep" run "$out/dt_update.inp" -o "$out/dt_update_$n" "${args[@]}" $([ $n -gt 0 ] && echo --dt-update $n) || true
  python3 - "$out/dt_update_$n/summary.json" "$n" <<'EOF' | tee -a "$log"
import json, sys
s = json.load(open(sys.argv[1]))
print(f"--dt-update {sys.argv[2]:>3}: {s['steps']} increments, solve {s['solve_seconds']:.2f} s, "
      f"{s['element_steps_per_second']:.3e} el-steps/s, updates {s.get('increment_updates', {}).get('count', 0)}")
EOF
done
rm -f "$out"/*.inp "$out"/*/*.vtu
fi

# 5. The GPU node pass in one launch or two (--node-pass single|split; docs/performance.md,
#    "The node pass in two launches"), 1 M elements of each kind, interleaved, FP64 and FP32.
if want node-pass && [ $cpu = 0 ]; then
  say "## node pass: one launch (single) or special + plain (split), 1 M elements, gather"
  for rep in 1 2; do
    for np in single split; do
      python3 "$root/bench/shell_bench.py" --build "$build" --sizes 708 --steps 2000 --backends cuda --schemes gather \
        --precisions double single --run-args "--node-pass $np" --out "$out/np_shell" 2>&1 | sed "s/^/MITC4 $np: /" | tee -a "$log"
      python3 "$root/bench/solid_bench.py" --build "$build" --cells 63 --kinds C3D8R --steps 2000 --backends cuda \
        --schemes gather --precisions double single --run-args "--node-pass $np" --out "$out/np_solid" 2>&1 |
        sed "s/^/C3D8R $np: /" | tee -a "$log"
    done
  done
  rm -f "$out"/np_shell/*.inp "$out"/np_solid/*.inp
fi

# 6. Read and check a 10 M-element shell deck on every core, half of them and one
#    (`check --timings` prints the read and set-up seconds on stderr).
if want check; then
  say "## check of a 10 M-element deck (9,999,392 S4R)"
  gen pinched-cylinder --n 2236 --time 8e-4 --field-interval 0 -o "$out/check_10m.inp"
  sync
  for t in $(nproc) $(( $(nproc) / 2 )) 1; do
    OMP_NUM_THREADS=$t "$build/halfstep" check --timings "$out/check_10m.inp" 2>&1 >/dev/null | tee -a "$log"
  done
  rm -f "$out/check_10m.inp"
fi

# 7. Seed 000's largest case (GPU only: 97,273 increments of 3.28 M elements).
if want seed && [ $cpu = 0 ]; then
  say "## seed 000 pinched cylinder, 3,276,800 elements"
  "$root/scripts/seed-cases.sh" "$build" "$out/seed" pinched 2>&1 | tee -a "$log"
fi
say "# done: $log"
