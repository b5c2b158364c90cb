// StructureState::bytes_for (what `halfstep check` reports without allocating a state) against
// the arrays StructureState::initialize builds, on decks of every element family: a twin of
// initialize's sizes that this test keeps honest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

template <class T>
std::size_t bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

TEST(StructureStateBytes, EqualTheArraysInitializeBuilds) {
  // Shells (plastic: section points), solids (plastic: point state), beams, FPM triangles,
  // and a model mixing shells, triangles and beams on 6-dof nodes.
  for (const char* name : {"shell_dome_j2", "solid_c3d8_pressure", "solid_fpm_j2", "beam_plastic", "tri_dome_j2",
                           "mixed_strip_bend"}) {
    SCOPED_TRACE(name);
    const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + name + ".inp");
    const StructureSystem sys = build_structure_system(model);
    StructureState st;
    st.initialize(sys);
    std::size_t built = bytes(st.ux) + bytes(st.uy) + bytes(st.uz);
    for (const auto& a : st.v) built += bytes(a);
    built += bytes(st.dx) + bytes(st.dy) + bytes(st.dz) + bytes(st.t1x) + bytes(st.t1y) + bytes(st.t1z) +
             bytes(st.r1x) + bytes(st.r1y) + bytes(st.r1z);
    built += bytes(st.elem_force) + bytes(st.elem_energy) + bytes(st.shell_state);
    built += bytes(st.solid_force) + bytes(st.solid_energy) + bytes(st.solid_hourglass) + bytes(st.solid_state);
    built += bytes(st.row<BeamMesh>().force) + bytes(st.row<BeamMesh>().state) + bytes(st.row<TriMesh>().force) + bytes(st.row<TriMesh>().state);
    EXPECT_GT(built, 0u);
    EXPECT_EQ(StructureState::bytes_for(sys), built);
  }
}

}  // namespace
}  // namespace halfstep
