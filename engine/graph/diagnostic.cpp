#include "graph/diagnostic.h"

#include <fmt/format.h>

namespace symshape {

const char* graph_errc_name(GraphErrc c) {
  switch (c) {
    case GraphErrc::Io: return "io";
    case GraphErrc::Syntax: return "syntax";
    case GraphErrc::Limit: return "limit";
    case GraphErrc::Format: return "format";
    case GraphErrc::Version: return "version";
    case GraphErrc::MissingField: return "missing-field";
    case GraphErrc::UnknownField: return "unknown-field";
    case GraphErrc::DuplicateKey: return "duplicate-key";
    case GraphErrc::WrongType: return "wrong-type";
    case GraphErrc::BadValue: return "bad-value";
    case GraphErrc::IntRange: return "int-range";
    case GraphErrc::DuplicateName: return "duplicate-name";
    case GraphErrc::DanglingRef: return "dangling-ref";
    case GraphErrc::ForwardRef: return "forward-ref";
    case GraphErrc::SelfRef: return "self-ref";
    case GraphErrc::Output: return "output";
    case GraphErrc::Inconsistent: return "inconsistent";
    case GraphErrc::Corrupt: return "corrupt";
    case GraphErrc::UnsupportedOp: return "unsupported-op";
    case GraphErrc::TooManyArgs: return "too-many-args";
    case GraphErrc::MissingArg: return "missing-arg";
    case GraphErrc::UnknownKwarg: return "unknown-kwarg";
    case GraphErrc::DuplicateArg: return "duplicate-arg";
    case GraphErrc::ArgKind: return "arg-kind";
  }
  return "error";
}

std::string Diagnostic::format() const {
  std::string out = file;
  if (!graph.empty()) fmt::format_to(std::back_inserter(out), ": graph '{}'", graph);
  if (node >= 0) {
    fmt::format_to(std::back_inserter(out), ": node #{}", node);
    if (!node_name.empty()) fmt::format_to(std::back_inserter(out), " '{}'", node_name);
  }
  if (!field.empty()) fmt::format_to(std::back_inserter(out), ": {}", field);
  fmt::format_to(std::back_inserter(out), ": {}", message);
  return out;
}

}  // namespace symshape
