#!/bin/bash
# On the device: the carried binaries; the static engine's tests (focus) beside 12 copies of
# the instability tests (the writer-lag crash needs a loaded machine).
source scripts/device/unpack.sh || exit 1
export LD_LIBRARY_PATH=$PWD/build/cudss:$LD_LIBRARY_PATH
export OMP_NUM_THREADS=1
T=${1:-400}
nvidia-smi -L
cd build/tests
mkdir -p focus && (cd focus && timeout -s KILL $T ../test_gpu --gtest_filter="$FOCUS" > ../focus.log 2>&1; echo "rc=$?" >> ../focus.log) &
for i in $(seq 1 12); do
  mkdir -p inst$i && (cd inst$i && timeout -s KILL $T ../test_gpu --gtest_filter='*Instability*' > ../inst$i.log 2>&1; echo "rc=$?" >> ../inst$i.log) &
done
wait
for f in focus inst*; do [ -f $f.log ] && echo "$f: $(grep -c '^\[       OK \]' $f.log) ok, $(grep -c '^\[  FAILED  \] [A-Z]' $f.log) failed lines, $(grep -c '^\[  SKIPPED \] [A-Z]' $f.log) skipped, $(grep '^rc=' $f.log)"; done | tee $OUT/summary.txt
grep -h -E '^\[  FAILED  \] [A-Z]' focus.log inst*.log | sort -u | head -40 | tee -a $OUT/summary.txt
grep -h -E "^GPU |^static (tension|bending)|internal error" focus.log inst*.log | sort | uniq -c | tee -a $OUT/summary.txt
cat focus.log inst*.log > $OUT/shards.log
