"""symshape: PyTorch's symbolic-shape stack at native speed, from Python.

Engine bindings (load, propagate, guards, batch verdicts, conform) come from the
compiled `_symshape` extension; `export` and `verify` need PyTorch.
"""
from ._symshape import (  # noqa: F401
    BadInputError,
    DataDependentError,
    Graph,
    GuardProgram,
    Propagation,
    ShapeError,
    SymshapeError,
    UnsupportedOpError,
    dump_spec,
    dynamism,
    load_spec,
    spec_to_fb,
)
from .corpus import conform_corpus  # noqa: F401
from .dims import Dim  # noqa: F401
from .suggest import suggest_dynamic_shapes  # noqa: F401


def load(path_or_bytes, name="<bytes>", spec=None):
    """A Graph from a *.graph.json / *.graph.fb path, or from fx-graph-json text / graph.fb bytes.
    `spec`: a dynamic_shapes spec (DynamicShapesSpec dict, JSON text, spec.fb bytes or a path)
    that replaces the graph's own, as `symshape spec check GRAPH SPEC` and `eval --spec` do."""
    if isinstance(path_or_bytes, (bytes, bytearray)):
        return Graph.from_bytes(bytes(path_or_bytes), name, spec)
    return Graph.load(str(path_or_bytes), spec)


def check_spec(graph, spec=None):
    """Export's constraint check (`symshape spec check`): `graph` a Graph or a path; `spec`
    replaces the graph's own spec when given. Returns a dict with ok, violations, report and
    corrected_spec (DynamicShapesSpec dict)."""
    if not isinstance(graph, Graph) or spec is not None:
        if isinstance(graph, Graph):
            raise ValueError("pass a path with spec=..., or a Graph loaded with symshape.load(path, spec=...)")
        graph = load(graph, spec=spec)
    return graph.check_spec()


def export(model, example_inputs, kwargs=None, dynamic_shapes=None, path=None, **options):
    """fx-graph-json text of `model` (see symshape.exporter.export; torch.export's argument order)."""
    from .exporter import export as _export
    return _export(model, example_inputs, kwargs, dynamic_shapes=dynamic_shapes, path=path, **options)


def verify(model, examples, dynamic_shapes=None, **kwargs):
    """Export, run in PyTorch and in the engine, compare (see symshape.verification.verify)."""
    from .verification import verify as _verify
    return _verify(model, examples, dynamic_shapes=dynamic_shapes, **kwargs)


def capture(out_dir, inner=None, **options):
    """A torch.compile backend recording every Dynamo graph, its guards and its calls as a
    corpus in `out_dir` (see symshape.capture.capture)."""
    import importlib
    mod = importlib.import_module(".capture", __name__)
    # importing the submodule binds symshape.capture to it: keep the function there
    globals()["capture"] = _capture_function
    return mod.capture(out_dir, inner=inner, **options)


_capture_function = capture


def __getattr__(name):
    # the exporter imports torch: load it only when asked for
    if name in ("exporter", "ExportError"):
        # import_module, not `from . import exporter`: the latter asks this module for the
        # attribute first and would land here again
        import importlib
        exporter = importlib.import_module(".exporter", __name__)
        return exporter if name == "exporter" else exporter.ExportError
    raise AttributeError(f"module 'symshape' has no attribute {name!r}")
