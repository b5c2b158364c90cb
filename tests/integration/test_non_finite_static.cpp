// A static step whose forces leave the range of doubles fails, naming the cause, with exit
// code 3 and a summary.json that does not say completed (a NaN residual used to pass the
// convergence test: std::max drops NaN, and an overflowed force scale passes any residual).
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// One C3D8 cube of Young's modulus e held at its base, with `step` as its *STATIC step's loading.
std::string cube_deck(const std::string& dir, const std::string& name, const std::string& step,
                      const std::string& e = "1000.") {
  const std::string path = dir + "/" + name + ".inp";
  std::ofstream(path) << "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n"
                         "5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
                         "*ELEMENT, TYPE=C3D8, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
                         "*NSET, NSET=BASE\n1, 2, 3, 4\n*NSET, NSET=TOP\n5, 6, 7, 8\n"
                         "*MATERIAL, NAME=M\n*ELASTIC\n" << e << ", 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
                         "*BOUNDARY\nBASE, 1, 3\n*STEP\n*STATIC\n1., 1.\n"
                      << step << "*END STEP\n";
  return path;
}

void expect_failed(const std::string& dir, const std::string& deck, const std::string& cause) {
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --threads 1", &out), 3) << out;
  EXPECT_NE(out.find(cause), std::string::npos) << "expected '" << cause << "' in: " << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed: static step 'Step-1'"), std::string::npos) << summary;
  EXPECT_NE(summary.find(cause), std::string::npos) << summary;
  EXPECT_EQ(summary.find("completed"), std::string::npos) << summary;
}

// 1e308 on each of four nodes: every force is finite, their sum (the force scale) is not. The
// first attempt fails on it; DIRECT keeps it the last (cut-backs would go on to smaller loads
// that fail otherwise, on the strain energy or, at E near the largest double, on the tangent).
TEST(NonFiniteStatic, OverflowingForceScaleFailsTheStep) {
  const std::string dir = scratch_dir("scale");
  std::string deck = read_file(cube_deck(dir, "scale", "*CLOAD\nTOP, 3, 1e308\n"));
  deck.replace(deck.find("*STATIC\n"), 8, "*STATIC, DIRECT\n");
  std::ofstream(dir + "/scale.inp") << deck;
  expect_failed(dir, dir + "/scale.inp", "the force scale overflowed");
}

// E = 1e308: the F-bar C3D8's tangent overflows (its Pbar : F passes the largest double) to a
// NaN entry, which is named as such, not as a singular stiffness with unconstrained dofs.
TEST(NonFiniteStatic, NonFiniteTangentIsNamed) {
  const std::string dir = scratch_dir("tangent");
  expect_failed(dir, cube_deck(dir, "tangent", "*CLOAD\nTOP, 3, 1.\n", "1e308"), "the tangent stiffness is not finite at node");
}

// A displacement of 1e306 times a stiffness of about 1000: infinite strain energy and forces.
TEST(NonFiniteStatic, InfiniteInternalForcesFailTheStep) {
  const std::string dir = scratch_dir("internal");
  expect_failed(dir, cube_deck(dir, "internal", "*BOUNDARY\n7, 3, 3, 1e306\n"), "is not finite");
}

// Two finite load lines on one dof whose sum is infinite.
TEST(NonFiniteStatic, InfiniteAppliedLoadIsNamed) {
  const std::string dir = scratch_dir("load");
  expect_failed(dir, cube_deck(dir, "load", "*CLOAD\n7, 3, 1e308\n7, 3, 1e308\n"),
                "the applied load at node 7 dof 3 is not finite (inf)");
}

}  // namespace
}  // namespace halfstep::test
