// Corpus runs: independent of the thread count, shards merge into the whole, a bad graph
// is reported while the rest complete, and the verdicts agree with `symshape conform`.
#include <gtest/gtest.h>

#include <thread>

#include "conform/conform.h"
#include "corpus/graph_run.h"
#include "corpus/results_file.h"
#include "corpus_test_util.h"

namespace symshape {
namespace {

using test::LoadedCorpus;

Results run(const std::vector<CorpusItem>& items, const RuleTable& rules, int threads) {
  CorpusRunOptions opt;
  opt.threads = threads;
  CorpusSummary summary;
  return run_corpus(items, rules, opt, summary);
}

TEST(CorpusRun, SameResultsAtOneAndTwoThreads) {
  LoadedCorpus c(test::visible_files());
  ASSERT_GT(c.corpus.graphs.size(), 10u);
  const Results one = run(c.items(), c.rules, 1);
  for (int repeat = 0; repeat < 3; ++repeat) {
    const Results two = run(c.items(), c.rules, 2);
    EXPECT_EQ(results_difference(one, two), "");
  }
  ASSERT_EQ(one.graphs.size(), c.corpus.graphs.size());
  for (size_t i = 1; i < one.graphs.size(); ++i) EXPECT_LT(one.graphs[i - 1].name, one.graphs[i].name);
}

// The same, on plain std::threads sharing the graphs, their OpTable and the RuleTable
// (ThreadSanitizer sees std::thread synchronisation; TBB's own is invisible to it): two
// threads run every graph in opposite orders and must agree with a single-threaded run.
TEST(CorpusRun, SharedTablesAreSafeOnPlainThreads) {
  LoadedCorpus c(test::visible_files());
  const size_t n = c.corpus.graphs.size();
  std::vector<GraphResults> reference(n), forward(n), backward(n);
  for (size_t i = 0; i < n; ++i) reference[i] = run_graph(c.corpus.graphs[i], c.rules, c.files[i]);
  std::thread a([&] {
    for (size_t i = 0; i < n; ++i) forward[i] = run_graph(c.corpus.graphs[i], c.rules, c.files[i]);
  });
  std::thread b([&] {
    for (size_t i = n; i-- > 0;) backward[i] = run_graph(c.corpus.graphs[i], c.rules, c.files[i]);
  });
  a.join();
  b.join();
  Results ref, fwd, bwd;
  ref.graphs = reference;
  fwd.graphs = forward;
  bwd.graphs = backward;
  EXPECT_EQ(results_difference(ref, fwd), "");
  EXPECT_EQ(results_difference(ref, bwd), "");
}

TEST(CorpusRun, ShardsMergeIntoTheWholeRun) {
  LoadedCorpus c(test::visible_files());
  const size_t half = c.files.size() / 2;
  // shards are given in reverse so that merging has to restore the canonical order
  const Results a = run(c.items(half), c.rules, 2);
  const Results b = run(c.items(0, half), c.rules, 1);
  Results merged;
  std::string error;
  ASSERT_TRUE(merge_results({a, b}, merged, error)) << error;
  EXPECT_EQ(results_difference(merged, run(c.items(), c.rules, 2)), "");
}

TEST(CorpusRun, BadGraphsAreReportedAndTheRestComplete) {
  LoadedCorpus c(test::visible_files());
  std::vector<CorpusItem> items = c.items(0, 3);
  items.push_back({"/some/dir/broken.graph.json", nullptr, "broken.graph.json: node #2 'conv': args[1]: dangling"});
  CorpusRunOptions opt;
  CorpusSummary summary;
  const Results r = run_corpus(items, c.rules, opt, summary);
  EXPECT_EQ(summary.graphs, 4u);
  EXPECT_EQ(summary.failed, 1u);
  size_t ok = 0;
  for (const GraphResults& g : r.graphs) {
    if (g.name == "broken.graph.json") {
      EXPECT_EQ(g.status, GraphStatus::LoadError);
      EXPECT_EQ(g.file, "broken.graph.json");  // no directory: shards may live anywhere
      EXPECT_NE(g.error.find("node #2 'conv'"), std::string::npos);
    } else {
      EXPECT_EQ(g.status, GraphStatus::Ok) << g.name;
      ok += g.status == GraphStatus::Ok;
    }
  }
  EXPECT_EQ(ok, 3u);
}

// The streamed verdicts serve each example by the same specialisation as conform's
// specialisation cache, and reject the same examples.
TEST(CorpusRun, VerdictsAgreeWithConform) {
  LoadedCorpus c(test::visible_files());
  const Results r = run(c.items(), c.rules, 2);
  for (const Graph& g : c.corpus.graphs) {
    const GraphResult expected = conform_graph(g, c.rules);
    const GraphResults* got = nullptr;
    for (const GraphResults& x : r.graphs)
      if (x.name == g.name()) got = &x;
    ASSERT_NE(got, nullptr) << g.name();
    ASSERT_EQ(got->verdicts.size(), expected.examples.size()) << g.name();
    EXPECT_EQ(got->entries.size(), expected.specializations) << g.name();
    for (size_t e = 0; e < expected.examples.size(); ++e) {
      EXPECT_EQ(got->verdicts[e].specialization, expected.examples[e].specialization) << g.name() << " example " << e;
      EXPECT_EQ(got->verdicts[e].predicted_ok, expected.examples[e].engine_accepted) << g.name() << " example " << e;
      EXPECT_TRUE(got->verdicts[e].matches) << g.name() << " example " << e << ": " << got->verdicts[e].message;
    }
    EXPECT_FALSE(got->node_shapes.empty()) << g.name();
    EXPECT_FALSE(got->guards.empty()) << g.name();
  }
}

}  // namespace
}  // namespace symshape
