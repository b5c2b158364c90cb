#!/usr/bin/env python3
"""Generate halfstep decks of yielding shell strips (S4R MITC4, or with --triangles S3 FPM
triangles, with *PLASTIC; docs/input.md).

Usage:  python3 examples/generate_plastic_strip.py CASE [options] -o FILE.inp

Only the Python standard library is used. Units: mm, N, s, MPa, t/mm^3 (steel by default:
--E 200e3, --nu 0.3, --rho 7.85e-9, --yield 250, --hardening H: *PLASTIC 250, 0 and, when
H > 0, 250 + H at plastic strain 1; --points: section points through the thickness;
--triangles: each quad (a, b, c, d) split into the S3 (a, b, c), (a, c, d) with *SHELL
SECTION, FORMULATION=FPM, element k of the quad mesh becoming 2k - 1 and 2k).

Cases
-----
tension  A flat strip --length L (10) x --width b (2) x --thickness t (0.5), --nx x --ny
         elements (5 x 2), in the xy plane from the origin. Every node's U1 follows x times
         --strain d along a SMOOTH STEP over the step (--time, 2e-4); U3 and the rotations are
         held, U2 is free but on y = 0: the strip contracts freely across its width (uniaxial
         stress). Sets END (x = L) and ALL; history RF1 on END; field output at the end.
bending  The same strip (defaults L 20, b 2, t 1, 10 x 1 elements) under end moments: x = 0 is
         a symmetry plane (XSYMM) whose nodes also hold U3 (no roll about x; the node at the
         origin holds U2 too), and the nodes at
         x = L carry moments about y of --moment m per unit width in total (m b / 2 each),
         ramped linearly over --time (0.02) with mass damping --alpha (8000), then held for
         --hold (0) more, so that the damped motion settles on the static curvature. Sets
         TIP (x = L) and ROOT; history UR on TIP and RF on ROOT; field output every quarter
         of --time.

--static makes either case a *STATIC, NLGEOM=YES step of time 1 in --increments equal
increments (20) instead (the load or the driven U1 ramped over it; no damping, no hold);
--linear the same static step geometrically linear (no NLGEOM: the small-strain theory).
"""
import argparse
import sys


def mesh(a):
    nx, ny = a.nx, a.ny
    d = ["*NODE, NSET=ALL"]
    nid = lambda i, j: j * (nx + 1) + i + 1
    for j in range(ny + 1):
        for i in range(nx + 1):
            d.append(f"{nid(i, j)}, {a.length * i / nx:.17g}, {a.width * j / ny:.17g}, 0.")
    d.append(f"*ELEMENT, TYPE={'S3' if a.triangles else 'S4R'}, ELSET=STRIP")
    e = 1
    for j in range(ny):
        for i in range(nx):
            q = (nid(i, j), nid(i + 1, j), nid(i + 1, j + 1), nid(i, j + 1))
            if a.triangles:
                d.append(f"{2 * e - 1}, {q[0]}, {q[1]}, {q[2]}")
                d.append(f"{2 * e}, {q[0]}, {q[2]}, {q[3]}")
            else:
                d.append(f"{e}, {q[0]}, {q[1]}, {q[2]}, {q[3]}")
            e += 1
    d += ["*NSET, NSET=END"] + [str(nid(nx, j)) for j in range(ny + 1)]
    d += ["*NSET, NSET=ROOT"] + [str(nid(0, j)) for j in range(ny + 1)]
    d += ["*NSET, NSET=EDGE0"] + [str(nid(i, 0)) for i in range(nx + 1)]
    d += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{a.E:.17g}, {a.nu:.17g}", "*DENSITY", f"{a.rho:.17g}"]
    if a.alpha:
        d.append(f"*DAMPING, ALPHA={a.alpha:.17g}")
    d += ["*PLASTIC", f"{a.yield_stress:.17g}, 0."]
    if a.hardening > 0:
        d.append(f"{a.yield_stress + a.hardening:.17g}, 1.")
    fpm = ", FORMULATION=FPM" if a.triangles else ""
    d += [f"*SHELL SECTION, ELSET=STRIP, MATERIAL=STEEL{fpm}", f"{a.thickness:.17g}, {a.points}"]
    return d, nid


def kind(a):
    return "FPM triangle" if a.triangles else "MITC4"


def static_step(a):
    """The lines opening a static step of time 1 in a.increments increments."""
    return ["*STEP, INC=1000" if a.linear else "*STEP, NLGEOM=YES, INC=1000", "*STATIC", f"{1 / a.increments:.12g}, 1., 1e-6, {1 / a.increments:.12g}"]


def tension(a):
    d, nid = mesh(a)
    d = ["*HEADING", f"Plastic {kind(a)} strip in uniaxial tension (generate_plastic_strip.py)"] + d
    if not a.static:
        d += ["*AMPLITUDE, NAME=SMOOTH, DEFINITION=SMOOTH STEP", f"0., 0., {a.time:.17g}, 1."]
    d += ["*BOUNDARY", "ALL, 3, 6", "EDGE0, 2, 2"]
    if a.static:
        d += static_step(a) + ["*BOUNDARY"]
    else:
        d += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time:.17g}", "*BOUNDARY, AMPLITUDE=SMOOTH"]
    for j in range(a.ny + 1):
        for i in range(a.nx + 1):
            d.append(f"{nid(i, j)}, 1, 1, {a.strain * a.length * i / a.nx:.17g}")
    d += [f"*OUTPUT, HISTORY, TIME INTERVAL={(1 if a.static else a.time) / 100:.17g}", "*NODE OUTPUT, NSET=END", "U, RF",
          "*OUTPUT, FIELD, NUMBER INTERVAL=1", "*NODE OUTPUT", "U", "*ELEMENT OUTPUT", "S, SF, PEEQ", "*END STEP"]
    return d


def bending(a):
    d, nid = mesh(a)
    d = ["*HEADING", f"Plastic {kind(a)} strip in pure bending (generate_plastic_strip.py)"] + d
    hold = f", {a.time + a.hold:.17g}, 1." if a.hold > 0 else ""
    if not a.static:
        d += ["*AMPLITUDE, NAME=RAMP", f"0., 0., {a.time:.17g}, 1.{hold}"]
    d += ["*BOUNDARY", "ROOT, XSYMM", "ROOT, 3, 3", f"{nid(0, 0)}, 2, 2"]
    if a.static:
        d += static_step(a) + ["*CLOAD"]
    else:
        d += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time + a.hold:.17g}", "*CLOAD, AMPLITUDE=RAMP"]
    for j in range(a.ny + 1):
        share = 0.5 if j in (0, a.ny) else 1.0
        d.append(f"{nid(a.nx, j)}, 5, {a.moment * a.width / a.ny * share:.17g}")
    span = 1 if a.static else a.time
    d += [f"*OUTPUT, HISTORY, TIME INTERVAL={span / 200:.17g}", "*NODE OUTPUT, NSET=END", "U, UR",
          "*NODE OUTPUT, NSET=ROOT", "RF", f"*OUTPUT, FIELD, TIME INTERVAL={span / 4:.17g}", "*NODE OUTPUT", "U, UR",
          "*ELEMENT OUTPUT", "S, SF, SM, PEEQ", "*END STEP"]
    return d


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=["tension", "bending"])
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--length", type=float)
    p.add_argument("--width", type=float, default=2.0)
    p.add_argument("--thickness", type=float)
    p.add_argument("--nx", type=int)
    p.add_argument("--ny", type=int)
    p.add_argument("--points", type=int, default=5)
    p.add_argument("--E", type=float, default=200e3)
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--rho", type=float, default=7.85e-9)
    p.add_argument("--alpha", type=float)
    p.add_argument("--yield", dest="yield_stress", type=float, default=250.0)
    p.add_argument("--hardening", type=float, default=0.0)
    p.add_argument("--strain", type=float, default=0.01)
    p.add_argument("--moment", type=float, default=0.0)
    p.add_argument("--time", type=float)
    p.add_argument("--hold", type=float, default=0.0, help="bending: time the full moment is held after the ramp")
    p.add_argument("--triangles", action="store_true", help="S3 FPM triangles, two per quad")
    p.add_argument("--static", action="store_true", help="a *STATIC, NLGEOM=YES step instead of an explicit one")
    p.add_argument("--linear", action="store_true", help="a geometrically linear *STATIC step (implies --static)")
    p.add_argument("--increments", type=int, default=20, help="--static: increments of the step")
    a = p.parse_args()
    a.static = a.static or a.linear
    tens = a.case == "tension"
    defaults = dict(length=10.0 if tens else 20.0, thickness=0.5 if tens else 1.0, nx=5 if tens else 10,
                    ny=2 if tens else 1, time=2e-4 if tens else 0.02, alpha=0.0 if tens or a.static else 8000.0)
    for k, v in defaults.items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    lines = tension(a) if tens else bending(a)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
