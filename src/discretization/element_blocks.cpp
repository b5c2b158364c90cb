#include "discretization/element_blocks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "elements/registry.hpp"

namespace halfstep {

// Each family's table, defined in its own file: the one line a family adds here.
const BlockFamily& shell_block_family();
const BlockFamily& solid_block_family();
const BlockFamily& beam_block_family();
const BlockFamily& tri_block_family();

namespace {

/// Kind id of the (only) kind of a family that is not the continuum, or -1.
int family_kind_id(ElementFamily family) {
  for (int id = 0; id < num_element_kinds(); ++id)
    if (element_kind(id).family == family) return id;
  return -1;
}

/// One block of all of a fixed-kind family's elements (shells, beams, triangles).
void add_whole(std::vector<ElementBlock>& out, const StructureSystem& sys, const BlockFamily& f, ElementFamily family,
               const std::vector<int>& model_element, const std::vector<int>& conn, int nodes,
               const std::vector<double>& element_dt) {
  const int n = f.count(sys);
  if (n > 0) out.push_back({family_kind_id(family), 0, n, &model_element, &conn, 0, nodes, &element_dt, &f});
}

}  // namespace

std::string count_and_type(const Model& model, const ElementBlock& b, const std::string& suffix) {
  const int me = (*b.model_element)[static_cast<std::size_t>(b.first)];
  return std::to_string(b.count) + " " + model.elements.abaqus_type[static_cast<std::size_t>(me)] + suffix;
}

std::vector<ElementBlock> element_blocks(const StructureSystem& sys) {
  std::vector<ElementBlock> out;
  add_whole(out, sys, shell_block_family(), ElementFamily::Shell, sys.shell.model_element, sys.shell.conn, 4,
            sys.shell.element_dt);
  for (const SolidGroup& g : sys.solid.groups)
    if (g.count > 0)
      out.push_back({g.kind, g.first, g.count, &sys.solid.model_element, &sys.solid.conn,
                     static_cast<std::size_t>(g.conn_offset), g.nodes_per_element, &sys.solid.element_dt,
                     &solid_block_family()});
  const BeamMesh& beams = sys.mesh<BeamMesh>();
  add_whole(out, sys, beam_block_family(), ElementFamily::Beam, beams.model_element, beams.conn, BeamMesh::kCorners,
            beams.element_dt);
  const TriMesh& tris = sys.mesh<TriMesh>();
  add_whole(out, sys, tri_block_family(), ElementFamily::FpmShell, tris.model_element, tris.conn, TriMesh::kCorners,
            tris.element_dt);
  return out;
}

std::size_t family_index(const BlockFamily& f) {
  const std::vector<const BlockFamily*>& all = block_families();
  return static_cast<std::size_t>(std::find(all.begin(), all.end(), &f) - all.begin());
}

int element_pressure_offset(const StructureSystem& sys, const BlockFamily& f) {
  int offset = 0;
  for (const BlockFamily* g : block_families()) {
    if (g == &f) return offset;
    if (g->pressure_table == PressureTable::Element) offset += g->count(sys);
  }
  throw std::logic_error(std::string("element_pressure_offset: ") + f.what + " is not a listed family");
}

int continuum_cell_offset(const StructureSystem& sys) {
  int offset = 0;
  for (const BlockFamily* g : block_families()) {
    if (g == &solid_block_family()) return offset;
    offset += g->count(sys);
  }
  throw std::logic_error("continuum_cell_offset: the continuum family is not listed");
}

int element_pressure_count(const StructureSystem& sys) {
  int n = 0;
  for (const BlockFamily* g : block_families())
    if (g->pressure_table == PressureTable::Element) n += g->count(sys);
  return n;
}

void copy_element_rows(const std::vector<double>& from, const ElementShare& share, int components,
                       std::vector<double>& to) {
  const std::size_t nl = share.global.size(), ng = share.local.size();
  to.assign(static_cast<std::size_t>(components) * nl, 0.0);
  for (std::size_t c = 0; c < static_cast<std::size_t>(components); ++c)
    for (std::size_t i = 0; i < nl; ++i) to[c * nl + i] = from[c * ng + static_cast<std::size_t>(share.global[i])];
}

void pack_element_row(const std::vector<double>& store, std::size_t count, int components, int e,
                      std::vector<double>& out) {
  const bool sized = store.size() == static_cast<std::size_t>(components) * count;
  for (std::size_t c = 0; c < static_cast<std::size_t>(components); ++c)
    out.push_back(sized ? store[c * count + static_cast<std::size_t>(e)] : 0.0);
}

std::size_t unpack_element_row(const double* values, std::size_t left, std::size_t count, int components, int e,
                               std::vector<double>& store) {
  const auto nc = static_cast<std::size_t>(components);
  if (left < nc || store.size() != nc * count) return 0;
  for (std::size_t c = 0; c < nc; ++c) store[c * count + static_cast<std::size_t>(e)] = values[c];
  return nc;
}

const std::vector<const BlockFamily*>& block_families() {
  static const std::vector<const BlockFamily*> all{&shell_block_family(), &solid_block_family(), &beam_block_family(),
                                                   &tri_block_family()};
  return all;
}

}  // namespace halfstep
