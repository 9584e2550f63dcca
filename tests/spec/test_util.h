#pragma once
#include <gtest/gtest.h>

#include <string>

#include "spec/spec_error.h"

// Runs `fn`, expects a SpecError of Python type `py` whose message is exactly `msg`.
template <class Fn>
void expect_spec_error(Fn&& fn, symshape::spec::PyException py, const std::string& msg) {
  try {
    fn();
    ADD_FAILURE() << "expected an error: " << msg;
  } catch (const symshape::spec::SpecError& e) {
    EXPECT_EQ(int(e.py()), int(py)) << e.what();
    EXPECT_EQ(std::string(e.what()), msg);
  }
}
