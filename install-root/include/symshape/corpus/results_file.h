#pragma once
// Results files as a whole: reading either form (results.fb or JSON, told apart by
// content), writing by extension (`.json` -> JSON, otherwise results.fb) atomically,
// the canonical order, the canonical comparison (timings ignored) and merging shards.
//
//   Results all;
//   merge_results({shard_a, shard_b}, all, error);   // == one run over both shards
//   write_results_file("all.results.fb", all, error);
#include <string>
#include <vector>

#include "formats/results_fb.h"

namespace symshape {

bool read_results_file(const std::string& path, Results& out, std::string& error);
bool write_results_file(const std::string& path, const Results& r, std::string& error);

// Graphs sorted by (name, file); everything inside a graph is already in a canonical
// order (examples by index, specialisations by creation), so this makes a result
// independent of file order and thread count.
void canonicalize(Results& r);
// "" when equal apart from timings, else the first difference.
std::string results_difference(const Results& a, const Results& b);

// Shards of one corpus (disjoint sets of graphs) -> the result of one run over all of
// them. A graph present in two shards is an error.
bool merge_results(std::vector<Results> shards, Results& out, std::string& error);

}  // namespace symshape
