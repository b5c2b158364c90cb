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
// Strains are evaluated in incremental form, g.g - G.G = 2 G.dg + dg.dg with dg built from
// displacements u and director changes v - V0, never as differences of current and
// reference metrics: x = X + u would round u to the last bit of X, which for a shell far from
// the origin or in single precision is strain noise of eps |X| / h (1e-4 in FP32 on a fine
// mesh). In this form the strain carries the relative precision of the displacements.
//
// Forces are computed in reverse (adjoint) form: the stress resultants are pulled back to
// "forces" on the vectors A_r, A_s (surface tangents), B_r, B_s (director derivatives) and
// D (thickness vector), and those are scattered to the nodes. This avoids forming the
// 8x20 strain-displacement matrices and keeps the element at ~2 kFLOP per evaluation.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "elements/mitc4_elastic.hpp"

namespace halfstep {

/// Reference-configuration constants of one MITC4 element at its 2x2 Gauss points: the
/// surface Jacobian and the contravariant basis in the local frame (what the strain needs
/// besides the nodal X, V0 it recomputes on the fly).
template <class T>
struct Mitc4Ref {
  T wj[4];                   ///< Gauss weight times surface Jacobian |G_r x G_s|
  T cr1[4], cr2[4];          ///< G^r . e1, G^r . e2  (contravariant basis onto the local frame)
  T cs1[4], cs2[4];          ///< G^s . e1, G^s . e2
  T cz3[4];                  ///< G^z . e3
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
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    Vec3<T> ar, as;
    tangents(X, r, s, ar, as);
    const Vec3<T> d = half_a * interpolate(V0, r, s);
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
  }
  return true;
}

/// Nodal input of one element: reference positions and directors, and their changes.
template <class T>
struct Mitc4Nodes {
  Vec3<T> X[4];   ///< reference positions
  Vec3<T> u[4];   ///< displacements
  Vec3<T> V0[4];  ///< reference unit directors
  Vec3<T> v[4];   ///< current unit directors
};

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

namespace mitc4_detail {

/// Director changes v - V0 (exact to the rounding of the directors themselves).
template <class T>
HS_HD void director_changes(const Mitc4Nodes<T>& e, Vec3<T> dv[4]) {
  for (int k = 0; k < 4; ++k) dv[k] = e.v[k] - e.V0[k];
}

/// Current tying vectors t (half edges) and d (thickness vectors) and the tied covariant
/// transverse shear strains (t.d - t0.d0)/2 at A, C, B, D.
template <class T>
HS_HD void tied_shear(const Mitc4Nodes<T>& e, const Vec3<T> dv[4], T half_a, Vec3<T> t[4], Vec3<T> d[4], T tie[4]) {
  Vec3<T> t0[4], d0[4], dt[4], dd[4];
  tying_vectors(e.X, e.V0, half_a, t0, d0);
  tying_vectors(e.u, dv, half_a, dt, dd);
  for (int p = 0; p < 4; ++p) {
    t[p] = t0[p] + dt[p];
    d[p] = d0[p] + dd[p];
    tie[p] = T(0.5) * (dot(t0[p], dd[p]) + dot(dt[p], d[p]));
  }
}

/// Current surface vectors at a Gauss point and the changes of the covariant membrane (e) and
/// bending (k) components, in incremental form.
template <class T>
struct GaussKinematics {
  Vec3<T> ar, as, br, bs;
  T err, ess, ers, krr, kss, krs;
};

template <class T>
HS_HD GaussKinematics<T> gauss_kinematics(const Mitc4Nodes<T>& e, const Vec3<T> dv[4], T half_a, T r, T s) {
  Vec3<T> ar0, as0, dar, das, br0, bs0, dbr, dbs;
  tangents(e.X, r, s, ar0, as0);
  tangents(e.u, r, s, dar, das);
  tangents(e.V0, r, s, br0, bs0);
  tangents(dv, r, s, dbr, dbs);
  br0 = half_a * br0;
  bs0 = half_a * bs0;
  dbr = half_a * dbr;
  dbs = half_a * dbs;
  GaussKinematics<T> k;
  k.ar = ar0 + dar;
  k.as = as0 + das;
  k.br = br0 + dbr;
  k.bs = bs0 + dbs;
  k.err = dot(ar0, dar) + T(0.5) * dot(dar, dar);
  k.ess = dot(as0, das) + T(0.5) * dot(das, das);
  k.ers = T(0.5) * (dot(ar0, das) + dot(dar, as0) + dot(dar, das));
  k.krr = dot(ar0, dbr) + dot(dar, k.br);
  k.kss = dot(as0, dbs) + dot(das, k.bs);
  k.krs = T(0.5) * (dot(ar0, dbs) + dot(dar, k.bs) + dot(as0, dbr) + dot(das, k.br));
  return k;
}

/// Local-frame generalized strains at Gauss point g (r, s) from its kinematics and the tied shear.
template <class T>
HS_HD Mitc4Strain<T> gauss_strain(const Mitc4Ref<T>& ref, int g, const GaussKinematics<T>& k, const T tie[4],
                                  T half_a, T r, T s) {
  Mitc4Strain<T> e;
  mitc4_to_local(ref, g, k.err, k.ess, k.ers, e.mem);
  T kl[3];
  mitc4_to_local(ref, g, k.krr, k.kss, k.krs, kl);
  for (int i = 0; i < 3; ++i) e.bend[i] = kl[i] / half_a;  // z in [-1,1] -> physical thickness coordinate
  const T erz = T(0.5) * (T(1) + s) * tie[0] + T(0.5) * (T(1) - s) * tie[1];
  const T esz = T(0.5) * (T(1) - r) * tie[2] + T(0.5) * (T(1) + r) * tie[3];
  const T c = T(2) * ref.cz3[g];
  e.shear[0] = c * (erz * ref.cr1[g] + esz * ref.cs1[g]);
  e.shear[1] = c * (erz * ref.cr2[g] + esz * ref.cs2[g]);
  return e;
}

}  // namespace mitc4_detail

/// Strains at every Gauss point of an element of thickness a.
template <class T>
HS_HD void mitc4_strains(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a, Mitc4Strain<T> eps[4]) {
  using namespace mitc4_detail;
  const T half_a = T(0.5) * a;
  Vec3<T> dv[4], t[4], d[4];
  T tie[4];
  director_changes(nodes, dv);
  tied_shear(nodes, dv, half_a, t, d, tie);
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    eps[g] = gauss_strain(ref, g, gauss_kinematics(nodes, dv, half_a, r, s), tie, half_a, r, s);
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

/// The elastic section: resultants by the analytic thickness integral (mitc4_resultants).
/// A section is what mitc4_internal_force_with asks at each Gauss point: the resultants of
/// the generalized strains there, and the internal energy per unit area.
template <class T>
struct Mitc4ElasticSection {
  const ShellElastic<T>& mat;
  T a;  ///< thickness
  /// Resultants r of strains e at Gauss point g; returns the strain energy per unit area.
  HS_HD T operator()(int g, const Mitc4Strain<T>& e, Mitc4Resultants<T>& r) const {
    (void)g;
    r = mitc4_resultants(e, a, mat);
    return T(0.5) * (r.n[0] * e.mem[0] + r.n[1] * e.mem[1] + r.n[2] * e.mem[2] + r.m[0] * e.bend[0] +
                     r.m[1] * e.bend[1] + r.m[2] * e.bend[2] + r.q[0] * e.shear[0] + r.q[1] * e.shear[1]);
  }
};

/// Internal nodal forces f (on translations) and energy gradients gv (on the director vectors)
/// of an element of thickness a whose resultants come from `section` (Mitc4ElasticSection,
/// or the plastic section of elements/mitc4_plastic.hpp). Returns the element's internal
/// energy (strain energy; for a plastic section, stored plus dissipated).
template <class T, class Section>
HS_HD T mitc4_internal_force_with(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a, const Section& section,
                                  Vec3<T> f[4], Vec3<T> gv[4]) {
  using namespace mitc4_detail;
  const T half_a = T(0.5) * a;
  for (int k = 0; k < 4; ++k) {
    f[k] = {T(0), T(0), T(0)};
    gv[k] = {T(0), T(0), T(0)};
  }
  Vec3<T> dv[4], t[4], d[4];
  T tie[4];
  director_changes(nodes, dv);
  tied_shear(nodes, dv, half_a, t, d, tie);
  T tie_dual[4] = {T(0), T(0), T(0), T(0)};
  T energy = T(0);
  for (int g = 0; g < 4; ++g) {
    const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
    const GaussKinematics<T> k = gauss_kinematics(nodes, dv, half_a, r, s);
    const Mitc4Strain<T> e = gauss_strain(ref, g, k, tie, half_a, r, s);
    Mitc4Resultants<T> res;
    const T w = ref.wj[g];
    energy += w * section(g, e, res);
    // Membrane and bending resultants pulled back onto the covariant components.
    T nrr, nss, nrs, mrr, mss, mrs;
    mitc4_from_local(ref, g, res.n, nrr, nss, nrs);
    mitc4_from_local(ref, g, res.m, mrr, mss, mrs);
    const T kb = w / half_a;
    nrr *= w; nss *= w; nrs *= T(0.5) * w;
    mrr *= kb; mss *= kb; mrs *= T(0.5) * kb;
    const Vec3<T> far = nrr * k.ar + nrs * k.as + mrr * k.br + mrs * k.bs;
    const Vec3<T> fas = nss * k.as + nrs * k.ar + mss * k.bs + mrs * k.br;
    const Vec3<T> fbr = mrr * k.ar + mrs * k.as;
    const Vec3<T> fbs = mss * k.as + mrs * k.ar;
    for (int n = 0; n < 4; ++n) {
      const T rk = T(mitc4_node_r(n)), sk = T(mitc4_node_s(n));
      const T dr = T(0.25) * rk * (T(1) + s * sk), ds = T(0.25) * sk * (T(1) + r * rk);
      f[n] += dr * far + ds * fas;
      gv[n] += (half_a * dr) * fbr + (half_a * ds) * fbs;
    }
    // Transverse shear: energy derivative with respect to the tied covariant components.
    const T c = T(2) * ref.cz3[g];
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

/// Internal forces of an elastic element (analytic thickness integration); returns the
/// strain energy.
template <class T>
HS_HD T mitc4_internal_force(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a, const ShellElastic<T>& mat,
                             Vec3<T> f[4], Vec3<T> gv[4]) {
  return mitc4_internal_force_with(ref, nodes, a, Mitc4ElasticSection<T>{mat, a}, f, gv);
}

/// Stores one corner's 5 generalized forces: the global force f and the moments about the
/// nodal triad (t1, t2 = v x t1) of the director-energy gradient gv (from dV = dtheta x V).
template <class T>
HS_HD void mitc4_corner_generalized_force(Vec3<T> f, Vec3<T> gv, Vec3<T> v, Vec3<T> t1, T out[5]) {
  const Vec3<T> t2 = cross(v, t1);
  out[0] = f.x;
  out[1] = f.y;
  out[2] = f.z;
  out[3] = -dot(gv, t2);
  out[4] = dot(gv, t1);
}

/// Stores one corner's force f and moment in global components for 6-dof nodes (models that
/// mix MITC4 with beams or FPM triangles): the director turns by dV = dtheta x V for a global
/// rotation dtheta, so gv.dV = dtheta.(V x gv) and the moment is V x gv. It equals
/// out[3] t1 + out[4] t2 of mitc4_corner_generalized_force for any triad (t1, t2) normal to V,
/// and has no component along V: the shell gives no drilling stiffness.
template <class T>
HS_HD void mitc4_corner_global_force(Vec3<T> f, Vec3<T> gv, Vec3<T> v, T out[6]) {
  const Vec3<T> m = cross(v, gv);
  out[0] = f.x;
  out[1] = f.y;
  out[2] = f.z;
  out[3] = m.x;
  out[4] = m.y;
  out[5] = m.z;
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

/// MITC4 as an element kind of the registry (elements/registry.hpp): what the model build,
/// partitioning and output need to know; the physics are the mitc4_* functions above.
struct Mitc4Kind {
  static constexpr int kNodes = 4;
  HS_HD static constexpr const char* name() { return "S4R"; }
  static constexpr const char* kAliases = "S4";  ///< Abaqus's fully integrated shell, run as MITC4 too
  static constexpr int kDimension = 3;
  static constexpr int kVtkCell = 9;  ///< VTK_QUAD
  static constexpr double kCost = 1.0;
  static constexpr int kPoints = 4;  ///< 2x2 in-plane points (through the thickness: closed form, or Simpson points with *PLASTIC)
};

}  // namespace halfstep
