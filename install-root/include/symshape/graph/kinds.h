#pragma once
// Small enums of the graph IR and their fx-graph-json spellings. Every enum is one byte
// so it can be stored as a column; parse_* return false on an unknown spelling.
#include <cstdint>
#include <string_view>

namespace symshape {

// The FX `op` of a node.
enum class NodeKind : uint8_t { Placeholder, GetAttr, CallFunction, Output };
inline constexpr uint8_t kNumNodeKinds = 4;

// Tag of an ARG; decides how Graph::arg_* reads the 8-byte payload.
enum class ArgKind : uint8_t {
  None, Node, Int, Float, Bool, String, DType, Device, Layout, MemoryFormat, List
};
inline constexpr uint8_t kNumArgKinds = 11;

// Tag of a golden VALUE.
enum class ValueKind : uint8_t { Null, Tensor, Int, Bool, Float, List };
inline constexpr uint8_t kNumValueKinds = 6;

enum class DType : uint8_t {
  Float16, BFloat16, Float32, Float64, Int8, UInt8, Int16, Int32, Int64, Bool, Complex64
};
inline constexpr uint8_t kNumDTypes = 11;

enum class MemoryFormat : uint8_t { Contiguous, ChannelsLast, Preserve, ChannelsLast3d };
inline constexpr uint8_t kNumMemoryFormats = 4;

// EXAMPLE.error_kind; None when the example has no error_kind field.
enum class ExampleErrorKind : uint8_t { None, Shape, Value };
inline constexpr uint8_t kNumExampleErrorKinds = 3;

std::string_view node_kind_name(NodeKind k);
std::string_view arg_kind_name(ArgKind k);
std::string_view value_kind_name(ValueKind k);
std::string_view dtype_name(DType d);
std::string_view memory_format_name(MemoryFormat m);
std::string_view example_error_kind_name(ExampleErrorKind k);

bool parse_node_kind(std::string_view s, NodeKind& out);
bool parse_dtype(std::string_view s, DType& out);
bool parse_memory_format(std::string_view s, MemoryFormat& out);
bool parse_example_error_kind(std::string_view s, ExampleErrorKind& out);

// Integer and bool dtypes are the ones whose get_attr tensors carry exact `data`.
constexpr bool dtype_is_integral(DType d) {
  return d == DType::Int8 || d == DType::UInt8 || d == DType::Int16 || d == DType::Int32 ||
         d == DType::Int64 || d == DType::Bool;
}
// Inclusive value range of an integral dtype (bool is [0, 1]).
void dtype_int_range(DType d, int64_t& lo, int64_t& hi);

}  // namespace symshape
