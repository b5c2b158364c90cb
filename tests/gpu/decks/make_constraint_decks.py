#!/usr/bin/env python3
"""Writes the constraint decks of the GPU-against-CPU test (tests/gpu/test_gpu_matches_cpu.cpp):
tie_refinement.inp (a coarse C3D8R bar tied to a finer block, clamped and loaded at the far end),
equation_bar.inp (a bar whose two halves have their own interface nodes, joined by *EQUATION),
rigid_end.inp and coupling_end.inp (a bar whose last element is a *RIGID BODY, or whose end face
is coupled to a reference node, loaded there by a force and a twisting moment), beam_hinge.inp
(a B31 cantilever in two pieces joined by *EQUATION on dofs 1-5, a hinge about z, and by *MPC TIE
further out, loaded at the tip across and by a twisting moment) and rigid_rotaryi.inp (rigid_end
with a *ROTARY INERTIA on its reference node), shell_tie.inp (an S4R strip, coarse on one half and
fine on the other, the fine edge tied to the coarse shells' SPOS with rotations: MITC4 on six-dof
nodes, bent and twisted at the tip), rigid_held.inp (rigid_end with the reference node's rotations
held) and shell_rigid.inp (an S4R strip whose last element is a rigid body).
Usage: python3 make_constraint_decks.py  (writes next to itself)"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAT = "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n"


def hexes(nid, nx, ny, nz, first):
    """C3D8R lines of an nx x ny x nz block whose node (i, j, k) is nid(i, j, k)."""
    out, e = [], first
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                out.append(f"{e}, " + ", ".join(map(str, n)))
                e += 1
    return out


def tie_refinement():
    lines = ["*HEADING", "coarse bar tied to a finer block (make_constraint_decks.py)", "*NODE"]
    c = lambda i, j, k: 1 + i + 3 * j + 6 * k              # coarse: 2 x 1 x 1, x in [0, 2]
    f = lambda i, j, k: 101 + i + 3 * j + 9 * k            # fine: 2 x 2 x 2, x in [2, 3]
    for k in range(2):
        for j in range(2):
            for i in range(3):
                lines.append(f"{c(i, j, k)}, {i}., {j}., {k}.")
    for k in range(3):
        for j in range(3):
            for i in range(3):
                lines.append(f"{f(i, j, k)}, {2 + 0.5 * i}, {0.5 * j}, {0.5 * k}")
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=COARSE")
    lines += hexes(c, 2, 1, 1, 1)
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=FINE")
    fine = hexes(f, 2, 2, 2, 11)
    lines += fine
    first_col = [l.split(",")[0] for l, (i, j, k) in zip(fine, [(i, j, k) for k in range(2) for j in range(2) for i in range(2)]) if i == 0]
    lines.append("*NSET, NSET=X0")
    lines.append(", ".join(str(c(0, j, k)) for k in range(2) for j in range(2)))
    lines.append("*NSET, NSET=TIP")
    lines.append(", ".join(str(f(2, j, k)) for k in range(3) for j in range(3)))
    lines.append(MAT.rstrip())
    lines += ["*SOLID SECTION, ELSET=COARSE, MATERIAL=M", "*SOLID SECTION, ELSET=FINE, MATERIAL=M"]
    lines.append("*SURFACE, NAME=FINEFACE")
    lines += [f"{e}, S6" for e in first_col]
    lines += ["*SURFACE, NAME=COARSEFACE", "2, S4", "*TIE, NAME=REFINE", "FINEFACE, COARSEFACE"]
    lines += ["*BOUNDARY", "X0, 1, 3", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD", "TIP, 1, 0.3", "TIP, 2, 0.1",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U", "*END STEP"]
    return "\n".join(lines) + "\n"


def equation_bar():
    lines = ["*HEADING", "bar halves joined by *EQUATION (make_constraint_decks.py)", "*NODE"]
    a = lambda i, j, k: 1 + i + 3 * j + 6 * k              # x in [0, 2]
    b = lambda i, j, k: 101 + i + 3 * j + 6 * k            # x in [2, 4], own nodes at x = 2
    for k in range(2):
        for j in range(2):
            for i in range(3):
                lines.append(f"{a(i, j, k)}, {i}., {j}., {k}.")
                lines.append(f"{b(i, j, k)}, {2 + i}., {j}., {k}.")
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BAR")
    lines += hexes(a, 2, 1, 1, 1) + hexes(b, 2, 1, 1, 11)
    lines += ["*NSET, NSET=X0", ", ".join(str(a(0, j, k)) for k in range(2) for j in range(2)),
              "*NSET, NSET=AR", ", ".join(str(a(2, j, k)) for k in range(2) for j in range(2)),
              "*NSET, NSET=BL", ", ".join(str(b(0, j, k)) for k in range(2) for j in range(2)),
              "*NSET, NSET=TIP", ", ".join(str(b(2, j, k)) for k in range(2) for j in range(2))]
    lines.append(MAT.rstrip())
    lines.append("*SOLID SECTION, ELSET=BAR, MATERIAL=M")
    for d in (1, 2, 3):
        lines += ["*EQUATION", "2", f"BL, {d}, 1., AR, {d}, -1."]
    lines += ["*BOUNDARY", "X0, 1, 3", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD", "TIP, 1, 0.5", "TIP, 3, 0.1",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U, A", "*END STEP"]
    return "\n".join(lines) + "\n"


def rigid_bar(coupling):
    """A 4 x 1 x 1 bar of C3D8R clamped at x = 0. coupling: its x = 4 face coupled to node 900
    at the face centre (*COUPLING, *KINEMATIC); else its last element made a *RIGID BODY about
    node 900 at that element's centre. Node 900 takes a force and a twisting moment."""
    lines = ["*HEADING", ("coupled" if coupling else "rigid") + " end of a bar (make_constraint_decks.py)", "*NODE"]
    a = lambda i, j, k: 1 + i + 5 * j + 10 * k
    for k in range(2):
        for j in range(2):
            for i in range(5):
                lines.append(f"{a(i, j, k)}, {i}., {j}., {k}.")
    lines.append("900, 4., 0.5, 0.5" if coupling else "900, 3.5, 0.5, 0.5")
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BAR")
    lines += hexes(a, 4, 1, 1, 1)
    lines += ["*ELSET, ELSET=LAST", "4",
              "*NSET, NSET=X0", ", ".join(str(a(0, j, k)) for k in range(2) for j in range(2)),
              "*NSET, NSET=TIP", ", ".join(str(a(4, j, k)) for k in range(2) for j in range(2)) + ", 900"]
    lines.append(MAT.rstrip())
    lines.append("*SOLID SECTION, ELSET=BAR, MATERIAL=M")
    if coupling:
        lines += ["*SURFACE, NAME=END", "4, S4", "*COUPLING, CONSTRAINT NAME=END, REF NODE=900, SURFACE=END",
                  "*KINEMATIC"]
    else:
        lines.append("*RIGID BODY, REF NODE=900, ELSET=LAST")
    lines += ["*BOUNDARY", "X0, 1, 3", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD", "900, 2, 0.2", "900, 3, 0.1",
              "900, 4, 0.3", "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U" if coupling else "U, A", "*END STEP"]
    return "\n".join(lines) + "\n"


def beam_hinge():
    lines = ["*HEADING", "B31 cantilever with a hinge and a tied joint (make_constraint_decks.py)", "*NODE"]
    xs = {1: 0.0, 2: 0.25, 3: 0.5, 13: 0.5, 4: 0.75, 14: 0.75, 5: 1.0}
    lines += [f"{n}, {x}, 0., 0." for n, x in xs.items()]
    lines += ["*ELEMENT, TYPE=B31, ELSET=BEAM", "1, 1, 2", "2, 2, 3", "3, 13, 4", "4, 14, 5", "*NSET, NSET=TIP",
              "3, 13, 5", MAT.rstrip(), "*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=CIRC", "0.05"]
    for dof in range(1, 6):
        lines += ["*EQUATION", "2", f"13, {dof}, 1., 3, {dof}, -1."]
    lines += ["*MPC", "TIE, 14, 4", "*BOUNDARY", "1, 1, 6", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD",
              "5, 2, 1e-4", "5, 3, 2e-4", "5, 4, 1e-5", "*OUTPUT, HISTORY, TIME INTERVAL=0.01",
              "*NODE OUTPUT, NSET=TIP", "U, UR", "*END STEP"]
    return "\n".join(lines) + "\n"


def rigid_rotaryi():
    text = rigid_bar(False).replace("rigid last element", "rigid last element with a rotary inertia")
    at = text.index("*RIGID BODY")
    return (text[:at] + "*ELEMENT, TYPE=ROTARYI, ELSET=RI\n50, 900\n*ROTARY INERTIA, ELSET=RI\n0.5, 0.5, 0.5, 0., 0., 0.\n"
            + text[at:])


def shell_tie():
    lines = ["*HEADING", "coarse and fine S4R strip halves tied with rotations (make_constraint_decks.py)", "*NODE"]
    pieces = [(0.0, 0.5, 2, 1, 1, 1, "A"), (0.5, 1.0, 4, 2, 101, 101, "B")]
    elems, slave, root, tip = [], [], [], []
    for x0, x1, nx, ny, n0, e0, name in pieces:
        nid = lambda i, j: n0 + i + (nx + 1) * j
        for j in range(ny + 1):
            for i in range(nx + 1):
                x = x0 + (x1 - x0) * i / nx
                lines.append(f"{nid(i, j)}, {x}, {0.2 * j / ny}, 0.")
                if x == 0.0: root.append(nid(i, j))
                if x == 1.0: tip.append(nid(i, j))
                if name == "B" and i == 0: slave.append(nid(i, j))
        elems.append(f"*ELEMENT, TYPE=S4R, ELSET={name}")
        e = e0
        for j in range(ny):
            for i in range(nx):
                elems.append(f"{e}, {nid(i, j)}, {nid(i + 1, j)}, {nid(i + 1, j + 1)}, {nid(i, j + 1)}")
                e += 1
    lines += elems
    lines += ["*NSET, NSET=ROOT", ", ".join(map(str, root)), "*NSET, NSET=TIP", ", ".join(map(str, tip + slave)),
              MAT.rstrip(), "*SHELL SECTION, ELSET=A, MATERIAL=M", "0.05", "*SHELL SECTION, ELSET=B, MATERIAL=M", "0.05",
              "*SURFACE, NAME=FINEEDGE, TYPE=NODE", "\n".join(map(str, slave)), "*SURFACE, NAME=COARSETOP", "A, SPOS",
              "*TIE, NAME=JOIN", "FINEEDGE, COARSETOP", "*BOUNDARY", "ROOT, 1, 6", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5",
              "*CLOAD", f"{tip[0]}, 3, 1e-4", f"{tip[-1]}, 3, 2e-4", f"{tip[1]}, 4, 1e-5",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U, UR", "*END STEP"]
    return "\n".join(lines) + "\n"


def rigid_held():
    """rigid_end with the reference node's rotations held (the body translates and reports its
    reaction moment)."""
    text = rigid_bar(False).replace("rigid end of a bar", "rigid end of a bar, its rotations held")
    return text.replace("*BOUNDARY\nX0, 1, 3\n", "*BOUNDARY\nX0, 1, 3\n900, 4, 6\n").replace(
        "*NODE OUTPUT, NSET=TIP\nU, A\n", "*NODE OUTPUT, NSET=TIP\nU, A, RF\n")


def shell_rigid():
    """An S4R strip (4 x 1 elements, 1 x 0.25) clamped at x = 0 whose last element is a *RIGID
    BODY about node 900 at its centre, loaded there across and by moments: MITC4 on six-dof
    nodes, the body turning its shell nodes' directors."""
    lines = ["*HEADING", "S4R strip with a rigid end (make_constraint_decks.py)", "*NODE"]
    a = lambda i, j: 1 + i + 5 * j
    for j in range(2):
        for i in range(5):
            lines.append(f"{a(i, j)}, {0.25 * i}, {0.25 * j}, 0.")
    lines += ["900, 0.875, 0.125, 0.", "*ELEMENT, TYPE=S4R, ELSET=STRIP"]
    lines += [f"{i + 1}, {a(i, 0)}, {a(i + 1, 0)}, {a(i + 1, 1)}, {a(i, 1)}" for i in range(4)]
    lines += ["*ELSET, ELSET=LAST", "4", "*NSET, NSET=ROOT", f"{a(0, 0)}, {a(0, 1)}",
              "*NSET, NSET=TIP", f"{a(4, 0)}, {a(4, 1)}, {a(2, 0)}, 900", MAT.rstrip(),
              "*SHELL SECTION, ELSET=STRIP, MATERIAL=M", "0.02", "*RIGID BODY, REF NODE=900, ELSET=LAST",
              "*BOUNDARY", "ROOT, 1, 6", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD", "900, 3, 1e-4",
              "900, 4, 2e-5", "900, 5, -1e-5", "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP",
              "U, UR, RF", "*END STEP"]
    return "\n".join(lines) + "\n"


for name, text in (("tie_refinement.inp", tie_refinement()), ("equation_bar.inp", equation_bar()),
                   ("rigid_end.inp", rigid_bar(False)), ("coupling_end.inp", rigid_bar(True)),
                   ("beam_hinge.inp", beam_hinge()), ("rigid_rotaryi.inp", rigid_rotaryi()),
                   ("shell_tie.inp", shell_tie()), ("rigid_held.inp", rigid_held()),
                   ("shell_rigid.inp", shell_rigid())):
    with open(os.path.join(HERE, name), "w") as out:
        out.write(text)
