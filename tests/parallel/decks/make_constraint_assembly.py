#!/usr/bin/env python3
"""Writes constraint_assembly.inp, a distributed-run test deck where constraints, contact and
ranks meet: a C3D8R base (8 x 4 x 2, clamped below) with a finer C3D8R layer (12 x 6 x 1) tied
onto its top (*TIE, non-matching), a C3D8R punch (3 x 3 x 2) above the layer made a *RIGID BODY
about a reference node that moves down at a prescribed speed (0.3 after a ramp), pressed into the layer through a
*CONTACT PAIR, and a side bar (4 x 1 x 1) joined to the base's end face by *EQUATION on its
three translations, loaded at its free end. Field output every 100 increments, history of the
punch's reference node and the bar's tip.
Usage: python3 make_constraint_assembly.py  (writes next to itself)"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def grid(first, nx, ny, nz, x0, y0, z0, hx, hy, hz):
    """Nodes of an (nx+1) x (ny+1) x (nz+1) grid: (id function, node lines)."""
    nid = lambda i, j, k: first + i + (nx + 1) * (j + (ny + 1) * k)
    lines = [f"{nid(i, j, k)}, {x0 + hx * i:.6g}, {y0 + hy * j:.6g}, {z0 + hz * k:.6g}"
             for k in range(nz + 1) for j in range(ny + 1) for i in range(nx + 1)]
    return nid, lines


def hexes(nid, nx, ny, nz, first):
    """C3D8R lines of the block whose node (i, j, k) is nid(i, j, k), numbered from first."""
    out, e = [], first
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                out.append(f"{e}, " + ", ".join(map(str, n)))
                e += 1
    return out


def deck():
    base, base_nodes = grid(1, 8, 4, 2, 0.0, 0.0, 0.0, 1.0, 1.0, 0.5)          # [0,8] x [0,4] x [0,1]
    layer, layer_nodes = grid(1001, 12, 6, 1, 0.0, 0.0, 1.0, 8 / 12, 4 / 6, 0.4)  # z in [1, 1.4]
    punch, punch_nodes = grid(2001, 3, 3, 2, 2.5, 0.5, 1.42, 1.0, 1.0, 0.5)       # 0.02 above the layer
    bar, bar_nodes = grid(3001, 4, 1, 1, 8.0, 1.0, 0.0, 1.0, 1.0, 1.0)           # x in [8, 12]
    lines = ["*HEADING", "tied layer on a base, rigid punch pressed in, bar joined by *EQUATION "
             "(make_constraint_assembly.py)", "*NODE"]
    lines += base_nodes + layer_nodes + punch_nodes + bar_nodes
    lines.append("9000, 4.0, 2.0, 2.42")  # the punch's reference node, at its centre
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BASE")
    lines += hexes(base, 8, 4, 2, 1)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=LAYER")
    lines += hexes(layer, 12, 6, 1, 1001)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=PUNCH")
    lines += hexes(punch, 3, 3, 2, 2001)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BAR")
    lines += hexes(bar, 4, 1, 1, 3001)
    lines += ["*ELSET, ELSET=ALL", "BASE, LAYER, PUNCH, BAR"]
    lines += ["*NSET, NSET=BOTTOM", ", ".join(str(base(i, j, 0)) for j in range(5) for i in range(9))]
    # The bar's first face lies in the base's end face x = 8 (y in [1, 2], z in [0, 1]); each
    # of its nodes is joined to the base node at the same place.
    tip = ", ".join(str(bar(4, j, k)) for k in range(2) for j in range(2))
    lines += ["*NSET, NSET=BARTIP", tip, "*NSET, NSET=TIP", tip + ", 9000"]
    lines += ["*SURFACE, NAME=BASE_TOP", "BASE, S2", "*SURFACE, NAME=LAYER_BOTTOM", "LAYER, S1",
              "*SURFACE, NAME=LAYER_TOP", "LAYER, S2", "*SURFACE, NAME=PUNCH_BOTTOM", "PUNCH, S1"]
    lines += ["*MATERIAL, NAME=M", "*ELASTIC", "100000., 0.3", "*DENSITY", "1.",
              "*SOLID SECTION, ELSET=ALL, MATERIAL=M"]
    lines += ["*TIE, NAME=GLUE", "LAYER_BOTTOM, BASE_TOP"]
    lines += ["*RIGID BODY, REF NODE=9000, ELSET=PUNCH"]
    for j in range(2):
        for k in range(2):
            b = base(8, 1 + j, 2 * k)
            s = bar(0, j, k)
            for d in (1, 2, 3):
                lines += ["*EQUATION", "2", f"{s}, {d}, 1., {b}, {d}, -1."]
    lines += ["*SURFACE INTERACTION, NAME=PRESS", "*CONTACT PAIR, INTERACTION=PRESS", "PUNCH_BOTTOM, LAYER_TOP"]
    lines += ["*BOUNDARY", "BOTTOM, 1, 3", "*AMPLITUDE, NAME=RAMP", "0., 0., 0.05, 1., 0.25, 1.",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.25",
              "*BOUNDARY", "9000, 1, 2", "*BOUNDARY, TYPE=VELOCITY, AMPLITUDE=RAMP", "9000, 3, 3, -0.3",
              "*CLOAD", "BARTIP, 3, 5.", "*OUTPUT, FIELD, NUMBER INTERVAL=100", "*NODE OUTPUT", "U, V, RF",
              "*ELEMENT OUTPUT", "S", "*OUTPUT, HISTORY, TIME INTERVAL=0.005", "*NODE OUTPUT, NSET=TIP", "U, V, RF",
              "*END STEP"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(os.path.join(HERE, "constraint_assembly.inp"), "w") as f:
        f.write(deck())
