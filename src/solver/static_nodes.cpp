// The nodes of a static step (solver-internal, beside static_problem.cpp): which rotation
// unknowns a held rotation holds on nodes with frames, and the reactions at held dofs.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

std::vector<std::uint8_t> holds_without_row_nodes(const StructureSystem& sys, const std::vector<std::uint8_t>& fixed_rotation) {
  std::vector<std::uint8_t> out = fixed_rotation;
  // The row elements' nodes keep their frames: those are physical (their elements read the
  // frames' increments), so hold_frame_spins maps their holds instead of turning the triad.
  std::apply([&](const auto&... mesh) {
    const auto clear = [&](const std::vector<int>& conn) {
      for (int n : conn) out[static_cast<std::size_t>(n)] = 0;
    };
    (clear(mesh.conn), ...);
  }, sys.rows);
  return out;
}

void StaticProblem::hold_frame_spins() {
  // A model with row elements has 6 dofs per node; the drive's rotation bits are the deck's
  // global axes, the unknowns spins about each node's frame (t1, t2 = d x t1, d).
  const Vec3<double> axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const auto name = [&](std::size_t n) { return std::to_string(model.nodes.id[n]); };
  for (std::size_t n = 0; n < nn; ++n) {
    const int i = static_cast<int>(n);
    if (!sys.has_rotations(i)) continue;  // the drive holds a solid-only node's rotations
    std::uint8_t global = loads.fixed_rotation[n];
    const int sp = dv.special[n];
    // A rotation given the value 0 holds it (the step's loads refuse other values on element
    // nodes: step_loads.cpp).
    for (int k = sp < 0 ? 0 : dv.motion_ptr[sp]; sp >= 0 && k < dv.motion_ptr[sp + 1]; ++k)
      if (dv.motion_dof[k] >= 3) global = static_cast<std::uint8_t>(global | (1u << (dv.motion_dof[k] - 3)));
    for (std::size_t c = 3; c < 6; ++c) held[q * n + c] = 0;
    if (!active[q * n + 5]) {  // a MITC4-only node: its triad was turned to its holds (align_triads)
      held[q * n + 3] = (held_rot[n] & 1u) ? 1 : 0;
      held[q * n + 4] = (held_rot[n] & 2u) ? 1 : 0;
      held[q * n + 5] = 1;  // no spin about d: MITC4 has no drilling stiffness
      continue;
    }
    // A linear step's spins are about the reference frame (linear_configuration's).
    const Vec3<double> t1 = step.nlgeom ? Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]} : Vec3<double>{st.r1x[n], st.r1y[n], st.r1z[n]};
    const Vec3<double> d = step.nlgeom ? Vec3<double>{st.dx[n], st.dy[n], st.dz[n]} : Vec3<double>{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    const Vec3<double> frame[3] = {t1, cross(d, t1), d};
    for (int j = 0; j < 3; ++j) {
      if (!(global & (1u << j))) continue;
      int along = -1;
      for (int c = 0; c < 3; ++c)
        if (std::fabs(dot(axes[j], frame[c])) > 1 - 1e-9) along = c;
      if (along < 0 && global != 7)
        throw InputError(step.loc, "step '" + step.name + "': node " + name(n) + " holds its rotation about global axis " +
                                       std::to_string(j + 1) +
                                       ", which is not an axis of the node's frame (t1, t2, d) at the step's start: "
                                       "static steps hold all three rotations of an FPM element's node, or those "
                                       "about its frame's axes, so far");
      if (along >= 0) held[q * n + 3 + static_cast<std::size_t>(along)] = 1;
    }
    if (global == 7)
      for (std::size_t c = 3; c < 6; ++c) held[q * n + c] = 1;
  }
}

void StaticProblem::reactions(const NewtonIterate& s, FullStepFields& full) const {
  // A held dof also carries the forces of the dependents that name it (T^T r): the support of
  // an *EQUATION's or a *TIE's independent node, of an S8 midside node (only equations use it).
  // A node of no element that equations name (a pre-tension node) prints, as the peer's
  // "forces", the internal force its equations carry to it (gathered alone: gi).
  std::vector<double> r(ndof, 0.0), gi(s.f_int.begin(), s.f_int.begin() + static_cast<std::ptrdiff_t>(ndof));
  std::vector<char> receives(ndof, 0);
  for (std::size_t k = 0; k < ndof; ++k) r[k] = s.f_int[k] - s.f_ext[k];
  for (std::size_t c = 0; c < 3; ++c) {
    full.nf[c].assign(nn, 0.0);
    for (std::size_t n = 0; n < nn; ++n) full.nf[c][n] = s.f_int[q * n + c];
  }
  const LinearConstraints& lc = sys.constraints;
  for (int i = 0; i < lc.num_dependent; ++i) {
    const auto si = static_cast<std::size_t>(i);
    if (lc.dep_dof[si] >= 3) continue;
    const std::size_t d = q * static_cast<std::size_t>(lc.dep_node[si]) + static_cast<std::size_t>(lc.dep_dof[si]);
    const double rd = r[d], gd = s.f_int[d];
    for (int t = lc.term_ptr[si]; t < lc.term_ptr[si + 1]; ++t) {
      const auto st = static_cast<std::size_t>(t);
      if (lc.term_dof[st] >= 3) continue;
      const std::size_t k = q * static_cast<std::size_t>(lc.term_node[st]) + static_cast<std::size_t>(lc.term_dof[st]);
      r[k] += lc.term_weight[st] * rd;
      gi[k] += lc.term_weight[st] * gd;
      receives[k] = 1;
    }
  }
  for (std::size_t n = 0; n < nn; ++n)
    if (!active[q * n] && !active[q * n + 1] && !active[q * n + 2])
      for (std::size_t c = 0; c < 3; ++c)
        if (receives[q * n + c]) full.nf[c][n] = gi[q * n + c];
  // An S8/S8R or B32/B32R deck node carries what its brick nodes carry, summed (the peer's
  // "forces" there): its own share alone would be a corner's middle third (twice the force
  // on it) or, for a node of no element, what one equation's parametrization hands it.
  for (const ExpandedNode& x : model.expanded_nodes) {
    const auto n = static_cast<std::size_t>(x.node);
    for (std::size_t c = 0; c < 3; ++c) {
      double f = s.f_int[q * n + c];
      for (int b : x.bricks) f += s.f_int[q * static_cast<std::size_t>(b) + c];
      full.nf[c][n] = f;
    }
  }
  for (std::size_t n = 0; n < nn; ++n) {
    // A *TRANSFORM node held in some local direction: its whole reaction, global components.
    const bool local_held = node_axes[n] && (held[q * n] || held[q * n + 1] || held[q * n + 2]);
    for (int c = 0; c < 3; ++c) {
      const std::size_t k = q * n + c;
      if (local_held || (!node_axes[n] && held[k] && (active[k] || receives[k]))) full.rf[c][n] = r[k];
    }
    if (ndn >= 5 && sys.has_rotations(static_cast<int>(n))) {  // reaction moments, global
      const int i = static_cast<int>(n);
      const Configuration& on = step.nlgeom ? s.cfg : ref;
      const Vec3<double> t1 = Configuration::at(on.t1, i), d = Configuration::at(on.d, i);
      const auto r = [&](std::size_t k) { return held[k] && active[k] ? s.f_int[k] - s.f_ext[k] : 0.0; };
      const Vec3<double> m = r(q * n + 3) * t1 + r(q * n + 4) * cross(d, t1) + (ndn == 6 ? r(q * n + 5) : 0.0) * d;
      full.rf[3][n] = m.x;
      full.rf[4][n] = m.y;
      full.rf[5][n] = m.z;
    }
  }
  // A rigid body's reference node carries the body's reaction: the sum of its slaves'
  // forces and their moment about it (about the current position under NLGEOM).
  for (int b = 0; b < bodies.num_bodies; ++b) {
    const std::size_t rn = static_cast<std::size_t>(bodies.ref_node[static_cast<std::size_t>(b)]);
    Vec3<double> force{0, 0, 0}, moment{0, 0, 0};
    for (int i = bodies.slave_ptr[static_cast<std::size_t>(b)]; i < bodies.slave_ptr[static_cast<std::size_t>(b) + 1]; ++i) {
      const std::size_t sn = static_cast<std::size_t>(bodies.slave_node[static_cast<std::size_t>(i)]);
      const Vec3<double> fs{s.f_int[q * sn] - s.f_ext[q * sn], s.f_int[q * sn + 1] - s.f_ext[q * sn + 1],
                            s.f_int[q * sn + 2] - s.f_ext[q * sn + 2]};
      Vec3<double> arm{bodies.offset[3 * static_cast<std::size_t>(i)], bodies.offset[3 * static_cast<std::size_t>(i) + 1],
                       bodies.offset[3 * static_cast<std::size_t>(i) + 2]};
      if (step.nlgeom) arm = arm + Vec3<double>{s.x[q * sn] - s.x[q * rn], s.x[q * sn + 1] - s.x[q * rn + 1], s.x[q * sn + 2] - s.x[q * rn + 2]};
      force = force + fs;
      moment = moment + cross(arm, fs);
    }
    const double fv[3] = {force.x, force.y, force.z}, mv[3] = {moment.x, moment.y, moment.z};
    for (int c = 0; c < 3; ++c) {
      if (held[q * rn + static_cast<std::size_t>(c)]) full.rf[c][rn] = fv[c];
      full.rf[3 + c][rn] = mv[c];
      full.nf[c][rn] = fv[c];  // the force the body's nodes carry, on its reference node
    }
  }
}

}  // namespace halfstep
