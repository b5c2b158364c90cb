#!/usr/bin/env python3
"""Writes the small solid decks of the GPU-vs-CPU tests (tests/gpu/test_gpu_matches_cpu.cpp).

Each deck is a short dynamic run of a bar (2 x 0.5 x 0.5, 8 x 2 x 2 cells) with one element
kind and material, loaded so that every part of the element runs (finite strain, hourglass
modes, rotated material axes): python3 make_solid_decks.py writes them next to this file.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NX, NY, NZ, L, W = 8, 2, 2, 2.0, 0.5

# Six tetrahedra per cube around the main diagonal 0-6 (conforming across cubes).
TETS = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]


def bar(kind):
    nodes = {}
    def nid(i, j, k):
        return 1 + i + (NX + 1) * (j + (NY + 1) * k)
    for k in range(NZ + 1):
        for j in range(NY + 1):
            for i in range(NX + 1):
                nodes[nid(i, j, k)] = (L * i / NX, W * j / NY, W * k / NZ)
    elems = []
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                c = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                if kind in ("C3D8R", "C3D8"):
                    elems.append(c)
                elif kind == "C3D6":  # two wedges per cube, cut along the bottom diagonal 0-2
                    elems.append([c[0], c[1], c[2], c[4], c[5], c[6]])
                    elems.append([c[0], c[2], c[3], c[4], c[6], c[7]])
                else:
                    for t in TETS:
                        elems.append([c[a] for a in t])
    if kind == "C3D10M":
        edges = {}
        out = []
        for t in elems:
            mids = []
            for a, b in ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)):
                key = tuple(sorted((t[a], t[b])))
                if key not in edges:
                    n = len(nodes) + 1
                    pa, pb = nodes[t[a]], nodes[t[b]]
                    nodes[n] = tuple((x + y) / 2 for x, y in zip(pa, pb))
                    edges[key] = n
                mids.append(edges[key])
            out.append(t + mids)
        elems = out
    return nodes, elems


def write(name, kind, material, loading, extra_model="", time=0.5, increment=None, formulation=None):
    nodes, elems = bar(kind)
    lines = ["*HEADING", f"GPU test deck {name}: {kind}", "*NODE"]
    lines += [f"{n}, {x:.10g}, {y:.10g}, {z:.10g}" for n, (x, y, z) in nodes.items()]
    lines.append(f"*ELEMENT, TYPE={kind}, ELSET=BAR")
    lines += [", ".join(str(v) for v in [e + 1] + c) for e, c in enumerate(elems)]
    def nset(name, pred):
        ids = [n for n, p in nodes.items() if pred(p)]
        lines.append(f"*NSET, NSET={name}")
        for i in range(0, len(ids), 12):
            lines.append(", ".join(str(v) for v in ids[i:i + 12]))
    nset("X0", lambda p: abs(p[0]) < 1e-9)
    nset("XL", lambda p: abs(p[0] - L) < 1e-9)
    nset("FREE", lambda p: abs(p[0]) > 1e-9)
    lines += material
    lines += extra_model
    lines.append("*SOLID SECTION, ELSET=BAR, MATERIAL=M" + (", ORIENTATION=ORI" if "ORI" in "".join(extra_model) else "")
                 + (", FORMULATION=" + formulation if formulation else ""))
    lines += ["*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP", f"0, 0, {time}, 1"]
    if increment:  # a fixed user increment (the instability test uses one above the limit)
        lines += ["*STEP", "*DYNAMIC, EXPLICIT, DIRECT USER CONTROL", f"{increment}, {time}"]
    else:
        lines += ["*STEP", "*DYNAMIC, EXPLICIT", f", {time}"]
    lines += loading
    lines += ["*OUTPUT, HISTORY, NUMBER INTERVAL=50", "*NODE OUTPUT, NSET=XL", "U, V, RF", "*END STEP"]
    with open(os.path.join(HERE, name + ".inp"), "w") as f:
        f.write("\n".join(lines) + "\n")


SVK = ["*MATERIAL, NAME=M", "*ELASTIC", "1000, 0.3", "*DENSITY", "1"]
NEO = ["*MATERIAL, NAME=M", "*HYPERELASTIC, NEO HOOKE", "172.4, 0.0029", "*DENSITY", "1"]
# The same constants read as Bonet & Wood's log form (FORM=LOG, seed 004).
NEO_LOG = ["*MATERIAL, NAME=M", "*HYPERELASTIC, NEO HOOKE, FORM=LOG", "172.4, 0.0029", "*DENSITY", "1"]
ORTHO = ["*MATERIAL, NAME=M", "*ELASTIC, TYPE=ENGINEERING CONSTANTS",
         "1000, 100, 100, 0.25, 0.25, 0.4, 50, 50", "35.7", "*DENSITY", "1"]
# *ELASTIC, TYPE=ANISOTROPIC: the 21 constants (every coupling term nonzero), positive definite.
ANISO = ["*MATERIAL, NAME=M", "*ELASTIC, TYPE=ANISOTROPIC", "1000, 300, 900, 250, 280, 800, 40, 30",
         "20, 350, 25, 35, 30, 15, 300, 20", "25, 30, 10, 12, 280", "*DENSITY", "1"]
# J2 plasticity: yield at 0.5 % strain, linear hardening (E / 20) up to a plastic strain of 1.
J2 = ["*MATERIAL, NAME=M", "*ELASTIC", "1000, 0.3", "*PLASTIC", "5, 0", "55, 1", "*DENSITY", "1"]
ORI = ["*ORIENTATION, NAME=ORI", "1, 1, 0, -1, 1, 0", "1, 20"]
# Clamped at x=0; the far end pulled by 20 % and pushed sideways: large strain, bending.
PULL = ["*BOUNDARY", "X0, 1, 3", "*BOUNDARY, AMPLITUDE=RAMP", "XL, 1, 1, 0.4", "XL, 2, 2, 0.2"]
# A transverse kick: bending waves, hourglass modes of the one-point hexahedron excited.
KICK = ["*BOUNDARY", "X0, 1, 3"]
KICK_IC = ["*INITIAL CONDITIONS, TYPE=VELOCITY", "FREE, 3, 5.0", "FREE, 1, 2.0"]

write("solid_c3d8r_svk", "C3D8R", SVK, PULL)
write("solid_c3d8r_kick", "C3D8R", SVK, KICK, extra_model=KICK_IC, time=0.5)
write("solid_c3d8_neo", "C3D8", NEO, PULL)
write("solid_c3d8r_neolog", "C3D8R", NEO_LOG, PULL)
write("solid_c3d4_ortho", "C3D4", ORTHO, PULL, extra_model=ORI)
write("solid_c3d8r_aniso", "C3D8R", ANISO, PULL, extra_model=ORI)
write("solid_c3d10m_svk", "C3D10M", SVK, KICK, extra_model=KICK_IC, time=0.25)
# Plasticity on every kind: large plastic flow under the pull, cyclic yielding under the kick.
write("solid_c3d8r_j2", "C3D8R", J2, PULL)
write("solid_c3d8_j2", "C3D8", J2, PULL)
write("solid_c3d4_j2_kick", "C3D4", J2, KICK, extra_model=KICK_IC, time=0.5)
write("solid_c3d10m_j2_kick", "C3D10M", J2, KICK, extra_model=KICK_IC, time=0.25)
# The FPM hexahedron (C3D8, FORMULATION=FPM): its frame, configuration "a" and convected strain
# in the per-point store on the device; elastic and plastic under the pull, plastic under the kick.
write("solid_fpm_svk", "C3D8", SVK, PULL, formulation="FPM")
write("solid_fpm_j2", "C3D8", J2, PULL, formulation="FPM")
write("solid_fpm_j2_kick", "C3D8", J2, KICK, extra_model=KICK_IC, time=0.5, formulation="FPM")
# C3D8 FORMULATION=FULL (plain 2x2x2 integration, the peer's C3D8): large plastic flow under the pull.
write("solid_c3d8full_j2", "C3D8", J2, PULL, formulation="FULL")
# Follower pressure on the far end faces (S4 of the last hexahedra), ramped: face loads on the GPU.
END_ELEMENTS = [1 + (NX - 1) + NX * (j + NY * k) for k in range(NZ) for j in range(NY)]
PRESS_MODEL = ["*ELSET, ELSET=ENDS", ", ".join(map(str, END_ELEMENTS)), "*SURFACE, NAME=END, TYPE=ELEMENT", "ENDS, S4"]
PRESS = ["*BOUNDARY", "X0, 1, 3", "*DSLOAD, AMPLITUDE=RAMP", "END, P, -60", "*DLOAD, AMPLITUDE=RAMP", "ENDS, P3, 20"]
write("solid_c3d8_pressure", "C3D8", SVK, PRESS, extra_model=PRESS_MODEL)

# The wedge (C3D6): elastic under the pull, plastic under the kick, and follower pressure on
# its faces (S4 of the first wedge of each last cube is on the far end, S3 on y = const).
write("solid_c3d6_svk", "C3D6", SVK, PULL)
write("solid_c3d6_j2_kick", "C3D6", J2, KICK, extra_model=KICK_IC, time=0.5)
END_WEDGES = [2 * e - 1 for e in END_ELEMENTS]
write("solid_c3d6_pressure", "C3D6", SVK,
      ["*BOUNDARY", "X0, 1, 3", "*DSLOAD, AMPLITUDE=RAMP", "END, P, -60", "*DLOAD, AMPLITUDE=RAMP", "ENDS, P3, 20"],
      extra_model=["*ELSET, ELSET=ENDS", ", ".join(map(str, END_WEDGES)), "*SURFACE, NAME=END, TYPE=ELEMENT", "ENDS, S4"])

# 2.5 x the solver's stable bound (0.00375): the run must stop as unstable.
write("solid_unstable", "C3D8R", SVK, KICK, extra_model=KICK_IC, time=0.5, increment=0.0094)
