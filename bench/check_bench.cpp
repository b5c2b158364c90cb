// Benchmark (issue 21, item 4): the host work between a deck and a run, phase by phase: the
// read, the solver's arrays (`halfstep check`'s set-up), and the locality renumbering that
// `halfstep run` does after reading.
//
// Usage: check_bench DECK [--reps R]
// Threads: OMP_NUM_THREADS. Prints the best of R for each phase, in seconds; the read once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/threads.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"
#include "model/model.hpp"
#include "model/renumber.hpp"
#include "solver/model_report.hpp"

using namespace halfstep;

namespace {

/// Seconds since t0.
double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: check_bench DECK [--reps R]\n");
    return 2;
  }
  const std::string deck = argv[1];
  int reps = 3;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(1, std::atoi(argv[++i]));
  try {
    auto t0 = std::chrono::steady_clock::now();
    const Model model = read_inp(deck);
    const double read = since(t0);
    double system = 1e300, report = 1e300, order = 1e300, apply = 1e300, renumber = 1e300;
    for (int r = 0; r < reps; ++r) {
      t0 = std::chrono::steady_clock::now();
      { const StructureSystem sys = build_structure_system(model); }  // freed inside the time, as check does
      system = std::min(system, since(t0));
      t0 = std::chrono::steady_clock::now();
      (void)describe_model(model, 0.9);
      report = std::min(report, since(t0));
      Model copy = model;
      t0 = std::chrono::steady_clock::now();
      const LocalityOrder o = locality_order(copy);
      order = std::min(order, since(t0));
      t0 = std::chrono::steady_clock::now();
      apply_order(copy, o);
      apply = std::min(apply, since(t0));
      Model again = model;
      t0 = std::chrono::steady_clock::now();
      renumber_for_locality(again);
      renumber = std::min(renumber, since(t0));
    }
    std::printf("deck %s: %d nodes, %d elements, %d threads\n", deck.c_str(), model.nodes.size(), model.elements.size(),
                default_threads());
    std::printf("read %.3f s; best of %d: system %.3f s, check's report (system, loads, summary) %.3f s, "
                "renumbering %.3f s (order %.3f s, apply %.3f s)\n",
                read, reps, system, report, renumber, order, apply);
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
