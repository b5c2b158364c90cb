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
#include "materials/material_duals.hpp"

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

/// Shells as flat arrays (the CUDA tangent engine's device copy): connectivity, reference
/// constants, sections, reference directors, and the configuration's directors and triads;
/// with plastic shells also the sections' laws and section points and the section points'
/// converged and trial state. The bodies below loop over it (cuda::forall).
struct ShellView {
  const int* conn;
  const Mitc4Ref<double>* ref;
  const double* thickness;
  const ShellElastic<double>* elastic;
  const double *x0, *y0, *z0, *d0;  ///< d0: reference directors, 3 per node
  const double *u, *d, *t1;         ///< configuration, 3 per node each
  // Plastic shells (all null in a model without them):
  const int* section;                ///< element -> section
  const int* points;                 ///< section -> Simpson points (0: elastic section)
  const SolidMaterial<double>* law;  ///< section -> law
  const std::size_t* first;          ///< element -> first section point in the state store
  std::size_t stride = 0;            ///< the store's number of points (StructureSystem's shell.num_points)
  const double* state_old = nullptr; ///< the converged state (null: virgin)
  double* state_next = nullptr;      ///< the trial's, written by the forces (null: nowhere)
  /// Element e's nodal vectors and triads.
  HS_HD Mitc4Nodes<double> nodes(int e, Vec3<double> triad[4]) const {
    Mitc4Nodes<double> m;
    for (int a = 0; a < 4; ++a) {
      const std::size_t n = static_cast<std::size_t>(conn[4 * static_cast<std::size_t>(e) + a]);
      m.X[a] = {x0[n], y0[n], z0[n]};
      m.u[a] = {u[3 * n], u[3 * n + 1], u[3 * n + 2]};
      m.V0[a] = {d0[3 * n], d0[3 * n + 1], d0[3 * n + 2]};
      m.v[a] = {d[3 * n], d[3 * n + 1], d[3 * n + 2]};
      triad[a] = {t1[3 * n], t1[3 * n + 1], t1[3 * n + 2]};
    }
    return m;
  }
  /// Element e's section, when that section yields (-1: elastic).
  HS_HD int plastic_section(int e) const {
    if (!points) return -1;
    const int s = section[e];
    return points[s] > 0 ? s : -1;
  }
};

/// Shell e's 20 generalized forces and strain energy (ShellOperator::element_forces): a
/// plastic section returns from the converged state and writes the trial's.
struct ShellForceBody {
  ShellView v;
  double *force, *energy;
  HS_HD void operator()(int e) const {
    Vec3<double> triad[4];
    const Mitc4Nodes<double> m = v.nodes(e, triad);
    double* out = force + 20 * static_cast<std::size_t>(e);
    const int s = v.plastic_section(e);
    if (s < 0) {
      energy[e] = mitc4_generalized_forces(v.ref[e], m, triad, v.thickness[e], v.elastic[e], out);
      return;
    }
    Vec3<double> f[4], gv[4];
    const ElementState<double> state{v.state_old, v.state_next, v.stride, v.first[e]};
    energy[e] = mitc4_plastic_internal_force(v.ref[e], m, v.thickness[e], v.law[s], v.elastic[e].kshear, v.points[s],
                                             state, f, gv);
    for (int a = 0; a < 4; ++a) mitc4_corner_generalized_force(f[a], gv[a], m.v[a], triad[a], out + 5 * a);
  }
};

/// K_e x_e of shell e at the view's configuration (x: stride values per node); elastic
/// sections (a geometrically linear step's K(ref) x; plastic ones take the small-strain
/// theory, which this engine does not have).
struct ShellLinearBody {
  ShellView v;
  const double* x;
  int stride;
  double* force;
  HS_HD void operator()(int e) const {
    Vec3<double> triad[4];
    const Mitc4Nodes<double> m = v.nodes(e, triad);
    double dx[20];
    for (int a = 0; a < 4; ++a) {
      const std::size_t n = static_cast<std::size_t>(v.conn[4 * static_cast<std::size_t>(e) + a]);
      for (int q = 0; q < 5; ++q) dx[5 * a + q] = x[static_cast<std::size_t>(stride) * n + q];
    }
    mitc4_directional_derivative(mitc4_dual_ref<Dual<double>>(v.ref[e]), m, triad, v.thickness[e],
                                 mitc4_dual_elastic<Dual<double>>(v.elastic[e]), dx, force + 20 * static_cast<std::size_t>(e));
  }
};

/// Shell element matrices, one column (one dual evaluation) per thread: t = 20 e + j.
/// kPlastic: the model has plastic sections, whose columns differentiate the return from the
/// converged state (the consistent tangent); a separate instantiation, so that the elastic
/// models' kernel keeps its registers.
template <bool kPlastic>
struct ShellMatrixBody {
  ShellView v;
  double* k;  ///< the first shell matrix
  HS_HD void operator()(int t) const {
    const int e = t / 20, j = t - 20 * e;
    Vec3<double> triad[4];
    const Mitc4Nodes<double> m = v.nodes(e, triad);
    double* ke = k + 400 * static_cast<std::size_t>(e);
    const Mitc4Ref<Dual<double>> ref = mitc4_dual_ref<Dual<double>>(v.ref[e]);
    if constexpr (kPlastic) {
      const int s = v.plastic_section(e);
      if (s >= 0) {
        const SolidMaterial<Dual<double>> law = dual_material(v.law[s]);
        const Mitc4PlasticForce force{ref, law, v.thickness[e], v.elastic[e].kshear, v.points[s],
                                      ElementState<double>{v.state_old, nullptr, v.stride, v.first[e]}};
        mitc4_matrix_column_by(m, triad, force, j, ke);
        return;
      }
    }
    mitc4_matrix_column(ref, m, triad, v.thickness[e], mitc4_dual_elastic<Dual<double>>(v.elastic[e]), j, ke);
  }
};

}  // namespace halfstep
