// *TRANSFORM (issue 16 item 2): local systems for *BOUNDARY dofs and *CLOAD components in
// explicit, static, frequency and implicit dynamic steps (a skew bar stretched by a local motion,
// then a local force; the turned bar's eigenvalues and transient response). The decks are tests/gpu/decks/transform_*.inp (make_transform_decks.py):
//  * a cube on rollers on a 30-degree slope: its base nodes are held in the local normal
//    direction of a TYPE=R system and it slides under a gravity-like load (g = 1). No force
//    acts along the slope but gravity's, so the mass centre moves by -g sin(30) t^2 / 2 along
//    it (central differences integrate a constant acceleration exactly), and the base nodes
//    never leave the slope;
//  * a ring expanded radially through TYPE=C: every node ends on its circle r0 + delta with
//    no tangential or axial displacement;
//  * a clamped bar loaded at its tip in a skew TYPE=R system (and clamped through TYPE=S)
//    moves as the same bar loaded by the rotated force in global components.
// Output stays in global components (the difference from Abaqus is in docs/input.md).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

const std::string kDecks = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/";

/// Runs a deck of tests/gpu/decks; returns the history of set.
Csv run_deck(const std::string& deck, const std::string& set, const std::string& extra = "--threads 1") {
  const std::string dir = scratch_dir("transform_" + deck);
  std::string out;
  EXPECT_EQ(run_halfstep(kDecks + deck + ".inp", dir + "/out", extra, &out), 0) << out;
  return read_csv(dir + "/out/history/" + set + ".csv");
}

TEST(Transform, CubeOnRollersSlidesDownTheSlope) {
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  const Csv h = run_deck("transform_incline", "ALLN");
  ASSERT_GT(h.rows.size(), 8u);
  // Per output time: mean slope displacement (equal nodal masses) and the base's normal one.
  std::map<double, double> slope;
  std::map<double, int> count;
  double normal = 0, scale = 0;
  for (const auto& r : h.rows) {
    const double t = r[0], u1 = r[h.col("U1")], u2 = r[h.col("U2")];
    const int n = static_cast<int>(r[h.col("node")]);
    slope[t] += c * u1 + s * u2;
    ++count[t];
    scale = std::max(scale, std::hypot(u1, u2));
    if (n == 1 || n == 2 || n == 5 || n == 6) normal = std::max(normal, std::abs(-s * u1 + c * u2));
  }
  double worst = 0;
  for (const auto& [t, sum] : slope) {
    const double exact = -0.5 * s * t * t;
    worst = std::max(worst, std::abs(sum / count[t] - exact));
  }
  const double t_end = slope.rbegin()->first;
  EXPECT_NEAR(t_end, 1.0, 1e-12);
  std::printf("incline: mean slope displacement error %.3g of %.3g, base normal displacement %.3g\n", worst,
              0.5 * s, normal);
  EXPECT_LT(worst, 1e-13);       // measured 2.4e-15
  EXPECT_LT(normal, 1e-14 * scale);  // measured 8.3e-17 on 0.125
  EXPECT_GT(scale, 0.2);         // it did slide
}

TEST(Transform, RingExpandedRadiallyStaysOnItsCircles) {
  const double delta = 0.01;
  const Csv h = run_deck("transform_ring", "ALLN");
  ASSERT_GT(h.rows.size(), 8u);
  const double t_end = h.rows.back()[0];
  EXPECT_NEAR(t_end, 0.5, 1e-12);
  double radial = 0, tangential = 0, axial = 0;
  int nodes = 0;
  for (const auto& r : h.rows) {
    if (r[0] != t_end) continue;
    ++nodes;
    const int n = static_cast<int>(r[h.col("node")]);
    // Node 1 + 4 a + i + 2 k: angle 2 pi a / 24, radius 1 + 0.25 i (make_transform_decks.py).
    const int a = (n - 1) / 4, i = (n - 1) % 2;
    const double th = 2 * M_PI * a / 24, r0 = 1 + 0.25 * i;
    const double x = r0 * std::cos(th) + r[h.col("U1")], y = r0 * std::sin(th) + r[h.col("U2")];
    radial = std::max(radial, std::abs(std::hypot(x, y) - (r0 + delta)));
    tangential = std::max(tangential, std::abs(-std::sin(th) * r[h.col("U1")] + std::cos(th) * r[h.col("U2")]));
    axial = std::max(axial, std::abs(r[h.col("U3")]));
  }
  EXPECT_EQ(nodes, 96);
  std::printf("ring: radius error %.3g, tangential %.3g, axial %.3g (delta %g)\n", radial, tangential, axial, delta);
  EXPECT_LT(radial, 1e-14);      // measured 2.2e-16
  EXPECT_LT(tangential, 1e-14);  // measured 9.8e-16
  EXPECT_EQ(axial, 0.0);
}

TEST(Transform, LocalTipLoadEqualsRotatedGlobalLoad) {
  const Csv a = run_deck("transform_load_local", "TIP"), b = run_deck("transform_load_global", "TIP");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(a.rows.size(), 10u);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (const char* c : {"U1", "U2", "U3"}) {
      diff = std::max(diff, std::abs(a.rows[i][a.col(c)] - b.rows[i][b.col(c)]));
      scale = std::max(scale, std::abs(b.rows[i][b.col(c)]));
    }
  std::printf("local vs global tip load: max |du| %.3g of %.3g\n", diff, scale);
  EXPECT_GT(scale, 1e-4);
  EXPECT_LT(diff, 1e-13 * scale);  // measured 6.3e-16 on 0.107
}

TEST(Transform, BeamTipHeldAndLoadedInPermutedAxesMatchesGlobal) {
  // Local axes 1, 2, 3 = global y, z, x: the tip's held local U2 and UR2 are global U3 and
  // UR3, and its local force and moment components are global ones permuted. Q holds only 0
  // and 1, so the two runs do the same arithmetic.
  const Csv a = run_deck("transform_beam_local", "TIP"), b = run_deck("transform_beam_global", "TIP");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(a.rows.size(), 10u);
  double diff = 0, scale_u = 0, scale_r = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (const char* c : {"U1", "U2", "U3", "UR1", "UR2", "UR3"}) {
      diff = std::max(diff, std::abs(a.rows[i][a.col(c)] - b.rows[i][b.col(c)]));
      (c[1] == 'R' ? scale_r : scale_u) = std::max(c[1] == 'R' ? scale_r : scale_u, std::abs(b.rows[i][b.col(c)]));
    }
  std::printf("beam, permuted local axes vs global: max difference %.3g (|U| %.3g, |UR| %.3g)\n", diff, scale_u, scale_r);
  EXPECT_GT(scale_u, 1e-5);
  EXPECT_GT(scale_r, 1e-5);
  EXPECT_EQ(diff, 0.0);
}

/// The incline deck with text replaced (first occurrence of from by to).
std::string edited_incline(const std::string& from, const std::string& to) {
  std::string d = read_file(kDecks + "transform_incline.inp");
  const std::size_t at = d.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) d.replace(at, from.size(), to);
  return d;
}

/// Runs deck text; expects exit status 2 and message at deck line.
void expect_refused(const std::string& name, const std::string& deck, int line, const std::string& message) {
  const std::string dir = scratch_dir("transform_bad_" + name);
  std::ofstream(dir + "/" + name + ".inp") << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/" + name + ".inp", dir + "/out", "--threads 1", &out), 2) << out;
  EXPECT_NE(out.find(name + ".inp:" + std::to_string(line) + ":"), std::string::npos) << out;
  EXPECT_NE(out.find(message), std::string::npos) << out;
}

/// A bar of 4 C3D8 along (cos angle, sin angle, 0), nu = 0.3, density 1e-3, its near end
/// clamped; with local, both ends in a TYPE=R system whose axis 1 is the bar's (its *BOUNDARY
/// then holds local dofs). step: the *STEP block. Node sets NEAR and FAR.
std::string skew_bar(double angle, bool local, const std::string& step) {
  const double c = std::cos(angle), s = std::sin(angle);
  const auto id = [](int i, int j, int k) { return 1 + i * 4 + j * 2 + k; };
  std::string d = "*HEADING\nskew bar\n*NODE\n";
  char buf[240];
  for (int i = 0; i <= 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) {
        std::snprintf(buf, sizeof buf, "%d, %.17g, %.17g, %d\n", id(i, j, k), i * c - j * s, i * s + j * c, k);
        d += buf;
      }
  d += "*ELEMENT, TYPE=C3D8, ELSET=BAR\n";
  for (int i = 0; i < 4; ++i) {
    std::snprintf(buf, sizeof buf, "%d, %d, %d, %d, %d, %d, %d, %d, %d\n", i + 1, id(i, 0, 0), id(i + 1, 0, 0),
                  id(i + 1, 1, 0), id(i, 1, 0), id(i, 0, 1), id(i + 1, 0, 1), id(i + 1, 1, 1), id(i, 1, 1));
    d += buf;
  }
  d += "*NSET, NSET=NEAR\n1, 2, 3, 4\n*NSET, NSET=FAR\n17, 18, 19, 20\n";
  if (local) {
    std::snprintf(buf, sizeof buf, "*NSET, NSET=ENDS\nNEAR, FAR\n*TRANSFORM, NSET=ENDS, TYPE=R\n%.17g, %.17g, 0., %.17g, %.17g, 0.\n",
                  c, s, -s, c);
    d += buf;
  }
  return d + "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1e-3\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n"
             "*BOUNDARY\nNEAR, 1, 3\n" + step;
}

/// The eigenvalues of a .dat's EIGENVALUE OUTPUT table.
std::vector<double> eigenvalues(const std::string& dat) {
  std::vector<double> out;
  std::size_t at = dat.find("E I G E N V A L U E   O U T P U T");
  if (at == std::string::npos) return out;
  std::istringstream in(dat.substr(at));
  std::string line;
  while (std::getline(in, line)) {
    int mode = 0;
    double value = 0;
    if (std::sscanf(line.c_str(), " %d %lf", &mode, &value) == 2 && mode == static_cast<int>(out.size()) + 1)
      out.push_back(value);
    else if (!out.empty() && line.find_first_not_of(' ') == std::string::npos)
      break;
  }
  return out;
}

// *FREQUENCY and implicit *DYNAMIC with local systems: the bar turned 30 degrees with its ends
// held and loaded in its own axes is the bar along x held and loaded globally, turned. Its
// eigenvalues are the same to the printed digits, and its far end's displacements under a
// sudden transverse force, read in the local system (*NODE PRINT prints them there), are the
// aligned bar's at every printed instant.
TEST(Transform, FrequencyAndImplicitDynamicsAreTheAlignedBarsTurned) {
  const double turn = 3.14159265358979323846 / 6;
  const std::string freq = "*STEP\n*FREQUENCY\n6\n*END STEP\n";
  const std::string dyn = "*STEP\n*DYNAMIC\n1e-3, 2e-2\n*CLOAD\nFAR, 2, 0.25\n*NODE PRINT, NSET=FAR\nU\n*END STEP\n";
  std::string dats[2][2];
  for (int local = 0; local < 2; ++local)
    for (int k = 0; k < 2; ++k) {
      const std::string name = std::string(k ? "dyn" : "freq") + (local ? "_local" : "_aligned");
      const std::string dir = scratch_dir("transform_" + name);
      std::ofstream(dir + "/bar.inp") << skew_bar(local ? turn : 0.0, local != 0, k ? dyn : freq);
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu --threads 1", &log), 0) << log;
      dats[local][k] = read_file(dir + "/out/bar.dat");
    }
  const std::vector<double> a = eigenvalues(dats[0][0]), b = eigenvalues(dats[1][0]);
  ASSERT_EQ(a.size(), 6u);
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(b[i], a[i], 1e-6 * a[i]) << "mode " << i + 1;
  // The printed tables, line by line past the headers: the same numbers.
  std::istringstream ia(dats[0][1]), ib(dats[1][1]);
  std::string la, lb;
  int rows = 0;
  while (std::getline(ia, la) && std::getline(ib, lb)) {
    long long na = 0, nb = 0;
    double u[3], v[3];
    if (std::sscanf(la.c_str(), " %lld %lf %lf %lf", &na, &u[0], &u[1], &u[2]) != 4) continue;
    ASSERT_EQ(std::sscanf(lb.c_str(), " %lld %lf %lf %lf", &nb, &v[0], &v[1], &v[2]), 4) << lb;
    EXPECT_EQ(na, nb);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(v[c], u[c], 2e-6 * (std::fabs(u[c]) + 1e-4)) << la << " | " << lb;
    ++rows;
  }
  std::printf("turned bar: eigenvalue 1 %.7g (aligned %.7g); %d displacement rows compared\n", b[0], a[0], rows);
  EXPECT_GT(rows, 40);
}

TEST(Transform, ModalStepsAreRefused) {
  const std::string dir = scratch_dir("transform_bad_modal");
  std::ofstream(dir + "/modal.inp") << skew_bar(0.5, true,
                                                "*STEP\n*FREQUENCY\n4\n*END STEP\n*STEP\n*MODAL DYNAMIC\n1e-3, 1e-2\n"
                                                "*CLOAD\nFAR, 2, 1.\n*END STEP\n");
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/modal.inp", dir + "/out", "--threads 1", &out), 2) << out;
  EXPECT_NE(out.find("modal.inp:"), std::string::npos) << out;
  EXPECT_NE(out.find("not in the modal ones yet"), std::string::npos) << out;
}

// A static step: a bar along d = (cos 30, sin 30, 0), nu = 0, supported at its near end in the
// local system a TYPE=R *TRANSFORM gives both ends (1 along d): the whole end held along d, and
// just enough across it to stop the rigid motions. Step 1 moves the far end by delta along d
// (a local *BOUNDARY value), step 2 releases it and pulls with F along d (a local *CLOAD):
// every far-end node moves by delta d, then by the stretch that carries F (F L / (E A) in the
// linear step, the St. Venant-Kirchhoff bar's under NLGEOM), in global components, and the near
// end's reactions sum to the force that stretch carries, along -d. Exact (a straight pull).
TEST(Transform, StaticBarAlongASkewAxisStretchesAlongIt) {
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6), length = 4, e_mod = 1000, delta = 0.01, force = 3;
  const int cells = 4;
  for (const char* nlgeom : {"", ", NLGEOM"}) {
    SCOPED_TRACE(*nlgeom ? "NLGEOM" : "linear");
    std::string d = "*HEADING\nskew bar\n*NODE\n";
    char buf[240];
    // Node (i, j, k): i along the bar, j across it in the x-y plane, k along z.
    const auto id = [](int i, int j, int k) { return 1 + i * 4 + j * 2 + k; };
    for (int i = 0; i <= cells; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const double a = length * i / cells, b = j;
          std::snprintf(buf, sizeof buf, "%d, %.17g, %.17g, %d\n", id(i, j, k), a * c - b * s, a * s + b * c, k);
          d += buf;
        }
    d += "*ELEMENT, TYPE=C3D8, ELSET=BAR\n";
    for (int i = 0; i < cells; ++i) {
      std::snprintf(buf, sizeof buf, "%d, %d, %d, %d, %d, %d, %d, %d, %d\n", i + 1, id(i, 0, 0), id(i + 1, 0, 0),
                    id(i + 1, 1, 0), id(i, 1, 0), id(i, 0, 1), id(i + 1, 0, 1), id(i + 1, 1, 1), id(i, 1, 1));
      d += buf;
    }
    std::snprintf(buf, sizeof buf, "*NSET, NSET=NEAR\n%d, %d, %d, %d\n*NSET, NSET=FAR\n%d, %d, %d, %d\n", id(0, 0, 0),
                  id(0, 0, 1), id(0, 1, 0), id(0, 1, 1), id(cells, 0, 0), id(cells, 0, 1), id(cells, 1, 0), id(cells, 1, 1));
    d += buf;
    std::snprintf(buf, sizeof buf, "*NSET, NSET=ENDS\nNEAR, FAR\n*TRANSFORM, NSET=ENDS, TYPE=R\n%.17g, %.17g, 0., %.17g, %.17g, 0.\n",
                  c, s, -s, c);
    d += buf;
    std::snprintf(buf, sizeof buf, "*MATERIAL, NAME=M\n*ELASTIC\n%g, 0.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n", e_mod);
    d += buf;
    std::snprintf(buf, sizeof buf, "*BOUNDARY\nNEAR, 1, 1\n%d, 2, 3\n%d, 3, 3\n%d, 2, 2\n", id(0, 0, 0), id(0, 1, 0),
                  id(0, 0, 1));
    d += buf;
    const std::string out = "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=FAR\nU\n*NODE OUTPUT, NSET=NEAR\nRF\n";
    std::snprintf(buf, sizeof buf, "*STEP%s\n*STATIC\n*BOUNDARY\nFAR, 1, 1, %g\n", nlgeom, delta);
    // Printed tables: the far end's U in its local system (Abaqus's GLOBAL=NO), then global.
    d += buf + out + "*NODE PRINT, NSET=FAR\nU\n*NODE PRINT, NSET=FAR, GLOBAL=YES\nU\n*END STEP\n";
    std::snprintf(buf, sizeof buf, "*STEP%s\n*STATIC\n*BOUNDARY, OP=NEW\nNEAR, 1, 1\n%d, 2, 3\n%d, 3, 3\n%d, 2, 2\n*CLOAD\nFAR, 1, %g\n",
                  nlgeom, id(0, 0, 0), id(0, 1, 0), id(0, 0, 1), force / 4);
    d += buf + out + "*END STEP\n";
    const std::string dir = scratch_dir(std::string("transform_static_bar") + (*nlgeom ? "_nlgeom" : ""));
    std::ofstream(dir + "/bar.inp") << d;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu --threads 1", &log), 0) << log;
    const Csv far = read_csv(dir + "/out/history/FAR.csv"), near = read_csv(dir + "/out/history/NEAR.csv");
    {  // the .dat's first two displacement tables: local (delta, 0, 0), then global delta d
      const std::string dat = read_file(dir + "/out/bar.dat");
      std::vector<std::array<double, 3>> rows;
      std::size_t at = 0;
      const std::string id_text = " " + std::to_string(id(cells, 0, 0)) + " ";
      while ((at = dat.find("displacements", at)) != std::string::npos && rows.size() < 2) {
        const std::size_t line = dat.find(id_text, at);
        ASSERT_NE(line, std::string::npos);
        std::array<double, 3> v{};
        ASSERT_EQ(std::sscanf(dat.c_str() + line + id_text.size(), "%lf %lf %lf", &v[0], &v[1], &v[2]), 3);
        rows.push_back(v);
        at = line;
      }
      ASSERT_EQ(rows.size(), 2u);
      EXPECT_NEAR(rows[0][0], delta, 1e-6 * delta);  // printed to 7 digits
      EXPECT_NEAR(rows[0][1], 0.0, 1e-6 * delta);
      EXPECT_NEAR(rows[1][0], delta * c, 1e-6 * delta);
      EXPECT_NEAR(rows[1][1], delta * s, 1e-6 * delta);
    }
    // St. Venant-Kirchhoff under NLGEOM: a bar stretched by lambda carries E lambda (lambda^2 - 1) / 2
    // per unit reference area; the linear step E (lambda - 1).
    const auto carried = [&](double lambda) {
      return *nlgeom ? e_mod * lambda * (lambda * lambda - 1) / 2 : e_mod * (lambda - 1);
    };
    for (const double t : {1.0, 2.0}) {
      double stretch = t < 1.5 ? delta : force * length / e_mod;
      if (t > 1.5)  // the stretch that carries F: Newton on the SVK force
        for (int it = 0; it < 50; ++it) {
          const double lambda = 1 + stretch / length, slope = *nlgeom ? e_mod * (3 * lambda * lambda - 1) / 2 : e_mod;
          stretch -= (carried(lambda) - force) / slope * length;
        }
      const double pull = carried(1 + stretch / length);
      double worst_u = 0, rf[2] = {0, 0};
      for (const auto& r : far.rows)
        if (std::fabs(r[0] - t) < 1e-9) {
          worst_u = std::max({worst_u, std::fabs(r[far.col("U1")] - stretch * c), std::fabs(r[far.col("U2")] - stretch * s),
                              std::fabs(r[far.col("U3")])});
        }
      for (const auto& r : near.rows)
        if (std::fabs(r[0] - t) < 1e-9) {
          rf[0] += r[near.col("RF1")];
          rf[1] += r[near.col("RF2")];
        }
      std::printf("%s skew bar at t = %g: far end off delta d by %.3g (of %g); near reactions %.9g, %.9g (%.9g, %.9g)\n",
                  *nlgeom ? "NLGEOM" : "linear", t, worst_u, stretch, rf[0], rf[1], -pull * c, -pull * s);
      EXPECT_LT(worst_u, 1e-9 * stretch) << t;
      // NLGEOM's prescribed stretch: the reaction to Newton's residual tolerance (measured 4e-7).
      const double tol = *nlgeom && t < 1.5 ? 1e-5 : 1e-9;
      EXPECT_NEAR(rf[0], -pull * c, tol * pull) << t;
      EXPECT_NEAR(rf[1], -pull * s, tol * pull) << t;
    }
  }
}

TEST(Transform, DependentNodeIsRefused) {
  // Node 5 (in BASE) made dependent by an *EQUATION on node 6.
  expect_refused("dependent", edited_incline("*BOUNDARY\nBASE", "*EQUATION\n2\n5, 3, 1., 6, 3, -1.\n*BOUNDARY\nBASE"),
                 26, "*TRANSFORM on node 5, which a constraint moves");
}

TEST(Transform, NodeOnTheCylinderAxisIsRefused) {
  expect_refused("on_axis",
                 edited_incline("*TRANSFORM, NSET=BASE, TYPE=R\n0.8660254037844387, 0.49999999999999994, 0., "
                                "-0.49999999999999994, 0.8660254037844387, 0.",
                                "*TRANSFORM, NSET=BASE, TYPE=C\n0., 0., 0., 0., 0., 1."),
                 26, "node 1, which lies on the cylinder axis");
}

TEST(Transform, LaterTransformWinsWithAWarning) {
  // A second *TRANSFORM on BASE with the same axes (b given differently): the run is the same
  // and says which one applies.
  const std::string deck = edited_incline(
      "*BOUNDARY\nBASE", "*TRANSFORM, NSET=BASE, TYPE=R\n0.8660254037844387, 0.49999999999999994, 0., 0., 1., 0.\n*BOUNDARY\nBASE");
  const std::string dir = scratch_dir("transform_twice");
  std::ofstream(dir + "/twice.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/twice.inp", dir + "/out", "--threads 1", &out), 0) << out;
  EXPECT_NE(out.find("replaces an earlier *TRANSFORM on 4 node(s)"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
