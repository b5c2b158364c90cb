// The FPM triangle strip and the B31 cantilever of the static FPM tests (tests/integration/
// test_static_fpm_tri.cpp and test_static_fpm_beam.cpp on the CPU engine, tests/gpu/
// test_gpu_static_fpm.cpp on the CUDA engine): their model data, tip loads, and a runner that
// takes the backend options.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "run_util.hpp"

namespace halfstep::test::static_fpm {

const std::string kClamp = "*BOUNDARY\nROOT, 1, 6\n";
const std::string kTipHistory = "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU\n";

/// Runs deck (written as `file` into a fresh scratch folder `name`) with the options `backend`;
/// returns the tip's mean U1, U3 at the last history row.
inline std::pair<double, double> run_tip(const std::string& name, const std::string& file, const std::string& deck,
                                         const std::string& backend, std::string* dir_out = nullptr) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/" + file) << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/" + file, dir + "/out", backend, &out), 0) << out;
  if (dir_out) *dir_out = dir;
  const auto avg = last_time_average(read_csv(dir + "/out/history/TIP.csv"));
  return {avg.at("U1"), avg.at("U3")};
}

/// The strip L x b x t = 10 x 1 x 0.1 of 20 x 2 cells split into S3 (FORMULATION=FPM).
namespace strip {

constexpr double kL = 10, kB = 1, kT = 0.1, kE = 1.2e6, kEI = kE * kB * kT * kT * kT / 12;
constexpr int kNx = 20, kNy = 2;

inline int node_id(int i, int j) { return j * (kNx + 1) + i + 1; }

/// The strip's model data: nodes, triangles, sets TIP and ROOT, material (E, nu, `law` lines
/// after *ELASTIC), the FPM section.
inline std::string strip_model(double E, double nu, const std::string& law) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nFPM triangle strip\n*NODE\n";
  for (int j = 0; j <= kNy; ++j)
    for (int i = 0; i <= kNx; ++i) d << node_id(i, j) << ", " << kL * i / kNx << ", " << kB * j / kNy << ", 0\n";
  d << "*ELEMENT, TYPE=S3, ELSET=PLATE\n";
  int e = 1;
  for (int j = 0; j < kNy; ++j)
    for (int i = 0; i < kNx; ++i) {
      d << e++ << ", " << node_id(i, j) << ", " << node_id(i + 1, j) << ", " << node_id(i + 1, j + 1) << "\n";
      d << e++ << ", " << node_id(i, j) << ", " << node_id(i + 1, j + 1) << ", " << node_id(i, j + 1) << "\n";
    }
  d << "*NSET, NSET=ROOT\n";
  for (int j = 0; j <= kNy; ++j) d << node_id(0, j) << "\n";
  d << "*NSET, NSET=TIP\n";
  for (int j = 0; j <= kNy; ++j) d << node_id(kNx, j) << "\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", " << nu << "\n" << law << "*DENSITY\n1.\n"
    << "*SHELL SECTION, ELSET=PLATE, MATERIAL=M, FORMULATION=FPM\n" << kT << ", 5\n";
  return d.str();
}

/// *CLOAD lines spreading `total` over the tip's nodes (half at the two edge nodes) on dof.
inline std::string tip_load(int dof, double total) {
  std::ostringstream d;
  d.precision(17);
  d << "*CLOAD\n";
  for (int j = 0; j <= kNy; ++j) d << node_id(kNx, j) << ", " << dof << ", " << total / kNy * (j == 0 || j == kNy ? 0.5 : 1) << "\n";
  return d.str();
}

}  // namespace strip

/// The cantilever L = 10 of 20 B31, RECT 1 x 0.1 (EI = 100 about n1 = y), clamped at x = 0.
namespace beam {

constexpr double kL = 10, kE = 1.2e6, kEI = kE * 1.0 * 0.001 / 12;
constexpr int kN = 20;

/// The cantilever's model data with material lines `law` after *ELASTIC (E, nu 0).
inline std::string beam_model(double E, const std::string& law) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nFPM beam cantilever\n*NODE\n";
  for (int i = 0; i <= kN; ++i) d << i + 1 << ", " << kL * i / kN << ", 0, 0\n";
  d << "*ELEMENT, TYPE=B31, ELSET=BEAM\n";
  for (int i = 0; i < kN; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << "\n";
  d << "*NSET, NSET=TIP\n" << kN + 1 << "\n*NSET, NSET=ROOT\n1\n*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", 0.\n"
    << law << "*DENSITY\n1.\n*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=RECT\n1., 0.1\n0., 1., 0.\n";
  return d.str();
}

/// A *CLOAD of value on the tip's dof.
inline std::string tip_load(int dof, double value) {
  std::ostringstream d;
  d.precision(17);
  d << "*CLOAD\n" << kN + 1 << ", " << dof << ", " << value << "\n";
  return d.str();
}

}  // namespace beam

/// tests/gpu/decks/mixed_plate_navier.inp (S4R with a diagonal band of S3R in one section,
/// simply supported, q = 0.01): the centre deflection in a static step (one increment;
/// NLGEOM=YES or NO), the pressure on its quads and triangles: the static triangles
/// (discretization/row_operator.hpp) beside MITC4 on one 6-dof layout, run with the options
/// `backend`.
inline double plate_centre(const std::string& name, bool nlgeom, const std::string& backend) {
  const std::string dir = scratch_dir(name);
  std::string deck = read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mixed_plate_navier.inp");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = deck.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) deck.replace(at, from.size(), to);
  };
  replace("*DAMPING, ALPHA=190.\n", "");
  replace("*BOUNDARY\nEDGE, 3, 3\n", "*BOUNDARY\nEDGE, 1, 3\n");  // in-plane held too: no inertia
  const std::size_t step = deck.find("*STEP");
  EXPECT_NE(step, std::string::npos);
  deck = deck.substr(0, step) + (nlgeom ? "*STEP, NLGEOM=YES\n" : "*STEP\n") +
         "*STATIC\n1., 1.\n*DLOAD\nPLATE, P, 0.01\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=CENTRE\nU\n*END STEP\n";
  std::ofstream(dir + "/plate.inp") << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/plate.inp", dir + "/out", backend, &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/CENTRE.csv");
  EXPECT_FALSE(h.rows.empty());
  return h.rows.empty() ? 0.0 : h.rows.back()[h.col("U3")];
}

}  // namespace halfstep::test::static_fpm
