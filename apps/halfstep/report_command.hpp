// `halfstep report OUTDIR` and `run --report`: the report is drawn by the Python package
// (python/halfstep/report.py); this starts it.
#pragma once

#include <string>

namespace halfstep {

/// Writes OUTDIR/report.html by running `python3 -m halfstep.report OUTDIR`; returns 0, 2 for a
/// folder that is not a (whole) result folder, 4 when Python or the package is missing or the
/// report failed. Messages go to stderr. units: the unit system to label the values with
/// (`--units NAME`, python/halfstep/units.py); empty: the deck's `** UNITS:` line, if any.
int run_report(const std::string& outdir, const std::string& units = "");

}  // namespace halfstep
