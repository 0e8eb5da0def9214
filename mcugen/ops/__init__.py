"""Op definitions, one module per op (or family), found by importing this package.

Each module subclasses OpDef and registers it with `@register("OPCODE", ...)`.
An OpDef knows everything mcugen needs about one TFLite builtin:

- check(g, op):   why this instance can't run bit-exact like TFLM (empty = fine)
- prepare(g, op): what TFLM computes in Prepare (multipliers, shifts, padding,
                  clamps, lookup tables), as a frozen record (a dataclass the op module defines;
                  op.prepared(Record) reads it back). Fields the C call takes are the record's
                  own; what only the golden model uses (its matmul operands, epilogues, tables)
                  sits in a `golden` field (or `pairs` for PairOp), never compared or emitted
- run(g, op, xs): the golden kernel, numpy, vectorised, bit-exact with TFLM (a list of
                  arrays for ops with several outputs)
- macs(g, op):    multiply-accumulates, for reports
- lower(g, op):   its reference C kernel call (mcugen.ir.lowering.Call), or None when the
                  output only renames the input's bytes (RESHAPE)
- fold(g, op):    its outputs computed at build time when no input is needed at run time
                  (shape arithmetic), else None; ops opt in with `foldable = True`
- output_shape(g, op): the output shape the op computes from its inputs and options, which
                  the file's declared one must equal (passes/validate_model.py); None: not checked
- arity:          how many inputs (omitted optional ones included) and outputs TFLM's kernel takes

Adding an op means adding a module here; nothing else lists ops.

Besides the op modules: custom.py (the user's own ops, --ops FILE.py). The optimized kernels beside
each op's reference kernel, and fusion, are mcugen/kernels/'s: an op knows no kernel variant and no
neighbour.

Imports: errors, runtime, ir, numerics.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call

Shape = tuple[int, ...]
Shapes = Shape | list[Shape] | None  # one per output where a list; None: not checked
Outputs = np.ndarray | list[np.ndarray]  # a list for ops with several outputs
Arity = tuple[tuple[int, int], tuple[int, int]]
OWN_STATE = -1  # op.facts.state's key for the kernel's own state (OpDef.own_state)

_REGISTRY: dict[str, "OpDef"] = {}
# Kernels of a whole-layer type, chosen for layers whose first data input and first output are of it:
# float32 (ops/float_*.py), unquantized int32 arithmetic (ops/int32_*.py) and the fp16 layers a precision plan
# makes (ops/half_layers.py)
_FAMILIES: dict[str, dict[str, "OpDef"]] = {"float32": {}, "int32": {}, "float16": {}}
_FLOAT = _FAMILIES["float32"]
_loaded = False


class UndefinedRead(LookupError):
    """An op computes with elements of input tensor `tensor` that TFLM leaves undefined (OpDef.defined)."""

    def __init__(self, tensor: int):
        super().__init__(tensor)
        self.tensor = tensor


class OpDef:
    opcodes: tuple[str, ...] = ()
    # Activation dtypes the op's TFLM kernel takes and makes; most kernels are int8 only.
    input_types: tuple[str, ...] = ("int8",)
    output_types: tuple[str, ...] = ("int8",)
    # False: the data inputs and the outputs share one dtype, as TFLM's kernel checks (an op taking
    # int8 or int16 runs int8 -> int8 or int16 -> int16); True: the op converts, and check() says how
    converts = False
    # True: TFLM's kernel copies the values as they are and never reads the quantization, so a
    # tensor without quantization parameters is fine here (an unquantized int16 tensor reshaped)
    copies_values = False
    # True: TFLM's kernel reads a tensor without quantization parameters as scale 0 and zero point 0 and
    # computes with them (its check() refuses the combinations whose arithmetic C leaves undefined)
    unquantized_as_zero = False
    # the user's own op (--ops): what it takes is the user's to say, not TFLM's (no file validation)
    declared_by_user = False
    # opcodes whose TFLM kernel never reads the op's builtin options (RESHAPE takes its shape from an
    # input, SPLIT its sizes from the outputs): absent options change nothing there, so are fine
    options_unread: tuple[str, ...] = ()
    # Data movement and shape arithmetic whose golden kernel is dtype-agnostic: run at build time
    # when every input is a constant (passes/fold_constants.py).
    foldable = False
    # (min, max) inputs and outputs, as TFLM's Prepare checks them; a dict maps opcode -> that
    arity: Arity | dict[str, Arity] = ((1, 1), (1, 1))
    # Inputs that are parameters, not data (weights, biases, axes, shapes, paddings): input
    # position -> the dtypes TFLM's kernel reads there. Every other input, constant or not, is data
    # and must have one of input_types. A dict keyed by opcode holds that per opcode.
    parameters: Mapping[int, tuple[str, ...]] | Mapping[str, Mapping[int, tuple[str, ...]]] = {}
    # inputs within the minimum count that may be omitted (-1): LSTM's peepholes, projection, ...
    optional_inputs: tuple[int, ...] = ()
    # True: the inputs past the minimum count are more data (CONCATENATION's, PACK's), not optional
    # parameters (a bias): TFLM's kernel reads every one, so none may be omitted
    variadic = False
    # the input that is a bias, whose shape TFLM's kernel ignores (its values are read flat)
    bias_input: int | None = None
    # the output has the first input's shape (elementwise ops)
    same_shape = False
    # the golden kernel reads or writes Graph.variables: run_state(g, op, xs, state) instead of run
    stateful = False
    # inputs where TFLM's kernel keeps state in a variable tensor (is_variable) it updates in place:
    # passes/resolve_variables.py makes each a Graph.variables entry, op.facts.state[position]
    state_inputs: tuple[int, ...] = ()

    def counts(self, opcode: str) -> Arity:
        return self.arity[opcode] if isinstance(self.arity, dict) else self.arity

    def parameter_types(self, opcode: str) -> Mapping[int, tuple[str, ...]]:
        by_opcode: Any = self.parameters  # keyed by input position, or by opcode then position
        types: Mapping[int, tuple[str, ...]] = by_opcode[opcode] if opcode in by_opcode else by_opcode
        return types

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        """The output's shape (a list: one per output) as TFLM computes or checks it; None when
        a parameter is not constant (check() names that); ValueError for a nonsensical value."""
        return tuple(op.input(g, 0).shape) if self.same_shape else None

    def check(self, g: Graph, op: Op) -> list[str]:
        return []

    def prepare(self, g: Graph, op: Op) -> object:
        return None

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        """xs: the inputs' values, None where the file omits an optional one."""
        raise NotImplementedError

    def run_state(self, g: Graph, op: Op, xs: list[np.ndarray], state: list[np.ndarray]) -> Outputs:
        raise NotImplementedError

    def defined(self, g: Graph, op: Op, k: int, given: list[np.ndarray | None]) -> np.ndarray | None:
        """Which elements of output k TFLM defines (a boolean mask of its shape), where its kernel leaves
        some as the arena held them or copies ones an input left so (`given`: each input's mask, None
        where all are defined); None: all of them. Layer-by-layer comparisons skip the rest (mcugen
        writes zeros there). Data movement (`foldable`) moves the masks as it moves values (run on them);
        any other op that reads an undefined element computes with it: UndefinedRead
        (passes/check_undefined_reads.py refuses the model)."""
        if all(m is None for m in given):
            return None
        if not self.foldable:
            raise UndefinedRead(op.inputs[next(i for i, m in enumerate(given) if m is not None)])
        xs = [g.tensors[t].values if t >= 0 and g.tensors[t].is_const else
              (np.ones(g.tensors[t].shape, bool) if m is None else m).astype(g.tensors[t].dtype) if t >= 0 else None
              for t, m in zip(op.inputs, given)]
        ys = self.run(g, op, xs)  # type: ignore[arg-type]
        y = ys[k] if isinstance(ys, list) else ys
        return np.asarray(y) != 0

    def own_state(self, g: Graph, op: Op) -> np.ndarray | None:
        """State TFLM's kernel keeps in a persistent buffer of its own (no tensor), as it holds at boot
        and after a reset: passes/resolve_variables.py makes it a Graph.variables entry,
        op.facts.state[OWN_STATE]."""
        return None

    def macs(self, g: Graph, op: Op) -> int:
        return 0

    def lower(self, g: Graph, op: Op) -> Call | None:
        raise NotImplementedError(f"{op.opcode} has no C lowering")

    def fold(self, g: Graph, op: Op) -> list[np.ndarray] | None:
        if not self.foldable or any(t >= 0 and not g.tensors[t].is_const for t in op.inputs):
            return None
        op = dataclasses.replace(op, params=self.prepare(g, op))
        ys = self.run(g, op, [g.tensors[t].data if t >= 0 else None for t in op.inputs])  # type: ignore[misc]
        return ys if isinstance(ys, list) else [ys]


D = TypeVar("D", bound=type[OpDef])


def register(*opcodes: str, dtype: str = "") -> Callable[[D], D]:
    """`dtype="float32"` (or "int32"): the definition of the op's kernel for layers whose first data
    input and first output are of that type (see `definition`)."""
    if dtype and dtype not in _FAMILIES:
        raise ValueError(f"no kernel family for dtype {dtype!r}")
    table = _FAMILIES[dtype] if dtype else _REGISTRY

    def decorate(cls: D) -> D:
        instance = cls()
        instance.opcodes = opcodes
        if dtype:  # the whole layer is of that type (a float kernel may extend an integer one's shapes)
            instance.input_types = instance.output_types = (dtype,)
            instance.converts = False
        for opcode in opcodes:
            table[opcode] = instance
        return cls
    return decorate


def register_external(opcode: str, opdef: OpDef | None) -> None:
    """Register an op defined outside this package (a user's custom op: mcugen/ops/custom.py); None
    forgets it."""
    lookup(opcode)  # mcugen's own first, so that a later import never replaces the user's
    if opdef is None:
        _REGISTRY.pop(opcode, None)
    else:
        _REGISTRY[opcode] = opdef


def lookup(opcode: str) -> OpDef | None:
    global _loaded
    if not _loaded:
        for module in pkgutil.iter_modules(__path__):
            if not module.name.startswith("_"):
                importlib.import_module(f"{__name__}.{module.name}")
        _loaded = True
    return _REGISTRY.get(opcode)


def layer_type(g: Graph, op: Op) -> str | None:
    """The type the whole layer computes in: that of its first data input (TRANSPOSE_CONV's is input 2)
    where its first output has it too; None where they differ (QUANTIZE, DEQUANTIZE, CAST convert)."""
    opdef = lookup(op.opcode)
    parameters = opdef.parameter_types(op.opcode) if opdef is not None else {}
    first = next((op.optional_input(g, i) for i in range(len(op.inputs)) if i not in parameters), None)
    if first is None or not op.outputs or op.outputs[0] < 0 or g.tensors[op.outputs[0]].dtype != first.dtype:
        return None
    return first.dtype


def int4_filter(g: Graph, op: Op) -> bool:
    """Whether the layer's filter (input 1 of a conv, depthwise or fully-connected layer) is INT4."""
    return len(op.inputs) > 1 and op.inputs[1] >= 0 and g.tensors[op.inputs[1]].dtype == "int4"


def definition(g: Graph, op: Op) -> OpDef | None:
    """The definition of this layer's kernel: the float32 (int32) one for a layer that computes in
    float32 (int32), where there is one; else the opcode's (whose type checks then decide)."""
    opdef = lookup(op.opcode)
    family = _FAMILIES.get(layer_type(g, op) or "", {})
    return family.get(op.opcode, opdef)


def get(g: Graph, op: Op) -> OpDef:
    """The definition of a layer check_support has accepted (a missing one is mcugen's bug)."""
    opdef = definition(g, op)
    if opdef is None:
        raise KeyError(f"no op definition for {op.opcode} past check_support")
    return opdef


def supported_opcodes() -> list[str]:
    lookup("")
    return sorted(set(_REGISTRY).union(*_FAMILIES.values()))


def float_opcodes() -> list[str]:
    """The ops with a float32 kernel (besides those that copy values of any type, RESHAPE, ...)."""
    lookup("")
    return sorted(_FLOAT)
