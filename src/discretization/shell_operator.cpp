#include "discretization/shell_operator.hpp"

#include <omp.h>

#include "core/threads.hpp"
#include "core/forall.hpp"
#include "discretization/shell_tangent.hpp"
#include "elements/rotation.hpp"
#include "materials/material_duals.hpp"

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
  /// The elastic section's element matrix at the configuration (20 x 20 into ke).
  void elastic_matrix(double* ke) const {
    for (int j = 0; j < 20; ++j) mitc4_matrix_column(ref, nodes, t1, thickness, mat, j, ke);
  }
};

/// The total of per-element energies w; the dissipated parts added to *dissipation when given.
double sum_energies(const std::vector<double>& w, const std::vector<double>& dissipated, double* dissipation) {
  double total = 0;
  for (double v : w) total += v;
  if (dissipation)
    for (double v : dissipated) *dissipation += v;
  return total;
}

}  // namespace

ShellOperator::ShellOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()) {}

double ShellOperator::element_forces(const Configuration& c, std::vector<double>& out, std::vector<double>* energy,
                                     const double* state_old, double* state_next, double* dissipation) const {
  const std::size_t ne = static_cast<std::size_t>(sys_.shell.num_elements);
  out.assign(20 * ne, 0.0);
  std::vector<double> local, dissipated(ne, 0.0);
  std::vector<double>& w = energy ? *energy : local;
  w.assign(ne, 0.0);
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const std::size_t i = static_cast<std::size_t>(e);
    const SectionProps& sec = sys_.shell.sections[static_cast<std::size_t>(sys_.shell.section[e])];
    Vec3<double> t1[4];
    const Mitc4Nodes<double> nodes = gather_shell_nodes(sys_, c, e, t1);
    if (sec.section_points == 0) {
      w[i] = mitc4_generalized_forces(sys_.shell.ref[i], nodes, t1, sec.thickness, sec.elastic, &out[20 * i]);
      return;
    }
    Vec3<double> f[4], gv[4];
    const ElementState<double> state{state_old, state_next, sys_.shell.num_points, sys_.shell.first_point[i]};
    w[i] = mitc4_plastic_internal_force(sys_.shell.ref[i], nodes, sec.thickness, sec.law, sec.elastic.kshear,
                                        sec.section_points, state, f, gv, &dissipated[i]);
    for (int a = 0; a < 4; ++a) mitc4_corner_generalized_force(f[a], gv[a], nodes.v[a], t1[a], &out[20 * i + 5 * a]);
  });
  return sum_energies(w, dissipated, dissipation);
}

template <class Plastic>
void ShellOperator::for_each_matrix(const Configuration& at, double* k, Plastic&& plastic) const {
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const DualShell s(sys_, at, e);
    double* ke = k + 400 * static_cast<std::size_t>(e);
    const SectionProps& sec = sys_.shell.sections[static_cast<std::size_t>(sys_.shell.section[e])];
    if (sec.section_points == 0)
      s.elastic_matrix(ke);
    else
      plastic(e, s, sec, ke);
  });
}

void ShellOperator::element_matrices(const Configuration& c, double* k, const double* state_old) const {
  for_each_matrix(c, k, [&](int e, const DualShell& s, const SectionProps& sec, double* ke) {
    const std::size_t i = static_cast<std::size_t>(e);
    const SolidMaterial<D> law = dual_material(sec.law);
    const Mitc4PlasticForce force{s.ref, law, sec.thickness, sec.elastic.kshear, sec.section_points,
                                  ElementState<double>{state_old, nullptr, sys_.shell.num_points, sys_.shell.first_point[i]}};
    for (int j = 0; j < 20; ++j) mitc4_matrix_column_by(s.nodes, s.t1, force, j, ke);
  });
}

void ShellOperator::element_matrices(const Configuration& c, std::vector<double>& k, const double* state_old) const {
  k.assign(400 * static_cast<std::size_t>(sys_.shell.num_elements), 0.0);
  element_matrices(c, k.data(), state_old);
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

double ShellOperator::small_strain_forces(const Configuration& ref, const std::vector<double>& x, int dofs_per_node,
                                          std::vector<double>& out, std::vector<double>* energy, const double* state_old,
                                          double* state_next, double* dissipation) const {
  const std::size_t ne = static_cast<std::size_t>(sys_.shell.num_elements);
  out.assign(20 * ne, 0.0);
  std::vector<double> local, dissipated(ne, 0.0);
  std::vector<double>& w = energy ? *energy : local;
  w.assign(ne, 0.0);
  forall(0, sys_.shell.num_elements, threads_, [&](int e) {
    const std::size_t i = static_cast<std::size_t>(e);
    const DualShell s(sys_, ref, e);
    double dx[20];
    for (int a = 0; a < 4; ++a) {
      const std::size_t n = static_cast<std::size_t>(sys_.shell.conn[4 * i + static_cast<std::size_t>(a)]);
      for (int q = 0; q < 5; ++q) dx[5 * a + q] = x[static_cast<std::size_t>(dofs_per_node) * n + static_cast<std::size_t>(q)];
    }
    double* fe = &out[20 * i];
    const SectionProps& sec = sys_.shell.sections[static_cast<std::size_t>(sys_.shell.section[e])];
    if (sec.section_points == 0) {
      mitc4_directional_derivative(s.ref, s.nodes, s.t1, s.thickness, s.mat, dx, fe);
      for (int k = 0; k < 20; ++k) w[i] += 0.5 * fe[k] * dx[k];
      return;
    }
    double d[4] = {0, 0, 0, 0};
    const Mitc4SmallStrainForce<double> force{
        s.ref, sec.law, sec.thickness, sec.elastic.kshear, sec.section_points,
        ElementState<double>{state_old, state_next, sys_.shell.num_points, sys_.shell.first_point[i]}, d};
    w[i] = mitc4_dual_evaluation<double>(s.nodes, s.t1, dx, force, fe);
    for (int g = 0; g < 4; ++g) dissipated[i] += s.ref.wj[g].v * d[g];
  });
  return sum_energies(w, dissipated, dissipation);
}

void ShellOperator::small_strain_matrices(const Configuration& ref, const Configuration& c, double* k,
                                          const double* state_old) const {
  using DD = Dual<D>;
  for_each_matrix(ref, k, [&](int e, const DualShell& s, const SectionProps& sec, double* ke) {
    const std::size_t i = static_cast<std::size_t>(e);
    // x of the corners from c: translations, and the spins of the exact turn from the
    // reference triad to c's (StaticProblem::linear_configuration's inverse).
    double x[20];
    for (int a = 0; a < 4; ++a) {
      const int n = sys_.shell.conn[4 * i + static_cast<std::size_t>(a)];
      const Vec3<double> u = Configuration::at(c.u, n);
      const Vec3<double> w =
          frame_spins(Configuration::at(ref.t1, n), Configuration::at(ref.d, n), Configuration::at(c.t1, n), Configuration::at(c.d, n));
      const double v[5] = {u.x, u.y, u.z, w.x, w.y};
      for (int q = 0; q < 5; ++q) x[5 * a + q] = v[q];
    }
    const Mitc4Ref<DD> ref2 = mitc4_dual_ref<DD>(sys_.shell.ref[i]);
    const SolidMaterial<D> law = dual_material(sec.law);
    const Mitc4SmallStrainForce<D> force{
        ref2, law, sec.thickness, sec.elastic.kshear, sec.section_points,
        ElementState<double>{state_old, nullptr, sys_.shell.num_points, sys_.shell.first_point[i]}, nullptr};
    for (int j = 0; j < 20; ++j) {
      D dx[20], col[20];
      for (int q = 0; q < 20; ++q) dx[q] = D(x[q], q == j ? 1.0 : 0.0);
      mitc4_dual_evaluation<D>(s.nodes, s.t1, dx, force, col);
      for (int r = 0; r < 20; ++r) ke[r * 20 + j] = col[r].d;
    }
  });
}

}  // namespace halfstep
