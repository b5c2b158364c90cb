#include "discretization/row_operator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "core/threads.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/row_tangent.hpp"
#include "elements/fpm_kinematics.hpp"

namespace halfstep {

namespace {

/// Calls f(mesh) with row family `family`'s mesh when that family runs in static steps.
template <class F>
void with_static_family(const StructureSystem& sys, std::size_t family, F&& f) {
  for_each_row_family([&](auto index) {
    using Mesh = std::tuple_element_t<decltype(index)::value, RowMeshes>;
    if constexpr (has_static_forces<Mesh>)
      if (family == decltype(index)::value) f(sys.mesh<Mesh>());
  });
}

constexpr int kCornerDofs = kFpmNodeDofs;

/// Mesh's arrays as a static evaluation reads them on the host.
template <class Mesh>
typename Mesh::StaticView host_view(const Mesh& mesh) {
  return mesh.static_view([](const auto& v) { return v.data(); });
}

/// Mesh's section constants in dual numbers (the element matrices' evaluations).
template <class Mesh>
std::vector<typename Mesh::template Section<Dual<double>>> dual_sections(const Mesh& mesh) {
  std::vector<typename Mesh::template Section<Dual<double>>> s;
  for (const auto& c : mesh.constants) s.push_back(Mesh::template section_as<Dual<double>>(c));
  return s;
}

/// Family Mesh's arguments for an evaluation at c from the states `from` (its layout).
template <class Mesh>
RowArgs<Mesh> row_args(const Mesh& mesh, const Configuration& c, const double* from) {
  return {host_view(mesh), c.u.data(), c.t1.data(), c.d.data(), from, mesh.num_elements};
}

/// Element e's generalized dofs (6 per corner) out of x (6 per node).
template <class Mesh>
void element_dofs(const typename Mesh::StaticView& v, int e, const double* x, double* xe) {
  for (int a = 0; a < Mesh::kCorners; ++a) {
    const std::size_t n = static_cast<std::size_t>(v.conn[static_cast<std::size_t>(Mesh::kCorners) * static_cast<std::size_t>(e) + static_cast<std::size_t>(a)]);
    for (int j = 0; j < kCornerDofs; ++j) xe[kCornerDofs * a + j] = x[kCornerDofs * n + static_cast<std::size_t>(j)];
  }
}

/// Element e's linear theory about the reference (from the unstressed state at the reference
/// frames): its increment's geometry there and the increment's derivative along each corner
/// dof (the map B; one dual evaluation of the kinematics per dof).
template <class Mesh>
struct LinearMap {
  static constexpr int kSize = kCornerDofs * Mesh::kCorners;
  double geometry[Mesh::kIncrement];
  double b[Mesh::kIncrement][kSize];
  Vec3<double> t1[Mesh::kCorners], d[Mesh::kCorners];  ///< the corners' reference frames
  LinearMap(const RowArgs<Mesh>& ref, int e) {
    Dual<double> work[kMaxRowState], inc[Mesh::kIncrement];
    for (int s = 0; s < kSize; ++s) {
      Mesh::template increment<Dual<double>>(ref.v, e, ref.u, ref.t1, ref.d, ref.old_of(e), s,
                                             StridedState<Dual<double>>{work, 1}, inc);
      for (int g = 0; g < Mesh::kIncrement; ++g) {
        geometry[g] = inc[g].v;
        b[g][s] = inc[g].d;
      }
    }
    for (int a = 0; a < Mesh::kCorners; ++a) {
      const std::size_t n = 3 * static_cast<std::size_t>(ref.v.conn[static_cast<std::size_t>(Mesh::kCorners) * static_cast<std::size_t>(e) + static_cast<std::size_t>(a)]);
      t1[a] = {ref.t1[n], ref.t1[n + 1], ref.t1[n + 2]};
      d[a] = {ref.d[n], ref.d[n + 1], ref.d[n + 2]};
    }
  }
  /// The increment of the change dx of the generalized dofs: the geometry, then B dx.
  void increment(const double* dx, double* inc) const {
    for (int g = 0; g < Mesh::kIncrement; ++g) {
      if (g < Mesh::kIncrementGeometry) {
        inc[g] = geometry[g];
        continue;
      }
      double v = 0;
      for (int s = 0; s < kSize; ++s) v += b[g][s] * dx[s];
      inc[g] = v;
    }
  }
};

/// The change of element e's generalized dofs xe since the state old (which stands for the
/// displacements of the last converged increment, Mesh::state_nodes): translations relative
/// to the first corner (B leaves a rigid translation alone exactly), spins about the
/// reference frames.
template <class Mesh>
void linear_change(const LinearMap<Mesh>& map, const typename Mesh::StaticView& v, int e, const double* xe,
                   const StridedState<const double>& old, double* dx) {
  Vec3<double> du[Mesh::kCorners], t1[Mesh::kCorners], d[Mesh::kCorners];
  Mesh::state_nodes(v, e, old, du, t1, d);
  for (int a = 0; a < Mesh::kCorners; ++a) {
    const double moved[3] = {du[a].x, du[a].y, du[a].z};
    const Vec3<double> w = frame_spins(map.t1[a], map.d[a], t1[a], d[a]);
    const double spins[3] = {w.x, w.y, w.z};
    for (int j = 0; j < 3; ++j) {
      dx[kCornerDofs * a + j] = a == 0 ? 0.0 : (xe[kCornerDofs * a + j] - xe[j]) - moved[j];
      dx[kCornerDofs * a + 3 + j] = xe[kCornerDofs * a + 3 + j] - spins[j];
    }
  }
}

/// Element e's linear map at the reference (at_ref: from the unstressed state) and, into inc,
/// the increment of the generalized dofs x (6 per node) since its state old.
template <class Mesh>
LinearMap<Mesh> linear_increment(const RowArgs<Mesh>& at_ref, int e, const double* x,
                                 const StridedState<const double>& old, double* inc) {
  const LinearMap<Mesh> map(at_ref, e);
  double xe[LinearMap<Mesh>::kSize], dx[LinearMap<Mesh>::kSize];
  element_dofs<Mesh>(at_ref.v, e, x, xe);
  linear_change(map, at_ref.v, e, xe, old, dx);
  map.increment(dx, inc);
  return map;
}

}  // namespace

RowOperator::RowOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()) {
  for_each_row_family([&](auto index) {
    using Mesh = std::tuple_element_t<decltype(index)::value, RowMeshes>;
    if constexpr (has_static_forces<Mesh>) {
      const Mesh& m = sys.mesh<Mesh>();
      if (m.num_elements == 0) return;
      Part p;
      p.first = total_;
      p.count = m.num_elements;
      p.corners = Mesh::kCorners;
      p.state_at = state_total_;
      p.state_rows = static_cast<std::size_t>(m.state_size);
      p.matrix_at = matrix_total_;
      p.corner_at = corner_total_;
      p.conn = &m.conn;
      p.slot_ptr = &m.node_slot_ptr;
      p.slots = &m.node_slots;
      p.family = decltype(index)::value;
      if constexpr (Mesh::kPressure)
        for (const ElementBlock& b : element_blocks(sys))  // the family is the block on its connectivity
          if (b.conn == &m.conn && b.family->pressure_table == PressureTable::Element)
            p.pressure_at = element_pressure_offset(sys, *b.family);
      parts_.push_back(p);
      total_ += p.count;
      corner_total_ += static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(p.count);
      state_total_ += p.state_rows * static_cast<std::size_t>(p.count);
      const std::size_t size = static_cast<std::size_t>(kCornerDofs * p.corners);
      matrix_total_ += size * size * static_cast<std::size_t>(p.count);
    }
  });
}

const RowOperator::Part& RowOperator::part(int e) const {
  for (const Part& p : parts_)
    if (e < p.first + p.count) return p;
  throw std::logic_error("RowOperator: element " + std::to_string(e) + " beyond " + std::to_string(total_));
}

const int* RowOperator::element_connectivity(int e) const {
  const Part& p = part(e);
  return p.conn->data() + static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(e - p.first);
}

std::size_t RowOperator::matrix_offset(int e) const {
  if (e >= total_) return matrix_total_;
  const Part& p = part(e);
  const std::size_t size = static_cast<std::size_t>(kCornerDofs * p.corners);
  return p.matrix_at + size * size * static_cast<std::size_t>(e - p.first);
}

void RowOperator::append_state(const StructureState& st, std::vector<double>& out) const {
  for (const Part& p : parts_) {
    const std::vector<double>& s = st.rows[p.family].state;
    const std::size_t n = p.state_rows * static_cast<std::size_t>(p.count);
    if (s.size() != n) throw std::logic_error("RowOperator: a row family's state has the wrong size");
    out.insert(out.end(), s.begin(), s.end());
  }
}

void RowOperator::store_state(const double* s, StructureState& st) const {
  for (const Part& p : parts_) {
    const std::size_t n = p.state_rows * static_cast<std::size_t>(p.count);
    st.rows[p.family].state.assign(s + p.state_at, s + p.state_at + n);
  }
}

std::vector<double> RowOperator::initial_states(const Configuration& c) const {
  std::vector<double> s;
  for (const Part& p : parts_)
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      std::vector<double> v = mesh.initial_state();
      if (!c.t1.empty())  // the nodes' frames in c
        set_corner_frames(mesh, v, [&](int node, double* f) {
          const std::size_t n = 3 * static_cast<std::size_t>(node);
          const double vals[6] = {c.t1[n], c.t1[n + 1], c.t1[n + 2], c.d[n], c.d[n + 1], c.d[n + 2]};
          std::copy(vals, vals + 6, f);
        });
      s.insert(s.end(), v.begin(), v.end());
    });
  return s;
}

double RowOperator::element_forces(const Configuration& c, std::vector<double>& out, const double* old,
                                   double* next) const {
  std::vector<double> virgin;
  if (!old) {
    virgin = initial_states(c);
    old = virgin.data();
  }
  out.assign(kCornerDofs * corner_total_, 0.0);
  double work = 0;
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      // The trial state goes to next, or to a scratch copy when nowhere is asked.
      std::vector<double> scratch(next ? 0 : p.state_rows * static_cast<std::size_t>(p.count));
      double* into = next ? next + p.state_at : scratch.data();
      forall(0, p.count, threads_,
             RowForceBody<Mesh>{row_args(mesh, c, old + p.state_at), mesh.constants.data(), into,
                                 out.data() + kCornerDofs * p.corner_at});
      for (int e = 0; e < p.count; ++e) work += Mesh::work_of(StridedState<const double>{into + e, p.count});
    });
  }
  return work;
}

void RowOperator::element_matrices(const Configuration& c, double* k, const double* old) const {
  std::vector<double> virgin;
  if (!old) {
    virgin = initial_states(c);
    old = virgin.data();
  }
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      const auto sections = dual_sections(mesh);
      double* km = k + matrix_offset(p.first);
      const RowColumnBody<Mesh> body{row_args(mesh, c, old + p.state_at), sections.data(), km};
      forall(0, p.count * RowColumnBody<Mesh>::kSize, threads_, body);
      forall(0, p.count, threads_, RowSymmetrizeBody<RowColumnBody<Mesh>::kSize>{km});
    });
  }
}

double RowOperator::linear_forces(const Configuration& ref, const std::vector<double>& x, std::vector<double>& out,
                                  const double* old, double* next) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes);
  if (x.size() != kCornerDofs * nn)
    throw std::logic_error("RowOperator::linear_forces: " + std::to_string(x.size()) + " dofs for " +
                           std::to_string(nn) + " nodes of 6");
  const std::vector<double> virgin = initial_states(ref);
  if (!old) old = virgin.data();
  // The linear configuration (the static step's own), where the geometry a later step
  // continues from is read.
  Configuration lin = ref;
  lin.u.assign(3 * nn, 0.0);
  linear_configuration(ref, x, kCornerDofs, 3, [&](int n) { return sys_.has_rotations(n); }, lin);
  out.assign(kCornerDofs * corner_total_, 0.0);
  std::vector<double> energy(static_cast<std::size_t>(total_), 0.0);
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      constexpr int size = kCornerDofs * Mesh::kCorners;
      const RowArgs<Mesh> at_ref = row_args(mesh, ref, virgin.data() + p.state_at);
      const RowArgs<Mesh> linear = row_args(mesh, lin, virgin.data() + p.state_at);
      const RowArgs<Mesh> from = row_args(mesh, ref, old + p.state_at);
      std::vector<double> scratch(next ? 0 : p.state_rows * static_cast<std::size_t>(p.count));
      double* states = next ? next + p.state_at : scratch.data();
      forall(0, p.count, threads_, [&](int e) {
        double inc[Mesh::kIncrement];
        const LinearMap<Mesh> map = linear_increment(at_ref, e, x.data(), from.old_of(e), inc);
        const StridedState<double> into{states + e, p.count};
        double* fe = out.data() + kCornerDofs * p.corner_at + static_cast<std::size_t>(size) * static_cast<std::size_t>(e);
        Mesh::template increment_forces<double>(at_ref.v, mesh.constants.data(), e, map.t1, map.d, from.old_of(e), inc,
                                                into, fe);
        // Geometry (edges, axes, node frames) from the nonlinear update to the linear
        // configuration: what a later step's nodes match.
        double geometry[kMaxRowState], plain[size];
        Mesh::generalized_forces(linear.v, mesh.constants.data(), e, linear.u, linear.t1, linear.d,
                                 linear.old_of(e), -1, StridedState<double>{geometry, 1}, plain);
        for (std::size_t c = 0; c < p.state_rows; ++c)
          if (Mesh::geometric_state(static_cast<int>(c))) into[static_cast<int>(c)] = geometry[c];
        energy[static_cast<std::size_t>(p.first + e)] = Mesh::work_of(StridedState<const double>{states + e, p.count});
      });
    });
  }
  double total = 0;
  for (double w : energy) total += w;  // element order: the same sum on any thread count
  return total;
}

void RowOperator::linear_matrices(const Configuration& ref, const Configuration& c, double* k,
                                  const double* old) const {
  const std::vector<double> virgin = initial_states(ref);
  if (!old) old = virgin.data();
  // c's generalized dofs (the linear configuration's inverse).
  std::vector<double> x(kCornerDofs * static_cast<std::size_t>(sys_.num_nodes), 0.0);
  linear_dofs(ref, c, kCornerDofs, 3, [&](int n) { return sys_.has_rotations(n); }, x);
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      constexpr int size = kCornerDofs * Mesh::kCorners;
      const auto sections = dual_sections(mesh);
      const RowArgs<Mesh> at_ref = row_args(mesh, ref, virgin.data() + p.state_at);
      const RowArgs<Mesh> from = row_args(mesh, ref, old + p.state_at);
      double* km = k + matrix_offset(p.first);
      forall(0, p.count, threads_, [&](int e) {
        double inc[Mesh::kIncrement];
        const LinearMap<Mesh> map = linear_increment(at_ref, e, x.data(), from.old_of(e), inc);
        double* ke = km + static_cast<std::size_t>(size) * size * static_cast<std::size_t>(e);
        Dual<double> work[kMaxRowState], dinc[Mesh::kIncrement], col[size];
        for (int j = 0; j < size; ++j) {  // column j: the increment's derivative along dof j
          for (int g = 0; g < Mesh::kIncrement; ++g)
            dinc[g] = Dual<double>(inc[g], g < Mesh::kIncrementGeometry ? 0.0 : map.b[g][j]);
          Mesh::template increment_forces<Dual<double>>(at_ref.v, sections.data(), e, map.t1, map.d, from.old_of(e), dinc,
                                                        StridedState<Dual<double>>{work, 1}, col);
          for (int r = 0; r < size; ++r) ke[r * size + j] = col[r].d;
        }
        RowSymmetrizeBody<size>{ke}(0);
      });
    });
  }
}

void RowOperator::add_pressure_forces(const Configuration& c, bool current, const DriveView& dv, double tau, int q,
                                      std::vector<double>& f) const {
  for (const Part& p : parts_) {
    if (p.pressure_at < 0) continue;
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      if constexpr (Mesh::kPressure) {
        std::vector<double> corner(3 * static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(p.count));
        forall(0, p.count, threads_, [&](int e) {
          const double value = evaluate_pressure(dv, p.pressure_at + e, tau);
          mesh.pressure_forces(e, current ? c.u.data() : nullptr, value,
                               corner.data() + 3 * static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(e));
        });
        // Node by node, corners in slot order: the explicit gather's order.
        forall(0, sys_.num_nodes, threads_, [&](int n) {
          for (int s = (*p.slot_ptr)[static_cast<std::size_t>(n)]; s < (*p.slot_ptr)[static_cast<std::size_t>(n) + 1]; ++s) {
            const std::size_t slot = static_cast<std::size_t>((*p.slots)[static_cast<std::size_t>(s)]);
            for (int k = 0; k < 3; ++k) f[static_cast<std::size_t>(q) * n + k] += corner[3 * slot + k];
          }
        });
      }
    });
  }
}

void RowOperator::gather(int n, const std::vector<double>& forces, double* f) const {
  for (const Part& p : parts_) {
    if (!p.slot_ptr->empty())
      for (int s = (*p.slot_ptr)[static_cast<std::size_t>(n)]; s < (*p.slot_ptr)[static_cast<std::size_t>(n) + 1]; ++s) {
        const std::size_t slot = static_cast<std::size_t>((*p.slots)[static_cast<std::size_t>(s)]);
        const double* v = forces.data() + kCornerDofs * (p.corner_at + slot);
        for (int i = 0; i < kCornerDofs; ++i) f[i] += v[i];
      }
  }
}

}  // namespace halfstep
