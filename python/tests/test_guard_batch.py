"""Batch guard verdicts from NumPy: 1,000,000 examples in one call, equal to the C++
scalar reference (the specialisation cache's row-by-row check)."""
import numpy as np

import symshape


def _sizes(rows, seed):
    rng = np.random.default_rng(seed)
    a = np.empty((rows, 4), dtype=np.int64, order="F")
    a[:, 0] = rng.integers(0, 9, rows)      # batch, incl. 0 and 1
    a[:, 1] = rng.choice([3, 3, 3, 4], rows)  # channels: mostly right
    a[:, 2] = rng.integers(0, 300, rows)    # spatial, incl. too small
    a[:, 3] = rng.integers(0, 300, rows)
    return a


def test_million_rows_match_scalar_reference(sample_graph):
    g = symshape.load(sample_graph)
    prog = g.propagate(sizes={"x": [2, 3, 64, 64]}).compile_guards()
    assert prog.columns == ["x.size()[0]", "x.size()[1]", "x.size()[2]", "x.size()[3]"]
    a = _sizes(1_000_000, 0)
    verdicts = prog.evaluate(a)
    assert verdicts.dtype == np.bool_ and verdicts.shape == (1_000_000,)
    reference = prog.evaluate_scalar(a)
    assert np.array_equal(verdicts, reference)
    assert 0 < verdicts.sum() < len(verdicts)  # both verdicts occur


def test_row_major_input_gives_the_same_verdicts(sample_graph):
    prog = symshape.load(sample_graph).propagate(sizes={"x": [2, 3, 64, 64]}).compile_guards()
    a = _sizes(10_000, 1)
    assert np.array_equal(prog.evaluate(np.ascontiguousarray(a)), prog.evaluate(a))


def test_verdicts_agree_with_propagation(sample_graph):
    """A row the guards accept propagates without error at those sizes; the hint row is accepted."""
    g = symshape.load(sample_graph)
    prog = g.propagate(sizes={"x": [2, 3, 64, 64]}).compile_guards()
    rows = np.array([[2, 3, 64, 64], [5, 3, 40, 33], [2, 4, 64, 64], [1, 3, 64, 64]], dtype=np.int64)
    v = prog.evaluate(rows)
    assert v[0] and v[1] and not v[2]
    assert not v[3]  # batch 1 is specialised (0/1 specialisation): another specialisation's job
