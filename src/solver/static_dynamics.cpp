// Implicit dynamics (*DYNAMIC without EXPLICIT) on the static step's Newton iterations: the
// Hilber-Hughes-Taylor method with the explicit scheme's lumped mass (docs/theory.md,
// "Implicit dynamics").
#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "discretization/rotary_inertia.hpp"
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

void StaticProblem::init_dynamics() {
  dynamic = step.dynamic.has_value();
  if (!dynamic) return;
  check_dynamic_step(step, sys);
  hht_alpha = step.dynamic->alpha;
  hht_beta = 0.25 * (1 - hht_alpha) * (1 - hht_alpha);
  hht_gamma = 0.5 - hht_alpha;
  m_dyn.assign(ndof, 0.0);
  c_dyn.assign(ndof, 0.0);
  vel.assign(ndof, 0.0);
  acc.assign(ndof, 0.0);
  // The motion the run is in: an earlier explicit or dynamic step's velocities go on.
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t d = 0; d < 3; ++d) {
      m_dyn[q * n + d] = sys.mass[n];
      c_dyn[q * n + d] = sys.damp.empty() ? 0.0 : sys.damp[n];  // *DAMPING, ALPHA: c = alpha m
      vel[q * n + d] = st.v[d].empty() ? 0.0 : st.v[d][n];
    }
  if (q < 5) return;
  // MITC4 nodes' spins about their triad (the explicit layout of v[3], v[4] too): the
  // physical rotary inertia, damped with the translations' alpha.
  const std::vector<double> rot = node_spin_inertia(model, sys);
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t r = 3; r < 5; ++r) {
      m_dyn[q * n + r] = rot[n];
      c_dyn[q * n + r] = !sys.damp.empty() && sys.mass[n] > 0 ? sys.damp[n] / sys.mass[n] * rot[n] : 0.0;
      vel[q * n + r] = st.v[r].empty() ? 0.0 : st.v[r][n];
    }
}

StaticProblem::Motion StaticProblem::newmark(std::size_t k, double x0, double x1, double dtau) const {
  const double h2 = dtau * dtau;
  const double a1 = (x1 - x0 - dtau * vel[k] - h2 * (0.5 - hht_beta) * acc[k]) / (hht_beta * h2);
  return {vel[k] + dtau * ((1 - hht_gamma) * acc[k] + hht_gamma * a1), a1};
}

double StaticProblem::inertia(std::size_t k, const NewtonIterate& from, const NewtonIterate& trial, double dtau) const {
  const auto [v1, a1] = newmark(k, from.x[k], trial.x[k], dtau);
  // HHT weighs the damping force c v like the internal force: (1 + alpha) at the end, -alpha
  // at the start.
  return (m_dyn[k] * a1 + hht_alpha * (from.f_ext[k] - from.f_int[k] - c_dyn[k] * vel[k])) / (1 + hht_alpha) +
         c_dyn[k] * v1;
}

double StaticProblem::motion_force_scale(std::size_t k, const NewtonIterate& from, const NewtonIterate& trial,
                                         double dtau) const {
  const auto [v1, a1] = newmark(k, from.x[k], trial.x[k], dtau);
  return std::max({std::fabs(m_dyn[k] * a1), std::fabs(c_dyn[k] * v1), m_dyn[k] * std::fabs(v1) / dtau});
}

void StaticProblem::initial_acceleration(const NewtonIterate& s) {
  // Per equation, as the out-of-balance force gathers there (a rigid body's shared
  // translations sum their slaves' masses); a massless or held dof stays at zero.
  std::vector<double> f(static_cast<std::size_t>(neq), 0.0), m(static_cast<std::size_t>(neq), 0.0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) {
      f[static_cast<std::size_t>(equation[k])] += s.f_ext[k] - s.f_int[k] - c_dyn[k] * vel[k];
      m[static_cast<std::size_t>(equation[k])] += m_dyn[k];
    }
  for (std::size_t k = 0; k < ndof; ++k) {
    const int e = equation[k];
    acc[k] = e >= 0 && m[static_cast<std::size_t>(e)] > 0 ? f[static_cast<std::size_t>(e)] / m[static_cast<std::size_t>(e)] : 0.0;
  }
}

void StaticProblem::accept_motion(const NewtonIterate& from, const NewtonIterate& to, double dtau) {
  for (std::size_t k = 0; k < ndof; ++k) {
    const Motion m = newmark(k, from.x[k], to.x[k], dtau);
    vel[k] = m.v;
    acc[k] = m.a;
  }
}

double StaticProblem::kinetic_energy() const {
  double e = 0;
  for (std::size_t k = 0; k < vel.size(); ++k) e += 0.5 * m_dyn[k] * vel[k] * vel[k];
  return e;
}

}  // namespace halfstep
