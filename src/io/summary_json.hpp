// summary.json: the measured facts of a run, for people and scripts.
#pragma once

#include <string>
#include <vector>

#include "results/run_summary.hpp"

namespace halfstep {

/// Writes OUTDIR/summary.json atomically.
void write_summary_json(const std::string& path, const std::string& deck, const RunSummary& s);

/// Writes OUTDIR/summary.json of a run that failed: the deck and "status": "failed: reason"
/// and the deck's warnings (what a report or a script reads first); with a job, also it and the
/// files of the results written before the failure (RunSummary::files).
void write_failure_summary_json(const std::string& path, const std::string& deck, const std::string& reason,
                                const std::vector<std::string>& warnings = {}, const std::string& job = "",
                                const std::vector<std::string>& files = {});

}  // namespace halfstep
