#!/usr/bin/env python3
"""Seed 004's strip peeling (issue 14): runs examples/generate_peeling_deck.py's strip for the
chosen meshes, and prints the end moment against the steady-state peeling moment of an
elastic strip, M_c = sqrt(2 D W): the energy M^2 / (2 D) released per unit length peeled
equals the Lennard-Jones law's work of adhesion W = 0.308277 A_H / (2 pi r0^2) (docs/theory.md,
"Adhesion"). D = E h^3 / (12 (1 - nu^2)) is the strip's plane-strain bending stiffness.
Writes OUT/peel<k>.csv (rotation in degrees, end moment, end displacement) for every mesh and,
with matplotlib, OUT/peeling.png.

Pass/fail: each run must complete (to --angle), and its plateau (the mean moment over the
last 10 degrees) must lie within the mesh's tolerance of M_c: about twice the error measured
on that mesh (docs/validation.md, "Strip peeling"), PLATEAU_TOLERANCE below, or --tolerance.
The script exits 1 when any mesh is off, 0 when all pass.

  validation/peeling.py --halfstep build/halfstep --meshes 1 2 --angle 120 --out out/peel
  validation/peeling.py --halfstep build-gpu/halfstep --backend cuda --meshes 1 2 3 4 5 6
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "examples", "generate_peeling_deck.py")

E, NU, H = 1.0, 0.2, 10.0
HAMAKER, R0 = 0.1, 0.4
D = E * H ** 3 / (12 * (1 - NU ** 2))
W = (15 ** (1 / 3) / 6 - 15 ** (4 / 3) / 360) * HAMAKER / (2 * math.pi * R0 ** 2)
M_C = math.sqrt(2 * D * W)

# Seed mesh -> allowed |plateau / M_c - 1| at the seed's 0.1-degree increment to 120 degrees
# with FACTOR=3.3e-7: twice the error measured (mesh 1 +0.25 %, 2 -0.05 %, 3 -0.08 %, 4 to 6
# -0.09 %). The coarse meshes' lattice trapping (+7.9 % at 80 x 4, +1.7 % at 160 x 8) is not a
# pass: --elements needs --tolerance.
PLATEAU_TOLERANCE = {1: 5e-3, 2: 1e-3, 3: 1.6e-3, 4: 2e-3, 5: 2e-3, 6: 2e-3}


def run(args, k, out):
    deck = os.path.join(out, f"peel{k}.inp")
    gen = [sys.executable, GEN, "--angle", str(args.angle), "--increment", str(args.increment), "-o", deck]
    gen += ["--elements", *map(str, args.elements)] if args.elements else ["--mesh", str(k)]
    if args.factor > 0:
        gen += ["--factor", str(args.factor)]
    elif args.stabilize > 0:
        gen += ["--stabilize", str(args.stabilize)]
    res = os.path.join(out, f"peel{k}")
    if args.reuse:  # the results of an earlier run into the same --out
        with open(os.path.join(res, "summary.json")) as f:
            status = json.load(f).get("status", "?")
    else:
        subprocess.run(gen, check=True)
        cmd = [args.halfstep, "run", deck, "-o", res, "--backend", args.backend]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        status = "completed" if r.returncode == 0 else "stopped: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    rows = []
    try:
        with open(os.path.join(res, "history", "RP.csv")) as f:
            for row in csv.DictReader(f):
                rows.append((float(row["time"]), float(row["RM3"]), float(row["U1"]), float(row["U2"])))
    except OSError:
        pass
    with open(os.path.join(out, f"peel{k}.csv"), "w") as f:
        f.write("rotation_deg,moment,u1,u2\n")
        for t, m, u1, u2 in rows:
            f.write(f"{t:.6g},{m:.9g},{u1:.9g},{u2:.9g}\n")
    summary = {}
    try:
        with open(os.path.join(res, "summary.json")) as f:
            summary = json.load(f).get("static", {})
    except OSError:
        pass
    return rows, status, summary


def report(k, rows, status, summary, last=10.0):
    """Prints the run's plateau; returns its error plateau / M_c - 1 (None: no rows)."""
    # The plateau: the moment over the last `last` degrees (the front runs there on the seed's
    # meshes from about 100 degrees); its mean, range and distance from M_c.
    if not rows:
        print(f"mesh {k}: {status}; no history rows")
        return None
    end = rows[-1][0]
    tail = [m for t, m, _, _ in rows if t >= end - last]
    plateau = sum(tail) / len(tail)
    print(f"mesh {k}: {status}; to {end:.1f} deg; over the last {last:g} deg the moment is {plateau:.4f} "
          f"({plateau / M_C - 1:+.2%} of M_c), from {min(tail):.4f} to {max(tail):.4f}")
    if summary:
        print(f"        {summary.get('increments')} increments, {summary.get('newton_iterations')} iterations, "
              f"{summary.get('cutbacks')} cut-backs, {summary.get('seconds', 0):.1f} s ({summary.get('engine', '')}); "
              f"element matrices {summary.get('element_matrix_seconds', 0):.1f} s, assembly "
              f"{summary.get('assembly_seconds', 0):.1f} s, factorization {summary.get('factor_seconds', 0):.1f} s; "
              f"stabilization energy {summary.get('stabilization_energy', 0):.3g}")
    return plateau / M_C - 1


def verdict(k, err, status, end, args):
    """Whether mesh k's run passes: completed, reached --angle, plateau within tolerance."""
    seed_settings = args.angle == 120 and args.increment == 0.1 and args.factor == 3.3e-7
    tol = args.tolerance if args.tolerance > 0 else PLATEAU_TOLERANCE.get(k) if seed_settings else None
    if tol is None:
        print(f"mesh {k}: FAIL: no tolerance measured for this mesh and these settings (give --tolerance)")
        return False
    problems = []
    if status != "completed":
        problems.append(status)
    if end is None or end < args.angle - 1e-6:
        problems.append(f"stopped at {end} deg, not {args.angle:g}")
    if err is None or not abs(err) <= tol:
        problems.append(f"plateau {err if err is None else f'{err:+.3%}'} of M_c, allowed {tol:.2%}")
    if problems:
        print(f"mesh {k}: FAIL: " + "; ".join(problems))
        return False
    print(f"mesh {k}: pass (plateau {err:+.3%} of M_c within {tol:.2%})")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--halfstep", required=True)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--meshes", type=int, nargs="+", default=[1])
    ap.add_argument("--elements", type=int, nargs=2, help="one mesh of NX x NY elements instead of the seed's")
    ap.add_argument("--angle", type=float, default=120.0)
    ap.add_argument("--increment", type=float, default=0.1)
    # The damping factor: STABILIZE=1e-6 on seed mesh 1's first 0.5-degree increment chose
    # 3.3e-7; a fraction would choose 5x more on a 0.1-degree first increment (c is judged on
    # the first increment's energy, mostly adhesion, over its viscous work, which scales with
    # the increment), so the factor is given.
    ap.add_argument("--factor", type=float, default=3.3e-7, help="STABILIZE, FACTOR= (0: use --stabilize)")
    ap.add_argument("--stabilize", type=float, default=1e-6, help="STABILIZE= fraction, with --factor 0")
    ap.add_argument("--out", default="out/peeling")
    ap.add_argument("--tolerance", type=float, default=0.0,
                    help="allowed |plateau / M_c - 1| (default: the seed mesh's, PLATEAU_TOLERANCE, measured "
                         "at the default angle, increment and factor)")
    ap.add_argument("--reuse", action="store_true", help="check the results already in --out instead of running")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"steady-state peeling moment M_c = sqrt(2 D W) = {M_C:.4f} nN nm/nm (D = {D:.3f}, W = {W:.6f})")
    curves = {}
    passed = True
    for k in ([0] if args.elements else args.meshes):
        rows, status, summary = run(args, k, args.out)
        err = report(k if not args.elements else f"{args.elements[0]}x{args.elements[1]}", rows, status, summary)
        passed &= verdict(k if not args.elements else None, err, status, rows[-1][0] if rows else None, args)
        curves[k] = rows
    plot(curves, args)
    return 0 if passed else 1


def plot(curves, args):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: no plot)")
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, rows in curves.items():
        ax.plot([r[0] for r in rows], [r[1] for r in rows], lw=1, label=f"mesh {k}" if k else "mesh")
    ax.axhline(M_C, color="k", ls="--", lw=0.8, label="sqrt(2 D W)")
    ax.set_xlabel("end rotation (degrees)")
    ax.set_ylabel("end moment (nN nm per nm)")
    ax.set_title("Strip peeling (seed 004): NURBS degree 2, Lennard-Jones adhesion")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "peeling.png"), dpi=120)
    print(f"plot: {os.path.join(args.out, 'peeling.png')}")


if __name__ == "__main__":
    sys.exit(main())
