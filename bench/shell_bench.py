#!/usr/bin/env python3
"""Benchmark: element-steps per second of the MITC4 explicit solver on the seed's pinched
cylinder (2N x N closed mesh) at several sizes, per backend (CPU with 1, 2, ... threads; CUDA),
and the host bytes per element from `halfstep check`.

Usage: python3 bench/shell_bench.py [--build build] [--sizes 16 32 64] [--steps 2000]
                                    [--backends cpu cuda] [--threads 1 2] [--out bench-results]
                                    [--schemes atomic gather colored element-local]
                                    [--precisions double single]
Writes a table to stdout and <out>/shell_bench.json. Timings are the time loop as reported in
summary.json (solve_seconds: increments and the two output samples, not the deck reading).
"""
import argparse, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


_increment_64 = {}


def automatic_increment(exe, out, triangles):
    """The solver's automatic increment (stable estimate x safety factor) of the N = 64
    cylinder, from `halfstep check`; computed once per run of this script."""
    if triangles not in _increment_64:
        deck = os.path.join(out, "cyl_64_probe.inp")
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "generate_deck.py"), "pinched-cylinder",
                        "--n", "64", "--time", "1e-3", "-o", deck] + (["--triangles"] if triangles else []),
                       check=True, stdout=subprocess.DEVNULL)
        check = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
        _increment_64[triangles] = float(re.search(r"increment ([\d.e+-]+) \(stable", check).group(1))
        os.remove(deck)
    return _increment_64[triangles]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 32, 64, 128])
    ap.add_argument("--steps", type=int, default=2000, help="increments per run")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="CPU thread counts")
    ap.add_argument("--backends", nargs="+", default=["cpu"], choices=["cpu", "cuda"])
    ap.add_argument("--out", default="bench-results")
    ap.add_argument("--schemes", nargs="+", default=["atomic"],
                    choices=["atomic", "gather", "colored", "element-local"], help="GPU schemes")
    ap.add_argument("--precisions", nargs="+", default=["double"], choices=["double", "single"])
    ap.add_argument("--triangles", action="store_true",
                    help="FPM triangles (S3, FORMULATION=FPM): every quad split into two, same nodes")
    ap.add_argument("--load", type=float,
                    help="point load per pinch (default the generator's 500); 50 M-element meshes need a small "
                         "one: their loaded node's mass is 50x smaller and 500 inverts its elements in ~20 increments")
    ap.add_argument("--yield-stress", type=float,
                    help="bilinear *PLASTIC with this yield stress (J2 through the thickness; 5 section points)")
    ap.add_argument("--cpu-steps", type=int, default=0, help="increments of the CPU runs (default --steps)")
    ap.add_argument("--fpm-kernels", nargs="+", default=["fused"], choices=["fused", "split"],
                    help="GPU runs of FPM triangles: one kernel per element (fused) and/or seed 003's three (split)")
    ap.add_argument("--shell-kernels", nargs="+", default=["auto"], choices=["auto", "thread", "split"],
                    help="GPU runs of elastic MITC4: one thread per element and/or four (--shell-kernel)")
    ap.add_argument("--run-args", default="", help="more options for every run (e.g. '--renumber on')")
    a = ap.parse_args()
    exe = os.path.join(a.build, "halfstep")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for n in a.sizes:
        deck = os.path.join(a.out, f"cyl_{n}.inp")
        extra = ["--triangles"] if a.triangles else []
        if a.load is not None:
            extra += ["--load", str(a.load)]
        if a.yield_stress:
            extra += ["--yield-stress", str(a.yield_stress), "--hardening", "2.0685e5"]  # 1 % of E

        def generate(dt, steps):
            subprocess.run([sys.executable, os.path.join(ROOT, "examples", "generate_deck.py"), "pinched-cylinder",
                            "--n", str(n), "--dt", str(dt), "--time", str(steps * dt), "--field-interval", "1",
                            "--history-interval", str(steps * dt), "-o", deck] + extra,
                           check=True, stdout=subprocess.DEVNULL)

        # The MITC4 rows take a fixed increment just below the mesh's limit (rates do not depend
        # on it, but a larger one blows up: the seed's 1.2761e-5 already does at N = 1280). The
        # cylinder's element size goes as 1/N, and so does the solver's increment: it is read
        # from `halfstep check` of a 64-cell deck once and scaled.
        dt = automatic_increment(exe, a.out, a.triangles) * 64 / n
        generate(dt, a.steps)
        check = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
        if a.triangles:  # the triangles' own stable increment (smaller than MITC4's), fixed
            dt = 0.9 * float(re.search(r"stable increment ([\d.e+-]+)", check).group(1))
            generate(dt, a.steps)
            check = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
        elements = int(re.search(r"elements\s+(\d+)", check).group(1))
        per_elem = float(re.search(r"\(([\d.]+) bytes per element\)", check).group(1))
        runs = [("cpu", t, "-", "double") for t in a.threads if "cpu" in a.backends]
        if "cuda" in a.backends:
            runs += [("cuda", 1, (sc if k == "fused" else sc + "+split") + ("" if sk == "auto" else "/" + sk), p)
                     for sc in a.schemes for k in a.fpm_kernels for sk in a.shell_kernels for p in a.precisions]
        deck_steps = a.steps
        for backend, t, scheme, prec in runs:
            want = a.cpu_steps if a.cpu_steps and backend == "cpu" else a.steps
            if want != deck_steps:  # writing a million-element deck takes tens of seconds
                generate(dt, want)
                deck_steps = want
            outdir = os.path.join(a.out, f"run_{n}_{backend}_{t}_{scheme.replace('/', '-')}_{prec}")
            cmd = [exe, "run", deck, "-o", outdir, "--backend", backend, "--threads", str(t), "--quiet"]
            if backend == "cuda":
                base, _, kernel = scheme.partition("/")
                cmd += ["--gpu-scheme", base.split("+")[0], "--precision", prec]
                if base.endswith("+split"):
                    cmd += ["--fpm-kernels", "split"]
                if kernel:
                    cmd += ["--shell-kernel", kernel]
            cmd += a.run_args.split()
            r = subprocess.run(cmd)
            if r.returncode != 0:
                print(f"run failed ({r.returncode}): {' '.join(cmd)}", file=sys.stderr)
                continue
            s = json.load(open(os.path.join(outdir, "summary.json")))
            rows.append({"mesh_n": n, "elements": elements, "backend": backend, "threads": t, "scheme": scheme,
                         "precision": prec, "steps": s["steps"], "description": s.get("backend_description", ""),
                         "solve_seconds": s["solve_seconds"],
                         "element_steps_per_second": s["element_steps_per_second"],
                         "per_core": s["element_steps_per_second"] / t,
                         "bytes_per_element": s.get("device_bytes_per_element") or per_elem})
    print(f"{'elements':>9} {'backend':>7} {'threads':>7} {'scheme':>13} {'prec':>6} {'steps':>6} {'solve s':>8} "
          f"{'el-steps/s':>11} {'per core':>10} {'B/elem':>7}")
    for r in rows:
        print(f"{r['elements']:>9} {r['backend']:>7} {r['threads']:>7} {r['scheme']:>13} {r['precision']:>6} "
              f"{r['steps']:>6} {r['solve_seconds']:>8.3f} {r['element_steps_per_second']:>11.3e} "
              f"{r['per_core']:>10.3e} {r['bytes_per_element']:>7.0f}")
    json.dump({"machine": os.uname().nodename, "cpus": os.cpu_count(), "rows": rows},
              open(os.path.join(a.out, "shell_bench.json"), "w"), indent=2)


if __name__ == "__main__":
    main()
