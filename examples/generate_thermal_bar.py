#!/usr/bin/env python3
"""Writes a steel bar heated between two walls, then released at one end, as a static deck.

A bar L x b x b (mm; C3D8 bricks, n along the length, m across) with *EXPANSION alpha starts
at 20 C (*INITIAL CONDITIONS, TYPE=TEMPERATURE). Step HEAT (linear static) holds both end faces
in x and heats the bar to 20 + dtheta C (*TEMPERATURE): the bar cannot grow, so it carries the
uniaxial stress
    S11 = -E alpha dtheta
and each wall pushes on it with E alpha dtheta b^2. Step RELEASE keeps the temperature and
frees the end at x = L (*BOUNDARY, OP=NEW): the bar grows by
    u = alpha dtheta L
with no stress left. Sideways the bar is free throughout (one corner node holds the rigid
motions). The history set END is the end face's nodes (U1, RF1).

Usage: python3 examples/generate_thermal_bar.py -o bar.inp [--n 40] [--m 2] [--length 1000]
       [--width 20] [--E 210000] [--alpha 1.2e-5] [--dtheta 50]
Units: mm, N, MPa, tonne/mm^3, C.
"""
import argparse
import os


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--n", type=int, default=40, help="elements along the length")
    ap.add_argument("--m", type=int, default=2, help="elements across the width and height")
    ap.add_argument("--length", type=float, default=1000.0)
    ap.add_argument("--width", type=float, default=20.0)
    ap.add_argument("--E", type=float, default=210000.0)
    ap.add_argument("--alpha", type=float, default=1.2e-5)
    ap.add_argument("--dtheta", type=float, default=50.0)
    a = ap.parse_args()
    n, m, L, b = a.n, a.m, a.length, a.width
    if n < 1 or m < 1 or not (L > 0 and b > 0):
        ap.error("at least one element each way and a positive size")
    stress, growth = -a.E * a.alpha * a.dtheta, a.alpha * a.dtheta * L

    def node(i, j, k):
        return 1 + i + (n + 1) * (j + (m + 1) * k)

    lines = ["*HEADING",
             f"steel bar {L:g} x {b:g} x {b:g} mm heated by {a.dtheta:g} C between walls, then released "
             "(examples/generate_thermal_bar.py)",
             f"** held: S11 = -E alpha dtheta = {stress:.9g} MPa; released: end U1 = alpha dtheta L = {growth:.9g} mm",
             "** UNITS: mm, N, MPa, tonne/mm^3, C",
             "*NODE"]
    for k in range(m + 1):
        for j in range(m + 1):
            for i in range(n + 1):
                lines.append(f"{node(i, j, k)}, {L * i / n:.17g}, {b * j / m:.17g}, {b * k / m:.17g}")
    lines.append("*ELEMENT, TYPE=C3D8, ELSET=BAR")
    e = 1
    for k in range(m):
        for j in range(m):
            for i in range(n):
                c = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)]
                lines.append(f"{e}, " + ", ".join(map(str, c)))
                e += 1
    for name, i in (("START", 0), ("END", n)):
        lines.append(f"*NSET, NSET={name}")
        ids = [node(i, j, k) for k in range(m + 1) for j in range(m + 1)]
        for s in range(0, len(ids), 16):
            lines.append(", ".join(map(str, ids[s:s + 16])))
    lines.append(f"*NSET, NSET=ALL, GENERATE\n1, {node(n, m, m)}, 1")
    rigid = f"START, 1, 1\n{node(0, 0, 0)}, 2, 3\n{node(0, m, 0)}, 3, 3"
    lines += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{a.E:.17g}, 0.3", "*DENSITY", "7.85e-9",
              "*EXPANSION", f"{a.alpha:.17g}", "*SOLID SECTION, ELSET=BAR, MATERIAL=STEEL",
              "*INITIAL CONDITIONS, TYPE=TEMPERATURE", "ALL, 20.",
              "*STEP, NAME=HEAT", "*STATIC", "1., 1.", "*BOUNDARY", rigid, "END, 1, 1",
              "*TEMPERATURE", f"ALL, {20 + a.dtheta:.17g}",
              "*OUTPUT, FIELD", "*NODE OUTPUT", "U, RF", "*ELEMENT OUTPUT", "S, E",
              "*OUTPUT, HISTORY", "*NODE OUTPUT, NSET=END", "U, RF", "*END STEP",
              "*STEP, NAME=RELEASE", "*STATIC", "1., 1.", "*BOUNDARY, OP=NEW", rigid, "*END STEP"]
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
