// From a solid group's run-time element type to the compile-time element trait, in one place:
// the CPU loops, the output and the GPU launches dispatch once per group through this.
#pragma once

#include <stdexcept>

#include "elements/solid_kinds.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Calls f(K{}) with the trait K of solid element type t (C3D8R, C3D8, C3D4 or C3D10M).
template <class F>
void visit_solid_kind(ElementType t, F&& f) {
  switch (t) {
    case ElementType::C3D8R: f(C3D8R{}); return;
    case ElementType::C3D8: f(C3D8{}); return;
    case ElementType::C3D4: f(C3D4{}); return;
    case ElementType::C3D10M: f(C3D10M{}); return;
    default: throw std::logic_error("visit_solid_kind: not a solid element type");
  }
}

}  // namespace halfstep
