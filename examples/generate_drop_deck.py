#!/usr/bin/env python3
"""Writes the drop-test example: an elastic block of C3D8R falling under *DLOAD GRAV onto a rigid
analytical floor (general contact), then bouncing off it.

Closed forms for the fall (docs/examples.md): every node moves -g t^2 / 2 until the block meets
the floor at t_c = sqrt(2 h / g) with speed sqrt(2 g h).

Usage: python3 examples/generate_drop_deck.py [--n 4] [--size 0.1] [--height 0.05] [--time 0.2] -o FILE.inp
"""
import argparse
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=4, help="elements along each edge of the block")
    ap.add_argument("--size", type=float, default=0.1, help="edge of the block (m)")
    ap.add_argument("--height", type=float, default=0.05, help="gap between the block and the floor at the start (m)")
    ap.add_argument("--time", type=float, default=0.2, help="step period (s)")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    if a.n < 1 or a.size <= 0 or a.height <= 0 or a.time <= 0:
        sys.exit("generate_drop_deck.py: --n, --size, --height and --time must be positive")
    n, s, h = a.n, a.size, a.height
    node = lambda i, j, k: 1 + i + (n + 1) * (j + (n + 1) * k)
    out = ["*HEADING", "Elastic block dropped on a rigid floor under gravity (generate_drop_deck.py)",
           "** units: m, kg, s, N, Pa", "*NODE, NSET=BLOCKN"]
    for k in range(n + 1):
        for j in range(n + 1):
            for i in range(n + 1):
                out.append(f"{node(i, j, k)}, {s * i / n:.10g}, {s * j / n:.10g}, {h + s * k / n:.10g}")
    ref = node(n, n, n) + 1
    out.append(f"*NODE, NSET=FLOORREF\n{ref}, 0., 0., 0.")
    out.append("*ELEMENT, TYPE=C3D8R, ELSET=BLOCK")
    e = 1
    bottom = []
    for k in range(n):
        for j in range(n):
            for i in range(n):
                c = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)]
                out.append(f"{e}, " + ", ".join(map(str, c)))
                if k == 0:
                    bottom.append(e)
                e += 1
    out.append("*ELSET, ELSET=BOTTOM")
    out += [", ".join(map(str, bottom[i:i + 16])) for i in range(0, len(bottom), 16)]
    m = n // 2
    out.append(f"*NSET, NSET=TOPMID\n{node(m, m, n)}")
    out.append(f"*NSET, NSET=BOTTOMMID\n{node(m, m, 0)}")
    out += ["*SURFACE, NAME=UNDERSIDE", "BOTTOM, S1",
            "*SURFACE, NAME=FLOOR, TYPE=REVOLUTION", "0., 0., 0., 0., 0., 1.", "START, 0., 0.",
            f"LINE, {10 * s:.10g}, 0.",
            f"*RIGID BODY, ANALYTICAL SURFACE=FLOOR, REF NODE={ref}",
            "*MATERIAL, NAME=RUBBERY", "*ELASTIC", "1e7, 0.3", "*DENSITY", "1000.",
            "*SOLID SECTION, ELSET=BLOCK, MATERIAL=RUBBERY",
            "*SURFACE INTERACTION, NAME=SMOOTH",
            "*CONTACT PAIR, INTERACTION=SMOOTH", "UNDERSIDE, FLOOR",
            "*STEP, NAME=DROP", "*DYNAMIC, EXPLICIT", f", {a.time:.10g}",
            "*BOUNDARY", "FLOORREF, 1, 6",
            "*DLOAD", ", GRAV, 9.81, 0., 0., -1.",
            f"*OUTPUT, FIELD, TIME INTERVAL={a.time / 20:.10g}", "*NODE OUTPUT", "U, V", "*ELEMENT OUTPUT", "S",
            f"*OUTPUT, HISTORY, TIME INTERVAL={a.time / 400:.10g}", "*NODE OUTPUT, NSET=TOPMID", "U, V",
            "*NODE OUTPUT, NSET=BOTTOMMID", "U, V", "*NODE OUTPUT, NSET=FLOORREF", "RF",
            "*END STEP",
            "** python3 examples/generate_drop_deck.py " + " ".join(sys.argv[1:])]
    if os.path.dirname(a.output):
        os.makedirs(os.path.dirname(a.output), exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
