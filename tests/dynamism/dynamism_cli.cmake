# `symshape dynamism`: a corpus graph's own examples -> verified spec -> `spec check` of the
# written spec; NDJSON examples with a graph; examples alone; bad input (unreadable file,
# malformed NDJSON line, a graph with no OK example).
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../cli_run.cmake)
function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${text}")
  endif()
endfunction()

set(VGG ${CORPUS}/vgg11_bn.graph.json)
file(REMOVE ${WORK}/vgg.spec.json ${WORK}/vgg.out.json)
run(0 dynamism ${VGG} --spec-out ${WORK}/vgg.spec.json)
expect("${out}" "\"dynamism\": {\"x\": {\"L\\['x'\\]\": \\[true, false, true, true\\]}},")
expect("${out}" "\"verified\": true,")
file(READ ${WORK}/vgg.spec.json spec)
# torch.export 2.x asks `h // 32 != 1` at example 1 (97 x 129): height/width are Dims from 64,
# and the examples below 64 (2: 32 x 32, 4: width 48) are reported as left out, not dropped.
expect("${spec}" "\"height\": {\"min\": 64, \"max\": null, \"derived\": \\[\\]}")
expect("${spec}" "\"width\": {\"min\": 64, \"max\": null, \"derived\": \\[\\]}")
expect("${out}" "\"as\": \"height\", \"examples\": \\[32, 224\\], \"range\": \\[64, null\\], \"left_out\": \"example 2 \\(32\\)\"")
expect("${out}" "\"outside_examples\": \\[\"example 2: height = 32 is outside \\[64, int_oo\\]\", \"example 4: width = 48 is outside \\[64, int_oo\\]\"\\]")
expect("${out}" "\"rejected_examples\": \\[\\],")
run(0 spec check ${VGG} ${WORK}/vgg.spec.json)
expect("${out}" "vgg11_bn: no violation")
run(0 dynamism ${VGG} --compact --out ${WORK}/vgg.out.json)
if(NOT out STREQUAL "")
  message(FATAL_ERROR "--out printed to stdout:\n${out}")
endif()
file(READ ${WORK}/vgg.out.json written)
expect("${written}" "^{\"dynamism\": ")

# NDJSON examples with the graph: a malformed line is reported with its line number, the
# rest is used; a line without the graph's input is not used for the spec.
file(WRITE ${WORK}/ex.ndjson "{\"x\": [1, 3, 64, 64]}\n{\"x\": [2, 3, 97\n{\"x\": [2, 3, 96, 64], \"note\": \"kept\"}\n{\"y\": [1]}\n")
run(0 dynamism --graph ${VGG} --examples ${WORK}/ex.ndjson)
expect("${err}" "ex\\.ndjson: line 2: invalid JSON")
expect("${err}" "ex\\.ndjson: graph 'vgg11_bn': line 4: x: missing input of graph 'vgg11_bn' \\(not used for the spec\\)")
expect("${out}" "\"dynamism\": {\"x\": {\"L\\['x'\\]\": \\[true, false, true, false\\]}, \"y\": {\"L\\['y'\\]\": \\[false\\]}}")
expect("${out}" "\"verified\": true")

# Examples alone: dynamism and a spec over the top-level tensors, never verified (exit 1).
file(WRITE ${WORK}/nested.ndjson "{\"a\": [1, 2], \"b\": [{\"tensor\": [1]}, 3], \"c\": {\"d\": 42}}\n{\"a\": [2, 2], \"b\": [{\"tensor\": [2]}, 4], \"c\": {\"d\": 42}}\n")
run(1 dynamism ${WORK}/nested.ndjson)
expect("${out}" "\"dynamism\": {\"a\": {\"L\\['a'\\]\": \\[true, false\\]}, \"b\": {\"L\\['b'\\]\\[0\\]\": \\[true\\], \"L\\['b'\\]\\[1\\]\": \\[true\\]}, \"c\": {\"L\\['c'\\]\\['d'\\]\": \\[false\\]}},")
expect("${out}" "\"suggested_spec\": {\"dynamic_shapes\": {\"a\": \\[\"a_dim0\", 2\\]}, \"dims\": {\"a_dim0\": {\"min\": 1, \"max\": null, \"derived\": \\[\\]}}},")
expect("${out}" "\"verified\": false,")
expect("${out}" "\"check_error\": \"no graph to check the spec against")

# Bad input.
run(2 dynamism --graph ${VGG} --examples ${WORK}/does_not_exist.ndjson)
expect("${err}" "does_not_exist\\.ndjson: cannot open file")
run(2 dynamism ${WORK}/does_not_exist.graph.json)
expect("${err}" "does_not_exist\\.graph\\.json")
file(WRITE ${WORK}/all_bad.ndjson "not json\n[1]\n")
run(2 dynamism ${WORK}/all_bad.ndjson)
expect("${err}" "all_bad\\.ndjson: line 1: invalid JSON")
expect("${err}" "all_bad\\.ndjson: line 2: expected an object of named inputs")
expect("${err}" "all_bad\\.ndjson: no usable example")
file(WRITE ${WORK}/no_ok.graph.json "{\"format\": \"fx-graph-json\", \"version\": 1, \"name\": \"no_ok\", \"producer\": {}, \"nodes\": [{\"name\": \"x\", \"op\": \"placeholder\", \"target\": \"x\", \"meta\": {\"dtype\": \"float32\", \"rank\": 1}}, {\"name\": \"r\", \"op\": \"call_function\", \"target\": \"aten.relu.default\", \"args\": [{\"node\": \"x\"}], \"kwargs\": {}}, {\"name\": \"output\", \"op\": \"output\", \"target\": \"output\", \"args\": [{\"node\": \"r\"}]}], \"dynamic_shapes\": {\"dynamic_shapes\": {\"x\": [\"n\"]}, \"dims\": {\"n\": {\"min\": 1, \"max\": null, \"derived\": []}}}, \"examples\": [{\"inputs\": {\"x\": [3]}, \"seed\": 0, \"in_spec\": true, \"ok\": false, \"error\": \"RuntimeError: boom\", \"error_kind\": \"value\"}]}\n")
run(2 dynamism ${WORK}/no_ok.graph.json)
expect("${err}" "no_ok\\.graph\\.json: graph 'no_ok' has no example PyTorch ran")
run(2 dynamism ${VGG} --graph ${VGG})
expect("${err}" "two graphs given")

# A relation the graph needs (x[1:] + y: y = x - 1) over NDJSON examples: a derived dim,
# the graph's own names kept (n; m is written as n - 1), n's min 2 (y's symbol carries the
# range: export's derived equality replaces the larger-hinted x by y + 1).
run(0 dynamism --graph ${DATA}/slice_add.graph.json --examples ${DATA}/slice_add.ndjson)
expect("${out}" "\"suggested_spec\": {\"dynamic_shapes\": {\"x\": \\[\"n\", 4\\], \"y\": \\[\"n - 1\", 4\\]}, \"dims\": {\"n\": {\"min\": 2, \"max\": null, \"derived\": \\[\"n - 1\"\\]}}},")
expect("${out}" "\"relations\": \\[{\"dim\": \"m\", \"expr\": \"n - 1\", \"in_spec\": true}\\]")
expect("${out}" "\"checked_line\": 1,")
