"""The graph every pass reads and returns.

A Graph is one subgraph in execution order: tensors (shape, dtype, quantization,
constant data as numpy arrays) and ops that name tensors by index. Passes never
mutate a Graph; they return a new one (`dataclasses.replace`).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.budget import RAM
from mcugen.ir.calls import Packed

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
TEXT_VALUES = 16  # Graph.text() lists the values of constants this small (shapes, axes, small biases)


@dataclass(frozen=True)
class Alias:
    """A tensor that is bytes of another's buffer (passes/place_views.py): `tensor` lies in `whole` from byte
    `offset` on, so the op that makes it writes (or the view reads) them there and no copy runs."""

    tensor: int
    whole: int
    offset: int


@dataclass(frozen=True)
class Banding:
    """What patch-based inference did (passes/split_patches.py): the file's layers `first` to `last` run in
    `bands` bands of `columns` patches; the whole-tensor plan's arena (None: it fitted no RAM) and MACs beside."""

    first: int
    last: int
    bands: int
    whole_macs: int
    whole_arena: int | None = None
    # each stage layer's file index and opcode, its output's height, and the rows each band computes of it
    # (overlapping where bands recompute what their neighbours' windows share)
    rows: tuple[tuple[int, str, int, tuple[tuple[int, int], ...]], ...] = ()
    columns: int = 1  # each band cut into that many patches of its columns
    # as `rows`, the columns of each layer's output each patch of a band computes (empty: bands of whole rows)
    cols: tuple[tuple[int, str, int, tuple[tuple[int, int], ...]], ...] = ()
    # the stage's input and output tensors: the planner may write the output over the input behind the
    # patches' reads (passes/plan_memory.py)
    source: int = -1
    output: int = -1


@dataclass(frozen=True)
class Facts:
    """What the passes learned of an op, apart from the file's options (Op.attrs)."""

    # input position (OWN_STATE: the kernel's own state) -> its Graph.variables index (resolve_variables)
    state: dict[int, int] = field(default_factory=dict)
    variable: int | None = None  # READ_VARIABLE's or ASSIGN_VARIABLE's Graph.variables index (resolve_variables)
    groups: int | None = None  # a grouped conv run as the plain one it equals: the file's group count (expand_groups)
    # a window over the unpadded input padded [[top, bottom], [left, right]] (fold_pads, split_patches)
    folded_pad: tuple[tuple[int, int], tuple[int, int]] | None = None
    clamp: tuple[int, int] | None = None  # a folded QUANTIZE's output range, its zero point's (fold_quantizes)


@dataclass(frozen=True)
class Op:
    index: int  # position in Graph.ops (the execution step)
    opcode: str  # BuiltinOperator name, e.g. CONV_2D; CUSTOM:<name> for custom ops
    version: int
    inputs: tuple[int, ...]  # -1 marks an omitted optional input
    outputs: tuple[int, ...]
    attrs: dict[str, Any] = field(default_factory=dict)  # the op's builtin options, parsed
    params: object = None  # what TFLM computes in Prepare: the record its OpDef.prepare makes (op.prepared)
    call: Call | None = None  # its C kernel call, set by lower_ops
    fused_into: int | None = None  # the op whose call does this op's work (passes/fuse_strips.py); its call is None
    origin: int = -1  # its index in the model file (what Netron and error messages show)
    options_problem: str | None = None  # its options are absent or foreign (read_tflite); refused where read
    intermediates: tuple[int, ...] = ()  # tensors the converter names for a kernel's scratch (LSTM's): TFLM gives none bytes
    aliases: tuple[Alias, ...] = ()  # a view op's output in its input, a concatenation's inputs in its output
    part: str = ""  # which of several ops the compiler made of the file's op this is (a band: band0)
    facts: Facts = field(default_factory=Facts)  # what the passes learned of it

    def prepared(self, kind: type[R]) -> R:
        """The op's prepared data, as the record type its op module makes (another is mcugen's bug)."""
        if not isinstance(self.params, kind):
            raise TypeError(f"{self.opcode} holds {type(self.params).__name__}, not {kind.__name__}")
        return self.params

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

    def text(self) -> str:
        """The whole IR as text (what --dump-ir writes after each pass): the graph line, every tensor with
        its type and quantization (a constant of at most TEXT_VALUES values with them), every op with what the passes gave it (its kernel call, the op its
        work went into), the state and where the arena put each tensor."""
        ends = {**{i: "input" for i in self.inputs}, **{i: "output" for i in self.outputs}}
        arena = self.arena if isinstance(self, Compiled) else None
        lines = [str(self).splitlines()[0], "tensors"]
        for t in self.tensors:
            role = ends.get(t.index, "const" if t.is_const else "variable" if t.variable else "")
            role += f" ({t.stored} in the file)" if t.stored else ""
            quant = "" if t.quant is None else (f" scale {t.q.s:.6g} zp {t.q.zp}" if not t.q.per_channel else
                                                f" {t.q.scale.size} scales on axis {t.q.axis}")
            placed = f" @{arena.offset(t.index)}" if arena and t.index in arena.buffer_of else ""
            values = f" = {t.data.ravel().tolist()}" if t.data is not None and t.data.size <= TEXT_VALUES else ""
            lines.append(f"  t{t.index} {t.dtype}[{', '.join(map(str, t.shape))}]{quant}{placed} "
                         f"{role + ' ' if role else ''}'{t.name}'{values}")
        lines.append("ops")
        for op, line in zip(self.ops, str(self).splitlines()[1:]):
            lines.append(line)
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
        for k, v in enumerate(self.variables):
            lines.append(f"variable {k} '{v.name}' {v.initial.dtype}[{', '.join(map(str, v.initial.shape))}]")
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
