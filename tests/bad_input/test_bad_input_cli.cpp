// Every malformed deck of tests/bad_input/cases.txt, run through the halfstep binary: a
// message naming the file and line, exit code 2, and no result frames written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../integration/run_util.hpp"

namespace halfstep::test {
namespace {

struct Case {
  std::string deck, where, message;
};

std::vector<Case> load_cases() {
  std::vector<Case> cases;
  std::ifstream in(HALFSTEP_SOURCE_DIR "/tests/bad_input/cases.txt");
  EXPECT_TRUE(in.good()) << "tests/bad_input/cases.txt is missing";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('|'), b = line.find('|', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    cases.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return cases;
}

TEST(BadInputCli, EveryMalformedDeckIsRefusedWithFileAndLine) {
  const std::vector<Case> cases = load_cases();
  ASSERT_GE(cases.size(), 15u);
  const std::string dir = scratch_dir("bad_input_cli");
  for (const Case& c : cases) {
    const std::string deck = HALFSTEP_SOURCE_DIR "/tests/bad_input/decks/" + c.deck;
    const std::string outdir = dir + "/" + c.deck;
    std::string out;
    const int rc = run_halfstep(deck, outdir, "", &out);
    EXPECT_EQ(rc, 2) << c.deck << ": " << out;
    // "where" is a line number in the deck itself, or file:line inside an included file.
    const std::string where =
        c.where.find(':') == std::string::npos ? c.deck + ":" + c.where : c.where;
    EXPECT_NE(out.find(where), std::string::npos) << c.deck << " should name " << where << ", got: " << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.deck << " should say '" << c.message << "', got: " << out;
    bool frames = false;
    if (std::filesystem::exists(outdir))
      for (const auto& f : std::filesystem::recursive_directory_iterator(outdir))
        frames |= f.path().extension() == ".vtu" || f.path().extension() == ".pvd";
    EXPECT_FALSE(frames) << c.deck << " wrote result frames";
  }
}

// `check` reads on after a problem to report several; its recovery paths are not run's, so
// every deck also goes through check (equation_zero_first.inp crashed it with SIGSEGV and no
// message while run refused it). run_command reports a signal as -1, never 2.
TEST(BadInputCli, CheckRefusesEveryMalformedDeckWithFileAndLine) {
  const std::vector<Case> cases = load_cases();
  ASSERT_GE(cases.size(), 15u);
  for (const Case& c : cases) {
    const std::string deck = HALFSTEP_SOURCE_DIR "/tests/bad_input/decks/" + c.deck;
    std::string out;
    const int rc = run_command(std::string(HALFSTEP_BINARY) + " check " + deck, &out);
    EXPECT_EQ(rc, 2) << c.deck << ": " << out;
    const std::string where =
        c.where.find(':') == std::string::npos ? c.deck + ":" + c.where : c.where;
    EXPECT_NE(out.find(where), std::string::npos) << c.deck << " should name " << where << ", got: " << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.deck << " should say '" << c.message << "', got: " << out;
  }
}

/// One S4R square, elastic, 0.1 thick: the model lines (the first 14) of the decks below.
constexpr const char* kOneShell =
    "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
    "*ELEMENT, TYPE=S4R, ELSET=E\n1,1,2,3,4\n"
    "*MATERIAL, NAME=M\n*ELASTIC\n1e5,0.3\n*DENSITY\n1e-6\n"
    "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n";

// Errors only the solver can see (after parsing) also point at the deck.
TEST(BadInputCli, NonZeroPrescribedRotationIsRefused) {
  const std::string dir = scratch_dir("bad_rotation");
  const std::string deck = dir + "/rot.inp";
  std::ofstream(deck) << kOneShell <<
                         "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*BOUNDARY\n1, 4, 4, 0.1\n*END STEP\n";
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "", &out), 2) << out;
  EXPECT_NE(out.find("rot.inp:19"), std::string::npos) << out;
  EXPECT_NE(out.find("rotations"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/rot.pvd"));
}

// Two cubes sharing one edge, the lower one held at its base: one part for the pre-flight's
// rigid-motion check, but the upper one hinges about the edge, which only the factorization
// finds. The run is refused with exit 2 after its first frame, and the folder says why
// beside it (summary.json and the status file: "failed: <the message>"), as for a failed run.
TEST(BadInputCli, AMechanismOnlyTheFactorizationFindsLeavesAFailureSummary) {
  const std::string dir = scratch_dir("bad_hinge");
  const std::string deck = dir + "/hinge.inp";
  std::ofstream(deck) << "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n"
                         "8, 0, 1, 1\n11, 2, 0, 1\n12, 2, 1, 1\n17, 2, 0, 2\n18, 2, 1, 2\n19, 1, 0, 2\n20, 1, 1, 2\n"
                         "*ELEMENT, TYPE=C3D8, ELSET=A\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
                         "*ELEMENT, TYPE=C3D8, ELSET=B\n2, 6, 11, 12, 7, 19, 17, 18, 20\n*NSET, NSET=BASE\n1, 2, 3, 4\n"
                         "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
                         "*SOLID SECTION, ELSET=B, MATERIAL=M\n*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n*BOUNDARY\n"
                         "BASE, 1, 3\n*CLOAD\n18, 3, 1.\n*END STEP\n";
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "", &out), 2) << out;
  EXPECT_NE(out.find("hinge.inp:27: error: singular stiffness"), std::string::npos) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("singular stiffness"), std::string::npos) << summary;
  EXPECT_NE(read_file(dir + "/out/hinge.sta").find("failed: "), std::string::npos);
}

// A fixed increment of 1e-300 in a step of 1: 1e300 increments. check printed the count
// through a long long (-9223372036854775808); both commands now refuse the step at its line.
TEST(BadInputCli, IncrementCountBeyondTwoToThe52IsRefused) {
  const std::string dir = scratch_dir("increment_count");
  const std::string deck = dir + "/tiny.inp";
  std::ofstream(deck) << kOneShell <<
                         "*STEP\n*DYNAMIC, EXPLICIT, DIRECT USER CONTROL\n1e-300, 1.\n*END STEP\n";
  const std::string message =
      "tiny.inp:15: error: step 'Step-1' would take 1e+300 increments (period 1 / increment 1e-300): more than 2^52";
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check " + deck, &out), 2) << out;
  EXPECT_NE(out.find(message), std::string::npos) << out;
  EXPECT_EQ(out.find("-9223372036854775808"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "", &out), 2) << out;
  EXPECT_NE(out.find(message), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/tiny.pvd"));
  // A large count that fits is printed whole: 10^12 increments.
  std::string text = read_file(deck);
  text.replace(text.find("1e-300"), 6, "1e-12");
  std::ofstream(deck) << text;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check " + deck, &out), 0) << out;
  EXPECT_NE(out.find("1000000000000 increments"), std::string::npos) << out;
}

// A 1 MiB field, keyword, parameter or name is quoted in the message by its first 64
// characters and its length (fuzzing found the whole field echoed); a name with blanks in it
// by the head and tail of the message line; a step name in a run failure and its summary too.
TEST(BadInputCli, LongTokensAreEchoedBounded) {
  const std::string dir = scratch_dir("long_tokens");
  const std::string mib(1 << 20, 'X');
  const std::string base = "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
                           "*ELEMENT, TYPE=S4R, ELSET=E\n1,1,2,3,4\n"
                           "*MATERIAL, NAME=M\n*ELASTIC\n1e5,0.3\n*DENSITY\n1e-6\n"
                           "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n";
  const struct {
    std::string name, deck, expected;
  } cases[] = {
      {"field", base + "*NSET, NSET=S\n1, " + mib + "\n", "'" + mib.substr(0, 64) + "... (1048576 characters)'"},
      {"keyword", base + "*" + mib + "\n", "keyword *" + mib.substr(0, 63) + "... (1048577 characters) is not"},
      {"parameter", base + "*NSET, NSET=S, " + mib + "=1\n1\n", mib.substr(0, 64) + "... (1048576 characters)"},
      {"blanks", base + "*NSET, NSET=S\n1, Y" + [] { std::string y; for (int i = 0; i < (1 << 19); ++i) y += " Y"; return y; }() + "\n",
       " characters) ...Y Y Y"},
  };
  for (const auto& c : cases) {
    const std::string deck = dir + "/" + c.name + ".inp";
    std::ofstream(deck) << c.deck << "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*END STEP\n";
    for (const std::string command : {"check", "run"}) {
      std::string out;
      const int rc = command == "check" ? run_command(std::string(HALFSTEP_BINARY) + " check " + deck, &out)
                                        : run_halfstep(deck, dir + "/out_" + c.name, "", &out);
      EXPECT_EQ(rc, 2) << c.name << " " << command;
      EXPECT_LT(out.size(), 8192u) << c.name << " " << command << ": " << out.substr(0, 300);
      EXPECT_NE(out.find(c.expected), std::string::npos) << c.name << " " << command << ": " << out.substr(0, 600);
    }
  }
  // A run failure quoting a step name of 1 MiB (two loads of 1e308 on one dof: unstable at once).
  const std::string deck = dir + "/step.inp";
  std::ofstream(deck) << base << "*STEP, NAME=" << mib << "\n*DYNAMIC, EXPLICIT\n, 1e-3\n*CLOAD\n1, 3, 1e308\n1, 3, 1e308\n"
                      << "*END STEP\n";
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out_step", "", &out), 3) << out.substr(0, 300);
  EXPECT_LT(out.size(), 8192u) << out.substr(0, 300);
  EXPECT_NE(out.find("step '" + mib.substr(0, 64) + "... (1048576 characters)'"), std::string::npos) << out.substr(0, 600);
  const std::string summary = read_file(dir + "/out_step/summary.json");
  EXPECT_LT(summary.size(), 8192u);
  EXPECT_NE(summary.find("... (1048576 characters)"), std::string::npos) << summary.substr(0, 600);
}

TEST(BadInputCli, UsageErrorsExitWithOne) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run", &out), 1) << out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " frobnicate x.inp", &out), 1) << out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run x.inp -o /tmp/x --threads abc", &out), 1) << out;
}

// Every usage error names what was wrong, and the help that follows says what is accepted.
TEST(BadInputCli, UsageErrorsNameTheProblem) {
  const std::string exe = HALFSTEP_BINARY;
  const struct {
    std::string args, message;
  } cases[] = {
      {"", "missing command"},
      {"frobnicate x.inp", "unknown command 'frobnicate'"},
      {"--frobnicate", "unknown option --frobnicate"},
      {"run -o out", "DECK is required"},
      {"run x.inp", "--output is required"},
      {"run x.inp -o", "--output"},
      {"run x.inp -o out --frobnicate", "--frobnicate"},
      {"run x.inp y.inp -o out", "y.inp"},
      {"check x.inp --threads 2", "--threads"},  // check takes only --dt-scale and --timings
      {"run x.inp -o out --threads 1.5", "--threads needs a whole number"},
      {"run x.inp -o out --gpu-reference kept", "--gpu-reference must be stored or recompute, got 'kept'"},
      {"run x.inp -o out --shell-kernel fused", "--shell-kernel must be auto, thread or split, got 'fused'"},
      {"run x.inp -o out --node-pass both", "--node-pass must be split or single, got 'both'"},
      {"run x.inp -o out --dt-scale 1.5", "--dt-scale must not exceed 1"},
  };
  for (const auto& c : cases) {
    std::string out;
    EXPECT_EQ(run_command(exe + " " + c.args, &out), 1) << c.args << ": " << out;
    EXPECT_EQ(out.rfind("halfstep: ", 0), 0u) << c.args << ": " << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.args << ": " << out;
    EXPECT_NE(out.find("Usage: halfstep"), std::string::npos) << c.args << ": " << out;
  }
}

// Number options take finite positive numbers only, for run and for check alike.
TEST(BadInputCli, NumberOptionsRejectNonPositiveAndNonFiniteValues) {
  const std::string exe = HALFSTEP_BINARY;
  for (const std::string option : {"--dt-scale", "--energy-tolerance", "--threads", "--gpu-block"}) {
    for (const std::string value : {"0", "-1", "nan", "inf", "-inf", "1e999", "abc", "0.5x"}) {
      std::string out;
      const std::string args = " run x.inp -o out " + option + "=" + value;
      EXPECT_EQ(run_command(exe + args, &out), 1) << args << ": " << out;
      EXPECT_NE(out.find(option + " needs a positive number, got '" + value + "'"), std::string::npos)
          << args << ": " << out;
    }
    std::string out;
    EXPECT_EQ(run_command(exe + " run x.inp -o out " + option + "=", &out), 1) << out;
    EXPECT_NE(out.find(option), std::string::npos) << out;
  }
  std::string out;
  EXPECT_EQ(run_command(exe + " check x.inp --dt-scale 0", &out), 1) << out;
  EXPECT_NE(out.find("--dt-scale needs a positive number, got '0'"), std::string::npos) << out;
  // A negative value after a space is still read as the option's value, not as an option.
  EXPECT_EQ(run_command(exe + " run x.inp -o out --energy-tolerance -0.1", &out), 1) << out;
  EXPECT_NE(out.find("--energy-tolerance needs a positive number, got '-0.1'"), std::string::npos) << out;
}

TEST(BadInputCli, HelpAndVersionExitWithZero) {
  const std::string exe = HALFSTEP_BINARY;
  std::string out;
  // Without a command, --help lists every command with all its options.
  ASSERT_EQ(run_command(exe + " --help", &out), 0) << out;
  for (const char* text : {"run", "check", "DECK", "-o,--output", "--backend", "--threads", "--dt-scale", "--gpu-scheme",
                           "--precision", "--gpu-block", "--gpu-reference", "--energy-tolerance", "--quiet",
                           "--version", "(default 0.9)", "(default 0.05)", "mpirun"})
    EXPECT_NE(out.find(text), std::string::npos) << text << " missing from:\n" << out;
  ASSERT_EQ(run_command(exe + " check -h", &out), 0) << out;
  EXPECT_NE(out.find("Usage: halfstep check"), std::string::npos) << out;
  EXPECT_NE(out.find("--dt-scale"), std::string::npos) << out;
  EXPECT_EQ(out.find("--threads"), std::string::npos) << out;
  ASSERT_EQ(run_command(exe + " --version", &out), 0) << out;
  EXPECT_EQ(out, "halfstep " HALFSTEP_VERSION "\n");
}

// check's result is the model summary on stdout: a stdout that takes nothing (/dev/full) is
// a failed check with a message on stderr (exit 4), not exit 0 with nothing written.
TEST(BadInputCli, CheckSummaryThatCannotBeWrittenFails) {
  std::string out;
  const std::string deck = HALFSTEP_SOURCE_DIR "/examples/clamped_plate.inp";
  EXPECT_EQ(run_command("(" + std::string(HALFSTEP_BINARY) + " check " + deck + " >/dev/full)", &out), 4) << out;
  EXPECT_NE(out.find("cannot write the model summary to standard output: No space left on device"), std::string::npos)
      << out;
}

TEST(BadInputCli, MissingDeckIsReported) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check /nonexistent/deck.inp", &out), 2) << out;
  EXPECT_NE(out.find("/nonexistent/deck.inp"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
