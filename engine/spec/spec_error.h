#pragma once
// Errors of the spec layer, tagged with the Python exception PyTorch raises for the same
// mistake, so callers (and tests) can tell a UserError(INVALID_INPUT) from an AssertionError.
#include <string>

#include "core/error.h"

namespace symshape::spec {

enum class PyException : uint8_t {
  UserErrorInvalidInput,  // torch._dynamo.exc.UserError(UserErrorType.INVALID_INPUT, ...)
  AssertionError,
  NotImplementedError,
  TypeError,
  ValueError,
};

class SpecError : public Error {
 public:
  SpecError(PyException py, std::string message)
      : Error(py == PyException::ValueError ? ErrorKind::Value
              : py == PyException::AssertionError ? ErrorKind::Assertion
                                                  : ErrorKind::BadInput,
              std::move(message)),
        py_(py) {}
  PyException py() const { return py_; }

 private:
  PyException py_;
};

[[noreturn]] inline void throw_spec(PyException py, std::string message) { throw SpecError(py, std::move(message)); }
[[noreturn]] inline void throw_invalid_input(std::string message) {
  throw SpecError(PyException::UserErrorInvalidInput, std::move(message));
}

}  // namespace symshape::spec
