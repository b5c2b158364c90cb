#!/usr/bin/env python3
"""Writes a bolted joint: a bolt preloaded in a static step, then loaded in an explicit step.

A square bolt shank (2a x 2a, length L along z; C3D8R) passes through a square sleeve (the
clamped parts: outer 4a x 4a less the shank's 2a x 2a, length L; C3D8R, its own nodes, not
joined to the shank) that stands on the ground (its base held in z). A head (z in [L, L + h])
and a nut (z in [-h, 0], held), each a *RIGID BODY of C3D8R over the whole 4a x 4a footprint,
carry the shank's ends; the head presses on the sleeve's top face through a contact pair
whose normal behaviour is a linear pressure-overclosure law p = k h (a gasket, or the
surfaces' roughness), the same law in both steps. Poisson's ratio is 0, so every part is in
uniaxial stress and the joint is three springs: the bolt k_b = E A_b / L, the sleeve
k_p = E A_p / L and the contact k_c = k A_p (A_b = 4 a^2, A_p = 12 a^2) in series with the
sleeve; with k = E / (2 L), k_c = k_p / 2 and the clamped parts' k_pc = k_p k_c / (k_p + k_c)
= k_p / 3 = k_b.

Step PRELOAD (static, NLGEOM) cools the shank by dtheta (*EXPANSION on the bolt's material
only): the free shortening alpha dtheta L is shared by the springs, so the bolt carries
    F0 = alpha dtheta L k_b k_pc / (k_b + k_pc) = E alpha dtheta A_b / 2
in tension and the clamped parts as much in compression. Step LOAD (explicit) keeps the
temperatures and pulls the head away from the ground by P (a smooth step over 40 periods of
the joint, then held 10 more): while the joint stays closed (P < F0 / (1 - phi)) the bolt
takes only the share
    F_b = F0 + phi P,   phi = k_b / (k_b + k_pc) = 1/2,
and the clamped parts are unloaded by (1 - phi) P (the joint diagram). The nut's reference
node is held; the head's may move along z only.

With --pretension F the preload is a *PRE-TENSION SECTION instead (no cooling): the shank is
cut at mid-length, PRELOAD pulls the section's node (9003) with F, so F0 = F exactly, and LOAD
keeps the tightened length (*BOUNDARY, FIXED on it; the force is then its reaction), after
which the joint diagram is the same.

Usage: python3 examples/generate_bolted_joint.py -o joint.inp [--a 5] [--length 40] [--head 10]
       [--nz 8] [--E 210000] [--alpha 1.2e-5] [--dtheta 100] [--pretension F] [--load 10000]
       [--node-output "U, RF"]
Units: mm, N, MPa, tonne/mm^3, C.
"""
import argparse
import os
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--a", type=float, default=5.0, help="half the shank's side (the cells' side across)")
    ap.add_argument("--length", type=float, default=40.0, help="clamped length L")
    ap.add_argument("--head", type=float, default=10.0, help="head and nut thickness h")
    ap.add_argument("--nz", type=int, default=8, help="elements along L")
    ap.add_argument("--E", type=float, default=210000.0)
    ap.add_argument("--alpha", type=float, default=1.2e-5)
    ap.add_argument("--dtheta", type=float, default=100.0, help="cooling of the shank")
    ap.add_argument("--load", type=float, default=10000.0, help="separating load P on the head")
    ap.add_argument("--pretension", type=float, default=0.0,
                    help="preload by a *PRE-TENSION SECTION with this force instead of cooling (0: cool)")
    ap.add_argument("--node-output", default="U, RF", help="the node output variables of every request")
    a = ap.parse_args()
    if a.nz < 1 or not (a.a > 0 and a.length > 0 and a.head > 0 and a.E > 0):
        ap.error("at least one element along the length and positive sizes")
    if a.pretension < 0 or (a.pretension > 0 and a.nz < 2):
        ap.error("--pretension: a positive force and at least two elements along the length (the cut)")
    s, L, h, nz = a.a, a.length, a.head, a.nz
    area_b, area_p = 4 * s * s, 12 * s * s
    k_b, k_p = a.E * area_b / L, a.E * area_p / L
    slope = a.E / (2 * L)  # the contact law's: k_c = slope A_p = k_p / 2
    k_pc = 1 / (1 / k_p + 1 / (slope * area_p))
    phi = k_b / (k_b + k_pc)
    f0 = a.pretension if a.pretension > 0 else a.alpha * a.dtheta * L * k_b * k_pc / (k_b + k_pc)
    if not a.load < f0 / (1 - phi):
        ap.error(f"the joint opens at P = {f0 / (1 - phi):.6g}: give a smaller --load")
    rho = 7.85e-9
    # The joint's period: the head's mass on both springs (the nut is held).
    head_mass = rho * 16 * s * s * h
    period = 2 * math.pi * math.sqrt(head_mass / (k_b + k_pc))
    ramp, total = 40 * period, 50 * period

    xs = [-2 * s, -s, 0.0, s, 2 * s]
    lines = ["*HEADING",
             f"bolted joint: a {2 * s:g} mm square shank through a {4 * s:g} mm sleeve, L = {L:g} mm, preloaded by "
             + (f"a pre-tension section ({a.pretension:g} N)" if a.pretension > 0 else f"cooling {a.dtheta:g} C")
             + f", then pulled by {a.load:g} N (examples/generate_bolted_joint.py)",
             f"** preload F0 = {f0:.9g} N; after the load the bolt carries F0 + phi P = {f0 + phi * a.load:.9g} N "
             f"(phi = {phi:.9g}), the clamped parts {f0 - (1 - phi) * a.load:.9g} N",
             "** UNITS: mm, N, MPa, tonne/mm^3, C", "*NODE"]
    ids = {}  # (part, i, j, k) -> node number (the head's and nut's layers on the shank: the shank's)

    def node(part, i, j, k, z):
        key = (part, i, j, k)
        if key not in ids:
            ids[key] = len(set(ids.values())) + 1
            lines.append(f"{ids[key]}, {xs[i]:.17g}, {xs[j]:.17g}, {z:.17g}")
        return ids[key]

    zs = [L * k / nz for k in range(nz + 1)]
    # The shank's nodes (its end layers are the head's and the nut's nodes there too).
    for k in range(nz + 1):
        for j in range(1, 4):
            for i in range(1, 4):
                node("shank", i, j, k, zs[k])
    for k in range(nz + 1):
        for j in range(5):
            for i in range(5):
                if not (1 <= i <= 3 and 1 <= j <= 3) or i in (1, 3) or j in (1, 3):
                    node("sleeve", i, j, k, zs[k])
    for part, z0 in (("head", L), ("nut", -h)):
        for k in range(2):
            for j in range(5):
                for i in range(5):
                    z = z0 + h * k
                    on_shank = 1 <= i <= 3 and 1 <= j <= 3 and ((part == "head" and k == 0) or (part == "nut" and k == 1))
                    if on_shank:
                        ids[(part, i, j, k)] = ids[("shank", i, j, 0 if part == "nut" else nz)]
                    else:
                        node(part, i, j, k, z)
    lines.append(f"9001, 0., 0., {L + h / 2:.17g}")
    lines.append(f"9002, 0., 0., {-h / 2:.17g}")
    if a.pretension > 0:
        lines.append("9003, 0., 0., 0.")  # the pre-tension node: of no element

    def brick(part, i, j, k):
        k1 = k + 1
        return [ids[(part, i, j, k)], ids[(part, i + 1, j, k)], ids[(part, i + 1, j + 1, k)], ids[(part, i, j + 1, k)],
                ids[(part, i, j, k1)], ids[(part, i + 1, j, k1)], ids[(part, i + 1, j + 1, k1)], ids[(part, i, j + 1, k1)]]

    e = 0
    sets = {}

    def elements(name, part, cells, layers):
        nonlocal e
        lines.append(f"*ELEMENT, TYPE=C3D8R, ELSET={name}")
        first = e + 1
        for k in layers:
            for (i, j) in cells:
                e += 1
                lines.append(f"{e}, " + ", ".join(map(str, brick(part, i, j, k))))
        sets[name] = (first, e)

    inner = [(i, j) for j in (1, 2) for i in (1, 2)]
    ring = [(i, j) for j in range(4) for i in range(4) if (i, j) not in inner]
    allc = [(i, j) for j in range(4) for i in range(4)]
    elements("SHANK", "shank", inner, range(nz))
    elements("SLEEVE", "sleeve", ring, range(nz))
    elements("HEAD", "head", allc, [0])
    elements("NUT", "nut", allc, [0])
    first_top, last_top = sets["SLEEVE"][1] - len(ring) + 1, sets["SLEEVE"][1]
    lines += ["*ELSET, ELSET=SLEEVE_TOP, GENERATE", f"{first_top}, {last_top}, 1",
              "*NSET, NSET=SLEEVE_BASE", ", ".join(str(ids[("sleeve", i, j, 0)]) for j in range(5) for i in range(5)
                                                   if (i, j) != (2, 2)),
              "*NSET, NSET=SHANKN", ", ".join(str(ids[("shank", i, j, k)]) for k in range(nz + 1)
                                            for j in range(1, 4) for i in range(1, 4)),
              "*NSET, NSET=ALLN, GENERATE", f"1, {max(ids.values())}, 1"]
    # The sleeve and the shank's inner nodes are held sideways on the symmetry planes (x = 0:
    # U1, y = 0: U2), which leaves their axial behaviour free.
    sym_x = [ids[(p, 2, j, k)] for p in ("sleeve",) for k in range(nz + 1) for j in (0, 4)]
    sym_y = [ids[(p, i, 2, k)] for p in ("sleeve",) for k in range(nz + 1) for i in (0, 4)]
    sym_x += [ids[("shank", 2, j, k)] for k in range(1, nz) for j in range(1, 4)]
    sym_y += [ids[("shank", i, 2, k)] for k in range(1, nz) for i in range(1, 4)]
    lines += ["*NSET, NSET=SYMX", ", ".join(map(str, sym_x)), "*NSET, NSET=SYMY", ", ".join(map(str, sym_y)),
              "*NSET, NSET=REFS", "9001, 9002",
              "*SURFACE, NAME=HEAD_FACE", "HEAD, S1",
              *(["*ELSET, ELSET=CUT_LAYER, GENERATE",
                 f"{sets['SHANK'][0] + len(inner) * (nz // 2 - 1)}, {sets['SHANK'][0] + len(inner) * (nz // 2) - 1}, 1",
                 "*SURFACE, NAME=CUT", "CUT_LAYER, S2"] if a.pretension > 0 else []),
              "*SURFACE, NAME=SLEEVE_TOP_FACE", "SLEEVE_TOP, S2",
              "*MATERIAL, NAME=BOLT", "*ELASTIC", f"{a.E:.17g}, 0.", "*DENSITY", f"{rho}", "*EXPANSION", f"{a.alpha:.17g}",
              "*MATERIAL, NAME=PLATE", "*ELASTIC", f"{a.E:.17g}, 0.", "*DENSITY", f"{rho}",
              "*SOLID SECTION, ELSET=SHANK, MATERIAL=BOLT", "*SOLID SECTION, ELSET=SLEEVE, MATERIAL=PLATE",
              "*SOLID SECTION, ELSET=HEAD, MATERIAL=PLATE", "*SOLID SECTION, ELSET=NUT, MATERIAL=PLATE",
              "*RIGID BODY, REF NODE=9001, ELSET=HEAD", "*RIGID BODY, REF NODE=9002, ELSET=NUT",
              "*SURFACE INTERACTION, NAME=CLAMP", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR", f"{slope:.17g}",
              "*CONTACT PAIR, INTERACTION=CLAMP", "SLEEVE_TOP_FACE, HEAD_FACE",
              *(["*PRE-TENSION SECTION, SURFACE=CUT, NODE=9003"] if a.pretension > 0 else []),
              "*INITIAL CONDITIONS, TYPE=TEMPERATURE", "ALLN, 20.",
              "*BOUNDARY", "9002, 1, 6", "9001, 1, 2", "9001, 4, 6", "SYMX, 1, 1", "SYMY, 2, 2",
              "SLEEVE_BASE, 3, 3",
              "*AMPLITUDE, NAME=PULL, DEFINITION=SMOOTH STEP", f"0., 0., {ramp:.17g}, 1.",
              "*STEP, NAME=PRELOAD, NLGEOM=YES", "*STATIC", "0.25, 1.",
              *(["*CLOAD", f"9003, 1, {a.pretension:.17g}"] if a.pretension > 0
                else ["*TEMPERATURE", f"SHANKN, {20 - a.dtheta:.17g}"]),
              "*OUTPUT, FIELD", "*NODE OUTPUT", a.node_output, "*ELEMENT OUTPUT", "S",
              "*OUTPUT, HISTORY", "*NODE OUTPUT, NSET=REFS", a.node_output, "*END STEP",
              "*STEP, NAME=LOAD", "*DYNAMIC, EXPLICIT", f", {total:.17g}",
              *(["*BOUNDARY, FIXED", "9003, 1, 1", "*CLOAD, OP=NEW"] if a.pretension > 0 else []),
              "*CLOAD, AMPLITUDE=PULL", f"9001, 3, {a.load:.17g}",
              "*OUTPUT, FIELD, TIME INTERVAL=" + f"{total / 5:.17g}", "*NODE OUTPUT", a.node_output, "*ELEMENT OUTPUT", "S",
              "*OUTPUT, HISTORY, TIME INTERVAL=" + f"{total / 100:.17g}", "*NODE OUTPUT, NSET=REFS", a.node_output,
              "*END STEP"]
    if os.path.dirname(a.output):  # the README's commands write into out/
        os.makedirs(os.path.dirname(a.output), exist_ok=True)
    with open(a.output, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
