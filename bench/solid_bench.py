#!/usr/bin/env python3
"""Benchmark: element-steps per second of the solid elements (C3D8R, C3D8, C3D4, C3D10M, and C3D8-FPM: C3D8 with FORMULATION=FPM) with
each material (St. Venant-Kirchhoff, Neo-Hookean, orthotropic, J2 plasticity), per backend: the CPU with the
given thread counts and the GPU with the given schemes and precisions.

The model is a block of nx x ny x nz cubes (tetrahedral kinds: 6 per cube; C3D10M with shared
mid-edge nodes), clamped at x = 0, set in motion by a smooth transverse initial velocity,
run for --steps increments of 0.9 x the solver's stable estimate. The mesh goes into an
*INCLUDE file so that the step block can be rewritten once the increment is known.

Usage: python3 bench/solid_bench.py [--build build] [--cells 20 40 80] [--kinds C3D8R C3D4]
              [--materials svk neo ortho j2] [--steps 1000] [--backends cpu cuda] [--threads 1 16]
              [--schemes gather atomic colored] [--precisions double single] [--out bench-results]
              [--fpm-kernels fused split]
--cells N makes a 4N x N x N block (4 N^3 cubes). Writes a table to stdout and
<out>/solid_bench.json; timings are summary.json's solve_seconds (time loop only).
--fpm-kernels fused split runs C3D8-FPM on the GPU in both schemes (the scheme column reads
gather+split for seed 003's three kernels).
"""
import argparse, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TETS = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]
MATERIALS = {
    "svk": ["*ELASTIC", "210000, 0.3"],
    "neo": ["*HYPERELASTIC, NEO HOOKE", "40384.6, 1.1428571e-05"],
    "ortho": ["*ELASTIC, TYPE=ENGINEERING CONSTANTS", "140000, 10000, 10000, 0.3, 0.3, 0.4, 5000, 5000", "3600"],
    # J2 with a yield stress so low that the points flow from the first increments on: the
    # cost of the return map and of the per-point state (8 values read and written per point).
    "j2": ["*ELASTIC", "210000, 0.3", "*PLASTIC", "1e-3, 0", "2100, 1"],
}


def deck_type(kind):
    """The deck's element type of a benchmark kind: C3D8-FPM is C3D8 with FORMULATION=FPM."""
    return "C3D8" if kind == "C3D8-FPM" else kind


def write_mesh(path, kind, n):
    nx, ny, nz = 4 * n, n, n
    h = 1.0 / n
    def nid(i, j, k):
        return 1 + i + (nx + 1) * (j + (ny + 1) * k)
    with open(path, "w") as f:
        f.write("*NODE\n")
        for k in range(nz + 1):
            for j in range(ny + 1):
                f.write("".join(f"{nid(i, j, k)}, {i * h:.9g}, {j * h:.9g}, {k * h:.9g}\n" for i in range(nx + 1)))
        next_node = nid(nx, ny, nz) + 1
        edges = {}
        f.write(f"*ELEMENT, TYPE={deck_type(kind)}, ELSET=BLOCK\n")
        e = 0
        out = []
        for k in range(nz):
            for j in range(ny):
                for i in range(nx):
                    c = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                         nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                    if deck_type(kind) in ("C3D8R", "C3D8"):
                        e += 1
                        out.append(f"{e}, " + ", ".join(map(str, c)) + "\n")
                        continue
                    for t in TETS:
                        tet = [c[a] for a in t]
                        if kind == "C3D10M":
                            mids = []
                            for a, b in ((0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)):
                                key = (min(tet[a], tet[b]), max(tet[a], tet[b]))
                                if key not in edges:
                                    edges[key] = next_node
                                    next_node += 1
                                mids.append(edges[key])
                            tet += mids
                        e += 1
                        out.append(f"{e}, " + ", ".join(map(str, tet)) + "\n")
            f.write("".join(out))
            out = []
        if edges:
            def xyz(m):
                m -= 1
                return (m % (nx + 1)) * h, ((m // (nx + 1)) % (ny + 1)) * h, (m // ((nx + 1) * (ny + 1))) * h
            f.write("*NODE\n")
            f.write("".join("%d, %.9g, %.9g, %.9g\n" % ((m,) + tuple((p + q) / 2 for p, q in zip(xyz(a), xyz(b))))
                            for (a, b), m in edges.items()))
        f.write("*NSET, NSET=X0, GENERATE\n")
        for k in range(nz + 1):
            for j in range(ny + 1):
                f.write(f"{nid(0, j, k)}, {nid(0, j, k)}, 1\n")
        f.write(f"*NSET, NSET=TIP\n{nid(nx, ny // 2, nz // 2)}\n")
    return e


def tip_load(material, n):
    """The tip's point load: 1 for the elastic laws; for J2, (16/n)^2, so that the stress under the
    load (about P/h^2) stays the same on every mesh: with P = 1 the nearly perfectly plastic
    element at the load point of a 64-cell block strains about 2 and turns inside out."""
    return 1.0 if material != "j2" else (16.0 / n) ** 2


def write_main(path, mesh, material, period, load=1.0, kind="", bulk=None):
    lines = ["*HEADING", "solid benchmark", f"*INCLUDE, INPUT={os.path.basename(mesh)}"]
    lines += ["*MATERIAL, NAME=M"] + MATERIALS[material] + ["*DENSITY", "7.85e-9"]
    lines += ["*SOLID SECTION, ELSET=BLOCK, MATERIAL=M" + (", FORMULATION=FPM" if kind == "C3D8-FPM" else "")]
    lines += ["*STEP", "*DYNAMIC, EXPLICIT", f", {period:.9g}"] + (["*BULK VISCOSITY", bulk] if bulk else [])
    lines += ["*BOUNDARY", "X0, 1, 3", "*CLOAD", f"TIP, 3, {load:.9g}",
              f"*OUTPUT, HISTORY, TIME INTERVAL={period:.9g}", "*NODE OUTPUT, NSET=TIP", "U",
              f"*OUTPUT, FIELD, TIME INTERVAL={period:.9g}", "*NODE OUTPUT", "U", "*END STEP"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cells", type=int, nargs="+", default=[10, 20])
    ap.add_argument("--kinds", nargs="+", default=["C3D8R", "C3D8", "C3D4", "C3D10M"])
    ap.add_argument("--materials", nargs="+", default=["svk"], choices=sorted(MATERIALS))
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--backends", nargs="+", default=["cpu"], choices=["cpu", "cuda"])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--schemes", nargs="+", default=["gather"], choices=["gather", "atomic", "colored"])
    ap.add_argument("--precisions", nargs="+", default=["double"], choices=["double", "single"])
    ap.add_argument("--out", default="bench-results")
    ap.add_argument("--bulk-viscosity", metavar="B1,B2",
                    help="*BULK VISCOSITY data line (default: none given, Abaqus's 0.06, 1.2; '0., 0.' turns it off)")
    ap.add_argument("--run-args", default="", help="more options for every run (e.g. '--node-pass single')")
    ap.add_argument("--fpm-kernels", nargs="+", default=["fused"], choices=["fused", "split"],
                    help="GPU runs of C3D8-FPM: one kernel per element (fused) and/or seed 003's three (split)")
    ap.add_argument("--cpu-steps", nargs="*", default=[], metavar="THREADS=STEPS",
                    help="fewer increments for slow CPU runs, e.g. 1=10 16=50 (default --steps)")
    a = ap.parse_args()
    a.cpu_steps = {int(k): int(v) for k, v in (x.split("=") for x in a.cpu_steps)}
    exe = os.path.join(a.build, "halfstep")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for n in a.cells:
        for kind in a.kinds:
            mesh = os.path.join(a.out, f"solid_{kind}_{n}_mesh.inp")
            elements = write_mesh(mesh, kind, n)
            for mat in a.materials:
                deck = os.path.join(a.out, f"solid_{kind}_{n}_{mat}.inp")
                write_main(deck, mesh, mat, 1.0, tip_load(mat, n), kind, a.bulk_viscosity)
                check = subprocess.run([exe, "check", deck], check=True, capture_output=True, text=True).stdout
                inc = float(re.search(r"increment ([\d.e+-]+) \(stable", check).group(1))
                per_elem = float(re.search(r"\(([\d.]+) bytes per element\)", check).group(1))
                runs = [("cpu", t, "-", "double") for t in a.threads if "cpu" in a.backends]
                if "cuda" in a.backends:
                    kernels = a.fpm_kernels if kind == "C3D8-FPM" else ["fused"]
                    runs += [("cuda", 1, sc if k == "fused" else sc + "+split", p)
                             for sc in a.schemes for k in kernels for p in a.precisions]
                for backend, t, scheme, prec in runs:
                    steps = a.cpu_steps.get(t, a.steps) if backend == "cpu" else a.steps
                    write_main(deck, mesh, mat, steps * inc, tip_load(mat, n), kind, a.bulk_viscosity)
                    outdir = os.path.join(a.out, f"run_{kind}_{n}_{mat}_{backend}_{t}_{scheme}_{prec}")
                    cmd = [exe, "run", deck, "-o", outdir, "--backend", backend, "--threads", str(t), "--quiet"]
                    if backend == "cuda":
                        cmd += ["--gpu-scheme", scheme.split("+")[0], "--precision", prec]
                        if scheme.endswith("+split"):
                            cmd += ["--fpm-kernels", "split"]
                    cmd += a.run_args.split()
                    r = subprocess.run(cmd)
                    if r.returncode != 0:
                        print(f"run failed ({r.returncode}): {' '.join(cmd)}", file=sys.stderr)
                        continue
                    s = json.load(open(os.path.join(outdir, "summary.json")))
                    rows.append({"kind": kind, "material": mat, "cells": n, "elements": elements, "backend": backend,
                                 "threads": t, "scheme": scheme, "precision": prec, "steps": s["steps"],
                                 "solve_seconds": s["solve_seconds"], "wall_seconds": s.get("wall_seconds"),
                                 "element_steps_per_second": s["element_steps_per_second"],
                                 "bytes_per_element": s.get("device_bytes_per_element") or per_elem,
                                 "description": s.get("backend_description", "")})
                    r_ = rows[-1]
                    print(f"{kind:7s} {mat:5s} {elements:9d} {backend:4s} {t:3d} {scheme:14s} {prec:6s} "
                          f"{r_['steps']:6d} {r_['solve_seconds']:9.3f} s {r_['element_steps_per_second']:10.3e} el-steps/s "
                          f"{r_['bytes_per_element']:7.0f} B/el", flush=True)
            for f in os.listdir(a.out):
                if f.startswith(f"solid_{kind}_{n}"):
                    os.remove(os.path.join(a.out, f))
    with open(os.path.join(a.out, "solid_bench.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
