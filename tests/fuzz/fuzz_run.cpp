// libFuzzer harness for whole runs: a deck (the input's bytes) is read and, when it is valid and
// small, run in-process on the CPU backend into a sandboxed output folder; then the results are
// judged (run_harness.hpp).
//
// Why: fuzz_deck_reader stops at the model. Bugs past it (the solver's set-up, the time loops,
// the writers) show as crashes only sometimes; more often as a "completed" run that wrote NaN,
// an id written as 1e+16, a file outside the output folder, or an exception main() reports as
// an I/O failure. The oracles catch those:
//  (a) a non-finite number in a written result means the run must not say "completed";
//  (b) nothing is written outside the output folder (a write guard on the library's calls
//      and a listing of the sandbox after the run);
//  (c) every error message is at most 4 KiB and names the deck and line (input errors);
//      an input error leaves no output folder behind;
//  (d) every node and element id written (histories, .dat, frames) is an id of the deck,
//      written exactly as an integer;
//  (e) every write error surfaces: in one run of four the harness makes one of the first 48
//      writes (write, fsync, fwrite, fflush, fclose on a result file) fail as a full disk
//      would; the run must then fail, not end "completed";
//  (f) an exception other than InputError or RunError (or, after an injected write error, a
//      plain std::runtime_error), a crash, a sanitizer report, a timeout or an out-of-memory
//      is a finding as in fuzz_deck_reader.
// Runs stay well under a second: at most RunLimits' nodes, elements and predicted increments
// (larger decks are only read), static steps cut to 20 increments, and a run still going
// after 3 s is stopped as SIGINT would stop it.
//
// The deck's '/' become '_' as in fuzz_deck_reader: includes cannot reach the host's files.
// Build and run: scripts/fuzz.sh run (docs/fuzzing.md).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "core/error.hpp"
#include "core/restart_blob.hpp"
#include "io/inp_reader.hpp"
#include "model/renumber.hpp"
#include "run_harness.hpp"
#include "virtual_deck.hpp"

namespace {

using namespace halfstep;
using namespace halfstep_fuzz;

/// What became of the inputs (printed at exit: how much of the fuzzing reached the solver).
struct Counts {
  long long read_errors = 0, too_large = 0, setup_errors = 0, input_errors = 0, late_input_errors = 0, completed = 0,
            stopped = 0, run_errors = 0, io_errors = 0;
  ~Counts() {
    std::fprintf(stderr,
                 "fuzz_run: %lld refused by the reader, %lld too large to run, %lld refused at set-up, %lld "
                 "refused by the run (%lld after its output began), %lld completed, %lld stopped (3 s), %lld failed "
                 "runs, %lld failed on an injected write error\n",
                 read_errors, too_large, setup_errors, input_errors, late_input_errors, completed, stopped, run_errors,
                 io_errors);
  }
};
Counts counts;

void check_input_error(const InputError& e, const std::string& deck) {
  check_message(e.what(), e.where().file, e.where().line, true, deck);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  absolute_fuzzer_artifacts(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string deck = virtual_deck_path([](const std::string& why) { finding(why); });
  static const Sandbox box("fuzz-run");
  const RunLimits limits;
  std::string text(reinterpret_cast<const char*>(data), size);
  for (char& c : text)
    if (c == '/') c = '_';
  box.clear();
  Model model;
  try {
    // A refined NURBS patch past RunLimits' nodes would only be read to be set aside.
    model = read_inp_string(text, deck, Dialect::Abaqus, halfstep_fuzz::read_limits());
  } catch (const InputError& e) {
    check_input_error(e, deck);
    ++counts.read_errors;
    return 0;
  }
  try {
    if (!fits(model, limits)) {
      ++counts.too_large;
      return 0;
    }
  } catch (const InputError& e) {
    check_input_error(e, deck);
    ++counts.setup_errors;
    return 0;
  }
  // Chosen by the input: both orders the run may use (--renumber on is the default), and in
  // one run of four a full disk at one of the first 48 writes.
  const std::uint64_t h = hash64(data, size);
  if (h & 1) renumber_for_locality(model);
  inject_write_failure((h >> 1) % 4 == 0 ? static_cast<long>((h >> 8) % 48) : -1);
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = run_in_process(model, deck, box.out(), "fuzz", nullptr, limits.wall_seconds, true);
  const bool injected = write_failure_injected();
  inject_write_failure(-1);
  // Every write error surfaces: the run fails (main exits 4), it never ends as if all was written.
  if (injected && (r.kind == RunResult::kCompleted || r.kind == RunResult::kStopped))
    finding("write-error-surfaces", "a write failed (injected: no space left on device) and the run ended '" +
                                        r.status + "'");
  if (r.kind == RunResult::kIoError && !injected)
    finding("the run failed on an I/O error nothing injected: " + r.message.substr(0, 300));
  static const bool trace = std::getenv("HALFSTEP_FUZZ_TRACE") != nullptr;  // tuning RunLimits
  if (trace)
    std::fprintf(stderr, "fuzz_run: %.3f s, %d elements, %s: %s\n",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), model.elements.size(), model.heading.substr(0, 60).c_str(),
                 r.status.substr(0, 100).c_str());
  box.check_only_out();
  switch (r.kind) {
    case RunResult::kInputError: {
      ++counts.input_errors;
      std::error_code ec;
      check_message(r.message, r.file, r.line, true, deck);
      // Every check that can refuse the input before the output begins does (the implicit
      // steps' pre-flight included); one only a step's factorization makes (a mechanism's zero
      // pivot) leaves the folder with a failure summary where the folder takes it (an injected
      // write failure may refuse it), and the folder may stay.
      if (!r.after_output) {
        if (std::filesystem::exists(box.out(), ec))
          finding("input-error-output-folder", "an input error left an output folder: " + r.message);
        return 0;
      }
      ++counts.late_input_errors;
      break;
    }
    case RunResult::kRunError:
      ++counts.run_errors;
      if (r.message.size() > 4096) finding("a run error of " + std::to_string(r.message.size()) + " bytes");
      break;
    case RunResult::kStopped:
      ++counts.stopped;
      break;
    case RunResult::kCompleted:
      ++counts.completed;
      break;
    case RunResult::kIoError:
      ++counts.io_errors;
      break;
  }
  check_outputs(model, box.out(), r);
  return 0;
}
