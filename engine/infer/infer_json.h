#pragma once
// An InferResult as the JSON object `symshape infer --json` prints and the Python binding
// returns: {"sizes": {input: [...]}, "spec": <DynamicShapesSpec dict> | null (the spec export
// accepts: `spec check` clean), "constraints": [{"kind", "node", "check", "trace",
// "set_aside"}], "status", "conflict", "traces", "budget", ["error"], ["spec_note"],
// "validity": <DynamicShapesSpec dict> | null (where eager propagates, wider), ["validity_note"]}.
#include <nlohmann/json.hpp>

#include "graph/graph.h"
#include "infer/infer.h"

namespace symshape::infer {

nlohmann::ordered_json infer_result_json(const Graph& graph, const InferResult& r);

}  // namespace symshape::infer
