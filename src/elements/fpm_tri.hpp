// The FPM triangular shell (Abaqus S3 / S3R with *SHELL SECTION, FORMULATION=FPM), host/device:
// a 3-node, 18-dof element in the incremental, convected form of the finite particle method
// (seed 003; VFIFE; docs/theory.md "FPM triangle" has the derivation and the measured checks).
//
// Each evaluation is one path unit, from the configuration of the last evaluation (a) to the
// current one (t). The element's deformation coordinate system (DCS) has e3 along the normal of
// the triangle's plane; its in-plane axis e1 is carried from a: turned by the minimal rotation
// of the normal, then by the polar angle of the in-plane increment gradient (so the frame does
// not depend on which node comes first). What the nodes did beyond that rigid motion is the pure
// deformation: in-plane displacements (CST membrane strains) and the nodes' deformation
// rotations about the in-plane axes (DKT curvatures; the normal displacements are zero in the
// DCS by construction). Stresses are kept in the DCS and carried unchanged with it: an elastic
// section keeps section forces and moments at 3 in-plane points (the stress is linear through
// the thickness); a yielding one keeps stresses at 3 in-plane points x n_z Simpson points
// through the thickness, each point's update one call (tri_point_stress): with *PLASTIC the
// plane-stress J2 return of the trial
// stress sigma + C d_eps (materials/j2_plane_stress.hpp), each point keeping its equivalent
// plastic strain. Forces come from the stresses on the current geometry, turned global. A
// small drilling stiffness ties each node's rotation about the normal to the element's
// in-plane rotation (kTriDrillScale explains why).
#pragma once

#include <cmath>
#include <type_traits>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/fpm_kinematics.hpp"
#include "elements/rotation.hpp"
#include "materials/j2_plane_stress.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Registry trait of the triangle: three 6-dof nodes, drawn as a VTK triangle. S3 and S3R run
/// as this kind only with *SHELL SECTION, FORMULATION=FPM (halfstep has no other triangle).
struct FpmTriKind {
  static constexpr int kNodes = 3;
  HS_HD static constexpr const char* name() { return "S3"; }
  static constexpr const char* kAliases = "S3R";  ///< Abaqus documents S3 and S3R as one element
  static constexpr const char* kFormulation = "FPM";
  static constexpr int kDimension = 3;
  static constexpr int kVtkCell = 5;      ///< VTK_TRIANGLE
  static constexpr double kCost = 0.8;    ///< relative to MITC4 (an estimate: 15 points, one frame)
  static constexpr int kPoints = 3;       ///< in-plane points (each with its section points)
};

/// In-plane points of the triangle (3-point rule, degree 2: exact for the elastic CST + DKT).
constexpr int kTriPoints = 3;
/// Most Simpson points through the thickness.
constexpr int kFpmMaxSectionPoints = 15;
/// Rotary inertia per unit nodal mass: max(t^2 / 12, kTriRotaryScale * A), the rule MITC4 uses
/// (Belytschko, Lin & Tsay 1984): rotations then never control the stable increment of thin
/// elements (checked against the element's eigenvalues in tests/elements/test_fpm_tri.cpp).
constexpr double kTriRotaryScale = 0.25;

/// Drilling stiffness per node relative to the plate's bending stiffness D = E t^3 / (12 (1 - nu^2)):
/// the moment about the normal per radian of a node's rotation relative to the element's
/// in-plane rotation. Without it the drilling rotation of nodes in flat regions has no
/// stiffness at all and spins up under the second-order moments of large rotations (see
/// docs/theory.md); small enough to leave bending results unchanged (measured there).
constexpr double kTriDrillScale = 0.1;

/// Constants of an FPM shell section: thickness, plane-stress elasticity, the drilling
/// stiffness, the Simpson points (positions zeta in [-1, 1] and weights summing to 2) and,
/// for a yielding section, the J2 law.
template <class T>
struct TriConstants {
  T thickness = T(0);
  T d11 = T(0), d12 = T(0), d33 = T(0);  ///< E/(1-nu^2), nu E/(1-nu^2), G
  T drill = T(0);                         ///< drilling stiffness per node (kTriDrillScale D)
  int section_points = 0;
  T zeta[kFpmMaxSectionPoints] = {}, wz[kFpmMaxSectionPoints] = {};
  int plastic = 0;          ///< 1: every point is a plane-stress J2 point with the table in `law`
  SolidMaterial<T> law{};   ///< lambda, mu and the *PLASTIC table (plastic sections)
};

/// The same section constants in another precision (the GPU's FP32 runs).
template <class T>
TriConstants<T> convert_tri_constants(const TriConstants<double>& c) {
  TriConstants<T> r;
  r.thickness = T(c.thickness);
  r.d11 = T(c.d11);
  r.d12 = T(c.d12);
  r.d33 = T(c.d33);
  r.drill = T(c.drill);
  r.section_points = c.section_points;
  for (int k = 0; k < kFpmMaxSectionPoints; ++k) {
    r.zeta[k] = T(c.zeta[k]);
    r.wz[k] = T(c.wz[k]);
  }
  r.plastic = c.plastic;
  r.law = material_as<T>(c.law);
  return r;
}

/// Section of thickness t, isotropic (E, nu), with n (odd, >= 3) Simpson points; yield: the
/// material with its *PLASTIC table (a J2Plastic law of the same E, nu), or null for an
/// elastic section.
inline TriConstants<double> make_tri_section(double t, double E, double nu, int n,
                                             const SolidMaterial<double>* yield = nullptr) {
  TriConstants<double> c;
  if (yield) {
    c.plastic = 1;
    c.law = *yield;
  }
  c.thickness = t;
  c.d11 = E / (1 - nu * nu);
  c.d12 = nu * c.d11;
  c.d33 = E / (2 * (1 + nu));
  c.drill = kTriDrillScale * c.d11 * t * t * t / 12;
  c.section_points = n;
  const double h = 2.0 / (n - 1);
  for (int k = 0; k < n; ++k) {
    c.zeta[k] = -1 + h * k;
    c.wz[k] = h / 3 * (k == 0 || k == n - 1 ? 1 : (k % 2 ? 4 : 2));
  }
  return c;
}

/// Components of one triangle's state (TriStateRef): the edge vectors x2 - x1 and x3 - x1 and
/// the DCS axis e1 at the last evaluation, each node's frame (t1, d) then, the internal work so
/// far, the drilling moments at the nodes, then the stresses in the DCS: in plastic sections,
/// per in-plane point p and section point k, (s11, s22, s12) at kTriStress + 3 (p n_z + k) and
/// the equivalent plastic strain at tri_alpha_at(n_z, p, k) after all the stresses; in elastic
/// sections, per in-plane point, the section forces and moments (tri_resultant_at).
enum TriState : int {
  kTriEdge2 = 0,
  kTriEdge3 = 3,
  kTriE1 = 6,
  kTriFrame = 9,  ///< node k: t1 at kTriFrame + 6k, d at kTriFrame + 6k + 3
  kTriWork = 27,
  kTriDrill = 28,  ///< the drilling moment at each node (3 values)
  kTriStress = 31
};

/// State values per triangle with n section points (plastic: with the points' PEEQ; elastic
/// sections keep section forces and moments per in-plane point, whatever n).
HS_HD constexpr int tri_state_size(int n, bool plastic = false) {
  return kTriStress + (plastic ? 4 * kTriPoints * n : 6 * kTriPoints);
}

/// Index of the section forces (N11, N22, N12) of in-plane point p of an elastic section; the
/// moments (M11, M22, M12) follow at + 3.
HS_HD constexpr int tri_resultant_at(int p) { return kTriStress + 6 * p; }

/// Index of the stress (s11) of in-plane point p, section point k, of n section points (plastic
/// sections; elastic ones keep resultants, tri_resultant_at).
HS_HD constexpr int tri_stress_at(int n, int p, int k) { return kTriStress + 3 * (p * n + k); }

/// Index of the equivalent plastic strain of in-plane point p, section point k (plastic sections).
HS_HD constexpr int tri_alpha_at(int n, int p, int k) { return kTriStress + 3 * kTriPoints * n + p * n + k; }

/// One triangle's state, component c at p[c * stride] (component-major storage over the triangles).
template <class T>
using TriStateRef = StridedState<T>;

/// What one evaluation needs of the three nodes.
template <class T>
struct TriNodes {
  Vec3<T> edge0[2];     ///< X2 - X1, X3 - X1 (reference, formed once)
  Vec3<T> u[3];         ///< displacements
  Vec3<T> t1[3], d[3];  ///< node frames now (R t1_0, R d_0; fpm_kinematics.hpp)
};

/// Internal forces and moments at the three nodes, global components.
template <class T>
struct TriForces {
  Vec3<T> f[3], m[3];
};

/// The stress update of one point: plane stress (s11, s22, s12) from the old one and the strain
/// increment (e11, e22, engineering g12), both in the DCS. Elastic sections: Hooke. Plastic
/// ones: the trial stress old + C de returned to the yield surface of the point's equivalent
/// plastic strain alpha (updated in place). Both the stress and the frame it lives in are
/// carried with the DCS, so this is the additive split of the strain accumulated in the DCS,
/// eps_e = C^-1 sigma, with no plastic strain to store.
template <class T>
HS_HD void tri_point_stress(const TriConstants<T>& c, const T old[3], const T de[3], T out[3], T& alpha) {
  out[0] = old[0] + c.d11 * de[0] + c.d12 * de[1];
  out[1] = old[1] + c.d12 * de[0] + c.d11 * de[1];
  out[2] = old[2] + c.d33 * de[2];
  if (!c.plastic) return;
  const J2PlaneResult<T> r = j2_plane_return(c.law, out, alpha);
  for (int i = 0; i < 3; ++i) out[i] = r.stress[i];
  alpha = r.alpha;
}

/// Abaqus's default local 1-direction of a shell: the global x axis projected onto the surface
/// (the z axis when x is within 0.1 degree of the normal n).
template <class T>
HS_HD Vec3<T> shell_default_e1(Vec3<T> n) {
  Vec3<T> a{T(1), T(0), T(0)};
  if (std::fabs(n.x) > T(0.99999847691)) a = {T(0), T(0), T(1)};  // cos(0.1 degree)
  return normalized(a - dot(a, n) * n);
}

/// Initial state of a triangle: its reference edges, e1 (unit, in the plane), unrotated node
/// frames, no stress, no work.
template <class T>
HS_HD void tri_initial_state(Vec3<T> edge2, Vec3<T> edge3, Vec3<T> e1, int size, TriStateRef<T> s) {
  for (int c = 0; c < size; ++c) s[c] = T(0);
  const Vec3<T> v[3] = {edge2, edge3, e1};
  for (int i = 0; i < 3; ++i) {
    s[3 * i] = v[i].x;
    s[3 * i + 1] = v[i].y;
    s[3 * i + 2] = v[i].z;
  }
  for (int k = 0; k < 3; ++k) {
    s[kTriFrame + 6 * k] = T(1);      // t1 = e1
    s[kTriFrame + 6 * k + 5] = T(1);  // d = e3
  }
}

namespace tri_detail {

/// Area coordinates of in-plane point p (interior 3-point rule, weights 1/3).
template <class T>
HS_HD void point_coordinates(int p, T l[3]) {
  for (int i = 0; i < 3; ++i) l[i] = i == p ? T(2) / T(3) : T(1) / T(6);
}

/// Gradients (b_i, c_i) = grad L_i of the area coordinates of a triangle with node 1 at the
/// origin and nodes 2, 3 at (x[1], y[1]), (x[2], y[2]); returns the area.
template <class T>
HS_HD T area_gradients(const T x[3], const T y[3], T b[3], T c[3]) {
  const T a2 = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    b[i] = (y[j] - y[k]) / a2;
    c[i] = (x[k] - x[j]) / a2;
  }
  return T(0.5) * a2;
}

/// CST membrane strain (e11, e22, g12) of in-plane displacements (u_i, v_i).
template <class T>
HS_HD void membrane_strain(const T b[3], const T c[3], const T u[3], const T v[3], T e[3]) {
  e[0] = b[0] * u[0] + b[1] * u[1] + b[2] * u[2];
  e[1] = c[0] * v[0] + c[1] * v[1] + c[2] * v[2];
  e[2] = c[0] * u[0] + c[1] * u[1] + c[2] * u[2] + b[0] * v[0] + b[1] * v[1] + b[2] * v[2];
}

/// DKT curvature matrix at area coordinates l: kappa = B q with q = (w, theta_x, theta_y) per
/// node (theta the rotation vector's in-plane components, so the normal's slopes are
/// beta_x = theta_y, beta_y = -theta_x and the strain at height z is membrane + z kappa).
/// Built as Batoz, Bathe & Ho (1980) define the element: beta quadratic over six nodes, the
/// corner values from the rotations, the midside ones from a cubic w and a linear normal slope
/// along each edge (Kirchhoff on the edges).
template <class T>
HS_HD void dkt_matrix(const T x[3], const T y[3], const T b[3], const T c[3], const T l[3], T out[3][9]) {
  T bx[6][9], by[6][9];  // beta_x, beta_y at the six nodes as rows over q
  for (int a = 0; a < 6; ++a)
    for (int d = 0; d < 9; ++d) bx[a][d] = by[a][d] = T(0);
  for (int i = 0; i < 3; ++i) {
    bx[i][3 * i + 2] = T(1);
    by[i][3 * i + 1] = T(-1);
  }
  T gx[6], gy[6];  // gradients of the quadratic shape functions
  for (int i = 0; i < 3; ++i) {
    gx[i] = (T(4) * l[i] - T(1)) * b[i];
    gy[i] = (T(4) * l[i] - T(1)) * c[i];
  }
  for (int m = 0; m < 3; ++m) {  // midside 3 + m on the edge (i, j) opposite corner m
    const int i = (m + 1) % 3, j = (m + 2) % 3;
    gx[3 + m] = T(4) * (l[i] * b[j] + l[j] * b[i]);
    gy[3 + m] = T(4) * (l[i] * c[j] + l[j] * c[i]);
    const T ex = x[j] - x[i], ey = y[j] - y[i];
    using std::sqrt;  // unqualified: dual numbers take their own overload
    const T len = sqrt(ex * ex + ey * ey);
    const T sx = ex / len, sy = ey / len;  // tangent; the normal is (sy, -sx)
    for (int d = 0; d < 9; ++d) {
      const T si = bx[i][d] * sx + by[i][d] * sy, sj = bx[j][d] * sx + by[j][d] * sy;
      const T ni = bx[i][d] * sy - by[i][d] * sx, nj = bx[j][d] * sy - by[j][d] * sx;
      T bs = -T(0.25) * (si + sj);
      if (d == 3 * j) bs = bs - T(1.5) / len;
      if (d == 3 * i) bs = bs + T(1.5) / len;
      const T bn = T(0.5) * (ni + nj);
      bx[3 + m][d] = bs * sx + bn * sy;
      by[3 + m][d] = bs * sy - bn * sx;
    }
  }
  for (int d = 0; d < 9; ++d) {
    T k0 = T(0), k1 = T(0), k2 = T(0);
    for (int a = 0; a < 6; ++a) {
      k0 = k0 + gx[a] * bx[a][d];
      k1 = k1 + gy[a] * by[a][d];
      k2 = k2 + gy[a] * bx[a][d] + gx[a] * by[a][d];
    }
    out[0][d] = k0;
    out[1][d] = k1;
    out[2][d] = k2;
  }
}

/// What the DKT curvatures need of one configuration besides the area coordinates: the area
/// gradients and each edge's unit tangent and inverse length (edge m joins the corners
/// (m + 1) % 3 and (m + 2) % 3). Formed once per configuration, used at every in-plane point.
template <class T>
struct DktEdges {
  T b[3], c[3];
  T sx[3], sy[3], inv_len[3];
};

/// The DktEdges of the triangle with nodes at (x[i], y[i]) and area gradients (b, c).
template <class T>
HS_HD DktEdges<T> dkt_edges(const T x[3], const T y[3], const T b[3], const T c[3]) {
  DktEdges<T> g;
  for (int m = 0; m < 3; ++m) {
    const int i = (m + 1) % 3, j = (m + 2) % 3;
    const T ex = x[j] - x[i], ey = y[j] - y[i];
    using std::sqrt;  // unqualified: dual numbers take their own overload
    const T inv = T(1) / sqrt(ex * ex + ey * ey);
    g.b[m] = b[m];
    g.c[m] = c[m];
    g.sx[m] = ex * inv;
    g.sy[m] = ey * inv;
    g.inv_len[m] = inv;
  }
  return g;
}

/// kappa = B(l) q, dkt_matrix's rows applied to q without forming them: the element kernel's
/// registers would otherwise hold the 6 x 9 slope tables (they spilled to memory on the GPU).
template <class T>
HS_HD void dkt_apply(const DktEdges<T>& g, const T l[3], const T q[9], T kappa[3]) {
  T bx[3], by[3];  // corner slopes beta_x = theta_y, beta_y = -theta_x
  for (int i = 0; i < 3; ++i) {
    bx[i] = q[3 * i + 2];
    by[i] = -q[3 * i + 1];
  }
  T k0 = T(0), k1 = T(0), k2 = T(0);
  for (int i = 0; i < 3; ++i) {
    const T gx = (T(4) * l[i] - T(1)) * g.b[i], gy = (T(4) * l[i] - T(1)) * g.c[i];
    k0 = k0 + gx * bx[i];
    k1 = k1 + gy * by[i];
    k2 = k2 + gy * bx[i] + gx * by[i];
  }
  for (int m = 0; m < 3; ++m) {
    const int i = (m + 1) % 3, j = (m + 2) % 3;
    const T sx = g.sx[m], sy = g.sy[m];
    const T si = bx[i] * sx + by[i] * sy, sj = bx[j] * sx + by[j] * sy;
    const T ni = bx[i] * sy - by[i] * sx, nj = bx[j] * sy - by[j] * sx;
    const T bs = -T(0.25) * (si + sj) + T(1.5) * g.inv_len[m] * (q[3 * i] - q[3 * j]);
    const T bn = T(0.5) * (ni + nj);
    const T bxm = bs * sx + bn * sy, bym = bs * sy - bn * sx;
    const T gx = T(4) * (l[i] * g.b[j] + l[j] * g.b[i]), gy = T(4) * (l[i] * g.c[j] + l[j] * g.c[i]);
    k0 = k0 + gx * bxm;
    k1 = k1 + gy * bym;
    k2 = k2 + gy * bxm + gx * bym;
  }
  kappa[0] = k0;
  kappa[1] = k1;
  kappa[2] = k2;
}

/// out += s B(l)^T m: the transpose of dkt_apply (reverse mode through the same steps), the
/// generalized forces conjugate to q of the moments m at one point.
template <class T>
HS_HD void dkt_apply_transpose(const DktEdges<T>& g, const T l[3], const T m[3], T s, T out[9]) {
  T fbx[3], fby[3], fw[3] = {T(0), T(0), T(0)};
  for (int i = 0; i < 3; ++i) {
    const T gx = (T(4) * l[i] - T(1)) * g.b[i], gy = (T(4) * l[i] - T(1)) * g.c[i];
    fbx[i] = m[0] * gx + m[2] * gy;
    fby[i] = m[1] * gy + m[2] * gx;
  }
  for (int e = 0; e < 3; ++e) {
    const int i = (e + 1) % 3, j = (e + 2) % 3;
    const T sx = g.sx[e], sy = g.sy[e];
    const T gx = T(4) * (l[i] * g.b[j] + l[j] * g.b[i]), gy = T(4) * (l[i] * g.c[j] + l[j] * g.c[i]);
    const T fx = m[0] * gx + m[2] * gy, fy = m[1] * gy + m[2] * gx;
    const T fbs = fx * sx + fy * sy, fbn = fx * sy - fy * sx;
    const T ax = -T(0.25) * fbs * sx + T(0.5) * fbn * sy, ay = -T(0.25) * fbs * sy - T(0.5) * fbn * sx;
    fbx[i] = fbx[i] + ax;
    fby[i] = fby[i] + ay;
    fbx[j] = fbx[j] + ax;
    fby[j] = fby[j] + ay;
    const T dw = T(1.5) * g.inv_len[e] * fbs;
    fw[i] = fw[i] + dw;
    fw[j] = fw[j] - dw;
  }
  for (int i = 0; i < 3; ++i) {
    out[3 * i] = out[3 * i] + s * fw[i];
    out[3 * i + 1] = out[3 * i + 1] - s * fby[i];
    out[3 * i + 2] = out[3 * i + 2] + s * fbx[i];
  }
}

/// Largest eigenvalue of a symmetric 3 x 3 matrix (closed form, trigonometric).
inline double symmetric3_largest(const double a[3][3]) {
  const double p1 = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
  const double q = (a[0][0] + a[1][1] + a[2][2]) / 3;
  const double p2 = (a[0][0] - q) * (a[0][0] - q) + (a[1][1] - q) * (a[1][1] - q) + (a[2][2] - q) * (a[2][2] - q) + 2 * p1;
  if (!(p2 > 0)) return q;
  const double p = std::sqrt(p2 / 6);
  double bm[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) bm[i][j] = (a[i][j] - (i == j ? q : 0.0)) / p;
  const double det = bm[0][0] * (bm[1][1] * bm[2][2] - bm[1][2] * bm[2][1]) -
                     bm[0][1] * (bm[1][0] * bm[2][2] - bm[1][2] * bm[2][0]) +
                     bm[0][2] * (bm[1][0] * bm[2][1] - bm[1][1] * bm[2][0]);
  const double r = std::fmax(-1.0, std::fmin(1.0, det / 2));
  return q + 2 * p * std::cos(std::acos(r) / 3);
}

}  // namespace tri_detail

/// What one evaluation's kinematics (tri_kinematics) hand to the stress points and to the
/// forces: the DCS now (e1, n), nodes 2 and 3 in it (node 1 at the origin), the area of the
/// last configuration, the membrane strain increment, the curvature increment at each in-plane
/// point and the nodes' drilling rotations. 26 values: the seed's split GPU scheme passes
/// them between its kernels through memory (TriIncrementStore).
template <class T>
struct TriIncrement {
  Vec3<T> e1, n;
  T x1, x2, y1, y2;
  T area_a;
  T dem[3];
  T dk[kTriPoints][3];
  T drill[3];
};

/// Number of values of a TriIncrement (its layout in TriIncrementStore).
constexpr int kTriIncrementValues = 26;

/// Writes inc into a component-major store (kTriIncrementValues components): how the split
/// scheme's kinematics kernel hands it to the point and force kernels.
template <class T>
HS_HD void store_tri_increment(const StridedState<T>& s, const TriIncrement<T>& inc) {
  store3(s, 0, inc.e1);
  store3(s, 3, inc.n);
  const T flat[20] = {inc.x1,    inc.x2,    inc.y1,    inc.y2,    inc.area_a, inc.dem[0], inc.dem[1],
                      inc.dem[2], inc.dk[0][0], inc.dk[0][1], inc.dk[0][2], inc.dk[1][0], inc.dk[1][1], inc.dk[1][2],
                      inc.dk[2][0], inc.dk[2][1], inc.dk[2][2], inc.drill[0], inc.drill[1], inc.drill[2]};
  for (int c = 0; c < 20; ++c) s[6 + c] = flat[c];
}

/// Reads what store_tri_increment wrote.
template <class T>
HS_HD TriIncrement<T> load_tri_increment(const StridedState<T>& s) {
  TriIncrement<T> inc;
  inc.e1 = load3(s, 0);
  inc.n = load3(s, 3);
  inc.x1 = s[6];
  inc.x2 = s[7];
  inc.y1 = s[8];
  inc.y2 = s[9];
  inc.area_a = s[10];
  for (int i = 0; i < 3; ++i) inc.dem[i] = s[11 + i];
  for (int p = 0; p < kTriPoints; ++p)
    for (int i = 0; i < 3; ++i) inc.dk[p][i] = s[14 + 3 * p + i];
  for (int k = 0; k < 3; ++k) inc.drill[k] = s[23 + k];
  return inc;
}

/// Stress points of a triangle of section sec: one per in-plane point when elastic (the
/// resultants), one per in-plane and Simpson point when plastic. Point j is in-plane point
/// j / (points per in-plane point), section point j % that. MayYield = false (no section of
/// the model yields) makes the count a constant the compiler can unroll.
template <bool MayYield = true, class T>
HS_HD int tri_stress_points(const TriConstants<T>& sec) {
  return MayYield && sec.plastic ? kTriPoints * sec.section_points : kTriPoints;
}

/// Phase 1 of an evaluation (one path unit, from the state at the last evaluation to the nodes
/// now): the DCS, the pure deformation and its strain increments; stores the new edges, DCS
/// axis and node frames in the state.
template <class T>
HS_HD TriIncrement<T> tri_kinematics(const TriNodes<T>& nd, const TriStateRef<T>& s) {
  // Configuration a: edges and the carried in-plane axis.
  const Vec3<T> r2a = load3(s, kTriEdge2), r3a = load3(s, kTriEdge3);
  const Vec3<T> na = normalized(cross(r2a, r3a));
  Vec3<T> e1a = load3(s, kTriE1);
  e1a = normalized(e1a - dot(e1a, na) * na);
  const Vec3<T> e2a = cross(na, e1a);
  const Mat3<T> qa = matrix_of_columns(e1a, e2a, na);
  // Now: edges formed from the reference differences (no X + u rounding) and the normal.
  const Vec3<T> r2 = nd.edge0[0] + (nd.u[1] - nd.u[0]), r3 = nd.edge0[1] + (nd.u[2] - nd.u[0]);
  // An unchanged plane (nodes at rest, or moved less than their coordinates' last bit) keeps
  // the DCS exactly: no round-off strain is booked while a load ramps up from zero.
  // Dual numbers (a static step's tangent, discretization/fpm_tangent.hpp) take the general
  // path always: at the converged configuration their derivative parts still turn the DCS.
  constexpr bool plain = std::is_floating_point_v<T>;
  const bool same = plain && r2.x == r2a.x && r2.y == r2a.y && r2.z == r2a.z && r3.x == r3a.x && r3.y == r3a.y &&
                    r3.z == r3a.z;
  const Vec3<T> n = same ? na : normalized(cross(r2, r3));
  T xa[3] = {T(0), dot(r2a, e1a), dot(r3a, e1a)}, ya[3] = {T(0), dot(r2a, e2a), dot(r3a, e2a)};
  T ba[3], ca[3];
  const T area_a = tri_detail::area_gradients(xa, ya, ba, ca);
  // The normal's minimal rotation carries e1 into the new plane; the polar angle of the
  // in-plane increment gradient then turns it about the normal.
  Vec3<T> e1 = e1a;
  if (!same) {
    Vec3<T> e1p = rotate(minimal_rotation(na, n), e1a);
    e1p = normalized(e1p - dot(e1p, n) * n);
    const Vec3<T> e2p = cross(n, e1p);
    const T p2x = dot(r2, e1p), p2y = dot(r2, e2p), p3x = dot(r3, e1p), p3y = dot(r3, e2p);
    const T f11 = p2x * ba[1] + p3x * ba[2], f12 = p2x * ca[1] + p3x * ca[2];
    const T f21 = p2y * ba[1] + p3y * ba[2], f22 = p2y * ca[1] + p3y * ca[2];
    using std::atan2;  // unqualified here and below: dual numbers take their own overloads
    using std::cos;
    using std::sin;
    const T angle = atan2(f21 - f12, f11 + f22);
    e1 = cos(angle) * e1p + sin(angle) * e2p;
  }
  const Vec3<T> e2 = cross(n, e1);
  const Mat3<T> qt = matrix_of_columns(e1, e2, n);
  const Mat3<T> rigid = same ? scaled_identity(T(1)) : qt * transpose(qa);

  // Pure deformation: in-plane displacements of nodes 2 and 3 relative to node 1 in the DCS,
  // and each node's deformation rotation (its rotation increment less the element's).
  T x[3] = {T(0), dot(r2, e1), dot(r3, e1)}, y[3] = {T(0), dot(r2, e2), dot(r3, e2)};
  const T du[3] = {T(0), x[1] - xa[1], x[2] - xa[2]}, dv[3] = {T(0), y[1] - ya[1], y[2] - ya[2]};
  store3(s, kTriEdge2, r2);
  store3(s, kTriEdge3, r3);
  store3(s, kTriE1, e1);
  T q[9], drill[3];
  for (int k = 0; k < 3; ++k) {
    const Vec3<T> t1a = load3(s, kTriFrame + 6 * k), da = load3(s, kTriFrame + 6 * k + 3);
    Vec3<T> phi{T(0), T(0), T(0)};
    const bool turned = !plain || !(t1a.x == nd.t1[k].x && t1a.y == nd.t1[k].y && t1a.z == nd.t1[k].z && da.x == nd.d[k].x &&
                          da.y == nd.d[k].y && da.z == nd.d[k].z);
    if (turned || !same) {
      const Mat3<T> dn = node_rotation(nd.t1[k], nd.d[k]) * transpose(node_rotation(t1a, da));
      phi = deformation_rotation(dn, rigid, qt);
    }
    q[3 * k] = T(0);  // the normal displacement is zero in the DCS
    q[3 * k + 1] = phi.x;
    q[3 * k + 2] = phi.y;
    drill[k] = phi.z;  // the drilling part: rotation about the normal relative to the element
    // Stored as soon as read: the frames would otherwise stay live (in registers) to the end.
    store3(s, kTriFrame + 6 * k, nd.t1[k]);
    store3(s, kTriFrame + 6 * k + 3, nd.d[k]);
  }
  TriIncrement<T> inc;
  tri_detail::membrane_strain(ba, ca, du, dv, inc.dem);
  const tri_detail::DktEdges<T> ga = tri_detail::dkt_edges(xa, ya, ba, ca);
  for (int p = 0; p < kTriPoints; ++p) {
    T l[3];
    tri_detail::point_coordinates(p, l);
    tri_detail::dkt_apply(ga, l, q, inc.dk[p]);
  }
  inc.e1 = e1;
  inc.n = n;
  inc.x1 = x[1];
  inc.x2 = x[2];
  inc.y1 = y[1];
  inc.y2 = y[2];
  inc.area_a = area_a;
  for (int k = 0; k < 3; ++k) inc.drill[k] = drill[k];
  return inc;
}

/// Phase 2: stress point j's update from the increment (elastic: in-plane point j's section
/// forces and moments; plastic: one Simpson point's stress and equivalent plastic strain);
/// returns its share of the increment's internal work. Points are independent of each other.
template <class T, bool MayYield = true>
HS_HD T tri_stress_point_update(const TriConstants<T>& sec, const TriStateRef<T>& s, int j, const TriIncrement<T>& inc) {
  T work = T(0);
  if (!MayYield || !sec.plastic) {
    // Elastic: the stress is linear through the thickness, so the section forces and moments
    // are the whole state (Simpson's rule would integrate the same line exactly).
    const int p = j;
    const T* dk = inc.dk[p];
    const int at = tri_resultant_at(p);
    const T t = sec.thickness, bend = t * t * t / T(12);
    const T n0[3] = {s[at], s[at + 1], s[at + 2]}, m0[3] = {s[at + 3], s[at + 4], s[at + 5]};
    T np[3], mp[3];
    np[0] = n0[0] + t * (sec.d11 * inc.dem[0] + sec.d12 * inc.dem[1]);
    np[1] = n0[1] + t * (sec.d12 * inc.dem[0] + sec.d11 * inc.dem[1]);
    np[2] = n0[2] + t * (sec.d33 * inc.dem[2]);
    mp[0] = m0[0] + bend * (sec.d11 * dk[0] + sec.d12 * dk[1]);
    mp[1] = m0[1] + bend * (sec.d12 * dk[0] + sec.d11 * dk[1]);
    mp[2] = m0[2] + bend * (sec.d33 * dk[2]);
    for (int i = 0; i < 3; ++i) {
      s[at + i] = np[i];
      s[at + 3 + i] = mp[i];
      work = work + T(0.5) * ((n0[i] + np[i]) * inc.dem[i] + (m0[i] + mp[i]) * dk[i]);
    }
  } else {
    const int nz = sec.section_points, p = j / nz, k = j % nz;
    const T* dk = inc.dk[p];
    const T half = T(0.5) * sec.thickness;
    const T z = sec.zeta[k] * half, w = sec.wz[k] * half;
    const int at = tri_stress_at(nz, p, k);
    const T old[3] = {s[at], s[at + 1], s[at + 2]};
    const T de[3] = {inc.dem[0] + z * dk[0], inc.dem[1] + z * dk[1], inc.dem[2] + z * dk[2]};
    T sig[3];
    T alpha = s[tri_alpha_at(nz, p, k)];
    tri_point_stress(sec, old, de, sig, alpha);
    s[tri_alpha_at(nz, p, k)] = alpha;
    for (int i = 0; i < 3; ++i) {
      s[at + i] = sig[i];
      work = work + T(0.5) * (old[i] + sig[i]) * de[i] * w;
    }
  }
  return work * inc.area_a / T(3);
}

/// Phase 3: from the updated stresses, the drilling moments (updated in the state) and the
/// nodal forces and moments, global components; adds the stress points' work (their sum, in
/// point order) and the drilling work to the state's internal work.
template <class T, bool MayYield = true>
HS_HD TriForces<T> tri_forces(const TriConstants<T>& sec, const TriStateRef<T>& s, const TriIncrement<T>& inc,
                              T work) {
  const T x[3] = {T(0), inc.x1, inc.x2}, y[3] = {T(0), inc.y1, inc.y2};
  T bt[3], ct[3];
  const T area = tri_detail::area_gradients(x, y, bt, ct);
  const tri_detail::DktEdges<T> gt = tri_detail::dkt_edges(x, y, bt, ct);
  T nbar[3] = {T(0), T(0), T(0)};
  T g[9];  // bending generalized forces conjugate to q
  for (int d = 0; d < 9; ++d) g[d] = T(0);
  const int nz = sec.section_points;
  const T half = T(0.5) * sec.thickness;
  for (int p = 0; p < kTriPoints; ++p) {
    T np[3] = {T(0), T(0), T(0)}, mp[3] = {T(0), T(0), T(0)};
    if (!MayYield || !sec.plastic) {
      for (int i = 0; i < 3; ++i) {
        np[i] = s[tri_resultant_at(p) + i];
        mp[i] = s[tri_resultant_at(p) + 3 + i];
      }
    } else {
      for (int k = 0; k < nz; ++k) {
        const T z = sec.zeta[k] * half, w = sec.wz[k] * half;
        const int at = tri_stress_at(nz, p, k);
        for (int i = 0; i < 3; ++i) {
          np[i] = np[i] + w * s[at + i];
          mp[i] = mp[i] + w * z * s[at + i];
        }
      }
    }
    for (int i = 0; i < 3; ++i) nbar[i] = nbar[i] + np[i] / T(3);
    T l[3];
    tri_detail::point_coordinates(p, l);
    tri_detail::dkt_apply_transpose(gt, l, mp, area / T(3), g);
  }
  // Drilling moments, carried with the DCS like the stresses.
  T mdrill[3], msum = T(0);
  for (int k = 0; k < 3; ++k) {
    const T old = s[kTriDrill + k];
    mdrill[k] = old + sec.drill * inc.drill[k];
    work = work + T(0.5) * (old + mdrill[k]) * inc.drill[k];
    s[kTriDrill + k] = mdrill[k];
    msum = msum + mdrill[k];
  }
  s[kTriWork] = s[kTriWork] + work;

  // Nodal forces in the DCS: membrane A B^T N, bending through the DKT matrix (w columns give
  // the normal forces that balance the moments), the drilling moments with the in-plane forces
  // that balance them (the element's rotation (v,x - u,y)/2 is their other end), then turned
  // global.
  const Mat3<T> qt = matrix_of_columns(inc.e1, cross(inc.n, inc.e1), inc.n);
  TriForces<T> out;
  for (int k = 0; k < 3; ++k) {
    const T fu = area * (bt[k] * nbar[0] + ct[k] * nbar[2]) + T(0.5) * msum * ct[k];
    const T fv = area * (ct[k] * nbar[1] + bt[k] * nbar[2]) - T(0.5) * msum * bt[k];
    out.f[k] = qt * Vec3<T>{fu, fv, g[3 * k]};
    out.m[k] = qt * Vec3<T>{g[3 * k + 1], g[3 * k + 2], mdrill[k]};
  }
  return out;
}

/// Phases 2 and 3 from an increment: every stress point's update, then the forces; what an
/// evaluation does after its kinematics (the linear theory of static steps hands it an
/// increment of its own, tri_increment_forces).
template <class T, bool MayYield = true>
HS_HD TriForces<T> tri_update_from(const TriConstants<T>& sec, const TriStateRef<T>& s, const TriIncrement<T>& inc) {
  T work = T(0);
  const int points = tri_stress_points<MayYield>(sec);
  for (int j = 0; j < points; ++j) work = work + tri_stress_point_update<T, MayYield>(sec, s, j, inc);
  return tri_forces<T, MayYield>(sec, s, inc, work);
}

/// One path unit of the triangle: from the state at the last evaluation and the nodes now,
/// updates the state in place (edges, DCS, node frames, stresses, work) and returns the
/// internal nodal forces and moments; the three phases in one call (the fused scheme; the
/// split GPU scheme runs each phase as its own kernel, with the same arithmetic). An unchanged
/// configuration changes nothing. MayYield = false compiles the elastic path only (models
/// without plastic sections: fewer registers on the GPU); the section must then be elastic.
template <class T, bool MayYield = true>
HS_HD TriForces<T> fpm_tri_update(const TriConstants<T>& sec, const TriNodes<T>& nd, const TriStateRef<T>& s) {
  return tri_update_from<T, MayYield>(sec, s, tri_kinematics(nd, s));
}

/// The triangle in static steps (discretization/row_operator.cpp): its generalized forces on
/// 6-dof nodes whose rotation unknowns are the spins about the node's own frame, and their
/// derivatives by forward dual numbers through the same update, one column per evaluation. A
/// static increment is one path unit from the last converged increment's state, as for the
/// FPM hexahedron.
///
/// One FPM triangle's 18 generalized forces at the nodes nd, one path unit from the state
/// `from` (tri_state_size values): corner k's force at out[6 k], then its moment's components
/// along the corner node's t1, t2 and d. The state is copied into `work` (size values) and
/// updated there (the trial state; D = double). seed >= 0 makes the evaluation the derivative
/// along generalized dof `seed` (corner seed / 6, dof seed % 6) in the dual parts (D = Dual).
template <class D, bool MayYield = true>
HS_HD void tri_generalized_forces(const TriConstants<D>& sec, const TriNodes<double>& nd,
                                  const StridedState<const double>& from, int size, int seed,
                                  const StridedState<D>& work, D out[18]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  TriNodes<D> n;
  for (int i = 0; i < 2; ++i) n.edge0[i] = {D(nd.edge0[i].x), D(nd.edge0[i].y), D(nd.edge0[i].z)};
  for (int k = 0; k < 3; ++k) fpm_seeded_node(nd.u[k], nd.t1[k], nd.d[k], k, seed, n.u[k], n.t1[k], n.d[k]);
  const TriForces<D> f = fpm_tri_update<D, MayYield>(sec, n, work);
  for (int k = 0; k < 3; ++k) fpm_generalized_corner(f.f[k], f.m[k], n.t1[k], n.d[k], out + kFpmNodeDofs * k);
}

/// Values of a TriIncrement that are geometry (the DCS, nodes 2 and 3 in it, the last area:
/// store_tri_increment's first ones); the others are strain and rotation increments, linear in
/// the displacements at the reference (the linear theory, RowOperator::linear_forces).
constexpr int kTriIncrementGeometry = 11;

/// The kinematics alone of one path unit from `from` (copied into `work`) to the nodes nd,
/// store_tri_increment's layout into inc; seed as for tri_generalized_forces (with dual D, the
/// increment's derivative along that generalized dof).
template <class D>
HS_HD void tri_increment_of(const TriNodes<double>& nd, const StridedState<const double>& from, int size, int seed,
                            const StridedState<D>& work, D inc[kTriIncrementValues]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  TriNodes<D> n;
  for (int i = 0; i < 2; ++i) n.edge0[i] = {D(nd.edge0[i].x), D(nd.edge0[i].y), D(nd.edge0[i].z)};
  for (int k = 0; k < 3; ++k) fpm_seeded_node(nd.u[k], nd.t1[k], nd.d[k], k, seed, n.u[k], n.t1[k], n.d[k]);
  store_tri_increment(StridedState<D>{inc, 1}, tri_kinematics(n, work));
}

/// The 18 generalized forces of the increment inc (store_tri_increment's layout) taken from
/// the state `from` (copied into `work`, updated there): phases 2 and 3 (tri_update_from), the
/// moments' components along the node frames t1, d (the linear theory's: the reference's).
template <class D>
HS_HD void tri_increment_forces(const TriConstants<D>& sec, const Vec3<double> t1[3], const Vec3<double> d[3],
                                const StridedState<const double>& from, int size, const D inc[kTriIncrementValues],
                                const StridedState<D>& work, D out[18]) {
  for (int c = 0; c < size; ++c) work[c] = D(from[c]);
  D flat[kTriIncrementValues];
  for (int c = 0; c < kTriIncrementValues; ++c) flat[c] = inc[c];
  const TriForces<D> f = tri_update_from<D>(sec, work, load_tri_increment(StridedState<D>{flat, 1}));
  for (int k = 0; k < 3; ++k) {
    const Vec3<D> a{D(t1[k].x), D(t1[k].y), D(t1[k].z)}, b{D(d[k].x), D(d[k].y), D(d[k].z)};
    fpm_generalized_corner(f.f[k], f.m[k], a, b, out + kFpmNodeDofs * k);
  }
}

/// The translations of nodes 2 and 3 relative to node 1 (the edges' change since the
/// reference edges edge0) and each node's frame, as the state s last saw them: the
/// displacements a geometrically linear step's converged state stands for.
template <class S>
HS_HD void tri_state_nodes(const StridedState<S>& s, const Vec3<double> edge0[2], Vec3<double> du[3],
                           Vec3<double> t1[3], Vec3<double> d[3]) {
  const auto at = [&](int c) { return Vec3<double>{double(s[c]), double(s[c + 1]), double(s[c + 2])}; };
  du[0] = {0.0, 0.0, 0.0};
  du[1] = at(kTriEdge2) - edge0[0];
  du[2] = at(kTriEdge3) - edge0[1];
  for (int k = 0; k < 3; ++k) {
    t1[k] = at(kTriFrame + 6 * k);
    d[k] = at(kTriFrame + 6 * k + 3);
  }
}

/// Section forces (N11, N22, N12) and moments (M11, M22, M12) per unit length in the element's
/// DCS, the mean over the in-plane points (Abaqus SF1-SF3, SM1-SM3 of S3), and the stresses
/// at the bottom and top section points (mean over the in-plane points).
template <class T, class S>
HS_HD void tri_section_results(const TriConstants<T>& sec, const TriStateRef<S>& s, T sf[3], T sm[3], T bottom[3],
                               T top[3]) {
  const int nz = sec.section_points;
  const T half = T(0.5) * sec.thickness;
  for (int i = 0; i < 3; ++i) sf[i] = sm[i] = bottom[i] = top[i] = T(0);
  if (!sec.plastic) {
    const T t = sec.thickness;
    for (int p = 0; p < kTriPoints; ++p)
      for (int i = 0; i < 3; ++i) {
        const T n = T(s[tri_resultant_at(p) + i]) / T(3), m = T(s[tri_resultant_at(p) + 3 + i]) / T(3);
        sf[i] = sf[i] + n;
        sm[i] = sm[i] + m;
        bottom[i] = bottom[i] + n / t - T(6) * m / (t * t);
        top[i] = top[i] + n / t + T(6) * m / (t * t);
      }
    return;
  }
  for (int p = 0; p < kTriPoints; ++p)
    for (int k = 0; k < nz; ++k) {
      const int at = tri_stress_at(nz, p, k);
      for (int i = 0; i < 3; ++i) {
        const T sig = T(s[at + i]) / T(3);
        sf[i] = sf[i] + sec.wz[k] * half * sig;
        sm[i] = sm[i] + sec.wz[k] * half * sec.zeta[k] * half * sig;
        if (k == 0) bottom[i] = bottom[i] + sig;
        if (k == nz - 1) top[i] = top[i] + sig;
      }
    }
}

/// The stress (s11, s22, s12) in the DCS at in-plane point p and section point k (of the
/// section's Simpson points) of either kind of section.
template <class T, class S>
HS_HD void tri_point_stress_now(const TriConstants<T>& sec, const TriStateRef<S>& s, int p, int k, T out[3]) {
  if (sec.plastic) {
    for (int i = 0; i < 3; ++i) out[i] = T(s[tri_stress_at(sec.section_points, p, k) + i]);
    return;
  }
  const T t = sec.thickness, z = sec.zeta[k] * T(0.5) * t;
  for (int i = 0; i < 3; ++i)
    out[i] = T(s[tri_resultant_at(p) + i]) / t + z * T(12) * T(s[tri_resultant_at(p) + 3 + i]) / (t * t * t);
}

/// PEEQ of a triangle as MITC4 reports it: the largest over the section points of the mean
/// over the in-plane points (0 for elastic sections).
template <class T, class S>
HS_HD T tri_peeq(const TriConstants<T>& sec, const TriStateRef<S>& s) {
  T peeq = T(0);
  if (!sec.plastic) return peeq;
  const int nz = sec.section_points;
  for (int k = 0; k < nz; ++k) {
    T mean = T(0);
    for (int p = 0; p < kTriPoints; ++p) mean = mean + T(s[tri_alpha_at(nz, p, k)]);
    mean = mean / T(kTriPoints);
    if (mean > peeq) peeq = mean;
  }
  return peeq;
}

/// Plastic dissipation of a triangle so far: the hardening work of each point's equivalent
/// plastic strain (isotropic hardening: alpha only grows, so the dissipation is a function
/// of it), integrated over the reference area area0 and the thickness (0 for elastic sections).
template <class T, class S>
HS_HD T tri_dissipation(const TriConstants<T>& sec, const TriStateRef<S>& s, T area0) {
  T d = T(0);
  if (!sec.plastic) return d;
  const int nz = sec.section_points;
  const T half = T(0.5) * sec.thickness;
  for (int p = 0; p < kTriPoints; ++p)
    for (int k = 0; k < nz; ++k)
      d = d + sec.wz[k] * half * area0 / T(kTriPoints) * j2_hardening_work(sec.law, T(0), T(s[tri_alpha_at(nz, p, k)]));
  return d;
}

/// Stable increment 2 / omega_max of one flat triangle with its own lumped masses
/// m = rho t A / 3 and rotary inertias I = m max(t^2/12, kTriRotaryScale A), at small strain:
/// the membrane block's largest eigenvalue exactly (3 rho^-1 lambda_max(D B B^T), a 3 x 3
/// problem, plus a bound of the drilling stiffness it couples to) and the bending block's
/// bounded above by its Gershgorin radius. x, y: node coordinates in the element's plane.
inline double fpm_tri_stable_dt(const TriConstants<double>& sec, double density, const double x[3], const double y[3]) {
  double b[3], c[3];
  const double area = tri_detail::area_gradients(x, y, b, c);
  // Membrane: lambda_max(M^-1 K) = (3 / rho) lambda_max(L^T (B B^T) L), D = L L^T.
  double bb[3][3];
  const double bm[3][6] = {{b[0], 0, b[1], 0, b[2], 0}, {0, c[0], 0, c[1], 0, c[2]}, {c[0], b[0], c[1], b[1], c[2], b[2]}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      bb[i][j] = 0;
      for (int k = 0; k < 6; ++k) bb[i][j] += bm[i][k] * bm[j][k];
    }
  const double l11 = std::sqrt(sec.d11), l21 = sec.d12 / l11, l22 = std::sqrt(sec.d11 - l21 * l21), l33 = std::sqrt(sec.d33);
  const double lm[3][3] = {{l11, 0, 0}, {l21, l22, 0}, {0, 0, l33}};
  double sym[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      sym[i][j] = 0;
      for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 3; ++m) sym[i][j] += lm[k][i] * bb[k][m] * lm[m][j];
    }
  const double membrane = 3.0 / density * tri_detail::symmetric3_largest(sym);
  // Bending: K_b = A/3 sum_p B_p^T (D t^3 / 12) B_p on (w, theta_x, theta_y) per node.
  const double t = sec.thickness, m = density * t * area / 3;
  const double inertia = m * std::fmax(t * t / 12, kTriRotaryScale * area);
  const double db = t * t * t / 12;
  double kb[9][9] = {};
  for (int p = 0; p < kTriPoints; ++p) {
    double l[3], bp[3][9];
    tri_detail::point_coordinates(p, l);
    tri_detail::dkt_matrix(x, y, b, c, l, bp);
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 9; ++j) {
        const double m0 = sec.d11 * bp[0][j] + sec.d12 * bp[1][j];
        const double m1 = sec.d12 * bp[0][j] + sec.d11 * bp[1][j];
        const double m2 = sec.d33 * bp[2][j];
        kb[i][j] += area / 3 * db * (bp[0][i] * m0 + bp[1][i] * m1 + bp[2][i] * m2);
      }
  }
  double bending = 0;
  for (int i = 0; i < 9; ++i) {
    double row = 0;
    for (int j = 0; j < 9; ++j) {
      const double mi = i % 3 == 0 ? m : inertia, mj = j % 3 == 0 ? m : inertia;
      row += std::fabs(kb[i][j]) / std::sqrt(mi * mj);
    }
    bending = std::fmax(bending, row);
  }
  // Drilling: K_d = k_d sum_k g_k g_k^T (g_k: node k's rotation about the normal less the
  // element's (v,x - u,y)/2) adds at most k_d sum_k |M^-1/2 g_k|^2 to the membrane block's
  // largest eigenvalue (Weyl).
  const double drill = 3 * sec.drill * (1 / inertia + (b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + c[0] * c[0] +
                                                       c[1] * c[1] + c[2] * c[2]) / (4 * m));
  return 2.0 / std::sqrt(std::fmax(membrane + drill, bending));
}

}  // namespace halfstep
