"""Capturing an nn.Module with PyTorch 2.x's own torch.export.export.

The ExportedProgram it returns is what PyTorch promises about the model: a branch on a
size either became a range constraint / runtime assert of the program or torch.export
refused the model. Either way nothing is guessed here: refusals reach the user as
symshape.ExportError carrying PyTorch's message."""
import torch

from .dims import Dim as ShimDim


def available():
    """True when this PyTorch has torch.export.export (2.x); 1.13 keeps the tracer."""
    return hasattr(torch, "export") and hasattr(torch.export, "export") and hasattr(torch.export, "Dim")


def _to_torch_dims(spec, cache):
    """symshape.Dim (the 1.13 stand-in, e.g. from suggest_dynamic_shapes) -> torch.export.Dim,
    one per name so that equal names stay one symbol; everything else torch.export takes
    (its Dims, derived dims, Dim.AUTO/DYNAMIC/STATIC, None, ints, nesting) passes unchanged."""
    if isinstance(spec, ShimDim):
        if spec.__name__ not in cache:
            cache[spec.__name__] = torch.export.Dim(spec.__name__, min=spec.min, max=spec.max)
        return cache[spec.__name__]
    if isinstance(spec, dict):
        return {k: _to_torch_dims(v, cache) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return type(spec)(_to_torch_dims(v, cache) for v in spec)
    return spec


def _auto_everywhere(model, args, kwargs):
    """dynamic_shapes=None keeps symshape's meaning (every dim may vary): each tensor dim is
    Dim.AUTO, so torch.export keeps it dynamic unless the model pins it (then it is static
    in the program, never silently general)."""
    def per_leaf(v):
        if isinstance(v, torch.Tensor):
            return {d: torch.export.Dim.AUTO for d in range(v.dim())}
        if isinstance(v, (list, tuple)):
            return type(v)(per_leaf(x) for x in v)
        if isinstance(v, dict):
            return {k: per_leaf(x) for k, x in v.items()}
        return None
    if not kwargs:
        return per_leaf(tuple(args))
    import inspect
    names = [p.name for p in inspect.signature(model.forward).parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return {**dict(zip(names, per_leaf(tuple(args)))), **{k: per_leaf(v) for k, v in kwargs.items()}}


def export_program(model, args, kwargs, dynamic_shapes):
    """torch.export.export(model, args, kwargs, dynamic_shapes) or ExportError with its message."""
    from .exporter import ExportError
    ds = _auto_everywhere(model, args, kwargs or {}) if dynamic_shapes is None else _to_torch_dims(dynamic_shapes, {})
    try:
        return torch.export.export(model, tuple(args), kwargs or None, dynamic_shapes=ds)
    except Exception as e:  # noqa: BLE001 - any refusal of torch.export is the user's answer
        raise ExportError(f"torch.export.export refused the model ({type(e).__name__}): {e}") from e


def user_inputs(ep, args, kwargs):
    """The example values of the program's USER_INPUT placeholders: torch.export flattens
    (args, kwargs) with pytree in the same order as those placeholders."""
    return torch.utils._pytree.tree_leaves((tuple(args), dict(kwargs or {})))
