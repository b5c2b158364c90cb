#include "discretization/shell_operator.hpp"

#include <omp.h>

#include "core/threads.hpp"
#include "core/forall.hpp"
#include "discretization/shell_tangent.hpp"

namespace halfstep {

namespace {

/// Shell e's reference and current nodal vectors in configuration c, and its triads.
Mitc4Nodes<double> gather_shell_nodes(const StructureSystem& sys, const Configuration& c, int e,
                                             Vec3<double> t1[4]) {
  Mitc4Nodes<double> nodes;
  const int* k = &sys.shell.conn[4 * static_cast<std::size_t>(e)];
  for (int a = 0; a < 4; ++a) {
    const int n = k[a];
    nodes.X[a] = {sys.x0[n], sys.y0[n], sys.z0[n]};
    nodes.u[a] = Configuration::at(c.u, n);
    nodes.V0[a] = {sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    nodes.v[a] = Configuration::at(c.d, n);
    t1[a] = Configuration::at(c.t1, n);
  }
  return nodes;
}

}  // namespace

using D = Dual<double>;

namespace {

/// One shell's inputs to its dual-number evaluations: nodal vectors and triads in a
/// configuration, dual reference constants and section constants.
struct DualShell {
  Vec3<double> t1[4];
  Mitc4Nodes<double> nodes;
  Mitc4Ref<D> ref;
  ShellElastic<D> mat;
  double thickness;
  DualShell(const StructureSystem& sys, const Configuration& c, int e) {
    const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[e])];
    nodes = gather_shell_nodes(sys, c, e, t1);
    ref = mitc4_dual_ref<D>(sys.shell.ref[static_cast<std::size_t>(e)]);
    mat = mitc4_dual_elastic<D>(sec.elastic);
    thickness = sec.thickness;
  }
};

}  // namespace

ShellOperator::ShellOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()) {}

double ShellOperator::element_forces(const Configuration& c, std::vector<double>& out,
                                     std::vector<double>* energy) const {
  const std::size_t ne = static_cast<std::size_t>(sys_.shell.num_elements);
  out.assign(20 * ne, 0.0);
  std::vector<double> local;
  std::vector<double>& w = energy ? *energy : local;
  w.assign(ne, 0.0);
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const SectionProps& sec = sys_.shell.sections[static_cast<std::size_t>(sys_.shell.section[e])];
    Vec3<double> t1[4];
    const Mitc4Nodes<double> nodes = gather_shell_nodes(sys_, c, e, t1);
    w[static_cast<std::size_t>(e)] = mitc4_generalized_forces(sys_.shell.ref[static_cast<std::size_t>(e)], nodes, t1,
                                                              sec.thickness, sec.elastic,
                                                              &out[20 * static_cast<std::size_t>(e)]);
  });
  double total = 0;
  for (double x : w) total += x;
  return total;
}

void ShellOperator::element_matrices(const Configuration& c, double* k) const {
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const DualShell s(sys_, c, e);
    double* ke = k + 400 * static_cast<std::size_t>(e);
    for (int j = 0; j < 20; ++j) mitc4_matrix_column(s.ref, s.nodes, s.t1, s.thickness, s.mat, j, ke);
  });
}

void ShellOperator::element_matrices(const Configuration& c, std::vector<double>& k) const {
  k.assign(400 * static_cast<std::size_t>(sys_.shell.num_elements), 0.0);
  element_matrices(c, k.data());
}

void ShellOperator::linearized_forces(const Configuration& c, const std::vector<double>& x, int dofs_per_node,
                                      std::vector<double>& out, std::vector<double>* energy) const {
  out.assign(20 * static_cast<std::size_t>(sys_.shell.num_elements), 0.0);
  if (energy) energy->assign(static_cast<std::size_t>(sys_.shell.num_elements), 0.0);
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const DualShell s(sys_, c, e);
    double dx[20];
    for (int a = 0; a < 4; ++a) {
      const std::size_t n = static_cast<std::size_t>(sys_.shell.conn[4 * static_cast<std::size_t>(e) + a]);
      for (int q = 0; q < 5; ++q) dx[5 * a + q] = x[static_cast<std::size_t>(dofs_per_node) * n + q];
    }
    double* fe = &out[20 * static_cast<std::size_t>(e)];
    mitc4_directional_derivative(s.ref, s.nodes, s.t1, s.thickness, s.mat, dx, fe);
    if (energy) {
      double w = 0;
      for (int k = 0; k < 20; ++k) w += fe[k] * dx[k];
      (*energy)[static_cast<std::size_t>(e)] = 0.5 * w;
    }
  });
}

}  // namespace halfstep
