// CAX4R: the 4-node axisymmetric quadrilateral with one integration point and hourglass
// springs, total Lagrangian, as a host/device continuum trait (interface in
// solid_kinds.hpp). Nodes carry (r, z) as (x, y), r >= 0; z of the deck is ignored.
//
// Every volume integral is over the full ring, dV = 2 pi r dA, so nodal forces, masses and
// reactions are totals around the circumference and concentrated loads are read as such
// (Abaqus's convention). F = [[F2, 0], [0, F_tt]] with the in-plane block F2 (rows and
// columns r, z) and the hoop stretch F_tt = 1 + u_r / r. The single point uses exactly
// integrated element averages (2x2 Gauss is exact for each):
//   V = 2 pi int r dA,  G_a = 2 pi int dN_a/dX r dA,  H_a = 2 pi int N_a dA,
//   F2 = I + sum_a u_a (x) G_a / V,  F_tt = 1 + sum_a u_r,a H_a / V,
// the axisymmetric form of C3D8R's uniform gradient: sum_a X_a (x) G_a = V I and
// sum_a R_a H_a = V, so the fields u_r = c r, u_z = d z + e (uniform strain) are exact, and a
// uniform stress gives the exactly integrated nodal forces P2 G_a + P_tt H_a e_r, which cancel
// at interior nodes (the patch test). The energy is V W(F) and the forces its exact gradient.
// The one point leaves three zero-energy modes besides the translation along the axis: the
// hourglass mode in r and in z, resisted by CPS4R's springs on the planar Flanagan-Belytschko
// vector gamma (orthogonal to every linear field in (r, z)), stiffness k = kappa M V sum_a
// |b_a|^2 / 4 with b_a the element's area-averaged gradients (k / V as CPS4R's k / (t A));
// and the rotation about the element's centroid, u_r = -theta (z - zc), u_z = theta (r - rc),
// whose hoop strain -theta (z - zc) / r averages to zero over the ring. A third spring
// resists it: on q_t = sum_a t_a u_r,a, t_a = 2 pi int N_a (z - zc) dA, the first moment
// int eps_tt (z - zc) dV of the hoop strain along z (zero for u_r = c r), stiffness
// kappa M / I, I = 2 pi int r (z - zc)^2 dA: the energy of a hoop strain varying linearly in z
// with that moment, for the modulus kappa M. Lumped mass by row sum, rho 2 pi int N_a r dA. The section thickness is
// not used.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/plane_quad.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace plane_detail {

/// Ring integrals of one axisymmetric quadrilateral (see the file comment).
template <class T>
struct AxiRef {
  T volume;      ///< V = 2 pi int r dA (the full ring)
  Vec3<T> g[4];  ///< G_a / V (z = 0)
  T h[4];        ///< H_a / V
  T mass[4];     ///< 2 pi int N_a r dA / V: the row-sum mass fractions
  T t[4];        ///< 2 pi int N_a (z - zc) dA: the hoop strain's first moment along z per u_r,a
  T inertia;     ///< 2 pi int r (z - zc)^2 dA (zc the ring volume's centroid height)
  Quad4Ref<T> planar;  ///< area-averaged gradients and the hourglass vector
};

/// The ring integrals from the node positions; false when the element is inverted or flat at
/// a 2x2 point, a node has r < 0, or the ring volume is not positive.
template <class T>
HS_HD bool axi_reference(const Vec3<T> X[4], AxiRef<T>& r) {
  const T two_pi = T(6.28318530717958647693);
  if (!quad4_reference(X, r.planar)) return false;
  T G[4][2] = {}, H[4] = {}, M[4] = {}, Z[4] = {}, vol = T(0), rz = T(0), rzz = T(0);
  T z0 = T(0);  // heights from the nodes' mean: the moments below do not cancel digits
  for (int a = 0; a < 4; ++a) {
    if (!(X[a].x >= T(0))) return false;
    z0 += X[a].y / T(4);
  }
  for (int gp = 0; gp < 4; ++gp) {
    Vec3<T> b[4];
    T N[4];
    const T det = quad4_gradients(X, quad4_gauss<T>(gp, 0), quad4_gauss<T>(gp, 1), b, N);
    if (!(det > T(0))) return false;
    T radius = T(0), z = T(0);
    for (int a = 0; a < 4; ++a) {
      radius += N[a] * X[a].x;
      z += N[a] * (X[a].y - z0);
    }
    const T w = two_pi * det;
    for (int a = 0; a < 4; ++a) {
      G[a][0] += w * radius * b[a].x;
      G[a][1] += w * radius * b[a].y;
      H[a] += w * N[a];
      M[a] += w * N[a] * radius;
      Z[a] += w * N[a] * z;
    }
    vol += w * radius;
    rz += w * radius * z;
    rzz += w * radius * z * z;
  }
  if (!(vol > T(0))) return false;
  r.volume = vol;
  const T zc = rz / vol;
  r.inertia = rzz - zc * rz;
  for (int a = 0; a < 4; ++a) {
    r.g[a] = {G[a][0] / vol, G[a][1] / vol, T(0)};
    r.h[a] = H[a] / vol;
    r.mass[a] = M[a] / vol;
    r.t[a] = Z[a] - zc * H[a];
  }
  return r.inertia > T(0);
}

/// F = [[F2, 0], [0, F_tt]] of displacements u.
template <class T>
HS_HD Mat3<T> axi_deformation(const AxiRef<T>& r, const Vec3<T> u[4]) {
  Mat3<T> F = scaled_identity(T(1));
  for (int a = 0; a < 4; ++a) {
    F(0, 0) += u[a].x * r.g[a].x;
    F(0, 1) += u[a].x * r.g[a].y;
    F(1, 0) += u[a].y * r.g[a].x;
    F(1, 1) += u[a].y * r.g[a].y;
    F(2, 2) += u[a].x * r.h[a];
  }
  return F;
}

/// Stiffness of the hoop-moment spring of CAX4R: kappa M / I (I = AxiRef::inertia).
template <class T>
HS_HD T axi_hoop_stiffness(const AxiRef<T>& r, T modulus, T kappa) {
  return kappa * modulus / r.inertia;
}

/// Hourglass stiffness of CAX4R: kappa M V sum_a |b_a|^2 / 4.
template <class T>
HS_HD T axi_hourglass_stiffness(const AxiRef<T>& r, T modulus, T kappa) {
  T bb = T(0);
  for (int a = 0; a < 4; ++a) bb += dot(r.planar.b[a], r.planar.b[a]);
  return kappa * modulus * r.volume * bb / T(4);
}

}  // namespace plane_detail

/// CAX4R: axisymmetric quadrilateral, one point, hourglass springs (see the file comment).
struct CAX4R {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 4;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CAX4R"; }
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;        ///< nodes carry (r, z) as (x, y)
  static constexpr bool kAxisymmetric = true;  ///< volumes are rings: the section thickness is not used
  static constexpr int kVtkCell = 9;          ///< VTK_QUAD (the r-z section)
  /// Relative cost (MITC4 = 1): CPE4R's plus the hoop term; estimated, not measured.
  static constexpr double kCost = 0.4;
  static constexpr int kPoints = 1;

  /// Row-sum lumped mass (2 pi int N_a r dA) / V. Returns the ring volume V, or 0 when the
  /// element is inverted, flat at a 2x2 point, or has a node at r < 0.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[4], T frac[4]) {
    plane_detail::AxiRef<T> r;
    if (!plane_detail::axi_reference(X, r)) {
      for (int a = 0; a < 4; ++a) frac[a] = T(0.25);
      return T(0);
    }
    for (int a = 0; a < 4; ++a) frac[a] = r.mass[a];
    return r.volume;
  }

  /// Nodal forces (totals around the ring; z = 0) and energies: strain V W(F), hourglass
  /// k/2 |q|^2. NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[4], const ElementState<T>& state = {}) {
    plane_detail::AxiRef<T> r;
    if (!plane_detail::axi_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < 4; ++a) f[a] = {nan, nan, nan};
      return {nan, nan};
    }
    const Mat3<T> F = plane_detail::axi_deformation(r, u);
    const SolidStress<T> s = point_stress(m, F, state, 0);
    const Mat3<T> P = r.volume * (F * s.S);
    const T k = plane_detail::axi_hourglass_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    const T kt = plane_detail::axi_hoop_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    T qx = T(0), qy = T(0), qt = T(0);
    for (int a = 0; a < 4; ++a) {
      qx += r.planar.gamma[a] * u[a].x;
      qy += r.planar.gamma[a] * u[a].y;
      qt += r.t[a] * u[a].x;
    }
    for (int a = 0; a < 4; ++a)
      f[a] = {P(0, 0) * r.g[a].x + P(0, 1) * r.g[a].y + P(2, 2) * r.h[a] + k * r.planar.gamma[a] * qx + kt * r.t[a] * qt,
              P(1, 0) * r.g[a].x + P(1, 1) * r.g[a].y + k * r.planar.gamma[a] * qy, T(0)};
    return {r.volume * s.energy, T(0.5) * (k * (qx * qx + qy * qy) + kt * qt * qt), r.volume * s.dissipation, T(0),
            r.volume * s.thermal_slope};
  }

  /// Critical increment bound 2/omega with the lumped masses m_a: Cauchy-Schwarz
  /// gives eps:eps <= B |u|_M^2, B = sum_a (|g_a|^2 + h_a^2) / m_a, and (tr eps)^2 <= B_t
  /// |u|_M^2, B_t = sum_a |g_a + h_a e_r|^2 / m_a, so the one point contributes
  /// V (lam B_t + g2 B); the springs add k sum_a gamma_a^2 / m_a and kt sum_a t_a^2 / m_a (Weyl).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[4], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    plane_detail::AxiRef<T> r;
    if (!plane_detail::axi_reference(X, r)) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    T B = T(0), Bt = T(0), Bg = T(0), Bh = T(0);
    for (int a = 0; a < 4; ++a) {
      const T ma = m.density * r.volume * r.mass[a];
      const T gr = r.g[a].x + r.h[a];
      B += (dot(r.g[a], r.g[a]) + r.h[a] * r.h[a]) / ma;
      Bt += (gr * gr + r.g[a].y * r.g[a].y) / ma;
      Bg += r.planar.gamma[a] * r.planar.gamma[a] / ma;
      Bh += r.t[a] * r.t[a] / ma;
    }
    const T k = plane_detail::axi_hourglass_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    const T kt = plane_detail::axi_hoop_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    return solid_detail::dt_from_omega2(r.volume * (lam * Bt + g2 * B) + k * Bg + kt * Bh);
  }

  /// Cauchy stress (S33 the hoop stress) and Green strain at the element's point.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    plane_detail::AxiRef<T> r;
    if (!plane_detail::axi_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    return solid_detail::point_output(m, plane_detail::axi_deformation(r, u), state, 0);
  }
};

}  // namespace halfstep
