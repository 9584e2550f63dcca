// Complex views and the FFT family (CPU):
// - real / imag / view_as_real / view_as_complex: views reinterpreting complex64 storage as
//   float32 pairs (and back), with PyTorch's checks;
// - polar / complex: TensorIterator ops of two real operands with a complex result;
// - fft_{fft,ifft,rfft,irfft,hfft,ihfft}, fft_{fft2,ifft2,rfft2,irfft2}, fft_{fftn,ifftn,rfftn,irfftn}
//   and the kernels _fft_c2c / _fft_r2c / _fft_c2r: aten/src/ATen/native/SpectralOps.cpp's front
//   end (canonicalize_fft_shape_and_dim_args, promote_tensor_fft, resize_fft_input,
//   norm_from_string) and the CPU kernels' output layout.
// The output layout depends on the FFT backend: PyTorch 2.x CPU wheels run MKL, whose
// `_exec_fft` (aten/src/ATen/native/mkl/SpectralOps.cpp) orders the batch dims first (by
// libstdc++'s std::partition, then std::sort by decreasing input stride) and the transformed
// dims after them, sorted by decreasing input stride (`_sort_dims`; an r2c transform keeps its
// last dim last), and restrides a contiguous batched output back. Debian's 1.13.1 has no MKL:
// its pocketfft kernels write contiguous outputs (ReferenceHost::eager_torch picks).
// complex128 / complex32 have no DType: a double or half input that would produce one is
// reported as unsupported (docs/propagation.md).
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

#include "core/error.h"
#include "prop/dtype_rules.h"
#include "prop/memory_format.h"
#include "prop/ops/elementwise_common.h"
#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

[[noreturn]] void unsupported_complex(std::string_view what, DType from) {
  throw_error(ErrorKind::Unsupported,
              fmt::format("{} of a {} tensor is {}, which is not modelled (no such dtype)", what, dtype_name(from),
                          from == DType::Float64 ? "complex128" : "complex32"));
}

// c10::toComplexType for the modelled real dtypes.
DType complex_of(std::string_view what, DType d) {
  if (d == DType::Float32) return DType::Complex64;
  unsupported_complex(what, d);
}

// The eager kernels of the reference: 2.x's MKL, or 1.13's pocketfft (contiguous outputs); the
// few front-end differences of the two releases (0-d inputs) follow the same switch.
bool mkl_layout(const PropContext& ctx) { return ctx.host.eager_torch.major >= 2; }

// ---- complex views ----------------------------------------------------------------------

// view_as_real's geometry: sizes + [2], strides * 2 + [1], offset * 2, the real dtype.
// `append` false gives real()'s select(-1, part) of it: the last dim dropped, offset + part.
TensorId real_view(PropContext& ctx, TensorId t, bool append, int64_t part) {
  ExprArena& ar = ctx.ar;
  Dims sizes(ctx.vals.sizes(t)), strides;
  for (ExprId s : ctx.vals.strides(t)) strides.push_back(ar.mul(ar.integer(2), s));
  ExprId offset = ar.mul(ar.integer(2), ctx.vals.tensor(t).storage_offset);
  if (append) {
    sizes.push_back(ar.integer(2));
    strides.push_back(ar.one());
  } else if (part != 0) {
    offset = ar.add(offset, ar.integer(part));
  }
  return ctx.new_view_dtype(t, DType::Float32, sizes, strides, offset);
}

void view_as_real(PropContext& ctx) {
  const TensorId t = ctx.tensor_arg(0);
  if (ctx.vals.dtype(t) != DType::Complex64) ctx.fail("view_as_real is only supported for complex tensors");
  ctx.set_tensor(real_view(ctx, t, true, 0));
}

// real(self): a complex tensor's real parts; a real tensor is returned itself.
void real(PropContext& ctx) {
  const TensorId t = ctx.tensor_arg(0);
  ctx.set_tensor(ctx.vals.dtype(t) == DType::Complex64 ? real_view(ctx, t, false, 0) : t);
}

void imag(PropContext& ctx) {
  const TensorId t = ctx.tensor_arg(0);
  if (ctx.vals.dtype(t) != DType::Complex64) ctx.fail("imag is not implemented for tensors with non-complex dtypes.");
  ctx.set_tensor(real_view(ctx, t, false, 1));
}

// view_as_complex(self): a (..., 2) half / float / double tensor with a unit last stride, even
// other strides and an even storage offset, viewed as (...) complex.
void view_as_complex(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId t = ctx.tensor_arg(0);
  const DType d = ctx.vals.dtype(t);
  if (d != DType::Float32 && d != DType::Float64 && d != DType::Float16)
    ctx.fail("view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: {}",
             scalar_type_name(d));
  const Dims sizes(ctx.vals.sizes(t)), strides(ctx.vals.strides(t));
  if (sizes.empty()) ctx.fail("Input tensor must have one or more dimensions");
  const size_t last = sizes.size() - 1;
  const ExprId two = ar.integer(2);
  if (!holds(ctx, ar.eq(sizes[last], two))) ctx.fail("Tensor must have a last dimension of size 2");
  if (!holds(ctx, ar.eq(strides[last], ar.one()))) ctx.fail("Tensor must have a last dimension with stride 1");
  Dims new_sizes, new_strides;
  for (size_t i = 0; i < last; ++i) {
    if (!holds(ctx, ar.eq(ar.mod(strides[i], two), ar.zero())))
      ctx.fail("Tensor must have a stride divisible by 2 for all but last dimension");
    new_sizes.push_back(sizes[i]);
    new_strides.push_back(ar.floordiv(strides[i], two));
  }
  const ExprId offset = ctx.vals.tensor(t).storage_offset;
  if (!holds(ctx, ar.eq(ar.mod(offset, two), ar.zero()))) ctx.fail("Tensor must have a storage_offset divisible by 2");
  const DType c = complex_of("view_as_complex", d);
  ctx.set_tensor(ctx.new_view_dtype(t, c, new_sizes, new_strides, ar.floordiv(offset, two)));
}

// polar(abs, angle) / complex(real, imag): complex_check_dtype, then a TensorIterator over the
// two operands writing the complex dtype of theirs.
template <bool Polar>
void complex_from_pair(PropContext& ctx) {
  const TensorId a = ctx.tensor_arg(0), b = ctx.tensor_arg(1);
  const DType da = ctx.vals.dtype(a), db = ctx.vals.dtype(b);
  auto ok = [](DType d) { return d == DType::Float16 || d == DType::Float32 || d == DType::Float64; };
  if (!ok(da) || !ok(db))
    ctx.fail("Expected both inputs to be Half, Float or Double tensors but got {} and {}", scalar_type_name(da),
             scalar_type_name(db));
  if (da != db)
    ctx.fail("Expected object of scalar type {} but got scalar type {} for second argument", scalar_type_name(da),
             scalar_type_name(db));
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  Dims shape, strides;
  pointwise_layout(ctx, ops, shape, strides);
  // the dispatch macro's error: a NotImplementedError in 2.x, a RuntimeError in 1.13
  if (Polar && da == DType::Float16)
    ctx.fail("{}\"polar_cpu\" not implemented for 'Half'", ctx.host.eager_torch.major >= 2 ? "NotImplementedError: " : "");
  const DType c = complex_of(Polar ? "polar" : "complex", da);
  ctx.set_tensor(ctx.new_tensor(c, shape, strides));
}

// ---- FFT kernels ----------------------------------------------------------------------------

// Strides of the eager clone(self) / empty_like(self) (preserve_format).
TensorId clone_preserve(PropContext& ctx, TensorId t, DType dtype) {
  Dims strides;
  empty_like_strides(ctx, t, MemoryFormat::Preserve, strides);
  return ctx.new_tensor(dtype, ctx.vals.sizes(t), strides);
}

// The comparison of libstdc++'s std::sort calls on the reference host: decreasing input stride.
struct StrideGreater {
  PropContext& ctx;
  std::span<const ExprId> strides;
  bool operator()(int64_t a, int64_t b) const {
    return decide(ctx, ctx.ar.gt(strides[static_cast<size_t>(a)], strides[static_cast<size_t>(b)]));
  }
};

// std::sort of at most 16 elements is libstdc++'s insertion sort: the comparisons (the
// guards) and the order of equal elements are that algorithm's.
void insertion_sort(int64_t* first, int64_t* last, const StrideGreater& comp) {
  if (first == last) return;
  for (int64_t* i = first + 1; i != last; ++i) {
    const int64_t v = *i;
    if (comp(v, *first)) {
      std::move_backward(first, i, i + 1);
      *first = v;
    } else {
      int64_t* j = i;
      while (comp(v, *(j - 1))) {
        *j = *(j - 1);
        --j;
      }
      *j = v;
    }
  }
}

// libstdc++'s std::partition over random-access iterators (the bidirectional algorithm:
// swaps from both ends, not stable); returns the partition point.
template <class Pred>
int64_t* partition_like_libstdcxx(int64_t* first, int64_t* last, Pred pred) {
  while (true) {
    while (true) {
      if (first == last) return first;
      if (pred(*first)) ++first;
      else break;
    }
    --last;
    while (true) {
      if (first == last) return first;
      if (!pred(*last)) --last;
      else break;
    }
    std::iter_swap(first, last);
    ++first;
  }
}

// _sort_dims(self, dim, exclude_last): the transformed dims by decreasing stride of `t` (MKL;
// pocketfft's contiguous output needs no order, so nothing is asked).
IntDims sort_dims(PropContext& ctx, TensorId t, const IntDims& dims, bool exclude_last) {
  IntDims sorted = dims;
  if (!mkl_layout(ctx)) return sorted;
  const Dims strides(ctx.vals.strides(t));
  const size_t end = sorted.size() - (exclude_last ? 1 : 0);
  insertion_sort(sorted.begin(), sorted.begin() + end, StrideGreater{ctx, strides});
  return sorted;
}

// _exec_fft(out, self, out_sizes, dim): the output of a transform of `in` over `dims` (in this
// order), sized `out_sizes`. MKL: batch dims first in decreasing stride order, collapsed into
// one batch of a contiguous (batch, signal...) output that is restrided back; pocketfft (1.13):
// a contiguous output.
TensorId exec_fft(PropContext& ctx, TensorId in, DType out_dtype, const Dims& out_sizes, const IntDims& dims) {
  ExprArena& ar = ctx.ar;
  const size_t ndim = out_sizes.size();
  if (!mkl_layout(ctx)) return ctx.new_contiguous(out_dtype, out_sizes);
  bool transformed[kMaxRank] = {};
  for (int64_t d : dims) transformed[d] = true;
  IntDims perm;
  for (size_t i = 0; i < ndim; ++i) perm.push_back(static_cast<int64_t>(i));
  int64_t* batch_end =
      partition_like_libstdcxx(perm.begin(), perm.begin() + ndim, [&](int64_t d) { return !transformed[d]; });
  const Dims in_strides(ctx.vals.strides(in));
  insertion_sort(perm.begin(), batch_end, StrideGreater{ctx, in_strides});
  const size_t batch_dims = static_cast<size_t>(batch_end - perm.begin());
  std::copy(dims.begin(), dims.end(), batch_end);
  // the batch collapses to one MKL dimension: DFTI refuses zero transforms
  const auto in_sizes = ctx.vals.sizes(in);
  ExprId batch = ar.one();
  for (size_t i = 0; i < batch_dims; ++i) batch = ar.mul(batch, in_sizes[static_cast<size_t>(perm[i])]);
  if (batch_dims > 0 && ctx.guard(ar.eq(batch, ar.zero())))
    ctx.fail("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration parameters");
  Dims batched, batched_strides;
  batched.push_back(batch);
  for (int64_t d : dims) batched.push_back(out_sizes[static_cast<size_t>(d)]);
  ctx.contiguous_strides(batched, batched_strides);
  Dims out_strides(out_sizes);  // every entry is overwritten
  ExprId batch_numel = ar.one();
  for (size_t i = batch_dims; i-- > 0;) {
    const size_t d = static_cast<size_t>(perm[i]);
    out_strides[d] = ar.mul(batch_numel, batched_strides[0]);
    batch_numel = ar.mul(batch_numel, out_sizes[d]);
  }
  for (size_t i = batch_dims; i < ndim; ++i) out_strides[static_cast<size_t>(perm[i])] = batched_strides[1 + i - batch_dims];
  return ctx.new_tensor(out_dtype, out_sizes, out_strides);
}

// _fft_c2c: `dims` empty is a clone (MKL; pocketfft writes a contiguous copy).
TensorId c2c_kernel(PropContext& ctx, TensorId in, const IntDims& dims) {
  const DType dt = ctx.vals.dtype(in);
  if (dims.empty()) return mkl_layout(ctx) ? clone_preserve(ctx, in, dt) : ctx.new_contiguous(dt, ctx.vals.sizes(in));
  const Dims sizes(ctx.vals.sizes(in));
  return exec_fft(ctx, in, dt, sizes, sort_dims(ctx, in, dims, false));
}

// _fft_r2c: the last transformed dim keeps n // 2 + 1 entries when onesided.
TensorId r2c_kernel(PropContext& ctx, TensorId in, const IntDims& dims, bool onesided) {
  ExprArena& ar = ctx.ar;
  const DType out_dtype = complex_of("an FFT", ctx.vals.dtype(in));
  Dims out_sizes(ctx.vals.sizes(in));
  if (onesided) {
    const size_t last = static_cast<size_t>(dims[dims.size() - 1]);
    out_sizes[last] = ar.add(ar.floordiv(out_sizes[last], ar.integer(2)), ar.one());
  }
  return exec_fft(ctx, in, out_dtype, out_sizes, sort_dims(ctx, in, dims, true));
}

// _fft_c2r: MKL runs the leading dims as a c2c transform first, then a 1-d c2r over the last.
TensorId c2r_kernel(PropContext& ctx, TensorId in, IntDims dims, ExprId last_dim_size) {
  if (mkl_layout(ctx) && dims.size() > 1) {
    IntDims c2c_dims = dims;
    c2c_dims.pop_back();
    in = c2c_kernel(ctx, in, c2c_dims);
    const int64_t last = dims.back();
    dims.clear();
    dims.push_back(last);
  }
  Dims out_sizes(ctx.vals.sizes(in));
  out_sizes[static_cast<size_t>(dims.back())] = last_dim_size;
  return exec_fft(ctx, in, DType::Float32, out_sizes, dims);
}

// ---- the front end (SpectralOps.cpp) ----------------------------------------------------------

// maybe_wrap_dim(dim, ndim, /*wrap_scalar=*/false). 1.13 wrapped a 0-d tensor's dim as a
// scalar's and then read a size of 0 there: the number of points is refused (2 * (0 - 1) for
// the c2r transforms).
int64_t wrap_fft_dim(PropContext& ctx, int64_t dim, int64_t rank, int64_t points_of_scalar = 0) {
  if (rank == 0) {
    if (mkl_layout(ctx)) ctx.fail("IndexError: Dimension specified as {} but tensor has no dimensions", dim);
    ctx.wrap_dim(dim, rank);
    ctx.fail("Invalid number of data points ({}) specified", points_of_scalar);
  }
  return ctx.wrap_dim(dim, rank);
}

// promote_tensor_fft: integers and bool become float32 (the default dtype); only float and
// double are transformed on CPU; require_complex turns them into their complex type (t.to()).
TensorId promote_fft(PropContext& ctx, TensorId t, bool require_complex) {
  const DType from = ctx.vals.dtype(t);
  if (from == DType::Complex64) return t;
  DType d = is_floating(from) ? from : DType::Float32;
  if (d != DType::Float32 && d != DType::Float64) ctx.fail("Unsupported dtype {}", scalar_type_name(d));
  if (require_complex) d = complex_of("an FFT", d);
  return d == from ? t : clone_preserve(ctx, t, d);
}

// norm_from_string: None, "backward", "forward" or "ortho".
void check_norm(PropContext& ctx, ArgId norm) {
  if (ctx.is_none(norm)) return;
  const std::string_view n = ctx.string_arg(norm);
  if (n != "backward" && n != "forward" && n != "ortho") ctx.fail("Invalid normalization mode: \"{}\"", n);
}

// resize_fft_input(x, dims, sizes): dims longer than wanted are sliced from 0, shorter ones
// zero-padded at the end (one constant_pad_nd, laid out in the sliced input's suggested format).
TensorId resize_fft_input(PropContext& ctx, TensorId x, const IntDims& dims, const Dims& sizes) {
  ExprArena& ar = ctx.ar;
  const Dims x_sizes(ctx.vals.sizes(x));
  bool must_copy = false;
  Dims padded(x_sizes);
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = static_cast<size_t>(dims[i]);
    if (ctx.guard(ar.lt(x_sizes[d], sizes[i]))) {
      must_copy = true;
      padded[d] = sizes[i];
    }
    if (ctx.guard(ar.gt(x_sizes[d], sizes[i]))) {
      x = slice_tensor(ctx, x, d, ar.zero(), sizes[i], ar.one());
      padded[d] = sizes[i];
    }
  }
  if (!must_copy) return x;
  Dims strides;
  format_strides(ctx, padded, suggest_memory_format(ctx, x), strides);
  return ctx.new_tensor(ctx.vals.dtype(x), padded, strides);
}

void check_points(PropContext& ctx, ExprId n) {
  if (!holds(ctx, ctx.ar.ge(n, ctx.ar.one()))) ctx.fail("Invalid number of data points ({}) specified", ctx.str(n));
}

// canonicalize_fft_shape_and_dim_args: wrapped unique dims and the signal shape (s, -1 meaning
// the input's size; by default the last len(s) dims, or every dim).
struct ShapeAndDims {
  Dims shape;
  IntDims dim;
};

// `s` and `dim_raw` null when not given.
ShapeAndDims canonicalize(PropContext& ctx, TensorId x, const Dims* s, const IntDims* dim_raw) {
  ExprArena& ar = ctx.ar;
  const int64_t rank = ctx.vals.rank(x);
  const Dims sizes(ctx.vals.sizes(x));
  ShapeAndDims r;
  if (dim_raw) {
    for (int64_t d : *dim_raw) r.dim.push_back(wrap_fft_dim(ctx, d, rank));
    IntDims copy = r.dim;
    std::sort(copy.begin(), copy.end());
    if (std::adjacent_find(copy.begin(), copy.end()) != copy.end()) ctx.fail("FFT dims must be unique");
  }
  if (s) {
    if (dim_raw && r.dim.size() != s->size()) ctx.fail("When given, dim and shape arguments must have the same length");
    if (static_cast<int64_t>(s->size()) > rank)
      ctx.fail("Got shape with {} values but input tensor only has {} dimensions.", s->size(), rank);
    if (!dim_raw)
      for (int64_t d = rank - static_cast<int64_t>(s->size()); d < rank; ++d) r.dim.push_back(d);
    for (size_t i = 0; i < s->size(); ++i) {
      const ExprId n = (*s)[i];
      r.shape.push_back(ctx.guard(ar.eq(n, ar.integer(-1))) ? sizes[static_cast<size_t>(r.dim[i])] : n);
    }
  } else if (!dim_raw) {
    for (int64_t d = 0; d < rank; ++d) r.dim.push_back(d);
    r.shape.assign(sizes);
  } else {
    for (int64_t d : r.dim) r.shape.push_back(sizes[static_cast<size_t>(d)]);
  }
  for (ExprId n : r.shape) check_points(ctx, n);
  return r;
}

template <class T>
FixedVector<T, kMaxRank> one(T v) {
  FixedVector<T, kMaxRank> r;
  r.push_back(v);
  return r;
}

std::optional<ExprId> opt_int_expr(PropContext& ctx, ArgId a) {
  if (ctx.is_none(a)) return std::nullopt;
  return ctx.int_expr(a);
}

// The one-dimensional transforms' arguments: (self, n=None, dim=-1, norm=None).
struct Args1d {
  std::optional<ExprId> n;
  int64_t dim;
  ArgId norm;
};

Args1d args_1d(PropContext& ctx) {
  Args1d a;
  a.n = opt_int_expr(ctx, ctx.arg_or_kwarg(1, "n"));
  const ArgId d = ctx.arg_or_kwarg(2, "dim");
  a.dim = ctx.is_none(d) ? -1 : ctx.int_const(d);
  a.norm = ctx.arg_or_kwarg(3, "norm");
  return a;
}

// fft_c2c: a complex input, n points along one dim.
TensorId fft_c2c_1d(PropContext& ctx, TensorId x, const Args1d& a) {
  const int64_t d = wrap_fft_dim(ctx, a.dim, ctx.vals.rank(x));
  const ExprId n = a.n ? *a.n : ctx.vals.sizes(x)[static_cast<size_t>(d)];
  check_points(ctx, n);
  const IntDims dims = one(d);
  if (a.n) x = resize_fft_input(ctx, x, dims, one(n));
  check_norm(ctx, a.norm);
  return c2c_kernel(ctx, x, dims);
}

// fft_r2c: a real input (a backward transform is the conjugate of the forward one: same layout).
TensorId fft_r2c_1d(PropContext& ctx, std::string_view fname, TensorId x, const Args1d& a, bool onesided) {
  if (ctx.vals.dtype(x) == DType::Complex64)
    ctx.fail("{} expects a real input tensor, but got {}", fname, scalar_type_name(DType::Complex64));
  x = promote_fft(ctx, x, false);
  const int64_t d = wrap_fft_dim(ctx, a.dim, ctx.vals.rank(x));
  const ExprId n = a.n ? *a.n : ctx.vals.sizes(x)[static_cast<size_t>(d)];
  check_points(ctx, n);
  const IntDims dims = one(d);
  if (a.n) x = resize_fft_input(ctx, x, dims, one(n));
  check_norm(ctx, a.norm);
  return r2c_kernel(ctx, x, dims, onesided);
}

// fft_c2r: a Hermitian half-signal in, n (default 2 * (size - 1)) real points out. The forward
// transform (hfft) conjugates its input, which the dispatcher materialises as a clone.
TensorId fft_c2r_1d(PropContext& ctx, TensorId x, const Args1d& a, bool forward) {
  ExprArena& ar = ctx.ar;
  x = promote_fft(ctx, x, true);
  const int64_t d = wrap_fft_dim(ctx, a.dim, ctx.vals.rank(x), -2);
  const ExprId n = a.n ? *a.n : ar.mul(ar.integer(2), ar.sub(ctx.vals.sizes(x)[static_cast<size_t>(d)], ar.one()));
  check_points(ctx, n);
  const IntDims dims = one(d);
  if (a.n) x = resize_fft_input(ctx, x, dims, one(ar.add(ar.floordiv(n, ar.integer(2)), ar.one())));
  check_norm(ctx, a.norm);
  if (forward) x = clone_preserve(ctx, x, ctx.vals.dtype(x));
  return c2r_kernel(ctx, x, dims, n);
}

// fft / ifft: complex inputs c2c, real ones a two-sided r2c.
void fft_fft(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const Args1d a = args_1d(ctx);
  const bool ifft = ctx.target() == "aten.fft_ifft.default";
  ctx.set_tensor(ctx.vals.dtype(x) == DType::Complex64 ? fft_c2c_1d(ctx, x, a)
                                                        : fft_r2c_1d(ctx, ifft ? "ifft" : "fft", x, a, false));
}

void fft_rfft(PropContext& ctx) {
  const bool ihfft = ctx.target() == "aten.fft_ihfft.default";
  ctx.set_tensor(fft_r2c_1d(ctx, ihfft ? "ihfft" : "rfft", ctx.tensor_arg(0), args_1d(ctx), true));
}

void fft_irfft(PropContext& ctx) {
  const bool hfft = ctx.target() == "aten.fft_hfft.default";
  ctx.set_tensor(fft_c2r_1d(ctx, ctx.tensor_arg(0), args_1d(ctx), hfft));
}

// The n-dimensional transforms' (self, s=None, dim=None, norm=None); the 2-d ones have
// dim=[-2, -1] (not optional).
struct ArgsNd {
  std::optional<Dims> s;
  std::optional<IntDims> dim;
  ArgId norm;
};

ArgsNd args_nd(PropContext& ctx, bool two_d) {
  ArgsNd a;
  const ArgId s = ctx.arg_or_kwarg(1, "s"), dim = ctx.arg_or_kwarg(2, "dim");
  if (!ctx.is_none(s)) ctx.int_list(s, a.s.emplace());
  if (!ctx.is_none(dim)) ctx.int_list_const(dim, a.dim.emplace());
  else if (two_d) {
    a.dim.emplace().push_back(-2);
    a.dim->push_back(-1);
  }
  a.norm = ctx.arg_or_kwarg(3, "norm");
  return a;
}

ShapeAndDims canonicalize_nd(PropContext& ctx, TensorId x, const ArgsNd& a) {
  return canonicalize(ctx, x, a.s ? &*a.s : nullptr, a.dim ? &*a.dim : nullptr);
}

// fftn / ifftn / fft2 / ifft2: c2c over the canonical dims of the promoted, resized input.
void fft_fftn(PropContext& ctx) {
  const std::string_view t = ctx.target();
  const ArgsNd a = args_nd(ctx, t == "aten.fft_fft2.default" || t == "aten.fft_ifft2.default");
  TensorId x = ctx.tensor_arg(0);
  if (!mkl_layout(ctx) && ctx.vals.rank(x) == 0 && !a.s && !a.dim)
    ctx.fail("ndim must be >= 1");  // 1.13: no transform of a 0-d tensor
  const ShapeAndDims desc = canonicalize_nd(ctx, x, a);
  x = promote_fft(ctx, x, true);
  x = resize_fft_input(ctx, x, desc.dim, desc.shape);
  check_norm(ctx, a.norm);
  ctx.set_tensor(c2c_kernel(ctx, x, desc.dim));
}

// rfftn / rfft2: a onesided r2c.
void fft_rfftn(PropContext& ctx) {
  const ArgsNd a = args_nd(ctx, ctx.target() == "aten.fft_rfft2.default");
  TensorId x = ctx.tensor_arg(0);
  if (ctx.vals.dtype(x) == DType::Complex64)
    ctx.fail("rfftn expects a real-valued input tensor, but got {}", scalar_type_name(DType::Complex64));
  const ShapeAndDims desc = canonicalize_nd(ctx, x, a);
  if (desc.shape.empty()) ctx.fail("rfftn must transform at least one axis");
  x = promote_fft(ctx, x, false);
  x = resize_fft_input(ctx, x, desc.dim, desc.shape);
  check_norm(ctx, a.norm);
  ctx.set_tensor(r2c_kernel(ctx, x, desc.dim, true));
}

// irfftn / irfft2: the last dim's output size is s[-1], or 2 * (size - 1) when s is not given
// or its last entry is -1; the input is resized to n // 2 + 1 there.
void fft_irfftn(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const ArgsNd a = args_nd(ctx, ctx.target() == "aten.fft_irfft2.default");
  TensorId x = ctx.tensor_arg(0);
  ShapeAndDims desc = canonicalize_nd(ctx, x, a);
  if (desc.shape.empty()) ctx.fail("irfftn must transform at least one axis");
  const bool default_last = !a.s || ctx.guard(ar.eq((*a.s)[a.s->size() - 1], ar.integer(-1)));
  const ExprId last_dim_size =
      default_last ? ar.mul(ar.integer(2), ar.sub(ctx.vals.sizes(x)[static_cast<size_t>(desc.dim.back())], ar.one()))
                   : desc.shape.back();
  check_points(ctx, last_dim_size);
  desc.shape.back() = ar.add(ar.floordiv(last_dim_size, ar.integer(2)), ar.one());
  x = promote_fft(ctx, x, true);
  x = resize_fft_input(ctx, x, desc.dim, desc.shape);
  check_norm(ctx, a.norm);
  ctx.set_tensor(c2r_kernel(ctx, x, desc.dim, last_dim_size));
}

// The kernels themselves (decomposed graphs): _fft_c2c(self, dim, normalization, forward),
// _fft_r2c(self, dim, normalization, onesided), _fft_c2r(self, dim, normalization, last_dim_size).
IntDims kernel_dims(PropContext& ctx, TensorId x) {
  IntDims raw, dims;
  ctx.int_list_const(ctx.arg(1), raw);
  for (int64_t d : raw) dims.push_back(wrap_fft_dim(ctx, d, ctx.vals.rank(x)));
  return dims;
}

void fft_c2c_kernel(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  if (ctx.vals.dtype(x) != DType::Complex64) ctx.fail("Expected self.is_complex() to be true, but got false.");
  ctx.set_tensor(c2c_kernel(ctx, x, kernel_dims(ctx, x)));
}

void fft_r2c_kernel(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  if (!is_floating(ctx.vals.dtype(x))) ctx.fail("Expected self.is_floating_point() to be true, but got false.");
  const IntDims dims = kernel_dims(ctx, x);
  if (dims.empty()) ctx.fail("_fft_r2c must transform at least one dim");
  ctx.set_tensor(r2c_kernel(ctx, x, dims, ctx.bool_const(ctx.arg(3))));
}

void fft_c2r_kernel(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  if (ctx.vals.dtype(x) != DType::Complex64) ctx.fail("Expected self.is_complex() to be true, but got false.");
  const IntDims dims = kernel_dims(ctx, x);
  if (dims.empty()) ctx.fail("_fft_c2r must transform at least one dim");
  ctx.set_tensor(c2r_kernel(ctx, x, dims, ctx.int_expr(ctx.arg(3))));
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.real.default", real},
    {"aten.imag.default", imag},
    {"aten.view_as_real.default", view_as_real},
    {"aten.view_as_complex.default", view_as_complex},
    {"aten.polar.default", complex_from_pair<true>},
    {"aten.complex.default", complex_from_pair<false>},
    {"aten.fft_fft.default", fft_fft},
    {"aten.fft_ifft.default", fft_fft},
    {"aten.fft_rfft.default", fft_rfft},
    {"aten.fft_ihfft.default", fft_rfft},
    {"aten.fft_irfft.default", fft_irfft},
    {"aten.fft_hfft.default", fft_irfft},
    {"aten.fft_fft2.default", fft_fftn},
    {"aten.fft_ifft2.default", fft_fftn},
    {"aten.fft_fftn.default", fft_fftn},
    {"aten.fft_ifftn.default", fft_fftn},
    {"aten.fft_rfft2.default", fft_rfftn},
    {"aten.fft_rfftn.default", fft_rfftn},
    {"aten.fft_irfft2.default", fft_irfftn},
    {"aten.fft_irfftn.default", fft_irfftn},
    {"aten._fft_c2c.default", fft_c2c_kernel},
    {"aten._fft_r2c.default", fft_r2c_kernel},
    {"aten._fft_c2r.default", fft_c2r_kernel},
};

}  // namespace

std::span<const OpRuleEntry> complex_fft_rules() { return kEntries; }

}  // namespace symshape
