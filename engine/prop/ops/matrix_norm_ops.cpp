// linalg.matrix_norm and linalg.norm (eager 1.13 LinearAlgebra.cpp), replaying the
// kernels' compositions for the result layout:
// - 'fro': linalg_vector_norm over both dims (a contiguous reduction);
// - ord 1 / -1 / inf / -inf: vector_norm(ord 1) over one dim, then amax / amin over the
//   other (contiguous);
// - ord 2 / -2 / 'nuc': svdvals of A with the two dims moved last, amax / amin / sum
//   over the singular values; with keepdim the result is unsqueezed and permuted back,
//   so its strides are the permuted (not the contiguous) ones.
// linalg_norm routes to matrix_norm when ord is given and the reduction is 2-d, else to
// linalg_vector_norm (ord 2 by default). Results are real (complex inputs give float32).
#include <cmath>
#include <limits>

#include "prop/dtype_rules.h"
#include "prop/ops/reduction_common.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

struct Ord {
  bool is_str = false;
  double value = 2.0;
  std::string_view str;
};

DType real_of(DType d) { return d == DType::Complex64 ? DType::Float32 : d; }

std::string int_list_str(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string ord_str(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

// check_linalg_norm_dtype
void check_norm_dtype(PropContext& ctx, std::optional<DType> dtype, DType self, std::string_view name) {
  if (!dtype) return;
  const bool cd = *dtype == DType::Complex64, cs = self == DType::Complex64;
  if (!is_floating(*dtype) && !cd)
    ctx.fail("{}: dtype should be floating point or complex, but got {}", name, scalar_type_name(*dtype));
  if (cd != cs)
    ctx.fail("{}: dtype should be {} for {} inputs, but got {}", name, cs ? "complex" : "real", cs ? "complex" : "real",
             scalar_type_name(*dtype));
  if (promote_types(self, *dtype) != *dtype)
    ctx.fail("{}: the dtype of the input ({}) should be convertible without narrowing to the specified dtype ({})", name,
             scalar_type_name(self), scalar_type_name(*dtype));
}

// linalg_vector_norm(A, ord, dim, keepdim, dtype): the reduced shape, contiguous.
TensorId vector_norm(PropContext& ctx, TensorId a, uint32_t mask, bool keepdim, std::optional<DType> dtype) {
  const DType d = ctx.vals.dtype(a);
  if (!is_floating(d) && d != DType::Complex64)
    ctx.fail("linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}", scalar_type_name(d));
  check_norm_dtype(ctx, dtype, d, "linalg.vector_norm");
  Dims out;
  reduced_shape(ctx.vals.sizes(a), mask, keepdim, ctx.ar.one(), out);
  return ctx.new_contiguous(real_of(dtype.value_or(d)), out);
}

// amax / amin(t, dim, keepdim): an empty input must not reduce a size-0 dim.
TensorId max_min(PropContext& ctx, TensorId t, int64_t dim, bool keepdim, bool is_max) {
  const int64_t rank = ctx.vals.rank(t);
  const int64_t d = ctx.wrap_dim(dim, rank);
  if (ctx.guard_or_false(ctx.ar.eq(numel(ctx, ctx.vals.sizes(t)), ctx.ar.zero())))
    check_nonzero_reduced(ctx, t, dim, d, is_max ? "amax()" : "amin()");
  Dims out;
  reduced_shape(ctx.vals.sizes(t), rank == 0 ? 0u : 1u << d, keepdim, ctx.ar.one(), out);
  return ctx.new_contiguous(ctx.vals.dtype(t), out);
}

TensorId matrix_norm(PropContext& ctx, TensorId a, const Ord& ord, IntDims dim, bool keepdim,
                     std::optional<DType> dtype) {
  ExprArena& ar = ctx.ar;
  const double abs_ord = std::fabs(ord.value);
  if (ord.is_str) {
    if (ord.str != "fro" && ord.str != "nuc") ctx.fail("linalg.matrix_norm: Order {} not supported.", ord.str);
  } else if (abs_ord != 2.0 && abs_ord != 1.0 && !std::isinf(abs_ord)) {
    ctx.fail("linalg.matrix_norm: Order {} not supported.", ord_str(ord.value));
  }
  const bool low_precision = ord.is_str ? ord.str != "nuc" : abs_ord != 2.0;
  const int64_t rank = ctx.vals.rank(a);
  const DType d = ctx.vals.dtype(a);
  if (rank < 2) ctx.fail("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  if (!is_floating(d) && d != DType::Complex64)
    ctx.fail("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {}", scalar_type_name(d));
  if (!low_precision && (d == DType::Float16 || d == DType::BFloat16))
    ctx.fail("linalg.matrix_norm: Low precision dtypes not supported. Got {}", scalar_type_name(d));
  if (dim.size() != 2) ctx.fail("linalg.matrix_norm: dim must be a 2-tuple. Got {}", int_list_str(dim));
  for (int64_t& x : dim) x = ctx.wrap_dim(x, rank);
  if (dim[0] == dim[1]) ctx.fail("linalg.matrix_norm: dims must be different. Got ({}, {})", dim[0], dim[1]);
  check_norm_dtype(ctx, dtype, d, "linalg.matrix_norm");

  if (ord.is_str && ord.str == "fro") return vector_norm(ctx, a, (1u << dim[0]) | (1u << dim[1]), keepdim, dtype);
  if (!ord.is_str && abs_ord != 2.0) {
    // 1, -1, inf, -inf: a 1-norm over one dim, then the max / min over the other
    if (std::isinf(abs_ord)) std::swap(dim[0], dim[1]);
    if (!keepdim && dim[0] < dim[1]) --dim[1];
    const TensorId col = vector_norm(ctx, a, 1u << dim[0], keepdim, dtype);
    return max_min(ctx, col, dim[1], keepdim, ord.value > 0);
  }
  // 2, -2, nuc: singular values of A with the two dims moved last
  FixedVector<int64_t, kMaxRank> perm;
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim[0] && i != dim[1]) perm.push_back(i);
  perm.push_back(dim[0]);
  perm.push_back(dim[1]);
  const DType real = real_of(dtype.value_or(d));
  Dims sv;
  {
    const auto s = ctx.vals.sizes(a);
    for (size_t i = 0; i + 2 < perm.size(); ++i) sv.push_back(s[perm[i]]);
    sv.push_back(ar.min(s[dim[0]], s[dim[1]]));
  }
  const TensorId svals = ctx.new_contiguous(real, sv);
  TensorId result;
  if (ord.is_str) {  // nuc: sum(-1, keepdim)
    Dims out;
    reduced_shape(sv, 1u << (sv.size() - 1), keepdim, ar.one(), out);
    result = ctx.new_contiguous(real, out);
  } else {
    result = max_min(ctx, svals, -1, keepdim, ord.value > 0);
  }
  if (!keepdim) return result;
  // result.unsqueeze(-1).permute(inverse(perm))
  Dims sizes(ctx.vals.sizes(result)), strides(ctx.vals.strides(result));
  sizes.push_back(ar.one());
  strides.push_back(ar.one());
  Dims out_sizes, out_strides;
  out_sizes.resize(static_cast<size_t>(rank));
  out_strides.resize(static_cast<size_t>(rank));
  for (size_t i = 0; i < perm.size(); ++i) {
    out_sizes[static_cast<size_t>(perm[i])] = sizes[i];
    out_strides[static_cast<size_t>(perm[i])] = strides[i];
  }
  return ctx.new_view(result, out_sizes, out_strides, ctx.vals.tensor(result).storage_offset);
}

bool keepdim_at(PropContext& ctx, size_t i) { return !ctx.is_none(ctx.arg(i)) && ctx.bool_const(ctx.arg(i)); }

// linalg_matrix_norm(self, ord, dim=[-2, -1], keepdim=False, *, dtype=None) and
// linalg_matrix_norm.str_ord(self, ord='fro', ...)
void linalg_matrix_norm(PropContext& ctx, bool str_ord) {
  Ord ord;
  ord.is_str = str_ord;
  if (str_ord)
    ord.str = ctx.is_none(ctx.arg(1)) ? "fro" : ctx.string_arg(ctx.arg(1));
  else
    ord.value = ctx.float_const(ctx.arg(1));
  IntDims dim;
  if (ctx.is_none(ctx.arg(2))) {
    dim.push_back(-2);
    dim.push_back(-1);
  } else {
    ctx.int_list_const(ctx.arg(2), dim);
  }
  ctx.set_tensor(
      matrix_norm(ctx, ctx.tensor_arg(0), ord, dim, keepdim_at(ctx, 3), ctx.opt_dtype(ctx.kwarg(Key::dtype))));
}
void matrix_norm_scalar(PropContext& ctx) { linalg_matrix_norm(ctx, false); }
void matrix_norm_str(PropContext& ctx) { linalg_matrix_norm(ctx, true); }

// linalg_norm(self, ord=None, dim=None, keepdim=False, *, dtype=None) and
// linalg_norm.ord_str(self, ord, dim=None, keepdim=False, *, dtype=None)
void linalg_norm(PropContext& ctx, bool str_ord) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t rank = ctx.vals.rank(x);
  Ord ord;
  bool has_ord = str_ord || !ctx.is_none(ctx.arg(1));
  if (str_ord) {
    ord.is_str = true;
    ord.str = ctx.string_arg(ctx.arg(1));
  } else if (has_ord) {
    ord.value = ctx.float_const(ctx.arg(1));
  }
  const bool has_dim = !ctx.is_none(ctx.arg(2));
  IntDims dim;
  if (has_dim) ctx.int_list_const(ctx.arg(2), dim);
  const bool keepdim = keepdim_at(ctx, 3);
  const std::optional<DType> dtype = ctx.opt_dtype(ctx.kwarg(Key::dtype));
  if (has_dim) {
    if (dim.size() != 1 && dim.size() != 2)
      ctx.fail("linalg.norm: If dim is specified, it must be of length 1 or 2. Got {}", int_list_str(dim));
  } else if (has_ord && rank != 1 && rank != 2) {
    ctx.fail("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got {}D.", rank);
  }
  if (str_ord || (has_ord && ((has_dim && dim.size() == 2) || (!has_dim && rank == 2)))) {
    if (!has_dim) {
      dim.clear();
      dim.push_back(0);
      dim.push_back(1);
    }
    return ctx.set_tensor(matrix_norm(ctx, x, ord, dim, keepdim, dtype));
  }
  uint32_t mask = rank >= 32 ? ~0u : (1u << rank) - 1;
  if (has_dim) mask = dim_mask(ctx, dim.span(), rank);
  ctx.set_tensor(vector_norm(ctx, x, mask, keepdim, dtype));
}
void linalg_norm_scalar(PropContext& ctx) { linalg_norm(ctx, false); }
void linalg_norm_str(PropContext& ctx) { linalg_norm(ctx, true); }

constexpr OpRuleEntry kRules[] = {
    {"aten.linalg_norm.default", linalg_norm_scalar},
    {"aten.linalg_norm.ord_str", linalg_norm_str},
    {"aten.linalg_matrix_norm.default", matrix_norm_scalar},
    {"aten.linalg_matrix_norm.str_ord", matrix_norm_str},
};

}  // namespace

std::span<const OpRuleEntry> matrix_norm_rules() { return kRules; }

}  // namespace symshape
