// *FREQUENCY steps (issue 46 item 2) against closed forms: two masses on two springs (every
// mode, the dense path), the axial modes of a fixed-free rod and the bending modes of a
// cantilever against Timoshenko's beam (shift-invert Lanczos); a frequency step after a
// static one leaves the state alone; models it cannot take are refused with the reason.
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "frequency_decks.hpp"

namespace halfstep::test {
namespace {

using namespace modes;

// Two masses on two springs: omega^2 = (k / m) (3 -+ sqrt 5) / 2, the modes' shapes in the
// golden ratio, unit generalized mass (m (u2^2 + u3^2) = 1); five modes asked, two exist.
TEST(Frequency, TwoMassesOnSpringsHaveTheirClosedFormModes) {
  const std::string dir = scratch_dir("frequency_chain");
  std::ofstream(dir + "/chain.inp") << chain_deck();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/chain.dat");
  const std::vector<double> printed = dat_eigenvalues(dat);
  ASSERT_EQ(printed.size(), 2u) << dat;
  const std::vector<double> lambda = summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 2u);
  const double w = kChainK / kChainM;
  EXPECT_NEAR(lambda[0], w * (3 - std::sqrt(5.0)) / 2, 1e-12 * w);
  EXPECT_NEAR(lambda[1], w * (3 + std::sqrt(5.0)) / 2, 1e-12 * w);
  for (int k = 0; k < 2; ++k) EXPECT_NEAR(printed[k], lambda[k], 1e-7 * lambda[k]) << "seven digits in the .dat";
  // Mode 1's printed shape: u3 / u2 = golden ratio, m (u2^2 + u3^2) = 1.
  const std::size_t t = dat.find("displacements", dat.find("E I G E N"));
  ASSERT_NE(t, std::string::npos) << dat;
  std::istringstream in(dat.substr(dat.find('\n', t)));
  double u[4][4] = {};
  for (int r = 0; r < 3; ++r) in >> u[r][0] >> u[r][1] >> u[r][2] >> u[r][3];
  const double golden = (1 + std::sqrt(5.0)) / 2;
  std::printf("chain: omega^2 %.12g %.12g; mode 1 u2 %.9g u3 %.9g\n", lambda[0], lambda[1], u[1][1], u[2][1]);
  EXPECT_EQ(u[0][1], 0.0);
  EXPECT_NEAR(u[2][1] / u[1][1], golden, 1e-6);
  EXPECT_NEAR(kChainM * (u[1][1] * u[1][1] + u[2][1] * u[2][1]), 1.0, 1e-6);
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"procedure\": \"frequency\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"frequencies\""), std::string::npos) << summary;
}

// A frequency step solves for a rigid body's free rotation too: a rigid bar (nodes 1 and 2 at
// x = -+1, point masses m, grounded springs k1 and k2 along y) whose reference node at the
// origin moves along y and turns about z. In (v, theta): K = [[k1 + k2, k2 - k1],
// [k2 - k1, k1 + k2]], M = 2 m I, so omega^2 = k1 / m and k2 / m; the ROT NODE's U3 shows each
// mode's rotation, (u2(2) - u2(1)) / 2.
TEST(Frequency, FreeRigidBodyTurnsInItsModes) {
  const double k1 = 1, k2 = 4, m = 1;
  const std::string dir = scratch_dir("frequency_turning_body");
  std::ofstream(dir + "/b.inp")
      << "*NODE, NSET=ALL\n1, -1., 0., 0.\n2, 1., 0., 0.\n100, 0., 0., 0.\n101, 3., 3., 0.\n"
         "*ELEMENT, TYPE=SPRING1, ELSET=S1\n11, 1\n*ELEMENT, TYPE=SPRING1, ELSET=S2\n12, 2\n"
         "*SPRING, ELSET=S1\n2\n" << k1 << "\n*SPRING, ELSET=S2\n2\n" << k2 << "\n"
      << "*ELEMENT, TYPE=MASS, ELSET=PM\n21, 1\n22, 2\n*MASS, ELSET=PM\n" << m << "\n"
      << "*NSET, NSET=BAR\n1, 2\n*RIGID BODY, NSET=BAR, REF NODE=100, ROT NODE=101\n"
         "*STEP\n*FREQUENCY\n4\n*BOUNDARY\n100, 1, 1\n100, 3, 3\n101, 1, 2\n*NODE PRINT, NSET=ALL\nU\n*END STEP\n";
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/b.dat");
  const std::vector<double> lambda = summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 2u) << dat;
  EXPECT_NEAR(lambda[0], k1 / m, 1e-12 * k2 / m);
  EXPECT_NEAR(lambda[1], k2 / m, 1e-12 * k2 / m);
  // Each mode's printed shape: node 101's U3 is half the difference of the bar ends' U2.
  const std::string shape = "displacements (vx,vy,vz) for set ALL";
  int shapes = 0;
  for (std::size_t at = dat.find(shape); at != std::string::npos; at = dat.find(shape, at + 1)) {
    std::map<long long, std::array<double, 3>> u = dat_vector_rows(dat, shape, at);
    ASSERT_EQ(u.size(), 4u) << dat;
    const double theta = (u[2][1] - u[1][1]) / 2;
    EXPECT_GT(std::fabs(theta), 0.1);  // both modes turn the bar (k1 != k2)
    EXPECT_NEAR(u[101][2], theta, 1e-6 * std::fabs(theta)) << dat;
    ++shapes;
  }
  EXPECT_EQ(shapes, 2);
  // *MODAL DYNAMIC on those modes: a moment M about z on the ROT NODE from t = 0, undamped:
  // both modes take 0.5 M, so theta(t) = M / 4 ((1 - cos t) / 1 + (1 - cos 2 t) / 4) (m = 1).
  const double M = 0.2;
  std::ofstream(dir + "/d.inp")
      << read_file(dir + "/b.inp").substr(0, read_file(dir + "/b.inp").find("*NODE PRINT")) << "*END STEP\n"
      << "*STEP, INC=1000\n*MODAL DYNAMIC\n0.01, 3.\n*CLOAD\n101, 3, " << M
      << "\n*NODE PRINT, NSET=ALL, FREQUENCY=100\nU\n*END STEP\n";
  ASSERT_EQ(run_halfstep(dir + "/d.inp", dir + "/outd", "--backend cpu", &log), 0) << log;
  const std::string dd = read_file(dir + "/outd/d.dat");
  std::map<long long, std::array<double, 3>> u = dat_vector_rows(dd, shape);
  ASSERT_EQ(u.size(), 4u) << dd;
  const double t = 3, theta = M / 4 * ((1 - std::cos(t)) + (1 - std::cos(2 * t)) / 4);
  EXPECT_NEAR(u[101][2], theta, 1e-6 * std::fabs(theta)) << dd;
  EXPECT_NEAR((u[2][1] - u[1][1]) / 2, theta, 1e-6 * std::fabs(theta));
}

// The peer's participation factors and effective modal masses in the .dat: for the chain
// (masses m on nodes 2 and 3, moving along x), mode j's factor is m (u2 + u3) of its unit-
// modal-mass shape, the effective masses of both modes sum to the moving mass 2 m, and the
// total effective mass along x is 2 m; nothing participates along y or z.
TEST(Frequency, ChainsModalMassesSumToItsMass) {
  const std::string dir = scratch_dir("frequency_chain_masses");
  std::ofstream(dir + "/chain.inp") << chain_deck();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/chain.dat");
  const auto rows = [&](const std::string& title, int count, bool labeled = true) {
    std::vector<std::vector<double>> out;
    const std::size_t at = dat.find(title);
    if (at == std::string::npos) return out;
    std::istringstream in(dat.substr(dat.find("ROTATION\n", at) + 9));
    std::string word;
    for (int r = 0; r < count; ++r) {
      if (labeled) in >> word;  // the mode number or TOTAL
      std::vector<double> v(6);
      for (double& x : v) in >> x;
      out.push_back(v);
    }
    return out;
  };
  const auto gamma = rows("P A R T I C I P A T I O N", 2);
  const auto eff = rows("E F F E C T I V E   M O D A L", 3);
  const auto total = rows("T O T A L   E F F E C T I V E", 1, false);
  ASSERT_EQ(gamma.size(), 2u) << dat;
  ASSERT_EQ(eff.size(), 3u) << dat;
  ASSERT_EQ(total.size(), 1u) << dat;
  const double golden = (1 + std::sqrt(5.0)) / 2;
  // Mode 1 (u3 = golden u2) at unit modal mass: u2 = 1 / sqrt(m (1 + golden^2)).
  const double u2 = 1 / std::sqrt(kChainM * (1 + golden * golden));
  EXPECT_NEAR(std::fabs(gamma[0][0]), kChainM * u2 * (1 + golden), 1e-6 * kChainM * u2);
  EXPECT_NEAR(eff[2][0], 2 * kChainM, 1e-6 * kChainM);    // TOTAL of the effective masses
  EXPECT_NEAR(total[0][0], 2 * kChainM, 1e-6 * kChainM);  // the model's mass along x
  for (int k = 1; k < 3; ++k) EXPECT_EQ(eff[2][static_cast<std::size_t>(k)], 0.0);
}

// The quadratic solids take their consistent mass (elements/consistent_mass.hpp), as Abaqus/
// Standard and the peer do: a fixed-free rod of 10 C3D20R (held laterally, nu = 0) is within
// 1e-6 of the rod's first frequency (measured +4.2e-7) and above it (a consistent mass bounds the frequencies
// from above), where the lumped (HRZ) mass of the explicit scheme would put it below.
TEST(Frequency, QuadraticRodTakesItsConsistentMass) {
  const int n = 10;
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na rod of 20-node bricks\n*NODE, NSET=ALLN\n";
  const auto id = [](int i, int j, int k) { return 1 + i * 9 + j * 3 + k; };
  for (int i = 0; i <= 2 * n; ++i)
    for (int j = 0; j <= 2; ++j)
      for (int k = 0; k <= 2; ++k)
        if ((i % 2) + (j % 2) + (k % 2) <= 1)
          d << id(i, j, k) << ", " << kBarL * i / (2 * n) << ", " << 0.5 * j << ", " << 0.5 * k << "\n";
  d << "*ELEMENT, TYPE=C3D20R, ELSET=A\n";
  for (int e = 0; e < n; ++e) {
    const int i = 2 * e;
    const int nodes[20] = {id(i, 0, 0),     id(i + 2, 0, 0), id(i + 2, 2, 0), id(i, 2, 0),     id(i, 0, 2),
                           id(i + 2, 0, 2), id(i + 2, 2, 2), id(i, 2, 2),     id(i + 1, 0, 0), id(i + 2, 1, 0),
                           id(i + 1, 2, 0), id(i, 1, 0),     id(i + 1, 0, 2), id(i + 2, 1, 2), id(i + 1, 2, 2),
                           id(i, 1, 2),     id(i, 0, 1),     id(i + 2, 0, 1), id(i + 2, 2, 1), id(i, 2, 1)};
    d << e + 1;
    for (int a = 0; a < 20; ++a) d << (a == 15 ? ",\n" : ", ") << nodes[a];
    d << "\n";
  }
  d << "*NSET, NSET=ROOT\n";
  for (int j = 0; j <= 2; ++j)
    for (int k = 0; k <= 2; ++k)
      if ((j % 2) + (k % 2) <= 1) d << id(0, j, k) << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE << ", 0.\n*DENSITY\n" << kRho
    << "\n*SOLID SECTION, ELSET=A, MATERIAL=STEEL\n*BOUNDARY\nROOT, 1, 3\nALLN, 2, 3\n*STEP\n*FREQUENCY\n2\n*END STEP\n";
  const std::string dir = scratch_dir("frequency_quadratic_rod");
  std::ofstream(dir + "/rod.inp") << d.str();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/rod.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 2u);
  for (int m = 1; m <= 2; ++m) {
    const double omega = std::sqrt(lambda[static_cast<std::size_t>(m - 1)]), ref = axial_omega(m);
    std::printf("C3D20R rod mode %d: omega %.9g, rod %.9g (%+.3g)\n", m, omega, ref, omega / ref - 1);
    EXPECT_GT(omega, ref);
  }
  EXPECT_LT(std::sqrt(lambda[0]) / axial_omega(1) - 1, 1e-6);
}

// The axial modes of a clamped rod of 100 bricks (held laterally, nu = 0): the lumped-mass
// chain's frequencies lie below the rod's by the fraction (k h)^2 / 24 (1e-5 for the first).
TEST(Frequency, AxialBarMatchesTheFixedFreeRod) {
  const std::string dir = scratch_dir("frequency_bar");
  std::ofstream(dir + "/bar.inp") << axial_bar_deck(100, 3);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = dat_eigenvalues(read_file(dir + "/out/bar.dat"));
  ASSERT_EQ(lambda.size(), 3u);
  for (int n = 1; n <= 3; ++n) {
    const double omega = std::sqrt(lambda[static_cast<std::size_t>(n - 1)]), ref = axial_omega(n);
    const double kh = ref / std::sqrt(kE / kRho) * kBarL / 100, lumped = -kh * kh / 24;
    std::printf("axial mode %d: omega %.9g, rod %.9g (%.4g %%, lumped chain %.4g %%)\n", n, omega, ref,
                100 * (omega / ref - 1), 100 * lumped);
    EXPECT_NEAR(omega / ref - 1, lumped, 0.02 * std::fabs(lumped));
  }
}

// A cantilever of 40 x 4 x 4 C3D8R bricks, L / h = 10: the two lowest pairs of bending modes
// (y and z, equal by symmetry) against Timoshenko's clamped-free beam (Euler-Bernoulli's
// first is 1 % higher), and a mode frame per mode.
TEST(Frequency, CantileverBendingModesMatchTimoshenko) {
  const std::string dir = scratch_dir("frequency_cantilever");
  std::ofstream(dir + "/beam.inp") << cantilever_deck(40, 4, "\n*FREQUENCY\n4\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n");
  std::string log;
  ASSERT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check " + dir + "/beam.inp", &log), 0) << log;
  EXPECT_NE(log.find("frequency, 4 modes, about the reference configuration"), std::string::npos) << log;
  ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = dat_eigenvalues(read_file(dir + "/out/beam.dat"));
  ASSERT_EQ(lambda.size(), 4u);
  const std::vector<double> ref = timoshenko_omegas(2);
  ASSERT_EQ(ref.size(), 2u);
  std::printf("cantilever: Euler-Bernoulli omega1 %.9g, Timoshenko %.9g %.9g\n", euler_bernoulli_omega1(), ref[0], ref[1]);
  for (int k = 0; k < 4; ++k) {
    const double omega = std::sqrt(lambda[static_cast<std::size_t>(k)]), expect = ref[static_cast<std::size_t>(k / 2)];
    std::printf("cantilever mode %d: omega %.9g (%.3g %%)\n", k + 1, omega, 100 * (omega / expect - 1));
    EXPECT_NEAR(omega, expect, 0.02 * expect);
  }
  EXPECT_NEAR(lambda[1], lambda[0], 1e-8 * lambda[0]) << "the section is square";
  const auto frames = pvd_frames(dir + "/out/beam.pvd");
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].first, 1.0);  // mode k at the step's start time + k, as the peer numbers them
  const std::vector<double> u = read_vtu_array(dir + "/out/" + frames[0].second, "U");
  double largest = 0;
  for (std::size_t i = 0; i < u.size(); i += 3) largest = std::max(largest, std::hypot(u[i + 1], u[i + 2]));
  EXPECT_GT(largest, 0.0) << "a bending mode moves the tip across";
}

// A string of 10 trusses stretched by a static step, then a frequency step with the lateral
// dofs released; the stretch's tension the static step left is its end reaction.
std::string stretched_string(bool nlgeom, bool perturbation) {
  const int n = 10;
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na stretched string\n*NODE, NSET=ALL\n";
  for (int i = 0; i <= n; ++i) d << i + 1 << ", " << 100.0 * i << ", 0., 0.\n";
  d << "*ELEMENT, TYPE=T3D2, ELSET=S\n";
  for (int i = 0; i < n; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << "\n";
  d << "*NSET, NSET=ENDS\n1, " << n + 1 << "\n*NSET, NSET=FAR\n" << n + 1 << "\n*MATERIAL, NAME=STEEL\n*ELASTIC\n"
    << kE << ", 0.3\n*DENSITY\n" << kRho << "\n*SOLID SECTION, ELSET=S, MATERIAL=STEEL\n1.\n"
    << "*BOUNDARY\n1, 1, 3\nALL, 2, 3\n*STEP" << (nlgeom ? ", NLGEOM=YES" : "") << "\n*STATIC\n0.5, 1.\n*BOUNDARY\n"
    << "FAR, 1, 1, 2.\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=FAR\nRF\n*END STEP\n*STEP"
    << (perturbation ? ", PERTURBATION" : "") << "\n*FREQUENCY\n3\n*BOUNDARY, OP=NEW\nENDS, 1, 3\nALL, 3, 3\n*END STEP\n";
  return d.str();
}

// The stretched string after an NLGEOM step: the beaded string's closed form omega_n^2 =
// 4 N / (m h) sin^2(n pi / 20) with the tension N, the stretched spacing h and the interior
// nodes' lumped mass m; the frequency step leaves the analysis time alone. After a linear
// static step, *STEP, PERTURBATION (the peer's) takes the same stressed tangent.
TEST(Frequency, StretchedStringRingsAtTheBeadedStringsFrequencies) {
  const double L = 1000.0, stretch = 2.0;
  std::vector<double> lambda[2];
  for (int perturbation = 0; perturbation < 2; ++perturbation) {
    const std::string dir = scratch_dir(perturbation ? "frequency_string_perturbation" : "frequency_string");
    std::ofstream(dir + "/string.inp") << stretched_string(!perturbation, perturbation);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/string.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const std::string summary = read_file(dir + "/out/summary.json");
    lambda[perturbation] = summary_eigenvalues(summary);
    ASSERT_EQ(lambda[perturbation].size(), 3u) << summary;
    EXPECT_EQ(summary_number(summary, "final_time"), 1.0) << "a frequency step takes no time";
    if (perturbation) continue;
    const Csv h = read_csv(dir + "/out/history/FAR.csv");
    ASSERT_FALSE(h.rows.empty());
    const double tension = h.rows.back()[static_cast<std::size_t>(h.col("RF1"))];  // the pull on the far end
    const double m = kRho * L / 10, spacing = (L + stretch) / 10;
    for (int k = 1; k <= 3; ++k) {
      const double s = std::sin(k * kPi / 20), expect = 4 * tension / (m * spacing) * s * s;
      std::printf("string mode %d: omega^2 %.12g, beaded string %.12g (tension %.9g)\n", k,
                  lambda[0][static_cast<std::size_t>(k - 1)], expect, tension);
      EXPECT_NEAR(lambda[0][static_cast<std::size_t>(k - 1)], expect, 1e-10 * expect);  // measured 2e-13
    }
    EXPECT_NEAR(tension, kE * 0.002, 0.01 * kE * 0.002) << "the stretch's tension";
  }
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(lambda[1][static_cast<std::size_t>(k)], lambda[0][static_cast<std::size_t>(k)], 1e-9 * lambda[0][0])
        << "PERTURBATION after a linear step";
}

// A simply supported square plate of 20 x 20 S4R (a = 1, t = 0.01, steel): the Navier
// frequencies omega_mn = pi^2 (m^2 + n^2) / a^2 sqrt(D / (rho t)) of modes (1,1), (1,2) and
// (2,1) (a repeated pair), (2,2), with the MITC4 nodes' physical rotary inertia rho t^3 / 12.
TEST(Frequency, SimplySupportedPlateMatchesNavier) {
  const std::string dir = scratch_dir("frequency_plate");
  std::ofstream(dir + "/plate.inp") << plate_deck();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/plate.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 4u);
  const double base = plate_navier_base();
  const double navier[4] = {2 * base, 5 * base, 5 * base, 8 * base};
  for (int k = 0; k < 4; ++k) {
    const double omega = std::sqrt(lambda[static_cast<std::size_t>(k)]);
    std::printf("plate mode %d: omega %.9g, Navier %.9g (%.3g %%)\n", k + 1, omega, navier[k], 100 * (omega / navier[k] - 1));
    EXPECT_NEAR(omega, navier[k], 0.01 * navier[k]);  // measured -0.27, -0.18, -0.18, -0.78 %
  }
}

// A model free to move: the axial rod of bricks with no support along its axis (held across it)
// has its rigid translation at zero frequency (K - sigma M factored with a negative shift) and
// then the free-free rod's modes, omega_n = n pi c / L (lumped mass on 40 bricks: within 0.3 %);
// the rigid mode moves every node alike, 1 / sqrt(m) at unit modal mass.
TEST(Frequency, FreeRodHasItsRigidModeAtZeroAndItsFreeFreeModes) {
  const std::string dir = scratch_dir("frequency_free_rod");
  std::string deck = axial_bar(40, "\n*FREQUENCY\n3\n*NODE PRINT, NSET=A_N1\nU\n");
  deck.erase(deck.find("A_N0, 1, 3\n"), 11);
  std::ofstream(dir + "/rod.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/rod.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 3u) << log;
  const double c = std::sqrt(kE / kRho);
  std::printf("free rod: omega^2 %.6g, %.9g, %.9g (n pi c / L: 0, %.9g, %.9g)\n", lambda[0], lambda[1], lambda[2],
              std::pow(kPi * c / kBarL, 2), std::pow(2 * kPi * c / kBarL, 2));
  EXPECT_LT(std::fabs(lambda[0]), 1e-9 * lambda[1]) << "the rigid mode";
  for (int k = 1; k <= 2; ++k) {
    const double expect = std::pow(k * kPi * c / kBarL, 2);
    EXPECT_NEAR(lambda[static_cast<std::size_t>(k)], expect, 3e-3 * expect);  // measured -0.05 %, -0.21 %
  }
  // The rigid mode's shape: every node 1 / sqrt(total mass) along x (unit modal mass).
  const double mass = kRho * kBarL * 1.0;
  const std::string dat = read_file(dir + "/out/rod.dat");
  const std::string shape = "displacements (vx,vy,vz) for set A_N1";
  const auto u = dat_vector_rows(dat, shape, dat.find(shape));  // mode 1's table
  ASSERT_EQ(u.size(), 4u) << dat;
  for (const auto& [id, v] : u) EXPECT_NEAR(std::fabs(v[0]), 1 / std::sqrt(mass), 1e-6 / std::sqrt(mass)) << id;
}

// *MODAL DYNAMIC on the free rod's modes: a force F on one end from t = 0. The rigid mode takes
// all of the momentum: the rod's mass-weighted mean displacement is F t^2 / (2 M) (the elastic
// modes are M-orthogonal to it), while its end rings about that mean.
TEST(Frequency, FreeRodPushedByAForceMovesItsCentreOfMassAsARigidBody) {
  const std::string dir = scratch_dir("frequency_free_rod_modal");
  std::string deck = axial_bar(40, "\n*FREQUENCY\n6\n");
  deck.erase(deck.find("A_N0, 1, 3\n"), 11);
  const double F = 4.0, t = 2e-4, M = kRho * kBarL;
  deck += "*STEP, INC=1000\n*MODAL DYNAMIC\n1e-6, " + std::to_string(t) + "\n*CLOAD\nA_N1, 1, " + std::to_string(F / 4) +
          "\n*NODE PRINT, NSET=ALLN, FREQUENCY=1000\nU\n*END STEP\n";
  std::ofstream(dir + "/rod.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/rod.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/rod.dat");
  const std::string heading = "displacements (vx,vy,vz) for set ALLN";
  const auto u = dat_vector_rows(dat, heading, dat.rfind(heading));  // the step's end
  ASSERT_EQ(u.size(), 164u) << dat;
  // Lumped masses: the end nodes carry half of an interior node's.
  double mean = 0, weight = 0;
  for (const auto& [id, v] : u) {
    const long long section = (id - 1) / 4;
    const double w = section == 0 || section == 40 ? 0.5 : 1.0;
    mean += w * v[0];
    weight += w;
  }
  mean /= weight;
  std::printf("free rod pushed: mean displacement %.9g (F t^2 / 2M = %.9g)\n", mean, F * t * t / (2 * M));
  // Measured +3.1e-6: the modes are Lanczos's (converged to 1e-10 in omega^2, their shapes to
  // about its square root), printed to 7 digits.
  EXPECT_NEAR(mean, F * t * t / (2 * M), 2e-5 * F * t * t / (2 * M));
}

// What a frequency step cannot take, each with its reason: a free dof without mass, a steady
// state on a free model, an *EL PRINT of shells (a mode's section forces need its rotations).
TEST(Frequency, RefusesWhatItCannotComputeWithTheReason) {
  struct Case {
    std::string name, deck, message;
  };
  const std::string no_density = [] {
    std::string d = cantilever_deck(4, 1, "\n*FREQUENCY\n2\n");
    const std::size_t a = d.find("*DENSITY");
    return d.erase(a, d.find("*SOLID") - a);
  }();
  const std::string unsupported = [] {
    std::string d = cantilever_deck(4, 1, "\n*FREQUENCY\n2\n");
    const std::size_t a = d.find("*BOUNDARY\nA_N0");
    d.erase(a, d.find("*STEP") - a);
    return d + "*STEP\n*STEADY STATE DYNAMICS\n100., 200.\n*CLOAD\n1, 1, 1.\n*END STEP\n";
  }();
  const std::string shells =
      "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=S4R, ELSET=P\n1, 1, 2, 3, 4\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1e-3\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.1\n"
      "*BOUNDARY\n1, 1, 6\n2, 1, 6\n*STEP\n*FREQUENCY\n2\n*EL PRINT\nS\n*END STEP\n";
  const std::vector<Case> cases = {
      {"no_density", no_density, "is free but has no mass"},
      {"unsupported", unsupported, "*STEADY STATE DYNAMICS on a model free to move as a rigid body: not supported"},
      {"shells", shells, "*EL PRINT in a frequency step of a model with shells: not supported yet"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string dir = scratch_dir("frequency_refuse_" + c.name);
    std::ofstream(dir + "/m.inp") << c.deck;
    std::string log;
    EXPECT_EQ(run_halfstep(dir + "/m.inp", dir + "/out", "--backend cpu", &log), 2) << log;
    EXPECT_NE(log.find(c.message), std::string::npos) << log;
    EXPECT_EQ(log.find("completed"), std::string::npos) << log;
  }
}

}  // namespace
}  // namespace halfstep::test
