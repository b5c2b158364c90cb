// Helpers for MITC4 element tests: single elements, generalized forces, numerical stiffness.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include "elements/mitc4.hpp"
#include "elements/rotation.hpp"

namespace halfstep::test {

using V3 = Vec3<double>;

/// One element with its state: reference geometry, current positions/directors, triads.
struct OneElement {
  V3 X[4], V0[4];
  V3 x[4], v[4], t1[4];  // current positions, directors, first triad vectors
  double a = 0.1;
  ShellElastic<double> mat = ShellElastic<double>::from(1.0e4, 0.3);
  Mitc4Ref<double> ref{};

  /// Flat element with nodes X and directors along the element normal.
  OneElement(const std::array<V3, 4>& nodes, double thickness) : a(thickness) {
    const V3 n = normalized(cross(nodes[2] - nodes[0], nodes[3] - nodes[1]));
    for (int k = 0; k < 4; ++k) {
      X[k] = x[k] = nodes[k];
      V0[k] = v[k] = n;
      V3 e = V3{1, 0, 0} - dot(V3{1, 0, 0}, n) * n;
      if (norm(e) < 1e-3) e = V3{0, 1, 0} - dot(V3{0, 1, 0}, n) * n;
      t1[k] = normalized(e);
    }
    ok = mitc4_reference(X, V0, a, ref);
  }
  bool ok = false;

  /// Element input: displacements are taken as x - X (tests set current positions directly).
  Mitc4Nodes<double> nodes() const {
    Mitc4Nodes<double> n;
    for (int k = 0; k < 4; ++k) {
      n.X[k] = X[k];
      n.u[k] = x[k] - X[k];
      n.V0[k] = V0[k];
      n.v[k] = v[k];
    }
    return n;
  }

  /// Strain energy and 20 generalized forces (per node: f1 f2 f3, m1 m2 about the triad).
  double forces(double gen[20]) const {
    V3 f[4], gv[4];
    const double w = mitc4_internal_force(ref, nodes(), a, mat, f, gv);
    for (int k = 0; k < 4; ++k) mitc4_corner_generalized_force(f[k], gv[k], v[k], t1[k], gen + 5 * k);
    return w;
  }

  /// Applies a generalized increment dq (20 values): translations, then director rotations.
  void increment(const double dq[20]) {
    for (int k = 0; k < 4; ++k) {
      x[k] += V3{dq[5 * k], dq[5 * k + 1], dq[5 * k + 2]};
      const V3 t2 = cross(v[k], t1[k]);
      const V3 theta = dq[5 * k + 3] * t1[k] + dq[5 * k + 4] * t2;
      v[k] = rotate(theta, v[k]);
      t1[k] = rotate(theta, t1[k]);
    }
  }
};

/// Tangent stiffness by central differences of the generalized forces (20 x 20, row-major).
inline std::vector<double> numerical_stiffness(const OneElement& base, double h) {
  std::vector<double> k(400);
  for (int j = 0; j < 20; ++j) {
    double dq[20] = {};
    OneElement p = base, m = base;
    dq[j] = h;
    p.increment(dq);
    dq[j] = -h;
    m.increment(dq);
    double fp[20], fm[20];
    p.forces(fp);
    m.forces(fm);
    for (int i = 0; i < 20; ++i) k[20 * i + j] = (fp[i] - fm[i]) / (2 * h);
  }
  return k;
}

/// Largest eigenvalue of a symmetric matrix (n x n) by cyclic Jacobi rotations.
inline double max_eigenvalue(std::vector<double> a, int n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += a[p * n + q] * a[p * n + q];
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (std::fabs(apq) < 1e-300) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  double mx = a[0];
  for (int i = 1; i < n; ++i) mx = std::max(mx, a[i * n + i]);
  return mx;
}

/// Rotation vector helpers for rigid-rotation tests.
inline V3 apply(const V3& theta, const V3& p) { return rotate(theta, p); }

}  // namespace halfstep::test
