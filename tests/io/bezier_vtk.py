#!/usr/bin/env python3
"""The NURBS series (<job>_nurbs_NNNNNN.vtu) read back by VTK itself: a quarter annulus
(a = 1 < r < b = 2, plane strain, degree 2, 4 x 4 elements) under internal pressure p.

    python3 tests/io/bezier_vtk.py --halfstep build/halfstep [--work DIR]

Asserts, with VTK's own reader and its rational Bézier cell (vtkBezierQuadrilateral):
  * every cell is a VTK_BEZIER_QUADRILATERAL (77) of 9 points; RationalWeights and
    HigherOrderDegrees are the active point and cell attributes;
  * geometry: at 5 x 5 parametric points of every cell, VTK's EvaluateLocation lies at radius
    1 + t (t the radial patch parameter; the rims are exact circles) to 1e-12, whereas the
    frames' Lagrange cells through the control points miss the inner rim by more than 1e-3
    at the middle of a cell's rim side;
  * displacement: U interpolated with VTK's weights at the inner rim's points is radial and
    within 1e-3 (relative) of Lame's u_r(a) = (1 + nu) p a^2 ((1 - 2 nu) a + b^2 / a) /
    (E (b^2 - a^2)).
  * the cells' S keeps its meaning: a symmetric tensor in VTK's order with ComponentName0..5
    = XX, YY, ZZ, XY, YZ, XZ, equal to the frame's S of the same element.
Exit 0 when all hold, 1 otherwise, also when the vtk module is missing (CI's .venv has it:
scripts/install-deps.sh); the test does not skip.
"""
import argparse
import math
import os
import shutil
import subprocess
import sys

try:
    import vtk
except ImportError as e:
    print(f"bezier_vtk: FAILED: {e}: this test needs VTK's Python module (scripts/install-deps.sh puts it "
          "in .venv; CMake's HALFSTEP_PYTHON must be that Python)")
    sys.exit(1)

A, B, P, E, NU = 1.0, 2.0, 10.0, 1000.0, 0.3


def deck():
    s = math.sqrt(0.5)
    return f"""*HEADING
quarter annulus under internal pressure
*NURBS PATCH, NAME=C, TYPE=CPE, ELSET=ALL, REFINE=3
2, 1
3, 2
0, 0, 0, 1, 1, 1
0, 0, 1, 1
0, {A!r}, 1
{A!r}, {A!r}, {s!r}
{A!r}, 0, 1
0, {B!r}, 1
{B!r}, {B!r}, {s!r}
{B!r}, 0, 1
*MATERIAL, NAME=M
*ELASTIC
{E!r}, {NU!r}
*SOLID SECTION, ELSET=ALL, MATERIAL=M
1
*STEP
*STATIC
1, 1
*BOUNDARY
C-U0, 1, 1
C-U1, 2, 2
*DSLOAD
C-V0, P, {P!r}
*OUTPUT, FIELD
*NODE OUTPUT
U
*ELEMENT OUTPUT
S
*END STEP
"""


def read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--halfstep", required=True)
    ap.add_argument("--work", default="bezier_vtk_work")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    with open(os.path.join(a.work, "annulus.inp"), "w") as f:
        f.write(deck())
    out = os.path.join(a.work, "out")
    run = subprocess.run([a.halfstep, "run", os.path.join(a.work, "annulus.inp"), "-o", out, "--quiet",
                          "--backend", "cpu"], capture_output=True, text=True, timeout=300)
    failures = []
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print("bezier_vtk: halfstep failed")
        return 1
    grid = read(os.path.join(out, "annulus_nurbs_000001.vtu"))
    lagrange = read(os.path.join(out, "annulus_000001.vtu"))
    ne = 4  # REFINE=3: 3 knots inserted in the one span [0, 1] of each direction
    if grid.GetNumberOfCells() != ne * ne:
        failures.append(f"{grid.GetNumberOfCells()} cells, expected {ne * ne}")
    if grid.GetPointData().GetRationalWeights() is None:
        failures.append("RationalWeights is not the active point attribute")
    if grid.GetCellData().GetHigherOrderDegrees() is None:
        failures.append("HigherOrderDegrees is not the active cell attribute")
    u = grid.GetPointData().GetArray("U")
    ur_exact = (1 + NU) * P * A * A * ((1 - 2 * NU) * A + B * B / A) / (E * (B * B - A * A))
    worst_r = worst_u = 0.0
    worst_lagrange = math.inf
    for c in range(grid.GetNumberOfCells()):
        cell = grid.GetCell(c)
        if cell.GetCellType() != vtk.VTK_BEZIER_QUADRILATERAL or cell.GetNumberOfPoints() != 9:
            failures.append(f"cell {c}: type {cell.GetCellType()} with {cell.GetNumberOfPoints()} points")
            continue
        row = c // ne  # elements are numbered u fastest; v (radial) is the cell's second coordinate
        weights = [0.0] * 9
        for i in range(5):
            for j in range(5):
                pc = [i / 4, j / 4, 0.0]
                x = [0.0, 0.0, 0.0]
                cell.EvaluateLocation(vtk.reference(0), pc, x, weights)
                t = (row + pc[1]) / ne
                worst_r = max(worst_r, abs(math.hypot(x[0], x[1]) - (A + (B - A) * t)))
                if row == 0 and j == 0:
                    d = [sum(weights[k] * u.GetComponent(cell.GetPointId(k), m) for k in range(9)) for m in range(2)]
                    r = math.hypot(x[0], x[1])
                    radial = (d[0] * x[0] + d[1] * x[1]) / r
                    tangential = (-d[0] * x[1] + d[1] * x[0]) / r
                    worst_u = max(worst_u, abs(radial / ur_exact - 1), abs(tangential / ur_exact))
        if row == 0:  # the same element's Lagrange cell of the frames: the control net
            lc = lagrange.GetCell(c)
            x = [0.0, 0.0, 0.0]
            lc.EvaluateLocation(vtk.reference(0), [0.5, 0.0, 0.0], x, [0.0] * lc.GetNumberOfPoints())
            worst_lagrange = min(worst_lagrange, abs(math.hypot(x[0], x[1]) - A))
    print(f"bezier_vtk: VTK {vtk.vtkVersion.GetVTKVersion()}: radius off by at most {worst_r:.2e} "
          f"(Lagrange cells at the rim's middle: at least {worst_lagrange:.2e}), inner rim u off Lame by {worst_u:.2e}")
    if not worst_r <= 1e-12:
        failures.append(f"the Bezier cells' radius is off by {worst_r:.3e} (> 1e-12)")
    if not worst_lagrange > 1e-3:
        failures.append(f"the Lagrange cells meet the rim within {worst_lagrange:.3e}: the test no longer tells them apart")
    if not worst_u <= 1e-3:
        failures.append(f"the inner rim's displacement is off Lame's by {worst_u:.3e} (> 1e-3)")
    # S, copied from the frame's cells to their Bézier cells (ElementId gives the pairs).
    s_bezier, s_frame = grid.GetCellData().GetArray("S"), lagrange.GetCellData().GetArray("S")
    tensor_names = ("XX", "YY", "ZZ", "XY", "YZ", "XZ")
    if s_bezier is None or s_frame is None:
        failures.append("no cell array S in the Bezier series or the frame")
    else:
        names = tuple(s_bezier.GetComponentName(k) for k in range(s_bezier.GetNumberOfComponents()))
        if names != tensor_names:
            failures.append(f"the Bezier series' S is named {names}, expected {tensor_names}")
        ids_bezier = grid.GetCellData().GetArray("ElementId")
        ids_frame = lagrange.GetCellData().GetArray("ElementId")
        frame_cell = {ids_frame.GetValue(c): c for c in range(lagrange.GetNumberOfCells())}
        for c in range(grid.GetNumberOfCells()):
            if s_bezier.GetTuple(c) != s_frame.GetTuple(frame_cell[ids_bezier.GetValue(c)]):
                failures.append(f"Bezier cell {c}'s S differs from its element's S in the frame")
                break
    for f in failures:
        print("bezier_vtk: FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
