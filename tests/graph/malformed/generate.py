#!/usr/bin/env python3
"""Regenerates the malformed-input catalog (NN_name.graph.json) from ../data/tiny.graph.json.

Each case breaks exactly one rule of fx-graph-json v1 (corpus/FORMAT.md) or one loader
limit. expected.txt holds the exact diagnostics the loader must print for each file;
graph_malformed_test checks them. Run from anywhere: python3 generate.py
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = json.load(open(os.path.join(HERE, "..", "data", "tiny.graph.json")))
# Complete the failed example so the base is valid in every optional field too.
BASE["examples"][1].update({"error_kind": "shape", "error_node": "conv2d"})
TEXT = json.dumps(BASE, separators=(",", ":"))

cases = []  # (name, bytes)


def raw(name, text):
    cases.append((name, text.encode("utf-8") if isinstance(text, str) else text))


def mutate(name, fn):
    d = copy.deepcopy(BASE)
    fn(d)
    raw(name, json.dumps(d, separators=(",", ":")))


def node(d, name):
    return next(n for n in d["nodes"] if n["name"] == name)


def set_(path, value):
    def fn(d):
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return fn


# --- not JSON at all / truncated / lexical problems
raw("empty_file", "")
raw("truncated", TEXT[: len(TEXT) // 2])
raw("not_json", "hello, graph")
raw("nan_literal", TEXT.replace('"args":[{"node":"relu"},0]', '"args":[{"node":"relu"},NaN]'))
raw("invalid_utf8", TEXT.encode().replace(b'"example.tiny"', b'"example.\xff\xfetiny"'))
raw("trailing_garbage", TEXT + " x")
raw("top_level_array", "[" + TEXT + "]")
raw("int_beyond_uint64", TEXT.replace('"seed":1', '"seed":99999999999999999999999'))
raw("huge_float", TEXT.replace('[2,2],[0,0]', '[2,2e999],[0,0]'))
raw("deep_nesting", TEXT.replace('"args":[{"node":"relu"},0]', '"args":[{"node":"relu"},' + "[" * 200 + "0" + "]" * 200 + "]"))
# --- header
mutate("unknown_format", set_(["format"], "onnx-json"))
mutate("bad_version", set_(["version"], 2))
mutate("version_float", set_(["version"], 1.0))
mutate("missing_nodes", lambda d: d.pop("nodes"))
mutate("unknown_top_field", set_(["nodez"], []))
raw("duplicate_top_key", TEXT.replace('"name":"example.tiny"', '"name":"example.tiny","name":"again"'))
mutate("examples_not_array", set_(["examples"], {}))
mutate("null_graph_name", set_(["name"], None))
# --- nodes: structure
mutate("node_not_object", lambda d: d["nodes"].__setitem__(1, 5))
mutate("missing_node_name", lambda d: node(d, "relu").pop("name"))
mutate("bad_node_name_chars", lambda d: (node(d, "relu").update(name="re-lu"),
                                         node(d, "sym_size")["args"].__setitem__(0, {"node": "re-lu"}),
                                         node(d, "view")["args"].__setitem__(0, {"node": "re-lu"}),
                                         d["examples"][0]["values"].__setitem__("re-lu", d["examples"][0]["values"].pop("relu"))))
mutate("duplicate_node_name", lambda d: d["nodes"].insert(5, {"name": "relu", "op": "call_function", "target": "aten.relu.default", "args": [{"node": "conv2d"}], "kwargs": {}}))
mutate("unknown_op", set_(["nodes", 4, "op"], "call_method"))
mutate("placeholder_with_args", lambda d: node(d, "x").update(args=[]))
mutate("missing_meta", lambda d: node(d, "x").pop("meta"))
mutate("meta_unknown_key", lambda d: node(d, "x")["meta"].update(rnak=4))
raw("duplicate_meta_key", TEXT.replace('"rank":4}', '"rank":4,"rank":5}'))
mutate("placeholder_target_mismatch", lambda d: node(d, "x").update(target="y"))
mutate("bad_call_target", lambda d: node(d, "relu").update(target="relu"))
# --- references
mutate("dangling_ref", lambda d: node(d, "relu")["args"].__setitem__(0, {"node": "nope"}))
mutate("forward_ref", lambda d: node(d, "conv2d")["args"].__setitem__(0, {"node": "relu"}))
mutate("self_ref", lambda d: node(d, "relu")["args"].__setitem__(0, {"node": "relu"}))
mutate("cycle", lambda d: (node(d, "relu")["args"].__setitem__(0, {"node": "view"}),))
mutate("ref_not_string", lambda d: node(d, "relu")["args"].__setitem__(0, {"node": 3}))
# --- output node
mutate("missing_output", lambda d: d["nodes"].pop())
mutate("two_outputs", lambda d: d["nodes"].insert(7, {"name": "output0", "op": "output", "target": "output", "args": [{"node": "view"}]}))
mutate("output_not_last", lambda d: d["nodes"].append({"name": "late", "op": "call_function", "target": "aten.relu.default", "args": [{"node": "view"}], "kwargs": {}}))
mutate("output_two_args", lambda d: node(d, "output")["args"].append({"node": "relu"}))
# --- arguments
mutate("args_not_array", lambda d: node(d, "relu").update(args={"node": "conv2d"}))
mutate("arg_unknown_object", lambda d: node(d, "relu")["args"].__setitem__(0, {"tensor": "conv2d"}))
mutate("arg_object_two_keys", lambda d: node(d, "relu")["args"].__setitem__(0, {"node": "conv2d", "dtype": "float32"}))
mutate("bad_dtype_arg", lambda d: node(d, "relu")["kwargs"].update(dtype={"dtype": "float128"}))
mutate("bad_memory_format", lambda d: node(d, "relu")["kwargs"].update(memory_format={"memory_format": "nhwc"}))
mutate("float_object_finite", lambda d: node(d, "conv2d")["args"].__setitem__(6, {"float": "1.5"}))
raw("int_beyond_int64", TEXT.replace('"args":[{"node":"relu"},0]', '"args":[{"node":"relu"},9223372036854775808]'))
raw("duplicate_kwarg", TEXT.replace('"target":"aten.relu.default","args":[{"node":"conv2d"}],"kwargs":{}',
                                    '"target":"aten.relu.default","args":[{"node":"conv2d"}],"kwargs":{"inplace":false,"inplace":true}'))
mutate("list_nesting_over_limit", lambda d: node(d, "sym_size")["args"].__setitem__(1, json.loads("[" * 40 + "0" + "]" * 40)))
# --- meta values
mutate("rank_float", lambda d: node(d, "x")["meta"].update(rank=1e9))
mutate("rank_huge", lambda d: node(d, "x")["meta"].update(rank=1000000000))
mutate("negative_rank", lambda d: node(d, "x")["meta"].update(rank=-1))
mutate("unknown_dtype", lambda d: node(d, "x")["meta"].update(dtype="float8"))
mutate("negative_shape", lambda d: node(d, "conv_weight")["meta"].update(shape=[-4, 3, 3, 3]))
mutate("stride_length_mismatch", lambda d: node(d, "conv_weight")["meta"].update(stride=[27, 9, 3]))
mutate("data_on_float_tensor", lambda d: node(d, "conv_bias")["meta"].update(data=[0, 1, 2, 3]))
mutate("data_length_mismatch", lambda d: node(d, "conv_bias")["meta"].update(dtype="int64", data=[0, 1, 2]))
mutate("data_out_of_dtype_range", lambda d: node(d, "conv_bias")["meta"].update(dtype="uint8", data=[0, 1, 300, 3]))
mutate("shape_numel_overflow", lambda d: node(d, "conv_weight")["meta"].update(shape=[4611686018427387904, 4, 3, 3]))
mutate("range_empty", lambda d: node(d, "x")["meta"].update(dtype="int64", range=[5, 3]))
mutate("range_not_pair", lambda d: node(d, "x")["meta"].update(dtype="int64", range=[5]))
# --- dynamic_shapes SPEC
mutate("spec_unknown_placeholder", lambda d: d["dynamic_shapes"]["dynamic_shapes"].update(y=[1]))
mutate("spec_rank_mismatch", set_(["dynamic_shapes", "dynamic_shapes", "x"], ["batch", 3, "height"]))
mutate("spec_undefined_symbol", lambda d: d["dynamic_shapes"]["dims"].pop("width"))
mutate("spec_min_gt_max", lambda d: d["dynamic_shapes"]["dims"]["height"].update(min=5, max=2))
mutate("spec_derived_nonempty", lambda d: d["dynamic_shapes"]["dims"]["height"].update(derived=["height2"]))
mutate("spec_dim_wrong_type", set_(["dynamic_shapes", "dynamic_shapes", "x"], ["batch", 3.0, "height", "width"]))
# --- examples and golden VALUEs
mutate("example_missing_input", set_(["examples", 0, "inputs"], {}))
mutate("example_negative_size", set_(["examples", 0, "inputs", "x"], [2, -3, 9, 8]))
mutate("example_unknown_value_node", lambda d: d["examples"][0]["values"].update(ghost={"int": 1}))
mutate("example_ok_without_output", lambda d: d["examples"][0].pop("output"))
mutate("example_bad_error_kind", set_(["examples", 1, "error_kind"], "memory"))
mutate("example_error_node_dangling", set_(["examples", 1, "error_node"], "nowhere"))
mutate("example_missing_values", lambda d: d["examples"][0]["values"].pop("relu"))
mutate("value_wrong_type", set_(["examples", 0, "values", "relu"], 5))
mutate("value_tensor_missing_stride", lambda d: d["examples"][0]["values"]["relu"].pop("stride"))
mutate("golden_negative_stride", set_(["examples", 0, "values", "relu", "stride"], [48, -12, 3, 1]))
mutate("output_in_values", lambda d: d["examples"][0]["values"].update(output={"int": 1}))
mutate("value_float_as_int", set_(["examples", 0, "values", "sym_size"], {"float": 2}))
# --- derived dims (DynamicShapesSpec's `derived` lists; appended so the numbers above stay)
def derived(entries, leaf=None, **dim):
    def fn(d):
        d["dynamic_shapes"]["dims"]["height"].update(derived=entries, **dim)
        if leaf is not None:
            d["dynamic_shapes"]["dynamic_shapes"]["x"][2] = leaf
    return fn


mutate("spec_derived_not_listed", derived([], "height + 1"))
mutate("spec_derived_nonlinear", derived(["height**2"], "height**2"))
mutate("spec_derived_other_root", derived(["width + 1"], "width + 1"))
mutate("spec_derived_decreasing", derived(["2 - height"], "2 - height"))
mutate("spec_derived_not_printed_form", derived(["1 + height"], "1 + height"))
mutate("spec_derived_unused", derived(["height + 1"]))
mutate("spec_derived_duplicate", derived(["height + 1", "height + 1"], "height + 1"))
mutate("spec_derived_not_string", derived([2], "height"))
mutate("spec_derived_root_itself", derived(["height"], "height"))
mutate("spec_derived_negative_min", derived(["height - 2"], "height - 2", min=1))
mutate("spec_derived_max_overflow", derived(["4*height"], "4*height", max=4611686018427387904))

for old in os.listdir(HERE):
    if old.endswith(".graph.json"):
        os.remove(os.path.join(HERE, old))
for i, (name, data) in enumerate(cases, 1):
    with open(os.path.join(HERE, f"{i:02d}_{name}.graph.json"), "wb") as f:
        f.write(data)
print(f"{len(cases)} files")
