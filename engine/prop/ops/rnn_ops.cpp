// Fused recurrent ops of torch.export 2.x graphs (aten.lstm.input / aten.gru.input: a stock
// nn.LSTM / nn.GRU stays one node; torch.export specialises the sequence length, so only the
// batch varies). Results as PyTorch 2.x computes them on CPU (aten/src/ATen/native/RNN.cpp,
// and torch/_decomp/decompositions.py lstm_impl / gru_impl under FakeTensorMode, which agree on
// every well-formed call): the output is allocated time-major [T, B, D*H_out] contiguous and
// transposed back for batch_first ([B, T, D*H_out], strides (D*H_out, B*D*H_out, 1)); h_n (and
// LSTM's c_n) are contiguous [D*num_layers, B, H]. dtype = the input's.
//
// Checks follow the CPU path PyTorch takes. The native path (GRU; LSTM off float32, with
// projections or an empty input) fails inside the decomposed per-layer loop: an empty sequence,
// a hidden-state count other than D*num_layers, the input features against weight_ih_l0 (bmm's
// message when batch_first, mm's otherwise), the hidden batch against the input's (broadcast).
// LSTM on float32 takes the oneDNN kernel (use_mkldnn: CPU float32, numel != 0, no projections),
// which reads input.size(2) (IndexError below rank 3), selects hx[0][l] (IndexError when hx has
// fewer than D*num_layers entries) and checks neither the features nor the hidden batch: a
// wrong feature count is accepted like PyTorch does; a hidden batch other than the input's is
// refused here (the oneDNN kernel reads out of bounds there).
#include <vector>

#include "prop/context.h"
#include "prop/dtype_rules.h"
#include "prop/rules.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

struct Rnn {
  TensorId input;
  bool batch_first;
  bool bidirectional;
  int64_t num_layers;
  int64_t gates;  // 4 (LSTM) / 3 (GRU)
  std::vector<TensorId> params;
};

// IndexError of hx[0][l] / select(): the oneDNN LSTM kernel's per-layer hidden state
[[noreturn]] void select_error(PropContext& ctx, int64_t index, TensorId hx) {
  ctx.fail("select(): index {} out of range for tensor of size {} at dimension 0", index,
           ctx.shape_str(ctx.vals.sizes(hx)));
}

// The native CPU path's checks (FullLayer over input.unbind(0) after params.linear_ih(input)).
void native_checks(PropContext& ctx, const Rnn& r, std::span<const TensorId> hx, int64_t directions) {
  ExprArena& ar = ctx.ar;
  auto in = ctx.vals.sizes(r.input);
  if (in.size() != 3)
    ctx.fail("{}: expected a 3-D input, got {}-D (PyTorch's native CPU path fails inside its per-layer matmul)",
             ctx.target(), in.size());
  const ExprId T = in[r.batch_first ? 1 : 0], B = in[r.batch_first ? 0 : 1], I = in[2];
  ctx.check(ar.gt(T, ar.zero()), "Expected sequence length to be larger than 0 in RNN");
  for (TensorId h : hx) {
    auto hs = ctx.vals.sizes(h);
    if (hs.size() != 3) ctx.fail("{}: expected 3-D hidden states, got {}-D", ctx.target(), hs.size());
    ctx.check(ar.eq(hs[0], ar.integer(directions * r.num_layers)), "Expected more hidden states in stacked_rnn");
  }
  if (r.params.empty() || ctx.vals.rank(r.params[0]) != 2) ctx.fail("{}: weight_ih_l0 must be 2-D", ctx.target());
  auto w = ctx.vals.sizes(r.params[0]);
  if (!ctx.guard(ar.eq(I, w[1]))) {
    if (r.batch_first)
      ctx.fail("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].",
               ctx.str(T), ctx.str(I), ctx.str(T), ctx.str(w[1]));
    ctx.fail("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", ctx.str(ar.mul(T, B)), ctx.str(I),
             ctx.str(w[1]), ctx.str(w[0]));
  }
  for (TensorId h : hx) {
    const ExprId hb = ctx.vals.sizes(h)[1];
    if (ctx.guard(ar.eq(hb, B))) continue;
    if (ctx.guard(ar.eq(hb, ar.one())))
      ctx.fail("output with shape [1, {}] doesn't match the broadcast shape [{}, {}]",
               ctx.str(ctx.vals.sizes(h)[2]), ctx.str(B), ctx.str(ctx.vals.sizes(h)[2]));
    ctx.fail("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension 0",
             ctx.str(hb), ctx.str(B));
  }
}

// The oneDNN LSTM path's checks (lstm_mkldnn_stub: input.size(0..2), hx[i][layer]).
void mkldnn_checks(PropContext& ctx, const Rnn& r, std::span<const TensorId> hx, int64_t directions) {
  ExprArena& ar = ctx.ar;
  auto in = ctx.vals.sizes(r.input);
  ctx.wrap_dim(2, static_cast<int64_t>(in.size()));  // IndexError below rank 3
  if (in.size() != 3)
    ctx.fail("{}: a {}-D input (PyTorch's oneDNN LSTM reads sizes 0..2 only; not followed)", ctx.target(),
             in.size());
  const ExprId B = in[r.batch_first ? 0 : 1];
  for (TensorId h : hx) {
    auto hs = ctx.vals.sizes(h);
    if (hs.size() != 3) ctx.fail("{}: expected 3-D hidden states, got {}-D", ctx.target(), hs.size());
    const int64_t need = directions * r.num_layers;
    if (!ctx.guard(ar.ge(hs[0], ar.integer(need)))) {
      // the first layer index past the end, in the kernel's (layer, direction) order
      select_error(ctx, ctx.guard_int(hs[0]), h);
    }
    if (!ctx.guard(ar.eq(hs[1], B)))
      ctx.fail("{}: hidden state batch {} does not match the input's {} (PyTorch's oneDNN LSTM kernel does not "
               "check it and reads out of bounds)", ctx.target(), ctx.str(hs[1]), ctx.str(B));
  }
}

void set_results(PropContext& ctx, const Rnn& r, std::span<const TensorId> hx, int64_t directions) {
  ExprArena& ar = ctx.ar;
  auto in = ctx.vals.sizes(r.input);
  const ExprId T = in[r.batch_first ? 1 : 0], B = in[r.batch_first ? 0 : 1];
  const DType dt = ctx.vals.dtype(r.input);
  const ExprId h_out = ctx.vals.sizes(hx[0])[2];
  const ExprId tm[] = {T, B, ar.mul(ar.integer(directions), h_out)};
  Dims st;
  ctx.contiguous_strides(tm, st);
  std::vector<TensorId> outs;
  if (r.batch_first) {
    const ExprId sizes[] = {B, T, tm[2]};
    const ExprId strides[] = {st[1], st[0], st[2]};
    outs.push_back(ctx.new_tensor(dt, sizes, strides));
  } else {
    outs.push_back(ctx.new_tensor(dt, tm, st));
  }
  for (TensorId h : hx) {
    const ExprId hs[] = {ar.integer(directions * r.num_layers), B, ctx.vals.sizes(h)[2]};
    outs.push_back(ctx.new_contiguous(dt, hs));
  }
  ctx.set_tensors(outs);
}

Rnn read(PropContext& ctx, size_t params_arg, int64_t gates) {
  Rnn r;
  r.input = ctx.tensor_arg(0);
  ctx.tensor_list(ctx.arg(params_arg), r.params);
  r.num_layers = ctx.int_const(ctx.arg(params_arg + 2));
  r.bidirectional = ctx.bool_const(ctx.arg(params_arg + 5));
  r.batch_first = ctx.bool_const(ctx.arg(params_arg + 6));
  r.gates = gates;
  if (r.num_layers < 1) ctx.fail("{}: num_layers must be positive, got {}", ctx.target(), r.num_layers);
  for (TensorId p : r.params)
    if (!p.valid()) ctx.fail("{}: a None parameter", ctx.target());
  return r;
}

// lstm.input(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers,
//            float dropout, bool train, bool bidirectional, bool batch_first)
void lstm(PropContext& ctx) {
  Rnn r = read(ctx, 2, 4);
  std::vector<TensorId> hx;
  ctx.tensor_list(ctx.arg(1), hx);
  if (hx.size() != 2) ctx.fail("lstm expects two hidden states");
  for (TensorId h : hx)
    if (!h.valid()) ctx.fail("lstm expects two hidden states");
  const int64_t directions = r.bidirectional ? 2 : 1;
  for (TensorId h : hx)
    if (ctx.vals.rank(h) != 3) ctx.fail("lstm: expected 3-D hidden states, got {}-D", ctx.vals.rank(h));
  const bool projections = ctx.guard(ctx.ar.ne(ctx.vals.sizes(hx[0])[2], ctx.vals.sizes(hx[1])[2]));
  const bool mkldnn = ctx.vals.dtype(r.input) == DType::Float32 && !projections &&
                      ctx.guard(ctx.ar.ne(numel(ctx, ctx.vals.sizes(r.input)), ctx.ar.zero()));
  if (mkldnn)
    mkldnn_checks(ctx, r, hx, directions);
  else
    native_checks(ctx, r, hx, directions);
  set_results(ctx, r, hx, directions);
}

// gru.input(Tensor input, Tensor hx, Tensor[] params, bool has_biases, int num_layers,
//           float dropout, bool train, bool bidirectional, bool batch_first)
void gru(PropContext& ctx) {
  Rnn r = read(ctx, 2, 3);
  const TensorId hx[] = {ctx.tensor_arg(1)};
  const int64_t directions = r.bidirectional ? 2 : 1;
  native_checks(ctx, r, hx, directions);
  set_results(ctx, r, hx, directions);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.lstm.input", lstm},
    {"aten.gru.input", gru},
};

}  // namespace

namespace mm {
std::span<const OpRuleEntry> rnn_rules() { return kRules; }
}  // namespace mm

}  // namespace symshape
