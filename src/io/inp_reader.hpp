// Public entry points of the Abaqus keyword-deck reader.
#pragma once

#include <string>

#include "model/model.hpp"

namespace halfstep {

/// Whose reading of the keyword language a deck gets where Abaqus and the peer solver
/// (CalculiX) read the same text differently (docs/input.md, "Dialects"): the C3D8 element,
/// C3D20R's mass, *BEAM SECTION, SECTION=CIRC's dimension, implicit *DYNAMIC increments.
enum class Dialect { Abaqus, CalculiX };

/// Reads an Abaqus-style keyword deck (following *INCLUDE), validates it, and returns the model.
/// Throws InputError (core/error.hpp) with the file and line of the offending text.
Model read_inp(const std::string& path, Dialect dialect = Dialect::Abaqus);

/// read_inp that goes on after a problem and reports up to max_errors of them in one
/// InputError (one "file:line: error: ..." per line of what(), then a count): `halfstep check`.
Model read_inp_all_errors(const std::string& path, int max_errors, Dialect dialect = Dialect::Abaqus);

/// Bounds on what a deck may make the reader build beyond its own text (a fuzzer's harness,
/// which must stay fast, sets tighter ones than a user's run needs).
struct ReadLimits {
  /// The most control points one *NURBS PATCH may have after ELEVATE= and REFINE=.
  double max_patch_points = 50e6;
};

/// Same as read_inp for a deck held in memory (tests); *INCLUDE paths resolve relative to
/// virtual_path's folder, and messages name virtual_path.
Model read_inp_string(const std::string& text, const std::string& virtual_path, Dialect dialect = Dialect::Abaqus,
                      const ReadLimits& limits = {});

}  // namespace halfstep
