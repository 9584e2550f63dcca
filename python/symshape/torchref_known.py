"""Known, deliberate differences from PyTorch 2.x found by `python -m symshape.torchref`,
each by its name ("<kind>:<specific case key>") with the reason; the harness skips exactly
these and reports every other difference (docs/torchref.md)."""

KNOWN = {
    # --- spec serializer (torchref_serde) ---
    "serde:load_from_dict_max_null":
        "PyTorch 2.x's _load_dynamic_shapes(from_dict=True) rejects \"max\": null (F.6 quirk: the check is "
        "`not isinstance(max, int) or max is None`), which its own dump writes for an unbounded Dim and every "
        "corpus graph embeds; symshape accepts null as the dataclass form does (docs/specs.md). The same dicts "
        "are compared exactly against PyTorch's loader accepting null.",
    "serde:load/bounds:max_huge":
        "A max beyond int64 (2**70): PyTorch keeps Python's unbounded int; symshape's sizes and ranges are int64 "
        "and its loader refuses the number (UserError) instead of silently changing the range.",
    "serde:load/leaf:big_int":
        "A static size beyond int64 (2**64) in dynamic_shapes: PyTorch's loader passes any Python int through "
        "(export would fail later); symshape's sizes are int64 and its loader refuses it (UserError).",
    "serde:load/dims_key:name:δx":
        "A non-ASCII Dim name: Python identifiers may be Unicode and sympy makes a Symbol of it; symshape's Dim "
        "and symbol names are ASCII identifiers (is_identifier, like graph node names) and it refuses the key as "
        "not a symbol.",
    "serde:load/derived:square":
        "A non-linear derived expression written unsimplified (`dx*dx`): both refuse it with the same error, but "
        "PyTorch prints sympy's simplification (`dx**2`) where symshape's linear reader echoes the text as "
        "written; linear expressions are printed in sympy's form (`1 + dx + zz` -> `dx + zz + 1`).",
    "serde:load/leaf:deep":
        "dynamic_shapes nested 41 levels deep: PyTorch's tree_map takes any depth; symshape's loader bounds "
        "nesting at 32 levels (docs/specs.md: malformed or hostile input never exhausts the stack). Depth 32 "
        "itself loads identically (case leaf:depth_32).",
    # --- dynamism (torchref_dynamism) ---
    "dynamism:int_key_and_index_collide":
        "x is a list in one example and a dict with int keys in another: pytree tracks L['x'][0] twice (a "
        "SequenceKey and a MappingKey) and its output dict keeps the last one's flags at the first one's place; "
        "symshape reads `[0]` as one path and reports the size change across both (docs/dynamism.md).",
}
