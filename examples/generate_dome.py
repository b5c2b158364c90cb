#!/usr/bin/env python3
"""Generate the clamped spherical dome (cap) under step pressure as a MITC4 (S4R) deck, or
with --triangles as FPM triangles (S3, FORMULATION=FPM) on the same nodes.

Usage:  python3 examples/generate_dome.py [options] -o FILE.inp

Only the Python standard library is used. The classical elastic-plastic dynamic benchmark
of seed 003 sec. 4.2.1 (Bathe, Ramm & Wilson 1975; Argyris, Papadrakakis & Mouroutis 2003;
Onate & Flores 2005), in inch, lbf, s: sphere radius R = 22.27, thickness h = 0.41, cap
half-angle 26.67 degrees, clamped edge, E = 10.5e6 psi, nu = 0.3, rho = 2.45e-4 lbf s^2/in^4;
bilinear isotropic hardening sigma_y = 24,000 psi with tangent modulus E_T = 0.21e6 psi, i.e.
*PLASTIC 24000 at 0 and 24000 + H at 1 with H = E E_T / (E - E_T); a uniform pressure
--pressure (600 psi) on the outer surface applied at t = 0 and held for --time (1 ms): the deck's
*DLOAD P is its negative (Abaqus's element-based shell P acts along the outward normal).

Mesh: the quarter cap (symmetry planes x = 0 and y = 0) as an O-grid of a quarter disk: a
core square of --n x --n elements and two blocks of --n x --m elements out to the rim, mapped
to the sphere along the meridians (polar angle proportional to the disk radius, so element
sizes stay even). Element count 3 n^2 ... n (n + 2 m). Sets APEX (the pole), RIM (the clamped
edge), XSYM, YSYM. --elastic drops *PLASTIC; --points sets the section points (5);
--full writes the whole cap (four quarters, no symmetry planes); --triangles splits each quad
(a, b, c, d) into the S3 (a, b, c), (a, c, d) (quad k becomes triangles 2k - 1 and 2k, with the
same outward normal) with *SHELL SECTION, FORMULATION=FPM.

History: U3 of APEX every --history-interval (time/500). Field output --field-number frames.
"""
import argparse
import os
import math
import sys


def quarter_disk(n, m):
    """Nodes (u, v) in the unit quarter disk and quads (counter-clockwise) of an O-grid."""
    c = 0.5  # core square side, as a fraction of the disk radius
    pts, index = [], {}

    def node(key, xy):
        if key not in index:
            index[key] = len(pts)
            pts.append(xy)
        return index[key]

    quads = []
    # Core: (i, j) in [0, n]^2 -> (c i / n, c j / n).
    for j in range(n):
        for i in range(n):
            ids = [node(("core", a, b), (c * a / n, c * b / n)) for a, b in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))]
            quads.append(ids)

    # Boundary of the core (the edges x = c and y = c), parametrised by s in [0, 2n]:
    # s <= n: (c, c s / n); s >= n: (c (2n - s) / n, c). The rim: angle pi/2 * s / (2n).
    def inner(s):
        return (c, c * s / n) if s <= n else (c * (2 * n - s) / n, c)

    def outer(s):
        a = 0.5 * math.pi * s / (2 * n)
        return (math.cos(a), math.sin(a))

    def ring_key(s, k):
        if k == 0:
            return ("core", n, s) if s <= n else ("core", 2 * n - s, n)
        return ("ring", s, k)

    for k in range(m):
        for s in range(2 * n):
            ids = []
            for ss, kk in ((s, k), (s, k + 1), (s + 1, k + 1), (s + 1, k)):
                p0, p1, t = inner(ss), outer(ss), kk / m
                ids.append(node(ring_key(ss, kk), (p0[0] + t * (p1[0] - p0[0]), p0[1] + t * (p1[1] - p0[1]))))
            # (s, k) -> (s, k+1) runs outward, then (s+1) turns counter-clockwise: the order is
            # counter-clockwise seen from +z, as in the core (normals point out of the dome).
            quads.append(ids)
    return pts, quads


def build(a):
    pts, quads = quarter_disk(a.n, a.m)
    quarters = [(1, 1), (-1, 1), (-1, -1), (1, -1)] if a.full else [(1, 1)]
    theta0 = math.radians(a.angle)
    nodes, key_to_id, elems = [], {}, []
    tol = 1e-12
    for sx, sy in quarters:
        local = []
        for (u, v) in pts:
            x, y = sx * u, sy * v
            key = (round(x, 12), round(y, 12))
            if key not in key_to_id:
                r = math.hypot(x, y)
                phi = theta0 * r
                psi = math.atan2(y, x)
                p = (a.radius * math.sin(phi) * math.cos(psi), a.radius * math.sin(phi) * math.sin(psi),
                     a.radius * (math.cos(phi) - math.cos(theta0)))
                key_to_id[key] = len(nodes) + 1
                nodes.append((x, y, r, p))
            local.append(key_to_id[key])
        for q in quads:
            ids = [local[i] for i in q]
            if sx * sy < 0:  # a mirrored quarter reverses the orientation
                ids = ids[::-1]
            elems.append(ids)
    apex = [i + 1 for i, n in enumerate(nodes) if n[2] < tol]
    rim = [i + 1 for i, n in enumerate(nodes) if abs(n[2] - 1) < 1e-9]
    xsym = [i + 1 for i, n in enumerate(nodes) if abs(n[0]) < tol]
    ysym = [i + 1 for i, n in enumerate(nodes) if abs(n[1]) < tol]
    H = a.E * a.tangent / (a.E - a.tangent)
    kind = "FPM triangles" if a.triangles else "MITC4"
    d = ["*HEADING", f"Clamped spherical dome under step pressure, {kind} ({'full' if a.full else 'quarter'} cap, "
         f"n={a.n} m={a.m}; generate_dome.py)", "*NODE, NSET=ALL"]
    for i, n in enumerate(nodes):
        p = n[3]
        d.append(f"{i + 1}, {p[0]:.17g}, {p[1]:.17g}, {p[2]:.17g}")
    if a.triangles:
        d.append("*ELEMENT, TYPE=S3, ELSET=DOME")
        for k, e in enumerate(elems):
            d.append(f"{2 * k + 1}, {e[0]}, {e[1]}, {e[2]}")
            d.append(f"{2 * k + 2}, {e[0]}, {e[2]}, {e[3]}")
    else:
        d.append("*ELEMENT, TYPE=S4R, ELSET=DOME")
        for k, e in enumerate(elems):
            d.append(f"{k + 1}, {e[0]}, {e[1]}, {e[2]}, {e[3]}")

    def nset(name, ids):
        out = [f"*NSET, NSET={name}"]
        for i in range(0, len(ids), 16):
            out.append(", ".join(str(x) for x in ids[i:i + 16]))
        return out

    d += nset("APEX", apex) + nset("RIM", rim)
    if not a.full:
        d += nset("XSYM", xsym) + nset("YSYM", ysym)
    d += ["*MATERIAL, NAME=AL", "*ELASTIC", f"{a.E:.17g}, {a.nu:.17g}", "*DENSITY", f"{a.rho:.17g}"]
    if not a.elastic:
        d += ["*PLASTIC", f"{a.yield_stress:.17g}, 0.", f"{a.yield_stress + H:.17g}, 1."]
    fpm = ", FORMULATION=FPM" if a.triangles else ""
    d += [f"*SHELL SECTION, ELSET=DOME, MATERIAL=AL{fpm}", f"{a.thickness:.17g}, {a.points}"]
    d += ["*BOUNDARY", "RIM, ENCASTRE"]
    if not a.full:
        d += ["XSYM, XSYMM", "YSYM, YSYMM"]
    hi = a.history_interval or a.time / 500
    d += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time:.17g}", "*DLOAD", f"DOME, P, {-a.pressure:.17g}",
          f"*OUTPUT, HISTORY, TIME INTERVAL={hi:.17g}", "*NODE OUTPUT, NSET=APEX", "U",
          f"*OUTPUT, FIELD, NUMBER INTERVAL={a.field_number}", "*NODE OUTPUT", "U", "*ELEMENT OUTPUT",
          "SF, SM, PEEQ", "*END STEP"]
    return d, (2 if a.triangles else 1) * len(elems), len(nodes)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--n", type=int, default=8, help="core elements per side (8)")
    p.add_argument("--m", type=int, default=8, help="elements from the core to the rim (8)")
    p.add_argument("--full", action="store_true", help="the whole cap instead of a quarter")
    p.add_argument("--triangles", action="store_true", help="FPM triangles (S3, FORMULATION=FPM), two per quad")
    p.add_argument("--radius", type=float, default=22.27)
    p.add_argument("--thickness", type=float, default=0.41)
    p.add_argument("--angle", type=float, default=26.67, help="cap half-angle, degrees")
    p.add_argument("--E", type=float, default=10.5e6)
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--rho", type=float, default=2.45e-4)
    p.add_argument("--yield", dest="yield_stress", type=float, default=24000.0)
    p.add_argument("--tangent", type=float, default=0.21e6, help="bilinear tangent modulus E_T")
    p.add_argument("--elastic", action="store_true", help="no *PLASTIC")
    p.add_argument("--points", type=int, default=5)
    p.add_argument("--pressure", type=float, default=600.0)
    p.add_argument("--time", type=float, default=1e-3)
    p.add_argument("--history-interval", type=float, default=0.0)
    p.add_argument("--field-number", type=int, default=4)
    a = p.parse_args()
    lines, ne, nn = build(a)
    if os.path.dirname(a.output):  # the README's commands write into out/
        os.makedirs(os.path.dirname(a.output), exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.output}: {ne} elements, {nn} nodes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
