#!/bin/bash
# On the device, from the repository root: the carried binaries, cuDSS from build/cudss, the
# changed code's GPU tests first, the whole gpu suite in $1 shards beside them (each killed
# after $2 s), the feature matrix's GPU columns; one summary.
source scripts/device/unpack.sh || exit 1
export LD_LIBRARY_PATH=$PWD/build/cudss:$LD_LIBRARY_PATH
export OMP_NUM_THREADS=1
N=${1:-12}
T=${2:-540}
nvidia-smi -L
(timeout -s KILL $T python3 validation/feature_matrix.py --halfstep build/halfstep --contexts explicit-gpu,static-gpu > $OUT/matrix.txt 2> $OUT/matrix_progress.txt; echo "matrix rc=$?" >> $OUT/matrix.txt) &
cd build/tests
mkdir -p focus && (cd focus && timeout -s KILL $T ../test_gpu --gtest_filter="${FOCUS:-GpuStaticPlasticity.*:CudaTangentEngine.*}" > ../focus.log 2>&1; echo "rc=$?" >> ../focus.log) &
for i in $(seq 0 $((N-1))); do
  mkdir -p shard$i
  (cd shard$i && GTEST_TOTAL_SHARDS=$N GTEST_SHARD_INDEX=$i timeout -s KILL $T ../test_gpu > ../shard$i.log 2>&1; echo "rc=$?" >> ../shard$i.log) &
done
wait
for f in focus shard*; do [ -f $f.log ] && echo "$f: $(grep -c '^\[       OK \]' $f.log) ok, $(grep -c '^\[  FAILED  \] [A-Z]' $f.log) failed lines, $(grep -c '^\[  SKIPPED \] [A-Z]' $f.log) skipped, $(grep '^rc=' $f.log)"; done | tee $OUT/summary.txt
grep -h -E '^\[  FAILED  \] [A-Z]' focus.log shard*.log | sort -u | head -60 | tee -a $OUT/summary.txt
grep -h -E "^GPU |FPM cube|plastic FPM|^static (tension|bending)" focus.log | tee -a $OUT/summary.txt
cat focus.log shard*.log > $OUT/shards.log
cd ../..
grep -E "cells run|FAIL" $OUT/matrix.txt | head -20
