// MITC4 generalized forces differentiated by forward dual numbers, as host/device functions:
// the OpenMP ShellOperator and the CUDA tangent engine call the same code, so the shell's
// tangent is computed once for both backends. Rotation dofs are spins about the nodal triad
// (t1, t2 = v x t1): dof alpha turns the director and triad by alpha t1 x (.), which is the
// derivative at zero of the exact exponential-map update the Newton driver applies.
#pragma once

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "elements/mitc4.hpp"
#include "elements/mitc4_plastic.hpp"

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

/// The elastic section's internal force in dual numbers: what mitc4_directional_derivative_by
/// differentiates for an elastic shell.
struct Mitc4ElasticForce {
  const Mitc4Ref<Dual<double>>& ref;
  const ShellElastic<Dual<double>>& mat;
  double thickness;
  HS_HD Dual<double> operator()(const Mitc4Nodes<Dual<double>>& nodes, Vec3<Dual<double>> f[4],
                                Vec3<Dual<double>> gv[4]) const {
    return mitc4_internal_force(ref, nodes, Dual<double>(thickness), mat, f, gv);
  }
};

/// The same for a plastic section (elements/mitc4_plastic.hpp): the return from the converged
/// state (plain doubles, nothing written), so its derivative is the consistent tangent.
struct Mitc4PlasticForce {
  const Mitc4Ref<Dual<double>>& ref;
  const SolidMaterial<Dual<double>>& law;
  double thickness, kshear;
  int points;
  ElementState<double> state;  ///< old: the converged state (null: virgin); next must be null
  HS_HD Dual<double> operator()(const Mitc4Nodes<Dual<double>>& nodes, Vec3<Dual<double>> f[4],
                                Vec3<Dual<double>> gv[4]) const {
    using D = Dual<double>;
    D dissipated[4];
    return mitc4_internal_force_with(
        ref, nodes, D(thickness), Mitc4PlasticSection<D, double>{law, D(kshear), D(thickness), points, state, dissipated},
        f, gv);
  }
};

/// A plastic section in a geometrically linear step (Mitc4SmallStrainSection): evaluated at
/// the reference along the displacements, V = double for the forces, Dual<double> for their
/// tangent (second-order numbers Dual<V> in all).
template <class V>
struct Mitc4SmallStrainForce {
  const Mitc4Ref<Dual<V>>& ref;
  const SolidMaterial<V>& law;
  double thickness, kshear;
  int points;
  ElementState<double> state;  ///< old: the converged state (null: virgin); next: the trial's (null: none)
  V* dissipation;              ///< 4 per element: per in-plane point, per unit area (null: not wanted)
  HS_HD Dual<V> operator()(const Mitc4Nodes<Dual<V>>& nodes, Vec3<Dual<V>> f[4], Vec3<Dual<V>> gv[4]) const {
    return mitc4_internal_force_with(
        ref, nodes, Dual<V>(V(thickness)),
        Mitc4SmallStrainSection<V>{law, V(kshear), V(thickness), points, state, dissipation}, f, gv);
  }
};

/// theta x v for a turn theta of any number type and a plain vector v.
template <class V>
HS_HD Vec3<V> turned_by(const Vec3<V>& theta, const Vec3<double>& v) {
  return {theta.y * v.z - theta.z * v.y, theta.z * v.x - theta.x * v.z, theta.x * v.y - theta.y * v.x};
}

/// One dual evaluation of force (Mitc4ElasticForce, Mitc4PlasticForce, Mitc4SmallStrainForce)
/// at the configuration plain (triads t1) displaced along the element dof vector dx (20
/// values: per corner 3 translations, spin about t1, spin about t2; V = double, or a dual
/// number for second derivatives): the generalized forces' derivative parts into out (20),
/// and the energy's derivative part returned. Column j of the element matrix is dx = e_j;
/// the geometrically linear force K(0) x is dx = x at the reference configuration.
template <class V, class Force>
HS_HD V mitc4_dual_evaluation(const Mitc4Nodes<double>& plain, const Vec3<double> t1[4], const V dx[20],
                              const Force& force, V out[20]) {
  using D = Dual<V>;
  Mitc4Nodes<D> nodes;
  Vec3<D> triad[4];
  for (int b = 0; b < 4; ++b) {
    const V* q = dx + 5 * b;
    const Vec3<double> t2 = cross(plain.v[b], t1[b]);
    const Vec3<V> theta{q[3] * t1[b].x + q[4] * t2.x, q[3] * t1[b].y + q[4] * t2.y, q[3] * t1[b].z + q[4] * t2.z};
    const Vec3<V> dv = turned_by(theta, plain.v[b]), dt = turned_by(theta, t1[b]);
    nodes.X[b] = {D(V(plain.X[b].x)), D(V(plain.X[b].y)), D(V(plain.X[b].z))};
    nodes.V0[b] = {D(V(plain.V0[b].x)), D(V(plain.V0[b].y)), D(V(plain.V0[b].z))};
    nodes.u[b] = {D(V(plain.u[b].x), q[0]), D(V(plain.u[b].y), q[1]), D(V(plain.u[b].z), q[2])};
    nodes.v[b] = {D(V(plain.v[b].x), dv.x), D(V(plain.v[b].y), dv.y), D(V(plain.v[b].z), dv.z)};
    triad[b] = {D(V(t1[b].x), dt.x), D(V(t1[b].y), dt.y), D(V(t1[b].z), dt.z)};
  }
  Vec3<D> f[4], gv[4];
  const D energy = force(nodes, f, gv);
  for (int b = 0; b < 4; ++b) {
    D g[5];
    mitc4_corner_generalized_force(f[b], gv[b], nodes.v[b], triad[b], g);
    for (int r = 0; r < 5; ++r) out[5 * b + r] = g[r].d;
  }
  return energy.d;
}

/// Derivative of the generalized forces along dx (mitc4_dual_evaluation with plain numbers).
template <class Force>
HS_HD void mitc4_directional_derivative_by(const Mitc4Nodes<double>& plain, const Vec3<double> t1[4], const double dx[20],
                                           const Force& force, double out[20]) {
  mitc4_dual_evaluation<double>(plain, t1, dx, force, out);
}

/// mitc4_directional_derivative_by for an elastic section.
HS_HD void mitc4_directional_derivative(const Mitc4Ref<Dual<double>>& ref, const Mitc4Nodes<double>& plain,
                                               const Vec3<double> t1[4], double thickness,
                                               const ShellElastic<Dual<double>>& mat, const double dx[20],
                                               double out[20]) {
  mitc4_directional_derivative_by(plain, t1, dx, Mitc4ElasticForce{ref, mat, thickness}, out);
}

/// Column j (0..19) of the element matrix of force (a Mitc4ElasticForce or Mitc4PlasticForce),
/// written into ke (20 x 20, row-major).
template <class Force>
HS_HD void mitc4_matrix_column_by(const Mitc4Nodes<double>& plain, const Vec3<double> t1[4], const Force& force, int j,
                                  double* ke) {
  double dx[20], col[20];
  for (int i = 0; i < 20; ++i) dx[i] = i == j ? 1.0 : 0.0;
  mitc4_directional_derivative_by(plain, t1, dx, force, col);
  for (int i = 0; i < 20; ++i) ke[i * 20 + j] = col[i];
}

/// Column j (0..19) of the element matrix, written into ke (20 x 20, row-major).
HS_HD void mitc4_matrix_column(const Mitc4Ref<Dual<double>>& ref, const Mitc4Nodes<double>& plain,
                                      const Vec3<double> t1[4], double thickness,
                                      const ShellElastic<Dual<double>>& mat, int j, double* ke) {
  mitc4_matrix_column_by(plain, t1, Mitc4ElasticForce{ref, mat, thickness}, j, ke);
}

}  // namespace halfstep
