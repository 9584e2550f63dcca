"""symshape.export: a PyTorch model -> fx-graph-json text (shared/corpus/FORMAT.md).

How an nn.Module is captured: its forward runs once on the example inputs under a
TorchFunctionMode. Every torch builtin it reaches (torch.*, torch._C._nn.*, tensor
methods, including those that F.* functions call) is recorded as the ATen overload whose
schema the call's arguments fit, with every positional schema argument filled. Python
wrappers (torch.nn.functional, torch.functional, torch._tensor) run their bodies while
capturing, so `F.batch_norm` becomes the `aten.batch_norm` it calls. Size reads return
`TracedInt`s, ints that remember their `aten.sym_size.int` node; arithmetic on them emits
`operator.*` nodes, so sizes flow into views and reshapes as graph values, never as the
example's numbers. Tensors are tracked by identity (all kept alive while exporting).

An ATen-level GraphModule (make_fx output) or an ExportedProgram (duck-typed through
`.graph_module` / `.range_constraints`) is converted node by node instead.
"""
import contextlib
import json
import operator

try:
    import torch
    from torch.overrides import TorchFunctionMode
except ImportError as e:  # the engine bindings work without torch; the exporter does not
    raise ImportError("symshape.export needs PyTorch (Debian: apt-get install python3-torch)") from e

from . import schema as sch
from .dims import dim_name
from .fxjson import GraphWriter, spec_json, to_arg


class ExportError(RuntimeError):
    """Something in the model cannot be exported (the message names it)."""


class TracedInt(int):
    """An int read from a tensor size (or computed from such): remembers its graph node."""

    def __new__(cls, value, ref, tracer):
        o = int.__new__(cls, int(value))
        o.ref = ref
        o.tracer = tracer
        return o

    def _bin(self, other, fn, name, swap=False):
        if not isinstance(other, int) or isinstance(other, bool):
            return fn(int(self), other) if not swap else fn(other, int(self))
        a, b = (other, self) if swap else (self, other)
        return self.tracer.int_op(name, fn, a, b)

    def __add__(self, o): return self._bin(o, operator.add, "add")
    def __radd__(self, o): return self._bin(o, operator.add, "add", True)
    def __sub__(self, o): return self._bin(o, operator.sub, "sub")
    def __rsub__(self, o): return self._bin(o, operator.sub, "sub", True)
    def __mul__(self, o): return self._bin(o, operator.mul, "mul")
    def __rmul__(self, o): return self._bin(o, operator.mul, "mul", True)
    def __floordiv__(self, o): return self._bin(o, operator.floordiv, "floordiv")
    def __rfloordiv__(self, o): return self._bin(o, operator.floordiv, "floordiv", True)
    def __mod__(self, o): return self._bin(o, operator.mod, "mod")
    def __neg__(self): return self.tracer.int_op("neg", operator.neg, self)
    def __index__(self): return int(self)
    def __repr__(self): return f"TracedInt({int(self)})"
    def __hash__(self): return int.__hash__(self)


class TracedSize(tuple):
    """x.shape / x.size(): a tuple of TracedInts (torch.Size cannot hold them)."""

    def numel(self):
        n = 1
        for d in self:
            n = n * d
        return n


# Tensor methods that read no size (or return host data): called, nothing recorded. Attribute
# getters other than shape/T/mT/H (dtype, device, ...) pass through the same way.
_PASSTHROUGH_METHODS = {"dim", "ndimension", "is_contiguous", "is_floating_point", "is_complex", "get_device",
                        "__repr__", "__format__", "__hash__", "data_ptr", "element_size", "has_names",
                        "requires_grad_", "is_nonzero", "__bool__", "__array__", "storage_offset", "numpy",
                        "tolist", "__reduce_ex__", "__deepcopy__", "_is_view"}
_DTYPE_METHODS = {"float": torch.float32, "double": torch.float64, "half": torch.float16, "bfloat16": torch.bfloat16,
                  "long": torch.int64, "int": torch.int32, "short": torch.int16, "bool": torch.bool,
                  "byte": torch.uint8, "char": torch.int8}
# Python-level functions whose bodies are run while capturing (their torch builtins are recorded).
_WRAPPER_MODULES = ("torch.nn.functional", "torch.functional", "torch._tensor")
_DUNDER_OPS = {"__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__isub__": "sub_",
               "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div", "__itruediv__": "div_",
               "__matmul__": "matmul", "__neg__": "neg", "__pow__": "pow", "__eq__": "eq", "__ne__": "ne",
               "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__and__": "bitwise_and",
               "__or__": "bitwise_or", "__invert__": "bitwise_not", "__mod__": "remainder",
               "__floordiv__": "floor_divide", "__xor__": "bitwise_xor", "__abs__": "abs"}
_SWAPPED = {"__radd__", "__rmul__"}


@contextlib.contextmanager
def _wrappers_run_their_bodies():
    """F.* / torch.functional / Tensor Python methods check has_torch_function and would
    hand the whole call to the mode; make them run their bodies so that the builtins they
    call are what gets recorded."""
    import importlib
    saved = []
    for mod_name in _WRAPPER_MODULES:
        mod = importlib.import_module(mod_name)
        for fn in ("has_torch_function", "has_torch_function_unary", "has_torch_function_variadic"):
            if hasattr(mod, fn):
                saved.append((mod, fn, getattr(mod, fn)))
                setattr(mod, fn, lambda *a, **k: False)
    try:
        yield
    finally:
        for mod, fn, old in saved:
            setattr(mod, fn, old)


class _Capture(TorchFunctionMode):
    def __init__(self, tracer):
        super().__init__()
        self.t = tracer

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return self.t.call(func, args, kwargs or {})


class Tracer:
    def __init__(self, model, supported):
        self.model = model
        self.w = GraphWriter()
        self.supported = supported
        self.tensor_ref = {}      # id(tensor) -> node name
        self.keep = []            # every tensor seen, so ids stay unique
        self.sizes_of = {}        # (node, dim) -> TracedInt
        self.param_names = {}
        self.module_stack = []
        if isinstance(model, torch.nn.Module):
            named = list(model.state_dict(keep_vars=True).items()) + list(model.named_buffers())
            for name, p in named:
                self.param_names.setdefault(id(p), name)

    # ---- values ------------------------------------------------------------------------
    def where(self):
        return f" in module '{self.module_stack[-1]}'" if self.module_stack and self.module_stack[-1] else ""

    def ref_of(self, t):
        r = self.tensor_ref.get(id(t))
        if r is not None:
            return r
        name = self.param_names.get(id(t))
        if name is None:
            if t.dim() == 0 or t.numel() <= 64:  # a small constant made in forward: keep it as a buffer
                name = f"_tensor_constant{len([n for n in self.w.attrs if n.startswith('_tensor_constant')])}"
            else:
                raise ExportError(f"a tensor of shape {list(t.shape)} that is neither an input, a parameter or buffer, "
                                  f"nor the result of a captured op{self.where()}")
        r = self.w.get_attr(name, t)
        self.tensor_ref[id(t)] = r
        self.keep.append(t)
        return r

    def arg(self, v):
        """A Python call argument -> fx-graph-json ARG."""
        def ref(x):
            if isinstance(x, torch.Tensor):
                return self.ref_of(x)
            return x.ref if isinstance(x, TracedInt) else None
        try:
            return to_arg(v, ref)
        except TypeError as e:
            raise ExportError(f"{e}{self.where()}") from None

    def register(self, name, result):
        """Tensors of an op's result point at its node; list results get getitem nodes."""
        if isinstance(result, torch.Tensor):
            self.tensor_ref[id(result)] = name
            self.keep.append(result)
        elif isinstance(result, (list, tuple)):
            for i, r in enumerate(result):
                if isinstance(r, torch.Tensor):
                    g = self.w.call("operator.getitem", [{"node": name}, i], {}, base="getitem")
                    self.tensor_ref[id(r)] = g
                    self.keep.append(r)

    # ---- sizes -------------------------------------------------------------------------
    def size(self, t, d):
        ref = self.ref_of(t)
        d = d + t.dim() if d < 0 else d
        key = (ref, d)
        if key not in self.sizes_of:
            n = self.w.call("aten.sym_size.int", [{"node": ref}, d], {}, base="sym_size")
            self.sizes_of[key] = TracedInt(t.shape[d], n, self)
        return self.sizes_of[key]

    def int_op(self, name, fn, *operands):
        value = fn(*[int(o) for o in operands])
        n = self.w.call(f"operator.{name}", [self.arg(o) for o in operands], {}, base=name)
        return TracedInt(value, n, self)

    # ---- ops ---------------------------------------------------------------------------
    def call(self, func, args, kwargs):
        name = getattr(func, "__name__", str(func))
        owner = getattr(func, "__self__", None)
        if type(func).__name__ == "method-wrapper" and name == "__get__":  # a tensor attribute
            attr = getattr(owner, "__name__", "")
            if attr == "shape":
                return TracedSize(self.size(args[0], d) for d in range(args[0].dim()))
            if attr in ("T", "mT", "H"):
                return self.op("permute", func, args, {}, lambda: [args[0], list(range(args[0].dim() - 1, -1, -1))])
            return func(*args, **kwargs)
        if name in _PASSTHROUGH_METHODS:
            return func(*args, **kwargs)
        if name == "size":
            t = args[0]
            d = args[1] if len(args) > 1 else kwargs.get("dim")
            if d is None:
                return TracedSize(self.size(t, i) for i in range(t.dim()))
            return self.size(t, int(d))
        if name == "numel" and isinstance(args[0], torch.Tensor):
            return TracedSize(self.size(args[0], i) for i in range(args[0].dim())).numel()
        if name == "__getitem__" and isinstance(args[0], torch.Tensor):
            return self.getitem(args[0], args[1])
        if name == "__setitem__":
            raise ExportError(f"in-place index assignment (Tensor.__setitem__){self.where()} is not exportable")
        if name in _DTYPE_METHODS and isinstance(args[0], torch.Tensor) and len(args) == 1:
            return self.op("to", func, args, kwargs, lambda: [args[0], _DTYPE_METHODS[name]])
        if name == "type_as":
            return self.op("type_as", func, args, kwargs)
        if type(func).__name__ == "function":
            mod = getattr(func, "__module__", "") or ""
            raise ExportError(f"function {mod}.{name}{self.where()} is a Python function outside torch's "
                              f"functional wrappers and cannot be lowered to ATen")
        op_name = _DUNDER_OPS.get(name, name)
        if name in _SWAPPED:
            return self.op(op_name, func, args, kwargs, lambda: [args[0], args[1]])
        return self.op(op_name, func, args, kwargs)

    def op(self, op_name, func, args, kwargs, rewrite=None):
        """Record one ATen call (after `rewrite` maps the Python call to schema arguments)."""
        call_args = rewrite() if rewrite else list(args)
        call_kwargs = {} if rewrite else kwargs
        prefer = (lambda ov: self.supported(f"aten.{op_name}.{ov}")) if self.supported else None
        b = sch.bind(op_name, call_args, call_kwargs, pack_varargs=True, prefer=prefer)
        if b is None:
            raise ExportError(f"no ATen overload of '{op_name}' fits the call {getattr(func, '__qualname__', op_name)}"
                              f"({', '.join(type(a).__name__ for a in call_args)}){self.where()}")
        ov, _schema, _params, pos, kw = b
        target = f"aten.{op_name}.{ov}"
        if self.supported and not self.supported(target) and op_name.endswith("_") \
                and self.supported(f"aten.{op_name[:-1]}.{ov}"):
            target = f"aten.{op_name[:-1]}.{ov}"  # in-place op the engine lacks: its functional form
        with torch._C.DisableTorchFunction():
            result = func(*args, **kwargs)
        n = self.w.call(target, [self.arg(v) for v in pos], {k: self.arg(v) for k, v in kw.items()}, base=op_name)
        self.register(n, result)
        return result

    def getitem(self, t, idx):
        """Python indexing -> slice / select / unsqueeze / index (FORMAT.md)."""
        with torch._C.DisableTorchFunction():
            result = torch._C._TensorBase.__getitem__(t, idx)
        if not isinstance(idx, tuple):
            idx = (idx,)
        cur, cur_t, dim = self.ref_of(t), t, 0
        tensors = []
        n_real = sum(1 for i in idx if i is not None and i is not Ellipsis)
        for i in idx:
            if i is Ellipsis:
                dim += t.dim() - n_real
                continue
            if i is None:
                cur = self.w.call("aten.unsqueeze.default", [{"node": cur}, dim], {}, base="unsqueeze")
                cur_t = cur_t.unsqueeze(dim)
                dim += 1
            elif isinstance(i, slice):
                if i == slice(None):
                    dim += 1
                    continue
                start = 0 if i.start is None else i.start
                end = sch.INT64_MAX if i.stop is None else i.stop
                step = 1 if i.step is None else i.step
                cur = self.w.call("aten.slice.Tensor", [{"node": cur}, dim, self.arg(start), self.arg(end),
                                                        self.arg(step)], {}, base="slice")
                cur_t = torch._C._TensorBase.__getitem__(cur_t, (slice(None),) * dim + (i,))
                dim += 1
            elif isinstance(i, int) and not isinstance(i, bool):
                cur = self.w.call("aten.select.int", [{"node": cur}, dim, self.arg(i)], {}, base="select")
                cur_t = cur_t.select(dim, int(i))
            elif isinstance(i, torch.Tensor):
                tensors.append((dim, i))
                dim += 1
            else:
                raise ExportError(f"unsupported index {type(i).__name__}{self.where()}")
        if tensors:
            lst = [None] * (max(d for d, _ in tensors) + 1)
            for d, i in tensors:
                lst[d] = {"node": self.ref_of(i)}
            cur = self.w.call("aten.index.Tensor", [{"node": cur}, lst], {}, base="index")
        self.tensor_ref[id(result)] = cur
        self.keep.append(result)
        return result


@contextlib.contextmanager
def _plain_parameters(model):
    """nn.Parameter disables __torch_function__, and 1.13 then skips the mode for calls on
    a parameter (self.table[idx], self.cls_token.expand(...)): while capturing, modules hold
    plain tensors sharing the parameters' storage (tied parameters stay one tensor)."""
    swapped, plain = [], {}
    for m in model.modules():
        for k, p in list(m._parameters.items()):
            if p is not None:
                plain.setdefault(id(p), p.detach())
                swapped.append((m, k, p))
                m._parameters[k] = plain[id(p)]
    try:
        yield
    finally:
        for m, k, p in swapped:
            m._parameters[k] = p


@contextlib.contextmanager
def _indexing_captured(tracer):
    """1.13's Tensor.__getitem__ has fast paths (x[1], x[None], x[idx]) that never reach
    the mode: while capturing, indexing goes to the tracer directly."""
    def getitem(self, idx):
        with torch.overrides._pop_mode_temporarily():
            return tracer.getitem(self, idx)
    old = torch.Tensor.__getitem__
    torch.Tensor.__getitem__ = getitem
    try:
        yield
    finally:
        torch.Tensor.__getitem__ = old


def _module_hooks(tracer, model):
    def enter(name):
        def hook(mod, inp):
            tracer.module_stack.append(name)
        return hook

    def leave(mod, inp, out):
        tracer.module_stack.pop()

    handles = []
    for name, m in model.named_modules():
        handles.append(m.register_forward_pre_hook(enter(name)))
        handles.append(m.register_forward_hook(leave))
    return handles


def _input_names(model, n):
    import inspect
    try:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in params][:n]
    except (TypeError, ValueError):
        names = []
    return names + [f"arg{i}" for i in range(len(names), n)]


def _spec(names, inputs, dynamic_shapes):
    """fx-graph-json SPEC from torch.export's dynamic_shapes (dict by input name, or a
    tuple/list by position). None: every dim of every input is dynamic (named <input>_<dim>),
    so nothing about the example's sizes ends up in the spec."""
    dyn, dims = {}, {}
    for pos, (name, t) in enumerate(zip(names, inputs)):
        if not isinstance(t, torch.Tensor):
            continue
        if dynamic_shapes is None:
            entry = {d: (f"{name}_{d}", 1, None) for d in range(t.dim())}
        else:
            spec = dynamic_shapes.get(name) if isinstance(dynamic_shapes, dict) else \
                (dynamic_shapes[pos] if pos < len(dynamic_shapes) else None)
            if isinstance(spec, (list, tuple)):
                spec = {i: s for i, s in enumerate(spec) if s is not None}
            entry = {int(d): dim_name(s) for d, s in (spec or {}).items()}
        row = []
        for d in range(t.dim()):
            if d in entry:
                sym, lo, hi = entry[d]
                prev = dims.get(sym)
                if prev and (prev["min"], prev["max"]) != (lo, hi):
                    raise ExportError(f"Dim '{sym}' is given two different ranges")
                dims[sym] = {"min": lo, "max": hi, "derived": []}
                row.append(sym)
            else:
                row.append(int(t.shape[d]))
        dyn[name] = row
    return spec_json(dyn, dims)


def supported_targets():
    try:
        from ._symshape import supported_targets as st
        return set(st())
    except ImportError:
        return None


def export(model, example_inputs, kwargs=None, dynamic_shapes=None, path=None, name=None, examples=None,
           input_ranges=None):
    """fx-graph-json text for `model` at `example_inputs` (a tuple) and `kwargs`.

    model: an nn.Module, an ATen-level torch.fx.GraphModule (make_fx output) or an
    ExportedProgram (anything with .graph_module and .range_constraints). With PyTorch 2.x
    an nn.Module goes through torch.export.export and its ExportedProgram is converted;
    1.x traces it (Tracer above).
    dynamic_shapes: torch.export's form, {"x": {0: Dim("batch")}} (symshape.Dim or, with 2.x,
    anything torch.export.export takes); None makes every input dim dynamic (Dim.AUTO in 2.x).
    examples: optional list of input tuples; each is executed by the reference interpreter
    (torch.ops.aten.*) and recorded as a golden example, so the file is a conformance file.
    Writes the text to `path` when given (whole or not at all)."""
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    supported = supported_targets()
    from . import torch_export
    if isinstance(model, torch.nn.Module) and not isinstance(model, torch.fx.GraphModule) and torch_export.available():
        program = torch_export.export_program(model, example_inputs, kwargs, dynamic_shapes)
        example_inputs = tuple(torch_export.user_inputs(program, example_inputs, kwargs))
        w, names, spec = _convert_program(program, example_inputs, dynamic_shapes, supported)
    elif kwargs:
        raise ExportError("kwargs need torch.export (PyTorch 2.x); pass every input positionally")
    elif hasattr(model, "graph_module") and hasattr(model, "range_constraints"):
        w, names, spec = _convert_program(model, example_inputs, dynamic_shapes, supported)
    elif isinstance(model, torch.fx.GraphModule) and _is_aten_graph(model):
        from .aten_graph import convert_graph_module
        w, names = convert_graph_module(model, example_inputs)
        spec = _spec(names, example_inputs, dynamic_shapes)
    elif isinstance(model, torch.nn.Module):
        w, names = _trace_module(model, example_inputs, supported)
        spec = _spec(names, example_inputs, dynamic_shapes)
    else:
        raise ExportError(f"cannot export a {type(model).__name__}: expected an nn.Module, an ATen GraphModule "
                          f"or an ExportedProgram")
    w.set_input_meta(names, example_inputs, input_ranges or {})
    w.dead_code_elimination()
    doc = w.document(name or type(model).__name__, spec)
    if examples:
        from .golden import record_examples
        doc["examples"] = record_examples(doc, examples, w.attr_tensors)
    text = json.dumps(doc, indent=1)
    if path is not None:
        from .fxjson import write_whole
        write_whole(path, text)
    return text


def _convert_program(program, example_inputs, dynamic_shapes, supported):
    from .aten_graph import convert_exported_program
    try:
        return convert_exported_program(program, example_inputs, dynamic_shapes, supported)
    except RuntimeError as e:  # what the program holds that fx-graph-json cannot: named, never skipped
        raise ExportError(str(e)) from e


def _is_aten_graph(gm):
    return any(n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload) for n in gm.graph.nodes)


def _trace_module(model, example_inputs, supported):
    with _plain_parameters(model):
        return _trace_module_plain(model, example_inputs, supported)


def _trace_module_plain(model, example_inputs, supported):
    tracer = Tracer(model, (lambda t: t in supported) if supported else None)
    names = _input_names(model, len(example_inputs))
    for n, t in zip(names, example_inputs):
        if not isinstance(t, torch.Tensor):
            raise ExportError(f"input '{n}' is a {type(t).__name__}; only tensor inputs can be exported")
        tracer.tensor_ref[id(t)] = tracer.w.placeholder(n)
        tracer.keep.append(t)
    handles = _module_hooks(tracer, model)
    try:
        with torch.no_grad(), _wrappers_run_their_bodies(), _indexing_captured(tracer), _Capture(tracer):
            out = model(*example_inputs)
    finally:
        for h in handles:
            h.remove()
    tracer.w.output(_output_arg(tracer, out))
    return tracer.w, names


def _output_arg(tracer, out):
    if isinstance(out, torch.Tensor):
        return {"node": tracer.ref_of(out)}
    if isinstance(out, dict):
        return [_output_arg(tracer, v) for v in out.values()]
    if isinstance(out, (list, tuple)):
        return [_output_arg(tracer, v) for v in out]
    if isinstance(out, TracedInt):
        return {"node": out.ref}
    if out is None:
        return None
    raise ExportError(f"model output of type {type(out).__name__} is not exportable")
