// A static step's rigid bodies (solver-internal, StaticProblem's): the reference node's
// rotation, given by the step or solved for (a *STATIC step's free components), and the slaves
// that follow it exactly; the turning bodies' weights, geometric stiffness and moments.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "elements/rotation.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

bool turns_bodies(const Step& step) {
  return step.procedure == Procedure::Static && !step.dynamic && !(step.modal && step.modal->steady_state);
}

void check_static_body_rotations(const Model& model, const Step& step, const StructureSystem& sys,
                                 const StepLoads& loads) {
  // A *STATIC step solves for a free rotation (StaticProblem::body_eq).
  if (turns_bodies(step)) return;
  const RigidBodies& bodies = sys.bodies;
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const int rn = bodies.ref_node[static_cast<std::size_t>(b)];
    const std::uint8_t need = sys.solid.planar ? 0x4 : 0x7;
    if ((loads.fixed_rotation[static_cast<std::size_t>(rn)] & need) != need)
      throw InputError(bodies.loc[static_cast<std::size_t>(b)],
                       "step '" + step.name + "': the rotation of reference node " +
                           std::to_string(model.nodes.id[static_cast<std::size_t>(rn)]) +
                           " must be prescribed or held by *BOUNDARY (" +
                           (sys.solid.planar ? "dof 6 in a planar model" : "dofs 4 to 6") +
                           "): implicit dynamic and steady-state dynamics steps move a rigid body by its reference "
                           "node's given rotation (*STATIC, *FREQUENCY and *MODAL DYNAMIC steps turn a free one)");
  }
}

/// Checks each rigid body's reference node (its rotation given or, in a *STATIC step, solved
/// for; a planar model's turns about z only), marks its translations, links its slaves for the
/// rigid-motion check and counts them as held where their reference node is.
void StaticProblem::check_bodies(std::vector<char>& held_check, std::vector<std::pair<int, int>>& body_links) {
  check_static_body_rotations(model, step, sys, loads);
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const int rn = bodies.ref_node[static_cast<std::size_t>(b)];
    for (int d = 0; d < body_dirs; ++d) ref_dof[q * static_cast<std::size_t>(rn) + static_cast<std::size_t>(d)] = 1;
    for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
      const int sn = bodies.slave_node[static_cast<std::size_t>(i)];
      if (i > bodies.slave_ptr[static_cast<std::size_t>(b)])
        body_links.emplace_back(sn, bodies.slave_node[static_cast<std::size_t>(bodies.slave_ptr[static_cast<std::size_t>(b)])]);
      for (int d = 0; d < body_dirs; ++d)
        if (held[q * static_cast<std::size_t>(rn) + static_cast<std::size_t>(d)])
          held_check[q * static_cast<std::size_t>(sn) + static_cast<std::size_t>(d)] = 1;
    }
  }
  for (int rn : bodies.ref_node)
    if (sys.solid.planar && loads.fixed_rotation[static_cast<std::size_t>(rn)] & 0x3)
      for (std::size_t i = 0; i < loads.rotation_node.size(); ++i)
        if (loads.rotation_node[i] == rn && loads.rotation_dof[i] < 2)
          throw InputError(step.loc, "static step '" + step.name + "': reference node " +
                                         std::to_string(model.nodes.id[static_cast<std::size_t>(rn)]) +
                                         " of a planar model turns about z only (dof 6); dofs 4 and 5 can only be held");
}
Vec3<double> StaticProblem::body_rotation_at(int b, double tau) const {
  const double r = period > 0 ? std::min(1.0, std::max(0.0, tau / period)) : 1.0;
  const Vec3<double> s0 = body_start_[static_cast<std::size_t>(b)];
  double th[3] = {s0.x * (1.0 - r), s0.y * (1.0 - r), s0.z * (1.0 - r)};
  const int rn = bodies.ref_node[static_cast<std::size_t>(b)];
  for (std::size_t i = 0; i < loads.rotation_node.size(); ++i) {
    if (loads.rotation_node[i] != rn) continue;
    const int a = loads.rotation_dof[i], slot = loads.rotation_amp[i];
    const double start = a == 0 ? s0.x : a == 1 ? s0.y : s0.z, value = loads.rotation_value[i];
    th[a] = slot == 1 ? start + (value - start) * r : value * amplitude_slot(dv, slot, tau);
  }
  return Vec3<double>{th[0], th[1], th[2]};
}

Vec3<double> StaticProblem::body_theta(int b, const std::vector<double>& xs) const {
  const std::size_t i = ndof + 3 * static_cast<std::size_t>(b);
  return (1.0 / model_size) * Vec3<double>{xs[i], xs[i + 1], xs[i + 2]};
}

namespace {

/// J(theta) e: the spin that a change e of the rotation vector theta makes (the exponential
/// map's left Jacobian; d(R d) = (J dtheta) x R d).
Vec3<double> spin_of(const Vec3<double>& theta, const Vec3<double>& e) {
  const double a2 = dot(theta, theta);
  double c1, c2;  // (1 - cos a) / a^2, (a - sin a) / a^3
  if (a2 < 1e-8) {
    c1 = 0.5 - a2 / 24;
    c2 = 1.0 / 6 - a2 / 120;
  } else {
    const double a = std::sqrt(a2);
    c1 = (1 - std::cos(a)) / a2;
    c2 = (a - std::sin(a)) / (a2 * a);
  }
  const Vec3<double> te = cross(theta, e);
  return e + c1 * te + c2 * cross(theta, te);
}

}  // namespace

void StaticProblem::turn_weights(const std::vector<double>& xs) {
  if (turn_terms_.empty()) return;
  // Per body: its rotation and the spins of unit changes of its components (reused by its slaves).
  std::vector<Mat3<double>> R(static_cast<std::size_t>(bodies.num_bodies));
  std::vector<Vec3<double>> w(3 * static_cast<std::size_t>(bodies.num_bodies));
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const Vec3<double> th = body_theta(b, xs);
    R[static_cast<std::size_t>(b)] = rotation_matrix(th);
    for (int j = 0; j < 3; ++j) {
      const Vec3<double> e{j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0, j == 2 ? 1.0 : 0.0};
      w[3 * static_cast<std::size_t>(b) + static_cast<std::size_t>(j)] = step.nlgeom ? spin_of(th, e) : e;
    }
  }
  for (const TurnTerm& t : turn_terms_) {
    const auto i = static_cast<std::size_t>(t.slave);
    Vec3<double> arm{bodies.offset[3 * i], bodies.offset[3 * i + 1], bodies.offset[3 * i + 2]};
    if (step.nlgeom) arm = R[static_cast<std::size_t>(t.body)] * arm;
    const Vec3<double> g = cross(w[3 * static_cast<std::size_t>(t.body) + static_cast<std::size_t>(t.comp)], arm);
    const double gv[3] = {g.x, g.y, g.z};
    combined.term_weight[static_cast<std::size_t>(t.term)] = gv[t.dir] / model_size;
  }
}

void StaticProblem::add_body_blocks(const NewtonIterate& s) {
  body_blocks_.clear();
  if (contact) {
    const CouplingBlocks& c = contact->blocks();
    body_blocks_.ptr = c.ptr;
    body_blocks_.dofs = c.dofs;
    body_blocks_.vptr = c.vptr;
    body_blocks_.values = c.values;
  }
  if (s.f_int.size() != ndof || s.f_ext.size() != ndof) return;  // no forces yet (balance() gives them)
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const int* beq = &body_eq[3 * static_cast<std::size_t>(b)];
    int dofs[3], n = 0, comp[3];
    for (int j = 0; j < 3; ++j)
      if (beq[j] >= 0) {
        comp[n] = j;
        dofs[n++] = static_cast<int>(ndof) + beq[j];  // the equation itself (CouplingBlocks)
      }
    if (n == 0) continue;
    const Vec3<double> th = body_theta(b, s.x);
    const Mat3<double> R = rotation_matrix(th);
    // H = sum_s [r_s]x [a_s]x = sum_s (a_s r_s^T - (a_s . r_s) I).
    double H[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
      const auto si = static_cast<std::size_t>(i);
      const std::size_t sn = static_cast<std::size_t>(bodies.slave_node[si]);
      const Vec3<double> a = R * Vec3<double>{bodies.offset[3 * si], bodies.offset[3 * si + 1], bodies.offset[3 * si + 2]};
      const double av[3] = {a.x, a.y, a.z};
      double rv[3];
      for (std::size_t c = 0; c < 3; ++c) rv[c] = s.f_ext[q * sn + c] - s.f_int[q * sn + c];
      const double ar = av[0] * rv[0] + av[1] * rv[1] + av[2] * rv[2];
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) H[r][c] += av[r] * rv[c] - (r == c ? ar : 0.0);
    }
    // J^T H J on the free components, symmetrized, as a stiffness (K = -dr/dpsi).
    Vec3<double> w[3];
    for (int j = 0; j < 3; ++j) w[j] = spin_of(th, Vec3<double>{j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0, j == 2 ? 1.0 : 0.0});
    const auto hw = [&](const Vec3<double>& x, const Vec3<double>& y) {
      const double xv[3] = {x.x, x.y, x.z}, yv[3] = {y.x, y.y, y.z};
      double v = 0;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) v += xv[r] * H[r][c] * yv[c];
      return v;
    };
    double* k = body_blocks_.add(dofs, n);
    const double scale = 1.0 / (model_size * model_size);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        k[r * n + c] = -0.5 * (hw(w[comp[r]], w[comp[c]]) + hw(w[comp[c]], w[comp[r]])) * scale;
  }
}

void StaticProblem::body_moments(double tau, const std::vector<double>& xs, std::vector<std::pair<int, double>>& out) const {
  out.clear();
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const int* beq = &body_eq[3 * static_cast<std::size_t>(b)];
    const int sp = dv.special[static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)])];
    if ((beq[0] < 0 && beq[1] < 0 && beq[2] < 0) || sp < 0) continue;
    const NodeDriveValues<double> v = evaluate_node_drive<double>(dv, sp, tau, 0.0);
    const Vec3<double> m{v.load[3], v.load[4], v.load[5]};
    const Vec3<double> th = body_theta(b, xs);
    for (int j = 0; j < 3; ++j) {
      if (beq[j] < 0) continue;
      const Vec3<double> e{j == 0 ? 1.0 : 0.0, j == 1 ? 1.0 : 0.0, j == 2 ? 1.0 : 0.0};
      out.emplace_back(beq[j], dot(m, step.nlgeom ? spin_of(th, e) : e) / model_size);
    }
  }
}

void StaticProblem::place_slaves(std::vector<double>& xs) const {
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const Vec3<double> th = body_theta(b, xs);
    const Mat3<double> Rb = rotation_matrix(th);
    const std::size_t rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
    for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
      const std::size_t sn = static_cast<std::size_t>(bodies.slave_node[static_cast<std::size_t>(i)]);
      const Vec3<double> d{bodies.offset[3 * static_cast<std::size_t>(i)], bodies.offset[3 * static_cast<std::size_t>(i) + 1],
                           bodies.offset[3 * static_cast<std::size_t>(i) + 2]};
      const Vec3<double> g = step.nlgeom ? Rb * d - d : cross(th, d);
      const double gv[3] = {g.x, g.y, g.z};
      for (int k = 0; k < body_dirs; ++k) xs[q * sn + static_cast<std::size_t>(k)] = xs[q * rn + static_cast<std::size_t>(k)] + gv[k];
    }
  }
}
}  // namespace halfstep
