// Dim construction, names, derived bounds and the arithmetic PyTorch allows on Dims.
#include "spec/dim.h"

#include <fmt/format.h>

#include <cmath>

#include "spec/spec_error.h"

namespace symshape::spec {
namespace {

constexpr std::string_view kLinearOnly = "(Only increasing linear operations with integer coefficients are supported.)";

bool checked_apply(LinearFn fn, int64_t x, int64_t& out) {
  int64_t m = 0;
  return !__builtin_mul_overflow(fn.mul, x, &m) && !__builtin_add_overflow(m, fn.add, &out);
}

}  // namespace

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

std::string py_str(PyNumber n) {
  if (auto* i = std::get_if<int64_t>(&n)) return std::to_string(*i);
  double d = std::get<double>(n);
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

RootDim make_dim(std::string_view name, std::optional<int64_t> min, std::optional<int64_t> max) {
  RootDim d{std::string(name), min.value_or(0), max.value_or(0), max.has_value()};
  if (d.has_max && d.max <= d.min)
    throw_spec(PyException::AssertionError,
               fmt::format("Cannot create Dim with inconsistent min={}, max={}", d.min, d.max));
  if (!is_identifier(name))
    throw_spec(PyException::AssertionError, fmt::format("Dim name must be a valid identifier, got {}", name));
  return d;
}

std::string repr(const RootDim& d) {
  const bool show_min = d.min != 2, show_max = d.has_max;
  if (!show_min && !show_max) return fmt::format("Dim('{}')", d.name);
  if (!show_max) return fmt::format("Dim('{}', min={})", d.name, d.min);
  if (!show_min) return fmt::format("Dim('{}', max={})", d.name, d.max);
  return fmt::format("Dim('{}', min={}, max={})", d.name, d.min, d.max);
}

std::string derived_name(std::string_view root, LinearFn fn) {
  std::string s = fn.mul == 1 ? std::string(root) : fmt::format("{}*{}", fn.mul, root);
  if (fn.add > 0) s += fmt::format(" + {}", fn.add);
  if (fn.add < 0) s += fmt::format(" - {}", uint64_t(0) - uint64_t(fn.add));  // |INT64_MIN| fits
  return s;
}

std::string dim_name(const DimRef& d) { return derived_name(d.root.name, d.fn); }

int64_t dim_min(const DimRef& d) {
  int64_t v = 0;
  if (!checked_apply(d.fn, d.root.min, v) || v < 0)
    throw_spec(PyException::AssertionError,
               fmt::format("Expected derived min value of {} to be >= 0. Please specify an appropriate min value for "
                           "{} (currently {}).",
                           dim_name(d), d.root.name, d.root.min));
  return v;
}

std::optional<int64_t> dim_max(const DimRef& d) {
  if (!d.root.has_max) return std::nullopt;
  int64_t v = 0;
  if (!checked_apply(d.fn, d.root.max, v) || v > kMaxFinite)
    throw_spec(PyException::AssertionError,
               fmt::format("Expected derived max value of {} to be <= {}. Please specify an appropriate max value for "
                           "{} (currently {}).",
                           dim_name(d), kMaxFinite, d.root.name, d.root.max));
  return v;
}

DimRef operator+(const DimRef& d, PyNumber other) {
  const int64_t* k = std::get_if<int64_t>(&other);
  if (!k)
    throw_spec(PyException::NotImplementedError,
               fmt::format("Attempted to add {} to {}, where an integer was expected. {}", py_str(other), dim_name(d),
                           kLinearOnly));
  DimRef r = d;
  if (__builtin_add_overflow(d.fn.add, *k, &r.fn.add)) throw_error(ErrorKind::Overflow, "derived dim offset overflows int64");
  return r;
}

DimRef operator-(const DimRef& d, PyNumber other) {
  const int64_t* k = std::get_if<int64_t>(&other);
  if (!k || *k == INT64_MIN)
    throw_spec(PyException::NotImplementedError,
               fmt::format("Attempted to subtract {} from {}, where an integer was expected. {}", py_str(other),
                           dim_name(d), kLinearOnly));
  return d + PyNumber(-*k);
}

DimRef operator*(const DimRef& d, PyNumber other) {
  const int64_t* k = std::get_if<int64_t>(&other);
  if (!k || *k <= 0)
    throw_spec(PyException::NotImplementedError,
               fmt::format("Attempted to multiply {} with {}, where a positive integer was expected. {}",
                           py_str(other), dim_name(d), kLinearOnly));
  DimRef r = d;
  if (__builtin_mul_overflow(d.fn.mul, *k, &r.fn.mul) || __builtin_mul_overflow(d.fn.add, *k, &r.fn.add))
    throw_error(ErrorKind::Overflow, "derived dim coefficient overflows int64");
  return r;
}

void rsub(const DimRef& d, PyNumber) {
  throw_spec(PyException::NotImplementedError, fmt::format("Attempted to negate {}. {}", dim_name(d), kLinearOnly));
}

DimHint call_hint(const DimHint& h, std::optional<int64_t> min, std::optional<int64_t> max) {
  if (h.called) throw_spec(PyException::TypeError, "'_DimHint' object is not callable");
  if (min && *min < 0) throw_spec(PyException::AssertionError, "min must be non-negative");
  if (max && *max < 0) throw_spec(PyException::AssertionError, "max must be non-negative");
  if (min && max && *min > *max) throw_spec(PyException::AssertionError, "min must be <= max");
  DimHint r = make_hint(h.kind);
  r.min = min;
  r.max = max;
  r.called = true;
  return r;
}

std::string_view hint_string(HintKind k) {
  switch (k) {
    case HintKind::Auto: return "_DimHint.AUTO";
    case HintKind::Static: return "_DimHint.STATIC";
    case HintKind::Dynamic: return "_DimHint.DYNAMIC";
  }
  return "";
}

}  // namespace symshape::spec
