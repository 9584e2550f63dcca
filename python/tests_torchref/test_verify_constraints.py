"""symshape.verify compares the ExportedProgram's range constraints and runtime asserts with
the engine's ranges and guards for the same graph and spec (report.constraint_differences),
keyed to input positions; real torch.export programs plus a deliberately altered map."""
import sympy
import torch
from torch import nn
from torch.export import Dim

import symshape
from symshape.export_constraints import ConstraintDiff, compare, torch_constraints
from symshape.torch_export import export_program

from branchy import Branchy


class Conv(nn.Module):
    def __init__(s):
        super().__init__()
        s.c = nn.Conv2d(3, 4, 5)

    def forward(s, x):
        return s.c(x)


class View(nn.Module):
    def forward(s, x):
        return x.view(x.shape[0], -1, 4)


def test_refined_range_agrees():
    # Dim.AUTO everywhere: torch.export refines the seq dim to the branch taken, [17, int_oo]
    x = torch.randn(2, 20, 16)
    ep = export_program(Branchy(), (x,), None, None)
    assert torch_constraints(ep, ["x"])[0]["x.size()[1]"] == (17, None)
    r = symshape.verify(Branchy().eval(), [(x,), (torch.randn(3, 40, 16),)])
    assert r.ok and r.constraint_differences == [], r.details()
    # a user Dim with both bounds: the same on both sides
    r = symshape.verify(Branchy().eval(), [(x,)], dynamic_shapes={"x": {1: Dim("s", min=17, max=100)}})
    assert r.constraint_differences == [], r.details()


def test_conv_needs_height_ge_kernel():
    x = torch.randn(2, 3, 16, 16)
    ep = export_program(Conv(), (x,), None, None)
    ranges = torch_constraints(ep, ["x"])[0]
    assert ranges["x.size()[2]"] == ranges["x.size()[3]"] == (5, None)
    r = symshape.verify(Conv().eval(), [(x,)])
    assert r.ok, r.details()
    # height and width: the engine derives the same [5, int_oo]
    assert not [d for d in r.constraint_differences if d.where in ("x.size()[2]", "x.size()[3]")], r.details()


def test_view_divisibility_only_in_symshape():
    # torch.export with Dim.AUTO keeps x.size()[1] at [2, int_oo] and no runtime assert;
    # the engine guards the view's divisibility by 4: reported, verify itself still ok
    r = symshape.verify(View(), [(torch.randn(2, 8),), (torch.randn(3, 12),)])
    assert r.ok, r.details()
    diffs = r.constraint_differences
    assert diffs and all(d.kind == "guard" and d.symshape and not d.torch for d in diffs), r.details()
    assert any("% (4*x.size()[0])" in d.where or "// 4" in d.where for d in diffs)
    assert "constraints: " in r.details() and "guard only in symshape" in r.details()


def test_altered_ranges_and_asserts_are_reported():
    s = sympy.Symbol("s1", integer=True, positive=True)
    torch_side = ({"x.size()[0]": (2, None), "x.size()[1]": (17, 64)},
                  [("Eq(Mod(x.size()[1], 2), 0)", sympy.Eq(sympy.Mod(s, 2), 0))], {s: "x.size()[1]"})
    engine_side = ({"x.size()[0]": (2, None), "x.size()[1]": (17, None)}, [])
    diffs = compare(torch_side, engine_side, {"x": [2, 20]})
    assert diffs == [ConstraintDiff("range", "x.size()[1]", (17, 64), (17, None)),
                     ConstraintDiff("guard", "Eq(Mod(x.size()[1], 2), 0)", True, False)]
    assert [str(d) for d in diffs] == ["range of x.size()[1]: torch [17, 64] != symshape [17, int_oo]",
                                       "guard only in torch: Eq(Mod(x.size()[1], 2), 0)"]
    # the same guard on the engine's side (its own text): no difference left
    engine_side = ({"x.size()[0]": (2, None), "x.size()[1]": (17, 64)}, ["(L['x'].size()[1] % 2) == 0"])
    assert compare(torch_side, engine_side, {"x": [2, 20]}) == []
    # a guard only the engine has
    engine_side = ({"x.size()[0]": (2, None), "x.size()[1]": (17, 64)},
                   ["(L['x'].size()[1] % 2) == 0", "L['x'].size()[1] != 30"])
    assert [str(d) for d in compare(torch_side, engine_side, {"x": [2, 20]})] == \
        ["guard only in symshape: x.size()[1] != 30"]
