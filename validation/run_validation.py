#!/usr/bin/env python3
"""Slow validations that do not fit the CI budget: run them, print measured vs reference.

    python3 validation/run_validation.py [--halfstep build/halfstep] [--quick] [--only NAME ...]

Cases (all through the CLI with decks from examples/generate_deck.py):
  obstacle   linear shell obstacle course: Scordelis-Lo roof, pinched cylinder with rigid
             diaphragms, pinched hemisphere. The solver is geometrically nonlinear, so the
             loads are scaled by 1e-3 (--load-factor) and the displacements divided by it.
  sze37      pinched semi-cylinder (Sze, Liu & Lo 2004, 3.7; the seed's pinched cylinder):
             -W at the load point at every tabulated P/Pmax. One run: the load climbs from
             plateau to plateau and is held on each until the motion has died out (dynamic
             relaxation); the history sample at the end of each plateau is the static point.
Prints a table and writes validation/results.json; exits 1 if a case misses its tolerance.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GEN = os.path.join(ROOT, "examples", "generate_deck.py")


def generate(case, path, *opts):
    subprocess.run([sys.executable, GEN, case, "-o", path, "--field-interval", "0", *opts],
                   check=True, stderr=subprocess.DEVNULL)


def run(halfstep, deck, out, threads):
    t0 = time.time()
    subprocess.run([halfstep, "run", deck, "-o", out, "--quiet", "--threads", str(threads)], check=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return time.time() - t0, summary


def history(out, nset):
    """Rows of history/<nset>.csv as dicts of floats."""
    with open(os.path.join(out, "history", nset + ".csv")) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def obstacle_course(args, work):
    factor = 1e-3
    n = {"scordelis-lo": 8 if args.quick else 32,
         "pinched-cylinder-diaphragm": 16 if args.quick else 48,
         "pinched-hemisphere": 8 if args.quick else 24}
    cases = [  # (case, history set, component, sign, reference, what)
        ("scordelis-lo", "MIDEDGE", "U3", -1, 0.3024, "free-edge midpoint vertical deflection"),
        ("pinched-cylinder-diaphragm", "LOADPT", "U3", -1, 1.8249e-5, "radial deflection under the load"),
        ("pinched-hemisphere", "A", "U1", 1, 0.094, "radial deflection at A"),
    ]
    rows = []
    for case, nset, comp, sign, ref, what in cases:
        deck = os.path.join(work, case + ".inp")
        out = os.path.join(work, case)
        generate(case, deck, "--n", str(n[case]), "--load-factor", repr(factor))
        secs, summary = run(args.halfstep, deck, out, args.threads)
        value = sign * history(out, nset)[-1][comp] / factor
        rows.append({"problem": case, "mesh": "%d x %d" % (n[case], n[case]), "quantity": what,
                     "measured": value, "reference": ref, "error": value / ref - 1, "tolerance": 0.03,
                     "elements": summary["elements"], "seconds": secs})
    return rows


def plateau_amplitude(fractions, rise, hold):
    """TABULAR amplitude climbing to each fraction in `rise` and holding it for `hold`."""
    pts, t, ends = [(0.0, 0.0)], 0.0, []
    for fr in fractions:
        t += rise
        pts.append((t, fr))
        t += hold
        pts.append((t, fr))
        ends.append(t)
    return pts, ends


def sze37(args, work):
    with open(os.path.join(HERE, "data", "sze2004_3-7_pinched_semicylinder.csv")) as f:
        table = [(float(r["P_over_Pmax"]), float(r["minus_W_A"])) for r in csv.DictReader(f)]
    table = [(p, w) for p, w in table if p > 0]
    n = 12 if args.quick else 32
    rise, hold = 0.5, 2.5
    pts, ends = plateau_amplitude([p for p, _ in table], rise, hold)
    period = ends[-1]
    deck = os.path.join(work, "sze37.inp")
    out = os.path.join(work, "sze37")
    generate("pinched-semicylinder", deck, "--n", str(n), "--time", repr(period), "--history-interval", repr(hold / 25))
    lines = open(deck).read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.upper().startswith("*AMPLITUDE, NAME=LOADAMP"))
    j = i + 1
    while j < len(lines) and not lines[j].startswith("*"):
        j += 1
    data = ["%r, %r" % p for p in pts]
    lines[i + 1:j] = data
    with open(deck, "w") as f:
        f.write("\n".join(lines))
    secs, summary = run(args.halfstep, deck, out, args.threads)
    hist = history(out, "LOADPT")
    rows = []
    for (frac, ref), t_end in zip(table, ends):
        sample = min(hist, key=lambda r: abs(r["time"] - t_end))
        value = -sample["U3"]
        rows.append({"problem": "sze37", "mesh": "%d x %d (half model)" % (n, n), "quantity": "-W at P/Pmax = %g" % frac,
                     "measured": value, "reference": ref, "error": value / ref - 1, "tolerance": 0.03,
                     "elements": summary["elements"], "seconds": secs})
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--halfstep", default=os.path.join(ROOT, "build", "halfstep"))
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--quick", action="store_true", help="coarse meshes (a smoke test of the script; tolerances will fail)")
    p.add_argument("--only", nargs="*", choices=["obstacle", "sze37"])
    p.add_argument("--keep", help="directory for decks and results (default: a temporary one)")
    args = p.parse_args()
    todo = args.only or ["obstacle", "sze37"]
    work = args.keep or tempfile.mkdtemp(prefix="halfstep-validation-")
    os.makedirs(work, exist_ok=True)
    rows = []
    if "obstacle" in todo:
        rows += obstacle_course(args, work)
    if "sze37" in todo:
        rows += sze37(args, work)
    print("| problem | mesh | quantity | measured | reference | error | tolerance |")
    print("|---|---|---|---|---|---|---|")
    failed = 0
    for r in rows:
        ok = abs(r["error"]) <= r["tolerance"]
        failed += not ok
        print("| %s | %s | %s | %.5g | %.5g | %+.2f %% | %g %%%s |" % (
            r["problem"], r["mesh"], r["quantity"], r["measured"], r["reference"], 100 * r["error"],
            100 * r["tolerance"], "" if ok else " FAIL"))
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    print("%d of %d within tolerance (work files in %s)" % (len(rows) - failed, len(rows), work))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
