// The node pass's share of linear constraints (discretization/constraints.hpp), as host/device
// functions: before the independent nodes are integrated each gathers the forces of the
// dependent dofs it carries, and afterwards each dependent dof is set from its terms.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

/// LinearConstraints as raw pointers (host or device), with the scratch of dependent forces.
template <class T>
struct ConstraintView {
  int num_dependent;
  const int *dep_node, *dep_dof, *term_ptr, *term_node, *term_dof;
  const double* term_weight;
  const std::uint8_t* dependent;  ///< per node: bits of its dependent dofs (3-5: global rotations)
  const int *recv_ptr, *recv_dependent, *recv_dof;
  const double* recv_weight;
  T* dep_force;  ///< two per dependent dof: internal force, external force (loads and pressures)
  int num_rot_nodes;    ///< nodes with a dependent rotation (their frames are turned here)
  const int* rot_node;
};

/// Stores dependent dof k's forces from its node's gathered internal forces fi, external
/// forces fp (pressures) and concentrated loads (global, 6 values, or null).
template <class T>
HS_HD void store_dependent_force(const ConstraintView<T>& c, int k, const T* fi, const T fp[3], const T* load) {
  const int d = c.dep_dof[k];
  c.dep_force[2 * k] = fi[d];
  c.dep_force[2 * k + 1] = (d < 3 ? fp[d] : T(0)) + (load ? load[d] : T(0));  // pressures: no moments
}

/// Adds to node n's forces the weighted forces of the dependent dofs it carries (in a fixed
/// order: the sums are deterministic).
template <class T>
HS_HD void add_received_forces(const ConstraintView<T>& c, int n, T* fi, T fp[3]) {
  for (int i = c.recv_ptr[n]; i < c.recv_ptr[n + 1]; ++i) {
    const int k = c.recv_dependent[i], d = c.recv_dof[i];
    const T w = T(c.recv_weight[i]);
    if (d < 3) {
      fi[d] += w * c.dep_force[2 * k];
      fp[d] += w * c.dep_force[2 * k + 1];
    } else {  // moments: no external slot, so an applied moment enters as a negative internal one
      fi[d] += w * (c.dep_force[2 * k] - c.dep_force[2 * k + 1]);
    }
  }
}

/// The weighted sum of per-node array a (one dof's column per term: a[dof][node], 6 columns
/// where the dependent dofs include rotations) over the terms of dependent dof k.
template <class T>
HS_HD T dependent_value(const ConstraintView<T>& c, int k, T* const* a) {
  T sum = T(0);
  for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) sum += T(c.term_weight[i]) * a[c.term_dof[i]][c.term_node[i]];
  return sum;
}

/// dependent_value over arrays that hold some nodes only (a compact output frame): node n's
/// value at a[dof][row[n]]; every term's node has a row (discretization/constraints.hpp,
/// frame_nodes).
template <class T>
HS_HD T dependent_value(const ConstraintView<T>& c, int k, T* const* a, const int* row) {
  T sum = T(0);
  for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i)
    sum += T(c.term_weight[i]) * a[c.term_dof[i]][row[c.term_node[i]]];
  return sum;
}

/// Sets dependent dof k's half-step velocity and, for a translation, displacement from its
/// independent dofs (after they were integrated): the constraint holds exactly at every
/// increment. v: 6 columns; u: 3. A dependent rotation's frame is turned by turn_frame below.
template <class T>
HS_HD void update_dependent(const ConstraintView<T>& c, int k, T* const* v, T* const* u) {
  const int n = c.dep_node[k], d = c.dep_dof[k];
  v[d][n] = dependent_value(c, k, v);
  if (d < 3) u[d][n] = dependent_value(c, k, u);
}

/// Turns the frame of rot_node[i] (a node with a dependent rotation, skipped by the node pass)
/// by dt w^(n+1/2), as integrate_node turns a 6-dof node's frame: run after update_dependent.
template <class T>
HS_HD void turn_dependent_frame(const ConstraintView<T>& c, int i, T dt, T* const* v, T* dx, T* dy, T* dz, T* t1x,
                                T* t1y, T* t1z) {
  const int n = c.rot_node[i];
  const Vec3<T> theta{dt * v[3][n], dt * v[4][n], dt * v[5][n]};
  if (theta.x == T(0) && theta.y == T(0) && theta.z == T(0)) return;
  const Vec3<T> nd = normalized(rotate(theta, Vec3<T>{dx[n], dy[n], dz[n]}));
  Vec3<T> nt = rotate(theta, Vec3<T>{t1x[n], t1y[n], t1z[n]});
  nt = normalized(nt - dot(nt, nd) * nd);
  dx[n] = nd.x, dy[n] = nd.y, dz[n] = nd.z;
  t1x[n] = nt.x, t1y[n] = nt.y, t1z[n] = nt.z;
}

}  // namespace halfstep
