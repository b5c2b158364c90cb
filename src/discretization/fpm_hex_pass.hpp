// Seed 003's split scheme for FPM hexahedra (--fpm-kernels split; elements/fpm_hex.hpp): the
// element pass of continuum_element<FpmC3D8> as three host/device steps, each one GPU kernel:
// per hexahedron the frame and the pure deformation increment of each Gauss point
// (hex_split_kinematics), per Gauss point the stress update (hex_split_point), per hexahedron
// the forces (hex_split_forces, handed to the scheme's sink as continuum_element hands them).
// The steps pass the increment and the points' stresses through stores in memory; the
// arithmetic is fpm_detail::increment's, so the forces and state are the fused pass's bit
// for bit (tests/elements/test_fpm_hex.cpp, FpmHexSplit).
#pragma once

#include <cstddef>

#include "core/host_device.hpp"
#include "discretization/continuum_element.hpp"
#include "elements/fpm_hex.hpp"
#include "elements/fpm_kinematics.hpp"

namespace halfstep {

/// Values of a hexahedron's increment in the split scheme's store: the frame Q_t (9) and
/// whether configuration "a" is valid (1), then per Gauss point its strain increment deps (9,
/// the full matrix as computed) and detJ on "a" (1).
constexpr int kHexIncrementValues = 10 + 8 * 10;
/// Values of a hexahedron's Gauss-point results: per point the stress in the element frame
/// (9), its work share and its dissipation share.
constexpr int kHexResultValues = 8 * 11;

/// The split scheme's stores for one launch range of FPM hexahedra (host or device), each
/// component-major: the increments' element values (10 components, element i of the range at
/// index i, stride `stride`), then their point values (10 components, point g of element i at
/// index 8 i + g, stride 8 stride), and the points' results (11 components, indexed as the
/// point values). Point-indexed, one thread per Gauss point reads and writes consecutive
/// values, as it does in the material state store.
template <class T>
struct HexSplitStore {
  T* increment;  ///< kHexIncrementValues * stride values
  T* result;     ///< kHexResultValues * stride values
  std::size_t stride;
};

namespace fpm_hex_split {

/// Element value c of element i in the increment store.
template <class T>
HS_HD T& element_value(const HexSplitStore<T>& s, int c, int i) {
  return s.increment[static_cast<std::size_t>(c) * s.stride + static_cast<std::size_t>(i)];
}

/// Point value c of point g of element i in the increment store.
template <class T>
HS_HD T& point_value(const HexSplitStore<T>& s, int c, int i, int g) {
  return s.increment[(10 + static_cast<std::size_t>(c) * 8) * s.stride + 8 * static_cast<std::size_t>(i) +
                     static_cast<std::size_t>(g)];
}

/// Result c of point g of element i.
template <class T>
HS_HD T& result_value(const HexSplitStore<T>& s, int c, int i, int g) {
  return s.result[static_cast<std::size_t>(c) * 8 * s.stride + 8 * static_cast<std::size_t>(i) +
                  static_cast<std::size_t>(g)];
}

/// Reference and current nodes of the element whose nodes start at conn position base.
template <class T>
HS_HD void gather(const ContinuumView<T>& v, const T* ux, const T* uy, const T* uz, int base, Vec3<T> X[8],
                  Vec3<T> u[8]) {
  for (int a = 0; a < 8; ++a) {
    const int n = v.conn[base + a];
    X[a] = {v.x0[n], v.y0[n], v.z0[n]};
    u[a] = {ux[n], uy[n], uz[n]};
  }
}

}  // namespace fpm_hex_split

/// Step 1 for the hexahedron whose nodes start at conn position base and points at point:
/// the frame and every Gauss point's strain increment into the store at index i.
template <class T>
HS_HD void hex_split_kinematics(const ContinuumView<T>& v, const T* ux, const T* uy, const T* uz, int base,
                                std::size_t point, const HexSplitStore<T>& store, int i) {
  using namespace fpm_hex_split;
  Vec3<T> X[8], u[8];
  fpm_hex_split::gather(v, ux, uy, uz, base, X, u);
  const ElementState<T> st{v.state, v.state, v.state_stride, point};
  const fpm_detail::HexFrame<T> fr = fpm_detail::hex_frame(X, u, st);
  for (int k = 0; k < 9; ++k) element_value(store, k, i) = fr.Qt.a[k];
  element_value(store, 9, i) = fr.valid ? T(1) : T(0);
  for (int g = 0; g < 8; ++g) {
    T ja;
    const Mat3<T> deps = fpm_detail::hex_point_strain(fr, g, ja);
    for (int k = 0; k < 9; ++k) point_value(store, k, i, g) = deps.a[k];
    point_value(store, 9, i, g) = ja;
  }
}

/// Step 2 for Gauss point g of element e (points from point; index i in the store): the
/// stress update, its result into the store. Nothing when configuration "a" is inverted (the
/// fused update then leaves every point as it was).
template <class T>
HS_HD void hex_split_point(const ContinuumView<T>& v, int e, std::size_t point, const HexSplitStore<T>& store, int i,
                           int g) {
  using namespace fpm_hex_split;
  if (element_value(store, 9, i) == T(0)) return;
  Mat3<T> deps;
  for (int k = 0; k < 9; ++k) deps.a[k] = point_value(store, k, i, g);
  const T ja = point_value(store, 9, i, g);
  const ElementState<T> st{v.state, v.state, v.state_stride, point};
  const fpm_detail::HexPointResult<T> r = fpm_detail::hex_point_stress(v.materials[v.material[e]], st, g, deps, ja);
  for (int k = 0; k < 9; ++k) result_value(store, k, i, g) = r.sigma.a[k];
  result_value(store, 9, i, g) = r.work;
  result_value(store, 10, i, g) = r.dissipation;
}

/// Step 3 for element e (nodes from conn position base, points from point, index i in the
/// store): the points' work and dissipation summed in point order, the forces handed to
/// sink(slot, node, f) per node, the element values into the state; stores and returns the
/// energies (continuum_element's contract).
template <class T, class Sink>
HS_HD SolidEnergy<T> hex_split_forces(const ContinuumView<T>& v, const T* ux, const T* uy, const T* uz, int e, int base,
                                      Sink& sink, std::size_t point, const HexSplitStore<T>& store, int i) {
  using namespace fpm_hex_split;
  using namespace fpm_detail;
  Vec3<T> X[8], u[8], xt[8], f[8];
  fpm_hex_split::gather(v, ux, uy, uz, base, X, u);
  for (int a = 0; a < 8; ++a) xt[a] = X[a] + u[a];
  const ElementState<T> st{v.state, v.state, v.state_stride, point};
  Mat3<T> Qt;
  for (int k = 0; k < 9; ++k) Qt.a[k] = element_value(store, k, i);
  bool valid = element_value(store, 9, i) != T(0);
  T work = st.element_old(kElement, 8, kWork);
  T dissipation = st.element_old(kElement, 8, kDissipation);
  HexForceSums<T> acc = hex_force_sums<T>();
  for (int g = 0; g < 8 && valid; ++g) {
    Mat3<T> sigma;
    for (int k = 0; k < 9; ++k) sigma.a[k] = result_value(store, k, i, g);
    work = work + result_value(store, 9, i, g);
    dissipation = dissipation + result_value(store, 10, i, g);
    valid = hex_point_force(xt, g, Qt, sigma, acc) && valid;
  }
  const SolidEnergy<T> w = hex_finish(st, u, Qt, work, dissipation, acc, valid, f);
  for (int a = 0; a < 8; ++a) sink(base + a, v.conn[base + a], f[a]);
  v.energy[e] = w.strain;
  v.hourglass[e] = w.hourglass;
  return w;
}

}  // namespace halfstep
