#pragma once
// `symshape validate`'s op check: every call_function node calls an op the engine supports,
// with arguments that match the op's schema (prop/op_schema.h): positional count, keyword
// names, no argument given twice, every argument without default present, and each
// argument's kind accepted by its schema type. Reports every problem of the graph (up to
// kMaxDiagnosticsPerGraph), each naming the file, graph, node and argument.
#include <string_view>

#include "graph/diagnostic.h"
#include "graph/graph.h"

namespace symshape {

// Returns true when no problem was added.
bool check_op_schemas(const Graph& g, std::string_view file, Diagnostics& diags);

}  // namespace symshape
