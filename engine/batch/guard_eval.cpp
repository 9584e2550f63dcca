#include "batch/guard_eval.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>
#include <xsimd/xsimd.hpp>

#include "batch/guard_kernels.h"
#include "core/error.h"

namespace symshape {

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Scalar: return "scalar";
    case Isa::Sse2: return "sse2";
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
  }
  return "?";
}

bool isa_available(Isa isa) {
  const auto cpu = xsimd::available_architectures();
  switch (isa) {
    case Isa::Scalar: return true;
    case Isa::Sse2: return cpu.sse2;
    case Isa::Avx2: return cpu.avx2;
    case Isa::Avx512: return cpu.avx512bw;
  }
  return false;
}

Isa default_isa() {
  static const Isa chosen = [] {
    if (const char* env = std::getenv("SYMSHAPE_ISA")) {
      const std::string_view want(env);
      for (Isa isa : {Isa::Scalar, Isa::Sse2, Isa::Avx2, Isa::Avx512})
        if (want == isa_name(isa) && isa_available(isa)) return isa;
    }
    for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Sse2})
      if (isa_available(isa)) return isa;
    return Isa::Scalar;
  }();
  return chosen;
}

namespace {

using guard_kernels::kBlock;
// Blocks per TBB task: tasks of 8,192 examples, enough to amortise the task and scratch set-up.
constexpr size_t kTaskBlocks = std::max<size_t>(1, 8192 / kBlock);

void (*kernel_for(Isa isa))(guard_kernels::BlockArgs&) {
  switch (isa) {
    case Isa::Sse2: return guard_kernels::run_block_sse2;
    case Isa::Avx2: return guard_kernels::run_block_avx2;
    case Isa::Avx512: return guard_kernels::run_block_avx512;
    default: return guard_kernels::run_block_scalar;
  }
}

// Per-thread scratch: the registers of one block, reused for every block the thread runs.
struct Scratch {
  std::vector<int64_t> regs, poison, state, column_min, column_max;
  std::vector<const int64_t*> reg_ptr, columns;
  std::vector<int64_t*> outputs;
  std::vector<uint8_t> rank_ok;
};

// The arena of a fixed thread count, kept per calling thread: a new arena on every call
// made the worker threads join afresh each time, about 100 us per call on a 2-vCPU VM,
// which a short stream pays in full. Per calling thread, so that two threads evaluating
// at once never queue behind each other in one arena.
tbb::task_arena& arena_for(unsigned threads) {
  thread_local std::unique_ptr<tbb::task_arena> arena;
  thread_local unsigned arena_threads = 0;
  if (!arena || arena_threads != threads) {
    arena = std::make_unique<tbb::task_arena>(int(threads));
    arena_threads = threads;
  }
  return *arena;
}

}  // namespace

void evaluate_guards(const GuardProgram& p, const ExampleColumns& ex, size_t begin, size_t end, int32_t* verdict,
                     GuardFailure* failure, const GuardEvalOptions& options, GuardEvalStats* stats,
                     std::span<int64_t* const> outputs) {
  if (end <= begin) return;
  static_assert(kNoOutputValue == guard_kernels::kNoOutput);
  const bool want_outputs = !outputs.empty() && !p.output_reg.empty();
  if (want_outputs && outputs.size() != p.output_reg.size())
    throw Error(ErrorKind::Internal, "evaluate_guards: one output column per program output expected");
  const Isa isa = isa_available(options.isa) ? options.isa : Isa::Scalar;
  auto* const kernel = kernel_for(isa);
  static_assert(sizeof(GuardFailure) == 1);
  const size_t nblocks = (end - begin + kBlock - 1) / kBlock;
  std::atomic<uint64_t> clauses{0}, blocks{0}, narrow_blocks{0}, positive_blocks{0}, bound_decided{0};
  // every example gives every input its declared rank, and those are the traced ranks
  bool declared_ranks = ex.all_declared_ranks() && ex.num_placeholders() == p.ranks.size();
  for (uint32_t ph = 0; declared_ranks && ph < ex.num_placeholders(); ++ph) declared_ranks = ex.rank(ph) == p.ranks[ph];
  auto run_blocks = [&](Scratch& s, const tbb::blocked_range<size_t>& r) {
    const size_t nregs = std::max<uint32_t>(p.num_registers, 1);
    s.regs.resize(nregs * kBlock);
    s.poison.resize(nregs * kBlock);
    s.reg_ptr.resize(nregs);
    for (size_t k = 0; k < nregs; ++k) s.reg_ptr[k] = s.regs.data() + k * kBlock;
    s.state.resize(kBlock);
    s.rank_ok.resize(kBlock);
    s.columns.resize(ex.num_columns());
    s.column_min.resize(ex.num_columns());
    s.column_max.resize(ex.num_columns());
    for (uint32_t k = 0; k < ex.num_columns(); ++k) s.columns[k] = ex.column(k);
    uint64_t local = 0, local_blocks = 0, local_narrow = 0, local_positive = 0, local_bound = 0;
    for (size_t blk = r.begin(); blk != r.end(); ++blk) {
      const size_t row0 = begin + blk * kBlock;
      const size_t lanes = std::min(kBlock, end - row0);
      bool all_ok = declared_ranks;
      if (!all_ok) {
        all_ok = true;
        for (size_t l = 0; l < lanes; ++l) {
          uint8_t ok = 1;
          for (uint32_t ph = 0; ph < ex.num_placeholders(); ++ph)
            if (ex.given_rank(ph, row0 + l) != p.ranks[ph]) ok = 0;
          s.rank_ok[l] = ok;
          all_ok &= ok != 0;
        }
      }
      guard_kernels::BlockArgs a{&p,
                                 s.columns.data(),
                                 all_ok ? nullptr : s.rank_ok.data(),
                                 row0,
                                 lanes,
                                 s.regs.data(),
                                 s.poison.data(),
                                 s.reg_ptr.data(),
                                 s.state.data(),
                                 verdict + (row0 - begin),
                                 reinterpret_cast<uint8_t*>(failure + (row0 - begin))};
      a.column_min = s.column_min.data();
      a.column_max = s.column_max.data();
      if (want_outputs) {
        s.outputs.resize(outputs.size());
        for (size_t k = 0; k < outputs.size(); ++k) s.outputs[k] = outputs[k] + (row0 - begin);
        a.outputs = s.outputs.data();
      }
      // the next block's sizes (the kernel spreads the prefetches over its instructions)
      if (blk + 1 != r.end() && row0 + 2 * kBlock <= end) a.prefetch_row0 = row0 + kBlock;
      kernel(a);
      local += a.clauses;
      ++local_blocks;
      local_narrow += a.narrow;
      local_positive += a.positive;
      local_bound += a.bound_decided;
    }
    clauses += local;
    blocks += local_blocks;
    narrow_blocks += local_narrow;
    positive_blocks += local_positive;
    bound_decided += local_bound;
  };
  // Fixed grain: the block split, and so every verdict, is the same at any thread count.
  const tbb::blocked_range<size_t> range(0, nblocks, kTaskBlocks);
  if (nblocks <= kTaskBlocks) {
    // One task's worth (a call per example, a short stream): no task dispatch, and a scratch
    // kept per calling thread, so a call does not allocate and zero its registers again
    // (that fill was most of a one-example call).
    thread_local Scratch small;
    run_blocks(small, range);
  } else {
    tbb::enumerable_thread_specific<Scratch> scratch;
    auto body = [&](const tbb::blocked_range<size_t>& r) { run_blocks(scratch.local(), r); };
    if (options.threads > 0) {
      arena_for(options.threads).execute([&] { tbb::parallel_for(range, body, tbb::simple_partitioner()); });
    } else {
      tbb::parallel_for(range, body, tbb::simple_partitioner());
    }
  }
  if (stats) {
    stats->clauses += clauses.load();
    stats->blocks += blocks.load();
    stats->narrow_blocks += narrow_blocks.load();
    stats->positive_blocks += positive_blocks.load();
    stats->bound_decided += bound_decided.load();
  }
}

void evaluate_guards_reference(const Graph& graph, const Specialization& spec, const ExampleColumns& ex, int32_t* verdict) {
  const GuardProgram p = compile_guards(graph, spec);  // for the clause order and texts only
  std::vector<std::vector<int64_t>> sizes;
  std::vector<std::span<const int64_t>> spans;
  const ExprArena& ar = spec.env->arena();
  for (size_t e = 0; e < ex.num_examples(); ++e) {
    ex.sizes_of(e, sizes);
    spans.assign(sizes.begin(), sizes.end());
    bool rank_ok = true;
    for (uint32_t ph = 0; ph < graph.num_placeholders(); ++ph)
      if (spans[ph].size() != graph.placeholder_rank(PlaceholderId(ph))) rank_ok = false;
    if (!rank_ok) {
      verdict[e] = kRankFail;
      continue;
    }
    Bindings b;
    bool bound = true;
    for (size_t i = 0; i < spec.guards.bound_symbols.size(); ++i) {
      std::optional<int64_t> v;
      for (const InputSource& in : spec.prop->input_sources())
        if (in.source == spec.guards.bound_sources[i]) v = input_source_value(in, spans);
      if (!v) bound = false;
      else b.set(ar.symbol_id(spec.guards.bound_symbols[i]), *v);
    }
    int32_t out = kPass;
    uint32_t clause = 0;
    auto check = [&](auto&& holds) {
      if (out != kPass) return;
      try {
        if (!holds()) out = int32_t(clause);
      } catch (const Error&) {
        out = int32_t(clause);
      }
    };
    for (const auto& equality : spec.guards.source_equalities) {
      check([&] {  // no structured binding: clang 14 (the fuzz build) cannot capture one
        std::optional<int64_t> v;
        for (const InputSource& in : spec.prop->input_sources())
          if (in.source == equality.first) v = input_source_value(in, spans);
        return v && evaluate_int(ar, equality.second, b) == *v;
      });
      ++clause;
    }
    for (ExprId g : spec.guards.exprs) {
      if (!g.valid()) continue;
      check([&] { return bound && evaluate_bool(ar, g, b); });
      ++clause;
    }
    verdict[e] = out;
  }
}

}  // namespace symshape
