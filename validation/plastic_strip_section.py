#!/usr/bin/env python3
"""Moment-curvature curve of an elastic-perfectly plastic shell strip in pure bending, as a
shell's section sees it: the reference for tests/integration/test_plastic_shells.cpp and
test_plastic_tris.cpp (StripInPureBendingFollowsTheMomentCurvatureCurve).

Beam theory (uniaxial stress in every fibre) gives k_y / k = sqrt(3 - 2 M / M_y) above first
yield. A shell strip whose state is uniform across its width is a plate section instead: its
strains are linear through the thickness in both directions, e11 = k z and e22 = b z (b free:
the anticlastic curvature), with plane stress (s33 = 0), s12 = 0, and the free long edges
asking only that the width's moment M22 = int s22 z dz vanish (N11 = N22 = 0 by the odd
symmetry). Elastic, b = -nu k makes s22 vanish in every fibre and the plate is the beam; once
the outer fibres flow, their plastic strain (incompressible, de22p = -de11p / 2) is not linear
in z, s22 appears in the section and the plate is stiffer than the beam near M_p.

This script follows that section along a monotonic moment ramp: J2 with perfect plasticity in
plane stress (closest-point return on the two stresses), Simpson's rule through the thickness,
and at each moment level Newton on (k, b) for M11 = M, M22 = 0. numpy only; no halfstep code.

  python3 validation/plastic_strip_section.py                 # E 200e3, nu 0.3, sy 250, t 1
  python3 validation/plastic_strip_section.py --points 15     # the tests' 15 section points
"""
import argparse

import numpy as np


def simpson(n, t):
    """Positions and weights of Simpson's rule with n (odd) points over [-t/2, t/2]."""
    z = np.linspace(-t / 2, t / 2, n)
    w = np.ones(n)
    w[1:-1:2], w[2:-1:2] = 4, 2
    return z, w * (t / (n - 1) / 3)


class Section:
    """Fibres of the plate section: plastic strains (e11p, e22p) at each Simpson point."""

    def __init__(self, e, nu, sy, t, n):
        self.c = e / (1 - nu ** 2) * np.array([[1, nu], [nu, 1]])
        self.cinv = np.linalg.inv(self.c)
        self.p = np.array([[2, -1], [-1, 2]]) / 3.0  # s^T P s = (2/3) (s11^2 - s11 s22 + s22^2)
        self.sy = sy
        self.z, self.w = simpson(n, t)
        self.ep = np.zeros((n, 2))

    def stresses(self, k, b):
        """Stresses of every fibre at curvatures (k, b), and the plastic strains they leave."""
        eps = np.outer(self.z, [k, b])
        s_trial = (eps - self.ep) @ self.c.T
        s = s_trial.copy()
        ep = self.ep.copy()
        for i, st in enumerate(s_trial):
            if st[0] ** 2 - st[0] * st[1] + st[1] ** 2 <= self.sy ** 2 * (1 + 1e-14):
                continue
            # s(g) = (C^-1 + g P)^-1 C^-1 s_trial on the yield surface; g by bisection.
            def on(g):
                si = np.linalg.solve(self.cinv + g * self.p, self.cinv @ st)
                return si, si[0] ** 2 - si[0] * si[1] + si[1] ** 2 - self.sy ** 2
            lo, hi = 0.0, 1.0 / self.c[0, 0]
            while on(hi)[1] > 0:
                hi *= 2
            for _ in range(200):
                mid = 0.5 * (lo + hi)
                if on(mid)[1] > 0:
                    lo = mid
                else:
                    hi = mid
                if hi - lo <= 1e-15 * hi:
                    break
            si = on(hi)[0]
            s[i] = si
            ep[i] = self.ep[i] + hi * (self.p @ si)
        return s, ep

    def moments(self, k, b):
        s, _ = self.stresses(k, b)
        return np.array([np.sum(self.w * s[:, 0] * self.z), np.sum(self.w * s[:, 1] * self.z)])

    def load_to(self, m, guess):
        """(k, b) with M11 = m, M22 = 0 from the committed state; commits it."""
        x = np.array(guess, dtype=float)
        for _ in range(50):
            r = self.moments(*x) - [m, 0.0]
            if abs(r[0]) < 1e-12 * abs(m) + 1e-300 and abs(r[1]) < 1e-12 * abs(m) + 1e-300:
                break
            h = 1e-7 * max(abs(x[0]), 1e-12)
            j = np.column_stack([(self.moments(x[0] + h, x[1]) - self.moments(x[0] - h, x[1])) / (2 * h),
                                 (self.moments(x[0], x[1] + h) - self.moments(x[0], x[1] - h)) / (2 * h)])
            x = x - np.linalg.solve(j, r)
        else:
            raise RuntimeError(f"no equilibrium at M = {m}")
        _, self.ep = self.stresses(*x)
        return x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--E", type=float, default=200e3)
    ap.add_argument("--nu", type=float, default=0.3)
    ap.add_argument("--yield-stress", type=float, default=250.0)
    ap.add_argument("--thickness", type=float, default=1.0)
    ap.add_argument("--points", type=int, default=401, help="Simpson points through the thickness (odd)")
    ap.add_argument("--steps", type=int, default=400, help="moment increments up to the last level")
    ap.add_argument("--levels", type=float, nargs="+", default=[0.8, 1.2, 1.3, 1.44], help="M / M_y to report")
    a = ap.parse_args()
    t, sy, e = a.thickness, a.yield_stress, a.E
    my, ky = sy * t * t / 6, 2 * sy / (e * t)
    sec = Section(e, a.nu, sy, t, a.points)
    levels = sorted(a.levels)
    ramp = np.union1d(np.linspace(0, levels[-1], a.steps + 1)[1:], levels)
    x = np.array([0.0, 0.0])
    print(f"plate section, {a.points} Simpson points, nu = {a.nu:g}: k / k_y and its ratio to beam theory")
    for m in ramp:
        guess = x if x[0] != 0 else [m * ky, -a.nu * m * ky]
        x = sec.load_to(m * my, guess)
        if np.any(np.isclose(m, levels, rtol=0, atol=1e-12)):
            beam = m if m <= 1 else 1 / np.sqrt(3 - 2 * m)
            top = sec.stresses(*x)[0][-1]  # committed: the same stresses again
            print(f"M / M_y = {m:.4g}: k / k_y = {x[0] / ky:.6f} (beam {beam:.6f}, ratio {x[0] / ky / beam:.6f}); "
                  f"width curvature b / k = {x[1] / x[0]:+.4f}; top fibre s11 / sy = {top[0] / sy:.4f}, "
                  f"s22 / sy = {top[1] / sy:+.4f}")


if __name__ == "__main__":
    main()
