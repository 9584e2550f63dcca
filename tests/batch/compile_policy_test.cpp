// `--policy compile`: torch.compile's automatic dynamic recompiles over a stream.
#include <gtest/gtest.h>

#include "batch/stream.h"
#include "graph/json_loader.h"

namespace symshape {
namespace {

struct Fixture {
  OpTable ops;
  Graph g{ops};
  RuleTable rules;
  explicit Fixture(const std::string& file = "/data/samples/resnet18.graph.json") {
    Diagnostics d;
    JsonGraphLoader loader;
    EXPECT_TRUE(loader.load_file(std::string(SYMSHAPE_SOURCE_DIR) + file, ops, g, d));
    rules.resolve(ops);
  }
  StreamResult run(const std::string& ndjson, uint32_t limit = 8) {
    Diagnostics problems;
    const ExampleColumns ex = ExampleColumns::from_ndjson(g, ndjson, "t.ndjson", problems);
    EXPECT_TRUE(problems.empty());
    StreamOptions o;
    o.policy = RecompilePolicy::Compile;
    o.recompile_limit = limit;
    return run_stream(g, rules, ex, o);
  }
};

TEST(CompilePolicy, FirstCompileIsStaticThenChangedDimsBecomeDynamic) {
  Fixture f;
  const StreamResult r = f.run(
      "{\"x\": [8, 3, 224, 224]}\n"
      "{\"x\": [8, 3, 224, 224]}\n"
      "{\"x\": [8, 3, 160, 224]}\n"  // H changed: recompile with H dynamic
      "{\"x\": [8, 3, 192, 224]}\n"  // served by entry 1
      "{\"x\": [4, 3, 128, 224]}\n"  // batch changed too: recompile with batch and H dynamic
      "{\"x\": [12, 3, 224, 224]}\n"  // served by entry 2
      // torch.compile keeps mkldnn on: the conv backend selection of PyTorch 2.x asked
      // `batch >= 16` of an unstrided conv (docs/torchref.md), so 16 recompiles
      "{\"x\": [16, 3, 224, 224]}\n");
  ASSERT_EQ(r.specializations.size(), 4u);
  EXPECT_EQ(r.verdict, (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 3}));
  EXPECT_TRUE(r.specializations[0].dynamic_dims.empty());
  // entry 0 is fully static: its guards pin every size
  bool pins_h = false;
  for (const std::string& gtext : r.specializations[0].guards) pins_h |= gtext == "L['x'].size()[2] == 224";
  EXPECT_TRUE(pins_h);
  EXPECT_EQ(r.specializations[1].dynamic_dims, (std::vector<std::string>{"x.size()[2]"}));
  EXPECT_EQ(r.specializations[1].triggered_by, (std::vector<std::string>{"L['x'].size()[2] == 224"}));
  EXPECT_EQ(r.specializations[2].dynamic_dims, (std::vector<std::string>{"x.size()[0]", "x.size()[2]"}));
  EXPECT_EQ(r.specializations[2].triggered_by.size(), 2u);  // one failure per earlier entry, newest first
  EXPECT_EQ(r.specializations[2].triggered_by[0], "L['x'].size()[0] == 8");
  EXPECT_EQ(r.specializations[3].triggered_by[0], "2 <= L['x'].size()[0] and L['x'].size()[0] <= 15");
}

TEST(CompilePolicy, PastTheRecompileLimitTheRestRunUncompiled) {
  Fixture f;
  const StreamResult r = f.run(
      "{\"x\": [8, 3, 224, 224]}\n"
      "{\"x\": [8, 3, 160, 224]}\n"
      "{\"x\": [8, 3, 224, 224]}\n"  // served by entry 1: the newest entry is looked up first
      "{\"x\": [4, 3, 128, 224]}\n"
      "{\"x\": [2, 3, 96, 224]}\n",
      /*limit=*/2);
  ASSERT_EQ(r.specializations.size(), 2u);
  EXPECT_EQ(r.verdict, (std::vector<int32_t>{0, 1, 1, kUncompiled, kUncompiled}));
  EXPECT_EQ(r.uncompiled, 2u);
}

TEST(CompilePolicy, ZeroOneStillSpecialise) {
  Fixture f;
  const StreamResult r = f.run(
      "{\"x\": [8, 3, 224, 224]}\n"
      "{\"x\": [4, 3, 224, 224]}\n"   // batch dynamic
      "{\"x\": [1, 3, 224, 224]}\n");  // batch 1: a dynamic dim of size 1 specialises: another entry
  ASSERT_EQ(r.specializations.size(), 3u);
  EXPECT_EQ(r.verdict, (std::vector<int32_t>{0, 1, 2}));
}

// An MLP (Linear 16 -> 32 -> 4, torch.export of python/tests_torchref's MLP) at rank 2 and 3:
// Dynamo compiles a new entry at the new rank with every dim of x dynamic (pgo.py
// _merge_atom_tup), looks entries up most recently used first (extra_state.cpp lookup,
// move_to_front) and logs them in that order.
TEST(CompilePolicy, RankChangeTracesTheNewRankAndLookupIsMostRecentlyUsedFirst) {
  Fixture f("/tests/batch/data/mlp.graph.json");
  const StreamResult r = f.run(
      "{\"x\": [4, 16]}\n"
      "{\"x\": [5, 16]}\n"      // batch dynamic
      "{\"x\": [2, 3, 16]}\n"   // rank 3: a new entry, x dynamic in every dim
      "{\"x\": [4, 16]}\n"      // entries 2 (rank), 1 (passes): entry 1, not the static entry 0
      "{\"x\": [3, 5, 16]}\n"   // entry 2
      "{\"x\": [6, 16]}\n"      // entry 1, to the front again
      "{\"x\": [1, 16]}\n");    // batch 1 at rank 2, x fully dynamic: entry 3
  EXPECT_TRUE(r.rejections.empty());
  ASSERT_EQ(r.specializations.size(), 4u);
  EXPECT_EQ(r.verdict, (std::vector<int32_t>{0, 1, 2, 1, 2, 1, 3}));
  EXPECT_EQ(r.specializations[2].dynamic_dims, (std::vector<std::string>{"x.size()[0]", "x.size()[1]", "x.size()[2]"}));
  EXPECT_EQ(r.specializations[2].triggered_entries, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(r.specializations[2].triggered_by[0], "tensor 'x' rank mismatch. expected 2, actual 3");
  EXPECT_EQ(r.specializations[3].dynamic_dims, (std::vector<std::string>{"x.size()[0]", "x.size()[1]"}));
  // the cache list when [1, 16] arrives: 1 (last hit), 2, 0
  EXPECT_EQ(r.specializations[3].triggered_entries, (std::vector<uint32_t>{1, 2, 0}));
  EXPECT_EQ(r.specializations[3].triggered_by[1], "tensor 'x' rank mismatch. expected 3, actual 2");
  EXPECT_EQ(r.specializations[3].triggered_by[2], "L['x'].size()[0] == 4");
}

// A rank the graph's ops do not support: traced at that rank, the propagation fails and the call
// is rejected with PyTorch's message for the op, as a failed compile.
TEST(CompilePolicy, RankChangeTheOpsRejectIsARejection) {
  Fixture f("/data/samples/seq_ops.graph.json");
  const StreamResult r = f.run(
      "{\"x\": [2, 8, 16]}\n"
      "{\"x\": [8, 16]}\n");
  ASSERT_EQ(r.specializations.size(), 1u);
  EXPECT_EQ(r.verdict, (std::vector<int32_t>{0, kRejected}));
  ASSERT_EQ(r.rejections.size(), 1u);
  EXPECT_EQ(r.rejections[0].node, "topk");
  EXPECT_NE(r.rejections[0].message.find("Dimension out of range"), std::string::npos) << r.rejections[0].message;
}

// Two inputs (EncDec of python/tests_torchref: src [2, S, 16], tgt [2, T, 16]): when both fail,
// Dynamo names the first failing input in the entry's guard manager order, which starts as
// Guard.sort_key orders the names (src before tgt) and is re-sorted by fail counts.
TEST(CompilePolicy, FailingGuardFollowsTheGuardManagerOrder) {
  Fixture f("/tests/batch/data/encdec.graph.json");
  const StreamResult r = f.run(
      "{\"src\": [2, 7, 16], \"tgt\": [2, 3, 16]}\n"
      "{\"src\": [2, 7, 16], \"tgt\": [2, 4, 16]}\n"    // entry 0 fails on tgt, not its first input: tgt moves first
      "{\"src\": [2, 9, 16], \"tgt\": [2, 5, 16]}\n");  // entry 0: both fail, tgt is checked first
  ASSERT_EQ(r.specializations.size(), 3u);
  EXPECT_EQ(r.specializations[1].triggered_by, (std::vector<std::string>{"L['tgt'].size()[1] == 3"}));
  EXPECT_EQ(r.specializations[2].triggered_entries, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(r.specializations[2].triggered_by, (std::vector<std::string>{"L['src'].size()[1] == 7", "L['tgt'].size()[1] == 3"}));
}

}  // namespace
}  // namespace symshape
