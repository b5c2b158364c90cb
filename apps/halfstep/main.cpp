// halfstep command line: `halfstep run DECK -o OUTDIR` and `halfstep check DECK`.
#include <cstdio>
#include <stdexcept>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "io/result_writer.hpp"
#include "io/summary_json.hpp"
#include "parallel/communicator.hpp"
#include "solver/explicit_solver.hpp"
#include "solver/model_report.hpp"

namespace {

using namespace halfstep;

/// Exit codes: what a script needs to tell failures apart.
enum Exit { kOk = 0, kUsage = 1, kBadInput = 2, kRunFailed = 3, kIoFailed = 4 };

const char* kUsageText =
    "usage:\n"
    "  halfstep run DECK -o OUTDIR [--backend auto|cpu|cuda] [--threads N] [--dt-scale F]\n"
    "               [--gpu-scheme S] [--precision double|single] [--gpu-block N]\n"
    "               [--gpu-reference stored|recompute]\n"
    "               [--energy-tolerance F] [--quiet]\n"
    "  halfstep check DECK [--dt-scale F]\n"
    "  halfstep --version\n"
    "\n"
    "run     integrates the deck's steps (explicit dynamics, MITC4 shells and C3D8R/C3D8/C3D4/C3D10M solids) and writes\n"
    "        OUTDIR/<job>.pvd with one .vtu per frame, OUTDIR/history/<NSET>.csv,\n"
    "        OUTDIR/energy.csv and OUTDIR/summary.json\n"
    "check   reads and validates the deck and prints a model summary\n"
    "\n"
    "distributed: mpirun -np N halfstep run DECK -o OUTDIR splits the elements over N ranks\n"
    "        (one GPU per rank when GPUs are present); rank 0 writes the same files\n"
    "\n"
    "options:\n"
    "  -o, --output DIR        output directory (created if missing)\n"
    "  --backend B             auto (default: the GPU when one is present), cpu or cuda\n"
    "  --threads N             OpenMP threads of the CPU backend (default: all cores)\n"
    "  --gpu-scheme S          GPU scheme: auto (default: gather, the fastest measured), atomic, gather,\n"
    "                          colored (seed 000 sec. 3.1) or element-local (seed 000 sec. 3.2)\n"
    "  --precision P           double (default) or single (FP32 storage and arithmetic, GPU only)\n"
    "  --gpu-block N           fixed CUDA block size; default: tuned at start-up\n"
    "  --gpu-reference R       recompute (default) or stored: per-element MITC4 constants kept in\n"
    "                          GPU memory (+192 B/element in FP64) instead of recomputed each step\n"
    "  --dt-scale F            safety factor on the stable increment estimate (default 0.9)\n"
    "  --energy-tolerance F    stop when the energy balance error exceeds F (default 0.05)\n"
    "  --quiet                 no progress line\n";

/// Command-line options after parsing.
struct Args {
  std::string command, deck;
  std::string output_dir;
  RunOptions run;
  bool quiet = false;
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr, "halfstep: %s\n\n%s", msg.c_str(), kUsageText);
  std::exit(kUsage);
}

double parse_number(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0) || !(v < 1e300)) usage_error(flag + " needs a positive number, got '" + text + "'");
  return v;
}

Args parse(int argc, char** argv) {
  Args a;
  std::vector<std::string> rest(argv + 1, argv + argc);
  if (rest.empty()) usage_error("missing command");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const std::string& s = rest[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= rest.size()) usage_error(s + " needs a value");
      return rest[++i];
    };
    if (s == "-h" || s == "--help") {
      std::fputs(kUsageText, stdout);
      std::exit(kOk);
    } else if (s == "--version") {
      std::puts("halfstep " HALFSTEP_VERSION);
      std::exit(kOk);
    } else if (s == "-o" || s == "--output") {
      a.output_dir = value();
    } else if (s == "--backend") {
      try {
        a.run.backend = parse_backend_kind(value());
      } catch (const std::invalid_argument& e) {
        usage_error(e.what());
      }
    } else if (s == "--gpu-scheme") {
      try {
        a.run.backend_options.scheme = parse_gpu_scheme(value());
      } catch (const std::invalid_argument& e) {
        usage_error(e.what());
      }
    } else if (s == "--precision") {
      const std::string p = value();
      if (p != "double" && p != "single") usage_error("--precision must be double or single, got '" + p + "'");
      a.run.backend_options.single = p == "single";
    } else if (s == "--gpu-reference") {
      const std::string r = value();
      if (r != "stored" && r != "recompute") usage_error("--gpu-reference must be stored or recompute, got '" + r + "'");
      a.run.backend_options.stored_reference = r == "stored";
    } else if (s == "--gpu-block") {
      const double b = parse_number(s, value());
      if (b != static_cast<int>(b) || static_cast<int>(b) % 32 != 0 || b > 1024)
        usage_error("--gpu-block needs a multiple of 32 up to 1024");
      a.run.backend_options.block = static_cast<int>(b);
      a.run.backend_options.autotune = false;
    } else if (s == "--threads") {
      const double t = parse_number(s, value());
      if (t != static_cast<int>(t) || t > 4096) usage_error("--threads needs a whole number");
      a.run.threads = static_cast<int>(t);
    } else if (s == "--dt-scale") {
      a.run.dt_scale = parse_number(s, value());
      if (a.run.dt_scale > 1.0) usage_error("--dt-scale must not exceed 1 (the estimate is the stability limit)");
    } else if (s == "--energy-tolerance") {
      a.run.energy_tolerance = parse_number(s, value());
    } else if (s == "--quiet") {
      a.quiet = true;
    } else if (!s.empty() && s[0] == '-') {
      usage_error("unknown option " + s);
    } else if (a.command.empty()) {
      a.command = s;
    } else if (a.deck.empty()) {
      a.deck = s;
    } else {
      usage_error("unexpected argument " + s);
    }
  }
  if (a.command != "run" && a.command != "check") usage_error("unknown command '" + a.command + "'");
  if (a.deck.empty()) usage_error(a.command + " needs a DECK");
  if (a.command == "run" && a.output_dir.empty()) usage_error("run needs -o OUTDIR");
  a.run.progress = !a.quiet;
  return a;
}

/// Deck file name without directory and extension: the job name of the outputs.
std::string job_name(const std::string& deck) {
  std::string base = deck.substr(deck.find_last_of('/') + 1);
  const auto dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

int run_command(const Args& a, const Communicator& comm) {
  const bool root = comm.rank() == 0;
  const Model model = read_inp(a.deck);
  if (root)
    for (const std::string& w : model.warnings) std::fprintf(stderr, "halfstep: warning: %s\n", w.c_str());
  if (a.command == "check") {
    if (root) std::fputs(describe_model(model, a.run.dt_scale).c_str(), stdout);
    return kOk;
  }
  RunOptions run = a.run;
  run.comm = &comm;
  // The solver hands frames of named arrays to the writers; it never sees a file.
  const std::string dir = a.output_dir, job = job_name(a.deck);
  run.make_sink = [&model, dir, job](const ResultMesh& mesh) -> std::unique_ptr<ResultSink> {
    return std::make_unique<ResultWriter>(model, mesh, dir, job);
  };
  const RunSummary s = run_analysis(model, run);
  if (!root) return kOk;
  write_summary_json(a.output_dir + "/summary.json", a.deck, s);
  if (!a.quiet) {
    std::fprintf(stderr,
                 "halfstep: %lld increments of %.4g (stable estimate %.4g, element %lld), %d frames, "
                 "%.2f s, %.3g element-steps/s on %s, energy balance error %.2g %%\n",
                 static_cast<long long>(s.steps), s.time_increment, s.stable_increment,
                 static_cast<long long>(s.controlling_element), s.frames, s.wall_seconds, s.element_steps_per_second,
                 s.backend_description.c_str(), 100 * s.energy_error);
    for (int r = 0; r < s.ranks && s.ranks > 1; ++r)
      std::fprintf(stderr, "halfstep: rank %d: %d elements, %.3f s communicating (%.1f %% of the solve)\n", r,
                   s.rank_elements[r], s.rank_comm_seconds[r], 100 * s.rank_comm_seconds[r] / s.solve_seconds);
  }
  return kOk;
}

/// Runs the command; errors every rank meets alike (bad input, a failure all ranks detected)
/// are printed once, by rank 0.
int guarded_main(const Args& args, const Communicator& comm) {
  const bool root = comm.rank() == 0;
  try {
    return run_command(args, comm);
  } catch (const InputError& e) {
    if (root) std::fprintf(stderr, "%s\n", e.what());
    return kBadInput;
  } catch (const RunError& e) {
    if (root || !dynamic_cast<const CollectiveRunError*>(&e)) std::fprintf(stderr, "halfstep: run failed: %s\n", e.what());
    return kRunFailed;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "halfstep: out of memory\n");
    return kRunFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halfstep: error: %s\n", e.what());
    return kIoFailed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  if (launched_by_mpi_launcher() && !mpi_available()) {
    std::fprintf(stderr, "halfstep: started by an MPI launcher, but this build has no MPI "
                         "(install an MPI library, e.g. libopenmpi-dev, and rebuild)\n");
    return kUsage;
  }
  try {
    MpiSession mpi(&argc, &argv);
    return guarded_main(args, mpi.communicator());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halfstep: error: %s\n", e.what());
    return kIoFailed;
  }
}
