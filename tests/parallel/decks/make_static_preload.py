#!/usr/bin/env python3
"""Writes static_preload.inp, a distributed-run test deck that begins with static steps: a
C3D8R cantilever (12 x 2 x 2, 3 x 0.5 x 0.5, clamped at x = 0) bent by a tip load in an NLGEOM
static step with a second, linear-in-time static step that adds a sideways load, then released
in an explicit step (the loads removed with OP=NEW): it vibrates about the unloaded shape.
Under mpirun, rank 0 runs the static steps on the whole model and the ranks share the
explicit step from the converged state. Field output every 200 increments, the tip's history.
Usage: python3 make_static_preload.py  (writes next to itself)"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NX, NY, NZ, LX, LY, LZ = 12, 2, 2, 3.0, 0.5, 0.5


def deck():
    nid = lambda i, j, k: 1 + i + (NX + 1) * (j + (NY + 1) * k)
    lines = ["*HEADING", "static preload of a C3D8R cantilever, then released (make_static_preload.py)", "*NODE"]
    for k in range(NZ + 1):
        for j in range(NY + 1):
            for i in range(NX + 1):
                lines.append(f"{nid(i, j, k)}, {LX * i / NX:.6g}, {LY * j / NY:.6g}, {LZ * k / NZ:.6g}")
    lines.append("*ELEMENT, TYPE=C3D8R, ELSET=BEAM")
    e = 1
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                lines.append(f"{e}, " + ", ".join(map(str, n)))
                e += 1
    lines += ["*NSET, NSET=ROOT", ", ".join(str(nid(0, j, k)) for k in range(NZ + 1) for j in range(NY + 1)),
              "*NSET, NSET=TIP", ", ".join(str(nid(NX, j, k)) for k in range(NZ + 1) for j in range(NY + 1)),
              "*MATERIAL, NAME=M", "*ELASTIC", "1000., 0.3", "*DENSITY", "1.",
              "*SOLID SECTION, ELSET=BEAM, MATERIAL=M", "*BOUNDARY", "ROOT, 1, 3",
              "*STEP, NLGEOM=YES", "*STATIC", "0.25, 1.", "*CLOAD", "TIP, 3, 0.02",
              "*OUTPUT, FIELD", "*NODE OUTPUT", "U, RF", "*ELEMENT OUTPUT", "S",
              "*OUTPUT, HISTORY", "*NODE OUTPUT, NSET=TIP", "U", "*END STEP",
              "*STEP, NLGEOM=YES", "*STATIC", "0.5, 1.", "*CLOAD", "TIP, 2, 0.01", "*END STEP",
              "*STEP", "*DYNAMIC, EXPLICIT", ", 0.5", "*CLOAD, OP=NEW",
              "*OUTPUT, FIELD, NUMBER INTERVAL=200", "*NODE OUTPUT", "U, V", "*ELEMENT OUTPUT", "S",
              "*OUTPUT, HISTORY, TIME INTERVAL=0.01", "*NODE OUTPUT, NSET=TIP", "U, V", "*END STEP"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(os.path.join(HERE, "static_preload.inp"), "w") as f:
        f.write(deck())
