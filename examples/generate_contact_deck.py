#!/usr/bin/env python3
"""Writes contact decks (issue 17) for halfstep's tests and examples.

  bars   two identical elastic bars (C3D8R, nu = 0) flying at each other with +v0 and -v0
         along x; 1-D wave theory: while they touch the force is rho c A v0 and the contact
         lasts 2 L / c (c = sqrt(E / rho)); afterwards they fly apart with -v0 and +v0.
         --elements N per bar, --pair (a *CONTACT PAIR of the two end faces; default: general
         contact, *CONTACT INCLUSIONS, ALL EXTERIOR). --wall: bar A alone against a rigid
         analytical plane where the bars would meet (the same force and duration).
  impact a cube of --elements^3 C3D8R moving down onto a held base, general contact (a
         benchmark of the contact pass; --no-contact leaves it out).
  press  a cube on a held base squeezed by a rigid plate (a *RIGID BODY of elements moved by
         a velocity on its reference node), general contact: RF3 = E A d / L.
  slide  a cube on a held base block, pushed by nodal loads equal to its weight on a slope of
         --angle degrees (the slope's normal and tangential parts), with Coulomb friction
         --friction mu: it slides with a = g (sin a - mu cos a) if tan a > mu, else it sticks.
         --ramp T raises the loads smoothly over T (no bounce on the penalty springs).
         --analytic: the base is a rigid analytical plane (*SURFACE, TYPE=CYLINDER) instead.

  hertz  a rigid sphere (radius 1, *SURFACE, TYPE=REVOLUTION) pressed slowly into an elastic
         block (a quarter model, graded C3D8 mesh, E = 1000, nu = 0.3): Hertz's
         F = 4/3 E* sqrt(R) w^1.5 with w the block surface's displacement under the centre.
         --h0 the smallest element edge (the uniform zone around the contact), --depth
         --indent (the sphere's travel), --time (the smooth-step ramp).

  tube   a thin-walled square steel tube (S4R, J2 with 5 section points; side --side, wall
         --thickness, length --length, element edge --size) crushed axially by a rigid
         analytical plate moving down at --velocity (mm/s) for --crush mm, its bottom end
         clamped; general contact (ALL EXTERIOR: the folds' self-contact and the plate).
         --trigger A: the top half-side of the walls dented by A times the thickness (two
         opposite walls in, two out) so the first fold starts there. Units mm, N, tonne, s.
         Reference: the mean crush force of Abramowicz & Jones (1984), 13.06 s0 h^5/3 c^1/3.

  crossed two elastic square bars (C3D8R, --elements along each, one across, cubes of edge
         0.1; E, rho, nu = 0) turned 45 degrees about their axes and laid crosswise: bar A
         along x, an edge down, moves down at --velocity onto bar B along y, an edge up, at
         rest, 0.05 below (both free). They meet edge on edge at the middle of an element of
         each: no node enters a facet, only edge-to-edge contact stops them. General contact
         (--pair: a *CONTACT PAIR of the bars' surfaces); --no-edges: EDGES=NO.
         History: ACROSS / BCROSS, the nodes of the two edges either side of the crossing;
         AENDS, AINNER, BENDS, BINNER: the nodes of one and of two elements (momentum).

Usage: python3 generate_contact_deck.py bars|slide|impact|press|hertz|tube|crossed [options] -o DECK.inp
"""
import argparse
import math

MAT = "*MATERIAL, NAME=M\n*ELASTIC\n{E}, 0.\n*DENSITY\n{rho}\n"


def brick(first_node, first_elem, x0, nx, hx, ny, hy, nz, hz, z0=0.0, y0=0.0):
    """Nodes and C3D8R elements of an nx x ny x nz block from (x0, y0, z0)."""
    nodes, elems = [], []
    nid = lambda i, j, k: first_node + i + (nx + 1) * (j + (ny + 1) * k)
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                nodes.append(f"{nid(i, j, k)}, {x0 + i * hx:.12g}, {y0 + j * hy:.12g}, {z0 + k * hz:.12g}")
    e = first_elem
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                elems.append(f"{e}, " + ", ".join(map(str, n)))
                e += 1
    return nodes, elems, nid


def id_lines(ids):
    """Data lines of a set: 16 ids per line."""
    return [", ".join(map(str, ids[i:i + 16])) for i in range(0, len(ids), 16)]


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def analytic_plane(name, ref, point, normal, along, half):
    """A rigid analytical plane through `point` facing `normal`: a *SURFACE, TYPE=CYLINDER whose
    profile runs along `along` from -half to +half (its normal, the direction turned
    counterclockwise, is local y = z x x: the generator z is along x normal), and the
    *RIGID BODY attaching it to node `ref`."""
    f = lambda v: ", ".join(f"{x:.12g}" for x in v)
    b = [point[i] + along[i] for i in range(3)]
    g = cross(along, normal)
    c = [point[i] + g[i] for i in range(3)]
    return [f"*SURFACE, TYPE=CYLINDER, NAME={name}", f"{f(point)}, {f(b)}", f(c),
            f"START, {-half:.12g}, 0.", f"LINE, {half:.12g}, 0.",
            f"*RIGID BODY, ANALYTICAL SURFACE={name}, REF NODE={ref}"]


def mass_scaling_lines(a):
    """bars: the step's *VARIABLE MASS SCALING line (--vms-dt), uniform over the bars and
    re-evaluated every 20 increments; none without the option."""
    return [f"*VARIABLE MASS SCALING, DT={a.vms_dt!r}, TYPE=UNIFORM, FREQUENCY=20"] if a.vms_dt > 0 else []


def bars(a):
    n, L, side = a.elements, 1.0, 0.01
    h, gap = L / n, 0.1 * L / n
    na, ea, ida = brick(1, 1, 0.0, n, h, 1, side, 1, side)
    first_b = len(na) + 1
    nb, eb, idb = brick(first_b, n + 1, L + gap, n, h, 1, side, 1, side)
    c = math.sqrt(a.E / a.rho)
    if a.wall:
        return bar_on_wall(a, n, L, side, gap, na, ea, ida, c)
    out = [f"*HEADING\ntwo bars colliding: {n} C3D8R each, c = {c:.6g}, contact time 2L/c = {2 * L / c:.6g}",
           "*NODE", *na, *nb,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARA", *ea,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARB", *eb,
           "*ELSET, ELSET=BARS\nBARA, BARB",
           f"*NSET, NSET=ANODES, GENERATE\n1, {len(na)}, 1",
           f"*NSET, NSET=BNODES, GENERATE\n{first_b}, {first_b + len(nb) - 1}, 1",
           "*NSET, NSET=AEND\n" + ", ".join(str(ida(n, j, k)) for k in (0, 1) for j in (0, 1)),
           "*NSET, NSET=AFAR\n" + ", ".join(str(ida(0, j, k)) for k in (0, 1) for j in (0, 1)),
           f"*ELSET, ELSET=ALAST\n{n}", f"*ELSET, ELSET=BFIRST\n{n + 1}",
           "*SURFACE, NAME=AFACE\nALAST, S4", "*SURFACE, NAME=BFACE\nBFIRST, S6",
           MAT.format(E=a.E, rho=a.rho).rstrip(),
           "*SOLID SECTION, ELSET=BARS, MATERIAL=M", "1.",
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"ANODES, 1, {a.velocity}", f"BNODES, 1, {-a.velocity}"]
    if a.pair:
        out += ["*SURFACE INTERACTION, NAME=SMOOTH", "*CONTACT PAIR, INTERACTION=SMOOTH", "AFACE, BFACE"]
    else:
        out += ["*CONTACT", "*CONTACT INCLUSIONS, ALL EXTERIOR"]
    t_end = (1.6 * L / c * 2 + gap / a.velocity) * a.time_scale
    out += ["*STEP", "*DYNAMIC, EXPLICIT", f", {t_end:.9g}", *mass_scaling_lines(a),
            f"*OUTPUT, FIELD, NUMBER INTERVAL={a.frames}", "*NODE OUTPUT", "U, V", "*ELEMENT OUTPUT", "S",
            "*OUTPUT, HISTORY, NUMBER INTERVAL=2000", "*NODE OUTPUT, NSET=AEND", "U, V",
            "*NODE OUTPUT, NSET=AFAR", "V", "*END STEP"]
    return "\n".join(out) + "\n"


def bar_on_wall(a, n, L, side, gap, na, ea, ida, c):
    """Bar A against a rigid analytical plane at x = L + gap / 2 (where two bars would meet)."""
    ref = len(na) + 1
    xw = L + 0.5 * gap
    scaled = f"; masses scaled uniformly to the increment {a.vms_dt:.6g} (*VARIABLE MASS SCALING)" if a.vms_dt > 0 else ""
    out = [f"*HEADING\na bar hitting a rigid plane: {n} C3D8R, c = {c:.6g}, contact time 2L/c = {2 * L / c:.6g}{scaled}",
           "*NODE", *na, f"{ref}, {xw:.12g}, 0., 0.",
           "*ELEMENT, TYPE=C3D8R, ELSET=BARA", *ea,
           f"*NSET, NSET=ANODES, GENERATE\n1, {len(na)}, 1",
           f"*NSET, NSET=WALLREF\n{ref}",
           "*NSET, NSET=AEND\n" + ", ".join(str(ida(n, j, k)) for k in (0, 1) for j in (0, 1)),
           "*NSET, NSET=AFAR\n" + ", ".join(str(ida(0, j, k)) for k in (0, 1) for j in (0, 1)),
           f"*ELSET, ELSET=ALAST\n{n}",
           "*SURFACE, NAME=AFACE\nALAST, S4",
           *analytic_plane("WALL", ref, (xw, 0.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0),
           MAT.format(E=a.E, rho=a.rho).rstrip(),
           "*SOLID SECTION, ELSET=BARA, MATERIAL=M", "1.",
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"ANODES, 1, {a.velocity}"]
    if a.pair:
        out += ["*SURFACE INTERACTION, NAME=SMOOTH", "*CONTACT PAIR, INTERACTION=SMOOTH", "AFACE, WALL"]
    else:
        out += ["*CONTACT", "*CONTACT INCLUSIONS, ALL EXTERIOR"]
    t_end = (1.6 * L / c * 2 + gap / a.velocity) * a.time_scale
    out += ["*STEP", "*DYNAMIC, EXPLICIT", f", {t_end:.9g}", *mass_scaling_lines(a), "*BOUNDARY", "WALLREF, 1, 3",
            f"*OUTPUT, FIELD, NUMBER INTERVAL={a.frames}", "*NODE OUTPUT", "U, V", "*ELEMENT OUTPUT", "S",
            "*OUTPUT, HISTORY, NUMBER INTERVAL=2000", "*NODE OUTPUT, NSET=AEND", "U, V",
            "*NODE OUTPUT, NSET=AFAR", "V", "*NODE OUTPUT, NSET=WALLREF", "RF", "*END STEP"]
    return "\n".join(out) + "\n"


def slide(a):
    # Base: 4 x 4 x 1 elements of 0.25, top at z = 0, held. Block: one cube of 0.2 resting on it.
    nb_, eb_, idb = brick(1, 1, -0.5, 4, 0.25, 4, 0.25, 1, 0.25, z0=-0.25, y0=-0.4)
    first = len(nb_) + 1
    nk, ek, idk = brick(first, 100, -0.1, 1, 0.2, 1, 0.2, 1, 0.2, z0=0.0)
    rho, g = a.rho, 9.81
    m_node = rho * 0.2 ** 3 / 8
    th = math.radians(a.angle)
    ft, fn = m_node * g * math.sin(th), -m_node * g * math.cos(th)
    out = [f"*HEADING\ncube sliding on a slope of {a.angle} degrees (loads tilted), friction {a.friction}",
           "*NODE", *nb_, *nk,
           "*ELEMENT, TYPE=C3D8R, ELSET=BASE", *eb_,
           "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK", *ek,
           "*ELSET, ELSET=ALL\nBASE, BLOCK",
           f"*NSET, NSET=BASEN, GENERATE\n1, {len(nb_)}, 1",
           f"*NSET, NSET=BLOCKN, GENERATE\n{first}, {first + 7}, 1",
           f"*NSET, NSET=CORNER\n{first}",
           "*SURFACE, NAME=TOP\nBASE, S2", "*SURFACE, NAME=BOTTOM\nBLOCK, S1",
           MAT.format(E=a.E, rho=rho).rstrip(),
           "*SOLID SECTION, ELSET=ALL, MATERIAL=M", "1.",
           "*SURFACE INTERACTION, NAME=ROUGH", "*FRICTION", f"{a.friction}",
           "*CONTACT PAIR, INTERACTION=ROUGH", "BOTTOM, " + ("FLOOR" if a.analytic else "TOP")]
    if a.analytic:  # the floor z = 0 as a rigid plane instead of the base's top (base left unused)
        ref = first + 8
        out[2:2] = [f"{ref}, 0., 0., 0."]
        out += [f"*NSET, NSET=FLOORREF\n{ref}",
                *analytic_plane("FLOOR", ref, (0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0), 1.0)]
    if a.ramp > 0:
        out += ["*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP", f"0., 0., {a.ramp}, 1."]
    out += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time}",
           "*BOUNDARY", "BASEN, 1, 3",
           "*CLOAD" + (", AMPLITUDE=RAMP" if a.ramp > 0 else ""), f"BLOCKN, 1, {ft:.12g}", f"BLOCKN, 3, {fn:.12g}",
           "*OUTPUT, FIELD, NUMBER INTERVAL=100", "*NODE OUTPUT", "U, V",
           "*OUTPUT, HISTORY, NUMBER INTERVAL=2000", "*NODE OUTPUT, NSET=CORNER", "U, V", "*END STEP"]
    return "\n".join(out) + "\n"


def impact(a):
    # A cube of n^3 C3D8R (edge 1) above a held base of n x n x 2 elements, moving down at v0,
    # touching at once (gap of a tenth of an element); general contact. A benchmark: the
    # contact pass against the element pass at scale.
    n = a.elements
    h = 1.0 / n
    nb_, eb_, _ = brick(1, 1, 0.0, n, h, n, h, 2, h, z0=-2 * h)
    first = len(nb_) + 1
    nk, ek, _ = brick(first, 2 * n * n + 1, 0.0, n, h, n, h, n, h, z0=0.1 * h)
    out = [f"*HEADING\ncube of {n}^3 C3D8R dropped on a held base, general contact",
           "*NODE", *nb_, *nk,
           "*ELEMENT, TYPE=C3D8R, ELSET=BASE", *eb_,
           "*ELEMENT, TYPE=C3D8R, ELSET=CUBE", *ek,
           "*ELSET, ELSET=ALL\nBASE, CUBE",
           f"*NSET, NSET=BASEN, GENERATE\n1, {len(nb_)}, 1",
           f"*NSET, NSET=CUBEN, GENERATE\n{first}, {first + len(nk) - 1}, 1",
           f"*NSET, NSET=TOP\n{first + len(nk) - 1}",
           MAT.format(E=a.E, rho=a.rho).rstrip(),
           "*SOLID SECTION, ELSET=ALL, MATERIAL=M", "1.",
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"CUBEN, 3, {-a.velocity}"]
    if not a.no_contact:
        out += ["*CONTACT", "*CONTACT INCLUSIONS, ALL EXTERIOR"]
    out += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time}", "*BOUNDARY", "BASEN, 1, 3",
            "*OUTPUT, FIELD, NUMBER INTERVAL=1", "*NODE OUTPUT", "U",
            "*OUTPUT, HISTORY, NUMBER INTERVAL=20", "*NODE OUTPUT, NSET=TOP", "U", "*END STEP"]
    return "\n".join(out) + "\n"


def press(a):
    # A cube of 4^3 C3D8R (edge 0.2, E, nu = 0) on a held base, squeezed by a rigid plate: a
    # *RIGID BODY of C3D8R elements whose reference node moves down at --velocity (its other
    # translations held; its rotations free, the squeeze is symmetric), general contact, no friction. Quasi-static (v << c): the plate's reaction
    # RF3 = E A d / L at a squeeze d (uniaxial stress).
    nb_, eb_, _ = brick(1, 1, -0.1, 2, 0.2, 2, 0.2, 1, 0.1, z0=-0.1, y0=-0.1)
    f1 = len(nb_) + 1
    nk, ek, _ = brick(f1, 100, -0.1, 4, 0.05, 4, 0.05, 4, 0.05, z0=0.0)
    f2 = f1 + len(nk)
    gap = 1e-4
    np_, ep_, _ = brick(f2, 200, -0.15, 3, 0.1, 3, 0.1, 1, 0.05, z0=0.2 + gap, y0=-0.05)
    ref = f2 + len(np_)
    out = [f"*HEADING\ncube squeezed by a rigid plate (a *RIGID BODY of C3D8R) moving at {a.velocity}",
           "*NODE", *nb_, *nk, *np_, f"{ref}, 0., 0.1, 0.3",
           "*ELEMENT, TYPE=C3D8R, ELSET=BASE", *eb_,
           "*ELEMENT, TYPE=C3D8R, ELSET=CUBE", *ek,
           "*ELEMENT, TYPE=C3D8R, ELSET=PLATE", *ep_,
           "*ELSET, ELSET=ALL\nBASE, CUBE, PLATE",
           f"*NSET, NSET=BASEN, GENERATE\n1, {len(nb_)}, 1",
           f"*NSET, NSET=REF\n{ref}",
           f"*NSET, NSET=PLATEN, GENERATE\n{f2}, {ref - 1}, 1",
           f"*NSET, NSET=CUBETOP, GENERATE\n{f1 + 4 * 25}, {f1 + 5 * 25 - 1}, 1",
           MAT.format(E=a.E, rho=a.rho).rstrip(),
           "*SOLID SECTION, ELSET=ALL, MATERIAL=M", "1.",
           "*RIGID BODY, REF NODE=REF, ELSET=PLATE",
           # Moving from the start: a velocity prescribed from rest would jump at t = 0.
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"PLATEN, 3, {-a.velocity}", f"REF, 3, {-a.velocity}",
           "*CONTACT", "*CONTACT INCLUSIONS, ALL EXTERIOR",
           "*STEP", "*DYNAMIC, EXPLICIT", f", {a.time}",
           "*BOUNDARY", "BASEN, 1, 3", "REF, 1, 2",
           "*BOUNDARY, TYPE=VELOCITY", f"REF, 3, 3, {-a.velocity}",
           "*OUTPUT, FIELD, NUMBER INTERVAL=10", "*NODE OUTPUT", "U",
           "*OUTPUT, HISTORY, NUMBER INTERVAL=200", "*NODE OUTPUT, NSET=REF", "U, RF",
           "*NODE OUTPUT, NSET=CUBETOP", "U", "*END STEP"]
    return "\n".join(out) + "\n"


def crossed(a):
    n, h = a.elements, 0.1
    if n % 2 == 0:
        raise SystemExit("crossed: --elements must be odd (the bars cross at the middle of an element)")
    L, gap, r = n * h, (0.0 if a.press else 0.05 * h), math.sqrt(0.5)  # pressed: edges touching at the start
    # Bar A: nx = n along x, one element across; turned 45 degrees about x, lowest edge
    # (local j = k = 0) at z = gap.
    # --press: bar A lies across bar B at y = --offset (a whole number of elements, so that
    # the edges still cross at the middle of one of B's elements).
    off = a.offset if a.press else 0.0
    if a.press and abs(off / h - round(off / h)) > 1e-9:
        raise SystemExit("crossed: --offset must be a multiple of the element edge 0.1")
    na, ea, ida = brick(1, 1, -L / 2, n, h, 1, h, 1, h, z0=-h / 2, y0=-h / 2)
    first_b = 1 + len(na)
    nb, eb, idb = brick(first_b, n + 1, -h / 2, 1, h, n, h, 1, h, z0=-h / 2, y0=-L / 2)

    def turned(lines, about, lift):
        out = []
        for line in lines:
            i, x, y, z = line.split(", ")
            x, y, z = float(x), float(y), float(z)
            if about == "x":
                y, z = r * (y - z), r * (y + z)
            else:
                x, z = r * (x + z), r * (z - x)
            out.append(f"{i}, {x:.12g}, {y + (off if about == 'x' else 0.0):.12g}, {z + lift:.12g}")
        return out

    na = turned(na, "x", h * r + gap)   # lowest edge (y = z = -h/2) at z = gap
    nb = turned(nb, "y", -h * r)        # highest edge (x = -h/2, z = +h/2) at z = 0
    mid = (n - 1) // 2
    a_ends = [ida(i, j, k) for i in (0, n) for j in (0, 1) for k in (0, 1)]
    a_inner = [ida(i, j, k) for i in range(1, n) for j in (0, 1) for k in (0, 1)]
    b_ends = [idb(i, j, k) for j in (0, n) for i in (0, 1) for k in (0, 1)]
    b_inner = [idb(i, j, k) for j in range(1, n) for i in (0, 1) for k in (0, 1)]
    if a.press:
        return crossed_press(a, n, h, L, na, ea, ida, nb, eb, idb)
    out = [f"*HEADING\ntwo square bars crossed edge on edge: {n} C3D8R each, bar A at {a.velocity} onto bar B",
           "*NODE", *na, *nb,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARA", *ea,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARB", *eb,
           "*ELSET, ELSET=BARS\nBARA, BARB",
           f"*NSET, NSET=ANODES, GENERATE\n1, {len(na)}, 1",
           f"*NSET, NSET=ACROSS\n{ida(mid, 0, 0)}, {ida(mid + 1, 0, 0)}",
           f"*NSET, NSET=BCROSS\n{idb(0, mid, 1)}, {idb(0, mid + 1, 1)}",
           "*NSET, NSET=AENDS", *id_lines(a_ends), "*NSET, NSET=AINNER", *id_lines(a_inner),
           "*NSET, NSET=BENDS", *id_lines(b_ends), "*NSET, NSET=BINNER", *id_lines(b_inner),
           MAT.format(E=a.E, rho=a.rho).rstrip(),
           "*SOLID SECTION, ELSET=BARS, MATERIAL=M", "1.",
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"ANODES, 3, {-a.velocity}"]
    edges = ", EDGES=NO" if a.no_edges else ""
    if a.pair:
        # The bars' four long sides (brick's faces: A along i, B along j).
        out += ["*SURFACE, NAME=ASURF", *[f"BARA, S{f}" for f in (1, 2, 3, 5)],
                "*SURFACE, NAME=BSURF", *[f"BARB, S{f}" for f in (1, 2, 4, 6)],
                "*SURFACE INTERACTION, NAME=SMOOTH", f"*CONTACT PAIR, INTERACTION=SMOOTH{edges}", "ASURF, BSURF",
                f"*CONTACT PAIR, INTERACTION=SMOOTH{edges}", "BSURF, ASURF"]
    else:
        out += [f"*CONTACT{edges}", "*CONTACT INCLUSIONS, ALL EXTERIOR"]
    out += ["*STEP", "*DYNAMIC, EXPLICIT", f", {a.time}",
            f"*OUTPUT, FIELD, NUMBER INTERVAL={a.frames}", "*NODE OUTPUT", "U, V",
            "*OUTPUT, HISTORY, NUMBER INTERVAL=400", "*NODE OUTPUT, NSET=ACROSS", "U, V",
            "*NODE OUTPUT, NSET=BCROSS", "U, V",
            "*NODE OUTPUT, NSET=AENDS", "V", "*NODE OUTPUT, NSET=AINNER", "V",
            "*NODE OUTPUT, NSET=BENDS", "V", "*NODE OUTPUT, NSET=BINNER", "V", "*END STEP"]
    return "\n".join(out) + "\n"


def crossed_press(a, n, h, L, na, ea, ida, nb, eb, idb):
    """crossed --press P: bar B simply supported at its ends (its lowest edge's end nodes held
    in z, and in x against sliding; the highest edge's end nodes in x against rolling about
    B's axis; one end in y), bar A moving only vertically (every node held in x and y), its
    highest edge loaded by P down (equal shares) by a smooth step over --time, held as long
    again, mass damping --alpha. The vertical reactions at B's ends are P (L/2 -+ offset)/L if
    the contact force acts where the edges cross (statics)."""
    mid = (n - 1) // 2
    lo = [idb(1, 0, 0), idb(1, n, 0)]   # B's lowest edge, at its two ends
    hi = [idb(0, 0, 1), idb(0, n, 1)]   # B's highest edge, at its two ends
    top = [ida(i, 1, 1) for i in range(n + 1)]  # A's highest edge
    edges = ", EDGES=NO" if a.no_edges else ""
    out = [f"*HEADING\ntwo square bars crossed edge on edge: {n} C3D8R each, bar A pressed by {a.press} onto "
           f"bar B at y = {a.offset}",
           "*NODE", *na, *nb,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARA", *ea,
           "*ELEMENT, TYPE=C3D8R, ELSET=BARB", *eb,
           "*ELSET, ELSET=BARS\nBARA, BARB",
           f"*NSET, NSET=ANODES, GENERATE\n1, {len(na)}, 1",
           f"*NSET, NSET=ACROSS\n{ida(mid, 0, 0)}, {ida(mid + 1, 0, 0)}",
           f"*NSET, NSET=ATOP", *id_lines(top),
           f"*NSET, NSET=BSUP0\n{lo[0]}", f"*NSET, NSET=BSUPL\n{lo[1]}", "*NSET, NSET=BHI", *id_lines(hi),
           MAT.format(E=a.E, rho=a.rho).rstrip() + f"\n*DAMPING, ALPHA={a.alpha:g}",
           "*SOLID SECTION, ELSET=BARS, MATERIAL=M", "1.",
           f"*CONTACT{edges}", "*CONTACT INCLUSIONS, ALL EXTERIOR",
           "*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP", f"0., 0., {a.time:.12g}, 1.",
           "*STEP", "*DYNAMIC, EXPLICIT", f", {2 * a.time:.12g}",
           "*BOUNDARY", "ANODES, 1, 2", "BSUP0, 1, 3", "BSUPL, 1, 1", "BSUPL, 3, 3", "BHI, 1, 1",
           "*CLOAD, AMPLITUDE=RAMP", *[f"{i}, 3, {-a.press / len(top):.17g}" for i in top],
           f"*OUTPUT, HISTORY, TIME INTERVAL={a.time / 20:.12g}", "*NODE OUTPUT, NSET=ACROSS", "U",
           "*NODE OUTPUT, NSET=BSUP0", "RF", "*NODE OUTPUT, NSET=BSUPL", "RF", "*END STEP"]
    return "\n".join(out) + "\n"


def graded(h0, uniform, size, growth):
    """Coordinates 0 .. size: steps h0 up to `uniform`, then growing by `growth` per step."""
    xs, h = [0.0], h0
    while xs[-1] < uniform - 1e-12:
        xs.append(xs[-1] + h0)
    while xs[-1] < size - 1e-12:
        h *= growth
        xs.append(min(size, xs[-1] + h))
    if len(xs) > 2 and xs[-1] - xs[-2] < 0.5 * (xs[-2] - xs[-3]):
        xs.pop(-2)  # no sliver at the far end
    return xs


def hertz(a):
    # Quarter block x, y in [0, W], z in [-W, 0]; the sphere touches the origin at t = 0 and
    # moves down by --indent along a smooth step over --time.
    R, W = 1.0, a.depth
    xs = graded(a.h0, 1.5 * math.sqrt(R * a.indent), W, 1.25)
    zs = [-x for x in reversed(graded(a.h0, 1.5 * math.sqrt(R * a.indent), W, 1.25))]
    nx, nz = len(xs) - 1, len(zs) - 1
    nid = lambda i, j, k: 1 + i + (nx + 1) * (j + (nx + 1) * k)
    nodes = [f"{nid(i, j, k)}, {xs[i]:.12g}, {xs[j]:.12g}, {zs[k]:.12g}"
             for k in range(nz + 1) for j in range(nx + 1) for i in range(nx + 1)]
    elems, top = [], []
    e = 1
    for k in range(nz):
        for j in range(nx):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                elems.append(f"{e}, " + ", ".join(map(str, n)))
                if k == nz - 1:
                    top.append(e)
                e += 1
    ref = nid(nx, nx, nz) + 1
    x0 = [nid(0, j, k) for k in range(nz + 1) for j in range(nx + 1)]
    y0 = [nid(i, 0, k) for k in range(nz + 1) for i in range(nx + 1)]
    bottom = [nid(i, j, 0) for j in range(nx + 1) for i in range(nx + 1)]
    surface_nodes = [nid(i, 0, nz) for i in range(nx + 1)]
    E, nu = 1000.0, 0.3
    out = [f"*HEADING\nrigid sphere R = {R} pressed {a.indent} into an elastic block (quarter), "
           f"{len(elems)} {a.element}, h0 = {a.h0}",
           "*NODE", *nodes, f"{ref}, 0., 0., {R:.12g}",
           f"*ELEMENT, TYPE={a.element}, ELSET=BLOCK", *elems,
           "*ELSET, ELSET=TOPLAYER", *id_lines(top),
           "*NSET, NSET=X0", *id_lines(x0), "*NSET, NSET=Y0", *id_lines(y0), "*NSET, NSET=BOTTOM", *id_lines(bottom),
           f"*NSET, NSET=CENTRE\n{nid(0, 0, nz)}", f"*NSET, NSET=REF\n{ref}",
           "*NSET, NSET=RADIAL", *id_lines(surface_nodes),
           "*SURFACE, NAME=TOP\nTOPLAYER, S2",
           "*SURFACE, TYPE=REVOLUTION, NAME=SPHERE", f"0., 0., {R:.12g}, 0., 0., {R + 1:.12g}",
           f"START, {R:.12g}, 0.", f"CIRCL, 0., {-R:.12g}, 0., 0.",
           "*RIGID BODY, ANALYTICAL SURFACE=SPHERE, REF NODE=REF",
           f"*MATERIAL, NAME=M\n*ELASTIC\n{E}, {nu}\n*DENSITY\n1.",
           "*SOLID SECTION, ELSET=BLOCK, MATERIAL=M", "1.",
           "*CONTACT", "*CONTACT INCLUSIONS", "TOP, SPHERE",
           *(["*CONTACT CONTROLS ASSIGNMENT, TYPE=SCALE PENALTY", f", , {a.penalty_scale:g}"]
             if a.penalty_scale != 1 else []),
           "*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP", f"0., 0., {a.time:.12g}, 1.",
           "*STEP", "*DYNAMIC, EXPLICIT", f", {a.time:.12g}",
           "*BOUNDARY", "X0, 1, 1", "Y0, 2, 2", "BOTTOM, 1, 3", "REF, 1, 2",
           "*BOUNDARY, AMPLITUDE=RAMP", f"REF, 3, 3, {-a.indent:.12g}",
           f"*OUTPUT, FIELD, TIME INTERVAL={a.time / 4:.12g}", "*NODE OUTPUT", "U",
           "*OUTPUT, HISTORY, TIME INTERVAL=" + f"{a.time / 200:.12g}", "*NODE OUTPUT, NSET=REF", "U, RF",
           "*NODE OUTPUT, NSET=CENTRE", "U", "*END STEP"]
    return "\n".join(out) + "\n"


def tube(a):
    c, h, L, e = a.side, a.thickness, a.length, a.size
    ns = max(2, round(c / e))
    nz = max(2, round(L / e))
    per = 4 * ns
    nid = lambda p, k: 1 + (p % per) + per * k
    nodes = []
    lam = 0.5 * c  # the trigger's length: the first fold's half wavelength
    for k in range(nz + 1):
        z = L * k / nz
        for p in range(per):
            side, i = divmod(p, ns)
            u = i / ns  # position along the side, 0 at its first corner
            s = -0.5 * c + c * u
            x, y = [(s, -0.5 * c), (0.5 * c, s), (-s, 0.5 * c), (-0.5 * c, -s)][side]
            if a.trigger > 0 and z > L - lam:
                # Walls y = +-c/2 dented in, x = +-c/2 out (the symmetric mode's first lobes).
                d = a.trigger * h * math.sin(math.pi * u) * math.sin(math.pi * (z - (L - lam)) / lam)
                if side in (0, 2):
                    y += d if y < 0 else -d
                else:
                    x += d if x > 0 else -d
            nodes.append(f"{nid(p, k)}, {x:.12g}, {y:.12g}, {z:.12g}")
    elems = []
    for k in range(nz):
        for p in range(per):
            elems.append(f"{1 + p + per * k}, {nid(p, k)}, {nid(p + 1, k)}, {nid(p + 1, k + 1)}, {nid(p, k + 1)}")
    ref = per * (nz + 1) + 1
    E, nu, rho, s0 = 210000.0, 0.3, 7.85e-9, a.yield_stress
    zp = L + 0.5 * h + 1e-3 * h
    t_end = a.crush / a.velocity
    pm = 13.06 * s0 * h ** (5.0 / 3.0) * c ** (1.0 / 3.0)
    # A fixed increment, a fraction of the undeformed shells' estimate (edge over the plate wave
    # speed, over sqrt 2): halfstep keeps the undeformed mesh's increment, and the folds
    # crushed against the plate shrink far below it.
    dt = a.dt_fraction * min(c / ns, L / nz) / math.sqrt(E / (rho * (1 - nu * nu))) / math.sqrt(2.0)
    out = [f"*HEADING\nsquare tube c = {c} mm, h = {h} mm, L = {L} mm, {len(elems)} S4R, crushed {a.crush} mm at "
           f"{a.velocity / 1000:g} m/s; Abramowicz & Jones 1984 mean force {pm:.6g} N",
           "*NODE", *nodes, f"{ref}, 0., 0., {zp:.12g}",
           "*ELEMENT, TYPE=S4R, ELSET=TUBE", *elems,
           "*NSET, NSET=BOTTOM", *id_lines([nid(p, 0) for p in range(per)]),
           f"*NSET, NSET=PLATE\n{ref}",
           *analytic_plane("PLATESURF", ref, (0.0, 0.0, zp), (0.0, 0.0, -1.0), (1.0, 0.0, 0.0), c),
           "*MATERIAL, NAME=STEEL", "*ELASTIC", f"{E}, {nu}", "*PLASTIC", f"{s0}, 0.", "*DENSITY", f"{rho}",
           "*SHELL SECTION, ELSET=TUBE, MATERIAL=STEEL", f"{h}, 5",
           "*INITIAL CONDITIONS, TYPE=VELOCITY", f"PLATE, 3, {-a.velocity:.12g}",
           *([] if a.no_contact else ["*CONTACT", "*CONTACT INCLUSIONS, ALL EXTERIOR"]),
           "*STEP", *(["*DYNAMIC, EXPLICIT", f", {t_end:.12g}"] if a.dt_fraction <= 0 else
                      ["*DYNAMIC, EXPLICIT, DIRECT USER CONTROL", f"{dt:.6g}, {t_end:.12g}"]),
           "*BOUNDARY", "BOTTOM, 1, 6", "PLATE, 1, 2",
           "*BOUNDARY, TYPE=VELOCITY", f"PLATE, 3, 3, {-a.velocity:.12g}",
           f"*OUTPUT, FIELD, TIME INTERVAL={t_end / a.frames:.12g}", "*NODE OUTPUT", "U", "*ELEMENT OUTPUT", "PEEQ",
           f"*OUTPUT, HISTORY, TIME INTERVAL={t_end / 400:.12g}", "*NODE OUTPUT, NSET=PLATE", "U, RF", "*END STEP"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case", choices=["bars", "slide", "impact", "press", "hertz", "tube", "crossed"])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--elements", type=int, default=200, help="bars: elements per bar; impact: per cube edge")
    ap.add_argument("--no-contact", action="store_true", help="impact, tube: leave the contact out (its cost)")
    ap.add_argument("--pair", action="store_true", help="bars, crossed: a contact pair instead of general contact")
    ap.add_argument("--no-edges", action="store_true", help="crossed: EDGES=NO (node-to-facet contact only)")
    ap.add_argument("--press", type=float, default=0.0,
                    help="crossed: instead of the impact, press bar A onto simply supported bar B with this force")
    ap.add_argument("--offset", type=float, default=0.0, help="crossed --press: bar A's position along bar B")
    ap.add_argument("--alpha", type=float, default=7.0, help="crossed --press: mass damping (default: about critical for B bending under A)")
    ap.add_argument("--wall", action="store_true", help="bars: one bar against a rigid analytical plane")
    ap.add_argument("--no-bulk-viscosity", action="store_true",
                    help="*BULK VISCOSITY 0, 0 in the explicit step (Abaqus's default 0.06, 1.2 otherwise)")
    ap.add_argument("--analytic", action="store_true", help="slide: the floor is a rigid analytical plane")
    ap.add_argument("--velocity", type=float, default=0.1, help="bars: speed of each bar")
    ap.add_argument("--frames", type=int, default=20, help="bars: field frames")
    ap.add_argument("--time-scale", type=float, default=1.0,
                    help="bars: the step time times this (a run slowed by mass scaling needs longer)")
    ap.add_argument("--vms-dt", type=float, default=0.0,
                    help="bars: *VARIABLE MASS SCALING, DT= this, TYPE=UNIFORM, FREQUENCY=20 in the step")
    ap.add_argument("--E", type=float, default=1000.0)
    ap.add_argument("--rho", type=float, default=1.0)
    ap.add_argument("--angle", type=float, default=30.0, help="slide: slope in degrees")
    ap.add_argument("--friction", type=float, default=0.3, help="slide: Coulomb coefficient")
    ap.add_argument("--time", type=float, default=None, help="slide: step time (0.3); hertz: the ramp (2.0)")
    ap.add_argument("--ramp", type=float, default=0.0,
                    help="slide: the loads rise over this time (smooth step; 0: at once)")
    ap.add_argument("--h0", type=float, default=0.01, help="hertz: smallest element edge")
    ap.add_argument("--depth", type=float, default=2.0, help="hertz: block size (quarter: W x W x W)")
    ap.add_argument("--indent", type=float, default=0.01, help="hertz: the sphere's travel")
    ap.add_argument("--element", default="C3D8", help="hertz: C3D8 or C3D8R")
    ap.add_argument("--penalty-scale", type=float, default=1.0, help="hertz: *CONTACT CONTROLS ASSIGNMENT scale")
    ap.add_argument("--side", type=float, default=50.0, help="tube: side (mid-surface), mm")
    ap.add_argument("--thickness", type=float, default=1.6, help="tube: wall thickness, mm")
    ap.add_argument("--length", type=float, default=200.0, help="tube: length, mm")
    ap.add_argument("--size", type=float, default=2.0, help="tube: element edge, mm")
    ap.add_argument("--crush", type=float, default=100.0, help="tube: the plate's travel, mm")
    ap.add_argument("--yield-stress", type=float, default=300.0, help="tube: flow stress s0, MPa")
    ap.add_argument("--trigger", type=float, default=0.1, help="tube: dent of the top walls / thickness")
    ap.add_argument("--dt-fraction", type=float, default=0.0,
                    help="tube: fixed increment as a fraction of the undeformed estimate (0: automatic)")
    a = ap.parse_args()
    if a.case == "tube" and a.velocity == 0.1:
        a.velocity = 10000.0  # 10 m/s in mm/s
    if a.case == "tube" and a.frames == 20:
        a.frames = 10
    if a.time is None:
        a.time = {"hertz": 2.0, "crossed": 1.0}.get(a.case, 0.3)  # hertz's ramp: several periods of the block
    ap_case = {"bars": bars, "slide": slide, "impact": impact, "press": press, "hertz": hertz, "tube": tube,
               "crossed": crossed}
    text = ap_case[a.case](a)
    if a.no_bulk_viscosity:  # after each explicit step's data line
        lines = text.split("\n")
        for k in range(len(lines) - 1, 0, -1):
            if lines[k - 1].upper().startswith("*DYNAMIC"):
                lines[k + 1:k + 1] = ["*BULK VISCOSITY", "0., 0."]
        text = "\n".join(lines)
    with open(a.output, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
