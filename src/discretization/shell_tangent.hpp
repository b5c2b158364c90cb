// MITC4 generalized forces differentiated by forward dual numbers, as host/device functions:
// the OpenMP ShellOperator and the CUDA tangent engine call the same code, so the shell's
// tangent is computed once for both backends. Rotation dofs are spins about the nodal triad
// (t1, t2 = v x t1): dof alpha turns the director and triad by alpha t1 x (.), which is the
// derivative at zero of the exact exponential-map update the Newton driver applies.
#pragma once

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "elements/mitc4.hpp"

namespace halfstep {

/// A constant (zero-derivative) dual copy of an element's reference constants.
template <class D>
HS_HD Mitc4Ref<D> mitc4_dual_ref(const Mitc4Ref<double>& r) {
  Mitc4Ref<D> d;
  for (int g = 0; g < 4; ++g) {
    d.wj[g] = D(r.wj[g]);
    d.cr1[g] = D(r.cr1[g]);
    d.cr2[g] = D(r.cr2[g]);
    d.cs1[g] = D(r.cs1[g]);
    d.cs2[g] = D(r.cs2[g]);
    d.cz3[g] = D(r.cz3[g]);
  }
  return d;
}

/// The same for the section's elastic constants.
template <class D>
HS_HD ShellElastic<D> mitc4_dual_elastic(const ShellElastic<double>& m) {
  ShellElastic<D> d;
  d.ebar = D(m.ebar);
  d.nu = D(m.nu);
  d.shear = D(m.shear);
  d.kshear = D(m.kshear);
  return d;
}

/// Generalized forces (20: per corner f.x, f.y, f.z, moment about t1, about t2) of an element
/// in configuration `nodes` with triads t1; returns the strain energy.
HS_HD double mitc4_generalized_forces(const Mitc4Ref<double>& ref, const Mitc4Nodes<double>& nodes,
                                             const Vec3<double> t1[4], double thickness,
                                             const ShellElastic<double>& mat, double out[20]) {
  Vec3<double> f[4], gv[4];
  const double w = mitc4_internal_force(ref, nodes, thickness, mat, f, gv);
  for (int k = 0; k < 4; ++k) mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], t1[k], out + 5 * k);
  return w;
}

/// Derivative of the generalized forces along the element dof vector dx (20 values: per
/// corner 3 translations, spin about t1, spin about t2) into out (20): one dual evaluation.
/// Column j of the element matrix is dx = e_j; the geometrically linear force K(0) x is dx = x
/// at the reference configuration.
HS_HD void mitc4_directional_derivative(const Mitc4Ref<Dual<double>>& ref, const Mitc4Nodes<double>& plain,
                                               const Vec3<double> t1[4], double thickness,
                                               const ShellElastic<Dual<double>>& mat, const double dx[20],
                                               double out[20]) {
  using D = Dual<double>;
  Mitc4Nodes<D> nodes;
  Vec3<D> triad[4];
  for (int b = 0; b < 4; ++b) {
    const double* q = dx + 5 * b;
    const Vec3<double> t2 = cross(plain.v[b], t1[b]);
    const Vec3<double> theta = q[3] * t1[b] + q[4] * t2;
    const Vec3<double> dv = cross(theta, plain.v[b]), dt = cross(theta, t1[b]);
    nodes.X[b] = {D(plain.X[b].x), D(plain.X[b].y), D(plain.X[b].z)};
    nodes.V0[b] = {D(plain.V0[b].x), D(plain.V0[b].y), D(plain.V0[b].z)};
    nodes.u[b] = {D(plain.u[b].x, q[0]), D(plain.u[b].y, q[1]), D(plain.u[b].z, q[2])};
    nodes.v[b] = {D(plain.v[b].x, dv.x), D(plain.v[b].y, dv.y), D(plain.v[b].z, dv.z)};
    triad[b] = {D(t1[b].x, dt.x), D(t1[b].y, dt.y), D(t1[b].z, dt.z)};
  }
  Vec3<D> f[4], gv[4];
  mitc4_internal_force(ref, nodes, D(thickness), mat, f, gv);
  for (int b = 0; b < 4; ++b) {
    D g[5];
    mitc4_corner_generalized_force(f[b], gv[b], nodes.v[b], triad[b], g);
    for (int r = 0; r < 5; ++r) out[5 * b + r] = g[r].d;
  }
}

/// Column j (0..19) of the element matrix, written into ke (20 x 20, row-major).
HS_HD void mitc4_matrix_column(const Mitc4Ref<Dual<double>>& ref, const Mitc4Nodes<double>& plain,
                                      const Vec3<double> t1[4], double thickness,
                                      const ShellElastic<Dual<double>>& mat, int j, double* ke) {
  double dx[20], col[20];
  for (int i = 0; i < 20; ++i) dx[i] = i == j ? 1.0 : 0.0;
  mitc4_directional_derivative(ref, plain, t1, thickness, mat, dx, col);
  for (int i = 0; i < 20; ++i) ke[i * 20 + j] = col[i];
}

}  // namespace halfstep
