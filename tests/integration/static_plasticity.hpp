// Decks and closed forms of the static plasticity tests (tests/integration/
// test_static_plasticity.cpp, and the GPU's tests/gpu/test_gpu_static_plasticity.cpp): a bar
// stretched past yield and released, and a thick-walled cylinder under internal pressure.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::plasticity {

constexpr double kE = 200e3, kNu = 0.3, kYield = 250.0, kH = 1000.0;  // MPa; linear hardening

/// The bar's stretch and the closed form of J2 with Hencky elasticity in uniaxial stress
/// (log strain e = ln(stretch)): the plastic strain alpha = (E e - sigma_y) / (E + H), the
/// Kirchhoff stress tau = sigma_y + H alpha, the axial force per unit reference area tau /
/// stretch (the current area is A0 J / stretch), Cauchy S11 = tau / J with J = exp((1 - 2 nu)
/// tau / E) (plastic flow keeps the volume), the lateral stretch exp(-nu tau / E - alpha / 2),
/// and after release (tau = 0) the stretches exp(alpha) and exp(-alpha / 2).
struct UniaxialClosedForm {
  double alpha, tau, force, s11, lateral, released, released_lateral;
  explicit UniaxialClosedForm(double stretch) {
    const double e = std::log(stretch);
    alpha = (kE * e - kYield) / (kE + kH);
    tau = kYield + kH * alpha;
    force = tau / stretch;
    s11 = tau / std::exp((1 - 2 * kNu) * tau / kE);
    lateral = std::exp(-kNu * tau / kE - alpha / 2);
    released = std::exp(alpha);
    released_lateral = std::exp(-alpha / 2);
  }
};

/// Mean of column `name` over the rows of csv at time t (the set's nodes).
inline double mean_at(const Csv& csv, const std::string& name, double t, int* rows = nullptr) {
  double sum = 0;
  int n = 0;
  for (const auto& row : csv.rows)
    if (std::fabs(row[0] - t) < 1e-9) {
      sum += row[static_cast<std::size_t>(csv.col(name))];
      ++n;
    }
  if (rows) *rows = n;
  return n ? sum / n : NAN;
}

constexpr int kBarCubes = 2;        ///< unit cubes along x, L = 2
constexpr double kStretch = 1.1;    ///< the first step's end stretch
constexpr double kSmallStrain = 0.01;  ///< the first step's end strain in a geometrically linear step

/// The small-strain theory's uniaxial closed form at strain eps (linear hardening): plastic
/// strain alpha = (E eps - sigma_y) / (E + H), stress sigma = sigma_y + H alpha (force per unit
/// area: the area does not change), lateral strain -nu sigma / E - alpha / 2, and after release
/// the strains alpha and -alpha / 2; the plastic work sigma_y alpha + H alpha^2 / 2 per volume.
struct SmallStrainClosedForm {
  double alpha, sigma, lateral, work;
  explicit SmallStrainClosedForm(double eps) {
    alpha = (kE * eps - kYield) / (kE + kH);
    sigma = kYield + kH * alpha;
    lateral = -kNu * sigma / kE - alpha / 2;
    work = kYield * alpha + 0.5 * kH * alpha * alpha;
  }
};

/// The material block with the hardening table (two points: linear hardening to alpha 1).
inline std::string steel() {
  std::ostringstream d;
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE << ", " << kNu << "\n*PLASTIC\n" << kYield << ", 0.\n"
    << kYield + kH << ", 1.\n";
  return d.str();
}

/// A bar of kBarCubes unit cubes of `type` (C3D8 or C3D8R) along x, on symmetry planes x = 0,
/// y = 0, z = 0 (free to contract sideways: homogeneous uniaxial stress), stretched to
/// kStretch in a static NLGEOM step (nlgeom false: to the strain kSmallStrain in geometrically
/// linear steps), then released (OP=NEW keeps the symmetry planes). Node sets XL (the end
/// face), TOP (y = 1); history of XL, one field frame per step.
inline std::string bar_deck(const std::string& type, bool nlgeom = true) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nplastic bar\n*NODE\n";
  for (int i = 0; i <= kBarCubes; ++i)
    for (int j = 0; j < 4; ++j) d << 4 * i + j + 1 << ", " << i << ", " << (j == 1 || j == 2) << ", " << (j >= 2) << "\n";
  d << "*ELEMENT, TYPE=" << type << ", ELSET=BAR\n";
  for (int i = 0; i < kBarCubes; ++i) {
    const int a = 4 * i + 1, b = 4 * (i + 1) + 1;
    d << i + 1 << ", " << a << ", " << b << ", " << b + 1 << ", " << a + 1 << ", " << a + 3 << ", " << b + 3 << ", "
      << b + 2 << ", " << a + 2 << "\n";
  }
  d << "*NSET, NSET=X0\n1, 2, 3, 4\n*NSET, NSET=XL\n";
  for (int j = 1; j <= 4; ++j) d << 4 * kBarCubes + j << (j < 4 ? ", " : "\n");
  d << "*NSET, NSET=Y0\n";
  for (int i = 0; i <= kBarCubes; ++i) d << 4 * i + 1 << ", " << 4 * i + 4 << (i < kBarCubes ? ", " : "\n");
  d << "*NSET, NSET=TOP\n";
  for (int i = 0; i <= kBarCubes; ++i) d << 4 * i + 2 << ", " << 4 * i + 3 << (i < kBarCubes ? ", " : "\n");
  d << "*NSET, NSET=Z0\n";
  for (int i = 0; i <= kBarCubes; ++i) d << 4 * i + 1 << ", " << 4 * i + 2 << (i < kBarCubes ? ", " : "\n");
  d << steel() << "*SOLID SECTION, ELSET=BAR, MATERIAL=STEEL\n";
  const std::string planes = "X0, 1, 1\nY0, 2, 2\nZ0, 3, 3\n";
  const std::string output =
      "*OUTPUT, FIELD, NUMBER INTERVAL=1\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS, E, PEEQ\n"
      "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XL\nU, RF\n*NODE OUTPUT, NSET=TOP\nU\n";
  const char* step = nlgeom ? "*STEP, NLGEOM=YES, INC=1000\n" : "*STEP, INC=1000\n";
  d << step << "*STATIC\n0.05, 1.\n*BOUNDARY\n" << planes << "XL, 1, 1, "
    << (nlgeom ? kStretch - 1 : kSmallStrain) * kBarCubes << "\n" << output << "*END STEP\n";
  d << step << "*STATIC\n0.25, 1.\n*BOUNDARY, OP=NEW\n" << planes << output << "*END STEP\n";
  return d.str();
}

// The thick-walled cylinder (Hill 1950, "The Mathematical Theory of Plasticity", ch. V):
// inner radius a, outer b, plane strain, perfectly plastic von Mises with k = sigma_y / sqrt 3.
// For a plastic zone out to c the pressure is p = k (2 ln(c/a) + 1 - c^2/b^2); inside it
// sigma_r = -p + 2 k ln(r/a), sigma_theta = sigma_r + 2 k; outside, the elastic Lame field of a
// cylinder whose inner edge r = c just yields. Exact for an incompressible material; with
// nu = 0.3 the axial stress is not exactly the mean of the other two and the stresses differ
// by about a percent.
constexpr double kA = 10, kB = 20, kC = 15;  ///< radii: inner, outer, plastic front
constexpr int kRadial = 20, kRing = 6;      ///< elements through the wall and around 90 degrees

/// Hill's k.
inline double hill_k() { return kYield / std::sqrt(3.0); }
/// The inner pressure that puts the plastic front at c.
inline double hill_pressure(double c) { return hill_k() * (2 * std::log(c / kA) + 1 - c * c / (kB * kB)); }
/// sigma_r and sigma_theta at radius r with the front at c.
inline void hill_stress(double r, double c, double& sr, double& st) {
  const double k = hill_k();
  if (r <= c) {
    sr = -hill_pressure(c) + 2 * k * std::log(r / kA);
    st = sr + 2 * k;
  } else {
    const double f = k * c * c / (kB * kB);
    sr = -f * (kB * kB / (r * r) - 1);
    st = f * (kB * kB / (r * r) + 1);
  }
}

/// A quarter of the cylinder in C3D8 (kRadial x kRing x 1 layer of thickness 1), plane strain
/// by holding z on both faces, symmetry planes x = 0 and y = 0, the pressure of a front at kC
/// on the inner faces (P6), ramped over a static NLGEOM step (nlgeom false: a geometrically
/// linear one, the small-strain theory of Hill's solution). Element e = i * kRing + j + 1 sits
/// at ring i (radially) and sector j. Perfectly plastic (the hardening table's first line).
inline std::string cylinder_deck(bool nlgeom = true) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nthick-walled cylinder, Hill\n*NODE\n";
  const auto id = [](int i, int j, int l) { return 1 + l * (kRadial + 1) * (kRing + 1) + i * (kRing + 1) + j; };
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i <= kRadial; ++i)
      for (int j = 0; j <= kRing; ++j) {
        const double r = kA + (kB - kA) * i / kRadial, t = M_PI / 2 * j / kRing;
        // The x = 0 plane exactly (cos(pi/2) is 6e-17).
        d << id(i, j, l) << ", " << (j == kRing ? 0.0 : r * std::cos(t)) << ", " << r * std::sin(t) << ", " << l << "\n";
      }
  d << "*ELEMENT, TYPE=C3D8, ELSET=WALL\n";
  for (int i = 0; i < kRadial; ++i)
    for (int j = 0; j < kRing; ++j)
      d << i * kRing + j + 1 << ", " << id(i, j, 0) << ", " << id(i + 1, j, 0) << ", " << id(i + 1, j + 1, 0) << ", "
        << id(i, j + 1, 0) << ", " << id(i, j, 1) << ", " << id(i + 1, j, 1) << ", " << id(i + 1, j + 1, 1) << ", "
        << id(i, j + 1, 1) << "\n";
  d << "*ELSET, ELSET=INNER\n";
  for (int j = 0; j < kRing; ++j) d << j + 1 << (j + 1 < kRing ? ", " : "\n");
  d << "*NSET, NSET=ALL, GENERATE\n1, " << id(kRadial, kRing, 1) << ", 1\n*NSET, NSET=YSYM\n";
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i <= kRadial; ++i) d << id(i, 0, l) << (l == 1 && i == kRadial ? "\n" : ", ");
  d << "*NSET, NSET=XSYM\n";
  for (int l = 0; l < 2; ++l)
    for (int i = 0; i <= kRadial; ++i) d << id(i, kRing, l) << (l == 1 && i == kRadial ? "\n" : ", ");
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE << ", " << kNu << "\n*PLASTIC\n" << kYield << ", 0.\n"
    << "*SOLID SECTION, ELSET=WALL, MATERIAL=STEEL\n*BOUNDARY\nALL, 3, 3\nYSYM, 2, 2\nXSYM, 1, 1\n";
  d << (nlgeom ? "*STEP, NLGEOM=YES, INC=1000\n" : "*STEP, INC=1000\n") << "*STATIC\n0.1, 1.\n*DLOAD\nINNER, P6, "
    << hill_pressure(kC) << "\n"
    << "*OUTPUT, FIELD, NUMBER INTERVAL=1\n*ELEMENT OUTPUT\nS, PEEQ\n*END STEP\n";
  return d.str();
}

/// Element e's (0-based) centroid radius and angle in the cylinder deck.
inline void cylinder_cell(int e, double& r, double& theta) {
  const int i = e / kRing, j = e % kRing;
  r = kA + (kB - kA) * (i + 0.5) / kRadial;
  theta = M_PI / 2 * (j + 0.5) / kRing;
}

}  // namespace halfstep::test::plasticity
