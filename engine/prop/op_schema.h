#pragma once
// The argument schemas of the supported ops, as data: one entry per overload, parsed once
// from PyTorch's own schema strings (op_schemas.inc, dumped from torch 1.13.1 by
// scripts/schemas/dump_op_schemas.py; op_schemas_extra.inc for newer ops and operator.*).
// `symshape validate` checks every call_function node against it before anything runs.
#include <cstdint>
#include <span>
#include <string_view>

namespace symshape {

// What a schema argument accepts, by the graph's ArgKinds (see schema_check.cpp).
enum class SchemaType : uint8_t {
  Tensor, TensorList, OptionalTensorList,
  Int, IntList,          // int, SymInt / int[N], SymInt[]
  Float, FloatList, Bool, BoolList,
  Scalar, ScalarType, Layout, Device, MemoryFormat, String, Generator,
  Any,                   // operator.* operands, Dimname, Storage, ... (not checked)
};
std::string_view schema_type_name(SchemaType t);

struct SchemaArg {
  std::string_view name;
  SchemaType type = SchemaType::Any;
  bool optional = false;     // `T?`: None accepted
  bool has_default = false;  // may be omitted
  bool kwarg_only = false;   // after `*`
  uint8_t fixed_size = 0;    // N of `int[N]` (a single int is then accepted too), 0 otherwise
};

struct OpSchema {
  std::string_view target;            // "aten.conv2d.default"
  std::span<const SchemaArg> args;    // positional first, then keyword-only
  uint32_t num_positional = 0;
  // OpOverload.is_view: an argument aliased without a write (`Tensor(a)`, `Tensor(a -> *)`),
  // so FakeTensorMode's dispatch cache rebuilds the output with `set_` on the input's storage
  bool is_view = false;
};

// The schema of `target`, or nullptr when the table has none. Thread-safe (built once).
const OpSchema* find_op_schema(std::string_view target);
size_t op_schema_count();

}  // namespace symshape
