// Locality renumbering (issue 21): nodes and elements reordered once after reading, so that
// elements close in space are close in memory and so are the nodes they gather. Decks from
// pre-processors are often numbered in an order unrelated to space; an element pass over them
// then misses the cache on nearly every node it gathers.
//
// Elements are ordered along a Hilbert curve through their centroids (a grid of 2^21 cells per
// axis over the model's bounding box, cubic cells; ties by the deck's order), nodes in the
// order the renumbered elements first touch them (nodes of no element after them, in their
// order). Every node and element index the model holds is remapped; labels, SourceLocs and
// set orders are untouched, so messages and outputs name the same things. Model::renumbering
// keeps the deck's order for the writers.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.hpp"

namespace halfstep {

/// A new order of a model's nodes and elements: node_order[k] (element_order[k]) is the
/// current index of the node (element) that gets index k.
struct LocalityOrder {
  std::vector<int> node_order, element_order;
};

/// The Hilbert-curve index of a point of a 2^bits grid (each coordinate below 2^bits, bits at
/// most 21): consecutive indices are neighbouring cells.
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits);

/// The locality measure: the mean over elements of the spread of their node indices (largest
/// minus smallest); 0 for a model without elements.
double node_index_span(const Model& model);

/// The order described above, for the model as it is. A model with NURBS patches keeps its
/// element order (a patch's Bézier elements are addressed as one consecutive block,
/// NurbsPatchDef::first_element); its nodes are still ordered by first touch.
LocalityOrder locality_order(const Model& model);

/// Applies order to every node and element index of the model (connectivity, sets, surfaces,
/// loads, boundaries, constraints, rigid bodies, initial conditions, NURBS patches,
/// adhesion, point masses) and the label maps' indices. Throws std::invalid_argument when
/// the order is not a permutation of the model's nodes and elements.
void apply_order(Model& model, const LocalityOrder& order);

/// locality_order and apply_order for a model in the deck's order, recording the deck's
/// order, the measure before and after, and the time taken in Model::renumbering.
void renumber_for_locality(Model& model);

}  // namespace halfstep
