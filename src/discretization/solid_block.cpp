// The continuum elements as an element block family (element_blocks.hpp), a block per kind
// group: their energies, volumes, arrays and cell output (stress and strain tensors, Mises,
// hourglass energy, the axial force of trusses, springs and dashpots).
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/forall.hpp"
#include "discretization/continuum_pass.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/loads.hpp"
#include "discretization/solid_results.hpp"
#include "elements/consistent_mass.hpp"
#include "elements/discrete.hpp"
#include "elements/registry.hpp"
#include "elements/solid_common.hpp"

namespace halfstep {

namespace {

/// Some continuum element follows a plastic law (one with PEEQ) and the state store is there.
bool solid_plastic(const StructureSystem& sys, const StructureState&) {
  bool plastic = false;
  for (const SolidMaterial<double>& m : sys.solid.materials) plastic = plastic || peeq_component(m) >= 0;
  // The state store also serves elastic kinds that carry state of their own (the FPM
  // hexahedron's frame and strain): PEEQ needs a plastic law.
  return plastic && sys.solid.state_size > 0;
}

/// Continuum elements: stress and strain tensors, Mises, hourglass energy, axial forces of
/// trusses, springs and dashpots.
void solid_cells(CellContext& c, int cell0) {
  const Model& model = c.model;
  const StructureSystem& sys = c.sys;
  const StructureState& st = c.st;
  const FullStepFields& full = c.full;
  FieldSet& fs = c.fs;
  const bool plastic_solids = solid_plastic(sys, st);
  const int ns = sys.solid.num_elements, nc = c.nc;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FieldArray& s_array = fs.add_cell("S", 6, nc, nan);
  FieldArray& e_array = fs.add_cell("E", 6, nc, nan);
  s_array.symmetric_tensor = e_array.symmetric_tensor = true;
  std::vector<double>& s6 = s_array.values;
  std::vector<double>& e6 = e_array.values;
  std::vector<double>& mises = fs.add_cell("Mises", 1, nc, nan).values;
  std::vector<double>& hg = fs.add_cell("HourglassEnergyDensity", 1, nc, nan).values;
  const double* const vel[3] = {full.v[0].data(), full.v[1].data(), full.v[2].data()};
  const bool have_vel = full.v[0].size() == static_cast<std::size_t>(sys.num_nodes);
  const std::vector<SolidCellResult> solid = solid_cell_results(sys, st, have_vel ? vel : nullptr, c.small_strain);
  // Trusses, springs and dashpots: their force (tension positive), NaN on other cells.
  bool axial = false;
  for (const SolidGroup& g : sys.solid.groups)
    axial = axial || element_kind(g.kind).cross_section || element_kind(g.kind).discrete;
  std::vector<double>* axial_force = axial ? &fs.add_cell("AxialForce", 1, nc, nan).values : nullptr;
  for (int e = 0; e < ns; ++e) {
    const int cell = cell0 + e;
    for (int i = 0; i < 6; ++i) {
      s6[6 * cell + i] = solid[e].stress[i];
      e6[6 * cell + i] = solid[e].strain[i];
    }
    mises[cell] = solid[e].mises;
    c.eids[cell] = static_cast<double>(model.elements.id[sys.solid.model_element[e]]);
    c.energy_density[cell] = st.solid_energy[e] / sys.solid.volume[e];
    hg[cell] = st.solid_hourglass[e] / sys.solid.volume[e];
    if (plastic_solids) (*c.peeq)[cell] = solid[e].peeq;
    if (axial_force) (*axial_force)[cell] = solid[e].axial_force;
  }
  if (!c.points) return;
  // The solids are the only cells with point values: cells before them (the shells) and
  // after them (beams, triangles) have none.
  SolidPointResults r = solid_point_results(sys, st, c.small_strain);
  fs.ip_first.assign(static_cast<std::size_t>(nc) + 1, 0);
  for (int cell = 0; cell <= nc; ++cell)
    fs.ip_first[static_cast<std::size_t>(cell)] =
        r.first[static_cast<std::size_t>(std::clamp(cell - cell0, 0, ns))];
  const auto add = [&](const char* name, int components, std::vector<double>&& values) {
    FieldArray& a = fs.ip.emplace_back();
    a.name = name;
    a.components = components;
    a.symmetric_tensor = components == 6;
    a.values = std::move(values);
  };
  add("S", 6, std::move(r.stress));
  add("E", 6, std::move(r.strain));
  if (plastic_solids) add("PEEQ", 1, std::move(r.peeq));
}

/// The continuum elements of range through continuum_pass (dashpots and the step's bulk
/// viscosity read the latest half-station velocities).
ElementSums solid_forces(const HostPass& p, ElementRange range) {
  const StructureSystem& sys = p.sys;
  StructureState& st = p.st;
  if (sys.solid.num_elements == 0) return {0.0, 0.0, 0.0};
  const double* const vel[3] = {st.v[0].data(), st.v[1].data(), st.v[2].data()};
  // The temperature changes at this pass's time, once per pass (the interior range follows
  // the boundary one at the same time; a pass over all elements computes them itself).
  if (p.drive.thermal_ptr && range != ElementRange::Interior) {
    st.solid_thermal.resize(static_cast<std::size_t>(sys.solid.num_elements));
    forall(0, sys.solid.num_elements, p.threads, ThermalBody<double>{p.drive, p.tau, st.solid_thermal.data()});
  } else if (!p.drive.thermal_ptr && !st.solid_thermal.empty()) {
    st.solid_thermal.clear();
  }
  const SolidEnergy<double> se =
      continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                     st.solid_force.data(), st.solid_energy.data(), st.solid_hourglass.data(), p.threads, range,
                     st.solid_state.data(), vel, p.drive.bulk_linear, p.drive.bulk_quadratic, p.half_dt,
                     st.solid_thermal.empty() ? nullptr : st.solid_thermal.data(), nullptr,
                     st.solid_thermal_last.empty() ? nullptr : st.solid_thermal_last.data(),
                     st.solid_thermal_slope.empty() ? nullptr : st.solid_thermal_slope.data());
  return {se.strain + se.hourglass, se.hourglass, se.dissipation, se.viscous, se.thermal_work};
}

/// Node n's continuum element slots (3 values each).
void solid_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double*) {
  if (sys.solid.num_elements > 0)
    add_slot_forces3(sys.solid.node_slot_ptr.data(), sys.solid.node_slots.data(), st.solid_force.data(), n, fi);
}

/// The continuum elements of share (BlockFamily::restrict_mesh): a group per kind with local
/// elements, its leading boundary elements counted per whole-model group.
void solid_restrict_mesh(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                         StructureSystem& s) {
  const SolidMesh& gm = whole.solid;
  SolidMesh& m = s.solid;
  m.materials = gm.materials;
  m.material_name = gm.material_name;
  m.alpha = gm.alpha;
  m.beta = gm.beta;
  m.hourglass_kappa = gm.hourglass_kappa;
  m.planar = gm.planar;
  m.num_elements = static_cast<int>(share.global.size());
  // share.boundary has an entry per whole-model group with elements (element_blocks' blocks).
  std::vector<int> block_of_group;
  int blocks = 0;
  for (const SolidGroup& gg : gm.groups) block_of_group.push_back(gg.count > 0 ? blocks++ : -1);
  for (std::size_t i = 0; i < share.global.size(); ++i) {
    const int e = share.global[i];
    const int group = gm.group_of(e);
    const SolidGroup& gg = gm.groups[static_cast<std::size_t>(group)];
    if (m.groups.empty() || m.groups.back().kind != gg.kind) {
      SolidGroup ng;
      ng.kind = gg.kind;
      ng.first = static_cast<int>(i);
      ng.conn_offset = static_cast<int>(m.conn.size());
      ng.nodes_per_element = gg.nodes_per_element;
      ng.boundary = share.boundary[static_cast<std::size_t>(block_of_group[static_cast<std::size_t>(group)])];
      m.groups.push_back(ng);
    }
    ++m.groups.back().count;
    m.model_element.push_back(gm.model_element[e]);
    m.material.push_back(gm.material[e]);
    m.volume.push_back(gm.volume[e]);
    m.element_dt.push_back(gm.element_dt[e]);
    const std::size_t base = static_cast<std::size_t>(gg.conn_offset) +
                             static_cast<std::size_t>(e - gg.first) * static_cast<std::size_t>(gg.nodes_per_element);
    for (int k = 0; k < gg.nodes_per_element; ++k)
      m.conn.push_back(node_local[static_cast<std::size_t>(gm.conn[base + static_cast<std::size_t>(k)])]);
  }
  // Constant element data (NURBS extraction operators, adhesion edges' sides) goes with its
  // elements: adhesion edges run in explicit steps.
  if (!gm.element_data_ptr.empty()) {
    m.element_data_ptr.assign(1, 0);
    for (const int e : share.global) {
      const auto k = static_cast<std::size_t>(e);
      m.element_data.insert(m.element_data.end(), gm.element_data.begin() + static_cast<std::ptrdiff_t>(gm.element_data_ptr[k]),
                            gm.element_data.begin() + static_cast<std::ptrdiff_t>(gm.element_data_ptr[k + 1]));
      m.element_data_ptr.push_back(m.element_data.size());
    }
  }
  assign_points(m);
  // Every rank's store has the global component count (a subdomain may lack the kind that
  // needs the most): frames gather the state with the global layout.
  m.state_size = gm.state_size;
  build_node_slots(m, s.num_nodes);
}

/// A gathered frame's continuum arrays: strain and hourglass energies, the points' state.
void solid_frame_size(const StructureSystem& whole, StructureState& out) {
  const auto n = static_cast<std::size_t>(whole.solid.num_elements);
  out.solid_energy.assign(n, 0.0);
  out.solid_hourglass.assign(n, 0.0);
  out.solid_thermal.assign(n, 0.0);
  if (whole.solid.state_size > 0)
    out.solid_state.assign(static_cast<std::size_t>(whole.solid.state_size) * whole.solid.num_points, 0.0);
}

/// Integration points of continuum element e of sm.
int points_of(const SolidMesh& sm, int e) {
  return element_kind(sm.groups[static_cast<std::size_t>(sm.group_of(e))].kind).points;
}

/// Element e's strain and hourglass energies and temperature change, then its points' state (component-major within
/// the element) when the model has a state store.
void solid_frame_pack(const StructureSystem& local, const StructureState& st, int e, std::vector<double>& out) {
  const SolidMesh& m = local.solid;
  out.push_back(st.solid_energy[static_cast<std::size_t>(e)]);
  out.push_back(st.solid_hourglass[static_cast<std::size_t>(e)]);
  out.push_back(st.solid_thermal.empty() ? 0.0 : st.solid_thermal[static_cast<std::size_t>(e)]);
  const auto nc = static_cast<std::size_t>(m.state_size);
  if (nc == 0) return;
  const auto np = static_cast<std::size_t>(points_of(m, e));
  const std::size_t first = m.first_point(e);
  const bool sized = st.solid_state.size() == nc * m.num_points;
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t p = 0; p < np; ++p) out.push_back(sized ? st.solid_state[c * m.num_points + first + p] : 0.0);
}

/// Puts solid_frame_pack's values of whole-model element e in place.
std::size_t solid_frame_unpack(const StructureSystem& whole, int e, const double* v, std::size_t left,
                               StructureState& out) {
  const SolidMesh& m = whole.solid;
  const auto nc = static_cast<std::size_t>(m.state_size);
  const std::size_t np = nc == 0 ? 0 : static_cast<std::size_t>(points_of(m, e));
  const std::size_t need = 3 + nc * np;
  if (left < need) return 0;
  out.solid_energy[static_cast<std::size_t>(e)] = *v++;
  out.solid_hourglass[static_cast<std::size_t>(e)] = *v++;
  out.solid_thermal[static_cast<std::size_t>(e)] = *v++;
  const std::size_t first = nc == 0 ? 0 : m.first_point(e);
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t p = 0; p < np; ++p) out.solid_state[c * m.num_points + first + p] = *v++;
  return need;
}

/// The kind's stable bound now over undeformed; springs and dashpots keep 1 (their bound is
/// set by their nodes' masses, not their shape), as do elements without a finite bound.
void solid_bound_ratios(const StructureSystem& sys, const StructureState& st, const ElementBlock& b, double* ratio) {
  visit_continuum_kind(b.kind, [&](auto kind) {
    using K = decltype(kind);
    for (int e = b.first; e < b.first + b.count; ++e) ratio[e - b.first] = 1.0;
    if constexpr (!IsDiscrete<K>::value) {
      for (int e = b.first; e < b.first + b.count; ++e) {
        Vec3<double> X[K::kNodes], x[K::kNodes];
        int a = 0;
        for_element_nodes(b, e, [&](int n) {
          const auto k = static_cast<std::size_t>(n);
          X[a] = {sys.x0[k], sys.y0[k], sys.z0[k]};
          x[a++] = {sys.x0[k] + st.ux[k], sys.y0[k] + st.uy[k], sys.z0[k] + st.uz[k]};
        });
        const SolidMaterial<double>& m =
            sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])];
        const double b0 = kind_stable_dt<K>(X, m, sys.solid.hourglass_kappa, sys.solid.data_of(e));
        const double b1 = kind_stable_dt<K>(x, m, sys.solid.hourglass_kappa, sys.solid.data_of(e));
        if (b0 > 0 && b0 < 1e300) ratio[e - b.first] = b1 / b0;
      }
    }
  });
}

/// Block b's element e's nodes (K::kNodes) and their positions in the deck.
template <class K>
void deck_element(const Model& model, const ElementBlock& b, int e, Vec3<double>* X, int* nodes) {
  int a = 0;
  for_element_nodes(b, e, [&](int n) {
    const auto k = static_cast<std::size_t>(n);
    nodes[a] = n;
    X[a++] = {model.nodes.x[k], model.nodes.y[k], model.nodes.z[k]};
  });
}

/// The density of continuum element e's material.
double solid_density(const StructureSystem& sys, int e) {
  return sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])].density;
}

/// Element e's mass rho V (or its volume V) at the model's node positions, to its nodes by the
/// kind's mass fractions (as the system build spreads it), or, consistent, by the row sums of
/// the kind's consistent mass where it has one.
void solid_lumped_mass(const Model& model, const StructureSystem& sys, const ElementBlock& b, int e, bool volume,
                       bool consistent, std::vector<std::pair<int, double>>& out) {
  visit_continuum_kind(b.kind, [&](auto kind) {
    using K = decltype(kind);
    Vec3<double> X[K::kNodes];
    int nodes[K::kNodes];
    deck_element<K>(model, b, e, X, nodes);
    const double rho = volume ? 1.0 : solid_density(sys, e);
    if constexpr (ConsistentMass<K>::kHas) {
      double M[K::kNodes * K::kNodes];
      if (consistent && ConsistentMass<K>::matrix(X, rho, M) > 0) {
        for (int a = 0; a < K::kNodes; ++a) {
          double row = 0;
          for (int c = 0; c < K::kNodes; ++c) row += M[a * K::kNodes + c];
          out.emplace_back(nodes[a], row);
        }
        return;
      }
    }
    double frac[K::kNodes];
    kind_mass_fractions<K>(X, frac, sys.solid.data_of(e));
    const double mass = rho * sys.solid.volume[static_cast<std::size_t>(e)];
    for (int i = 0; i < K::kNodes; ++i) out.emplace_back(nodes[i], frac[i] * mass);
  });
}

/// Element e's consistent mass M_ab at its deck density where its kind has one (false
/// otherwise, or for an invalid element).
bool solid_consistent_mass(const Model& model, const StructureSystem& sys, const ElementBlock& b, int e,
                           std::vector<int>& nodes, std::vector<double>& M) {
  bool has = false;
  visit_continuum_kind(b.kind, [&](auto kind) {
    using K = decltype(kind);
    if constexpr (ConsistentMass<K>::kHas) {
      Vec3<double> X[K::kNodes];
      int here[K::kNodes];
      deck_element<K>(model, b, e, X, here);
      double m[K::kNodes * K::kNodes];
      if (!(ConsistentMass<K>::matrix(X, solid_density(sys, e), m) > 0)) return;
      nodes.assign(here, here + K::kNodes);
      M.assign(m, m + K::kNodes * K::kNodes);
      has = true;
    }
  });
  return has;
}

}  // namespace

/// The continuum elements' table (element_blocks.cpp lists it).
const BlockFamily& solid_block_family() {
  static const BlockFamily family{
      "solid",
      [](const StructureSystem& sys) { return sys.solid.num_elements; },
      [](const StructureSystem&, const StructureState& st, int e) {
        return st.solid_energy[static_cast<std::size_t>(e)] + st.solid_hourglass[static_cast<std::size_t>(e)];
      },
      [](const StructureSystem& sys, int e) { return sys.solid.volume[static_cast<std::size_t>(e)]; },
      [](const StructureSystem& sys) {
        const SolidMesh& m = sys.solid;
        return vector_bytes(m.model_element) + vector_bytes(m.conn) + vector_bytes(m.material) + vector_bytes(m.volume) + vector_bytes(m.element_dt) +
               vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots);
      },
      [](const StructureSystem& sys) { return sys.solid.materials.size(); },
      [](const Model& model, const StructureSystem&, const ElementBlock& b) {
        const std::string formulation = element_kind(b.kind).formulation;
        return count_and_type(model, b, formulation.empty() ? "" : " (" + formulation + ")");
      },
      solid_plastic,
      false,
      solid_cells,
      solid_forces,
      [](const StructureSystem&, StructureState&, bool) {},  // face pressures are the step's
      solid_gather,
      PressureTable::Face,
      solid_restrict_mesh,
      // The points' state is not carried: each rank starts it as StructureState::initialize does.
      [](const StructureSystem&, const StructureState&, const StructureSystem&, const ElementShare&, StructureState&) {},
      solid_frame_size,
      solid_frame_pack,
      solid_frame_unpack,
      solid_bound_ratios,
      [](const StructureSystem& sys, int e) {
        return sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])].density > 0;
      },
      solid_lumped_mass,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.solid.element_dt; },
      "solid",
      64,
      solid_consistent_mass};
  return family;
}

}  // namespace halfstep
