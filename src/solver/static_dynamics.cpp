// Implicit dynamics (*DYNAMIC without EXPLICIT) on the static step's Newton iterations: the
// Hilber-Hughes-Taylor method with the lumped mass, the quadratic solids' consistent
// (solver/dof_mass.hpp; docs/theory.md, "Implicit dynamics").
#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "elements/registry.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

void check_dynamic_step(const Step& step, const StructureSystem& sys) {
  if (sys.node_dofs > 5)
    throw InputError(step.dynamic->loc, "implicit *DYNAMIC in a model with beams or FPM triangles (6-dof nodes): not "
                                        "supported yet (their rotary inertia is the explicit scheme's, scaled for its "
                                        "stable increment); use *DYNAMIC, EXPLICIT");
  if (!sys.contact.empty())
    throw InputError(step.dynamic->loc, "implicit *DYNAMIC with contact: not supported yet (use *DYNAMIC, EXPLICIT)");
  // Velocity-dependent forces are not in the static engine's internal forces: refused rather
  // than dropped.
  for (const SolidGroup& g : sys.solid.groups)
    if (g.count > 0 && element_kind(g.kind).discrete == 2)
      throw InputError(step.dynamic->loc, "implicit *DYNAMIC with dashpots (" + std::string(element_kind(g.kind).name) +
                                              "): not supported yet (their forces follow the velocity); use "
                                              "*DYNAMIC, EXPLICIT");
}

namespace {

/// M_eq a = T^T f on the equations that carry mass (the others' accelerations zero), by
/// conjugate gradients preconditioned with the lumped diagonal: a consistent mass matrix is
/// well conditioned, so this converges in tens of iterations.
std::vector<double> consistent_acceleration(const StaticProblem& p, const std::vector<double>& f) {
  const std::size_t ne = static_cast<std::size_t>(p.neq);
  const std::vector<double> d = p.equation_diagonal(p.m_dyn);
  std::vector<double> b(ne), x(ne, 0.0), dof, mdof;
  p.gather_equations(f, b.data());
  for (std::size_t i = 0; i < ne; ++i)
    if (!(d[i] > 0)) b[i] = 0;
  const auto apply = [&](const std::vector<double>& in, std::vector<double>& out) {
    p.expand_equations(in.data(), dof);
    p.dyn_mass.apply(dof, mdof);
    p.gather_equations(mdof, out.data());
    for (std::size_t i = 0; i < ne; ++i)
      if (!(d[i] > 0)) out[i] = 0;
  };
  const auto dot = [&](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (std::size_t i = 0; i < ne; ++i) s += u[i] * v[i];
    return s;
  };
  const double bb = dot(b, b);
  if (!(bb > 0)) return x;
  std::vector<double> r = b, z(ne), dir(ne), q(ne);
  for (std::size_t i = 0; i < ne; ++i) z[i] = d[i] > 0 ? r[i] / d[i] : 0.0;
  dir = z;
  double rz = dot(r, z);
  constexpr int kMaxIterations = 1000;
  for (int it = 0; it < kMaxIterations; ++it) {
    apply(dir, q);
    const double step = rz / dot(dir, q);
    for (std::size_t i = 0; i < ne; ++i) {
      x[i] += step * dir[i];
      r[i] -= step * q[i];
    }
    if (dot(r, r) <= 1e-26 * bb) return x;
    for (std::size_t i = 0; i < ne; ++i) z[i] = d[i] > 0 ? r[i] / d[i] : 0.0;
    const double rz1 = dot(r, z);
    for (std::size_t i = 0; i < ne; ++i) dir[i] = z[i] + (rz1 / rz) * dir[i];
    rz = rz1;
  }
  throw RunError("implicit *DYNAMIC step '" + p.step.name + "': the initial accelerations (M a = f) did not converge in " +
                 std::to_string(kMaxIterations) + " conjugate-gradient iterations");
}

}  // namespace

void StaticProblem::init_dynamics() {
  dynamic = step.dynamic.has_value();
  if (!dynamic) return;
  check_dynamic_step(step, sys);
  hht_alpha = step.dynamic->alpha;
  hht_beta = 0.25 * (1 - hht_alpha) * (1 - hht_alpha);
  hht_gamma = 0.5 - hht_alpha;
  m_dyn = lumped_dof_mass(model, sys, q);
  dyn_mass = dof_mass(sys, m_dyn, q, true);
  if (sys.solid.num_elements > 0) add_stiffness_damping(dyn_mass, sys, op.continuum());
  vel.assign(ndof, 0.0);
  acc.assign(ndof, 0.0);
  // The motion the run is in: an earlier explicit or dynamic step's velocities go on (MITC4
  // nodes' spins about their triad too: the explicit layout of v[3], v[4]).
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t d = 0; d < std::min<std::size_t>(q, 5); ++d)
      vel[q * n + d] = st.v[d].empty() ? 0.0 : st.v[d][n];
}

StaticProblem::Motion StaticProblem::newmark(std::size_t k, double x0, double x1, double dtau) const {
  const double h2 = dtau * dtau;
  const double a1 = (x1 - x0 - dtau * vel[k] - h2 * (0.5 - hht_beta) * acc[k]) / (hht_beta * h2);
  return {vel[k] + dtau * ((1 - hht_gamma) * acc[k] + hht_gamma * a1), a1};
}

void StaticProblem::inertia_forces(const NewtonIterate& from, const NewtonIterate& trial, double dtau,
                                   std::vector<double>& f, std::vector<double>& scale) const {
  std::vector<double> a1(ndof), v1(ndof), ma, cv0, cv1;
  for (std::size_t k = 0; k < ndof; ++k) {
    const auto [v, a] = newmark(k, from.x[k], trial.x[k], dtau);
    v1[k] = v;
    a1[k] = a;
  }
  dyn_mass.apply(a1, ma);
  dyn_mass.apply_damping(vel, cv0);
  dyn_mass.apply_damping(v1, cv1);
  f.resize(ndof);
  scale.resize(ndof);
  for (std::size_t k = 0; k < ndof; ++k) {
    // HHT weighs the damping force C v like the internal force: (1 + alpha) at the end,
    // -alpha at the start.
    f[k] = (ma[k] + hht_alpha * (from.f_ext[k] - from.f_int[k] - cv0[k])) / (1 + hht_alpha) + cv1[k];
    scale[k] = std::max({std::fabs(m_dyn[k] * a1[k]), std::fabs(cv1[k]), m_dyn[k] * std::fabs(v1[k]) / dtau});
  }
}

void StaticProblem::initial_acceleration(const NewtonIterate& s) {
  std::vector<double> cv;
  dyn_mass.apply_damping(vel, cv);
  std::vector<double> f(ndof);
  for (std::size_t k = 0; k < ndof; ++k) f[k] = s.f_ext[k] - s.f_int[k] - cv[k];
  if (!dyn_mass.consistent()) {
    // Per equation, as the out-of-balance force gathers there (T^T f: a rigid body's shared
    // translations sum their slaves' forces and masses), and back onto the dofs (T a: a
    // *TIE or *EQUATION dependent, a *TRANSFORM node's global dofs, from their terms); a
    // massless or held dof stays at zero.
    const std::size_t ne = static_cast<std::size_t>(neq);
    std::vector<double> fe(ne), a(ne);
    gather_equations(f, fe.data());
    const std::vector<double> m = equation_diagonal(m_dyn);
    for (std::size_t i = 0; i < ne; ++i) a[i] = m[i] > 0 ? fe[i] / m[i] : 0.0;
    expand_equations(a.data(), acc);
    return;
  }
  expand_equations(consistent_acceleration(*this, f).data(), acc);
}

void StaticProblem::accept_motion(const NewtonIterate& from, const NewtonIterate& to, double dtau) {
  for (std::size_t k = 0; k < ndof; ++k) {
    const Motion m = newmark(k, from.x[k], to.x[k], dtau);
    vel[k] = m.v;
    acc[k] = m.a;
  }
}

double StaticProblem::kinetic_energy() const {
  std::vector<double> mv;
  dyn_mass.apply(vel, mv);
  double e = 0;
  for (std::size_t k = 0; k < vel.size(); ++k) e += 0.5 * vel[k] * mv[k];
  return e;
}

}  // namespace halfstep
