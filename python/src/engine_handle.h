#pragma once
// What the Python objects hold: a loaded graph with its rule table (GraphHandle),
// and one propagation of it over its own ShapeEnv (PropagationHandle). Both are shared
// by the Python wrappers, so a Propagation keeps its graph alive and a compiled guard
// program keeps its propagation alive.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conform/specialization.h"
#include "graph/graph.h"
#include "graph/op_table.h"
#include "prop/propagate.h"
#include "prop/rules.h"
#include "shape_env/shape_env.h"
#include "spec/dynamic_shapes.h"

namespace symshape::py {

// The OpTable the corpus shards of this process intern into (corpus_shard.cpp). Graphs
// loaded one by one own theirs: op rules key their caches by OpTable::serial(), so a table
// reallocated at a freed one's address is not mistaken for it.
OpTable& process_ops();

struct GraphHandle {
  OpTable ops;
  RuleTable rules;
  Graph graph;
  std::string source;  // file name or "<bytes>", for messages
  std::optional<spec::DynamicShapes> spec;  // the spec applied at load (apply_spec), if any
};

// A Specialization (its ShapeEnv, Propagator and produced guards), as the batch engine
// compiles guards from.
struct PropagationHandle {
  std::shared_ptr<const GraphHandle> g;
  Specialization spec;
  std::vector<std::vector<int64_t>> sizes;  // the hints, by placeholder
  ShapeEnv& env() const { return *spec.env; }
  const Propagator& prop() const { return *spec.prop; }
  const ShapeEnv::ProducedGuards& guards() const { return spec.guards; }
};

// Raises the Python exception of the engine's error kind (SymshapeError subclasses).
[[noreturn]] void raise_engine_error(ErrorKind kind, const std::string& message);

}  // namespace symshape::py
