// Shared machinery of fuzz_run and fuzz_restart (run_harness.hpp).
#include "run_harness.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <sstream>
#include <thread>
#include <typeinfo>

#include <nlohmann/json.hpp>

#include "backends/backend.hpp"
#include "core/error.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_system.hpp"
#include "io/atomic_file.hpp"
#include "io/result_writer.hpp"
#include "io/summary_json.hpp"
#include "solver/explicit_solver.hpp"
#include "solver/interrupt.hpp"

namespace fs = std::filesystem;
using namespace halfstep;

namespace halfstep_fuzz {

void finding(const std::string& what) {
  disarm_write_guard();  // libFuzzer writes the input out next
  std::fprintf(stderr, "\n==fuzz finding== %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

namespace {

/// Occurrences of the oracles $HALFSTEP_FUZZ_ALLOW lists.
struct Allowed {
  std::map<std::string, long long> counts;
  Allowed() {
    const char* env = std::getenv("HALFSTEP_FUZZ_ALLOW");
    std::istringstream in(env ? env : "");
    for (std::string name; std::getline(in, name, ',');)
      if (!name.empty()) counts[name] = 0;
  }
  ~Allowed() {
    for (const auto& [name, n] : counts)
      std::fprintf(stderr, "fuzz: allowed finding '%s' seen %lld times\n", name.c_str(), n);
  }
};

Allowed& allowed() {
  static Allowed a;
  return a;
}

}  // namespace

void finding(const char* name, const std::string& what) {
  const auto it = allowed().counts.find(name);
  if (it == allowed().counts.end()) finding(std::string("[") + name + "] " + what);
  if (it->second++ == 0) std::fprintf(stderr, "fuzz: allowed finding [%s] %s\n", name, what.c_str());
}

// ---------------------------------------------------------------------------------------------
// Sandbox

Sandbox::Sandbox(const std::string& harness) {
  std::error_code ec;
  fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  // One folder per process: libFuzzer's -jobs run several side by side.
  root_ = (base / ("halfstep-" + harness + "-" + std::to_string(::getpid()))).string();
  fs::remove_all(root_, ec);
  fs::create_directories(root_, ec);
  if (ec) finding("cannot create the sandbox " + root_ + ": " + ec.message());
}

Sandbox::~Sandbox() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void Sandbox::clear() const {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root_, ec)) fs::remove_all(e.path(), ec);
}

void Sandbox::check_only_out() const {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root_, ec))
    if (e.path().filename() != "out") finding("the run created '" + e.path().string() + "' outside its output folder");
}

// ---------------------------------------------------------------------------------------------
// Write guard (ld --wrap): the library's own calls only; reads are free.

namespace {

std::atomic<bool> g_armed{false};
std::string g_allowed;                 // set while disarmed only
std::vector<std::string> g_artifacts;  // libFuzzer's artifact path prefixes (set at start-up)

std::string absolute_normal(const char* path) {
  std::error_code ec;
  fs::path p(path);
  if (p.is_relative()) p = fs::current_path(ec) / p;
  return p.lexically_normal().string();
}

bool inside_allowed(const char* path) {
  if (!path) return true;  // the call itself fails
  const std::string norm = absolute_normal(path);
  for (const std::string& a : g_artifacts)
    if (norm.compare(0, a.size(), a) == 0) return true;
  return norm == g_allowed || norm.compare(0, g_allowed.size() + 1, g_allowed + "/") == 0;
}

/// False (after a finding that $HALFSTEP_FUZZ_ALLOW lets pass) when the call must fail
/// instead: an allowed escape is denied, never carried out.
bool guard(const char* op, const char* path) {
  if (!g_armed.load(std::memory_order_relaxed) || inside_allowed(path)) return true;
  finding("write-outside", std::string(op) + " of '" + (path ? path : "(null)") + "' outside the output folder " +
                               g_allowed);
  errno = EACCES;
  return false;
}

bool writes(int flags) { return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0; }
bool writes(const char* mode) { return mode && std::strpbrk(mode, "wa+") != nullptr; }

}  // namespace

namespace {

std::atomic<long> g_fail_at{-1}, g_calls{0};
std::atomic<bool> g_injected{false};
std::mutex g_open_mutex;
std::set<int> g_write_fds;              // opened for writing through the guard
std::set<const std::FILE*> g_write_files;

bool tracked(int fd) {
  std::lock_guard<std::mutex> lock(g_open_mutex);
  return g_write_fds.count(fd) != 0;
}
bool tracked(const std::FILE* f) {
  std::lock_guard<std::mutex> lock(g_open_mutex);
  return g_write_files.count(f) != 0;
}

/// Whether this write call is the one to fail.
bool inject_now() {
  if (!g_armed.load(std::memory_order_relaxed) || g_fail_at.load() < 0) return false;
  if (g_calls++ != g_fail_at.load()) return false;
  g_injected = true;
  return true;
}

/// What a failed stdio write leaves: the stream's error indicator (glibc's _IO_ERR_SEEN).
void set_stream_error(std::FILE* f) { f->_flags |= 0x20; }

}  // namespace

void inject_write_failure(long call) {
  g_fail_at = call;
  g_calls = 0;
  g_injected = false;
}

bool write_failure_injected() { return g_injected; }

void arm_write_guard(const std::string& allowed) {
  g_allowed = absolute_normal(allowed.c_str());
  while (g_allowed.size() > 1 && g_allowed.back() == '/') g_allowed.pop_back();
  g_armed = true;
}

void disarm_write_guard() { g_armed = false; }

void absolute_fuzzer_artifacts(int* argc, char*** argv) {
  static std::vector<std::string> args;
  static std::vector<char*> ptrs;
  bool given = false;
  for (int i = 0; i < *argc; ++i) {
    std::string a = (*argv)[i];
    for (const char* flag : {"-artifact_prefix=", "-exact_artifact_path="}) {
      const std::size_t n = std::strlen(flag);
      if (i == 0 || a.compare(0, n, flag) != 0) continue;
      const std::string value = a.substr(n);
      // lexically_normal keeps a prefix's trailing '/' ("findings/") or file-name start ("findings/run-").
      std::string abs = absolute_normal(value.c_str());
      if (!value.empty() && value.back() == '/' && (abs.empty() || abs.back() != '/')) abs += '/';
      a = flag + abs;
      g_artifacts.push_back(abs);
      given = true;
    }
    args.push_back(a);
  }
  if (!given) {
    std::error_code ec;
    const std::string cwd = fs::current_path(ec).string() + "/";
    args.push_back("-artifact_prefix=" + cwd);
    g_artifacts.push_back(cwd);
  }
  for (std::string& a : args) ptrs.push_back(a.data());
  ptrs.push_back(nullptr);
  *argc = static_cast<int>(args.size());
  *argv = ptrs.data();
}

}  // namespace halfstep_fuzz

extern "C" {
int __real_open(const char* path, int flags, ...);
int __real_open64(const char* path, int flags, ...);
std::FILE* __real_fopen(const char* path, const char* mode);
std::FILE* __real_fopen64(const char* path, const char* mode);
int __real_truncate(const char* path, off_t size);
int __real_rename(const char* from, const char* to);
int __real_unlink(const char* path);
int __real_mkdir(const char* path, mode_t mode);

ssize_t __real_write(int fd, const void* data, size_t n);
int __real_fsync(int fd);
int __real_close(int fd);
size_t __real_fwrite(const void* data, size_t size, size_t n, std::FILE* f);
int __real_fflush(std::FILE* f);
int __real_fclose(std::FILE* f);

namespace {

int opened_fd(int fd, int flags) {
  if (fd >= 0 && halfstep_fuzz::writes(flags)) {
    std::lock_guard<std::mutex> lock(halfstep_fuzz::g_open_mutex);
    halfstep_fuzz::g_write_fds.insert(fd);
  }
  return fd;
}

std::FILE* opened_file(std::FILE* f, const char* mode) {
  if (f && halfstep_fuzz::writes(mode)) {
    std::lock_guard<std::mutex> lock(halfstep_fuzz::g_open_mutex);
    halfstep_fuzz::g_write_files.insert(f);
  }
  return f;
}

}  // namespace

/// open's mode argument, which is there only with O_CREAT (read as open itself reads it).
static mode_t open_mode(int flags, va_list ap) { return (flags & O_CREAT) ? static_cast<mode_t>(va_arg(ap, int)) : 0; }
/// open and open64 alike: a write outside the sandbox refused, a written descriptor tracked.
static int guarded_open(int (*real)(const char*, int, ...), const char* path, int flags, mode_t mode) {
  if (halfstep_fuzz::writes(flags) && !halfstep_fuzz::guard("open", path)) return -1;
  return opened_fd(real(path, flags, mode), flags);
}
int __wrap_open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = open_mode(flags, ap);
  va_end(ap);
  return guarded_open(__real_open, path, flags, mode);
}
int __wrap_open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = open_mode(flags, ap);
  va_end(ap);
  return guarded_open(__real_open64, path, flags, mode);
}
std::FILE* __wrap_fopen(const char* path, const char* mode) {
  if (halfstep_fuzz::writes(mode) && !halfstep_fuzz::guard("fopen", path)) return nullptr;
  return opened_file(__real_fopen(path, mode), mode);
}
std::FILE* __wrap_fopen64(const char* path, const char* mode) {
  if (halfstep_fuzz::writes(mode) && !halfstep_fuzz::guard("fopen", path)) return nullptr;
  return opened_file(__real_fopen64(path, mode), mode);
}
ssize_t __wrap_write(int fd, const void* data, size_t n) {
  if (halfstep_fuzz::tracked(fd) && halfstep_fuzz::inject_now()) {
    errno = ENOSPC;
    return -1;
  }
  return __real_write(fd, data, n);
}
int __wrap_fsync(int fd) {
  if (halfstep_fuzz::tracked(fd) && halfstep_fuzz::inject_now()) {
    errno = EIO;
    return -1;
  }
  return __real_fsync(fd);
}
int __wrap_close(int fd) {
  {
    std::lock_guard<std::mutex> lock(halfstep_fuzz::g_open_mutex);
    halfstep_fuzz::g_write_fds.erase(fd);
  }
  return __real_close(fd);
}
size_t __wrap_fwrite(const void* data, size_t size, size_t n, std::FILE* f) {
  if (halfstep_fuzz::tracked(f) && halfstep_fuzz::inject_now()) {
    halfstep_fuzz::set_stream_error(f);
    errno = ENOSPC;
    return 0;
  }
  return __real_fwrite(data, size, n, f);
}
int __wrap_fflush(std::FILE* f) {
  if (f && halfstep_fuzz::tracked(f) && halfstep_fuzz::inject_now()) {
    halfstep_fuzz::set_stream_error(f);
    errno = ENOSPC;
    return EOF;
  }
  return __real_fflush(f);
}
int __wrap_fclose(std::FILE* f) {
  const bool tracked = halfstep_fuzz::tracked(f);
  {
    std::lock_guard<std::mutex> lock(halfstep_fuzz::g_open_mutex);
    halfstep_fuzz::g_write_files.erase(f);
  }
  if (tracked && halfstep_fuzz::inject_now()) {
    __real_fclose(f);
    errno = ENOSPC;
    return EOF;
  }
  return __real_fclose(f);
}
int __wrap_truncate(const char* path, off_t size) {
  if (!halfstep_fuzz::guard("truncate", path)) return -1;
  return __real_truncate(path, size);
}
int __wrap_rename(const char* from, const char* to) {
  if (!halfstep_fuzz::guard("rename", from) || !halfstep_fuzz::guard("rename", to)) return -1;
  return __real_rename(from, to);
}
int __wrap_unlink(const char* path) {
  if (!halfstep_fuzz::guard("unlink", path)) return -1;
  return __real_unlink(path);
}
int __wrap_mkdir(const char* path, mode_t mode) {
  if (!halfstep_fuzz::guard("mkdir", path)) return -1;
  return __real_mkdir(path, mode);
}
}

namespace halfstep_fuzz {

// ---------------------------------------------------------------------------------------------
// Runs

namespace {

/// Asks the time loop to stop (as SIGINT does) once a run passes its wall-time bound: decks
/// whose increments cannot be predicted (variable mass scaling, contact) stay bounded too.
class Watchdog {
 public:
  Watchdog() : thread_([this] { loop(); }) { thread_.detach(); }
  void start(double seconds) {
    interrupt_request().store(0);
    deadline_ns_ = now_ns() + static_cast<std::int64_t>(seconds * 1e9);
  }
  void stop() {
    deadline_ns_ = 0;
    interrupt_request().store(0);
  }

 private:
  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void loop() {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const std::int64_t d = deadline_ns_.load();
      if (d != 0 && now_ns() > d) interrupt_request().store(SIGINT);
    }
  }
  std::atomic<std::int64_t> deadline_ns_{0};
  std::thread thread_;
};

Watchdog& watchdog() {
  static Watchdog* w = new Watchdog();  // never destroyed: its thread outlives main
  return *w;
}

}  // namespace

bool fits(Model& model, const RunLimits& limits) {
  if (model.nodes.size() > limits.max_nodes || model.elements.size() > limits.max_elements) return false;
  double element_cost = 0;
  for (int e = 0; e < model.elements.size(); ++e)
    element_cost += std::pow(model.elements.conn_ptr[e + 1] - model.elements.conn_ptr[e], 3.0);
  double static_cost = 0;
  for (Step& s : model.steps)
    if (s.procedure == Procedure::Static) {
      s.controls.max_increments = std::min(s.controls.max_increments, limits.max_static_increments);
      static_cost += element_cost * s.controls.max_increments;
    }
  if (static_cost > limits.max_static_cost) return false;
  // The increments a run will take, as `halfstep check` predicts them.
  StructureSystem sys = build_structure_system(model);
  apply_deck_mass_scaling(model, sys);
  const std::vector<StepLoads> steps = build_step_loads(model, sys);
  const double dt_scale = RunOptions().dt_scale;
  double total = 0;
  for (std::size_t i = 0; i < steps.size() && i < model.steps.size(); ++i) {
    if (model.steps[i].procedure != Procedure::ExplicitDynamic) continue;
    const double dt = step_increment(sys, steps[i], dt_scale);
    if (!(dt > 0)) return true;  // the run refuses it: worth seeing how
    const double n = std::ceil(steps[i].period / dt);
    if (!(n <= static_cast<double>(limits.max_increments))) return false;
    total += n;
  }
  const long long most = model.contact.empty() ? limits.max_increments : limits.max_contact_increments;
  return total <= static_cast<double>(most) &&
         total * std::max(1, sys.total_elements()) <= limits.max_element_increments;
}

void check_message(const std::string& what, const std::string& file, int line, bool need_line,
                   const std::string& expected_file) {
  if (what.size() > 4096)
    finding("an error message of " + std::to_string(what.size()) + " bytes: " + what.substr(0, 300) + "...");
  if (file.empty()) finding("an input error that names no file: " + what);
  if (!expected_file.empty() && file != expected_file)
    finding("an input error names '" + file + "', not '" + expected_file + "': " + what);
  if (need_line && line <= 0) finding("an input error without a line: " + what);
}

RunResult run_in_process(const Model& model, const std::string& deck_path, const std::string& out,
                         const std::string& job, const RestartBlob* resume, double wall_seconds,
                         bool io_errors_allowed, std::int64_t restart_every) {
  RunOptions run;
  run.backend = BackendKind::Cpu;
  run.threads = 1;
  run.progress = false;
  run.make_sink = [&model, out, job, resuming = resume != nullptr](const ResultMesh& mesh) -> std::unique_ptr<ResultSink> {
    return std::make_unique<ResultWriter>(model, mesh, out, job, resuming);
  };
  run.build_id = [] { return std::string("halfstep fuzz harness"); };
  run.job = job;  // as main.cpp: a restart resumes only the job that wrote it
  const std::string restart_path = out + "/" + job + ".restart";
  run.write_restart = [restart_path](const RestartBlob& blob) {
    AtomicFile file(restart_path);
    blob.write([&file](const void* p, std::size_t n) { file.write(p, n); });
    file.commit();
    return restart_path;
  };
  // As main.cpp: a restart every 30 minutes by default (never reached here), none asked for.
  run.restart_interval = 1800;
  run.restart_interval_default = true;
  run.resume = resume;
  run.restart_every = restart_every;
  RunResult r;
  arm_write_guard(out);
  watchdog().start(wall_seconds);
  try {
    RunSummary s = run_analysis(model, run);
    watchdog().stop();
    r.kind = s.status == "completed" ? RunResult::kCompleted : RunResult::kStopped;
    r.status = s.status;
    write_summary_json(out + "/summary.json", deck_path, s);
  } catch (const InputErrorAfterOutput& e) {
    watchdog().stop();  // as main.cpp: the folder says why beside what was written
    r.kind = RunResult::kInputError;
    r.after_output = true;
    r.message = e.what();
    r.file = e.where().file;
    r.line = e.where().line;
    r.status = std::string("failed: ") + e.what();
    try {  // as main.cpp: where the folder still takes it
      write_failure_summary_json(out + "/summary.json", deck_path, e.what(), model.warnings);
    } catch (const std::exception&) {
      r.summary_refused = true;
    }
  } catch (const InputError& e) {
    watchdog().stop();
    r.kind = RunResult::kInputError;
    r.message = e.what();
    r.file = e.where().file;
    r.line = e.where().line;
    r.status = "input error";
  } catch (const RunError& e) {
    watchdog().stop();
    r.kind = RunResult::kRunError;
    r.message = e.what();
    r.status = std::string("failed: ") + e.what();
    try {  // as main.cpp: where the folder still takes it
      write_failure_summary_json(out + "/summary.json", deck_path, e.what(), model.warnings);
    } catch (const std::exception&) {
      r.summary_refused = true;
    }
  } catch (const std::exception& e) {
    watchdog().stop();
    disarm_write_guard();
    const bool plain_runtime = typeid(e) == typeid(std::runtime_error);
    if (!(io_errors_allowed && plain_runtime))
      finding(std::string("the run threw ") + typeid(e).name() + ": " + e.what());
    r.kind = RunResult::kIoError;
    r.message = e.what();
    r.status = std::string("failed: ") + e.what();
    try {  // as main.cpp: the summary says why, where the folder still takes it
      write_failure_summary_json(out + "/summary.json", deck_path, e.what(), model.warnings);
    } catch (const std::exception&) {
      r.summary_refused = true;
    }
    if (r.message.size() > 4096) finding("an I/O error message of " + std::to_string(r.message.size()) + " bytes");
    return r;
  }
  disarm_write_guard();
  return r;
}

// ---------------------------------------------------------------------------------------------
// Output oracles

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

namespace {

struct Scan {
  const Model& model;
  std::set<std::int64_t> node_ids, element_ids;
  std::vector<std::string> nonfinite;  ///< where non-finite values were found

  explicit Scan(const Model& m) : model(m) {
    node_ids.insert(m.nodes.id.begin(), m.nodes.id.end());
    element_ids.insert(m.elements.id.begin(), m.elements.id.end());
  }

  /// A token that must be an id: digits (with a sign) only, an id of the model.
  void id_token(const std::string& tok, bool node, const std::string& where) {
    std::size_t i = tok[0] == '-' ? 1 : 0;
    if (tok.size() == i || tok.size() > 20 || tok.find_first_not_of("0123456789", i) != std::string::npos)
      finding(where + ": the id '" + tok + "' is not written as an integer");
    errno = 0;
    const long long v = std::strtoll(tok.c_str(), nullptr, 10);
    if (errno == ERANGE) finding(where + ": the id '" + tok + "' is out of range");
    if (!(node ? node_ids : element_ids).count(v))
      finding(where + ": " + (node ? "node" : "element") + " id " + tok + " is not in the deck");
  }

  /// An id carried in a double (frame arrays): an exact id of the model.
  void id_value(double v, bool node, const std::string& where) {
    if (!std::isfinite(v)) return;  // cells and points of other families (checked elsewhere)
    if (v != std::trunc(v) || std::fabs(v) >= 9223372036854775807.0)
      finding(where + ": id " + std::to_string(v) + " is not an integer");
    const auto id = static_cast<std::int64_t>(v);
    if (!(node ? node_ids : element_ids).count(id))
      finding(where + ": " + std::string(node ? "node" : "element") + " id " + std::to_string(id) +
              " is not in the deck");
  }

  /// "nan", "-inf", "NAN", "-nan(0x...)": how to_chars and printf write non-finite numbers.
  static bool nonfinite_token(const std::string& tok) {
    std::string t;
    for (char c : tok) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.erase(0, 1);
    return t.rfind("nan", 0) == 0 || t.rfind("inf", 0) == 0;
  }

  /// A CSV of numbers under a header; the column called id_column (if any) holds node ids.
  void csv(const std::string& path, const std::string& id_column) {
    const std::string text = slurp(path);
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) return;
    int id_col = -1, col = 0;
    {
      std::istringstream h(line);
      std::string name;
      while (std::getline(h, name, ',')) {
        if (name == id_column) id_col = col;
        ++col;
      }
    }
    for (int row = 2; std::getline(in, line); ++row) {
      std::istringstream r(line);
      std::string tok;
      for (int c = 0; std::getline(r, tok, ','); ++c) {
        if (tok.empty()) finding(path + ":" + std::to_string(row) + ": an empty cell");
        if (nonfinite_token(tok)) nonfinite.push_back(path + ":" + std::to_string(row));
        if (c == id_col) id_token(tok, true, path + ":" + std::to_string(row));
      }
    }
  }

  /// <job>.dat: the first number of a table's row is a node or element id.
  void dat(const std::string& path) {
    const std::string text = slurp(path);
    std::istringstream in(text);
    std::string line;
    int table = 0;  // 0 none or energies, 1 nodes, 2 elements
    for (int row = 1; std::getline(in, line); ++row) {
      if (line.find(" for set ") != std::string::npos)
        table = line.find("at the centroid") != std::string::npos || line.find("integ.pnt") != std::string::npos ? 2 : 1;
      else if (line.find("energies") != std::string::npos || line.find("S T E P") != std::string::npos)
        table = 0;
      std::istringstream r(line);
      std::string tok;
      std::vector<std::string> toks;
      while (r >> tok) toks.push_back(tok);
      if (toks.empty()) continue;
      for (const std::string& t : toks)
        if (nonfinite_token(t)) nonfinite.push_back(path + ":" + std::to_string(row));
      const bool numeric_row = toks[0].find_first_not_of("-0123456789") == std::string::npos;
      if (table != 0 && numeric_row) id_token(toks[0], table == 1, path + ":" + std::to_string(row));
    }
  }

  /// A frame: every point array finite (in a completed run), NodeId and ElementId ids of the deck.
  void vtu(const std::string& path) {
    const std::string text = slurp(path);
    const std::size_t app = text.find("<AppendedData encoding=\"raw\">");
    if (app == std::string::npos) finding(path + ": no appended data");
    const std::size_t data = text.find('_', app);
    if (data == std::string::npos) finding(path + ": no appended data marker");
    std::size_t at = 0;
    std::string section;
    while ((at = text.find('<', at)) != std::string::npos && at < app) {
      const std::size_t end = text.find('>', at);
      const std::string tag = text.substr(at, end - at + 1);
      at = end;
      for (const char* s : {"PointData", "CellData", "Points", "FieldData", "Cells"})
        if (tag.rfind(std::string("<") + s, 0) == 0) section = s;
      if (tag.rfind("<DataArray", 0) != 0) continue;
      const auto attr = [&](const char* key) {
        const std::string k = std::string(" ") + key + "=\"";
        const std::size_t p = tag.find(k);
        if (p == std::string::npos) return std::string();
        return tag.substr(p + k.size(), tag.find('"', p + k.size()) - p - k.size());
      };
      if (attr("type") != "Float64") continue;
      const std::string name = attr("Name");
      const std::uint64_t offset = std::strtoull(attr("offset").c_str(), nullptr, 10);
      std::uint64_t bytes = 0;
      if (data + 1 + offset + 8 > text.size()) finding(path + ": array " + name + " beyond the file's end");
      std::memcpy(&bytes, text.data() + data + 1 + offset, 8);
      if (bytes % 8 != 0 || data + 1 + offset + 8 + bytes > text.size())
        finding(path + ": array " + name + " has a bad size");
      const char* p = text.data() + data + 1 + offset + 8;
      const bool check_finite = section == "PointData" || section == "Points" || section == "FieldData";
      for (std::uint64_t k = 0; k < bytes / 8; ++k) {
        double v;
        std::memcpy(&v, p + 8 * k, 8);
        if (check_finite && !std::isfinite(v)) {
          nonfinite.push_back(path + ": " + name);
          break;
        }
        if (name == "NodeId" && section == "PointData" && path.find("_nurbs_") == std::string::npos)
          id_value(v, true, path + ": NodeId");
        if (name == "ElementId" && section == "CellData") id_value(v, false, path + ": ElementId");
      }
    }
  }

  /// summary.json: nlohmann writes a non-finite number as null.
  void json(const nlohmann::json& j, const std::string& where) {
    if (j.is_null()) nonfinite.push_back(where);
    if (j.is_number_float() && !std::isfinite(j.get<double>())) nonfinite.push_back(where);
    if (j.is_object())
      for (auto it = j.begin(); it != j.end(); ++it) json(it.value(), where + "." + it.key());
    if (j.is_array())
      for (std::size_t i = 0; i < j.size(); ++i) json(j[i], where + "[" + std::to_string(i) + "]");
  }
};

}  // namespace

void check_outputs(const Model& model, const std::string& out, const RunResult& r) {
  if (r.kind == RunResult::kInputError) return;  // nothing was run
  Scan scan(model);
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(out, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string p = e.path().string(), name = e.path().filename().string();
    const auto ends = [&](const char* s) {
      const std::size_t n = std::strlen(s);
      return name.size() >= n && name.compare(name.size() - n, n, s) == 0;
    };
    if (ends(".tmp")) finding("a temporary file was left behind: " + p);
    if (name == "energy.csv") scan.csv(p, "");
    else if (e.path().parent_path().filename() == "history" && ends(".csv")) scan.csv(p, name == "contact.csv" ? "" : "node");
    else if (ends(".dat")) scan.dat(p);
    else if (ends(".vtu")) scan.vtu(p);
  }
  const std::string summary = slurp(out + "/summary.json");
  if (summary.empty()) {
    if (!r.summary_refused) finding("no summary.json after a run that ended with: " + r.status);
    return;  // a failure summary the (injected) full disk refused: main.cpp goes on as well
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(summary);
  } catch (const std::exception& e) {
    finding(std::string("summary.json is not JSON: ") + e.what());
  }
  if (!j.contains("status") || !j["status"].is_string()) finding("summary.json has no status");
  const std::string status = j["status"].get<std::string>();
  const bool failed = r.kind == RunResult::kRunError || r.kind == RunResult::kIoError;
  if (status != r.status && !(failed && status.rfind("failed", 0) == 0))
    finding("summary.json says '" + status + "', the run returned '" + r.status + "'");
  if (status == "completed") {
    scan.json(j, "summary.json");
    if (!scan.nonfinite.empty())
      finding("a completed run wrote a non-finite number: " + scan.nonfinite.front() + " (" +
              std::to_string(scan.nonfinite.size()) + " places)");
  }
}

}  // namespace halfstep_fuzz
