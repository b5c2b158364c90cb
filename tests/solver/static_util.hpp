// Static-step test decks and an in-memory result sink, shared by the CPU tests
// (tests/solver/test_static_steps.cpp) and the GPU ones (tests/gpu/test_gpu_static.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../discretization/cantilever_deck.hpp"
#include "io/inp_reader.hpp"
#include "results/result_sink.hpp"
#include "solver/explicit_solver.hpp"

namespace halfstep::test {

/// Keeps every frame in memory.
class Capture : public ResultSink {
 public:
  std::vector<ResultFrame> frames;
  void open_histories(const std::vector<OutputRequest>&) override {}
  void write(const ResultFrame& f) override { frames.push_back(f); }
  int frames_written() const override {
    int n = 0;
    for (const ResultFrame& f : frames) n += f.field ? 1 : 0;
    return n;
  }
};

/// Hands frames on to a Capture the test owns (the run owns its sink).
class ForwardSink : public ResultSink {
 public:
  explicit ForwardSink(Capture& c) : c_(c) {}
  void open_histories(const std::vector<OutputRequest>& r) override { c_.open_histories(r); }
  void write(const ResultFrame& f) override { c_.write(f); }
  int frames_written() const override { return c_.frames_written(); }

 private:
  Capture& c_;
};

/// Seed 004's cantilever (L = 10, depth 1, E = 210e9, nu = 0.3, CPS4 nx x ny), clamped at
/// x = 0 and loaded at x = L by a total shear P spread as beam theory's parabola (consistent
/// nodal forces), followed by `steps` (the deck's step blocks, P substituted for %P%).
inline std::string static_cantilever(int nx, int ny, double P, const std::string& steps, const char* type = "CPS4") {
  std::string deck = test::cantilever_deck(nx, ny);
  deck = deck.substr(0, deck.find("*STEP"));
  if (std::string(type) != "CPS4") deck.replace(deck.find("CPS4"), 4, type);
  std::ostringstream d;
  d.precision(17);
  d << deck << "*NSET, NSET=ROOT, GENERATE\n1, " << 1 + (nx + 1) * ny << ", " << nx + 1 << "\n";
  d << "*NSET, NSET=TIP\n" << 1 + nx + (nx + 1) * (ny / 2) << "\n";
  const std::vector<double> f = test::cantilever_tip_load(nx, ny, P);
  std::ostringstream loads;
  loads.precision(17);
  loads << "*CLOAD\n";
  for (std::size_t n = 0; n < f.size() / 3; ++n)
    if (f[3 * n + 1] != 0) loads << n + 1 << ", 2, " << f[3 * n + 1] << "\n";
  std::string body = steps;
  for (std::size_t at; (at = body.find("%LOADS%")) != std::string::npos;) body.replace(at, 7, loads.str());
  d << "*BOUNDARY\nROOT, 1, 2\n" << body;
  return d.str();
}

/// Sze 3.2's strip: L = 12, b = 1, h = 0.1, E = 1.2e6, nu = 0, nx x 1 S4R, clamped at x = 0,
/// the end moment M (about -y, curling towards +z) split over the two tip nodes, in `incs`
/// fixed increments.
inline std::string rolled_strip(int nx, double moment, int incs, const char* nlgeom = "YES", bool direct = true) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE\n";
  for (int j = 0; j <= 1; ++j)
    for (int i = 0; i <= nx; ++i) d << 1 + i + (nx + 1) * j << ", " << 12.0 * i / nx << ", " << j << ", 0\n";
  d << "*ELEMENT, TYPE=S4R, ELSET=STRIP\n";
  for (int i = 0; i < nx; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << ", " << i + nx + 3 << ", " << i + nx + 2 << "\n";
  d << "*NSET, NSET=ROOT\n1, " << nx + 2 << "\n*NSET, NSET=TIP\n" << nx + 1 << ", " << 2 * nx + 2 << "\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1.2e6, 0\n*SHELL SECTION, ELSET=STRIP, MATERIAL=M\n0.1\n";
  d << "*STEP, NLGEOM=" << nlgeom << ", INC=1000\n*STATIC" << (direct ? ", DIRECT" : "") << "\n" << 1.0 / incs << ", 1, 1e-6, " << 1.0 / incs << "\n";
  d << "*BOUNDARY\nROOT, ENCASTRE\n*CLOAD\nTIP, 5, " << -0.5 * moment << "\n";
  d << "*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*END STEP\n";
  return d.str();
}

/// A unit block of 2 x 2 (x 2) cells of `type` (C3D8, C3D8R, C3D4: each cube split into six
/// tetrahedra; CPS4, CPE4: a planar square) sheared by u_x = gamma z (planar: gamma y) on its
/// boundary, the other components held at zero; the centre node is free. `material` is the
/// *MATERIAL block's data after the NAME line.
inline std::string shear_block(const std::string& type, double gamma, const std::string& material) {
  const bool planar = type[0] == 'C' && type[1] == 'P';
  const int nk = planar ? 1 : 3;
  const auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  std::ostringstream d;
  d.precision(17);
  d << "*NODE\n";
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) d << id(i, j, k) << ", " << 0.5 * i << ", " << 0.5 * j << ", " << 0.5 * k << "\n";
  d << "*ELEMENT, TYPE=" << type << ", ELSET=B\n";
  int e = 1;
  if (planar) {
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        d << e++ << ", " << id(i, j, 0) << ", " << id(i + 1, j, 0) << ", " << id(i + 1, j + 1, 0) << ", " << id(i, j + 1, 0)
          << "\n";
  } else {
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
          if (type != "C3D4") {
            d << e++ << ", " << id(i, j, k) << ", " << id(i + 1, j, k) << ", " << id(i + 1, j + 1, k) << ", "
              << id(i, j + 1, k) << ", " << id(i, j, k + 1) << ", " << id(i + 1, j, k + 1) << ", "
              << id(i + 1, j + 1, k + 1) << ", " << id(i, j + 1, k + 1) << "\n";
            continue;
          }
          // The six tetrahedra around the cube's main diagonal, one per order of the axes
          // (conforming between cubes: every cube is cut the same way).
          const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto& p : perms) {
            int c[3] = {i, j, k}, n[4];
            n[0] = id(c[0], c[1], c[2]);
            for (int s = 0; s < 3; ++s) {
              ++c[p[s]];
              n[s + 1] = id(c[0], c[1], c[2]);
            }
            // Axis orders of odd parity give a left-handed tetrahedron: swap two corners.
            const bool odd = (p[0] == 0 && p[1] == 2) || (p[0] == 1 && p[1] == 0) || (p[0] == 2 && p[1] == 1);
            if (odd) std::swap(n[1], n[2]);
            d << e++ << ", " << n[0] << ", " << n[1] << ", " << n[2] << ", " << n[3] << "\n";
          }
        }
  }
  d << "*NSET, NSET=EDGE\n";
  int listed = 0;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        if (i == 1 && j == 1 && (planar || k == 1)) continue;  // the free centre
        d << id(i, j, k) << (++listed % 8 ? ", " : "\n");
      }
  d << "\n*MATERIAL, NAME=M\n" << material << "*SOLID SECTION, ELSET=B, MATERIAL=M\n" << (planar ? "1\n" : "");
  d << "*STEP, NLGEOM=NO\n*STATIC\n1, 1\n*BOUNDARY\n";
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        if (i == 1 && j == 1 && (planar || k == 1)) continue;
        d << id(i, j, k) << ", 1, 1, " << gamma * 0.5 * (planar ? j : k) << "\n";
      }
  d << "EDGE, 2, 2\n" << (planar ? "" : "EDGE, 3, 3\n");
  d << "*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS, E\n*END STEP\n";
  return d.str();
}

/// Every solid cell of a pure-shear frame: the shear stress `tau` and strain gamma / 2 in
/// component `shear` (3: 12, 4: 13), every other stress and strain zero to round-off, Mises
/// sqrt(3) tau and the energy density tau gamma / 2. Measured: shear and energy within 5e-16
/// relative, other components below 1.3e-15 tau (elastic) and 2.7e-14 tau (Neo-Hookean with
/// K0 = 250 mu0, whose volumetric round-off is scaled by K0).
inline void expect_pure_shear(const ResultFrame& f, int shear, double tau, double gamma, const std::string& what) {
  const FieldArray *s = f.fields.find_cell("S"), *e = f.fields.find_cell("E"), *m = f.fields.find_cell("Mises"),
                   *w = f.fields.find_cell("StrainEnergyDensity");
  ASSERT_TRUE(s && e && m && w) << what;
  const std::size_t cells = s->values.size() / 6;
  ASSERT_GT(cells, 0u);
  for (std::size_t c = 0; c < cells; ++c) {
    for (int k = 0; k < 6; ++k) {
      const double sk = s->values[6 * c + k], ek = e->values[6 * c + k];
      if (k == shear) {
        EXPECT_NEAR(sk, tau, 1e-14 * tau) << what << " cell " << c;
        EXPECT_NEAR(ek, 0.5 * gamma, 1e-14 * gamma) << what << " cell " << c;
      } else {
        EXPECT_LT(std::fabs(sk), 1e-12 * tau) << what << " cell " << c << " S component " << k;
        EXPECT_LT(std::fabs(ek), 1e-12 * gamma) << what << " cell " << c << " E component " << k;
      }
    }
    EXPECT_NEAR(m->values[c], std::sqrt(3.0) * tau, 1e-14 * tau) << what << " cell " << c;
    EXPECT_NEAR(w->values[c], 0.5 * tau * gamma, 1e-14 * tau * gamma) << what << " cell " << c;
  }
}

/// Runs a deck held in memory; returns the summary and fills frames.
inline RunSummary run_deck(const std::string& text, Capture& capture, LinearSolverKind solver = LinearSolverKind::Auto,
                    BackendKind backend = BackendKind::Cpu) {
  const Model model = read_inp_string(text, "mem/static.inp");
  RunOptions opt;
  opt.backend = backend;
  opt.tangent.solver = solver;
  opt.make_sink = [&capture](const ResultMesh&) -> std::unique_ptr<ResultSink> {
    return std::make_unique<ForwardSink>(capture);
  };
  return run_analysis(model, opt);
}

/// Displacement component c of deck node `node` (1-based ids, in order) in a frame.
inline double u_of(const ResultFrame& f, int node, int c) {
  const FieldArray* u = f.fields.find_point("U");
  EXPECT_NE(u, nullptr);
  return u ? u->values[3 * static_cast<std::size_t>(node - 1) + static_cast<std::size_t>(c)] : 0.0;
}

/// The last frame with fields.
inline const ResultFrame& last_field(const Capture& c) {
  for (auto it = c.frames.rbegin(); it != c.frames.rend(); ++it)
    if (it->field) return *it;
  return c.frames.back();
}

/// The energy rows (energy.csv) of an explicit step keep their first total: the largest drift
/// of the total over the step's largest energy must stay below limit (with more than 10 rows).
inline void expect_step_total_held(const Capture& c, int step, double limit) {
  double first = 0, drift = 0, scale = 0;
  int rows = 0;
  for (const ResultFrame& f : c.frames)
    if (f.energy && f.step == step) {
      const EnergyRow& e = f.energy_row;
      if (rows++ == 0) first = e.total;
      drift = std::max(drift, std::fabs(e.total - first));
      scale = std::max({scale, e.kinetic, e.internal, std::fabs(e.external_work)});
    }
  ASSERT_GT(rows, 10) << "step " << step;
  EXPECT_LT(drift, limit * scale) << "step " << step << ": " << rows << " energy rows, drift " << drift / scale;
}

}  // namespace halfstep::test
