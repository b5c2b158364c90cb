// *PRE-TENSION SECTION against closed forms: a bolt of two unit C3D8 cubes (E = 1000, nu = 0)
// held at both ends and cut between them. A force F on the pre-tension node stretches both
// cubes by F / (E A): the section closes by u_p = 2 F L / (E A), the stress is F / A in both,
// the ends react -+F. A prescribed shortening gives the force back; a reversed normal reverses
// the sign; what the section cannot take is refused with file, line and reason.
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The bolt: cube 1 over z in [0, 1], cube 2 over [1, 2] (unit section), node 100 the
/// pre-tension node; `section` is the *PRE-TENSION SECTION block, `step` the step's lines.
std::string bolt(const std::string& section, const std::string& step, const std::string& type = "C3D8") {
  std::ostringstream d;
  d << "*NODE, NSET=ALL\n";
  for (int k = 0, n = 1; k < 3; ++k)
    for (int c = 0; c < 4; ++c, ++n) d << n << ", " << (c == 1 || c == 2 ? 1 : 0) << ", " << (c >= 2 ? 1 : 0) << ", " << k << "\n";
  d << "100, 5., 5., 5.\n*ELEMENT, TYPE=" << type << ", ELSET=BOLT\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 5, 6, 7, 8, 9, 10, 11, 12\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*SOLID SECTION, ELSET=BOLT, MATERIAL=M\n"
    << "*SURFACE, NAME=CUT\n1, S2\n" << section << "*NSET, NSET=FOOT\n1, 2, 3, 4\n*NSET, NSET=HEAD\n9, 10, 11, 12\n"
    << "*BOUNDARY\nFOOT, 3, 3\nHEAD, 3, 3\n1, 1, 2\n2, 2, 2\n9, 1, 2\n10, 2, 2\n*STEP\n*STATIC\n" << step
    << "*NODE PRINT, NSET=ALL\nU, RF\n*EL PRINT, ELSET=BOLT, POSITION=CENTROIDAL\nS\n*END STEP\n";
  return d.str();
}

/// The rows of the .dat's first table whose header starts with `title`, by leading id.
std::map<long long, std::array<double, 6>> rows(const std::string& dat, const std::string& title) {
  std::map<long long, std::array<double, 6>> out;
  const std::size_t at = dat.find(title);
  if (at == std::string::npos) return out;
  std::istringstream in(dat.substr(dat.find('\n', at) + 1));
  std::string line;
  std::getline(in, line);  // the blank line under the header
  while (std::getline(in, line)) {
    std::istringstream r(line);
    long long id = 0;
    std::array<double, 6> v{};
    if (!(r >> id)) break;
    int k = 0;
    while (k < 6 && (r >> v[static_cast<std::size_t>(k)])) ++k;
    out[id] = v;
  }
  return out;
}

TEST(Pretension, ForceStretchesTheBoltAsAClosedForm) {
  const std::string dir = scratch_dir("pretension_force");
  const double F = 10, EA = 1000;
  std::ofstream(dir + "/b.inp") << bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=100\n",
                                        "*CLOAD\n100, 1, 10.\n*NODE PRINT, NSET=FOOT, TOTALS=ONLY\nRF\n");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/b.dat");
  const auto u = rows(dat, " displacements");
  const auto rf = rows(dat, " forces");
  const auto s = rows(dat, " stresses");
  ASSERT_EQ(u.size(), 13u) << dat;
  EXPECT_NEAR(u.at(100)[0], 2 * F / EA, 1e-12) << "the section closes by 2 F L / (E A)";
  for (long long n = 5; n <= 8; ++n) EXPECT_NEAR(u.at(n)[2], -F / EA, 1e-12) << "the cut's far side: cube 2 stretched";
  double foot = 0, head = 0;
  for (long long n = 1; n <= 4; ++n) foot += rf.at(n)[2];
  for (long long n = 9; n <= 12; ++n) head += rf.at(n)[2];
  EXPECT_NEAR(foot, -F, 1e-9);
  EXPECT_NEAR(head, F, 1e-9);
  // TOTALS=ONLY: the peer's "total force" table, the foot's sum without its rows.
  const std::size_t t = dat.find(" total force (fx,fy,fz) for set FOOT");
  ASSERT_NE(t, std::string::npos) << dat;
  std::istringstream sums(dat.substr(dat.find('\n', t) + 1));
  double fx = 1, fy = 1, fz = 0;
  sums >> fx >> fy >> fz;
  EXPECT_NEAR(fz, -F, 1e-9);
  EXPECT_NEAR(fx, 0.0, 1e-9);
  EXPECT_EQ(dat.find("forces (fx,fy,fz) for set FOOT"), std::string::npos) << "no rows for the TOTALS=ONLY request";
  ASSERT_EQ(s.size(), 2u) << dat;
  for (long long e = 1; e <= 2; ++e) {
    EXPECT_NEAR(s.at(e)[2], F, 1e-9) << "S33 = F / A in element " << e;
    EXPECT_NEAR(s.at(e)[0], 0.0, 1e-9);
  }
}

TEST(Pretension, PrescribedShorteningGivesItsForceAndTheNormalSetsTheSign) {
  const std::string dir = scratch_dir("pretension_shortening");
  std::ofstream(dir + "/b.inp") << bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=100\n", "*BOUNDARY\n100, 1, 1, 0.02\n",
                                        "C3D8R");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  std::string dat = read_file(dir + "/out/b.dat");
  EXPECT_NEAR(rows(dat, " forces").at(100)[0], 10.0, 1e-9) << dat;
  EXPECT_NEAR(rows(dat, " stresses").at(2)[2], 10.0, 1e-9) << dat;
  // The data line's normal against the faces' outward one: the same force compresses.
  std::ofstream(dir + "/r.inp") << bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=100\n0., 0., -2.\n", "*CLOAD\n100, 1, 10.\n");
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/outr", "--backend cpu", &log), 0) << log;
  dat = read_file(dir + "/outr/r.dat");
  EXPECT_NEAR(rows(dat, " displacements").at(100)[0], 0.02, 1e-12) << dat;
  EXPECT_NEAR(rows(dat, " stresses").at(1)[2], -10.0, 1e-9) << dat;
}

TEST(Pretension, RefusesWhatItCannotTake) {
  const std::string dir = scratch_dir("pretension_refusals");
  std::string log;
  const auto refused = [&](const std::string& name, const std::string& deck, const std::string& where,
                           const std::string& what) {
    std::ofstream(dir + "/" + name + ".inp") << deck;
    EXPECT_EQ(run_halfstep(dir + "/" + name + ".inp", dir + "/o_" + name, "--backend cpu", &log), 2) << name;
    EXPECT_NE(log.find(name + ".inp:" + where), std::string::npos) << log;
    EXPECT_NE(log.find(what), std::string::npos) << log;
  };
  const std::string load = "*CLOAD\n100, 1, 10.\n";
  refused("element", bolt("*PRE-TENSION SECTION, ELEMENT=1, NODE=100\n", load), "24", "ELEMENT= (a truss or beam");
  refused("nosurface", bolt("*PRE-TENSION SECTION, SURFACE=NONE, NODE=100\n", load), "24", "surface is not defined");
  refused("elementnode", bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=5\n", load), "24", "is a node of an element");
  refused("zero", bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=100\n0., 0., 0.\n", load), "25",
          "the normal must be a non-zero, finite vector");
}

// A bolt tightened by a force, its length then kept (*BOUNDARY, FIXED, the force removed), then
// an explicit step from that state: the bolt keeps F / A throughout (E = 1e6: strains of 1e-5,
// so the explicit step's finite strain differs from the static step's small strain by 1e-5).
TEST(Pretension, PreloadIsKeptByFixedLengthAndIntoAnExplicitStep) {
  const std::string dir = scratch_dir("pretension_fixed_explicit");
  std::string deck = bolt("*PRE-TENSION SECTION, SURFACE=CUT, NODE=100\n", "*CLOAD\n100, 1, 10.\n");
  deck.replace(deck.find("1000., 0.\n"), 10, "1e6, 0.\n*DENSITY\n1e-3\n");
  deck += "*STEP\n*STATIC\n*CLOAD, OP=NEW\n*BOUNDARY, FIXED\n100, 1, 1\n*NODE PRINT, NSET=ALL\nU, RF\n"
          "*EL PRINT, ELSET=BOLT, POSITION=CENTROIDAL\nS\n*END STEP\n"
          "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-4\n*EL PRINT, ELSET=BOLT, POSITION=CENTROIDAL, FREQUENCY=1000000\nS\n*END STEP\n";
  std::ofstream(dir + "/b.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/b.dat");
  // The three steps' stress tables, in order.
  std::vector<double> s33;
  for (std::size_t at = dat.find(" stresses"); at != std::string::npos; at = dat.find(" stresses", at + 1)) {
    const auto r = rows(dat.substr(at), " stresses");
    ASSERT_EQ(r.size(), 2u) << dat;
    s33.push_back(r.at(1)[2]);
    s33.push_back(r.at(2)[2]);
  }
  ASSERT_EQ(s33.size(), 6u) << dat;
  for (std::size_t k = 0; k < 4; ++k) EXPECT_NEAR(s33[k], 10.0, 1e-9) << "static table " << k / 2 + 1;
  for (std::size_t k = 4; k < 6; ++k) EXPECT_NEAR(s33[k], 10.0, 1e-3) << "explicit step";
  // Step 2's force on the held pre-tension dof: the preload, now a reaction.
  const std::size_t second = dat.find(" forces", dat.find(" forces") + 1);
  ASSERT_NE(second, std::string::npos) << dat;
  EXPECT_NEAR(rows(dat.substr(second), " forces").at(100)[0], 10.0, 1e-9) << dat;
}

}  // namespace
}  // namespace halfstep::test
