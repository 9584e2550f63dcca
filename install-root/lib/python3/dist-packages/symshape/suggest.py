"""Spec suggestion from observed sizes: which input dims vary (dynamic), which never do
(static), and which always move together (one shared symbol), in torch.export's
dynamic_shapes form. What makes a suggestion right is checked by exporting with it and verifying:
`symshape.verify(model, observations, dynamic_shapes=suggestion)`."""
from .dims import Dim


def suggest_dynamic_shapes(observations, names):
    """observations: list of input tuples (tensors or size sequences), names: input names.
    Returns {name: {dim: Dim}}: a dim is dynamic when its size varies; dims whose sizes are
    equal in every observation share one Dim; min/max are left open (min 1), since a few
    observations say nothing about the real limits."""
    if not observations:
        raise ValueError("no observations")
    shapes = [[list(getattr(x, "shape", x)) for x in obs] for obs in observations]
    ranks = [len(s) for s in shapes[0]]
    for s in shapes:
        if [len(x) for x in s] != ranks:
            raise ValueError("observations disagree on input ranks")
    columns = {}  # (input, dim) -> tuple of observed sizes
    for i, rank in enumerate(ranks):
        for d in range(rank):
            columns[(i, d)] = tuple(s[i][d] for s in shapes)
    groups, dims = {}, {}
    for (i, d), seq in columns.items():
        if len(set(seq)) == 1:
            continue  # never varies: static
        if seq not in groups:
            groups[seq] = Dim(f"{names[i]}_{d}")
        dims.setdefault(names[i], {})[d] = groups[seq]
    return dims
