#include "report_command.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace halfstep {

namespace {

/// The interpreter: $HALFSTEP_PYTHON, else the one CMake chose, else python3 on the PATH.
std::string python_executable() {
  if (const char* p = std::getenv("HALFSTEP_PYTHON"); p && *p) return p;
#ifdef HALFSTEP_PYTHON_EXE
  struct stat st {};
  if (::stat(HALFSTEP_PYTHON_EXE, &st) == 0) return HALFSTEP_PYTHON_EXE;
#endif
  return "python3";
}

/// The source tree's python/ folder when this build's tree still has it ("" otherwise): a
/// built, not installed, halfstep then reports with the package of its own sources.
std::string source_package_dir() {
#ifdef HALFSTEP_PYTHON_DIR
  struct stat st {};
  if (::stat(HALFSTEP_PYTHON_DIR "/halfstep/report.py", &st) == 0) return HALFSTEP_PYTHON_DIR;
#endif
  return "";
}

// Run with -c rather than -m so that a missing package (or numpy, matplotlib, ...) gives one
// line that says what to install, not a traceback; exit 6 tells it from the report's own codes.
constexpr const char* kBootstrap =
    "import sys\n"
    "try:\n"
    "    from halfstep import report\n"
    "except ImportError as e:\n"
    "    sys.stderr.write('halfstep: report: the Python package halfstep or a library it needs is missing (%s); '\n"
    "                     'install it with pip install ./python (README, Set-up)\\n' % e)\n"
    "    sys.exit(6)\n"
    "except KeyboardInterrupt:\n"
    "    sys.exit(130)\n"
    "sys.exit(report.main(sys.argv[1:]))\n";

}  // namespace

int run_report(const std::string& outdir, const std::string& units) {
  const std::string python = python_executable(), dir = source_package_dir();
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::fprintf(stderr, "halfstep: report: cannot start Python: %s\n", std::strerror(errno));
    return 4;
  }
  if (pid == 0) {
    if (!dir.empty()) {
      const char* old = std::getenv("PYTHONPATH");
      const std::string path = old && *old ? dir + ":" + old : dir;
      ::setenv("PYTHONPATH", path.c_str(), 1);
    }
    const char* argv[] = {python.c_str(), "-c", kBootstrap, outdir.c_str(),
                          units.empty() ? nullptr : "--units", units.c_str(), nullptr};
    ::execvp(argv[0], const_cast<char* const*>(argv));
    std::fprintf(stderr,
                 "halfstep: report: cannot run '%s' (%s): the report needs Python 3 (set HALFSTEP_PYTHON to "
                 "the interpreter, README Set-up)\n",
                 python.c_str(), std::strerror(errno));
    std::_Exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 4;
  if (!WIFEXITED(status)) {
    std::fprintf(stderr, "halfstep: report: Python stopped by signal %d\n", WTERMSIG(status));
    return 4;
  }
  const int code = WEXITSTATUS(status);
  return code == 0 ? 0 : code == 2 ? 2 : 4;
}

}  // namespace halfstep
