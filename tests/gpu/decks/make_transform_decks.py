#!/usr/bin/env python3
"""Writes the *TRANSFORM decks (issue 16), run by tests/integration/test_transform.cpp against
closed forms and by tests/gpu/test_gpu_matches_cpu.cpp against the CPU:
transform_incline.inp (a C3D8 cube on rollers on a 30-degree slope: its base nodes held in the
local normal direction of a TYPE=R system, sliding under a gravity-like load written in local
components on the base and in global ones on the top),
transform_ring.inp (a C3D8 ring whose nodes get a radial displacement through TYPE=C),
transform_load_local.inp and transform_load_global.inp (a clamped bar loaded at its tip by
the same force, written in a skew TYPE=R system and in global components; the clamp is given
through a TYPE=S system in the first), transform_beam_local.inp and transform_beam_global.inp
(a B31 cantilever whose tip is held in one translation and one rotation and loaded by a force
and a moment, in a TYPE=R system whose axes are the global ones permuted, and in global
components: 6-dof rotations in a local system), transform_shell.inp (an S4R plate clamped
at x = 0 whose free edge is held in the normal of a skew TYPE=R system and pulled in it: the
MITC4 schemes, element-local included).
Usage: python3 make_transform_decks.py  (writes next to itself)"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MAT = "*MATERIAL, NAME=M\n*ELASTIC\n10000., 0.3\n*DENSITY\n1.\n"


def write(name, lines):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def num(x):
    return repr(float(x))


def incline():
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    lines = ["*HEADING", "cube on rollers on a 30-degree slope (make_transform_decks.py)", "*NODE"]
    # Local (slope, normal, z) corners of the unit cube; node 1 + i + 2 j + 4 k.
    for k in range(2):
        for j in range(2):
            for i in range(2):
                x, y = i * c - j * s, i * s + j * c
                lines.append(f"{1 + i + 2 * j + 4 * k}, {num(x)}, {num(y)}, {num(k)}")
    lines += ["*ELEMENT, TYPE=C3D8, ELSET=CUBE", "1, 1, 2, 4, 3, 5, 6, 8, 7",
              "*NSET, NSET=BASE", "1, 2, 5, 6", "*NSET, NSET=TOP", "3, 4, 7, 8",
              "*NSET, NSET=ALLN", "1, 2, 3, 4, 5, 6, 7, 8",
              MAT.rstrip(), "*SOLID SECTION, ELSET=CUBE, MATERIAL=M",
              "*TRANSFORM, NSET=BASE, TYPE=R", f"{num(c)}, {num(s)}, 0., {num(-s)}, {num(c)}, 0.",
              "*BOUNDARY", "BASE, 2, 2",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 1.",
              # g = 1 on the nodal masses 1/8: base nodes in local components (up the slope,
              # normal), top nodes in global ones.
              "*CLOAD", f"BASE, 1, {num(-0.125 * s)}", f"BASE, 2, {num(-0.125 * c)}", "TOP, 2, -0.125",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.05", "*NODE OUTPUT, NSET=ALLN", "U, RF", "*END STEP"]
    write("transform_incline.inp", lines)


def ring(n=24, r0=1.0, r1=1.25, h=0.25, delta=0.01):
    lines = ["*HEADING", "ring expanded radially through *TRANSFORM, TYPE=C (make_transform_decks.py)", "*NODE"]
    nid = lambda a, i, k: 1 + (a % n) * 4 + i + 2 * k
    for a in range(n):
        t = 2 * math.pi * a / n
        for k in range(2):
            for i in range(2):
                r = r0 + i * (r1 - r0)
                lines.append(f"{nid(a, i, k)}, {num(r * math.cos(t))}, {num(r * math.sin(t))}, {num(k * h)}")
    lines.append("*ELEMENT, TYPE=C3D8, ELSET=RING")
    for a in range(n):
        e = [nid(a, 0, 0), nid(a, 1, 0), nid(a + 1, 1, 0), nid(a + 1, 0, 0),
             nid(a, 0, 1), nid(a, 1, 1), nid(a + 1, 1, 1), nid(a + 1, 0, 1)]
        lines.append(f"{a + 1}, " + ", ".join(map(str, e)))
    lines += ["*NSET, NSET=ALLN, GENERATE", f"1, {4 * n}, 1",
              MAT.rstrip(), "*SOLID SECTION, ELSET=RING, MATERIAL=M",
              "*TRANSFORM, NSET=ALLN, TYPE=C", "0., 0., -1., 0., 0., 3.",
              "*BOUNDARY", "ALLN, 3, 3",
              "*AMPLITUDE, NAME=SMOOTH, DEFINITION=SMOOTH STEP", "0., 0., 0.5, 1.",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5",
              "*BOUNDARY, AMPLITUDE=SMOOTH", f"ALLN, 1, 1, {num(delta)}",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.025", "*NODE OUTPUT, NSET=ALLN", "U, RF", "*END STEP"]
    write("transform_ring.inp", lines)


def unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def skew_axes():
    """Points a, b of the skew TYPE=R system and its axes e1, e2, e3 (global components)."""
    a, b = [1.0, 2.0, 0.5], [-1.0, 0.3, 2.0]
    e1 = unit(a)
    p = sum(x * y for x, y in zip(b, e1))
    e2 = unit([y - p * x for x, y in zip(e1, b)])
    e3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
    return a, b, (e1, e2, e3)


def bar(local):
    """2 C3D8 along z (1 x 1 x 2), base clamped, tip loaded by F_local = (3, -1, 2)."""
    a, b, axes = skew_axes()
    f_local = [3.0, -1.0, 2.0]
    lines = ["*HEADING", "clamped bar, tip force in " + ("local" if local else "global") +
             " components (make_transform_decks.py)", "*NODE"]
    nid = lambda i, j, k: 1 + i + 2 * j + 4 * k
    for k in range(3):
        for j in range(2):
            for i in range(2):
                lines.append(f"{nid(i, j, k)}, {i}., {j}., {k}.")
    lines.append("*ELEMENT, TYPE=C3D8, ELSET=BAR")
    for k in range(2):
        e = [nid(0, 0, k), nid(1, 0, k), nid(1, 1, k), nid(0, 1, k),
             nid(0, 0, k + 1), nid(1, 0, k + 1), nid(1, 1, k + 1), nid(0, 1, k + 1)]
        lines.append(f"{k + 1}, " + ", ".join(map(str, e)))
    lines += ["*NSET, NSET=BASE", "1, 2, 3, 4", "*NSET, NSET=TIP", "9, 10, 11, 12",
              MAT.rstrip(), "*SOLID SECTION, ELSET=BAR, MATERIAL=M"]
    if local:
        # Every local dof of the base held is the clamp, whatever the system.
        lines += ["*TRANSFORM, NSET=BASE, TYPE=S", "0.5, 0.5, -1., 0.5, 0.5, -3.",
                  "*TRANSFORM, NSET=TIP, TYPE=R", ", ".join(num(v) for v in a + b)]
    lines += ["*BOUNDARY", "BASE, 1, 3", "*STEP", "*DYNAMIC, EXPLICIT", ", 0.2", "*CLOAD"]
    f = f_local if local else [sum(axes[c][d] * f_local[c] for c in range(3)) for d in range(3)]
    lines += [f"TIP, {d + 1}, {num(f[d])}" for d in range(3)]
    lines += ["*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U", "*END STEP"]
    write("transform_load_" + ("local" if local else "global") + ".inp", lines)


def beam(local):
    """B31 cantilever along x (examples/generate_beam_deck.py's section), clamped at x = 0."""
    n = 11
    lines = ["*HEADING", "B31 cantilever, tip conditions in " + ("local" if local else "global") +
             " components (make_transform_decks.py)", "*NODE"]
    lines += [f"{i + 1}, {num(i / (n - 1))}, 0., 0." for i in range(n)]
    lines.append("*ELEMENT, TYPE=B31, ELSET=BEAM")
    lines += [f"{i + 1}, {i + 1}, {i + 2}" for i in range(n - 1)]
    lines += ["*NSET, NSET=ROOT", "1", "*NSET, NSET=TIP", str(n),
              "*MATERIAL, NAME=STEEL", "*ELASTIC", "1000., 0.3", "*DENSITY", "1.",
              "*BEAM SECTION, ELSET=BEAM, MATERIAL=STEEL, SECTION=RECT", "0.1, 0.1"]
    # Local axes 1, 2, 3 = global y, z, x: local dof d is global dof perm[d].
    perm = {1: 2, 2: 3, 3: 1, 4: 5, 5: 6, 6: 4}
    dof = (lambda d: d) if local else (lambda d: perm[d])
    if local:
        lines += ["*TRANSFORM, NSET=TIP, TYPE=R", "0., 1., 0., 0., 0., 1."]
    lines += ["*BOUNDARY", "ROOT, 1, 6", f"TIP, {dof(2)}, {dof(2)}", f"TIP, {dof(5)}, {dof(5)}",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD",
              f"TIP, {dof(1)}, 2.e-4", f"TIP, {dof(3)}, 1.e-3", f"TIP, {dof(4)}, 2.e-5", f"TIP, {dof(6)}, -1.e-5",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U, UR", "*END STEP"]
    write("transform_beam_" + ("local" if local else "global") + ".inp", lines)


def shell(n=4):
    lines = ["*HEADING", "S4R plate with a skew-held edge (make_transform_decks.py)", "*NODE"]
    nid = lambda i, j: 1 + i + (n + 1) * j
    for j in range(n + 1):
        for i in range(n + 1):
            lines.append(f"{nid(i, j)}, {num(i / n)}, {num(j / n)}, 0.")
    lines.append("*ELEMENT, TYPE=S4R, ELSET=PLATE")
    e = 1
    for j in range(n):
        for i in range(n):
            lines.append(f"{e}, {nid(i, j)}, {nid(i + 1, j)}, {nid(i + 1, j + 1)}, {nid(i, j + 1)}")
            e += 1
    lines += ["*NSET, NSET=ROOT"] + [str(nid(0, j)) for j in range(n + 1)]
    lines += ["*NSET, NSET=EDGE"] + [str(nid(n, j)) for j in range(n + 1)]
    lines += ["*MATERIAL, NAME=M", "*ELASTIC", "1000., 0.3", "*DENSITY", "1.",
              "*SHELL SECTION, ELSET=PLATE, MATERIAL=M", "0.05",
              "*TRANSFORM, NSET=EDGE, TYPE=R", "1., 0., 1., 0., 1., 0.",
              "*BOUNDARY", "ROOT, 1, 6", "EDGE, 3, 3",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.2", "*CLOAD", "EDGE, 1, 1.e-3", "EDGE, 2, 2.e-4",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.005", "*NODE OUTPUT, NSET=EDGE", "U", "*END STEP"]
    write("transform_shell.inp", lines)


if __name__ == "__main__":
    shell()
    beam(True)
    beam(False)
    incline()
    ring()
    bar(True)
    bar(False)
