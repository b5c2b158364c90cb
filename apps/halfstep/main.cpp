// halfstep command line: `halfstep run DECK -o OUTDIR`, `halfstep check DECK` and
// `halfstep report OUTDIR`.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "output_folder.hpp"
#include "report_command.hpp"
#include "status_file.hpp"

#include "core/crash_handler.hpp"
#include "core/error.hpp"
#include "elements/registry.hpp"
#include "core/restart_blob.hpp"
#include "core/threads.hpp"
#include "io/atomic_file.hpp"
#include "io/inp_reader.hpp"
#include "io/result_writer.hpp"
#include "io/summary_json.hpp"
#include "model/memory.hpp"
#include "model/renumber.hpp"
#include "parallel/communicator.hpp"
#include "parallel/run_share.hpp"
#include "solver/explicit_solver.hpp"
#include "solver/interrupt.hpp"
#include "solver/model_report.hpp"

namespace {

using namespace halfstep;

/// When the process started: the status file's wall times count from here.
const std::chrono::steady_clock::time_point g_started = std::chrono::steady_clock::now();

/// Exit codes: what a script needs to tell failures apart.
/// Minutes of wall time between restarts when --restart-interval is not given.
constexpr double kDefaultRestartMinutes = 30;
/// Seconds between progress lines in a batch log when --progress-interval is not given: a line
/// a minute would leave a queue's log silent too long, one a second would drown it.
constexpr double kDefaultProgressSeconds = 30;

enum Exit { kOk = 0, kUsage = 1, kBadInput = 2, kRunFailed = 3, kIoFailed = 4, kInterrupted = 5 };

/// SIGINT/SIGTERM: ask the time loop to stop after its increment (it writes a last frame and
/// the summary); the handler is reset on delivery, so a second signal stops at once.
extern "C" void request_stop(int sig) { halfstep::interrupt_request().store(sig); }

/// Installs request_stop for SIGINT and SIGTERM.
void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = request_stop;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

/// Command-line options after parsing.
struct Args {
  std::string command, deck;
  std::string output_dir;
  std::string restart_from;  ///< --restart FILE ("" for a fresh run)
  RunOptions run;
  bool quiet = false;
  bool timings = false;  ///< check --timings: the phases' seconds on stderr
  bool report = false;  ///< run --report: write OUTDIR/report.html at the end, whatever the outcome
  std::string units;    ///< --units: the report's unit system (empty: the deck's ** UNITS: line)
  /// run --renumber: reorder nodes and elements for locality (model/renumber.hpp); "auto" is "on".
  std::string renumber = "auto";
  bool overwrite = false;  ///< run --overwrite: delete another job's results in OUTDIR first
  /// run --progress-interval: seconds between progress lines on a stderr that is not a terminal (0: none).
  double progress_interval = kDefaultProgressSeconds;
  Dialect dialect = Dialect::Abaqus;  ///< run/check --dialect: whose reading of the keywords
};

/// What run_command learned that the failure path needs too (the summary of a failed run).
struct RunContext {
  std::vector<std::string> warnings;
  std::string job;                     ///< set once the output folder is taken
  /// The result files the writer listed when it closed (ResultWriter::list_files_into).
  std::shared_ptr<std::vector<std::string>> result_files = std::make_shared<std::vector<std::string>>();
  std::unique_ptr<StatusFile> status;  ///< rank 0's <job>.sta, once the run starts
};

/// Throws the usage error users see, word for word: CLI11 would prefix a validator's message
/// with the option name, which these messages already carry where it helps.
[[noreturn]] void bad_value(const std::string& msg) { throw CLI::ValidationError(msg); }

/// The value of flag as a finite positive number; anything else (0, -1, nan, inf, "2x") is a usage error.
double positive_number(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0) || !(v < 1e300))
    bad_value(flag + " needs a positive number, got '" + text + "'");
  return v;
}

/// " (default X)" for help texts, from RunOptions itself so that the two cannot drift apart.
std::string default_note(double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, " (default %g)", value);
  return buf;
}

/// Adds `name VALUE` to cmd; store checks and keeps the text. Values are taken as strings so
/// that every bad value gets a message naming the option and the value, not CLI11's generic one.
CLI::Option* add_value(CLI::App& cmd, const std::string& name, const std::string& value_name, const std::string& help,
                       std::function<void(const std::string&)> store) {
  return cmd.add_option_function<std::string>(name, std::move(store), help)->type_name(value_name);
}

/// Adds the DECK argument, which both commands take.
void add_deck(CLI::App& cmd, Args& a) {
  add_value(cmd, "DECK", "", "input deck (.inp)", [&a](const std::string& v) {
    if (v.empty()) bad_value("DECK must not be empty");
    a.deck = v;
  })->required();
}

/// Adds --dt-scale, which both commands take (check prints the increment it gives).
void add_dt_scale(CLI::App& cmd, Args& a) {
  add_value(cmd, "--dt-scale", "F",
            "safety factor on the stable increment estimate" + default_note(RunOptions().dt_scale),
            [&a](const std::string& v) {
              a.run.dt_scale = positive_number("--dt-scale", v);
              if (a.run.dt_scale > 1.0) bad_value("--dt-scale must not exceed 1 (the estimate is the stability limit)");
            });
}

/// Adds the options of `run`.
void add_run_options(CLI::App& run, Args& a) {
  add_deck(run, a);
  add_value(run, "-o,--output", "DIR", "output directory (created if missing)", [&a](const std::string& v) {
    if (v.empty()) bad_value("-o needs a directory");
    a.output_dir = v;
  })->required();
  add_value(run, "--backend", "B", "auto (default: the GPU when one is present), cpu or cuda",
            [&a](const std::string& v) {
              try {
                a.run.backend = parse_backend_kind(v);
              } catch (const std::invalid_argument& e) {
                bad_value(e.what());
              }
            });
  add_value(run, "--threads", "N", "OpenMP threads of the CPU backend (default: OMP_NUM_THREADS, else the usable cores within any container CPU quota)",
            [&a](const std::string& v) {
              const double t = positive_number("--threads", v);
              // The range test comes first: casting a value beyond int to int is undefined.
              if (t > 4096 || t != static_cast<int>(t)) bad_value("--threads needs a whole number");
              a.run.threads = static_cast<int>(t);
            });
  add_dt_scale(run, a);
  add_value(run, "--gpu-scheme", "S",
            "GPU scheme: auto (default: gather, the fastest measured), atomic, gather,\n"
            "colored (seed 000 sec. 3.1) or element-local (seed 000 sec. 3.2)",
            [&a](const std::string& v) {
              try {
                a.run.backend_options.gpu.scheme = parse_gpu_scheme(v);
              } catch (const std::invalid_argument& e) {
                bad_value(e.what());
              }
            });
  add_value(run, "--precision", "P", "double (default) or single (FP32 storage and arithmetic, GPU only)",
            [&a](const std::string& v) {
              if (v != "double" && v != "single") bad_value("--precision must be double or single, got '" + v + "'");
              a.run.backend_options.single = v == "single";
            });
  add_value(run, "--gpu-block", "N", "fixed CUDA block size; default: tuned at start-up", [&a](const std::string& v) {
    const double b = positive_number("--gpu-block", v);
    if (b > 1024 || b != static_cast<int>(b) || static_cast<int>(b) % 32 != 0)
      bad_value("--gpu-block needs a multiple of 32 up to 1024");
    a.run.backend_options.gpu.block = static_cast<int>(b);
    a.run.backend_options.gpu.autotune = false;
  });
  add_value(run, "--gpu-reference", "R",
            "recompute (default) or stored: per-element MITC4 constants kept in\n"
            "GPU memory (+192 B/element in FP64) instead of recomputed each step",
            [&a](const std::string& v) {
              if (v != "stored" && v != "recompute")
                bad_value("--gpu-reference must be stored or recompute, got '" + v + "'");
              a.run.backend_options.gpu.stored_reference = v == "stored";
            });
  add_value(run, "--fpm-kernels", "K",
            "fused (one GPU thread per element does all), split (seed 003's scheme:\n"
            "kernels per element for the kinematics, per stress point, per element for\n"
            "the forces) or auto (default: split for FPM hexahedra in FP64, where it is\n"
            "faster, fused otherwise); FPM beams, triangles and hexahedra, GPU only",
            [&a](const std::string& v) {
              if (v != "fused" && v != "split" && v != "auto")
                bad_value("--fpm-kernels must be auto, fused or split, got '" + v + "'");
              a.run.backend_options.gpu.fpm_kernels = v == "split"   ? FpmKernels::Split
                                                  : v == "fused" ? FpmKernels::Fused
                                                                 : FpmKernels::Auto;
            });
  add_value(run, "--shell-kernel", "K",
            "thread (one GPU thread per MITC4 element), split (four threads per element,\n"
            "one per Gauss point, exchanging through warp shuffles) or auto (default:\n"
            "split in the gather scheme, where it is faster, thread otherwise); elastic\n"
            "shells, GPU only",
            [&a](const std::string& v) {
              if (v != "thread" && v != "split" && v != "auto")
                bad_value("--shell-kernel must be auto, thread or split, got '" + v + "'");
              a.run.backend_options.gpu.shell_kernel = v == "split"    ? ShellKernel::Split
                                                   : v == "thread" ? ShellKernel::Thread
                                                                   : ShellKernel::Auto;
            });
  add_value(run, "--node-pass", "K",
            "split (default: the nodes with loads, motions or a *TRANSFORM in one launch,\n"
            "the rest in a lean one, in models without constraints, rigid bodies, beams,\n"
            "FPM triangles or contact) or single (one launch for every node); GPU only",
            [&a](const std::string& v) {
              if (v != "split" && v != "single") bad_value("--node-pass must be split or single, got '" + v + "'");
              a.run.backend_options.gpu.split_node_pass = v == "split";
            });
  add_value(run, "--energy-tolerance", "F",
            "stop when the energy balance error exceeds F" + default_note(RunOptions().energy_tolerance),
            [&a](const std::string& v) { a.run.energy_tolerance = positive_number("--energy-tolerance", v); });
  add_value(run, "--linear-solver", "S",
            "static steps: auto (default: the fastest that fits), cholmod, ldlt or cg\n"
            "on the CPU; cudss or gpu-cg on the GPU",
            [&a](const std::string& v) {
              try {
                a.run.tangent.solver = parse_linear_solver(v);
              } catch (const std::invalid_argument& e) {
                bad_value(e.what());
              }
            });
  add_value(run, "--restart", "FILE",
            "resume from a restart file (OUTDIR/<job>.restart) of the same deck, options\n"
            "and program, appending to OUTDIR's results (docs/reliability.md)",
            [&a](const std::string& v) {
              if (v.empty()) bad_value("--restart needs a file");
              a.restart_from = v;
            });
  add_value(run, "--dt-update", "N",
            "re-evaluate the stable increment on the deformed mesh every N increments\n"
            "(steps with the automatic increment; default: the undeformed mesh's throughout)",
            [&a](const std::string& v) {
              const double n = positive_number("--dt-update", v);
              if (n > 1e12 || n != static_cast<double>(static_cast<long long>(n)))
                bad_value("--dt-update needs a whole number of increments");
              a.run.dt_update = static_cast<std::int64_t>(n);
            });
  add_value(run, "--restart-every", "N",
            "write OUTDIR/<job>.restart every N explicit increments (overrides *RESTART, FREQUENCY)",
            [&a](const std::string& v) {
              const double n = positive_number("--restart-every", v);
              if (n > 1e12 || n != static_cast<double>(static_cast<long long>(n)))
                bad_value("--restart-every needs a whole number of increments");
              a.run.restart_every = static_cast<std::int64_t>(n);
            });
  // A run killed late must not cost the whole run: by default a restart every 30 minutes of
  // wall time (a 1 M-element restart takes ~1 s: docs/performance.md), none in shorter runs.
  a.run.restart_interval = 60 * kDefaultRestartMinutes;
  a.run.restart_interval_default = true;
  add_value(run, "--restart-interval", "MIN",
            "also write it every MIN minutes of wall time (default 30; 0: never; a restart is\n"
            "always written when the run is stopped by SIGINT or SIGTERM)",
            [&a](const std::string& v) {
              const bool zero = !v.empty() && v.find_first_not_of("0.") == std::string::npos && v != ".";
              const double m = zero ? 0.0 : positive_number("--restart-interval", v);
              if (m > 1e6) bad_value("--restart-interval must be at most 1e6 minutes");
              a.run.restart_interval = 60 * m;
              a.run.restart_interval_default = false;
            });
  add_value(run, "--renumber", "auto|on|off",
            "on: renumber nodes and elements once after reading, elements along a space-filling\n"
            "curve, nodes in the order they touch (faster on poorly numbered decks; results are\n"
            "written in the deck's numbering and order either way); auto (default): on",
            [&a](const std::string& v) {
              if (v != "auto" && v != "on" && v != "off")
                bad_value("--renumber must be auto, on or off, got '" + v + "'");
              a.renumber = v;
            });
  run.add_flag("--overwrite", a.overwrite,
               "OUTDIR holds another job's results: delete them first (only the files halfstep\n"
               "writes; without it such a folder is refused, docs/reliability.md)");
  add_value(run, "--progress-interval", "S",
            "when stderr is not a terminal (a batch queue, nohup): a progress line every S\n"
            "seconds of wall time (default 30; 0: none). OUTDIR/<job>.sta is written either way",
            [&a](const std::string& v) {
              const bool zero = !v.empty() && v.find_first_not_of("0.") == std::string::npos && v != ".";
              a.progress_interval = zero ? 0.0 : positive_number("--progress-interval", v);
            });
  run.add_flag("--quiet", a.quiet, "no progress line");
  run.add_flag("--report", a.report,
               "write OUTDIR/report.html at the end (also of a failed or interrupted run; needs\n"
               "Python 3 and the halfstep package, docs/report.md)");
}

/// Parses the command line; prints help or the version and exits 0, or prints a usage error
/// and exits kUsage.
Args parse(int argc, char** argv) {
  Args a;
  CLI::App app("halfstep: explicit dynamics of shells, solids and planar elements (element types " +
                    supported_element_names() + ")",
               "halfstep");
  // A repeated option keeps its last value, as scripts that append an override expect.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.require_subcommand(1);
  app.fallthrough();  // --version after the command works too, as it did before CLI11
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", "halfstep " HALFSTEP_VERSION, "print the version and exit");
  app.footer(
      "distributed: mpirun -np N halfstep run DECK -o OUTDIR splits the elements over N ranks\n"
      "(one GPU per rank when GPUs are present); rank 0 writes the same files");
  CLI::App* run = app.add_subcommand(
      "run",
      "integrates the deck's steps (explicit dynamics) and writes OUTDIR/<job>.pvd\n"
      "with one .vtu per frame, OUTDIR/history/<NSET>.csv, OUTDIR/energy.csv,\n"
      "OUTDIR/<job>.sta (status, a line a second) and OUTDIR/summary.json");
  add_run_options(*run, a);
  CLI::App* check = app.add_subcommand("check", "reads and validates the deck and prints a model summary");
  add_deck(*check, a);
  for (CLI::App* c : {run, check})
    add_value(*c, "--dialect", "abaqus|calculix",
              "whose reading of the keywords the deck gets where Abaqus and CalculiX differ\n"
              "(default abaqus; calculix: C3D8 without F-bar, C3D20R's mass at its own points,\n"
              "SECTION=CIRC's number a diameter, implicit *DYNAMIC increments that grow;\n"
              "docs/input.md, \"Dialects\")",
              [&a](const std::string& v) {
                std::string l = v;
                for (char& ch : l) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
                if (l == "abaqus") a.dialect = Dialect::Abaqus;
                else if (l == "calculix" || l == "ccx") a.dialect = Dialect::CalculiX;
                else bad_value("--dialect needs abaqus or calculix, got '" + v + "'");
              });
  add_dt_scale(*check, a);
  check->add_flag("--timings", a.timings,
                  "print the seconds spent reading the deck and building the solver's arrays (stderr)");
  CLI::App* report = app.add_subcommand(
      "report",
      "writes OUTDIR/report.html and OUTDIR/report/*.png from a run's results: energy\n"
      "balance, increments, histories, pictures of the deformed model, the summary\n"
      "(Python 3 with the halfstep package, docs/report.md)");
  add_value(*report, "OUTDIR", "", "a run's output directory", [&a](const std::string& v) {
    if (v.empty()) bad_value("OUTDIR must not be empty");
    a.output_dir = v;
  })->required();
  for (CLI::App* c : {run, report})
    c->add_option("--units", a.units,
                  "the unit system the deck's numbers are in, for the report's labels (SI, MM-T-S,\n"
                  "MM-KG-MS, ...; docs/report.md); default: the deck's ** UNITS: line");
  // Without a command, help lists every command with its options, as the hand-written usage did.
  const auto help = [&app] {
    return app.get_subcommands().empty() ? app.help("", CLI::AppFormatMode::All) : app.help();
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(help().c_str(), stdout);
    std::exit(kOk);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) std::exit(app.exit(e));  // --version
    std::string msg = e.what();
    if (app.get_subcommands().empty()) {
      // CLI11 reports "A subcommand is required" for a misspelt command too; say which word it was.
      const std::vector<std::string> rest = app.remaining();
      if (rest.empty())
        msg = "missing command (expected run, check or report)";
      else if (rest[0][0] == '-')
        msg = "unknown option " + rest[0];
      else
        msg = "unknown command '" + rest[0] + "' (expected run, check or report)";
    }
    std::fprintf(stderr, "halfstep: %s\n\n%s", msg.c_str(), help().c_str());
    std::exit(kUsage);
  }
  a.command = run->parsed() ? "run" : check->parsed() ? "check" : "report";
  if (a.overwrite && !a.restart_from.empty()) {
    std::fprintf(stderr, "halfstep: --overwrite and --restart exclude each other: a resumed run appends to its own "
                         "results\n\n%s", help().c_str());
    std::exit(kUsage);
  }
  a.run.progress = !a.quiet;
  return a;
}

/// hash64 of a file's bytes (the program's, for build_id); what names the file in errors.
std::uint64_t file_hash(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0}, "cannot read the " + what);
  std::uint64_t h = hash64(nullptr, 0);
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h = hash64(buf.data(), static_cast<std::size_t>(in.gcount()), h);
  }
  return h;
}

/// What a restart must have been written by: this version and this very binary (a restart
/// continues bit for bit only in the program that wrote it).
std::string build_id() {
  char hex[17];
  std::uint64_t h = 0;
  try {
    h = file_hash("/proc/self/exe", "program");
  } catch (const InputError&) {  // no /proc: the version alone
  }
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("halfstep " HALFSTEP_VERSION " (binary ") + hex + ")";
}

/// The whole file, or InputError naming it.
std::string read_whole_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0}, "cannot read the " + what);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Deck file name without directory and extension: the job name of the outputs.
std::string job_name(const std::string& deck) {
  std::string base = deck.substr(deck.find_last_of('/') + 1);
  const auto dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

/// Whether this run renumbers its model (--renumber). "auto" is on for either backend: on an
/// H200 the renumbered order ran the GPU suite and was as fast on ordered decks and 2.1x
/// faster on a shuffled one (docs/performance.md, "Locality renumbering on the GPU"). Every
/// rank of a distributed run sees the same option, so all build the same model.
bool renumbers(const Args& a) { return a.renumber != "off"; }

/// summary.json's "files": what the writer wrote, the restart file, the status file and the
/// summary itself, relative to OUTDIR.
std::vector<std::string> run_files(const Args& a, const RunContext& ctx) {
  std::vector<std::string> files = *ctx.result_files;
  std::error_code ec;
  if (std::filesystem::exists(a.output_dir + "/" + ctx.job + ".restart", ec)) files.push_back(ctx.job + ".restart");
  if (ctx.status) files.push_back(ctx.job + ".sta");  // its last line follows the summary
  files.push_back("summary.json");
  return files;
}

int run_command(const Args& a, const Communicator& comm, RunContext& ctx) {
  const bool root = comm.rank() == 0;
  // A distributed run's other ranks never open the deck (nor the restart file): rank 0 sends
  // each its share (run_analysis) or tells it that the set-up failed.
  const bool reads = root || a.command == "check";
  // Rank 0 of a distributed run: a failure before run_analysis's own set-up stops the others too.
  const auto announcing = [&](auto&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      if (comm.distributed() && a.command == "run") announce_setup_failure(comm, e);
      throw;
    }
  };
  Model model;
  double read_seconds = 0;
  if (reads)
    announcing([&] {
      // check reports every problem it finds (up to 50); run stops at the first.
      const auto t_read = std::chrono::steady_clock::now();
      model = a.command == "check" ? read_inp_all_errors(a.deck, 50, a.dialect) : read_inp(a.deck, a.dialect);
      read_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_read).count();
      // After reading and its checks (their messages name labels and lines, whatever the
      // order), before the partition.
      if (a.command == "run" && renumbers(a)) renumber_for_locality(model);
    });
  ctx.warnings = model.warnings;
  if (root)
    for (const std::string& w : model.warnings) std::fprintf(stderr, "halfstep: warning: %s\n", w.c_str());
  if (a.command == "check") {
    if (!root) return kOk;
    ModelReportTimes t;
    std::fputs(describe_model(model, a.run.dt_scale, &t).c_str(), stdout);
    // The summary is check's result: one that could not be written is a failed check (exit 4).
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
      throw std::runtime_error(std::string("cannot write the model summary to standard output: ") +
                               std::strerror(errno != 0 ? errno : EIO));
    if (a.timings)
      std::fprintf(stderr, "halfstep: check: read %.3f s, set-up %.3f s (solver arrays %.3f s, steps %.3f s), %d %s\n",
                   read_seconds, t.total, t.system, t.steps, default_threads(),
                   default_threads() == 1 ? "thread" : "threads");
    return kOk;
  }
  RunOptions run = a.run;
  run.comm = &comm;
  // The solver hands frames of named arrays to the writers; it never sees a file.
  const std::string dir = a.output_dir, job = job_name(a.deck);
  const bool resuming = !a.restart_from.empty();
  run.job = job;  // restarts record it: one resumes only the job that wrote it
  // The folder is checked (and an earlier run's results deleted) once the deck has been read:
  // a deck that cannot run leaves the folder as it was.
  if (root)
    announcing([&] {
      const std::string note = prepare_output_folder(dir, job, a.overwrite, resuming);
      if (!note.empty() && !a.quiet) std::fprintf(stderr, "%s\n", note.c_str());
    });
  ctx.job = job;
  // The writer's seconds are summed here: the writer itself is gone when the summary is made.
  auto output_seconds = std::make_shared<double>(0.0);
  run.make_sink = [&model, dir, job, resuming, output_seconds,
                   files = ctx.result_files](const ResultMesh& mesh) -> std::unique_ptr<ResultSink> {
    auto w = std::make_unique<ResultWriter>(model, mesh, dir, job, resuming);
    w->count_seconds_into(output_seconds.get());
    w->list_files_into(files.get());
    return w;
  };
  if (root) {
    // A terminal has the solver's live line; a log gets a line every --progress-interval.
    const double interval = !a.quiet && !::isatty(2) ? a.progress_interval : 0.0;
    ctx.status = std::make_unique<StatusFile>(dir + "/" + job + ".sta", job, interval, a.restart_from, g_started);
    run.status = [status = ctx.status.get()](const StatusPoint& p) { status->update(p); };
  }
  // Restarts: the solver gives the bytes, the file is written here, atomically (temporary
  // file, fsync, rename), so a kill mid-write leaves the previous restart intact.
  run.build_id = [id = std::string()]() mutable {  // hashes the program once, when first needed
    if (id.empty()) id = build_id();
    return id;
  };
  const std::string restart_path = dir + "/" + job + ".restart";
  if (root)
    run.write_restart = [restart_path](const RestartBlob& blob) {
      AtomicFile file(restart_path);
      blob.write([&file](const void* p, std::size_t n) { file.write(p, n); });
      file.commit();
      return restart_path;
    };
  // Rank 0 reads the restart and sends each other rank its part (run_analysis); an unreadable
  // file stops the others with rank 0's set-up.
  RestartBlob resume = RestartBlob::empty(a.restart_from);
  if (resuming) {
    if (root)
      announcing([&] { resume = RestartBlob::parse(read_whole_file(a.restart_from, "restart file"), a.restart_from); });
    run.resume = &resume;
  }
  install_stop_handlers();
  RunSummary s = run_analysis(model, run);
  const bool interrupted = s.status != "completed";
  if (!root) return interrupted ? kInterrupted : kOk;
  s.read_seconds = read_seconds;
  s.wall_seconds += read_seconds + model.renumbering.seconds;
  s.deck_bytes = static_cast<double>(model.source_bytes);
  s.model_bytes_per_element =
      static_cast<double>(model_host_bytes(model)) / std::max(1, model.elements.size());
  s.renumbered = model.renumbering.applied;
  s.renumber_seconds = model.renumbering.seconds;
  s.renumber_span_before = s.renumbered ? model.renumbering.span_before : node_index_span(model);
  s.renumber_span_after = s.renumbered ? model.renumbering.span_after : s.renumber_span_before;
  s.output_seconds = *output_seconds;
  s.warnings = model.warnings;
  s.energy_tolerance = a.run.energy_tolerance;
  s.job = job;
  s.heading = model.heading;
  for (int e = 0; e < model.elements.size(); ++e) ++s.element_types[model.elements.abaqus_type[static_cast<std::size_t>(e)]];
  s.materials = static_cast<int>(model.materials.size());
  s.files = run_files(a, ctx);
  write_summary_json(a.output_dir + "/summary.json", a.deck, s);
  // After the summary: a script that sees the outcome here finds the summary in place.
  ctx.status->finish(s.status);
  if (interrupted) {
    std::fprintf(stderr, "halfstep: %s; the results up to there and summary.json are written\n", s.status.c_str());
    return kInterrupted;
  }
  if (!a.quiet && s.statics.steps) {
    const StaticSummary& t = s.statics;
    std::fprintf(stderr,
                 "halfstep: %d static step(s): %lld increments, %lld Newton iterations, %lld cut-backs, %.2f s; "
                 "%s (--linear-solver %s): set-up %.3f s, internal forces %.3f s, element matrices %.3f s, "
                 "assembly %.3f s, analysis %.3f s, factorization %.3f s, solves %.3f s, output %.3f s\n",
                 t.steps, static_cast<long long>(t.increments), static_cast<long long>(t.iterations),
                 static_cast<long long>(t.cutbacks), t.seconds, t.engine.c_str(), t.linear_solver.c_str(),
                 t.setup_seconds, t.internal_force_seconds, t.element_seconds, t.assembly_seconds, t.analyze_seconds,
                 t.factor_seconds, t.solve_seconds, t.output_seconds);
  }
  if (!a.quiet && s.steps > 0) {
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

/// summary.json and the status file's last line of a run that stopped, on rank 0, where the
/// folder still takes them (it may be what failed: the message on stderr stands either way).
/// Nothing is written before the output folder was checked (it may hold another job's results).
void write_failure_summary(const Args& args, bool root, const std::string& reason, const RunContext& ctx) {
  if (!root || args.command != "run" || ctx.job.empty()) return;
  try {
    write_failure_summary_json(args.output_dir + "/summary.json", args.deck, reason, ctx.warnings, ctx.job,
                               run_files(args, ctx));
  } catch (const std::exception&) {
  }
  if (ctx.status) ctx.status->finish("failed: " + reason);
}

/// Runs the command; errors every rank meets alike (bad input, a failure all ranks detected)
/// are printed once, by rank 0.
int guarded_main(const Args& args, const Communicator& comm) {
  RunContext ctx;
  const bool root = comm.rank() == 0;
  try {
    return run_command(args, comm, ctx);
  } catch (const CollectiveSetupError& e) {
    return e.code();  // rank 0's set-up failed: it prints the message
  } catch (const OutputFolderError& e) {
    std::fprintf(stderr, "halfstep: %s\n", e.what());  // rank 0's: the others stop with its set-up
    return kUsage;
  } catch (const InputErrorAfterOutput& e) {
    // Found after the output began (a mechanism the factorization finds): the folder says
    // why beside what was written, as for a failed run; the input is still what failed.
    if (root) std::fprintf(stderr, "%s\n", e.what());
    write_failure_summary(args, root, e.what(), ctx);
    return kBadInput;
  } catch (const InputError& e) {
    if (root) std::fprintf(stderr, "%s\n", e.what());
    if (ctx.status) ctx.status->finish(std::string("failed: ") + e.what(), true);  // a status file begun says so
    return kBadInput;
  } catch (const RunError& e) {
    if (root || !dynamic_cast<const CollectiveRunError*>(&e)) std::fprintf(stderr, "halfstep: run failed: %s\n", e.what());
    // A failed run still says so in its folder (what a script or a report reads first).
    write_failure_summary(args, root, e.what(), ctx);
    return kRunFailed;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "halfstep: out of memory\n");
    write_failure_summary(args, root, "out of memory", ctx);
    return kRunFailed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halfstep: error: %s\n", e.what());
    // An output that could not be written (disk full, a folder gone): the summary is small
    // and says why, where the disk still takes it.
    write_failure_summary(args, root, e.what(), ctx);
    return kIoFailed;
  }
}

/// run --report: the report of whatever the run left (rank 0; not after bad input, which
/// leaves no results); a failed report fails a run that had succeeded. Called after MPI is
/// finalized: an MPI library may not survive its process forking.
int with_report(const Args& args, int rank, int code) {
  if (!args.report || rank != 0 || code == kBadInput || code == kUsage) return code;
  const int report = run_report(args.output_dir, args.units);
  return code == kOk && report != 0 ? kIoFailed : code;
}

}  // namespace

int main(int argc, char** argv) {
  install_crash_handler();
  const Args args = parse(argc, argv);
  if (args.command == "report") return run_report(args.output_dir, args.units);
  if (launched_by_mpi_launcher() && !mpi_available()) {
    std::fprintf(stderr, "halfstep: started by an MPI launcher, but this build has no MPI "
                         "(install an MPI library, e.g. libopenmpi-dev, and rebuild)\n");
    return kUsage;
  }
  int code = kOk, rank = 0;
  try {
    MpiSession mpi(&argc, &argv);
    rank = mpi.communicator().rank();
    code = guarded_main(args, mpi.communicator());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halfstep: error: %s\n", e.what());
    code = kIoFailed;
  }
  return with_report(args, rank, code);
}
