#include "discretization/loads.hpp"

#include "discretization/element_blocks.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// CSR of entries grouped by key, keeping their order within a key.
void group(const std::vector<int>& key, int num_keys, std::vector<int>& ptr, std::vector<int>& order) {
  ptr.assign(num_keys + 1, 0);
  for (int k : key) ++ptr[k + 1];
  for (int i = 0; i < num_keys; ++i) ptr[i + 1] += ptr[i];
  order.assign(key.size(), 0);
  std::vector<int> next(ptr.begin(), ptr.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i) order[next[key[i]]++] = static_cast<int>(i);
}

template <class V>
std::vector<V> permute(const std::vector<V>& v, const std::vector<int>& order) {
  std::vector<V> out(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) out[i] = v[order[i]];
  return out;
}

/// Face pressure tables: the face's (or a planar element's edge's) nodes from its element,
/// ordered so that the right-hand normal (an edge's right-hand in-plane normal) points away
/// from the element's centroid (checked on the reference shape), and the node -> face slot
/// map. A plane edge's pressure is scaled here by its section's thickness.
void add_faces(const StructureSystem& sys, const StepLoads& step, StepDrive& d) {
  const SolidMesh& sm = sys.solid;
  d.num_faces = static_cast<int>(step.face_elem.size());
  for (int f = 0; f < d.num_faces; ++f) {
    const int e = step.face_elem[f];
    const int g = sm.group_of(e);
    const SolidGroup& grp = sm.groups[g];
    const int* c = &sm.conn[sm.conn_start(e)];
    int local[kFaceMaxNodes];
    const ElementKindInfo& kind = element_kind(grp.kind);
    const int shape = element_face(grp.nodes_per_element, kind.dimension, kind.axisymmetric, step.face_label[f], local);
    auto pos = [&](int n) { return Vec3<double>{sys.x0[n], sys.y0[n], sys.z0[n]}; };
    Vec3<double> centroid{0, 0, 0}, face_centre{0, 0, 0}, x[kFaceMaxNodes], fn[kFaceMaxNodes];
    for (int a = 0; a < grp.nodes_per_element; ++a) centroid += (1.0 / grp.nodes_per_element) * pos(c[a]);
    const int corners = face_corners(shape);
    for (int k = 0; k < kFaceMaxNodes; ++k) x[k] = local[k] >= 0 ? pos(c[local[k]]) : pos(c[local[0]]);
    for (int k = 0; k < corners; ++k) face_centre += (1.0 / corners) * x[k];
    // Forces of a unit suction (p = -1) sum to the area vector along the face normal.
    face_pressure_force(shape, x, -1.0, fn);
    Vec3<double> area{0, 0, 0};
    for (int k = 0; k < kFaceMaxNodes; ++k) area += fn[k];
    if (dot(area, face_centre - centroid) < 0) {  // reverse the orientation: corners 1 <-> last
      if (corners == 2) std::swap(local[0], local[1]);  // an edge of a clockwise-numbered element
      else std::swap(local[1], local[corners - 1]);
      // Mid-edge nodes follow their edges: (0,1) <-> (last,0), and for a quadrilateral
      // (1,2) <-> (2,3); a 6-node triangle's (1,2) stays.
      if (shape == kFaceTri6) std::swap(local[3], local[5]);
      if (shape == kFaceQuad8) {
        std::swap(local[4], local[7]);
        std::swap(local[5], local[6]);
      }
    }
    for (int k = 0; k < kFaceMaxNodes; ++k) d.face_nodes.push_back(local[k] >= 0 ? c[local[k]] : -1);
    d.face_shape.push_back(shape);
    d.face_amp.push_back(step.face_amp[f]);
    d.face_value.push_back(step.face_value[f] * (is_plane_edge(shape) ? sm.materials[sm.material[e]].thickness : 1.0));
  }
  std::vector<int> key;
  std::vector<int> slot;
  for (int i = 0; i < kFaceMaxNodes * d.num_faces; ++i)
    if (d.face_nodes[i] >= 0) {
      key.push_back(d.face_nodes[i]);
      slot.push_back(i);
    }
  std::vector<int> order;
  group(key, sys.num_nodes, d.face_node_ptr, order);
  d.face_node_slots = permute(slot, order);
  if (d.face_nodes.empty()) {
    d.face_nodes.push_back(-1);
    d.face_shape.push_back(0);
    d.face_amp.push_back(0);
    d.face_value.push_back(0.0);
  }
  if (d.face_node_slots.empty()) d.face_node_slots.push_back(0);
}

}  // namespace

DriveView host_view(const StepDrive& d) {
  return {d.held.data(),
          d.special.data(),
          d.period,
          static_cast<int>(d.amp_ptr.size()) - 1,
          d.amp_ptr.data(),
          d.amp_smooth.data(),
          d.amp_time.data(),
          d.amp_value.data(),
          d.load_ptr.data(),
          d.load_dof.data(),
          d.load_amp.data(),
          d.load_value.data(),
          d.motion_ptr.data(),
          d.motion_dof.data(),
          d.motion_amp.data(),
          d.motion_value.data(),
          d.motion_velocity.data(),
          d.frame_of.data(),
          d.frame_q.data(),
          d.has_pressure() ? d.pressure_ptr.data() : nullptr,
          d.pressure_amp.data(),
          d.pressure_value.data(),
          d.num_faces,
          d.face_nodes.data(),
          d.face_shape.data(),
          d.face_amp.data(),
          d.face_value.data(),
          d.face_node_ptr.data(),
          d.face_node_slots.data(),
          d.bulk_linear,
          d.bulk_quadratic,
          d.has_thermal() ? d.thermal_ptr.data() : nullptr,
          d.thermal_amp.data(),
          d.thermal_value.data()};
}

std::vector<double> thermal_changes(const StepDrive& d, int num_elements, double tau) {
  std::vector<double> out;
  if (!d.has_thermal()) return out;
  const DriveView v = host_view(d);
  out.resize(static_cast<std::size_t>(num_elements));
  for (int e = 0; e < num_elements; ++e) out[static_cast<std::size_t>(e)] = evaluate_thermal(v, e, tau);
  return out;
}

StepDrive build_step_drive(const StructureSystem& sys, const StepLoads& step, const std::vector<std::uint8_t>& held_rot) {
  StepDrive d;
  const int nn = sys.num_nodes;
  d.held.assign(nn, 0);
  // Beam models (6 dofs): bits 3-5 are the global rotations UR1..UR3 as the deck holds them.
  const bool six = sys.node_dofs == 6;
  const std::uint8_t rotations = six ? 0x38 : 0x18, all = six ? 0x3f : 0x1f;
  // A node that only constraints use (the term of an *EQUATION whose dependents are element
  // nodes; an S8 midside node) moves with them: it takes their mass and stiffness.
  std::vector<char> term(static_cast<std::size_t>(nn), 0);
  for (int t : sys.constraints.term_node) term[static_cast<std::size_t>(t)] = 1;
  for (int n = 0; n < nn; ++n) {
    const std::uint8_t rot = six ? step.fixed_rotation[n] : held_rot[n];
    d.held[n] = static_cast<std::uint8_t>(step.fixed_translation[n] | (rot << 3));
    if (!sys.has_rotations(n)) d.held[n] |= rotations;  // solid-only node: 3 dofs
    if (sys.solid.planar) d.held[n] |= 0x04;             // planar model: x and y only
    // An unused node has no mass and is held, unless a rigid body moves it (its reference
    // node may be outside the mesh; the body pass then reads the held translations here).
    if (!sys.node_used(n) && !term[static_cast<std::size_t>(n)] && (sys.bodies.empty() || sys.bodies.skip[n] == 0))
      d.held[n] = all;
  }
  // A rigid body's reference node turns the body: its held rotations are the step's (global;
  // the body pass holds them at rest), whatever elements its node has.
  for (int r : sys.bodies.ref_node)
    d.held[r] = static_cast<std::uint8_t>((d.held[r] & 0x7) | ((step.fixed_rotation[r] & 0x7) << 3));
  d.special.assign(nn, -1);
  auto mark = [&](int n) {
    if (d.special[n] < 0) d.special[n] = d.num_special++;
  };
  for (int n : step.load_node) mark(n);
  for (int n : step.motion_node) mark(n);
  for (int n : step.frame_node) mark(n);  // held local dofs need the frame even without loads
  d.period = step.period;
  d.bulk_linear = step.bulk_linear;
  d.bulk_quadratic = step.bulk_quadratic;

  d.amp_ptr.push_back(0);
  for (const Amplitude* a : step.amplitudes.named) {
    d.amp_smooth.push_back(a->kind == Amplitude::Kind::SmoothStep ? 1 : 0);
    if (a->time.empty()) {  // no points: constant 1
      d.amp_time.push_back(0.0);
      d.amp_value.push_back(1.0);
    } else {
      d.amp_time.insert(d.amp_time.end(), a->time.begin(), a->time.end());
      d.amp_value.insert(d.amp_value.end(), a->value.begin(), a->value.end());
    }
    d.amp_ptr.push_back(static_cast<int>(d.amp_time.size()));
  }

  std::vector<int> key, order;
  for (int n : step.load_node) key.push_back(d.special[n]);
  group(key, d.num_special, d.load_ptr, order);
  d.load_dof = permute(step.load_dof, order);
  d.load_amp = permute(step.load_amp, order);
  d.load_value = permute(step.load_value, order);

  key.clear();
  for (int n : step.motion_node) key.push_back(d.special[n]);
  group(key, d.num_special, d.motion_ptr, order);
  d.motion_dof = permute(step.motion_dof, order);
  d.motion_amp = permute(step.motion_amp, order);
  d.motion_value = permute(step.motion_value, order);
  d.motion_velocity = permute(step.motion_velocity, order);

  d.frame_of.assign(static_cast<std::size_t>(d.num_special), -1);
  for (std::size_t i = 0; i < step.frame_node.size(); ++i) d.frame_of[static_cast<std::size_t>(d.special[step.frame_node[i]])] = static_cast<int>(i);
  d.frame_q = step.frame_q;

  if (!step.pressure_elem.empty()) {
    group(step.pressure_elem, element_pressure_count(sys), d.pressure_ptr, order);
    d.pressure_amp = permute(step.pressure_amp, order);
    d.pressure_value = permute(step.pressure_value, order);
  }
  if (!step.thermal_elem.empty()) {
    group(step.thermal_elem, sys.solid.num_elements, d.thermal_ptr, order);
    d.thermal_amp = permute(step.thermal_amp, order);
    d.thermal_value = permute(step.thermal_value, order);
  }
  add_faces(sys, step, d);
  // Device copies of empty tables still need a valid pointer.
  for (auto* v : {&d.load_dof, &d.load_amp, &d.motion_dof, &d.motion_amp, &d.amp_smooth})
    if (v->empty()) v->push_back(0);
  for (auto* v : {&d.load_value, &d.motion_value, &d.amp_time, &d.amp_value})
    if (v->empty()) v->push_back(0.0);
  if (d.motion_velocity.empty()) d.motion_velocity.push_back(0);
  if (d.frame_of.empty()) d.frame_of.push_back(-1);
  if (d.frame_q.empty()) d.frame_q.push_back(0.0);
  return d;
}

}  // namespace halfstep
