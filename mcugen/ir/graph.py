"""The graph every pass reads and returns.

A Graph is one subgraph in execution order: tensors (shape, dtype, quantization,
constant data as numpy arrays) and ops that name tensors by index. Passes never
mutate a Graph; they return a new one (`dataclasses.replace`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from typing import TYPE_CHECKING, TypeVar

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.budget import RAM
from mcugen.ir.calls import Packed
from mcugen.ir.facts import Alias, Banding, Facts
from mcugen.ir.options import Activated, Options
from mcugen.ir import text_form
from mcugen.ir.text_form import TEXT_VALUES, options_text, scale_text, values_text

if TYPE_CHECKING:  # the IR carries what later passes attach; those modules import this one
    from mcugen.ir.calls import Call
    from mcugen.ir.planner import ArenaPlan
    from mcugen.ir.tuning import Tuning


@dataclass(frozen=True)
class Quant:
    """Affine quantization r = scale * (q - zero_point), per tensor or per channel on `axis`."""

    scale: np.ndarray  # float32, length 1 or channels
    zero_point: np.ndarray  # int64, same length
    axis: int = 0

    @property
    def per_channel(self) -> bool:
        return self.scale.size > 1

    @property
    def s(self) -> float:
        """The per-tensor scale (first element), as TFLM reads params.scale."""
        return float(self.scale[0])

    @property
    def zp(self) -> int:
        return int(self.zero_point[0])


@dataclass(frozen=True)
class Tensor:
    index: int
    name: str
    shape: tuple[int, ...]
    dtype: str  # numpy dtype name: int8, int32, float32, ...; int4 (constants only: data holds them as int8)
    quant: Quant | None = None
    data: np.ndarray | None = None  # set for constants (weights, biases, shapes)
    dynamic: bool = False  # shape_signature holds -1
    variable: bool = False  # is_variable: state kept across invocations (LSTM, SVDF)
    # an int32 constant's next bytes in the file, as many as its data (fewer at the file's end): TFLM's 16x8
    # TRANSPOSE_CONV reads an int32 bias as int64, so past its end
    after: bytes = b""
    # the type the file stores a constant in, where narrower than dtype: float16 weights a DEQUANTIZE widened
    # at build time
    stored: str | None = None

    @property
    def is_const(self) -> bool:
        return self.data is not None

    @property
    def values(self) -> np.ndarray:
        """A constant's data (ops read their parameters once check_support knows them constant)."""
        if self.data is None:
            raise LookupError(f"tensor '{self.name}' is not a constant")
        return self.data

    @property
    def q(self) -> Quant:
        """Its quantization, which every op reading a scale has (check_support refuses one without)."""
        if self.quant is None:
            raise LookupError(f"tensor '{self.name}' has no quantization")
        return self.quant

    @property
    def itemsize(self) -> int:
        return np.dtype(self.dtype).itemsize

    @property
    def file_bytes(self) -> int:
        """A constant's bytes in the model file: the model's own weights."""
        if self.stored is None:
            return self.nbytes
        return int(np.prod(self.shape, dtype=np.int64)) * np.dtype(self.stored).itemsize

    @property
    def nbytes(self) -> int:
        count = int(np.prod(self.shape, dtype=np.int64))
        if self.dtype == "int4":  # two to a byte, as the file and the flash hold them
            return (count + 1) // 2
        return count * self.itemsize


R = TypeVar("R")
O = TypeVar("O", bound=Options)


def _given(name: str, values: np.ndarray | None, consts: Mapping[str, np.ndarray], dtype: str,
           shape: tuple[int, ...]) -> np.ndarray:
    """Values the text lists, or else the caller's."""
    if values is not None:
        return values
    if name not in consts:
        raise ValueError(f"'{name}' has more values than the text lists: pass them (consts)")
    return np.asarray(consts[name], dtype="int8" if dtype == "int4" else dtype).reshape(shape)


def _parsed_tensor(t: text_form.TensorLine, consts: Mapping[str, np.ndarray]) -> Tensor:
    quant = Quant(np.array(t.scales, np.float32), np.array(t.zero_points, np.int64), t.axis) if t.scales else None
    data = _given(t.name, t.values, consts, t.dtype, t.shape) if t.role == "const" or t.values is not None else None
    return Tensor(t.number, t.name, t.shape, t.dtype, quant, data, variable=t.role == "variable", stored=t.stored)


def _quant_text(quant: Quant | None) -> str:
    if quant is None:
        return ""
    if not quant.per_channel:
        return f" scale {scale_text(float(quant.scale[0]))} zp {int(quant.zero_point[0])}"
    if quant.scale.size > TEXT_VALUES:
        return f" {quant.scale.size} scales on axis {quant.axis}"
    return (f" scales [{', '.join(scale_text(float(s)) for s in quant.scale)}] "
            f"zps [{', '.join(str(int(z)) for z in quant.zero_point)}] on axis {quant.axis}")


@dataclass(frozen=True)
class Op:
    index: int  # position in Graph.ops (the execution step)
    opcode: str  # BuiltinOperator name, e.g. CONV_2D; CUSTOM:<name> for custom ops
    version: int
    inputs: tuple[int, ...]  # -1 marks an omitted optional input
    outputs: tuple[int, ...]
    options: Options = field(default_factory=Options)  # the file's options for it, typed (ir/options.py)
    params: object = None  # what TFLM computes in Prepare: the record its OpDef.prepare makes (op.prepared)
    call: Call | None = None  # its C kernel call, set by lower_ops
    fused_into: int | None = None  # the op whose call does this op's work (passes/fuse_strips.py); its call is None
    origin: int = -1  # its index in the model file (what Netron and error messages show)
    options_problem: str | None = None  # its options are absent or foreign (read_tflite); refused where read
    # tensors the converter names for a kernel's scratch (LSTM's): TFLM gives none bytes
    intermediates: tuple[int, ...] = ()
    aliases: tuple[Alias, ...] = ()  # a view op's output in its input, a concatenation's inputs in its output
    part: str = ""  # which of several ops the compiler made of the file's op this is (a band: band0)
    facts: Facts = field(default_factory=Facts)  # what the passes learned of it

    def prepared(self, kind: type[R]) -> R:
        """The op's prepared data, as the record type its op module makes (another is mcugen's bug)."""
        if not isinstance(self.params, kind):
            raise TypeError(f"{self.opcode} holds {type(self.params).__name__}, not {kind.__name__}")
        return self.params

    def options_as(self, kind: type[O]) -> O:
        """The op's options, as the record its table makes (another is mcugen's bug: the op module reads the
        table its opcode has)."""
        if not isinstance(self.options, kind):
            raise TypeError(f"{self.opcode} has {type(self.options).__name__}, not {kind.__name__}")
        return self.options

    @property
    def activation(self) -> str:
        """The fused activation its options name (NONE where its table has none)."""
        return self.options.fused_activation_function if isinstance(self.options, Activated) else "NONE"

    def optional_input(self, graph: "Graph", i: int) -> Tensor | None:
        """Input i, or None where the file omits it (-1: a bias, LSTM peepholes) or lists fewer."""
        if i >= len(self.inputs) or self.inputs[i] < 0:
            return None
        return graph.tensors[self.inputs[i]]

    def input(self, graph: "Graph", i: int) -> Tensor:
        """Input i, one the op's kernel requires (validate_model has refused files that omit it)."""
        t = self.optional_input(graph, i)
        if t is None:
            raise LookupError(f"{self.opcode} at index {self.origin} has no input {i}")
        return t

    def output(self, graph: "Graph", i: int = 0) -> Tensor:
        return graph.tensors[self.outputs[i]]


@dataclass(frozen=True)
class Variable:
    """State kept across invocations (a resource variable): READ_VARIABLE copies it out,
    ASSIGN_VARIABLE copies a tensor in. `initial` is its value on a freshly booted target and
    after `reset` (the model's CALL_ONCE initialisation, run at build time)."""

    name: str  # the shared_name the model gives it
    initial: np.ndarray  # its dtype and shape too (copies are raw bytes: no quantization of its own)

    @property
    def nbytes(self) -> int:
        return int(self.initial.nbytes)


@dataclass(frozen=True)
class Graph:
    name: str
    tensors: tuple[Tensor, ...]
    ops: tuple[Op, ...]
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    sha256: str = ""
    subgraph_count: int = 1
    subgraphs: tuple[Graph, ...] = ()  # the file's other subgraphs (Graphs) in file order, until a pass resolves them
    subgraph_index: int = 0  # this subgraph's index in the file (its signature's)
    signature: str = ""  # the signature the user picked (--signature), if any
    signatures: tuple[str, ...] = ()  # every signature the file names, in file order
    variables: tuple[Variable, ...] = ()  # state, indexed by Facts.variable and Facts.state
    cut_at: tuple[str, ...] = ()  # tensor names the user made the outputs (`--outputs`)
    banded: Banding | None = None  # its first layers run band by band (patch-based inference)
    fp16_layers: tuple[str, ...] = ()  # a plan's fp16 layers' output names (the file's mcugen.fp16 metadata)

    def file_subgraphs(self) -> tuple["Graph", ...]:
        """Every subgraph in file order, this one at subgraph_index (what subgraph indices count)."""
        k = self.subgraph_index
        return (*self.subgraphs[:k], self, *self.subgraphs[k:])

    def replace_ops(self, ops: Iterable[Op]) -> Graph:
        return dataclasses.replace(self, ops=tuple(ops))

    @property
    def weight_bytes(self) -> int:
        """The model's own weights: the constants its ops read, at their size in the file."""
        read = {t for op in self.ops for t in op.inputs if t >= 0 and self.tensors[t].is_const}
        return sum(self.tensors[t].file_bytes for t in read)

    def readers(self) -> dict[int, list[Op]]:
        """Each tensor's reading ops, in order (an op reading it twice listed once)."""
        readers: dict[int, list[Op]] = {}
        for op in self.ops:
            for t in dict.fromkeys(op.inputs):
                readers.setdefault(t, []).append(op)
        return readers

    def renumber(self, ops: Iterable[Op]) -> Graph:
        """A Graph running `ops` (a subset, in order), each indexed by its new position."""
        return self.replace_ops(dataclasses.replace(op, index=k) for k, op in enumerate(ops))

    def verify(self) -> "Graph":
        """Check the structural invariants every pass relies on; return self.

        A tensor read before any op writes it is legal in a file (state, scratch, an NPU's
        command stream); check_support refuses the ops that do it, naming them."""
        n = len(self.tensors)
        for i, t in enumerate(self.tensors):
            _require(t.index == i, f"tensor {i} carries index {t.index}")
            if t.data is not None:
                _require(tuple(t.data.shape) == t.shape,
                         f"tensor {i} '{t.name}': data shape {t.data.shape} != {t.shape}")
        produced = set()
        for idx in self.inputs:
            _require(0 <= idx < n, f"graph input {idx} is not a tensor")
            produced.add(idx)
        for k, op in enumerate(self.ops):
            _require(op.index == k, f"op {k} carries index {op.index}")
            for idx in op.inputs:  # -1 is an omitted optional input; TFLM would index with any other
                _require(-1 <= idx < n, f"op {k} {op.opcode} reads missing tensor {idx}")
            for idx in op.outputs:
                _require(0 <= idx < n, f"op {k} {op.opcode} writes missing tensor {idx}")
                _require(idx not in produced, f"tensor {idx} is written twice (op {k})")
                produced.add(idx)
        for idx in self.outputs:
            _require(0 <= idx < n, f"graph output {idx} is not a tensor")
        return self

    def __str__(self) -> str:
        """A compact text form, one line per op, that tests can state literally."""
        def tname(i: int) -> str:
            return "-" if i < 0 else f"t{i}"
        lines = [f"graph {self.name} inputs=({', '.join(map(tname, self.inputs))}) "
                 f"outputs=({', '.join(map(tname, self.outputs))})"]
        for op in self.ops:
            ins = ", ".join(map(tname, op.inputs))
            outs = ", ".join(map(tname, op.outputs))
            shape = "x".join(map(str, self.tensors[op.outputs[0]].shape)) if op.outputs else ""
            lines.append(f"  {op.index}: {outs} = {op.opcode}({ins}) -> [{shape}]")
        return "\n".join(lines)

    @classmethod
    def parse(cls, text: str, consts: Mapping[str, np.ndarray] | None = None) -> Graph:
        """The Graph whose text() is `text`, the IR before lower_ops (ir/text_form.py): the pass tests state
        a pass's Before and Expected so. A constant or variable with more values than the text lists takes
        them from `consts`, by name. ValueError names a line it cannot read."""
        lines = [line for line in text.splitlines() if line]
        if len(lines) < 3 or lines[1] != "tensors" or "ops" not in lines:
            raise ValueError("not the IR's text form: a graph line, then 'tensors', then 'ops'")
        name, inputs, outputs = text_form.graph_line(lines[0])
        tensors = tuple(_parsed_tensor(text_form.tensor_line(line), consts or {})
                        for line in lines[2:lines.index("ops")])
        ops: list[Op] = []
        variables = []
        fp16_layers = next((text_form.fp16_line(line) for line in lines if line.startswith("fp16 layers ")), ())
        for line in lines[lines.index("ops") + 1:]:
            if line.startswith("fp16 layers "):
                continue
            if line.startswith("variable "):
                var, dtype, shape, values = text_form.variable_line(line)
                variables.append(Variable(var, _given(var, values, consts or {}, dtype, shape)))
            elif not line.startswith("     "):
                o = text_form.op_line(line)
                ops.append(Op(o.number, o.opcode, 1, o.inputs, o.outputs, o.options, origin=o.number))
            elif ops and (facts := text_form.with_fact(ops[-1].facts, line)) is not None:
                ops[-1] = dataclasses.replace(ops[-1], facts=facts)
            else:
                raise ValueError(f"not a fact of the IR before lower_ops: {line!r}")
        return cls(name, tensors, tuple(ops), inputs, outputs, variables=tuple(variables), fp16_layers=fp16_layers)

    def text(self) -> str:
        """The whole IR as text (what --dump-ir writes after each pass; Graph.parse reads it back): the graph
        line, every tensor with its type and quantization (a constant of at most TEXT_VALUES values with them),
        every op with its options and what the passes gave it (its facts, its kernel call, the op its work went
        into), the state and where the arena put each tensor."""
        ends = {**{i: "input" for i in self.inputs}, **{i: "output" for i in self.outputs}}
        arena = self.arena if isinstance(self, Compiled) else None
        lines = [str(self).splitlines()[0], "tensors"]
        for t in self.tensors:
            role = ends.get(t.index, "const" if t.is_const else "variable" if t.variable else "")
            role += f" ({t.stored} in the file)" if t.stored else ""
            placed = f" @{arena.offset(t.index)}" if arena and t.index in arena.buffer_of else ""
            values = values_text(t.data) if t.data is not None else ""
            lines.append(f"  t{t.index} {t.dtype}[{', '.join(map(str, t.shape))}]{_quant_text(t.quant)}{placed} "
                         f"{role + ' ' if role else ''}'{t.name}'{values}")
        lines.append("ops")
        for op, line in zip(self.ops, str(self).splitlines()[1:]):
            lines.append(line + options_text(op.options))
            if op.call is not None:
                lines.append(f"     call {op.call.kernel}" + (f" ({op.call.note})" if op.call.note else ""))
                lines += [f"     unpacks {a.const.name}: {a.const.data.size} {a.const.data.dtype} from "
                          f"{a.stored().nbytes} B ({a.kernel})" for a in op.call.args if isinstance(a, Packed)]
            if arena is not None and op.call is not None:
                lines += [f"     copies its {field or name} "
                          f"({arena.plan.buffers[k].size} B) to the arena @{arena.plan.offsets[k]} first"
                          for (_, name), field, k in arena.staged.get(op.index, ())]
            if op.fused_into is not None:
                lines.append(f"     runs inside op {op.fused_into}'s call")
            lines += [f"     t{a.tensor} is t{a.whole}'s bytes from {a.offset}" for a in op.aliases]
            if op.facts.folded_pad is not None:
                pads = [list(p) for p in op.facts.folded_pad]
                lines.append(f"     pads [[top, bottom], [left, right]] {pads} (a PAD's or a band's)")
            if op.facts.clamp is not None:
                lines.append(f"     clamp {list(op.facts.clamp)} (a folded QUANTIZE's zero point)")
            for position, variable in sorted(op.facts.state.items()):
                lines.append(f"     input {position} is variable {variable}")
            if op.facts.variable is not None:
                lines.append(f"     on variable {op.facts.variable}")
            if op.facts.groups is not None:
                lines.append(f"     a grouped conv of {op.facts.groups} groups in the file")
        for k, v in enumerate(self.variables):
            lines.append(f"variable {k} '{v.name}' {v.initial.dtype}[{', '.join(map(str, v.initial.shape))}]"
                         + values_text(v.initial))
        if self.fp16_layers:
            lines.append(f"fp16 layers {list(self.fp16_layers)}")
        if arena is not None:
            lines.append(f"arena {arena.plan.size} B ({arena.plan.strategy})")
        if isinstance(self, Compiled) and self.weights_out:
            lines.append(f"weights of ops {', '.join(map(str, sorted(self.weights_out)))} in {self.weights_region}")
        elif isinstance(self, Compiled) and self.weights_region == RAM:
            lines.append("weights of no op in RAM (none fits the room the arena and variables leave)")
        return "\n".join(lines)


@dataclass(frozen=True, kw_only=True)
class Compiled(Graph):
    """A Graph the whole pipeline has run on (codegen/pipeline.py compile_model): every op lowered to its
    kernel call and the arena planned (plan_memory). What emitting C, building, validating and the reports
    take; nothing in it is left for a later pass to fill in. The target it was compiled for (features,
    tuning) is the back end's input (codegen/pipeline.py back_end), never read by the passes from the graph."""

    arena: ArenaPlan  # where activations live
    features: frozenset[str] = frozenset()  # the ISA features its kernel variants were chosen for (mcugen/kernels/)
    tuning: Tuning | None = None  # per-layer kernel choices measured by --tune
    weights_region: str = ""  # the external flash region place_weights put some layers' weights in
    weights_out: frozenset[int] = frozenset()  # those layers (op indices)
    fit_hint: str = ""  # where the arena does not fit the board's RAM: what bands would make of it (patch_plan)

    @classmethod
    def of(cls, g: Graph, arena: ArenaPlan) -> Compiled:
        """g with `arena`; a compiled graph planned again keeps the target it was compiled for."""
        compiled = cls(**{f.name: getattr(g, f.name) for f in dataclasses.fields(Graph)}, arena=arena)
        if isinstance(g, Compiled):
            return dataclasses.replace(compiled, features=g.features, tuning=g.tuning)
        return compiled



def _require(cond: bool, message: str) -> None:
    if not cond:
        raise McugenError(f"invalid graph: {message}",
                          "the model file is inconsistent; re-export it")
