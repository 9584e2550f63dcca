"""symshape.Dim: torch.export.Dim for PyTorch versions that lack it (1.13)."""


class Dim:
    """A named symbolic dimension with an inclusive [min, max] range (max None = unbounded)."""

    def __init__(self, name, *, min=None, max=None):  # noqa: A002 - torch.export's keywords
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"Dim name must be an identifier, got {name!r}")
        self.__name__ = name
        self.min = 1 if min is None else int(min)  # torch.export's default lower bound is 2; 1 keeps batch-1 legal
        self.max = None if max is None else int(max)
        if self.max is not None and self.max < self.min:
            raise ValueError(f"Dim {name}: max {self.max} < min {self.min}")

    def __repr__(self):
        return f"Dim({self.__name__!r}, min={self.min}, max={self.max})"


def dim_name(d):
    """Name, min and max of a symshape.Dim or a torch.export Dim (duck-typed)."""
    name = getattr(d, "__name__", None)
    if name is None:
        raise TypeError(f"not a Dim: {d!r}")
    lo = getattr(d, "min", 1)
    hi = getattr(d, "max", None)
    if hi is not None and hi >= 2**62:  # torch.export's "unbounded" sentinel
        hi = None
    return name, (1 if lo is None else int(lo)), (None if hi is None else int(hi))
