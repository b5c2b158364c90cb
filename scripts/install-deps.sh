#!/usr/bin/env bash
# Installs the Debian 12 packages halfstep builds and tests with, when they are missing:
# compilers, CMake, Ninja, GoogleTest, CLI11 and nlohmann-json (header-only: the command line and
# summary.json), Eigen (header-only: the sparse LDLT and CG of static steps), SuiteSparse (CHOLMOD,
# the fast sparse Cholesky; optional for CMake), Spectra (header-only: the Lanczos eigensolver of
# *FREQUENCY steps), OpenBLAS (serial: CHOLMOD's dense fronts 2-4
# times faster than the reference BLAS SuiteSparse brings, one thread, so results do not depend
# on the thread count), Python and OpenMPI (distributed runs, mpirun tests),
# the run report's Python libraries (NumPy, pandas, matplotlib, meshio: Debian's packages, so that
# nothing is downloaded from PyPI), Mesa's EGL and OpenGL (VTK's off-screen pictures) and
# chromium (the report's headless browser test), clang and libomp (test.sh's minute of fuzzing
# under libFuzzer, ASan and UBSan, as CI runs it); then scripts/python-env.sh makes .venv with
# the halfstep Python package and pyvista.
# Usage: ./scripts/install-deps.sh
set -euo pipefail

packages=(build-essential cmake ninja-build libgtest-dev libcli11-dev nlohmann-json3-dev libeigen3-dev
          libsuitesparse-dev libopenblas0-serial libspectra-dev python3 openmpi-bin libopenmpi-dev
          python3-venv python3-pip python3-setuptools python3-wheel python3-numpy python3-pandas
          python3-matplotlib python3-pil python3-meshio chromium libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri
          clang libomp-dev)
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

"$(dirname "$0")/python-env.sh"
