#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, builds halfstep, and runs the main example
# (the seed's pinched cylinder) end to end. Usage: ./scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/install-deps.sh

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target halfstep
./build/halfstep check examples/pinched_cylinder.inp
./build/halfstep run examples/pinched_cylinder.inp -o out/pinched_cylinder --report
echo "results: out/pinched_cylinder/report.html (open in a browser), out/pinched_cylinder/pinched_cylinder.pvd"\
     "(open in ParaView), out/pinched_cylinder/history/"
