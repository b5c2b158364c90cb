#!/usr/bin/env python3
"""Writes the copper Taylor bar impact (a quarter of the bar, C3D8 or C3D8R) as an Abaqus-style deck.

The classic finite-strain plasticity benchmark: a copper rod, length 32.4 mm, radius 3.2 mm,
hits a rigid frictionless wall at 227 m/s; E = 117 GPa, nu = 0.35, density 8930 kg/m^3,
J2 plasticity with initial yield 0.4 GPa and linear hardening 0.1 GPa; 80 microseconds.
Units: mm, N, tonne, s (stress in MPa).

The cross-section is an O-grid (a square of n x n cells in the middle, two ring blocks of
n x m cells out to the circle), extruded along z in nz layers; symmetry planes x = 0 and
y = 0; the wall is z = 0 (U3 = 0 on that face, free to slide; --wall contact: a rigid
analytical plane z = 0 in frictionless contact with the face instead). Every other node
starts at V3 = -227000 mm/s (with --wall contact, the face's nodes too).

Usage: python3 examples/generate_taylor_bar.py -o taylor.inp [--element C3D8] [--n 4] [--m 4]
       [--nz 80] [--dt-fraction 0.075] [--time 8e-5] [--formulation FPM]
C3D8 (F-bar) is the default: C3D8R's hourglass springs keep the elastic shear modulus and
resist the large plastic distortion at the wall (docs/validation.md).
The increment is fixed (DIRECT USER CONTROL) at --dt-fraction of the undeformed mesh's
estimate: the elements at the wall flatten to a fraction of their height, and halfstep keeps
the increment of the reference mesh.
"""
import argparse
import os
import math

E, NU, RHO, SY0, H = 117000.0, 0.35, 8.93e-9, 400.0, 100.0
R0, L0, V0 = 3.2, 32.4, 227000.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--element", choices=["C3D8", "C3D8R"], default="C3D8")
    ap.add_argument("--formulation", choices=["FPM"],
                    help="*SOLID SECTION, FORMULATION= (FPM: the finite particle method hexahedron, C3D8 only)")
    ap.add_argument("--n", type=int, default=4, help="cells along each side of the central square")
    ap.add_argument("--m", type=int, default=4, help="radial cells of the ring")
    ap.add_argument("--nz", type=int, default=80, help="layers along the bar")
    ap.add_argument("--dt-fraction", type=float, default=0.075, help="fixed increment / undeformed estimate")
    ap.add_argument("--time", type=float, default=8e-5)
    ap.add_argument("--frames", type=int, default=8, help="field frames")
    ap.add_argument("--wall", choices=["boundary", "contact"], default="boundary",
                    help="boundary: U3 = 0 on the impact face; contact: the face against a rigid analytical "
                         "plane z = 0 (frictionless contact pair, issue 17)")
    a = ap.parse_args()
    n, m, nz = a.n, a.m, a.nz
    c = 0.55 * R0  # half-side of the central square

    # 2-D nodes of the quarter disc, merged on a grid of rounded coordinates.
    pts, index = [], {}

    def node(x, y):
        k = (round(x, 9), round(y, 9))
        if k not in index:
            index[k] = len(pts)
            pts.append((x, y))
        return index[k]

    quads = []
    grid = [[node(c * i / n, c * j / n) for j in range(n + 1)] for i in range(n + 1)]
    for i in range(n):
        for j in range(n):
            quads.append((grid[i][j], grid[i + 1][j], grid[i + 1][j + 1], grid[i][j + 1]))

    def ring(edge, arc):
        # edge[s], arc[s] for s = 0..n: rows of nodes from the square's edge out to the circle.
        rows = [[node((1 - k / m) * edge[s][0] + k / m * arc[s][0], (1 - k / m) * edge[s][1] + k / m * arc[s][1])
                 for s in range(n + 1)] for k in range(m + 1)]
        return rows

    right = ring([(c, c * j / n) for j in range(n + 1)],
                 [(R0 * math.cos(math.pi / 4 * j / n), R0 * math.sin(math.pi / 4 * j / n)) for j in range(n + 1)])
    top = ring([(c * i / n, c) for i in range(n + 1)],
               [(R0 * math.sin(math.pi / 4 * i / n), R0 * math.cos(math.pi / 4 * i / n)) for i in range(n + 1)])
    for k in range(m):
        for s in range(n):
            # Counter-clockwise seen from +z.
            quads.append((right[k][s], right[k + 1][s], right[k + 1][s + 1], right[k][s + 1]))
            quads.append((top[k][s], top[k][s + 1], top[k + 1][s + 1], top[k + 1][s]))

    def area(q):
        s = 0.0
        for i in range(4):
            x1, y1 = pts[q[i]]
            x2, y2 = pts[q[(i + 1) % 4]]
            s += x1 * y2 - x2 * y1
        return 0.5 * s

    quads = [q if area(q) > 0 else (q[0], q[3], q[2], q[1]) for q in quads]
    np2 = len(pts)
    lines = ["*HEADING", "Taylor bar impact, copper, quarter model (examples/generate_taylor_bar.py): "
             "%d x %d O-grid section, %d layers, %d %s" % (n, m, nz, len(quads) * nz, a.element),
             "** Units mm, N, tonne, s. References: final mushroom radius 7.22 mm (converged 3-D; 7.11-7.12 on",
             "** older coarse meshes), final length about 21.42 mm (docs/validation.md).", "*NODE"]
    for k in range(nz + 1):
        z = L0 * k / nz
        for p, (x, y) in enumerate(pts):
            lines.append("%d, %.10g, %.10g, %.10g" % (1 + p + k * np2, x, y, z))
    lines.append("*ELEMENT, TYPE=%s, ELSET=BAR" % a.element)
    e = 0
    for k in range(nz):
        for q in quads:
            e += 1
            b = [1 + v + k * np2 for v in q]
            t = [1 + v + (k + 1) * np2 for v in q]
            lines.append("%d, %s" % (e, ", ".join(map(str, b + t))))

    def nset(name, ids):
        lines.append("*NSET, NSET=%s" % name)
        for i in range(0, len(ids), 16):
            lines.append(", ".join(map(str, ids[i:i + 16])))

    tol = 1e-9
    nset("XSYM", [1 + p + k * np2 for k in range(nz + 1) for p, (x, y) in enumerate(pts) if abs(x) < tol])
    nset("YSYM", [1 + p + k * np2 for k in range(nz + 1) for p, (x, y) in enumerate(pts) if abs(y) < tol])
    nset("WALL", [1 + p for p in range(np2)])
    nset("MOVING", [1 + p + k * np2 for k in range(1, nz + 1) for p in range(np2)])
    # The rim of the impact face (largest radius, x axis) and the far end on the axis.
    rim = max(range(np2), key=lambda p: pts[p][0] if abs(pts[p][1]) < tol else -1)
    nset("RIM", [1 + rim])
    nset("TOP", [1 + index[(0.0, 0.0)] + nz * np2])
    # Stable increment of the undeformed mesh: smallest edge over the dilatational wave speed.
    lam = E * NU / ((1 + NU) * (1 - 2 * NU))
    mu = E / (2 * (1 + NU))
    cw = math.sqrt((lam + 2 * mu) / RHO)
    hmin = min(min(math.dist(pts[q[i]], pts[q[(i + 1) % 4]]) for i in range(4)) for q in quads)
    hmin = min(hmin, L0 / nz)
    dt = a.dt_fraction * hmin / cw
    if a.wall == "contact":
        ref = np2 * (nz + 1) + 1
        lines.insert(lines.index("*ELEMENT, TYPE=%s, ELSET=BAR" % a.element), "%d, 0., 0., 0." % ref)
        lines += ["*ELSET, ELSET=FIRSTLAYER", *[", ".join(map(str, range(i, min(i + 16, len(quads) + 1))))
                                               for i in range(1, len(quads) + 1, 16)],
                  "*NSET, NSET=WALLREF", "%d" % ref,
                  "*SURFACE, NAME=IMPACTFACE", "FIRSTLAYER, S1",
                  "*SURFACE, TYPE=CYLINDER, NAME=RIGIDWALL", "0., 0., 0., 1., 0., 0.", "0., -1., 0.",
                  "START, -20., 0.", "LINE, 20., 0.",
                  "*RIGID BODY, ANALYTICAL SURFACE=RIGIDWALL, REF NODE=WALLREF",
                  "*SURFACE INTERACTION, NAME=SMOOTH", "*CONTACT PAIR, INTERACTION=SMOOTH", "IMPACTFACE, RIGIDWALL"]
    lines += ["*MATERIAL, NAME=COPPER", "*ELASTIC", "%g, %g" % (E, NU), "*PLASTIC", "%g, 0" % SY0,
              "%g, 10" % (SY0 + 10 * H), "*DENSITY", "%g" % RHO,
              "*SOLID SECTION, ELSET=BAR, MATERIAL=COPPER" + (", FORMULATION=" + a.formulation if a.formulation else ""),
              "*INITIAL CONDITIONS, TYPE=VELOCITY", "MOVING, 3, %g" % -V0,
              *(["WALL, 3, %g" % -V0, "*BOUNDARY", "XSYM, 1, 1", "YSYM, 2, 2", "WALLREF, 1, 3"]
                if a.wall == "contact" else ["*BOUNDARY", "XSYM, 1, 1", "YSYM, 2, 2", "WALL, 3, 3"]),
              "*STEP, NAME=IMPACT", "*DYNAMIC, EXPLICIT, DIRECT USER CONTROL", "%.6g, %g" % (dt, a.time),
              "*OUTPUT, FIELD, TIME INTERVAL=%g" % (a.time / a.frames), "*NODE OUTPUT", "U, V",
              "*ELEMENT OUTPUT", "S, PEEQ",
              "*OUTPUT, HISTORY, TIME INTERVAL=%g" % (a.time / 80), "*NODE OUTPUT, NSET=RIM", "U",
              "*NODE OUTPUT, NSET=TOP", "U, V", "*END STEP"]
    if os.path.dirname(a.output):  # the README's commands write into out/
        os.makedirs(os.path.dirname(a.output), exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d nodes, %d " % (a.output, np2 * (nz + 1), e) + a.element + ", increment %.4g s (%g of the undeformed estimate %.4g), %d increments" % (
        dt, a.dt_fraction, hmin / cw, round(a.time / dt)))


if __name__ == "__main__":
    main()
