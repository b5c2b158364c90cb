// The node pass's share of linear constraints (discretization/constraints.hpp), as host/device
// functions: before the independent nodes are integrated each gathers the forces of the
// dependent dofs it carries, and afterwards each dependent dof is set from its terms.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace halfstep {

/// LinearConstraints as raw pointers (host or device), with the scratch of dependent forces.
template <class T>
struct ConstraintView {
  int num_dependent;
  const int *dep_node, *dep_dof, *term_ptr, *term_node, *term_dof;
  const double* term_weight;
  const std::uint8_t* dependent;  ///< per node: bits of its dependent translations
  const int *recv_ptr, *recv_dependent, *recv_dof;
  const double* recv_weight;
  T* dep_force;  ///< two per dependent dof: internal force, external force (loads and pressures)
};

/// Stores dependent dof k's forces from its node's gathered internal forces fi, external
/// forces fp (pressures) and concentrated loads (global, 6 values, or null).
template <class T>
HS_HD void store_dependent_force(const ConstraintView<T>& c, int k, const T* fi, const T fp[3], const T* load) {
  const int d = c.dep_dof[k];
  c.dep_force[2 * k] = fi[d];
  c.dep_force[2 * k + 1] = fp[d] + (load ? load[d] : T(0));
}

/// Adds to node n's forces the weighted forces of the dependent dofs it carries (in a fixed
/// order: the sums are deterministic).
template <class T>
HS_HD void add_received_forces(const ConstraintView<T>& c, int n, T* fi, T fp[3]) {
  for (int i = c.recv_ptr[n]; i < c.recv_ptr[n + 1]; ++i) {
    const int k = c.recv_dependent[i], d = c.recv_dof[i];
    const T w = T(c.recv_weight[i]);
    fi[d] += w * c.dep_force[2 * k];
    fp[d] += w * c.dep_force[2 * k + 1];
  }
}

/// The weighted sum of per-node array a (one dof's column per term: a[dof][node]) over the
/// terms of dependent dof k.
template <class T>
HS_HD T dependent_value(const ConstraintView<T>& c, int k, T* const a[3]) {
  T sum = T(0);
  for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) sum += T(c.term_weight[i]) * a[c.term_dof[i]][c.term_node[i]];
  return sum;
}

/// Sets dependent dof k's half-step velocity and displacement from its independent dofs
/// (after they were integrated): the constraint holds exactly at every increment.
template <class T>
HS_HD void update_dependent(const ConstraintView<T>& c, int k, T* const v[3], T* const u[3]) {
  const int n = c.dep_node[k], d = c.dep_dof[k];
  v[d][n] = dependent_value(c, k, v);
  u[d][n] = dependent_value(c, k, u);
}

}  // namespace halfstep
