# `symshape spec check --fixed-spec` -> `spec check` of the corrected spec (JSON and, after
# `spec convert`, spec.fb) -> `eval --spec`: one spec flows between the commands unedited.
# Then bad specs: each exits 2 with PyTorch's message naming the field.
file(MAKE_DIRECTORY ${WORK})
include(${CMAKE_CURRENT_LIST_DIR}/../cli_run.cmake)

file(REMOVE ${WORK}/fixed.json ${WORK}/fixed.spec.fb)
run(1 spec check ${GRAPH} --fixed-spec ${WORK}/fixed.json)
# PyTorch 2.x: export's tensor_meta asks `size == 1` of the final `h // 32` (phase 2, no
# fix from PyTorch's solver: its min=32 here is symshape's smallest min where the guard holds).
if(NOT out MATCHES "Constraints violated \\(height, width\\)! For more information, run with TORCH_LOGS=\"\\+dynamic\"\\.\n  - Not all values of width = L\\['x'\\]\\.size\\(\\)\\[3\\] in the specified range satisfy the generated guard \\(L\\['x'\\]\\.size\\(\\)\\[3\\] // 32\\) != 1\\.\n"
   OR NOT out MATCHES "\n  - Not all values of height = L\\['x'\\]\\.size\\(\\)\\[2\\] in the specified range satisfy the generated guard 32 <= L\\['x'\\]\\.size\\(\\)\\[2\\] and L\\['x'\\]\\.size\\(\\)\\[2\\] <= IntInfinity\\(\\)\n")
  message(FATAL_ERROR "unexpected report:\n${out}")
endif()
# export's own suggestion (its phase-3 min), then symshape's beyond it (the min under which
# the dropped `h // 32 != 1` holds), which the corrected spec takes
if(NOT out MATCHES "Suggested fixes:\n  height = Dim\\('height', min=32\\)\n  width = Dim\\('width', min=32\\)\n")
  message(FATAL_ERROR "no suggested fixes:\n${out}")
endif()
if(NOT out MATCHES "symshape's fixes, beyond PyTorch's \\(for the guards export's solver drops\\):\n  height = Dim\\('height', min=64\\)\n  width = Dim\\('width', min=64\\)")
  message(FATAL_ERROR "no fixes beyond PyTorch's:\n${out}")
endif()
file(READ ${WORK}/fixed.json fixed)
if(NOT fixed MATCHES "\"height\": {\"min\": 64, \"max\": null, \"derived\": \\[\\]}")
  message(FATAL_ERROR "unexpected corrected spec:\n${fixed}")
endif()
run(0 spec check ${GRAPH} ${WORK}/fixed.json)
if(NOT out MATCHES "no violation")
  message(FATAL_ERROR "corrected spec still violates:\n${out}")
endif()
run(1 spec check ${GRAPH} --json)
if(NOT out MATCHES "\"corrected_spec\": {")
  message(FATAL_ERROR "--json without corrected_spec:\n${out}")
endif()
run(0 spec convert ${WORK}/fixed.json ${WORK}/fixed.spec.fb)
run(0 spec check ${GRAPH} ${WORK}/fixed.spec.fb)

run(0 examples ${GRAPH})
file(WRITE ${WORK}/ex.ndjson "${out}")
run(0 eval ${GRAPH} --examples ${WORK}/ex.ndjson --spec ${WORK}/fixed.json)
if(NOT out MATCHES "rejected: example 6 \\(line 7\\): max_pool2d_4: max_pool2d_4 \\(aten.max_pool2d.default\\): Given input size: \\(512x1x1\\)\\. Calculated output size: \\(512x0x0\\)\\. Output size is too small; the exported program rejects it first: Expected input at \\*args\\[0\\]\\.shape\\[2\\] to be >= 64, but got 16")
  message(FATAL_ERROR "eval did not apply the corrected spec:\n${out}")
endif()
run(0 eval ${GRAPH} --examples ${WORK}/ex.ndjson --spec ${WORK}/fixed.spec.fb)
if(NOT out MATCHES "rejected: example 6 \\(line 7\\): max_pool2d_4: max_pool2d_4 \\(aten.max_pool2d.default\\): Given input size: \\(512x1x1\\)\\. Calculated output size: \\(512x0x0\\)\\. Output size is too small; the exported program rejects it first: Expected input at \\*args\\[0\\]\\.shape\\[2\\] to be >= 64, but got 16")
  message(FATAL_ERROR "eval did not apply the spec.fb:\n${out}")
endif()

# Bad specs.
function(bad name text pattern)
  file(WRITE ${WORK}/${name}.json "${text}")
  run(2 spec check ${GRAPH} ${WORK}/${name}.json)
  if(NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: unexpected error:\n${err}")
  endif()
  run(2 eval ${GRAPH} --examples ${WORK}/ex.ndjson --spec ${WORK}/${name}.json)
endfunction()
bad(unknown_input "{\"dynamic_shapes\": {\"z\": [1]}, \"dims\": {}}" "found top-level keys \\['z'\\] that weren't present in the arg names of `inputs`: \\['x'\\]")
bad(index_past_rank "{\"dynamic_shapes\": {\"x\": {\"7\": 4}}, \"dims\": {}}" "dimension index 7 .*`dynamic_shapes\\['x'\\]`")
bad(min_above_max "{\"dynamic_shapes\": {\"x\": [\"b\", 3, 8, 8]}, \"dims\": {\"b\": {\"min\": 9, \"max\": 4, \"derived\": []}}}" "Cannot create Dim with inconsistent min=9, max=4")
bad(derived_root "{\"dynamic_shapes\": {\"x\": [\"b + 1\", 3, 8, 8]}, \"dims\": {\"b + 1\": {\"min\": 1, \"max\": null, \"derived\": []}}}" "Expected `spec\\['dims'\\]` keys to be symbols, got b \\+ 1")
bad(malformed "{\"dynamic_shapes\": {\"x\": [" "malformed\\.json: malformed JSON in the spec")
bad(min_not_int "{\"dynamic_shapes\": {\"x\": [\"b\", 3, 8, 8]}, \"dims\": {\"b\": {\"min\": \"4\", \"max\": null, \"derived\": []}}}" "Expected dims in `spec\\['dims'\\]` to map `min` to an int, got b: 4")
