#pragma once
// What torch.export's tracer asks of every traced tensor (PyTorch 2.x): make_fx records
// each op output's `tensor_meta`, whose memory format comes from the prims layout tests
// (contiguous, then channels_last, then channels_last_3d) with guard_or_false /
// guard_or_true. Those tests ask "is this dim 1?" of every dim before looking at its
// stride, so an intermediate size that may be 1 in the spec's range (a strided conv's
// output, `(h - 7)//3 + 1`) gets a guard `!= 1` that plain fake propagation never makes,
// and export reports it as a constraint violation. The spec check (export) runs this hook;
// `prop` / `guards` (FakeTensorProp semantics) do not.
#include "prop/propagate.h"

namespace symshape::spec {

class ExportTensorMetaHook final : public NodeHooks {
 public:
  ExportTensorMetaHook(const Graph& g, const Propagator& prop, ShapeEnv& env) : g_(g), prop_(prop), env_(env) {}
  ValId before_call(NodeId) override { return ValId(); }
  void after_node(NodeId n) override;

 private:
  void record_meta(ValId v);
  void memory_format(TensorId t);
  bool contiguous(TensorId t);
  bool channels_last(TensorId t, std::span<const size_t> order);

  const Graph& g_;
  const Propagator& prop_;
  ShapeEnv& env_;
};

}  // namespace symshape::spec
