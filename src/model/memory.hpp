// What a Model costs in host memory: issue 21 asks that the reader's memory per element be
// reported and bounded, and this is the number `halfstep check` and reader_bench print.
#pragma once

#include <cstddef>

#include "model/model.hpp"

namespace halfstep {

/// Bytes the model's mesh holds on the host: node and element arrays with their source
/// locations and id maps, connectivity and sets (capacities, so what is allocated, with an
/// estimate of each hash-map entry). Sections, materials and steps are small and left out.
std::size_t model_host_bytes(const Model& m);

}  // namespace halfstep
