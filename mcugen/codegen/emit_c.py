"""Render a lowered, planned Graph as NAME.h and NAME.c (Jinja2 templates in mcugen/templates/)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
import jinja2
import numpy as np

from mcugen import __version__, ops
from mcugen.ops.custom import sources_of
from mcugen.errors import McugenError
from mcugen.kernels import widens
from mcugen.ir.graph import Compiled, Graph, Op, Tensor
from mcugen.ir.budget import RAM
from mcugen.ir.calls import ArrayKey
from mcugen.ir.lowering import layer_name
from mcugen.codegen.layer_c import LayerEmitter, c_values
from mcugen.ir.planner import ALIGN, state_layout
from mcugen.runtime import FEATURE_MACROS, c_float, with_callees

_ENV = jinja2.Environment(loader=jinja2.PackageLoader("mcugen", "templates"), keep_trailing_newline=True,
                          undefined=jinja2.StrictUndefined, autoescape=False)

# NAME_tensor_info.type: what the harness and applications read in each input/output
DTYPE_CODES = {"int8": 0, "uint8": 1, "int16": 2, "int32": 3, "float32": 4, "uint32": 5, "uint64": 6}


@dataclass
class _Layer:
    """What the templates print for one op: its data definitions and its call."""

    title: str
    detail: list[str]
    call: str | None
    data: list[str] = field(default_factory=list)
    locals: list[str] = field(default_factory=list)  # declarations in a block around the call
    const_bytes: int = 0
    external_bytes: int = 0


def _shape(t: Tensor) -> str:
    return _typed(t.dtype, t.shape)


def _typed(dtype: str, shape: Sequence[int]) -> str:
    return f"{dtype}[{','.join(map(str, shape))}]"


def _at(g: Compiled, names: dict[int, str], t: int) -> str:
    """A graph input's or output's offset in the main arena: its buffer's named offset, and where in it it lies
    (a patch stage's input lies behind its output's start, passes/plan_memory.py)."""
    within = g.arena.within.get(t, 0)
    return names[g.arena.buffer_of[t]] + (f" + {within}" if within else "")


def _external_offsets(g: Compiled) -> list[int]:
    """Each input's place in one buffer of them all (NAME_set_inputs), 8-byte aligned, then the buffer's bytes."""
    ends = np.cumsum([0] + [(g.tensors[t].nbytes + 7) // 8 * 8 for t in g.inputs])
    return [int(e) for e in ends]


def _comment(text: str) -> str:
    """Text from the model file (tensor and variable names) made safe inside a C comment."""
    return text.replace("*/", "* /")


def _quant(t: Tensor) -> str:
    return f"zp {t.quant.zp}" if t.quant is not None else "no quantization"

def _title(g: Graph, op: Op) -> str:
    return f"layer {op.index}: {op.opcode} ({layer_name(g, op)})"


def _detail(g: Compiled, op: Op, slice_name: Callable[[int], str]) -> list[str]:
    acts = [t for i in range(len(op.inputs)) if (t := op.optional_input(g, i)) is not None and not t.is_const]
    made = "".join(f" -> {_shape(g.tensors[y])} {_quant(g.tensors[y])}" for y in op.outputs[:1])
    lines = [" + ".join(f"{_shape(t)} {_quant(t)}" for t in acts) + made]
    if op.call is not None and op.call.note:
        lines.append(_comment(op.call.note))
    measured = g.tuning.layers.get(op.index) if g.tuning is not None else None
    if measured is not None and g.tuning is not None:
        times = ", ".join(f"{kernel} {t:,}" for kernel, t in measured.times.items())
        lines.append(f"tuned on {g.tuning.measured_on} ({g.tuning.unit}): {times}")
    activation = op.activation
    if activation != "NONE":
        lines.append(f"fused {activation}")
    if op.fused_into is not None and op.opcode == "STRIDED_SLICE":
        lines.append(f"no code here: layer {op.fused_into}'s copy reads these elements where they are "
                     "(the output never exists)")
    elif op.fused_into is not None:
        lines.append(f"no code here: layer {op.fused_into} runs it, a strip of rows at a time "
                     "(the output never exists whole)")
    elif op.call is None and op.outputs[0] not in g.arena.buffer_of:
        lines.append("no code: a view of a fused layer's output")
    elif op.call is None and op.aliases and op.aliases[0].whole in op.outputs:
        lines.append("no code: the layers that make its inputs wrote each in its place")
    elif op.call is None:
        lines.append(f"no code: the output is the input's bytes ({slice_name(op.outputs[0])})")
    macs = ops.get(g, op).macs(g, op)
    if macs:
        lines.append(f"{macs:,} MACs")
    return lines


def _tensor_info(t: Tensor, prefix: str) -> str:
    shape = ", ".join(map(str, t.shape)) or "1"
    scale = c_float(t.quant.s if t.quant is not None else 0.0)
    zp = t.quant.zp if t.quant is not None else 0
    name = t.name.replace("\\", "/").replace('"', "'")
    return (f'{{"{name}", {prefix}_{t.dtype.upper()}, {len(t.shape)}, {{{shape}}}, {t.nbytes}, {scale}, {zp}}}')


def slice_names(g: Compiled) -> dict[int, str]:
    """The enum name of each arena buffer, by buffer index."""
    return {k: re.sub(r"[^A-Za-z0-9_]", "_", b.name).upper() for k, b in enumerate(g.arena.plan.buffers)}


NAME_RULE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")


def check_name(name: str) -> str:
    """The prefix of every symbol of a generated model: a C identifier that cannot meet the runtime's."""
    if not NAME_RULE.fullmatch(name) or name.lower().startswith("mcu_"):
        raise McugenError(f"--name {name!r} is not usable as a C prefix",
                          "use a letter then letters, digits or _ (at most 32, not starting with mcu_), e.g. kws")
    return name


@dataclass(frozen=True)
class GeneratedC:
    name: str  # the API prefix: NAME.h, NAME.c, NAME_invoke()
    files: dict[str, str]  # file name -> text: NAME.h, NAME.c, mcu_nn_names.h
    const_bytes: int  # constant arrays (weights, biases, multipliers, tables) in the default section
    kernels: tuple[str, ...]  # the kernels the model calls (runtime_c/src/ or runtime_c/<feature>/<kernel>.c)
    features: frozenset[str] = frozenset()  # the ISA features it was lowered for (Graph.features)
    layer_const_bytes: tuple[int, ...] = ()  # each layer's share of const_bytes
    external_bytes: int = 0  # the weight arrays placed in the external flash section (passes/place_weights.py)
    custom_kernels: tuple[str, ...] = ()  # the user's kernels (--ops), whose C files are among `files`
    custom_files: tuple[str, ...] = ()  # those C files and their headers, by name


def _kernel_names(name: str, kernels: Iterable[str]) -> str:
    """Every model carries its own copy of the kernels it calls, renamed after it, so several
    models (even of different mcugen versions or kernel variants) link into one program."""
    lines = [f"/* Generated by mcugen {__version__}: the kernels of model {name} under its own names. */",
             "#ifndef MCU_NN_NAMES_H", "#define MCU_NN_NAMES_H", ""]
    lines += [f"#define {k} {name}_{k}" for k in kernels]
    return "\n".join(lines + ["", "#endif /* MCU_NN_NAMES_H */", ""])


def weights_section_of(region: str) -> str:
    """Where weight arrays placed in `region` go: RAM's is a .data section, which every start-up copies
    from flash; a flash region's is its own, which the board's linker script places there."""
    return ".data.mcu_weights" if region == RAM else f".mcu_const.{region}"


def _layers(g: Compiled, names: dict[int, str], upper: str) -> list[_Layer]:
    """Each layer's call, comment and constants, its slices and scratch named after the arena they are in:
    the caller's, or (a board's other RAM regions) a static one of NAME.c."""
    plan = g.arena.plan
    main = plan.region_sizes[0][0] if plan.region_sizes else ""

    def base(k: int) -> str:
        return "arena" if plan.region(k) == main else f"arena_{plan.region(k).lower()}"

    def slice_name(t: int) -> str:
        if t in g.arena.outside:  # read where the caller keeps the input (--external-input)
            k, at = g.arena.outside[t]
            return f"(int8_t *)(uintptr_t)input_at[{k}]" + (f" + {at}" if at else "")
        k, within = g.arena.buffer_of[t], g.arena.within.get(t, 0)
        return f"{base(k)} + {names[k]}" + (f" + {within}" if within else "")

    def scratch_name(op: Op, ctype: str, offset: int) -> str:
        at, k = f" + {offset}" if offset else "", g.arena.scratch_of[op.index]
        return f"({ctype} *)(void *)({base(k)} + {names[k]}{at})"

    layers = []
    emitted: dict[ArrayKey, str] = {}
    for op in g.ops:
        weights_section = (f'__attribute__((section("{weights_section_of(g.weights_region)}")))'
                           if op.index in g.weights_out else "")
        emitter = LayerEmitter(g, op, slice_name, scratch_name, f"{upper}_CONST", weights_section, emitted)
        staged: dict[tuple[str, str], dict[str, str]] = {}
        for key, field, k in g.arena.staged.get(op.index, ()):
            staged.setdefault(key, {})[field] = f"{base(k)} + {names[k]}"
        call = emitter.render(op.call, staged)
        layers.append(_Layer(_title(g, op), _detail(g, op, slice_name), call, emitter.data,
                             emitter.locals, emitter.const_bytes, emitter.external_bytes))
    return layers


def _options(g: Compiled, name: str, static_arena: bool) -> str:
    """The options that change the code, as the header stamps them."""
    plan = g.arena.plan
    widened = sum(widens(op.call) for op in g.ops)
    split = any(size for _, size in plan.region_sizes[1:])
    return " ".join([f"--name {name}", *([f"--signature {g.signature}"] if g.signature else []),
                     *(["--static-arena"] if static_arena else []),
                     *([f"(arena across {', '.join(r for r, _ in plan.region_sizes)})"] if split else []),
                     *([f"(weights of {len(g.weights_out)} layers in {g.weights_region})"] if g.weights_out else []),
                     *([f"({'+'.join(sorted(g.features)).upper()} kernels)"] if g.features else []),
                     *([f"({widened} layer(s) on weights widened to int16: --optimize)"] if widened else []),
                     *([f"--tune (measured on {g.tuning.measured_on})"] if g.tuning is not None else [])])


def _state(g: Compiled) -> tuple[list[dict[str, object]], int, np.ndarray]:
    """The state variables' slices in NAME.c's state block, its bytes, and their initial values."""
    offsets, offset = state_layout(g.variables)
    state = [dict(name=f"STATE_{k}", offset=at,
                  comment=_comment(f"'{v.name}': {_typed(str(v.initial.dtype), v.initial.shape)}"))
             for k, (v, at) in enumerate(zip(g.variables, offsets))]
    initial = np.zeros(max(offset, 1), np.int8)
    for at, v in zip(offsets, g.variables):
        initial[at:at + v.nbytes] = np.frombuffer(v.initial.tobytes(), np.int8)
    return state, offset, initial


def emit_c(g: Compiled, model_name: str, *, name: str = "model", static_arena: bool = False) -> GeneratedC:
    """NAME.h and NAME.c for a Graph that went through lower_ops and plan_memory.

    model_name: the model's file name (no folders, so the output does not depend on where it is);
    name: the prefix of the public API; static_arena: the arena is a static array of NAME.c rather
    than the caller's. The layers passes/place_weights.py moved out (g.weights_out) have their weight
    arrays in section weights_section_of(g.weights_region).
    """
    check_name(name)
    n, upper = name, name.upper()
    names = slice_names(g)
    plan = g.arena.plan
    layers = _layers(g, names, upper)
    where = [f", in {plan.region(k)}" if plan.region_of else "" for k in range(len(plan.buffers))]
    slices = [dict(name=names[k], offset=off, comment=f"{b.size} B, steps {b.first}..{b.last}{where[k]}")
              for k, (b, off) in enumerate(zip(plan.buffers, plan.offsets))]
    regions = [dict(name=r, bytes=size) for r, size in plan.region_sizes[1:] if size]  # an empty one gets no array
    state, state_bytes, initial = _state(g)
    const_bytes = sum(layer.const_bytes for layer in layers)
    context = dict(
        version=__version__, model_name=model_name, sha256=g.sha256, options=_options(g, name, static_arena),
        n=n, N=upper, static_arena=static_arena, arena_bytes=plan.size, arena_align=ALIGN, strategy=plan.strategy,
        regions=regions, weights_region=g.weights_region if g.weights_out else "",
        weights_section=weights_section_of(g.weights_region), weights_in_ram=g.weights_region == RAM,
        dtype_codes=DTYPE_CODES,
        cut_at=[_comment(name) for name in g.cut_at], slices=slices, layers=layers,
        state=state, state_bytes=state_bytes, state_initial=c_values(initial), staged=bool(g.arena.staged),
        macs=sum(ops.get(g, op).macs(g, op) for op in g.ops),
        const_bytes=const_bytes,
        sha256_bytes=", ".join(str(b) for b in bytes.fromhex(g.sha256)),
        inputs=[_tensor_info(g.tensors[t], upper) for t in g.inputs],
        outputs=[_tensor_info(g.tensors[t], upper) for t in g.outputs],
        external_inputs=bool(g.arena.outside), external_offsets=_external_offsets(g),
        input_slices=[] if g.arena.outside else [_at(g, names, t) for t in g.inputs],
        output_slices=[_at(g, names, t) for t in g.outputs])
    kernels = with_callees(frozenset(k for op in g.ops if op.call for k in (op.call.kernel, *op.call.extra_kernels)),
                           g.features)
    custom, custom_kernels = sources_of(g)  # the user's own kernels (--ops): their C and headers go with the model
    context["custom_headers"] = sorted(f for f in custom if f.endswith(".h"))
    context["isa"] = [(FEATURE_MACROS[f], f.upper()) for f in sorted(g.features)]
    return GeneratedC(name, {f"{n}.h": _ENV.get_template("model.h.j2").render(context),
                             f"{n}.c": _ENV.get_template("model.c.j2").render(context),
                             "mcu_nn_names.h": _kernel_names(n, kernels), **custom},
                      const_bytes, tuple(kernels), g.features,
                      tuple(layer.const_bytes for layer in layers), sum(layer.external_bytes for layer in layers),
                      custom_kernels, tuple(sorted(custom)))
