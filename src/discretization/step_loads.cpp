#include "discretization/step_loads.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "core/vec3.hpp"
#include "discretization/element_blocks.hpp"
#include "elements/nurbs_quad.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// A load or boundary entry as carried between steps.
struct Carried {
  double value = 0;
  const Amplitude* amplitude = nullptr;
  bool ramp = false;      ///< default ramp (prescribed displacement without amplitude)
  bool velocity = false;  ///< TYPE=VELOCITY
  bool keep = false;      ///< *BOUNDARY, FIXED: held where each step starts
  double start = 0;       ///< a ramped load's value at the step start (static steps ramp from it)
  const SourceLoc* loc = nullptr;  ///< the deck line (temperatures: for messages)
};

/// Value an entry has at the end of a step of the given period (for carrying forward).
double end_value(const Carried& c, double period) {
  if (c.amplitude) return c.value * (*c.amplitude)(period);
  return c.value;  // a ramp ends at full value; a constant is constant
}

const Amplitude* find_amplitude(const Model& model, const std::string& name) {
  if (name.empty()) return nullptr;
  const auto it = model.amplitudes.find(name);
  return it == model.amplitudes.end() ? nullptr : &it->second;
}

/// Table slot of a carried entry in the step being built.
int slot_of(StepLoads& step, const Carried& c) {
  if (!c.amplitude) return c.ramp ? 1 : 0;
  for (std::size_t i = 0; i < step.amplitudes.named.size(); ++i)
    if (step.amplitudes.named[i] == c.amplitude) return static_cast<int>(i) + 2;
  step.amplitudes.named.push_back(c.amplitude);
  return static_cast<int>(step.amplitudes.named.size()) + 1;
}

using V3 = std::array<double, 3>;

V3 sub(const V3& a, const V3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot3(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
V3 cross3(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
/// v / |v|, or false when |v| <= tol.
bool unit(V3& v, double tol) {
  const double l = std::sqrt(dot3(v, v));
  if (!(l > tol)) return false;
  for (double& c : v) c /= l;
  return true;
}

}  // namespace

void node_frames(const Model& model, const StructureSystem& sys, std::vector<int>& frame_of, std::vector<double>& q) {
  frame_of.assign(static_cast<std::size_t>(sys.num_nodes), -1);
  for (const NodeTransform& t : model.transforms)
    for (int n : t.nodes) {
      const std::string node = "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(n)]);
      const bool dependent = (!sys.constraints.dependent.empty() && sys.constraints.dependent[n] != 0) ||
                             (!sys.bodies.empty() && sys.bodies.skip[n] != 0);
      if (dependent)
        throw InputError(t.loc, "*TRANSFORM on " + node +
                                    ", which a constraint moves (a dependent node of *TIE, *EQUATION, *MPC, "
                                    "*COUPLING or a *RIGID BODY node): not supported; leave it out of the set");
      if (sys.solid.planar)
        throw InputError(t.loc, "*TRANSFORM in a planar (CPS/CPE/CAX) model is not supported");
      double axes[9];
      if (!transform_axes(t, {sys.x0[n], sys.y0[n], sys.z0[n]}, axes))
        throw InputError(t.loc, "*TRANSFORM: the local system is undefined at " + node +
                                    (t.type == NodeTransform::Type::Cylindrical
                                         ? ", which lies on the cylinder axis (radial direction undefined)"
                                         : ", which lies at the centre or on the polar axis"));
      int& f = frame_of[static_cast<std::size_t>(n)];
      if (f < 0) {
        f = static_cast<int>(q.size() / 9);
        q.resize(q.size() + 9);
      }
      std::copy(axes, axes + 9, q.begin() + 9 * static_cast<long>(f));
    }
}

bool transform_axes(const NodeTransform& t, const std::array<double, 3>& x, double q[9]) {
  V3 e1, e2, e3;
  const double scale = std::max({std::sqrt(dot3(t.a, t.a)), std::sqrt(dot3(t.b, t.b)), std::sqrt(dot3(x, x)), 1e-300});
  const double tol = 1e-10 * scale;
  if (t.type == NodeTransform::Type::Rectangular) {
    e1 = t.a;
    if (!unit(e1, 0.0)) return false;
    e2 = t.b;
    const double p = dot3(e2, e1);
    for (int i = 0; i < 3; ++i) e2[i] -= p * e1[i];
    if (!unit(e2, 1e-10 * std::sqrt(dot3(t.b, t.b)))) return false;
    e3 = cross3(e1, e2);
  } else if (t.type == NodeTransform::Type::Cylindrical) {
    // 1 radial from the axis a -> b, 2 tangential, 3 along the axis.
    e3 = sub(t.b, t.a);
    if (!unit(e3, 0.0)) return false;
    e1 = sub(x, t.a);
    const double p = dot3(e1, e3);
    for (int i = 0; i < 3; ++i) e1[i] -= p * e3[i];
    if (!unit(e1, tol)) return false;
    e2 = cross3(e3, e1);
  } else {
    // 1 radial from the centre a, 2 along the parallel (about the polar axis a -> b),
    // 3 = 1 x 2 along the meridian towards the pole.
    V3 pole = sub(t.b, t.a);
    if (!unit(pole, 0.0)) return false;
    e1 = sub(x, t.a);
    if (!unit(e1, tol)) return false;
    e2 = cross3(pole, e1);
    if (!unit(e2, 1e-10)) return false;
    e3 = cross3(e1, e2);
  }
  for (int i = 0; i < 3; ++i) {
    q[i] = e1[i];
    q[3 + i] = e2[i];
    q[6 + i] = e3[i];
  }
  return true;
}

namespace {

/// Nodal forces of a unit pressure on face `face` of NURBS element e of the solid mesh, in
/// the reference configuration, into f (`dim` values per element node, dim the kind's):
/// f_a = -int R_a n dA (planar: times the thickness t, over a side), n the outward normal, by
/// a Gauss rule of p + 2 points (at most 5) per direction of the face. Planar faces 1..4 are
/// the sides eta = -1, xi = +1, eta = +1, xi = -1 (counter-clockwise, as a quadrilateral's
/// S1..S4); solid faces 1..6 are C3D8's S1..S6: zeta = -1, zeta = +1, eta = -1, xi = +1,
/// eta = +1, xi = -1.
void nurbs_face_unit_forces(const StructureSystem& sys, int e, int face, std::vector<double>& f) {
  const SolidMesh& sm = sys.solid;
  const SolidGroup& grp = sm.groups[static_cast<std::size_t>(sm.group_of(e))];
  const int dim = element_kind(grp.kind).dimension, nodes = grp.nodes_per_element;
  const int per = static_cast<int>(std::lround(dim == 3 ? std::cbrt(static_cast<double>(nodes))
                                                        : std::sqrt(static_cast<double>(nodes))));
  const int P = per - 1;
  const double* data = sm.data_of(e);
  const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
  f.assign(static_cast<std::size_t>(dim) * static_cast<std::size_t>(nodes), 0.0);
  const int n = std::min(5, P + 2);
  const double* C1[3] = {data + nodes, data + nodes + per * per, data + nodes + 2 * per * per};
  const int p[3] = {P, P, P};
  if (dim == 2) {
    const double t = sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])].thickness;
    for (int q = 0; q < n; ++q) {
      double s, w;
      nurbs_detail::gauss_legendre(n, q, s, w);
      const bool along_xi = face == 1 || face == 3;
      const double xi[2] = {along_xi ? s : (face == 2 ? 1.0 : -1.0), along_xi ? (face == 1 ? -1.0 : 1.0) : s};
      double R[nurbs::max_basis<2>()], dR[2 * nurbs::max_basis<2>()];
      nurbs::bezier_element_basis_kron<2>(p, xi, C1, data, R, dR);
      const int d = along_xi ? 0 : 1;
      const double sign = face <= 2 ? 1.0 : -1.0;  // S3 and S4 run against their parameter
      double tx = 0, ty = 0;
      for (int a = 0; a < nodes; ++a) {
        tx += sign * dR[2 * a + d] * sys.x0[static_cast<std::size_t>(c[a])];
        ty += sign * dR[2 * a + d] * sys.y0[static_cast<std::size_t>(c[a])];
      }
      // Outward normal times the length element: (ty, -tx); the pressure pushes against it.
      for (int a = 0; a < nodes; ++a) {
        f[2 * static_cast<std::size_t>(a)] -= t * w * R[a] * ty;
        f[2 * static_cast<std::size_t>(a) + 1] += t * w * R[a] * tx;
      }
    }
    return;
  }
  // The face's fixed direction and end: S1, S2 zeta = -1, +1; S3, S5 eta = -1, +1; S4, S6
  // xi = +1, -1.
  const int fixed = face <= 2 ? 2 : (face == 3 || face == 5) ? 1 : 0;
  const double end = (face == 2 || face == 4 || face == 5) ? 1.0 : -1.0;
  // With (fixed, a, b) cyclic, dX/dxi_a x dX/dxi_b points to increasing xi_fixed (det J =
  // dX/dxi_fixed . (dX/dxi_a x dX/dxi_b) > 0): outward at the end +1, inward at -1.
  const int da = (fixed + 1) % 3, db = (fixed + 2) % 3;
  for (int qa = 0; qa < n; ++qa)
    for (int qb = 0; qb < n; ++qb) {
      double sa, wa, sb, wb;
      nurbs_detail::gauss_legendre(n, qa, sa, wa);
      nurbs_detail::gauss_legendre(n, qb, sb, wb);
      double xi[3];
      xi[fixed] = end;
      xi[da] = sa;
      xi[db] = sb;
      double R[nurbs::max_basis<3>()], dR[3 * nurbs::max_basis<3>()];
      nurbs::bezier_element_basis_kron<3>(p, xi, C1, data, R, dR);
      Vec3<double> ta{0, 0, 0}, tb{0, 0, 0};
      for (int a = 0; a < nodes; ++a) {
        const std::size_t k = static_cast<std::size_t>(c[a]);
        const Vec3<double> X{sys.x0[k], sys.y0[k], sys.z0[k]};
        ta += dR[3 * a + da] * X;
        tb += dR[3 * a + db] * X;
      }
      const Vec3<double> nA = (end * wa * wb) * cross(ta, tb);  // outward normal times the area element
      for (int a = 0; a < nodes; ++a) {
        f[3 * static_cast<std::size_t>(a)] -= R[a] * nA.x;
        f[3 * static_cast<std::size_t>(a) + 1] -= R[a] * nA.y;
        f[3 * static_cast<std::size_t>(a) + 2] -= R[a] * nA.z;
      }
    }
}

/// Whether model element e is a NURBS element (one of a *NURBS PATCH).
bool is_nurbs_element(const Model& model, int e) {
  for (const NurbsPatchDef& d : model.nurbs_patches)
    if (e >= d.first_element && e < d.first_element + d.num_elements) return true;
  return false;
}

}  // namespace

namespace {

/// Builds the steps' load tables in deck order, carrying *BOUNDARY, *CLOAD and *DLOAD entries
/// from step to step (OP=MOD) or dropping them (OP=NEW), with the checks that need the system.
class StepLoadBuilder {
 public:
  StepLoadBuilder(const Model& model, const StructureSystem& sys)
      : model(model), sys(sys), blocks(element_blocks(sys)) {
    pressure_index.assign(static_cast<std::size_t>(model.elements.size()), -1);
    solid_index.assign(static_cast<std::size_t>(model.elements.size()), -1);
    for (const ElementBlock& b : blocks) {
      const PressureTable table = b.family->pressure_table;
      if (table == PressureTable::None) continue;
      const int offset = table == PressureTable::Element ? element_pressure_offset(sys, *b.family) : 0;
      std::vector<int>& index = table == PressureTable::Element ? pressure_index : solid_index;
      for (int e = b.first; e < b.first + b.count; ++e)
        index[static_cast<std::size_t>((*b.model_element)[static_cast<std::size_t>(e)])] = offset + e;
    }
    node_frames(model, sys, frame_of, frame_q);
    theta0.assign(static_cast<std::size_t>(sys.num_nodes), 0.0);
    for (const TemperatureLine& t : model.initial_temperatures)
      for (int n : t.nodes) theta0[static_cast<std::size_t>(n)] = t.value;
    place.assign(static_cast<std::size_t>(model.elements.size()), {-1, -1});
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const ElementBlock& b = blocks[i];
      for (int e = b.first; e < b.first + b.count; ++e)
        place[static_cast<std::size_t>((*b.model_element)[static_cast<std::size_t>(e)])] = {static_cast<int>(i), e};
    }
  }

  /// The next step's tables.
  StepLoads step_loads(const Step& step) {
    if (!model.transforms.empty() && step.modal)
      throw InputError(step.loc, "step '" + step.name + "' (" +
                                     (step.modal->steady_state ? "*STEADY STATE DYNAMICS" : "*MODAL DYNAMIC") +
                                     ") in a model with *TRANSFORM (first at " + model.transforms.front().loc.str() +
                                     "): local systems are supported in *STATIC, *FREQUENCY and *DYNAMIC (implicit or "
                                     "explicit) steps, not in the modal ones yet");
    // A steady-state dynamics step is a perturbation: it starts from no loads and its held
    // dofs at zero (nonzero values are its base motion), and what it applies does not carry
    // into the steps after it.
    const bool perturbation = step.modal && step.modal->steady_state;
    const auto saved_bcs = perturbation ? bcs : decltype(bcs){};
    const auto saved_cloads = perturbation ? cloads : decltype(cloads){};
    const auto saved_dloads = perturbation ? dloads : decltype(dloads){};
    carry_over(step);
    if (perturbation) {
      cloads.clear();
      dloads.clear();
      for (auto& kv : bcs) kv.second.value = 0.0;
    }
    add_boundaries(step);
    add_cloads(step);
    add_dloads(step);
    add_temperatures(step);
    if (!step.outputs.empty()) outputs = step.outputs;
    StepLoads s;
    s.name = step.name;
    s.period = step.time_period;
    s.fixed_increment = step.fixed_increment;
    boundary_tables(s);
    cload_tables(s);
    dload_tables(s, step.procedure == Procedure::Static);
    thermal_tables(s);
    refuse_explicit_spin(step, s);
    frame_tables(step, s);
    s.outputs = outputs;
    if (perturbation) {
      bcs = saved_bcs;
      cloads = saved_cloads;
      dloads = saved_dloads;
      return s;
    }
    previous_period = step.time_period;
    return s;
  }

 private:
  /// Entries propagated from the previous step are frozen at their end value; OP=NEW drops them.
  void carry_over(const Step& step) {
    auto freeze = [&](auto& map) {
      for (auto& kv : map) {
        Carried& c = kv.second;
        c.value = end_value(c, previous_period);
        c.amplitude = nullptr;
        c.ramp = false;
      }
    };
    freeze(bcs);
    freeze(cloads);
    freeze(dloads);
    for (auto& kv : temps) {
      Carried& c = kv.second;
      c.value = end_value(c, previous_period);
      c.amplitude = nullptr;
      c.ramp = false;
    }
    if (step.boundary_op_new) bcs.clear();
    if (step.cload_op_new) cloads.clear();
    if (step.dload_op_new) dloads.clear();
    if (step.temperature_op_new)  // back to the initial temperatures, as the step's default goes
      for (auto& [node, c] : temps) {
        Carried back;
        back.value = theta0[static_cast<std::size_t>(node)];
        back.loc = c.loc;
        back.ramp = step.procedure == Procedure::Static;
        back.start = c.value;
        c = back;
      }
  }

  /// The step's *TEMPERATURE lines: a node's temperature follows its line's amplitude
  /// (a(t) times the value, as Abaqus's), else the step's default: at once in explicit steps,
  /// ramped from the node's temperature at the step start in static ones. A later line on
  /// a node replaces an earlier one.
  void add_temperatures(const Step& step) {
    std::map<int, double> start_here;  // nodes set in this step: their temperature at its start
    for (const TemperatureLine& l : step.temperatures) {
      Carried c;
      c.value = l.value;
      c.amplitude = find_amplitude(model, l.amplitude);
      c.loc = &l.loc;
      for (int n : l.nodes) {
        Carried here = c;
        auto [it, first] = start_here.try_emplace(n, 0.0);
        if (first) {
          const auto prev = temps.find(n);
          it->second = prev == temps.end() ? theta0[static_cast<std::size_t>(n)]
                                           : (prev->second.ramp ? prev->second.start : prev->second.value);
        }
        if (step.procedure == Procedure::Static && !here.amplitude) {
          here.ramp = true;
          here.start = it->second;
        }
        temps[n] = here;
      }
    }
  }

  /// Each continuum element's temperature change theta - theta_initial, the mean over its
  /// nodes, as entries per amplitude slot (the constant part in slot 0), for the elements whose
  /// material expands. A kind that does not take thermal strain is refused where its
  /// temperature changes.
  void thermal_tables(StepLoads& s) {
    if (temps.empty()) return;
    // Per node with a temperature: its parts as (slot, value) less its initial temperature,
    // CSR (temps is ordered by node, so the parts go in node order and counts become offsets).
    std::vector<int> first(static_cast<std::size_t>(sys.num_nodes) + 1, 0);
    std::vector<std::pair<int, double>> part_of;
    std::vector<const SourceLoc*> loc_of(static_cast<std::size_t>(sys.num_nodes), nullptr);
    for (const auto& [node, c] : temps) {
      const auto n = static_cast<std::size_t>(node);
      const auto node_parts = parts(c);
      for (const auto& [value, part] : node_parts) part_of.push_back({slot_of(s, part), value});
      part_of.push_back({0, -theta0[n]});
      first[n + 1] = static_cast<int>(node_parts.size()) + 1;
      loc_of[n] = c.loc;
    }
    for (std::size_t n = 0; n + 1 < first.size(); ++n) first[n + 1] += first[n];
    const SolidMesh& sm = sys.solid;
    std::map<int, double> acc;
    for (const SolidGroup& g : sm.groups) {
      const ElementKindInfo& kind = element_kind(g.kind);
      for (int e = g.first; e < g.first + g.count; ++e) {
        if (!has_expansion(sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])])) continue;
        acc.clear();
        const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
        const SourceLoc* where = nullptr;
        for (int a = 0; a < g.nodes_per_element; ++a) {
          const auto n = static_cast<std::size_t>(c[a]);
          for (int i = first[n]; i < first[n + 1]; ++i)
            acc[part_of[static_cast<std::size_t>(i)].first] += part_of[static_cast<std::size_t>(i)].second / g.nodes_per_element;
          if (first[n] < first[n + 1]) where = loc_of[n];
        }
        for (const auto& [slot, value] : acc) {
          if (value == 0.0) continue;
          if (!kind.thermal_strain)
            throw InputError(*where, "*TEMPERATURE changes the temperature of element " +
                                         std::to_string(model.elements.id[static_cast<std::size_t>(sm.model_element[static_cast<std::size_t>(e)])]) +
                                         " (" + kind.name + "), whose material expands (*EXPANSION): " + kind.name +
                                         " elements do not take thermal strain yet (3-D continuum, plane strain and "
                                         "axisymmetric elements do)");
          s.thermal_elem.push_back(e);
          s.thermal_amp.push_back(slot);
          s.thermal_value.push_back(value);
        }
      }
    }
  }

  /// The step's *BOUNDARY lines. A rigid body's reference node may be turned by a *BOUNDARY
  /// in a static step: its slaves follow exactly (the static solver's coupling), so the
  /// rotation is a real prescribed motion there, not a held triad.
  void add_boundaries(const Step& step) {
    const auto is_reference = [&](int n) {
      return !sys.bodies.empty() &&
             std::find(sys.bodies.ref_node.begin(), sys.bodies.ref_node.end(), n) != sys.bodies.ref_node.end();
    };
    for (const Boundary& b : step.boundaries) {
      for (int dof = b.first_dof; dof <= b.last_dof; ++dof) {
        if (dof >= 4 && b.value != 0.0 &&
            (step.procedure != Procedure::Static || !std::all_of(b.nodes.begin(), b.nodes.end(), is_reference)))
          throw InputError(b.loc, "prescribed non-zero rotations (dof " + std::to_string(dof) +
                                      ") are supported on the reference nodes of *RIGID BODY and kinematic *COUPLING "
                                      "in *STATIC steps only; elsewhere rotations can only be held at zero");
        if (dof >= 4 && b.velocity)
          throw InputError(b.loc, "prescribed rotational velocities are not supported");
        Carried c;
        c.value = b.value;
        c.amplitude = find_amplitude(model, b.amplitude);
        c.velocity = b.velocity;
        c.keep = b.fixed;
        c.ramp = !c.amplitude && !b.velocity;  // displacements without amplitude ramp over the step
        for (int n : b.nodes) bcs[{n, dof}] = c;
      }
    }
  }

  /// Loads without an amplitude are applied at once in explicit, implicit and modal dynamic
  /// steps and ramped over a static step from the value they had (Abaqus: the STEP default
  /// amplitude of *DYNAMIC, the RAMP of *STATIC; the peer's dynamic steps apply them at once).
  static void ramp_from(const Step& step, Carried& c, const std::map<std::pair<int, int>, Carried>& map,
                        const std::pair<int, int>& key) {
    if (step.procedure != Procedure::Static || step.modal || step.dynamic || c.amplitude) return;
    c.ramp = true;
    const auto it = map.find(key);
    c.start = it == map.end() ? 0.0 : it->second.value;
  }

  /// The step's *CLOAD lines.
  void add_cloads(const Step& step) {
    // Within one step, *CLOAD lines on the same node and dof add up (same amplitude required);
    // across steps a new line replaces the carried one.
    std::map<std::pair<int, int>, bool> set_here;
    for (const ConcentratedLoad& l : step.cloads) {
      if (l.imaginary) continue;  // a steady-state step's imaginary part: its runner applies it
      Carried c;
      c.value = l.magnitude;
      c.amplitude = find_amplitude(model, l.amplitude);
      for (int n : l.nodes) {
        // A rigid body's reference node takes moments whatever its elements (the body's).
        const bool reference = !sys.bodies.empty() && sys.bodies.skip[n] == 0x3F &&
                               std::find(sys.bodies.ref_node.begin(), sys.bodies.ref_node.end(), n) !=
                                   sys.bodies.ref_node.end();
        if (l.dof >= 4 && !sys.has_rotations(n) && !reference)
          throw InputError(l.loc, "*CLOAD moment (dof " + std::to_string(l.dof) + ") on node " +
                                      std::to_string(model.nodes.id[n]) +
                                      ", which only solid elements use: solid nodes have no rotational dofs");
        const std::pair<int, int> key{n, l.dof};
        if (set_here.count(key)) {
          if (cloads[key].amplitude != c.amplitude)
            throw InputError(l.loc, "two *CLOAD lines on the same node and dof use different amplitudes");
          cloads[key].value += c.value;
        } else {
          Carried here = c;
          ramp_from(step, here, cloads, key);
          cloads[key] = here;
          set_here[key] = true;
        }
      }
    }
  }

  /// The step's *DLOAD lines.
  void add_dloads(const Step& step) {
    for (const DistributedLoad& l : step.dloads) {
      if (l.face == kGravityLoad) {
        add_gravity(step, l);
        continue;
      }
      if (l.face == kBodyForceLoad) {
        add_body_force(step, l);
        continue;
      }
      if (l.face == kCentrifugalLoad || l.face == kRotaryLoad) {
        add_spin(step, l);
        continue;
      }
      Carried c;
      c.value = l.magnitude;
      c.amplitude = find_amplitude(model, l.amplitude);
      for (int e : l.elements) {
        Carried here = c;
        ramp_from(step, here, dloads, {e, l.face});
        dloads[{e, l.face}] = here;
      }
    }
  }

  /// A *DLOAD GRAV line: each element's (and with the whole model, each MASS element's)
  /// three components, carried like pressures: a later GRAV on an element replaces all three.
  /// An element with a density-less material has no mass to pull on: refused, where the
  /// whole model's springs, dashpots and adhesion edges (no mass at all) are passed over.
  void add_gravity(const Step& step, const DistributedLoad& l) {
    const Amplitude* amplitude = find_amplitude(model, l.amplitude);
    const auto put = [&](int key) {
      for (int i = 0; i < 3; ++i) {
        Carried c;
        c.value = l.magnitude * l.direction[static_cast<std::size_t>(i)];
        c.amplitude = amplitude;
        ramp_from(step, c, dloads, {key, kGravityKey + i});
        dloads[{key, kGravityKey + i}] = c;
      }
    };
    for_each_mass(l, "GRAV", "gravity", put);
  }

  /// put(key) for each element of body load l that has mass (the carried key of an element,
  /// -1 - p of point mass p with the whole model's), where `load` (the *DLOAD type) and
  /// `acting` name a refused massless element. Springs, dashpots and kinds without mass
  /// (rigid, discrete) are passed over.
  template <class Put>
  void for_each_mass(const DistributedLoad& l, const std::string& load, const std::string& acting, Put put) const {
    std::vector<std::pair<int, double>> shares;
    for (int e : l.elements) {
      const auto k = static_cast<std::size_t>(e);
      if (is_discrete(model.elements.section[k])) continue;
      shares.clear();
      if (!element_mass(e, false, shares)) continue;
      double mass = 0;
      for (const auto& share : shares) mass += share.second;
      if (!(mass > 0))
        throw InputError(l.loc, "*DLOAD " + load + ": element " + std::to_string(model.elements.id[k]) + " (" +
                                    model.elements.abaqus_type[k] + ") has no mass for " + acting +
                                    " to act on: give its material a *DENSITY");
      put(e);
    }
    if (l.point_masses)
      for (std::size_t p = 0; p < model.point_masses.size(); ++p) put(-1 - static_cast<int>(p));
  }

  /// A *DLOAD BX, BY or BZ line: each element's component along its axis, carried on its own
  /// (a later BX replaces an earlier BX only). Springs, dashpots and adhesion edges have no
  /// volume for it.
  void add_body_force(const Step& step, const DistributedLoad& l) {
    int axis = 0;
    while (axis < 2 && l.direction[static_cast<std::size_t>(axis)] == 0.0) ++axis;
    Carried c;
    c.value = l.magnitude;
    c.amplitude = find_amplitude(model, l.amplitude);
    for (int e : l.elements) {
      if (is_discrete(model.elements.section[static_cast<std::size_t>(e)])) continue;
      Carried here = c;
      ramp_from(step, here, dloads, {e, kBodyForceKey + axis});
      dloads[{e, kBodyForceKey + axis}] = here;
    }
  }

  /// Appends model element e's lumped mass at its density (volume: its volume), (node, share)
  /// node by node, as its family spreads it (BlockFamily::lumped_mass; consistent: the
  /// consistent mass's row sums where the kind has one); MASS element p is the key -1 - p (no
  /// volume). False for an element whose family has no mass.
  bool element_mass(int e, bool volume, std::vector<std::pair<int, double>>& out, bool consistent = false) const {
    if (e < 0) {
      const PointMass& p = model.point_masses[static_cast<std::size_t>(-1 - e)];
      out.emplace_back(p.node, volume ? 0.0 : p.mass);
      return true;
    }
    const auto [block, index] = place[static_cast<std::size_t>(e)];
    if (block < 0) return false;
    const ElementBlock& b = blocks[static_cast<std::size_t>(block)];
    if (!b.family->lumped_mass) return false;
    b.family->lumped_mass(model, sys, b, index, volume, consistent, out);
    return true;
  }

  /// Model element e's consistent mass (BlockFamily::consistent_mass): false where its kind
  /// has none (or it is a MASS element, e < 0).
  bool element_consistent_mass(int e, std::vector<int>& nodes, std::vector<double>& M) const {
    if (e < 0) return false;
    const auto [block, index] = place[static_cast<std::size_t>(e)];
    if (block < 0) return false;
    const ElementBlock& b = blocks[static_cast<std::size_t>(block)];
    return b.family->consistent_mass && b.family->consistent_mass(model, sys, b, index, nodes, M);
  }

  /// Held and prescribed dofs: translations (motions) and rotations.
  void boundary_tables(StepLoads& s) {
    s.fixed_translation.assign(sys.num_nodes, 0);
    s.fixed_rotation.assign(sys.num_nodes, 0);
    for (const auto& [key, c] : bcs) {
      const auto [node, dof] = key;
      if (dof >= 4) {
        s.fixed_rotation[node] |= static_cast<std::uint8_t>(1u << (dof - 4));
        if (c.value != 0.0) {
          s.rotation_node.push_back(node);
          s.rotation_dof.push_back(dof - 4);
          s.rotation_value.push_back(c.value);
          s.rotation_amp.push_back(slot_of(s, c));
        }
        continue;
      }
      s.fixed_translation[node] |= static_cast<std::uint8_t>(1u << (dof - 1));
      if (c.keep) {
        s.keep_translation.resize(sys.num_nodes, 0);
        s.keep_translation[node] |= static_cast<std::uint8_t>(1u << (dof - 1));
      }
      if (c.value != 0.0) {
        s.motion_node.push_back(node);
        s.motion_dof.push_back(dof - 1);
        s.motion_value.push_back(c.value);
        s.motion_amp.push_back(slot_of(s, c));
        s.motion_velocity.push_back(c.velocity ? 1 : 0);
      }
    }
  }

  /// A ramp from a nonzero start is two entries whose values add up: the start held
  /// constant and the change ramped.
  static std::vector<std::pair<double, Carried>> parts(const Carried& c) {
    std::vector<std::pair<double, Carried>> out;
    if (c.ramp && c.start != 0.0 && !c.velocity) {
      Carried held;
      out.push_back({c.start, held});
      out.push_back({c.value - c.start, c});
    } else {
      out.push_back({c.value, c});
    }
    return out;
  }

  /// Concentrated loads.
  void cload_tables(StepLoads& s) {
    for (const auto& [key, c] : cloads)
      for (const auto& [value, part] : parts(c)) {
        s.load_node.push_back(key.first);
        s.load_dof.push_back(key.second - 1);
        s.load_value.push_back(value);
        s.load_amp.push_back(slot_of(s, part));
      }
  }

  /// A *DLOAD CENTRIF or ROTA line: each element's (with the whole model, each MASS element's)
  /// magnitude about the line's axis, carried like gravity (a later line of the same type on
  /// an element replaces it, axis included).
  void add_spin(const Step& step, const DistributedLoad& l) {
    const int kind = l.face == kCentrifugalLoad ? 0 : 1;
    const std::array<double, 7> axis{l.point[0],     l.point[1],     l.point[2], l.direction[0],
                                      l.direction[1], l.direction[2], static_cast<double>(kind)};
    int index = 0;
    while (index < static_cast<int>(spin_axes.size()) && spin_axes[static_cast<std::size_t>(index)] != axis) ++index;
    if (index == static_cast<int>(spin_axes.size())) spin_axes.push_back(axis);
    Carried c;
    c.value = l.magnitude;
    c.amplitude = find_amplitude(model, l.amplitude);
    c.loc = &l.loc;
    const auto put = [&](int key) {
      Carried here = c;
      ramp_from(step, here, dloads, {key, kSpinKey + kind});
      dloads[{key, kSpinKey + kind}] = here;
      spin_axis_of[{key, kSpinKey + kind}] = index;
    };
    for_each_mass(l, kind == 0 ? "CENTRIF" : "ROTA", "the rotation", put);
  }

  /// Distributed loads: shell pressures, solid face pressures, NURBS sides as nodal forces,
  /// gravity and body forces as nodal forces (each node's sum per direction and amplitude, in
  /// element order; consistent, the static procedures: by the consistent mass's row sums where
  /// a kind has one, as their inertia takes it, BlockFamily::lumped_mass).
  void dload_tables(StepLoads& s, bool consistent) {
    std::map<int, std::vector<double>> body_loads;  // amplitude slot -> 3 per node
    std::map<std::array<int, 4>, double> spin;      // (amplitude slot, axis, node, from) -> mass times magnitude
    std::vector<std::pair<int, double>> shares;
    std::vector<int> mass_nodes;
    std::vector<double> mass_matrix;
    for (const auto& [key, c] : dloads) {
      const auto [elem, face] = key;
      for (const auto& [value, part] : parts(c)) {
        if (face >= kSpinKey) {
          const int slot = slot_of(s, part), axis = spin_axis_of.at(key);
          if (consistent && element_consistent_mass(elem, mass_nodes, mass_matrix)) {
            const std::size_t n = mass_nodes.size();
            for (std::size_t a = 0; a < n; ++a)
              for (std::size_t b = 0; b < n; ++b)
                spin[{slot, axis, mass_nodes[a], mass_nodes[b]}] += value * mass_matrix[a * n + b];
            continue;
          }
          shares.clear();
          element_mass(elem, false, shares);
          for (const auto& [node, share] : shares) spin[{slot, axis, node, node}] += value * share;
        } else if (face >= kGravityKey) {
          const bool body = face >= kBodyForceKey;
          const auto axis = static_cast<std::size_t>(face - (body ? kBodyForceKey : kGravityKey));
          std::vector<double>& g = body_loads[slot_of(s, part)];
          g.resize(3 * static_cast<std::size_t>(sys.num_nodes), 0.0);
          shares.clear();
          element_mass(elem, body, shares, consistent);
          for (const auto& [node, share] : shares) g[3 * static_cast<std::size_t>(node) + axis] += value * share;
        } else if (face == 0) {
          s.pressure_elem.push_back(pressure_index[elem]);
          s.pressure_value.push_back(value);
          s.pressure_amp.push_back(slot_of(s, part));
        } else if (is_nurbs_element(model, elem)) {
          // A NURBS element's side: its consistent nodal forces, as concentrated loads in the
          // reference configuration (they do not follow the deformation; docs/input.md).
          std::vector<double> g;
          const int se = solid_index[elem];
          nurbs_face_unit_forces(sys, se, face, g);
          const int* c = &sys.solid.conn[static_cast<std::size_t>(sys.solid.conn_start(se))];
          const SolidGroup& grp = sys.solid.groups[static_cast<std::size_t>(sys.solid.group_of(se))];
          const std::size_t dim = g.size() / static_cast<std::size_t>(grp.nodes_per_element);  // 2 or 3 per node
          for (std::size_t a = 0; dim * a < g.size(); ++a)
            for (std::size_t k = 0; k < dim; ++k) {
              s.load_node.push_back(c[a]);
              s.load_dof.push_back(static_cast<int>(k));
              s.load_value.push_back(value * g[dim * a + k]);
              s.load_amp.push_back(slot_of(s, part));
            }
        } else {
          s.face_elem.push_back(solid_index[elem]);
          s.face_label.push_back(face);
          s.face_value.push_back(value);
          s.face_amp.push_back(slot_of(s, part));
        }
      }
    }
    for (const auto& [slot, g] : body_loads)
      for (std::size_t i = 0; i < g.size(); ++i)
        if (g[i] != 0.0) {
          s.load_node.push_back(static_cast<int>(i / 3));
          s.load_dof.push_back(static_cast<int>(i % 3));
          s.load_value.push_back(g[i]);
          s.load_amp.push_back(slot);
        }
    for (const auto& [key, value] : spin) {
      if (value == 0.0) continue;
      s.spin_amp.push_back(key[0]);
      s.spin_axis.push_back(key[1]);
      s.spin_node.push_back(key[2]);
      s.spin_from.push_back(key[3]);
      s.spin_value.push_back(value);
    }
    for (const std::array<double, 7>& a : spin_axes) s.spin_axes.insert(s.spin_axes.end(), a.begin(), a.end());
  }

  /// An explicit step with a rotational body force (its own or carried): refused at the line.
  void refuse_explicit_spin(const Step& step, const StepLoads& s) const {
    if (step.procedure != Procedure::ExplicitDynamic || s.spin_node.empty()) return;
    const SourceLoc* where = &step.loc;
    for (const auto& [key, c] : dloads)
      if (key.second >= kSpinKey && c.loc) where = c.loc;
    throw InputError(*where, "*DLOAD CENTRIF and ROTA (rotational body forces) act in static steps only, and step '" +
                                 step.name + "' is explicit: its equations are written in a fixed frame, as "
                                 "Abaqus/Explicit's are, which has none either; spin the model instead "
                                 "(*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY)");
  }

  /// The transformed nodes' local systems.
  void frame_tables(const Step& step, StepLoads& s) {
    for (int n = 0; n < sys.num_nodes; ++n) {
      const int f = frame_of[static_cast<std::size_t>(n)];
      if (f < 0) continue;
      // Shell (5-dof) rotations are held about the node's triad, not in a local system.
      if (s.fixed_rotation[n] && sys.node_dofs != 6 && sys.has_rotations(n))
        throw InputError(model.transforms.front().loc,
                         "*BOUNDARY on the rotations of transformed shell node " +
                             std::to_string(model.nodes.id[static_cast<std::size_t>(n)]) +
                             " (step '" + step.name + "'): rotations in a *TRANSFORM system are supported on 6-dof (beam) nodes only");
      s.frame_node.push_back(n);
      s.frame_q.insert(s.frame_q.end(), frame_q.begin() + 9 * static_cast<long>(f), frame_q.begin() + 9 * static_cast<long>(f + 1));
    }
  }

  /// The carried keys of gravity's x, y, z components, (element, kGravityKey + direction), and
  /// of the body forces BX, BY, BZ, (element, kBodyForceKey + axis).
  static constexpr int kGravityKey = 16, kBodyForceKey = 19;
  /// The carried keys of CENTRIF (kSpinKey) and ROTA (kSpinKey + 1) per element, after every
  /// other distributed load's; spin_axis_of gives each its axis in spin_axes.
  static constexpr int kSpinKey = 22;
  std::vector<std::array<double, 7>> spin_axes;
  std::map<std::pair<int, int>, int> spin_axis_of;

  const Model& model;
  const StructureSystem& sys;
  std::vector<ElementBlock> blocks;
  /// Model element -> (its block, its index in the block's family mesh), or (-1, -1).
  std::vector<std::pair<int, int>> place;
  // Keyed state carried across steps: (node, dof), (element, face 0..6) and the body loads'.
  std::map<std::pair<int, int>, Carried> bcs, cloads, dloads;
  std::map<int, Carried> temps;  ///< node -> its temperature (nodes never given one stay at theta0)
  std::vector<double> theta0;    ///< per node: the initial temperature (0 unless given)
  std::vector<OutputRequest> outputs;
  double previous_period = 0;
  /// Model element -> its row in the whole-element pressure table, and its index in the
  /// continuum mesh (face loads, NURBS sides); -1: none.
  std::vector<int> pressure_index, solid_index;
  std::vector<int> frame_of;
  std::vector<double> frame_q;
};

}  // namespace

BulkViscosityLine step_bulk_viscosity(const Model& model, std::size_t step) {
  BulkViscosityLine bulk;  // Abaqus's defaults until a step gives others
  for (std::size_t i = 0; i <= step && i < model.steps.size(); ++i)
    if (model.steps[i].bulk_viscosity) bulk = *model.steps[i].bulk_viscosity;
  if (step >= model.steps.size() || model.steps[step].procedure != Procedure::ExplicitDynamic) bulk.linear = bulk.quadratic = 0;
  return bulk;
}

std::vector<StepLoads> build_step_loads(const Model& model, const StructureSystem& sys) {
  std::vector<StepLoads> out;
  StepLoadBuilder builder(model, sys);
  for (std::size_t i = 0; i < model.steps.size(); ++i) {
    out.push_back(builder.step_loads(model.steps[i]));
    const BulkViscosityLine bulk = step_bulk_viscosity(model, i);
    out.back().bulk_linear = bulk.linear;
    out.back().bulk_quadratic = bulk.quadratic;
  }
  return out;
}

}  // namespace halfstep
