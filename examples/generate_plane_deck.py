#!/usr/bin/env python3
"""Writes a planar cantilever deck (CPS4/CPS4R plane stress or CPE4/CPE4R plane strain) for halfstep.

The beam spans 0 <= x <= L, -h/2 <= y <= h/2 on nx x ny square-ish cells, clamped at x = 0
(dofs 1-2) and loaded at x = L by a total transverse force P distributed as the parabolic
shear of beam theory (consistent nodal forces), ramped with a smooth step over --ramp and
then held; mass-proportional damping --alpha lets it settle to the static deflection.
With --static the step is a *STATIC one instead (one increment, NLGEOM=NO unless --nlgeom
with --increments increments): seed 004's linear benchmark on its meshes 1-4
(--nx 3000 --ny 300 ... --nx 6000 --ny 600).
History: node set TIP (the mid-depth node at x = L) and the clamped set's reaction.

Usage: generate_plane_deck.py [--element CPS4|CPE4|CPS4R|CPE4R] [--L 10] [--h 1] [--nx 80] [--ny 8]
           [--E 210e9] [--nu 0.3] [--rho 7850] [--P 1e5] [--t 1] [--alpha 100]
           [--ramp 0.1] [--time 0.3] [--static [--nlgeom] [--increments N]] -o deck.inp
"""
import argparse
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--element", default="CPS4", choices=["CPS4", "CPE4", "CPS4R", "CPE4R"])
    ap.add_argument("--L", type=float, default=10.0)
    ap.add_argument("--h", type=float, default=1.0)
    ap.add_argument("--nx", type=int, default=80)
    ap.add_argument("--ny", type=int, default=8, help="cells through the depth (even)")
    ap.add_argument("--E", type=float, default=210e9)
    ap.add_argument("--nu", type=float, default=0.3)
    ap.add_argument("--rho", type=float, default=7850.0)
    ap.add_argument("--P", type=float, default=1e5, help="total tip force (+y)")
    ap.add_argument("--t", type=float, default=1.0, help="thickness")
    ap.add_argument("--alpha", type=float, default=100.0, help="mass-proportional damping")
    ap.add_argument("--ramp", type=float, default=0.1, help="load ramp time (smooth step)")
    ap.add_argument("--time", type=float, default=0.3, help="step time")
    ap.add_argument("--static", action="store_true", help="a *STATIC step (no mass, damping or field stresses)")
    ap.add_argument("--nlgeom", action="store_true", help="with --static: NLGEOM=YES")
    ap.add_argument("--increments", type=int, default=1, help="with --static: fixed increments")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.ny % 2:
        ap.error("--ny must be even (the tip node sits at mid-depth)")
    nx, ny = a.nx, a.ny

    def nid(i, j):
        return 1 + i + (nx + 1) * j

    out = ["*HEADING", f"planar cantilever {a.element} L={a.L} h={a.h} {nx}x{ny}", "*NODE"]
    for j in range(ny + 1):
        for i in range(nx + 1):
            out.append(f"{nid(i, j)}, {a.L * i / nx:.12g}, {-a.h / 2 + a.h * j / ny:.12g}, 0")
    out.append(f"*ELEMENT, TYPE={a.element}, ELSET=BEAM")
    e = 1
    for j in range(ny):
        for i in range(nx):
            out.append(f"{e}, {nid(i, j)}, {nid(i + 1, j)}, {nid(i + 1, j + 1)}, {nid(i, j + 1)}")
            e += 1
    out.append("*NSET, NSET=CLAMP")
    out += [f"{nid(0, j)}," for j in range(ny + 1)]
    out += ["*NSET, NSET=TIP", f"{nid(nx, ny // 2)},"]
    out += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{a.E:.12g}, {a.nu:.12g}", "*DENSITY", f"{a.rho:.12g}",
            f"*DAMPING, ALPHA={a.alpha:.12g}", "*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL", f"{a.t:.12g}",
            "*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP", f"0, 0, {a.ramp:.12g}, 1"]
    # Consistent nodal forces of the parabolic shear traction on the tip edge: per cell, the
    # quadratic traction times the linear shape function is cubic, which 2-point Gauss
    # integrates exactly; the forces sum to P.
    force = [0.0] * (ny + 1)
    dy = a.h / ny
    g = 1 / math.sqrt(3)
    for j in range(ny):
        y0 = -a.h / 2 + j * dy
        for xi in (-g, g):
            y = y0 + (xi + 1) / 2 * dy
            tau = 1.5 * a.P / a.h * (1 - 4 * y * y / (a.h * a.h))  # per unit depth of the edge
            force[j] += tau * (1 - xi) / 2 * dy / 2
            force[j + 1] += tau * (1 + xi) / 2 * dy / 2
    if a.static:
        inc = 1.0 / a.increments
        out += [f"*STEP, NAME=LOAD, NLGEOM={'YES' if a.nlgeom else 'NO'}, INC={a.increments + 1000}",
                "*STATIC, DIRECT" if a.increments > 1 else "*STATIC", f"{inc:.12g}, 1",
                "*BOUNDARY", "CLAMP, 1, 2", "*CLOAD"]
        out += [f"{nid(nx, j)}, 2, {force[j]:.12g}" for j in range(ny + 1) if force[j] != 0.0]
        out += ["*OUTPUT, FIELD", "*NODE OUTPUT", "U, RF", "*OUTPUT, HISTORY", "*NODE OUTPUT, NSET=TIP", "U",
                "*NODE OUTPUT, NSET=CLAMP", "RF", "*END STEP"]
        with open(a.output, "w") as f:
            f.write("\n".join(out) + "\n")
        return
    out += ["*STEP, NAME=LOAD", "*DYNAMIC, EXPLICIT", f", {a.time:.12g}",
            "*BOUNDARY", "CLAMP, 1, 2", "*CLOAD, AMPLITUDE=RAMP"]
    out += [f"{nid(nx, j)}, 2, {force[j]:.12g}" for j in range(ny + 1) if force[j] != 0.0]
    out += ["*OUTPUT, FIELD, NUMBER INTERVAL=4", "*NODE OUTPUT", "U", "*ELEMENT OUTPUT", "S",
            f"*OUTPUT, HISTORY, TIME INTERVAL={a.time / 100:.12g}", "*NODE OUTPUT, NSET=TIP", "U",
            "*NODE OUTPUT, NSET=CLAMP", "RF", "*END STEP"]
    with open(a.output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
