#!/usr/bin/env python3
"""Benchmark: element-steps per second of the FPM space-frame beam (B31) on a cubic lattice.

The model is a lattice of (n+1)^3 nodes joined by beams along x, y and z (3 n (n+1)^2 beams;
n = 70 gives 1,058,400), every node carrying six dofs, RECT sections 0.1 x 0.1 of steel-like
units (E 210000, nu 0.3, rho 7.85e-9, members of length 1), clamped at x = 0 and pushed along
y by a point load on the far corner; --plastic adds *PLASTIC (yield 100, perfectly plastic:
fibre integration, 3 x 25 fibres per beam). It runs --steps increments of the solver's stable
estimate, per backend: the CPU with the given thread counts (and --cpu-steps increments, since
one core takes minutes per thousand increments of a million beams) and the GPU with the given
schemes and precisions. Timings are summary.json's solve_seconds (the time loop only).

Usage: python3 bench/beam_bench.py [--build build] [--n 20 70] [--steps 2000] [--cpu-steps 50]
              [--backends cpu cuda] [--threads 1 16] [--schemes gather] [--precisions double single]
              [--plastic] [--fpm-kernels fused split] [--out bench-results]
--fpm-kernels fused split runs the GPU in both schemes (the scheme column reads gather+split
for seed 003's three kernels).
"""
import argparse, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_mesh(path, n):
    """Lattice nodes and beams; three element sets by direction (each its own n1)."""
    def nid(i, j, k):
        return 1 + i + (n + 1) * (j + (n + 1) * k)
    e = 0
    with open(path, "w") as f:
        f.write("*NODE\n")
        for k in range(n + 1):
            for j in range(n + 1):
                f.write("".join(f"{nid(i, j, k)}, {i}, {j}, {k}\n" for i in range(n + 1)))
        for name, (di, dj, dk) in (("BX", (1, 0, 0)), ("BY", (0, 1, 0)), ("BZ", (0, 0, 1))):
            f.write(f"*ELEMENT, TYPE=B31, ELSET={name}\n")
            out = []
            for k in range(n + 1 - dk):
                for j in range(n + 1 - dj):
                    for i in range(n + 1 - di):
                        e += 1
                        out.append(f"{e}, {nid(i, j, k)}, {nid(i + di, j + dj, k + dk)}\n")
            f.write("".join(out))
        f.write("*NSET, NSET=X0, GENERATE\n")
        for k in range(n + 1):
            for j in range(n + 1):
                f.write(f"{nid(0, j, k)}, {nid(0, j, k)}, 1\n")
        f.write(f"*NSET, NSET=TIP\n{nid(n, n, n)}\n")
    return e


def write_main(path, mesh, period, plastic):
    lines = ["*HEADING", "beam lattice benchmark", f"*INCLUDE, INPUT={os.path.basename(mesh)}",
             "*MATERIAL, NAME=M", "*ELASTIC", "210000, 0.3", "*DENSITY", "7.85e-9"]
    if plastic:
        lines += ["*PLASTIC", "100, 0"]
    # n1 must not lie along the member: z-members take x.
    for name, n1 in (("BX", "0, 0, -1"), ("BY", "0, 0, -1"), ("BZ", "1, 0, 0")):
        lines += [f"*BEAM SECTION, ELSET={name}, MATERIAL=M, SECTION=RECT", "0.1, 0.1", n1]
    lines += ["*BOUNDARY", "X0, 1, 6", "*STEP", "*DYNAMIC, EXPLICIT", f", {period:.9g}", "*CLOAD", "TIP, 2, 1.0",
              f"*OUTPUT, HISTORY, TIME INTERVAL={period:.9g}", "*NODE OUTPUT, NSET=TIP", "U",
              f"*OUTPUT, FIELD, TIME INTERVAL={period:.9g}", "*NODE OUTPUT", "U", "*END STEP"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--n", type=int, nargs="+", default=[10, 20])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--cpu-steps", type=int, default=0, help="increments of the CPU runs (default --steps)")
    ap.add_argument("--backends", nargs="+", default=["cpu"], choices=["cpu", "cuda"])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--schemes", nargs="+", default=["gather"], choices=["gather", "atomic", "colored"])
    ap.add_argument("--fpm-kernels", nargs="+", default=["fused"], choices=["fused", "split"],
                    help="GPU runs: one kernel per beam (fused) and/or seed 003's three (split)")
    ap.add_argument("--precisions", nargs="+", default=["double"], choices=["double", "single"])
    ap.add_argument("--plastic", action="store_true")
    ap.add_argument("--out", default="bench-results")
    a = ap.parse_args()
    exe = os.path.join(a.build, "halfstep")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for n in a.n:
        mesh = os.path.join(a.out, f"lattice_{n}_mesh.inp")
        elements = write_mesh(mesh, n)
        deck = os.path.join(a.out, f"lattice_{n}.inp")
        write_main(deck, mesh, 1.0, a.plastic)
        check = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
        inc = float(re.search(r"increment ([\d.e+-]+) \(stable", check).group(1))
        runs = [("cpu", t, "-", "double") for t in a.threads if "cpu" in a.backends]
        if "cuda" in a.backends:
            runs += [("cuda", 1, sc if k == "fused" else sc + "+split", p)
                     for sc in a.schemes for k in a.fpm_kernels for p in a.precisions]
        for backend, t, scheme, prec in runs:
            steps = a.cpu_steps if backend == "cpu" and a.cpu_steps else a.steps
            write_main(deck, mesh, steps * inc, a.plastic)
            outdir = os.path.join(a.out, f"run_{n}_{backend}_{t}_{scheme}_{prec}")
            cmd = [exe, "run", deck, "-o", outdir, "--backend", backend, "--threads", str(t), "--quiet"]
            if backend == "cuda":
                cmd += ["--gpu-scheme", scheme.split("+")[0], "--precision", prec]
                if scheme.endswith("+split"):
                    cmd += ["--fpm-kernels", "split"]
            r = subprocess.run(cmd)
            if r.returncode != 0:
                print(f"run failed ({r.returncode}): {' '.join(cmd)}", file=sys.stderr)
                continue
            s = json.load(open(os.path.join(outdir, "summary.json")))
            rows.append({"elements": elements, "plastic": a.plastic, "backend": backend, "threads": t,
                         "scheme": scheme, "precision": prec, "steps": s["steps"],
                         "solve_seconds": s["solve_seconds"], "element_steps_per_second": s["element_steps_per_second"],
                         "bytes_per_element": s.get("device_bytes_per_element"),
                         "description": s.get("backend_description", "")})
            r_ = rows[-1]
            print(f"B31{'/J2' if a.plastic else '   '} {elements:9d} {backend:4s} {t:3d} {scheme:14s} {prec:6s} "
                  f"{r_['steps']:6d} {r_['solve_seconds']:9.3f} s {r_['element_steps_per_second']:10.3e} el-steps/s",
                  flush=True)
        for f in os.listdir(a.out):
            if f.startswith(f"lattice_{n}"):
                os.remove(os.path.join(a.out, f))
    with open(os.path.join(a.out, "beam_bench.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
