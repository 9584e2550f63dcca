#include "core/error.h"

namespace symshape {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::ZeroDivision: return "ZeroDivisionError";
    case ErrorKind::Overflow: return "OverflowError";
    case ErrorKind::Value: return "ValueError";
    case ErrorKind::InvalidRange: return "ValueRangeError";
    case ErrorKind::Parse: return "ParseError";
    case ErrorKind::DataDependent: return "GuardOnDataDependentSymNode";
    case ErrorKind::ConstraintViolation: return "ConstraintViolationError";
    case ErrorKind::Shape: return "RuntimeError";
    case ErrorKind::Unsupported: return "UnsupportedError";
    case ErrorKind::BadInput: return "BadInputError";
    case ErrorKind::DynamicOutputShape: return "DynamicOutputShapeException";
    case ErrorKind::DataDependentOutput: return "DataDependentOutputException";
    case ErrorKind::Assertion: return "AssertionError";
    case ErrorKind::Internal: return "InternalError";
  }
  return "Error";
}

void throw_error(ErrorKind kind, std::string message) { throw Error(kind, std::move(message)); }

}  // namespace symshape
