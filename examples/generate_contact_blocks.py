#!/usr/bin/env python3
"""Writes a static contact benchmark: two blocks of C3D8 pressed together through a contact pair.

Block A (nx x n x nz elements over x in [0, 1], y in [0, W], z in [0, D]) and block B
(nx x (n + 1) x (nz + 1), over x in [1, 2]: its face nodes do not match A's) touch at x = 1
(W = --width, default 1; D = --depth, default W; nz = --nz, default n; W = n / nx makes A's
elements cubes, and a wide thin pair of blocks is a plate-like model whose factor grows far
slower than a cube's; --nz 1 --depth W/n is a strip). A's end x = 0 is
held along x, both blocks lie on the symmetry planes y = 0 and z = 0 (held across them), and
B's end x = 2 is pushed toward A by delta in one linear static step. The contact is a
*CONTACT PAIR, TYPE=SURFACE TO SURFACE (B's face the slave) with a linear pressure-overclosure
law of slope K (pressure per unit overclosure; --slope times E / h, h = W / n A's element
size across), which
halfstep and the peer read alike (halfstep with --dialect calculix). Lateral faces are free,
so every element is in uniaxial stress and the closed form is

    sigma = delta / (2 / E + 1 / K),   the reaction on B's end  F = sigma * W * D,

which the deck prints as the total of RF over B's end nodes (*NODE PRINT, TOTALS=ONLY).
Elements: nx (n nz + (n + 1)(nz + 1)); --n 100 --nx 50 gives 1,010,050 C3D8 and 1,040,604 nodes (a cube:
its factor needs ~110 GB); --n 320 --nx 5 --width 64 gives 1,027,205 cube elements.

Usage: python3 examples/generate_contact_blocks.py -o blocks.inp [--n 20] [--nx 10]
       [--width 1] [--nz N] [--depth W] [--delta 1e-3] [--E 210000] [--nu 0.3] [--slope 10]
Units: any consistent set (the defaults read as mm, N, MPa).
"""
import argparse
import os


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--n", type=int, default=20, help="A's elements across (B has n + 1)")
    ap.add_argument("--nx", type=int, default=10, help="elements along x in each block")
    ap.add_argument("--delta", type=float, default=1e-3, help="B's end pushed toward A by this")
    ap.add_argument("--E", type=float, default=210000.0)
    ap.add_argument("--nu", type=float, default=0.3)
    ap.add_argument("--width", type=float, default=1.0, help="the blocks' extent W along y and z")
    ap.add_argument("--nz", type=int, help="A's elements along z (default n; B has nz + 1)")
    ap.add_argument("--depth", type=float, help="the blocks' extent D along z (default: the width)")
    ap.add_argument("--slope", type=float, default=10.0, help="K = slope * E / h (h = width / n)")
    a = ap.parse_args()
    nz = a.n if a.nz is None else a.nz
    depth = a.width if a.depth is None else a.depth
    if a.n < 1 or a.nx < 1 or nz < 1 or not (a.E > 0 and a.delta > 0 and a.slope > 0 and a.width > 0 and depth > 0) \
            or not (-1 < a.nu < 0.5):
        ap.error("positive sizes, width, depth, E, delta and slope, and -1 < nu < 0.5")
    k_contact = a.slope * a.E * a.n / a.width
    sigma = a.delta / (2.0 / a.E + 1.0 / k_contact)
    # Each block: (first node, first element, elements along y, along z, x of its end at x = 0).
    blocks = {"A": [1, 1, a.n, nz, 0.0], "B": [0, 0, a.n + 1, nz + 1, 1.0]}
    blocks["B"][0] = (a.nx + 1) * (a.n + 1) * (nz + 1) + 1
    blocks["B"][1] = a.nx * a.n * nz + 1

    def nid(b, i, j, k):
        node0, _, ny, _, _ = blocks[b]
        return node0 + (k * (ny + 1) + j) * (a.nx + 1) + i

    def eid(b, i, j, k):
        _, elem0, ny, _, _ = blocks[b]
        return elem0 + (k * ny + j) * a.nx + i

    def nodes_where(b, keep):
        _, _, ny, bz, _ = blocks[b]
        return [nid(b, i, j, k) for k in range(bz + 1) for j in range(ny + 1) for i in range(a.nx + 1) if keep(i, j, k)]

    def write_ids(w, ids):
        for v in ids:
            w(f"{v}\n")

    tmp = a.output + ".part"
    with open(tmp, "w") as f:
        w = f.write
        w("*HEADING\n")
        w(f"two C3D8 blocks pressed through a contact pair: sigma = {sigma:.9g} (closed form), "
          f"K = {k_contact:.9g}, F = {sigma * a.width * depth:.9g}\n")
        w("*NODE, NSET=NALL\n")
        for b, (_, _, ny, bz, x0) in blocks.items():
            for k in range(bz + 1):
                for j in range(ny + 1):
                    for i in range(a.nx + 1):
                        w(f"{nid(b, i, j, k)}, {x0 + i / a.nx:.15g}, {a.width * j / ny:.15g}, {depth * k / bz:.15g}\n")
        for b, (_, _, ny, bz, _) in blocks.items():
            w(f"*ELEMENT, TYPE=C3D8, ELSET={b}\n")
            for k in range(bz):
                for j in range(ny):
                    for i in range(a.nx):
                        c = [nid(b, i, j, k), nid(b, i + 1, j, k), nid(b, i + 1, j + 1, k), nid(b, i, j + 1, k),
                             nid(b, i, j, k + 1), nid(b, i + 1, j, k + 1), nid(b, i + 1, j + 1, k + 1),
                             nid(b, i, j + 1, k + 1)]
                        w(f"{eid(b, i, j, k)}, " + ", ".join(map(str, c)) + "\n")
        # The contact faces' elements and the held node sets.
        for name, b, i in (("A_X1", "A", a.nx - 1), ("B_X0", "B", 0)):
            w(f"*ELSET, ELSET={name}\n")
            write_ids(w, [eid(b, i, j, k) for k in range(blocks[b][3]) for j in range(blocks[b][2])])
        w("*NSET, NSET=A_N0\n")
        write_ids(w, nodes_where("A", lambda i, j, k: i == 0))
        w("*NSET, NSET=B_N1\n")
        write_ids(w, nodes_where("B", lambda i, j, k: i == a.nx))
        for plane, on in (("Y0", lambda i, j, k: j == 0), ("Z0", lambda i, j, k: k == 0)):
            w(f"*NSET, NSET={plane}\n")
            for b in blocks:
                write_ids(w, nodes_where(b, on))
        w("*SURFACE, NAME=AFACE\nA_X1, S4\n*SURFACE, NAME=BFACE\nB_X0, S6\n")
        w("*SURFACE INTERACTION, NAME=SI\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n")
        w(f"{k_contact:.9g}, 0.\n")
        w("*CONTACT PAIR, INTERACTION=SI, TYPE=SURFACE TO SURFACE\nBFACE, AFACE\n")
        w(f"*MATERIAL, NAME=STEEL\n*ELASTIC\n{a.E:.9g}, {a.nu:.9g}\n")
        w("*SOLID SECTION, ELSET=A, MATERIAL=STEEL\n*SOLID SECTION, ELSET=B, MATERIAL=STEEL\n")
        w("*BOUNDARY\nA_N0, 1, 1\nY0, 2, 2\nZ0, 3, 3\n")
        w("*STEP\n*STATIC\n1., 1.\n")
        w(f"*BOUNDARY\nB_N1, 1, 1, {-a.delta:.9g}\n")
        w("*NODE PRINT, NSET=B_N1, TOTALS=ONLY\nRF\n*END STEP\n")
    os.replace(tmp, a.output)
    total = a.nx * (a.n * nz + (a.n + 1) * (nz + 1))
    nodes = (a.nx + 1) * ((a.n + 1) * (nz + 1) + (a.n + 2) * (nz + 2))
    force = sigma * a.width * depth
    print(f"{a.output}: {total} C3D8, {nodes} nodes; closed form sigma = {sigma:.9g}, RF1 total = {force:.9g}")

if __name__ == "__main__":
    main()
