#!/usr/bin/env python3
"""Benchmark: strong and weak scaling of distributed runs (mpirun, one GPU or one share of the
cores per rank) on the seed's pinched cylinder (MITC4) and on a C3D8R bar.

Strong scaling: the same model (--elements, default 10M) on each rank count. Weak scaling:
--elements / 4 per rank. Every run does about --steps increments (the step time is set from
the stable increment of a small deck with the same element size). Reported per run, from
summary.json: solve seconds (time loop only; reading the deck and building the subdomains
are not in it), element-steps/s, parallel efficiency against one rank, and each rank's
communication share (exchange + reductions, wall seconds over the solve).

Usage: python3 bench/scaling_bench.py [--build build] [--ranks 1 2 4] [--elements 10e6]
           [--steps 400] [--models cylinder bar] [--backend cuda] [--mpirun mpirun] [--out DIR]
Writes a markdown table to stdout and <out>/scaling_bench.json.
"""
import argparse, json, math, os, re, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN_SHELL = os.path.join(ROOT, "examples", "generate_deck.py")


def stable_increment(exe, deck):
    out = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"stable increment[^\d]*([\d.eE+-]+)", out).group(1))


def cylinder_deck(exe, elements, steps, out, wait=True):
    """Pinched cylinder, 2N x N MITC4 (N from the element count), fixed increment 0.8 x the
    solver's stable estimate (area over longest diagonal / plate wave speed, computed here:
    it equals `halfstep check`'s to the printed digits). Returns (deck, elements, process)."""
    del exe
    n = max(8, int(round(math.sqrt(elements / 2))))
    R, L, E, nu, rho = 1.016, 3.048, 2.0685e7, 0.3, 1000.0
    a, b = 2 * R * math.sin(math.pi / (2 * n)), L / n
    dt = 0.8 * a * b / math.hypot(a, b) / math.sqrt(E / (rho * (1 - nu * nu)))
    deck = os.path.join(out, f"cyl_{n}.inp")
    proc = None
    if not os.path.exists(deck):
        proc = subprocess.Popen([sys.executable, GEN_SHELL, "pinched-cylinder", "--n", str(n), "--dt", repr(dt),
                                 "--time", repr(steps * dt), "--field-interval", "0", "--history-interval",
                                 repr(steps * dt / 4), "-o", deck + ".tmp"], stdout=subprocess.DEVNULL)
        if wait:
            finish(proc, deck)
            proc = None
    return deck, 2 * n * n, proc


def finish(proc, deck):
    if proc.wait() != 0:
        raise SystemExit("deck generation failed: " + deck)
    os.replace(deck + ".tmp", deck)


def _bar_rows(args):
    """Text of node rows (kind 0) or element rows (kind 1) [lo, hi) of the bar deck."""
    import numpy as np
    kind, lo, hi, nx, ny, h = args
    r = np.arange(lo, hi)
    if kind == 0:
        i, j, k = r % (nx + 1), (r // (nx + 1)) % (ny + 1), r // ((nx + 1) * (ny + 1))
        rows = np.column_stack([r + 1, i * h, j * h, k * h])
        fmt = "%d, %.9g, %.9g, %.9g"
    else:
        i, j, k = r % nx, (r // nx) % ny, r // (nx * ny)
        n0 = i + (nx + 1) * (j + (ny + 1) * k) + 1
        dx, dy, dz = 1, nx + 1, (nx + 1) * (ny + 1)
        rows = np.column_stack([r + 1, n0, n0 + dx, n0 + dx + dy, n0 + dy, n0 + dz, n0 + dx + dz, n0 + dx + dy + dz,
                                n0 + dy + dz])
        fmt = "%d, %d, %d, %d, %d, %d, %d, %d, %d"
    import io
    buf = io.StringIO()
    np.savetxt(buf, rows, fmt=fmt)
    return buf.getvalue()


def write_bar(path, nx, ny, nz, h, period):
    """C3D8R bar of nx x ny x nz cubes of side h along x, clamped at x = 0 and pulled at x = L
    (SMOOTH STEP over the step). Rows are formatted in parallel: the example generator takes
    minutes at 10M elements."""
    from multiprocessing import Pool
    L = nx * h
    nn, ne = (nx + 1) * (ny + 1) * (nz + 1), nx * ny * nz
    chunk = 200000
    jobs = [(0, lo, min(nn, lo + chunk), nx, ny, h) for lo in range(0, nn, chunk)]
    jobs += [(1, lo, min(ne, lo + chunk), nx, ny, h) for lo in range(0, ne, chunk)]
    with open(path, "w") as f, Pool() as pool:
        f.write("*HEADING\nscaling bench bar %d x %d x %d C3D8R\n*NODE, NSET=ALL\n" % (nx, ny, nz))
        for n, text in enumerate(pool.imap(_bar_rows, jobs)):
            if jobs[n][0] == 1 and jobs[n][1] == 0:
                f.write("*ELEMENT, TYPE=C3D8R, ELSET=SOLID\n")
            f.write(text)
        f.write("*NSET, NSET=X0, GENERATE\n1, %d, %d\n" % (nn - nx, nx + 1))
        f.write("*NSET, NSET=XL, GENERATE\n%d, %d, %d\n" % (nx + 1, nn, nx + 1))
        f.write("*NSET, NSET=TIP\n%d\n" % (nx + 1))
        f.write("*MATERIAL, NAME=MAT\n*ELASTIC\n1000, 0.3\n*DENSITY\n1\n")
        f.write("*SOLID SECTION, ELSET=SOLID, MATERIAL=MAT\n")
        f.write("*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP\n0, 0, %.9g, 1\n" % period)
        f.write("*STEP, NAME=Pull\n*DYNAMIC, EXPLICIT\n, %.9g\n" % period)
        f.write("*BOUNDARY\nX0, ENCASTRE\n*BOUNDARY, AMPLITUDE=RAMP\nXL, 1, 1, %.9g\n" % (0.001 * L))
        f.write("*OUTPUT, HISTORY, TIME INTERVAL=%.9g\n*NODE OUTPUT, NSET=TIP\nU\n*END STEP\n" % (period / 4))


def bar_deck(exe, elements, steps, out, wait=True):
    """C3D8R bar, 160 x 160 cells across, length from the element count (cubic cells)."""
    ny = 160
    nx = max(4, int(round(elements / (ny * ny))))
    h = 4.0 / ny
    probe = os.path.join(out, "bar_probe.inp")
    write_bar(probe, 4, 4, 4, h, 1.0)
    dt = 0.9 * stable_increment(exe, probe)
    deck = os.path.join(out, f"bar_{nx}x{ny}x{ny}.inp")
    if not os.path.exists(deck):
        write_bar(deck + ".tmp", nx, ny, ny, h, steps * dt)
        os.replace(deck + ".tmp", deck)
    return deck, nx * ny * ny, None


def run(exe, mpirun, deck, ranks, backend, outdir):
    cmd = [exe, "run", deck, "-o", outdir, "--quiet", "--backend", backend]
    if ranks > 1:
        cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "-np", str(ranks)] + cmd
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - t0
    if r.returncode != 0:
        print(f"run failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-3000:]}", file=sys.stderr)
        return None
    s = json.load(open(os.path.join(outdir, "summary.json")))
    d = s.get("distributed", {})
    return {"ranks": ranks, "elements": s["elements"], "steps": s["steps"], "solve_seconds": s["solve_seconds"],
            "wall_seconds": wall, "element_steps_per_second": s["element_steps_per_second"],
            "step_ms": 1e3 * s["solve_seconds"] / max(1, s["steps"]),
            "elements_per_rank": d.get("elements_per_rank", [s["elements"]]),
            "comm_share": d.get("communication_share_of_solve", [0.0]),
            "transport": d.get("interface_transport", "-"), "backend": s["backend_description"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--elements", type=float, default=10e6)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--models", nargs="+", default=["cylinder", "bar"], choices=["cylinder", "bar"])
    ap.add_argument("--backend", default="cuda", choices=["cpu", "cuda"])
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--weak", action="store_true", help="also weak scaling (elements / max ranks per rank)")
    ap.add_argument("--prepare", action="store_true", help="only generate the shell decks (no binary needed)")
    ap.add_argument("--out", default="bench-results/scaling")
    a = ap.parse_args()
    exe = os.path.join(a.build, "halfstep")
    os.makedirs(a.out, exist_ok=True)
    plan = []
    for model in a.models:
        plan += [(model, "strong", a.elements, r) for r in a.ranks]
        if a.weak:  # same elements per rank; the largest is the strong run's model
            plan += [(model, "weak", a.elements / max(a.ranks) * r, r) for r in a.ranks if r != max(a.ranks)]
    if a.prepare:  # shell decks need no binary: generate them all at once, in parallel
        procs = [cylinder_deck(exe, e, a.steps, a.out, wait=False) for m, _, e, _ in plan if m == "cylinder"]
        for deck, _, p in procs:
            if p:
                finish(p, deck)
        return
    rows = []
    for model, kind, elements, ranks in plan:
        make = cylinder_deck if model == "cylinder" else bar_deck
        deck, ne, _ = make(exe, elements, a.steps, a.out)
        res = run(exe, a.mpirun, deck, ranks, a.backend, os.path.join(a.out, f"run_{model}_{ne}_{ranks}"))
        if res:
            res.update({"model": model, "series": kind})
            rows.append(res)
            print(json.dumps(res), flush=True)
    if a.weak:  # the largest strong run is also the last point of the weak series
        rows += [dict(r, series="weak") for r in list(rows) if r["series"] == "strong" and r["ranks"] == max(a.ranks)]
    rows.sort(key=lambda r: (r["model"], r["series"], r["ranks"]))
    print("\n| model | series | elements | ranks | increments | solve s | ms/increment | element-steps/s | "
          "efficiency | comm share per rank | transport |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        base = next((b for b in rows if b["model"] == r["model"] and b["series"] == r["series"] and
                     b["ranks"] == min(a.ranks)), None)
        eff = "-"
        if base:
            if r["series"] == "strong":
                eff = f"{base['step_ms'] * base['ranks'] / (r['ranks'] * r['step_ms']):.1%}"
            else:  # same work per rank: time per increment should stay
                eff = f"{base['step_ms'] / r['step_ms']:.1%}"
        share = " / ".join(f"{c:.1%}" for c in r["comm_share"])
        print(f"| {r['model']} | {r['series']} | {r['elements']:,} | {r['ranks']} | {r['steps']} | "
              f"{r['solve_seconds']:.3f} | {r['step_ms']:.3f} | {r['element_steps_per_second']:.3e} | {eff} | "
              f"{share} | {r['transport']} |")
    json.dump({"machine": os.uname().nodename, "rows": rows}, open(os.path.join(a.out, "scaling_bench.json"), "w"),
              indent=2)


if __name__ == "__main__":
    main()
