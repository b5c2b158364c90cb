#!/usr/bin/env bash
# Fuzzes halfstep with libFuzzer, ASan and UBSan (docs/fuzzing.md). Usage:
#   ./scripts/fuzz.sh [HARNESS] [SECONDS] [extra libFuzzer flags]
# HARNESS: reader (tests/fuzz/fuzz_deck_reader.cpp: the deck reader and model validation),
# run (fuzz_run.cpp: small decks run in-process, their results judged), restart
# (fuzz_restart.cpp: resumes from damaged restart files) or all (the default: the three in
# turn, SECONDS split 1/2, 1/3 and 1/6). SECONDS defaults to 60.
# Needs clang/clang++ with libFuzzer (Debian: clang, libomp-dev). Builds in build-fuzz/, keeps each
# harness's growing corpus in build-fuzz/corpus[-run|-restart] and writes crash/timeout/oom
# files to build-fuzz/findings/<harness>-*. Reproduce one: build-fuzz/fuzz_run build-fuzz/findings/run-crash-<sha1>
set -euo pipefail
cd "$(dirname "$0")/.."
harness=all
case "${1:-}" in reader|run|restart|all) harness="$1"; shift;; esac
seconds="${1:-60}"
shift || true
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [reader|run|restart|all] [SECONDS] [libFuzzer flags]" >&2; exit 1;; esac
jobs="${FUZZ_BUILD_JOBS:-2}"

case "$harness" in
  all) targets=(fuzz_deck_reader fuzz_run fuzz_restart);;
  reader) targets=(fuzz_deck_reader);;
  *) targets=("fuzz_$harness");;
esac

# A light build: no CUDA, MPI, CHOLMOD, tests or benchmarks; -g for file:line in reports.
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DHALFSTEP_FUZZ=ON -DHALFSTEP_CUDA=OFF -DHALFSTEP_MPI=OFF -DHALFSTEP_CHOLMOD=OFF \
  -DHALFSTEP_TESTS=OFF -DHALFSTEP_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target "${targets[@]}"

export OMP_NUM_THREADS=1
# Oracles whose known, reported bugs are to be counted ("fuzz: allowed finding ...") instead of
# failing, comma-separated (docs/fuzzing.md, "Findings"); none by default.
export HALFSTEP_FUZZ_ALLOW="${HALFSTEP_FUZZ_ALLOW-}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p build-fuzz/findings

# Seeds: the decks the project ships (good ones and deliberately bad ones) up to max_bytes.
seed_decks() {
  local corpus="$1" max_bytes="$2" f
  mkdir -p "$corpus"
  for f in tests/bad_input/decks/*.inp tests/gpu/decks/*.inp tests/parallel/decks/*.inp tests/fuzz/decks/*.inp examples/*.inp; do
    [ -f "$f" ] || continue
    [ "$(wc -c < "$f")" -le "$max_bytes" ] || continue
    cp -f "$f" "$corpus/seed-$(echo "${f%.inp}" | tr '/' '-')"
  done
}

fuzz_reader() {
  seed_decks build-fuzz/corpus 1000000000
  build-fuzz/fuzz_deck_reader build-fuzz/corpus \
    -max_total_time="$1" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
    -dict=tests/fuzz/deck.dict -artifact_prefix=build-fuzz/findings/reader- -print_final_stats=1 "${@:2}"
}

# Whole runs: small decks only, as most larger ones are too big to run (RunLimits).
fuzz_run() {
  seed_decks build-fuzz/corpus-run 16384
  cp -f tests/fuzz/findings/run-* build-fuzz/corpus-run/ 2>/dev/null || true  # fixed findings, replayed first
  build-fuzz/fuzz_run build-fuzz/corpus-run \
    -max_total_time="$1" -max_len=16384 -timeout=30 -rss_limit_mb=4096 \
    -dict=tests/fuzz/deck.dict -artifact_prefix=build-fuzz/findings/run- -print_final_stats=1 "${@:2}"
}

# Restarts: the harness writes its base runs' restart files into the corpus as seeds; an
# allocation of over 1 GiB (a length read from the file and trusted) is a finding.
fuzz_restart() {
  mkdir -p build-fuzz/corpus-restart
  # Fixed findings kept as reproducers: replayed first, with the corpus.
  cp -f tests/fuzz/findings/restart-* build-fuzz/corpus-restart/ 2>/dev/null || true
  HALFSTEP_FUZZ_RESTART_SEEDS=build-fuzz/corpus-restart build-fuzz/fuzz_restart build-fuzz/corpus-restart \
    -max_total_time="$1" -max_len=262144 -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=1024 \
    -artifact_prefix=build-fuzz/findings/restart- -print_final_stats=1 "${@:2}"
}

case "$harness" in
  all)
    # At least 5 s each (the restart harness's start-up runs its bases first).
    reader_s=$(( seconds / 2 > 5 ? seconds / 2 : 5 ))
    run_s=$(( seconds / 3 > 5 ? seconds / 3 : 5 ))
    restart_s=$(( seconds / 6 > 5 ? seconds / 6 : 5 ))
    # HALFSTEP_FUZZ_RUNS=R,U,S caps each harness's executions too (reader, run, restart): with
    # a fixed -seed the inputs are then the same on any machine, a faster one stops at the cap
    # and a slower one at the time, after a prefix of them.
    caps=(); IFS=, read -r -a caps <<< "${HALFSTEP_FUZZ_RUNS:-}"
    cap() { if [ -n "${caps[$1]:-}" ]; then echo "-runs=${caps[$1]}"; fi; }
    status=0
    echo "fuzz.sh: reader ${reader_s} s $(cap 0)" >&2
    fuzz_reader "$reader_s" $(cap 0) "$@" || status=1
    echo "fuzz.sh: run ${run_s} s $(cap 1)" >&2
    fuzz_run "$run_s" $(cap 1) "$@" || status=1
    echo "fuzz.sh: restart ${restart_s} s $(cap 2)" >&2
    fuzz_restart "$restart_s" $(cap 2) "$@" || status=1
    exit "$status";;
  reader) fuzz_reader "$seconds" "$@";;
  run) fuzz_run "$seconds" "$@";;
  restart) fuzz_restart "$seconds" "$@";;
esac
