#!/usr/bin/env python3
"""The "independent numpy Q4" value of seed 004's linear cantilever, from first principles.

The cantilever of tests/discretization/cantilever_deck.hpp: L = 10, depth 1 (y from -0.5 to
0.5), unit thickness, E = 210e9, nu = 0.3, plane stress, NX x NY bilinear quadrilaterals
(2 x 2 Gauss, full integration), both displacements held at x = 0, a total tip shear P on the
x = L edge distributed as beam theory's parabola (consistent nodal forces, 2-point Gauss per
edge: exact for the parabola times a linear shape function). Prints the vertical displacement
of the tip's mid-depth node. numpy only; shares no code with halfstep.

  python3 validation/cantilever_q4.py                      # 40 x 4, P = 1e5: the tests' constant
  python3 validation/cantilever_q4.py --check tests/discretization/cantilever_deck.hpp

--check reads the constant kCantileverQ4Tip from that header and exits 1 unless it equals
this script's value to 1e-12 relative (ctest cantilever_q4_reference).
The stiffness and the solve are in numpy's long double (x87 80-bit on x86-64): a double
solve of this system (condition number ~1e7) leaves ~1e-10 of round-off, as much as the
older hard-coded 1.857546226691085e-3 carried (7e-11 from this value).
"""
import argparse
import re
import sys

try:
    import numpy as np
except ImportError:  # ctest cantilever_q4_reference counts 77 as skipped
    print("numpy is not installed: nothing to check")
    sys.exit(77)

L, H, E, NU = 10.0, 1.0, 210e9, 0.3


def q4_stiffness(xy, d):
    """8 x 8 stiffness of a bilinear quad with corners xy (4 x 2, counter-clockwise), 2 x 2 Gauss."""
    g = 1 / np.sqrt(np.longdouble(3))
    k = np.zeros((8, 8), dtype=np.longdouble)
    for xi in (-g, g):
        for eta in (-g, g):
            dn = 0.25 * np.array([[-(1 - eta), (1 - eta), (1 + eta), -(1 + eta)],
                                  [-(1 - xi), -(1 + xi), (1 + xi), (1 - xi)]])  # d/dxi, d/deta
            jac = dn @ xy
            det = jac[0, 0] * jac[1, 1] - jac[0, 1] * jac[1, 0]
            inv = np.array([[jac[1, 1], -jac[0, 1]], [-jac[1, 0], jac[0, 0]]]) / det
            dx = inv @ dn  # d/dx, d/dy
            b = np.zeros((3, 8), dtype=np.longdouble)
            b[0, 0::2] = dx[0]
            b[1, 1::2] = dx[1]
            b[2, 0::2] = dx[1]
            b[2, 1::2] = dx[0]
            k += b.T @ d @ b * det
    return k


def cholesky_solve(a, b):
    """x with a x = b, a symmetric positive definite: Cholesky in a's own precision (numpy's
    linalg works in double only, and the cantilever's stiffness, condition number ~1e7, would
    leave ~1e-10 of round-off in the answer)."""
    n = len(b)
    c = a.copy()
    for j in range(n):
        c[j, j] = np.sqrt(c[j, j] - c[j, :j] @ c[j, :j])
        c[j + 1:, j] = (c[j + 1:, j] - c[j + 1:, :j] @ c[j, :j]) / c[j, j]
    y = np.zeros(n, dtype=a.dtype)
    for i in range(n):
        y[i] = (b[i] - c[i, :i] @ y[:i]) / c[i, i]
    x = np.zeros(n, dtype=a.dtype)
    for i in reversed(range(n)):
        x[i] = (y[i] - c[i + 1:, i] @ x[i + 1:]) / c[i, i]
    return x


def tip_deflection(nx, ny, p):
    """Vertical displacement of the tip's mid-depth node (ny even), in extended precision."""
    ld = np.longdouble
    nu = ld(NU)
    d = ld(E) / (1 - nu ** 2) * np.array([[1, nu, 0], [nu, 1, 0], [0, 0, (1 - nu) / 2]], dtype=ld)
    node = lambda i, j: i + (nx + 1) * j
    # The deck's coordinates are doubles (10.0 * i / nx, -0.5 + 1.0 * j / ny); kept as such.
    x = np.array([L * i / nx for j in range(ny + 1) for i in range(nx + 1)], dtype=ld)
    y = np.array([-H / 2 + H * j / ny for j in range(ny + 1) for i in range(nx + 1)], dtype=ld)
    n = 2 * (nx + 1) * (ny + 1)
    k = np.zeros((n, n), dtype=ld)
    for j in range(ny):
        for i in range(nx):
            c = [node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)]
            dofs = np.ravel([[2 * a, 2 * a + 1] for a in c])
            k[np.ix_(dofs, dofs)] += q4_stiffness(np.column_stack([x[c], y[c]]), d)
    f = np.zeros(n, dtype=ld)
    g = 1 / np.sqrt(ld(3))
    dy = H / ny
    for j in range(ny):  # tau(y) = 1.5 P / H (1 - 4 y^2 / H^2) on the x = L edge
        for s in (-g, g):
            yy = -H / 2 + (j + (s + 1) / 2) * dy
            tau = 1.5 * p / H * (1 - 4 * yy ** 2 / H ** 2)
            f[2 * node(nx, j) + 1] += tau * (1 - s) / 2 * dy / 2
            f[2 * node(nx, j + 1) + 1] += tau * (1 + s) / 2 * dy / 2
    free = np.array([q for q in range(n) if x[q // 2] > 1e-12])
    u = np.zeros(n, dtype=ld)
    u[free] = cholesky_solve(k[np.ix_(free, free)], f[free])
    return u[2 * node(nx, ny // 2) + 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nx", type=int, default=40)
    ap.add_argument("--ny", type=int, default=4)
    ap.add_argument("--load", type=float, default=1e5)
    ap.add_argument("--check", metavar="HEADER", help="compare with kCantileverQ4Tip in this header")
    args = ap.parse_args()
    tip = float(tip_deflection(args.nx, args.ny, args.load))
    print(f"CPS4 {args.nx} x {args.ny}, P = {args.load:g}: tip deflection {tip!r}")
    if args.check:
        text = open(args.check).read()
        m = re.search(r"kCantileverQ4Tip\s*=\s*([0-9.eE+-]+)", text)
        if not m:
            print(f"{args.check}: no kCantileverQ4Tip constant")
            return 1
        stated = float(m.group(1))
        rel = abs(stated / tip - 1)
        print(f"{args.check}: kCantileverQ4Tip = {stated!r}, {rel:.1e} relative")
        # Where long double is only a double (some platforms), the solve's round-off is ~1e-10.
        tol = 1e-12 if np.finfo(np.longdouble).eps < 1e-17 else 1e-9
        if rel > tol:
            print("the header's constant is not this script's value")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
