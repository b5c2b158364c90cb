// The material-law interface with per-integration-point state.
//
// A law is evaluated at one integration point from F and its state at the start of the
// increment (state_old), and writes the state at F (state_new); both are slices of a
// structure-of-arrays store, component c of point p at values[c * num_points + p]. The old
// and new arrays are separate so that an implicit Newton step can re-evaluate a trial F from
// the same converged state any number of times; a solver swaps them when an increment is
// accepted. Laws without state (kStateSize 0) ignore both slices; a law with state (J2
// plasticity) gives its kStateSize and update() (materials/solid_laws.hpp), and nothing else
// changes for the callers.
//
// PointState is the host store. How the rest of the code is to carry it (no backend holds
// state yet; the elastic laws need none):
//   GPU      a backend mirrors values() as one device array of T with the same layout (two:
//            old and new). Component-major with stride num_points means that consecutive
//            threads, one per point, read consecutive addresses of each component (coalesced),
//            and a kernel only needs the base pointer and the stride (StateSlice).
//   points   an element's points are contiguous (first_point(e) + g, g < points_of(e)), with
//            the per-element count of its kind (C3D8R 1, C3D4 1, C3D10M 4, C3D8 8), so mixed
//            meshes waste nothing.
//   ranks    state belongs to elements, so partitioning carries it by element: a subdomain
//            holds its local elements' points in local order (parallel/subdomain.hpp) and a
//            frame gather packs them element by element for rank 0 (BlockFamily::frame_pack),
//            where each component becomes a per-point or per-element-average field.
#pragma once

#include <cstddef>
#include <vector>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/material_tangent.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// One integration point's state inside a structure-of-arrays store: component c at
/// p[c * stride]. T is const for the read-only old state.
template <class T>
struct StateSlice {
  T* p = nullptr;           ///< the point's component 0
  std::size_t stride = 0;   ///< distance between components (the store's number of points)
  /// An empty slice (for laws with no state).
  StateSlice() = default;
  /// The slice at p with the given stride.
  HS_HD StateSlice(T* first, std::size_t between) : p(first), stride(between) {}
  /// A writable slice read as a read-only one (U = T without const).
  template <class U>
  HS_HD StateSlice(const StateSlice<U>& s) : p(s.p), stride(s.stride) {}
  /// Component c of this point.
  HS_HD T& operator[](int c) const { return p[static_cast<std::size_t>(c) * stride]; }
};

/// Keeps an argument out of template deduction, so that a StateSlice<T> converts to the
/// StateSlice<const T> parameter with T taken from the material.
template <class T>
struct NonDeduced {
  using type = T;  ///< T itself
};

/// S and energy at F for a point whose state was state_old at the start of the increment;
/// writes the point's state at F into state_new (nothing for laws without state). The two may
/// be the same slice (the explicit pass updates in place: the old state is read first). An
/// empty state_old reads as the virgin state and an empty state_new is not written (output,
/// which re-evaluates a converged point). A law with state reports as energy its internal
/// energy (J2: the stored elastic energy plus the plastic work dissipated so far).
template <class T>
HS_HD SolidStress<T> evaluate(const SolidMaterial<T>& m, const Mat3<T>& F,
                              typename NonDeduced<StateSlice<const T>>::type state_old,
                              StateSlice<T> state_new) {
  return visit_material(m, [&](auto law) {
    using L = decltype(law);
    if constexpr (L::kStateSize > 0) {
      T old[L::kStateSize], next[L::kStateSize];
      for (int c = 0; c < L::kStateSize; ++c) old[c] = state_old.p ? state_old[c] : T(0);
      SolidStress<T> r;
      if constexpr (DualDepth<T>::value >= 2) {
        // Second derivatives serve only the small-strain tangent (its kinematics linearized
        // in the outer level).
        r = L::small_strain_update(m, F, old, next);
      } else if constexpr (DualDepth<T>::value == 1) {
#ifndef __CUDA_ARCH__
        // Host only: the CUDA tangent engine refuses the small-strain theory (docs/theory.md,
        // "Small strain"), and its dual kernels compile without this branch.
        if (m.small_strain) r = L::small_strain_update(m, F, old, next);
        else
#endif
          r = L::update(m, F, old, next);
      } else {
        r = L::update(m, F, old, next);
      }
      if (state_new.p)
        for (int c = 0; c < L::kStateSize; ++c) state_new[c] = next[c];
      return r;
    } else {
      // No state: S depends on F alone.
      (void)state_old;
      (void)state_new;
#ifndef __CUDA_ARCH__
      if constexpr (DualDepth<T>::value >= 1) {
        if (m.small_strain) {
          // The small-strain theory about the reference (value F = I, S = 0): sigma = C : eps
          // is S's first derivative already; the energy eps : C : eps / 2, quadratic, has
          // none, so it is put there from the same sigma.
          SolidStress<T> r = L::stress(m, F);
          using V = decltype(r.energy.d);
          V w = V(0);
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) w = w + V(0.25) * r.S(i, j).d * (F(i, j).d + F(j, i).d);
          r.energy = T(V(0), w);
          return r;
        }
      }
#endif
      return L::stress(m, F);
    }
  });
}

/// evaluate() plus the consistent tangent dS/dE (Voigt order and convention of
/// materials/material_tangent.hpp) of the same update.
template <class T>
HS_HD SolidStress<T> evaluate_with_tangent(const SolidMaterial<T>& m, const Mat3<T>& F,
                                           typename NonDeduced<StateSlice<const T>>::type state_old,
                                           StateSlice<T> state_new, T C[6][6]) {
  return visit_material(m, [&](auto law) {
    using L = decltype(law);
    if constexpr (L::kStateSize > 0) {
      // Six dual evaluations of the update along dF_j = F^-T dE_j (F^T dF_j = dE_j: the
      // Green strain moves by exactly dE_j) from the same old state: the consistent
      // (algorithmic) tangent dS/dE of this very update, elastic or plastic.
      using D = Dual<T>;
      T old[L::kStateSize];
      for (int c = 0; c < L::kStateSize; ++c) old[c] = state_old.p ? state_old[c] : T(0);
      const SolidMaterial<D> md = dual_material(m);
      const Mat3<T> FiT = transpose(inverse(F));
      SolidStress<T> out{};
      for (int j = 0; j < 6; ++j) {
        const Mat3<T> dF = FiT * unit_voigt_strain<T>(j);
        Mat3<D> Fd;
        for (int k = 0; k < 9; ++k) Fd.a[k] = D(F.a[k], dF.a[k]);
        D next[L::kStateSize];
        const SolidStress<D> r = L::update(md, Fd, old, next);
        for (int i = 0; i < 6; ++i) C[i][j] = r.S(voigt_i(i), voigt_j(i)).d;
        if (j == 0) {
          for (int k = 0; k < 9; ++k) out.S.a[k] = r.S.a[k].v;
          out.energy = r.energy.v;
          out.dissipation = r.dissipation.v;
          if (state_new.p)
            for (int c = 0; c < L::kStateSize; ++c) state_new[c] = next[c].v;
        }
      }
      return out;
    } else {
      (void)state_old;
      (void)state_new;
      return solid_stress_and_tangent(m, F, C);
    }
  });
}

/// Where one element's integration points keep their state in a structure-of-arrays store
/// (point g at values + first + g, components stride apart). Empty (values null) for models
/// without state. old and next are the same array in the explicit pass (in place); output
/// reads old and leaves next null.
template <class T>
struct ElementState {
  const T* old = nullptr;  ///< state at the start of the increment
  T* next = nullptr;       ///< state written at the evaluated deformation (may equal old)
  std::size_t stride = 0;  ///< the store's number of points
  std::size_t first = 0;   ///< the element's first point
  /// The element's constant data (kinds with kElementData: a NURBS element's weights and
  /// extraction operators), null for the others; plain doubles whatever T is.
  const double* data = nullptr;
  /// The element's temperature change theta - theta_initial (its nodes' mean), which strains
  /// a material with *EXPANSION (thermal_stress); a dual number in a linear analysis, whose
  /// derivative part carries the temperature's share of the linearized forces.
  T thermal = T(0);
  /// false: the pass knows that no material of its model expands. continuum_element sets it
  /// from a template flag, so that after inlining the thermal path of point_stress folds away
  /// in the kernels of models without *EXPANSION (its registers cost the C3D8R FP64 pass 7 %).
  bool expands = true;
  /// Point g's state at the start of the increment (empty without a store).
  HS_HD StateSlice<const T> old_at(int g) const {
    return old ? StateSlice<const T>(old + first + g, stride) : StateSlice<const T>();
  }
  /// Point g's state to write (empty when nothing is to be written).
  HS_HD StateSlice<T> next_at(int g) const {
    return next ? StateSlice<T>(next + first + g, stride) : StateSlice<T>();
  }
  /// Element-level value k (one per element, not per point: a frame, nodal data) at the
  /// start of the increment, 0 without a store. An element of `points` points keeps value k at
  /// point k % points, component c0 + k / points: spread over its own points, element data
  /// travels wherever point state does (partitioning by element, the GPU mirror, frames).
  HS_HD T element_old(int c0, int points, int k) const {
    return old ? old[static_cast<std::size_t>(c0 + k / points) * stride + first + static_cast<std::size_t>(k % points)]
               : T(0);
  }
  /// Writes element-level value k (layout of element_old); nothing when next is null.
  HS_HD void set_element(int c0, int points, int k, T value) const {
    if (next)
      next[static_cast<std::size_t>(c0 + k / points) * stride + first + static_cast<std::size_t>(k % points)] = value;
  }
};

/// Whether m has thermal expansion (*EXPANSION with a nonzero coefficient).
template <class T>
HS_HD bool has_expansion(const SolidMaterial<T>& m) {
  return m.expansion[0] != T(0) || m.expansion[1] != T(0) || m.expansion[2] != T(0);
}

/// evaluate() with the thermal strain of a temperature change dtheta, multiplicatively:
/// F = F_e F_th with F_th = sum_i (1 + alpha_i dtheta) a_i (x) a_i over the material axes a_i
/// ((1 + alpha dtheta) I when the expansion is isotropic). The law sees F_e and returns S_e and
/// W_e per unit volume of the stress-free (expanded) configuration, so
/// S = J_th F_th^-1 S_e F_th^-T and W = J_th W_e per unit reference volume. At small strains
/// this is sigma = C (eps - alpha dtheta); a free body expands by exactly alpha dtheta with
/// no stress. Plastic state evolves in the expanded configuration.
/// thermal_slope is dW/dtheta at fixed F and state: with l_i = 1 + alpha_i dtheta and
/// W = J_th W_e(F F_th^-1), dW/dl_i = (W - a_i . S C a_i) / l_i (C = F^T F), so
/// dW/dtheta = sum_i alpha_i (W - a_i . S C a_i) / l_i ((3 W - S : C) alpha / l isotropic);
/// small strain: -tr(sigma) alpha.
template <class T>
HS_HD SolidStress<T> thermal_stress(const SolidMaterial<T>& m, const Mat3<T>& F, T dtheta,
                                    typename NonDeduced<StateSlice<const T>>::type state_old,
                                    StateSlice<T> state_new) {
  const T l0 = T(1) + m.expansion[0] * dtheta;
  const Mat3<T> C = transpose(F) * F;
  if (m.expansion[0] == m.expansion[1] && m.expansion[1] == m.expansion[2]) {
    // Isotropic: F_th = l I commutes with everything; no axes and no rounding of them.
    SolidStress<T> r = evaluate(m, (T(1) / l0) * F, state_old, state_new);
    const T j = l0 * l0 * l0;
    r.S = l0 * r.S;  // J_th l^-2 S_e
    r.energy = j * r.energy;
    r.dissipation = j * r.dissipation;
    r.thermal_slope = m.expansion[0] * (T(3) * r.energy - ddot(r.S, C)) / l0;
    return r;
  }
  const T inv[3] = {T(1) / l0, T(1) / (T(1) + m.expansion[1] * dtheta), T(1) / (T(1) + m.expansion[2] * dtheta)};
  Mat3<T> Fi = scaled_identity(T(0));  // F_th^-1 = sum_i a_i (x) a_i / l_i
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) Fi(j, k) += inv[i] * m.axes(i, j) * m.axes(i, k);
  SolidStress<T> r = evaluate(m, F * Fi, state_old, state_new);
  const T j = T(1) / (inv[0] * inv[1] * inv[2]);
  r.S = j * (Fi * r.S * transpose(Fi));
  r.energy = j * r.energy;
  r.dissipation = j * r.dissipation;
  const Mat3<T> SC = r.S * C;
  r.thermal_slope = T(0);
  for (int i = 0; i < 3; ++i) {
    T a_sc_a = T(0);
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) a_sc_a += m.axes(i, p) * SC(p, q) * m.axes(i, q);
    r.thermal_slope += m.expansion[i] * inv[i] * (r.energy - a_sc_a);
  }
  return r;
}

/// S and energy of material m at integration point g of an element, from and into the
/// element's state (evaluate with the point's slices), with the thermal strain of the
/// element's temperature change when m expands.
template <class T>
HS_HD SolidStress<T> point_stress(const SolidMaterial<T>& m, const Mat3<T>& F, const ElementState<T>& state, int g) {
  if (state.expands && has_expansion(m)) return thermal_stress(m, F, state.thermal, state.old_at(g), state.next_at(g));
  return evaluate(m, F, state.old_at(g), state.next_at(g));
}

/// Host store of per-integration-point state, structure of arrays (see the file comment).
class PointState {
 public:
  /// An empty store (no elements).
  PointState() = default;
  /// Zero state for elements with the given integration-point counts, `components` values per point.
  PointState(const std::vector<int>& points_per_element, int components);

  /// Number of elements.
  std::size_t num_elements() const { return offset_.size() - 1; }
  /// Number of integration points over all elements (also the stride between components).
  std::size_t num_points() const { return offset_.back(); }
  /// State variables per point.
  int components() const { return components_; }
  /// Index of element e's first point.
  std::size_t first_point(int e) const { return offset_[static_cast<std::size_t>(e)]; }
  /// Number of integration points of element e.
  int points_of(int e) const {
    return static_cast<int>(offset_[static_cast<std::size_t>(e) + 1] - offset_[static_cast<std::size_t>(e)]);
  }
  /// Index of integration point g of element e.
  std::size_t point(int e, int g) const { return first_point(e) + static_cast<std::size_t>(g); }
  /// Component c of point p.
  double& operator()(int c, std::size_t p) { return values_[static_cast<std::size_t>(c) * num_points() + p]; }
  /// Component c of point p.
  double operator()(int c, std::size_t p) const { return values_[static_cast<std::size_t>(c) * num_points() + p]; }
  /// Point p's slice, what evaluate() takes.
  StateSlice<double> slice(std::size_t p) { return {values_.data() + p, num_points()}; }
  /// Point p's read-only slice.
  StateSlice<const double> slice(std::size_t p) const { return {values_.data() + p, num_points()}; }
  /// All values, component-major (the layout a GPU mirror copies as is).
  const std::vector<double>& values() const { return values_; }
  /// All values, component-major, for a copy back from a GPU mirror.
  std::vector<double>& values() { return values_; }

  /// The state of the listed elements, in that order (a subdomain's share).
  PointState select(const std::vector<int>& elements) const;
  /// Writes part, the state of the listed elements in that order, back into this store
  /// (the inverse of select, as rank 0 collects the subdomains' state).
  void assign(const std::vector<int>& elements, const PointState& part);

 private:
  int components_ = 0;
  std::vector<std::size_t> offset_{0};  ///< first point of each element, then the total
  std::vector<double> values_;          ///< values_[c * num_points() + p]
};

}  // namespace halfstep
