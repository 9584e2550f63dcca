#pragma once
// A problem found while loading or validating a graph, located as precisely as the
// input allows: file, graph, node (index and name) and the field path inside it
// (e.g. `args[1][0]`, `meta.shape[2]`, `examples[3].values.relu.stride`). This is an
// API-boundary type: loaders build it only on the error path.
#include <cstdint>
#include <string>
#include <vector>

namespace symshape {

enum class GraphErrc : uint8_t {
  Io,              // cannot open / read / map the file
  Syntax,          // not well-formed JSON (truncated, invalid UTF-8, NaN literal, ...)
  Limit,           // a configured size/depth/count limit is exceeded
  Format,          // unknown `format` / file identifier / FlatBuffers verification failed
  Version,         // unsupported version
  MissingField,
  UnknownField,
  DuplicateKey,
  WrongType,       // a JSON value of the wrong type
  BadValue,        // right type, invalid value (unknown dtype, negative size, bad name...)
  IntRange,        // an integer outside int64 or outside the field's range
  DuplicateName,
  DanglingRef,     // reference to a node name that does not exist
  ForwardRef,      // reference to a later node (graph not topologically ordered / cycle)
  SelfRef,
  Output,          // missing, extra or misplaced output node
  Inconsistent,    // cross-field mismatch (spec vs placeholder rank, data vs shape, ...)
  Corrupt,         // an index/span of a binary file is out of range
  // Checks of call_function nodes against the op schemas (prop/schema_check.h):
  UnsupportedOp,   // the target is not an op the engine has a rule for
  TooManyArgs,     // more positional arguments than the schema has
  MissingArg,      // a schema argument without default is absent
  UnknownKwarg,    // a keyword the schema does not have
  DuplicateArg,    // given both positionally and by keyword
  ArgKind,         // an argument of a kind the schema type does not accept
};

const char* graph_errc_name(GraphErrc c);

struct Diagnostic {
  GraphErrc code = GraphErrc::BadValue;
  std::string file;       // as given by the caller
  std::string graph;      // graph name, "" if not known yet
  int64_t node = -1;      // node index, -1 if not about a node
  std::string node_name;  // "" if unknown
  std::string field;      // path inside the node (or the file when node == -1)
  std::string message;

  // "<file>: graph '<g>': node #<i> '<name>': <field>: <message>"; absent parts omitted.
  std::string format() const;
};

struct Diagnostics {
  std::vector<Diagnostic> items;
  bool empty() const { return items.empty(); }
  size_t size() const { return items.size(); }
  void add(Diagnostic d) { items.push_back(std::move(d)); }
};

}  // namespace symshape
