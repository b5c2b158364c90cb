#!/usr/bin/env python3
"""Issue 48's static comparison: the same cantilever decks run by halfstep and by CalculiX
(`ccx`, where it is on the PATH), one thread each (or all cores with --threads all), the
median wall time of --repeat runs, the peak memory, and the tip deflections side by side.

Each deck is a block cantilever L x W x H clamped at x = 0 with a transverse load on the
x = L face, written here so that both programs read it unchanged: C3D8, C3D20R or C3D4 (the
C3D4 mesh splits each cell into 6 tetrahedra), a linear *STATIC step, or NLGEOM=YES with
*STATIC, DIRECT and the same fixed increments in both (so both factor the same number of
times per increment that Newton needs, and neither chooses its own increments).

    bench/static_vs_ccx.py --halfstep build/halfstep [--repeat 3] [--threads 1|all]
                           [--case NAME ...] [--list] [--keep DIR]

Prints one line per case: equations, halfstep and ccx seconds (median), their ratio
(ccx / halfstep: above 1, halfstep is faster), peak resident memory of each (MB), and the
tip deflections' relative difference. Cases (issue 48's table; --list shows them):
c3d8-31k, c3d8-133k, c3d20r-37k, c3d20r-118k, c3d8-31k-nl, c3d4-500k, and small ones for a
quick check (c3d8-small, c3d8-small-nl, c3d20r-small, c3d4-small).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# name: (element, nx, ny, nz, L, W, H, nlgeom increments (0: linear), load)
CASES = {
    "c3d8-small": ("C3D8", 40, 4, 4, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d8-small-nl": ("C3D8", 40, 4, 4, 10.0, 1.0, 1.0, 4, 300.0),
    "c3d20r-small": ("C3D20R", 20, 2, 2, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d4-small": ("C3D4", 20, 3, 3, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d8-31k": ("C3D8", 100, 10, 9, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d8-133k": ("C3D8", 160, 16, 16, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d20r-37k": ("C3D20R", 60, 6, 6, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d20r-118k": ("C3D20R", 90, 9, 9, 10.0, 1.0, 1.0, 0, 10.0),
    "c3d8-31k-nl": ("C3D8", 100, 10, 9, 10.0, 1.0, 1.0, 8, 300.0),
    "c3d4-500k": ("C3D4", 160, 16, 16, 10.0, 1.0, 1.0, 0, 10.0),
}
E, NU = 2.0e5, 0.3


def node_grid(nx, ny, nz, L, W, H, quadratic):
    """Nodes of the block (ids from 1), as {(i, j, k): id} on a grid of step 1 (linear) or 1/2
    (quadratic: the indices run over twice the cells, corners at even ones), and their lines."""
    m = 2 if quadratic else 1
    ids, lines = {}, []
    nid = 0
    for k in range(m * nz + 1):
        for j in range(m * ny + 1):
            for i in range(m * nx + 1):
                if quadratic and sum(1 for v in (i, j, k) if v % 2) > 1:
                    continue  # a C3D20 grid has no face or body centres
                nid += 1
                ids[(i, j, k)] = nid
                lines.append(f"{nid}, {L * i / (m * nx):.12g}, {W * j / (m * ny):.12g}, {H * k / (m * nz):.12g}")
    return ids, lines


def write_deck(path, element, nx, ny, nz, L, W, H, increments, load):
    quadratic = element == "C3D20R"
    ids, lines = node_grid(nx, ny, nz, L, W, H, quadratic)
    out = ["*HEADING", f"cantilever {element} {nx}x{ny}x{nz} (bench/static_vs_ccx.py)", "*NODE"] + lines
    out.append(f"*ELEMENT, TYPE={element}, ELSET=BLOCK")
    eid = 0
    m = 2 if quadratic else 1
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                c = lambda a, b, d: ids[(m * i + a, m * j + b, m * k + d)]
                if element == "C3D8":
                    eid += 1
                    nodes = [c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(0, 1, 0), c(0, 0, 1), c(1, 0, 1), c(1, 1, 1), c(0, 1, 1)]
                    out.append(f"{eid}, " + ", ".join(map(str, nodes)))
                elif element == "C3D20R":
                    eid += 1
                    corners = [c(0, 0, 0), c(2, 0, 0), c(2, 2, 0), c(0, 2, 0), c(0, 0, 2), c(2, 0, 2), c(2, 2, 2), c(0, 2, 2)]
                    mids = [c(1, 0, 0), c(2, 1, 0), c(1, 2, 0), c(0, 1, 0), c(1, 0, 2), c(2, 1, 2), c(1, 2, 2), c(0, 1, 2),
                            c(0, 0, 1), c(2, 0, 1), c(2, 2, 1), c(0, 2, 1)]
                    nodes = corners + mids
                    out.append(f"{eid}, " + ", ".join(map(str, nodes[:15])) + ",")
                    out.append(", ".join(map(str, nodes[15:])))
                else:  # C3D4: the cell's 6 tetrahedra around its 0-6 diagonal
                    v = [c(0, 0, 0), c(1, 0, 0), c(1, 1, 0), c(0, 1, 0), c(0, 0, 1), c(1, 0, 1), c(1, 1, 1), c(0, 1, 1)]
                    for a, b in ((1, 2), (2, 3), (3, 7), (7, 4), (4, 5), (5, 1)):
                        eid += 1
                        out.append(f"{eid}, {v[0]}, {v[a]}, {v[b]}, {v[6]}")
    mx = m * nx
    root = [n for (i, j, k), n in ids.items() if i == 0]
    tip = [n for (i, j, k), n in ids.items() if i == mx]
    centre = ids.get((mx, (m * ny) // 2, (m * nz) // 2)) or tip[len(tip) // 2]

    def nset(name, nodes):
        rows = [", ".join(map(str, nodes[i:i + 16])) for i in range(0, len(nodes), 16)]
        return [f"*NSET, NSET={name}"] + rows

    out += nset("ROOT", root) + nset("TIP", tip) + nset("CENTRE", [centre])
    out += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{E}, {NU}", "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL"]
    out += ["*BOUNDARY", "ROOT, 1, 3"]
    if increments:
        out += ["*STEP, NLGEOM=YES, INC=1000", "*STATIC, DIRECT", f"{1.0 / increments:.12g}, 1."]
    else:
        out += ["*STEP", "*STATIC"]
    out += ["*CLOAD", f"TIP, 3, {load / len(tip):.12g}", "*NODE PRINT, NSET=CENTRE", "U", "*END STEP"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return len(ids)


def last_u3(dat):
    """The last displacement row's third component in a .dat file (both programs' layout)."""
    value = None
    with open(dat) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if "displacements" in line:
            for row in lines[i + 1:]:
                parts = row.split()
                if len(parts) == 4 and re.match(r"^\d+$", parts[0]):
                    value = float(parts[3])
                    break
    return value


def timed(cmd, cwd, env):
    """Wall seconds and peak resident MB of one run (GNU time), and its return code."""
    t = subprocess.run(["/usr/bin/time", "-f", "HSBENCH %e %M"] + cmd, cwd=cwd, env=env, capture_output=True, text=True)
    m = re.search(r"HSBENCH ([0-9.]+) ([0-9]+)", t.stderr)
    if t.returncode != 0 or not m:
        sys.stderr.write(f"static_vs_ccx: {' '.join(cmd)} failed (exit {t.returncode}):\n{t.stdout[-2000:]}{t.stderr[-2000:]}\n")
        return None, None
    return float(m.group(1)), int(m.group(2)) / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--halfstep", required=True)
    ap.add_argument("--case", nargs="+", default=["c3d8-small", "c3d8-small-nl", "c3d20r-small", "c3d4-small"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", default="1", help="1 (default) or all")
    ap.add_argument("--keep", help="write decks and results here instead of a temporary folder")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list:
        for k, v in CASES.items():
            print(f"{k:14s} {v[0]:7s} {v[1]}x{v[2]}x{v[3]} cells, {'NLGEOM, %d increments' % v[7] if v[7] else 'linear'}")
        return 0
    for c in a.case:
        if c not in CASES:
            ap.error(f"unknown case '{c}' (--list shows them)")
    threads = os.cpu_count() if a.threads == "all" else int(a.threads)
    halfstep = os.path.realpath(a.halfstep)
    ccx = shutil.which("ccx")
    work = os.path.realpath(a.keep or tempfile.mkdtemp(prefix="static_vs_ccx_"))
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS="1", CCX_NPROC_EQUATION_SOLVER=str(threads))
    print(f"threads {threads}, median of {a.repeat}; ccx: {ccx or 'not installed'}; folder {work}")
    print(f"{'case':14s} {'dofs':>8s} {'halfstep_s':>10s} {'ccx_s':>8s} {'ratio':>6s} {'hs_MB':>7s} {'ccx_MB':>7s} {'tip_diff':>9s}")
    for name in a.case:
        el, nx, ny, nz, L, W, H, inc, load = CASES[name]
        deck = os.path.join(work, name + ".inp")
        nodes = write_deck(deck, el, nx, ny, nz, L, W, H, inc, load)
        hs_t, hs_m, cx_t, cx_m = [], [], [], []
        for r in range(a.repeat):
            t, m = timed([halfstep, "run", deck, "-o", os.path.join(work, name + "_hs"), "--backend", "cpu", "--dialect", "calculix", "--threads",
                          str(threads)], work, env)
            if t is not None:
                hs_t.append(t)
                hs_m.append(m)
            if ccx:
                t, m = timed([ccx, "-i", name], work, env)
                if t is not None:
                    cx_t.append(t)
                    cx_m.append(m)
        u_hs = last_u3(os.path.join(work, name + "_hs", name + ".dat")) if hs_t else None
        u_cx = last_u3(os.path.join(work, name + ".dat")) if cx_t else None
        hs = statistics.median(hs_t) if hs_t else float("nan")
        cx = statistics.median(cx_t) if cx_t else float("nan")
        diff = abs(u_hs - u_cx) / abs(u_cx) if u_hs is not None and u_cx else float("nan")
        print(f"{name:14s} {3 * nodes:8d} {hs:10.2f} {cx:8.2f} {cx / hs:6.2f} {max(hs_m, default=float('nan')):7.0f} "
              f"{max(cx_m, default=float('nan')):7.0f} {diff:9.2e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
