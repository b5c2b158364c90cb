#!/usr/bin/env python3
"""Independent static reference for the plane frame benchmarks (Lee's frame, the Williams
toggle, the clamped-hinged deep arch): a 2-D corotational Euler-Bernoulli beam (the chord
carries the rigid rotation, linear local N, M1, M2 on the reference length; Crisfield 1991,
vol. 1, ch. 7) solved by Newton's method under displacement control of the loaded node.

It shares no code with halfstep's FPM beam (an explicit 3-D path-unit formulation): it is a
second discretisation of the same (extensible, shear-rigid) elastica, refined until its
limit load no longer moves. Used by validation/run_validation.py (lee, toggle, arch).

    python3 validation/frame_reference.py {lee,toggle,arch} [--elements N]

prints the load-displacement path and the limit load (the largest reaction), located by a
parabola through the three path points around the maximum.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import generate_frame_deck as frames  # noqa: E402  (the geometry, written once)


def element_force(X1, X2, u, EA, EI):
    """Internal end forces (6) of one corotational element; u = (u1, v1, th1, u2, v2, th2)."""
    L0v = X2 - X1
    L0 = math.hypot(*L0v)
    b0 = math.atan2(L0v[1], L0v[0])
    d = L0v + u[3:5] - u[0:2]
    l = math.hypot(*d)
    b = math.atan2(d[1], d[0])
    c, s = d / l
    rb = b - b0
    rb = math.atan2(math.sin(rb), math.cos(rb))

    def wrap(a):
        return math.atan2(math.sin(a), math.cos(a))

    t1, t2 = wrap(u[2] - rb), wrap(u[5] - rb)
    N = EA * (l * l - L0 * L0) / (l + L0) / L0
    M1 = EI / L0 * (4 * t1 + 2 * t2)
    M2 = EI / L0 * (2 * t1 + 4 * t2)
    r = np.array([-c, -s, 0, c, s, 0])
    z = np.array([s, -c, 0, -s, c, 0]) / l
    return r * N + (np.array([0, 0, 1, 0, 0, 0]) - z) * M1 + (np.array([0, 0, 0, 0, 0, 1]) - z) * M2


def assemble(model, u, tangent=True):
    X, conn, EA, EI = model["X"], model["conn"], model["EA"], model["EI"]
    n = 3 * len(X)
    f = np.zeros(n)
    K = np.zeros((n, n)) if tangent else None
    for a, b in conn:
        idx = [3 * a, 3 * a + 1, 3 * a + 2, 3 * b, 3 * b + 1, 3 * b + 2]
        ue = u[idx]
        fe = element_force(X[a], X[b], ue, EA, EI)
        f[idx] += fe
        if tangent:
            h = 1e-7 * max(1.0, model["scale"])
            for j in range(6):
                up, um = ue.copy(), ue.copy()
                hj = h if j % 3 != 2 else 1e-7
                up[j] += hj
                um[j] -= hj
                col = (element_force(X[a], X[b], up, EA, EI) - element_force(X[a], X[b], um, EA, EI)) / (2 * hj)
                K[np.ix_(idx, [idx[j]])] += col[:, None]
    return f, K


def trace(model, targets, tol=1e-10):
    """Displacement-controlled Newton path: the loaded dof takes each value of `targets`;
    returns [(v, reaction)] until Newton fails (a snap-back of the controlled variable)."""
    n = 3 * len(model["X"])
    fixed = set(model["fixed"]) | {model["load_dof"]}
    free = np.array([i for i in range(n) if i not in fixed])
    u = np.zeros(n)
    path = [(0.0, 0.0)]
    prev = u.copy()
    for k, v in enumerate(targets):
        guess = u + (u - prev) * (v - path[-1][0]) / (path[-1][0] - path[-2][0]) if k > 1 else u.copy()
        prev = u.copy()
        w = guess
        w[model["load_dof"]] = v
        ok = False
        for _ in range(30):
            f, K = assemble(model, w)
            res = f[free]
            if np.linalg.norm(res) <= tol * max(1.0, model["EA"]):
                ok = True
                break
            w[free] -= np.linalg.solve(K[np.ix_(free, free)], res)
        if not ok:
            break
        u = w
        path.append((v, f[model["load_dof"]]))
    return path


def limit_point(path, sign):
    """The first local maximum of sign*reaction along the path (the limit point), refined by a
    parabola through its neighbours; the path's largest value if it never turns down."""
    vals = [sign * p for _, p in path]
    k = next((i for i in range(1, len(vals) - 1) if vals[i] >= vals[i - 1] and vals[i] > vals[i + 1]),
             int(np.argmax(vals)))
    if 0 < k < len(path) - 1:
        (x0, y0), (x1, y1), (x2, y2) = [(path[i][0], vals[i]) for i in (k - 1, k, k + 1)]
        A = np.array([[x0 * x0, x0, 1], [x1 * x1, x1, 1], [x2 * x2, x2, 1]])
        a, b, c = np.linalg.solve(A, [y0, y1, y2])
        if a < 0:
            xm = -b / (2 * a)
            return xm, a * xm * xm + b * xm + c
    return path[k][0], vals[k]


def build(case, elements):
    """The case's nodes, elements, held dofs and loaded dof from generate_frame_deck."""
    g = frames.geometry(case, elements)
    X = np.array([p[:2] for p in g["nodes"]])
    fixed = []
    for node, dofs in g["supports"]:
        for d in dofs:
            if d in (1, 2):
                fixed.append(3 * node + d - 1)
            elif d == 6:
                fixed.append(3 * node + 2)
    return {"X": X, "conn": g["elements"], "EA": g["E"] * g["A"], "EI": g["E"] * g["I"], "fixed": fixed,
            "load_dof": 3 * g["load_node"] + 1, "scale": g["scale"]}


def reference(case, elements, vmax=None, steps=None):
    """(v at the limit, limit load) of the case: the largest downward reaction at the loaded
    node along a path of downward displacements. Returns (v_lim, P_lim, path)."""
    g = frames.geometry(case, elements)
    vmax = vmax or g["v_end"]
    steps = steps or g["ref_steps"]
    model = build(case, elements)
    path = trace(model, [-vmax * (k + 1) / steps for k in range(steps)])
    # A downward load is a negative reaction at the loaded node (RF = -f_int there).
    path = [(-v, -p) for v, p in path]
    # A parabola through the three points around the maximum: its error is O(h^3) in the
    # step h, far below the discretisation error at the default step counts.
    return (*limit_point(path, 1.0), path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=["lee", "toggle", "arch"])
    p.add_argument("--elements", type=int, default=0)
    p.add_argument("--path", action="store_true", help="print the whole path")
    a = p.parse_args()
    v, P, path = reference(a.case, a.elements or None)
    if a.path:
        for x, y in path:
            print("%.6g %.6g" % (x, y))
    print("%s: limit load %.6g at v = %.6g (path to v = %.4g)" % (a.case, P, v, path[-1][0]))


if __name__ == "__main__":
    main()
