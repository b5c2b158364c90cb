// Tests of the whole-model frames of distributed runs (src/parallel/frame_gather.hpp): one
// rank's share of a frame, gathered by a single-process communicator, must land in the whole
// model's layout: every element state value (beams, FPM triangles, plastic shells' section
// points, solid points) at its global element and component, every owned node's values at its
// global node, and nothing anywhere else. The local orders differ from the global ones
// (elements touching shared nodes come first), so a wrong index shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "io/inp_reader.hpp"
#include "parallel/frame_gather.hpp"
#include "parallel/partition.hpp"
#include "parallel/subdomain.hpp"
#include "parallel_test_util.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {
namespace {

using test::share;

/// Fills v with values that name their position (offset + index + 1: never zero).
void number(std::vector<double>& v, double offset) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = offset + static_cast<double>(i) + 1.0;
}

/// For component-major store `whole` (count elements of `components` values), the expected
/// gathered store when only the elements in mine were gathered: their values, zero elsewhere.
void expect_store(const std::vector<double>& whole, const std::vector<double>& got, const std::vector<int>& local,
                  std::size_t count, std::size_t per_element_total, const char* what) {
  ASSERT_EQ(got.size(), whole.size()) << what;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    const std::size_t e = (i % count);
    const bool mine = local[e] >= 0;
    EXPECT_EQ(got[i], mine ? whole[i] : 0.0) << what << " entry " << i << " (element " << e << ", "
                                               << per_element_total << " values each)";
  }
}

void check_deck(const std::string& deck) {
  SCOPED_TRACE(deck);
  const Model model = read_inp(deck);
  const StructureSystem whole = build_structure_system(model);
  StructureState st;
  st.initialize(whole);
  number(st.ux, 0.0);
  number(st.uz, 1e5);
  number(st.row<BeamMesh>().state, 2e5);
  number(st.row<TriMesh>().state, 3e5);
  number(st.shell_state, 4e5);
  number(st.solid_state, 5e5);
  const Communicator single;
  const std::vector<int> part = partition_elements(model, 2);
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE(testing::Message() << "rank " << r << " of 2");
    const Subdomain d = build_subdomain(whole, part, r, 2);
    // Each rank holds some of every family the deck has, so both halves of the mapping are used.
    if (whole.mesh<BeamMesh>().num_elements > 0) {
      EXPECT_FALSE(share(d, "beam").global.empty());
    }
    if (whole.mesh<TriMesh>().num_elements > 0) {
      EXPECT_FALSE(share(d, "FPM triangle").global.empty());
    }
    if (whole.shell.num_points > 0) {
      EXPECT_FALSE(share(d, "shell").global.empty());
    }
    const StructureSystem local = restrict_system(whole, d);
    OutputFrame frame;
    frame.field = true;
    frame.state = restrict_state(st, whole, local, d);
    frame.full.resize(local.num_nodes);
    FrameGather gather(single, d, whole, local);
    std::unique_ptr<OutputFrame> g = gather.gather(frame);
    ASSERT_TRUE(g);
    ASSERT_TRUE(g->complete);
    g->complete(*g);
    const StructureState& out = g->state;
    // Nodes: this rank reports the nodes it owns, each at its global index.
    ASSERT_EQ(out.ux.size(), static_cast<std::size_t>(whole.num_nodes));
    for (std::size_t i = 0; i < d.node_global.size(); ++i)
      if (d.owned[i]) {
        EXPECT_EQ(out.ux[d.node_global[i]], st.ux[d.node_global[i]]) << "node " << d.node_global[i];
        EXPECT_EQ(out.uz[d.node_global[i]], st.uz[d.node_global[i]]) << "node " << d.node_global[i];
      }
    if (whole.mesh<BeamMesh>().num_elements > 0)
      expect_store(st.row<BeamMesh>().state, out.row<BeamMesh>().state, share(d, "beam").local, whole.mesh<BeamMesh>().num_elements, whole.mesh<BeamMesh>().state_size,
                   "beam state");
    if (whole.mesh<TriMesh>().num_elements > 0)
      expect_store(st.row<TriMesh>().state, out.row<TriMesh>().state, share(d, "FPM triangle").local, whole.mesh<TriMesh>().num_elements, whole.mesh<TriMesh>().state_size,
                   "triangle state");
    if (whole.shell.num_points > 0) {
      // Section points: point p of global shell e at [c * points + first(e) + p].
      ASSERT_EQ(out.shell_state.size(), st.shell_state.size());
      const std::size_t np = whole.shell.num_points;
      for (std::size_t i = 0; i < st.shell_state.size(); ++i) {
        const std::size_t p = i % np;
        int e = 0;
        while (whole.shell.first_point[e + 1] <= p) ++e;
        EXPECT_EQ(out.shell_state[i], share(d, "shell").local[e] >= 0 ? st.shell_state[i] : 0.0)
            << "section-point entry " << i << " (shell " << e << ")";
      }
    }
  }
}

// History rows (issue 21): a rank's compact frame (rows of local.nodes, here the owned history
// nodes and one node more, as a constraint's term would add) is gathered into compact rows of
// the global history nodes, ascending: each owned history node's values at its position,
// nodes that another rank owns left at the fill (zero motion, director +z).
TEST(FrameGather, HistoryRowsAreCompactRowsOfTheGlobalHistoryNodes) {
  const Model model = read_inp(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/stiffened_plate.inp");
  const StructureSystem whole = build_structure_system(model);
  StructureState st;
  st.initialize(whole);
  number(st.ux, 0.0);
  number(st.dz, 7e5);
  const Communicator single;
  const std::vector<int> part = partition_elements(model, 2);
  const int nn = whole.num_nodes;
  const std::vector<int> history = {nn - 1, 2, nn / 2, 2, 0, nn / 3};  // any order, a repeat
  std::vector<int> sorted = history;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE(testing::Message() << "rank " << r << " of 2");
    const Subdomain d = build_subdomain(whole, part, r, 2);
    const StructureSystem local = restrict_system(whole, d);
    const StructureState ls = restrict_state(st, whole, local, d);
    FrameGather gather(single, d, whole, local);
    gather.set_history_nodes(history);
    std::vector<int> held = gather.history_nodes();
    const int extra = held.empty() || held.back() + 1 >= local.num_nodes ? 0 : held.back() + 1;
    held.push_back(extra);
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    OutputFrame frame;
    frame.history = true;
    frame.nodes = std::make_shared<const std::vector<int>>(held);
    frame.full.resize(static_cast<int>(held.size()));
    StructureState& fs = frame.state;
    std::vector<double>* rows[9] = {&fs.ux, &fs.uy, &fs.uz, &fs.dx, &fs.dy, &fs.dz, &fs.t1x, &fs.t1y, &fs.t1z};
    const std::vector<double>* from[9] = {&ls.ux, &ls.uy, &ls.uz, &ls.dx, &ls.dy, &ls.dz, &ls.t1x, &ls.t1y, &ls.t1z};
    for (int i = 0; i < 9; ++i)
      for (int n : held) rows[i]->push_back((*from[i])[static_cast<std::size_t>(n)]);
    std::unique_ptr<OutputFrame> g = gather.gather(frame);
    ASSERT_TRUE(g && g->complete && g->nodes);
    g->complete(*g);
    EXPECT_EQ(*g->nodes, sorted);
    ASSERT_EQ(g->state.ux.size(), sorted.size());
    ASSERT_EQ(g->full.v[0].size(), sorted.size());
    int mine = 0;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
      const int n = d.node_local[static_cast<std::size_t>(sorted[k])];
      const bool owned = n >= 0 && d.owned[static_cast<std::size_t>(n)];
      mine += owned ? 1 : 0;
      EXPECT_EQ(g->state.ux[k], owned ? st.ux[sorted[k]] : 0.0) << "node " << sorted[k];
      EXPECT_EQ(g->state.dz[k], owned ? st.dz[sorted[k]] : 1.0) << "node " << sorted[k];
    }
    EXPECT_GT(mine, 0);
  }
}

TEST(FrameGather, BeamAndTriangleStateLandsAtTheGlobalElements) {
  check_deck(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/stiffened_plate.inp");
}

TEST(FrameGather, ShellSectionPointsLandAtTheGlobalPoints) {
  check_deck(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/shell_dome_j2.inp");
}

}  // namespace
}  // namespace halfstep
