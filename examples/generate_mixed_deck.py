#!/usr/bin/env python3
"""Generate halfstep decks of a flat strip that mixes element families on shared nodes.

The strip lies in the XY plane (x in [0, L] along the length, y in [0, W] across), nx x ny
quadrilaterals, normals +Z. Quads whose centre lies beyond --tri-from are split into two FPM
triangles (S3, FORMULATION=FPM), the rest are MITC4 shells (S4R): the two families share the
nodes of the seam. --stiffener adds B31 beams (square section) along the centre line
y = W/2 on the strip's own nodes; --far-beam adds an unconnected, clamped beam far from the
strip (the model then has 6-dof nodes although nothing touches the shells).

Loads and motions (any combination):
  --clamp              ROOT (x = 0) held in all 6 dofs
  --tip-load P         total force P along +Z on the free end x = L, consistent split over
                       its nodes (end nodes half a share), ramped over --ramp then held
  --tip-twist M        a torque M about x on the free end: forces -+M/W along Z at its two
                       corners, ramped with the tip load
  --pressure P         follower pressure P on every shell and triangle, positive against
                       the +Z normals (the deck's *DLOAD P is -P: Abaqus's shell P acts
                       along the normal), ramped with the tip load
  --kick V             initial velocity w(x) = V (x / L)^2 along Z on every node
  --spin OMEGA         rigid spin: *INITIAL CONDITIONS, TYPE=ROTATING VELOCITY about the
                       axis through the strip's centre along (1, 2, 3), no supports
Histories: TIP (the end nodes x = L) U, V, RF every --history-interval; energy in
summary.json.

Example: python3 examples/generate_mixed_deck.py --nx 16 --ny 2 --tri-from 5 --clamp
         --tip-load 4e-4 --ramp 11 --time 25 --alpha 1.56 -o strip.inp
"""
import argparse
import sys


def build(a):
    nx, ny, L, W = a.nx, a.ny, a.length, a.width
    if a.stiffener and ny % 2:
        sys.exit("--stiffener needs an even --ny (a node row on the centre line)")

    def nid(i, j):
        return 1 + i + (nx + 1) * j

    nodes = [(nid(i, j), L * i / nx, W * j / ny, 0.0) for j in range(ny + 1) for i in range(nx + 1)]
    quads, tris = [], []
    for j in range(ny):
        for i in range(nx):
            q = (nid(i, j), nid(i + 1, j), nid(i + 1, j + 1), nid(i, j + 1))
            if a.tri_from is not None and L * (i + 0.5) / nx > a.tri_from:
                tris += [(q[0], q[1], q[2]), (q[0], q[2], q[3])]
            else:
                quads.append(q)
    beams = []
    if a.stiffener:
        jm = ny // 2
        beams = [(nid(i, jm), nid(i + 1, jm)) for i in range(nx)]
    far = []
    next_node = (nx + 1) * (ny + 1) + 1
    if a.far_beam:
        y_far = 10.0 * W + 10.0 * L
        for i in range(nx + 1):
            nodes.append((next_node + i, L * i / nx, y_far, 0.0))
        far = [(next_node + i, next_node + i + 1) for i in range(nx)]

    d = ["*HEADING", "Mixed strip (generate_mixed_deck.py)",
         "** python3 examples/generate_mixed_deck.py " + " ".join(sys.argv[1:])]
    d.append("*NODE, NSET=ALL")
    d += [f"{n}, {float(x)!r}, {float(y)!r}, {float(z)!r}" for n, x, y, z in nodes]
    eid = 1
    if quads:
        d.append("*ELEMENT, TYPE=S4R, ELSET=QUADS")
        for q in quads:
            d.append(f"{eid}, " + ", ".join(map(str, q)))
            eid += 1
    if tris:
        d.append("*ELEMENT, TYPE=S3, ELSET=TRIS")
        for t in tris:
            d.append(f"{eid}, " + ", ".join(map(str, t)))
            eid += 1
    if beams:
        d.append("*ELEMENT, TYPE=B31, ELSET=STIFFENER")
        for b in beams:
            d.append(f"{eid}, {b[0]}, {b[1]}")
            eid += 1
    if far:
        d.append("*ELEMENT, TYPE=B31, ELSET=FAR")
        for b in far:
            d.append(f"{eid}, {b[0]}, {b[1]}")
            eid += 1
    root = [nid(0, j) for j in range(ny + 1)]
    tip = [nid(nx, j) for j in range(ny + 1)]
    if far:
        root.append(next_node)
    d += ["*NSET, NSET=ROOT", ", ".join(map(str, root)), "*NSET, NSET=TIP", ", ".join(map(str, tip))]
    d += ["*MATERIAL, NAME=MAT", "*ELASTIC", f"{a.E!r}, {a.nu!r}", "*DENSITY", f"{a.rho!r}"]
    if a.alpha:
        d.append(f"*DAMPING, ALPHA={a.alpha!r}")
    if quads:
        d += ["*SHELL SECTION, ELSET=QUADS, MATERIAL=MAT", f"{a.thickness!r}, 5"]
    if tris:
        d += ["*SHELL SECTION, ELSET=TRIS, MATERIAL=MAT, FORMULATION=FPM", f"{a.thickness!r}, 5"]
    if beams:
        s = a.stiffener
        d += ["*BEAM SECTION, ELSET=STIFFENER, MATERIAL=MAT, SECTION=RECT", f"{s!r}, {s!r}"]
    if far:
        d += ["*BEAM SECTION, ELSET=FAR, MATERIAL=MAT, SECTION=RECT", "0.1, 0.1"]
    if a.kick:
        d.append("*INITIAL CONDITIONS, TYPE=VELOCITY")
        for n, x, y, z in nodes[:(nx + 1) * (ny + 1)]:
            if x > 0:
                d.append(f"{n}, 3, {a.kick * (x / L) ** 2!r}")
    if a.spin:
        c = (0.5 * L, 0.5 * W, 0.0)
        d += ["*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY",
              f"ALL, {a.spin!r}, {c[0]!r}, {c[1]!r}, {c[2]!r}, "
              f"{c[0] + 1!r}, {c[1] + 2!r}, {c[2] + 3!r}"]
    if a.tip_load or a.tip_twist or a.pressure:
        d += ["*AMPLITUDE, NAME=RAMP, DEFINITION=TABULAR", f"0, 0, {a.ramp!r}, 1, {max(a.time, a.ramp)!r}, 1"]
    d += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time!r}"]
    if a.clamp:
        d += ["*BOUNDARY", "ROOT, ENCASTRE"]
    elif far:
        d += ["*BOUNDARY", f"{next_node}, ENCASTRE"]
    if a.tip_load or a.tip_twist:
        d.append("*CLOAD, AMPLITUDE=RAMP")
        share = a.tip_load / ny
        for j, n in enumerate(tip):
            f = share * (0.5 if j in (0, ny) else 1.0)
            if j in (0, ny):
                f += (a.tip_twist / W) * (1.0 if j == ny else -1.0)
            d.append(f"{n}, 3, {f!r}")
    if a.pressure:
        d.append("*DLOAD, AMPLITUDE=RAMP")
        # Abaqus's element-based shell P acts along the normal: --pressure pushes against it.
        d += [f"{s}, P, {-a.pressure!r}" for s, part in (("QUADS", quads), ("TRIS", tris)) if part]
    d += ["*OUTPUT, FIELD, NUMBER INTERVAL=1", "*NODE OUTPUT", "U",
          f"*OUTPUT, HISTORY, TIME INTERVAL={a.history_interval!r}",
          "*NODE OUTPUT, NSET=TIP", "U, V, RF", "*NODE OUTPUT, NSET=ROOT", "RF", "*END STEP"]
    return "\n".join(d) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--nx", type=int, default=16)
    p.add_argument("--ny", type=int, default=2)
    p.add_argument("--length", type=float, default=10.0)
    p.add_argument("--width", type=float, default=1.0)
    p.add_argument("--thickness", type=float, default=0.1)
    p.add_argument("--E", type=float, default=1.2e6)
    p.add_argument("--nu", type=float, default=0.0)
    p.add_argument("--rho", type=float, default=1.0)
    p.add_argument("--alpha", type=float, default=0.0, help="mass-proportional damping")
    p.add_argument("--tri-from", type=float, help="quads with centre x beyond this are FPM triangles")
    p.add_argument("--stiffener", type=float, default=0.0, help="square B31 section side on the centre line")
    p.add_argument("--far-beam", action="store_true", help="an unconnected clamped beam far away")
    p.add_argument("--clamp", action="store_true")
    p.add_argument("--tip-load", type=float, default=0.0)
    p.add_argument("--tip-twist", type=float, default=0.0)
    p.add_argument("--ramp", type=float, default=1.0)
    p.add_argument("--pressure", type=float, default=0.0)
    p.add_argument("--kick", type=float, default=0.0)
    p.add_argument("--spin", type=float, default=0.0)
    p.add_argument("--time", type=float, default=1.0)
    p.add_argument("--history-interval", type=float, default=0.05)
    a = p.parse_args()
    with open(a.output, "w") as f:
        f.write(build(a))


if __name__ == "__main__":
    main()
