#include "status_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "io/atomic_file.hpp"

namespace halfstep {

namespace {

/// A number in a column of width w ('-' when absent): %w.3e, or %w.<digits>f.
std::string column(double v, bool present, int width, const char* format) {
  char buf[64];
  if (!present || !std::isfinite(v)) std::snprintf(buf, sizeof buf, "%*s", width, "-");
  else std::snprintf(buf, sizeof buf, format, width, v);
  return buf;
}

/// h:mm:ss of a number of seconds.
std::string clock_time(double s) {
  if (!(s >= 0) || s > 1e9) return "-";
  const long long t = std::llround(s);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
  return buf;
}

}  // namespace

StatusFile::StatusFile(std::string path, std::string job, double progress_interval, std::string resumed_from,
                       std::chrono::steady_clock::time_point started)
    : path_(std::move(path)),
      job_(std::move(job)),
      resumed_from_(std::move(resumed_from)),
      interval_(progress_interval),
      started_(started),
      last_progress_(started) {}

StatusFile::~StatusFile() {
  if (fd_ >= 0) ::close(fd_);
}

double StatusFile::wall() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

std::string StatusFile::format_line(const StatusPoint& p, double wall) {
  char head[64];
  std::snprintf(head, sizeof head, "%5d %11lld ", p.step, p.increment);
  std::string s = head;
  s += p.iterations >= 0 ? column(p.iterations, true, 4, "%*.0f") : column(0, false, 4, "");
  for (double v : {p.step_time, p.total_time, p.dt}) s += column(v, true, 11, "%*.3e");
  for (double v : {p.kinetic, p.internal, p.external_work}) s += column(v, p.have_energy, 11, "%*.3e");
  s += column(p.energy_error, p.have_energy && p.energy_error >= 0, 10, "%*.2e");
  s += column(wall, true, 10, "%*.1f");
  s += column(p.eta_seconds, p.eta_seconds >= 0, 10, "%*.1f");
  return s;
}

std::string StatusFile::progress_line(const StatusPoint& p, double wall) {
  char buf[512];
  const double percent = p.end_time > 0 ? 100 * p.total_time / p.end_time : 100;
  std::string inc = std::to_string(p.increment);
  if (p.is_static) inc = "(static) increment " + inc + " (" + std::to_string(p.iterations) + " iterations)";
  else inc = "increment " + inc;
  std::snprintf(buf, sizeof buf, "halfstep: step %d %s, time %.4e of %.4e (%.1f %%), dt %.3e", p.step, inc.c_str(),
                p.total_time, p.end_time, percent, p.dt);
  std::string s = buf;
  if (p.have_energy && p.energy_error >= 0) {
    std::snprintf(buf, sizeof buf, ", energy error %.2g %%", 100 * p.energy_error);
    s += buf;
  }
  s += ", wall " + clock_time(wall) + ", ETA " + clock_time(p.eta_seconds);
  return s;
}

bool StatusFile::open(bool warn) {
  if (fd_ >= 0) return true;
  if (failed_) return false;
  try {
    const std::string::size_type slash = path_.find_last_of('/');
    if (slash != std::string::npos && slash > 0) make_directories(path_.substr(0, slash));
  } catch (const std::exception& e) {
    if (warn) std::fprintf(stderr, "halfstep: warning: no status file: %s\n", e.what());
    failed_ = true;
    return false;
  }
  const bool resumed = !resumed_from_.empty();
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (resumed ? 0 : O_TRUNC), 0644);
  if (fd_ < 0) {
    if (warn)
      std::fprintf(stderr, "halfstep: warning: cannot write the status file '%s': %s\n", path_.c_str(),
                   std::strerror(errno));
    failed_ = true;
    return false;
  }
  // A record cut short (a full disk) is completed, so the records after it stay on their bounds.
  struct stat st {};
  const off_t size = ::fstat(fd_, &st) == 0 ? st.st_size : 0;
  if (size % static_cast<off_t>(kRecordBytes) != 0) {
    const std::string pad = std::string(kRecordBytes - 1 - static_cast<std::size_t>(size) % kRecordBytes, ' ') + '\n';
    if (write_all(fd_, pad.data(), pad.size()) != 0) {
      ::close(fd_);
      fd_ = -1;
      failed_ = true;
      return false;
    }
  }
  if (size == 0) append("# halfstep status of job " + job_ + " (a line per second at most; the last line: the outcome)");
  if (resumed) {  // a long path keeps its end, which names the file
    const std::string head = "# resumed from ";
    const std::size_t room = kRecordBytes - 1 - head.size();
    append(head + (resumed_from_.size() <= room ? resumed_from_ : "..." + resumed_from_.substr(resumed_from_.size() - room + 3)));
  }
  char header[160];
  std::snprintf(header, sizeof header, "#%4s %11s %4s%11s%11s%11s%11s%11s%11s%10s%10s%10s", "step", "increment", "iter",
                "step_time", "total_time", "dt", "kinetic", "internal", "ext_work", "en_error", "wall_s", "eta_s");
  append(header);
  return fd_ >= 0;
}

void StatusFile::append(std::string line) {
  if (fd_ < 0) return;
  if (line.size() > kRecordBytes - 1) line = line.substr(0, kRecordBytes - 4) + "...";
  line.resize(kRecordBytes - 1, ' ');
  line += '\n';
  if (const int err = write_all(fd_, line.data(), line.size())) {
    std::fprintf(stderr, "halfstep: warning: cannot write the status file '%s': %s; no more status lines\n",
                 path_.c_str(), std::strerror(err));
    ::close(fd_);
    fd_ = -1;
    failed_ = true;
  }
}

void StatusFile::update(const StatusPoint& p) {
  const double w = wall();
  if (open()) append(format_line(p, w));
  if (interval_ > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_progress_).count() >= interval_) {
    last_progress_ = std::chrono::steady_clock::now();
    std::fprintf(stderr, "%s\n", progress_line(p, w).c_str());
    std::fflush(stderr);
  }
}

void StatusFile::finish(const std::string& outcome, bool only_if_started) {
  if (finished_ || (only_if_started && fd_ < 0)) return;
  finished_ = true;
  // A run that failed has said why already: a folder that cannot take the file adds no warning.
  if (open(outcome == "completed")) append(outcome);
}

}  // namespace halfstep
