// The finite particle method (FPM / VFIFE) hexahedron: the deck's C3D8 with *SOLID SECTION,
// FORMULATION=FPM (issue 13, seed 003; docs/theory.md "FPM hexahedron"). Same nodes, 2x2x2
// Gauss points, lumped masses and stable-increment bound as the total-Lagrangian C3D8
// (solid_hex.hpp), but incremental and convected: each call takes the element from the
// configuration "a" of its previous call to the current one "t",
//   1. F_D = I + sum_a (u_a - u^a_a) (x) bbar_a(x^a), the increment gradient at the centroid
//      (volume-averaged gradients on the "a" geometry); its polar rotation R (Higham's
//      iteration, written for R - I) is the rigid rotation of the increment;
//   2. the element frame moves with it, Q_t = R Q_a (re-orthonormalised);
//   3. the pure deformation at Gauss point g, in the frame Q_a:
//      deps_g = Q_a^T [sym(R^T F_D,g) - I] Q_a, F_D,g the increment gradient at g on "a", with
//      B-bar against volumetric locking: its trace replaced by the centroid's tr(R^T F_D) - 3;
//   4. the convected strain eps_g += deps_g and the stress sigma_hat_g from the law (isotropic
//      elasticity, or the small-strain J2 return of j2_plasticity.hpp), both in the element
//      frame, so a rigid rotation leaves them unchanged;
//   5. forces on the current geometry: sigma_g = Q_t sigma_hat_g Q_t^T and, with the B-bar
//      virtual strain, f_a = sum_g detJ_g (dev sigma_g + pbar I) b_a(g), pbar the volume mean
//      of the pressure.
// The internal energy is the work of the stresses, accumulated per increment with the
// trapezoidal rule (W += 1/2 (sigma_old + sigma_new) : deps detJ_g^a): elastic energy plus
// plastic dissipation. Everything the element carries lives in the per-point store
// (materials/material_law.hpp), the element-level values spread over its points.
#pragma once

#include <cmath>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "elements/solid_hex.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace fpm_detail {

/// Components of an FPM hexahedron point's state: the law's state (J2: plastic strain,
/// alpha at kJ2Alpha so PEEQ output reads it as for every kind, dissipation; unused when
/// elastic), the convected total strain (11, 22, 33, 12, 13, 23), then the element values.
enum FpmHexPointState : int { kLaw = 0, kStrain = kJ2StateSize, kElement = kJ2StateSize + 6 };
/// Element-level values (ElementState::element_old): the frame Q - I (9, row-major; zero is
/// the reference frame, so the zero virgin state is valid), the displacements of
/// configuration "a" (8 nodes x 3), the accumulated internal work and its plastic part.
enum FpmHexElementValues : int { kFrame = 0, kNodesA = 9, kWork = 33, kDissipation = 34, kElementValues = 35 };
/// State values per point: the element values take ceil(35 / 8) = 5 components.
constexpr int kPointStateSize = kElement + (kElementValues + 7) / 8;

/// The rotation R of the polar decomposition F = R U (det F > 0), by Higham's iteration
/// R <- (R + R^-T) / 2 (quadratic convergence; one pass more after the value has converged
/// lets dual-number derivatives settle too). Used to re-orthonormalise the element frame
/// after each update, where F is orthogonal to round-off and two passes do.
template <class T>
HS_HD Mat3<T> polar_rotation(const Mat3<T>& F) {
  using std::fabs;
  Mat3<T> R = F;
  const double tol = 100.0 * j2_detail::round_off(F.a[0]);
  bool done = false;
  for (int it = 0; it < 40; ++it) {
    const Mat3<T> next = T(0.5) * (R + transpose(inverse(R)));
    double change = 0;
    for (int k = 0; k < 9; ++k) {
      const double d = fabs(autodiff::value_of(next.a[k] - R.a[k]));
      change = d > change ? d : change;
    }
    R = next;
    if (done) break;
    done = !(change > tol);
  }
  return R;
}

/// R - I for the rotation R of the polar decomposition of I + H (det(I + H) > 0), by the same
/// iteration written for A = R - I: A <- (A + B) / 2 with B = (I + A^T)^-1 - I =
/// -A^T (I + A^T)^-1, starting from H. For the small H of an increment no entry is formed as a
/// difference of numbers near 1, so R - I (and sym(R - I), of second order in the rotation)
/// keeps its relative precision: in FP32 the strain increments would otherwise carry an
/// absolute error of the order of 1e-7 each increment, a drift over thousands of increments.
template <class T>
HS_HD Mat3<T> polar_rotation_minus_identity(const Mat3<T>& H) {
  using std::fabs;
  const Mat3<T> I = scaled_identity(T(1));
  Mat3<T> A = H;
  const double tol = 100.0 * j2_detail::round_off(H.a[0]);
  bool done = false;
  for (int it = 0; it < 40; ++it) {
    const Mat3<T> At = transpose(A);
    const Mat3<T> next = T(0.5) * (A - At * inverse(I + At));
    double change = 0, size = 0;
    for (int k = 0; k < 9; ++k) {
      const double d = fabs(autodiff::value_of(next.a[k] - A.a[k])), a = fabs(autodiff::value_of(next.a[k]));
      change = d > change ? d : change;
      size = a > size ? a : size;
    }
    A = next;
    if (done) break;
    done = !(change > tol * size);
  }
  return A;
}

/// Symmetric part of A.
template <class T>
HS_HD Mat3<T> sym(const Mat3<T>& A) {
  return T(0.5) * (A + transpose(A));
}

/// Isotropic elastic stress lambda tr(e) I + 2 mu e.
template <class T>
HS_HD Mat3<T> elastic_stress(const SolidMaterial<T>& m, const Mat3<T>& e) {
  return (m.lambda * trace(e)) * scaled_identity(T(1)) + (T(2) * m.mu) * e;
}

/// The symmetric tensor of components 11, 22, 33, 12, 13, 23 stored from component c0 of a
/// point's state.
template <class T>
HS_HD Mat3<T> read_sym(const StateSlice<const T>& s, int c0) {
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  Mat3<T> e = scaled_identity(T(0));
  if (!s.p) return e;
  for (int k = 0; k < 6; ++k) e(vi[k], vj[k]) = e(vj[k], vi[k]) = s[c0 + k];
  return e;
}

/// The stress of point state s (convected strain and law state) without a new increment:
/// C : eps (elastic) or C : (eps - eps_p) (J2, the stress its last return left).
template <class T>
HS_HD Mat3<T> stored_stress(const SolidMaterial<T>& m, const StateSlice<const T>& s) {
  const Mat3<T> eps = read_sym(s, kStrain);
  return elastic_stress(m, law_is<J2Plastic>(m) ? eps - read_sym(s, kLaw) : eps);
}

/// The element frame Q_a of a state (identity without a store).
template <class T>
HS_HD Mat3<T> frame_of(const ElementState<T>& st) {
  Mat3<T> Q = scaled_identity(T(1));
  for (int k = 0; k < 9; ++k) Q.a[k] = Q.a[k] + st.element_old(kElement, 8, kFrame + k);
  return Q;
}

/// What the whole-element part of an increment's kinematics (hex_frame) leaves for the Gauss
/// points: the frames Q_a and Q_t, A^T = (R - I)^T of the increment's rigid rotation, the
/// B-bar trace, the configuration "a" (positions, the displacement increments) and whether it
/// is valid (its volume positive).
template <class T>
struct HexFrame {
  Mat3<T> Qa, Qt, At;
  T vol_increment;
  bool valid;
  Vec3<T> xa[8], du[8];
};

/// Steps 1 and 2 of the increment (file comment): the centroid's increment gradient, its
/// rigid rotation and the new frame, from the state st (configuration "a") and the
/// displacements u now.
template <class T>
HS_HD HexFrame<T> hex_frame(const Vec3<T> X[8], const Vec3<T> u[8], const ElementState<T>& st) {
  using solid_detail::add_outer;
  HexFrame<T> fr;
  fr.Qa = frame_of(st);
  for (int a = 0; a < 8; ++a) {
    const Vec3<T> ua{st.element_old(kElement, 8, kNodesA + 3 * a), st.element_old(kElement, 8, kNodesA + 3 * a + 1),
                     st.element_old(kElement, 8, kNodesA + 3 * a + 2)};
    fr.xa[a] = X[a] + ua;
    fr.du[a] = u[a] - ua;
  }
  Vec3<T> bbar[8];
  const T va = solid_detail::c3d8_mean_gradients(fr.xa, bbar);
  fr.valid = va > T(0);
  // Rigid rotation of the increment, R = I + A, and the new frame.
  Mat3<T> Hbar = scaled_identity(T(0));
  for (int a = 0; a < 8; ++a) add_outer(Hbar, fr.du[a], bbar[a]);
  fr.At = fr.valid ? transpose(polar_rotation_minus_identity(Hbar)) : scaled_identity(T(0));
  fr.Qt = polar_rotation(fr.Qa + transpose(fr.At) * fr.Qa);
  // The pure deformation R^T (I + H) - I = A^T + H + A^T H: small terms only.
  fr.vol_increment = trace(fr.At + Hbar + fr.At * Hbar);  // B-bar: tr of the centroid's pure deformation
  return fr;
}

/// Step 3 at Gauss point g: the pure deformation increment deps_g in the frame Q_a (B-bar
/// trace); ja: detJ_g on configuration "a".
template <class T>
HS_HD Mat3<T> hex_point_strain(const HexFrame<T>& fr, int g, T& ja) {
  using solid_detail::add_outer;
  Vec3<T> b[8];
  solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                             solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
  ja = solid_detail::hex8_gradients(fr.xa, b);
  Mat3<T> H = scaled_identity(T(0));
  for (int a = 0; a < 8; ++a) add_outer(H, fr.du[a], b[a]);
  Mat3<T> deps = transpose(fr.Qa) * sym(fr.At + H + fr.At * H) * fr.Qa;
  deps = deps + ((fr.vol_increment - trace(deps)) / T(3)) * scaled_identity(T(1));
  return deps;
}

/// What Gauss point g's stress update (hex_point_stress) hands to the forces: the stress in
/// the element frame and the point's shares of the increment's work and plastic dissipation.
template <class T>
struct HexPointResult {
  Mat3<T> sigma;
  T work, dissipation;
};

/// Step 4 at Gauss point g: the convected strain and the stress from the law, from the
/// point's state (written to st.next when it is not null) and its increment deps (ja: detJ_g
/// on "a"); each point independent of the others.
template <class T>
HS_HD HexPointResult<T> hex_point_stress(const SolidMaterial<T>& m, const ElementState<T>& st, int g,
                                         const Mat3<T>& deps, T ja) {
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  // Stress before and after the increment, in the element frame.
  const StateSlice<const T> old = st.old_at(g);
  const Mat3<T> eps = read_sym(old, kStrain) + deps;
  const Mat3<T> sigma_old = stored_stress(m, old);
  HexPointResult<T> r;
  r.dissipation = T(0);
  T law_next[kJ2StateSize];
  if (law_is<J2Plastic>(m)) {
    T law_old[kJ2StateSize];
    for (int c = 0; c < kJ2StateSize; ++c) law_old[c] = old.p ? old[kLaw + c] : T(0);
    r.sigma = j2_small_strain_update(m, eps, law_old, law_next).S;
    r.dissipation = ja * (law_next[kJ2Dissipation] - law_old[kJ2Dissipation]);
  } else {  // isotropic elasticity (model/validate.cpp refuses other laws for FPM)
    for (int c = 0; c < kJ2StateSize; ++c) law_next[c] = T(0);
    r.sigma = elastic_stress(m, eps);
  }
  r.work = T(0.5) * ja * ddot(sigma_old + r.sigma, deps);
  if (st.next) {
    const StateSlice<T> next = st.next_at(g);
    for (int c = 0; c < kJ2StateSize; ++c) next[kLaw + c] = law_next[c];
    for (int k = 0; k < 6; ++k) next[kStrain + k] = eps(vi[k], vj[k]);
  }
  return r;
}

/// The forces' sums over the Gauss points (step 5): the deviatoric forces, the gradients
/// weighted by detJ_g, the pressure times volume and the volume, on the current geometry.
template <class T>
struct HexForceSums {
  Vec3<T> fdev[8], jb[8];
  T pressure_volume, vt;
};

/// Empty sums.
template <class T>
HS_HD HexForceSums<T> hex_force_sums() {
  HexForceSums<T> acc;
  for (int a = 0; a < 8; ++a) acc.fdev[a] = acc.jb[a] = {T(0), T(0), T(0)};
  acc.pressure_volume = acc.vt = T(0);
  return acc;
}

/// Adds Gauss point g's part of the forces on the current geometry xt (stress sigma in the
/// frame, turned by Qt) to acc; false when the point is inverted there.
template <class T>
HS_HD bool hex_point_force(const Vec3<T> xt[8], int g, const Mat3<T>& Qt, const Mat3<T>& sigma, HexForceSums<T>& acc) {
  Vec3<T> b[8];
  solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                             solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
  const T jt = solid_detail::hex8_gradients(xt, b);
  const Mat3<T> s = Qt * sigma * transpose(Qt);
  const T p = trace(s) / T(3);
  const Mat3<T> dev = s - p * scaled_identity(T(1));
  for (int a = 0; a < 8; ++a) {
    acc.fdev[a] += jt * (dev * b[a]);
    acc.jb[a] += jt * b[a];
  }
  acc.pressure_volume = acc.pressure_volume + jt * p;
  acc.vt = acc.vt + jt;
  return jt > T(0);
}

/// Step 5's end: the forces f from the sums and the element values (frame, configuration "a"
/// = u, work and dissipation so far) into the state; NaN forces and energy when not valid.
template <class T>
HS_HD SolidEnergy<T> hex_finish(const ElementState<T>& st, const Vec3<T> u[8], const Mat3<T>& Qt, T work,
                                T dissipation, const HexForceSums<T>& acc, bool valid, Vec3<T> f[8]) {
  if (!valid) {
    const T nan = solid_detail::quiet_nan<T>();
    for (int a = 0; a < 8; ++a) f[a] = {nan, nan, nan};
    return {nan, T(0)};
  }
  const Mat3<T> I = scaled_identity(T(1));
  const T pbar = acc.pressure_volume / acc.vt;
  for (int a = 0; a < 8; ++a) f[a] = acc.fdev[a] + pbar * acc.jb[a];
  for (int k = 0; k < 9; ++k) st.set_element(kElement, 8, kFrame + k, Qt.a[k] - I.a[k]);
  for (int a = 0; a < 8; ++a) {
    st.set_element(kElement, 8, kNodesA + 3 * a, u[a].x);
    st.set_element(kElement, 8, kNodesA + 3 * a + 1, u[a].y);
    st.set_element(kElement, 8, kNodesA + 3 * a + 2, u[a].z);
  }
  st.set_element(kElement, 8, kWork, work);
  st.set_element(kElement, 8, kDissipation, dissipation);
  return {work, T(0), dissipation};
}

/// One FPM increment of an element from its state st (configuration "a") to displacements u
/// (see the file comment): forces f, state written to st.next when it is not null, returns the
/// accumulated internal work. NaN forces and energy when the "a" or the current geometry is
/// inverted at a Gauss point. The phases in turn, per Gauss point (the fused scheme); seed
/// 003's split GPU scheme runs the frame and strains per element, the stresses per Gauss
/// point and the forces per element, with the same arithmetic (discretization/fpm_hex_pass.hpp).
template <class T>
HS_HD SolidEnergy<T> increment(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                               const ElementState<T>& st, Vec3<T> f[8]) {
  const HexFrame<T> fr = hex_frame(X, u, st);
  Vec3<T> xt[8];
  for (int a = 0; a < 8; ++a) xt[a] = X[a] + u[a];
  T work = st.element_old(kElement, 8, kWork);
  // The dissipated part of work, booked like it: each point's dissipation density increment
  // over its volume in configuration "a".
  T dissipation = st.element_old(kElement, 8, kDissipation);
  HexForceSums<T> acc = hex_force_sums<T>();
  bool valid = fr.valid;
  for (int g = 0; g < 8 && valid; ++g) {
    T ja;
    const Mat3<T> deps = hex_point_strain(fr, g, ja);
    const HexPointResult<T> r = hex_point_stress(m, st, g, deps, ja);
    work = work + r.work;
    dissipation = dissipation + r.dissipation;
    valid = hex_point_force(xt, g, fr.Qt, r.sigma, acc) && valid;
  }
  return hex_finish(st, u, fr.Qt, work, dissipation, acc, valid, f);
}

}  // namespace fpm_detail

/// FPM hexahedron: C3D8 with FORMULATION=FPM (see the file comment). Incremental: its forces
/// depend on the state of its previous call, which every call advances.
struct FpmC3D8 {
  static constexpr int kNodes = 8;

  /// The deck kind it is a formulation of (TYPE=C3D8).
  HS_HD static constexpr const char* name() { return C3D8::name(); }
  static constexpr const char* kFormulation = "FPM";  ///< *SOLID SECTION, FORMULATION= value
  static constexpr const char* kAliases = "";         ///< other deck names run as this kind
  static constexpr int kDimension = 3;                ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 12;                 ///< VTK cell type (Abaqus node order is VTK's)
  static constexpr double kCost = 3.0;                ///< relative cost per increment (MITC4 = 1), for partitioning
  static constexpr int kPoints = 8;                   ///< integration points (per-point state size multiplies this)

  /// State values per integration point, whatever the law (fpm_detail::kPointStateSize).
  template <class T>
  HS_HD static constexpr int state_size(const SolidMaterial<T>&) {
    return fpm_detail::kPointStateSize;
  }

  /// Row-sum lumped mass of the C3D8 (the same element geometry).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[8], T frac[8]) {
    return C3D8::mass_fractions(X, frac);
  }

  /// Internal forces f (8) at displacements u, advancing the state from the configuration
  /// of the previous call (without a store: from the reference, in one increment); the
  /// energy is the accumulated work of the stresses. hourglass_kappa is unused.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[8], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    return fpm_detail::increment(X, u, m, state, f);
  }

  /// The C3D8 bound: same masses and gradients; the B-bar strain has the F-bar strain's
  /// bound (deviatoric part at the point, volumetric part from the mean gradients).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[8], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    return C3D8::stable_dt(X, m, hourglass_kappa);
  }

  /// Cauchy stress Q sigma_hat Q^T and the convected strain Q eps_hat Q^T (a sum of
  /// rotated small-strain increments, close to the logarithmic strain) of the state's last
  /// evaluated configuration, averaged over the Gauss points with the reference weights
  /// detJ_g / V. Without a store: the one increment from the reference to u.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    using namespace fpm_detail;
    T scratch[kPointStateSize * 8] = {};
    ElementState<T> st = state;
    if (!state.old) {  // evaluate into a local store of 8 points
      Vec3<T> f[8];
      const ElementState<T> fresh{nullptr, scratch, 8, 0};
      increment(X, u, m, fresh, f);
      st = ElementState<T>{scratch, nullptr, 8, 0};
    }
    Vec3<T> bbar[8];
    const T vol = solid_detail::c3d8_mean_gradients(X, bbar);
    if (!(vol > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    Mat3<T> sigma = scaled_identity(T(0)), eps = scaled_identity(T(0));
    for (int g = 0; g < 8; ++g) {
      Vec3<T> b[8];
      solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                                 solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
      const T w = solid_detail::hex8_gradients(X, b) / vol;
      const StateSlice<const T> s = st.old_at(g);
      sigma = sigma + w * stored_stress(m, s);
      eps = eps + w * read_sym(s, kStrain);
    }
    const Mat3<T> Q = frame_of(st);
    return {Q * sigma * transpose(Q), Q * eps * transpose(Q)};
  }
};

}  // namespace halfstep
