#!/usr/bin/env python3
"""Generate halfstep solid-element decks (Abaqus-style keyword input, C3D8R/C3D8/C3D4/C3D10M, and
C3D6/C3D10/C3D20R/C3D20).

Usage:  python3 examples/generate_solid_deck.py CASE [options] -o FILE.inp
        python3 examples/generate_solid_deck.py CASE --help

Only the Python standard library is used.  The decks use the keywords halfstep reads for
solids (docs/input.md): *NODE, *ELEMENT TYPE=C3D8R|C3D8|C3D4|C3D10M, *NSET, *MATERIAL with
*ELASTIC (isotropic, TYPE=ENGINEERING CONSTANTS, TYPE=ORTHOTROPIC) or *HYPERELASTIC, NEO HOOKE,
*DENSITY, *DAMPING ALPHA, *ORIENTATION, *SOLID SECTION, *AMPLITUDE (SMOOTH STEP), *INITIAL
CONDITIONS TYPE=VELOCITY, *STEP/*DYNAMIC EXPLICIT, *BOUNDARY (displacement and TYPE=VELOCITY),
*CLOAD, *OUTPUT FIELD/HISTORY with *NODE OUTPUT (U, V, RF).

Cases
-----
bar       Rectangular bar L x W x H along x (default 4 x 1 x 1), nx x ny x nz hex cells
          (8 x 2 x 2).  --element C3D8R|C3D8|C3D4|C3D10M|C3D10|C3D6|C3D20R|C3D20: tetrahedra
          split every hex cell into 6 along its main diagonal (Kuhn/Freudenthal; conforming),
          C3D10M and C3D10 add shared mid-edge nodes, C3D6 cuts each cell into two wedges,
          C3D20R and C3D20 add shared mid-edge nodes to the cells.  --loading:
            stretch     symmetry planes x = 0 (U1 = 0), y = 0 (U2 = 0), z = 0 (U3 = 0), so the
                        lateral contraction is free (exact uniaxial stress); U1 = stretch * L on
                        the x = L face with a SMOOTH STEP over --ramp (default: the first half of
                        the step, then held: the damped transient has died out by the end; with
                        the ramp over the whole step the end value lags by about 0.2 %).
                        History: RF on X0 (X0_total.csv has the set's sum), U on XL.
            prescribed  every node U1 = stretch * x (SMOOTH STEP, as stretch), U2 = U3 = 0: homogeneous
                        F = diag(lambda, 1, 1).  History RF on XL (and X0).
            wave        x = 0 face driven at V1 = v0 (TYPE=VELOCITY, from t = 0, no amplitude),
                        all other faces free, no damping.  History V on XL every period/400.
            impact      every node but the x = 0 face starts at V1 = -v0; the x = 0 face is held
                        (U1 = U2 = U3 = 0): impact on a fixed end.  History RF on X0, V on XL.
            bend        pure bending about z (use with --static N --static-linear): the x = L
                        face turned by U1 = -kappa L (y - W/2) (--curvature), x = 0 and z = 0
                        symmetry planes; the moment E kappa H W^3/12 is exact for quadratic
                        elements.  History RF on XLY0.. (the x = L nodes by y station).
cook      Cook's membrane: the trapezoid (0,0), (48,44), (48,60), (0,44) in x-y, one element
          (thickness 1) thick in z, n x n x 1 hex cells (n = 16), C3D8 (default), C3D8R, or the
          cells split into C3D4/C3D10M tetrahedra.
          Left edge clamped; total vertical shear --load on the right edge as *CLOAD, split
          consistently (end nodes half shares, and over the two z layers), SMOOTH STEP ramp then
          hold, mass-proportional damping for dynamic relaxation.  Default: Neo-Hookean from
          E = 240.565, nu = 0.4999, plane strain (U3 = 0 on every node), load 100, reference
          U2(TOP) = 6.9083.  --linear: E = 1, nu = 1/3 (St. Venant-Kirchhoff), plane stress
          (U3 = 0 only on the z = 0 layer, a symmetry plane), load 1 x --load-factor (1e-3, as
          the solver is geometrically nonlinear: divide U2 by it), reference 23.97.
          History U on TOP (the two nodes at (48, 60)), RF on LEFT.
tet-beam  The seed thesis's mesh family (002, ch. 9): a tetrahedral beam refined by splitting
          every tetrahedron into eight (--level 0..4; edge midpoints, 4 corner tets + 4 from the
          inner octahedron cut along a diagonal, in Bey's vertex order, so that every level has
          the level-0 element shapes at half the size).  The thesis's level 0 (694 tets,
          generator not stated) cannot be reproduced; here level 0 is a 120 x 30 x 30 beam of
          12 x 3 x 3 cubes of 10 (the thesis's 9.87 mm average spacing) split into 6 tets each =
          648 tets, and level l has 648 * 8^l: 648, 5184, 41472, 331776, 2654208.  Clamped at
          x = 0 (U1 = U2 = U3 = 0), pulled at x = L (U1 = stretch * L, SMOOTH STEP over half the
          step, then held; U2, U3 free).
          History RF on X0, U on TIP (the level-0 grid node nearest the end-face centre, kept at
          every level).  --element C3D4 (default) or C3D10M.

Conventions
-----------
* Node orders are Abaqus's: hexes 1-4 counter-clockwise on the bottom face seen from the top,
  5-8 above them; tetrahedra with (x2-x1).((x3-x1)x(x4-x1)) > 0; C3D10M mid-edge nodes
  5:(1-2) 6:(2-3) 7:(3-1) 8:(1-4) 9:(2-4) 10:(3-4).
* Materials (--material): svk (*ELASTIC E, nu: St. Venant-Kirchhoff), neo (*HYPERELASTIC,
  NEO HOOKE with C10 = mu/2, D1 = 2/K from --E/--nu unless --c10/--d1 are given), ortho-eng
  (*ELASTIC, TYPE=ENGINEERING CONSTANTS from --ortho), ortho-stiff (the same material as
  *ELASTIC, TYPE=ORTHOTROPIC: D from inverting the compliance).  --orientation writes an
  *ORIENTATION (local 1 along a, local 2 in the a-b plane, optional extra rotation).
* Quasi-static cases (bar stretch/prescribed, cook, tet-beam) are dynamic relaxations: the
  defaults of --time and --alpha come from an estimate of the lowest natural frequency omega1
  (alpha = 1.4 omega1, about 70 % of critical damping in that mode); they are written into the
  deck's comments.  The solver computes its own stable increment; `halfstep check DECK` prints
  it and the increment count.
* Node sets: X0, XL (faces x = 0, x = L), Y0, Z0, ALL, and case-specific sets.  The deck's
  comment header gives the node and element counts and, where one exists, the closed-form
  reference value.
"""

import argparse
import math
import os
import random
import shlex
import sys

SOLID_TYPES = ["C3D8R", "C3D8", "C3D4", "C3D10M", "C3D10", "C3D6", "C3D20R", "C3D20"]

# ----------------------------------------------------------------------------
# Mesh
# ----------------------------------------------------------------------------


class SolidMesh:
    """Nodes (1-based ids), elements of one type (tuples of node ids) and node sets."""

    def __init__(self):
        self.xyz = []
        self.elems = []
        self.etype = None
        self.nsets = {}

    @property
    def nnode(self):
        return len(self.xyz)

    def add_node(self, p):
        self.xyz.append(tuple(float(v) for v in p))
        return len(self.xyz)

    def coord(self, nid):
        return self.xyz[nid - 1]

    def nodes_where(self, pred):
        return [i + 1 for i, p in enumerate(self.xyz) if pred(*p)]

    def add_nset(self, name, ids):
        ids = list(dict.fromkeys(ids))
        if not ids:
            raise RuntimeError("node set %s would be empty" % name)
        self.nsets[name] = ids

    def nearest(self, p, among=None):
        ids = among if among is not None else range(1, self.nnode + 1)
        best = min(ids, key=lambda i: sum((a - b) ** 2 for a, b in zip(self.coord(i), p)))
        return best

    def min_edge(self):
        """Shortest corner-to-corner edge (for the comment's increment estimate)."""
        best = float("inf")
        if self.etype in ("C3D8", "C3D8R"):
            pairs = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]
        else:
            pairs = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
        for e in self.elems:
            for a, b in pairs:
                p, q = self.coord(e[a]), self.coord(e[b])
                d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2
                if d < best:
                    best = d
        return math.sqrt(best)


def tet_volume6(p1, p2, p3, p4):
    a = [p2[k] - p1[k] for k in range(3)]
    b = [p3[k] - p1[k] for k in range(3)]
    c = [p4[k] - p1[k] for k in range(3)]
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
            + a[2] * (b[0] * c[1] - b[1] * c[0]))


def oriented_tet(mesh, t):
    """(n1, n2, n3, n4) with positive volume (swap n2, n3 otherwise)."""
    v = tet_volume6(*(mesh.coord(n) for n in t))
    if v == 0.0:
        raise RuntimeError("flat tetrahedron %s" % (t,))
    return tuple(t) if v > 0 else (t[0], t[2], t[1], t[3])


def hex_block(mesh, nx, ny, nz, fn):
    """Structured block of hex cells; fn(i, j, k) gives the point.  Returns (ids, hexes).

    ids[k][j][i] are node ids, hexes the 8-node tuples in Abaqus order (positive volume when
    fn maps (i, j, k) to a right-handed frame).
    """
    ids = [[[mesh.add_node(fn(i, j, k)) for i in range(nx + 1)] for j in range(ny + 1)] for k in range(nz + 1)]
    hexes = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                hexes.append((ids[k][j][i], ids[k][j][i + 1], ids[k][j + 1][i + 1], ids[k][j + 1][i],
                              ids[k + 1][j][i], ids[k + 1][j][i + 1], ids[k + 1][j + 1][i + 1], ids[k + 1][j + 1][i]))
    return ids, hexes


# hex corner index by (di, dj, dk)
_HEX_CORNER = {(0, 0, 0): 0, (1, 0, 0): 1, (1, 1, 0): 2, (0, 1, 0): 3,
               (0, 0, 1): 4, (1, 0, 1): 5, (1, 1, 1): 6, (0, 1, 1): 7}
_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


def kuhn_tets(mesh, hexes, orient=True):
    """Split each hex into 6 tetrahedra around its main diagonal (corner 1 to corner 7).

    Every tet is the path (0,0,0) -> e_a -> e_a + e_b -> (1,1,1) for a permutation (a, b, c)
    of the axes.  Each face is cut along the diagonal through its lowest and highest corners,
    the same in the neighbouring cell, so the mesh is conforming.  orient=False keeps the
    path order (for refine_tets); otherwise nodes 2 and 3 are swapped where needed for a
    positive volume.
    """
    tets = []
    for h in hexes:
        for perm in _PERMS:
            p = [0, 0, 0]
            path = [h[_HEX_CORNER[tuple(p)]]]
            for axis in perm:
                p[axis] = 1
                path.append(h[_HEX_CORNER[tuple(p)]])
            tets.append(oriented_tet(mesh, path) if orient else tuple(path))
    return tets


def midpoint_node(mesh, edges, a, b):
    key = (a, b) if a < b else (b, a)
    nid = edges.get(key)
    if nid is None:
        p, q = mesh.coord(a), mesh.coord(b)
        nid = mesh.add_node(tuple(0.5 * (p[k] + q[k]) for k in range(3)))
        edges[key] = nid
    return nid


def refine_tets(mesh, tets):
    """1 -> 8 subdivision at the edge midpoints (red refinement, Bey 1995; Liu & Joe 1996):
    4 corner tets, and the inner octahedron cut along the diagonal x02-x13 into 4, with Bey's
    vertex order.  Applied to Kuhn tetrahedra in path order (kuhn_tets(orient=False)) every
    child is again a Kuhn tetrahedron in path order, half the size (Freudenthal), so all levels
    have the same element shapes and the stable increment halves per level.  The input and
    output keep the vertex order (orient the result with oriented_tet before writing)."""
    edges = {}
    out = []
    for x0, x1, x2, x3 in tets:
        x01, x02, x03 = midpoint_node(mesh, edges, x0, x1), midpoint_node(mesh, edges, x0, x2), midpoint_node(mesh, edges, x0, x3)
        x12, x13, x23 = midpoint_node(mesh, edges, x1, x2), midpoint_node(mesh, edges, x1, x3), midpoint_node(mesh, edges, x2, x3)
        out += [(x0, x01, x02, x03), (x01, x1, x12, x13), (x02, x12, x2, x23), (x03, x13, x23, x3),
                (x01, x02, x03, x13), (x01, x02, x12, x13), (x02, x03, x13, x23), (x02, x12, x13, x23)]
    return out


def quadratic_tets(mesh, tets):
    """C3D10M connectivity: corners + shared mid-edge nodes 5:(1-2) 6:(2-3) 7:(3-1) 8:(1-4)
    9:(2-4) 10:(3-4)."""
    edges = {}
    out = []
    for t in tets:
        a, b, c, d = t
        out.append((a, b, c, d,
                    midpoint_node(mesh, edges, a, b), midpoint_node(mesh, edges, b, c),
                    midpoint_node(mesh, edges, c, a), midpoint_node(mesh, edges, a, d),
                    midpoint_node(mesh, edges, b, d), midpoint_node(mesh, edges, c, d)))
    return out


def wedges(hexes):
    """C3D6 connectivity: each hex cell cut into two prisms along its bottom face's diagonal
    1-3 (the same diagonal on the top face), triangles counter-clockwise seen from the top."""
    out = []
    for h in hexes:
        out.append((h[0], h[1], h[2], h[4], h[5], h[6]))
        out.append((h[0], h[2], h[3], h[4], h[6], h[7]))
    return out


_HEX20_EDGES = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]


def quadratic_hexes(mesh, hexes):
    """C3D20 connectivity: corners + shared mid-edge nodes 9:(1-2) 10:(2-3) 11:(3-4) 12:(4-1)
    13:(5-6) 14:(6-7) 15:(7-8) 16:(8-5) 17:(1-5) 18:(2-6) 19:(3-7) 20:(4-8)."""
    edges = {}
    return [tuple(h) + tuple(midpoint_node(mesh, edges, h[a], h[b]) for a, b in _HEX20_EDGES) for h in hexes]


def set_elements(mesh, hexes, etype):
    """Hex cells -> the elements of etype (hexes as they are, tets by the Kuhn split)."""
    mesh.etype = etype
    if etype in ("C3D8", "C3D8R"):
        mesh.elems = list(hexes)
    elif etype == "C3D4":
        mesh.elems = kuhn_tets(mesh, hexes)
    elif etype in ("C3D10M", "C3D10"):
        mesh.elems = quadratic_tets(mesh, kuhn_tets(mesh, hexes))
    elif etype == "C3D6":
        mesh.elems = wedges(hexes)
    elif etype in ("C3D20", "C3D20R"):
        mesh.elems = quadratic_hexes(mesh, hexes)
    else:
        raise SystemExit("unknown element type %s" % etype)


# ----------------------------------------------------------------------------
# Materials and closed forms
# ----------------------------------------------------------------------------


def inv3(a):
    det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
           + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    if det <= 0:
        raise SystemExit("orthotropic constants: the compliance is not positive definite")
    c = [[0.0] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(3):
            i1, i2 = [k for k in range(3) if k != j]
            j1, j2 = [k for k in range(3) if k != i]
            c[i][j] = ((-1) ** (i + j)) * (a[i1][j1] * a[i2][j2] - a[i1][j2] * a[i2][j1]) / det
    return c


def ortho_stiffness(c):
    """Engineering constants (E1,E2,E3,nu12,nu13,nu23,G12,G13,G23) -> Abaqus D1111, D1122,
    D2222, D1133, D2233, D3333, D1212, D1313, D2323."""
    E1, E2, E3, n12, n13, n23, G12, G13, G23 = c
    S = [[1 / E1, -n12 / E1, -n13 / E1], [-n12 / E1, 1 / E2, -n23 / E2], [-n13 / E1, -n23 / E2, 1 / E3]]
    C = inv3(S)
    return [C[0][0], C[0][1], C[1][1], C[0][2], C[1][2], C[2][2], G12, G13, G23]


def orientation_axes(spec):
    """Rows: local axes 1, 2, 3 in global components (as src/solver/solid_mesh.cpp)."""
    if spec is None:
        return [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]
    a, b = spec["a"], spec["b"]

    def unit(v):
        n = math.sqrt(sum(x * x for x in v))
        return [x / n for x in v]

    def cross(u, v):
        return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]

    e = [unit(a), None, unit(cross(a, b))]
    e[1] = cross(e[2], e[0])
    axis, ang = spec.get("axis"), spec.get("angle", 0.0)
    if axis and ang:
        i, j = axis % 3, (axis + 1) % 3
        cs, sn = math.cos(math.radians(ang)), math.sin(math.radians(ang))
        ei = [cs * e[i][k] + sn * e[j][k] for k in range(3)]
        ej = [cs * e[j][k] - sn * e[i][k] for k in range(3)]
        e[i], e[j] = ei, ej
    return e


class Material:
    def __init__(self, args):
        self.kind = args.material
        self.rho = args.rho
        self.E, self.nu = args.E, args.nu
        self.orientation = parse_orientation(args.orientation)
        if self.kind in ("svk", "j2"):
            if not (-1 < self.nu < 0.5):
                raise SystemExit("--nu must be in (-1, 0.5)")
            # The cook case has no plasticity options (its --linear material is plain svk).
            self.sy0, self.hard = getattr(args, "yield_stress", None), getattr(args, "hardening", None)
            if self.kind == "j2" and not (self.sy0 > 0 and self.hard >= 0):
                raise SystemExit("--yield must be positive and --hardening not negative")
        elif self.kind == "neo":
            mu = self.E / (2 * (1 + self.nu))
            K = self.E / (3 * (1 - 2 * self.nu))
            self.c10 = args.c10 if args.c10 is not None else mu / 2
            self.d1 = args.d1 if args.d1 is not None else 2 / K
            mu, K = 2 * self.c10, 2 / self.d1
            self.E = 9 * K * mu / (3 * K + mu)
            self.nu = (3 * K - 2 * mu) / (2 * (3 * K + mu))
        elif self.kind in ("ortho-eng", "ortho-stiff"):
            vals = [float(v) for v in args.ortho.split(",")]
            if len(vals) != 9:
                raise SystemExit("--ortho needs nine values E1,E2,E3,nu12,nu13,nu23,G12,G13,G23")
            self.eng = vals
            self.D = ortho_stiffness(vals)
        else:
            raise SystemExit("unknown material %s" % self.kind)
        if self.orientation and self.kind not in ("ortho-eng", "ortho-stiff"):
            sys.stderr.write("note: --orientation has no effect on an isotropic material\n")

    def lines(self, name):
        L = ["*MATERIAL, NAME=%s" % name]
        if self.kind in ("svk", "j2"):
            L += ["*ELASTIC", "%s, %s" % (fmt(self.E), fmt(self.nu))]
            if self.kind == "j2":  # linear hardening up to a plastic strain of 1, then perfectly plastic
                L += ["*PLASTIC", "%s, 0" % fmt(self.sy0), "%s, 1" % fmt(self.sy0 + self.hard)]
        elif self.kind == "neo":
            L += ["*HYPERELASTIC, NEO HOOKE", "%s, %s" % (fmt(self.c10), fmt(self.d1))]
        elif self.kind == "ortho-eng":
            L += ["*ELASTIC, TYPE=ENGINEERING CONSTANTS", ", ".join(fmt(v) for v in self.eng[:8]), fmt(self.eng[8])]
        else:
            L += ["*ELASTIC, TYPE=ORTHOTROPIC", ", ".join(fmt(v) for v in self.D[:8]), fmt(self.D[8])]
        L += ["*DENSITY", fmt(self.rho)]
        return L

    def describe(self):
        if self.kind == "svk":
            return "St. Venant-Kirchhoff E = %s nu = %s rho = %s" % (fmt(self.E), fmt(self.nu), fmt(self.rho))
        if self.kind == "j2":
            return "J2 plasticity on St. Venant-Kirchhoff E = %s nu = %s, yield %s + %s PEEQ, rho = %s" % (
                fmt(self.E), fmt(self.nu), fmt(self.sy0), fmt(self.hard), fmt(self.rho))
        if self.kind == "neo":
            return "Neo-Hookean C10 = %s D1 = %s (mu = %s K = %s; E = %s nu = %s) rho = %s" % (
                fmt(self.c10), fmt(self.d1), fmt(2 * self.c10), fmt(2 / self.d1), fmt(self.E), fmt(self.nu), fmt(self.rho))
        return "orthotropic (%s) E1..G23 = %s rho = %s; D = %s" % (
            self.kind, " ".join(fmt(v) for v in self.eng), fmt(self.rho), " ".join(fmt(sig(v, 6)) for v in self.D))

    def local_stiffness(self):
        """6x6 Voigt stiffness (11,22,33,23,13,12; engineering shear) in material axes."""
        C = [[0.0] * 6 for _ in range(6)]
        if self.kind in ("svk", "neo", "j2"):
            lam = self.E * self.nu / ((1 + self.nu) * (1 - 2 * self.nu))
            mu = self.E / (2 * (1 + self.nu))
            for i in range(3):
                for j in range(3):
                    C[i][j] = lam + (2 * mu if i == j else 0.0)
                C[3 + i][3 + i] = mu
            return C
        D = self.D
        C[0][0], C[0][1], C[1][1], C[0][2], C[1][2], C[2][2] = D[0], D[1], D[2], D[3], D[4], D[5]
        C[1][0], C[2][0], C[2][1] = D[1], D[3], D[4]
        C[5][5], C[4][4], C[3][3] = D[6], D[7], D[8]
        return C

    def global_c1111(self):
        """C'_1111 in global axes (4th-order rotation of the material stiffness)."""
        if self.kind not in ("ortho-eng", "ortho-stiff"):
            return self.local_stiffness()[0][0]
        A = orientation_axes(self.orientation)
        d = [A[i][0] for i in range(3)]  # global x in material components
        C = self.local_stiffness()
        voigt = {(0, 0): 0, (1, 1): 1, (2, 2): 2, (1, 2): 3, (2, 1): 3, (0, 2): 4, (2, 0): 4, (0, 1): 5, (1, 0): 5}
        s = 0.0
        for i in range(3):
            for j in range(3):
                for k in range(3):
                    for l in range(3):
                        s += d[i] * d[j] * d[k] * d[l] * C[voigt[(i, j)]][voigt[(k, l)]]
        return s

    def axial_modulus(self):
        """Young's modulus along global x (uniaxial S11 / E11)."""
        if self.kind in ("svk", "neo", "j2"):
            return self.E
        A = orientation_axes(self.orientation)
        d = [A[i][0] for i in range(3)]
        E1, E2, E3, n12, n13, n23, G12, G13, G23 = self.eng
        Ei = [E1, E2, E3]
        inv = sum(d[i] ** 4 / Ei[i] for i in range(3))
        for (i, j, G, nu) in ((0, 1, G12, n12), (0, 2, G13, n13), (1, 2, G23, n23)):
            inv += d[i] ** 2 * d[j] ** 2 * (1 / G - 2 * nu / Ei[i])
        return 1 / inv

    def p_wave_modulus(self):
        C = self.local_stiffness()
        return max(C[i][i] for i in range(3))

    def aligned(self):
        """True when the material axes are the global axes up to sign and permutation."""
        A = orientation_axes(self.orientation)
        return all(sum(1 for v in row if abs(v) > 1e-12) == 1 for row in A)


def neo_uniaxial(c10, d1, lam):
    """Abaqus Neo-Hookean, uniaxial stress F = diag(lam, t, t): returns (P11, t).

    sigma22 = 0 gives g(J) = (2/D1)(J - 1) J^(5/3) - (2 C10/3)(lam^2 - J/lam) = 0 (bisection),
    t^2 = J/lam, P11 = 2 C10 J^(-2/3) (lam^2 - t^2) / lam.
    """
    def g(J):
        return (2 / d1) * (J - 1) * J ** (5.0 / 3.0) - (2 * c10 / 3) * (lam * lam - J / lam)
    lo, hi = 1e-12, 2.0
    while g(hi) < 0:
        hi *= 2
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) < 0:
            lo = mid
        else:
            hi = mid
    J = 0.5 * (lo + hi)
    t2 = J / lam
    return 2 * c10 * J ** (-2.0 / 3.0) * (lam * lam - t2) / lam, math.sqrt(t2)


def parse_orientation(text):
    if not text:
        return None
    v = [float(x) for x in text.split(",")]
    if len(v) not in (6, 8):
        raise SystemExit("--orientation takes a1,a2,a3,b1,b2,b3[,axis,angle]")
    o = {"a": v[0:3], "b": v[3:6]}
    if len(v) == 8:
        o["axis"], o["angle"] = int(v[6]), v[7]
    return o


# ----------------------------------------------------------------------------
# Deck writer
# ----------------------------------------------------------------------------


def fmt(v):
    if isinstance(v, int):
        return str(v)
    s = "%.12g" % v
    return "0" if s == "-0" else s


def sig(v, n=4):
    return float("%.*g" % (n, v))


def nset_lines(name, ids):
    n = len(ids)
    if n >= 3:
        d = ids[1] - ids[0]
        if d > 0 and all(ids[k + 1] - ids[k] == d for k in range(n - 1)):
            return ["*NSET, NSET=%s, GENERATE" % name, "%d, %d, %d" % (ids[0], ids[-1], d)]
    out = ["*NSET, NSET=%s" % name]
    for k in range(0, n, 16):
        out.append(", ".join(str(i) for i in ids[k:k + 16]))
    return out


class Deck:
    def __init__(self):
        self.heading = []
        self.comments = []
        self.mesh = None
        self.material = None
        self.alpha = 0.0
        self.amplitudes = []  # (name, [(t, a), ...]) SMOOTH STEP
        self.init_vel = []  # (nset, dof, value)
        self.time = None
        self.boundaries = []  # (params, [data lines])
        self.cloads = []  # (amplitude, [(nset, dof, value)])
        self.field_interval = 0
        self.history_interval = None
        self.history = []  # (nset, variables)
        self.static_increments = 0  # > 0: a *STATIC step of that many equal increments
        self.static_nlgeom = True
        self.formulation = None  # *SOLID SECTION, FORMULATION= (halfstep's FPM hexahedron)
        self.no_bulk_viscosity = False  # explicit steps: *BULK VISCOSITY 0, 0
        self.shuffle = None  # seed: labels permuted and nodes/elements written in random order

    def formulation_param(self):
        return ", FORMULATION=%s" % self.formulation if self.formulation else ""

    def write(self, path):
        m = self.mesh
        c = math.sqrt(self.material.p_wave_modulus() / self.material.rho)
        le = m.min_edge()
        L = ["*HEADING"]
        L += [h.replace(",", ";") for h in self.heading]
        L.append("**")
        L.append("** Mesh: %d nodes, %d %s elements; node sets: %s" % (m.nnode, len(m.elems), m.etype, ", ".join(m.nsets)))
        L.append("** Material: %s" % self.material.describe())
        L.append("** Wave speed sqrt(M/rho) = %s, shortest corner edge %s: edge/c = %s; the solver's increment is"
                 % (fmt(sig(c)), fmt(sig(le)), fmt(sig(le / c))))
        L.append("** smaller (element-wise bound; `halfstep check` prints it and the increment count).")
        for cm in self.comments:
            L.append("** " + cm if cm else "**")
        L.append("**")
        # --shuffle SEED: node and element labels permuted at random and the records written in
        # random order, as decks from pre-processors often are (same mesh; the sets follow).
        rng = random.Random(self.shuffle) if self.shuffle is not None else None
        nlab = list(range(1, m.nnode + 1))
        elab = list(range(1, len(m.elems) + 1))
        if rng:
            rng.shuffle(nlab)
            rng.shuffle(elab)
        L.append("*NODE, NSET=ALL")
        records = [["%d, %s, %s, %s" % (nlab[i], fmt(p[0]), fmt(p[1]), fmt(p[2]))] for i, p in enumerate(m.xyz)]
        if rng:
            rng.shuffle(records)
        L.extend(line for r in records for line in r)
        L.append("*ELEMENT, TYPE=%s, ELSET=SOLID" % m.etype)
        # At most 16 entries per data line (Abaqus's rule): a C3D20 continues on a second line.
        records = []
        for k, e in enumerate(m.elems):
            ids = [str(elab[k])] + [str(nlab[n - 1]) for n in e]
            records.append([", ".join(ids[:16]) + ("," if len(ids) > 16 else "")] +
                           ([", ".join(ids[16:])] if len(ids) > 16 else []))
        if rng:
            rng.shuffle(records)
        L.extend(line for r in records for line in r)
        for name, ids in m.nsets.items():
            if name != "ALL":
                L.extend(nset_lines(name, [nlab[i - 1] for i in ids]))
        L.extend(self.material.lines("MAT"))
        if self.alpha and self.alpha > 0:
            L.append("*DAMPING, ALPHA=%s" % fmt(self.alpha))
        o = self.material.orientation
        if o:
            L.append("*ORIENTATION, NAME=ORI, SYSTEM=RECTANGULAR")
            L.append(", ".join(fmt(v) for v in o["a"] + o["b"]))
            if "axis" in o:
                L.append("%d, %s" % (o["axis"], fmt(o["angle"])))
            L.append("*SOLID SECTION, ELSET=SOLID, MATERIAL=MAT, ORIENTATION=ORI" + self.formulation_param())
        else:
            L.append("*SOLID SECTION, ELSET=SOLID, MATERIAL=MAT" + self.formulation_param())
        for name, pts in self.amplitudes:
            L.append("*AMPLITUDE, NAME=%s, DEFINITION=SMOOTH STEP" % name)
            L.append(", ".join("%s, %s" % (fmt(t), fmt(a)) for t, a in pts))
        if self.init_vel:
            L.append("*INITIAL CONDITIONS, TYPE=VELOCITY")
            L.extend("%s, %d, %s" % (ns, dof, fmt(v)) for ns, dof, v in self.init_vel)
        if self.static_increments > 0:
            # Loads ramp over a static step by default: no amplitude, period 1, no damping needed.
            L.append("*STEP, NAME=Load, NLGEOM=%s, INC=%d" % ("YES" if self.static_nlgeom else "NO",
                                                               100 * self.static_increments))
            L.append("*STATIC")
            L.append("%s, 1" % fmt(1.0 / self.static_increments))
            self.cloads = [(None, rows) for _, rows in self.cloads]
            self.boundaries = [(p.replace(", AMPLITUDE=RAMP", ""), rows) for p, rows in self.boundaries]
            self.history_interval = None
        else:
            L.append("*STEP, NAME=Load")
            L.append("*DYNAMIC, EXPLICIT")
            L.append(", %s" % fmt(self.time))
            if self.no_bulk_viscosity:
                L += ["*BULK VISCOSITY", "0., 0."]
        for params, rows in self.boundaries:
            L.append("*BOUNDARY" + params)
            L.extend(rows)
        for amp, rows in self.cloads:
            L.append("*CLOAD" + (", AMPLITUDE=%s" % amp if amp else ""))
            L.extend("%s, %d, %s" % (ns, dof, fmt(v)) for ns, dof, v in rows)
        if self.field_interval and self.field_interval > 0:
            L.append("*OUTPUT, FIELD, NUMBER INTERVAL=%d" % self.field_interval)
            L.append("*NODE OUTPUT")
            L.append("U, V, RF")
            L.append("*ELEMENT OUTPUT")
            L.append("S, E, PEEQ" if self.material.kind == "j2" else "S, E")
        if self.history:
            L.append("*OUTPUT, HISTORY" + (", TIME INTERVAL=%s" % fmt(self.history_interval) if self.history_interval else ""))
            for ns, variables in self.history:
                L.append("*NODE OUTPUT, NSET=%s" % ns)
                L.append(variables)
        L.append("*END STEP")
        L.append("")
        with open(path, "w") as f:
            f.write("\n".join(L))


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------


def face_sets(mesh, L, W, H):
    tol = 1e-9 * max(L, W, H)
    mesh.add_nset("ALL", range(1, mesh.nnode + 1))
    mesh.add_nset("X0", mesh.nodes_where(lambda x, y, z: abs(x) < tol))
    mesh.add_nset("XL", mesh.nodes_where(lambda x, y, z: abs(x - L) < tol))
    mesh.add_nset("Y0", mesh.nodes_where(lambda x, y, z: abs(y) < tol))
    mesh.add_nset("Z0", mesh.nodes_where(lambda x, y, z: abs(z) < tol))


def smooth_ramp(deck, ramp, time, name="RAMP"):
    ramp = time if ramp is None else ramp
    if ramp <= 0 or ramp > time:
        raise SystemExit("--ramp must be in (0, time]")
    pts = [(0.0, 0.0), (ramp, 1.0)] + ([(time, 1.0)] if ramp < time else [])
    deck.amplitudes.append((name, pts))
    return name, "SMOOTH STEP 0 -> 1 over %s%s" % (fmt(ramp), " then held to %s" % fmt(time) if ramp < time else " (the whole step)")


def x_station_sets(mesh, prefix="PX"):
    """One node set per distinct x (ordered), for per-station prescribed values."""
    xs = {}
    for i, p in enumerate(mesh.xyz):
        xs.setdefault(round(p[0], 12), []).append(i + 1)
    names = []
    for q, x in enumerate(sorted(xs)):
        name = "%s%d" % (prefix, q)
        mesh.add_nset(name, xs[x])
        names.append((name, x))
    return names


def case_bar(args):
    L, W, H = args.length, args.width, args.height
    nx, ny, nz = args.nx, args.ny, args.nz
    mat = Material(args)
    mesh = SolidMesh()
    _, hexes = hex_block(mesh, nx, ny, nz, lambda i, j, k: (L * i / nx, W * j / ny, H * k / nz))
    set_elements(mesh, hexes, args.element)
    face_sets(mesh, L, W, H)
    deck = Deck()
    deck.mesh, deck.material = mesh, mat
    A = W * H
    lam = 1.0 + args.stretch
    Ex = mat.axial_modulus()
    c_ax = math.sqrt(Ex / mat.rho)
    loading = args.loading
    heading = "halfstep solid bar (%s): %s x %s x %s along x; %d x %d x %d cells of %s; loading %s" % (
        "examples/generate_solid_deck.py", fmt(L), fmt(W), fmt(H), nx, ny, nz, args.element, loading)
    deck.heading = [heading]
    cm = []
    if loading in ("stretch", "prescribed"):
        omega1 = math.pi * c_ax / L  # axial, both ends held in x
        T1 = 2 * math.pi / omega1
        deck.time = args.time if args.time is not None else sig(6 * T1, 3)
        deck.alpha = args.alpha if args.alpha is not None else sig(1.4 * omega1, 3)
        amp, amp_txt = smooth_ramp(deck, args.ramp if args.ramp is not None else 0.5 * deck.time, deck.time)
        cm.append("Axial omega1 = pi c/L = %s (c = sqrt(E_x/rho) = %s, E_x = %s), T1 = %s; time %s, alpha %s." % (
            fmt(sig(omega1)), fmt(sig(c_ax)), fmt(sig(Ex)), fmt(sig(T1)), fmt(deck.time), fmt(deck.alpha)))
        cm.append("Amplitude RAMP: %s." % amp_txt)
        if loading == "stretch":
            deck.boundaries = [("", ["X0, 1, 1", "Y0, 2, 2", "Z0, 3, 3"]),
                               (", AMPLITUDE=%s" % amp, ["XL, 1, 1, %s" % fmt(args.stretch * L)])]
            deck.history = [("X0", "U, RF"), ("XL", "U, V, RF")]
            cm.append("BCs: symmetry planes X0 U1 = 0, Y0 U2 = 0, Z0 U3 = 0; XL U1 = %s (lambda = %s): uniaxial stress."
                      % (fmt(args.stretch * L), fmt(lam)))
            if mat.kind == "neo":
                P, t = neo_uniaxial(mat.c10, mat.d1, lam)
                cm.append("Reference: |sum RF1(X0)| = P11 W H = %s (Neo-Hookean uniaxial; lateral stretch %s)."
                          % (fmt(sig(P * A, 8)), fmt(sig(t, 8))))
            elif mat.kind == "j2":
                e = math.log(lam)
                ep = max(0.0, (mat.E * e - mat.sy0) / (mat.E + mat.hard))
                tau = mat.E * e if ep == 0.0 else mat.sy0 + mat.hard * ep
                cm.append("Reference: |sum RF1(X0)| = tau11 W H / lambda = %s, tau11 = %s, PEEQ = %s (finite-strain J2, "
                          "uniaxial stress: tau11 = E (ln lambda - PEEQ) = yield(PEEQ))." % (
                              fmt(sig(tau * A / lam, 8)), fmt(sig(tau, 8)), fmt(sig(ep, 8))))
            elif mat.kind == "svk" or mat.aligned():
                P = Ex * lam * (lam * lam - 1) / 2
                cm.append("Reference: |sum RF1(X0)| = E_x lambda (lambda^2 - 1)/2 W H = %s (SVK uniaxial stress)."
                          % fmt(sig(P * A, 8)))
            else:
                cm.append("Material axes off the global axes: the symmetry planes restrain the shear coupling;"
                          " no closed form here.")
        else:
            stations = x_station_sets(mesh)
            rows = [("%s, 1, 1, %s" % (nm, fmt(args.stretch * x))) for nm, x in stations if x != 0.0]
            deck.boundaries = [("", ["ALL, 2, 3"] + ["%s, 1, 1" % nm for nm, x in stations if x == 0.0]),
                               (", AMPLITUDE=%s" % amp, rows)]
            deck.history = [("XL", "U, RF"), ("X0", "U, RF")]
            P = lam * mat.global_c1111() * (lam * lam - 1) / 2 if mat.kind != "neo" else float("nan")
            cm.append("BCs: every node U1 = %s x (sets PX0..PX%d by x station), U2 = U3 = 0: F = diag(%s, 1, 1)."
                      % (fmt(args.stretch), len(stations) - 1, fmt(lam)))
            if mat.kind == "j2":
                # Uniaxial strain, log strain e = ln lambda, plastic log strain p diag(1, -1/2, -1/2):
                # the trial Mises stress is 2 mu e - 3 mu p, so p = (2 mu e - sy0) / (3 mu + H) and
                # the Kirchhoff stress tau11 = K e + 2/3 yield(p) (exact on this proportional path).
                e = math.log(lam)
                mu = mat.E / (2 * (1 + mat.nu))
                K = mat.E / (3 * (1 - 2 * mat.nu))
                p = max(0.0, (2 * mu * e - mat.sy0) / (3 * mu + mat.hard))
                tau = K * e + (2.0 / 3.0) * (mat.sy0 + mat.hard * p) if p > 0 else (K + 4 * mu / 3) * e
                cm.append("Reference: sum RF1(XL) = tau11 W H / lambda = %s, tau11 = %s, PEEQ = %s (finite-strain J2, "
                          "uniaxial strain: tau11 = K ln(lambda) + 2/3 yield(PEEQ))." % (
                              fmt(sig(tau * A / lam, 8)), fmt(sig(tau, 8)), fmt(sig(p, 8))))
            elif mat.kind != "neo":
                cm.append("Reference: sum RF1(XL) = lambda C'1111 E11 W H = %s (C'1111 = %s in global axes)."
                          % (fmt(sig(P * A, 8)), fmt(sig(mat.global_c1111(), 8))))
        hist_every = args.history_every if args.history_every is not None else 0.01
    elif loading == "bend":
        # Pure bending about z (neutral axis y = W/2): the x = L face turned by the prescribed
        # U1 = -kappa L (y - W/2), per y station; the other faces free. Linear elasticity's
        # exact solution is quadratic (u_x = -kappa x (y - W/2), u_y = kappa/2 (x^2 + nu ((y -
        # W/2)^2 - z^2)), u_z = kappa nu (y - W/2) z), which quadratic elements reproduce.
        kappa = args.curvature
        deck.time = args.time if args.time is not None else 1.0
        deck.alpha = args.alpha if args.alpha is not None else 0.0
        tol = 1e-9 * max(L, W, H)
        ys = sorted({round(p[1], 12) for p in mesh.xyz if abs(p[0] - L) < tol})
        rows = []
        for q, yv in enumerate(ys):
            name = "XLY%d" % q
            mesh.add_nset(name, mesh.nodes_where(lambda x, y, z, yv=yv: abs(x - L) < tol and abs(y - yv) < tol))
            rows.append("%s, 1, 1, %s" % (name, fmt(-kappa * L * (yv - W / 2))))
        pin = mesh.nearest((0.0, W / 2, 0.0))
        mesh.add_nset("PIN", [pin])
        deck.boundaries = [("", ["X0, 1, 1", "Z0, 3, 3", "PIN, 2, 2"] + rows)]
        deck.history = [("XLY%d" % q, "RF") for q in range(len(ys))]
        hist_every = args.history_every if args.history_every is not None else 1.0
        moment = mat.E * kappa * H * W ** 3 / 12
        cm.append("Pure bending: X0 U1 = 0, Z0 U3 = 0, PIN (0; W/2; 0) U2 = 0; XLY<q> (x = L, y = y_q) U1 = -kappa L (y_q - W/2),"
                  " kappa = %s (static steps: no amplitude)." % fmt(kappa))
        cm.append("Reference: M = -sum_q RF1(XLY<q>) (y_q - W/2) = E kappa H W^3 / 12 = %s (y stations %s)."
                  % (fmt(sig(moment, 10)), "; ".join(fmt(v) for v in ys)))
    elif loading == "wave":
        c0 = c_ax
        deck.time = args.time if args.time is not None else sig(1.5 * L / c0, 4)
        deck.alpha = args.alpha if args.alpha is not None else 0.0
        deck.boundaries = [(", TYPE=VELOCITY", ["X0, 1, 1, %s" % fmt(args.v0)])]
        deck.history = [("XL", "U, V"), ("X0", "U, V, RF")]
        hist_every = args.history_every if args.history_every is not None else 1.0 / 400
        cm.append("x = 0 face driven at V1 = %s from t = 0 (TYPE=VELOCITY, no amplitude); other faces free." % fmt(args.v0))
        cm.append("Reference (nu = 0: c0 = sqrt(E/rho) = %s): the front reaches XL at L/c0 = %s, where V1 jumps to 2 v0 = %s."
                  % (fmt(sig(c0, 8)), fmt(sig(L / c0, 8)), fmt(2 * args.v0)))
    elif loading == "impact":
        c0 = c_ax
        deck.time = args.time if args.time is not None else sig(2.5 * L / c0, 4)
        deck.alpha = args.alpha if args.alpha is not None else 0.0
        tol = 1e-9 * L
        moving = mesh.nodes_where(lambda x, y, z: abs(x) >= tol)
        mesh.add_nset("MOVING", moving)
        deck.init_vel = [("MOVING", 1, -args.v0)]
        deck.boundaries = [("", ["X0, 1, 3"])]
        deck.history = [("X0", "U, RF"), ("XL", "U, V")]
        hist_every = args.history_every if args.history_every is not None else 1.0 / 400
        cm.append("Every node off x = 0 (set MOVING) starts at V1 = -%s; X0 held (U1 = U2 = U3 = 0)." % fmt(args.v0))
        cm.append("Reference (nu = 0): contact force rho c0 v0 W H = %s for 0 < t < 2L/c0 = %s; XL velocity +v0 after L/c0 = %s."
                  % (fmt(sig(mat.rho * c0 * args.v0 * A, 8)), fmt(sig(2 * L / c0, 8)), fmt(sig(L / c0, 8))))
    else:
        raise SystemExit("unknown loading %s" % loading)
    deck.history_interval = sig(hist_every * deck.time, 6)
    deck.field_interval = args.field_interval
    deck.comments = cm
    return deck


def case_cook(args):
    n = args.n
    etype = args.element
    t = args.thickness
    if args.linear:
        args.material = "svk"
        args.E = 1.0 if args.E_given is None else args.E_given
        args.nu = 1.0 / 3.0 if args.nu_given is None else args.nu_given
        load = (args.load if args.load is not None else 1.0) * args.load_factor * t
        ref, C = 23.97, 23.97  # tip deflection x E / (shear per unit thickness)
    else:
        args.material = "neo"
        args.E = 240.565 if args.E_given is None else args.E_given
        args.nu = 0.4999 if args.nu_given is None else args.nu_given
        load = (args.load if args.load is not None else 100.0) * t
        ref, C = 6.9083, 6.9083 * 240.565 / 100.0
    mat = Material(args)
    mesh = SolidMesh()

    def point(i, j, k):
        x = 48.0 * i / n
        yb, yt = 44.0 * x / 48.0, 44.0 + 16.0 * x / 48.0
        return (x, yb + (yt - yb) * j / n, t * k)

    ids, hexes = hex_block(mesh, n, n, 1, point)
    set_elements(mesh, hexes, etype)
    mesh.add_nset("ALL", range(1, mesh.nnode + 1))
    mesh.add_nset("LEFT", [ids[k][j][0] for k in range(2) for j in range(n + 1)])
    mesh.add_nset("TOP", [ids[0][n][n], ids[1][n][n]])
    mesh.add_nset("Z0", [ids[0][j][i] for j in range(n + 1) for i in range(n + 1)])
    # consistent shares of a uniform shear on the right edge: ends 1/(2n), inside 1/n; half per layer
    mesh.add_nset("RIGHTEND", [ids[k][j][n] for k in range(2) for j in (0, n)])
    mesh.add_nset("RIGHTINT", [ids[k][j][n] for k in range(2) for j in range(1, n)])
    deck = Deck()
    deck.mesh, deck.material = mesh, mat
    # omega1 from the static stiffness E t / C and a tip-mode mass of 0.24 of the total
    area = 48.0 * (44.0 + 16.0) / 2.0
    omega1 = math.sqrt(mat.E / (C * 0.24 * mat.rho * area))
    T1 = 2 * math.pi / omega1
    ramp = args.ramp if args.ramp is not None else sig(1.2 * T1, 3)
    deck.time = args.time if args.time is not None else sig(3.0 * T1, 3)
    deck.alpha = args.alpha if args.alpha is not None else sig(1.4 * omega1, 3)
    amp, amp_txt = smooth_ramp(deck, ramp, deck.time)
    deck.cloads = [(amp, [("RIGHTEND", 2, load / (4.0 * n)), ("RIGHTINT", 2, load / (2.0 * n))])]
    if args.linear:
        deck.boundaries = [("", ["LEFT, 1, 2", "Z0, 3, 3"])]
    else:
        deck.boundaries = [("", ["LEFT, 1, 3", "ALL, 3, 3"])]
    deck.history = [("TOP", "U, V"), ("LEFT", "RF")]
    deck.history_interval = sig((args.history_every if args.history_every is not None else 0.01) * deck.time, 6)
    deck.field_interval = args.field_interval
    if args.linear:
        deck.heading = ["halfstep solid example: Cook's membrane; linear plane stress (E = 1 nu = 1/3 shear 1)",
                        "Reference: U2(TOP) = 23.97 x load factor %s = %s" % (fmt(args.load_factor), fmt(sig(23.97 * args.load_factor, 6)))]
    else:
        deck.heading = ["halfstep solid example: Cook's membrane; Neo-Hookean plane strain (E = 240.565 nu = 0.4999 shear 100)",
                        "Reference: U2(TOP) = 6.9083"]
    deck.comments = [
        "Trapezoid (0;0) (48;44) (48;60) (0;44) in x-y; %d x %d x 1 %s cells; thickness %s in z." % (n, n, etype, fmt(t)),
        ("BCs: LEFT (x = 0) U1 = U2 = 0; Z0 (z = 0 layer) U3 = 0: a symmetry plane, so the z = %s layer contracts"
         " freely: plane stress." % fmt(t)) if args.linear else
        "BCs: LEFT (x = 0) U1 = U2 = U3 = 0; ALL U3 = 0: plane strain.",
        "Load: total shear %s in +y on the right edge (x = 48): RIGHTEND (4 corner nodes) %s each, RIGHTINT (%d nodes) %s each%s."
        % (fmt(load), fmt(load / (4.0 * n)), 2 * (n - 1), fmt(load / (2.0 * n)),
           "" if etype in ("C3D8", "C3D8R") else " (the hex-face shares on the cell corners; not consistent for tet faces)"),
        "Amplitude RAMP: %s; damping alpha = %s." % (amp_txt, fmt(deck.alpha)),
        "omega1 estimate sqrt(E/(C 0.24 rho A)) with C = %s (= deflection E / shear) = %s rad/s; T1 = %s." % (
            fmt(sig(C)), fmt(sig(omega1)), fmt(sig(T1))),
        "History: TOP (the node (48; 60) in both layers) U; LEFT RF.",
    ]
    return deck


def case_tet_beam(args):
    L, W, H = args.length, args.width, args.height
    nx, ny, nz = args.nx, args.ny, args.nz
    if args.element not in ("C3D4", "C3D10M"):
        raise SystemExit("tet-beam: --element C3D4 or C3D10M")
    if not 0 <= args.level <= 6:
        raise SystemExit("tet-beam: --level 0..6")
    mat = Material(args)
    mesh = SolidMesh()
    _, hexes = hex_block(mesh, nx, ny, nz, lambda i, j, k: (L * i / nx, W * j / ny, H * k / nz))
    tets = kuhn_tets(mesh, hexes, orient=False)
    n0_nodes, n0_tets = mesh.nnode, len(tets)
    tip_target = (L, 0.5 * W, 0.5 * H)
    level0_xl = [i + 1 for i, p in enumerate(mesh.xyz) if abs(p[0] - L) < 1e-9 * L]
    tip = mesh.nearest(tip_target, among=level0_xl)  # a level-0 node: the same point at every level
    for _ in range(args.level):
        tets = refine_tets(mesh, tets)
    tets = [oriented_tet(mesh, t) for t in tets]
    mesh.etype = args.element
    mesh.elems = tets if args.element == "C3D4" else quadratic_tets(mesh, tets)
    face_sets(mesh, L, W, H)
    mesh.add_nset("TIP", [tip])
    deck = Deck()
    deck.mesh, deck.material = mesh, mat
    Ex = mat.axial_modulus()
    c_ax = math.sqrt(Ex / mat.rho)
    omega1 = math.pi * c_ax / L
    T1 = 2 * math.pi / omega1
    deck.time = args.time if args.time is not None else sig(5 * T1, 3)
    deck.alpha = args.alpha if args.alpha is not None else sig(1.4 * omega1, 3)
    amp, amp_txt = smooth_ramp(deck, args.ramp if args.ramp is not None else 0.5 * deck.time, deck.time)
    deck.boundaries = [("", ["X0, 1, 3"]), (", AMPLITUDE=%s" % amp, ["XL, 1, 1, %s" % fmt(args.stretch * L)])]
    deck.history = [("X0", "RF"), ("TIP", "U, V")]
    deck.history_interval = sig((args.history_every if args.history_every is not None else 0.01) * deck.time, 6)
    deck.field_interval = args.field_interval
    deck.heading = ["halfstep solid example: tetrahedral beam (seed 002 ch. 9 mesh family) level %d: clamped at x = 0; pulled at x = L"
                    % args.level]
    deck.comments = [
        "Beam %s x %s x %s; level 0 = %d x %d x %d cubes split into 6 tets = %d tets (%d nodes); level %d = %d x 8^%d = %d tets."
        % (fmt(L), fmt(W), fmt(H), nx, ny, nz, n0_tets, n0_nodes, args.level, n0_tets, args.level, n0_tets * 8 ** args.level),
        "Refinement: 1 -> 8 at the edge midpoints (4 corner tets + inner octahedron cut along x02-x13; Bey's order: same shapes).",
        "BCs: X0 U1 = U2 = U3 = 0 (clamped); XL U1 = %s (stretch %s), U2 and U3 free." % (fmt(args.stretch * L), fmt(args.stretch)),
        "Amplitude RAMP: %s; damping alpha = %s (axial omega1 = %s, T1 = %s)." % (amp_txt, fmt(deck.alpha), fmt(sig(omega1)), fmt(sig(T1))),
        "History: X0 RF (X0_total.csv: the clamp reaction); TIP = node %d at %s (U)." % (
            tip, "(%s)" % "; ".join(fmt(v) for v in mesh.coord(tip))),
        "No closed form: the clamp restrains the lateral contraction; the reaction converges with the level",
        "(uniaxial-stress value without the clamp effect: E_x lambda (lambda^2-1)/2 W H = %s)."
        % fmt(sig(Ex * (1 + args.stretch) * ((1 + args.stretch) ** 2 - 1) / 2 * W * H, 6)),
    ]
    return deck


# ----------------------------------------------------------------------------
# Command line
# ----------------------------------------------------------------------------


def add_material_options(p, E=1000.0, nu=0.3):
    p.add_argument("--material", choices=["svk", "neo", "ortho-eng", "ortho-stiff", "j2"], default="svk",
                   help="svk (*ELASTIC), neo (*HYPERELASTIC, NEO HOOKE), ortho-eng (ENGINEERING CONSTANTS), "
                        "ortho-stiff (TYPE=ORTHOTROPIC), j2 (*ELASTIC + *PLASTIC: --yield, --hardening); default svk")
    p.add_argument("--yield", type=float, default=E / 500, dest="yield_stress",
                   help="j2: initial yield stress, default E/500")
    p.add_argument("--hardening", type=float, default=E / 100, help="j2: linear hardening modulus H, default E/100")
    p.add_argument("--E", type=float, default=E, help="Young's modulus (svk; neo unless --c10/--d1), default %g" % E)
    p.add_argument("--nu", type=float, default=nu, help="Poisson's ratio, default %g" % nu)
    p.add_argument("--rho", type=float, default=1.0, help="density, default 1")
    p.add_argument("--c10", type=float, help="Neo-Hookean C10 (default mu/2 from --E/--nu)")
    p.add_argument("--d1", type=float, help="Neo-Hookean D1 (default 2/K from --E/--nu)")
    p.add_argument("--ortho", default="1000,100,100,0.25,0.25,0.4,50,50,35.7",
                   help="orthotropic engineering constants E1,E2,E3,nu12,nu13,nu23,G12,G13,G23 "
                        "(default 1000,100,100,0.25,0.25,0.4,50,50,35.7)")
    p.add_argument("--orientation", help="a1,a2,a3,b1,b2,b3[,axis,angle_deg]: *ORIENTATION (local 1 along a)")


def add_common_options(p):
    p.add_argument("-o", "--output", required=True, metavar="FILE.inp", help="deck to write")
    p.add_argument("--alpha", type=float, help="mass-proportional damping ALPHA (0: none); case default")
    p.add_argument("--time", type=float, help="step time period; case default")
    p.add_argument("--ramp", type=float, help="SMOOTH STEP ramp time (then held); case default")
    p.add_argument("--field-interval", type=int, default=0, help="*OUTPUT, FIELD, NUMBER INTERVAL (default 0: none)")
    p.add_argument("--no-bulk-viscosity", action="store_true",
                   help="explicit steps: *BULK VISCOSITY 0, 0 (Abaqus's default 0.06, 1.2 otherwise)")
    p.add_argument("--formulation", choices=["FPM"],
                   help="*SOLID SECTION, FORMULATION= (FPM: the finite particle method hexahedron, C3D8 only)")
    p.add_argument("--shuffle", type=int, metavar="SEED",
                   help="give nodes and elements randomly permuted labels and write them in random order "
                        "(a poorly numbered deck, as from a pre-processor; same mesh and sets)")
    p.add_argument("--history-every", type=float,
                   help="history TIME INTERVAL as a fraction of the step (default 0.01; wave/impact 1/400)")


def build_parser():
    p = argparse.ArgumentParser(
        prog="generate_solid_deck.py",
        description="Write a halfstep solid-element deck (.inp).",
        epilog=__doc__.split("Cases\n-----\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="case", metavar="CASE")
    sub.required = True

    b = sub.add_parser("bar", help="rectangular bar: stretch, prescribed, wave, impact")
    add_common_options(b)
    add_material_options(b)
    b.add_argument("--element", choices=SOLID_TYPES, default="C3D8R")
    b.add_argument("--length", "--L", type=float, default=4.0, dest="length")
    b.add_argument("--width", "--W", type=float, default=1.0, dest="width")
    b.add_argument("--height", "--H", type=float, default=1.0, dest="height")
    b.add_argument("--nx", type=int, default=8)
    b.add_argument("--ny", type=int, default=2)
    b.add_argument("--nz", type=int, default=2)
    b.add_argument("--loading", choices=["stretch", "prescribed", "wave", "impact", "bend"], default="stretch")
    b.add_argument("--curvature", type=float, default=1e-3, help="bend: the imposed curvature kappa, default 1e-3")
    b.add_argument("--stretch", type=float, default=0.1, help="lambda - 1 (stretch/prescribed), default 0.1")
    add_static_options(b)
    b.add_argument("--v0", type=float, default=0.1, help="velocity (wave: driven end; impact: initial), default 0.1")

    c = sub.add_parser("cook", help="Cook's membrane (Neo-Hookean plane strain, or --linear plane stress)")
    add_common_options(c)
    c.add_argument("--n", type=int, default=16, help="n x n x 1 cells (default 16)")
    c.add_argument("--element", choices=SOLID_TYPES, default="C3D8",
                   help="C3D8 (default), C3D8R, or tetrahedra from the hex cells (C3D4 locks near incompressibility)")
    c.add_argument("--linear", action="store_true", help="E = 1, nu = 1/3 SVK, plane stress, reference 23.97")
    c.add_argument("--load", type=float, help="total shear per unit thickness (default 100; --linear 1)")
    c.add_argument("--load-factor", type=float, default=1e-3, help="--linear only: load scale (default 1e-3)")
    c.add_argument("--thickness", type=float, default=1.0, help="z thickness (default 1); the load scales with it")
    c.add_argument("--E", type=float, dest="E_given", help="override E")
    c.add_argument("--nu", type=float, dest="nu_given", help="override nu")
    c.add_argument("--rho", type=float, default=1.0, help="density, default 1")
    add_static_options(c)

    t = sub.add_parser("tet-beam", help="tetrahedral beam mesh family (1 -> 8 refinement), clamped and pulled")
    add_common_options(t)
    add_material_options(t)
    t.add_argument("--level", type=int, default=0, help="refinement level 0..4 (648 x 8^level tets)")
    t.add_argument("--element", choices=["C3D4", "C3D10M"], default="C3D4")
    t.add_argument("--length", type=float, default=120.0)
    t.add_argument("--width", type=float, default=30.0)
    t.add_argument("--height", type=float, default=30.0)
    t.add_argument("--nx", type=int, default=12)
    t.add_argument("--ny", type=int, default=3)
    t.add_argument("--nz", type=int, default=3)
    t.add_argument("--stretch", type=float, default=0.01, help="end displacement / L, default 0.01")
    return p


def add_static_options(p):
    p.add_argument("--static", type=int, default=0, metavar="N",
                   help="a *STATIC step of N equal increments (NLGEOM=YES) instead of the explicit one")
    p.add_argument("--static-linear", action="store_true", help="with --static: NLGEOM=NO")


def command_line():
    prog = sys.argv[0]
    try:
        rel = os.path.relpath(os.path.abspath(prog))
        if not rel.startswith(".."):
            prog = rel
    except ValueError:
        pass
    return " ".join(shlex.quote(a) for a in ["python3", prog] + sys.argv[1:])


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.case == "cook":
        args.orientation, args.c10, args.d1, args.ortho = None, None, None, None
    deck = {"bar": case_bar, "cook": case_cook, "tet-beam": case_tet_beam}[args.case](args)
    deck.formulation = args.formulation
    deck.no_bulk_viscosity = args.no_bulk_viscosity
    if getattr(args, "static", 0):
        deck.static_increments = args.static
        deck.static_nlgeom = not args.static_linear
    if args.shuffle is not None:
        deck.shuffle = args.shuffle
        deck.heading.append("Labels permuted and written in random order (--shuffle %d)" % args.shuffle)
    deck.heading.append("Generated by: %s" % command_line())
    deck.write(args.output)
    m = deck.mesh
    print("%s: %s -> %d nodes, %d %s elements, time %s" % (args.case, args.output, m.nnode, len(m.elems), m.etype, fmt(deck.time)))


if __name__ == "__main__":
    main()
