#!/usr/bin/env python3
"""Writes tests/parallel/decks/contact_coarse.inp (stdout): a coarse block (2 x 2 C3D8R, edge
0.5) dropped on a fine held base (8 x 8 C3D8R, edge 0.125), contact pair with friction 0.2,
slave = the block's bottom. The slaves' own facets are four times the master facets' edge:
a distributed run's ghost surface must reach their far corners (docs/parallel.md,
"Distributed contact"; with a margin of two broad-phase cells only, every rank count stops).

    python3 tests/parallel/decks/make_contact_coarse.py > tests/parallel/decks/contact_coarse.inp
"""
out = ["*HEADING", "coarse block (2x2 C3D8R, edge 0.5) on a fine base (8x8 C3D8R, edge 0.125): its own facets span four master facets", "*NODE"]
nid = {}
def node(key, x, y, z):
    nid[key] = len(nid) + 1
    out.append(f"{nid[key]}, {x:.12g}, {y:.12g}, {z:.12g}")
for k in range(2):
    for j in range(9):
        for i in range(9):
            node(("b", i, j, k), 0.125 * i, 0.125 * j, -0.125 + 0.125 * k)
gap = 0.002
for k in range(2):
    for j in range(3):
        for i in range(3):
            node(("t", i, j, k), 0.5 * i, 0.5 * j, gap + 0.25 * k)
def hexa(tag, i, j, k):
    return [nid[(tag, i, j, k)], nid[(tag, i + 1, j, k)], nid[(tag, i + 1, j + 1, k)], nid[(tag, i, j + 1, k)],
            nid[(tag, i, j, k + 1)], nid[(tag, i + 1, j, k + 1)], nid[(tag, i + 1, j + 1, k + 1)], nid[(tag, i, j + 1, k + 1)]]
e = 0
out.append("*ELEMENT, TYPE=C3D8R, ELSET=BASE")
for j in range(8):
    for i in range(8):
        e += 1
        out.append(f"{e}, " + ", ".join(map(str, hexa("b", i, j, 0))))
first_block = e + 1
out.append("*ELEMENT, TYPE=C3D8R, ELSET=BLOCK")
for j in range(2):
    for i in range(2):
        e += 1
        out.append(f"{e}, " + ", ".join(map(str, hexa("t", i, j, 0))))
out += ["*ELSET, ELSET=ALL\nBASE, BLOCK",
        "*NSET, NSET=BASEBOT\n" + "\n".join(str(nid[("b", i, j, 0)]) for j in range(9) for i in range(9)),
        "*NSET, NSET=BLOCKN\n" + "\n".join(str(nid[("t", i, j, k)]) for k in range(2) for j in range(3) for i in range(3)),
        "*NSET, NSET=MID\n" + str(nid[("t", 1, 1, 0)]),
        "*SURFACE, NAME=TOP\nBASE, S2", "*SURFACE, NAME=BOTTOM\nBLOCK, S1",
        "*MATERIAL, NAME=M", "*ELASTIC", "1000.0, 0.3", "*DENSITY", "1.0",
        "*SOLID SECTION, ELSET=ALL, MATERIAL=M", "1.",
        "*INITIAL CONDITIONS, TYPE=VELOCITY", "BLOCKN, 3, -0.5",
        "*SURFACE INTERACTION, NAME=ROUGH", "*FRICTION", "0.2",
        "*CONTACT PAIR, INTERACTION=ROUGH", "BOTTOM, TOP",
        "*STEP", "*DYNAMIC, EXPLICIT", ", 0.1", "*BOUNDARY", "BASEBOT, 1, 3",
        "*OUTPUT, FIELD, NUMBER INTERVAL=5", "*NODE OUTPUT", "U, V",
        "*OUTPUT, HISTORY, NUMBER INTERVAL=100", "*NODE OUTPUT, NSET=MID", "U, V", "*END STEP"]
print("\n".join(out))
