// `halfstep run -o DIR`: what DIR holds of earlier runs, and the rule that keeps two jobs'
// results from mixing in one folder (docs/reliability.md, "The output folder").
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace halfstep {

/// The output folder cannot take this run (another job's results, not a folder): a usage error.
class OutputFolderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The halfstep results found in a folder.
struct FolderResults {
  std::vector<std::string> files;  ///< halfstep's files and folders there, relative to it
  std::set<std::string> jobs;      ///< the jobs they belong to (job names: deck file names without extension)
  bool unknown_job = false;        ///< some belong to no job that could be named (energy.csv alone)
  bool empty() const { return files.empty(); }
};

/// The files halfstep writes for job in dir, relative to it (those that exist): summary.json,
/// energy.csv, history/*.csv, report.html, report/*.png, <job>.pvd, <job>_NNNNNN.vtu,
/// <job>_nurbs.pvd and its frames, <job>.dat, <job>.restart, <job>.sta, and the temporary
/// files of their atomic writes. Files of other names are never included.
FolderResults find_results(const std::string& dir);

/// Deletes the files of found (and history/ and report/ when that leaves them empty); throws
/// OutputFolderError naming the first file that cannot be deleted.
void delete_results(const std::string& dir, const FolderResults& found);

/// The check of `run -o dir` for job, on rank 0 before anything is written. A missing or empty
/// folder, or one of other files only, is used as it is. A fresh run (not resuming) into a folder
/// with results of the same job replaces them: they are deleted first, so no frame, history or
/// report of the earlier run is left to be mistaken for this one's. Results of another job are
/// refused (OutputFolderError) unless overwrite, which deletes them likewise. A resumed run
/// leaves the folder to its restart file, which checks the deck and cuts the files back itself.
/// Returns a note for stderr when earlier results were deleted ("" otherwise).
std::string prepare_output_folder(const std::string& dir, const std::string& job, bool overwrite, bool resuming);

}  // namespace halfstep
