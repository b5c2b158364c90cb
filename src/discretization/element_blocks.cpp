#include "discretization/element_blocks.hpp"

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
               const std::vector<int>& model_element, const std::vector<int>& conn, int nodes) {
  const int n = f.count(sys);
  if (n > 0) out.push_back({family_kind_id(family), 0, n, &model_element, &conn, 0, nodes, &f});
}

}  // namespace

std::string count_and_type(const Model& model, const ElementBlock& b, const std::string& suffix) {
  const int me = (*b.model_element)[static_cast<std::size_t>(b.first)];
  return std::to_string(b.count) + " " + model.elements.abaqus_type[static_cast<std::size_t>(me)] + suffix;
}

std::vector<ElementBlock> element_blocks(const StructureSystem& sys) {
  std::vector<ElementBlock> out;
  add_whole(out, sys, shell_block_family(), ElementFamily::Shell, sys.shell.model_element, sys.shell.conn, 4);
  for (const SolidGroup& g : sys.solid.groups)
    if (g.count > 0)
      out.push_back({g.kind, g.first, g.count, &sys.solid.model_element, &sys.solid.conn,
                     static_cast<std::size_t>(g.conn_offset), g.nodes_per_element, &solid_block_family()});
  add_whole(out, sys, beam_block_family(), ElementFamily::Beam, sys.beam.model_element, sys.beam.conn, 2);
  add_whole(out, sys, tri_block_family(), ElementFamily::FpmShell, sys.tri.model_element, sys.tri.conn, 3);
  return out;
}

const std::vector<const BlockFamily*>& block_families() {
  static const std::vector<const BlockFamily*> all{&shell_block_family(), &solid_block_family(), &beam_block_family(),
                                                   &tri_block_family()};
  return all;
}

}  // namespace halfstep
