// The continuum elements as an element block family (element_blocks.hpp), a block per kind
// group: their energies, volumes, arrays and cell output (stress and strain tensors, Mises,
// hourglass energy, the axial force of trusses, springs and dashpots).
#include <limits>
#include <string>
#include <vector>

#include "discretization/continuum_pass.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/solid_results.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// Some continuum element follows J2 plasticity and the state store is there.
bool solid_plastic(const StructureSystem& sys, const StructureState&) {
  bool plastic = false;
  for (const SolidMaterial<double>& m : sys.solid.materials) plastic = plastic || m.model == kJ2Plastic;
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
}

/// The continuum elements of range through continuum_pass (dashpots read the latest
/// half-station velocities).
std::array<double, 3> solid_forces(const HostPass& p, ElementRange range) {
  const StructureSystem& sys = p.sys;
  StructureState& st = p.st;
  if (sys.solid.num_elements == 0) return {0.0, 0.0, 0.0};
  const double* const vel[3] = {st.v[0].data(), st.v[1].data(), st.v[2].data()};
  const SolidEnergy<double> se =
      continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                     st.solid_force.data(), st.solid_energy.data(), st.solid_hourglass.data(), p.threads, range,
                     st.solid_state.data(), vel);
  return {se.strain + se.hourglass, se.hourglass, se.dissipation};
}

/// Node n's continuum element slots (3 values each).
void solid_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double*) {
  if (sys.solid.num_elements > 0)
    add_slot_forces3(sys.solid.node_slot_ptr.data(), sys.solid.node_slots.data(), st.solid_force.data(), n, fi);
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
      solid_gather};
  return family;
}

}  // namespace halfstep
