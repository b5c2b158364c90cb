#!/usr/bin/env python3
"""halfstep's feature x context matrix: which features run in which kinds of run.

For each feature (a small deck that exercises it: a C3D8R block, a plastic block, an S4R
plate, FPM beams, triangles and hexahedra, a NURBS patch, contact, ties, equations, a bolt
pre-tension section,
couplings, rigid bodies, gravity, centrifugal loads, thermal strain, mass scaling, springs, bulk viscosity,
plane strain, axisymmetry, C3D10, adhesion) and each context (how it is run: an explicit
step, a static step with or without NLGEOM, on the CPU, the GPU, under `mpirun -np 2`, or a
static step followed by an explicit one), the script writes the deck, runs
`halfstep run DECK -o OUT --backend cpu|cuda --quiet` in a folder of the cell's own and
classifies the outcome:

  ok    RUNS: exit code 0, OUT/summary.json written (with status "completed") and some strain
        energy stored (every deck loads its model: a run that stores none ignored the load)
  ref   REFUSED: exit code 2 with an error message (its first "error:" line is recorded)
  FAIL  anything else: a crash, another exit code, a timeout, exit 0 without summary.json
  -     not available here (no GPU for the cuda contexts: `nvidia-smi -L` finds none; no
        `mpirun` on PATH for the mpi2 contexts)

It prints the table (features as rows, contexts as columns), then every refused cell with
its message, every failed cell with what went wrong, and the counts. Refusals are the
matrix's subject, not failures: the exit status is 0 when no cell FAILS, 1 otherwise.

Usage:
  python3 validation/feature_matrix.py                      # every feature, every context
  python3 validation/feature_matrix.py --features solid-elastic,tie --contexts explicit-cpu
  python3 validation/feature_matrix.py --json matrix.json --keep /tmp/matrix --timeout 60

Options: --halfstep PATH (default: build/halfstep under the repository root, this file's
parent's parent), --contexts LIST and --features LIST (comma separated subsets),
--json FILE (the results as JSON), --keep DIR (keep each cell's deck, output, stdout and
stderr in DIR/<feature>/<context>/; default: a temporary folder deleted at the end),
--timeout S (per cell, default 120 s). Cells run one at a time with OMP_NUM_THREADS=1.

How the decks are built: each feature gives its model data and the lines of its loaded
step (boundary conditions, loads, the feature's own step keywords), the same text in every
context; prescribed motions and loads follow a smooth step (*AMPLITUDE RAMP) over the loaded
step. Units mm, tonne, s (steel, E = 210 GPa) unless the feature says otherwise
(adhesion: nm, nN, GPa). The contexts wrap the step lines in
  explicit        *STEP / *DYNAMIC, EXPLICIT / , <period>     (period 1e-4 s: ~100-300 increments)
  static          *STEP, NLGEOM=YES / *STATIC / 0.25, 1.      (4 increments)
  static-linear   *STEP / *STATIC / 0.25, 1.
  static-then-explicit: the static step with the loads, then an explicit step in which they
  are carried (frozen); keywords that only an explicit step takes (mass scaling, bulk
  viscosity) go into that explicit step there, and into the static step in the static
  contexts (where the matrix records whether they are refused).
A few features need other step lines in a static step (a rigid body's reference node must
have its rotation prescribed there, which an explicit step refuses): they give both.
Only the Python standard library is used.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ------------------------------------------------------------------------------ mesh helpers

STEEL = "*MATERIAL, NAME=STEEL\n*ELASTIC\n210000., 0.3\n*DENSITY\n7.85e-9\n"
HARDENING = "*PLASTIC\n250., 0.\n400., 0.2\n"        # MPa, equivalent plastic strain
OUTPUT = "*OUTPUT, FIELD, NUMBER INTERVAL=2\n*NODE OUTPUT\nU\n*ELEMENT OUTPUT\nS\n"


def id_lines(ids):
    """Data lines of a set: 16 ids a line."""
    ids = list(ids)
    return "".join(", ".join(map(str, ids[i:i + 16])) + "\n" for i in range(0, len(ids), 16))


def nset(name, ids):
    return f"*NSET, NSET={name}\n" + id_lines(ids)


def elset(name, ids):
    return f"*ELSET, ELSET={name}\n" + id_lines(ids)


def num(x):
    return f"{x:.12g}"


class Brick:
    """An nx x ny x nz block of hexahedra of edge h from (x0, y0, z0), nodes numbered from
    first_node (i fastest, then j, then k), elements from first_elem (the same order), corner
    order of C3D8: bottom face 1-4 counter-clockwise seen from above, then the top face."""

    def __init__(self, nx, ny, nz, h, x0=0.0, y0=0.0, z0=0.0, first_node=1, first_elem=1):
        self.nx, self.ny, self.nz, self.h = nx, ny, nz, h
        self.x0, self.y0, self.z0 = x0, y0, z0
        self.first_node, self.first_elem = first_node, first_elem

    def node(self, i, j, k):
        return self.first_node + i + (self.nx + 1) * (j + (self.ny + 1) * k)

    def elem(self, i, j, k):
        return self.first_elem + i + self.nx * (j + self.ny * k)

    def node_lines(self):
        out = ""
        for k in range(self.nz + 1):
            for j in range(self.ny + 1):
                for i in range(self.nx + 1):
                    out += (f"{self.node(i, j, k)}, {num(self.x0 + i * self.h)}, {num(self.y0 + j * self.h)}, "
                            f"{num(self.z0 + k * self.h)}\n")
        return out

    def element_lines(self):
        out = ""
        for k in range(self.nz):
            for j in range(self.ny):
                for i in range(self.nx):
                    n = self.node
                    c = [n(i, j, k), n(i + 1, j, k), n(i + 1, j + 1, k), n(i, j + 1, k),
                         n(i, j, k + 1), n(i + 1, j, k + 1), n(i + 1, j + 1, k + 1), n(i, j + 1, k + 1)]
                    out += f"{self.elem(i, j, k)}, " + ", ".join(map(str, c)) + "\n"
        return out

    def nodes_where(self, i=None, j=None, k=None):
        """Node ids of a face (i, j or k fixed), ordered k, then j, then i."""
        return [self.node(a, b, c) for c in range(self.nz + 1) for b in range(self.ny + 1)
                for a in range(self.nx + 1) if (i is None or a == i) and (j is None or b == j)
                and (k is None or c == k)]

    def elems_where(self, i=None, j=None, k=None):
        return [self.elem(a, b, c) for c in range(self.nz) for b in range(self.ny) for a in range(self.nx)
                if (i is None or a == i) and (j is None or b == j) and (k is None or c == k)]


class Grid:
    """An nx x ny grid of quadrilaterals of edge h in the x-y plane from (x0, y0), nodes from
    first_node (i fastest), each cell counter-clockwise seen from +z (normal +z)."""

    def __init__(self, nx, ny, h, x0=0.0, y0=0.0, first_node=1, hy=None):
        self.nx, self.ny, self.h, self.hy = nx, ny, h, (hy if hy is not None else h)
        self.x0, self.y0, self.first_node = x0, y0, first_node

    def node(self, i, j):
        return self.first_node + i + (self.nx + 1) * j

    def node_lines(self):
        return "".join(f"{self.node(i, j)}, {num(self.x0 + i * self.h)}, {num(self.y0 + j * self.hy)}, 0.\n"
                       for j in range(self.ny + 1) for i in range(self.nx + 1))

    def cells(self):
        """(element index from 1, [4 corner ids]) for each cell, i fastest."""
        n = self.node
        return [(1 + i + self.nx * j, [n(i, j), n(i + 1, j), n(i + 1, j + 1), n(i, j + 1)])
                for j in range(self.ny) for i in range(self.nx)]

    def quad_lines(self):
        return "".join(f"{e}, " + ", ".join(map(str, c)) + "\n" for e, c in self.cells())

    def tri_lines(self):
        """Each cell split into two counter-clockwise triangles."""
        out, e = "", 1
        for _, (a, b, c, d) in self.cells():
            out += f"{e}, {a}, {b}, {c}\n{e + 1}, {a}, {c}, {d}\n"
            e += 2
        return out

    def column(self, i):
        return [self.node(i, j) for j in range(self.ny + 1)]

    def row(self, j):
        return [self.node(i, j) for i in range(self.nx + 1)]


class Feature:
    """A feature's deck pieces. model: model data. step: the lines of the loaded step (the
    same in every context unless static is given: the lines of a static step). explicit_only:
    step keywords only an explicit step takes (in the static contexts they go into the
    static step; in static-then-explicit into the explicit step). period: the explicit
    step's time period. after_static: lines an explicit step after a static one starts with
    (what a user changes there, such as a rotation hold an explicit step cannot carry).
    note: what the deck is, for the JSON."""

    def __init__(self, model, step, static=None, explicit_only="", period=1e-4, note="", after_static=""):
        self.model, self.step, self.static = model, step, static
        self.explicit_only, self.period, self.note = explicit_only, period, note
        self.after_static = after_static


# ------------------------------------------------------------------------------ feature decks
#
# The common bar: 20 x 10 x 10 mm of 4 x 2 x 2 hexahedra (edge 5 mm), the face x = 0 (X0)
# clamped, the face x = 20 (X1) pulled by 0.2 mm (1 % strain: well past yield, 250 MPa).

def bar(etype="C3D8R", section="", material=STEEL):
    b = Brick(4, 2, 2, 5.0)
    model = ("*NODE, NSET=ALL\n" + b.node_lines() + f"*ELEMENT, TYPE={etype}, ELSET=BAR\n" + b.element_lines()
             + nset("X0", b.nodes_where(i=0)) + nset("X1", b.nodes_where(i=4)) + material
             + f"*SOLID SECTION, ELSET=BAR, MATERIAL=STEEL{section}\n")
    return b, model


CLAMP = "*BOUNDARY\nX0, 1, 3\n"
RAMP = "*BOUNDARY, AMPLITUDE=RAMP\n"  # prescribed motions follow the smooth step RAMP
PULL = CLAMP + RAMP + "X1, 1, 1, 0.2\n"


def solid_elastic():
    _, model = bar()
    return Feature(model, PULL, note="C3D8R bar, one end clamped, the other pulled 0.2 mm")


def solid_plastic():
    _, model = bar(material=STEEL + HARDENING)
    return Feature(model, PULL, note="C3D8R bar with *PLASTIC (yield 250 MPa), pulled to 1 % strain")


def hex_fpm():
    _, model = bar(etype="C3D8", section=", FORMULATION=FPM")
    return Feature(model, PULL, note="C3D8 bar with *SOLID SECTION, FORMULATION=FPM, pulled")


def gravity():
    _, model = bar()
    return Feature(model, CLAMP + "*DLOAD, AMPLITUDE=RAMP\n, GRAV, 9810., 0., 0., -1.\n",
                   note="C3D8R cantilever under its own weight (*DLOAD GRAV, 9810 mm/s^2)")


def centrifugal():
    _, model = bar()
    return Feature(model, CLAMP + "*DLOAD, AMPLITUDE=RAMP\n, CENTRIF, 1e8, 0., 0., 0., 0., 0., 1.\n",
                   note="C3D8R cantilever spun about z through its clamped end (*DLOAD CENTRIF, omega^2 1e8; "
                        "static steps only, as in Abaqus)")


def thermal():
    _, model = bar(material=STEEL + "*EXPANSION\n1.2e-5\n")
    model += "*INITIAL CONDITIONS, TYPE=TEMPERATURE\nALL, 20.\n"
    return Feature(model, CLAMP + "*TEMPERATURE\nALL, 70.\n",
                   note="C3D8R bar with *EXPANSION, clamped at one end, heated from 20 to 70 C by *TEMPERATURE")


def mass_scaling():
    _, model = bar()
    return Feature(model, PULL, explicit_only="*FIXED MASS SCALING, DT=1.6e-6\n",
                   note="the pulled C3D8R bar with *FIXED MASS SCALING, DT=1.6e-6 (twice the stable increment)")


def bulk_viscosity():
    _, model = bar()
    return Feature(model, CLAMP + RAMP + "X1, 1, 1, -0.2\n", explicit_only="*BULK VISCOSITY\n0.12, 1.5\n",
                   note="the C3D8R bar compressed by 0.2 mm with *BULK VISCOSITY 0.12, 1.5")


def spring():
    b, model = bar()
    ends = b.nodes_where(i=4)
    anchors = [1000 + n for n in ends]
    model += "*NODE, NSET=ANCHOR\n"
    for n, a in zip(ends, anchors):
        j, k = (n - 1) // 5 % 3, (n - 1) // 15
        model += f"{a}, 30., {num(5.0 * j)}, {num(5.0 * k)}\n"
    model += "*ELEMENT, TYPE=SPRINGA, ELSET=SPR\n"
    model += "".join(f"{100 + m}, {n}, {a}\n" for m, (n, a) in enumerate(zip(ends, anchors), 1))
    model += "*SPRING, ELSET=SPR\n1.e5\n"
    return Feature(model, CLAMP + "ANCHOR, 2, 3\n" + RAMP + "ANCHOR, 1, 1, 0.2\n",
                   note="C3D8R bar clamped at x = 0, its end face pulled by 9 SPRINGA (k = 1e5 N/mm) "
                        "whose anchors move 0.2 mm")


def coupling(kind):
    b, model = bar()
    model += "*NODE, NSET=REF\n900, 25., 5., 5.\n*SURFACE, NAME=END, TYPE=NODE\nX1\n"
    model += f"*COUPLING, CONSTRAINT NAME=END, REF NODE=900, SURFACE=END\n*{kind}\n"
    if kind == "KINEMATIC":
        return Feature(model, CLAMP + "REF, 2, 3\n" + RAMP + "REF, 1, 1, 0.2\n",
                       static=CLAMP + "REF, 2, 6\n" + RAMP + "REF, 1, 1, 0.2\n",
                       note="C3D8R bar clamped at x = 0, its end face coupled kinematically to a reference "
                            "node moved 0.2 mm along x (its rotation held in static steps, where it must "
                            "be prescribed)")
    return Feature(model, CLAMP + "*CLOAD, AMPLITUDE=RAMP\nREF, 1, 20000.\n",
                   note="C3D8R bar clamped at x = 0, its end face coupled by *DISTRIBUTING to a reference "
                        "node loaded with 20 kN along x")


def coupling_kinematic():
    return coupling("KINEMATIC")


def coupling_distributing():
    return coupling("DISTRIBUTING")


def rigid_body():
    b, model = bar()
    model += elset("ENDEL", b.elems_where(i=3))
    model += "*NODE, NSET=REF\n900, 17.5, 5., 5.\n*RIGID BODY, REF NODE=900, ELSET=ENDEL\n"
    return Feature(model, CLAMP + "REF, 2, 3\n" + RAMP + "REF, 1, 1, 0.2\n",
                   static=CLAMP + "REF, 2, 6\n" + RAMP + "REF, 1, 1, 0.2\n",
                   after_static="*BOUNDARY, OP=NEW\nX0, 1, 3\nREF, 2, 3\nREF, 1, 1, 0.2\n",
                   note="C3D8R bar clamped at x = 0 whose last column of elements is a *RIGID BODY, its "
                        "reference node moved 0.2 mm along x (its rotation held in static steps)")


def two_bars(coarse_b):
    """Bar A (the common bar, x 0..20) and bar B (x 20..40, its own nodes from 101 and
    elements from 101): 4 x 2 x 2 elements of 5 mm, or 2 x 1 x 1 of 10 mm when coarse_b."""
    a = Brick(4, 2, 2, 5.0)
    b = Brick(2, 1, 1, 10.0, x0=20.0, first_node=101, first_elem=101) if coarse_b else \
        Brick(4, 2, 2, 5.0, x0=20.0, first_node=101, first_elem=101)
    model = ("*NODE, NSET=ALL\n" + a.node_lines() + b.node_lines()
             + "*ELEMENT, TYPE=C3D8R, ELSET=A\n" + a.element_lines()
             + "*ELEMENT, TYPE=C3D8R, ELSET=B\n" + b.element_lines()
             + "*ELSET, ELSET=BARS\nA, B\n" + nset("X0", a.nodes_where(i=0)) + nset("X1", b.nodes_where(i=b.nx))
             + STEEL + "*SOLID SECTION, ELSET=BARS, MATERIAL=STEEL\n")
    return a, b, model


JOINED_PULL = CLAMP + RAMP + "X1, 1, 1, 0.4\n"


def tie():
    a, b, model = two_bars(coarse_b=True)
    model += (elset("AEND", a.elems_where(i=3)) + elset("BSTART", b.elems_where(i=0))
              + "*SURFACE, NAME=AFACE\nAEND, S4\n*SURFACE, NAME=BFACE\nBSTART, S6\n"
              + "*TIE, NAME=JOIN\nAFACE, BFACE\n")
    return Feature(model, JOINED_PULL,
                   note="a 4x2x2 C3D8R bar (slave, finer) tied to a 2x1x1 C3D8R bar (master) at x = 20, "
                        "clamped at x = 0, pulled 0.4 mm at x = 40")


def equation():
    a, b, model = two_bars(coarse_b=False)
    model += nset("AR", a.nodes_where(i=4)) + nset("BL", b.nodes_where(i=0))
    for dof in (1, 2, 3):
        model += f"*EQUATION\n2\nBL, {dof}, 1., AR, {dof}, -1.\n"
    return Feature(model, JOINED_PULL,
                   note="two 4x2x2 C3D8R bars with their own coincident nodes at x = 20 joined by "
                        "*EQUATION u_B - u_A = 0 (dofs 1-3), clamped at x = 0, pulled 0.4 mm at x = 40")


def pretension():
    b, model = bar()
    model += ("*NODE\n900, 10., 20., 20.\n" + elset("CUT_SIDE", [b.elem(1, j, k) for k in range(2) for j in range(2)])
              + "*SURFACE, NAME=CUT\nCUT_SIDE, S4\n*PRE-TENSION SECTION, SURFACE=CUT, NODE=900\n")
    return Feature(model, "*BOUNDARY\nX0, 1, 3\nX1, 1, 3\n*CLOAD, AMPLITUDE=RAMP\n900, 1, 20000.\n",
                   note="the C3D8R bar clamped at both ends and cut at x = 10 by a *PRE-TENSION SECTION whose "
                        "node is pulled by 20 kN (a bolt tightened between two walls)")


def transform():
    _, model = bar()
    model += "*TRANSFORM, NSET=X1, TYPE=R\n1., 0., 0., 0., 0.8660254037844387, 0.5\n"
    return Feature(model, PULL + "*BOUNDARY\nX1, 2, 2\n",
                   note="the pulled C3D8R bar, its end X1 in a *TRANSFORM system (1 along x, 2 and 3 turned "
                        "30 degrees about it) and held along local 2 as well")


def variable_mass_scaling():
    tied = tie()
    return Feature(tied.model, tied.step,
                   explicit_only="*VARIABLE MASS SCALING, DT=1.6e-6, FREQUENCY=10\n",
                   note="the tied bars (*TIE) with *VARIABLE MASS SCALING, DT=1.6e-6 (twice the stable "
                        "increment), re-evaluated every 10 increments: the tie hands on the scaled masses")


def contact_rigid_floor():
    gap = 0.05
    b = Brick(4, 2, 2, 5.0, z0=gap)
    model = ("*NODE, NSET=ALL\n" + b.node_lines() + "*NODE, NSET=FLOORREF\n900, 10., 5., 0.\n"
             + "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n" + b.element_lines()
             + elset("BOTTOM", b.elems_where(k=0)) + nset("TOP", b.nodes_where(k=2))
             + "*SURFACE, NAME=UNDERSIDE\nBOTTOM, S1\n"
             + "*SURFACE, NAME=FLOOR, TYPE=REVOLUTION\n10., 5., 0., 10., 5., 1.\nSTART, 0., 0.\nLINE, 100., 0.\n"
             + "*RIGID BODY, ANALYTICAL SURFACE=FLOOR, REF NODE=900\n"
             + STEEL + "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n"
             + "*SURFACE INTERACTION, NAME=SMOOTH\n*CONTACT PAIR, INTERACTION=SMOOTH\nUNDERSIDE, FLOOR\n")
    step = "*BOUNDARY\nFLOORREF, 1, 6\nTOP, 1, 2\n" + RAMP + "TOP, 3, 3, -0.15\n"
    return Feature(model, step, note="C3D8R block 0.05 mm above a rigid analytical floor (*SURFACE, "
                                     "TYPE=REVOLUTION, *CONTACT PAIR), its top face pushed down 0.15 mm")


def contact_two_bodies():
    gap = 0.05
    low = Brick(4, 2, 1, 5.0, z0=-5.0)
    up = Brick(2, 2, 2, 5.0, x0=5.0, z0=gap, first_node=101, first_elem=101)
    model = ("*NODE, NSET=ALL\n" + low.node_lines() + up.node_lines()
             + "*ELEMENT, TYPE=C3D8R, ELSET=BASE\n" + low.element_lines()
             + "*ELEMENT, TYPE=C3D8R, ELSET=PUNCH\n" + up.element_lines()
             + "*ELSET, ELSET=BOTH\nBASE, PUNCH\n"
             + nset("BASEBOTTOM", low.nodes_where(k=0)) + nset("TOP", up.nodes_where(k=2))
             + elset("BASETOPEL", low.elems_where(k=0)) + elset("PUNCHBOTEL", up.elems_where(k=0))
             + "*SURFACE, NAME=BASETOP\nBASETOPEL, S2\n*SURFACE, NAME=PUNCHBOTTOM\nPUNCHBOTEL, S1\n"
             + STEEL + "*SOLID SECTION, ELSET=BOTH, MATERIAL=STEEL\n"
             + "*SURFACE INTERACTION, NAME=GRIP\n*FRICTION\n0.2\n"
             + "*CONTACT PAIR, INTERACTION=GRIP\nPUNCHBOTTOM, BASETOP\n")
    step = "*BOUNDARY\nBASEBOTTOM, 1, 3\nTOP, 1, 2\n" + RAMP + "TOP, 3, 3, -0.15\n"
    return Feature(model, step, note="a 2x2x2 C3D8R punch 0.05 mm above a 4x2x1 C3D8R base (held at its "
                                     "bottom), *CONTACT PAIR with friction 0.2, the punch's top pushed down 0.15 mm")


def shell(plastic, triangles=False):
    g = Grid(4, 2, 5.0)
    etype = "S3" if triangles else "S4R"
    model = ("*NODE, NSET=ALL\n" + g.node_lines() + f"*ELEMENT, TYPE={etype}, ELSET=PLATE\n"
             + (g.tri_lines() if triangles else g.quad_lines())
             + nset("ROOT", g.column(0)) + nset("TIP", g.column(4))
             + STEEL + (HARDENING if plastic else "")
             + "*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL" + (", FORMULATION=FPM" if triangles else "")
             + "\n1., 5\n")
    return model


SHELL_BEND = "*BOUNDARY\nROOT, ENCASTRE\n" + RAMP + "TIP, 3, 3, 2.\n"


def shell_elastic():
    return Feature(shell(False), SHELL_BEND, note="S4R cantilever plate 20 x 10 x 1 mm (4 x 2), tip edge moved 2 mm")


def shell_plastic():
    return Feature(shell(True), SHELL_BEND,
                   note="the S4R cantilever with *PLASTIC (root strain ~0.75 %, yield 0.12 %)")


def tri_fpm():
    return Feature(shell(False, triangles=True), SHELL_BEND,
                   note="S3 cantilever plate (16 triangles), *SHELL SECTION, FORMULATION=FPM, tip edge moved 2 mm")


def beam_fpm():
    model = "*NODE, NSET=ALL\n" + "".join(f"{i + 1}, {num(5.0 * i)}, 0., 0.\n" for i in range(5))
    model += "*ELEMENT, TYPE=B31, ELSET=BEAM\n" + "".join(f"{i + 1}, {i + 1}, {i + 2}\n" for i in range(4))
    model += nset("ROOT", [1]) + nset("TIP", [5]) + STEEL
    model += "*BEAM SECTION, ELSET=BEAM, MATERIAL=STEEL, SECTION=RECT, FORMULATION=FPM\n2., 2.\n"
    return Feature(model, "*BOUNDARY\nROOT, 1, 6\n" + RAMP + "TIP, 2, 2, 1.\n",
                   note="B31 cantilever 20 mm (4 FPM beams, RECT 2 x 2 mm), tip moved 1 mm sideways")


def plane_strain():
    g = Grid(4, 2, 5.0)
    model = ("*NODE, NSET=ALL\n" + g.node_lines() + "*ELEMENT, TYPE=CPE4, ELSET=STRIP\n" + g.quad_lines()
             + nset("X0", g.column(0)) + nset("X1", g.column(4))
             + STEEL + "*SOLID SECTION, ELSET=STRIP, MATERIAL=STEEL\n1.\n")
    return Feature(model, "*BOUNDARY\nX0, 1, 2\n" + RAMP + "X1, 1, 1, 0.2\n",
                   note="CPE4 strip 20 x 10 mm (4 x 2), one edge held, the other pulled 0.2 mm")


def axisymmetric():
    g = Grid(2, 2, 5.0, x0=10.0)
    model = ("*NODE, NSET=ALL\n" + g.node_lines() + "*ELEMENT, TYPE=CAX4R, ELSET=WALL\n" + g.quad_lines()
             + nset("BOTTOM", g.row(0)) + elset("INNER", [1, 3])
             + STEEL + "*SOLID SECTION, ELSET=WALL, MATERIAL=STEEL\n")
    return Feature(model, "*BOUNDARY\nBOTTOM, 2, 2\n*DLOAD, AMPLITUDE=RAMP\nINNER, P4, 100.\n",
                   note="CAX4R thick ring r 10..20 mm, z 0..10 mm (2 x 2), bottom held in z, "
                        "100 MPa inner pressure (*DLOAD P4)")


def tet10_static():
    # Two 10 mm cubes along x, each cut into the 6 tetrahedra of the Freudenthal (Kuhn)
    # triangulation (conforming across the cubes), with mid-edge nodes.
    h, nx = 10.0, 2
    corner = {}
    for k in range(2):
        for j in range(2):
            for i in range(nx + 1):
                corner[(i, j, k)] = len(corner) + 1
    coords = {nid: (h * i, h * j, h * k) for (i, j, k), nid in corner.items()}
    mids = {}

    def mid(a, b):
        key = (min(a, b), max(a, b))
        if key not in mids:
            mids[key] = 101 + len(mids)
            coords[mids[key]] = tuple((coords[a][d] + coords[b][d]) / 2 for d in range(3))
        return mids[key]

    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    elems = []
    for i in range(nx):
        for p in perms:
            v = [(i, 0, 0)]
            for axis in p:
                nxt = list(v[-1])
                nxt[axis] += 1
                v.append(tuple(nxt))
            t = [corner[c] for c in v]
            x = [coords[n] for n in t]
            e1, e2, e3 = ([x[m][d] - x[0][d] for d in range(3)] for m in (1, 2, 3))
            vol = (e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0])
                   + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]))
            if vol < 0:
                t[1], t[2] = t[2], t[1]
            a, b, c, d = t
            elems.append([a, b, c, d, mid(a, b), mid(b, c), mid(c, a), mid(a, d), mid(b, d), mid(c, d)])
    model = "*NODE, NSET=ALL\n" + "".join(f"{n}, {num(x)}, {num(y)}, {num(z)}\n"
                                          for n, (x, y, z) in sorted(coords.items()))
    model += "*ELEMENT, TYPE=C3D10, ELSET=BAR\n" + "".join(
        f"{e}, " + ", ".join(map(str, c)) + "\n" for e, c in enumerate(elems, 1))
    model += nset("X0", [n for n, x in sorted(coords.items()) if x[0] == 0.0])
    model += nset("X1", [n for n, x in sorted(coords.items()) if x[0] == h * nx])
    model += STEEL + "*SOLID SECTION, ELSET=BAR, MATERIAL=STEEL\n"
    return Feature(model, PULL, note="C3D10 bar 20 x 10 x 10 mm (12 tetrahedra), clamped at x = 0, pulled 0.2 mm")


def nurbs():
    p, nx, ny, length, height = 2, 4, 2, 20.0, 10.0

    def knots(spans):
        return [0.0] * (p + 1) + [i / spans for i in range(1, spans)] + [1.0] * (p + 1)

    def greville(kv, n):
        return [sum(kv[i + 1:i + p + 1]) / p for i in range(n)]

    cu, cv = nx + p, ny + p
    ku, kv = knots(nx), knots(ny)
    model = f"*NURBS PATCH, NAME=PLATE, TYPE=CPS, ELSET=PLATE\n{p}, {p}\n{cu}, {cv}\n"
    model += ", ".join(num(v) for v in ku) + "\n" + ", ".join(num(v) for v in kv) + "\n"
    for y in greville(kv, cv):
        for x in greville(ku, cu):
            model += f"{num(length * x)}, {num(height * y)}, 1.\n"
    model += STEEL + "*SOLID SECTION, ELSET=PLATE, MATERIAL=STEEL\n1.\n"
    return Feature(model, "*BOUNDARY\nPLATE-U0, 1, 2\n" + RAMP + "PLATE-U1, 1, 1, 0.2\n",
                   note="plane-stress NURBS patch 20 x 10 mm, degree 2, 4 x 2 elements (*NURBS PATCH, TYPE=CPS), "
                        "side U0 held, side U1 pulled 0.2 mm")


def adhesion():
    # Units nm, nN, GPa (mass: kg, density 1000 kg/m^3 = 1e-24 kg/nm^3). A CPE4 strip 40 x 4 nm
    # (8 x 2), its bottom at the Lennard-Jones law's rest gap above the substrate y = 0, glued
    # along the whole bottom; the top is pulled up 0.02 nm (far below the law's strength).
    r0 = 0.4
    rest = r0 * 15.0 ** (-1.0 / 6.0)
    g = Grid(8, 2, 5.0, y0=rest, hy=2.0)
    model = ("*NODE, NSET=ALL\n" + g.node_lines() + "*ELEMENT, TYPE=CPE4, ELSET=STRIP\n" + g.quad_lines()
             + elset("GLUED", range(1, 9)) + nset("TOP", g.row(2)) + nset("CORNER", [1])
             + "*SURFACE, NAME=BOTTOM, TYPE=ELEMENT\nGLUED, S1\n"
             + f"*ADHESION, NAME=VDW, SURFACE=BOTTOM, LAW=LENNARD-JONES\n0.1, {r0}\n0., 0., 0., 1.\n"
             + "*MATERIAL, NAME=SOFT\n*ELASTIC\n1., 0.2\n*DENSITY\n1e-24\n"
             + "*SOLID SECTION, ELSET=STRIP, MATERIAL=SOFT\n1.\n")
    return Feature(model, "*BOUNDARY\nCORNER, 1, 1\n" + RAMP + "TOP, 2, 2, 0.02\n", period=2e-10,
                   note="CPE4 strip 40 x 4 nm (8 x 2) adhering to a rigid substrate by *ADHESION "
                        "(Lennard-Jones, A_H = 0.1, r0 = 0.4), its top pulled up 0.02 nm; nm-nN-GPa units")


FEATURES = [
    ("solid-elastic", solid_elastic), ("solid-plastic", solid_plastic), ("shell-elastic", shell_elastic),
    ("shell-plastic", shell_plastic), ("beam-fpm", beam_fpm), ("tri-fpm", tri_fpm), ("hex-fpm", hex_fpm),
    ("nurbs", nurbs), ("contact-rigid-floor", contact_rigid_floor), ("contact-two-bodies", contact_two_bodies),
    ("tie", tie), ("equation", equation), ("pretension", pretension), ("transform", transform), ("coupling-kinematic", coupling_kinematic),
    ("coupling-distributing", coupling_distributing), ("rigid-body", rigid_body), ("gravity", gravity),
    ("centrifugal", centrifugal), ("thermal", thermal), ("mass-scaling", mass_scaling),
    ("variable-mass-scaling", variable_mass_scaling), ("spring", spring), ("bulk-viscosity", bulk_viscosity),
    ("plane-strain", plane_strain), ("axisymmetric", axisymmetric), ("tet10-static", tet10_static),
    ("adhesion", adhesion),
]

# ------------------------------------------------------------------------------ contexts


class Context:
    """How a cell is run: steps (a list of "explicit", "static", "static-linear"), the
    backend, the number of MPI ranks (0: no mpirun), and what it needs ("gpu", "mpirun")."""

    def __init__(self, name, steps, backend, ranks=0, needs=None):
        self.name, self.steps, self.backend, self.ranks, self.needs = name, steps, backend, ranks, needs


CONTEXTS = [
    Context("explicit-cpu", ["explicit"], "cpu"),
    Context("static-cpu", ["static"], "cpu"),
    Context("static-linear-cpu", ["static-linear"], "cpu"),
    Context("explicit-gpu", ["explicit"], "cuda", needs="gpu"),
    Context("static-gpu", ["static"], "cuda", needs="gpu"),
    Context("explicit-mpi2", ["explicit"], "cpu", ranks=2, needs="mpirun"),
    Context("static-mpi2", ["static"], "cpu", ranks=2, needs="mpirun"),
    Context("static-then-explicit-cpu", ["static", "explicit"], "cpu"),
]


def build_deck(name, feature, context):
    """The deck of one cell: the feature's model, then the context's steps."""
    out = f"*HEADING\nfeature {name}, context {context.name} (validation/feature_matrix.py)\n"
    out += f"** {feature.note}\n" if feature.note else ""
    out += feature.model
    # Prescribed motions and loads follow a smooth step over the loaded (first) step: a
    # linear ramp would start the prescribed nodes with a velocity jump, whose kinetic energy
    # halfstep's explicit energy balance books twice (the run then stops as "unstable").
    first = feature.period if context.steps[0] == "explicit" else 1.0
    out += f"*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP\n0., 0., {first:.6g}, 1.\n"
    loaded = False  # the loads go into the first step; later steps carry them
    for n, kind in enumerate(context.steps, 1):
        lines = ""
        if kind == "explicit":
            out += f"*STEP, NAME=STEP-{n}\n*DYNAMIC, EXPLICIT\n, {feature.period:.6g}\n"
            lines = (feature.step if not loaded else feature.after_static) + feature.explicit_only
        else:
            out += f"*STEP, NAME=STEP-{n}" + (", NLGEOM=YES" if kind == "static" else "") + "\n*STATIC\n0.25, 1.\n"
            lines = feature.static if feature.static is not None else feature.step
            if "explicit" not in context.steps:
                lines += feature.explicit_only
        out += lines + (OUTPUT if n == 1 else "") + "*END STEP\n"
        loaded = True
    return out


# ------------------------------------------------------------------------------ running


def gpu_available():
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0 and "GPU" in r.stdout


def run_command(cmd, cwd, env, timeout):
    """Runs cmd in its own process group; returns (exit code or None on timeout, stdout,
    stderr, seconds). On a timeout the whole group (mpirun and its ranks) is stopped."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        out = err = ""
        for sig in (signal.SIGTERM, signal.SIGKILL):  # SIGTERM: halfstep writes its summary and stops
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                out, err = p.communicate(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            p.kill()
            p.wait()
        return None, out or "", err or "", time.monotonic() - t0
    except BaseException:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
        raise


def error_line(text, deck):
    """The first line of halfstep's message: its first 'error:' line, else the first
    non-blank line; the deck's folder left out."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    pick = next((ln for ln in lines if "error:" in ln), lines[0] if lines else "")
    return pick.replace(deck, os.path.basename(deck))


def tail(text, n=6):
    return "\n".join(ln for ln in text.strip().splitlines()[-n:])


def stored_energy(outdir):
    """How far the run's internal energy moved from its first value (0 when energy.csv has
    none): adhesion starts bound, at a negative internal energy, so the change is measured."""
    try:
        with open(os.path.join(outdir, "energy.csv")) as f:
            header = f.readline().strip().split(",")
            col = header.index("internal")
            values = [float(ln.split(",")[col]) for ln in f if ln.strip()]
            return max((abs(v - values[0]) for v in values), default=0.0)
    except (OSError, ValueError, IndexError):
        return 0.0


def run_cell(halfstep, name, feature, context, folder, timeout):
    os.makedirs(folder, exist_ok=True)
    deck = os.path.join(folder, "deck.inp")
    outdir = os.path.join(folder, "out")
    with open(deck, "w") as f:
        f.write(build_deck(name, feature, context))
    cmd = [halfstep, "run", deck, "-o", outdir, "--backend", context.backend, "--quiet"]
    if context.ranks:
        cmd = ["mpirun", "-np", str(context.ranks), "--allow-run-as-root", "--oversubscribe",
               "-x", "OMP_NUM_THREADS"] + cmd
    env = dict(os.environ, OMP_NUM_THREADS="1")
    with open(os.path.join(folder, "command.txt"), "w") as f:
        f.write("OMP_NUM_THREADS=1 " + " ".join(cmd) + "\n")
    rc, out, err, secs = run_command(cmd, folder, env, timeout)
    for fname, text in (("stdout.txt", out), ("stderr.txt", err)):
        with open(os.path.join(folder, fname), "w") as f:
            f.write(text)
    cell = {"feature": name, "context": context.name, "exit_code": rc, "seconds": round(secs, 2),
            "folder": folder, "command": " ".join(cmd)}
    summary = os.path.join(outdir, "summary.json")
    if rc is None:
        cell.update(result="FAIL", message=f"timed out after {timeout:g} s")
    elif rc == 0:
        status = None
        try:
            with open(summary) as f:
                s = json.load(f)
            status = s.get("status")
            cell["increments"] = sum(r.get("increments", 0) for r in s.get("step_records", []) if isinstance(r, dict))
        except (OSError, ValueError) as e:
            cell.update(result="FAIL", message=f"exit 0 but no readable summary.json ({e.__class__.__name__})")
            return cell
        if status != "completed":
            cell.update(result="FAIL", message=f"exit 0 but summary.json status is {status!r}")
        elif not (stored_energy(outdir) > 0):
            # Every deck loads its model: a run that stores no energy ignored its load.
            cell.update(result="FAIL", message="exit 0, but no strain energy in energy.csv: the load did nothing")
        else:
            cell.update(result="ok", message="")
    elif rc == 2 and error_line(err + "\n" + out, deck):
        cell.update(result="ref", message=error_line(err + "\n" + out, deck))
    else:
        what = f"killed by signal {-rc}" if rc < 0 else f"exit code {rc}"
        cell.update(result="FAIL", message=f"{what}: {error_line(err + chr(10) + out, deck)}",
                    stderr_tail=tail(err))
    return cell


def print_table(features, contexts, cells):
    w0 = max(len("feature"), *(len(f) for f in features)) + 2
    widths = [max(len(c.name), 4) + 2 for c in contexts]
    print(("feature".ljust(w0) + "".join(c.name.ljust(w) for c, w in zip(contexts, widths))).rstrip())
    print("-" * (w0 + sum(widths)))
    for f in features:
        row = f.ljust(w0)
        for c, w in zip(contexts, widths):
            row += cells[(f, c.name)]["result"].ljust(w)
        print(row.rstrip())


def split_list(value, known, what):
    if value is None:
        return list(known)
    names = [v.strip() for v in value.split(",") if v.strip()]
    bad = [n for n in names if n not in known]
    if bad:
        sys.exit(f"feature_matrix.py: unknown {what}: {', '.join(bad)} (known: {', '.join(known)})")
    return [n for n in known if n in names]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--halfstep", default=os.path.join(REPO, "build", "halfstep"), help="the halfstep binary")
    ap.add_argument("--contexts", help="comma separated subset of: " + ", ".join(c.name for c in CONTEXTS))
    ap.add_argument("--features", help="comma separated subset of: " + ", ".join(n for n, _ in FEATURES))
    ap.add_argument("--json", help="write the results to this JSON file")
    ap.add_argument("--keep", help="keep the decks and outputs in this folder (default: a temporary one, deleted)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per cell (default 120)")
    a = ap.parse_args()

    halfstep = os.path.abspath(a.halfstep)
    if not (os.path.isfile(halfstep) and os.access(halfstep, os.X_OK)):
        sys.exit(f"feature_matrix.py: no halfstep binary at {halfstep} (build it, or give --halfstep PATH)")
    feature_names = split_list(a.features, [n for n, _ in FEATURES], "feature")
    context_names = split_list(a.contexts, [c.name for c in CONTEXTS], "context")
    contexts = [c for c in CONTEXTS if c.name in context_names]
    builders = dict(FEATURES)

    available = {}
    if any(c.needs == "gpu" for c in contexts):
        available["gpu"] = gpu_available()
    if any(c.needs == "mpirun" for c in contexts):
        available["mpirun"] = shutil.which("mpirun") is not None

    root = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="feature_matrix_")
    t_start = time.monotonic()
    cells = {}
    try:
        for name in feature_names:
            feature = builders[name]()
            for c in contexts:
                if c.needs and not available.get(c.needs):
                    cells[(name, c.name)] = {"feature": name, "context": c.name, "result": "-",
                                             "message": f"not available here (no {c.needs})"}
                    continue
                folder = os.path.join(root, name, c.name)
                if os.path.isdir(folder):
                    shutil.rmtree(folder)  # this cell's own folder from an earlier run
                cell = run_cell(halfstep, name, feature, c, folder, a.timeout)
                cell["deck_note"] = feature.note
                cells[(name, c.name)] = cell
                print(f"  {name:24s} {c.name:26s} {cell['result']:5s} {cell['seconds']:7.2f} s", file=sys.stderr,
                      flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(root, ignore_errors=True)
    total = time.monotonic() - t_start

    print(f"halfstep feature x context matrix ({halfstep})")
    print("ok: runs; ref: refused (exit 2 with a message); FAIL: anything else; -: not available here\n")
    print_table(feature_names, contexts, cells)
    ordered = [cells[(f, c.name)] for f in feature_names for c in contexts]
    refused = [x for x in ordered if x["result"] == "ref"]
    failed = [x for x in ordered if x["result"] == "FAIL"]
    if refused:
        print("\nRefused cells:")
        for x in refused:
            print(f"  {x['feature']} / {x['context']}: {x['message']}")
    if failed:
        print("\nFailed cells:")
        for x in failed:
            print(f"  {x['feature']} / {x['context']}: {x['message']}")
    counts = {k: sum(1 for x in ordered if x["result"] == k) for k in ("ok", "ref", "FAIL", "-")}
    print(f"\n{counts['ok']} cells run, {counts['ref']} refused, {counts['FAIL']} failed, "
          f"{counts['-']} not available ({total:.1f} s)")
    if not a.keep:
        for x in ordered:
            x.pop("folder", None)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"halfstep": halfstep, "features": feature_names, "contexts": context_names,
                       "available": available, "seconds": round(total, 1),
                       "counts": {"run": counts["ok"], "refused": counts["ref"], "failed": counts["FAIL"],
                                  "not_available": counts["-"]},
                       "cells": ordered}, f, indent=1)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
