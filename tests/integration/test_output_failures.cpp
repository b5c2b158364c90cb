// Outputs that cannot be written (issue 20): a disk that fills up mid-run and an output folder
// that cannot be made stop the run with the file named and exit code 4, a summary.json that
// says why, and the results written before intact (whole CSV rows, every listed frame complete).
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// Runs halfstep with every file it writes limited to max_bytes (what a full disk does to the
/// file that crosses it: the write fails with EFBIG instead of ENOSPC); returns the exit code.
int run_with_file_limit(const std::string& deck, const std::string& out, rlim_t max_bytes, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit limit{max_bytes, max_bytes};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    ::signal(SIGXFSZ, SIG_IGN);  // a failed write, not a killed process
    if (!std::freopen(log.c_str(), "w", stderr)) ::_exit(126);
    ::execl(HALFSTEP_BINARY, HALFSTEP_BINARY, "run", deck.c_str(), "-o", out.c_str(), "--quiet", "--threads", "1",
            "--backend", "cpu", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(OutputFailure, FullDiskMidRunNamesTheFileAndKeepsWholeResults) {
  const std::string dir = scratch_dir("disk_full");
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 2e3 --field-interval 100");
  const std::string out = dir + "/out", log = dir + "/stderr.txt";
  ASSERT_EQ(run_with_file_limit(deck, out, 40 * 1024, log), 4) << read_file(log);
  const std::string err = read_file(log);
  EXPECT_NE(err.find("cannot write '" + out + "/history/XL.csv'"), std::string::npos) << err;
  EXPECT_NE(read_file(out + "/summary.json").find("\"status\": \"failed: cannot write"), std::string::npos)
      << read_file(out + "/summary.json");
  // Every CSV ends with a whole row: as many values on each line as in its header.
  int csvs = 0;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (e.path().extension() != ".csv") continue;
    ++csvs;
    const std::string text = read_file(e.path().string());
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << e.path();
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    const auto columns = std::count(line.begin(), line.end(), ',');
    int rows = 0;
    while (std::getline(lines, line)) {
      ++rows;
      EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << e.path() << " row " << rows;
    }
  }
  EXPECT_GE(csvs, 3);
  // The .pvd lists only frames that exist, each a whole file.
  const std::string pvd = read_file(out + "/bar.pvd");
  EXPECT_NE(pvd.find("</VTKFile>"), std::string::npos) << pvd;
  const std::regex listed("file=\"([^\"]+)\"");
  int frames = 0;
  for (auto m = std::sregex_iterator(pvd.begin(), pvd.end(), listed); m != std::sregex_iterator(); ++m) {
    ++frames;
    const std::string vtu = read_file(out + "/" + (*m)[1].str());
    EXPECT_NE(vtu.find("</VTKFile>"), std::string::npos) << (*m)[1];
  }
  EXPECT_GE(frames, 2);
}

TEST(OutputFailure, OutputFolderThatCannotBeMadeIsRefusedBeforeTheSolve) {
  const std::string dir = scratch_dir("folder_under_file");
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 1");
  std::ofstream(dir + "/plain") << "a file, not a folder\n";
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/plain/out", "--backend cpu", &out), 4) << out;
  EXPECT_NE(out.find("cannot create directory '" + dir + "/plain/out'"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
