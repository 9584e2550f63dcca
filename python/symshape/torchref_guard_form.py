"""A canonical form of produce_guards lines, so two printings of one guard compare equal.

PyTorch orders the terms of a printed sum or product by its symbols' names, which are
hashes of their sources (`s77`), while symshape under a spec names a symbol after its Dim
(`height`): the same guard can print as `3*L['x'].size()[3]*L['x'].size()[2]` on one side and
`3*L['x'].size()[2]*L['x'].size()[3]` on the other, and a relation may come out with its
sides swapped. The canonical form parses a line (Python syntax, `L[...]` sources) into a
sympy expression over one symbol per source, floor division and modulo as PyTorch's own
FloorDiv / PythonMod, each relation moved to `lhs - rhs  op  0` with a fixed orientation.
Two lines are the same guard when their canonical forms are structurally equal."""
import ast

import sympy
from torch.utils._sympy.functions import FloorDiv, PythonMod

_REL = {ast.Eq: sympy.Eq, ast.NotEq: sympy.Ne, ast.Lt: sympy.Lt, ast.LtE: sympy.Le, ast.Gt: sympy.Gt,
        ast.GtE: sympy.Ge}
_FUNCS = {"Max": sympy.Max, "Min": sympy.Min, "max": sympy.Max, "min": sympy.Min, "abs": sympy.Abs}


class _Parser:
    def __init__(self):
        self.symbols = {}

    def source(self, node):
        text = ast.unparse(node)
        if text not in self.symbols:
            self.symbols[text] = sympy.Symbol(f"src{len(self.symbols)}_" + "".join(
                c if c.isalnum() else "_" for c in text), integer=True)
        return self.symbols[text]

    def expr(self, n):
        if isinstance(n, ast.Constant):
            return sympy.sympify(n.value)
        if isinstance(n, (ast.Subscript, ast.Attribute)) or (isinstance(n, ast.Call) and isinstance(
                n.func, ast.Attribute) and n.func.attr in ("size", "stride", "storage_offset")):
            return self.source(n)
        if isinstance(n, ast.UnaryOp):
            v = self.expr(n.operand)
            return -v if isinstance(n.op, ast.USub) else (sympy.Not(v) if isinstance(n.op, ast.Not) else v)
        if isinstance(n, ast.BinOp):
            a, b = self.expr(n.left), self.expr(n.right)
            op = type(n.op)
            if op is ast.Add:
                return a + b
            if op is ast.Sub:
                return a - b
            if op is ast.Mult:
                return a * b
            if op is ast.FloorDiv:
                return FloorDiv(a, b)
            if op is ast.Mod:
                return PythonMod(a, b)
            if op is ast.Div:
                return a / b
            if op is ast.Pow:
                return a ** b
            raise ValueError(f"operator {op.__name__}")
        if isinstance(n, ast.BoolOp):
            parts = [self.expr(v) for v in n.values]
            return sympy.And(*parts) if isinstance(n.op, ast.And) else sympy.Or(*parts)
        if isinstance(n, ast.Compare):
            terms = [self.expr(n.left)] + [self.expr(c) for c in n.comparators]
            rels = [_relation(type(op), a, b) for op, a, b in zip(n.ops, terms, terms[1:])]
            return rels[0] if len(rels) == 1 else sympy.And(*rels)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _FUNCS:
            return _FUNCS[n.func.id](*[self.expr(a) for a in n.args])
        # anything else (math.isnan(...), a helper call) stays as an opaque symbol of its text
        return self.source(n)


def _relation(op, a, b):
    d = sympy.expand(a - b)
    if op in (ast.Gt, ast.GtE):  # a > b  ==  b - a < 0
        d, op = -d, (ast.Lt if op is ast.Gt else ast.LtE)
    if op in (ast.Eq, ast.NotEq):  # orientation-free: pick the sign whose text sorts first
        d = min(d, -d, key=sympy.default_sort_key)
    return _REL[op](d, 0)


def canonical(line, parser=None):
    """The canonical form of one guard line (a sympy Boolean), or the line itself when it is
    not a Python expression this form knows."""
    parser = parser or _Parser()
    try:
        return parser.expr(ast.parse(line, mode="eval").body)
    except (SyntaxError, ValueError, TypeError):
        return line


def same_guards(theirs, mine):
    """(missing, extra): PyTorch's lines without an equal symshape line, and the reverse."""
    parser = _Parser()
    t = [(g, canonical(g, parser)) for g in theirs]
    m = [(g, canonical(g, parser)) for g in mine]
    mine_forms = [c for _, c in m]
    their_forms = [c for _, c in t]
    missing = [g for g, c in t if g not in mine and c not in mine_forms]
    extra = [g for g, c in m if g not in theirs and c not in their_forms]
    return missing, extra
