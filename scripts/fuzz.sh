#!/usr/bin/env bash
# Fuzzes the deck reader and model validation (tests/fuzz/fuzz_deck_reader.cpp) with libFuzzer,
# ASan and UBSan for SECONDS (default 60). Usage: ./scripts/fuzz.sh [SECONDS] [extra libFuzzer flags]
# Needs clang/clang++ with libFuzzer (Debian: clang, libomp-dev). Builds in build-fuzz/, keeps the
# growing corpus in build-fuzz/corpus and writes crash/timeout/oom files to build-fuzz/findings/.
# Reproduce a finding: build-fuzz/fuzz_deck_reader build-fuzz/findings/crash-<sha1>
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
case "$seconds" in ''|*[!0-9]*) echo "usage: $0 [SECONDS] [libFuzzer flags]" >&2; exit 1;; esac
jobs="${FUZZ_BUILD_JOBS:-2}"

# A light build: no CUDA, MPI, CHOLMOD, tests or benchmarks; -g for file:line in reports.
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DHALFSTEP_FUZZ=ON -DHALFSTEP_CUDA=OFF -DHALFSTEP_MPI=OFF -DHALFSTEP_CHOLMOD=OFF \
  -DHALFSTEP_TESTS=OFF -DHALFSTEP_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_deck_reader

# Seed corpus: every deck the project ships (good ones and deliberately bad ones).
mkdir -p build-fuzz/corpus build-fuzz/findings
for f in tests/bad_input/decks/*.inp tests/gpu/decks/*.inp tests/parallel/decks/*.inp examples/*.inp; do
  [ -f "$f" ] || continue
  cp -f "$f" "build-fuzz/corpus/seed-$(echo "${f%.inp}" | tr '/' '-')"
done

export OMP_NUM_THREADS=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec build-fuzz/fuzz_deck_reader build-fuzz/corpus \
  -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  -dict=tests/fuzz/deck.dict -artifact_prefix=build-fuzz/findings/ -print_final_stats=1 "$@"
