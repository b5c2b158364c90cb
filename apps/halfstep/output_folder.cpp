#include "output_folder.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace halfstep {

namespace {

namespace fs = std::filesystem;

/// The first bytes of a file ("" when it cannot be read).
std::string head_of(const fs::path& p, std::size_t n) {
  std::ifstream in(p, std::ios::binary);
  std::string s(n, '\0');
  in.read(s.data(), static_cast<std::streamsize>(n));
  s.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Whether name is a frame file of job: <job>_NNNNNN.vtu or <job>_nurbs_NNNNNN.vtu (six digits
/// or more: the writer's %06d).
bool frame_of(const std::string& name, const std::string& job) {
  if (!ends_with(name, ".vtu") || name.compare(0, job.size() + 1, job + "_") != 0) return false;
  std::string mid = name.substr(job.size() + 1, name.size() - job.size() - 5);
  if (mid.compare(0, 6, "nurbs_") == 0) mid = mid.substr(6);
  return mid.size() >= 6 && all_digits(mid);
}

/// What summary.json says: the job (its "job", else the deck's file name) and the files the
/// run listed. A summary that cannot be read still counts as a result, of no known job.
void read_summary(const fs::path& p, std::set<std::string>& jobs, std::vector<std::string>& listed, bool& unknown) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    unknown = true;
    return;
  }
  std::string job;
  if (j.contains("job") && j["job"].is_string()) {
    job = j["job"].get<std::string>();
  } else if (j.contains("deck") && j["deck"].is_string()) {
    job = fs::path(j["deck"].get<std::string>()).stem().string();
  }
  if (job.empty()) unknown = true;
  else jobs.insert(job);
  if (j.contains("files") && j["files"].is_array())
    for (const auto& f : j["files"])
      if (f.is_string()) listed.push_back(f.get<std::string>());
}

/// A path the summary lists that may be deleted: relative, inside the folder, no "..".
bool safe_relative(const std::string& rel) {
  if (rel.empty() || rel[0] == '/') return false;
  for (const auto& part : fs::path(rel))
    if (part == ".." || part == ".") return false;
  return true;
}

}  // namespace

FolderResults find_results(const std::string& dir) {
  FolderResults r;
  std::error_code ec;
  const fs::path root(dir);
  if (!fs::exists(root, ec)) return r;
  if (!fs::is_directory(root, ec)) throw OutputFolderError(dir + ": exists and is not a folder (-o needs a folder)");
  std::vector<std::string> names;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) names.push_back(it->path().filename().string());
  if (ec) throw OutputFolderError(dir + ": cannot list the folder (" + ec.message() + ")");
  std::sort(names.begin(), names.end());
  const auto has = [&](const std::string& n) { return std::binary_search(names.begin(), names.end(), n); };

  std::set<std::string> files;
  std::vector<std::string> listed;
  // The jobs: named by summary.json, by a .pvd index (not a NURBS one of a job found so), by a
  // status file that halfstep wrote, by a halfstep restart file.
  if (has("summary.json")) read_summary(root / "summary.json", r.jobs, listed, r.unknown_job);
  for (const std::string& n : names) {
    if (ends_with(n, ".pvd")) {
      const std::string stem = n.substr(0, n.size() - 4);
      if (!(ends_with(stem, "_nurbs") && has(stem.substr(0, stem.size() - 6) + ".pvd"))) r.jobs.insert(stem);
    } else if (ends_with(n, ".sta") && head_of(root / n, 17) == "# halfstep status") {
      r.jobs.insert(n.substr(0, n.size() - 4));
    } else if (ends_with(n, ".restart") && head_of(root / n, 8) == "HSRESTRT") {
      r.jobs.insert(n.substr(0, n.size() - 8));
    }
  }
  for (const char* n : {"summary.json", "summary.json.tmp", "energy.csv", "report.html", "report.html.tmp"})
    if (has(n)) files.insert(n);
  for (const std::string& job : r.jobs)
    for (const std::string& n : names)
      if (n == job + ".pvd" || n == job + ".pvd.tmp" || n == job + "_nurbs.pvd" || n == job + "_nurbs.pvd.tmp" ||
          n == job + ".dat" || n == job + ".restart" || n == job + ".restart.tmp" || n == job + ".sta" ||
          frame_of(n, job))
        files.insert(n);
  // history/*.csv and report/*.png: halfstep's own folders.
  for (const auto& [sub, ext] : {std::pair<std::string, std::string>{"history", ".csv"}, {"report", ".png"}}) {
    if (!has(sub) || !fs::is_directory(root / sub, ec)) continue;
    for (fs::directory_iterator it(root / sub, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string n = it->path().filename().string();
      if (ends_with(n, ext) && it->is_regular_file(ec)) files.insert(sub + "/" + n);
    }
  }
  for (const std::string& f : listed)
    if (safe_relative(f) && fs::is_regular_file(root / f, ec)) files.insert(f);
  // Results without a job to name (an energy.csv or histories alone): of some other run.
  if (r.jobs.empty() && !files.empty()) r.unknown_job = true;
  r.files.assign(files.begin(), files.end());
  return r;
}

void delete_results(const std::string& dir, const FolderResults& found) {
  const fs::path root(dir);
  for (const std::string& f : found.files) {
    std::error_code ec;
    fs::remove(root / f, ec);
    if (ec) throw OutputFolderError((root / f).string() + ": cannot delete it (" + ec.message() + ")");
  }
  for (const char* sub : {"history", "report"}) {
    std::error_code ec;
    if (fs::is_directory(root / sub, ec) && fs::is_empty(root / sub, ec)) fs::remove(root / sub, ec);
  }
}

std::string prepare_output_folder(const std::string& dir, const std::string& job, bool overwrite, bool resuming) {
  // A resumed run continues the results its restart file describes (same deck, checked by the
  // restart's deck hash; the files cut back to its sizes): nothing here is deleted or refused.
  if (resuming) return "";
  const FolderResults found = find_results(dir);
  if (found.empty()) return "";
  std::vector<std::string> others;
  for (const std::string& j : found.jobs)
    if (j != job) others.push_back("'" + j + "'");
  if (found.unknown_job) others.push_back("an unnamed job");
  std::string whose;
  for (std::size_t i = 0; i < others.size(); ++i) whose += (i ? ", " : "") + others[i];
  std::string sample;
  for (std::size_t i = 0; i < found.files.size() && i < 3; ++i) sample += (i ? ", " : "") + found.files[i];
  if (found.files.size() > 3) sample += ", ...";
  const std::string held = std::to_string(found.files.size()) + " file(s): " + sample;
  if (!others.empty() && !overwrite)
    throw OutputFolderError(dir + ": holds the results of job " + whose + " (" + held + "); running job '" + job +
                            "' there would mix the two. Choose another folder (-o), or add --overwrite to delete "
                            "those results first (only the files halfstep writes are deleted)");
  delete_results(dir, found);
  return "halfstep: deleted the earlier results of job " +
         (others.empty() ? "'" + job + "'" : whose) + " in " + dir + " (" + std::to_string(found.files.size()) +
         " file(s))";
}

}  // namespace halfstep
