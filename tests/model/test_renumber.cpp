// Locality renumbering (model/renumber.hpp, issue 21): the Hilbert index, the gain on a
// shuffled mesh, and that every index the model holds names the same labels afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../shuffled_block.hpp"
#include "io/inp_reader.hpp"
#include "model/renumber.hpp"

namespace halfstep {
namespace {

TEST(HilbertIndex, VisitsEveryCellOnceMovingToAFaceNeighbourEachStep) {
  for (int bits = 1; bits <= 4; ++bits) {
    const std::uint32_t n = 1u << bits;
    std::vector<std::array<int, 3>> cell(static_cast<std::size_t>(n) * n * n, {-1, -1, -1});
    for (std::uint32_t x = 0; x < n; ++x)
      for (std::uint32_t y = 0; y < n; ++y)
        for (std::uint32_t z = 0; z < n; ++z) {
          const std::uint64_t k = hilbert_index(x, y, z, bits);
          ASSERT_LT(k, cell.size()) << "bits " << bits;
          ASSERT_EQ(cell[k][0], -1) << "two cells share index " << k;
          cell[k] = {static_cast<int>(x), static_cast<int>(y), static_cast<int>(z)};
        }
    for (std::size_t k = 1; k < cell.size(); ++k) {
      const int d = std::abs(cell[k][0] - cell[k - 1][0]) + std::abs(cell[k][1] - cell[k - 1][1]) +
                    std::abs(cell[k][2] - cell[k - 1][2]);
      ASSERT_EQ(d, 1) << "bits " << bits << ": index " << k - 1 << " to " << k;
    }
  }
  // 21 bits a coordinate: the whole 63-bit range, the far corner is not the start.
  EXPECT_EQ(hilbert_index(0, 0, 0, 21), 0u);
  EXPECT_LT(hilbert_index(2097151, 2097151, 2097151, 21), std::uint64_t{1} << 63);
}

/// A block of nx x ny x nz C3D8R elements with node and element labels assigned at random
/// and written in random order (as decks from pre-processors often are), with sets, a
/// surface, a boundary, a load and a pressure naming them.
std::string shuffled_block(int nx, int ny, int nz, unsigned seed) {
  std::mt19937 rng(seed);
  const test::ShuffledBlock blk = test::shuffled_block_mesh(nx, ny, nz, 0.5, rng, 3, 3, 1);  // node labels with gaps
  const auto node = [&](int i, int j, int k) { return blk.node(i, j, k); };
  std::vector<int> bottom_elements;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) bottom_elements.push_back(blk.element(i, j, 0));
  std::ostringstream d;
  d << blk.mesh;
  d << "*NSET, NSET=FIXED\n";
  for (int j = 0; j <= ny; ++j)
    for (int k = 0; k <= nz; ++k) d << node(0, j, k) << "\n";
  d << "*NSET, NSET=TIP\n" << node(nx, ny, nz) << ", " << node(nx, 0, nz) << "\n";
  d << "*ELSET, ELSET=BOTTOM\n";
  for (int e : bottom_elements) d << e << "\n";
  d << "*SURFACE, NAME=UNDER\nBOTTOM, S1\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n";
  d << "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n";
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*BOUNDARY\nFIXED, 1, 3\n*CLOAD\nTIP, 3, -1.\n";
  d << "*DSLOAD\nUNDER, P, 0.5\n*DLOAD\nBOTTOM, P1, 0.25\n*END STEP\n";
  return d.str();
}

TEST(Renumber, ShuffledMeshGetsLocalAndStaysTheSameMesh) {
  const Model deck = read_inp_string(shuffled_block(24, 12, 6, 7), "shuffled.inp");
  Model m = deck;
  renumber_for_locality(m);
  const Renumbering& r = m.renumbering;
  ASSERT_TRUE(r.applied);
  EXPECT_EQ(r.span_before, node_index_span(deck));
  EXPECT_EQ(r.span_after, node_index_span(m));
  // A random order spreads an element's nodes over about a third of the model; the curve
  // and first-touch order keep them within a few layers of the grid (~nx * ny = 288 here).
  std::printf("mean node index span: %.1f shuffled, %.1f renumbered (%d nodes)\n", r.span_before, r.span_after,
              m.nodes.size());
  EXPECT_GT(r.span_before, 0.25 * m.nodes.size());
  EXPECT_LT(r.span_after, r.span_before / 10);
  // Bijections, and each node and element keeps its label, place and connectivity.
  const auto is_permutation = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] != static_cast<int>(i)) return false;
    return true;
  };
  ASSERT_EQ(r.node_deck.size(), static_cast<std::size_t>(deck.nodes.size()));
  ASSERT_EQ(r.element_deck.size(), static_cast<std::size_t>(deck.elements.size()));
  EXPECT_TRUE(is_permutation(r.node_deck));
  EXPECT_TRUE(is_permutation(r.element_deck));
  for (int v = 0; v < m.nodes.size(); ++v) {
    const auto d = static_cast<std::size_t>(r.node_deck[static_cast<std::size_t>(v)]);
    ASSERT_EQ(m.nodes.id[static_cast<std::size_t>(v)], deck.nodes.id[d]);
    ASSERT_EQ(m.nodes.x[static_cast<std::size_t>(v)], deck.nodes.x[d]);
    ASSERT_EQ(m.nodes.z[static_cast<std::size_t>(v)], deck.nodes.z[d]);
    ASSERT_EQ(m.nodes.loc[static_cast<std::size_t>(v)].line, deck.nodes.loc[d].line);
    ASSERT_EQ(m.nodes.index.at(m.nodes.id[static_cast<std::size_t>(v)]), v);
  }
  for (int e = 0; e < m.elements.size(); ++e) {
    const auto d = r.element_deck[static_cast<std::size_t>(e)];
    ASSERT_EQ(m.elements.id[static_cast<std::size_t>(e)], deck.elements.id[static_cast<std::size_t>(d)]);
    ASSERT_EQ(m.elements.count_of(e), deck.elements.count_of(d));
    for (int k = 0; k < m.elements.count_of(e); ++k)
      ASSERT_EQ(m.nodes.id[static_cast<std::size_t>(m.elements.nodes_of(e)[k])],
                deck.nodes.id[static_cast<std::size_t>(deck.elements.nodes_of(d)[k])]);
    ASSERT_EQ(m.elements.index.at(m.elements.id[static_cast<std::size_t>(e)]), e);
  }
  // Nodes come in the order the elements first touch them: node 0 is element 0's first.
  EXPECT_EQ(m.elements.nodes_of(0)[0], 0);
  // Deterministic: the same deck gives the same order.
  Model again = deck;
  renumber_for_locality(again);
  EXPECT_EQ(again.renumbering.node_deck, r.node_deck);
  EXPECT_EQ(again.renumbering.element_deck, r.element_deck);
}

TEST(Renumber, NodesOfNoElementFollowInTheirOrder) {
  std::string deck = shuffled_block(3, 2, 2, 3);
  deck.insert(deck.find("*ELEMENT"), "*NODE\n9001, 5., 5., 5.\n9000, 6., 5., 5.\n");
  Model m = read_inp_string(deck, "lone.inp");
  const int nn = m.nodes.size();
  const int a = m.nodes.index.at(9001), b = m.nodes.index.at(9000);
  ASSERT_LT(a, b);
  renumber_for_locality(m);
  EXPECT_EQ(m.nodes.index.at(9001), nn - 2);
  EXPECT_EQ(m.nodes.index.at(9000), nn - 1);
}

TEST(Renumber, RefusesAnOrderThatIsNotAPermutation) {
  Model m = read_inp_string(shuffled_block(2, 2, 2, 1), "small.inp");
  LocalityOrder o = locality_order(m);
  o.node_order[1] = o.node_order[0];
  EXPECT_THROW(apply_order(m, o), std::invalid_argument);
  o = locality_order(m);
  o.element_order.pop_back();
  EXPECT_THROW(apply_order(m, o), std::invalid_argument);
}

/// Every node and element reference of a model written with labels instead of indices, in
/// the model's list orders: equal for two models that name the same things alike.
std::string label_view(const Model& m) {
  std::ostringstream o;
  o.precision(17);
  const auto N = [&m](int v) { return v < 0 ? std::string("none") : std::to_string(m.nodes.id[static_cast<std::size_t>(v)]); };
  const auto E = [&m](int e) { return e < 0 ? std::string("none") : std::to_string(m.elements.id[static_cast<std::size_t>(e)]); };
  const auto Ns = [&N](const std::vector<int>& v) {
    std::string s;
    for (int i : v) s += N(i) + " ";
    return s;
  };
  const auto Es = [&E](const std::vector<int>& v) {
    std::string s;
    for (int i : v) s += E(i) + " ";
    return s;
  };
  std::map<std::int64_t, std::string> nodes, elements;
  for (int v = 0; v < m.nodes.size(); ++v) {
    std::ostringstream n;
    n.precision(17);
    const auto i = static_cast<std::size_t>(v);
    n << m.nodes.x[i] << " " << m.nodes.y[i] << " " << m.nodes.z[i] << " @" << m.nodes.loc[i].str();
    nodes[m.nodes.id[i]] = n.str();
  }
  for (int e = 0; e < m.elements.size(); ++e) {
    const auto i = static_cast<std::size_t>(e);
    std::string s = std::to_string(m.elements.kind[i]) + " " + std::to_string(static_cast<int>(m.elements.section[i])) + " " +
                    m.elements.abaqus_type[i] + " @" + m.elements.loc[i].str() + ":";
    for (int k = 0; k < m.elements.count_of(e); ++k) s += " " + N(m.elements.nodes_of(e)[k]);
    elements[m.elements.id[i]] = s;
  }
  for (const auto& kv : nodes) o << "node " << kv.first << " " << kv.second << "\n";
  for (const auto& kv : elements) o << "element " << kv.first << " " << kv.second << "\n";
  for (const auto& kv : m.nsets) o << "nset " << kv.first << ": " << Ns(kv.second.members) << "\n";
  for (const auto& kv : m.elsets) o << "elset " << kv.first << ": " << Es(kv.second.members) << "\n";
  for (const auto& kv : m.surfaces) {
    o << "surface " << kv.first << (kv.second.node_based ? " nodes " : " faces ") << Ns(kv.second.nodes) << "|";
    for (std::size_t f = 0; f < kv.second.elements.size(); ++f)
      o << " " << E(kv.second.elements[f]) << "/" << kv.second.faces[f];
    o << "\n";
  }
  for (const auto& kv : m.analytical_surfaces) o << "analytical " << kv.first << " ref " << N(kv.second.ref_node) << "\n";
  for (const Equation& q : m.equations) {
    o << "equation:";
    for (std::size_t t = 0; t < q.nodes.size(); ++t) o << " " << N(q.nodes[t]) << "." << q.dofs[t] << "*" << q.coefficients[t];
    o << "\n";
  }
  for (const NodeTransform& t : m.transforms) o << "transform " << Ns(t.nodes) << "\n";
  for (const RigidBody& b : m.rigid_bodies)
    o << "rigid " << b.name << " ref " << N(b.ref_node) << " tied " << Ns(b.tied) << " pinned " << Ns(b.pinned) << "\n";
  for (const PointMass& p : m.point_masses) o << "mass " << N(p.node) << " " << p.mass << "\n";
  for (const PointMass& p : m.point_inertias) o << "inertia " << N(p.node) << " " << p.mass << "\n";
  for (const NurbsPatchDef& d : m.nurbs_patches) {
    o << "nurbs " << d.name << " nodes " << Ns(d.nodes) << " elements";
    for (int k = 0; k < d.num_elements; ++k) o << " " << E(d.first_element + k);
    o << "\n";
  }
  for (const AdhesionDef& a : m.adhesions) o << "adhesion " << a.name << " " << Es(a.elements) << "| " << Es(a.parents) << "\n";
  for (const InitialVelocity& v : m.initial_velocities) o << "velocity " << Ns(v.nodes) << v.dof << " " << v.value << "\n";
  for (const InitialRotatingVelocity& v : m.initial_rotations) o << "rotating " << Ns(v.nodes) << v.omega << "\n";
  for (const TemperatureLine& t : m.initial_temperatures) o << "initial temperature " << Ns(t.nodes) << t.value << "\n";
  for (const ContactPair& p : m.contact.pairs) o << "contact " << p.slave << " / " << p.master << "\n";
  for (const Tie& t : m.ties) o << "tie " << t.slave << " / " << t.master << "\n";
  for (const Step& s : m.steps) {
    o << "step " << s.name << "\n";
    for (const Boundary& b : s.boundaries) o << " boundary " << Ns(b.nodes) << b.first_dof << "-" << b.last_dof << "\n";
    for (const ConcentratedLoad& c : s.cloads) o << " cload " << Ns(c.nodes) << c.dof << " " << c.magnitude << "\n";
    for (const DistributedLoad& d : s.dloads) o << " dload " << Es(d.elements) << d.face << " " << d.magnitude << "\n";
    for (const TemperatureLine& t : s.temperatures) o << " temperature " << Ns(t.nodes) << t.value << "\n";
  }
  return o.str();
}

/// a and b line by line; a failure names the first line that differs (the views are long).
void expect_same_lines(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(sa, la)), more_b = static_cast<bool>(std::getline(sb, lb));
    if (!more_a && !more_b) return;
    if (!more_a || !more_b || la != lb) {
      ADD_FAILURE() << "line " << line << " renumbered: '" << la.substr(0, 300) << "', deck order: '" << lb.substr(0, 300)
                    << "'";
      return;
    }
  }
}

/// How often each feature that holds indices occurs in a model (to know what a test covered).
void count_features(const Model& m, std::map<std::string, int>& n) {
  n["nsets"] += static_cast<int>(m.nsets.size());
  n["elsets"] += static_cast<int>(m.elsets.size());
  for (const auto& kv : m.surfaces) ++n[kv.second.node_based ? "node surfaces" : "element surfaces"];
  n["analytical surfaces"] += static_cast<int>(m.analytical_surfaces.size());
  n["equations"] += static_cast<int>(m.equations.size());
  n["transforms"] += static_cast<int>(m.transforms.size());
  n["rigid bodies"] += static_cast<int>(m.rigid_bodies.size());
  n["point masses"] += static_cast<int>(m.point_masses.size());
  n["rotary inertias"] += static_cast<int>(m.point_inertias.size());
  n["nurbs patches"] += static_cast<int>(m.nurbs_patches.size());
  n["adhesions"] += static_cast<int>(m.adhesions.size());
  n["initial velocities"] += static_cast<int>(m.initial_velocities.size());
  n["rotating velocities"] += static_cast<int>(m.initial_rotations.size());
  n["contact pairs"] += static_cast<int>(m.contact.pairs.size());
  n["ties"] += static_cast<int>(m.ties.size());
  n["initial temperatures"] += static_cast<int>(m.initial_temperatures.size());
  for (const Step& s : m.steps) {
    n["temperatures"] += static_cast<int>(s.temperatures.size());
    n["boundaries"] += static_cast<int>(s.boundaries.size());
    n["cloads"] += static_cast<int>(s.cloads.size());
    n["dloads"] += static_cast<int>(s.dloads.size());
  }
}

/// A CPE4 block with adhesion on its bottom face, pulled by its top (issue 14's deck form).
std::string adhesion_block() {
  std::ostringstream d;
  const int nx = 4, ny = 2;
  d << "*NODE\n";  // nodes and elements written in an order unlike the curve's
  for (int j = 0; j <= ny; ++j)
    for (int i = nx; i >= 0; --i) d << 1 + i + (nx + 1) * j << ", " << i << ", " << 0.3 + 0.5 * j << "\n";
  d << "*ELEMENT, TYPE=CPE4, ELSET=ALL\n";
  for (int j = ny - 1; j >= 0; --j)
    for (int i = 0; i < nx; ++i) {
      const int a = 1 + i + (nx + 1) * j;
      d << 1 + i + nx * j << ", " << a << ", " << a + 1 << ", " << a + nx + 2 << ", " << a + nx + 1 << "\n";
    }
  d << "*ELSET, ELSET=BOT, GENERATE\n1, " << nx << ", 1\n*SURFACE, NAME=BOTTOM\nBOT, S1\n";
  d << "*NSET, NSET=TOP, GENERATE\n" << 1 + (nx + 1) * ny << ", " << (nx + 1) * (ny + 1) << ", 1\n*NSET, NSET=PIN\n1\n";
  d << "*ADHESION, NAME=VDW, SURFACE=BOTTOM\n0.1, 0.4\n0, 0, 0, 1\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1, 0\n*SOLID SECTION, ELSET=ALL, MATERIAL=M\n1\n";
  d << "*STEP, NLGEOM=YES, INC=100\n*STATIC\n0.1, 1, 1e-5, 0.1\n*BOUNDARY\nPIN, 1, 1\nTOP, 2, 2, 0.01\n";
  d << "*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";
  return d.str();
}

/// A C3D8 bar, nodes written back to front, heated at one end over a static step (issue 45's
/// temperature lines: *INITIAL CONDITIONS, TYPE=TEMPERATURE and *TEMPERATURE name nodes).
std::string thermal_bar() {
  std::ostringstream d;
  const int n = 6;
  d << "*NODE\n";
  for (int i = n; i >= 0; --i)
    for (int j = 0; j < 4; ++j) d << 4 * i + j + 1 << ", " << i << ", " << (j == 1 || j == 2) << ", " << (j >= 2) << "\n";
  d << "*ELEMENT, TYPE=C3D8, ELSET=BAR\n";
  for (int i = n - 1; i >= 0; --i) {
    const int a = 4 * i + 1, b = 4 * (i + 1) + 1;
    d << i + 1 << ", " << a << ", " << b << ", " << b + 1 << ", " << a + 1 << ", " << a + 3 << ", " << b + 3 << ", "
      << b + 2 << ", " << a + 2 << "\n";
  }
  d << "*NSET, NSET=ALL, GENERATE\n1, " << 4 * (n + 1) << ", 1\n*NSET, NSET=HOT\n1, 2, 3, 4, 5, 6, 7, 8\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*EXPANSION\n1e-5\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n";
  d << "*INITIAL CONDITIONS, TYPE=TEMPERATURE\nALL, 20.\n1, 25.\n*BOUNDARY\n1, 1, 3\n2, 1, 3\n3, 1, 3\n";
  d << "*STEP\n*STATIC\n*TEMPERATURE\nHOT, 80.\n9, 60.\n*END STEP\n";
  return d.str();
}

/// The decks of the GPU, parallel and example folders (every feature the solver takes, in
/// small models) and three written here (a shuffled block, adhesion, temperatures).
std::vector<std::pair<std::string, Model>> feature_decks() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, Model>> decks;
  std::vector<std::string> paths;
  for (const char* dir : {"/tests/gpu/decks", "/tests/parallel/decks", "/examples"})
    for (const auto& f : fs::directory_iterator(std::string(HALFSTEP_SOURCE_DIR) + dir))
      if (f.path().extension() == ".inp") paths.push_back(f.path().string());
  std::sort(paths.begin(), paths.end());
  for (const std::string& p : paths) decks.emplace_back(p, read_inp(p));
  decks.emplace_back("shuffled block", read_inp_string(shuffled_block(5, 4, 3, 11), "shuffled.inp"));
  decks.emplace_back("adhesion block", read_inp_string(adhesion_block(), "adhesion.inp"));
  decks.emplace_back("thermal bar", read_inp_string(thermal_bar(), "thermal.inp"));
  return decks;
}

TEST(Renumber, EveryIndexNamesTheSameLabelsAfterwards) {
  std::map<std::string, int> features;
  int reordered = 0;
  for (auto& [name, deck] : feature_decks()) {
    SCOPED_TRACE(name);
    count_features(deck, features);
    const std::string before = label_view(deck);
    Model m = deck;
    renumber_for_locality(m);
    expect_same_lines(label_view(m), before);
    if (m.nodes.id != deck.nodes.id || m.elements.id != deck.elements.id) ++reordered;
    // NURBS models keep their elements' order (a patch's elements are one block).
    if (!deck.nurbs_patches.empty()) {
      EXPECT_EQ(m.elements.id, deck.elements.id);
    }
    // The label maps name every node and element at its new place.
    ASSERT_EQ(m.nodes.index.size(), m.nodes.id.size());
    ASSERT_EQ(m.elements.index.size(), m.elements.id.size());
    for (int i = 0; i < m.nodes.size(); ++i) EXPECT_EQ(m.nodes.index.at(m.nodes.id[static_cast<std::size_t>(i)]), i);
    for (int i = 0; i < m.elements.size(); ++i)
      EXPECT_EQ(m.elements.index.at(m.elements.id[static_cast<std::size_t>(i)]), i);
  }
  // The decks reach every kind of index the model holds, and most of them are reordered (a
  // remap that left one kind of index alone would show in label_view).
  for (const char* f : {"nsets", "elsets", "node surfaces", "element surfaces", "analytical surfaces", "equations",
                        "transforms", "rigid bodies", "point masses", "rotary inertias", "nurbs patches", "adhesions",
                        "initial velocities", "rotating velocities", "contact pairs", "ties", "boundaries", "cloads",
                        "dloads", "initial temperatures", "temperatures"})
    EXPECT_GT(features[f], 0) << "no deck has " << f;
  EXPECT_GT(reordered, 40);
}

}  // namespace
}  // namespace halfstep
