#include "discretization/output_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "discretization/element_blocks.hpp"
#include "elements/registry.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

ResultMesh result_mesh(const StructureSystem& sys) {
  ResultMesh m;
  m.num_points = sys.num_nodes;
  m.x = sys.x0;
  m.y = sys.y0;
  m.z = sys.z0;
  const std::vector<ElementBlock> blocks = element_blocks(sys);
  std::size_t nc = 0, nconn = 0;
  for (const ElementBlock& b : blocks) {
    nc += static_cast<std::size_t>(b.count);
    nconn += static_cast<std::size_t>(b.count) * static_cast<std::size_t>(b.nodes);
  }
  m.conn.reserve(nconn);
  m.offsets.reserve(nc);
  m.types.reserve(nc);
  for (const ElementBlock& b : blocks) {
    const ElementKindInfo& k = element_kind(b.kind);
    const int* order = k.vtk_order;  // VTK orders this cell's nodes differently (null: the same)
    for (int e = 0; e < b.count; ++e) {
      const int* c = b.conn->data() + b.conn_offset + static_cast<std::size_t>(e) * static_cast<std::size_t>(b.nodes);
      for (int i = 0; i < b.nodes; ++i) m.conn.push_back(c[order ? order[i] : i]);
      m.offsets.push_back(static_cast<std::int64_t>(m.conn.size()));
      m.types.push_back(static_cast<std::uint8_t>(k.vtk_cell));
    }
  }
  return m;
}

namespace {

/// Rotation vector of every node row of st (row k: node (*nodes)[k], or k without nodes), from
/// the reference to the current nodal frame.
void rotations(const StructureSystem& sys, const StructureState& st, const std::vector<int>* nodes,
               std::vector<double>& out) {
  const std::size_t rows = out.size() / 3;
  for (std::size_t k = 0; k < rows; ++k) {
    const std::size_t n = nodes ? static_cast<std::size_t>((*nodes)[k]) : k;
    const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    const Vec3<double> r1{st.r1x[k], st.r1y[k], st.r1z[k]};
    const Vec3<double> d{st.dx[k], st.dy[k], st.dz[k]};
    const Vec3<double> t1{st.t1x[k], st.t1y[k], st.t1z[k]};
    const Vec3<double> th = rotation_vector(r1, cross(d0, r1), d0, t1, cross(d, t1), d);
    out[3 * k] = th.x;
    out[3 * k + 1] = th.y;
    out[3 * k + 2] = th.z;
  }
}

/// The labels of a vector's global components.
const std::vector<std::string> kXyz = {"X", "Y", "Z"};

/// Interleaves three component arrays into one 3-vector array.
void interleave(const std::vector<double>* comp, std::vector<double>& out) {
  const std::size_t nn = comp[0].size();
  for (std::size_t n = 0; n < nn; ++n)
    for (int i = 0; i < 3; ++i) out[3 * n + i] = comp[i][n];
}

void add_cell_fields(const Model& model, const StructureSystem& sys, const StructureState& st,
                     const FullStepFields& full, bool small_strain, bool points, FieldSet& fs) {
  const std::vector<const BlockFamily*>& families = block_families();
  int nc = 0;
  for (const BlockFamily* f : families) nc += f->count(sys);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double>& eids = fs.add_cell("ElementId", 1, nc).values;
  std::vector<double> energy_density(nc);
  CellContext c{model, sys, st, full, small_strain, fs, nc, eids, energy_density};
  c.points = points;
  bool plastic = false;
  for (const BlockFamily* f : families) plastic = plastic || (f->count(sys) > 0 && f->plastic(sys, st));
  if (plastic) c.peeq = &fs.add_cell("PEEQ", 1, nc, nan).values;
  int cell0 = 0;
  for (const BlockFamily* f : families) {
    const int n = f->count(sys);
    if (n == 0) continue;
    // Beams and FPM triangles share three-component SF and SM arrays (each cell has its own
    // element's meaning); MITC4 shells, whose SF has five, share a model with neither
    // (model/validate.cpp).
    if (f->shares_sf3 && !c.sf3) {
      FieldArray& sf = fs.add_cell("SF", 3, nc, nan);
      FieldArray& sm = fs.add_cell("SM", 3, nc, nan);
      sf.component_names = {"SF1", "SF2", "SF3"};
      sm.component_names = {"SM1", "SM2", "SM3"};
      c.sf3 = &sf.values;
      c.sm3 = &sm.values;
    }
    f->cells(c, cell0);
    cell0 += n;
  }
  fs.add_cell("StrainEnergyDensity", 1, nc).values = std::move(energy_density);
}

}  // namespace

FieldSet output_fields(const Model& model, const StructureSystem& sys, const StructureState& st,
                       const FullStepFields& full, bool cells, const std::vector<int>* nodes, bool small_strain,
                       bool points, const std::vector<double>* body_turn) {
  FieldSet fs;
  // References into the arrays are held while later arrays are added: no reallocation.
  fs.point.reserve(16);
  fs.cell.reserve(24);
  const std::size_t nn = nodes ? nodes->size() : static_cast<std::size_t>(sys.num_nodes);
  if (nodes) {
    // A compact frame: every node row of the frame must be of its nodes, and it has no cells.
    const std::vector<double>* rows[] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y,
                                         &st.t1z, &st.r1x, &st.r1y, &st.r1z, &full.v[0], &full.v[1], &full.v[2],
                                         &full.v[3], &full.v[4], &full.v[5], &full.rf[0], &full.rf[1], &full.rf[2],
                                         &full.rf[3], &full.rf[4], &full.rf[5], &full.a[0], &full.a[1], &full.a[2],
                                         &full.a[3], &full.a[4], &full.a[5]};
    for (const std::vector<double>* r : rows)
      if (r->size() != nn)
        throw std::logic_error("output_fields: a node row of " + std::to_string(r->size()) + " values in a frame of " +
                               std::to_string(nn) + " nodes");
    if (cells) throw std::logic_error("output_fields: cell arrays asked of a frame that holds some nodes only");
  }
  const auto node_of = [nodes](std::size_t k) { return nodes ? static_cast<std::size_t>((*nodes)[k]) : k; };
  std::vector<double>& ids = fs.add_point("NodeId", 1, nn).values;
  for (std::size_t k = 0; k < nn; ++k) ids[k] = static_cast<double>(model.nodes.id[node_of(k)]);
  // Nodal vectors in global components.
  const auto vector = [&](const char* name) -> std::vector<double>& {
    FieldArray& a = fs.add_point(name, 3, nn);
    a.component_names = kXyz;
    return a.values;
  };
  std::vector<double>& u = vector("U");
  for (std::size_t k = 0; k < nn; ++k) {
    u[3 * k] = st.ux[k];
    u[3 * k + 1] = st.uy[k];
    u[3 * k + 2] = st.uz[k];
  }
  std::vector<double>& ur = vector("UR");
  rotations(sys, st, nodes, ur);
  interleave(&full.v[0], vector("V"));
  interleave(&full.v[3], vector("VR"));
  std::vector<double>& rf = vector("RF");
  interleave(&full.rf[0], rf);
  std::vector<double>& rm = vector("RM");
  interleave(&full.rf[3], rm);
  // A rigid body turns as one: its reference node's UR is the body's rotation (a model of
  // solids turns no triad there, so the nodal frames would say 0), and the peer's ROT NODE
  // shows that rotation as its U and the moment on the body as its RF.
  const auto row_of = [&](int n) -> std::ptrdiff_t {
    if (!nodes) return n;
    const auto it = std::lower_bound(nodes->begin(), nodes->end(), n);
    return it != nodes->end() && *it == n ? it - nodes->begin() : -1;
  };
  if (sys.bodies.num_bodies > 0 && st.body_rotation.size() < 9 * static_cast<std::size_t>(sys.bodies.num_bodies))
    throw std::logic_error("output_fields: a frame without the rigid bodies' rotations");
  for (int k = 0; k < sys.bodies.num_bodies; ++k) {
    const std::ptrdiff_t ref = row_of(sys.bodies.ref_node[static_cast<std::size_t>(k)]);
    if (ref < 0) continue;
    const double* R = &st.body_rotation[9 * static_cast<std::size_t>(k)];
    const double* given = body_turn && body_turn->size() >= 3 * static_cast<std::size_t>(k + 1)
                              ? &(*body_turn)[3 * static_cast<std::size_t>(k)] : nullptr;
    const Vec3<double> th =
        given ? Vec3<double>{given[0], given[1], given[2]}
              : rotation_vector(Vec3<double>{1, 0, 0}, Vec3<double>{0, 1, 0}, Vec3<double>{0, 0, 1},
                                Vec3<double>{R[0], R[3], R[6]}, Vec3<double>{R[1], R[4], R[7]},
                                Vec3<double>{R[2], R[5], R[8]});
    ur[static_cast<std::size_t>(3 * ref)] = th.x;
    ur[static_cast<std::size_t>(3 * ref + 1)] = th.y;
    ur[static_cast<std::size_t>(3 * ref + 2)] = th.z;
  }
  // The .dat's "forces" (FullStepFields::nf), where the scheme gives them: a whole frame's
  // (added to fs below: adding an array here would move the ones referenced above).
  std::vector<double> nodal_force;
  if (!nodes && !full.nf[0].empty()) {
    nodal_force.resize(3 * full.nf[0].size());
    interleave(&full.nf[0], nodal_force);
  }
  for (const RigidBody& b : model.rigid_bodies) {
    if (b.rot_node < 0) continue;
    const std::ptrdiff_t r = row_of(b.rot_node), ref = row_of(b.ref_node);
    if (r < 0 || ref < 0) continue;
    for (int c = 0; c < 3; ++c) {
      u[static_cast<std::size_t>(3 * r + c)] = ur[static_cast<std::size_t>(3 * ref + c)];
      rf[static_cast<std::size_t>(3 * r + c)] = rm[static_cast<std::size_t>(3 * ref + c)];
      if (!nodal_force.empty()) nodal_force[static_cast<std::size_t>(3 * r + c)] = rm[static_cast<std::size_t>(3 * ref + c)];
    }
  }
  interleave(&full.a[0], vector("A"));
  interleave(&full.a[3], vector("AR"));
  if (!nodal_force.empty()) vector(kNodalForceArray) = std::move(nodal_force);
  if (nodes) return fs;  // what history rows read; contact forces are field output
  if (!st.contact_normal.empty()) {  // contact forces on the nodes (Abaqus CNORMF, CSHEARF)
    vector("CNORMF") = st.contact_normal;
    vector("CSHEARF") = st.contact_shear;
    // Contact pressure (discretization/contact.hpp, contact_pressure).
    std::vector<double>& p = fs.add_point("CPRESS", 1, nn).values;
    for (int n = 0; n < sys.num_nodes; ++n)
      p[n] = contact_pressure(sys.contact, n, &st.contact_normal[3 * static_cast<std::size_t>(n)]);
  }
  if (cells) add_cell_fields(model, sys, st, full, small_strain, points, fs);
  return fs;
}

}  // namespace halfstep
