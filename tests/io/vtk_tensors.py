#!/usr/bin/env python3
"""Stress and strain tensors in the .vtu frames as VTK reads them: a 2 x 2 x 2 C3D8 cube whose
boundary nodes follow the affine motion x = (I + G) X, with every entry of G non-zero, so that
the state is homogeneous with all six Cauchy stress components non-zero and distinct.

    <python with vtk and numpy> tests/io/vtk_tensors.py --halfstep build/halfstep [--work DIR]

Closed form (St. Venant-Kirchhoff, *ELASTIC, in an NLGEOM=YES step: an NLGEOM=NO step
writes small-strain results): F = I + G, E = (F^T F - I) / 2,
S = lambda tr(E) I + 2 mu E, sigma = F S F^T / det F. Asserts:
  * VTK's own reader and vtkTensorPrincipalInvariants give, on every cell, the eigenvalues
    of sigma and of E to 1e-10 of the largest (the affine state is exact but for Newton's last
    correction: its interior node stops at Abaqus's checks, 2e-14 to 1e-12 of the largest
    reached depending on the BLAS kernels' round-off, which sets whether a third iteration runs);
  * the same from numpy's eigvalsh of the read arrays arranged in VTK's order
    XX, YY, ZZ, XY, YZ, XZ;
  * S and E carry ComponentName0..5 = XX, YY, ZZ, XY, YZ, XZ, S is the active tensor, and
    U carries X, Y, Z;
  * the printed table (*EL PRINT, <job>.dat) keeps Abaqus's order 11, 22, 33, 12, 13, 23,
    to its 7 printed digits;
  * the Python package (python/halfstep: read(out).frame(-1), tensor_components) gives S11 ..
    S23 and E11 .. E23 of the closed form, also from a frame in the older layout (Abaqus's
    order, no component names).
Exit 0 when all hold, 1 otherwise. The vtk, numpy, pandas and meshio modules are required
(CI's .venv has them: scripts/install-deps.sh); without them the test fails, it does not skip.
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))  # this tree's package, not an installed one

try:
    import meshio
    import numpy as np
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy

    import halfstep
except ImportError as e:
    print(f"vtk_tensors: FAILED: {e}: this test needs the vtk, numpy, pandas and meshio modules "
          "(scripts/install-deps.sh puts them in .venv; CMake's HALFSTEP_PYTHON must be that Python)")
    sys.exit(1)

E_MOD, NU = 1000.0, 0.3
G = np.array([[0.010, 0.004, -0.003],
              [0.002, -0.006, 0.005],
              [0.007, 0.009, 0.008]])
VTK_ORDER = ("XX", "YY", "ZZ", "XY", "YZ", "XZ")
VTK_INDEX = ((0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2))
ABAQUS_INDEX = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))


def closed_form():
    """(Cauchy stress, Green-Lagrange strain) of the homogeneous motion, as 3 x 3 matrices."""
    F = np.eye(3) + G
    E = 0.5 * (F.T @ F - np.eye(3))
    lam = E_MOD * NU / ((1 + NU) * (1 - 2 * NU))
    mu = E_MOD / (2 * (1 + NU))
    S = lam * np.trace(E) * np.eye(3) + 2 * mu * E
    return F @ S @ F.T / np.linalg.det(F), E


def deck():
    nodes, bcs = [], []
    n = 0
    index = {}
    for k in range(3):
        for j in range(3):
            for i in range(3):
                n += 1
                index[i, j, k] = n
                X = np.array([i, j, k]) * 0.5
                nodes.append(f"{n}, {X[0]!r}, {X[1]!r}, {X[2]!r}")
                if (i, j, k) != (1, 1, 1):
                    u = G @ X
                    bcs += [f"{n}, {d + 1}, {d + 1}, {u[d]!r}" for d in range(3)]
    elements = []
    e = 0
    for k in range(2):
        for j in range(2):
            for i in range(2):
                e += 1
                c = [index[i, j, k], index[i + 1, j, k], index[i + 1, j + 1, k], index[i, j + 1, k],
                     index[i, j, k + 1], index[i + 1, j, k + 1], index[i + 1, j + 1, k + 1], index[i, j + 1, k + 1]]
                elements.append(f"{e}, " + ", ".join(map(str, c)))
    return "\n".join(["*HEADING", "cube under a homogeneous general 3-D stress", "*NODE", *nodes,
                      "*ELEMENT, TYPE=C3D8, ELSET=CUBE", *elements,
                      "*MATERIAL, NAME=M", "*ELASTIC", f"{E_MOD!r}, {NU!r}", "*DENSITY", "1e-9",
                      "*SOLID SECTION, ELSET=CUBE, MATERIAL=M", "",
                      "*STEP, NLGEOM=YES", "*STATIC", "1, 1", "*BOUNDARY", *bcs,
                      "*OUTPUT, FIELD", "*NODE OUTPUT", "U", "*ELEMENT OUTPUT", "S, E",
                      "*EL PRINT, ELSET=CUBE", "S, E", "*END STEP", ""])


def principal(grid, name):
    """(cells x 3) principal values of cell array name from vtkTensorPrincipalInvariants, largest first."""
    f = vtk.vtkTensorPrincipalInvariants()
    f.SetInputData(grid)
    f.GetPointDataArraySelection().DisableAllArrays()
    f.GetCellDataArraySelection().DisableAllArrays()
    f.GetCellDataArraySelection().EnableArray(name)
    f.Update()
    cd = f.GetOutput().GetCellData()
    cols = []
    for k in (1, 2, 3):
        a = cd.GetArray(f"{name} - Sigma {k}")
        if a is None:
            names = [cd.GetArrayName(i) for i in range(cd.GetNumberOfArrays())]
            raise AssertionError(f"vtkTensorPrincipalInvariants made no '{name} - Sigma {k}' (arrays: {names})")
        cols.append(vtk_to_numpy(a))
    return np.column_stack(cols)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--halfstep", required=True)
    ap.add_argument("--work", default="vtk_tensors_work")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    path = os.path.join(a.work, "cube.inp")
    with open(path, "w") as f:
        f.write(deck())
    out = os.path.join(a.work, "out")
    run = subprocess.run([a.halfstep, "run", path, "-o", out, "--quiet", "--backend", "cpu"], capture_output=True,
                         text=True, timeout=300)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print("vtk_tensors: FAILED: halfstep run failed")
        return 1
    sigma, strain = closed_form()
    exact = {"S": sigma, "E": strain}
    failures = []

    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(os.path.join(out, "cube_000001.vtu"))
    r.Update()
    grid = r.GetOutput()
    cd = grid.GetCellData()
    if grid.GetNumberOfCells() != 8:
        failures.append(f"{grid.GetNumberOfCells()} cells, expected 8")
    for name, tensor in exact.items():
        arr = cd.GetArray(name)
        if arr is None or arr.GetNumberOfComponents() != 6:
            failures.append(f"no 6-component cell array {name}")
            continue
        names = tuple(arr.GetComponentName(k) for k in range(6))
        if names != VTK_ORDER:
            failures.append(f"{name}'s component names are {names}, expected {VTK_ORDER}")
        want = np.linalg.eigvalsh(tensor)[::-1]
        scale = np.abs(want).max()
        worst_filter = np.abs(principal(grid, name) - want).max() / scale
        # numpy on the raw values, read as VTK reads a 6-component tensor.
        v = vtk_to_numpy(arr)
        worst_numpy = 0.0
        for row in v:
            m = np.empty((3, 3))
            for k, (i, j) in enumerate(VTK_INDEX):
                m[i, j] = m[j, i] = row[k]
            worst_numpy = max(worst_numpy, np.abs(np.linalg.eigvalsh(m)[::-1] - want).max() / scale)
        print(f"vtk_tensors: {name}: exact principal values {want}; vtkTensorPrincipalInvariants off by "
              f"{worst_filter:.2e}, numpy on VTK's order off by {worst_numpy:.2e} (of the largest)")
        for what, worst in (("vtkTensorPrincipalInvariants", worst_filter), ("eigvalsh in VTK's order", worst_numpy)):
            if not worst <= 1e-10:
                failures.append(f"{name}: {what}'s principal values are off the closed form by {worst:.3e} "
                                "of the largest (> 1e-10)")
    tensors = cd.GetTensors()
    if tensors is None or tensors.GetName() != "S":
        failures.append("S is not the active cell tensor")
    u = grid.GetPointData().GetArray("U")
    if u is None or tuple(u.GetComponentName(k) for k in range(3)) != ("X", "Y", "Z"):
        failures.append("U's component names are not X, Y, Z")

    # The printed table keeps Abaqus's order: element lines of S, then of E.
    with open(os.path.join(out, "cube.dat")) as f:
        text = f.read()
    for name, tensor in exact.items():
        head = "stresses" if name == "S" else "strains"
        at = text.find(f" {head} (elem,")
        if at < 0:
            failures.append(f"cube.dat has no {head} table")
            continue
        lines = [ln.split() for ln in text[at:].split("\n")[2:10]]
        want = np.array([tensor[i, j] for i, j in ABAQUS_INDEX])
        for ln in lines:
            # Integration-point rows: element, point, six components (a uniform field: every point's alike).
            got = np.array([float(x) for x in ln[2:8]]) if len(ln) == 8 else None
            if got is None or not np.all(np.abs(got - want) <= 1e-6 * np.abs(want).max()):
                failures.append(f"cube.dat {head} line {' '.join(ln)}: expected {want} (11, 22, 33, 12, 13, 23)")
                break
    # The Python package, on this frame and on the same frame in the older layout.
    legacy = os.path.join(a.work, "legacy")
    shutil.copytree(out, legacy)
    mesh = halfstep.read(out).frame(-1)
    old = meshio.Mesh(mesh.points, mesh.cells, cell_data={
        name: [np.asarray(b)[:, [0, 1, 2, 3, 5, 4]] if name in exact else b for b in blocks]
        for name, blocks in mesh.cell_data.items()})
    meshio.write(os.path.join(legacy, "cube_000001.vtu"), old, file_format="vtu")
    for folder in (out, legacy):
        frame = halfstep.read(folder).frame(-1)
        for name, tensor in exact.items():
            got = halfstep.tensor_components(frame, name)
            scale = np.abs(tensor).max()
            for (i, j) in ABAQUS_INDEX:
                key = f"{name}{i + 1}{j + 1}"
                if not np.all(np.abs(got[key] - tensor[i, j]) <= 1e-10 * scale):
                    failures.append(f"{folder}: halfstep.tensor_components {key} = {got[key][0]!r}, "
                                    f"expected {tensor[i, j]!r}")
    for f in failures:
        print("vtk_tensors: FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
