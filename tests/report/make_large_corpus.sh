#!/usr/bin/env bash
# make_large_corpus.sh SAMPLES_DIR OUT_DIR N: N graph files in OUT_DIR (emptied first), copies
# of SAMPLES_DIR/*.graph.json under corpus-builder names `<library>.<model>`: libraries timm,
# transformers, torchvision and torch_geometric (`torch_geometric.models.<model>`) in turn,
# every 31st graph without a library prefix (library "other"), the model the sample's name
# with the copy's number (`timm.resnet18_17`: family resnet). Every 23rd copy of a sample
# holding aten.hardtanh / aten.leaky_relu / aten.group_norm has that op renamed to an op no
# engine supports (status unsupported, three ops blocking 2:1:1 of them). One awk process.
set -euo pipefail
samples="$1" out="$2" n="$3"
rm -rf "$out" && mkdir -p "$out"
awk -v out="$out" -v n="$n" '
  BEGIN { split("timm transformers torchvision torch_geometric", libs, " ") }
  FNR == 1 { ++files; base[files] = FILENAME; sub(/^.*\//, "", base[files]); sub(/\.graph\.json$/, "", base[files]) }
  { text[files] = text[files] $0 "\n" }
  END {
    fakes[0] = "aten.hardtanh.default"; fakes[1] = "aten.leaky_relu.default"; fakes[2] = "aten.hardtanh.default"; fakes[3] = "aten.group_norm.default"
    for (k = 0; k < n; ++k) {
      s = k % files + 1
      model = base[s] "_" k
      lib = libs[int(k / files) % 4 + 1]
      if (k % 31 == 30) name = model
      else if (lib == "torch_geometric") name = lib ".models." model
      else name = lib "." model
      t = text[s]
      sub(/"name":"[^"]*"/, "\"name\":\"" name "\"", t)
      if (int(k / files) % 23 == 22) {
        op = fakes[int(k / files / 23) % 4]
        fake = op; sub(/^aten\./, "aten.symshape_test_unsupported_", fake)
        gsub(/\./, "\\.", op)
        sub("\"" op "\"", "\"" fake "\"", t)
      }
      file = out "/" name ".graph.json"
      printf "%s", t > file
      close(file)
    }
  }' "$samples"/*.graph.json
