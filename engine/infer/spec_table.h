#pragma once
// The specs `symshape infer` writes as a table: one leaf per input dimension, a static size
// or a Dim (a DynamicShapesSpec of the form {"dynamic_shapes": {input: [leaf, ...]}}), so
// the spec steps (deriving, widening, narrowing to what export accepts) edit leaves rather
// than the pre-order spec tree.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "spec/dynamic_shapes.h"

namespace symshape::infer {

struct Leaf {
  std::string name;  // the Dim name given at first (kept when a derived dim is widened)
  int64_t size = 0;  // the size at the sizes the spec is derived at (static when !ref)
  std::optional<spec::DimRef> ref;
};
using Table = std::vector<std::vector<Leaf>>;

spec::DynamicShapes build_spec(const Graph& g, const Table& table);
// The leaves of a spec of build_spec()'s form into `table` (already one leaf per dimension);
// corrected_spec keeps that tree and rewrites leaves.
void read_back(const spec::DynamicShapes& s, Table& table);
// A table of `s` at `sizes` (one span per input): each leaf's size is the size there.
Table table_of(const spec::DynamicShapes& s, std::span<const std::span<const int64_t>> sizes);

}  // namespace symshape::infer
