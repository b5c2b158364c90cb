// Benchmark (issue 21, item 4): how fast the deck reader turns a deck into a checked Model,
// on one core, and what the Model costs in host memory per element.
//
// Usage: reader_bench DECK [--reps R]
// Prints the deck's bytes (its *INCLUDEs counted), the best of R reads in seconds and MB/s
// (1 MB = 10^6 bytes), wall and process CPU time, and the Model's bytes per element
// (model_host_bytes).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "model/memory.hpp"
#include "model/model.hpp"

using namespace halfstep;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: reader_bench DECK [--reps R]\n");
    return 2;
  }
  const std::string deck = argv[1];
  int reps = 3;
  for (int i = 2; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--reps") == 0) reps = std::max(1, std::atoi(argv[++i]));
  try {
    double best = 1e300, best_cpu = 1e300;
    std::size_t bytes = 0, model_bytes = 0, elements = 0;
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const std::clock_t c0 = std::clock();
      const Model m = read_inp(deck);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, s);
      // CPU time too: on a shared machine the wall time includes waiting for a core.
      best_cpu = std::min(best_cpu, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
      bytes = static_cast<std::size_t>(m.source_bytes);
      model_bytes = model_host_bytes(m);
      elements = m.elements.id.size();
    }
    std::printf("deck %s: %zu bytes, %zu elements\n", deck.c_str(), bytes, elements);
    std::printf("read + check: best of %d %.3f s, %.1f MB/s on one core (CPU time %.3f s, %.1f MB/s)\n", reps, best,
                bytes / best / 1e6, best_cpu, bytes / best_cpu / 1e6);
    std::printf("model on the host: %.1f MiB, %.0f bytes per element\n", model_bytes / 1048576.0,
                elements ? static_cast<double>(model_bytes) / static_cast<double>(elements) : 0.0);
  } catch (const InputError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
