#include "solver/static_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "assembly/csr_assembly.hpp"
#include "discretization/continuum_pass.hpp"
#include "discretization/nodal_triads.hpp"
#include "discretization/structure_operator.hpp"
#include "dynamics/output_times.hpp"
#include "dynamics/step_drive.hpp"
#include "elements/registry.hpp"
#include "elements/rotation.hpp"
#include "solver/interrupt.hpp"

namespace halfstep {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Abaqus/Standard's default controls (the *CONTROLS, PARAMETERS=FIELD and TIME INCREMENTATION
// defaults): residual tolerance R_n, correction tolerance C_n, the residual below which an
// increment counts as linear, iterations before a diverging residual cuts back, the most
// iterations of one attempt, the cut-back and growth factors, and the iteration count below
// which two increments in a row let the increment grow.
constexpr double kResidualTol = 5e-3;
constexpr double kCorrectionTol = 1e-2;
constexpr double kLinearTol = 1e-8;
constexpr int kMaxIterations = 16;
constexpr double kCutBack = 0.25;
constexpr double kGrowth = 1.5;
constexpr int kEasyIterations = 4;

/// "node 12 dof 2" for messages (dof: index in a layout of ndn dofs per node; the two
/// rotation dofs of a shell node are its spins about the nodal triad).
std::string dof_name(const Model& model, int dof, int ndn) {
  const int c = dof % ndn;
  return "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(dof / ndn)]) +
         (c < 3 ? " dof " + std::to_string(c + 1) : std::string(c == 3 ? " rotation about t1" : " rotation about t2"));
}

/// A rigid-body check before any factorization: every connected part of the mesh must be held
/// in every active direction somewhere, or its stiffness is singular (a free part would only be
/// caught by the factorization, with a less useful message, or not at all by a Krylov solver).
void check_rigid_motion(const Model& model, const Step& step, const StructureSystem& sys, int ndn,
                        const std::vector<char>& active, const std::vector<char>& held,
                        const std::vector<std::pair<int, int>>& links) {
  const SolidMesh& sm = sys.solid;
  std::vector<int> parent(static_cast<std::size_t>(sys.num_nodes));
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (int e = 0; e < sm.num_elements; ++e) {
    const int n = sm.groups[static_cast<std::size_t>(sm.group_of(e))].nodes_per_element;
    const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
    for (int a = 1; a < n; ++a) parent[find(c[a])] = find(c[0]);
  }
  for (int e = 0; e < sys.num_elements; ++e) {
    const int* c = &sys.conn[4 * static_cast<std::size_t>(e)];
    for (int a = 1; a < 4; ++a) parent[find(c[a])] = find(c[0]);
  }
  for (const auto& [a, b] : links) parent[find(a)] = find(b);  // nodes of one rigid body
  const int dirs = sm.planar ? 2 : 3;
  // An axisymmetric part's radial motion strains its hoops: only z (direction 2) is rigid.
  bool axisymmetric = false;
  for (const SolidGroup& g : sm.groups) axisymmetric = axisymmetric || element_kind(g.kind).axisymmetric;
  std::vector<unsigned char> held_dirs(parent.size(), 0), present(parent.size(), 0);
  for (int n = 0; n < sys.num_nodes; ++n) {
    if (!active[static_cast<std::size_t>(ndn) * n]) continue;
    const int r = find(n);
    present[r] = 1;
    for (int d = 0; d < dirs; ++d)
      if (held[static_cast<std::size_t>(ndn) * n + d]) held_dirs[r] |= static_cast<unsigned char>(1u << d);
  }
  // A spring to ground (SPRING1) holds its part in its dof's direction.
  for (const SolidGroup& g : sm.groups) {
    if (element_kind(g.kind).discrete != 1 || g.nodes_per_element != 1) continue;
    for (int e = g.first; e < g.first + g.count; ++e) {
      const SolidMaterial<double>& m = sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])];
      if (m.discrete > 0 || m.hardening_points > 1)
        held_dirs[find(sm.conn[static_cast<std::size_t>(sm.conn_start(e))])] |= static_cast<unsigned char>(1u << m.dof1);
    }
  }
  // An adhesion edge ties its part to the rigid substrate along the substrate's normal.
  for (const SolidGroup& g : sm.groups) {
    if (!element_kind(g.kind).adhesion) continue;
    for (int e = g.first; e < g.first + g.count; ++e) {
      const AdhesionConstants& c = sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])].adhesion;
      for (int d = 0; d < dirs; ++d)
        if (std::fabs(c.normal[d]) > 1e-12)
          held_dirs[find(sm.conn[static_cast<std::size_t>(sm.conn_start(e))])] |= static_cast<unsigned char>(1u << d);
    }
  }
  for (int r = 0; r < sys.num_nodes; ++r) {
    if (!present[r] || find(r) != r) continue;
    for (int d = 0; d < dirs; ++d) {
      if ((held_dirs[r] & (1u << d)) || (axisymmetric && d == 0)) continue;
      std::string nodes;
      int count = 0;
      for (int n = 0; n < sys.num_nodes; ++n)
        if (active[static_cast<std::size_t>(ndn) * n] && find(n) == r) {
          if (count < 8) nodes += (count ? ", " : "") + std::to_string(model.nodes.id[static_cast<std::size_t>(n)]);
          ++count;
        }
      if (count > 8) nodes += ", ... (" + std::to_string(count) + " nodes)";
      throw InputError(step.loc, "singular stiffness: unconstrained dofs at nodes " + nodes + ": no *BOUNDARY in step '" +
                                     step.name + "' holds this part of the mesh in direction " +
                                     std::to_string(d + 1) + ", so it can move as a rigid body");
    }
  }
}

/// Largest |x_i| over the translation (rot = false) or rotation (rot = true) equations.
double max_abs(const std::vector<double>& x, const std::vector<char>& is_rotation, bool rot) {
  double m = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if ((is_rotation[i] != 0) == rot) {
      // std::max would drop a NaN (every comparison with it is false) and call it converged.
      if (!std::isfinite(x[i])) return std::fabs(x[i]);
      m = std::max(m, std::fabs(x[i]));
    }
  return m;
}

/// The first entry of x that is not finite, or -1.
std::ptrdiff_t first_non_finite(const std::vector<double>& x) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

}  // namespace

void run_static_step(const Model& model, const Step& step, const StructureSystem& sys, const StepLoads& loads,
                     StructureState& st, const StaticStepOptions& opt, StaticSummary& summary) {
  const Clock::time_point t_step = Clock::now();
  if (sys.total_elements() == 0) throw InputError(step.loc, "static step '" + step.name + "': the model has no elements");
  for (std::uint8_t v : loads.motion_velocity)
    if (v) throw InputError(step.loc, "static step '" + step.name + "': *BOUNDARY, TYPE=VELOCITY is for dynamic steps");

  // Held global rotation axes become held triad spins (the explicit steps' rule).
  const std::vector<std::uint8_t> held_rot =
      sys.num_elements > 0 ? align_triads(sys, loads.fixed_rotation, st)
                           : std::vector<std::uint8_t>(static_cast<std::size_t>(sys.num_nodes), 0);
  const StepDrive drive = build_step_drive(sys, loads, held_rot);
  const DriveView dv = host_view(drive);
  const StructureOperator op(sys, opt.tangent.threads);
  const int ndn = op.dofs_per_node();
  const std::size_t ndof = static_cast<std::size_t>(op.num_dofs()), nn = static_cast<std::size_t>(sys.num_nodes);
  const std::size_t q = static_cast<std::size_t>(ndn);
  const std::vector<char> active = op.active_dofs();
  std::vector<char> held(ndof, 0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < ndn; ++c)
      if (drive.held[n] & (1u << c)) held[q * n + static_cast<std::size_t>(c)] = 1;
  const double st_time0 = st.time;  // the step's start (rigid-body rotations are in step time)
  // Rigid bodies (*RIGID BODY, kinematic *COUPLING): the reference node's rotation is given
  // by the step, its translations are unknowns shared by the slaves, u_s = u_r + (R - I) d_s.
  const RigidBodies& bodies = sys.bodies;
  const int body_dirs = sys.solid.planar ? 2 : 3;
  std::vector<char> ref_dof(ndof, 0);  // a reference node's translation (no element of its own)
  std::vector<std::pair<int, int>> body_links;
  std::vector<char> held_check = held;  // slaves count as held where their reference node is
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const int rn = bodies.ref_node[static_cast<std::size_t>(b)];
    const std::uint8_t need = sys.solid.planar ? 0x4 : 0x7;
    if ((loads.fixed_rotation[static_cast<std::size_t>(rn)] & need) != need)
      throw InputError(bodies.loc[static_cast<std::size_t>(b)],
                       "static step '" + step.name + "': the rotation of reference node " +
                           std::to_string(model.nodes.id[static_cast<std::size_t>(rn)]) +
                           " must be prescribed or held by *BOUNDARY (" +
                           (sys.solid.planar ? "dof 6 in a planar model" : "dofs 4 to 6") +
                           "): static steps move a rigid body by its reference node's given rotation");
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
  check_rigid_motion(model, step, sys, ndn, active, held_check, body_links);
  // A linear step solves once about the reference: a nonlinear spring would keep its slope
  // at zero there, so its table needs NLGEOM=YES (Newton on the full forces).
  if (!step.nlgeom)
    for (std::size_t i = 0; i < model.discrete_sections.size(); ++i)
      if (!model.discrete_sections[i].table_disp.empty())
        throw InputError(step.loc, "step '" + step.name + "' is linear (no NLGEOM=YES), and the *SPRING, NONLINEAR at " +
                                       model.discrete_sections[i].loc.str() +
                                       " needs Newton iterations to follow its table: use *STEP, NLGEOM=YES");
  // The same for adhesion: its law is nonlinear in the gap, which K(ref) x would linearize.
  if (!step.nlgeom && !model.adhesions.empty())
    throw InputError(step.loc, "step '" + step.name + "' is linear (no NLGEOM=YES), and the *ADHESION at " +
                                   model.adhesions.front().loc.str() +
                                   " follows its nonlinear law only under Newton iterations: use *STEP, NLGEOM=YES");
  int neq = 0;
  // Slaves of rigid bodies have no equations of their own: they take their reference node's
  // (free translations) or none (prescribed ones), appended after the element dofs'.
  std::vector<char> numbered_held = held, slave_dof(ndof, 0);
  for (int sn : bodies.slave_node)
    for (int d = 0; d < 3; ++d) numbered_held[q * static_cast<std::size_t>(sn) + static_cast<std::size_t>(d)] =
        slave_dof[q * static_cast<std::size_t>(sn) + static_cast<std::size_t>(d)] = 1;
  std::vector<int> equation = number_equations(op, numbered_held, &neq);
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const std::size_t rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
    for (int d = 0; d < body_dirs; ++d) {
      // A reference node of the mesh keeps the equation it has; one of its own gets a new one.
      const int own = equation[q * rn + static_cast<std::size_t>(d)];
      const int eq = held[q * rn + static_cast<std::size_t>(d)] ? -1 : own >= 0 ? own : neq++;
      equation[q * rn + static_cast<std::size_t>(d)] = eq;
      for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i)
        equation[q * static_cast<std::size_t>(bodies.slave_node[static_cast<std::size_t>(i)]) + static_cast<std::size_t>(d)] = eq;
    }
  }
  std::vector<int> dof_of(static_cast<std::size_t>(neq));
  std::vector<char> eq_rotation(static_cast<std::size_t>(neq), 0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0 && !slave_dof[k]) {  // a shared equation's dof is its reference node's
      dof_of[static_cast<std::size_t>(equation[k])] = static_cast<int>(k);
      eq_rotation[static_cast<std::size_t>(equation[k])] = k % q >= 3;
    }

  std::unique_ptr<TangentEngine> engine = make_tangent_engine(opt.backend, op, equation, neq, opt.tangent, opt.progress);
  // *STATIC, STABILIZE: lumped masses of unit density on the continuum elements' translations
  // (an even split of each element's volume), for the viscous forces c m* du / dtau.
  const bool stabilize = step.controls.stabilize && step.nlgeom;
  std::vector<double> mstar(stabilize ? ndof : 0, 0.0);
  double c_stab = step.controls.stabilize_factor;
  if (stabilize) {
    const SolidMesh& sm = sys.solid;
    const int dims = sm.planar ? 2 : 3;
    for (const SolidGroup& g : sm.groups) {
      const ElementKindInfo& info = element_kind(g.kind);
      if (info.discrete || info.adhesion) continue;
      for (int e = g.first; e < g.first + g.count; ++e) {
        const double share = sm.volume[static_cast<std::size_t>(e)] / g.nodes_per_element;
        const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
        for (int a = 0; a < g.nodes_per_element; ++a)
          for (int d = 0; d < dims; ++d) mstar[q * static_cast<std::size_t>(c[a]) + static_cast<std::size_t>(d)] += share;
      }
    }
  }
  summary.setup_seconds += seconds_since(t_step);
  if (opt.progress)
    std::fprintf(stderr, "halfstep: static step '%s' (%s, %d equations): %s\n", step.name.c_str(),
                 step.nlgeom ? "NLGEOM=YES" : "NLGEOM=NO", neq, engine->description().c_str());

  // The unknowns x (ndn per node): translations are total displacements; rotation entries are
  // spins about the triad. A geometrically linear step keeps total rotations on the reference
  // configuration's triads (ref: zero displacement, reference directors, t1 pulled back), so
  // x there is linear in the loads. Under NLGEOM the configuration is turned by each
  // correction (exponential map) and the rotation entries of x only sum the spins of the step,
  // for the correction check and the work.
  const bool shells = sys.num_elements > 0;
  // Diagonal of the bounding box of the used nodes (converts moments to forces in the
  // convergence checks).
  double model_size = 0;
  {
    Vec3<double> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (int n = 0; n < sys.num_nodes; ++n)
      if (sys.node_used(n)) {
        const Vec3<double> p{sys.x0[n], sys.y0[n], sys.z0[n]};
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
      }
    model_size = hi.x >= lo.x ? norm(hi - lo) : 1.0;
    if (!(model_size > 0)) model_size = 1.0;
  }
  // A model without shells has no rotations to carry (the state keeps directors anyway).
  Configuration cfg = Configuration::of(st, shells), ref;
  std::vector<double> x(ndof, 0.0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < 3; ++c) x[q * n + c] = cfg.u[3 * n + c];
  ref.u.assign(3 * nn, 0.0);
  if (shells) {
    ref.d.resize(3 * nn);
    ref.t1.resize(3 * nn);
    for (std::size_t n = 0; n < nn; ++n) {
      const int i = static_cast<int>(n);
      const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]}, r1{st.r1x[n], st.r1y[n], st.r1z[n]};
      Configuration::set(ref.d, i, d0);
      Configuration::set(ref.t1, i, r1);
      if (!step.nlgeom && sys.has_rotations(i)) {
        const Vec3<double> d = Configuration::at(cfg.d, i), t1 = Configuration::at(cfg.t1, i);
        const Vec3<double> theta = rotation_vector(r1, cross(d0, r1), d0, t1, cross(d, t1), d);
        x[q * n + 3] = dot(theta, r1);
        x[q * n + 4] = dot(theta, cross(d0, r1));
      }
    }
  }
  const std::vector<double> x_start = x;
  const double period = loads.period;

  // The configuration of a linear step's unknowns: displacements, and the reference triads
  // turned by the total rotation.
  const auto linear_configuration = [&](const std::vector<double>& xs, Configuration& c) {
    for (std::size_t n = 0; n < nn; ++n)
      for (int k = 0; k < 3; ++k) c.u[3 * n + k] = xs[q * n + k];
    if (!shells) return;
    for (std::size_t n = 0; n < nn; ++n) {
      const int i = static_cast<int>(n);
      if (!sys.has_rotations(i)) continue;
      const Vec3<double> d0 = Configuration::at(ref.d, i), r1 = Configuration::at(ref.t1, i);
      const Vec3<double> theta = xs[q * n + 3] * r1 + xs[q * n + 4] * cross(d0, r1);
      Configuration::set(c.d, i, normalized(rotate(theta, d0)));
      Configuration::set(c.t1, i, normalized(rotate(theta, r1)));
    }
  };

  // Generalized internal forces at the unknowns xs / configuration c: geometrically linear
  // steps use K(ref) xs.
  const auto internal = [&](const std::vector<double>& xs, const Configuration& c, std::vector<double>& f) {
    if (step.nlgeom) return engine->internal_force(c, f);
    if (std::all_of(xs.begin(), xs.end(), [](double v) { return v == 0.0; })) {
      f.assign(ndof, 0.0);  // K 0: the usual start of a linear step, free
      return 0.0;
    }
    return engine->linearized_force(ref, xs, f);
  };

  // External generalized forces at step time tau on configuration c (face and shell
  // pressures follow the surface and moments are projected on the current triads under
  // NLGEOM; a geometrically linear step applies them on the reference configuration).
  std::vector<double> face(3 * kFaceMaxNodes * static_cast<std::size_t>(drive.num_faces));
  std::vector<double> face_ux(drive.num_faces > 0 ? nn : 0, 0.0), face_uy(face_ux),
      face_uz(face_ux);  // reused by every evaluation (zero under NLGEOM=NO)
  std::vector<double> shell_pressure(drive.has_pressure() ? 12 * static_cast<std::size_t>(sys.num_elements) : 0);
  const auto external = [&](double tau, const Configuration& c, std::vector<double>& f) {
    const Configuration& on = step.nlgeom ? c : (shells ? ref : c);
    f.assign(ndof, 0.0);
    for (std::size_t n = 0; n < nn; ++n) {
      const int sp = dv.special[n];
      if (sp < 0) continue;
      const NodeDriveValues<double> v = evaluate_node_drive<double>(dv, sp, tau, 0.0);
      for (int k = 0; k < 3; ++k) f[q * n + k] += v.load[k];
      if (ndn == 5 && sys.has_rotations(static_cast<int>(n))) {
        // A moment M does virtual work M . (alpha t1 + beta t2): its generalized components.
        const Vec3<double> m{v.load[3], v.load[4], v.load[5]};
        const Vec3<double> t1 = Configuration::at(on.t1, static_cast<int>(n)), d = Configuration::at(on.d, static_cast<int>(n));
        f[q * n + 3] += dot(m, t1);
        f[q * n + 4] += dot(m, cross(d, t1));
      }
    }
    if (drive.num_faces > 0) {
      if (step.nlgeom)
        for (std::size_t n = 0; n < nn; ++n) {
          face_ux[n] = c.u[3 * n];
          face_uy[n] = c.u[3 * n + 1];
          face_uz[n] = c.u[3 * n + 2];
        }
      for (int k = 0; k < drive.num_faces; ++k)
        evaluate_face_force(dv, k, tau, sys.x0.data(), sys.y0.data(), sys.z0.data(), face_ux.data(), face_uy.data(),
                            face_uz.data(), face.data() + 3 * kFaceMaxNodes * static_cast<std::size_t>(k));
      for (std::size_t n = 0; n < nn; ++n) {
        double g[3] = {0, 0, 0};
        gather_face_forces(dv, face.data(), static_cast<int>(n), g);
        for (int k = 0; k < 3; ++k) f[q * n + k] += g[k];
      }
    }
    if (drive.has_pressure()) {
      for (int e = 0; e < sys.num_elements; ++e) {
        Vec3<double> xe[4];
        for (int a = 0; a < 4; ++a) {
          const int n = sys.conn[4 * static_cast<std::size_t>(e) + a];
          xe[a] = Vec3<double>{sys.x0[n], sys.y0[n], sys.z0[n]} + (step.nlgeom ? Configuration::at(c.u, n) : Vec3<double>{0, 0, 0});
        }
        evaluate_shell_pressure_force(dv, e, tau, xe, &shell_pressure[12 * static_cast<std::size_t>(e)]);
      }
      for (std::size_t n = 0; n < nn; ++n) {  // corners in slot order, as the explicit gather
        double g[3] = {0, 0, 0};
        add_slot_forces3(sys.node_slot_ptr.data(), sys.node_slots.data(), shell_pressure.data(), static_cast<int>(n), g);
        for (int k = 0; k < 3; ++k) f[q * n + k] += g[k];
      }
    }
  };

  // Prescribed values at step time tau: a ramp goes from the step-start displacement to the
  // value (Abaqus' RAMP in a static step); a named amplitude scales the value; a held dof with
  // no value ramps back to zero from wherever the previous step left it (a held rotation of a
  // NLGEOM step keeps its current orientation).
  // The rotation vector of body b at step time tau: a prescribed value (ramped from the
  // step's start, or scaled by its amplitude), or, held without a value, back to zero.
  std::vector<Vec3<double>> body_start(static_cast<std::size_t>(bodies.num_bodies));
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const double* R = &st.body_rotation[9 * static_cast<std::size_t>(b)];
    body_start[static_cast<std::size_t>(b)] =
        rotation_vector(Vec3<double>{1, 0, 0}, Vec3<double>{0, 1, 0}, Vec3<double>{0, 0, 1}, Vec3<double>{R[0], R[3], R[6]},
                        Vec3<double>{R[1], R[4], R[7]}, Vec3<double>{R[2], R[5], R[8]});
  }
  const auto body_rotation_at = [&](int b, double tau) {
    const double r = period > 0 ? std::min(1.0, std::max(0.0, tau / period)) : 1.0;
    const Vec3<double> s0 = body_start[static_cast<std::size_t>(b)];
    double th[3] = {s0.x * (1.0 - r), s0.y * (1.0 - r), s0.z * (1.0 - r)};
    const int rn = bodies.ref_node[static_cast<std::size_t>(b)];
    for (std::size_t i = 0; i < loads.rotation_node.size(); ++i) {
      if (loads.rotation_node[i] != rn) continue;
      const int a = loads.rotation_dof[i], slot = loads.rotation_amp[i];
      const double start = a == 0 ? s0.x : a == 1 ? s0.y : s0.z, value = loads.rotation_value[i];
      th[a] = slot == 1 ? start + (value - start) * r : value * amplitude_slot(dv, slot, tau);
    }
    return Vec3<double>{th[0], th[1], th[2]};
  };
  // Slaves at their reference node's translation plus the turned offset (the small-rotation
  // offset theta x d in a geometrically linear step).
  const auto place_slaves = [&](double tau, std::vector<double>& xs) {
    for (int b = 0; b < bodies.num_bodies; ++b) {
      const Vec3<double> th = body_rotation_at(b, tau);
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
  };
  const auto prescribe = [&](double tau, std::vector<double>& xs) {
    const double r = period > 0 ? std::min(1.0, std::max(0.0, tau / period)) : 1.0;
    for (std::size_t k = 0; k < ndof; ++k)
      if (held[k] && (active[k] || ref_dof[k])) xs[k] = (k % q >= 3 && step.nlgeom) ? x_start[k] : x_start[k] * (1.0 - r);
    for (std::size_t n = 0; n < nn; ++n) {
      const int sp = dv.special[n];
      if (sp < 0) continue;
      for (int i = dv.motion_ptr[sp]; i < dv.motion_ptr[sp + 1]; ++i) {
        const std::size_t k = q * n + static_cast<std::size_t>(dv.motion_dof[i]);
        const int slot = dv.motion_amp[i];
        xs[k] = slot == 1 ? x_start[k] + (dv.motion_value[i] - x_start[k]) * r
                          : dv.motion_value[i] * amplitude_slot(dv, slot, tau);
      }
    }
    place_slaves(tau, xs);
  };

  // Output: a frame per converged increment unless the step's requests space them out.
  double field_every = 0, history_every = 0;  // step time between frames; 0: every increment
  bool want_field = false, want_history = false;
  for (const OutputRequest& r : loads.outputs) {
    double every = 0;
    if (r.time_interval) every = *r.time_interval;
    else if (r.number_interval && *r.number_interval > 0) every = period / *r.number_interval;
    double& target = r.kind == OutputRequest::Kind::Field ? field_every : history_every;
    bool& want = r.kind == OutputRequest::Kind::Field ? want_field : want_history;
    target = want ? std::min(target, every) : every;
    want = true;
  }
  double next_field = field_every, next_history = history_every;
  const int step_number = static_cast<int>(&step - model.steps.data()) + 1;
  int increment = 0;
  // Printed tables: each request every `frequency` converged increments, all at the end.
  const bool print_cells = prints_need_cells(step.prints);
  std::vector<double> f_int(ndof), f_ext(ndof);
  double strain = internal(x, cfg, f_int);
  double work = 0;
  const auto emit = [&](double tau, bool last, bool initial) {
    if (!opt.emit) return;
    const Clock::time_point t_emit = Clock::now();
    const double eps = 1e-9 * period;
    const bool field = want_field && (initial || last || tau >= next_field - eps);
    const bool history = want_history && (initial || last || tau >= next_history - eps);
    next_field = next_output_time(next_field, field_every, tau, eps);
    next_history = next_output_time(next_history, history_every, tau, eps);
    auto frame = std::make_unique<OutputFrame>();
    frame->field = field;
    frame->history = history;
    frame->energy = true;
    frame->print = !initial && any_print_due(step.prints, increment, last);
    frame->print_cells = frame->print && print_cells;
    frame->step = step_number;
    frame->increment = increment;
    frame->step_end = last;
    // Element energies only for frames that write cells: a history-only frame (the peeling
    // strip's end moment every increment) paid a host pass over every element, 69 % of seed
    // mesh 6's GPU run (docs/performance.md).
    const bool cells = field || frame->print_cells;
    // A geometrically linear step's frame reports the small-strain quantities: its element
    // energies here (x . K(0) x / 2 per element), its stresses and strains in output_fields.
    frame->small_strain = !step.nlgeom;
    if (cells && sys.solid.num_elements > 0) {
      if (step.nlgeom) {
        std::vector<double> slot(3 * sys.solid.conn.size());
        continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st.ux.data(), st.uy.data(),
                       st.uz.data(), slot.data(), st.solid_energy.data(), st.solid_hourglass.data(), opt.tangent.threads);
      } else {
        std::vector<double> u(3 * nn);
        for (std::size_t n = 0; n < nn; ++n)
          for (int k = 0; k < 3; ++k) u[3 * n + static_cast<std::size_t>(k)] = x[q * n + static_cast<std::size_t>(k)];
        op.continuum().linearized_energies(u, st.solid_energy, st.solid_hourglass);
      }
    }
    if (cells && shells) {
      std::vector<double> forces;
      if (step.nlgeom)
        op.shells().element_forces(cfg, forces, &st.elem_energy);
      else
        op.shells().linearized_forces(ref, x, ndn, forces, &st.elem_energy);
    }
    copy_output_fields(st, frame->state, cells);
    frame->state.time = st.time;
    frame->full.resize(sys.num_nodes);
    for (std::size_t n = 0; n < nn; ++n) {
      for (int c = 0; c < 3; ++c) {
        const std::size_t k = q * n + c;
        if (held[k] && active[k]) frame->full.rf[c][n] = f_int[k] - f_ext[k];
      }
      if (ndn == 5 && sys.has_rotations(static_cast<int>(n))) {  // reaction moments, global
        const int i = static_cast<int>(n);
        const Configuration& on = step.nlgeom ? cfg : ref;
        const Vec3<double> t1 = Configuration::at(on.t1, i), t2 = cross(Configuration::at(on.d, i), t1);
        const double a = held[q * n + 3] ? f_int[q * n + 3] - f_ext[q * n + 3] : 0.0;
        const double b = held[q * n + 4] ? f_int[q * n + 4] - f_ext[q * n + 4] : 0.0;
        const Vec3<double> m = a * t1 + b * t2;
        frame->full.rf[3][n] = m.x;
        frame->full.rf[4][n] = m.y;
        frame->full.rf[5][n] = m.z;
      }
    }
    // A rigid body's reference node carries the body's reaction: the sum of its slaves'
    // forces and their moment about it (about the current position under NLGEOM).
    for (int b = 0; b < bodies.num_bodies; ++b) {
      const std::size_t rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
      Vec3<double> force{0, 0, 0}, moment{0, 0, 0};
      for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
        const std::size_t sn = static_cast<std::size_t>(bodies.slave_node[static_cast<std::size_t>(i)]);
        const Vec3<double> fs{f_int[q * sn] - f_ext[q * sn], f_int[q * sn + 1] - f_ext[q * sn + 1],
                              f_int[q * sn + 2] - f_ext[q * sn + 2]};
        Vec3<double> arm{bodies.offset[3 * static_cast<std::size_t>(i)], bodies.offset[3 * static_cast<std::size_t>(i) + 1],
                         bodies.offset[3 * static_cast<std::size_t>(i) + 2]};
        if (step.nlgeom) arm = arm + Vec3<double>{x[q * sn] - x[q * rn], x[q * sn + 1] - x[q * rn + 1], x[q * sn + 2] - x[q * rn + 2]};
        force = force + fs;
        moment = moment + cross(arm, fs);
      }
      const double fv[3] = {force.x, force.y, force.z}, mv[3] = {moment.x, moment.y, moment.z};
      for (int c = 0; c < 3; ++c) {
        if (held[q * rn + static_cast<std::size_t>(c)]) frame->full.rf[c][rn] = fv[c];
        frame->full.rf[3 + c][rn] = mv[c];
      }
    }
    frame->record.time = st.time;
    frame->record.internal = strain;
    frame->record.external_work = work;
    opt.emit(std::move(frame));
    summary.output_seconds += seconds_since(t_emit);
  };
  const auto store = [&](double time) {
    cfg.store(st);
    st.time = time;
    for (int b = 0; b < bodies.num_bodies; ++b) {
      const Mat3<double> Rb = rotation_matrix(body_rotation_at(b, time - st_time0));
      std::copy(Rb.a, Rb.a + 9, &st.body_rotation[9 * static_cast<std::size_t>(b)]);
    }
  };
  const double t_step0 = st.time;
  external(0.0, cfg, f_ext);
  if (opt.first_step) emit(0.0, false, true);
  for (auto& v : st.v) std::fill(v.begin(), v.end(), 0.0);
  st.half_dt_prev = 0;

  const StaticControls& ctl = step.controls;
  double tau = 0, dtau = std::min(ctl.initial, period);
  int easy_in_a_row = 0;
  bool cut_last = false, factored_linear = false, interrupted = false;
  // Time-averaged force and moment scales of the converged increments (Abaqus' q~, one per
  // field: forces and moments have different units).
  double q_time[2] = {0, 0};
  std::int64_t q_count[2] = {0, 0};
  std::vector<double> r(static_cast<std::size_t>(neq)), du(static_cast<std::size_t>(neq));
  std::vector<double> x_trial(ndof), f_trial(ndof), f_ext_trial(ndof);
  Configuration trial = cfg;

  // One Newton correction du (per equation) applied to the unknowns and the configuration.
  double tau_trial = 0;  // step time of the increment being tried
  const auto correct = [&]() {
    for (int i = 0; i < neq; ++i) x_trial[static_cast<std::size_t>(dof_of[static_cast<std::size_t>(i)])] += du[static_cast<std::size_t>(i)];
    place_slaves(tau_trial, x_trial);
    if (!step.nlgeom) {
      linear_configuration(x_trial, trial);
      return;
    }
    for (std::size_t n = 0; n < nn; ++n)
      for (int k = 0; k < 3; ++k) trial.u[3 * n + k] = x_trial[q * n + k];
    if (ndn < 5) return;
    for (std::size_t n = 0; n < nn; ++n) {
      const int i = static_cast<int>(n);
      const int e3 = equation[q * n + 3], e4 = equation[q * n + 4];
      if (e3 < 0 && e4 < 0) continue;
      const double a = e3 >= 0 ? du[static_cast<std::size_t>(e3)] : 0.0, b = e4 >= 0 ? du[static_cast<std::size_t>(e4)] : 0.0;
      const Vec3<double> d = Configuration::at(trial.d, i), t1 = Configuration::at(trial.t1, i);
      const Vec3<double> theta = a * t1 + b * cross(d, t1);
      // The explicit scheme's finite rotation: no drilling, the frame kept orthonormal.
      const Vec3<double> nd = normalized(rotate(theta, d));
      Vec3<double> nt = rotate(theta, t1);
      nt = normalized(nt - dot(nt, nd) * nd);
      Configuration::set(trial.d, i, nd);
      Configuration::set(trial.t1, i, nt);
    }
  };

  while (tau < period * (1 - 1e-12)) {
    if (increment >= ctl.max_increments)
      throw RunError("static step '" + step.name + "' needs more than INC=" + std::to_string(ctl.max_increments) +
                     " increments (at step time " + std::to_string(tau) + " of " + std::to_string(period) +
                     "); raise INC= on *STEP");
    double tau1 = tau + dtau;
    if (tau1 > period * (1 - 1e-9)) {
      tau1 = period;
      dtau = period - tau;
    }
    x_trial = x;
    trial = cfg;
    tau_trial = tau1;
    if (stabilize && c_stab > 0) {  // the viscous forces' stiffness, c m* / dtau, per equation
      std::vector<double> shift(static_cast<std::size_t>(neq), 0.0);
      for (std::size_t k = 0; k < ndof; ++k)
        if (equation[k] >= 0) shift[static_cast<std::size_t>(equation[k])] += c_stab * mstar[k] / dtau;
      engine->set_diagonal_shift(shift);
    }
    prescribe(tau1, x_trial);
    if (step.nlgeom)
      for (std::size_t n = 0; n < nn; ++n)
        for (int k = 0; k < 3; ++k) trial.u[3 * n + k] = x_trial[q * n + k];
    else
      linear_configuration(x_trial, trial);
    std::vector<double> history;
    bool converged = false;
    std::string why;
    double r_prev = 0, r_prev2 = 0, w_trial = 0;
    int it = 0;
    for (;; ++it) {
      w_trial = internal(x_trial, trial, f_trial);
      external(tau1, trial, f_ext_trial);
      // Every dof, the held ones too: their reactions are written. The cause is named, since
      // the cut-backs that follow end in a message about the minimum increment.
      if (const std::ptrdiff_t k = first_non_finite(f_ext_trial); k >= 0) {
        why = "the applied load at " + dof_name(model, static_cast<int>(k), ndn) + " is not finite (" +
              std::to_string(f_ext_trial[static_cast<std::size_t>(k)]) + ")";
        break;
      }
      if (const std::ptrdiff_t k = first_non_finite(f_trial); k >= 0) {
        why = "the internal force at " + dof_name(model, static_cast<int>(k), ndn) + " is not finite (" +
              std::to_string(f_trial[static_cast<std::size_t>(k)]) + ")";
        break;
      }
      // Force scales: the average nonzero nodal force and moment (reactions included), never
      // below the time average of the converged increments (Abaqus' q~).
      double q_sum[2] = {0, 0};
      std::int64_t q_n[2] = {0, 0};
      for (std::size_t k = 0; k < ndof; ++k)
        if (active[k]) {
          const int field = k % q >= 3 ? 1 : 0;
          const double v = std::max(std::fabs(f_trial[k]), std::fabs(f_ext_trial[k]));
          if (v > 0) {
            q_sum[field] += v;
            ++q_n[field];
          }
        }
      double qs[2];
      for (int fld = 0; fld < 2; ++fld) {
        qs[fld] = q_n[fld] ? q_sum[fld] / static_cast<double>(q_n[fld]) : 0.0;
        if (q_count[fld]) qs[fld] = std::max(qs[fld], q_time[fld] / static_cast<double>(q_count[fld]));
      }
      // Forces near the largest double overflow the scale's sum; an infinite scale would pass
      // any residual.
      if (!std::isfinite(qs[0]) || !std::isfinite(qs[1])) {
        why = "the force scale overflowed (nodal forces near the largest double, 1.8e308)";
        break;
      }
      if (ndn == 5) {
        // Forces and moments judged on one scale where one field carries (next to) nothing: a
        // strip rolled by end moments has round-off forces only, a membrane round-off moments.
        // The model's size converts (moments of the applied forces are about force x size).
        const double qt = qs[0], qr = qs[1];
        qs[0] = std::max(qt, qr / model_size);
        qs[1] = std::max(qr, qt * model_size);
      }
      // A shared equation (a rigid body's translation) sums the residuals of its dofs.
      std::fill(r.begin(), r.end(), 0.0);
      for (std::size_t k = 0; k < ndof; ++k)
        if (equation[k] >= 0) r[static_cast<std::size_t>(equation[k])] += f_ext_trial[k] - f_trial[k];
      if (stabilize && c_stab > 0)
        for (std::size_t k = 0; k < ndof; ++k)
          if (equation[k] >= 0) r[static_cast<std::size_t>(equation[k])] -= c_stab * mstar[k] * (x_trial[k] - x[k]) / dtau;
      const double r_t = max_abs(r, eq_rotation, false), r_r = max_abs(r, eq_rotation, true);
      if (!std::isfinite(r_t) || !std::isfinite(r_r) || !std::isfinite(w_trial)) {
        why = !std::isfinite(w_trial) ? "the strain energy is not finite" : "the residual force is not finite";
        break;
      }
      const double rel_t = qs[0] > 0 ? r_t / qs[0] : r_t, rel_r = qs[1] > 0 ? r_r / qs[1] : r_r;
      history.push_back(std::max(rel_t, rel_r));
      if ((qs[0] == 0 || r_t <= kLinearTol * qs[0]) && (qs[1] == 0 || r_r <= kLinearTol * qs[1])) {
        converged = true;
        break;
      }
      if (it > 0) {
        double dx_max[2] = {0, 0};
        for (std::size_t k = 0; k < ndof; ++k)
          dx_max[k % q >= 3 ? 1 : 0] = std::max(dx_max[k % q >= 3 ? 1 : 0], std::fabs(x_trial[k] - x[k]));
        if (r_t <= kResidualTol * qs[0] && r_r <= kResidualTol * qs[1] &&
            max_abs(du, eq_rotation, false) <= kCorrectionTol * dx_max[0] &&
            max_abs(du, eq_rotation, true) <= kCorrectionTol * dx_max[1]) {
          converged = true;
          break;
        }
      }
      // Growth is judged on the force residual with moments scaled to forces (solids: r_t).
      const double r_max = std::max(r_t, qs[1] > 0 ? r_r * qs[0] / qs[1] : 0.0);
      if (it >= 2 && r_max > r_prev && r_prev > r_prev2) {
        why = "the residual grew in two consecutive iterations";
        break;
      }
      if (it >= kMaxIterations) {
        why = "no convergence in " + std::to_string(kMaxIterations) + " iterations";
        break;
      }
      r_prev2 = r_prev;
      r_prev = r_max;
      try {
        if (step.nlgeom) {
          engine->assemble_and_factor(trial);
        } else if (!factored_linear) {
          // K of a geometrically linear step is factored once per step, at the reference.
          engine->assemble_and_factor(ref);
          factored_linear = true;
        }
      } catch (const SingularStiffness& e) {
        if (increment == 0 && it == 0) {
          const int eq = e.equation();
          throw InputError(step.loc, "singular stiffness: unconstrained dofs at " +
                                         (eq >= 0 && eq < neq ? dof_name(model, dof_of[static_cast<std::size_t>(eq)], ndn)
                                                              : std::string("an unknown node")) +
                                         " in step '" + step.name + "' (" + e.what() +
                                         "): add *BOUNDARY conditions that stop every rigid motion");
        }
        why = std::string("the tangent is singular (") + e.what() + ")";
        break;
      }
      try {
        engine->solve(r, du);
      } catch (const RunError& e) {
        // An iterative solver that breaks down on an indefinite trial tangent (CG) fails this
        // attempt, not the run: the increment is cut back. A linear step has nothing to cut.
        if (!step.nlgeom) throw;
        why = std::string("the linear solver failed (") + e.what() + ")";
        break;
      }
      if (first_non_finite(du) >= 0) {
        why = "the linear solve gave a non-finite correction";
        break;
      }
      correct();
    }
    summary.iterations += it;
    if (summary.residuals.size() < 1000) summary.residuals.push_back(history);
    if (!converged) {
      if (ctl.direct)
        throw RunError("static step '" + step.name + "', increment " + std::to_string(increment + 1) + " at step time " +
                       std::to_string(tau1) + ": " + why + ", and DIRECT incrementation does not cut back");
      const double smaller = dtau * kCutBack;
      if (smaller < ctl.minimum * (1 - 1e-12))
        throw RunError("static step '" + step.name + "', increment " + std::to_string(increment + 1) +
                       ": " + why + " at step time " + std::to_string(tau1) + "; the increment " +
                       std::to_string(smaller) + " after a cut-back would be below the minimum " +
                       std::to_string(ctl.minimum) + " (*STATIC data line, field 3)");
      if (opt.progress)
        std::fprintf(stderr, "halfstep: static step '%s': %s at step time %.6g; increment cut back to %.6g\n",
                     step.name.c_str(), why.c_str(), tau1, smaller);
      dtau = smaller;
      ++summary.cutbacks;
      cut_last = true;
      easy_in_a_row = 0;
      continue;
    }
    // Stabilization: the energy the viscous forces took, and the factor from the first
    // increment (solved without them) when FACTOR= was not given.
    if (stabilize) {
      double m_v2_dt = 0;  // sum m* du^2 / dtau
      for (std::size_t k = 0; k < ndof; ++k) m_v2_dt += mstar[k] * (x_trial[k] - x[k]) * (x_trial[k] - x[k]) / dtau;
      summary.stabilization_energy += c_stab * m_v2_dt;
      if (!(c_stab > 0) && m_v2_dt > 0 && std::fabs(w_trial) > 0) {
        c_stab = step.controls.stabilize_fraction * std::fabs(w_trial) / m_v2_dt;
        if (opt.progress)
          std::fprintf(stderr, "halfstep: static step '%s': stabilization damping factor %.6g (STABILIZE=%g)\n",
                       step.name.c_str(), c_stab, step.controls.stabilize_fraction);
      }
    }
    // Accepted: work by the trapezoidal rule over the increment's nodal forces.
    for (std::size_t k = 0; k < ndof; ++k) work += 0.5 * (f_int[k] + f_trial[k]) * (x_trial[k] - x[k]);
    x.swap(x_trial);
    cfg = trial;
    f_int.swap(f_trial);
    f_ext.swap(f_ext_trial);
    strain = w_trial;
    for (int fld = 0; fld < 2; ++fld) {
      double q_sum = 0;
      std::int64_t q_n = 0;
      for (std::size_t k = 0; k < ndof; ++k)
        if (active[k] && (k % q >= 3 ? 1 : 0) == fld && f_int[k] != 0) {
          q_sum += std::fabs(f_int[k]);
          ++q_n;
        }
      if (q_n) {
        q_time[fld] += q_sum / static_cast<double>(q_n);
        ++q_count[fld];
      }
    }
    tau = tau1;
    ++increment;
    store(t_step0 + tau);
    if (opt.progress)
      std::fprintf(stderr, "halfstep: static step '%s' increment %d: step time %.6g, %d iterations\n",
                   step.name.c_str(), increment, tau, it);
    // A stop asked for (SIGINT, SIGTERM): this converged increment is the step's last frame.
    const bool end = tau >= period * (1 - 1e-12);
    const bool stop = !end && interrupt_requested();
    emit(tau, end || stop, false);
    if (opt.status) {
      StatusPoint p;
      p.is_static = true;
      p.step_end = end;
      p.increment = increment;
      p.iterations = it;
      p.step_time = tau;
      p.total_time = t_step0 + tau;
      p.dt = dtau;
      p.have_energy = true;
      p.energy_time = p.total_time;
      p.internal = strain;
      p.external_work = work;
      opt.status(p);
    }
    if (stop) {
      interrupted = true;
      break;
    }
    if (ctl.direct) continue;
    easy_in_a_row = it <= kEasyIterations ? easy_in_a_row + 1 : 0;
    if (easy_in_a_row >= 2 && !cut_last) {
      dtau = std::min(dtau * kGrowth, ctl.maximum);
      easy_in_a_row = 0;
    }
    cut_last = false;
    dtau = std::min(dtau, ctl.maximum);
  }
  store(t_step0 + (interrupted ? tau : period));

  const TangentStats& s = engine->stats();
  summary.steps += 1;
  summary.increments += increment;
  summary.equations = neq;
  summary.engine = engine->description();
  summary.linear_solver = linear_solver_name(engine->solver());
  // Only the GPU engine runs the GPU solvers.
  summary.on_gpu = engine->solver() == LinearSolverKind::Cudss || engine->solver() == LinearSolverKind::GpuCg;
  summary.internal_force_seconds += s.internal_force_seconds;
  summary.element_seconds += s.element_seconds;
  summary.assembly_seconds += s.assembly_seconds;
  summary.analyze_seconds += s.analyze_seconds;
  summary.factor_seconds += s.factor_seconds;
  summary.solve_seconds += s.solve_seconds;
  summary.matrices += s.matrices;
  summary.factorizations += s.factorizations;
  summary.krylov_iterations += s.iterations;
  summary.nonzeros = s.nonzeros;
  summary.matrix_bytes = std::max(summary.matrix_bytes, s.matrix_bytes);
  summary.solver_bytes = std::max(summary.solver_bytes, s.solver_bytes);
  summary.strain_energy = strain;
  summary.seconds += seconds_since(t_step);
  if (interrupted) throw RunInterrupted("static step '" + step.name + "' stopped at step time " + std::to_string(tau));
}

}  // namespace halfstep
