// Matrix products (semantics.md H.14) as eager 1.13 runs them on CPU: mm / bmm / mv /
// dot and the add* variants with their meta checks and messages, and matmul / linear
// decomposed exactly like at::matmul (dot, mv, mm, the batch-folding mm/mv path when
// should_fold allows it, else expand + bmm) so that errors come from the same kernel.
// Every product allocates a fresh contiguous result. matmul_rules() concatenates the
// family's tables.
#include <algorithm>
#include <vector>

#include "prop/dtype_rules.h"
#include "prop/fake_elementwise_questions.h"
#include "prop/ops/matmul_family.h"
#include "prop/shape_helpers.h"

namespace symshape {

// prop/ops/view_geometry.h (not included: its holds() clashes with matmul_family.h's)
bool reshape_view_helper_guards(PropContext& ctx, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                std::span<const ExprId> shape, Dims* fake_strides, Dims* fake_sizes = nullptr);
TensorId reshape_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> shape);
TensorId expand_tensor(PropContext& ctx, TensorId t, std::span<const ExprId> target);
TensorId unsqueeze_tensor(PropContext& ctx, TensorId t, size_t d);

namespace mm {

namespace {

std::string_view cpp_dtype(DType d) {
  switch (d) {
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Int8: return "signed char";
    case DType::UInt8: return "unsigned char";
    case DType::Int16: return "short int";
    case DType::Int32: return "int";
    case DType::Int64: return "long int";
    case DType::Bool: return "bool";
    case DType::Complex64: return "c10::complex<float>";
  }
  return "?";
}

void same_dtype(PropContext& ctx, TensorId a, TensorId b, const char* what) {
  const DType da = ctx.vals.dtype(a), db = ctx.vals.dtype(b);
  if (da != db) ctx.fail("expected {} to have the same dtype, but got: {} != {}", what, cpp_dtype(da), cpp_dtype(db));
}

std::span<const ExprId> sizes(PropContext& ctx, TensorId t) { return ctx.vals.sizes(t); }

// Tensor::t(): rank <= 2.
TensorId t_2d(PropContext& ctx, TensorId t) {
  const size_t n = ctx.vals.rank(t);
  if (n > 2) ctx.fail("t() expects a tensor with <= 2 dimensions, but self is {}D", n);
  return n < 2 ? t : transposed_last2(ctx, t);
}

TensorId contiguous_result(PropContext& ctx, DType dtype, std::span<const ExprId> shape) {
  return ctx.new_contiguous(dtype, shape);
}

// A product computed on folded rows and viewed back to `shape` (_unsafe_view of a
// contiguous mm / bmm result): its strides are the view's, products of the raw sizes.
TensorId viewed_result(PropContext& ctx, DType dtype, std::span<const ExprId> shape) {
  Dims strides;
  ctx.view_contiguous_strides(shape, strides);
  return ctx.new_tensor(dtype, shape, strides);
}

// common_checks_baddbmm_bmm: (b, n, k) x (b, k, m) -> (b, n, m)
TensorId bmm(PropContext& ctx, TensorId a, TensorId b) {
  ExprArena& ar = ctx.ar;
  if (ctx.vals.rank(a) != 3) ctx.fail("batch1 must be a 3D tensor");
  if (ctx.vals.rank(b) != 3) ctx.fail("batch2 must be a 3D tensor");
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  if (!holds(ctx, ar.logical_and(ar.eq(sb[0], sa[0]), ar.eq(sb[1], sa[2]))))
    ctx.fail("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
             ctx.str(sa[0]), ctx.str(sa[2]), ctx.str(sb[0]), ctx.str(sb[1]));
  same_dtype(ctx, a, b, "batch1 and batch2");
  const ExprId shape[] = {sa[0], sa[1], sb[2]};
  return contiguous_result(ctx, ctx.vals.dtype(b), shape);
}

// The matmul-compatibility message shared by mm and addmm.
void check_mm_shapes(PropContext& ctx, TensorId a, TensorId b) {
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  if (!holds(ctx, ctx.ar.eq(sa[1], sb[0])))
    ctx.fail("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", ctx.str(sa[0]), ctx.str(sa[1]),
             ctx.str(sb[0]), ctx.str(sb[1]));
}

// expand_size(self, target) then the addmm checks: mat1 (n, k) x mat2 (k, m) + self.
TensorId addmm(PropContext& ctx, TensorId self, TensorId a, TensorId b) {
  if (ctx.vals.rank(a) != 2) ctx.fail("mat1 must be a matrix, got {}-D tensor", ctx.vals.rank(a));
  if (ctx.vals.rank(b) != 2) ctx.fail("mat2 must be a matrix, got {}-D tensor", ctx.vals.rank(b));
  check_mm_shapes(ctx, a, b);
  if (ctx.vals.dtype(self) != ctx.vals.dtype(b)) ctx.fail("self and mat2 must have the same dtype");
  if (ctx.vals.dtype(a) != ctx.vals.dtype(b)) ctx.fail("mat1 and mat2 must have the same dtype");
  const ExprId shape[] = {sizes(ctx, a)[0], sizes(ctx, b)[1]};
  check_expand(ctx, sizes(ctx, self), shape);
  return contiguous_result(ctx, ctx.vals.dtype(a), shape);
}

// should_fold (1.13): a >= 3-d operand times a vector / matrix folds its batch into the
// rows of one mm, unless it is a (b, n, k) tensor whose last two dims are transposed
// (then bmm with transposed GEMMs avoids a copy).
bool should_fold(PropContext& ctx, TensorId t1, size_t dim2) {
  ExprArena& ar = ctx.ar;
  const size_t dim1 = ctx.vals.rank(t1);
  if (dim1 < 3 || (dim2 != 1 && dim2 != 2)) return false;
  if (dim1 == 3 && dim2 == 2) {
    const auto s = sizes(ctx, t1);
    const auto st = ctx.vals.strides(t1);
    if (ctx.guard(ar.ne(st[2], ar.one())) && ctx.guard(ar.eq(st[0], ar.mul(s[1], s[2])))) return false;
  }
  return true;
}

// The folding branch of _matmul_impl: t1 (..., k) @ t2 (k[, m]) as one mm / mv, the
// result viewed back (and, for 2-d @ >=3-d, transposed then made contiguous).
TensorId matmul_fold(PropContext& ctx, TensorId a, TensorId b) {
  ExprArena& ar = ctx.ar;
  const size_t da = ctx.vals.rank(a), db = ctx.vals.rank(b);
  const bool transpose = db > da;
  const TensorId t1 = transpose ? transposed_last2(ctx, b) : a;
  const TensorId t2 = !transpose ? b : (da == 2 ? t_2d(ctx, a) : a);
  const auto s1 = sizes(ctx, t1);
  Dims out(s1.first(s1.size() - 1));
  const ExprId folded = ar.mul(std::span<const ExprId>(out));
  const ExprId f1[] = {folded, s1.back()};
  const TensorId t1_folded = ctx.new_contiguous(ctx.vals.dtype(t1), f1);
  const bool t2_matrix = ctx.vals.rank(t2) == 2;
  if (t2_matrix) {
    mm(ctx, t1_folded, t2);
    out.push_back(sizes(ctx, t2)[1]);
    if (transpose) std::swap(out[out.size() - 1], out[out.size() - 2]);
  } else {
    mv(ctx, t1_folded, t2);
  }
  // the transposed case is made contiguous after the view: a new tensor
  return transpose ? contiguous_result(ctx, ctx.vals.dtype(a), out) : viewed_result(ctx, ctx.vals.dtype(a), out);
}

// The general branch: broadcast batch dims, expand + reshape both to 3-d, bmm. `batch_2x`:
// 2.x's broadcast batch when its questions ran (the same values; a size guarded == 1 is a
// literal 1 there), else eager's infer_size.
TensorId matmul_bmm(PropContext& ctx, TensorId a, TensorId b, const Dims* batch_2x) {
  ExprArena& ar = ctx.ar;
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  const size_t da = sa.size(), db = sb.size();
  const ExprId n = da > 1 ? sa[da - 2] : ar.one();
  const ExprId m1 = sa[da - 1];
  const ExprId m2 = db > 1 ? sb[db - 2] : sb[0];
  const ExprId p = db > 1 ? sb[db - 1] : ar.one();
  Dims batch;
  if (batch_2x)
    batch = *batch_2x;
  else
    broadcast_shapes(ctx, sa.first(da > 2 ? da - 2 : 0), sb.first(db > 2 ? db - 2 : 0), batch);
  const ExprId bprod = ar.mul(std::span<const ExprId>(batch));
  const ExprId e1[] = {bprod, n, m1}, e2[] = {bprod, m2, p};
  bmm(ctx, ctx.new_contiguous(ctx.vals.dtype(a), e1), ctx.new_contiguous(ctx.vals.dtype(b), e2));
  Dims out(batch);
  if (da > 1) out.push_back(n);
  if (db > 1) out.push_back(p);
  return viewed_result(ctx, ctx.vals.dtype(a), out);
}

}  // namespace

void check_expand(PropContext& ctx, std::span<const ExprId> s, std::span<const ExprId> target) {
  ExprArena& ar = ctx.ar;
  if (s.size() > target.size())
    ctx.fail("expand(torch.FloatTensor{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to "
             "the number of dimensions in the tensor ({})",
             ctx.shape_str(s), ctx.shape_str(target), target.size(), s.size());
  const size_t off = target.size() - s.size();
  for (size_t i = 0; i < s.size(); ++i) {
    if (ctx.guard_or_false(ar.eq(s[i], ar.one()))) continue;
    if (!holds(ctx, ar.eq(s[i], target[off + i])))
      ctx.fail("The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  "
               "Target sizes: {}.  Tensor sizes: {}",
               ctx.str(target[off + i]), ctx.str(s[i]), off + i, ctx.shape_str(target), ctx.shape_str(s));
  }
}

TensorId transposed_last2(PropContext& ctx, TensorId t) {
  Dims s(ctx.vals.sizes(t)), st(ctx.vals.strides(t));
  const size_t n = s.size();
  if (n >= 2) {
    std::swap(s[n - 1], s[n - 2]);
    std::swap(st[n - 1], st[n - 2]);
  }
  return ctx.new_view(t, s, st, ctx.vals.tensor(t).storage_offset);
}

TensorId mm(PropContext& ctx, TensorId a, TensorId b) {
  if (ctx.vals.rank(a) != 2) ctx.fail("self must be a matrix");
  if (ctx.vals.rank(b) != 2) ctx.fail("mat2 must be a matrix");
  check_mm_shapes(ctx, a, b);
  same_dtype(ctx, a, b, "m1 and m2");
  const ExprId shape[] = {sizes(ctx, a)[0], sizes(ctx, b)[1]};
  return contiguous_result(ctx, ctx.vals.dtype(a), shape);
}

// at::mv = addmv_(empty(n), mat, vec, 0, 1): the addmv meta checks.
TensorId mv(PropContext& ctx, TensorId a, TensorId v) {
  const size_t ra = ctx.vals.rank(a), rv = ctx.vals.rank(v);
  if (ra != 2 || rv != 1) ctx.fail("vector + matrix @ vector expected, got 1, {}, {}", ra, rv);
  const auto sa = sizes(ctx, a), sv = sizes(ctx, v);
  if (!holds(ctx, ctx.ar.eq(sa[1], sv[0])))
    ctx.fail("size mismatch, got {}, {}x{},{}", ctx.str(sa[0]), ctx.str(sa[0]), ctx.str(sa[1]), ctx.str(sv[0]));
  same_dtype(ctx, a, v, "m1 and m2");
  const ExprId shape[] = {sa[0]};
  return contiguous_result(ctx, ctx.vals.dtype(v), shape);
}

TensorId dot(PropContext& ctx, TensorId a, TensorId b) {
  const size_t ra = ctx.vals.rank(a), rb = ctx.vals.rank(b);
  if (ra != 1 || rb != 1) ctx.fail("1D tensors expected, but got {}D and {}D tensors", ra, rb);
  if (ctx.vals.dtype(a) != ctx.vals.dtype(b))
    ctx.fail("dot : expected both vectors to have same dtype, but found {} and {}", scalar_type_name(ctx.vals.dtype(a)),
             scalar_type_name(ctx.vals.dtype(b)));
  const ExprId na = sizes(ctx, a)[0], nb = sizes(ctx, b)[0];
  if (!holds(ctx, ctx.ar.eq(na, nb)))
    ctx.fail("inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got "
             "{} and {} elements respectively",
             ctx.str(na), ctx.str(nb), ctx.str(na), ctx.str(nb));
  return contiguous_result(ctx, ctx.vals.dtype(a), {});
}

namespace {

// decompositions.py should_fold (2.x), for operands that do not require grad (the graphs'
// parameters are plain tensors there): the larger operand folds when it is contiguous, each
// dim tested with guard_or_false (`size == 1` or `stride == expected`), in order.
bool should_fold_2x(PropContext& ctx, TensorId a, TensorId b) {
  ExprArena& ar = ctx.ar;
  const size_t da = ctx.vals.rank(a), db = ctx.vals.rank(b);
  const TensorId t1 = da >= db ? a : b;
  const size_t r1 = ctx.vals.rank(t1), r2 = std::min(da, db);
  if (!(r1 >= 3 && r2 <= 2) || da == 2) return false;
  const Dims s(sizes(ctx, t1)), st(ctx.vals.strides(t1));
  if (ctx.guard_or_false(ar.eq(numel(ctx, s), ar.zero()))) return true;
  Dims expected;
  expected.resize(r1);
  ExprId run = ar.one();
  for (size_t i = r1; i-- > 0;) {
    expected[i] = run;
    run = ar.mul(s[i], run);
  }
  for (size_t i = 0; i < r1; ++i)
    if (!ctx.guard_or_false(ar.eq(s[i], ar.one())) && !ctx.guard_or_false(ar.eq(st[i], expected[i]))) return false;
  return true;
}

// The questions of 2.x's matmul for a >= 3-d operand (torch/_decomp/decompositions.py
// matmul, the CompositeImplicitAutograd py_impl that export and Dynamo run): should_fold, then
// either the folded operand's reshape and the `_unsafe_view` of the mm / mv result, or the
// batch broadcast, both operands' expand + reshape to 3-d and the view of the bmm result.
// Guards, and when the batch branch ran (false when the operand folded) the broadcast batch
// in `batch_out` (torch.broadcast_shapes, refs' _broadcast_shapes, keeps a literal 1 for a
// batch size guarded == 1 where eager keeps the size) and in `fake_strides` the result's
// strides as FakeTensorMode forms them (the view of bmm's dense result). The layout stays
// eager's (matmul_fold / matmul_bmm) unless those forms are asked for.
bool matmul_2x_questions(PropContext& ctx, TensorId a, TensorId b, Dims& batch_out, Dims& fake_strides) {
  ExprArena& ar = ctx.ar;
  const size_t da = ctx.vals.rank(a), db = ctx.vals.rank(b);
  if (should_fold_2x(ctx, a, b)) {
    const bool transpose = db > da;
    const TensorId t1 = transpose ? transposed_last2(ctx, b) : a;
    const TensorId t2 = !transpose ? b : (da == 2 ? t_2d(ctx, a) : a);
    const Dims s1(sizes(ctx, t1));
    Dims out(std::span<const ExprId>(s1).first(s1.size() - 1));
    const ExprId folded[] = {ar.mul(std::span<const ExprId>(out)), s1[s1.size() - 1]};
    const TensorId t1_folded = reshape_tensor(ctx, t1, folded);
    const bool t2_matrix = ctx.vals.rank(t2) == 2;
    const TensorId r = t2_matrix ? mm(ctx, t1_folded, t2) : mv(ctx, t1_folded, t2);
    if (t2_matrix) out.push_back(sizes(ctx, t2)[1]);
    const Dims rs(sizes(ctx, r)), rst(ctx.vals.strides(r));
    reshape_view_helper_guards(ctx, rs, rst, out, nullptr);
    return false;
  }
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  const ExprId n = da > 1 ? sa[da - 2] : ar.one();
  const ExprId m1 = sa[da - 1];
  const ExprId m2 = db > 1 ? sb[db - 2] : sb[db - 1];
  const ExprId p = db > 1 ? sb[db - 1] : ar.one();
  const Dims batch1(sa.first(da > 2 ? da - 2 : 0)), batch2(sb.first(db > 2 ? db - 2 : 0));
  if (da == 3 && db == 3) ctx.guard_or_true(ar.ne(batch1[0], batch2[0]));
  Dims batch;
  const Dims batches[] = {batch1, batch2};
  if (!refs_broadcast_shapes(ctx, batches, batch, /*raise=*/false))
    broadcast_shapes(ctx, batch1, batch2, batch);  // raises eager's message
  const ExprId bprod = ar.mul(std::span<const ExprId>(batch));
  Dims e1(batch);
  e1.push_back(n);
  e1.push_back(m1);
  const ExprId r1[] = {bprod, n, m1};
  const TensorId a3 = reshape_tensor(ctx, expand_tensor(ctx, a, e1), r1);
  Dims e2(batch);
  e2.push_back(m2);
  if (db > 1) e2.push_back(p);
  const ExprId r2v[] = {bprod, m2}, r2m[] = {bprod, m2, p};
  TensorId b3 = reshape_tensor(ctx, expand_tensor(ctx, b, e2), db > 1 ? std::span<const ExprId>(r2m) : r2v);
  if (db == 1) b3 = unsqueeze_tensor(ctx, b3, 2);
  const TensorId r = bmm(ctx, a3, b3);
  batch_out = batch;
  Dims out(batch);
  if (da > 1) out.push_back(n);
  if (db > 1) out.push_back(p);
  Dims rs(sizes(ctx, r)), rst(ctx.vals.strides(r));
  if (db == 1) {  // squeeze(-1)
    rs.pop_back();
    rst.pop_back();
  }
  reshape_view_helper_guards(ctx, rs, rst, out, &fake_strides);
  return true;
}

}  // namespace

TensorId matmul(PropContext& ctx, TensorId a, TensorId b) {
  const size_t da = ctx.vals.rank(a), db = ctx.vals.rank(b);
  if (da == 0 || db == 0)
    ctx.fail("both arguments to matmul need to be at least 1D, but they are {}D and {}D", da, db);
  if (da == 1 && db == 1) return dot(ctx, a, b);
  if (da == 2 && db == 1) return mv(ctx, a, b);
  if (da == 1 && db == 2) {
    const ExprId row[] = {ctx.ar.one(), sizes(ctx, a)[0]};
    const TensorId r = mm(ctx, ctx.new_contiguous(ctx.vals.dtype(a), row), b);
    return contiguous_result(ctx, ctx.vals.dtype(r), sizes(ctx, r).subspan(1));
  }
  if (da == 2 && db == 2) return mm(ctx, a, b);
  Dims batch_2x, fake_strides;
  const bool broadcast_2x = matmul_2x_questions(ctx, a, b, batch_2x, fake_strides);
  // eager's path (1.13's should_fold) decides the layout only: its stride tests are not 2.x's
  // questions, so they are answered by the hints without guards
  bool fold;
  {
    ShapeEnv::SuppressGuards quiet(ctx.env);
    fold = should_fold(ctx, a, db) || should_fold(ctx, b, da);
  }
  if (fold) return matmul_fold(ctx, a, b);
  const TensorId r = matmul_bmm(ctx, a, b, broadcast_2x ? &batch_2x : nullptr);
  // the view's strides as FakeTensorMode forms them (`C*Max(1, C)` where computeStride's
  // products of raw sizes give `C**2`) wherever they are eager's values too
  const Dims strides(ctx.vals.strides(r));
  if (!broadcast_2x || fake_strides.size() != strides.size() || std::ranges::equal(fake_strides.span(), strides.span()))
    return r;
  if (!ctx.host.fake_strides && !same_values_at_example(ctx, fake_strides, strides)) return r;
  const Dims shape(ctx.vals.sizes(r));
  return ctx.new_tensor(ctx.vals.dtype(r), shape, fake_strides);
}

namespace {

// ---- rules ------------------------------------------------------------------------------

void mm_rule(PropContext& ctx) { ctx.set_tensor(mm(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1))); }
void bmm_rule(PropContext& ctx) { ctx.set_tensor(bmm(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1))); }
void mv_rule(PropContext& ctx) { ctx.set_tensor(mv(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1))); }
void dot_rule(PropContext& ctx) { ctx.set_tensor(dot(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1))); }
void matmul_rule(PropContext& ctx) { ctx.set_tensor(matmul(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1))); }

// addmm(self, mat1, mat2, *, beta, alpha)
void addmm_rule(PropContext& ctx) {
  ctx.set_tensor(addmm(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1), ctx.tensor_arg(2)));
}

// baddbmm(self, batch1, batch2, *, beta, alpha): self expands to (b, n, m) first.
void baddbmm_rule(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), b1 = ctx.tensor_arg(1), b2 = ctx.tensor_arg(2);
  if (ctx.vals.rank(b1) < 2 || ctx.vals.rank(b2) < 3) {
    bmm(ctx, b1, b2);  // raises the rank message
  }
  const ExprId target[] = {sizes(ctx, b1)[0], sizes(ctx, b1)[1], sizes(ctx, b2)[2]};
  check_expand(ctx, sizes(ctx, self), target);
  if (ctx.vals.dtype(self) != ctx.vals.dtype(b1))
    ctx.fail("Input dtypes must be the same, got: input {}, batch1: {}, batch2: {}",
             scalar_type_name(ctx.vals.dtype(self)), scalar_type_name(ctx.vals.dtype(b1)),
             scalar_type_name(ctx.vals.dtype(b2)));
  ctx.set_tensor(bmm(ctx, b1, b2));
}

// addbmm(self, batch1, batch2, *, beta, alpha) -> (n, m): sum over the batch.
void addbmm_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId self = ctx.tensor_arg(0), b1 = ctx.tensor_arg(1), b2 = ctx.tensor_arg(2);
  if (ctx.vals.rank(b1) != 3) ctx.fail("batch1 must be a 3D tensor");
  if (ctx.vals.rank(b2) != 3) ctx.fail("batch2 must be a 3D tensor");
  const auto s1 = sizes(ctx, b1), s2 = sizes(ctx, b2);
  const ExprId target[] = {s1[1], s2[2]};
  check_expand(ctx, sizes(ctx, self), target);
  if (!holds(ctx, ar.eq(s1[0], s2[0])))
    ctx.fail("batch1 and batch2 must have same number of batches, got {} and {}", ctx.str(s1[0]), ctx.str(s2[0]));
  if (!holds(ctx, ar.eq(s1[2], s2[1])))
    ctx.fail("Incompatible matrix sizes for bmm ({}x{} and {}x{})", ctx.str(s1[1]), ctx.str(s1[2]), ctx.str(s2[1]),
             ctx.str(s2[2]));
  ctx.set_tensor(contiguous_result(ctx, ctx.vals.dtype(self), target));
}

// addmv(self, mat, vec, *, beta, alpha): self is a vector of n elements or one element.
void addmv_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId self = ctx.tensor_arg(0), mat = ctx.tensor_arg(1), vec = ctx.tensor_arg(2);
  const size_t rs = ctx.vals.rank(self), rm = ctx.vals.rank(mat), rv = ctx.vals.rank(vec);
  if (rm != 2 || rv != 1 || rs > 1) ctx.fail("vector + matrix @ vector expected, got {}, {}, {}", rs, rm, rv);
  const auto sm = sizes(ctx, mat), sv = sizes(ctx, vec);
  const ExprId self_n = rs == 0 ? ar.one() : sizes(ctx, self)[0];
  const bool ok = holds(ctx, ar.eq(sm[1], sv[0])) &&
                  (ctx.guard_or_false(ar.eq(self_n, ar.one())) || holds(ctx, ar.eq(sm[0], self_n)));
  if (!ok)
    ctx.fail("size mismatch, got {}, {}x{},{}", ctx.str(self_n), ctx.str(sm[0]), ctx.str(sm[1]), ctx.str(sv[0]));
  const ExprId shape[] = {sm[0]};
  ctx.set_tensor(contiguous_result(ctx, ctx.vals.dtype(vec), shape));
}

void check_vector(PropContext& ctx, TensorId t, const char* fn, const char* arg) {
  if (ctx.vals.rank(t) != 1) ctx.fail("{}: Expected 1-D argument {}, but got {}-D", fn, arg, ctx.vals.rank(t));
}

// outer / ger(self (n,), vec2 (m,)) = self.reshape(n, 1) * vec2
void outer_rule(PropContext& ctx) {
  const TensorId a = ctx.tensor_arg(0), b = ctx.tensor_arg(1);
  check_vector(ctx, a, "outer", "self");
  check_vector(ctx, b, "outer", "vec2");
  const ExprId shape[] = {sizes(ctx, a)[0], sizes(ctx, b)[0]};
  ctx.set_tensor(contiguous_result(ctx, promote_types(ctx.vals.dtype(a), ctx.vals.dtype(b)), shape));
}

// addr(self, vec1, vec2, *, beta, alpha): self expands to (n, m).
void addr_rule(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0), a = ctx.tensor_arg(1), b = ctx.tensor_arg(2);
  check_vector(ctx, a, "addr", "vec1");
  check_vector(ctx, b, "addr", "vec2");
  const ExprId shape[] = {sizes(ctx, a)[0], sizes(ctx, b)[0]};
  check_expand(ctx, sizes(ctx, self), shape);
  const DType dt = promote_types(ctx.vals.dtype(self), promote_types(ctx.vals.dtype(a), ctx.vals.dtype(b)));
  ctx.set_tensor(contiguous_result(ctx, dt, shape));
}

// linear(input, weight, bias) (1.13): addmm for 2-d input with bias, addmm on the
// folded rows for contiguous 3-d input with bias, else matmul(input, weight.t()) + bias
// in place (the bias must broadcast to the product's shape).
void linear_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0), w = ctx.tensor_arg(1);
  const std::optional<TensorId> bias = ctx.opt_tensor(ctx.arg(2));
  const TensorId wt = t_2d(ctx, w);
  const size_t r = ctx.vals.rank(in);
  if (bias && r == 2) return ctx.set_tensor(addmm(ctx, *bias, in, wt));
  // 2.x (_flatten_nd_linear): a contiguous input of rank >= 3 with a 1-d bias is reshaped
  // to (prod(batch), in), addmm'ed and viewed back; both views ask
  // _reshape_view_helper's questions (docs/torchref.md, "Propagation and guards: PyTorch 2.x
  // rules", views). 1.13 took this path for 3-d inputs only; the result is contiguous either way.
  if (bias && r >= 3 && ctx.vals.rank(*bias) == 1 && ctx.is_contiguous(in)) {
    // copy the sizes: creating tensors below may move the table the span points into
    const Dims s(sizes(ctx, in));
    const Dims st(ctx.vals.strides(in));
    const ExprId rows[] = {ar.mul(std::span<const ExprId>(s).first(r - 1)), s[r - 1]};
    reshape_view_helper_guards(ctx, s, st, rows, nullptr);
    const TensorId out2 = addmm(ctx, *bias, ctx.new_contiguous(ctx.vals.dtype(in), rows), wt);
    Dims shape(std::span<const ExprId>(s).first(r - 1));
    shape.push_back(sizes(ctx, out2)[1]);
    const ExprId out_rows[] = {rows[0], shape[r - 1]};
    Dims out2_strides, fake;
    ctx.contiguous_strides(out_rows, out2_strides);
    reshape_view_helper_guards(ctx, out_rows, out2_strides, shape, &fake);
    // the view's strides as FakeTensorMode forms them (split_dim of the contiguous rows:
    // `C*Max(1, N)`, not computeStride's `C*N`) wherever they are eager's values too
    Dims strides;
    ctx.view_contiguous_strides(shape, strides);
    if (fake.size() == strides.size() && (ctx.host.fake_strides || same_values_at_example(ctx, fake, strides)))
      strides = fake;
    return ctx.set_tensor(ctx.new_tensor(ctx.vals.dtype(out2), shape, strides));
  }
  const TensorId out = matmul(ctx, in, wt);
  if (bias) {
    const auto so = sizes(ctx, out);
    Dims b;
    broadcast_shapes(ctx, so, sizes(ctx, *bias), b);
    bool same = b.size() == so.size();
    for (size_t i = 0; same && i < so.size(); ++i) same = b[i] == so[i] || ctx.known_true(ar.eq(b[i], so[i]));
    if (!same)
      ctx.fail("output with shape {} doesn't match the broadcast shape {}", ctx.shape_str(so), ctx.shape_str(b));
  }
  ctx.set_tensor(out);
}

// bilinear(input1 (*, in1), input2 (*, in2), weight (out, in1, in2), bias) -> (*, out)
void bilinear_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x1 = ctx.tensor_arg(0), x2 = ctx.tensor_arg(1), w = ctx.tensor_arg(2);
  const std::optional<TensorId> bias = ctx.opt_tensor(ctx.arg(3));
  const auto s1 = sizes(ctx, x1), s2 = sizes(ctx, x2), sw = sizes(ctx, w);
  if (s1.size() != s2.size())
    ctx.fail("bilinear(): input dimensions do not match: got {} and {}", s1.size(), s2.size());
  if (s1.empty() || sw.size() != 3) ctx.fail("bilinear(): weight must be 3-D and inputs at least 1-D");
  for (size_t i = 0; i + 1 < s1.size(); ++i)
    if (!holds(ctx, ar.eq(s1[i], s2[i])))
      ctx.fail("bilinear(): input batch dimensions do not match: got {} and {}", ctx.str(s1[i]), ctx.str(s2[i]));
  if (!holds(ctx, ar.eq(s1.back(), sw[1])))
    ctx.fail("bilinear(): input1 size does not match weight size: got {} but expected {}", ctx.str(s1.back()),
             ctx.str(sw[1]));
  if (!holds(ctx, ar.eq(s2.back(), sw[2])))
    ctx.fail("bilinear(): input2 size does not match weight size: got {} but expected {}", ctx.str(s2.back()),
             ctx.str(sw[2]));
  if (bias && !holds(ctx, ar.eq(sizes(ctx, *bias)[0], sw[0])))
    ctx.fail("bilinear(): bias size does not match weight size: got {} but expected {}",
             ctx.str(sizes(ctx, *bias)[0]), ctx.str(sw[0]));
  Dims shape(s1.first(s1.size() - 1));
  shape.push_back(sw[0]);
  ctx.set_tensor(contiguous_result(ctx, ctx.vals.dtype(x1), shape));
}

// tensordot(self, other, dims_self, dims_other): contracted dims must match (size 1
// broadcasts); result = free dims of self then of other, from one mm.
void tensordot_dims(PropContext& ctx, TensorId a, TensorId b, const IntDims& d1, const IntDims& d2) {
  ExprArena& ar = ctx.ar;
  if (d1.size() != d2.size()) ctx.fail("both dimension lists should have same length");
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  const uint32_t m1 = dim_mask(ctx, d1, static_cast<int64_t>(sa.size()));
  const uint32_t m2 = dim_mask(ctx, d2, static_cast<int64_t>(sb.size()));
  for (size_t i = 0; i < d1.size(); ++i) {
    const size_t x = static_cast<size_t>(ctx.wrap_dim(d1[i], static_cast<int64_t>(sa.size())));
    const size_t y = static_cast<size_t>(ctx.wrap_dim(d2[i], static_cast<int64_t>(sb.size())));
    if (ctx.guard_or_false(ar.eq(sa[x], ar.one())) || ctx.guard_or_false(ar.eq(sb[y], ar.one()))) continue;
    if (!holds(ctx, ar.eq(sa[x], sb[y])))
      ctx.fail("contracted dimensions need to match, but first has size {} in dim {} and second has size {} in dim {}",
               ctx.str(sa[x]), d1[i], ctx.str(sb[y]), d2[i]);
  }
  Dims shape;
  for (size_t i = 0; i < sa.size(); ++i)
    if (!(m1 >> i & 1)) shape.push_back(sa[i]);
  for (size_t i = 0; i < sb.size(); ++i)
    if (!(m2 >> i & 1)) shape.push_back(sb[i]);
  same_dtype(ctx, a, b, "m1 and m2");
  ctx.set_tensor(contiguous_result(ctx, ctx.vals.dtype(a), shape));
}

void tensordot_rule(PropContext& ctx) {
  IntDims d1, d2;
  ctx.int_list_const(ctx.arg(2), d1);
  ctx.int_list_const(ctx.arg(3), d2);
  tensordot_dims(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1), d1, d2);
}

// inner(self, other): a 0-d operand multiplies; else tensordot over the last dims.
void inner_rule(PropContext& ctx) {
  const TensorId a = ctx.tensor_arg(0), b = ctx.tensor_arg(1);
  const auto sa = sizes(ctx, a), sb = sizes(ctx, b);
  const DType dt = promote_types(ctx.vals.dtype(a), ctx.vals.dtype(b));
  if (sa.empty() || sb.empty()) {
    Dims shape;
    broadcast_shapes(ctx, sa, sb, shape);
    return ctx.set_tensor(contiguous_result(ctx, dt, shape));
  }
  if (!holds(ctx, ctx.ar.eq(sa.back(), sb.back())))
    ctx.fail("inner() the last dimension must match on both input tensors but got shapes {} and {}",
             ctx.shape_str(sa), ctx.shape_str(sb));
  const IntDims last(std::span<const int64_t>({int64_t{-1}}));
  tensordot_dims(ctx, a, b, last, last);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.mm.default", mm_rule},
    {"aten.bmm.default", bmm_rule},
    {"aten.mv.default", mv_rule},
    {"aten.dot.default", dot_rule},
    {"aten.vdot.default", dot_rule},
    {"aten.matmul.default", matmul_rule},
    {"aten.addmm.default", addmm_rule},
    {"aten.baddbmm.default", baddbmm_rule},
    {"aten.addbmm.default", addbmm_rule},
    {"aten.addmv.default", addmv_rule},
    {"aten.outer.default", outer_rule},
    {"aten.ger.default", outer_rule},
    {"aten.addr.default", addr_rule},
    {"aten.linear.default", linear_rule},
    {"aten.bilinear.default", bilinear_rule},
    {"aten.tensordot.default", tensordot_rule},
    {"aten.inner.default", inner_rule},
};

}  // namespace

std::span<const OpRuleEntry> product_rules() { return kRules; }

}  // namespace mm

std::span<const OpRuleEntry> matmul_rules() {
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto part : {mm::product_rules(), mm::einsum_rules(), mm::attention_rules(), mm::fused_attention_rules(),
                      mm::distance_rules(), mm::rnn_rules(), mm::library_custom_rules()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
