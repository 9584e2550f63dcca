"""The spec serializer against PyTorch 2.x (the differential harness, part 2; docs/torchref.md).

Both directions of torch._export.serde.dynamic_shapes are compared with symshape's
DynamicShapesSpec dictionary form (engine/spec/spec_json):

- dump: PyTorch dumps a spec built from torch.export.Dim objects and example args
  (`_dump_dynamic_shapes(..., to_dict=True)`); symshape's canonical text of that dict
  (`symshape.dump_spec`) must be PyTorch's `json.dumps` text, character for character. A dict
  symshape refuses to dump must be one PyTorch's own loader refuses, with the same error.
- load: `_load_dynamic_shapes(d, from_dict=True)` against `symshape.load_spec(d)`: the same
  error (exception kind and message) or the same spec, PyTorch's Dim objects written in the
  dictionary form by `_torch_spec_text` (names, ranges, derived names).
  PyTorch's dict loader rejects `"max": null` (F.6 quirk) where symshape, like the dataclass
  form, accepts it: for a dict with a null max the exact comparison is against PyTorch's loader
  accepting null (the dict checks run with the null max replaced by an int, then the dataclass
  form loads the dict itself), and the from_dict rejection is reported as the known
  difference `serde:load_from_dict_max_null`.

A PyTorch error that is not one of its validation errors (an AttributeError on a list where
a dict belongs, sympify's SyntaxError) means PyTorch cannot run the input: counted, not a
difference."""
import copy
import json
import random
import re

import torch
from torch._dynamo.exc import UserError
from torch._export.serde.dynamic_shapes import (
    DynamicShapesSpec,
    RootDim,
    _dump_dynamic_shapes,
    _load_dynamic_shapes,
)
from torch.export import Dim
from torch.export.dynamic_shapes import _DerivedDim, _DimHint
from torch.utils._sympy.numbers import int_oo

import symshape

KIND = "serde"
# PyTorch's deliberate validation errors; anything else is PyTorch failing to run the input.
_VALIDATION_ERRORS = (UserError, AssertionError, NotImplementedError, TypeError, ValueError)
# Stands in for a null max while PyTorch's dict checks run (far above every generated bound).
_NULL_MAX_STANDIN = 2**62 + 12345
_MAX_NULL_ERROR = re.compile(r"^Expected dims in `spec\['dims'\]` to map `max` to an int or None, got .*: None$")

unrunnable_cases = 0  # inputs PyTorch itself cannot run, over this process


# --- outcomes: ("ok", text) | ("error", kind, message) | ("unrunnable", text) ---------------

def _torch_error(e):
    # Exact types: sympify's SympifyError is a ValueError, yet PyTorch crashing, not validating.
    if isinstance(e, UserError) or type(e) in _VALIDATION_ERRORS:
        return ("error", "UserError" if isinstance(e, UserError) else type(e).__name__, str(e))
    return ("unrunnable", f"{type(e).__name__}: {e}")


def _symshape_error(e):
    # The engine tags spec errors with the Python exception PyTorch raises (spec_error.h).
    return ("error", getattr(e, "torch_exception", type(e).__name__), str(e))


def _torch_spec_text(tree):
    """PyTorch's loaded spec (Dims, hints, ints, None in containers) in the dictionary form's text:
    the name each Dim dumps as, its root's range, derived names sorted (F.5's layout)."""
    dims = {}

    def leaf(v):
        if isinstance(v, _DimHint):
            return "_DimHint." + v.type.name
        if isinstance(v, Dim):
            root = v.root if isinstance(v, _DerivedDim) else v
            entry = dims.setdefault(root.__name__, {"min": int(root.min),
                                                    "max": None if root.max is int_oo else int(root.max),
                                                    "derived": set()})
            if isinstance(v, _DerivedDim):
                entry["derived"].add(v.__name__)
            return v.__name__
        if isinstance(v, bool):  # True is the int 1 to every consumer of a spec
            return int(v)
        return v

    def walk(t):
        if isinstance(t, dict):
            return {k: walk(v) for k, v in t.items()}
        if isinstance(t, (list, tuple)):
            return [walk(v) for v in t]
        return leaf(t)

    shapes = None if tree is None else walk(tree)
    return json.dumps({"dynamic_shapes": shapes,
                       "dims": {k: {"min": v["min"], "max": v["max"], "derived": sorted(v["derived"])}
                                for k, v in sorted(dims.items())}})


def _has_null_max(d):
    return (isinstance(d, dict) and isinstance(d.get("dims"), dict)
            and any(isinstance(v, dict) and "max" in v and v["max"] is None for v in d["dims"].values()))


def torch_load(d):
    """PyTorch's loader accepting a null max: its dict checks (null max replaced by an int), then
    the dataclass form on the dict itself."""
    try:
        if not _has_null_max(d):
            return ("ok", _torch_spec_text(_load_dynamic_shapes(copy.deepcopy(d), from_dict=True)))
        checked = copy.deepcopy(d)
        for v in checked["dims"].values():
            if isinstance(v, dict) and "max" in v and v["max"] is None:
                v["max"] = _NULL_MAX_STANDIN
        _load_dynamic_shapes(checked, from_dict=True)
        spec = DynamicShapesSpec(dynamic_shapes=copy.deepcopy(d["dynamic_shapes"]),
                                 dims={k: RootDim(**v) for k, v in d["dims"].items()})
        return ("ok", _torch_spec_text(_load_dynamic_shapes(spec)))
    except Exception as e:  # noqa: BLE001 - PyTorch's rejection is the answer
        return _torch_error(e)


def torch_load_from_dict(d):
    """PyTorch 2.x's dict loader as it is (rejects a null max)."""
    try:
        return ("ok", _torch_spec_text(_load_dynamic_shapes(copy.deepcopy(d), from_dict=True)))
    except Exception as e:  # noqa: BLE001
        return _torch_error(e)


def _as_file(d):
    # The dict as the bytes of a spec file: the engine's JSON loader sees any JSON value.
    return json.dumps(d).encode()


def symshape_load(d):
    try:
        return ("ok", json.dumps(symshape.load_spec(_as_file(d))))
    except symshape.SymshapeError as e:
        return _symshape_error(e)


def symshape_dump(d):
    try:
        return ("ok", symshape.dump_spec(_as_file(d)))
    except symshape.SymshapeError as e:
        return _symshape_error(e)


# --- comparing -----------------------------------------------------------------------------

class Comparison:
    """Counts compared cases and collects differences for one graph (or "generated")."""

    def __init__(self, graph):
        self.graph, self.cases, self.diffs = graph, 0, []

    def check(self, key, case, torch_out, symshape_out, what):
        global unrunnable_cases
        if torch_out[0] == "unrunnable":
            unrunnable_cases += 1
            return
        self.cases += 1
        if torch_out == symshape_out:
            return
        self.diffs.append({"kind": KIND, "key": f"{KIND}:{key}", "graph": self.graph, "case": case,
                           "torch": _show(torch_out), "symshape": _show(symshape_out),
                           "detail": f"{what}: {_explain(torch_out, symshape_out)}"})

    def dump_case(self, key, case, dumped):
        """PyTorch's dump `dumped` (a dict) against symshape's dump of it."""
        text = json.dumps(dumped)
        ours = symshape_dump(dumped)
        # A dict symshape cannot dump must be one PyTorch cannot load back either.
        expected = ("ok", text) if ours[0] == "ok" else torch_load(dumped)
        if ours[0] != "ok" and expected[0] == "ok":
            expected = ("ok", text)
        self.check(f"dump/{key}", case, expected, ours, "dump")

    def load_case(self, key, case, d):
        ours = symshape_load(d)
        self.check(f"load/{key}", case, torch_load(d), ours, "load")
        if _has_null_max(d):
            # 2.x's dict loader as it is: where it stops at the null max, that is the known quirk
            # (symshape's own answer was compared just above); anything else must agree too.
            strict = torch_load_from_dict(d)
            quirk = strict[0] == "error" and _MAX_NULL_ERROR.match(strict[2])
            self.check("load_from_dict_max_null" if quirk else f"load_from_dict/{key}", case, strict, ours,
                       "load (from_dict=True)")

    def result(self):
        return self.cases, self.diffs


def _show(out):
    return out[1] if out[0] == "ok" else f"{out[1]}: {out[2]}"


def _explain(t, s):
    if t[0] != s[0]:
        return f"PyTorch {'accepts' if t[0] == 'ok' else 'rejects'}, symshape {'accepts' if s[0] == 'ok' else 'rejects'}"
    if t[0] == "ok":
        return "different spec text"
    return "different error kind" if t[1] != s[1] else "different error message"


def _short(d, limit=160):
    text = json.dumps(d, default=repr)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --- the corpus ----------------------------------------------------------------------------

def compare_spec_doc(graph_name, spec):
    """One corpus graph's DynamicShapesSpec dict: symshape's dump is the file's text and equals
    PyTorch's dump of the same spec rebuilt from Dim objects; both loaders agree on the dict
    and on its mutations (generated.MUTATIONS)."""
    from .torchref_serde_cases import MUTATIONS, torch_spec_from_dict

    c = Comparison(graph_name)
    c.load_case("corpus", f"{graph_name} spec", spec)
    rebuilt = torch_spec_from_dict(spec)
    if rebuilt is not None:
        shapes, args = rebuilt
        try:
            dumped = _dump_dynamic_shapes(shapes, args, to_dict=True)
        except Exception as e:  # noqa: BLE001
            c.check("dump/corpus", f"{graph_name} spec", _torch_error(e), symshape_dump(spec), "dump")
        else:
            # PyTorch's dump has a tuple top level where the corpus keeps the dict keyed by input
            # name; the same values in the same order.
            c.dump_case("corpus", f"{graph_name} spec (PyTorch's dump)", dumped)
    for name, mutate in MUTATIONS:
        for variant, d in mutate(copy.deepcopy(spec), random.Random(f"{graph_name}/{name}")):
            c.load_case(f"{name}:{variant}", f"{graph_name} spec, {name} {variant}: {_short(d)}", d)
    return c.result()


def compare_generated(count=500, seed=0):
    """`count` generated specs (nested tuples/dicts/lists, None, Dim.STATIC/DYNAMIC/AUTO, ints,
    shared and derived dims, hint bounds) dumped by PyTorch, each compared in both directions,
    and every one mutated once into a dict for the loaders."""
    from .torchref_serde_cases import MUTATIONS, random_spec

    c = Comparison("generated")
    rng = random.Random(seed)
    for i in range(count):
        shapes, args, shape_text = random_spec(rng)
        case = f"#{i} {shape_text}"
        try:
            dumped = _dump_dynamic_shapes(shapes, args, to_dict=True)
        except Exception as e:  # noqa: BLE001 - PyTorch refused its own dump input: nothing to compare
            global unrunnable_cases
            unrunnable_cases += 1
            continue
        c.dump_case("generated", case, dumped)
        d = json.loads(json.dumps(dumped))  # the dict as it is read back from a file
        c.load_case("generated", case, d)
        name, mutate = MUTATIONS[i % len(MUTATIONS)]
        variants = mutate(copy.deepcopy(d), rng)
        if variants:
            variant, bad = variants[rng.randrange(len(variants))]
            c.load_case(f"{name}:{variant}", f"#{i} {name} {variant}: {_short(bad)}", bad)
    return c.result()
