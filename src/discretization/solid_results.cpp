#include "discretization/solid_results.hpp"

#include <limits>
#include <type_traits>
#include <utility>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "core/threads.hpp"
#include "discretization/continuum_operator.hpp"
#include "discretization/small_strain_element.hpp"
#include "discretization/tangent_state.hpp"
#include "elements/registry.hpp"
#include "materials/material_law.hpp"
#include "materials/material_tangent.hpp"

namespace halfstep {

namespace {

/// Whether kind K reports an axial force (trusses, springs, dashpots).
template <class K, class = void>
struct HasAxialForce : std::false_type {};
template <class K>
struct HasAxialForce<K, std::void_t<decltype(K::axial_force(static_cast<const Vec3<double>*>(nullptr),
                                                            static_cast<const Vec3<double>*>(nullptr),
                                                            std::declval<const SolidMaterial<double>&>(),
                                                            static_cast<const Vec3<double>*>(nullptr)))>>
    : std::true_type {};

constexpr int kI[6] = {0, 1, 2, 0, 0, 1}, kJ[6] = {0, 1, 2, 1, 2, 2};

/// The reference coordinates X and displacements u of element nodes c (N of them): plain
/// values, or in dual numbers the reference at u = 0 with derivative u (the small-strain
/// results' linearisation).
template <int N, class T>
void element_motion(const StructureSystem& sys, const StructureState& st, const int* c, Vec3<T> X[N], Vec3<T> u[N]) {
  for (int a = 0; a < N; ++a) {
    if constexpr (std::is_same_v<T, double>) {
      X[a] = {sys.x0[c[a]], sys.y0[c[a]], sys.z0[c[a]]};
      u[a] = {st.ux[c[a]], st.uy[c[a]], st.uz[c[a]]};
    } else {
      X[a] = {T(sys.x0[c[a]]), T(sys.y0[c[a]]), T(sys.z0[c[a]])};
      u[a] = {T(0.0, st.ux[c[a]]), T(0.0, st.uy[c[a]]), T(0.0, st.uz[c[a]])};
    }
  }
}

/// A value's double: itself, or a dual number's derivative (the small-strain result).
inline double result_of(double x) { return x; }
inline double result_of(const Dual<double>& x) { return x.d; }

template <class K>
void group_results(const StructureSystem& sys, const StructureState& st, const SolidGroup& g,
                   std::vector<SolidCellResult>& out, const double* const* vel) {
  const SolidMesh& sm = sys.solid;
#pragma omp parallel for num_threads(threads_for(g.count, default_threads())) schedule(static)
  for (int i = 0; i < g.count; ++i) {
    const int e = g.first + i;
    const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
    Vec3<double> X[K::kNodes], u[K::kNodes];
    element_motion<K::kNodes>(sys, st, c, X, u);
    const SolidMaterial<double>& m = sm.materials[sm.material[e]];
    const std::size_t point = g.first_point + static_cast<std::size_t>(i) * K::kPoints;
    const bool state = sm.state_size > 0 && !st.solid_state.empty();
    const ElementState<double> es{state ? st.solid_state.data() : nullptr, nullptr, sm.num_points, point, sm.data_of(e),
                                  st.solid_thermal.empty() ? 0.0 : st.solid_thermal[static_cast<std::size_t>(e)]};
    const SolidOutput<double> r = K::centroid_output(X, u, m, es);
    SolidCellResult& o = out[e];
    // PEEQ: the mean over the element's points (the points of every kind carry equal weight
    // on an undistorted element; Abaqus reports per point, ParaView shows one value per cell).
    o.peeq = 0.0;
    if (const int c = peeq_component(m); state && c >= 0) {
      for (int p = 0; p < K::kPoints; ++p) o.peeq += es.old_at(p)[c];
      o.peeq /= K::kPoints;
    }
    for (int k = 0; k < 6; ++k) {
      o.stress[k] = r.cauchy(kI[k], kJ[k]);
      o.strain[k] = r.green(kI[k], kJ[k]);
    }
    o.mises = von_mises(r.cauchy);
    o.axial_force = std::numeric_limits<double>::quiet_NaN();
    if constexpr (HasAxialForce<K>::value) {
      Vec3<double> v[K::kNodes];
      for (int a = 0; a < K::kNodes; ++a) v[a] = vel ? Vec3<double>{vel[0][c[a]], vel[1][c[a]], vel[2][c[a]]} : Vec3<double>{};
      o.axial_force = K::axial_force(X, u, m, vel ? v : nullptr);
    }
  }
}

/// The small-strain results of one group: centroid_output (and axial_force) evaluated in dual
/// numbers at u = 0 (and no temperature change) with derivative u (and the element's
/// temperature change). At the stress-free reference F = I and S = 0, so the
/// derivative of the Cauchy stress F S F^T / J is dS = C : dE and that of the Green strain is
/// dE = sym grad u: the linear theory's stress and strain with each kind's own integration
/// (C3D8's F-bar becomes B-bar, reduced kinds their centroid), and the same initial moduli as
/// the linear step's stiffness K(0), which is the derivative of the same forces.
template <class K>
void group_small_strain_results(const StructureSystem& sys, const StructureState& st, const SolidGroup& g,
                                const std::vector<SolidMaterial<Dual<double>>>& mats, std::vector<SolidCellResult>& out) {
  using D = Dual<double>;
  const SolidMesh& sm = sys.solid;
#pragma omp parallel for num_threads(threads_for(g.count, default_threads())) schedule(static)
  for (int i = 0; i < g.count; ++i) {
    const int e = g.first + i;
    const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
    Vec3<D> X[K::kNodes], du[K::kNodes];
    element_motion<K::kNodes>(sys, st, c, X, du);
    const SolidMaterial<D>& m = mats[static_cast<std::size_t>(sm.material[e])];
    // The temperature change rides in the derivative too: dS = C : (dE - alpha dtheta).
    const D thermal(0.0, st.solid_thermal.empty() ? 0.0 : st.solid_thermal[static_cast<std::size_t>(e)]);
    // Laws with state (the small-strain J2 of a linear plastic step) read the converged state.
    const int ns = sm.state_size;
    const bool state = ns > 0 && !st.solid_state.empty();
    const std::size_t point = g.first_point + static_cast<std::size_t>(i) * K::kPoints;
    D old[state_capacity<K>()];
    if (state) dual_point_state<K>(st.solid_state.data(), sm.num_points, point, ns, old);
    const SolidOutput<D> r = K::centroid_output(
        X, du, m,
        ElementState<D>{state ? old : nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0, sm.data_of(e), thermal});
    SolidCellResult& o = out[e];
    Mat3<double> s;
    for (int k = 0; k < 9; ++k) s.a[k] = r.cauchy.a[k].d;
    for (int k = 0; k < 6; ++k) {
      o.stress[k] = s(kI[k], kJ[k]);
      o.strain[k] = r.green(kI[k], kJ[k]).d;
    }
    o.mises = von_mises(s);
    o.peeq = 0.0;  // the mean over the points, as group_results
    if (const int pc = peeq_component(sm.materials[static_cast<std::size_t>(sm.material[e])]); state && pc >= 0) {
      for (int p = 0; p < K::kPoints; ++p) o.peeq += old[pc * K::kPoints + p].v;
      o.peeq /= K::kPoints;
    }
    o.axial_force = std::numeric_limits<double>::quiet_NaN();
    if constexpr (HasAxialForce<K>::value) o.axial_force = K::axial_force(X, du, m, static_cast<const Vec3<D>*>(nullptr)).d;
  }
}

/// Whether kind K has integration-point results (point_outputs, or a single point that is
/// its centroid; not springs, dashpots and other discrete elements).
template <class K>
constexpr bool has_point_results() {
  if constexpr (has_point_outputs<K>()) {
    return true;
  } else {
    return K::kPoints == 1 && !IsDiscrete<K>::value;
  }
}

/// The point results of one group into r (first already numbered): finite strain at the
/// state's displacements, or small strain as the derivative at u = 0 along u (see
/// group_small_strain_results).
template <class K>
void group_point_results(const StructureSystem& sys, const StructureState& st, const SolidGroup& g,
                         const std::vector<SolidMaterial<Dual<double>>>* dual_mats, SolidPointResults& r) {
  if constexpr (has_point_results<K>()) {
    using D = Dual<double>;
    const SolidMesh& sm = sys.solid;
#pragma omp parallel for num_threads(threads_for(g.count, default_threads())) schedule(static)
    for (int i = 0; i < g.count; ++i) {
      const int e = g.first + i;
      const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
      const std::size_t point = g.first_point + static_cast<std::size_t>(i) * K::kPoints;
      const bool state = sm.state_size > 0 && !st.solid_state.empty();
      const double thermal = st.solid_thermal.empty() ? 0.0 : st.solid_thermal[static_cast<std::size_t>(e)];
      double s[K::kPoints][6], eps[K::kPoints][6];
      // Each point's stress and strain components (Abaqus order), at the state's displacements
      // or their small-strain derivatives.
      const auto evaluate = [&](auto zero, const SolidMaterial<decltype(zero)>& m, const ElementState<decltype(zero)>& es) {
        using T = decltype(zero);
        Vec3<T> X[K::kNodes], u[K::kNodes];
        element_motion<K::kNodes>(sys, st, c, X, u);
        SolidOutput<T> out[K::kPoints];
        if constexpr (has_point_outputs<K>()) K::point_outputs(X, u, m, es, out);
        else out[0] = K::centroid_output(X, u, m, es);
        for (int p = 0; p < K::kPoints; ++p)
          for (int k = 0; k < 6; ++k) {
            s[p][k] = result_of(out[p].cauchy(kI[k], kJ[k]));
            eps[p][k] = result_of(out[p].green(kI[k], kJ[k]));
          }
      };
      if (dual_mats) {
        D old[state_capacity<K>()];
        if (state) dual_point_state<K>(st.solid_state.data(), sm.num_points, point, sm.state_size, old);
        evaluate(D(0.0), (*dual_mats)[static_cast<std::size_t>(sm.material[e])],
                 ElementState<D>{state ? old : nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0, sm.data_of(e),
                                 D(0.0, thermal)});
      } else {
        evaluate(0.0, sm.materials[sm.material[e]],
                 ElementState<double>{state ? st.solid_state.data() : nullptr, nullptr, sm.num_points, point,
                                      sm.data_of(e), thermal});
      }
      const int pc = state ? peeq_component(sm.materials[sm.material[e]]) : -1;
      const ElementState<double> old{state ? st.solid_state.data() : nullptr, nullptr, sm.num_points, point};
      const std::size_t at = static_cast<std::size_t>(r.first[static_cast<std::size_t>(e)]);
      for (int p = 0; p < K::kPoints; ++p) {
        const int own = output_point<K>(p);  // Abaqus's point p + 1 is the kind's point own
        for (int k = 0; k < 6; ++k) {
          r.stress[6 * (at + p) + k] = s[own][k];
          r.strain[6 * (at + p) + k] = eps[own][k];
        }
        r.peeq[at + p] = pc >= 0 ? old.old_at(own)[pc] : 0.0;
      }
    }
  }
}

}  // namespace

SolidPointResults solid_point_results(const StructureSystem& sys, const StructureState& st, bool small_strain) {
  const SolidMesh& sm = sys.solid;
  SolidPointResults r;
  r.first.assign(static_cast<std::size_t>(sm.num_elements) + 1, 0);
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      for (int i = 0; i < g.count; ++i)
        r.first[static_cast<std::size_t>(g.first + i) + 1] = has_point_results<K>() ? K::kPoints : 0;
    });
  for (std::size_t e = 0; e < static_cast<std::size_t>(sm.num_elements); ++e) r.first[e + 1] += r.first[e];
  const auto points = static_cast<std::size_t>(r.first.back());
  r.stress.assign(6 * points, 0.0);
  r.strain.assign(6 * points, 0.0);
  r.peeq.assign(points, 0.0);
  const std::vector<SolidMaterial<Dual<double>>> mats = small_strain ? small_strain_materials(sm) : std::vector<SolidMaterial<Dual<double>>>{};
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      group_point_results<decltype(kind)>(sys, st, g, small_strain && !small_strain_as_is<decltype(kind)>() ? &mats : nullptr,
                                          r);
    });
  return r;
}

std::vector<SolidCellResult> solid_cell_results(const StructureSystem& sys, const StructureState& st,
                                                const double* const* vel, bool small_strain) {
  std::vector<SolidCellResult> out(static_cast<std::size_t>(sys.solid.num_elements));
  if (small_strain) {
    const std::vector<SolidMaterial<Dual<double>>> mats = small_strain_materials(sys.solid);
    for (const SolidGroup& g : sys.solid.groups)
      visit_continuum_kind(g.kind, [&](auto kind) {
        using K = decltype(kind);
        if constexpr (small_strain_as_is<K>()) group_results<K>(sys, st, g, out, vel);
        else group_small_strain_results<K>(sys, st, g, mats, out);
      });
    return out;
  }
  for (const SolidGroup& g : sys.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) { group_results<decltype(kind)>(sys, st, g, out, vel); });
  return out;
}

}  // namespace halfstep
