#!/usr/bin/env python3
"""Sanity checks for halfstep example decks (python3 standard library only).

Usage: python3 examples/check_deck.py DECK.inp [DECK2.inp ...] [--expect-normal SPEC] [--quiet]

Parses the keyword dialect halfstep reads (follows *INCLUDE) and checks:
  * only known keywords / parameters of that dialect are used;
  * node and element ids are unique; every element has 4 distinct, existing nodes;
  * no coincident nodes (unmerged seams) and no nodes outside the elements;
  * every element has a positive area (no degenerate quads); reports aspect ratio,
    corner angles and warping;
  * the surface is consistently oriented: every edge shared by two elements is
    traversed in opposite directions (all normals on the same side) and no edge is
    shared by more than two elements;
  * every element has a *SHELL SECTION whose material exists (with *ELASTIC and *DENSITY);
  * every referenced node/element set, amplitude and material exists and is non-empty;
    dofs are 1..6;
  * one or more *STEP with *DYNAMIC, EXPLICIT and a positive time period.
It prints counts, mesh quality, load resultants (CLOAD magnitude x set size, and the
pressure resultant -p n A) and an estimate of the stable increment.

--expect-normal SPEC additionally checks that every element normal points along SPEC:
  +x, -x, +y, -y, +z, -z               a fixed direction (n . d > 0)
  out-x, out-y, out-z                  away from that coordinate axis (cylinders)
  out-o                                away from the origin (spheres)
Exit status 1 if any error was found.
"""

import argparse
import math
import os
import sys

KNOWN = {
    "HEADING": set(),
    "NODE": {"NSET"},
    "ELEMENT": {"TYPE", "ELSET"},
    "NSET": {"NSET", "GENERATE"},
    "ELSET": {"ELSET", "GENERATE"},
    "INCLUDE": {"INPUT"},
    "MATERIAL": {"NAME"},
    "ELASTIC": set(),
    "DENSITY": set(),
    "DAMPING": {"ALPHA"},
    "SHELL SECTION": {"ELSET", "MATERIAL"},
    "AMPLITUDE": {"NAME", "DEFINITION"},
    "INITIAL CONDITIONS": {"TYPE"},
    "STEP": {"NAME", "NLGEOM"},
    "DYNAMIC": {"EXPLICIT", "DIRECT USER CONTROL"},
    "END STEP": set(),
    "BOUNDARY": set(),
    "CLOAD": {"AMPLITUDE"},
    "DLOAD": {"AMPLITUDE"},
    "OUTPUT": {"FIELD", "HISTORY", "NUMBER INTERVAL", "TIME INTERVAL"},
    "NODE OUTPUT": {"NSET"},
    "ELEMENT OUTPUT": {"ELSET"},
}
BC_TYPES = {"ENCASTRE": (1, 2, 3, 4, 5, 6), "PINNED": (1, 2, 3), "XSYMM": (1, 5, 6), "YSYMM": (2, 4, 6), "ZSYMM": (3, 4, 5)}


class Deck:
    def __init__(self):
        self.nodes = {}
        self.elems = {}
        self.nsets = {}
        self.elsets = {}
        self.materials = {}
        self.sections = []
        self.amplitudes = {}
        self.init_vel = []
        self.steps = []
        self.errors = []
        self.warnings = []
        self.heading = []

    def err(self, msg):
        self.errors.append(msg)

    def warn(self, msg):
        self.warnings.append(msg)


def parse_keyword(line):
    parts = [p.strip() for p in line[1:].split(",")]
    kw = " ".join(parts[0].upper().split())
    params = {}
    for p in parts[1:]:
        if not p:
            continue
        if "=" in p:
            k, v = p.split("=", 1)
            params[" ".join(k.strip().upper().split())] = v.strip()
        else:
            params[" ".join(p.upper().split())] = None
    return kw, params


def read_blocks(path, deck, depth=0):
    """Yield (keyword, params, data_lines, location) from a file, following *INCLUDE."""
    if depth > 10:
        deck.err("*INCLUDE nesting too deep at %s" % path)
        return
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        deck.err("cannot read %s: %s" % (path, e))
        return
    cur = None
    for ln, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("**"):
            continue
        if line.startswith("*"):
            if cur:
                yield cur
                cur = None
            kw, params = parse_keyword(line)
            loc = "%s:%d" % (os.path.basename(path), ln)
            if kw == "INCLUDE":
                inc = params.get("INPUT")
                if not inc:
                    deck.err("%s: *INCLUDE without INPUT" % loc)
                    continue
                incp = inc if os.path.isabs(inc) else os.path.join(os.path.dirname(path), inc)
                for b in read_blocks(incp, deck, depth + 1):
                    yield b
                continue
            cur = (kw, params, [], loc)
        else:
            if cur is None:
                deck.err("%s:%d: data line before any keyword" % (os.path.basename(path), ln))
                continue
            cur[2].append(line)
    if cur:
        yield cur


def fields(line):
    f = [x.strip() for x in line.split(",")]
    while f and f[-1] == "":
        f.pop()
    return f


def id_list(deck, params, data, loc, existing, kind):
    out = []
    if "GENERATE" in params:
        for line in data:
            f = fields(line)
            try:
                a, b = int(f[0]), int(f[1])
                c = int(f[2]) if len(f) > 2 and f[2] else 1
            except (ValueError, IndexError):
                deck.err("%s: bad GENERATE line %r" % (loc, line))
                continue
            if c <= 0 or b < a:
                deck.err("%s: bad GENERATE range %r" % (loc, line))
                continue
            out.extend(range(a, b + 1, c))
    else:
        for line in data:
            for tok in fields(line):
                if not tok:
                    continue
                try:
                    out.append(int(tok))
                except ValueError:
                    nm = tok.upper()
                    if nm in existing:
                        out.extend(existing[nm])
                    else:
                        deck.err("%s: unknown %s set %s inside a set definition" % (loc, kind, tok))
    return out


def parse(path):
    d = Deck()
    material = None
    step = None
    output_mode = None
    for kw, params, data, loc in read_blocks(path, d):
        if kw not in KNOWN:
            d.err("%s: keyword *%s is not in the halfstep dialect" % (loc, kw))
            continue
        for p in params:
            if p not in KNOWN[kw]:
                d.err("%s: parameter %s of *%s is not in the halfstep dialect" % (loc, p, kw))
        if kw == "HEADING":
            d.heading.extend(data)
        elif kw == "NODE":
            ids = []
            for line in data:
                f = fields(line)
                try:
                    nid = int(f[0])
                    xyz = tuple(float(v) for v in (f[1:4] + ["0", "0", "0"])[:3])
                except (ValueError, IndexError):
                    d.err("%s: bad *NODE line %r" % (loc, line))
                    continue
                if nid in d.nodes:
                    d.err("%s: duplicate node id %d" % (loc, nid))
                d.nodes[nid] = xyz
                ids.append(nid)
            if params.get("NSET"):
                d.nsets.setdefault(params["NSET"].upper(), []).extend(ids)
        elif kw == "ELEMENT":
            typ = (params.get("TYPE") or "").upper()
            if typ not in ("S4R", "S4"):
                d.err("%s: element type %s is not a 4-node shell" % (loc, typ))
            ids = []
            for line in data:
                f = fields(line)
                try:
                    v = [int(x) for x in f]
                except ValueError:
                    d.err("%s: bad *ELEMENT line %r" % (loc, line))
                    continue
                if len(v) != 5:
                    d.err("%s: element line needs id + 4 nodes: %r" % (loc, line))
                    continue
                if v[0] in d.elems:
                    d.err("%s: duplicate element id %d" % (loc, v[0]))
                d.elems[v[0]] = tuple(v[1:])
                ids.append(v[0])
            if params.get("ELSET"):
                d.elsets.setdefault(params["ELSET"].upper(), []).extend(ids)
        elif kw == "NSET":
            nm = (params.get("NSET") or "").upper()
            if not nm:
                d.err("%s: *NSET without NSET=" % loc)
                continue
            d.nsets.setdefault(nm, []).extend(id_list(d, params, data, loc, d.nsets, "node"))
        elif kw == "ELSET":
            nm = (params.get("ELSET") or "").upper()
            if not nm:
                d.err("%s: *ELSET without ELSET=" % loc)
                continue
            d.elsets.setdefault(nm, []).extend(id_list(d, params, data, loc, d.elsets, "element"))
        elif kw == "MATERIAL":
            material = (params.get("NAME") or "").upper()
            d.materials[material] = {}
        elif kw in ("ELASTIC", "DENSITY", "DAMPING"):
            if material is None:
                d.err("%s: *%s outside a *MATERIAL" % (loc, kw))
                continue
            try:
                if kw == "ELASTIC":
                    f = fields(data[0])
                    d.materials[material]["E"], d.materials[material]["nu"] = float(f[0]), float(f[1])
                elif kw == "DENSITY":
                    d.materials[material]["rho"] = float(fields(data[0])[0])
                else:
                    d.materials[material]["alpha"] = float(params.get("ALPHA"))
            except (ValueError, IndexError, TypeError):
                d.err("%s: bad *%s data" % (loc, kw))
        elif kw == "SHELL SECTION":
            try:
                f = fields(data[0])
                t = float(f[0])
                nip = int(f[1]) if len(f) > 1 and f[1] else 5
            except (ValueError, IndexError):
                d.err("%s: bad *SHELL SECTION data" % loc)
                continue
            if t <= 0 or nip < 1:
                d.err("%s: thickness / integration points must be positive" % loc)
            d.sections.append(((params.get("ELSET") or "").upper(), (params.get("MATERIAL") or "").upper(), t, loc))
        elif kw == "AMPLITUDE":
            nm = (params.get("NAME") or "").upper()
            definition = " ".join((params.get("DEFINITION") or "TABULAR").upper().split())
            if definition not in ("TABULAR", "SMOOTH STEP"):
                d.err("%s: amplitude definition %s not supported" % (loc, definition))
            vals = []
            for line in data:
                try:
                    vals.extend(float(x) for x in fields(line) if x)
                except ValueError:
                    d.err("%s: bad amplitude data %r" % (loc, line))
            if len(vals) % 2 or not vals:
                d.err("%s: amplitude needs (time, value) pairs" % loc)
            ts = vals[0::2]
            if any(ts[k + 1] <= ts[k] for k in range(len(ts) - 1)):
                d.err("%s: amplitude times must increase strictly" % loc)
            d.amplitudes[nm] = (definition, list(zip(vals[0::2], vals[1::2])))
        elif kw == "INITIAL CONDITIONS":
            if (params.get("TYPE") or "").upper() != "VELOCITY":
                d.err("%s: only TYPE=VELOCITY initial conditions are supported" % loc)
            for line in data:
                f = fields(line)
                try:
                    d.init_vel.append((f[0].upper(), int(f[1]), float(f[2]), loc))
                except (ValueError, IndexError):
                    d.err("%s: bad initial condition line %r" % (loc, line))
        elif kw == "STEP":
            step = {"time": None, "dt": None, "bcs": [], "cloads": [], "dloads": [], "field": [], "history": [], "loc": loc}
            d.steps.append(step)
            output_mode = None
        elif kw == "END STEP":
            if step is None:
                d.err("%s: *END STEP without *STEP" % loc)
            step = None
        elif step is None:
            d.err("%s: *%s outside a step" % (loc, kw))
        elif kw == "DYNAMIC":
            if "EXPLICIT" not in params:
                d.err("%s: *DYNAMIC needs EXPLICIT" % loc)
            f = fields(data[0]) if data else []
            try:
                if "DIRECT USER CONTROL" in params:
                    step["dt"], step["time"] = float(f[0]), float(f[1])
                else:
                    step["time"] = float(f[1])
            except (ValueError, IndexError):
                d.err("%s: bad *DYNAMIC data line" % loc)
        elif kw == "BOUNDARY":
            for line in data:
                f = fields(line)
                if len(f) == 2 and f[1].upper() in BC_TYPES:
                    step["bcs"].append((f[0].upper(), BC_TYPES[f[1].upper()], 0.0, loc))
                    continue
                try:
                    a = int(f[1])
                    b = int(f[2]) if len(f) > 2 and f[2] else a
                    v = float(f[3]) if len(f) > 3 and f[3] else 0.0
                except (ValueError, IndexError):
                    d.err("%s: bad *BOUNDARY line %r" % (loc, line))
                    continue
                if not (1 <= a <= b <= 6):
                    d.err("%s: bad dof range in %r" % (loc, line))
                step["bcs"].append((f[0].upper(), tuple(range(a, b + 1)), v, loc))
        elif kw == "CLOAD":
            amp = (params.get("AMPLITUDE") or "").upper() or None
            for line in data:
                f = fields(line)
                try:
                    step["cloads"].append((f[0].upper(), int(f[1]), float(f[2]), amp, loc))
                except (ValueError, IndexError):
                    d.err("%s: bad *CLOAD line %r" % (loc, line))
        elif kw == "DLOAD":
            amp = (params.get("AMPLITUDE") or "").upper() or None
            for line in data:
                f = fields(line)
                try:
                    if f[1].upper() != "P":
                        d.err("%s: only P pressure loads are supported (%r)" % (loc, line))
                        continue
                    step["dloads"].append((f[0].upper(), float(f[2]), amp, loc))
                except (ValueError, IndexError):
                    d.err("%s: bad *DLOAD line %r" % (loc, line))
        elif kw == "OUTPUT":
            if "FIELD" in params:
                output_mode = "field"
                try:
                    step["field"].append(("interval", int(params.get("NUMBER INTERVAL") or 0)))
                except ValueError:
                    d.err("%s: bad NUMBER INTERVAL" % loc)
            elif "HISTORY" in params:
                output_mode = "history"
                try:
                    if float(params.get("TIME INTERVAL") or 0) <= 0:
                        d.err("%s: history TIME INTERVAL must be positive" % loc)
                except ValueError:
                    d.err("%s: bad TIME INTERVAL" % loc)
            else:
                d.err("%s: *OUTPUT needs FIELD or HISTORY" % loc)
        elif kw in ("NODE OUTPUT", "ELEMENT OUTPUT"):
            if output_mode is None:
                d.err("%s: *%s before *OUTPUT" % (loc, kw))
            allowed = {"U", "V", "RF", "A"} if kw == "NODE OUTPUT" else {"SF", "SM", "S", "SE", "LE"}
            for line in data:
                for v in fields(line):
                    if v and v.upper() not in allowed:
                        d.err("%s: output variable %s not expected under *%s" % (loc, v, kw))
            if kw == "NODE OUTPUT" and params.get("NSET"):
                step[output_mode].append(("nset", params["NSET"].upper(), loc))
    return d


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a):
    return math.sqrt(dot(a, a))


def check(path, expect_normal=None, quiet=False):
    d = parse(path)
    out = []
    if not d.nodes:
        d.err("no nodes")
    if not d.elems:
        d.err("no elements")
    if not d.heading:
        d.warn("no *HEADING text")
    # element connectivity
    used = set()
    bad = 0
    for eid, conn in d.elems.items():
        if len(set(conn)) != 4:
            d.err("element %d has repeated nodes %s" % (eid, conn))
            bad += 1
        for n in conn:
            if n not in d.nodes:
                d.err("element %d references missing node %d" % (eid, n))
                bad += 1
            used.add(n)
    orphans = [n for n in d.nodes if n not in used]
    if orphans:
        d.err("%d nodes not used by any element (e.g. %s)" % (len(orphans), orphans[:5]))
    # bbox and coincident nodes
    if d.nodes:
        xs = [p[0] for p in d.nodes.values()]
        ys = [p[1] for p in d.nodes.values()]
        zs = [p[2] for p in d.nodes.values()]
        bbmin, bbmax = (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))
        diag = norm(sub(bbmax, bbmin)) or 1.0
        tol = 1e-7 * diag
        inv = 1.0 / tol
        cells = {}
        dup = 0
        for nid, p in d.nodes.items():
            key = (int(math.floor(p[0] * inv)), int(math.floor(p[1] * inv)), int(math.floor(p[2] * inv)))
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for dz in (-1, 0, 1):
                        for q in cells.get((key[0] + dx, key[1] + dy, key[2] + dz), ()):
                            if norm(sub(d.nodes[q], p)) <= tol:
                                dup += 1
                                if dup <= 5:
                                    d.err("coincident nodes %d and %d at %s" % (q, nid, p))
            cells.setdefault(key, []).append(nid)
        if dup > 5:
            d.err("... %d coincident node pairs in all" % dup)
    # geometry / quality / orientation
    areas = []
    min_edge = float("inf")
    max_aspect = 0.0
    min_ang, max_ang = 180.0, 0.0
    max_warp = 0.0
    edges = {}
    total_area = 0.0
    normals = {}
    wrong_dir = 0
    if bad == 0:
        for eid, conn in d.elems.items():
            P = [d.nodes[n] for n in conn]
            d1, d2 = sub(P[2], P[0]), sub(P[3], P[1])
            nvec = cross(d1, d2)
            A = 0.5 * norm(nvec)
            # the two triangle pairs must have positive area along the element normal
            ok = A > 0
            if ok:
                nu_ = tuple(c / (2 * A) for c in nvec)
                for k in range(4):
                    a, b, c = P[k - 1], P[k], P[(k + 1) % 4]
                    if dot(cross(sub(c, b), sub(a, b)), nu_) <= 0:
                        ok = False
                normals[eid] = nu_
            if not ok:
                d.err("element %d is degenerate or not convex (area %g)" % (eid, A))
                continue
            areas.append(A)
            total_area += A
            lens = [norm(sub(P[(k + 1) % 4], P[k])) for k in range(4)]
            min_edge = min(min_edge, min(lens))
            max_aspect = max(max_aspect, max(lens) / min(lens))
            for k in range(4):
                u, v = sub(P[(k + 1) % 4], P[k]), sub(P[k - 1], P[k])
                cang = dot(u, v) / (norm(u) * norm(v))
                ang = math.degrees(math.acos(max(-1.0, min(1.0, cang))))
                min_ang, max_ang = min(min_ang, ang), max(max_ang, ang)
            # warp: distance of the nodes from the mean plane / sqrt(area)
            cen = tuple(sum(p[i] for p in P) / 4 for i in range(3))
            max_warp = max(max_warp, max(abs(dot(sub(p, cen), nu_)) for p in P) / math.sqrt(A))
            for k in range(4):
                a, b = conn[k], conn[(k + 1) % 4]
                key = (a, b) if a < b else (b, a)
                edges.setdefault(key, []).append((eid, a < b))
            if expect_normal:
                if not normal_ok(expect_normal, cen, nu_):
                    wrong_dir += 1
                    if wrong_dir <= 3:
                        d.err("element %d normal %s does not point along %s" % (eid, tuple(round(c, 3) for c in nu_), expect_normal))
        if wrong_dir > 3:
            d.err("... %d elements in all with the normal not along %s" % (wrong_dir, expect_normal))
        inconsistent = nonmanifold = boundary = 0
        for key, uses in edges.items():
            if len(uses) == 1:
                boundary += 1
            elif len(uses) == 2:
                if uses[0][1] == uses[1][1]:
                    inconsistent += 1
                    if inconsistent <= 3:
                        d.err("elements %d and %d traverse edge %s in the same direction (opposite normals)" % (uses[0][0], uses[1][0], key))
            else:
                nonmanifold += 1
                if nonmanifold <= 3:
                    d.err("edge %s shared by %d elements" % (key, len(uses)))
        if inconsistent > 3:
            d.err("... %d inconsistently oriented edges in all" % inconsistent)
        if areas:
            mean = total_area / len(areas)
            if min(areas) < 1e-6 * mean:
                d.err("tiny element area %g (mean %g)" % (min(areas), mean))
            if max_aspect > 20:
                d.warn("large aspect ratio %.1f" % max_aspect)
            if min_ang < 20 or max_ang > 160:
                d.warn("poor corner angles: min %.1f max %.1f deg" % (min_ang, max_ang))
            if max_warp > 0.05:
                d.warn("warped elements: max warp %.3f" % max_warp)
    # sets
    for nm, ids in d.nsets.items():
        if not ids:
            d.err("node set %s is empty" % nm)
        missing = [i for i in ids if i not in d.nodes]
        if missing:
            d.err("node set %s references %d missing nodes (e.g. %s)" % (nm, len(missing), missing[:5]))
    for nm, ids in d.elsets.items():
        if not ids:
            d.err("element set %s is empty" % nm)
        missing = [i for i in ids if i not in d.elems]
        if missing:
            d.err("element set %s references %d missing elements" % (nm, len(missing)))

    def nset_nodes(name, loc):
        if name in d.nsets:
            return d.nsets[name]
        try:
            nid = int(name)
        except ValueError:
            d.err("%s: unknown node set %s" % (loc, name))
            return []
        if nid not in d.nodes:
            d.err("%s: unknown node %d" % (loc, nid))
            return []
        return [nid]

    # materials and sections
    covered = set()
    for es, mat, t, loc in d.sections:
        if es not in d.elsets:
            d.err("%s: section element set %s unknown" % (loc, es))
            continue
        if mat not in d.materials:
            d.err("%s: section material %s unknown" % (loc, mat))
        for e in d.elsets[es]:
            if e in covered:
                d.err("%s: element %d has two shell sections" % (loc, e))
            covered.add(e)
    nosec = [e for e in d.elems if e not in covered]
    if nosec:
        d.err("%d elements without a *SHELL SECTION (e.g. %s)" % (len(nosec), nosec[:5]))
    for nm, mp in d.materials.items():
        for k in ("E", "nu", "rho"):
            if k not in mp:
                d.err("material %s lacks %s" % (nm, k))
        if "E" in mp and mp["E"] <= 0:
            d.err("material %s: E must be positive" % nm)
        if "nu" in mp and not (-1 < mp["nu"] < 0.5):
            d.err("material %s: nu out of range" % nm)
        if "rho" in mp and mp["rho"] <= 0:
            d.err("material %s: density must be positive" % nm)
    for ns, dof, v, loc in d.init_vel:
        nset_nodes(ns, loc)
        if not 1 <= dof <= 6:
            d.err("%s: initial velocity dof %d" % (loc, dof))
    # steps
    if not d.steps:
        d.err("no *STEP")
    res = []
    for s in d.steps:
        if not s["time"] or s["time"] <= 0:
            d.err("%s: step without a positive time period" % s["loc"])
        if s["dt"] is not None and (s["dt"] <= 0 or s["dt"] > s["time"]):
            d.err("%s: bad fixed increment" % s["loc"])
        for ns, dofs, v, loc in s["bcs"]:
            nset_nodes(ns, loc)
        F = [0.0] * 6
        for ns, dof, mag, amp, loc in s["cloads"]:
            nodes = nset_nodes(ns, loc)
            if not 1 <= dof <= 6:
                d.err("%s: bad CLOAD dof %d" % (loc, dof))
                continue
            if amp and amp not in d.amplitudes:
                d.err("%s: unknown amplitude %s" % (loc, amp))
            F[dof - 1] += mag * len(nodes)
        Fp = [0.0, 0.0, 0.0]
        for es, p, amp, loc in s["dloads"]:
            if es not in d.elsets:
                try:
                    ids = [int(es)]
                except ValueError:
                    d.err("%s: unknown element set %s" % (loc, es))
                    continue
            else:
                ids = d.elsets[es]
            if amp and amp not in d.amplitudes:
                d.err("%s: unknown amplitude %s" % (loc, amp))
            for e in ids:
                if e in normals:
                    conn = d.elems[e]
                    P = [d.nodes[n] for n in conn]
                    A = 0.5 * norm(cross(sub(P[2], P[0]), sub(P[3], P[1])))
                    for i in range(3):
                        Fp[i] -= p * normals[e][i] * A
        for kind in ("field", "history"):
            for item in s[kind]:
                if item[0] == "nset":
                    nset_nodes(item[1], item[2])
        res.append((s, F, Fp))
    # report
    if not quiet:
        out.append("%s" % path)
        if d.heading:
            out.append("  heading: %s" % d.heading[0][:110])
        out.append("  %d nodes, %d elements, %d node sets, %d element sets" % (len(d.nodes), len(d.elems), len(d.nsets), len(d.elsets)))
        if d.nodes:
            out.append("  bbox %s .. %s" % (tuple(round(c, 6) for c in bbmin), tuple(round(c, 6) for c in bbmax)))
        if areas:
            out.append("  area total %.6g, element area %.4g .. %.4g, min edge %.4g, max aspect %.2f, angles %.1f .. %.1f deg, max warp %.2e"
                       % (total_area, min(areas), max(areas), min_edge, max_aspect, min_ang, max_ang, max_warp))
            out.append("  edges: %d boundary, orientation consistent: %s" % (boundary, "yes" if not inconsistent else "NO"))
        small = [(nm, len(ids)) for nm, ids in d.nsets.items() if len(ids) <= 3]
        big = [(nm, len(ids)) for nm, ids in d.nsets.items() if len(ids) > 3]
        if len(d.nsets) <= 14:
            out.append("  node sets: %s" % ", ".join("%s(%d)" % x for x in small + big))
        else:
            out.append("  node sets: %d (%s ...)" % (len(d.nsets), ", ".join("%s(%d)" % x for x in (small + big)[:10])))
        for nm, mp in d.materials.items():
            if "E" in mp and "rho" in mp and "nu" in mp and areas:
                c = math.sqrt(mp["E"] / (mp["rho"] * (1 - mp["nu"] ** 2)))
                out.append("  material %s: E %g nu %g rho %g alpha %g; est. stable dt %.4g" % (nm, mp["E"], mp["nu"], mp["rho"], mp.get("alpha", 0.0), min_edge / c))
        for s, F, Fp in res:
            out.append("  step: time %g%s; BC lines %d; CLOAD resultant (F1..M3) %s; pressure resultant %s"
                       % (s["time"] or 0, (", fixed dt %g" % s["dt"]) if s["dt"] else "", len(s["bcs"]),
                          tuple(float("%.6g" % v) for v in F), tuple(float("%.6g" % v) for v in Fp)))
    for w in d.warnings:
        out.append("  warning: %s" % w)
    for e in d.errors:
        out.append("  ERROR: %s" % e)
    if not d.errors:
        out.append("  OK")
    return d.errors, "\n".join(out)


def normal_ok(spec, cen, n):
    fixed = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0), "+z": (0, 0, 1), "-z": (0, 0, -1)}
    if spec in fixed:
        return dot(n, fixed[spec]) > 0
    if spec == "out-o":
        return dot(n, cen) > 0
    if spec in ("out-x", "out-y", "out-z"):
        ax = "xyz".index(spec[-1])
        r = list(cen)
        r[ax] = 0.0
        return dot(n, r) > 0
    raise SystemExit("unknown --expect-normal %s" % spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("decks", nargs="+")
    ap.add_argument("--expect-normal", help="+x/-x/+y/-y/+z/-z, out-x/out-y/out-z (cylinder axis), out-o (sphere)")
    ap.add_argument("--quiet", action="store_true", help="print only errors and warnings")
    a = ap.parse_args()
    nerr = 0
    for p in a.decks:
        errs, txt = check(p, a.expect_normal, a.quiet)
        if txt:
            print(txt)
        nerr += len(errs)
    sys.exit(1 if nerr else 0)


if __name__ == "__main__":
    main()
