#!/usr/bin/env python3
"""Writes the decks of the distributed-run tests (tests/parallel/distributed_runs.py).

    python3 make_distributed_decks.py      # writes every deck listed below here

mixed.inp
    A steel C3D8R block (0.3 x 0.2 x 0.1 m, 6 x 4 x 2 cells) with an S4R plate (6 x 4 cells,
    5 mm) on its top face, sharing the block's top nodes. The x = 0 face of the block is
    clamped (ENCASTRE). Step LOAD ramps (TABULAR amplitude) a force and a moment (dof 5) on a
    plate corner node, forces and moments on two plate nodes where the splits cut (shared
    nodes), a pressure on the plate (*DLOAD P) and a pressure on the block's y = 0 side
    (*DSLOAD on an element-based surface); step HOLD changes them (OP=NEW). Field output
    and U, V, RF history on a clamped-face set, plate sets and a block set. Recursive
    coordinate bisection cuts along x, so every split runs through the shell-solid junction.
two_bars_unstable.inp
    Two disconnected C3D8R bars along x (x in [0, 2] and [3, 5], 8 x 2 x 2 cells each), the
    right one 100 times stiffer, with a fixed increment that is stable for the left bar and
    far above the limit of the right one: under mpirun -np 2 the blow-up is on rank 1 only.
tiny.inp
    A valid model of 2 C3D8R elements: mpirun -np 4 must refuse it (bad partition).
fpm_bar.inp
    plastic_bar.inp (the 8 x 2 x 2 C3D8 bar pulled to yield) with its right half (x > 2) the
    FPM hexahedron (FORMULATION=FPM, J2) and its left half elastic total-Lagrangian C3D8: the
    splits along x give ranks without FPM elements, whose state store must still have the
    global layout (19 components per point) for the frames to gather.
stiffened_plate.inp
    An elastic FPM triangle plate (S3, FORMULATION=FPM; 0.4 x 0.2 m, 8 x 4 squares, two
    triangles each, 5 mm steel) with a yielding B31 stiffener (10 x 30 mm, J2) along its
    middle line y = 0.1, sharing the plate's nodes: six-dof nodes touched by both families.
    The x = 0 edge is clamped; a pressure on the plate and a force and moment on two stiffener
    nodes where the splits cut (x = 0.2 and 0.3, shared nodes) ramp up (TABULAR). The stiffener
    yields (PEEQ up to 0.03 in the last frame). The loads are large (the elastic plate reaches
    2.9 GPa) for the reason mixed.inp's are: listing the elements in reverse order moves a
    single process's clamp reactions and SF by 1.9e-11 here, 5.4e-11 with 3 times smaller
    loads, too close to the 1e-10 the distributed runs must meet.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, lines):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def id_lines(ids, per_line=12):
    ids = list(ids)
    return [", ".join(str(v) for v in ids[i:i + per_line]) for i in range(0, len(ids), per_line)]


def hex_block(nx, ny, nz, h, x0=0.0, first_node=1, first_elem=1):
    """Nodes {id: (x, y, z)} and C3D8R connectivity [(id, [8 nodes], (i, j, k))] of a block of
    nx x ny x nz cubes of side h starting at x = x0; nid(i, j, k) gives a grid node's id."""
    def nid(i, j, k):
        return first_node + i + (nx + 1) * (j + (ny + 1) * k)
    nodes = {}
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                nodes[nid(i, j, k)] = (x0 + h * i, h * j, h * k)
    elems = []
    e = first_elem
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                c = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                elems.append((e, c, (i, j, k)))
                e += 1
    return nodes, elems, nid


def node_lines(nodes):
    return [f"{n}, {x:.10g}, {y:.10g}, {z:.10g}" for n, (x, y, z) in sorted(nodes.items())]


def elem_lines(elems):
    return [", ".join(str(v) for v in [e] + c) for e, c, _ in elems]


def mixed():
    nx, ny, nz, h = 6, 4, 2, 0.05
    nodes, hexes, nid = hex_block(nx, ny, nz, h)
    first_shell = len(hexes) + 1
    quads = []
    for j in range(ny):
        for i in range(nx):  # counter-clockwise seen from +z: normal +z
            quads.append((first_shell + len(quads),
                          [nid(i, j, nz), nid(i + 1, j, nz), nid(i + 1, j + 1, nz), nid(i, j + 1, nz)], (i, j)))
    corner = nid(nx, ny, nz)  # plate corner at (0.3, 0.2, 0.1), far from the clamp
    # Plate nodes on the planes x = 0.1 and 0.15 where the 3-rank and the 2- and 4-rank splits
    # cut: concentrated loads on shared nodes (every rank holding one applies it).
    mid = [nid(2, ny // 2, nz), nid(nx // 2, ny // 2, nz)]
    clamp = [nid(0, j, k) for k in range(nz + 1) for j in range(ny + 1)]
    plate_edge = [nid(nx, j, nz) for j in range(ny + 1)]
    block_mid = [nid(nx // 2, 0, k) for k in range(nz + 1)] + [nid(nx, ny // 2, 0)]
    side = [e for e, _, (i, j, k) in hexes if j == 0]  # y = 0 side of the block: face S3 (1-5-6-2)
    lines = ["*HEADING",
             "Distributed-run test: S4R plate sharing the top nodes of a C3D8R block (make_distributed_decks.py)",
             "** Steel, SI units. Block 0.3 x 0.2 x 0.1 m (6 x 4 x 2 C3D8R), plate 6 x 4 S4R, t = 5 mm, on z = 0.1.",
             "** CLAMP: block face x = 0 (ENCASTRE). TIP: plate corner (CLOAD force dof 3, moment dof 5).",
             "*NODE"]
    lines += node_lines(nodes)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BLOCK")
    lines += elem_lines(hexes)
    lines.append("*ELEMENT, TYPE=S4R, ELSET=PLATE")
    lines += elem_lines(quads)
    for name, ids in (("CLAMP", clamp), ("TIP", [corner]), ("PLATEEDGE", plate_edge), ("BLOCKMID", block_mid),
                      ("LOADMID", mid)):
        lines.append(f"*NSET, NSET={name}")
        lines += id_lines(ids)
    lines.append("*ELSET, ELSET=SIDE")
    lines += id_lines(side)
    lines += ["*SURFACE, NAME=SIDEFACE, TYPE=ELEMENT", "SIDE, S3",
              "*MATERIAL, NAME=STEEL", "*ELASTIC", "2.1e11, 0.3", "*DENSITY", "7850",
              "*MATERIAL, NAME=PLATESTEEL", "*ELASTIC", "2.0e11, 0.29", "*DENSITY", "7800",
              "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL",
              "*SHELL SECTION, ELSET=PLATE, MATERIAL=PLATESTEEL", "0.005, 5",
              "*AMPLITUDE, NAME=RAMP, DEFINITION=TABULAR", "0, 0, 0.002, 1, 0.004, 1"]
    outputs = ["*OUTPUT, FIELD, NUMBER INTERVAL=4", "*NODE OUTPUT", "U, V, RF", "*ELEMENT OUTPUT", "S",
               "*OUTPUT, HISTORY, TIME INTERVAL=5e-05",
               "*NODE OUTPUT, NSET=CLAMP", "U, V, RF",
               "*NODE OUTPUT, NSET=TIP", "U, V, RF",
               "*NODE OUTPUT, NSET=PLATEEDGE", "U, V, RF",
               "*NODE OUTPUT, NSET=BLOCKMID", "U, V, RF",
               "*NODE OUTPUT, NSET=LOADMID", "U, V"]
    lines += ["*STEP, NAME=LOAD", "*DYNAMIC, EXPLICIT", ", 0.004",
              "*BOUNDARY", "CLAMP, ENCASTRE",
              "*CLOAD, AMPLITUDE=RAMP", f"{corner}, 3, -4.0e5", f"{corner}, 5, 600.",
              "LOADMID, 3, 1.5e5", "LOADMID, 4, -200.",
              "*DLOAD, AMPLITUDE=RAMP", "PLATE, P, -4.0e6",
              "*DSLOAD, AMPLITUDE=RAMP", "SIDEFACE, P, 1.0e7"]
    lines += outputs + ["*END STEP"]
    lines += ["*STEP, NAME=HOLD", "*DYNAMIC, EXPLICIT", ", 0.003",
              "*CLOAD, OP=NEW", f"{corner}, 3, 2.0e5", f"{corner}, 5, -320.", "LOADMID, 2, 1.0e5",
              "*DLOAD, OP=NEW", "PLATE, P, 2.0e6",
              "*DSLOAD, OP=NEW", "SIDEFACE, P, 1.6e7"]
    lines += outputs + ["*END STEP"]
    write("mixed.inp", lines)


def two_bars_unstable():
    nx, ny, nz, h = 8, 2, 2, 0.25
    left_nodes, left, lnid = hex_block(nx, ny, nz, h, x0=0.0)
    right_nodes, right, rnid = hex_block(nx, ny, nz, h, x0=3.0, first_node=len(left_nodes) + 1,
                                         first_elem=len(left) + 1)
    nodes = dict(left_nodes)
    nodes.update(right_nodes)
    lines = ["*HEADING",
             "Distributed-run test: two disconnected bars, a fixed increment stable only for the left one "
             "(make_distributed_decks.py)",
             "** Left bar x in [0, 2], E = 1000 (stable estimate 3.8e-3); right bar x in [3, 5], E = 1e5",
             "** (estimate 3.8e-4). Fixed increment 2.5e-3: the right bar blows up, the left one does not.",
             "*NODE"]
    lines += node_lines(nodes)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=LEFTBAR")
    lines += elem_lines(left)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=RIGHTBAR")
    lines += elem_lines(right)
    roots = [lnid(0, j, k) for k in range(nz + 1) for j in range(ny + 1)] + \
            [rnid(0, j, k) for k in range(nz + 1) for j in range(ny + 1)]
    free = sorted(n for n in nodes if n not in set(roots))
    tips = {"LEFTTIP": [lnid(nx, j, k) for k in range(nz + 1) for j in range(ny + 1)],
            "RIGHTTIP": [rnid(nx, j, k) for k in range(nz + 1) for j in range(ny + 1)]}
    for name, ids in [("ROOTS", roots), ("FREE", free)] + list(tips.items()):
        lines.append(f"*NSET, NSET={name}")
        lines += id_lines(ids)
    lines += ["*MATERIAL, NAME=SOFT", "*ELASTIC", "1000, 0.3", "*DENSITY", "1",
              "*MATERIAL, NAME=STIFF", "*ELASTIC", "1e5, 0.3", "*DENSITY", "1",
              "*INITIAL CONDITIONS, TYPE=VELOCITY", "FREE, 3, 5.0", "FREE, 1, 2.0",
              "*SOLID SECTION, ELSET=LEFTBAR, MATERIAL=SOFT",
              "*SOLID SECTION, ELSET=RIGHTBAR, MATERIAL=STIFF",
              "*STEP", "*DYNAMIC, EXPLICIT, DIRECT USER CONTROL", "0.0025, 0.5",
              "*BOUNDARY", "ROOTS, 1, 3",
              "*OUTPUT, HISTORY, NUMBER INTERVAL=50",
              "*NODE OUTPUT, NSET=LEFTTIP", "U, V, RF",
              "*NODE OUTPUT, NSET=RIGHTTIP", "U, V, RF",
              "*END STEP"]
    write("two_bars_unstable.inp", lines)


def tiny():
    nodes, elems, nid = hex_block(2, 1, 1, 0.5)
    lines = ["*HEADING", "Distributed-run test: 2 elements, fewer than 4 ranks (make_distributed_decks.py)", "*NODE"]
    lines += node_lines(nodes)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=ALL")
    lines += elem_lines(elems)
    lines.append("*NSET, NSET=X0")
    lines += id_lines([nid(0, j, k) for k in range(2) for j in range(2)])
    lines.append("*NSET, NSET=XL")
    lines += id_lines([nid(2, j, k) for k in range(2) for j in range(2)])
    lines += ["*MATERIAL, NAME=M", "*ELASTIC", "1000, 0.3", "*DENSITY", "1",
              "*SOLID SECTION, ELSET=ALL, MATERIAL=M",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.1",
              "*BOUNDARY", "X0, 1, 3",
              "*CLOAD", "XL, 1, 0.1",
              "*OUTPUT, HISTORY, NUMBER INTERVAL=10", "*NODE OUTPUT, NSET=XL", "U, V, RF",
              "*END STEP"]
    write("tiny.inp", lines)


def fpm_bar():
    with open(os.path.join(HERE, "plastic_bar.inp")) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        if line.startswith("*SOLID SECTION"):
            left = [e for e in range(1, 33) if (e - 1) % 8 < 4]
            out += ["*ELSET, ELSET=LEFT"] + id_lines(left) + ["*ELSET, ELSET=RIGHT"]
            out += id_lines(e for e in range(1, 33) if e not in left)
            out += ["*MATERIAL, NAME=ELASTIC", "*ELASTIC", "1000, 0.3", "*DENSITY", "1",
                    "*SOLID SECTION, ELSET=LEFT, MATERIAL=ELASTIC",
                    "*SOLID SECTION, ELSET=RIGHT, MATERIAL=MAT, FORMULATION=FPM"]
        elif line.startswith("Generated by:"):
            out.append("Written by tests/parallel/decks/make_distributed_decks.py from plastic_bar.inp: "
                       "left half elastic C3D8, right half FPM J2")
        else:
            out.append(line)
    write("fpm_bar.inp", out)


def stiffened_plate():
    nx, ny, h = 8, 4, 0.05
    def nid(i, j):
        return 1 + i + (nx + 1) * j
    nodes = {nid(i, j): (h * i, h * j, 0.0) for j in range(ny + 1) for i in range(nx + 1)}
    tris = []
    for j in range(ny):
        for i in range(nx):  # counter-clockwise seen from +z: normal +z
            a, b, c, d = nid(i, j), nid(i + 1, j), nid(i + 1, j + 1), nid(i, j + 1)
            tris.append((len(tris) + 1, [a, b, c], (i, j)))
            tris.append((len(tris) + 1, [a, c, d], (i, j)))
    beams = [(len(tris) + 1 + i, [nid(i, ny // 2), nid(i + 1, ny // 2)], (i, 0)) for i in range(nx)]
    clamp = [nid(0, j) for j in range(ny + 1)]
    loads = [nid(4, ny // 2), nid(6, ny // 2)]  # x = 0.2 and 0.3: where the 2-, 3- and 4-rank splits cut
    lines = ["*HEADING",
             "Distributed-run test: FPM triangle plate with a yielding B31 stiffener (make_distributed_decks.py)",
             "** Steel, SI units. Plate 0.4 x 0.2 m, t = 5 mm, 64 S3 (FPM); stiffener 8 B31 along y = 0.1.",
             "*NODE"]
    lines += node_lines(nodes)
    lines.append("*ELEMENT, TYPE=S3, ELSET=PLATE")
    lines += elem_lines(tris)
    lines.append("*ELEMENT, TYPE=B31, ELSET=STIFFENER")
    lines += elem_lines(beams)
    for name, ids in (("CLAMP", clamp), ("LOADS", loads), ("TIP", [nid(nx, ny // 2)]),
                      ("CORNER", [nid(nx, 0), nid(nx, ny)])):
        lines.append(f"*NSET, NSET={name}")
        lines += id_lines(ids)
    lines += ["*MATERIAL, NAME=PLATESTEEL", "*ELASTIC", "2.0e11, 0.3", "*DENSITY", "7800",
              "*MATERIAL, NAME=MILDSTEEL", "*ELASTIC", "2.1e11, 0.3", "*DENSITY", "7850",
              "*PLASTIC", "2.5e8, 0", "4.0e8, 0.2",
              "*SHELL SECTION, ELSET=PLATE, MATERIAL=PLATESTEEL, FORMULATION=FPM", "0.005, 5",
              "*BEAM SECTION, ELSET=STIFFENER, MATERIAL=MILDSTEEL, SECTION=RECT", "0.01, 0.03", "0, 0, 1",
              "*AMPLITUDE, NAME=RAMP, DEFINITION=TABULAR", "0, 0, 0.004, 1, 0.006, 1",
              "*BOUNDARY", "CLAMP, ENCASTRE",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.006",
              "*CLOAD, AMPLITUDE=RAMP", f"{loads[0]}, 3, -1.5e4", f"{loads[1]}, 3, -1.2e4",
              f"{loads[1]}, 4, 240.", f"{loads[0]}, 6, -120.",
              "*DLOAD, AMPLITUDE=RAMP", "PLATE, P, -1.5e5",
              "*OUTPUT, FIELD, NUMBER INTERVAL=3", "*NODE OUTPUT", "U, UR, V, RF",
              "*ELEMENT OUTPUT", "S, SF, SM, PEEQ",
              "*OUTPUT, HISTORY, TIME INTERVAL=1e-04",
              "*NODE OUTPUT, NSET=LOADS", "U, UR, V",
              "*NODE OUTPUT, NSET=TIP", "U, UR, V",
              "*NODE OUTPUT, NSET=CORNER", "U, UR",
              "*NODE OUTPUT, NSET=CLAMP", "RF",
              "*END STEP"]
    write("stiffened_plate.inp", lines)


if __name__ == "__main__":
    mixed()
    two_bars_unstable()
    tiny()
    fpm_bar()
    stiffened_plate()
