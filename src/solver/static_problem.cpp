#include "solver/static_problem.hpp"

#include <algorithm>
#include <limits>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

#include "assembly/csr_assembly.hpp"
#include "core/frame3.hpp"
#include "discretization/shell_pass.hpp"
#include "discretization/continuum_pass.hpp"
#include "discretization/nodal_triads.hpp"
#include "elements/registry.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

namespace {

/// "node 12 dof 2" for messages (dof: index in a layout of ndn dofs per node; the two
/// rotation dofs of a shell node are its spins about the nodal triad).
std::string dof_name(const Model& model, int dof, int ndn) {
  const int c = dof % ndn;
  return "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(dof / ndn)]) +
         (c < 3 ? " dof " + std::to_string(c + 1)
                : std::string(c == 3 ? " rotation about t1" : (c == 4 ? " rotation about t2" : " rotation about d")));
}

/// A rigid-body check before any factorization: every connected part of the mesh must be held
/// in every active direction somewhere, or its stiffness is singular (a free part would only be
/// caught by the factorization, with a less useful message, or not at all by a Krylov solver).
void check_rigid_motion(const Model& model, const Step& step, const StructureOperator& op, int ndn,
                        const std::vector<char>& active, const std::vector<char>& held,
                        const std::vector<std::pair<int, int>>& links) {
  const StructureSystem& sys = op.system();
  const SolidMesh& sm = sys.solid;
  std::vector<int> parent(static_cast<std::size_t>(sys.num_nodes));
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (int e = 0; e < op.num_elements(); ++e) {  // every family's elements join their nodes
    const int* c = op.element_connectivity(e);
    for (int a = 1; a < op.element_nodes(e); ++a) parent[find(c[a])] = find(c[0]);
  }
  for (const auto& [a, b] : links) parent[find(a)] = find(b);  // nodes of one rigid body
  const int dirs = sm.planar ? 2 : 3;
  // An axisymmetric part's radial motion strains its hoops: only z (direction 2) is rigid.
  bool axisymmetric = false;
  for (const SolidGroup& g : sm.groups) axisymmetric = axisymmetric || element_kind(g.kind).axisymmetric;
  std::vector<unsigned char> held_dirs(parent.size(), 0), present(parent.size(), 0);
  // A support counts wherever it is, also on a node that only equations tie to the part (a B32
  // node, the mean of its section); the part is what its element nodes make.
  for (int n = 0; n < sys.num_nodes; ++n) {
    const int r = find(n);
    if (active[static_cast<std::size_t>(ndn) * n]) present[r] = 1;
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

}  // namespace

StaticProblem::StaticProblem(const Model& model_, const Step& step_, const StructureSystem& sys_,
                             const StepLoads& loads_, StructureState& st_, const StaticStepOptions& opt_)
    : model(model_),
      step(step_),
      sys(sys_),
      loads(loads_),
      st(st_),
      opt(opt_),
      held_rot(sys_.shell.num_elements > 0 ? align_triads(sys_, holds_without_row_nodes(sys_, loads_.fixed_rotation), st_)
                                     : std::vector<std::uint8_t>(static_cast<std::size_t>(sys_.num_nodes), 0)),
      drive(build_step_drive(sys_, loads_, held_rot)),
      dv(host_view(drive)),
      op(sys_, opt_.tangent.threads),
      ndn(op.dofs_per_node()),
      ndof(static_cast<std::size_t>(op.num_dofs())),
      nn(static_cast<std::size_t>(sys_.num_nodes)),
      q(static_cast<std::size_t>(ndn)),
      active(op.active_dofs()),
      held(ndof, 0),
      st_time0(st_.time),
      bodies(sys_.bodies),
      body_dirs(sys_.solid.planar ? 2 : 3),
      ref_dof(ndof, 0) {
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < ndn; ++c)
      if (drive.held[n] & (1u << c)) held[q * n + static_cast<std::size_t>(c)] = 1;
  if (ndn == 6) hold_frame_spins();
  hold_dofs_without_stiffness();
  std::vector<char> held_check = held;  // slaves count as held where their reference node is
  std::vector<std::pair<int, int>> body_links;
  check_bodies(held_check, body_links);
  transformed_nodes(held_check);
  // A tied or equated node moves with its terms' nodes: one part for the rigid-motion check.
  const LinearConstraints& lc = sys.constraints;
  for (int i = 0; i < lc.num_dependent; ++i)
    for (int t = lc.term_ptr[static_cast<std::size_t>(i)]; t < lc.term_ptr[static_cast<std::size_t>(i) + 1]; ++t)
      body_links.emplace_back(lc.dep_node[static_cast<std::size_t>(i)], lc.term_node[static_cast<std::size_t>(t)]);
  // A part that rests on another through a contact definition is held by it (a block pressed
  // onto a support): one part for the check. Where the contact never closes, the first
  // factorization names the free dofs instead.
  const ContactSystem& cs = sys.contact;
  std::vector<int> pair_node(static_cast<std::size_t>(cs.num_pairs), -1);  // one slave node per definition
  for (int r = 0; r < cs.num_slaves; ++r) {
    const auto p = static_cast<std::size_t>(cs.slave_pair[static_cast<std::size_t>(r)]);
    const int n = cs.slave_node[static_cast<std::size_t>(r)];
    if (pair_node[p] < 0) pair_node[p] = n;
    body_links.emplace_back(n, pair_node[p]);
    const int a = cs.pair_surface.empty() ? -1 : cs.pair_surface[p];
    if (a >= 0) body_links.emplace_back(n, cs.analytic_ref[static_cast<std::size_t>(a)]);
  }
  for (int f = 0; f < cs.num_facets; ++f) {
    const int n = pair_node[static_cast<std::size_t>(cs.facet_pair[static_cast<std::size_t>(f)])];
    if (n >= 0) body_links.emplace_back(n, cs.facet_nodes[4 * static_cast<std::size_t>(f)]);
  }
  // A dynamic step's inertia holds what no support does (its mass term makes the tangent regular);
  // a frequency step's modes include the rigid motions (free_motion: it factors K - sigma M).
  if (step.frequency) {
    try {
      check_rigid_motion(model, step, op, ndn, active, held_check, body_links);
    } catch (const InputError&) {
      free_motion = true;
    }
  } else if (step.modal) {
    // A transient modal step superposes a free model's rigid modes too; a steady state has none.
    try {
      check_rigid_motion(model, step, op, ndn, active, held_check, body_links);
    } catch (const InputError&) {
      if (step.modal->steady_state)
        throw InputError(step.modal->loc, "*STEADY STATE DYNAMICS on a model free to move as a rigid body: not "
                                          "supported (its rigid modes have no steady response); hold the model with "
                                          "*BOUNDARY");
      free_motion = true;
    }
  } else if (!step.dynamic) {
    check_rigid_motion(model, step, op, ndn, active, held_check, body_links);
  }
  // A linear step solves once about the reference: a nonlinear spring would keep its slope
  // at zero there, so its table needs NLGEOM=YES (Newton on the full forces).
  if (!step.nlgeom)
    for (std::size_t i = 0; i < model.discrete_sections.size(); ++i)
      if (!model.discrete_sections[i].table_disp.empty())
        throw InputError(step.loc, "step '" + step.name + "' is linear (no NLGEOM=YES), and the *SPRING, NONLINEAR at " +
                                       model.discrete_sections[i].loc.str() +
                                       " needs Newton iterations to follow its table: use *STEP, NLGEOM=YES");
  // Laws with state (plasticity) follow the small-strain theory in a linear step, and so does
  // adhesion, whose law is nonlinear in the gap (K(ref) x would linearize it): its Newton
  // iterations follow the law, the geometry stays linear. The state that kinds keep for
  // themselves (a dashpot's) does not ask for it.
  // The FPM hexahedron too: its incremental update is geometrically nonlinear through and
  // through, and its small-strain form writes the state a later explicit step continues from.
  const int fpm_hex = find_element_kind("C3D8", "FPM");
  const bool fpm = std::any_of(sys.solid.groups.begin(), sys.solid.groups.end(),
                               [fpm_hex](const SolidGroup& g) { return g.count > 0 && g.kind == fpm_hex; });
  // Row elements (FPM triangles, beams) likewise: their linear theory writes their state.
  small_strain = !step.nlgeom && (has_plastic_shells(sys) || !model.adhesions.empty() || fpm || op.rows().num_elements() > 0 ||
                                  std::any_of(sys.solid.materials.begin(), sys.solid.materials.end(),
                                              [](const SolidMaterial<double>& m) { return state_size(m) > 0; }));
  if (small_strain) check_small_strain_kinds();
  number_equations_of_step();
  if (!opt.checks_only) start_engine();
  lump_stabilization_masses();
  start_state();
  init_dynamics();
  if (!sys.contact.empty() && !opt.checks_only) {
    contact = std::make_unique<StaticContact>(model, step, sys, op, ref, opt.tangent.threads);
    contact->resume(st.contact_history);
    engine->set_coupling(&contact->blocks());
    force_floor = kForceFloorStrain * contact->node_stiffness() * model_size;
  }
  period = loads.period;
  face_.assign(3 * kFaceMaxNodes * static_cast<std::size_t>(drive.num_faces), 0.0);
  face_ux_.assign(drive.num_faces > 0 ? nn : 0, 0.0);  // reused by every evaluation (zero under NLGEOM=NO)
  face_uy_ = face_ux_;
  face_uz_ = face_ux_;
  surface_pressure_.assign(drive.has_pressure() ? 12 * static_cast<std::size_t>(sys.shell.num_elements) : 0, 0.0);
  body_start_.resize(static_cast<std::size_t>(bodies.num_bodies));
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const double* R = &st.body_rotation[9 * static_cast<std::size_t>(b)];
    body_start_[static_cast<std::size_t>(b)] =
        rotation_vector(Vec3<double>{1, 0, 0}, Vec3<double>{0, 1, 0}, Vec3<double>{0, 0, 1}, Vec3<double>{R[0], R[3], R[6]},
                        Vec3<double>{R[1], R[4], R[7]}, Vec3<double>{R[2], R[5], R[8]});
  }
  // The bodies' turns after the dofs: a free component starts where the body is.
  start.x.resize(ndof + body_eq.size(), 0.0);
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const Vec3<double> s0 = body_start_[static_cast<std::size_t>(b)];
    const double th[3] = {s0.x, s0.y, s0.z};
    for (std::size_t j = 0; j < 3; ++j) start.x[ndof + 3 * static_cast<std::size_t>(b) + j] = model_size * th[j];
  }
  turn_weights(start.x);
  if (!turn_terms_.empty() && engine) engine->set_combination_weights(combined.term_weight);
}

void StaticProblem::start_engine() {
  // The CUDA engine has no small-strain theory: auto runs such a step on the CPU engine, and
  // asked for by name, the engine refuses it below at the step's line.
  const bool gpu_solver =
      opt.tangent.solver == LinearSolverKind::Cudss || opt.tangent.solver == LinearSolverKind::GpuCg;
  const BackendKind kind = small_strain && opt.backend == BackendKind::Auto && !gpu_solver ? BackendKind::Cpu : opt.backend;
  // A linear static step assembles once (a dynamic, frequency or buckling one, or contact,
  // assemble again: the engine would rebuild what it freed; STABILIZE acts under NLGEOM only).
  TangentOptions topt = opt.tangent;
  topt.single_assembly =
      !step.nlgeom && !small_strain && sys.contact.empty() && !step.dynamic && !step.frequency && !step.buckle;
  engine = make_tangent_engine(kind, op, equation, neq, topt, opt.progress, combined.empty() ? nullptr : &combined);
  if (small_strain) {
    try {
      engine->set_small_strain(&ref);
    } catch (const RunError& e) {  // an engine without the theory: the step's line, as for input
      throw InputError(step.loc, "step '" + step.name + "': " + e.what());
    }
  }
  // Laws with state start every evaluation from the last converged increment (accepted()).
  if (op.material_state_size() > 0) {
    try {
      engine->set_material_state(op.material_state(st));
    } catch (const RunError& e) {  // an engine without some law's tangent: the step's line
      throw InputError(step.loc, "step '" + step.name + "': " + e.what());
    }
  }
}

void StaticProblem::hold_dofs_without_stiffness() {
  // A *STATIC step's (inertia holds them in dynamic steps; a frequency step's are zero modes).
  if (step.procedure != Procedure::Static || step.frequency || step.dynamic || step.modal) return;
  bool bars = false;  // only trusses and springs leave a direction of their nodes without stiffness
  for (const SolidGroup& g : sys.solid.groups) bars |= element_kind(g.kind).cross_section || element_kind(g.kind).discrete;
  if (!bars) return;
  std::vector<double> k;
  op.element_matrices(op.rest(), k);
  std::vector<double> diag(ndof, 0.0);
  op.for_each_matrix(k, [&](int, const int* dofs, const double* m, int nd) {
    for (int i = 0; i < nd; ++i)
      if (dofs[i] >= 0) diag[static_cast<std::size_t>(dofs[i])] += std::fabs(m[i * nd + i]);
  });
  // Only a dof that nothing else moves or loads: no load or motion on it, no local axes, no
  // rotational body force, constraint, rigid body or contact at its node.
  std::vector<char> other(nn, 0), loaded(ndof, 0);
  for (std::size_t n = 0; n < nn; ++n) {
    const int sp = dv.special[n];
    if (sp < 0) continue;
    if (dv.frame_of[sp] >= 0) other[n] = 1;
    for (int i = dv.load_ptr[sp]; i < dv.load_ptr[sp + 1]; ++i)
      if (dv.load_dof[i] < ndn) loaded[q * n + static_cast<std::size_t>(dv.load_dof[i])] = 1;
    for (int i = dv.motion_ptr[sp]; i < dv.motion_ptr[sp + 1]; ++i)
      if (dv.motion_dof[i] < ndn) loaded[q * n + static_cast<std::size_t>(dv.motion_dof[i])] = 1;
  }
  for (int n : loads.spin_node) other[static_cast<std::size_t>(n)] = 1;
  const LinearConstraints& lc = sys.constraints;
  for (int n : lc.dep_node) other[static_cast<std::size_t>(n)] = 1;
  for (int n : lc.term_node) other[static_cast<std::size_t>(n)] = 1;
  for (int n : bodies.slave_node) other[static_cast<std::size_t>(n)] = 1;
  for (int n : bodies.ref_node) other[static_cast<std::size_t>(n)] = 1;
  for (int n : sys.contact.slave_node) other[static_cast<std::size_t>(n)] = 1;
  for (int n : sys.contact.facet_nodes)
    if (n >= 0) other[static_cast<std::size_t>(n)] = 1;
  std::string held_here;
  int count = 0;
  for (std::size_t d = 0; d < ndof; ++d) {
    if (!active[d] || held[d] || diag[d] != 0.0 || other[d / q] || loaded[d]) continue;
    held[d] = 1;
    if (++count <= 5) held_here += (held_here.empty() ? "" : ", ") + dof_name(model, static_cast<int>(d), ndn);
  }
  // Abaqus and the peer carry on past such a zero pivot; the solution there is zero.
  if (count > 0)
    std::fprintf(stderr, "halfstep: note: static step '%s': %d dof(s) without stiffness and without load held at zero (%s%s): "
                 "their elements (trusses, springs) give them none\n", step.name.c_str(), count, held_here.c_str(),
                 count > 5 ? ", ..." : "");
}

void StaticProblem::transformed_nodes(std::vector<char>& held_check) {
  node_axes.assign(nn, nullptr);
  for (std::size_t n = 0; n < nn; ++n) {
    const int sp = dv.special[n];
    if (sp >= 0 && dv.frame_of[sp] >= 0) node_axes[n] = dv.frame_q + 9 * static_cast<std::size_t>(dv.frame_of[sp]);
  }
  if (std::none_of(node_axes.begin(), node_axes.end(), [](const double* a) { return a != nullptr; })) return;
  const auto refuse = [&](std::size_t n, const std::string& why) {
    throw InputError(model.transforms.front().loc,
                     "*TRANSFORM on node " + std::to_string(model.nodes.id[n]) + " in static step '" + step.name +
                         "': " + why);
  };
  // Its global dofs are combinations of its local ones: a constraint that names them as terms
  // would chain two eliminations, and contact writes its springs on global dofs.
  for (int t : sys.constraints.term_node)
    if (node_axes[static_cast<std::size_t>(t)])
      refuse(static_cast<std::size_t>(t), "the node is a term of a *TIE, *EQUATION, *MPC or *COUPLING, which static "
                                          "steps do not combine with a local system yet");
  for (const std::vector<int>* contact_nodes : {&sys.contact.slave_node, &sys.contact.facet_nodes})
    for (int n : *contact_nodes)  // facet_nodes pads with -1
      if (n >= 0 && node_axes[static_cast<std::size_t>(n)])
        refuse(static_cast<std::size_t>(n), "the node is in a contact surface, which static steps do not combine with a "
                                            "local system yet");
  for (std::size_t n = 0; n < nn; ++n) {
    const double* a = node_axes[n];
    if (!a) continue;
    if (ndn == 6 && loads.fixed_rotation[n])
      refuse(n, "its rotations are held in the local system, which static steps support on translations only (hold "
                "the rotations of a node without *TRANSFORM)");
    // A local hold restrains each global direction it has a component along.
    for (int j = 0; j < 3; ++j)
      if (held[q * n + static_cast<std::size_t>(j)])
        for (int i = 0; i < 3; ++i)
          if (std::fabs(a[3 * j + i]) > 1e-12) held_check[q * n + static_cast<std::size_t>(i)] = 1;
  }
}

/// The equations: every free dof's, a rigid body's slaves sharing their reference node's.
void StaticProblem::number_equations_of_step() {
  // Slaves of rigid bodies have no equations of their own: they take their reference node's
  // (free translations) or none (prescribed ones), appended after the element dofs'.
  std::vector<char> numbered_held = held, slave_dof(ndof, 0);
  for (int sn : bodies.slave_node)
    for (int d = 0; d < 3; ++d) numbered_held[q * static_cast<std::size_t>(sn) + static_cast<std::size_t>(d)] =
        slave_dof[q * static_cast<std::size_t>(sn) + static_cast<std::size_t>(d)] = 1;
  // Dependent dofs of *TIE and *EQUATION have none either: they enter through their terms'.
  const LinearConstraints& lc = sys.constraints;
  const auto dof_at = [&](int node, int d) { return q * static_cast<std::size_t>(node) + static_cast<std::size_t>(d); };
  // Nor do a *TRANSFORM node's global translations: they enter through its local ones'.
  for (std::size_t n = 0; n < nn; ++n)
    if (node_axes[n])
      for (std::size_t d = 0; d < 3; ++d) numbered_held[q * n + d] = 1;
  for (int i = 0; i < lc.num_dependent; ++i) {
    const std::size_t si = static_cast<std::size_t>(i);
    if (lc.dep_dof[si] >= 3)  // 5-dof (MITC4) models refuse rotational dependents when built
      throw InputError(lc.dep_loc[si], "static step '" + step.name + "': a constraint on rotations (dof " +
                                           std::to_string(lc.dep_dof[si] + 1) +
                                           ") runs in explicit steps only so far; static steps take translations");
    numbered_held[dof_at(lc.dep_node[si], lc.dep_dof[si])] = 1;
  }
  equation = number_equations(op, numbered_held, &neq);
  combined = DofCombinations{};
  turn_terms_.clear();
  // A body's free rotation components (a *STATIC step's): an equation each, after the dofs'.
  body_eq.assign(3 * static_cast<std::size_t>(bodies.num_bodies), -1);
  const std::uint8_t turns = sys.solid.planar ? 0x4 : 0x7;
  if (turns_bodies(step))
    for (int b = 0; b < bodies.num_bodies; ++b) {
      const auto rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
      for (int j = 0; j < 3; ++j)
        if ((turns & (1u << j)) && !(loads.fixed_rotation[rn] & (1u << j))) body_eq[3 * static_cast<std::size_t>(b) + j] = neq++;
      // A frequency step's body turns with the inertia of its slaves' masses; a rotary
      // inertia on its reference node has no rotation dof to act on in a model of solids.
      const int* beq = &body_eq[3 * static_cast<std::size_t>(b)];
      if (step.frequency && (beq[0] >= 0 || beq[1] >= 0 || beq[2] >= 0))
        for (const PointMass& r : model.point_inertias)
          if (r.node == static_cast<int>(rn))
            throw InputError(r.loc, "frequency step '" + step.name + "': a *ROTARY INERTIA on reference node " +
                                        std::to_string(model.nodes.id[rn]) +
                                        " of a rigid body whose rotation the step leaves free: not supported yet "
                                        "(hold the body's rotation, or give the inertia to the body's elements)");
    }
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const std::size_t rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
    const int* beq = &body_eq[3 * static_cast<std::size_t>(b)];
    const bool turning = beq[0] >= 0 || beq[1] >= 0 || beq[2] >= 0;
    for (int d = 0; d < body_dirs; ++d) {
      // A reference node of the mesh keeps the equation it has; one of its own gets a new one.
      const int own = equation[q * rn + static_cast<std::size_t>(d)];
      const int eq = held[q * rn + static_cast<std::size_t>(d)] ? -1 : own >= 0 ? own : neq++;
      equation[q * rn + static_cast<std::size_t>(d)] = eq;
      for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
        const std::size_t k = q * static_cast<std::size_t>(bodies.slave_node[static_cast<std::size_t>(i)]) + static_cast<std::size_t>(d);
        if (!turning) {
          equation[k] = eq;
          continue;
        }
        // A turning body's slave: its reference node's translation and the turn's share of
        // each free component (weights from turn_weights).
        equation[k] = -1;
        combined.dof.push_back(static_cast<int>(k));
        if (eq >= 0) {
          combined.term_eq.push_back(eq);
          combined.term_weight.push_back(1.0);
        }
        for (int j = 0; j < 3; ++j)
          if (beq[j] >= 0) {
            turn_terms_.push_back({static_cast<int>(combined.term_eq.size()), i, d, b, j});
            combined.term_eq.push_back(beq[j]);
            combined.term_weight.push_back(0.0);
          }
        combined.term_ptr.push_back(static_cast<int>(combined.term_eq.size()));
      }
    }
  }
  // A term needs an equation even where no element gives it stiffness: the reference node of
  // a distributing *COUPLING (its *CLOAD) is a term of the coupling's equations alone.
  for (int t = 0; t < static_cast<int>(lc.term_node.size()); ++t) {
    const std::size_t k = dof_at(lc.term_node[static_cast<std::size_t>(t)], lc.term_dof[static_cast<std::size_t>(t)]);
    const bool planar_z = sys.solid.planar && k % q == 2;
    if (equation[k] < 0 && !held[k] && !planar_z) equation[k] = neq++;
  }
  // A *TRANSFORM node's free local directions: an equation each (a held one has its value).
  std::vector<std::array<int, 3>> local_eq(nn, {-1, -1, -1});
  for (std::size_t n = 0; n < nn; ++n)
    if (node_axes[n])
      for (std::size_t j = 0; j < 3; ++j)
        if (!held[q * n + j] && active[q * n + j]) local_eq[n][j] = neq++;
  for (std::size_t n = 0; n < nn; ++n) {
    const double* a = node_axes[n];
    if (!a) continue;
    for (std::size_t i = 0; i < 3; ++i) {
      if (!active[q * n + i]) continue;
      combined.dof.push_back(static_cast<int>(q * n + i));
      for (std::size_t j = 0; j < 3; ++j)
        if (local_eq[n][j] >= 0 && a[3 * j + i] != 0.0) {
          combined.term_eq.push_back(local_eq[n][j]);
          combined.term_weight.push_back(a[3 * j + i]);
        }
      combined.term_ptr.push_back(static_cast<int>(combined.term_eq.size()));
    }
  }
  for (int i = 0; i < lc.num_dependent; ++i) {
    const std::size_t si = static_cast<std::size_t>(i);
    combined.dof.push_back(static_cast<int>(dof_at(lc.dep_node[si], lc.dep_dof[si])));
    for (int t = lc.term_ptr[si]; t < lc.term_ptr[si + 1]; ++t) {
      const int eq = equation[dof_at(lc.term_node[static_cast<std::size_t>(t)], lc.term_dof[static_cast<std::size_t>(t)])];
      if (eq < 0) continue;  // a held term: its value enters through place_dependents
      combined.term_eq.push_back(eq);
      combined.term_weight.push_back(lc.term_weight[static_cast<std::size_t>(t)]);
    }
    combined.term_ptr.push_back(static_cast<int>(combined.term_eq.size()));
  }
  scaled = active;
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) scaled[k] = 1;
  for (int k : combined.dof) scaled[static_cast<std::size_t>(k)] = 1;
  dof_of.assign(static_cast<std::size_t>(neq), 0);
  eq_rotation.assign(static_cast<std::size_t>(neq), 0);
  eq_local_node.assign(static_cast<std::size_t>(neq), -1);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0 && !slave_dof[k]) {  // a shared equation's dof is its reference node's
      dof_of[static_cast<std::size_t>(equation[k])] = static_cast<int>(k);
      eq_rotation[static_cast<std::size_t>(equation[k])] = k % q >= 3;
    }
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t j = 0; j < 3; ++j)
      if (local_eq[n][j] >= 0) {  // named by its local dof
        dof_of[static_cast<std::size_t>(local_eq[n][j])] = static_cast<int>(q * n + j);
        eq_local_node[static_cast<std::size_t>(local_eq[n][j])] = static_cast<int>(n);
      }
  for (std::size_t i = 0; i < body_eq.size(); ++i)  // a body's turn: x's entry after the dofs'
    if (body_eq[i] >= 0) dof_of[static_cast<std::size_t>(body_eq[i])] = static_cast<int>(ndof + i);
}

void StaticProblem::lump_stabilization_masses() {
  stabilize = step.controls.stabilize && step.nlgeom;
  mstar.assign(stabilize ? ndof : 0, 0.0);
  c_stab = step.controls.stabilize_factor;
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
}

/// The start of the step: the model's size, the reference configuration, and the unknowns
/// and configuration of the state (a linear step's rotations measured from the reference).
void StaticProblem::start_state() {
  rotations = sys.shell.num_elements > 0 || ndn == 6;
  // Diagonal of the bounding box of the used nodes (converts moments to forces in the
  // convergence checks).
  model_size = 0;
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
  start.cfg = Configuration::of(st, rotations);
  Configuration& cfg = start.cfg;
  std::vector<double>& x = start.x;
  x.assign(ndof, 0.0);
  ref.u.assign(3 * nn, 0.0);
  if (rotations) {
    ref.d.resize(3 * nn);
    ref.t1.resize(3 * nn);
    for (std::size_t n = 0; n < nn; ++n) {
      const int i = static_cast<int>(n);
      Configuration::set(ref.d, i, Vec3<double>{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]});
      Configuration::set(ref.t1, i, Vec3<double>{st.r1x[n], st.r1y[n], st.r1z[n]});
    }
  }
  // The translations so far, and in a linear step the rotations as spins about the reference
  // frames (linear_configuration's inverse).
  halfstep::linear_dofs(ref, cfg, q, ndn == 6 ? 3 : 2, [&](int i) { return !step.nlgeom && sys.has_rotations(i); }, x);
}

void StaticProblem::linear_configuration(const std::vector<double>& xs, Configuration& c) const {
  const Configuration none;  // without rotations: translations only
  halfstep::linear_configuration(rotations ? ref : none, xs, q, ndn == 6 ? 3 : 2,
                                 [&](int i) { return sys.has_rotations(i); }, c);
}

void StaticProblem::trial_configuration(const std::vector<double>& xs, Configuration& c) const {
  if (step.nlgeom)
    for (std::size_t n = 0; n < nn; ++n)
      for (int k = 0; k < 3; ++k) c.u[3 * n + k] = xs[q * n + k];
  else
    linear_configuration(xs, c);
}

void StaticProblem::external(double tau, const Configuration& c, std::vector<double>& f) {
  const Configuration& on = step.nlgeom ? c : (rotations ? ref : c);
  f.assign(ndof, 0.0);
  for (std::size_t n = 0; n < nn; ++n) {
    const int sp = dv.special[n];
    if (sp < 0) continue;
    NodeDriveValues<double> v = evaluate_node_drive<double>(dv, sp, tau, 0.0);
    if (node_axes[n]) {  // a *TRANSFORM node's forces and moments are local components
      to_global3(node_axes[n], v.load);
      to_global3(node_axes[n], v.load + 3);
    }
    for (int k = 0; k < 3; ++k) f[q * n + k] += v.load[k];
    if (ndn >= 5 && sys.has_rotations(static_cast<int>(n))) {
      // A moment M does virtual work M . (alpha t1 + beta t2 + gamma d): its generalized components.
      const Vec3<double> m{v.load[3], v.load[4], v.load[5]};
      const Vec3<double> t1 = Configuration::at(on.t1, static_cast<int>(n)), d = Configuration::at(on.d, static_cast<int>(n));
      f[q * n + 3] += dot(m, t1);
      f[q * n + 4] += dot(m, cross(d, t1));
      if (ndn == 6) f[q * n + 5] += dot(m, d);
    }
  }
  // Rotational body forces on the current positions (NLGEOM) or the reference ones (their
  // stiffness in the tangent: begin_attempt's diagonal).
  for (std::size_t i = 0; i < loads.spin_node.size(); ++i) {
    const int n = loads.spin_node[i], from = loads.spin_from[i];
    Vec3<double> x{sys.x0[from], sys.y0[from], sys.z0[from]};
    if (step.nlgeom) x += Configuration::at(c.u, from);
    const double value = loads.spin_value[i] * amplitude_slot(dv, loads.spin_amp[i], tau);
    const Vec3<double> g = spin_force(&loads.spin_axes[7 * static_cast<std::size_t>(loads.spin_axis[i])], value, x);
    f[q * static_cast<std::size_t>(n)] += g.x;
    f[q * static_cast<std::size_t>(n) + 1] += g.y;
    f[q * static_cast<std::size_t>(n) + 2] += g.z;
  }
  if (drive.num_faces > 0) {
    if (step.nlgeom)
      for (std::size_t n = 0; n < nn; ++n) {
        face_ux_[n] = c.u[3 * n];
        face_uy_[n] = c.u[3 * n + 1];
        face_uz_[n] = c.u[3 * n + 2];
      }
    for (int k = 0; k < drive.num_faces; ++k)
      evaluate_face_force(dv, k, tau, sys.x0.data(), sys.y0.data(), sys.z0.data(), face_ux_.data(), face_uy_.data(),
                          face_uz_.data(), face_.data() + 3 * kFaceMaxNodes * static_cast<std::size_t>(k));
    for (std::size_t n = 0; n < nn; ++n) {
      double g[3] = {0, 0, 0};
      gather_face_forces(dv, face_.data(), static_cast<int>(n), g);
      for (int k = 0; k < 3; ++k) f[q * n + k] += g[k];
    }
  }
  if (drive.has_pressure()) {
    for (int e = 0; e < sys.shell.num_elements; ++e) {
      Vec3<double> xe[4];
      for (int a = 0; a < 4; ++a) {
        const int n = sys.shell.conn[4 * static_cast<std::size_t>(e) + a];
        xe[a] = Vec3<double>{sys.x0[n], sys.y0[n], sys.z0[n]} + (step.nlgeom ? Configuration::at(c.u, n) : Vec3<double>{0, 0, 0});
      }
      evaluate_shell_pressure_force(dv, e, tau, xe, &surface_pressure_[12 * static_cast<std::size_t>(e)]);
    }
    for (std::size_t n = 0; n < nn; ++n) {  // corners in slot order, as the explicit gather
      double g[3] = {0, 0, 0};
      add_slot_forces3(sys.shell.node_slot_ptr.data(), sys.shell.node_slots.data(), surface_pressure_.data(), static_cast<int>(n), g);
      for (int k = 0; k < 3; ++k) f[q * n + k] += g[k];
    }
    op.rows().add_pressure_forces(c, step.nlgeom, dv, tau, ndn, f);
  }
}


std::vector<double> StaticProblem::translations(const std::vector<double>& xs) const {
  std::vector<double> u(3 * nn);
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t k = 0; k < 3; ++k) u[3 * n + k] = xs[q * n + k];
  return u;
}

void StaticProblem::place_dependents(std::vector<double>& xs) const {
  const LinearConstraints& lc = sys.constraints;
  // Chains are resolved when the constraints are built (by substitution): every term is independent.
  for (int i = 0; i < lc.num_dependent; ++i) {
    const std::size_t si = static_cast<std::size_t>(i);
    double v = 0;
    for (int t = lc.term_ptr[si]; t < lc.term_ptr[si + 1]; ++t) {
      const std::size_t st_ = static_cast<std::size_t>(t);
      v += lc.term_weight[st_] * xs[q * static_cast<std::size_t>(lc.term_node[st_]) + static_cast<std::size_t>(lc.term_dof[st_])];
    }
    xs[q * static_cast<std::size_t>(lc.dep_node[si]) + static_cast<std::size_t>(lc.dep_dof[si])] = v;
  }
}

void StaticProblem::prescribe(double tau, std::vector<double>& xs) const {
  const double r = period > 0 ? std::min(1.0, std::max(0.0, tau / period)) : 1.0;
  // A held dof goes back to zero over the step from where it starts (Abaqus's ramp), unless
  // *BOUNDARY, FIXED keeps it there (a held rotation under NLGEOM stays too).
  const auto kept = [&](std::size_t k) {
    const std::size_t c = k % q;
    return c < 3 && !loads.keep_translation.empty() && (loads.keep_translation[k / q] & (1u << c));
  };
  const auto local = [&](std::size_t k) { return k % q < 3 && node_axes[k / q]; };
  for (std::size_t k = 0; k < ndof; ++k)
    if (held[k] && (active[k] || ref_dof[k]) && !local(k))
      xs[k] = ((k % q >= 3 && step.nlgeom) || kept(k)) ? start.x[k] : start.x[k] * (1.0 - r);
  for (std::size_t n = 0; n < nn; ++n) {
    const int sp = dv.special[n];
    if (sp < 0) continue;
    // A *TRANSFORM node's held and prescribed translations are local components: its free
    // ones stay as they are.
    double l[3], l0[3];
    const double* a = node_axes[n];
    if (a) {
      std::copy(&xs[q * n], &xs[q * n] + 3, l);
      std::copy(&start.x[q * n], &start.x[q * n] + 3, l0);
      to_local3(a, l);
      to_local3(a, l0);
      for (std::size_t j = 0; j < 3; ++j)
        if (held[q * n + j]) l[j] = kept(q * n + j) ? l0[j] : l0[j] * (1.0 - r);
    }
    for (int i = dv.motion_ptr[sp]; i < dv.motion_ptr[sp + 1]; ++i) {
      const std::size_t k = q * n + static_cast<std::size_t>(dv.motion_dof[i]);
      const int slot = dv.motion_amp[i];
      double& target = local(k) ? l[k % q] : xs[k];
      const double from = local(k) ? l0[k % q] : start.x[k];
      target = slot == 1 ? from + (dv.motion_value[i] - from) * r : dv.motion_value[i] * amplitude_slot(dv, slot, tau);
    }
    if (a) {
      to_global3(a, l);
      std::copy(l, l + 3, &xs[q * n]);
    }
  }
  // The bodies' given rotation components (the free ones are unknowns).
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const Vec3<double> th = body_rotation_at(b, tau);
    const double tv[3] = {th.x, th.y, th.z};
    for (std::size_t j = 0; j < 3; ++j)
      if (body_eq[3 * static_cast<std::size_t>(b) + j] < 0) xs[ndof + 3 * static_cast<std::size_t>(b) + j] = model_size * tv[j];
  }
  place_slaves(xs);
  place_dependents(xs);
}

void StaticProblem::apply_correction(const std::vector<double>& du, double, std::vector<double>& xs,
                                     Configuration& c) const {
  for (int i = 0; i < neq; ++i) {
    const auto e = static_cast<std::size_t>(i);
    const std::size_t k = static_cast<std::size_t>(dof_of[e]);
    if (eq_local_node[e] < 0) {
      xs[k] += du[e];
      continue;
    }
    // A *TRANSFORM node's local direction j moves it along its axis j.
    const double* a = node_axes[static_cast<std::size_t>(eq_local_node[e])];
    const std::size_t base = k - k % q, j = k % q;
    for (std::size_t c = 0; c < 3; ++c) xs[base + c] += a[3 * j + c] * du[e];
  }
  place_slaves(xs);
  place_dependents(xs);
  trial_configuration(xs, c);
  if (!step.nlgeom || ndn < 5) return;
  for (std::size_t n = 0; n < nn; ++n) {
    const int i = static_cast<int>(n);
    const int e3 = equation[q * n + 3], e4 = equation[q * n + 4], e5 = ndn == 6 ? equation[q * n + 5] : -1;
    if (e3 < 0 && e4 < 0 && e5 < 0) continue;
    const double a = e3 >= 0 ? du[static_cast<std::size_t>(e3)] : 0.0, b = e4 >= 0 ? du[static_cast<std::size_t>(e4)] : 0.0;
    const double g = e5 >= 0 ? du[static_cast<std::size_t>(e5)] : 0.0;
    const Vec3<double> d = Configuration::at(c.d, i), t1 = Configuration::at(c.t1, i);
    const Vec3<double> theta = a * t1 + b * cross(d, t1) + g * d;
    // The explicit scheme's finite rotation (a spin about d only on the row elements' nodes),
    // the frame kept orthonormal.
    const Vec3<double> nd = normalized(rotate(theta, d));
    Vec3<double> nt = rotate(theta, t1);
    nt = normalized(nt - dot(nt, nd) * nd);
    Configuration::set(c.d, i, nd);
    Configuration::set(c.t1, i, nt);
  }
}

double StaticProblem::element_energies(const NewtonIterate& s) {
  double dissipation = 0;
  if (sys.solid.num_elements > 0) {
    if (step.nlgeom) {
      std::vector<double> slot(3 * sys.solid.conn.size());
      dissipation = continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st.ux.data(), st.uy.data(),
                     st.uz.data(), slot.data(), st.solid_energy.data(), st.solid_hourglass.data(), opt.tangent.threads,
                     ElementRange::All, nullptr, nullptr, 0.0, 0.0, 0.0,
                     s.cfg.thermal.empty() ? nullptr : s.cfg.thermal.data(),
                     st.solid_state.empty() ? nullptr : st.solid_state.data())  // committed: read only
                        .dissipation;
    } else if (small_strain) {  // the committed state's energies at s (written nowhere)
      std::vector<double> f;
      op.continuum().small_strain_force(translations(s.x), f, s.cfg.thermal.empty() ? nullptr : s.cfg.thermal.data(),
                                        st.solid_state.empty() ? nullptr : st.solid_state.data(), nullptr,
                                        &st.solid_energy, &st.solid_hourglass, &dissipation);
    } else {
      op.continuum().linearized_energies(translations(s.x), st.solid_energy, st.solid_hourglass,
                                         s.cfg.thermal.empty() ? nullptr : s.cfg.thermal.data());
    }
  }
  if (rotations) {
    std::vector<double> forces;
    if (step.nlgeom)  // plastic sections from the committed state (read only), as the continuum
      op.shells().element_forces(s.cfg, forces, &st.elem_energy, st.shell_state.empty() ? nullptr : st.shell_state.data(),
                                 nullptr, &dissipation);
    else if (small_strain)  // likewise
      op.shells().small_strain_forces(ref, s.x, ndn, forces, &st.elem_energy,
                                      st.shell_state.empty() ? nullptr : st.shell_state.data(), nullptr, &dissipation);
    else
      op.shells().linearized_forces(ref, s.x, ndn, forces, &st.elem_energy);
  }
  return dissipation;
}

void StaticProblem::store(const NewtonIterate& s, double time) {
  s.cfg.store(st);
  if (contact) contact->store(st);  // its last evaluation was s's
  st.solid_thermal = s.cfg.thermal;
  st.time = time;
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const Mat3<double> Rb = rotation_matrix(body_theta(b, s.x));
    std::copy(Rb.a, Rb.a + 9, &st.body_rotation[9 * static_cast<std::size_t>(b)]);
  }
}

void mode_frame_state(const StaticProblem& p, const std::vector<double>& dof, bool cells, StructureState& out) {
  copy_output_fields(p.st, out, cells);
  for (std::size_t n = 0; n < p.nn; ++n) {
    out.ux[n] = dof[p.q * n];
    out.uy[n] = dof[p.q * n + 1];
    out.uz[n] = dof[p.q * n + 2];
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::fill(out.elem_energy.begin(), out.elem_energy.end(), nan);
  std::fill(out.solid_energy.begin(), out.solid_energy.end(), nan);
}

std::string StaticProblem::equation_name(int eq) const {
  if (eq < 0 || eq >= neq) return "an unknown node";
  const auto k = static_cast<std::size_t>(dof_of[static_cast<std::size_t>(eq)]);
  if (k >= ndof) {  // a turning body's rotation component
    const std::size_t b = (k - ndof) / 3;
    return "the rotation about axis " + std::to_string((k - ndof) % 3 + 1) + " of the rigid body with reference node " +
           std::to_string(model.nodes.id[static_cast<std::size_t>(bodies.ref_node[b])]);
  }
  return dof_name(model, static_cast<int>(k), ndn);
}

std::string StaticProblem::dof_label(int dof) const { return dof_name(model, dof, ndn); }

}  // namespace halfstep
