#!/usr/bin/env python3
"""Writes an isogeometric (NURBS) plane-stress cantilever under a uniform load as a static deck.

A plate L x h (length along x, height along y, unit thickness), one *NURBS PATCH of degree p
(TYPE=CPS: NCPS elements), clamped on its left side (the patch's U0 control points held in
x and y: an open knot vector makes them the side itself), a uniform pressure q on its top
side (*DSLOAD on the patch's side surface PLATE-V1), one linear static increment. The
reference is Timoshenko's beam: the tip deflects
    w = q L^4 / (8 E I) + q L^2 / (2 kappa G h),  I = h^3 / 12, kappa = 5/6, G = E / (2 (1 + nu)).
The history set TIP is the right side's control points (U1); their U2 is the end's deflection.

Usage: python3 examples/generate_iga_plate.py -o plate.inp [--nx 40] [--ny 4] [--degree 2]
       [--length 10] [--height 1] [--E 1e5] [--nu 0.3] [--load 1]
Units: any consistent system (the defaults are dimensionless).
"""
import argparse
import os


def open_knots(spans, p):
    """An open, uniform knot vector of `spans` spans for degree p."""
    return [0.0] * (p + 1) + [i / spans for i in range(1, spans)] + [1.0] * (p + 1)


def greville(knots, p, n):
    """The Greville abscissae: control points there make the geometry linear in the parameter."""
    return [sum(knots[i + 1:i + p + 1]) / p for i in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--nx", type=int, default=40, help="elements along the length")
    ap.add_argument("--ny", type=int, default=4, help="elements through the height")
    ap.add_argument("--degree", type=int, default=2, help="NURBS degree (1..4)")
    ap.add_argument("--length", type=float, default=10.0)
    ap.add_argument("--height", type=float, default=1.0)
    ap.add_argument("--E", type=float, default=1e5)
    ap.add_argument("--nu", type=float, default=0.3)
    ap.add_argument("--load", type=float, default=1.0, help="pressure on the top side (pushes down)")
    a = ap.parse_args()
    p, nx, ny, L, h = a.degree, a.nx, a.ny, a.length, a.height
    if not 1 <= p <= 4 or nx < 1 or ny < 1:
        ap.error("degree 1..4 and at least one element each way")
    g = a.E / (2 * (1 + a.nu))
    w_ref = a.load * L**4 / (8 * a.E * h**3 / 12) + a.load * L**2 / (2 * 5 / 6 * g * h)
    cu, cv = nx + p, ny + p
    ku, kv = open_knots(nx, p), open_knots(ny, p)
    gx, gy = greville(ku, p, cu), greville(kv, p, cv)
    lines = ["*HEADING",
             f"IGA plane-stress cantilever {L:g} x {h:g}, {nx} x {ny} NURBS elements of degree {p}, uniform load "
             f"{a.load:g} (examples/generate_iga_plate.py)",
             f"** Timoshenko's tip deflection q L^4 / (8 E I) + q L^2 / (2 kappa G h) = {w_ref:.9g} (downwards)",
             "** UNITS: SI",
             f"*NURBS PATCH, NAME=PLATE, TYPE=CPS, ELSET=PLATE\n{p}, {p}\n{cu}, {cv}"]
    for k in (ku, kv):
        for i in range(0, len(k), 8):
            lines.append(", ".join(f"{v:.17g}" for v in k[i:i + 8]))
    for j in range(cv):
        for i in range(cu):
            lines.append(f"{L * gx[i]:.17g}, {h * gy[j]:.17g}, 1.")
    lines += [f"*MATERIAL, NAME=M\n*ELASTIC\n{a.E:.17g}, {a.nu:.17g}",
              "*SOLID SECTION, ELSET=PLATE, MATERIAL=M\n1.",
              "*NSET, NSET=TIP\nPLATE-U1",
              "*BOUNDARY\nPLATE-U0, 1, 2",
              "*STEP\n*STATIC\n1., 1.",
              f"*DSLOAD\nPLATE-V1, P, {a.load:.17g}",
              "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU",
              "*END STEP"]
    d = os.path.dirname(a.output)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{a.output}: {cu * cv} control points, {nx * ny} elements; Timoshenko tip deflection {w_ref:.9g}")


if __name__ == "__main__":
    main()
