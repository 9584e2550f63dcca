#pragma once
// The reference PyTorch process whose fake-tensor propagation symshape reproduces.
//
// A few of PyTorch 2.x's decisions depend on the process, not on the graph: ATen's CPU
// convolution backend selection (aten/src/ATen/native/Convolution.cpp,
// ConvParams::use_mkldnn) reads at::get_num_threads(), and which questions it asks of the
// symbolic sizes (and so which guards are recorded) follows from that. symshape never reads
// the host it runs on at analysis time: these are fixed, documented settings
// (docs/torchref.md, "Propagation and guards: PyTorch 2.x rules").
#include <cstdint>

#include "graph/torch_version.h"

namespace symshape {

struct ReferenceHost {
  // at::get_num_threads() of the reference process. Any multi-core host (and the
  // differential harness's) has more than one intra-op thread; with a single thread
  // use_mkldnn would ask `w[-1] != 1` / `w[-2] != 1` of a 1x1 kernel and decide it there.
  int64_t num_threads = 2;
  // torch.backends.mkldnn.enabled while tracing: the CPU wheels are built with MKLDNN and
  // enable it; torch.export turns it off (kExportTracingHost).
  bool mkldnn_enabled = true;
  // The PyTorch release whose eager kernels give the layout where releases differ
  // (docs/torchref.md, "Eager layouts"): the graph's own producer (`producer.torch`, major and
  // minor; kNewestTorch when it names none), set per graph by the Propagator, so a graph
  // traced with 1.13 is checked against 1.13's kernels, one from 2.13 against 2.13's and one
  // from 2.14 against 2.14's.
  TorchVersion eager_torch = kNewestTorch;
  // Whose strides a node reports where FakeTensorMode and the eager kernels disagree: false,
  // eager's (the goldens' and the default); true, FakeTensorMode's, for comparing with
  // FakeTensorProp / export's node meta (the differential harness). Where they differ: a
  // view's size-1 dims (torch._refs._reshape_view_helper against computeStride), expand's
  // new size-1 dims, einsum, and upsample_bicubic2d.vec, whose decomposition lays its output
  // out in the input's suggested memory format where 1.13's CPU kernel writes it
  // contiguous. PyTorch 2.x's guards are the fake strides' ones: eager's layouts can ask
  // questions FakeTensorMode does not (a view's computeStride) and so add guards.
  bool fake_strides = false;
};

// Plain FakeTensorMode / FakeTensorProp and torch.compile (dynamo traces with the backend
// flags as they are): the default of every Propagator.
inline constexpr ReferenceHost kFakeTensorModeHost{};
// torch.export: export/_trace.py `_ignore_backend_decomps` turns mkldnn (and nnpack, cudnn)
// off while tracing, so ATen's conv backend selection asks no size question there.
inline constexpr ReferenceHost kExportTracingHost{.num_threads = 2, .mkldnn_enabled = false};

}  // namespace symshape
