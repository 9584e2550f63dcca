#pragma once
// Dim objects of torch.export (semantics.md F.2) as flat values: a root Dim is a name and a
// range; a derived dim is `mul*root + add` over a root; hints are AUTO / STATIC / DYNAMIC.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace symshape::spec {

// PyTorch's int_oo: the unbounded max. Finite derived maxima must stay <= 2**63 - 2.
inline constexpr int64_t kMaxFinite = INT64_MAX - 1;

struct RootDim {
  std::string name;
  int64_t min = 0;
  int64_t max = 0;
  bool has_max = false;  // false: max is int_oo
  bool operator==(const RootDim&) const = default;
};

// Dim(name, min=None, max=None): min defaults to 0, max to int_oo; max > min strictly and
// the name must be an identifier (AssertionError otherwise, F.2 / behaviour 162).
RootDim make_dim(std::string_view name, std::optional<int64_t> min = {}, std::optional<int64_t> max = {});

// repr(Dim): `Dim('dx', min=0)`, `Dim('dx')` (min 2, unbounded), `Dim('dx', max=8)`, ...
std::string repr(const RootDim& d);

// The increasing linear function x -> mul*x + add of a derived dim (mul >= 1).
struct LinearFn {
  int64_t mul = 1;
  int64_t add = 0;
  bool identity() const { return mul == 1 && add == 0; }
  bool operator==(const LinearFn&) const = default;
};

// A Dim as the user holds it: a root with a function applied (identity for the root itself).
struct DimRef {
  RootDim root;
  LinearFn fn;
  bool operator==(const DimRef&) const = default;
};

// Name of a derived dim as PyTorch prints it: `dx + 1`, `dx - 1`, `2*dx`, `2*dx + 2`.
std::string dim_name(const DimRef& d);
std::string derived_name(std::string_view root, LinearFn fn);

// Derived bounds (F.2): min = fn(root.min) must be >= 0 (AssertionError), max = fn(root.max)
// (unbounded when the root is; must be <= 2**63 - 2).
int64_t dim_min(const DimRef& d);
std::optional<int64_t> dim_max(const DimRef& d);

// A Python number operand of Dim arithmetic: only ints are accepted (F.2 / behaviour 166).
using PyNumber = std::variant<int64_t, double>;
DimRef operator+(const DimRef& d, PyNumber other);  // also `int + d`
DimRef operator-(const DimRef& d, PyNumber other);
DimRef operator*(const DimRef& d, PyNumber other);  // also `int * d`
[[noreturn]] void rsub(const DimRef& d, PyNumber other);  // `int - d`: always rejected

// Dim.AUTO / Dim.STATIC / Dim.DYNAMIC, optionally called with bounds (F.2 / behaviour 167).
enum class HintKind : uint8_t { Auto, Static, Dynamic };
struct DimHint {
  HintKind kind = HintKind::Auto;
  std::optional<int64_t> min, max;
  bool called = false;  // produced by a call: calling it again is a TypeError
  bool operator==(const DimHint&) const = default;
};
inline DimHint make_hint(HintKind k) {  // the bare Dim.AUTO / Dim.STATIC / Dim.DYNAMIC
  DimHint h;
  h.kind = k;
  return h;
}
DimHint call_hint(const DimHint& h, std::optional<int64_t> min = {}, std::optional<int64_t> max = {});
std::string_view hint_string(HintKind k);  // "_DimHint.AUTO", ...

std::string py_str(PyNumber n);          // Python's str() of an int or float
bool is_identifier(std::string_view s);  // Python's str.isidentifier() for ASCII names

}  // namespace symshape::spec
