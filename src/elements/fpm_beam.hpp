// The FPM space-frame beam (Abaqus B31 in a deck), host/device: a 2-node, 12-dof element in
// the incremental, convected form of the finite particle method (seed 003; VFIFE, Ting, Shih &
// Wang 2004; docs/theory.md "FPM beam" has the derivation).
//
// Each evaluation is one path unit, from the configuration of the last evaluation (a) to the
// current one (t). The element's deformation coordinate system (DCS) follows the chord: e1
// along it, e2 carried from a by the chord's minimal rotation and a twist about e1 equal to
// the mean of the nodes' axial rotation increments, e3 = e1 x e2. What the nodes did beyond
// that rigid motion are six natural deformation increments: stretch, torsion and four end
// bending rotations relative to the chord. Euler-Bernoulli natural stiffness (or, with
// *PLASTIC, fibre integration with a 1-D radial return) turns them into increments of six
// natural forces kept in the DCS and carried unchanged with it; they give the nodal forces
// and moments in the current DCS, turned global. The forces are not the gradient of a stored
// energy: the internal work is accumulated per increment (trapezoidal) for the energy balance.
#pragma once

#include <cmath>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/fpm_kinematics.hpp"
#include "elements/rotation.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Registry trait of the beam: two nodes of 6 dofs, drawn as a VTK line.
struct FpmBeamKind {
  static constexpr int kNodes = 2;
  HS_HD static constexpr const char* name() { return "B31"; }
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 3;
  static constexpr int kVtkCell = 3;  ///< VTK_LINE
  static constexpr double kCost = 0.5;  ///< relative to MITC4 (an estimate: a beam update is about half a shell's)
  static constexpr int kPoints = 3;  ///< Lobatto points along the element (fibres of plastic sections)
};

/// Section points per integration point: RECT 5 x 5 Simpson, CIRC 3 rings x 8 angles.
constexpr int kBeamMaxFibres = 25;
/// Integration points along a plastic beam: Lobatto at xi = 0, 1/2, 1 (catches the end moments).
constexpr int kBeamPoints = 3;
/// Section shapes of *BEAM SECTION.
enum BeamShape : int { kBeamRect = 0, kBeamCirc = 1 };

/// Constants of a beam section: elasticity, section properties in the beam axes
/// (1 = n1 = e2, 2 = n2 = e3) and, for plastic sections, the fibres and the yield table.
template <class T>
struct BeamConstants {
  T youngs = T(0), shear = T(0);  ///< E, G
  T area = T(0);
  T i11 = T(0);      ///< integral of x2^2 dA: bending about n1
  T i22 = T(0);      ///< integral of x1^2 dA: bending about n2
  T torsion = T(0);  ///< Saint-Venant torsion constant J
  int plastic = 0;   ///< 1: fibre integration with the *PLASTIC table in `yield`
  int fibres = 0;
  T fx1[kBeamMaxFibres] = {}, fx2[kBeamMaxFibres] = {}, fw[kBeamMaxFibres] = {};  ///< fibre x1, x2, area
  SolidMaterial<T> yield{};  ///< hardening table (hardening_points, yield_stress, yield_strain)
};

/// The same section constants in another precision (the GPU's FP32 runs).
template <class T>
BeamConstants<T> convert_beam_constants(const BeamConstants<double>& b) {
  BeamConstants<T> r;
  r.youngs = T(b.youngs);
  r.shear = T(b.shear);
  r.area = T(b.area);
  r.i11 = T(b.i11);
  r.i22 = T(b.i22);
  r.torsion = T(b.torsion);
  r.plastic = b.plastic;
  r.fibres = b.fibres;
  for (int i = 0; i < kBeamMaxFibres; ++i) {
    r.fx1[i] = T(b.fx1[i]);
    r.fx2[i] = T(b.fx2[i]);
    r.fw[i] = T(b.fw[i]);
  }
  r.yield = material_as<T>(b.yield);
  return r;
}

/// Components of one beam's state (BeamStateRef): the DCS's e2 and the chord at the last
/// evaluation, the natural forces (N, T, M1 at node 1, M2 at node 1, M1 at node 2, M2 at
/// node 2; M1 about e2 = n1, M2 about e3 = n2), each node's frame (t1, d) at the last
/// evaluation, the internal work and plastic dissipation so far, then per Lobatto point and
/// fibre the axial stress and equivalent plastic strain (plastic sections only).
enum BeamState : int {
  kBeamE2 = 0,
  kBeamChord = 3,
  kBeamForce = 6,
  kBeamFrame = 12,  ///< node k: t1 at kBeamFrame + 6k, d at kBeamFrame + 6k + 3
  kBeamWork = 24,
  kBeamDissipation = 25,
  kBeamFibres = 26
};

/// State values per beam: elastic sections, and sections with fibres.
constexpr int kBeamElasticState = kBeamFibres;
constexpr int kBeamPlasticState = kBeamFibres + 2 * kBeamPoints * kBeamMaxFibres;

/// One beam's state, component c at p[c * stride] (component-major storage over the beams).
template <class T>
using BeamStateRef = StridedState<T>;

/// What one evaluation needs of the two nodes.
template <class T>
struct BeamNodes {
  Vec3<T> chord0;       ///< X2 - X1 (reference)
  Vec3<T> u[2];         ///< displacements
  Vec3<T> t1[2], d[2];  ///< node frames now (R t1_0, R d_0; fpm_kinematics.hpp)
};

/// Internal forces and moments at the two ends, global components (the fi of the node update).
template <class T>
struct BeamForces {
  Vec3<T> f[2], m[2];
};

/// Rectangle's Saint-Venant torsion constant (series of the Prandtl stress function).
inline double rect_torsion_constant(double a, double b) {
  const double hl = a > b ? a : b, hs = a > b ? b : a;
  const double pi = 3.14159265358979323846;
  double sum = 0;
  for (int n = 1; n < 200; n += 2) sum += std::tanh(n * pi * hl / (2 * hs)) / std::pow(n, 5);
  return hl * hs * hs * hs / 3 * (1 - 192 * hs / (std::pow(pi, 5) * hl) * sum);
}

/// Section of shape RECT (a along n1, b along n2) or CIRC (radius a) of an isotropic
/// material (E, nu); yield: the material with its *PLASTIC table (hardening_points > 0), or
/// null for an elastic section.
inline BeamConstants<double> make_beam_section(int shape, double a, double b, double E, double nu,
                                             const SolidMaterial<double>* yield) {
  BeamConstants<double> s;
  s.youngs = E;
  s.shear = E / (2 * (1 + nu));
  const double pi = 3.14159265358979323846;
  if (shape == kBeamRect) {
    s.area = a * b;
    s.i11 = a * b * b * b / 12;
    s.i22 = b * a * a * a / 12;
    s.torsion = rect_torsion_constant(a, b);
    // 5 x 5 Simpson: exact for I11, I22 and for the fully plastic moments (|x| is linear on
    // each half).
    const double w[5] = {1, 4, 2, 4, 1};
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) {
        const int k = 5 * i + j;
        s.fx1[k] = a * (i / 4.0 - 0.5);
        s.fx2[k] = b * (j / 4.0 - 0.5);
        s.fw[k] = a * b * w[i] * w[j] / 144;
      }
    s.fibres = 25;
  } else {
    s.area = pi * a * a;
    s.i11 = s.i22 = pi * a * a * a * a / 4;
    s.torsion = pi * a * a * a * a / 2;
    // 3 Gauss rings in r (weight r dr: exact for I) x 8 angles offset by half a step (exact
    // for cos^2; the plastic moment 4 sigma_y r^3 / 3 comes out 2.6 % high).
    const double g[3] = {-0.7745966692414834, 0.0, 0.7745966692414834}, gw[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 8; ++j) {
        const int k = 8 * i + j;
        const double r = 0.5 * a * (1 + g[i]), th = (j + 0.5) * pi / 4;
        s.fx1[k] = r * std::cos(th);
        s.fx2[k] = r * std::sin(th);
        s.fw[k] = 0.5 * a * gw[i] * r * (pi / 4);
      }
    s.fibres = 24;
  }
  if (yield && yield->hardening_points > 0) {
    s.plastic = 1;
    s.yield = *yield;
  }
  return s;
}

/// Rotary inertia per unit of nodal mass: the larger of the section's polar radius of gyration
/// squared and l^2 / 12 (the half element as a rigid bar turning about its node). The second
/// keeps the rotational modes from controlling the stable increment (docs/theory.md).
template <class T>
HS_HD T beam_rotary_arm(const BeamConstants<T>& s, T length) {
  const T polar = (s.i11 + s.i22) / s.area, bar = length * length / T(12);
  return polar > bar ? polar : bar;
}

/// Stable increment 2 / omega_max of one beam with its own lumped masses rho A l / 2 and
/// rotary inertias (beam_rotary_arm): the largest of the axial, torsional and bending
/// eigenvalues of the element (closed forms; the bending pair 24 EI/(l^3 m) + 6 EI/(l J) and
/// 2 EI/(l J) per plane). An upper bound of the assembled model's frequencies.
template <class T>
HS_HD T beam_stable_dt(const BeamConstants<T>& s, T density, T length) {
  const T m = density * s.area * length / T(2), j = m * beam_rotary_arm(s, length);
  const T imax = s.i11 > s.i22 ? s.i11 : s.i22;
  T w2 = T(4) * s.youngs / (density * length * length);
  const T tors = T(2) * s.shear * s.torsion / (length * j);
  const T bend = T(24) * s.youngs * imax / (length * length * length * m) + T(6) * s.youngs * imax / (length * j);
  if (tors > w2) w2 = tors;
  if (bend > w2) w2 = bend;
  return T(2) / std::sqrt(w2);
}

/// Initial state of a beam: DCS e2 = n1 (unit, normal to the chord), chord X2 - X1, node
/// frames (e1, e3) (6-dof nodes start unrotated), no forces, no work.
template <class T>
HS_HD void beam_initial_state(Vec3<T> n1, Vec3<T> chord0, int size, BeamStateRef<T> s) {
  for (int c = 0; c < size; ++c) s[c] = T(0);
  s[kBeamE2] = n1.x;
  s[kBeamE2 + 1] = n1.y;
  s[kBeamE2 + 2] = n1.z;
  s[kBeamChord] = chord0.x;
  s[kBeamChord + 1] = chord0.y;
  s[kBeamChord + 2] = chord0.z;
  for (int k = 0; k < 2; ++k) {
    s[kBeamFrame + 6 * k] = T(1);      // t1 = e1
    s[kBeamFrame + 6 * k + 5] = T(1);  // d = e3
  }
}

/// What one evaluation's kinematics (beam_kinematics) hand to the stress points and to the
/// forces: the DCS now (e1 along the chord, e2; e3 = e1 x e2), the chord's length now and at
/// the last evaluation, and the six natural deformation increments (stretch, torsion, end
/// rotations about e2 and e3 at node 1, then at node 2). 14 values: the seed's split GPU
/// scheme passes them between its kernels through memory (store_beam_increment).
template <class T>
struct BeamIncrement {
  Vec3<T> e1, e2;
  T l, la;
  T dq[6];
};

/// Number of values of a BeamIncrement (its layout in the split scheme's store).
constexpr int kBeamIncrementValues = 14;

/// Writes inc into a component-major store (kBeamIncrementValues components): how the split
/// scheme's kinematics kernel hands it to the point and force kernels.
template <class T>
HS_HD void store_beam_increment(const StridedState<T>& s, const BeamIncrement<T>& inc) {
  store3(s, 0, inc.e1);
  store3(s, 3, inc.e2);
  s[6] = inc.l;
  s[7] = inc.la;
  for (int i = 0; i < 6; ++i) s[8 + i] = inc.dq[i];
}

/// Reads what store_beam_increment wrote.
template <class T>
HS_HD BeamIncrement<T> load_beam_increment(const StridedState<T>& s) {
  BeamIncrement<T> inc;
  inc.e1 = load3(s, 0);
  inc.e2 = load3(s, 3);
  inc.l = s[6];
  inc.la = s[7];
  for (int i = 0; i < 6; ++i) inc.dq[i] = s[8 + i];
  return inc;
}

/// Stress points of a beam of section sec: an elastic section has one, its six natural forces
/// (the Euler-Bernoulli natural stiffness integrates the section resultants along the beam in
/// closed form, so no point along it keeps anything); a plastic one has one per Lobatto point
/// and fibre, where the axial stress is kept and returned: point j is Lobatto point
/// j / fibres, fibre j % fibres.
template <class T>
HS_HD int beam_stress_points(const BeamConstants<T>& sec) {
  return sec.plastic ? kBeamPoints * sec.fibres : 1;
}

namespace beam_detail {

/// Lobatto point g's position along the beam (xi in [0, 1]) and weight.
template <class T>
HS_HD void lobatto(int g, T& xi, T& wg) {
  const T x[kBeamPoints] = {T(0), T(0.5), T(1)};
  const T w[kBeamPoints] = {T(1) / T(6), T(4) / T(6), T(1) / T(6)};
  xi = x[g];
  wg = w[g];
}

/// State index of the axial stress of fibre k at Lobatto point g (its equivalent plastic
/// strain follows).
HS_HD constexpr int fibre_at(int g, int k) { return kBeamFibres + 2 * (g * kBeamMaxFibres + k); }

}  // namespace beam_detail

/// Phase 1 of an evaluation (one path unit, from the state at the last evaluation to the nodes
/// now): the DCS, the fictitious reverse motion and the natural deformation increments; stores
/// the new DCS axis e2, the chord and the node frames in the state.
template <class T>
HS_HD BeamIncrement<T> beam_kinematics(const BeamNodes<T>& nd, const BeamStateRef<T>& s) {
  const Vec3<T> r = nd.chord0 + (nd.u[1] - nd.u[0]);
  const T l = norm(r);
  const Vec3<T> e1 = (T(1) / l) * r;
  const Vec3<T> ra = load3(s, kBeamChord);
  const T la = norm(ra);
  const Vec3<T> e1a = (T(1) / la) * ra, e2a = load3(s, kBeamE2);
  const Mat3<T> qa = matrix_of_columns(e1a, e2a, cross(e1a, e2a));

  // Each node's rotation increment over the path unit, from its frames at a and now.
  Mat3<T> dn[2];
  Vec3<T> dtheta[2];
  for (int k = 0; k < 2; ++k) {
    const Mat3<T> ra_k = node_rotation(load3(s, kBeamFrame + 6 * k), load3(s, kBeamFrame + 6 * k + 3));
    dn[k] = node_rotation(nd.t1[k], nd.d[k]) * transpose(ra_k);
    dtheta[k] = rotation_log(dn[k]);
  }
  // Rigid rotation of the DCS: the chord's minimal rotation, then a twist about the new chord:
  // the twist part of the nodes' mean rotation increment w in its swing-twist split,
  // 2 atan(tan(|w|/2) w.e1/|w|) (w.e1 to first order; exact for a rigid increment).
  using std::atan2;  // unqualified: dual numbers (a static step's tangent) take their own overloads
  using std::cos;
  using std::sin;
  const Vec3<T> wm = T(0.5) * (dtheta[0] + dtheta[1]);
  const T phi = norm(wm);
  // At phi = 0 the twist is w.e1 (zero in plain numbers; for dual numbers it carries the
  // derivative, which 0 would lose at the converged configuration).
  const T twist = phi > T(0) ? T(2) * atan2(sin(T(0.5) * phi) * dot(wm, e1) / phi, cos(T(0.5) * phi)) : dot(wm, e1);
  const Vec3<T> e2r = rotate(twist * e1, rotate(minimal_rotation(e1a, e1), e2a));
  const Vec3<T> e2 = normalized(e2r - dot(e2r, e1) * e1);
  const Mat3<T> qt = matrix_of_columns(e1, e2, cross(e1, e2));
  const Mat3<T> rigid = qt * transpose(qa);
  const Vec3<T> p1 = deformation_rotation(dn[0], rigid, qt), p2 = deformation_rotation(dn[1], rigid, qt);

  // Natural deformation increments: stretch, torsion, end rotations about e2 and e3.
  BeamIncrement<T> inc;
  inc.e1 = e1;
  inc.e2 = e2;
  inc.l = l;
  inc.la = la;
  const T dq[6] = {l - la, p2.x - p1.x, p1.y, p1.z, p2.y, p2.z};
  for (int i = 0; i < 6; ++i) inc.dq[i] = dq[i];
  store3(s, kBeamE2, e2);
  store3(s, kBeamChord, r);
  for (int k = 0; k < 2; ++k) {
    store3(s, kBeamFrame + 6 * k, nd.t1[k]);
    store3(s, kBeamFrame + 6 * k + 3, nd.d[k]);
  }
  return inc;
}

namespace beam_detail {

/// Strain increments of the increment at Lobatto point g: axial, curvature about e2 (strain
/// +x2 k1) and about e3 (strain -x1 k2), with the point's weight.
template <class T>
struct PointStrain {
  T de0, dk1, dk2, wg;
};

/// The point strain of Lobatto point g for increment inc (shared by its fibres).
template <class T>
HS_HD PointStrain<T> point_strain(int g, const BeamIncrement<T>& inc) {
  T xi, wg;
  lobatto(g, xi, wg);
  const T a1 = T(6) * xi - T(4), a2 = T(6) * xi - T(2);  // Hermite curvature shapes
  const T la = inc.la;
  const T* dq = inc.dq;
  return {dq[0] / la, (a1 * dq[2] + a2 * dq[4]) / la, (a1 * dq[3] + a2 * dq[5]) / la, wg};
}

/// Fibre k at Lobatto point g: the 1-D radial return of its axial stress, written to the state
/// with its equivalent plastic strain; the new stress into sigma; returns the fibre's plastic
/// dissipation over the increment.
template <class T>
HS_HD T fibre_update(const BeamConstants<T>& sec, const BeamStateRef<T>& s, int g, int k, const PointStrain<T>& ps,
                     T& sigma, T la) {
  const T e = sec.youngs;
  const int c = fibre_at(g, k);
  sigma = s[c] + e * (ps.de0 + sec.fx2[k] * ps.dk1 - sec.fx1[k] * ps.dk2);
  const T alpha = s[c + 1];
  T slope;
  const T q = sigma < T(0) ? -sigma : sigma;
  T dissipation = T(0);
  if (q > j2_yield_stress(sec.yield, alpha, &slope)) {
    const T dgamma = j2_plastic_multiplier(sec.yield, q, alpha, e);
    sigma = sigma - (sigma < T(0) ? -e : e) * dgamma;
    dissipation = j2_hardening_work(sec.yield, alpha, alpha + dgamma) * sec.fw[k] * ps.wg * la;
    s[c + 1] = alpha + dgamma;
  }
  s[c] = sigma;
  return dissipation;
}

}  // namespace beam_detail

/// Phase 2: stress point j's update from the increment (beam_stress_points). Elastic: the six
/// natural forces (Euler-Bernoulli natural stiffness), written to the state; returns the
/// increment's internal work. Plastic: the axial stress of one fibre at one Lobatto point by
/// the 1-D radial return, with its equivalent plastic strain; returns the fibre's plastic
/// dissipation over the increment. Points are independent of each other.
template <class T>
HS_HD T beam_stress_point_update(const BeamConstants<T>& sec, const BeamStateRef<T>& s, int j,
                                 const BeamIncrement<T>& inc) {
  const T la = inc.la;
  const T* dq = inc.dq;
  if (!sec.plastic) {
    T old[6], p[6];
    for (int i = 0; i < 6; ++i) old[i] = s[kBeamForce + i];
    p[1] = old[1] + sec.shear * sec.torsion / la * dq[1];
    const T ea = sec.youngs * sec.area / la;
    const T k1 = T(2) * sec.youngs * sec.i11 / la, k2 = T(2) * sec.youngs * sec.i22 / la;
    p[0] = old[0] + ea * dq[0];
    p[2] = old[2] + k1 * (T(2) * dq[2] + dq[4]);
    p[4] = old[4] + k1 * (dq[2] + T(2) * dq[4]);
    p[3] = old[3] + k2 * (T(2) * dq[3] + dq[5]);
    p[5] = old[5] + k2 * (dq[3] + T(2) * dq[5]);
    T work = T(0);
    for (int i = 0; i < 6; ++i) {
      work = work + T(0.5) * (old[i] + p[i]) * dq[i];
      s[kBeamForce + i] = p[i];
    }
    return work;
  }
  const int g = j / sec.fibres;
  T sigma;
  return beam_detail::fibre_update(sec, s, g, j % sec.fibres, beam_detail::point_strain(g, inc), sigma, inc.la);
}

/// Phase 3: from the updated stress points, the natural forces (plastic sections: the fibre
/// stresses integrated over each section and along the beam, torsion elastic) and the nodal
/// forces and moments, global components. points: the stress points' returns summed in point
/// order (elastic: the internal work; plastic: the plastic dissipation), booked in the state
/// with the rest of the increment's work. fibre_stress(g, k) gives fibre k's stress at Lobatto
/// point g, in the order g-major, k-minor; points is read after the last of them.
template <class T, class FibreStress>
HS_HD BeamForces<T> beam_forces_from(const BeamConstants<T>& sec, const BeamStateRef<T>& s,
                                     const BeamIncrement<T>& inc, const T& points, FibreStress&& fibre_stress) {
  T p[6];
  if (!sec.plastic) {
    for (int i = 0; i < 6; ++i) p[i] = s[kBeamForce + i];
    s[kBeamWork] = s[kBeamWork] + points;
  } else {
    const T la = inc.la;
    const T* dq = inc.dq;
    T old[6];
    for (int i = 0; i < 6; ++i) old[i] = s[kBeamForce + i];
    p[1] = old[1] + sec.shear * sec.torsion / la * dq[1];  // torsion stays elastic
    p[0] = p[2] = p[3] = p[4] = p[5] = T(0);
    for (int g = 0; g < kBeamPoints; ++g) {
      T xi, wg;
      beam_detail::lobatto(g, xi, wg);
      const T a1 = T(6) * xi - T(4), a2 = T(6) * xi - T(2);
      T n = T(0), m1 = T(0), m2 = T(0);
      for (int k = 0; k < sec.fibres; ++k) {
        const T sigma = fibre_stress(g, k);
        n = n + sec.fw[k] * sigma;
        m1 = m1 + sec.fw[k] * sec.fx2[k] * sigma;
        m2 = m2 - sec.fw[k] * sec.fx1[k] * sigma;
      }
      p[0] = p[0] + wg * n;
      p[2] = p[2] + wg * a1 * m1;
      p[4] = p[4] + wg * a2 * m1;
      p[3] = p[3] + wg * a1 * m2;
      p[5] = p[5] + wg * a2 * m2;
    }
    s[kBeamDissipation] = s[kBeamDissipation] + points;
    T work = T(0);
    for (int i = 0; i < 6; ++i) {
      work = work + T(0.5) * (old[i] + p[i]) * dq[i];
      s[kBeamForce + i] = p[i];
    }
    s[kBeamWork] = s[kBeamWork] + work;
  }

  // Nodal forces in the DCS (virtual work of the natural forces), turned global.
  const T l = inc.l;
  const Mat3<T> qt = matrix_of_columns(inc.e1, inc.e2, cross(inc.e1, inc.e2));
  const T v2 = (p[3] + p[5]) / l, v3 = (p[2] + p[4]) / l;
  BeamForces<T> out;
  out.f[0] = qt * Vec3<T>{-p[0], v2, -v3};
  out.f[1] = qt * Vec3<T>{p[0], -v2, v3};
  out.m[0] = qt * Vec3<T>{-p[1], p[2], p[3]};
  out.m[1] = qt * Vec3<T>{p[1], p[4], p[5]};
  return out;
}

/// Phase 3 of the split scheme: the fibres' stresses read back from the state.
template <class T>
HS_HD BeamForces<T> beam_forces(const BeamConstants<T>& sec, const BeamStateRef<T>& s, const BeamIncrement<T>& inc,
                                T points) {
  return beam_forces_from(sec, s, inc, points, [&](int g, int k) { return s[beam_detail::fibre_at(g, k)]; });
}

/// Phases 2 and 3 from an increment: the stress points' updates, then the forces; what an
/// evaluation does after its kinematics (the linear theory of static steps hands it an
/// increment of its own, beam_increment_forces).
template <class T>
HS_HD BeamForces<T> beam_update_from(const BeamConstants<T>& sec, const BeamStateRef<T>& s, const BeamIncrement<T>& inc) {
  T points = T(0);
  if (!sec.plastic) {
    points = beam_stress_point_update(sec, s, 0, inc);
    return beam_forces(sec, s, inc, points);
  }
  // Plastic: each fibre's return feeds the section sums at once (one pass, its stress kept in
  // a register rather than read back): the split scheme's points and sums in the same order,
  // so the two stay bitwise equal. points is complete when beam_forces_from reads it.
  beam_detail::PointStrain<T> ps{};
  return beam_forces_from(sec, s, inc, points, [&](int g, int k) {
    if (k == 0) ps = beam_detail::point_strain(g, inc);
    T sigma;
    points = points + beam_detail::fibre_update(sec, s, g, k, ps, sigma, inc.la);
    return sigma;
  });
}

/// One path unit of the beam: from the state at the last evaluation and the nodes now,
/// updates the state in place (DCS, chord, node frames, natural forces, work, fibres) and
/// returns the internal nodal forces and moments; the three phases in one call (the fused
/// scheme; the split GPU scheme runs each phase as its own kernel, with the same arithmetic).
/// An unchanged configuration changes nothing.
template <class T>
HS_HD BeamForces<T> fpm_beam_update(const BeamConstants<T>& sec, const BeamNodes<T>& nd, const BeamStateRef<T>& s) {
  return beam_update_from(sec, s, beam_kinematics(nd, s));
}

/// The beam in static steps (discretization/row_operator.cpp), as the FPM triangle
/// (tri_generalized_forces, elements/fpm_tri.hpp): its 12 generalized forces at the nodes nd,
/// one path unit from the state `from` (size values): end k's force at out[6 k], then its
/// moment's components along the end node's t1, t2 and d. The state is copied into `work`
/// and updated there (the trial state; D = double); seed >= 0 makes the evaluation the
/// derivative along generalized dof `seed` (end seed / 6, dof seed % 6) in the dual parts.
template <class D>
HS_HD void beam_generalized_forces(const BeamConstants<D>& sec, const BeamNodes<double>& nd,
                                   const StridedState<const double>& from, int size, int seed,
                                   const StridedState<D>& work, D out[12]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  BeamNodes<D> n;
  n.chord0 = {D(nd.chord0.x), D(nd.chord0.y), D(nd.chord0.z)};
  for (int k = 0; k < 2; ++k) fpm_seeded_node(nd.u[k], nd.t1[k], nd.d[k], k, seed, n.u[k], n.t1[k], n.d[k]);
  const BeamForces<D> f = fpm_beam_update(sec, n, work);
  for (int k = 0; k < 2; ++k) fpm_generalized_corner(f.f[k], f.m[k], n.t1[k], n.d[k], out + kFpmNodeDofs * k);
}

/// Values of a BeamIncrement that are geometry (the DCS axes, the chord's lengths:
/// store_beam_increment's first ones); the others, the natural deformation increments, are
/// linear in the displacements at the reference (the linear theory, RowOperator::linear_forces).
constexpr int kBeamIncrementGeometry = 8;

/// The kinematics alone of one path unit from `from` (copied into `work`) to the nodes nd,
/// store_beam_increment's layout into inc; seed as for beam_generalized_forces.
template <class D>
HS_HD void beam_increment_of(const BeamNodes<double>& nd, const StridedState<const double>& from, int size, int seed,
                             const StridedState<D>& work, D inc[kBeamIncrementValues]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  BeamNodes<D> n;
  n.chord0 = {D(nd.chord0.x), D(nd.chord0.y), D(nd.chord0.z)};
  for (int k = 0; k < 2; ++k) fpm_seeded_node(nd.u[k], nd.t1[k], nd.d[k], k, seed, n.u[k], n.t1[k], n.d[k]);
  store_beam_increment(StridedState<D>{inc, 1}, beam_kinematics(n, work));
}

/// The 12 generalized forces of the increment inc (store_beam_increment's layout) taken from
/// the state `from` (copied into `work`, updated there): phases 2 and 3 (beam_update_from), the
/// moments' components along the node frames t1, d (the linear theory's: the reference's).
template <class D>
HS_HD void beam_increment_forces(const BeamConstants<D>& sec, const Vec3<double> t1[2], const Vec3<double> d[2],
                                 const StridedState<const double>& from, int size, const D inc[kBeamIncrementValues],
                                 const StridedState<D>& work, D out[12]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  D flat[kBeamIncrementValues];
  for (int c = 0; c < kBeamIncrementValues; ++c) flat[c] = inc[c];
  const BeamForces<D> f = beam_update_from(sec, work, load_beam_increment(StridedState<D>{flat, 1}));
  for (int k = 0; k < 2; ++k) {
    const Vec3<D> a{D(t1[k].x), D(t1[k].y), D(t1[k].z)}, b{D(d[k].x), D(d[k].y), D(d[k].z)};
    fpm_generalized_corner(f.f[k], f.m[k], a, b, out + kFpmNodeDofs * k);
  }
}

/// The translation of node 2 relative to node 1 (the chord's change since the reference chord
/// chord0) and each node's frame, as the state s last saw them: the displacements a
/// geometrically linear step's converged state stands for.
template <class S>
HS_HD void beam_state_nodes(const StridedState<S>& s, const Vec3<double>& chord0, Vec3<double> du[2],
                            Vec3<double> t1[2], Vec3<double> d[2]) {
  const auto at = [&](int c) { return Vec3<double>{double(s[c]), double(s[c + 1]), double(s[c + 2])}; };
  du[0] = {0.0, 0.0, 0.0};
  du[1] = at(kBeamChord) - chord0;
  for (int k = 0; k < 2; ++k) {
    t1[k] = at(kBeamFrame + 6 * k);
    d[k] = at(kBeamFrame + 6 * k + 3);
  }
}

/// Section forces at the element's middle from its state: SF = (axial force, shear along n1,
/// shear along n2), SM = (moment about n1, moment about n2, torque), the resultants on the
/// section's positive face (Abaqus SF1-SF3, SM1-SM3). length: the current chord.
template <class T, class S>
HS_HD void beam_section_forces(const BeamStateRef<S>& s, T length, T sf[3], T sm[3]) {
  T p[6];
  for (int i = 0; i < 6; ++i) p[i] = s[kBeamForce + i];
  sf[0] = p[0];
  sf[1] = -(p[3] + p[5]) / length;
  sf[2] = (p[2] + p[4]) / length;
  sm[0] = T(0.5) * (p[4] - p[2]);
  sm[1] = T(0.5) * (p[5] - p[3]);
  sm[2] = p[1];
}

/// Largest equivalent plastic strain over a plastic beam's fibres (0 for elastic sections).
template <class T, class S>
HS_HD T beam_peeq(const BeamConstants<T>& sec, const BeamStateRef<S>& s) {
  T peeq = T(0);
  if (!sec.plastic) return peeq;
  for (int g = 0; g < kBeamPoints; ++g)
    for (int k = 0; k < sec.fibres; ++k) {
      const T a = s[kBeamFibres + 2 * (g * kBeamMaxFibres + k) + 1];
      if (a > peeq) peeq = a;
    }
  return peeq;
}

}  // namespace halfstep
