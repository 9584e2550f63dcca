#pragma once
// meta['unbacked_bindings'] (semantics.md C.12, D.3 step 5): for every fresh unbacked
// symbol an op produced, the pytree key path at which the runtime can read its value
// back out of the op's result, e.g. nonzero's length at `.size()[0]`.
#include <span>
#include <string>
#include <vector>

#include "prop/small_vector.h"
#include "prop/values.h"
#include "shape_env/shape_env.h"

namespace symshape {

enum class KeyKind : uint8_t {
  Sequence,    // SequenceKey(idx): item of a tuple / list
  CallMethod,  // CallMethodKey(name): tensor.size() / .stride() / .storage_offset()
  DivideBy,    // DivideByKey(divisor): the value is divisor*u, read it and divide
  ConvertInt,  // ConvertIntKey(): the value is the SymBool Eq(u, 1), read it as an int
};
enum class TensorMethod : uint8_t { Size, Stride, StorageOffset };

struct KeyEntry {
  KeyKind kind = KeyKind::Sequence;
  TensorMethod method = TensorMethod::Size;  // CallMethod
  uint32_t index = 0;                        // Sequence
  ExprId divisor;                            // DivideBy: an integer or a backed symbol
};

using KeyPath = FixedVector<KeyEntry, 8>;

struct UnbackedBinding {
  ExprId symbol;
  KeyPath path;
};

// PyTorch's repr of the path tuple: "(CallMethodKey(name='size'), SequenceKey(idx=0))",
// "()" for the value itself, "(ConvertIntKey(),)".
std::string key_path_repr(const ExprArena& ar, const KeyPath& path);
// pytree keystr form: ".size()[0]", "" for the value itself, ".cast_symbool_to_symint_guardless()".
std::string key_path_str(const ExprArena& ar, const KeyPath& path);
// The dict as PyTorch prints it: "{u0: (CallMethodKey(name='size'), SequenceKey(idx=0))}".
std::string unbacked_bindings_repr(const ExprArena& ar, std::span<const UnbackedBinding> bindings);

// Binds the env's pending fresh unbacked symbols to paths into `result` (a value of
// `vals`) and appends them to `out`, in the env's pending order. Walks the result like
// PyTorch's _free_unbacked_symbols_with_path: tuple items in order, and per tensor its
// sizes, strides, then storage offset. Clears the pending list; throws (Internal) "Pending
// unbacked symbols {...} not in returned outputs ..." for a symbol found nowhere.
void compute_unbacked_bindings(ShapeEnv& env, const ValueTable& vals, ValId result,
                               std::vector<UnbackedBinding>& out);

}  // namespace symshape
