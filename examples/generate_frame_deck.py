#!/usr/bin/env python3
"""Generate halfstep decks of the classical large-displacement plane frames, as FPM beams
(B31 with *BEAM SECTION; docs/input.md), loaded under displacement control.

Usage:  python3 examples/generate_frame_deck.py CASE [options] -o FILE.inp

Only the Python standard library is used. Geometry and data come from the papers
(docs/validation.md, "Large-displacement frames"); every case lies in the x-y plane and
every node has U3, UR1 and UR2 held, so the frame stays plane as in the references.

Cases
-----
lee     Lee's frame (Lee, Manuel & Rossow 1968): an L of two members of length 120, a
        column from the hinge at (0, 0) up to the rigid corner (0, 120) and a beam from there
        to the hinge at (120, 120); E = 720, A = 6, I = 2 (RECT 3 x 2, the 2 in the plane),
        the load downward on the beam 24 from the corner. --elements per member (20; a
        multiple of 5 so that the load point is a node).
toggle  Williams' toggle (Williams 1964): two members rigidly joined at the apex, built in at
        both ends, span 2 x 12.943 in, rise 0.386 in, E = 10.3e6 psi, section 0.753 x 0.243 in
        (the 0.243 in the plane), aluminium density; the load downward at the apex.
        --elements per member (20).
arch    The clamped-hinged deep circular arch (DaDeppo & Schmidt 1975): radius 100, opening
        215 degrees, symmetric about the y axis, clamped at the left end and hinged at the right,
        the load downward at the crown; EI = 1e6 (E = 1.2e7, RECT 1 x 1). --elements in all (64,
        even).

Loading: the loaded node (set LOAD) is pushed down by --v-end (a per-case default beyond the
limit point) along a SMOOTH STEP over the step time --time (per-case default, many periods
of the frame's first mode, so inertia is negligible), with mass damping --alpha. Its reaction
RF2 is the applied load (history of LOAD every --time / --samples); the supports are sets
SUPPORTS. The prescribed displacement pushes the node down, so RF2 < 0 and the load is
P = -RF2.
"""
import argparse
import math
import sys

# Per case: material, section (a out of the plane, b in it), density, default loading.
CASES = {
    "lee": dict(E=720.0, nu=0.3, a=3.0, b=2.0, rho=1.0, elements=20, v_end=90.0, time=4.0e4, alpha=2e-4,
                ref_steps=180, scale=120.0),
    "toggle": dict(E=10.3e6, nu=0.3, a=0.753, b=0.243, rho=2.54e-4, elements=20, v_end=0.8, time=0.5, alpha=10.0,
                   ref_steps=160, scale=12.943),
    "arch": dict(E=1.2e7, nu=0.3, a=1.0, b=1.0, rho=1.0, elements=64, v_end=125.0, time=1.5e3, alpha=4e-3,
                 ref_steps=250, scale=100.0),
}


def geometry(case, elements=None):
    """Nodes (x, y, z), elements (0-based node pairs), supports [(node, held in-plane dofs)],
    the loaded node and the section constants of a case; shared with the static reference
    solver (validation/frame_reference.py)."""
    c = dict(CASES[case])
    n = elements or c["elements"]
    nodes, elems, supports = [], [], []
    if case == "lee":
        if n % 5:
            sys.exit("lee: --elements must be a multiple of 5 (the load point 24 from the corner is a node)")
        nodes = [(0.0, 120.0 * i / n, 0.0) for i in range(n + 1)] + [(120.0 * i / n, 120.0, 0.0) for i in range(1, n + 1)]
        supports = [(0, (1, 2)), (2 * n, (1, 2))]
        load = n + n // 5
    elif case == "toggle":
        half, rise = 12.943, 0.386
        nodes = [(2 * half * i / (2 * n), rise * (1 - abs(i - n) / n), 0.0) for i in range(2 * n + 1)]
        supports = [(0, (1, 2, 6)), (2 * n, (1, 2, 6))]
        load = n
    else:
        if n % 2:
            sys.exit("arch: --elements must be even (the crown is a node)")
        R, half = 100.0, math.radians(107.5)
        nodes = []
        for i in range(n + 1):
            th = math.pi / 2 + half - 2 * half * i / n
            nodes.append((R * math.cos(th), R * math.sin(th), 0.0))
        nodes[n // 2] = (0.0, R, 0.0)
        supports = [(0, (1, 2, 6)), (n, (1, 2))]
        load = n // 2
    elems = [(i, i + 1) for i in range(len(nodes) - 1)]
    c.update(nodes=nodes, elements=elems, supports=supports, load_node=load, A=c["a"] * c["b"],
             I=c["a"] * c["b"] ** 3 / 12, n=n)
    return c


def deck(case, a):
    g = geometry(case, a.elements or None)
    t = a.time or g["time"]
    v_end = a.v_end or g["v_end"]
    alpha = g["alpha"] if a.alpha is None else a.alpha
    d = ["*HEADING", "%s frame, FPM beams under displacement control (generate_frame_deck.py)" % case, "*NODE, NSET=ALL"]
    d += ["%d, %.17g, %.17g, %.17g" % (i + 1, *p) for i, p in enumerate(g["nodes"])]
    d.append("*ELEMENT, TYPE=B31, ELSET=FRAME")
    d += ["%d, %d, %d" % (k + 1, i + 1, j + 1) for k, (i, j) in enumerate(g["elements"])]
    d += ["*NSET, NSET=LOAD", str(g["load_node"] + 1), "*NSET, NSET=SUPPORTS",
          ", ".join(str(s + 1) for s, _ in g["supports"])]
    d += ["*MATERIAL, NAME=MAT", "*ELASTIC", "%.17g, %.17g" % (g["E"], g["nu"]), "*DENSITY", "%.17g" % g["rho"]]
    if alpha:
        d.append("*DAMPING, ALPHA=%.17g" % alpha)
    # a out of the plane (along n1 = -z, the default), b in the plane: I11 = a b^3 / 12.
    d += ["*BEAM SECTION, ELSET=FRAME, MATERIAL=MAT, SECTION=RECT", "%.17g, %.17g" % (g["a"], g["b"])]
    d += ["*AMPLITUDE, NAME=PUSH, DEFINITION=SMOOTH STEP", "0., 0., %.17g, 1." % t]
    d += ["*BOUNDARY", "ALL, 3, 5"]  # plane frame: no out-of-plane motion
    for s, dofs in g["supports"]:
        for dof in dofs:
            d.append("%d, %d, %d" % (s + 1, dof, dof))
    d += ["*STEP", "*DYNAMIC, EXPLICIT", ", %.17g" % t, "*BOUNDARY, AMPLITUDE=PUSH", "LOAD, 2, 2, %.17g" % -v_end]
    d += ["*OUTPUT, HISTORY, TIME INTERVAL=%.17g" % (t / a.samples), "*NODE OUTPUT, NSET=LOAD", "U, UR, RF",
          "*NODE OUTPUT, NSET=SUPPORTS", "RF"]
    if a.field_number > 0:
        d += ["*OUTPUT, FIELD, NUMBER INTERVAL=%d" % a.field_number, "*NODE OUTPUT", "U, UR", "*ELEMENT OUTPUT",
              "SF, SM"]
    d.append("*END STEP")
    return "\n".join(d) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--elements", type=int, default=0)
    p.add_argument("--v-end", type=float, default=0.0)
    p.add_argument("--time", type=float, default=0.0)
    p.add_argument("--alpha", type=float, default=None)
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--field-number", type=int, default=0)
    a = p.parse_args()
    if a.elements < 0 or a.samples < 1:
        sys.exit("need a non-negative element count and at least one history sample")
    with open(a.output, "w") as f:
        f.write(deck(a.case, a))


if __name__ == "__main__":
    main()
