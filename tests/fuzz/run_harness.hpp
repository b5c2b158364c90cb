// Shared machinery of the libFuzzer harnesses that run whole analyses (fuzz_run, fuzz_restart):
// an in-process `halfstep run` on the CPU backend into a sandboxed output folder, a guard on
// every file the library writes, and the oracles that judge what the run left behind.
//
// Why in-process and not the executable: a fork per input would cost more than the run of a
// tiny deck, and ASan/UBSan must see the library's own code. The run mirrors
// apps/halfstep/main.cpp's run_command (the CLI's -o/status handling is not part of the library,
// so it cannot be called from here); what it adds is the judging.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/restart_blob.hpp"
#include "model/model.hpp"

namespace halfstep_fuzz {

/// Prints "==fuzz finding== <what>" and aborts, so that libFuzzer keeps the input as a crash.
[[noreturn]] void finding(const std::string& what);
/// finding(), unless the oracle `name` is listed in $HALFSTEP_FUZZ_ALLOW (comma-separated):
/// then the first occurrence is printed and all are counted (printed at exit), so that a
/// campaign can look past a reported bug that is being fixed elsewhere.
void finding(const char* name, const std::string& what);

/// A private folder for one harness (under /dev/shm when present: AtomicFile's fsyncs cost
/// nothing there), emptied before each input. Output goes to root()/out.
class Sandbox {
 public:
  explicit Sandbox(const std::string& harness);
  ~Sandbox();  ///< removes root() (a crash leaves it for the finding's inspection)
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;
  const std::string& root() const { return root_; }
  std::string out() const { return root_ + "/out"; }
  /// Removes everything under root() (root stays).
  void clear() const;
  /// Oracle: after a run, root() holds nothing but out/ (the write guard catches paths
  /// elsewhere; this catches directories, which std::filesystem creates out of its sight).
  void check_only_out() const;

 private:
  std::string root_;
};

/// Write guard: while armed, every open-for-writing, fopen for writing, truncate, rename,
/// unlink and mkdir that the library makes must name a path under `allowed`, else finding().
/// The calls are redirected with the linker's --wrap (CMakeLists.txt's HALFSTEP_FUZZ block).
void arm_write_guard(const std::string& allowed);
void disarm_write_guard();
/// Makes libFuzzer's -artifact_prefix= and -exact_artifact_path= absolute (adding
/// -artifact_prefix=<current folder>/ when neither is given), so that a crash while a run has
/// changed the current folder still saves the input, and lets the write guard pass those
/// writes (they happen inside the armed run). Call from LLVMFuzzerInitialize, which runs before
/// libFuzzer parses its flags.
void absolute_fuzzer_artifacts(int* argc, char*** argv);

/// Write-error injection: while the guard is armed, the call-th (0-based) write, fsync,
/// fwrite, fflush or fclose on a file the library opened for writing fails with ENOSPC (EIO
/// for fsync), as a full disk would make it (-1: none). write_failure_injected() says whether
/// that call came; then the run must not end "completed".
void inject_write_failure(long call);
bool write_failure_injected();

/// What an in-process run ended with.
struct RunResult {
  /// kIoError: a plain std::runtime_error (the writers' failures; main exits 4 on them).
  enum Kind { kCompleted, kStopped, kInputError, kRunError, kIoError } kind = kCompleted;
  std::string status;   ///< RunSummary::status, or "failed: <message>"
  std::string message;  ///< the error's what() for kInputError / kRunError
  std::string file;     ///< kInputError: the file and line it names
  int line = 0;
  /// kInputError found after the output began (InputErrorAfterOutput): the folder holds what
  /// was written and a failure summary.
  bool after_output = false;
  /// The failure summary could not be written (an injected full disk): none is expected.
  bool summary_refused = false;
};

/// Bounds of the runs fuzz_run attempts (a run must stay far below a second under ASan).
struct RunLimits {
  int max_nodes = 400, max_elements = 200;
  long long max_increments = 1000;          ///< explicit increments, all steps
  long long max_contact_increments = 100;   ///< the same with contact (its search costs more)
  double max_element_increments = 20000;    ///< explicit increments x elements
  int max_static_increments = 10;           ///< each static step's INC= is cut to this
  /// Static steps: the sum over elements of (nodes per element)^3 (matrix entries times
  /// integration points: NURBS solids of 27 nodes cost ~0.1 s an element an iteration under
  /// ASan) times the increments (cut INC=), at most this.
  double max_static_cost = 300000;
  double wall_seconds = 3;                  ///< then the run is asked to stop (as SIGINT does)
};

/// Whether model is small enough under limits to be run (and cuts static steps' INC= to the
/// limit). Throws InputError as a run would when the model's set-up fails.
bool fits(halfstep::Model& model, const RunLimits& limits);

/// Runs model (already read, renumbered when wanted) as `halfstep run deck -o out` does, on the
/// CPU backend with one thread: results, restarts (out/<job>.restart) and summary.json in out.
/// resume: continue from this restart; restart_every: --restart-every. Exceptions other than
/// InputError and RunError are findings, except plain std::runtime_error when io_errors_allowed
/// (a restart that names files the run cannot reopen: the writers report those as I/O failures).
RunResult run_in_process(const halfstep::Model& model, const std::string& deck_path, const std::string& out,
                         const std::string& job, const halfstep::RestartBlob* resume, double wall_seconds,
                         bool io_errors_allowed = false, std::int64_t restart_every = 0);

/// Oracle on an error message: at most 4 KiB, and it names a file (with a line when
/// need_line; the file must be expected_file when that is not empty).
void check_message(const std::string& what, const std::string& file, int line, bool need_line,
                   const std::string& expected_file);

/// Oracles on the files in out after a run of model that ended with r:
///  - a non-finite number in energy.csv, history/*.csv, <job>.dat, summary.json or a frame's
///    point arrays (every point array; cell arrays carry NaN by design on cells a field does
///    not apply to) means the run must not be "completed";
///  - summary.json's status is r.status;
///  - every node id in the histories, the .dat tables and the frames' NodeId, and every element
///    id in the .dat tables and ElementId, is an integer written exactly and an id of the model.
void check_outputs(const halfstep::Model& model, const std::string& out, const RunResult& r);

/// Reads a whole file (empty when it cannot be read).
std::string slurp(const std::string& path);

}  // namespace halfstep_fuzz
