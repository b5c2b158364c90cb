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

/// dir/name.inp: one C3D8R pulled up at one corner, its 7 nodes of set SEVEN printed to
/// <job>.dat every increment (about 100 bytes a node and frame) for `time`.
std::string printing_deck(const std::string& dir, const std::string& name, const std::string& time) {
  const std::string path = dir + "/" + name + ".inp";
  std::ofstream(path) << held_cube_model("C3D8R") <<
                         "*STEP\n*DYNAMIC, EXPLICIT\n, "
                      << time << "\n*BOUNDARY, TYPE=VELOCITY\n7, 3, 3, 1.0\n"
                                 "*NODE PRINT, NSET=SEVEN, FREQUENCY=1\nU\n*END STEP\n";
  return path;
}

// <job>.dat is written through stdio, whose errors wait in the stream: a .dat on a device
// that takes nothing (a symlink to /dev/full) used to give exit 0 and 'completed'.
TEST(OutputFailure, PrintedTablesOnAFullDeviceStopTheRun) {
  const std::string dir = scratch_dir("dat_dev_full");
  const std::string deck = printing_deck(dir, "p", "1e-2");
  fs::create_directories(dir + "/out");
  fs::create_symlink("/dev/full", dir + "/out/p.dat");
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --threads 1", &out), 4) << out;
  EXPECT_NE(out.find("cannot write '" + dir + "/out/p.dat': No space left on device"), std::string::npos) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed: cannot write '" + dir + "/out/p.dat'"), std::string::npos) << summary;
}

// The disk fills while a frame's tables are written: the run stops with exit 4 and the .dat
// is cut back to its last whole frame (every frame's block as long as the first's).
TEST(OutputFailure, PrintedTablesEndWholeWhenTheDiskFills) {
  const std::string dir = scratch_dir("dat_disk_full");
  const std::string deck = printing_deck(dir, "p", "0.2");
  const std::string out = dir + "/out", log = dir + "/stderr.txt";
  ASSERT_EQ(run_with_file_limit(deck, out, 24 * 1024, log), 4) << read_file(log);
  EXPECT_NE(read_file(log).find("cannot write '" + out + "/p.dat'"), std::string::npos) << read_file(log);
  const std::string dat = read_file(out + "/p.dat");
  ASSERT_FALSE(dat.empty());
  EXPECT_LT(dat.size(), 24u * 1024);
  EXPECT_EQ(dat.back(), '\n');
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; (at = dat.find("S T E P", at)) != std::string::npos; at += 7) starts.push_back(at);
  ASSERT_GE(starts.size(), 10u);
  starts.push_back(dat.size());
  const auto lines = [&dat](std::size_t a, std::size_t b) { return std::count(dat.begin() + a, dat.begin() + b, '\n'); };
  // The last block ends at the end of the file, the others one newline before the next header.
  const auto first = lines(starts[0], starts[1]);
  for (std::size_t i = 1; i + 1 < starts.size(); ++i)
    EXPECT_EQ(lines(starts[i], starts[i + 1]) + (i + 2 == starts.size() ? 1 : 0), first) << "frame block " << i;
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
