// MITC4 internal forces split by Gauss point: four cooperating lanes evaluate one element.
//
// mitc4_internal_force (elements/mitc4.hpp) keeps the nodes, the reference constants, the tied
// shear and four Gauss points' kinematics live at once: in FP64 that is more than the 255
// registers a GPU thread has, so the one-element-per-thread kernel spills and runs at 12 %
// occupancy (docs/performance.md, issue 21). Here lane l of a group of four does
//   1. one pass over the 4 nodes: Gauss point l's tangents and tying point l's (A, C, B, D)
//      tied transverse shear strain, then Gauss point l's reference constants (recomputed
//      from X and V0, or stored); the 4 tied strains are then shared,
//   2. Gauss point l: kinematics, strains, section resultants, energy, and the "adjoint"
//      vectors far, fas, fbr, fbs and shear duals qr, qs that the corner forces are linear in,
//   3. corner l: its force f and director gradient gv, summed over the 4 Gauss points'
//      adjoint vectors (received in the order g = 0..3, the order mitc4_internal_force_with
//      sums them in), and tying point l's dual and tie forces,
//   4. corner l adds the tie forces of its two edges' tying points.
// Every lane reads the nodes itself (the 4 lanes of an element read the same addresses: L1
// hits) and streams over them, so a lane keeps ~50 values live instead of ~150. What a lane
// needs from another goes through the exchange policy: Mitc4SeqLanes on the host (the lanes
// run one after the other, phase by phase) and, on the GPU, Mitc4WarpLanes (one thread per
// lane, __shfl_sync within aligned groups of 4, 8 elements per warp; 76 values per lane).
// Nothing the single-thread evaluation does once is done twice; the lane-dependent shape
// function weights, compile-time constants for a single thread, cost ~360 FLOP per element
// in the sm_90 code (+8 %; docs/performance.md "MITC4 split by Gauss point").
// Each quantity is computed with mitc4_internal_force_with's operations in its order, so on
// the host the results are the same to the bit.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "elements/mitc4.hpp"

namespace halfstep {

/// Host emulation of the lane exchange: a per-lane value is an array of 4, a phase is a loop
/// over the lanes, and reading another lane's value is reading its array entry.
struct Mitc4SeqLanes {
  /// One value per lane.
  template <class U>
  struct Val {
    U v[4];
    HS_HD U& operator[](int l) { return v[l]; }
    HS_HD const U& operator[](int l) const { return v[l]; }
  };
  /// Runs phase f for every lane, lane 0 first.
  template <class F>
  HS_HD void each(F&& f) const {
    for (int l = 0; l < 4; ++l) f(l);
  }
  /// proj of lane src's value, as seen from lane l (every lane sees the same).
  template <class U, class Proj>
  HS_HD auto get(const Val<U>& x, int l, int src, Proj&& proj) const {
    (void)l;
    return proj(x[src]);
  }
};

#if defined(__CUDACC__)
/// GPU lane exchange: each thread is one lane (threadIdx.x & 3) of an aligned group of 4;
/// a per-lane value is a register and reading another lane's is a shuffle. Every thread of
/// the warp must reach each get (no early return for a tail of elements).
struct Mitc4WarpLanes {
  int lane;  ///< this thread's lane in its group of 4
  /// This lane's value (the index is ignored: a thread only ever holds its own).
  template <class U>
  struct Val {
    U v;
    __device__ __forceinline__ U& operator[](int) { return v; }
    __device__ __forceinline__ const U& operator[](int) const { return v; }
  };
  /// Runs phase f for this thread's lane only.
  template <class F>
  __device__ __forceinline__ void each(F&& f) const {
    f(lane);
  }
  /// proj of lane src's value: one shuffle per scalar (width 4 keeps it in the group).
  template <class U, class Proj>
  __device__ __forceinline__ auto get(const Val<U>& x, int, int src, Proj&& proj) const {
    return __shfl_sync(0xffffffffu, proj(x.v), src, 4);
  }
};
#endif

/// Element nodes read from a Mitc4Nodes (host tests, and any caller that already holds them).
template <class T>
struct Mitc4NodesAccess {
  const Mitc4Nodes<T>& n;
  /// Node k's reference position, displacement, reference and current director.
  HS_HD Vec3<T> X(int k) const { return n.X[k]; }
  HS_HD Vec3<T> u(int k) const { return n.u[k]; }
  HS_HD Vec3<T> V0(int k) const { return n.V0[k]; }
  HS_HD Vec3<T> v(int k) const { return n.v[k]; }
};

/// Reference constants of one Gauss point (one column of Mitc4Ref).
template <class T>
struct Mitc4PointRef {
  T wj, cr1, cr2, cs1, cs2, cz3;
};

/// Gauss point g's column of stored constants.
template <class T>
HS_HD Mitc4PointRef<T> mitc4_point_ref(const Mitc4Ref<T>& ref, int g) {
  return {ref.wj[g], ref.cr1[g], ref.cr2[g], ref.cs1[g], ref.cs2[g], ref.cz3[g]};
}

/// Reference constants at one Gauss point from the reference tangents ar, as and the
/// interpolated director dir (times half the thickness gives G_z): mitc4_reference's
/// per-point body, operation for operation. The element was validated when the model was built.
template <class T>
HS_HD Mitc4PointRef<T> mitc4_point_reference(Vec3<T> ar, Vec3<T> as, Vec3<T> dir, T half_a) {
  using namespace mitc4_detail;
  const Vec3<T> d = half_a * dir;
  const Vec3<T> nrm = cross(ar, as);
  const T jac = norm(nrm);
  const T vol = dot(nrm, d);
  const Vec3<T> n = (T(1) / jac) * nrm;
  Vec3<T> e1, e2;
  local_frame(n, e1, e2);
  const Vec3<T> gr = (T(1) / vol) * cross(as, d);
  const Vec3<T> gs = (T(1) / vol) * cross(d, ar);
  const Vec3<T> gz = (T(1) / vol) * nrm;
  return {jac, dot(gr, e1), dot(gr, e2), dot(gs, e1), dot(gs, e2), dot(gz, n)};
}

namespace mitc4_split_detail {

/// Entry i of a small table packed 4 bits per entry. Read with shifts because a lane index is
/// a run-time value on the GPU, and indexing a local array with it puts the array in local memory.
HS_HD int nibble(unsigned table, int i) { return static_cast<int>((table >> (4 * i)) & 0xFu); }
/// Tying point p (A, C, B, D) lies on the edge from node tie_plus(p) to tie_minus(p):
/// its half edge is t = (x_plus - x_minus) / 2 (mitc4_detail::tying_vectors).
HS_HD int tie_plus(int p) { return nibble(0x2312u, p); }
HS_HD int tie_minus(int p) { return nibble(0x1003u, p); }
/// Corner k's two tying points, ascending (mitc4_internal_force_with adds them in that order):
/// one ties e_rz (A or C), the other e_sz (B or D).
HS_HD int corner_tie_r(int k) { return k < 2 ? 1 : 0; }
HS_HD int corner_tie_s(int k) { return (k == 0 || k == 3) ? 2 : 3; }

/// What lane l gathers in its pass over the nodes: Gauss point l's reference tangents and
/// their changes, its reference constants, and tying point l's current half edge t,
/// thickness vector d and tied shear strain (tied_shear's t, d and tie).
template <class T>
struct LaneNodeSums {
  Vec3<T> ar0, as0, dar, das, br0, bs0, dbr, dbs;  ///< gauss_kinematics' tangents, B's not yet scaled by a/2
  Mitc4PointRef<T> ref;
  Vec3<T> t, d;  ///< tying point l's current half edge and thickness vector
  T tie;
};

/// Lane l's one pass over the 4 nodes, in mitc4_detail::tangents' order: Gauss point l's
/// tangents, tying point l's strain, then Gauss point l's reference constants (recomputed,
/// or from stored, the element's constants).
template <class T, class Nodes>
HS_HD LaneNodeSums<T> node_sums(const Nodes& nodes, int l, T half_a, const Mitc4Ref<T>* stored) {
  const T r = T(mitc4_gauss_r(l)), s = T(mitc4_gauss_s(l));
  const int a = tie_plus(l), b = tie_minus(l);
  LaneNodeSums<T> o;
  const Vec3<T> zero{T(0), T(0), T(0)};
  o.ar0 = o.as0 = o.dar = o.das = o.br0 = o.bs0 = o.dbr = o.dbs = zero;
  // Tying point l's sums X_a - X_b, u_a - u_b, V0_a + V0_b, dv_a + dv_b: coefficients -1, 0,
  // 1 make each sum exact, so they equal tying_vectors' to the bit.
  Vec3<T> sx = zero, su = zero, sv0 = zero, sdv = zero, dir = zero;
  for (int k = 0; k < 4; ++k) {
    const T rk = T(mitc4_node_r(k)), sk = T(mitc4_node_s(k));
    const T cr = T(0.25) * rk * (T(1) + s * sk), cs = T(0.25) * sk * (T(1) + r * rk);
    const T edge = k == a ? T(1) : k == b ? T(-1) : T(0);
    const T ends = k == a || k == b ? T(1) : T(0);
    const Vec3<T> X = nodes.X(k), u = nodes.u(k), V0 = nodes.V0(k);
    const Vec3<T> dv = nodes.v(k) - V0;
    o.ar0 += cr * X;
    o.as0 += cs * X;
    o.dar += cr * u;
    o.das += cs * u;
    o.br0 += cr * V0;
    o.bs0 += cs * V0;
    o.dbr += cr * dv;
    o.dbs += cs * dv;
    if (!stored) dir += (T(0.25) * (T(1) + r * rk) * (T(1) + s * sk)) * V0;
    sx += edge * X;
    su += edge * u;
    sv0 += ends * V0;
    sdv += ends * dv;
  }
  // The tying point before the reference constants, whose divisions and square roots need
  // registers: then its 12 sums are down to 7 values. (Spilled in FP64 at 128 registers,
  // each more: t and d recomputed from the edge's nodes at the end instead of kept, a pass
  // over X, V0 before the reference constants and one over u, v after, the tying point read
  // from its two nodes after the pass instead of summed in it.)
  const Vec3<T> t0 = T(0.5) * sx, dt = T(0.5) * su;
  const Vec3<T> d0 = (T(0.5) * half_a) * sv0, dd = (T(0.5) * half_a) * sdv;
  o.t = t0 + dt;
  o.d = d0 + dd;
  o.tie = T(0.5) * (dot(t0, dd) + dot(dt, o.d));
  o.ref = stored ? mitc4_point_ref(*stored, l) : mitc4_point_reference(o.ar0, o.as0, dir, half_a);
  return o;
}

/// What a Gauss point hands to the corners: the energy derivatives with respect to the
/// surface vectors A_r, A_s, B_r, B_s and to the tied shear components, and its energy.
template <class T>
struct PointAdjoint {
  Vec3<T> far, fas, fbr, fbs;
  T qr, qs;  ///< d energy / d (tied e_rz, e_sz) at this point, before the tying weights
  T energy;  ///< weight x Jacobian x energy per unit area
};

/// Gauss point g of the element from its node sums and the four tied shear strains
/// (gauss_kinematics, gauss_strain, the section and the pull-back of mitc4_internal_force_with).
template <class T, class Section>
HS_HD PointAdjoint<T> gauss_point(const LaneNodeSums<T>& n, int g, T half_a, const Section& section, T tie0,
                                  T tie1, T tie2, T tie3) {
  const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
  const Mitc4PointRef<T> ref = n.ref;
  const Vec3<T> ar0 = n.ar0, as0 = n.as0, dar = n.dar, das = n.das;
  const Vec3<T> br0 = half_a * n.br0, bs0 = half_a * n.bs0, dbr = half_a * n.dbr, dbs = half_a * n.dbs;
  const Vec3<T> ar = ar0 + dar, as = as0 + das, br = br0 + dbr, bs = bs0 + dbs;
  const T err = dot(ar0, dar) + T(0.5) * dot(dar, dar);
  const T ess = dot(as0, das) + T(0.5) * dot(das, das);
  const T ers = T(0.5) * (dot(ar0, das) + dot(dar, as0) + dot(dar, das));
  const T krr = dot(ar0, dbr) + dot(dar, br);
  const T kss = dot(as0, dbs) + dot(das, bs);
  const T krs = T(0.5) * (dot(ar0, dbs) + dot(dar, bs) + dot(as0, dbr) + dot(das, br));
  // gauss_strain, with mitc4_to_local on this point's constants
  const T r1 = ref.cr1, r2 = ref.cr2, s1 = ref.cs1, s2 = ref.cs2;
  Mitc4Strain<T> e;
  e.mem[0] = err * r1 * r1 + T(2) * ers * r1 * s1 + ess * s1 * s1;
  e.mem[1] = err * r2 * r2 + T(2) * ers * r2 * s2 + ess * s2 * s2;
  e.mem[2] = T(2) * (err * r1 * r2 + ers * (r1 * s2 + s1 * r2) + ess * s1 * s2);
  T kl[3];
  kl[0] = krr * r1 * r1 + T(2) * krs * r1 * s1 + kss * s1 * s1;
  kl[1] = krr * r2 * r2 + T(2) * krs * r2 * s2 + kss * s2 * s2;
  kl[2] = T(2) * (krr * r1 * r2 + krs * (r1 * s2 + s1 * r2) + kss * s1 * s2);
  for (int i = 0; i < 3; ++i) e.bend[i] = kl[i] / half_a;
  const T erz = T(0.5) * (T(1) + s) * tie0 + T(0.5) * (T(1) - s) * tie1;
  const T esz = T(0.5) * (T(1) - r) * tie2 + T(0.5) * (T(1) + r) * tie3;
  const T c = T(2) * ref.cz3;
  e.shear[0] = c * (erz * r1 + esz * s1);
  e.shear[1] = c * (erz * r2 + esz * s2);
  // Section and the pull-back of mitc4_internal_force_with (mitc4_from_local inlined).
  Mitc4Resultants<T> res;
  const T w = ref.wj;
  PointAdjoint<T> out;
  out.energy = w * section(g, e, res);
  T nrr = res.n[0] * r1 * r1 + res.n[1] * r2 * r2 + T(2) * res.n[2] * r1 * r2;
  T nss = res.n[0] * s1 * s1 + res.n[1] * s2 * s2 + T(2) * res.n[2] * s1 * s2;
  T nrs = T(2) * (res.n[0] * r1 * s1 + res.n[1] * r2 * s2 + res.n[2] * (r1 * s2 + s1 * r2));
  T mrr = res.m[0] * r1 * r1 + res.m[1] * r2 * r2 + T(2) * res.m[2] * r1 * r2;
  T mss = res.m[0] * s1 * s1 + res.m[1] * s2 * s2 + T(2) * res.m[2] * s1 * s2;
  T mrs = T(2) * (res.m[0] * r1 * s1 + res.m[1] * r2 * s2 + res.m[2] * (r1 * s2 + s1 * r2));
  const T kb = w / half_a;
  nrr *= w;
  nss *= w;
  nrs *= T(0.5) * w;
  mrr *= kb;
  mss *= kb;
  mrs *= T(0.5) * kb;
  out.far = nrr * ar + nrs * as + mrr * br + mrs * bs;
  out.fas = nss * as + nrs * ar + mss * bs + mrs * br;
  out.fbr = mrr * ar + mrs * as;
  out.fbs = mss * as + mrs * ar;
  out.qr = w * c * (res.q[0] * r1 + res.q[1] * r2);
  out.qs = w * c * (res.q[0] * s1 + res.q[1] * s2);
  return out;
}

/// proj of lane src's value as a vector (three scalar exchanges).
template <class Lanes, class Vals, class Proj>
HS_HD auto get3(const Lanes& lanes, const Vals& x, int l, int src, Proj&& proj) {
  using V = decltype(proj(x[l]));
  return V{lanes.get(x, l, src, [&](const auto& p) { return proj(p).x; }),
           lanes.get(x, l, src, [&](const auto& p) { return proj(p).y; }),
           lanes.get(x, l, src, [&](const auto& p) { return proj(p).z; })};
}

}  // namespace mitc4_split_detail

/// mitc4_internal_force_with evaluated by 4 lanes: lane l ends with corner l's force f[l] and
/// director-energy gradient gv[l]; every lane returns the element's internal energy. nodes:
/// an accessor with X(k), u(k), V0(k), v(k); stored: reference constants, or null to
/// recompute each Gauss point's from X and V0 (as the GPU gather scheme does).
template <class T, class Lanes, class Nodes, class Section>
HS_HD T mitc4_split_internal_force_with(const Lanes& lanes, const Nodes& nodes, T a, const Section& section,
                                        const Mitc4Ref<T>* stored, typename Lanes::template Val<Vec3<T>>& f,
                                        typename Lanes::template Val<Vec3<T>>& gv) {
  using namespace mitc4_split_detail;
  using Point = PointAdjoint<T>;
  using Sums = LaneNodeSums<T>;
  const T half_a = T(0.5) * a;
  // Phase 1: lane l reads the nodes once: Gauss point l's tangents, tying point l's strain.
  typename Lanes::template Val<Sums> sums;
  lanes.each([&](int l) { sums[l] = node_sums<T>(nodes, l, half_a, stored); });
  // Phase 2: every lane reads the four tied strains; lane l evaluates Gauss point l.
  typename Lanes::template Val<Point> pt;
  lanes.each([&](int l) {
    const auto tie = [](const Sums& x) { return x.tie; };
    const T t0 = lanes.get(sums, l, 0, tie), t1 = lanes.get(sums, l, 1, tie), t2 = lanes.get(sums, l, 2, tie),
            t3 = lanes.get(sums, l, 3, tie);
    pt[l] = gauss_point<T>(sums[l], l, half_a, section, t0, t1, t2, t3);
  });
  // Phase 3: lane k sums corner k's share of the Gauss points in the order g = 0..3 (as
  // mitc4_internal_force_with does) and, as tying point k, its tie_dual and the forces
  // ft (on the edge's nodes, + on tie_plus, - on tie_minus) and fd (on both directors).
  typename Lanes::template Val<Vec3<T>> ft, fd;
  typename Lanes::template Val<T> energy;
  lanes.each([&](int k) {
    const T rk = T(mitc4_node_r(k)), sk = T(mitc4_node_s(k));
    Vec3<T> fk{T(0), T(0), T(0)}, gk{T(0), T(0), T(0)};
    T dual = T(0), w = T(0);
    // Unrolled on the GPU: left rolled, the FP64 kernel spilled 16 more bytes at 128 registers.
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int g = 0; g < 4; ++g) {
      const T r = T(mitc4_gauss_r(g)), s = T(mitc4_gauss_s(g));
      const Vec3<T> far = get3(lanes, pt, k, g, [](const Point& p) { return p.far; });
      const Vec3<T> fas = get3(lanes, pt, k, g, [](const Point& p) { return p.fas; });
      const T dr = T(0.25) * rk * (T(1) + s * sk), ds = T(0.25) * sk * (T(1) + r * rk);
      fk += dr * far + ds * fas;
      const Vec3<T> fbr = get3(lanes, pt, k, g, [](const Point& p) { return p.fbr; });
      const Vec3<T> fbs = get3(lanes, pt, k, g, [](const Point& p) { return p.fbs; });
      gk += (half_a * dr) * fbr + (half_a * ds) * fbs;
      const T qr = lanes.get(pt, k, g, [](const Point& p) { return p.qr; });
      const T qs = lanes.get(pt, k, g, [](const Point& p) { return p.qs; });
      // tie_dual[k] of mitc4_internal_force_with: A, C weigh qr by (1 +- s)/2, B, D qs by (1 -+ r)/2.
      const T weight = k == 0 ? T(0.5) * (T(1) + s) : k == 1 ? T(0.5) * (T(1) - s)
                     : k == 2 ? T(0.5) * (T(1) - r) : T(0.5) * (T(1) + r);
      dual += weight * (k < 2 ? qr : qs);
      w += lanes.get(pt, k, g, [](const Point& p) { return p.energy; });
    }
    const T q = T(0.25);
    ft[k] = (q * dual) * sums[k].d;
    fd[k] = (q * half_a * dual) * sums[k].t;
    f[k] = fk;
    gv[k] = gk;
    energy[k] = w;
  });
  // Phase 4: corner k adds its two tying points' forces, pr (0 or 1) before ps (2 or 3), the
  // order mitc4_internal_force_with adds them in.
  lanes.each([&](int k) {
    const int pr = corner_tie_r(k), ps = corner_tie_s(k);
    const auto id = [](const Vec3<T>& x) { return x; };
    const Vec3<T> ftr = get3(lanes, ft, k, pr, id), fdr = get3(lanes, fd, k, pr, id);
    const Vec3<T> fts = get3(lanes, ft, k, ps, id), fds = get3(lanes, fd, k, ps, id);
    Vec3<T> fk = f[k], gk = gv[k];
    if (k == tie_plus(pr)) fk += ftr;
    else fk -= ftr;
    gk += fdr;
    if (k == tie_plus(ps)) fk += fts;
    else fk -= fts;
    gk += fds;
    f[k] = fk;
    gv[k] = gk;
  });
  return energy[0];  // the same sum on every lane
}

/// Elastic internal forces by 4 lanes (mitc4_internal_force's split form); returns the strain energy.
template <class T, class Lanes, class Nodes>
HS_HD T mitc4_split_internal_force(const Lanes& lanes, const Nodes& nodes, T a, const ShellElastic<T>& mat,
                                   const Mitc4Ref<T>* stored, typename Lanes::template Val<Vec3<T>>& f,
                                   typename Lanes::template Val<Vec3<T>>& gv) {
  return mitc4_split_internal_force_with<T>(lanes, nodes, a, Mitc4ElasticSection<T>{mat, a}, stored, f, gv);
}

}  // namespace halfstep
