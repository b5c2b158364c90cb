// Time functions that scale loads and prescribed motions (*AMPLITUDE).
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"

namespace halfstep {

/// A tabular or smooth-step amplitude in step time; constant outside its points.
struct Amplitude {
  enum class Kind { Tabular, SmoothStep };
  std::string name;
  Kind kind = Kind::Tabular;
  std::vector<double> time, value;  ///< strictly increasing times
  SourceLoc loc;

  /// Amplitude value at step time t (linear between points for TABULAR,
  /// the 5th-order smooth step of Abaqus between points for SMOOTH STEP).
  double operator()(double t) const;
};

}  // namespace halfstep
