// A node's local system (*TRANSFORM) as 9 values, column c (q[3c..3c+2]) the local axis c in
// global components: 3-vectors turned between its components and the global ones, in place.
// The explicit node integrator, the static problem and the printed tables share them.
#pragma once

#include "core/host_device.hpp"

namespace halfstep {

/// Rotates 3 values from global to local components (x <- Q^T x).
template <class T>
HS_HD void to_local3(const T* q, T* x) {
  const T a = q[0] * x[0] + q[1] * x[1] + q[2] * x[2];
  const T b = q[3] * x[0] + q[4] * x[1] + q[5] * x[2];
  const T c = q[6] * x[0] + q[7] * x[1] + q[8] * x[2];
  x[0] = a;
  x[1] = b;
  x[2] = c;
}

/// Rotates 3 values from local to global components (x <- Q x).
template <class T>
HS_HD void to_global3(const T* q, T* x) {
  const T a = q[0] * x[0] + q[3] * x[1] + q[6] * x[2];
  const T b = q[1] * x[0] + q[4] * x[1] + q[7] * x[2];
  const T c = q[2] * x[0] + q[5] * x[1] + q[8] * x[2];
  x[0] = a;
  x[1] = b;
  x[2] = c;
}

}  // namespace halfstep
