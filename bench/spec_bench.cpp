// check_spec on corpus graphs under their own spec (what `symshape spec check` spends after
// loading), and spec loading: the DynamicShapesSpec JSON vs the spec.fb form.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <filesystem>
#include <string>

#include "formats/spec_fb.h"
#include "graph/json_loader.h"
#include "prop/rules.h"
#include "spec/apply_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_json.h"

namespace {

using namespace symshape;

std::string corpus_file(const char* name) {
  return (std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible" / (std::string(name) + ".graph.json")).string();
}

std::string own_spec_json(const std::string& file) {
  simdjson::dom::parser parser;
  return simdjson::minify(parser.load(file)["dynamic_shapes"]);
}

void BM_CheckSpec(benchmark::State& state, const char* name) {
  OpTable ops;
  Graph g;
  Diagnostics diags;
  JsonGraphLoader loader;
  if (!loader.load_file(corpus_file(name), ops, g, diags)) {
    state.SkipWithError("corpus graph missing");
    return;
  }
  RuleTable rules;
  rules.resolve(ops);
  const spec::DynamicShapes s = spec::load_spec_json(own_spec_json(corpus_file(name)));
  size_t violations = 0;
  for (auto _ : state) {
    spec::SpecCheckResult r = spec::check_spec(g, rules, &s);
    violations = r.violations.size();
    benchmark::DoNotOptimize(r);
  }
  state.counters["violations"] = double(violations);
  state.counters["nodes"] = double(g.num_nodes());
}
BENCHMARK_CAPTURE(BM_CheckSpec, resnet18, "resnet18")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CheckSpec, vgg11_bn, "vgg11_bn")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CheckSpec, googlenet, "googlenet")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_CheckSpec, gpt2_small, "gpt2_small")->Unit(benchmark::kMicrosecond);

void BM_LoadSpecJson(benchmark::State& state) {
  const std::string text = own_spec_json(corpus_file("whisper_encoder_tiny"));
  for (auto _ : state) benchmark::DoNotOptimize(spec::load_spec_json(text));
}
BENCHMARK(BM_LoadSpecJson);

void BM_LoadSpecFb(benchmark::State& state) {
  const std::vector<uint8_t> fb = dump_spec_fb(spec::load_spec_json(own_spec_json(corpus_file("whisper_encoder_tiny"))));
  for (auto _ : state) benchmark::DoNotOptimize(load_spec_fb(fb.data(), fb.size()));
}
BENCHMARK(BM_LoadSpecFb);

}  // namespace

BENCHMARK_MAIN();
