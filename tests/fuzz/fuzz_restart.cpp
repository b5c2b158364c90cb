// libFuzzer harness for resuming from restart files (`halfstep run DECK -o OUT --restart FILE`).
//
// Why: a restart file is input too (copied between machines, cut by a full disk, edited), and
// its loader trusts lengths, indices, paths and state arrays that arrive in it. A resume must
// either refuse the file with a clear error naming it, leaving the results as they were, or
// continue; never crash, write outside the output folder or allocate without bound.
//
// At start-up each base deck (kBases) is run once to its end with restarts every `every`
// increments; its output folder (results and restart file) is kept in memory, and a resume
// from the unchanged restart must reproduce the results byte for byte (else the harness aborts:
// the restart itself is broken). An input is one byte choosing the base, then the restart
// file's bytes. The harness repairs the checksums (the file's and its output section's) so that
// mutations reach the loader instead of all ending at the checksum; then the base's folder is
// restored, the file written to OUT/<job>.restart, parsed and resumed. Oracles:
//  - RestartError (and any InputError) names the file, is at most 4 KiB, and leaves every
//    result file as it was (refused before anything is cut back or written);
//  - nothing written outside the output folder, no exception but InputError and RunError
//    (plain std::runtime_error from the writers is counted: main reports it as an I/O failure);
//  - the run_harness.hpp output oracles (non-finite results never "completed", ids of the deck);
//  - libFuzzer's -rss_limit_mb / -malloc_limit_mb bound the memory.
// scripts/fuzz.sh restart seeds the corpus with the bases' restart files
// (HALFSTEP_FUZZ_RESTART_SEEDS names the folder the harness writes them to).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/restart_blob.hpp"
#include "io/inp_reader.hpp"
#include "model/renumber.hpp"
#include "run_harness.hpp"

namespace {

namespace fs = std::filesystem;
using namespace halfstep;
using namespace halfstep_fuzz;

/// A deck whose restart is fuzzed, and how often it writes restarts (the last one written
/// before the end is the file; what the resume then runs stays short).
struct BaseDeck {
  const char* path;  ///< relative to the source tree
  std::int64_t every;
};
constexpr BaseDeck kBases[] = {
    {"tests/fuzz/decks/restart_prints.inp", 60},      // two steps, J2, histories with totals, .dat tables
    {"tests/gpu/decks/rigid_end.inp", 30},            // rigid body
    {"tests/gpu/decks/variable_mass_scaling.inp", 150},  // masses change in the run
    {"tests/gpu/decks/contact_slide.inp", 480},       // contact with friction history
    {"tests/gpu/decks/beam_plastic.inp", 3100},       // FPM beams, plastic
};

using Files = std::map<std::string, std::string>;  ///< path under OUT -> bytes

Files snapshot(const std::string& dir) {
  Files f;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) f[fs::relative(e.path(), dir).string()] = slurp(e.path().string());
  return f;
}

void restore(const Files& files, const std::string& dir) {
  for (const auto& [rel, bytes] : files) {
    const fs::path p = fs::path(dir) / rel;
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    std::ofstream(p, std::ios::binary) << bytes;
  }
}

/// Runs in the sandbox's root as the current folder, with "out" as the output folder: a
/// restart names the history files by the output folder's path as given (-o), so a relative
/// one lets every libFuzzer process (each with its own sandbox) resume every corpus entry.
class InSandbox {
 public:
  explicit InSandbox(const Sandbox& box) : back_(fs::current_path()) { fs::current_path(box.root()); }
  ~InSandbox() {
    std::error_code ec;
    fs::current_path(back_, ec);
  }
  InSandbox(const InSandbox&) = delete;
  InSandbox& operator=(const InSandbox&) = delete;

 private:
  fs::path back_;
};

struct Base {
  Model model;
  std::string deck, job;
  Files results;        ///< the whole run's folder, restart file included
  std::string restart;  ///< the restart file's bytes
};

std::string job_of(const std::string& deck) { return fs::path(deck).stem().string(); }

std::uint64_t get_u64(const std::string& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}
void put_u64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

/// Rewrites the trailing checksum of bytes[first, first + n) (a restart blob's layout:
/// magic, version, count, sections, checksum), after repairing its "output" section's own.
void repair(std::string& b, std::size_t first, std::size_t n) {
  if (n < 32 || std::memcmp(b.data() + first, "HSRESTRT", 8) != 0) return;
  const std::size_t end = first + n - 8;
  std::size_t at = first + 16;
  const std::uint64_t count = get_u64(b, at);
  at += 8;
  for (std::uint64_t k = 0; k < count && end - at >= 8; ++k) {
    const std::uint64_t name_size = get_u64(b, at);
    at += 8;
    if (name_size > end - at) break;
    const std::string name = b.substr(at, name_size);
    at += name_size;
    if (end - at < 8) break;
    const std::uint64_t size = get_u64(b, at);
    at += 8;
    if (size > end - at) break;
    if (name == "output") repair(b, at, size);
    at += size;
  }
  put_u64(b, end, hash64(b.data() + first, end - first));
}

/// The source tree the base decks are read from: the build's, or HALFSTEP_FUZZ_SOURCE_DIR
/// (a harness carried to another machine).
std::string source_dir() {
  const char* dir = std::getenv("HALFSTEP_FUZZ_SOURCE_DIR");
  return dir && *dir ? dir : HALFSTEP_SOURCE_DIR;
}

const std::vector<Base>& bases(const Sandbox& box) {
  static std::vector<Base> all = [&box] {
    std::vector<Base> v;
    for (const BaseDeck& d : kBases) {
      Base b;
      b.deck = source_dir() + "/" + d.path;
      b.job = job_of(b.deck);
      b.model = read_inp(b.deck);
      renumber_for_locality(b.model);  // as `halfstep run` does by default
      box.clear();
      RunResult r;
      {
        InSandbox here(box);
        r = run_in_process(b.model, b.deck, "out", b.job, nullptr, 600, false, d.every);
      }
      if (r.kind != RunResult::kCompleted) finding(b.deck + ": the base run ended with " + r.status);
      b.results = snapshot(box.out());
      const auto it = b.results.find(b.job + ".restart");
      if (it == b.results.end()) finding(b.deck + ": the base run wrote no restart");
      b.restart = it->second;
      // The unchanged restart must continue to the same results (the summary aside).
      box.clear();
      restore(b.results, box.out());
      const RestartBlob blob = RestartBlob::parse(b.restart, box.out() + "/" + b.job + ".restart");
      {
        InSandbox here(box);
        r = run_in_process(b.model, b.deck, "out", b.job, &blob, 600);
      }
      if (r.kind != RunResult::kCompleted) finding(b.deck + ": resuming the base run ended with " + r.status);
      Files again = snapshot(box.out());
      for (const auto& [rel, bytes] : b.results)
        if (rel != "summary.json" && rel != b.job + ".restart" && again[rel] != bytes)
          finding(b.deck + ": the resumed run's " + rel + " differs from the whole run's");
      v.push_back(std::move(b));
    }
    // Seeds for the corpus: each base's restart behind its selector byte.
    if (const char* dir = std::getenv("HALFSTEP_FUZZ_RESTART_SEEDS")) {
      std::error_code ec;
      fs::create_directories(dir, ec);
      for (std::size_t i = 0; i < v.size(); ++i)
        std::ofstream(fs::path(dir) / ("seed-restart-" + v[i].job), std::ios::binary)
            << static_cast<char>(i) << v[i].restart;
    }
    return v;
  }();
  return all;
}

struct Counts {
  long long short_inputs = 0, refused = 0, io_errors = 0, completed = 0, stopped = 0, run_errors = 0;
  ~Counts() {
    std::fprintf(stderr,
                 "fuzz_restart: %lld refused, %lld I/O errors (exit 4 in main), %lld completed, %lld stopped, "
                 "%lld failed runs, %lld inputs too short\n",
                 refused, io_errors, completed, stopped, run_errors, short_inputs);
  }
};
Counts counts;

}  // namespace

/// The folder the bases run in at start-up and every input resumes in. One folder for both:
/// a restart names the history files with the path they were written under.
static const Sandbox& sandbox() {
  static const Sandbox box("fuzz-restart");
  return box;
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  absolute_fuzzer_artifacts(argc, argv);
  (void)bases(sandbox());
  sandbox().clear();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Sandbox& box = sandbox();
  const std::vector<Base>& all = bases(box);
  if (size < 1) {
    ++counts.short_inputs;
    return 0;
  }
  const Base& base = all[data[0] % all.size()];
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  repair(bytes, 0, bytes.size());
  box.clear();
  restore(base.results, box.out());
  const std::string file = box.out() + "/" + base.job + ".restart";
  std::ofstream(file, std::ios::binary) << bytes;
  Files before = base.results;
  before[base.job + ".restart"] = bytes;

  RunResult r;
  std::unique_ptr<RestartBlob> blob;
  try {
    blob = std::make_unique<RestartBlob>(RestartBlob::parse(bytes, file));
  } catch (const InputError& e) {
    r.kind = RunResult::kInputError;
    r.message = e.what();
    r.file = e.where().file;
  }
  if (blob) {
    InSandbox here(box);
    r = run_in_process(base.model, base.deck, "out", base.job, blob.get(), 3, true);
  }
  box.check_only_out();
  if (r.kind == RunResult::kInputError) {
    ++counts.refused;
    // The restart's own errors name it; the deck's (a restart can ask for nothing the deck lacks) the deck;
    // a results file the restart continues (missing, or not beginning with the bytes it recorded), that
    // file, in the output folder.
    check_message(r.message, r.file, 0, false, "");
    const bool names_results = r.file.rfind("out/", 0) == 0 && r.file.find("..") == std::string::npos;
    if (r.file != file && r.file != base.deck && !names_results)
      finding("message-names-file", "a refused restart's message names '" + r.file + "', not the file: " +
                                        r.message.substr(0, 300));
  }
  // A refused restart, or one whose recorded file sizes the writers refuse, leaves the results
  // as they were: the resume checks everything before it cuts a file back.
  if (r.kind == RunResult::kInputError || r.kind == RunResult::kIoError) {
    const Files after = snapshot(box.out());
    const std::string why = "a refused restart (" + r.message.substr(0, 300) + ") ";
    for (const auto& [rel, content] : before) {
      const auto it = after.find(rel);
      if (it == after.end()) finding("refused-restart-touches-results", why + "removed " + rel);
      else if (it->second != content) finding("refused-restart-touches-results", why + "changed " + rel);
    }
    for (const auto& [rel, content] : after)
      if (!before.count(rel)) finding("refused-restart-touches-results", why + "wrote " + rel);
    if (r.kind == RunResult::kInputError) return 0;
  }
  if (r.kind == RunResult::kIoError)
    ++counts.io_errors;
  else if (r.kind == RunResult::kRunError)
    ++counts.run_errors;
  else if (r.kind == RunResult::kStopped)
    ++counts.stopped;
  else
    ++counts.completed;
  check_outputs(base.model, box.out(), r);
  return 0;
}
