#!/usr/bin/env python3
"""Writes the compressed annulus of seed 003 (section 4.2.3) as an Abaqus-style deck of C3D8.

The seed gives the loading only: pressure on two opposite sides of the ring, ramped linearly
from 0 to 5.25 MPa over 0.005 s and then held, 0.02 s of response, no damping, and the
horizontal displacement history of the centre particle of a loaded zone compared with Abaqus.
Its geometry and material are only in a figure (Fig. 17), so this generator uses a documented
choice instead (docs/validation.md):
  a steel ring, inner radius 0.8 m, outer radius 1.0 m, depth 0.2 m along z; E = 210 GPa,
  nu = 0.3, density 7850 kg/m^3; the pressure acts on the outer surface over the two arcs
  |theta| <= 15 degrees and |theta - 180| <= 15 degrees (the loaded zones, centred on the x
  axis); no supports (the loads are self-equilibrated).
Units: m, N, kg, s. The ring's first ovalling (n = 2) mode is near 160 Hz, so the 5 ms ramp
and the 20 ms run see a few oscillations about the static deflection (about 2 mm).

Node set CENTRE is the centre of the loaded zone at theta = 0 (outer surface, mid-depth);
its U1 is the seed's "horizontal displacement of the centre particle".

Usage: python3 examples/generate_annulus.py -o annulus.inp [--formulation FPM] [--nt 96]
       [--nr 4] [--nz 2] [--time 0.02]
"""
import argparse
import math

RI, RO, DEPTH = 0.8, 1.0, 0.2
E, NU, RHO = 210e9, 0.3, 7850.0
P, RAMP, HALF_ARC = 5.25e6, 0.005, 15.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--formulation", choices=["FPM"], help="*SOLID SECTION, FORMULATION= (default: halfstep's C3D8)")
    ap.add_argument("--nt", type=int, default=96, help="cells around the ring (a multiple of 24: 15-degree arcs)")
    ap.add_argument("--nr", type=int, default=4, help="cells through the wall")
    ap.add_argument("--nz", type=int, default=2, help="cells along the depth (even: a mid-depth node)")
    ap.add_argument("--time", type=float, default=0.02)
    a = ap.parse_args()
    nt, nr, nz = a.nt, a.nr, a.nz
    if nt % 24 or nz % 2:
        ap.error("--nt must be a multiple of 24 and --nz even")

    def nid(i, j, k):  # i around (periodic), j radial, k along z
        return 1 + (i % nt) + nt * (j + (nr + 1) * k)

    lines = ["*HEADING",
             "Compressed annulus (seed 003; examples/generate_annulus.py): %d x %d x %d C3D8%s" % (
                 nt, nr, nz, ", FORMULATION=" + a.formulation if a.formulation else ""),
             "** Units m, N, kg, s. Steel ring Ri 0.8, Ro 1.0, depth 0.2; pressure 5.25 MPa on the outer arcs",
             "** |theta| <= 15 and |theta - 180| <= 15 degrees, ramped over 0.005 s, then held.", "*NODE"]
    for k in range(nz + 1):
        for j in range(nr + 1):
            r = RI + (RO - RI) * j / nr
            for i in range(nt):
                t = 2 * math.pi * i / nt
                lines.append("%d, %.12g, %.12g, %.12g" % (nid(i, j, k), r * math.cos(t), r * math.sin(t), DEPTH * k / nz))
    # Local axes (r, theta, z), right-handed: face S4 (nodes 2, 6, 7, 3) is the outer one.
    lines.append("*ELEMENT, TYPE=C3D8, ELSET=RING")
    loaded = []
    e = 0
    for k in range(nz):
        for j in range(nr):
            for i in range(nt):
                e += 1
                c = [nid(i, j, k), nid(i, j + 1, k), nid(i + 1, j + 1, k), nid(i + 1, j, k)]
                c += [nid(i, j, k + 1), nid(i, j + 1, k + 1), nid(i + 1, j + 1, k + 1), nid(i + 1, j, k + 1)]
                lines.append("%d, %s" % (e, ", ".join(map(str, c))))
                if j == nr - 1:
                    mid = (i + 0.5) * 360.0 / nt  # cell centre angle, degrees
                    if min(abs(mid), abs(mid - 180.0), abs(mid - 360.0)) < HALF_ARC:
                        loaded.append(e)

    def set_lines(kind, name, ids):
        lines.append("%s, %s=%s" % (kind, kind[1:], name))
        for s in range(0, len(ids), 16):
            lines.append(", ".join(map(str, ids[s:s + 16])))

    set_lines("*ELSET", "LOADED", loaded)
    set_lines("*NSET", "CENTRE", [nid(0, nr, nz // 2)])
    set_lines("*NSET", "OPPOSITE", [nid(nt // 2, nr, nz // 2)])
    set_lines("*NSET", "TOPCENTRE", [nid(nt // 4, nr, nz // 2)])
    lines += ["*MATERIAL, NAME=STEEL", "*ELASTIC", "%g, %g" % (E, NU), "*DENSITY", "%g" % RHO,
              "*SOLID SECTION, ELSET=RING, MATERIAL=STEEL" + (", FORMULATION=" + a.formulation if a.formulation else ""),
              "*AMPLITUDE, NAME=RAMP", "0, 0, %g, 1, %g, 1" % (RAMP, max(a.time, RAMP)),
              "*STEP, NAME=PRESS", "*DYNAMIC, EXPLICIT", ", %g" % a.time,
              "*DLOAD, AMPLITUDE=RAMP", "LOADED, P4, %g" % P,
              "*OUTPUT, HISTORY, TIME INTERVAL=%g" % (a.time / 400),
              "*NODE OUTPUT, NSET=CENTRE", "U", "*NODE OUTPUT, NSET=OPPOSITE", "U", "*NODE OUTPUT, NSET=TOPCENTRE", "U",
              "*END STEP"]
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d nodes, %d C3D8%s, %d loaded faces" % (
        a.output, nt * (nr + 1) * (nz + 1), e, " (FPM)" if a.formulation else "", len(loaded)))


if __name__ == "__main__":
    main()
