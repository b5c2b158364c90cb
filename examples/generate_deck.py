#!/usr/bin/env python3
"""Generate halfstep example decks (Abaqus-style keyword input, S4R shells or FPM S3 triangles).

Usage:  python3 examples/generate_deck.py CASE [options] -o FILE.inp
        python3 examples/generate_deck.py --help

Only the Python standard library is used.  Every deck written here uses the
keyword dialect halfstep reads (see docs/examples.md): *HEADING, *NODE,
*ELEMENT TYPE=S4R, *NSET/*ELSET (lists or GENERATE), *INCLUDE, *MATERIAL with
*ELASTIC/*DENSITY/*DAMPING ALPHA, *SHELL SECTION, *AMPLITUDE (TABULAR or SMOOTH
STEP), *INITIAL CONDITIONS TYPE=VELOCITY, *STEP/*DYNAMIC EXPLICIT, *BOUNDARY,
*CLOAD, *DLOAD P, *OUTPUT FIELD/HISTORY.

Conventions used by all cases
-----------------------------
* Element connectivity is counter-clockwise seen from the side the normal
  (n2-n1)x(n4-n1) points to.  Plates have normals +Z, closed/curved shells have
  outward normals.  A case's pressure p pushes against the normal (onto the top
  face); Abaqus's element-based shell *DLOAD P acts along the normal, so the deck
  carries P = -p.
* *CLOAD magnitudes apply to EACH node of the set, so a load distributed over an
  edge is written as several sets, one per distinct nodal value.
* Gravity is not supported by halfstep: self weight is converted to consistent
  nodal loads (area/4 of each bilinear quad to each of its nodes), one node set
  per distinct nodal value (GRAV1, GRAV2, ...).
* Static references are reached by dynamic relaxation: a load ramp followed by a
  hold, with mass-proportional damping ALPHA.  The default ramp/time/alpha are
  derived from an estimate of the lowest relevant natural frequency omega1
  (alpha ~ 1.4 omega1, i.e. about 70 % of critical damping in that mode); they are
  estimates: check that the kinetic energy has died out and raise --time if not.
* Each deck states the estimated membrane-limited stable increment
  (min element edge / sqrt(E/(rho(1-nu^2)))) in a comment; the solver computes
  its own.
"""

import argparse
import math
import os
import random
import shlex
import sys
import textwrap

# ----------------------------------------------------------------------------
# Mesh container and helpers
# ----------------------------------------------------------------------------


class Mesh:
    """Nodes (1-based ids, coordinates in parallel lists) and 4-node elements."""

    def __init__(self):
        self.x, self.y, self.z = [], [], []
        self.elems = []  # tuples of 4 node ids, 1-based
        self.nsets = {}  # name -> list of node ids (insertion ordered)
        self.elsets = {}  # name -> list of element ids

    @property
    def nnode(self):
        return len(self.x)

    def add_node(self, x, y, z):
        self.x.append(x)
        self.y.append(y)
        self.z.append(z)
        return len(self.x)

    def coord(self, nid):
        return (self.x[nid - 1], self.y[nid - 1], self.z[nid - 1])

    def add_nset(self, name, ids):
        ids = list(ids)
        if not ids:
            raise RuntimeError("node set %s would be empty" % name)
        # keep order, drop duplicates
        seen = set()
        out = []
        for i in ids:
            if i not in seen:
                seen.add(i)
                out.append(i)
        self.nsets[name] = out

    def nodes_where(self, pred):
        return [i + 1 for i in range(self.nnode) if pred(self.x[i], self.y[i], self.z[i])]

    def nearest(self, p):
        best, bi = None, None
        for i in range(self.nnode):
            d = (self.x[i] - p[0]) ** 2 + (self.y[i] - p[1]) ** 2 + (self.z[i] - p[2]) ** 2
            if best is None or d < best:
                best, bi = d, i + 1
        return bi, math.sqrt(best)

    def element_area(self, e):
        a, b, c, d = (self.coord(n) for n in e)
        d1 = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
        d2 = (d[0] - b[0], d[1] - b[1], d[2] - b[2])
        cx = d1[1] * d2[2] - d1[2] * d2[1]
        cy = d1[2] * d2[0] - d1[0] * d2[2]
        cz = d1[0] * d2[1] - d1[1] * d2[0]
        return 0.5 * math.sqrt(cx * cx + cy * cy + cz * cz)

    def min_edge(self):
        X, Y, Z = self.x, self.y, self.z
        best = float("inf")
        for e in self.elems:
            for k in range(4):
                p, q = e[k] - 1, e[(k + 1) % 4] - 1
                dx, dy, dz = X[p] - X[q], Y[p] - Y[q], Z[p] - Z[q]
                d2 = dx * dx + dy * dy + dz * dz
                if d2 < best:
                    best = d2
        return math.sqrt(best)


def merge_nodes(mesh, tol):
    """Merge coincident nodes (spatial hashing); renumber elements and drop orphans."""
    cell = {}
    newid = [0] * mesh.nnode
    keep = []
    inv = 1.0 / tol
    for i in range(mesh.nnode):
        p = (mesh.x[i], mesh.y[i], mesh.z[i])
        key = (int(math.floor(p[0] * inv)), int(math.floor(p[1] * inv)), int(math.floor(p[2] * inv)))
        found = 0
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for j in cell.get((key[0] + dx, key[1] + dy, key[2] + dz), ()):
                        q = keep[j - 1]
                        if abs(q[0] - p[0]) <= tol and abs(q[1] - p[1]) <= tol and abs(q[2] - p[2]) <= tol:
                            found = j
                            break
                    if found:
                        break
                if found:
                    break
        if not found:
            keep.append(p)
            found = len(keep)
            cell.setdefault(key, []).append(found)
        newid[i] = found
    out = Mesh()
    for p in keep:
        out.add_node(*p)
    out.elems = [tuple(newid[n - 1] for n in e) for e in mesh.elems]
    for e in out.elems:
        if len(set(e)) != 4:
            raise RuntimeError("degenerate element after merge: %s" % (e,))
    return out


def consistent_edge_shares(n_nodes):
    """Nodal weights of a uniform line load on n_nodes equally spaced nodes (sum 1)."""
    ne = n_nodes - 1
    return [0.5 / ne if k in (0, ne) else 1.0 / ne for k in range(n_nodes)]


def group_by_value(pairs, ndigits=10):
    """[(node, value)] -> list of (value, [nodes]) grouped by value (rounded)."""
    groups = {}
    order = []
    for nid, v in pairs:
        key = float("%.*g" % (ndigits, v))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(nid)
    return [(k, groups[k]) for k in order]


def coons(B, T, Lc, Rc, u, v):
    """Transfinite (Coons) interpolation of 4 boundary curves (2-D points)."""
    b, t, l, r = B(u), T(u), Lc(v), Rc(v)
    b0, b1, t0, t1 = B(0.0), B(1.0), T(0.0), T(1.0)
    return tuple(
        (1 - v) * b[k] + v * t[k] + (1 - u) * l[k] + u * r[k]
        - ((1 - u) * (1 - v) * b0[k] + u * (1 - v) * b1[k] + (1 - u) * v * t0[k] + u * v * t1[k])
        for k in range(2)
    )


def structured_patch(mesh, nu, nv, fn):
    """Add an (nu x nv)-element patch of points fn(i, j) (i along u, j along v).

    Elements are (i,j),(i+1,j),(i+1,j+1),(i,j+1): the normal is (d/du) x (d/dv).
    Returns the 2-D list ids[j][i].
    """
    ids = []
    for j in range(nv + 1):
        row = []
        for i in range(nu + 1):
            row.append(mesh.add_node(*fn(i, j)))
        ids.append(row)
    for j in range(nv):
        for i in range(nu):
            mesh.elems.append((ids[j][i], ids[j][i + 1], ids[j + 1][i + 1], ids[j + 1][i]))
    return ids


# ----------------------------------------------------------------------------
# Deck specification and writer
# ----------------------------------------------------------------------------


def fmt(v):
    if isinstance(v, int):
        return str(v)
    s = "%.10g" % v
    if s == "-0":
        s = "0"
    return s


def fmtc(v):
    """Coordinate formatting (more digits)."""
    s = "%.12g" % v
    if s == "-0":
        s = "0"
    return s


class Spec:
    def __init__(self, case):
        self.case = case
        self.heading = []  # lines (no commas, no leading '*')
        self.comments = []  # lines written as '** ...'
        self.mesh = None
        self.elset = "SHELL"
        self.material = "MAT"
        self.E = self.nu = self.rho = None
        self.alpha = 0.0
        self.thickness = None
        self.nip = 5
        self.amplitudes = []  # (name, definition, [(t, a), ...])
        self.init_vel = []  # (nset, dof, value)
        self.time = None
        self.dt = None
        self.boundaries = []  # data lines
        self.cloads = []  # (amplitude or None, [(nset, dof, mag), ...])
        self.dloads = []  # (amplitude or None, [(elset, 'P', value)])
        self.field_interval = 10
        self.history_interval = None
        self.history_sets = []
        self.elem_output = "SF, SM, S"
        self.static = None  # (increments, nlgeom): a *STATIC step instead of the explicit one
        self.triangles = False  # S3 with FORMULATION=FPM: each quad split into two triangles
        self.plastic = None  # (yield stress, hardening modulus): a bilinear *PLASTIC table
        self.shuffle = None  # seed: labels permuted and nodes/elements written in random order


def nset_lines(name, ids, kw="*NSET, NSET="):
    out = []
    n = len(ids)
    if n >= 3:
        d = ids[1] - ids[0]
        if d > 0 and all(ids[k + 1] - ids[k] == d for k in range(n - 1)):
            out.append("%s%s, GENERATE" % (kw, name))
            out.append("%d, %d, %d" % (ids[0], ids[-1], d))
            return out
    out.append("%s%s" % (kw, name))
    for k in range(0, n, 16):
        out.append(", ".join(str(i) for i in ids[k:k + 16]))
    return out


def shuffled_labels(n, rng):
    """A random permutation of the labels 1..n: label[i - 1] is the label of structured id i."""
    label = list(range(1, n + 1))
    rng.shuffle(label)
    return label


def mesh_lines(spec):
    m = spec.mesh
    # --shuffle SEED: nodes and elements get randomly permuted labels and are written in a
    # random order, as decks from pre-processors often are (the geometry is the same; the
    # sets name the same nodes and elements by their new labels).
    rng = random.Random(spec.shuffle) if spec.shuffle is not None else None
    nlab = shuffled_labels(m.nnode, rng) if rng else None

    def node(i):  # label of structured node id i (1-based)
        return nlab[i - 1] if nlab else i

    n_el = (2 if spec.triangles else 1) * len(m.elems)
    elab = shuffled_labels(n_el, rng) if rng else None

    def elem(i):  # label of structured element id i (1-based)
        return elab[i - 1] if elab else i

    def in_order(lines):
        if rng:
            rng.shuffle(lines)
        return lines

    L = ["*NODE"]
    X, Y, Z = m.x, m.y, m.z
    L.extend(in_order(["%d, %s, %s, %s" % (node(i + 1), fmtc(X[i]), fmtc(Y[i]), fmtc(Z[i])) for i in range(m.nnode)]))
    if spec.triangles:
        # Each quadrilateral (a, b, c, d) becomes the FPM triangles (a, b, c) and (a, c, d):
        # quad k is triangles 2k - 1 and 2k, with the same normal.
        L.append("*ELEMENT, TYPE=S3, ELSET=%s" % spec.elset)
        lines = []
        for k, e in enumerate(m.elems):
            lines.append("%d, %d, %d, %d" % (elem(2 * k + 1), node(e[0]), node(e[1]), node(e[2])))
            lines.append("%d, %d, %d, %d" % (elem(2 * k + 2), node(e[0]), node(e[2]), node(e[3])))
        L.extend(in_order(lines))
    else:
        L.append("*ELEMENT, TYPE=S4R, ELSET=%s" % spec.elset)
        L.extend(in_order(["%d, %d, %d, %d, %d" % (elem(k + 1), node(e[0]), node(e[1]), node(e[2]), node(e[3]))
                           for k, e in enumerate(m.elems)]))
    for name, ids in m.nsets.items():
        L.extend(nset_lines(name, [node(i) for i in ids]))
    for name, ids in m.elsets.items():
        if spec.triangles:
            ids = [t for i in ids for t in (2 * i - 1, 2 * i)]
        L.extend(nset_lines(name, [elem(i) for i in ids], "*ELSET, ELSET="))
    return L


def amplitude_lines(name, definition, pts):
    L = ["*AMPLITUDE, NAME=%s, DEFINITION=%s" % (name, definition)]
    flat = [fmt(float(v)) for p in pts for v in p]
    for k in range(0, len(flat), 8):
        L.append(", ".join(flat[k:k + 8]))
    return L


def write_deck(spec, path, split_mesh=False):
    m = spec.mesh
    L = ["*HEADING"]
    for h in spec.heading:
        h = h.replace(",", ";")
        # keep data lines well below the 256-character limit of the format
        for part in textwrap.wrap(h, 200, break_long_words=True, break_on_hyphens=False) or [""]:
            L.append(" " + part if part.startswith("*") else part)
    L.append("**")
    for c in spec.comments:
        L.append("** " + c if c else "**")
    # stable increment estimate
    c = math.sqrt(spec.E / (spec.rho * (1.0 - spec.nu ** 2)))
    le = m.min_edge()
    dt_est = le / c
    L.append("**")
    L.append("** Mesh: %d nodes, %d %s elements; node sets: %s" % (
        m.nnode, (2 if spec.triangles else 1) * len(m.elems), "S3 (FPM)" if spec.triangles else "S4R",
        ", ".join(m.nsets.keys())))
    L.append("** Estimated membrane stable increment: min edge %s / c %s = %s" % (fmt(le), fmt(c), fmt(dt_est)))
    if spec.dt:
        L.append("** Fixed increment (DIRECT USER CONTROL): %s -> %d increments" % (fmt(spec.dt), int(math.ceil(spec.time / spec.dt - 1e-9))))
    else:
        L.append("** -> about %d increments for the time period %s (automatic increment)" % (int(math.ceil(spec.time / dt_est)), fmt(spec.time)))
    L.append("**")
    mesh_block = mesh_lines(spec)
    if split_mesh:
        base, ext = os.path.splitext(path)
        mesh_path = base + "_mesh" + (ext or ".inp")
        with open(mesh_path, "w") as f:
            f.write("** mesh for %s (written by examples/generate_deck.py)\n" % os.path.basename(path))
            f.write("\n".join(mesh_block))
            f.write("\n")
        L.append("*INCLUDE, INPUT=%s" % os.path.basename(mesh_path))
    else:
        L.extend(mesh_block)
    L.append("*MATERIAL, NAME=%s" % spec.material)
    L.append("*ELASTIC")
    L.append("%s, %s" % (fmt(spec.E), fmt(spec.nu)))
    if spec.plastic:
        sy, hard = spec.plastic
        # Bilinear: sigma_y at zero plastic strain, then slope `hard` up to a plastic strain of 1.
        L.append("*PLASTIC")
        L.append("%s, 0" % fmt(sy))
        L.append("%s, 1" % fmt(sy + hard))
    L.append("*DENSITY")
    L.append(fmt(spec.rho))
    if spec.alpha and spec.alpha > 0:
        L.append("*DAMPING, ALPHA=%s" % fmt(spec.alpha))
    L.append("*SHELL SECTION, ELSET=%s, MATERIAL=%s%s" % (spec.elset, spec.material,
                                                        ", FORMULATION=FPM" if spec.triangles else ""))
    L.append("%s, %d" % (fmt(spec.thickness), spec.nip))
    for name, definition, pts in spec.amplitudes:
        L.extend(amplitude_lines(name, definition, pts))
    if spec.init_vel:
        L.append("*INITIAL CONDITIONS, TYPE=VELOCITY")
        for ns, dof, v in spec.init_vel:
            L.append("%s, %d, %s" % (ns, dof, fmt(v)))
    if spec.static:
        incs, nlgeom = spec.static
        L.append("*STEP, NLGEOM=%s, INC=%d" % ("YES" if nlgeom else "NO", max(100, 20 * incs)))
        # Loads ramp over the step (period 1); at most 1/incs per increment so every
        # increment is a point of the load path; cut-backs down to 1e-6.
        L.append("*STATIC")
        L.append("%s, 1, 1e-6, %s" % (fmt(1.0 / incs), fmt(1.0 / incs)))
    else:
        L.append("*STEP")
    if spec.static:
        pass
    elif spec.dt:
        L.append("*DYNAMIC, EXPLICIT, DIRECT USER CONTROL")
        L.append("%s, %s" % (fmt(spec.dt), fmt(spec.time)))
    else:
        L.append("*DYNAMIC, EXPLICIT")
        L.append(", %s" % fmt(spec.time))
    if spec.boundaries:
        L.append("*BOUNDARY")
        L.extend(spec.boundaries)
    for amp, rows in spec.cloads:
        amp = None if spec.static else amp  # a static step ramps its loads itself
        L.append("*CLOAD" + (", AMPLITUDE=%s" % amp if amp else ""))
        for ns, dof, mag in rows:
            L.append("%s, %d, %s" % (ns, dof, fmt(mag)))
    for amp, rows in spec.dloads:
        amp = None if spec.static else amp
        L.append("*DLOAD" + (", AMPLITUDE=%s" % amp if amp else ""))
        for es, lab, mag in rows:
            # Abaqus's element-based shell P acts along the normal: the case's p against it.
            L.append("%s, %s, %s" % (es, lab, fmt(-mag if lab == "P" else mag)))
    if spec.field_interval and spec.field_interval > 0 and spec.static:
        L.append("*OUTPUT, FIELD")  # every increment
        L.append("*NODE OUTPUT")
        L.append("U, RF")
        if spec.elem_output:
            L.append("*ELEMENT OUTPUT")
            L.append(spec.elem_output)
    elif spec.field_interval and spec.field_interval > 0:
        L.append("*OUTPUT, FIELD, NUMBER INTERVAL=%d" % spec.field_interval)
        L.append("*NODE OUTPUT")
        L.append("U, V")
        if spec.elem_output:
            L.append("*ELEMENT OUTPUT")
            L.append(spec.elem_output)
    if spec.history_sets and spec.static:
        L.append("*OUTPUT, HISTORY")  # every increment
        for ns in spec.history_sets:
            L.append("*NODE OUTPUT, NSET=%s" % ns)
            L.append("U, RF")
    elif spec.history_sets:
        hi = spec.history_interval if spec.history_interval else spec.time / 200.0
        L.append("*OUTPUT, HISTORY, TIME INTERVAL=%s" % fmt(hi))
        for ns in spec.history_sets:
            L.append("*NODE OUTPUT, NSET=%s" % ns)
            L.append("U, RF")
    L.append("*END STEP")
    L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))
    return dt_est


# ----------------------------------------------------------------------------
# Shared option handling
# ----------------------------------------------------------------------------


def opt(args, name, default):
    v = getattr(args, name, None)
    return default if v is None else v


def load_amplitude(spec, ramp, time, smooth=True, name="LOADAMP"):
    """Ramp 0 -> 1 over `ramp` then hold; `ramp` <= 0: full load from t = 0."""
    if ramp is None or ramp <= 0:
        spec.amplitudes.append((name, "TABULAR", [(0.0, 1.0), (time, 1.0)]))
        return name, "applied at t = 0 and held (TABULAR amplitude constant 1)"
    if ramp >= time:
        pts = [(0.0, 0.0), (ramp, 1.0)]
    else:
        pts = [(0.0, 0.0), (ramp, 1.0), (time, 1.0)]
    if smooth:
        spec.amplitudes.append((name, "SMOOTH STEP", pts))
        return name, "SMOOTH STEP 0 -> 1 over %s then held" % fmt(ramp)
    spec.amplitudes.append((name, "TABULAR", pts))
    return name, "linear (TABULAR) 0 -> 1 over %s then held" % fmt(ramp)


def relax_defaults(args, omega1, ramp_periods, time_periods, zeta=0.7):
    """Defaults for dynamic relaxation from the estimated first circular frequency."""
    T1 = 2.0 * math.pi / omega1
    ramp = opt(args, "ramp", sig(ramp_periods * T1, 3))
    time = opt(args, "time", sig(time_periods * T1, 3))
    alpha = opt(args, "alpha", sig(2.0 * zeta * omega1, 3))
    return T1, ramp, time, alpha


def sig(v, n=4):
    return float("%.*g" % (n, v))


def common_outputs(spec, args, history_sets):
    spec.field_interval = opt(args, "field_interval", 10)
    spec.history_interval = opt(args, "history_interval", None)
    spec.history_sets = history_sets
    if getattr(args, "no_element_output", False):
        spec.elem_output = None


def cantilever_omega1(L, h, E, rho):
    # Euler-Bernoulli cantilever, EI/(rho A) = E h^2 / (12 rho) for a rectangle
    return 1.8751 ** 2 / L ** 2 * math.sqrt(E * h * h / (12.0 * rho))


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------


def case_circular_plate(args):
    a, t, E, nu = 10.0, 0.1, 206000.0, 0.3
    p = opt(args, "pressure", 1e-4)
    rho = opt(args, "density", 7.85e-9)
    n = opt(args, "n", 4)
    if n < 2:
        raise SystemExit("circular-plate: --n must be >= 2")
    D = E * t ** 3 / (12 * (1 - nu * nu))
    G = E / (2 * (1 + nu))
    w_k = (5 + nu) * p * a ** 4 / (64 * (1 + nu) * D)
    w_s = p * a * a / (4 * (5.0 / 6.0) * G * t)
    omega1 = 4.977 / a ** 2 * math.sqrt(D / (rho * t))  # simply supported, nu = 0.3 (Leissa)
    T1, ramp, time, alpha = relax_defaults(args, omega1, 1.0, 3.0)
    spec = Spec("circular-plate")

    # quarter disc: convex core (square blended toward a circle) + two curved blocks
    s, w = 0.45 * a, 0.5  # core half size, blend weight toward the circle
    m, k = n, n  # core m x m; ring k radial x m circumferential (each of 2 blocks)

    def inner(v):  # core boundary x = s side, from (s,0) to the core corner, psi = 45 v deg
        ps = 0.25 * math.pi * v
        return ((1 - w) * s + w * s * math.cos(ps), (1 - w) * s * math.tan(ps) + w * s * math.sin(ps))

    def swap(pt):
        return (pt[1], pt[0])

    C = inner(1.0)
    mesh = Mesh()
    # core: u along x, v along y
    core = (lambda u: (s * u, 0.0), lambda u: swap(inner(u)), lambda v: (0.0, s * v), inner)
    structured_patch(mesh, m, m, lambda i, j: coons(*core, i / m, j / m) + (0.0,))
    # ring block 1 (0..45 deg): u radial, v angular  -> normal +Z
    ring = (
        lambda u: (s + (a - s) * u, 0.0),
        lambda u: (C[0] + (a / math.sqrt(2) - C[0]) * u, C[1] + (a / math.sqrt(2) - C[1]) * u),
        inner,
        lambda v: (a * math.cos(0.25 * math.pi * v), a * math.sin(0.25 * math.pi * v)),
    )
    structured_patch(mesh, k, m, lambda i, j: coons(*ring, i / k, j / m) + (0.0,))
    # ring block 2 (45..90 deg): mirror of block 1 about x = y, orientation reversed
    first = len(mesh.elems)
    structured_patch(mesh, k, m, lambda i, j: swap(coons(*ring, i / k, j / m)) + (0.0,))
    for q in range(first, len(mesh.elems)):
        e = mesh.elems[q]
        mesh.elems[q] = (e[0], e[3], e[2], e[1])
    mesh = merge_nodes(mesh, 1e-7 * a)
    tol = 1e-6 * a
    center, _ = mesh.nearest((0.0, 0.0, 0.0))
    mesh.add_nset("CENTER", [center])
    mesh.add_nset("RIM", mesh.nodes_where(lambda x, y, z: abs(math.hypot(x, y) - a) < tol))
    mesh.add_nset("SYMX", mesh.nodes_where(lambda x, y, z: abs(x) < tol))
    mesh.add_nset("SYMY", mesh.nodes_where(lambda x, y, z: abs(y) < tol))
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time = time
    spec.dt = opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    spec.boundaries = ["RIM, 3, 3", "SYMX, XSYMM", "SYMY, YSYMM"]
    spec.dloads = [(amp, [(spec.elset, "P", p)])]
    common_outputs(spec, args, ["CENTER"])
    spec.heading = [
        "halfstep example: simply supported circular plate under uniform pressure (seed 000 sec. 4.1)",
        "Reference: static centre deflection w0 = (5+nu) p a^4/(64(1+nu)D) = %.4e mm (Kirchhoff) + p a^2/(4 kappa G t) = %.3e -> %.4e mm; here U3(CENTER) = -w0"
        % (w_k, w_s, w_k + w_s),
        "Units: mm / t / s / N / MPa; a = 10 t = 0.1 E = 206000 nu = 0.3 rho = %s p = %s" % (fmt(rho), fmt(p)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Quarter plate (x >= 0, y >= 0) in the XY plane, element normals +Z.",
        "Mesh: convex core (%d x %d) + two curved blocks (%d radial x %d) -> %d elements (full-plate equivalent %d)."
        % (m, m, k, m, 3 * n * n, 12 * n * n),
        "BCs: RIM U3 = 0 (simple support; in-plane and rotations free); SYMX (x = 0) XSYMM; SYMY (y = 0) YSYMM.",
        "Load: *DLOAD P = -%s on all elements (Abaqus's shell P acts along the normal); it pushes against the +Z normals, so the plate deflects to -Z." % fmt(p),
        "Amplitude: %s; damping alpha = %s (mass proportional)." % (amp_txt, fmt(alpha)),
        "omega1 (simply supported, axisymmetric) = 4.977/a^2 sqrt(D/(rho t)) = %s rad/s, T1 = %s s." % (fmt(sig(omega1)), fmt(sig(T1))),
        "D = E t^3/(12(1-nu^2)) = %s N mm. The seed ran 120 s with an (unstated) large density;" % fmt(sig(D, 6)),
        "the static deflection does not depend on the density or damping.",
        "History: CENTER (U3 -> -w0 once the kinetic energy has died out).",
    ]
    return spec


def rect_plate(nx, ny, Lx, Ly):
    mesh = Mesh()
    ids = structured_patch(mesh, nx, ny, lambda i, j: (Lx * i / nx, Ly * j / ny, 0.0))
    return mesh, ids


def edge_load_sets(mesh, nodes, total, prefix):
    """Consistent split of a uniform edge load over a row of equally spaced nodes."""
    shares = consistent_edge_shares(len(nodes))
    groups = group_by_value([(nid, total * sh) for nid, sh in zip(nodes, shares)])
    names = []
    for q, (val, ids) in enumerate(groups):
        name = prefix + ("END" if len(ids) <= 2 and ids[0] in (nodes[0], nodes[-1]) else "INT")
        if name in mesh.nsets:
            name = "%s%d" % (prefix, q + 1)
        mesh.add_nset(name, ids)
        names.append((name, val, len(ids)))
    return names


def case_clamped_plate(args):
    Lx, Ly, t, E, nu = 100.0, 20.0, 0.2, 1768.0, 0.3
    rho = opt(args, "density", 3e-9)
    traction = opt(args, "pressure", 0.00156)
    n = opt(args, "n", 4)
    ny = opt(args, "ny", n)
    nx = opt(args, "nx", 5 * ny)
    if ny % 2:
        raise SystemExit("clamped-plate: ny (= --n unless --ny) must be even so that TIP is the edge midpoint")
    total = traction * Ly * t
    I = Ly * t ** 3 / 12
    w_lin = total * Lx ** 3 / (3 * E * I)
    omega1 = 1.8751 ** 2 / Lx ** 2 * math.sqrt(E * I / (rho * Ly * t))
    time = opt(args, "time", 0.35)
    ramp = opt(args, "ramp", 0.0)
    alpha = opt(args, "alpha", 0.0)
    spec = Spec("clamped-plate")
    mesh, ids = rect_plate(nx, ny, Lx, Ly)
    root = [ids[j][0] for j in range(ny + 1)]
    tip = [ids[j][nx] for j in range(ny + 1)]
    mesh.add_nset("ROOT", root)
    mesh.add_nset("TIP", [ids[ny // 2][nx]])
    mesh.add_nset("TIPEDGE", tip)
    sets = edge_load_sets(mesh, tip, total, "TIPLOAD")
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    spec.boundaries = ["ROOT, ENCASTRE"]
    spec.cloads = [(amp, [(name, 3, val) for name, val, _ in sets])]
    common_outputs(spec, args, ["TIP"])
    spec.heading = [
        "halfstep example: clamped rectangular plate with a tip load; large-displacement dynamics (seed 000 sec. 4.2)",
        "Reference: no tabulated value (seed Fig. 9: tip vertical displacement vs time). Linear static tip deflection P L^3/(3EI) = %s mm; T1 = %s s"
        % (fmt(sig(w_lin)), fmt(sig(2 * math.pi / omega1))),
        "Units: mm / t / s / N / MPa; 100 x 20 x 0.2 E = 1768 nu = 0.3 rho = %s (3000 kg/m^3)" % fmt(rho),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Plate in the XY plane (x along the length, y across), normals +Z; mesh %d x %d." % (nx, ny),
        "BCs: ROOT (x = 0) ENCASTRE; all other edges free.",
        "Load: shear traction %s MPa on the tip cross-section %s x %s -> total %s N in +Z," % (fmt(traction), fmt(Ly), fmt(t), fmt(total)),
        "split consistently over the %d tip-edge nodes (end nodes half share): %s."
        % (len(tip), "; ".join("%s (%d nodes) %s each" % (nm, c, fmt(v)) for nm, v, c in sets)),
        "Amplitude: %s; damping alpha = %s." % (amp_txt, fmt(alpha)),
        "Euler-Bernoulli omega1 = 1.8751^2/L^2 sqrt(EI/(rho A)) = %s rad/s: 0.35 s is less than one swing;" % fmt(sig(omega1)),
        "linear modal superposition gives a tip peak of about 2 x %s mm near t = 0.2 s, so the response is" % fmt(sig(w_lin)),
        "strongly geometrically nonlinear. History: TIP = tip edge midpoint (U3).",
    ]
    return spec


def cylinder_point(R, x, th):
    # theta measured from the top (+Z) towards +Y; axis along X
    return (x, R * math.sin(th), R * math.cos(th))


def case_pinched_cylinder(args):
    R, L, t, E, nu = 1.016, 3.048, 0.03, 2.0685e7, 0.3
    rho = opt(args, "density", 1000.0)
    N = opt(args, "n", 16)
    if N < 2:
        raise SystemExit("pinched-cylinder: --n must be >= 2")
    P = opt(args, "load", 500.0)
    time = opt(args, "time", 1.0)
    ramp = opt(args, "ramp", 0.0)
    alpha = opt(args, "alpha", 0.0)
    nc = 2 * N  # nodes around (no seam duplicate)
    spec = Spec("pinched-cylinder")
    mesh = Mesh()
    cs = [(math.sin(math.pi * i / N), math.cos(math.pi * i / N)) for i in range(nc)]
    # exact values at the load points / quarter points
    cs[0] = (0.0, 1.0)
    cs[N] = (0.0, -1.0)
    if N % 2 == 0:
        cs[N // 2] = (1.0, 0.0)
        cs[3 * N // 2] = (-1.0, 0.0)
    xs = [L * j / N for j in range(N + 1)]
    for j in range(N + 1):
        xj = xs[j]
        mesh.x.extend([xj] * nc)
        mesh.y.extend([R * s for s, c in cs])
        mesh.z.extend([R * c for s, c in cs])
    # node id of (i, j) = 1 + i + j * nc ; element (i,j),(i,j+1),(i+1,j+1),(i+1,j): outward normal
    el = []
    for j in range(N):
        b0 = 1 + j * nc
        b1 = b0 + nc
        el.extend((b0 + i, b1 + i, b1 + (i + 1) % nc, b0 + (i + 1) % nc) for i in range(nc))
    mesh.elems = el
    mesh.add_nset("CLAMP", range(1, nc + 1))
    top = 1 + N * nc
    bot = 1 + N + N * nc
    mesh.add_nset("LOADTOP", [top])
    mesh.add_nset("LOADBOT", [bot])
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    spec.boundaries = ["CLAMP, ENCASTRE"]
    spec.cloads = [(amp, [("LOADTOP", 3, -P), ("LOADBOT", 3, P)])]
    common_outputs(spec, args, ["LOADTOP", "LOADBOT"])
    frac = P / 2000.0
    spec.heading = [
        "halfstep example: pinched cylinder clamped at one end; two opposite radial point loads at the free end (seed 000 sec. 4.3)",
        "Reference: by symmetry = Sze et al. 2004 problem 3.7 (pinched semi-cylinder; P = 2000 per load -> -W = 1.71505 quasi-static); the seed compares a load-displacement curve with Ibrahimbegovic et al. 2001",
        "Units: consistent SI-like (m / kg / s / N / Pa as in the seed); R = 1.016 L = 3.048 t = 0.03 E = 2.0685e7 nu = 0.3 rho = %s; P = %s per load"
        % (fmt(rho), fmt(P)),
        "Generated by: %s" % args.cmdline,
    ]
    if time < 1.0:
        spec.heading.insert(3, "Note: time period %s instead of the seed's 1.0 s (78363 increments of 1.2761e-5 there) to keep the run short; omit --time for the full run" % fmt(time))
    spec.comments = [
        "Closed cylinder, axis X (0 <= x <= L), theta from +Z towards +Y: y = R sin(theta), z = R cos(theta); normals outward.",
        "Mesh 2N x N = %d x %d (N = %d): circumferential nodes wrap around (no seam duplicates); %d elements." % (nc, N, N, nc * N),
        "The seed meshes are N = 384 ... 1280 (294,912 ... 3,276,800 elements), fixed increment 1.2761e-5, 78,363 increments (about 1 s).",
        "BCs: CLAMP (x = 0 ring) ENCASTRE; free end x = L.",
        "Loads: LOADTOP (L, 0, R) dof 3 = %s and LOADBOT (L, 0, -R) dof 3 = +%s (both radially inward); %s." % (fmt(-P), fmt(P), amp_txt),
        "Damping alpha = %s. With P = %s the quasi-static Sze 3.7 value at P/Pmax = %s is read from" % (fmt(alpha), fmt(P), fmt(frac)),
        "/work/shared/references/data/sze2004_3-7_pinched_semicylinder.csv (0.48537 at P = 500 = 0.25 Pmax).",
    ]
    return spec


# Pinched semi-cylinder: what the boundary conditions are, and where that comes from.
#
# Sze, Liu & Lo, "Popular benchmark problems for geometric nonlinear analysis of
# shells", Finite Elem. Anal. Des. 40 (2004) 1551-1569, problem 3.7 (after Stander,
# Matzenmiller & Ramm, Eng. Comput. 6 (1989) 58-66): semi-cylinder R = 1.016,
# L = 3.048, t = 0.03, E = 2.0685e7, nu = 0.3; one curved end fully clamped, the
# other free, pinching force P (Pmax = 2000) at the middle of the free curved end;
# half of the shell modelled by symmetry with 40 x 40 S4R; -W at the load point.
# The paper text itself could not be retrieved with the search tool (only its
# abstract on a scribd mirror), so the edge conditions were taken from two public
# implementations that reproduce Sze's curve:
#   * FEniCS-Shells demo "Clamped semi-cylindrical Naghdi shell under point load"
#     (demo_nonlinear-naghdi-cylindrical, compares with Sze's table): full
#     semi-cylinder, "full clamping on the top boundary, while on the left and the
#     right side [the straight edges] the normal component of the rotation and the
#     transverse displacement are blocked", i.e. on the straight edges the vertical
#     displacement (perpendicular to the plane of the two edges) and the rotation
#     about the cylinder axis are zero; the in-plane translations are free.
#   * Xiaoxiao Du's IGA Kirchhoff-Love shell code (setBcSemiCylinder.m): half model,
#     clamped end, symmetry (u = 0 normal to the symmetry plane, plus zero rotation)
#     on the cut through the crown, and on the straight edge "simply supported,
#     uz = 0" with the rotation about the edge tied to zero; load 1000 = Pmax/2 on
#     the half model at the free-end crown.
# This is also the boundary condition implied by the seed's full pinched cylinder
# (two opposite loads): the plane through the two straight edges is a symmetry
# plane, on which the normal displacement and the rotation about the axis vanish.
# Here: axis X, crown +Z, half model y >= 0:
#   CLAMP (x = 0)                 ENCASTRE
#   SYMM  (crown line, y = 0)     YSYMM (U2 = UR1 = UR3 = 0)
#   EDGE  (y = R, z = 0)          U3 = 0 and UR1 = 0 (U1, U2 free)
#   LOADPT (L, 0, R)              CLOAD dof 3 = -P/2
def case_pinched_semicylinder(args):
    R, L, t, E, nu = 1.016, 3.048, 0.03, 2.0685e7, 0.3
    rho = opt(args, "density", 1000.0)
    n = opt(args, "n", 16)
    ntheta = opt(args, "ny", n)
    nx = opt(args, "nx", n)
    pmax = opt(args, "pmax", 2000.0)
    frac = opt(args, "fraction", 1.0)
    P = pmax * frac
    scale = math.sqrt(rho / 1000.0)
    omega1 = 6.0 / scale  # rough: initial pinching stiffness ~1850 with ~15 % modal mass at rho = 1000
    T1 = 2 * math.pi / omega1
    time = opt(args, "time", 20.0 * scale)
    ramp = opt(args, "ramp", 0.8 * time)
    alpha = opt(args, "alpha", 8.0 / scale)
    spec = Spec("pinched-semicylinder")
    mesh = Mesh()
    ids = structured_patch(
        mesh, nx, ntheta,
        lambda i, j: cylinder_point(R, L * i / nx, 0.5 * math.pi * j / ntheta),
    )
    # structured_patch: normal (d/dx) x (d/dtheta) = outward
    for j in range(ntheta + 1):  # snap the straight edge and symmetry line exactly
        for i in range(nx + 1):
            nid = ids[j][i]
            if j == ntheta:
                mesh.y[nid - 1], mesh.z[nid - 1] = R, 0.0
            if j == 0:
                mesh.y[nid - 1], mesh.z[nid - 1] = 0.0, R
    mesh.add_nset("CLAMP", [ids[j][0] for j in range(ntheta + 1)])
    mesh.add_nset("SYMM", [ids[0][i] for i in range(nx + 1)])
    mesh.add_nset("EDGE", [ids[ntheta][i] for i in range(nx + 1)])
    mesh.add_nset("LOADPT", [ids[0][nx]])
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=args.smooth)
    spec.boundaries = ["CLAMP, ENCASTRE", "SYMM, YSYMM", "EDGE, 3, 3", "EDGE, 4, 4"]
    spec.cloads = [(amp, [("LOADPT", 3, -0.5 * P)])]
    common_outputs(spec, args, ["LOADPT"])
    spec.heading = [
        "halfstep example: pinched semi-cylindrical shell (Sze Liu and Lo 2004 problem 3.7; after Stander Matzenmiller and Ramm 1989)",
        "Reference: -W at the load point vs P/Pmax (Pmax = 2000): /work/shared/references/data/sze2004_3-7_pinched_semicylinder.csv; 1.71505 at full load (Abaqus S4R 40x40 on the half model)",
        "Units: consistent SI-like (as seed 4.3); R = 1.016 L = 3.048 t = 0.03 E = 2.0685e7 nu = 0.3 rho = %s; load fraction %s (P = %s)" % (fmt(rho), fmt(frac), fmt(P)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Geometry: semi-cylinder of radius R with its axis along X (0 <= x <= L), crown line at z = R (y = 0),",
        "straight longitudinal edges at z = 0 (y = +-R). Half model y >= 0 (theta = 0 .. 90 deg from the crown): %d (axial) x %d (circumferential)," % (nx, ntheta),
        "Sze et al. used 40 x 40 S4R on this half (--n 40). Normals outward.",
        "Boundary conditions (as used by Sze et al. 2004 / the original benchmark, see the generator source):",
        "  CLAMP (x = 0): ENCASTRE.  Free end x = L.",
        "  SYMM (crown line y = 0, symmetry plane of the full semi-cylinder): YSYMM (U2 = UR1 = UR3 = 0).",
        "  EDGE (straight longitudinal edge y = R z = 0): U3 = 0 (vertical) and UR1 = 0 (rotation about the axis X);",
        "  U1 and U2 free there (the edge may slide in x and in y).",
        "Load: LOADPT = free-end crown (L, 0, R): -P/2 = %s in Z on the half model (full semi-cylinder P = %s downwards)." % (fmt(-0.5 * P), fmt(P)),
        "Amplitude: %s; time period %s; damping alpha = %s." % (amp_txt, fmt(time), fmt(alpha)),
        "Rough first frequency estimate %s rad/s (T1 ~ %s s): the defaults are a dynamic-relaxation guess; during" % (fmt(sig(omega1)), fmt(sig(T1))),
        "the ramp the history lags the static curve slightly; compare -U3(LOADPT) with the csv at amplitude = P/Pmax.",
    ]
    return spec


def sze_cantilever(args, L, title, ref_line, shear):
    b, h, E, nu = 1.0, 0.1, 1.2e6, 0.0
    rho = opt(args, "density", 1.0)
    n = opt(args, "n", 1)
    ny = opt(args, "ny", n)
    nx = opt(args, "nx", 16 * n)
    frac = opt(args, "fraction", 1.0)
    omega1 = cantilever_omega1(L, h, E, rho)
    if shear:
        T1, ramp, time, alpha = relax_defaults(args, omega1, 5.0, 8.0)
    else:
        T1, ramp, time, alpha = relax_defaults(args, omega1, 6.0, 9.0)
    spec = Spec("cantilever-shear" if shear else "cantilever-moment")
    mesh, ids = rect_plate(nx, ny, L, b)
    root = [ids[j][0] for j in range(ny + 1)]
    tip = [ids[j][nx] for j in range(ny + 1)]
    mesh.add_nset("ROOT", root)
    mesh.add_nset("TIP", tip)
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, h
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=args.smooth)
    spec.boundaries = ["ROOT, ENCASTRE"]
    I = b * h ** 3 / 12
    if shear:
        pmax = opt(args, "pmax", 4.0)
        total = pmax * frac
        sets = edge_load_sets(mesh, tip, total, "TIPLOAD")
        spec.cloads = [(amp, [(nm, 3, v) for nm, v, _ in sets])]
        load_txt = "total end shear %s (= %s x Pmax %s) in +Z" % (fmt(total), fmt(frac), fmt(pmax))
    else:
        mmax = 2 * math.pi * E * I / L
        total = mmax * frac
        sets = edge_load_sets(mesh, tip, -total, "TIPLOAD")
        spec.cloads = [(amp, [(nm, 5, v) for nm, v, _ in sets])]
        load_txt = "total end moment %s (= %s x Mmax; Mmax = 2 pi EI/L = 50 pi/3 = %s) about -Y (dof 5 negative: curls towards +Z)" % (
            fmt(total), fmt(frac), fmt(mmax))
    common_outputs(spec, args, ["TIP"])
    spec.heading = [
        title,
        ref_line,
        "Units: consistent (none stated); L = %s b = 1 h = 0.1 E = 1.2e6 nu = 0 rho = %s" % (fmt(L), fmt(rho)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Strip in the XY plane (x along the length, y across the width), normals +Z; mesh %d x %d (Sze: 16 x 1)." % (nx, ny),
        "BCs: ROOT (x = 0) ENCASTRE; other edges free.",
        "Load: %s," % load_txt,
        "split consistently over the %d free-edge nodes (end nodes half share): %s." % (
            len(tip), "; ".join("%s (%d nodes) %s each" % (nm, c, fmt(v)) for nm, v, c in sets)),
        "Amplitude: %s; time period %s; damping alpha = %s." % (amp_txt, fmt(time), fmt(alpha)),
        "Linear first frequency omega1 = 1.8751^2/L^2 sqrt(E h^2/(12 rho)) = %s rad/s (T1 = %s): defaults ramp ~%d T1 and" % (
            fmt(sig(omega1)), fmt(sig(T1)), 5 if shear else 6),
        "alpha = 1.4 omega1 are a dynamic-relaxation guess; read the history TIP (all free-edge nodes) against the csv",
        "at amplitude = load fraction (the history lags the static path a little while the load is still rising).",
    ]
    return spec


def case_cantilever_shear(args):
    return sze_cantilever(
        args, 10.0,
        "halfstep example: cantilever under end shear; large deflection (Sze Liu and Lo 2004 problem 3.1)",
        "Reference: tip -U and W vs P/Pmax in /work/shared/references/data/sze2004_3-1_cantilever_end_shear.csv (W = 6.698 and -U = 3.286 at Pmax = 4)",
        True,
    )


def case_cantilever_moment(args):
    return sze_cantilever(
        args, 12.0,
        "halfstep example: cantilever rolled up by an end moment (Sze Liu and Lo 2004 problem 3.2)",
        "Reference: exact theta = 2 pi M/Mmax; -U = L - (L/theta) sin(theta); W = (L/theta)(1 - cos(theta)); csv /work/shared/references/data/sze2004_3-2_cantilever_end_moment.csv (full circle at Mmax: -U = 12 W = 0)",
        False,
    )


def grav_loads(spec, q, prefix="GRAV"):
    """Consistent nodal loads of a uniform (vertical) area load q: area/4 per node."""
    m = spec.mesh
    nodal = [0.0] * m.nnode
    total = 0.0
    for e in m.elems:
        a = m.element_area(e)
        total += a * q
        for nid in e:
            nodal[nid - 1] += 0.25 * a * q
    groups = group_by_value([(i + 1, v) for i, v in enumerate(nodal)])
    rows = []
    for k, (val, ids) in enumerate(groups):
        name = "%s%d" % (prefix, k + 1)
        m.add_nset(name, ids)
        rows.append((name, val, len(ids)))
    return rows, total


def case_scordelis_lo(args):
    R, L, phi0, t, E, nu, q = 25.0, 50.0, math.radians(40.0), 0.25, 4.32e8, 0.0, 90.0
    g = 32.174
    rho = opt(args, "density", q / (g * t))
    n = opt(args, "n", 8)
    nphi = opt(args, "ny", n)
    nx = opt(args, "nx", n)
    omega1 = 12.4 * math.sqrt((q / (g * t)) / rho)  # Rayleigh estimate with the static deflection shape
    T1, ramp, time, alpha = relax_defaults(args, omega1, 1.0, 4.0)
    spec = Spec("scordelis-lo")
    mesh = Mesh()
    ids = structured_patch(mesh, nx, nphi, lambda i, j: cylinder_point(R, 0.5 * L * i / nx, phi0 * j / nphi))
    # normal (d/dx) x (d/dphi): outward (upward at the crown)
    mesh.add_nset("DIAPHRAGM", [ids[j][0] for j in range(nphi + 1)])
    mesh.add_nset("MIDSPAN", [ids[j][nx] for j in range(nphi + 1)])
    mesh.add_nset("CROWN", [ids[0][i] for i in range(nx + 1)])
    mesh.add_nset("MIDEDGE", [ids[nphi][nx]])
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    rows, total = grav_loads(spec, q)
    spec.boundaries = ["DIAPHRAGM, 2, 3", "DIAPHRAGM, 4, 4", "MIDSPAN, XSYMM", "CROWN, YSYMM"]
    spec.cloads = [(amp, [(nm, 3, -v) for nm, v, _ in rows])]
    common_outputs(spec, args, ["MIDEDGE"])
    spec.heading = [
        "halfstep example: Scordelis-Lo roof under self weight (MacNeal & Harder 1985 shell obstacle course; linear)",
        "Reference: vertical displacement at the midpoint of the free edge U3(MIDEDGE) = -0.3024 (0.3086 also quoted)",
        "Units: ft / lbf / s (slug); R = 25 L = 50 half-angle 40 deg t = 0.25 E = 4.32e8 nu = 0 q = 90 per unit area; rho = %s" % fmt(sig(rho, 6)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Quarter roof: axis X, 0 <= x <= L/2 (x = 0 diaphragm; x = L/2 midspan symmetry), angle 0 .. 40 deg from the crown (+Z) towards +Y;",
        "y = R sin(phi), z = R cos(phi); normals outward (upward). Mesh %d (axial) x %d (circumferential)." % (nx, nphi),
        "BCs: DIAPHRAGM (x = 0): U2 = U3 = 0 (translations in the diaphragm plane) and UR1 = 0 (rotation about the axis); U1 free.",
        "     MIDSPAN (x = L/2): XSYMM; CROWN (y = 0): YSYMM; the straight edge at 40 deg is free.",
        "Load: self weight 90 per unit (element) area, -Z, as consistent nodal loads area/4: total on the quarter %s;" % fmt(sig(total, 8)),
        "      %s." % "; ".join("%s (%d nodes) %s each" % (nm, c, fmt(-v)) for nm, v, c in rows),
        "Density default q/(g t) (the weight as mass, g = 32.174); it only sets the time scale of the relaxation.",
        "Amplitude: %s; damping alpha = %s; omega1 estimate %s rad/s (T1 = %s)." % (amp_txt, fmt(sig(alpha)), fmt(sig(omega1)), fmt(sig(T1))),
    ]
    return spec


def donnell_omega1(R, L, t, E, nu, rho, n_parity=0):
    """Lowest Donnell frequency of a shear-diaphragm cylinder with m = 1 and n of given parity."""
    lam = math.pi * R / L
    k = t * t / (12 * R * R)
    best = None
    for n in range(2 if n_parity == 0 else 1, 40, 2 if n_parity in (0, 1) else 1):
        s = lam * lam + n * n
        om2 = (1 - nu * nu) * lam ** 4 / s ** 2 + k * s ** 2
        if best is None or om2 < best[0]:
            best = (om2, n)
    Om = math.sqrt(best[0])
    return Om / R * math.sqrt(E / (rho * (1 - nu * nu))), best[1]


def case_pinched_cylinder_diaphragm(args):
    R, L, t, E, nu = 300.0, 600.0, 3.0, 3e6, 0.3
    P = opt(args, "load", 1.0)
    rho = opt(args, "density", 1.0)
    n = opt(args, "n", 8)
    nth = opt(args, "ny", n)
    nx = opt(args, "nx", n)
    omega1, nmode = donnell_omega1(R, L, t, E, nu, rho, 0)
    T1, ramp, time, alpha = relax_defaults(args, omega1, 1.0, 6.0)
    spec = Spec("pinched-cylinder-diaphragm")
    mesh = Mesh()
    ids = structured_patch(mesh, nx, nth, lambda i, j: cylinder_point(R, 0.5 * L * i / nx, 0.5 * math.pi * j / nth))
    # normal (d/dx) x (d/dtheta): outward
    for i in range(nx + 1):  # exact zeros on the symmetry planes
        a = ids[nth][i]
        mesh.y[a - 1], mesh.z[a - 1] = R, 0.0
        b = ids[0][i]
        mesh.y[b - 1], mesh.z[b - 1] = 0.0, R
    mesh.add_nset("DIAPHRAGM", [ids[j][0] for j in range(nth + 1)])
    mesh.add_nset("MIDLEN", [ids[j][nx] for j in range(nth + 1)])
    mesh.add_nset("SYMY", [ids[0][i] for i in range(nx + 1)])
    mesh.add_nset("SYMZ", [ids[nth][i] for i in range(nx + 1)])
    mesh.add_nset("LOADPT", [ids[0][nx]])
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    spec.boundaries = ["DIAPHRAGM, 2, 3", "DIAPHRAGM, 4, 4", "MIDLEN, XSYMM", "SYMY, YSYMM", "SYMZ, ZSYMM"]
    spec.cloads = [(amp, [("LOADPT", 3, -0.25 * P)])]
    common_outputs(spec, args, ["LOADPT"])
    spec.heading = [
        "halfstep example: pinched cylinder with rigid end diaphragms (MacNeal & Harder 1985 / Belytschko et al. 1985; linear)",
        "Reference: radial displacement under the load = 1.8249e-5 x P (w E t/P = 164.24); here U3(LOADPT) = -%s" % fmt(sig(1.8249e-5 * P, 5)),
        "Units: consistent (none stated); R = 300 L = 600 t = 3 E = 3e6 nu = 0.3 rho = %s; P = %s total per load" % (fmt(rho), fmt(P)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "1/8 model: axis X, 0 <= x <= L/2 (x = 0 diaphragm end, x = L/2 mid-length symmetry plane),",
        "theta 0 .. 90 deg from +Z towards +Y (y = R sin, z = R cos); normals outward; mesh %d (axial) x %d." % (nx, nth),
        "BCs: DIAPHRAGM (x = 0): U2 = U3 = 0 (radial and tangential) and UR1 = 0; U1 (axial) free.",
        "     MIDLEN (x = L/2) XSYMM; SYMY (y = 0 line) YSYMM; SYMZ (z = 0 line) ZSYMM.",
        "Load: LOADPT (L/2, 0, R) dof 3 = -P/4 = %s (radially inward); %s; damping alpha = %s." % (fmt(-0.25 * P), amp_txt, fmt(sig(alpha))),
        "omega1 estimate (Donnell, m = 1, n = %d) %s rad/s, T1 = %s." % (nmode, fmt(sig(omega1)), fmt(sig(T1))),
    ]
    return spec


def case_pinched_hemisphere(args):
    R, t, E, nu = 10.0, 0.04, 6.825e7, 0.3
    F = opt(args, "load", 1.0)
    rho = opt(args, "density", 1.0)
    n = opt(args, "n", 8)
    nphi = opt(args, "nx", n)
    nb = opt(args, "ny", n)
    beta_max = math.radians(72.0)
    omega1 = 4.5 / math.sqrt(rho)  # Rayleigh estimate with an inextensional n = 2 shape
    T1, ramp, time, alpha = relax_defaults(args, omega1, 1.0, 6.0)
    spec = Spec("pinched-hemisphere")
    mesh = Mesh()

    def pt(i, j):
        ph = 0.5 * math.pi * i / nphi
        be = beta_max * j / nb
        x, y = R * math.cos(be) * math.cos(ph), R * math.cos(be) * math.sin(ph)
        if i == nphi:
            x = 0.0
        if i == 0:
            y = 0.0
        return (x, y, R * math.sin(be) if j else 0.0)

    ids = structured_patch(mesh, nphi, nb, pt)  # (d/dphi) x (d/dbeta) = outward
    mesh.add_nset("SYMY", [ids[j][0] for j in range(nb + 1)])  # phi = 0, plane y = 0
    mesh.add_nset("SYMX", [ids[j][nphi] for j in range(nb + 1)])  # phi = 90, plane x = 0
    mesh.add_nset("A", [ids[0][0]])
    mesh.add_nset("B", [ids[0][nphi]])
    mesh.add_nset("ZFIX", [ids[nb][0]])
    spec.mesh = mesh
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, t
    spec.time, spec.dt = time, opt(args, "dt", None)
    amp, amp_txt = load_amplitude(spec, ramp, time, smooth=True)
    spec.boundaries = ["SYMY, YSYMM", "SYMX, XSYMM", "ZFIX, 3, 3"]
    spec.cloads = [(amp, [("A", 1, F), ("B", 2, -F)])]
    common_outputs(spec, args, ["A", "B"])
    spec.heading = [
        "halfstep example: pinched hemisphere with an 18 degree hole (MacNeal & Harder 1985; linear)",
        "Reference: radial (X) displacement at A U1(A) = +0.094 (0.0924 also quoted); B moves inwards (-Y) by about the same",
        "Units: consistent (none stated); R = 10 t = 0.04 E = 6.825e7 nu = 0.3 rho = %s; loads %s" % (fmt(rho), fmt(F)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "1/4 model: x = R cos(beta) cos(phi), y = R cos(beta) sin(phi), z = R sin(beta); phi = 0 .. 90 deg, latitude beta = 0 (equator)",
        ".. 72 deg (18 deg hole around the pole); normals outward; mesh %d (phi) x %d (beta)." % (nphi, nb),
        "BCs: SYMY (phi = 0 meridian in the plane y = 0) YSYMM; SYMX (phi = 90 meridian, plane x = 0) XSYMM;",
        "     ZFIX (hole-edge node on the phi = 0 meridian) U3 = 0 to remove the rigid axial translation; equator and hole edge free.",
        "Loads: A (R, 0, 0) dof 1 = +%s (outwards); B (0, R, 0) dof 2 = -%s (inwards); %s; damping alpha = %s." % (fmt(F), fmt(F), amp_txt, fmt(sig(alpha))),
        "omega1 estimate (Rayleigh, inextensional n = 2 shape) %s rad/s, T1 = %s." % (fmt(sig(omega1)), fmt(sig(T1))),
    ]
    return spec


def case_cantilever_vibration(args):
    L, b, h, E, nu = 10.0, 1.0, 0.1, 2.1e5, opt(args, "nu", 0.3)
    rho = opt(args, "density", 7.85e-9)
    n = opt(args, "n", 2)
    ny = opt(args, "ny", n)
    nx = opt(args, "nx", 10 * n)
    amp_tip = opt(args, "amplitude", 0.01)
    omega1 = cantilever_omega1(L, h, E, rho)
    f1 = omega1 / (2 * math.pi)
    time = opt(args, "time", 3.0 / f1)
    alpha = opt(args, "alpha", 0.0)
    v0 = amp_tip * omega1
    spec = Spec("cantilever-vibration")
    mesh, ids = rect_plate(nx, ny, L, b)
    mesh.add_nset("ROOT", [ids[j][0] for j in range(ny + 1)])
    mesh.add_nset("TIP", [ids[j][nx] for j in range(ny + 1)])
    # first cantilever mode, normalised to 1 at the tip
    bl = 1.8751040687
    sg = (math.sinh(bl) - math.sin(bl)) / (math.cosh(bl) + math.cos(bl))

    def mode(x):
        s = bl * x / L
        return math.cosh(s) - math.cos(s) - sg * (math.sinh(s) - math.sin(s))

    m_tip = mode(L)
    for i in range(1, nx + 1):
        name = "VX%d" % i
        mesh.add_nset(name, [ids[j][i] for j in range(ny + 1)])
        spec.init_vel.append((name, 3, v0 * mode(L * i / nx) / m_tip))
    spec.mesh = mesh
    spec.boundaries = ["ROOT, ENCASTRE"]
    spec.E, spec.nu, spec.rho, spec.alpha, spec.thickness = E, nu, rho, alpha, h
    spec.time, spec.dt = time, opt(args, "dt", None)
    common_outputs(spec, args, ["TIP"])
    if args.history_interval is None:
        spec.history_interval = 1.0 / (f1 * 50.0)
    spec.heading = [
        "halfstep example: free vibration of a cantilever strip started by a first-mode velocity field",
        "Reference: f1 = (1.8751^2/(2 pi L^2)) sqrt(EI/(rho A)) = %s Hz (period %s s); tip amplitude U3(TIP) = %s" % (
            fmt(sig(f1, 6)), fmt(sig(1 / f1, 6)), fmt(amp_tip)),
        "Units: mm / t / s / N / MPa; L = 10 b = 1 h = 0.1 E = 2.1e5 nu = %s rho = %s" % (fmt(nu), fmt(rho)),
        "Generated by: %s" % args.cmdline,
    ]
    spec.comments = [
        "Strip in the XY plane, normals +Z; mesh %d x %d; ROOT (x = 0) ENCASTRE; no load; damping alpha = %s." % (nx, ny, fmt(alpha)),
        "Initial condition: U3 velocity v0 phi1(x)/phi1(L) with the Euler-Bernoulli first mode",
        "phi1 = cosh(bx) - cos(bx) - s (sinh(bx) - sin(bx)), bL = 1.8751, s = 0.7341; v0 = omega1 x amplitude = %s" % fmt(sig(v0, 6)),
        "(one node set VXi per station x_i, rotational velocities left at zero). Expected: U3(TIP) = (v0/omega1) sin(omega1 t).",
        "Time period = 3 periods; small-amplitude (linear) regime: tip amplitude / thickness = %s." % fmt(amp_tip / h),
        "Beam theory with E applies (narrow strip, small deflection); shear and rotary inertia lower f1 by about 0.1 %;",
        "with nu > 0 the clamped root restrains the anticlastic curvature locally, which can raise f1 by",
        "a percent or so; --nu 0 gives the cleanest comparison with the beam formula.",
    ]
    return spec


CASES = {
    "circular-plate": (case_circular_plate, "seed 4.1: quarter of a simply supported circular plate, uniform pressure; 3n^2 elements (n = 4)"),
    "clamped-plate": (case_clamped_plate, "seed 4.2: 100x20x0.2 cantilever plate, tip shear held from t = 0, 0.35 s; 5n x n (n = 4, even)"),
    "pinched-cylinder": (case_pinched_cylinder, "seed 4.3: closed cylinder clamped at x = 0, two radial point loads at the free end; 2n x n (n = 16)"),
    "pinched-semicylinder": (case_pinched_semicylinder, "Sze 2004 3.7: half of the pinched semi-cylinder; n x n (n = 16; Sze: 40)"),
    "cantilever-shear": (case_cantilever_shear, "Sze 2004 3.1: cantilever, end shear Pmax = 4; 16n x n (n = 1)"),
    "cantilever-moment": (case_cantilever_moment, "Sze 2004 3.2: cantilever rolled into a circle by an end moment; 16n x n (n = 1)"),
    "scordelis-lo": (case_scordelis_lo, "obstacle course: Scordelis-Lo roof, 1/4 model; n x n (n = 8)"),
    "pinched-cylinder-diaphragm": (case_pinched_cylinder_diaphragm, "obstacle course: pinched cylinder with rigid diaphragms, 1/8 model; n x n (n = 8)"),
    "pinched-hemisphere": (case_pinched_hemisphere, "obstacle course: pinched hemisphere with 18 deg hole, 1/4 model; n x n (n = 8)"),
    "cantilever-vibration": (case_cantilever_vibration, "cantilever strip in free vibration from a first-mode velocity; 10n x n (n = 2)"),
}


def build_parser():
    epilog = ["cases:"]
    for k, (_, d) in CASES.items():
        epilog.append("  %-27s %s" % (k, d))
    epilog.append("")
    epilog.append("Default n in parentheses. --nx/--ny override the two mesh directions of all cases but")
    epilog.append("circular-plate and pinched-cylinder. Options not given take case-specific defaults")
    epilog.append("(written into each deck's comments).")
    epilog.append("Example: python3 examples/generate_deck.py pinched-cylinder --n 708 -o /tmp/cyl1M.inp")
    p = argparse.ArgumentParser(
        prog="generate_deck.py",
        description="Write a halfstep example deck (.inp) for one benchmark case.",
        epilog="\n".join(epilog),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("case", choices=list(CASES.keys()), metavar="CASE", help="benchmark case (see the list below)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.inp", help="deck to write")
    p.add_argument("--n", type=int, help="refinement parameter (every case; meaning per case below)")
    p.add_argument("--nx", type=int, help="override the element count along the first mesh direction (rectangular/cylindrical cases)")
    p.add_argument("--ny", type=int, help="override the element count along the second mesh direction")
    p.add_argument("--density", type=float, help="mass density (case units)")
    p.add_argument("--alpha", type=float, help="mass-proportional damping ALPHA (0: no *DAMPING)")
    p.add_argument("--ramp", type=float, help="load ramp time (0: load applied at t = 0 and held)")
    p.add_argument("--smooth", action="store_true", help="SMOOTH STEP instead of the linear TABULAR ramp (Sze cases; the others always use SMOOTH STEP)")
    p.add_argument("--time", type=float, help="step time period")
    p.add_argument("--dt", type=float, help="fixed increment: writes *DYNAMIC, EXPLICIT, DIRECT USER CONTROL")
    p.add_argument("--field-interval", type=int, help="*OUTPUT, FIELD, NUMBER INTERVAL (0: no field output; default 10)")
    p.add_argument("--history-interval", type=float, help="*OUTPUT, HISTORY, TIME INTERVAL (default time/200)")
    p.add_argument("--no-element-output", action="store_true", help="omit *ELEMENT OUTPUT from the field output")
    p.add_argument("--load", type=float, help="point load magnitude (pinched-cylinder: per load, default 500; diaphragm cylinder: P, default 1; hemisphere: 1)")
    p.add_argument("--pmax", type=float, help="maximum load (pinched-semicylinder: 2000 on the full semi-cylinder; cantilever-shear: 4)")
    p.add_argument("--fraction", type=float, help="fraction of Pmax/Mmax applied (Sze cases; default 1.0)")
    p.add_argument("--pressure", type=float, help="circular-plate pressure (1e-4) / clamped-plate tip traction (0.00156)")
    p.add_argument("--amplitude", type=float, help="cantilever-vibration: tip displacement amplitude (default 0.01)")
    p.add_argument("--nu", type=float, help="cantilever-vibration: Poisson ratio (default 0.3)")
    p.add_argument("--load-factor", type=float, default=1.0,
                   help="multiply every load by this factor (linear benchmarks on this geometrically nonlinear solver: "
                        "run at 1e-3 and divide the displacements by it)")
    p.add_argument("--static", type=int, metavar="N",
                   help="write a *STATIC step in N load increments instead of the explicit step (no amplitudes, "
                        "damping or mass needed); geometrically linear unless --nlgeom")
    p.add_argument("--nlgeom", action="store_true", help="with --static: NLGEOM=YES (large rotations)")
    p.add_argument("--heading-note", help="extra line added to the *HEADING")
    p.add_argument("--triangles", action="store_true",
                   help="FPM triangles: split each quad (a, b, c, d) into S3 (a, b, c), (a, c, d) with *SHELL SECTION, FORMULATION=FPM")
    p.add_argument("--yield-stress", type=float,
                   help="add a bilinear *PLASTIC (this yield stress, hardening modulus --hardening) to the material")
    p.add_argument("--hardening", type=float, default=0.0, help="with --yield-stress: plastic hardening modulus")
    p.add_argument("--shuffle", type=int, metavar="SEED",
                   help="give nodes and elements randomly permuted labels and write them in random order "
                        "(a poorly numbered deck, as from a pre-processor; same geometry and sets)")
    p.add_argument("--split-mesh", action="store_true", help="write nodes/elements/sets to FILE_mesh.inp and *INCLUDE it")
    return p


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
    args.cmdline = command_line()
    if args.case in ("circular-plate", "pinched-cylinder") and (args.nx or args.ny):
        raise SystemExit("%s: use --n (no --nx/--ny)" % args.case)
    if args.n is not None and args.n < 1:
        raise SystemExit("--n must be positive")
    spec = CASES[args.case][0](args)
    if args.load_factor != 1.0:
        f = args.load_factor
        spec.cloads = [(amp, [(nm, dof, v * f) for nm, dof, v in rows]) for amp, rows in spec.cloads]
        spec.dloads = [(amp, [(nm, kind, v * f) for nm, kind, v in rows]) for amp, rows in spec.dloads]
        spec.heading.insert(len(spec.heading) - 1, "Loads scaled by %s (--load-factor): divide displacements by it to compare" % fmt(f))
    if args.static is not None:
        if args.static < 1:
            raise SystemExit("--static must be positive")
        spec.static = (args.static, args.nlgeom)
        spec.alpha = 0.0
        spec.amplitudes = []
        spec.time = 1.0
        spec.dt = None
        spec.heading.insert(len(spec.heading) - 1, "Static step (--static %d%s): loads ramp over a step of period 1" % (
            args.static, ", NLGEOM=YES" if args.nlgeom else ", NLGEOM=NO"))
    elif args.nlgeom:
        raise SystemExit("--nlgeom goes with --static")
    if args.heading_note:
        spec.heading.insert(len(spec.heading) - 1, args.heading_note)
    if args.triangles:
        if spec.static:
            raise SystemExit("--triangles: FPM triangles run in explicit steps only")
        spec.triangles = True
        spec.heading.insert(len(spec.heading) - 1, "FPM triangles (--triangles): each quad split into two S3")
    if args.yield_stress is not None:
        if not args.yield_stress > 0:
            raise SystemExit("--yield-stress must be positive")
        spec.plastic = (args.yield_stress, args.hardening)
        spec.heading.insert(len(spec.heading) - 1, "Bilinear *PLASTIC (--yield-stress %s, --hardening %s)" % (
            fmt(args.yield_stress), fmt(args.hardening)))
    if args.shuffle is not None:
        spec.shuffle = args.shuffle
        spec.heading.insert(len(spec.heading) - 1, "Labels permuted and written in random order (--shuffle %d)" % args.shuffle)
    dt_est = write_deck(spec, args.output, split_mesh=args.split_mesh)
    m = spec.mesh
    sys.stderr.write("%s: %s -> %d nodes, %d elements, time %s, est. dt %s\n" % (
        args.case, args.output, m.nnode, len(m.elems), fmt(spec.time), fmt(dt_est)))


if __name__ == "__main__":
    main()
