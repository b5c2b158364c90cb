#include "discretization/row_operator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "core/threads.hpp"
#include "discretization/element_blocks.hpp"
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
  std::size_t corners = 0;
  for (const Part& p : parts_) corners += static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(p.count);
  out.assign(kCornerDofs * corners, 0.0);
  double work = 0;
  std::size_t at = 0;  // the part's first corner force
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      const long long stride = p.count;
      const double* from = old + p.state_at;
      // The trial state goes to next, or to a scratch copy when nowhere is asked.
      std::vector<double> scratch(next ? 0 : p.state_rows * static_cast<std::size_t>(p.count));
      double* into = next ? next + p.state_at : scratch.data();
      double* o = out.data() + at;
      forall(0, p.count, threads_, [&](int e) {
        mesh.generalized_forces(mesh.constants.data(), e, c.u.data(), c.t1.data(), c.d.data(),
                                StridedState<const double>{from + e, stride}, -1, StridedState<double>{into + e, stride},
                                o + static_cast<std::size_t>(kCornerDofs * p.corners) * static_cast<std::size_t>(e));
      });
      for (int e = 0; e < p.count; ++e) work += Mesh::work_of(StridedState<const double>{into + e, stride});
    });
    at += static_cast<std::size_t>(kCornerDofs * p.corners) * static_cast<std::size_t>(p.count);
  }
  return work;
}

void RowOperator::element_matrices(const Configuration& c, double* k, const double* old) const {
  using D = Dual<double>;
  std::vector<double> virgin;
  if (!old) {
    virgin = initial_states(c);
    old = virgin.data();
  }
  for (const Part& p : parts_) {
    with_static_family(sys_, p.family, [&](const auto& mesh) {
      using Mesh = std::decay_t<decltype(mesh)>;
      std::vector<typename Mesh::template Section<D>> sections;
      for (const auto& s : mesh.constants) sections.push_back(Mesh::template section_as<D>(s));
      const long long stride = p.count;
      const double* from = old + p.state_at;
      const int size = kCornerDofs * p.corners;
      forall(0, p.count, threads_, [&](int e) {
        std::vector<D> work(p.state_rows), col(static_cast<std::size_t>(size));
        double* ke = k + matrix_offset(p.first + e);
        for (int s = 0; s < size; ++s) {  // column s: the derivative along corner dof s
          mesh.generalized_forces(sections.data(), e, c.u.data(), c.t1.data(), c.d.data(),
                                  StridedState<const double>{from + e, stride}, s, StridedState<D>{work.data(), 1},
                                  col.data());
          for (int r = 0; r < size; ++r) ke[static_cast<std::size_t>(r) * size + s] = col[static_cast<std::size_t>(r)].d;
        }
        // The symmetric part: the solvers take one triangle of a symmetric matrix. FPM forces are
        // not an energy's gradient; their derivative's skew part (about 1e-3 of the largest
        // entry, from the stresses the frame carries) left out costs Newton little, where the
        // other triangle's entries mirrored in its place made it crawl (docs/theory.md).
        for (int r = 0; r < size; ++r)
          for (int s = r + 1; s < size; ++s) {
            double& a = ke[static_cast<std::size_t>(r) * size + s];
            double& b = ke[static_cast<std::size_t>(s) * size + r];
            a = b = 0.5 * (a + b);
          }
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
  std::size_t at = 0;
  for (const Part& p : parts_) {
    if (!p.slot_ptr->empty())
      for (int s = (*p.slot_ptr)[static_cast<std::size_t>(n)]; s < (*p.slot_ptr)[static_cast<std::size_t>(n) + 1]; ++s) {
        const std::size_t slot = static_cast<std::size_t>((*p.slots)[static_cast<std::size_t>(s)]);
        const double* v = forces.data() + at + kCornerDofs * slot;
        for (int i = 0; i < kCornerDofs; ++i) f[i] += v[i];
      }
    at += static_cast<std::size_t>(kCornerDofs * p.corners) * static_cast<std::size_t>(p.count);
  }
}

}  // namespace halfstep
