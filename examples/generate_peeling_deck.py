#!/usr/bin/env python3
"""Writes seed 004's strip-peeling deck (issue 14): a Neo-Hookean strip, 200 x 10 nm in plane
strain, adhering over 75 % of its bottom to a rigid flat substrate by the van der Waals law of
Sauer and Li (2007) (*ADHESION, LAW=LENNARD-JONES, A_H = 1e-19 J, r0 = 0.4 nm), peeled by a
rotation of its right end (a kinematic *COUPLING to a reference node whose rotation is
prescribed and whose translations are free, so that the end carries a pure moment), in steps
of 0.1 degree.

Units: nm, nN, GPa (= nN/nm^2); energies in nN nm = 1e-18 J, so A_H = 0.1.
The strip's bottom starts at the law's rest gap 15^(-1/6) r0 above the substrate y = 0.

  generate_peeling_deck.py --mesh 1 -o peel1.inp          # seed mesh 1 (240 x 12), NURBS degree 2
  generate_peeling_deck.py --mesh 6 --angle 90 -o peel6.inp
  generate_peeling_deck.py --elements 40 2 --lagrange -o p.inp   # CPE4 instead of NURBS
"""
import argparse
import math
import os
import sys

# The seed's six meshes (elements along x, along y).
SEED_MESHES = {1: (240, 12), 2: (320, 16), 3: (400, 20), 4: (480, 24), 5: (640, 32), 6: (720, 36)}

LENGTH, HEIGHT = 200.0, 10.0
YOUNGS, POISSON = 1.0, 0.2           # GPa
HAMAKER, R0 = 0.1, 0.4               # nN nm (1e-19 J), nm
REST_GAP = R0 * 15.0 ** (-1.0 / 6.0)  # zero traction
GLUED = 0.75                          # adhesive fraction of the bottom, from x = 0


def open_knots(spans, p):
    return [0.0] * (p + 1) + [i / spans for i in range(1, spans)] + [1.0] * (p + 1)


def greville(knots, p, n):
    return [sum(knots[i + 1:i + p + 1]) / p for i in range(n)]


def write(args, out):
    nx, ny = args.elements if args.elements else SEED_MESHES[args.mesh]
    if nx % 4:
        sys.exit("elements along x must be a multiple of 4 (the glued 75 % ends on an element edge)")
    p = args.degree
    mu = YOUNGS / (2 * (1 + POISSON))
    bulk = YOUNGS / (3 * (1 - 2 * POISSON))
    c10, d1 = mu / 2, 2 / bulk
    w = out.write
    w("*HEADING\n")
    w(f"Strip peeling (seed 004): {nx} x {ny} {'CPE4' if args.lagrange else f'NURBS degree {p}'} elements, "
      f"end rotation to {args.angle} deg\n")
    y0 = REST_GAP
    if args.lagrange:
        w("*NODE\n")
        for j in range(ny + 1):
            for i in range(nx + 1):
                w(f"{1 + i + (nx + 1) * j}, {LENGTH * i / nx:.17g}, {y0 + HEIGHT * j / ny:.17g}\n")
        w("*ELEMENT, TYPE=CPE4, ELSET=STRIP\n")
        for j in range(ny):
            for i in range(nx):
                a = 1 + i + (nx + 1) * j
                w(f"{1 + i + nx * j}, {a}, {a + 1}, {a + nx + 2}, {a + nx + 1}\n")
        w("*NSET, NSET=ENDNODES, GENERATE\n")
        w(f"{nx + 1}, {(nx + 1) * (ny + 1)}, {nx + 1}\n")
        end_set, corner = "ENDNODES", 1
    else:
        cu, cv = nx + p, ny + p
        ku, kv = open_knots(nx, p), open_knots(ny, p)
        gx, gy = greville(ku, p, cu), greville(kv, p, cv)
        w(f"*NURBS PATCH, NAME=STRIP, TYPE=CPE, ELSET=STRIP\n{p}, {p}\n{cu}, {cv}\n")
        for k in (ku, kv):
            for i in range(0, len(k), 8):
                w(", ".join(f"{v:.17g}" for v in k[i:i + 8]) + "\n")
        for j in range(cv):
            for i in range(cu):
                w(f"{LENGTH * gx[i]:.17g}, {y0 + HEIGHT * gy[j]:.17g}, 1.\n")
        end_set, corner = "STRIP-U1", 1
    glued = int(nx * GLUED)
    w(f"*ELSET, ELSET=GLUED, GENERATE\n1, {glued}, 1\n")
    w("*SURFACE, NAME=BOTTOM, TYPE=ELEMENT\nGLUED, S1\n")
    w("*ADHESION, NAME=VDW, SURFACE=BOTTOM, LAW=LENNARD-JONES\n")
    w(f"{HAMAKER}, {R0}\n0., 0., 0., 1.\n")
    w(f"*MATERIAL, NAME=NEOHOOKE\n*HYPERELASTIC, NEO HOOKE, FORM={args.form}\n{c10:.17g}, {d1:.17g}\n")
    w("*SOLID SECTION, ELSET=STRIP, MATERIAL=NEOHOOKE\n1.\n")
    rp = 9999999
    w(f"*NODE, NSET=RP\n{rp}, {LENGTH}, {y0 + HEIGHT / 2}\n")
    w(f"*SURFACE, NAME=END, TYPE=NODE\n{end_set}\n")
    w(f"*COUPLING, CONSTRAINT NAME=END, REF NODE={rp}, SURFACE=END\n*KINEMATIC\n")
    w(f"*NSET, NSET=CORNER\n{corner}\n")
    steps = round(args.angle / args.increment)
    stab = f", STABILIZE={args.stabilize:g}" if args.stabilize > 0 else ""
    if args.factor > 0:
        stab = f", STABILIZE, FACTOR={args.factor:g}"
    w(f"*STEP, NLGEOM=YES, INC={10 * steps + 100}\n*STATIC{stab}\n")
    w(f"{args.increment}, {args.angle}, {args.increment * 1e-4}, {args.increment}\n")
    w("*BOUNDARY\nCORNER, 1, 1\n")
    w(f"RP, 6, 6, {math.radians(args.angle):.17g}\n")
    w("*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=RP\nU, RF\n")
    if args.frames:
        w(f"*OUTPUT, FIELD, NUMBER INTERVAL={args.frames}\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS\n")
    w("*END STEP\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--mesh", type=int, choices=sorted(SEED_MESHES), default=1, help="seed mesh 1..6")
    g.add_argument("--elements", type=int, nargs=2, metavar=("NX", "NY"), help="elements along x and y")
    ap.add_argument("--degree", type=int, default=2, help="NURBS degree (1..4)")
    ap.add_argument("--lagrange", action="store_true", help="CPE4 elements instead of a NURBS patch")
    ap.add_argument("--angle", type=float, default=90.0, help="end rotation at the end of the step, degrees")
    ap.add_argument("--increment", type=float, default=0.1, help="rotation increment, degrees")
    ap.add_argument("--frames", type=int, default=0, help="field frames over the step (0: none)")
    ap.add_argument("--form", default="LOG", help="Neo-Hookean form: LOG (seed 004's Eq. 6, default) or ABAQUS")
    ap.add_argument("--stabilize", type=float, default=0.0,
                    help="*STATIC, STABILIZE=fraction (viscous stabilization of the peel front's snaps; 0: none)")
    ap.add_argument("--factor", type=float, default=0.0,
                    help="*STATIC, STABILIZE, FACTOR=c: the damping factor itself (the same for every increment "
                         "size and mesh, unlike a fraction, which is judged on the first increment)")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if args.output == "-":
        write(args, sys.stdout)
    else:
        if os.path.dirname(args.output):  # the README's commands write into out/
            os.makedirs(os.path.dirname(args.output), exist_ok=True)
        with open(args.output, "w") as f:
            write(args, f)


if __name__ == "__main__":
    main()
