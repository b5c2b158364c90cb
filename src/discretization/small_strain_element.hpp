// One continuum element in the small-strain theory of a geometrically linear static step with
// plasticity (docs/theory.md, "Small strain"): the kind's internal_force in dual numbers with
// value u = 0 and derivative u (its kinematics linearized about the reference), the materials
// flagged small_strain so that the laws answer in that theory (materials/material_law.hpp,
// evaluate), and its consistent tangent in second-order dual numbers. Host/device, run by
// ContinuumOperator; the CUDA tangent engine does not run it yet (its second-order dual
// kernels for every kind kept ptxas busy over 26 minutes).
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "discretization/tangent_state.hpp"
#include "elements/fpm_hex_small_strain.hpp"
#include "elements/solid_common.hpp"
#include "materials/material_law.hpp"

namespace halfstep {

/// Whether kind K is an adhesion edge (K::kAdhesion). Its gap moves with u along the
/// substrate's fixed normal and its energy is integrated on the reference: geometrically linear
/// as it stands, the small-strain theory evaluates it at u, its law followed by Newton.
template <class K, class = void>
struct IsAdhesionEdge : std::false_type {};
template <class K>
struct IsAdhesionEdge<K, std::void_t<decltype(K::kAdhesion)>> : std::bool_constant<K::kAdhesion> {};

/// Kinds whose results in a small-strain step are read as in any other step, not as the
/// derivative about the reference: the FPM hexahedron (fpm_hex_small_strain writes its stresses
/// into its state, as its update does) and the adhesion edges (their traction at u is the
/// answer, not its linearization about the reference gap).
template <class K>
constexpr bool small_strain_as_is() {
  return std::is_same_v<K, FpmC3D8> || IsAdhesionEdge<K>::value;
}

/// Kind K's forces in the small-strain theory's dual numbers: its internal_force with the
/// materials flagged small_strain (the laws answer in that theory, kinematics linearized by the
/// derivative parts), or the FPM hexahedron's own evaluation (fpm_hex_small_strain).
template <class K, class T>
HS_HD SolidEnergy<T> small_strain_forces_of(const Vec3<T>* X, const Vec3<T>* u, const SolidMaterial<T>& m, T kappa,
                                            Vec3<T>* f, const ElementState<T>& st) {
  if constexpr (std::is_same_v<K, FpmC3D8>) {
    (void)kappa;
    return fpm_hex_small_strain(X, u, m, st, f);
  } else {
    return K::internal_force(X, u, m, kappa, f, st);
  }
}

/// Energies of one element's small-strain evaluation.
struct SmallStrainEnergy {
  double strain;       ///< the laws' energy: stored elastic plus dissipated (no hourglass part)
  double hourglass;    ///< the hourglass springs' u . K_hg u / 2
  double dissipation;  ///< plastic work dissipated so far
};

/// Kind K's element with reference nodes X, displacements u and material m (dual, flagged
/// small_strain): forces into f, the state of its points (K::kPoints from p0 in a store of
/// stride `stride`, ns components; old null: virgin) evaluated from old into next (null: not
/// written), temperature change thermal. The hourglass springs' energy, quadratic, has no
/// first derivative: it is u . (f - f at kappa 0) / 2, from a second evaluation.
template <class K>
HS_HD SmallStrainEnergy small_strain_element(const Vec3<double>* X, const Vec3<double>* u,
                                             const SolidMaterial<Dual<double>>& m, double kappa, const double* old,
                                             double* next, std::size_t stride, std::size_t p0, int ns,
                                             const double* data, double thermal, Vec3<double>* f) {
  using D = Dual<double>;
  Vec3<D> Xd[K::kNodes], du[K::kNodes], fe[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) {
    Xd[a] = {D(X[a].x), D(X[a].y), D(X[a].z)};
    du[a] = {D(0.0, u[a].x), D(0.0, u[a].y), D(0.0, u[a].z)};
  }
  D so[state_capacity<K>()], sn[state_capacity<K>()];
  if (ns > 0) dual_point_state<K>(old, stride, p0, ns, so);
  const D dtheta(0.0, thermal);  // the temperature change rides in the derivative
  const SolidEnergy<D> w = small_strain_forces_of<K>(
      Xd, du, m, D(kappa), fe,
      ElementState<D>{ns > 0 ? so : nullptr, ns > 0 ? sn : nullptr, static_cast<std::size_t>(K::kPoints), 0, data, dtheta});
  for (int a = 0; a < K::kNodes; ++a) f[a] = {fe[a].x.d, fe[a].y.d, fe[a].z.d};
  if (ns > 0 && next)
    for (int c = 0; c < ns; ++c)
      for (int p = 0; p < K::kPoints; ++p)
        next[static_cast<std::size_t>(c) * stride + p0 + static_cast<std::size_t>(p)] = sn[c * K::kPoints + p].v;
  double hourglass = 0;
  if (kappa > 0) {
    small_strain_forces_of<K>(Xd, du, m, D(0.0), fe,
                              ElementState<D>{ns > 0 ? so : nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0,
                                              data, dtheta});
    for (int a = 0; a < K::kNodes; ++a)
      hourglass += 0.5 * (u[a].x * (f[a].x - fe[a].x.d) + u[a].y * (f[a].y - fe[a].y.d) + u[a].z * (f[a].z - fe[a].z.d));
  }
  return {w.strain.d, hourglass, w.dissipation.d};
}

/// Column j of kind K's small-strain tangent at u (same arguments; m in second-order dual
/// numbers, flagged small_strain): the derivative along dof j of small_strain_element's
/// forces, into col (3 per node).
template <class K>
HS_HD void small_strain_column(const Vec3<double>* X, const Vec3<double>* u,
                               const SolidMaterial<Dual<Dual<double>>>& m, double kappa, const double* old,
                               std::size_t stride, std::size_t p0, int ns, const double* data, double thermal, int j,
                               Vec3<double>* col) {
  using D = Dual<double>;
  using DD = Dual<D>;
  Vec3<DD> Xd[K::kNodes], du[K::kNodes], fe[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) {
    Xd[a] = {DD(D(X[a].x)), DD(D(X[a].y)), DD(D(X[a].z))};
    du[a] = {DD(D(0.0), D(u[a].x, j == 3 * a ? 1.0 : 0.0)), DD(D(0.0), D(u[a].y, j == 3 * a + 1 ? 1.0 : 0.0)),
             DD(D(0.0), D(u[a].z, j == 3 * a + 2 ? 1.0 : 0.0))};
  }
  DD so[state_capacity<K>()];
  if (ns > 0) dual_point_state<K>(old, stride, p0, ns, so);
  small_strain_forces_of<K>(Xd, du, m, DD(D(kappa)), fe,
                            ElementState<DD>{ns > 0 ? so : nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0,
                                             data, DD(D(0.0), D(thermal))});
  for (int a = 0; a < K::kNodes; ++a) col[a] = {fe[a].x.d.d, fe[a].y.d.d, fe[a].z.d.d};
}

}  // namespace halfstep
