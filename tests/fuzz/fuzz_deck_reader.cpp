// libFuzzer harness for the deck reader and the model validation behind it.
//
// Why: decks come from users, meshers and other codes, and the reader promises that any bad
// deck ends in an InputError naming the file and line (exit code 2), never a crash, a hang,
// undefined behaviour or some other exception escaping to main(). The hand-written bad-input
// tests (tests/bad_input) only cover the mistakes someone thought of; this lets ASan, UBSan
// and libFuzzer look for the rest. Anything other than an InputError is a finding.
//
// Why the path games: read_inp_string resolves *INCLUDE and INPUT= relative to the virtual
// deck's folder. A fuzzer that can name real files would read whatever the host happens to
// hold (/proc, multi-GB files, the corpus itself), so findings would not reproduce elsewhere.
// The virtual folder therefore does not exist, and '/' is turned into '_' so that neither an
// absolute path nor "../" can climb out of it: every include then fails with an InputError.
//
// Build and run: scripts/fuzz.sh (docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "virtual_deck.hpp"

namespace {

/// The deck path (virtual_deck.hpp); aborts when its folder exists.
std::string deck_path() {
  return halfstep_fuzz::virtual_deck_path([](const std::string& why) {
    std::fprintf(stderr, "fuzz_deck_reader: %s\n", why.c_str());
    std::abort();
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = deck_path();
  std::string text(reinterpret_cast<const char*>(data), size);
  for (char& c : text)
    if (c == '/') c = '_';
  try {
    (void)halfstep::read_inp_string(text, path, halfstep::Dialect::Abaqus, halfstep_fuzz::read_limits());
  } catch (const halfstep::InputError&) {
    // The expected outcome for a bad deck.
  }
  return 0;
}
