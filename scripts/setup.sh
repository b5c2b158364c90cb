#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, builds halfstep, and runs the main example
# (the seed's pinched cylinder) end to end. Usage: ./scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build libgtest-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target halfstep
./build/halfstep check examples/pinched_cylinder.inp
./build/halfstep run examples/pinched_cylinder.inp -o out/pinched_cylinder
echo "results: out/pinched_cylinder/pinched_cylinder.pvd (open in ParaView), out/pinched_cylinder/history/"
