// summary.json: the measured facts of a run, for people and scripts.
#pragma once

#include <string>

#include "results/run_summary.hpp"

namespace halfstep {

/// Writes OUTDIR/summary.json atomically.
void write_summary_json(const std::string& path, const std::string& deck, const RunSummary& s);

}  // namespace halfstep
