#include "discretization/structure_operator.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/threads.hpp"
#include "core/forall.hpp"
#include "discretization/nodal_triads.hpp"

namespace halfstep {

StructureOperator::StructureOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()), solids_(sys, threads), shells_(sys, threads), rows_(sys, threads),
      ndn_(rows_.num_elements() > 0 ? 6 : (sys.shell.num_elements > 0 || sys.any_director_nodes ? 5 : 3)),
      solid_size_(solids_.matrix_offset(solids_.num_elements())),
      solid_state_size_(static_cast<std::size_t>(sys.solid.state_size) * sys.solid.num_points),
      shell_state_size_(has_plastic_shells(sys) ? static_cast<std::size_t>(kJ2PlaneStateSize) * sys.shell.num_points : 0) {}

std::vector<double> StructureOperator::material_state(const StructureState& st) const {
  std::vector<double> s(material_state_size(), 0.0);
  if (st.solid_state.size() == solid_state_size_) std::copy(st.solid_state.begin(), st.solid_state.end(), s.begin());
  if (shell_state_size_ > 0 && st.shell_state.size() == shell_state_size_)
    std::copy(st.shell_state.begin(), st.shell_state.end(), s.begin() + static_cast<std::ptrdiff_t>(solid_state_size_));
  if (rows_.state_size() > 0) {
    std::vector<double> r;
    rows_.append_state(st, r);
    std::copy(r.begin(), r.end(), s.begin() + static_cast<std::ptrdiff_t>(solid_state_size_ + shell_state_size_));
  }
  return s;
}

void StructureOperator::store_material_state(const std::vector<double>& s, StructureState& st) const {
  if (s.size() != material_state_size())
    throw std::logic_error("store_material_state: " + std::to_string(s.size()) + " values for a layout of " +
                           std::to_string(material_state_size()));
  st.solid_state.assign(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(solid_state_size_));
  const auto shells_end = s.begin() + static_cast<std::ptrdiff_t>(solid_state_size_ + shell_state_size_);
  if (shell_state_size_ > 0) st.shell_state.assign(s.begin() + static_cast<std::ptrdiff_t>(solid_state_size_), shells_end);
  if (rows_.state_size() > 0) rows_.store_state(s.data() + solid_state_size_ + shell_state_size_, st);
}

std::vector<char> StructureOperator::active_dofs() const {
  std::vector<char> on(static_cast<std::size_t>(num_dofs()), 0);
  const int comps = sys_.solid.planar ? 2 : 3;
  for (int n : sys_.solid.conn)
    for (int c = 0; c < comps; ++c) on[static_cast<std::size_t>(ndn_) * n + c] = 1;
  for (int n : sys_.shell.conn)
    for (int c = 0; c < 5; ++c) on[static_cast<std::size_t>(ndn_) * n + c] = 1;
  for (int e = 0; e < rows_.num_elements(); ++e)
    for (int a = 0; a < rows_.element_nodes(e); ++a)
      for (int c = 0; c < 6; ++c) on[static_cast<std::size_t>(ndn_) * rows_.element_connectivity(e)[a] + c] = 1;
  return on;
}

int StructureOperator::element_nodes(int e) const {
  if (e >= first_row()) return rows_.element_nodes(e - first_row());
  return e < num_solids() ? solids_.element_size(e) / 3 : 4;
}

const int* StructureOperator::element_connectivity(int e) const {
  if (e < num_solids()) return &sys_.solid.conn[static_cast<std::size_t>(sys_.solid.conn_start(e))];
  if (e >= first_row()) return rows_.element_connectivity(e - first_row());
  return &sys_.shell.conn[4 * static_cast<std::size_t>(e - num_solids())];
}

void StructureOperator::element_dofs(int e, int* dofs) const {
  const int n = element_nodes(e), q = element_node_dofs(e);
  const int* c = element_connectivity(e);
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < q; ++k) dofs[q * a + k] = ndn_ * c[a] + k;
}

std::size_t StructureOperator::matrix_offset(int e) const {
  if (e <= num_solids()) return solids_.matrix_offset(e);
  if (e <= first_row()) return solid_size_ + 400 * static_cast<std::size_t>(e - num_solids());
  return solid_size_ + 400 * static_cast<std::size_t>(shells_.num_elements()) + rows_.matrix_offset(e - first_row());
}

void StructureOperator::gather(const std::vector<double>& solid, const std::vector<double>& shell,
                               std::vector<double>& f, const std::vector<double>& row) const {
  const std::size_t q = static_cast<std::size_t>(ndn_);
  f.assign(q * static_cast<std::size_t>(sys_.num_nodes), 0.0);
  forall(0, sys_.num_nodes, threads_, [&](int n) {
    double* out = &f[q * static_cast<std::size_t>(n)];
    if (!solid.empty())
      for (int k = 0; k < 3; ++k) out[k] = solid[3 * static_cast<std::size_t>(n) + k];
    if (!shell.empty())  // shell corners in slot order (the explicit gather's order)
      for (int s = sys_.shell.node_slot_ptr[static_cast<std::size_t>(n)]; s < sys_.shell.node_slot_ptr[static_cast<std::size_t>(n) + 1]; ++s) {
        const std::size_t slot = static_cast<std::size_t>(sys_.shell.node_slots[static_cast<std::size_t>(s)]);
        for (int k = 0; k < 5; ++k) out[k] += shell[5 * slot + k];
      }
    if (!row.empty()) rows_.gather(n, row, out);
  });
}

double StructureOperator::internal_force(const Configuration& c, std::vector<double>& f,
                                         std::vector<double>* shell_energy, PointStates states,
                                         ElementForceSums* sums) const {
  double w = 0;
  std::vector<double> fs;
  if (solids_.num_elements() > 0)
    w += solids_.internal_force(c.u, fs, c.thermal.empty() ? nullptr : c.thermal.data(), states.old, states.next, sums);
  std::vector<double> fe;
  if (shells_.num_elements() > 0)
    w += shells_.element_forces(c, fe, shell_energy, shell_part(states).old, shell_part(states).next);
  std::vector<double> fr;
  if (rows_.num_elements() > 0) w += rows_.element_forces(c, fr, row_part(states).old, row_part(states).next);
  gather(fs, fe, f, fr);
  return w;
}

double StructureOperator::linearized_force(const Configuration& ref, const std::vector<double>& x,
                                           std::vector<double>& f, const std::vector<double>* thermal) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes), q = static_cast<std::size_t>(ndn_);
  linear_only();
  std::vector<double> fs, fe;
  if (solids_.num_elements() > 0) {
    std::vector<double> xs(3 * nn);
    for (std::size_t n = 0; n < nn; ++n)
      for (int k = 0; k < 3; ++k) xs[3 * n + k] = x[q * n + k];
    solids_.linearized_force(xs, fs, thermal && !thermal->empty() ? thermal->data() : nullptr);
  }
  if (shells_.num_elements() > 0) shells_.linearized_forces(ref, x, ndn_, fe);
  gather(fs, fe, f);
  double w = 0;
  for (std::size_t k = 0; k < f.size(); ++k) w += f[k] * x[k];
  return 0.5 * w;
}

double StructureOperator::small_strain_force(const Configuration& ref, const std::vector<double>& x,
                                             std::vector<double>& f, const std::vector<double>* thermal,
                                             PointStates states) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes), q = static_cast<std::size_t>(ndn_);
  std::vector<double> fs, fe, fr;
  double w = 0;
  if (solids_.num_elements() > 0) {
    std::vector<double> xs(3 * nn);
    for (std::size_t n = 0; n < nn; ++n)
      for (int k = 0; k < 3; ++k) xs[3 * n + k] = x[q * n + k];
    w = solids_.small_strain_force(xs, fs, thermal && !thermal->empty() ? thermal->data() : nullptr, states.old,
                                   states.next);
  }
  if (shells_.num_elements() > 0)
    w += shells_.small_strain_forces(ref, x, ndn_, fe, nullptr, shell_part(states).old, shell_part(states).next);
  if (rows_.num_elements() > 0) w += rows_.linear_forces(ref, x, fr, row_part(states).old, row_part(states).next);
  gather(fs, fe, f, fr);
  return w;
}

void StructureOperator::small_strain_matrices(const Configuration& ref, const Configuration& c,
                                              std::vector<double>& k, const double* state_old) const {
  k.assign(matrix_offset(num_elements()), 0.0);
  if (solids_.num_elements() > 0)
    solids_.small_strain_matrices(c.u, k.data(), c.thermal.empty() ? nullptr : c.thermal.data(), state_old);
  if (shells_.num_elements() > 0)
    shells_.small_strain_matrices(ref, c, k.data() + solid_size_, shell_part({state_old, nullptr}).old);
  if (rows_.num_elements() > 0)
    rows_.linear_matrices(ref, c, k.data() + matrix_offset(first_row()), row_part({state_old, nullptr}).old);
}

Configuration StructureOperator::rest() const {
  StructureState st;
  st.initialize(sys_);
  if (shells_.num_elements() == 0 && rows_.num_elements() == 0)
    return Configuration::displaced(std::vector<double>(3 * static_cast<std::size_t>(sys_.num_nodes), 0.0));
  if (shells_.num_elements() > 0) initialize_triads(st);
  return Configuration::of(st);
}

void StructureOperator::element_matrices(const Configuration& c, std::vector<double>& k, const double* state_old) const {
  k.assign(matrix_offset(num_elements()), 0.0);
  if (solids_.num_elements() > 0)
    solids_.element_matrices(c.u, k.data(), c.thermal.empty() ? nullptr : c.thermal.data(), state_old);
  if (shells_.num_elements() > 0) shells_.element_matrices(c, k.data() + solid_size_, shell_part({state_old, nullptr}).old);
  if (rows_.num_elements() > 0)
    rows_.element_matrices(c, k.data() + matrix_offset(first_row()), row_part({state_old, nullptr}).old);
}

void StructureOperator::linear_only() const {
  // Row elements' linear theory writes their state (edges, frames, stresses): a linear step
  // with them takes the small-strain path (small_strain_force), which carries states.
  if (rows_.num_elements() > 0)
    throw std::logic_error("StructureOperator: row elements take the small-strain path in linear steps");
}

}  // namespace halfstep
