#pragma once
// Error types shared by all components. Errors carry a kind (so callers and tests can
// tell a shape error from bad input) and a message already formatted for the user.
#include <stdexcept>
#include <string>

namespace symshape {

enum class ErrorKind {
  ZeroDivision,       // FloorDiv/Mod by zero ("division by zero", "Modulo by zero")
  Overflow,           // an int64 result would overflow: never a wrong number
  Value,              // ValueError (e.g. "negative shift count")
  InvalidRange,       // ValueRangeError ("Invalid ranges [3:2]")
  Parse,              // expression text could not be parsed
  DataDependent,      // GuardOnDataDependentSymNode
  ConstraintViolation,// user spec violated at symbol creation
  Shape,              // an op's shape check failed (PyTorch RuntimeError/IndexError on sizes)
  Unsupported,        // an op the engine does not know
  BadInput,           // malformed file / graph
  DynamicOutputShape, // DynamicOutputShapeException: an output size depends on data, and the
                      // fake mode cannot make unbacked symbols (no ShapeEnv)
  DataDependentOutput,// DataDependentOutputException: the output *value* depends on data
                      // (item() without a ShapeEnv, ops tagged data_dependent_output)
  Assertion,          // AssertionError from a driver's argument checks (invoke_subgraph)
  Internal,           // an invariant of the engine broke
};

const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] void throw_error(ErrorKind kind, std::string message);

}  // namespace symshape
