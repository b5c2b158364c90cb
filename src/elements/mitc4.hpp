// MITC4 shell element (Dvorkin & Bathe), total Lagrangian, as host/device functions.
//
// Geometry of the degenerated shell: x(r,s,z) = sum_k N_k (x_k + z a/2 V_k), z in [-1, 1],
// with x_k the current nodal positions, V_k the current unit directors and a the thickness.
// Strains are the covariant Green-Lagrange components E_ij = (g_i.g_j - G_i.G_j)/2, kept
// linear through the thickness (E = e + z k: membrane + bending, small strains), with the
// transverse shear components tied at the mid-side points A, B, C, D (MITC). Stresses are
// St. Venant-Kirchhoff plane stress in a local Cartesian frame of the reference surface.
// Because every strain is a function of dot products of current vectors, rigid motions give
// exactly zero strain, and forces are the exact gradient of the element strain energy, so
// the explicit scheme conserves energy up to the time-integration error.
//
// Forces are computed in reverse (adjoint) form: the stress resultants are pulled back to
// "forces" on the vectors A_r, A_s (surface tangents), B_r, B_s (director derivatives) and
// D (thickness vector), and those are scattered to the nodes. This avoids forming the
// 8x20 strain-displacement matrices and keeps the element at ~2 kFLOP per evaluation.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "materials/shell_elastic.hpp"

namespace halfstep {

/// Reference-configuration constants of one MITC4 element at its 2x2 Gauss points.
template <class T>
struct Mitc4Ref {
  T wj[4];                   ///< Gauss weight times surface Jacobian |G_r x G_s|
  T cr1[4], cr2[4];          ///< G^r . e1, G^r . e2  (contravariant basis onto the local frame)
  T cs1[4], cs2[4];          ///< G^s . e1, G^s . e2
  T cz3[4];                  ///< G^z . e3
  T grr[4], gss[4], grs[4];  ///< reference metric A0_r.A0_r, A0_s.A0_s, A0_r.A0_s
  T krr[4], kss[4], krs[4];  ///< reference A0_r.B0_r, A0_s.B0_s, (A0_r.B0_s + A0_s.B0_r)/2
  T tie[4];                  ///< reference A0_r.D0 at A, C and A0_s.D0 at B, D
};

/// Natural coordinates of the four nodes (Abaqus S4 order: counter-clockwise).
HS_HD double mitc4_node_r(int k) { return (k == 0 || k == 3) ? -1.0 : 1.0; }
HS_HD double mitc4_node_s(int k) { return (k < 2) ? -1.0 : 1.0; }
/// Natural coordinate of Gauss point g along r and s (2x2 rule, unit weights).
HS_HD double mitc4_gauss_r(int g) { return mitc4_node_r(g) * 0.57735026918962576451; }
HS_HD double mitc4_gauss_s(int g) { return mitc4_node_s(g) * 0.57735026918962576451; }

namespace mitc4_detail {

/// Tangents A_r, A_s of the surface through points p at natural point (r, s).
template <class T>
HS_HD void tangents(const Vec3<T> p[4], T r, T s, Vec3<T>& ar, Vec3<T>& as) {
  ar = {T(0), T(0), T(0)};
  as = {T(0), T(0), T(0)};
  for (int k = 0; k < 4; ++k) {
    const T rk = T(mitc4_node_r(k)), sk = T(mitc4_node_s(k));
    ar += (T(0.25) * rk * (T(1) + s * sk)) * p[k];
    as += (T(0.25) * sk * (T(1) + r * rk)) * p[k];
  }
}

/// Interpolated vector sum_k N_k(r, s) p_k.
template <class T>
HS_HD Vec3<T> interpolate(const Vec3<T> p[4], T r, T s) {
  Vec3<T> v{T(0), T(0), T(0)};
  for (int k = 0; k < 4; ++k)
    v += (T(0.25) * (T(1) + r * T(mitc4_node_r(k))) * (T(1) + s * T(mitc4_node_s(k)))) * p[k];
  return v;
}

/// Tying-point tangents and thickness vectors: A and C tie e_rz, B and D tie e_sz.
/// A = (0,+1): nodes 2,3; C = (0,-1): nodes 0,1; B = (-1,0): nodes 0,3; D = (+1,0): nodes 1,2.
template <class T>
HS_HD void tying_vectors(const Vec3<T> x[4], const Vec3<T> v[4], T half_a, Vec3<T> t[4], Vec3<T> d[4]) {
  t[0] = T(0.5) * (x[2] - x[3]);  // A_r at A
  t[1] = T(0.5) * (x[1] - x[0]);  // A_r at C
  t[2] = T(0.5) * (x[3] - x[0]);  // A_s at B
  t[3] = T(0.5) * (x[2] - x[1]);  // A_s at D
  d[0] = (T(0.5) * half_a) * (v[2] + v[3]);
  d[1] = (T(0.5) * half_a) * (v[0] + v[1]);
  d[2] = (T(0.5) * half_a) * (v[0] + v[3]);
  d[3] = (T(0.5) * half_a) * (v[1] + v[2]);
}

/// Local Cartesian frame of a shell surface point, following Abaqus' default: e1 is the
/// projection of global X on the surface (global Z when X is within 0.1 degree of the normal).
template <class T>
HS_HD void local_frame(Vec3<T> n, Vec3<T>& e1, Vec3<T>& e2) {
  Vec3<T> ref{T(1), T(0), T(0)};
  Vec3<T> p = ref - dot(ref, n) * n;
  if (norm(p) < T(1.7453292e-3)) {
    ref = {T(0), T(0), T(1)};
    p = ref - dot(ref, n) * n;
  }
  e1 = normalized(p);
  e2 = cross(n, e1);
}

}  // namespace mitc4_detail

/// Computes the reference constants from initial node positions X, initial directors V0 and
/// thickness a. Returns false if the element is degenerate or inverted at a Gauss point.
template <class T>
HS_HD bool mitc4_reference(const Vec3<T> X[4], const Vec3<T> V0[4], T a, Mitc4Ref<T>& ref) {
  using namespace mitc4_detail;
  const T half_a = T(0.5) * a;
  Vec3<T> B[4];
  for (int k = 0; k < 4; ++k) B[k] = half_a * V0[k];
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    Vec3<T> ar, as, br, bs;
    tangents(X, r, s, ar, as);
    tangents(B, r, s, br, bs);
    const Vec3<T> d = interpolate(B, r, s);
    const Vec3<T> nrm = cross(ar, as);
    const T jac = norm(nrm);
    const T vol = dot(nrm, d);  // G_r x G_s . G_z
    if (!(jac > T(0)) || !(vol > T(0))) return false;
    const Vec3<T> n = (T(1) / jac) * nrm;
    Vec3<T> e1, e2;
    local_frame(n, e1, e2);
    // Contravariant basis G^i = (G_j x G_k) / (G_i . G_j x G_k).
    const Vec3<T> gr = (T(1) / vol) * cross(as, d);
    const Vec3<T> gs = (T(1) / vol) * cross(d, ar);
    const Vec3<T> gz = (T(1) / vol) * nrm;
    ref.wj[g] = jac;
    ref.cr1[g] = dot(gr, e1);
    ref.cr2[g] = dot(gr, e2);
    ref.cs1[g] = dot(gs, e1);
    ref.cs2[g] = dot(gs, e2);
    ref.cz3[g] = dot(gz, n);
    ref.grr[g] = dot(ar, ar);
    ref.gss[g] = dot(as, as);
    ref.grs[g] = dot(ar, as);
    ref.krr[g] = dot(ar, br);
    ref.kss[g] = dot(as, bs);
    ref.krs[g] = T(0.5) * (dot(ar, bs) + dot(as, br));
  }
  Vec3<T> t[4], d[4];
  tying_vectors(X, V0, half_a, t, d);
  for (int p = 0; p < 4; ++p) ref.tie[p] = dot(t[p], d[p]);
  return true;
}

/// Generalized strains at one Gauss point in the local frame: membrane (e11, e22, g12),
/// bending curvature (k11, k22, 2 k12) per unit thickness coordinate, transverse shear (g13, g23).
template <class T>
struct Mitc4Strain {
  T mem[3], bend[3], shear[2];
};

/// Pulls covariant components (c_rr, c_ss, c_rs as tensor) to local (11, 22, engineering 12).
template <class T>
HS_HD void mitc4_to_local(const Mitc4Ref<T>& ref, int g, T crr, T css, T crs, T out[3]) {
  const T r1 = ref.cr1[g], r2 = ref.cr2[g], s1 = ref.cs1[g], s2 = ref.cs2[g];
  out[0] = crr * r1 * r1 + T(2) * crs * r1 * s1 + css * s1 * s1;
  out[1] = crr * r2 * r2 + T(2) * crs * r2 * s2 + css * s2 * s2;
  out[2] = T(2) * (crr * r1 * r2 + crs * (r1 * s2 + s1 * r2) + css * s1 * s2);
}

/// Dual of mitc4_to_local: local resultants (N11, N22, N12) to derivatives of the energy with
/// respect to the covariant components (d/dc_rr, d/dc_ss, d/dc_rs).
template <class T>
HS_HD void mitc4_from_local(const Mitc4Ref<T>& ref, int g, const T n[3], T& drr, T& dss, T& drs) {
  const T r1 = ref.cr1[g], r2 = ref.cr2[g], s1 = ref.cs1[g], s2 = ref.cs2[g];
  drr = n[0] * r1 * r1 + n[1] * r2 * r2 + T(2) * n[2] * r1 * r2;
  dss = n[0] * s1 * s1 + n[1] * s2 * s2 + T(2) * n[2] * s1 * s2;
  drs = T(2) * (n[0] * r1 * s1 + n[1] * r2 * s2 + n[2] * (r1 * s2 + s1 * r2));
}

/// Strains at every Gauss point for current positions x and directors v.
template <class T>
HS_HD void mitc4_strains(const Mitc4Ref<T>& ref, const Vec3<T> x[4], const Vec3<T> v[4], T a,
                         Mitc4Strain<T> eps[4]) {
  using namespace mitc4_detail;
  const T half_a = T(0.5) * a;
  Vec3<T> t[4], d[4];
  tying_vectors(x, v, half_a, t, d);
  T tie[4];
  for (int p = 0; p < 4; ++p) tie[p] = T(0.5) * (dot(t[p], d[p]) - ref.tie[p]);
  Vec3<T> b[4];
  for (int k = 0; k < 4; ++k) b[k] = half_a * v[k];
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    Vec3<T> ar, as, br, bs;
    tangents(x, r, s, ar, as);
    tangents(b, r, s, br, bs);
    const T err = T(0.5) * (dot(ar, ar) - ref.grr[g]);
    const T ess = T(0.5) * (dot(as, as) - ref.gss[g]);
    const T ers = T(0.5) * (dot(ar, as) - ref.grs[g]);
    mitc4_to_local(ref, g, err, ess, ers, eps[g].mem);
    const T krr = dot(ar, br) - ref.krr[g];
    const T kss = dot(as, bs) - ref.kss[g];
    const T krs = T(0.5) * (dot(ar, bs) + dot(as, br)) - ref.krs[g];
    T kl[3];
    mitc4_to_local(ref, g, krr, kss, krs, kl);
    const T to_curv = T(1) / half_a;  // z in [-1,1] -> physical thickness coordinate
    for (int i = 0; i < 3; ++i) eps[g].bend[i] = to_curv * kl[i];
    const T erz = T(0.5) * (T(1) + s) * tie[0] + T(0.5) * (T(1) - s) * tie[1];
    const T esz = T(0.5) * (T(1) - r) * tie[2] + T(0.5) * (T(1) + r) * tie[3];
    const T c = T(2) * ref.cz3[g];
    eps[g].shear[0] = c * (erz * ref.cr1[g] + esz * ref.cs1[g]);
    eps[g].shear[1] = c * (erz * ref.cr2[g] + esz * ref.cs2[g]);
  }
}

/// Stress resultants at a Gauss point: N (force/length), M (moment/length), Q (shear force/length).
template <class T>
struct Mitc4Resultants {
  T n[3], m[3], q[2];
};

/// Resultants from strains for thickness a (analytic through-thickness integration of the
/// linear strain profile: exact for linear elasticity).
template <class T>
HS_HD Mitc4Resultants<T> mitc4_resultants(const Mitc4Strain<T>& e, T a, const ShellElastic<T>& mat) {
  Mitc4Resultants<T> r;
  mat.plane_stress(e.mem, r.n);
  mat.plane_stress(e.bend, r.m);
  const T bend = a * a * a / T(12);
  for (int i = 0; i < 3; ++i) {
    r.n[i] *= a;
    r.m[i] *= bend;
  }
  r.q[0] = mat.kshear * a * e.shear[0];
  r.q[1] = mat.kshear * a * e.shear[1];
  return r;
}

/// Internal nodal forces f (on translations) and energy gradients gv (on the director vectors)
/// for current positions x and directors v. Returns the element strain energy.
template <class T>
HS_HD T mitc4_internal_force(const Mitc4Ref<T>& ref, const Vec3<T> x[4], const Vec3<T> v[4], T a,
                             const ShellElastic<T>& mat, Vec3<T> f[4], Vec3<T> gv[4]) {
  using namespace mitc4_detail;
  const T half_a = T(0.5) * a;
  for (int k = 0; k < 4; ++k) {
    f[k] = {T(0), T(0), T(0)};
    gv[k] = {T(0), T(0), T(0)};
  }
  Vec3<T> t[4], d[4];
  tying_vectors(x, v, half_a, t, d);
  T tie[4];
  for (int p = 0; p < 4; ++p) tie[p] = T(0.5) * (dot(t[p], d[p]) - ref.tie[p]);
  T tie_dual[4] = {T(0), T(0), T(0), T(0)};
  Vec3<T> b[4];
  for (int k = 0; k < 4; ++k) b[k] = half_a * v[k];
  T energy = T(0);
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    Vec3<T> ar, as, br, bs;
    tangents(x, r, s, ar, as);
    tangents(b, r, s, br, bs);
    Mitc4Strain<T> e;
    {
      const T err = T(0.5) * (dot(ar, ar) - ref.grr[g]);
      const T ess = T(0.5) * (dot(as, as) - ref.gss[g]);
      const T ers = T(0.5) * (dot(ar, as) - ref.grs[g]);
      mitc4_to_local(ref, g, err, ess, ers, e.mem);
      const T krr = dot(ar, br) - ref.krr[g];
      const T kss = dot(as, bs) - ref.kss[g];
      const T krs = T(0.5) * (dot(ar, bs) + dot(as, br)) - ref.krs[g];
      T kl[3];
      mitc4_to_local(ref, g, krr, kss, krs, kl);
      for (int i = 0; i < 3; ++i) e.bend[i] = kl[i] / half_a;
    }
    const T erz = T(0.5) * (T(1) + s) * tie[0] + T(0.5) * (T(1) - s) * tie[1];
    const T esz = T(0.5) * (T(1) - r) * tie[2] + T(0.5) * (T(1) + r) * tie[3];
    const T c = T(2) * ref.cz3[g];
    e.shear[0] = c * (erz * ref.cr1[g] + esz * ref.cs1[g]);
    e.shear[1] = c * (erz * ref.cr2[g] + esz * ref.cs2[g]);
    const Mitc4Resultants<T> res = mitc4_resultants(e, a, mat);
    const T w = ref.wj[g];
    energy += T(0.5) * w *
              (res.n[0] * e.mem[0] + res.n[1] * e.mem[1] + res.n[2] * e.mem[2] + res.m[0] * e.bend[0] +
               res.m[1] * e.bend[1] + res.m[2] * e.bend[2] + res.q[0] * e.shear[0] + res.q[1] * e.shear[1]);
    // Membrane and bending resultants pulled back onto the covariant components.
    T nrr, nss, nrs, mrr, mss, mrs;
    mitc4_from_local(ref, g, res.n, nrr, nss, nrs);
    mitc4_from_local(ref, g, res.m, mrr, mss, mrs);
    const T kb = w / half_a;
    nrr *= w; nss *= w; nrs *= T(0.5) * w;
    mrr *= kb; mss *= kb; mrs *= T(0.5) * kb;
    const Vec3<T> far = nrr * ar + nrs * as + mrr * br + mrs * bs;
    const Vec3<T> fas = nss * as + nrs * ar + mss * bs + mrs * br;
    const Vec3<T> fbr = mrr * ar + mrs * as;
    const Vec3<T> fbs = mss * as + mrs * ar;
    for (int k = 0; k < 4; ++k) {
      const T rk = T(mitc4_node_r(k)), sk = T(mitc4_node_s(k));
      const T dr = T(0.25) * rk * (T(1) + s * sk), ds = T(0.25) * sk * (T(1) + r * rk);
      f[k] += dr * far + ds * fas;
      gv[k] += (half_a * dr) * fbr + (half_a * ds) * fbs;
    }
    // Transverse shear: energy derivative with respect to the tied covariant components.
    const T qr = w * c * (res.q[0] * ref.cr1[g] + res.q[1] * ref.cr2[g]);
    const T qs = w * c * (res.q[0] * ref.cs1[g] + res.q[1] * ref.cs2[g]);
    tie_dual[0] += T(0.5) * (T(1) + s) * qr;
    tie_dual[1] += T(0.5) * (T(1) - s) * qr;
    tie_dual[2] += T(0.5) * (T(1) - r) * qs;
    tie_dual[3] += T(0.5) * (T(1) + r) * qs;
  }
  // Each tied strain is (t.d - ref)/2 with t a half edge difference and d an average of
  // two half-thickness directors.
  const T q = T(0.25);
  {
    const Vec3<T> ft = (q * tie_dual[0]) * d[0], fd = (q * half_a * tie_dual[0]) * t[0];
    f[2] += ft; f[3] -= ft; gv[2] += fd; gv[3] += fd;
  }
  {
    const Vec3<T> ft = (q * tie_dual[1]) * d[1], fd = (q * half_a * tie_dual[1]) * t[1];
    f[1] += ft; f[0] -= ft; gv[0] += fd; gv[1] += fd;
  }
  {
    const Vec3<T> ft = (q * tie_dual[2]) * d[2], fd = (q * half_a * tie_dual[2]) * t[2];
    f[3] += ft; f[0] -= ft; gv[0] += fd; gv[3] += fd;
  }
  {
    const Vec3<T> ft = (q * tie_dual[3]) * d[3], fd = (q * half_a * tie_dual[3]) * t[3];
    f[2] += ft; f[1] -= ft; gv[1] += fd; gv[2] += fd;
  }
  return energy;
}

/// Nodal forces of a pressure p on the current surface (positive p acts against the normal
/// A_r x A_s, i.e. pushes on the face the normal points out of), 2x2 Gauss rule.
template <class T>
HS_HD void mitc4_pressure_force(const Vec3<T> x[4], T p, Vec3<T> f[4]) {
  using namespace mitc4_detail;
  for (int k = 0; k < 4; ++k) f[k] = {T(0), T(0), T(0)};
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    Vec3<T> ar, as;
    tangents(x, r, s, ar, as);
    const Vec3<T> nda = (-p) * cross(ar, as);
    for (int k = 0; k < 4; ++k)
      f[k] += (T(0.25) * (T(1) + r * T(mitc4_node_r(k))) * (T(1) + s * T(mitc4_node_s(k)))) * nda;
  }
}

}  // namespace halfstep
