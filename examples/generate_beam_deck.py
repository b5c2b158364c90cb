#!/usr/bin/env python3
"""Generate halfstep decks of FPM beams (B31 with *BEAM SECTION; docs/input.md).

Usage:  python3 examples/generate_beam_deck.py CASE [options] -o FILE.inp

Only the Python standard library is used.

Cases
-----
cantilever  A straight cantilever along x from the origin, --elements n (10) of length
            --length L (1); the root node (set ROOT) has all six dofs held, the tip node is set
            TIP. Section --section rect (--a, --b: width along n1 = (0, 0, -1), height along
            n2 = y) or circ (--a: the radius). Material --E, --nu, --rho, --alpha (damping),
            --yield (elastic-perfectly plastic *PLASTIC when given). Loading at the tip, each
            optional: --force-y P (dof 2), --moment-z M (dof 6), --torque T (dof 4), all applied
            with --ramp R (0: at once; else a linear ramp over R, then held), or --tip-u2 D (a
            prescribed U2 along a SMOOTH STEP over the step, rotations at the tip left free).
            --v0-y v: initial velocity v along y of every node but the root.
            History U, UR, V, RF on TIP and RF on ROOT every --history-interval (period/400);
            field output (U, UR, SF, SM, PEEQ) --field-number times (4).
"""
import argparse
import sys


def cantilever(a):
    n, L = a.elements, a.length
    d = ["*HEADING", "FPM beam cantilever (generate_beam_deck.py)", "*NODE, NSET=ALL"]
    for i in range(n + 1):
        d.append(f"{i + 1}, {L * i / n:.17g}, 0., 0.")
    d.append("*ELEMENT, TYPE=B31, ELSET=BEAM")
    for i in range(n):
        d.append(f"{i + 1}, {i + 1}, {i + 2}")
    d += ["*NSET, NSET=ROOT", "1", "*NSET, NSET=TIP", str(n + 1), "*NSET, NSET=FREE, GENERATE", f"2, {n + 1}, 1"]
    d += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{a.E:.17g}, {a.nu:.17g}", "*DENSITY", f"{a.rho:.17g}"]
    if a.alpha:
        d.append(f"*DAMPING, ALPHA={a.alpha:.17g}")
    if a.yield_stress:
        d += ["*PLASTIC", f"{a.yield_stress:.17g}, 0."]
    if a.section == "rect":
        d += ["*BEAM SECTION, ELSET=BEAM, MATERIAL=STEEL, SECTION=RECT", f"{a.a:.17g}, {a.b:.17g}"]
    else:
        d += ["*BEAM SECTION, ELSET=BEAM, MATERIAL=STEEL, SECTION=CIRC", f"{a.a:.17g}"]
    if a.ramp > 0:
        d += ["*AMPLITUDE, NAME=RAMP", f"0., 0., {a.ramp:.17g}, 1., {max(a.period, a.ramp) * 2:.17g}, 1."]
    if a.tip_u2:
        d += ["*AMPLITUDE, NAME=SMOOTH, DEFINITION=SMOOTH STEP", f"0., 0., {a.period:.17g}, 1."]
    if a.v0_y:
        d += ["*INITIAL CONDITIONS, TYPE=VELOCITY", f"FREE, 2, {a.v0_y:.17g}"]
    d += ["*BOUNDARY", "ROOT, 1, 6", "*STEP", "*DYNAMIC, EXPLICIT", f", {a.period:.17g}"]
    if a.tip_u2:
        d += ["*BOUNDARY, AMPLITUDE=SMOOTH", f"TIP, 2, 2, {a.tip_u2:.17g}"]
    loads = [(2, a.force_y), (4, a.torque), (6, a.moment_z)]
    if any(v for _, v in loads):
        d.append("*CLOAD" + (", AMPLITUDE=RAMP" if a.ramp > 0 else ""))
        for dof, v in loads:
            if v:
                d.append(f"TIP, {dof}, {v:.17g}")
    hi = a.history_interval or a.period / 400
    d += [f"*OUTPUT, HISTORY, TIME INTERVAL={hi:.17g}", "*NODE OUTPUT, NSET=TIP", "U, UR, V, RF",
          "*NODE OUTPUT, NSET=ROOT", "RF"]
    if a.field_number > 0:
        d += [f"*OUTPUT, FIELD, NUMBER INTERVAL={a.field_number}", "*NODE OUTPUT", "U, UR", "*ELEMENT OUTPUT",
              "SF, SM" + (", PEEQ" if a.yield_stress else "")]
    d.append("*END STEP")
    return "\n".join(d) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=["cantilever"])
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--elements", type=int, default=10)
    p.add_argument("--length", type=float, default=1.0)
    p.add_argument("--section", choices=["rect", "circ"], default="rect")
    p.add_argument("--a", type=float, default=0.1)
    p.add_argument("--b", type=float, default=0.1)
    p.add_argument("--E", type=float, default=1000.0)
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--rho", type=float, default=1.0)
    p.add_argument("--alpha", type=float, default=0.0)
    p.add_argument("--yield", dest="yield_stress", type=float, default=0.0)
    p.add_argument("--force-y", type=float, default=0.0)
    p.add_argument("--moment-z", type=float, default=0.0)
    p.add_argument("--torque", type=float, default=0.0)
    p.add_argument("--tip-u2", type=float, default=0.0)
    p.add_argument("--v0-y", type=float, default=0.0)
    p.add_argument("--ramp", type=float, default=0.0)
    p.add_argument("--period", type=float, default=10.0)
    p.add_argument("--history-interval", type=float, default=0.0)
    p.add_argument("--field-number", type=int, default=4)
    a = p.parse_args()
    if a.elements < 1 or a.length <= 0:
        sys.exit("need at least one element and a positive length")
    with open(a.output, "w") as f:
        f.write(cantilever(a))


if __name__ == "__main__":
    main()
