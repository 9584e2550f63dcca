// Behaviours 161-167 and 191: Dim objects, derived dims, hints.
#include <gtest/gtest.h>

#include "spec/dim.h"
#include "spec/dynamic_shapes.h"
#include "test_util.h"

using namespace symshape::spec;

namespace {
DimRef D(std::string_view name, std::optional<int64_t> min = {}, std::optional<int64_t> max = {}) {
  return DimRef{make_dim(name, min, max), {}};
}
}  // namespace

TEST(SpecF, B161_DimRepr) {
  EXPECT_EQ(repr(make_dim("dx")), "Dim('dx', min=0)");
  EXPECT_EQ(repr(make_dim("dx", 2)), "Dim('dx')");
  EXPECT_EQ(repr(make_dim("dx", 2, 8)), "Dim('dx', max=8)");
  EXPECT_EQ(repr(make_dim("dx", 4, 16)), "Dim('dx', min=4, max=16)");
}

TEST(SpecF, B162_DimValidation) {
  expect_spec_error([] { make_dim("dx", 5, 5); }, PyException::AssertionError,
                    "Cannot create Dim with inconsistent min=5, max=5");
  expect_spec_error([] { make_dim("1x"); }, PyException::AssertionError, "Dim name must be a valid identifier, got 1x");
  expect_spec_error([] { make_dim("dx", 8, 4); }, PyException::AssertionError,
                    "Cannot create Dim with inconsistent min=8, max=4");
}

TEST(SpecF, B163_DerivedNames) {
  DimRef dx = D("dx");
  EXPECT_EQ(dim_name(dx + 1), "dx + 1");
  EXPECT_EQ(dim_name(dx + 1), dim_name(dx + PyNumber(int64_t(1))));  // 1 + dx is dx + 1
  EXPECT_EQ(dim_name(dx - 1), "dx - 1");
  EXPECT_EQ(dim_name(dx * 2), "2*dx");
  EXPECT_EQ(dim_name(dx * 2 + 1), "2*dx + 1");
  DimRef nested = (dx + 1) * 2;
  EXPECT_EQ(dim_name(nested), "2*dx + 2");
  EXPECT_EQ(nested.root.name, "dx");
}

TEST(SpecF, B164_DerivedBounds) {
  DimRef dy = D("dx", 4, 16) + 1;
  EXPECT_EQ(dim_min(dy), 5);
  EXPECT_EQ(dim_max(dy), 17);
  DimRef d2 = D("dx") * 2;
  EXPECT_EQ(dim_min(d2), 0);
  EXPECT_EQ(dim_max(d2), std::nullopt);  // int_oo
}

TEST(SpecF, B165_DerivedMinNegative) {
  DimRef d = D("dx") - 1;
  expect_spec_error([&] { dim_min(d); }, PyException::AssertionError,
                    "Expected derived min value of dx - 1 to be >= 0. Please specify an appropriate min value for dx "
                    "(currently 0).");
}

TEST(SpecF, B166_ArithmeticErrors) {
  DimRef dx = D("dx");
  expect_spec_error([&] { (void)(dx * 0); }, PyException::NotImplementedError,
                    "Attempted to multiply 0 with dx, where a positive integer was expected. (Only increasing linear "
                    "operations with integer coefficients are supported.)");
  expect_spec_error([&] { (void)(dx + PyNumber(1.5)); }, PyException::NotImplementedError,
                    "Attempted to add 1.5 to dx, where an integer was expected. (Only increasing linear operations "
                    "with integer coefficients are supported.)");
  expect_spec_error([&] { rsub(dx, 5); }, PyException::NotImplementedError,
                    "Attempted to negate dx. (Only increasing linear operations with integer coefficients are "
                    "supported.)");
}

TEST(SpecF, B167_Hints) {
  DimHint h = call_hint(make_hint(HintKind::Dynamic), 2, 8);
  EXPECT_EQ(h.kind, HintKind::Dynamic);
  EXPECT_EQ(h.min, 2);
  EXPECT_EQ(h.max, 8);
  expect_spec_error([&] { call_hint(h); }, PyException::TypeError, "'_DimHint' object is not callable");
  expect_spec_error([] { call_hint(make_hint(HintKind::Auto), -1); }, PyException::AssertionError,
                    "min must be non-negative");
}

TEST(SpecF, B191_DifferentDefinitionsOfOneName) {
  expect_spec_error(
      [] {
        SpecBuilder b;
        b.begin_dict().begin_list("x").dim(D("dx", {}, 8)).end().begin_list("y").dim(D("dx", {}, 16)).end().end();
      },
      PyException::UserErrorInvalidInput,
      "Found different definitions Dim('dx', min=0, max=8) and Dim('dx', min=0, max=16) for the same symbolic "
      "dimension Dim('dx', min=0, max=16)!");
}
