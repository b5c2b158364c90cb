#!/bin/bash
# Here, after building build/ with CUDA (docs/performance.md, "The GPU suite with binaries
# built here"): packs what the GPU host lacks into ignored folders that `run` carries.
#   .carry/        halfstep.xz, test_gpu.xz and libs.tar.xz (the Debian libraries of CHOLMOD
#                  and MPI's C++ layer), unpacked there by scripts/device/unpack.sh
#   .cudss1..3/    libcudss.so.1 from /opt/cudss/lib split in three (one call carries at most
#                  64 MiB); join them on the device (docs/performance.md, "Carrying cuDSS").
# Then: three calls carrying .cudss1, .cudss2, .cudss3 (copy each into build/cudss/, join,
# sha256sum), and one carrying .carry: `bash scripts/device/gpu_suite.sh 12 540` or
# `FOCUS='<gtest filter>' bash scripts/device/focus.sh 330`.
set -euo pipefail
cd "$(dirname "$0")/../.."
for p in .carry/ .cudss1/ .cudss2/ .cudss3/; do
  grep -qxF "$p" .git/info/exclude || echo "$p" >> .git/info/exclude
done
mkdir -p .carry
xz -T2 -6 -c build/halfstep > .carry/halfstep.xz
xz -T2 -6 -c build/tests/test_gpu > .carry/test_gpu.xz
if [ ! -f .carry/libs.tar.xz ]; then
  tmp=$(mktemp -d)
  for l in libcholmod.so.3 libamd.so.2 libcolamd.so.2 libsuitesparseconfig.so.5 libccolamd.so.2 libcamd.so.2 \
           libmetis.so.5 liblapack.so.3 libblas.so.3 libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 libmpi_cxx.so.40; do
    cp -L /lib/x86_64-linux-gnu/$l "$tmp/"
  done
  tar -C "$tmp" -cJf .carry/libs.tar.xz .
  rm -rf "$tmp"
fi
if [ -f /opt/cudss/lib/libcudss.so.1 ] && [ ! -f .cudss3/cudss_part_02 ]; then
  tmp=$(mktemp -d)
  split -n 3 -d /opt/cudss/lib/libcudss.so.1 "$tmp/cudss_part_"
  for i in 1 2 3; do mkdir -p .cudss$i && mv "$tmp/cudss_part_0$((i - 1))" .cudss$i/; done
  rm -rf "$tmp"
  sha256sum /opt/cudss/lib/libcudss.so.1
fi
ls -la .carry .cudss1 .cudss2 .cudss3 2>/dev/null || true
