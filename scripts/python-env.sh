#!/usr/bin/env bash
# Makes .venv (Debian's python3 with its system packages visible: NumPy, pandas, matplotlib and
# meshio come from apt, scripts/install-deps.sh) and installs the halfstep Python package into
# it, editable, so that it follows the source tree; then pyvista (with the VTK wheel, from
# PyPI: Debian 12 has no pyvista), which the report's pictures use when VTK can render
# off-screen (EGL). Without it, or offline, the pictures are drawn with matplotlib.
# `halfstep report` and the Python tests use .venv/bin/python3 when CMake finds it
# (HALFSTEP_PYTHON).
# Usage: ./scripts/python-env.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
[[ -x $python ]] || python=$(command -v python3)
if [[ ! -x .venv/bin/python3 ]]; then
  "$python" -m venv --system-site-packages .venv
fi
.venv/bin/python3 -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-index -e ./python
.venv/bin/python3 -m pip install --quiet --disable-pip-version-check "pyvista>=0.38" ||
  echo "python-env.sh: pyvista could not be installed: the report's pictures will be drawn with matplotlib," \
       "and the tests that need VTK (bezier_vtk, vtk_tensors, python_report) will fail" >&2
.venv/bin/python3 -c "import halfstep, numpy, pandas, matplotlib, meshio; print('halfstep Python package: .venv (' + halfstep.__file__ + ')')"
