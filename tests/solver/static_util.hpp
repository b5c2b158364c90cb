// Static-step test decks and an in-memory result sink, shared by the CPU tests
// (tests/solver/test_static_steps.cpp) and the GPU ones (tests/gpu/test_gpu_static.cpp).
#pragma once

#include <gtest/gtest.h>

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

}  // namespace halfstep::test
