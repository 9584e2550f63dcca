# Derived dims in a graph's own spec (data/differential/derived_dims: `b + 1`, `2*n` over a
# later root, a phantom `2*r + 1`, `s - 1` with `2*h`), through every reader of the spec:
# conform on the JSON, on graph.fb and on a packed corpus.fb (and back to JSON), PyTorch's
# guards (checked against produce_guards by ctest torchref.derived_dims), spec check of the
# own spec, eval of the own examples under the export policy, symshape corpus, infer, dynamism.
include(${CMAKE_CURRENT_LIST_DIR}/../cli_run.cmake)
function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${text}")
  endif()
endfunction()
set(summary "conform: graphs=4 examples=30 correct=30 mismatch=0 rejected=0 unsound=0 value_errors=0 specializations=6 unsupported=0")

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/fb)
run(0 conform ${DATA})
expect("${out}" "${summary}")
file(GLOB graphs ${DATA}/*.graph.json)
foreach(g ${graphs})
  get_filename_component(name ${g} NAME_WE)
  run(0 convert ${g} ${WORK}/fb/${name}.graph.fb)
endforeach()
run(0 conform ${WORK}/fb)
expect("${out}" "${summary}")
run(0 pack ${DATA} -o ${WORK}/all.corpus.fb)
run(0 corpus ${WORK}/all.corpus.fb --no-timing)
expect("${out}" "corpus: graphs=4 nodes=33 failed=0")
run(0 convert ${WORK}/all.corpus.fb ${WORK}/back)
run(0 conform ${WORK}/back)
expect("${out}" "${summary}")
file(READ ${WORK}/back/diff_derived_minus_two_roots.graph.json back)
expect("${back}" "\"y\": *\\[ *\"s - 1\", *\"2\\*h\" *\\]")
expect("${back}" "\"h\": *{ *\"min\": *1, *\"max\": *null, *\"derived\": *\\[ *\"2\\*h\" *\\] *}")
run(0 validate ${WORK}/fb ${WORK}/back)

# produce_guards' text: the relation as a source equality, the range on the symbol export keeps
run(0 guards ${DATA}/diff_derived_plus_one.graph.json --example 1)
expect("${out}" "L\\['y'\\]\\.size\\(\\)\\[0\\] == 1 \\+ L\\['x'\\]\\.size\\(\\)\\[0\\]\n")
expect("${out}" "2 <= L\\['x'\\]\\.size\\(\\)\\[0\\] and L\\['x'\\]\\.size\\(\\)\\[0\\] <= 64")
run(0 guards ${DATA}/diff_derived_double_later_root.graph.json --example 1)
expect("${out}" "L\\['x'\\]\\.size\\(\\)\\[0\\] == 2\\*L\\['y'\\]\\.size\\(\\)\\[0\\]\n")
run(0 guards ${DATA}/diff_derived_phantom_odd.graph.json --example 1)
expect("${out}" "L\\['z'\\]\\.size\\(\\)\\[0\\] == 1 \\+ 2\\*r\n")
expect("${out}" "\n2 <= r\n")
run(0 guards ${WORK}/fb/diff_derived_minus_two_roots.graph.fb --example 1)
expect("${out}" "L\\['x'\\]\\.size\\(\\)\\[0\\] == 1 \\+ L\\['y'\\]\\.size\\(\\)\\[0\\]\n")
expect("${out}" "L\\['y'\\]\\.size\\(\\)\\[1\\] == 2\\*L\\['x'\\]\\.size\\(\\)\\[1\\]\n")
expect("${out}" "2 <= L\\['y'\\]\\.size\\(\\)\\[0\\] and L\\['y'\\]\\.size\\(\\)\\[0\\] <= 31")

# the own spec (derived dims included) is what export accepts
foreach(g ${graphs})
  run(0 spec check ${g})
  expect("${out}" "no violation")
endforeach()

# the graph's own examples through the export policy: the relation is a clause of the program
run(0 examples ${DATA}/diff_derived_phantom_odd.graph.json)
file(WRITE ${WORK}/odd.ndjson "${out}")
run(0 eval ${DATA}/diff_derived_phantom_odd.graph.json --examples ${WORK}/odd.ndjson)
expect("${out}" "Expected input \\*args\\[0\\]\\.shape\\[0\\] = 6 to be of the form 2\\*r \\+ 1, where r is an integer")
expect("${out}" "Expected input at \\*args\\[0\\]\\.shape\\[0\\] to be >= 5, but got 3")
expect("${out}" "eval: examples=7 specializations=1 rejected=3")

# infer and dynamism keep the relation as a derived dim of the graph's root name
run(0 infer ${DATA}/diff_derived_plus_one.graph.json --sizes x=5,3 --sizes y=6,3)
expect("${out}" "\"x\": \\[\"b\", 3\\], \"y\": \\[\"b \\+ 1\", 3\\]")
run(0 dynamism ${DATA}/diff_derived_plus_one.graph.json)
expect("${out}" "\"suggested_spec\": {\"dynamic_shapes\": {\"x\": \\[\"b\", 3\\], \"y\": \\[\"b \\+ 1\", 3\\]}")
