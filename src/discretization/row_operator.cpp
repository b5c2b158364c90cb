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

bool RowOperator::yields() const {
  bool any = false;
  for (const Part& p : parts_)
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      for (const auto& c : mesh.constants) any = any || c.plastic != 0;
    });
  return any;
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
                                  double* next) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes);
  if (x.size() != kCornerDofs * nn)
    throw std::logic_error("RowOperator::linear_forces: " + std::to_string(x.size()) + " dofs for " +
                           std::to_string(nn) + " nodes of 6");
  const std::vector<double> virgin = initial_states(ref);
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
      const auto sections = dual_sections(mesh);
      const RowColumnBody<Mesh> body{row_args(mesh, ref, virgin.data() + p.state_at), sections.data(), nullptr};
      const RowArgs<Mesh> linear = row_args(mesh, lin, virgin.data() + p.state_at);
      constexpr int size = RowColumnBody<Mesh>::kSize;
      forall(0, p.count, threads_, [&](int e) {
        const StridedState<const double> old = body.a.old_of(e);
        double ke[size * size], xe[size], plain[size];
        Dual<double> work[kMaxRowState];
        std::vector<double> rate(p.state_rows, 0.0);
        const int* nodes = element_connectivity(p.first + e);
        for (int a = 0; a < p.corners; ++a)
          for (int j = 0; j < kCornerDofs; ++j) xe[kCornerDofs * a + j] = x[kCornerDofs * static_cast<std::size_t>(nodes[a]) + j];
        for (int s = 0; s < size; ++s) {  // K's columns, and the state's change along x
          body.column(e, s, work, ke);
          for (std::size_t c = 0; c < p.state_rows; ++c) rate[c] += xe[s] * work[c].d;
        }
        RowSymmetrizeBody<size>{ke}(0);
        double* fe = out.data() + kCornerDofs * p.corner_at + static_cast<std::size_t>(size) * static_cast<std::size_t>(e);
        double w = 0;
        for (int r = 0; r < size; ++r) {
          for (int s = 0; s < size; ++s) fe[r] += ke[r * size + s] * xe[s];
          w += 0.5 * fe[r] * xe[r];
        }
        energy[static_cast<std::size_t>(p.first + e)] = w;
        if (!next) return;
        // Geometry from the nonlinear update to the linear configuration (edges and axes that
        // match the frames a later step starts from), the rest from the derivative.
        const StridedState<double> into{next + p.state_at + e, p.count};
        Mesh::generalized_forces(linear.v, mesh.constants.data(), e, linear.u, linear.t1, linear.d, old, -1, into, plain);
        for (std::size_t c = 0; c < p.state_rows; ++c)
          if (!Mesh::geometric_state(static_cast<int>(c))) into[static_cast<int>(c)] = old[static_cast<int>(c)] + rate[c];
        into[Mesh::kWorkState] = w;
      });
    });
  }
  double total = 0;
  for (double w : energy) total += w;  // element order: the same sum on any thread count
  return total;
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
