// Decks and closed forms of the frequency-step tests (tests/integration/test_frequency.cpp and
// the GPU's tests/gpu/test_gpu_frequency.cpp): two masses on two springs, an axial bar and a
// cantilever of C3D8R bricks, with the beam theories they are checked against.
#pragma once

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"
#include "static_ties.hpp"

namespace halfstep::test::modes {

constexpr double kPi = 3.14159265358979323846;
// Steel in mm, N, s, tonnes.
constexpr double kE = 210000.0, kNu = 0.3, kRho = 7.8e-9;

/// The eigenvalues (omega^2) of the .dat's first eigenvalue table, in mode order; also checks
/// that each line's frequencies are those of its eigenvalue.
inline std::vector<double> dat_eigenvalues(const std::string& dat) {
  std::vector<double> out;
  const std::size_t at = dat.find("E I G E N V A L U E   O U T P U T");
  if (at == std::string::npos) return out;
  std::istringstream in(dat.substr(at));
  std::string line;
  for (int skip = 0; skip < 6 && std::getline(in, line); ++skip) {
  }
  while (std::getline(in, line)) {
    std::istringstream row(line);
    int mode = 0;
    double lambda = 0, omega = 0, f = 0, imag = 0;
    if (!(row >> mode >> lambda >> omega >> f >> imag)) break;
    EXPECT_EQ(mode, static_cast<int>(out.size()) + 1);
    EXPECT_NEAR(omega, std::sqrt(lambda), 1e-6 * omega);
    EXPECT_NEAR(f, omega / (2 * kPi), 1e-6 * f);
    out.push_back(lambda);
  }
  return out;
}

/// The first frequency step's eigenvalues from summary.json (full precision).
inline std::vector<double> summary_eigenvalues(const std::string& summary) {
  return summary_array(summary, "eigenvalues");
}

/// Two masses m on two springs k in a line along x (node 1 held, nodes 2 and 3 free in x):
/// omega^2 = (k / m) (3 -+ sqrt 5) / 2.
constexpr double kChainK = 100.0, kChainM = 2.0;
inline std::string chain_deck() {
  std::ostringstream d;
  d << "*HEADING\ntwo masses on two springs\n*NODE, NSET=ALL\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 2., 0., 0.\n"
    << "*ELEMENT, TYPE=SPRINGA, ELSET=K\n1, 1, 2\n2, 2, 3\n*SPRING, ELSET=K\n\n" << kChainK << "\n"
    << "*ELEMENT, TYPE=MASS, ELSET=PM\n3, 2\n4, 3\n*MASS, ELSET=PM\n" << kChainM << "\n"
    << "*BOUNDARY\n1, 1, 3\n2, 2, 3\n3, 2, 3\n*STEP\n*FREQUENCY\n5\n*NODE PRINT, NSET=ALL\nU\n*END STEP\n";
  return d.str();
}

/// A bar of n C3D8R bricks along x, length L and unit section, clamped at x = 0 and held
/// laterally everywhere, nu = 0 (an axial rod: its modes omega_n = (2n - 1) pi c / (2 L));
/// `step` is the lines between *STEP and *END STEP; the far end's nodes are the set A_N1.
constexpr double kBarL = 100.0;
inline std::string axial_bar(int n, const std::string& step) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nan axial bar\n";
  ties::block(d, "C3D8R", "A", 1, 1, n, 1, 0.0, kBarL, 1.0);
  d << "*NSET, NSET=ALLN, GENERATE\n1, " << 4 * (n + 1) << ", 1\n*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE
    << ", 0.\n*DENSITY\n" << kRho << "\n*SOLID SECTION, ELSET=A, MATERIAL=STEEL\n*BOUNDARY\nA_N0, 1, 3\nALLN, 2, 3\n"
    << "*STEP" << step << "*END STEP\n";
  return d.str();
}
inline std::string axial_bar_deck(int n, int modes) { return axial_bar(n, "\n*FREQUENCY\n" + std::to_string(modes) + "\n"); }
inline double axial_omega(int mode) { return (2 * mode - 1) * kPi * std::sqrt(kE / kRho) / (2 * kBarL); }

/// A cantilever of C3D8R bricks, length kBeamL, square section kBeamH (nx along, ny across),
/// clamped at x = 0; `step` is the lines between *STEP and *END STEP.
constexpr double kBeamL = 10.0, kBeamH = 1.0;
inline std::string cantilever_deck(int nx, int ny, const std::string& step) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na cantilever of bricks\n";
  ties::block(d, "C3D8R", "A", 1, 1, nx, ny, 0.0, kBeamL, kBeamH);
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE << ", " << kNu << "\n*DENSITY\n" << kRho
    << "\n*SOLID SECTION, ELSET=A, MATERIAL=STEEL\n*BOUNDARY\nA_N0, 1, 3\n*STEP" << step << "*END STEP\n";
  return d.str();
}

/// The bending frequencies (rad/time) of a clamped-free Timoshenko beam of the cantilever's
/// section (shear coefficient 5/6), the first `count`: roots of the free end's moment and
/// shear determinant, integrating the two clamped-end solutions along the beam (RK4) and
/// bisecting between sign changes on a fine scan.
inline std::vector<double> timoshenko_omegas(int count) {
  const double A = kBeamH * kBeamH, I = kBeamH * kBeamH * kBeamH * kBeamH / 12, G = kE / (2 * (1 + kNu));
  const double kGA = 5.0 / 6.0 * G * A, EI = kE * I;
  const auto det = [&](double w) {
    // y = (v, v', psi, psi'): kGA (v'' - psi') + rho A w^2 v = 0, EI psi'' + kGA (v' - psi) + rho I w^2 psi = 0.
    const auto f = [&](const double* y, double* dy) {
      dy[0] = y[1];
      dy[2] = y[3];
      dy[3] = (-kGA * (y[1] - y[2]) - kRho * I * w * w * y[2]) / EI;
      dy[1] = y[3] - kRho * A * w * w * y[0] / kGA;
    };
    double end[2][4];
    for (int s = 0; s < 2; ++s) {
      double y[4] = {0, s == 0 ? 1.0 : 0.0, 0, s == 1 ? 1.0 : 0.0};
      const int steps = 4000;
      const double h = kBeamL / steps;
      for (int i = 0; i < steps; ++i) {
        double k1[4], k2[4], k3[4], k4[4], t[4];
        f(y, k1);
        for (int c = 0; c < 4; ++c) t[c] = y[c] + 0.5 * h * k1[c];
        f(t, k2);
        for (int c = 0; c < 4; ++c) t[c] = y[c] + 0.5 * h * k2[c];
        f(t, k3);
        for (int c = 0; c < 4; ++c) t[c] = y[c] + h * k3[c];
        f(t, k4);
        for (int c = 0; c < 4; ++c) y[c] += h / 6 * (k1[c] + 2 * k2[c] + 2 * k3[c] + k4[c]);
      }
      for (int c = 0; c < 4; ++c) end[s][c] = y[c];
    }
    // Free end: EI psi' = 0 and kGA (v' - psi) = 0.
    return end[0][3] * (end[1][1] - end[1][2]) - end[1][3] * (end[0][1] - end[0][2]);
  };
  std::vector<double> roots;
  const double scan = 20.0;  // rad/time per scan step, far below the roots' spacing here
  double a = scan, fa = det(a);
  while (static_cast<int>(roots.size()) < count && a < 1e7) {
    const double b = a + scan * (1 + a / 2000), fb = det(b);
    if ((fa < 0) != (fb < 0)) {
      double lo = a, hi = b, flo = fa;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi), fm = det(mid);
        if ((fm < 0) == (flo < 0)) {
          lo = mid;
          flo = fm;
        } else {
          hi = mid;
        }
      }
      roots.push_back(0.5 * (lo + hi));
    }
    a = b;
    fa = fb;
  }
  return roots;
}

/// Euler-Bernoulli's first cantilever frequency (rad/time): 1.8751^2 sqrt(EI / (rho A L^4)).
inline double euler_bernoulli_omega1() {
  const double I = kBeamH * kBeamH * kBeamH * kBeamH / 12, A = kBeamH * kBeamH;
  return 1.87510407 * 1.87510407 * std::sqrt(kE * I / (kRho * A * std::pow(kBeamL, 4)));
}

/// A simply supported square steel plate of 20 x 20 S4R (a = 1, t = 0.01; SI units), edges
/// held in all translations, asking for four modes.
constexpr double kPlateA = 1.0, kPlateT = 0.01, kPlateE = 210e9, kPlateNu = 0.3, kPlateRho = 7800;
inline std::string plate_deck() {
  const int n = 20;
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na simply supported plate\n*NODE, NSET=ALL\n";
  const auto id = [n](int i, int j) { return 1 + j * (n + 1) + i; };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) d << id(i, j) << ", " << kPlateA * i / n << ", " << kPlateA * j / n << ", 0.\n";
  d << "*ELEMENT, TYPE=S4R, ELSET=P\n";
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      d << 1 + j * n + i << ", " << id(i, j) << ", " << id(i + 1, j) << ", " << id(i + 1, j + 1) << ", " << id(i, j + 1) << "\n";
  d << "*NSET, NSET=EDGE\n";
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      if (i == 0 || j == 0 || i == n || j == n) d << id(i, j) << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kPlateE << ", " << kPlateNu << "\n*DENSITY\n" << kPlateRho
    << "\n*SHELL SECTION, ELSET=P, MATERIAL=STEEL\n" << kPlateT << "\n*BOUNDARY\nEDGE, 1, 3\n*STEP\n*FREQUENCY\n4\n"
    << "*NODE PRINT, NSET=EDGE\nU\n*END STEP\n";
  return d.str();
}
/// Navier's pi^2 / a^2 sqrt(D / (rho t)): omega_mn is (m^2 + n^2) times it.
inline double plate_navier_base() {
  const double D = kPlateE * kPlateT * kPlateT * kPlateT / (12 * (1 - kPlateNu * kPlateNu));
  return kPi * kPi / (kPlateA * kPlateA) * std::sqrt(D / (kPlateRho * kPlateT));
}

}  // namespace halfstep::test::modes
