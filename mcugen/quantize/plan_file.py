"""A precision plan as a file: the one a user writes (`quantize --plan FILE`) and the one `--search` writes for
its choice, which `--plan` takes back as it is.

    default: int8        # int8, 16x8, w4a8, fp16, float16, fp32 or dynamic
    io: int8             # optional: the inputs' and outputs' type (else the default's: recipe.model_ends)
    per_tensor: false    # optional: one weight scale per tensor
    layers:              # optional: each layer that differs, named by its index as `mcugen inspect FLOAT`
      0: 16x8            # prints it, by its output tensor's name, or by a pattern over those names
      "*dense*": fp32    # (fnmatch)

fp16 is float16 weights computed in fp16 where the core has half-precision arithmetic (Helium: the Cortex-M55;
elsewhere in float32, as float16 is), for FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D; float16 is float16
weights with float32 arithmetic (the converter's float16 option), fp32 the float layer as it is, dynamic int8
weights with float32 activations.
"""
from __future__ import annotations

import difflib
import fnmatch
import shlex
from pathlib import Path
from typing import Any

from mcugen.errors import McugenError
from mcugen.ops.half_layers import HALF_OPS
from mcugen.quantize.model import IO_TYPES, WEIGHTED_OPS, FloatModel, Layer
from mcugen.quantize.recipe import Plan, model_ends, takes_int4
from mcugen.targets.spec_files import read_yaml

# a plan's names -> the quantizer's precisions (model.PRECISIONS)
NAMES = {"int8": "int8", "16x8": "16x8", "w4a8": "w4a8", "fp16": "fp16", "float16": "float16", "fp32": "float32",
         "float32": "float32", "dynamic": "dynamic"}
WRITTEN = {"float32": "fp32"}  # how a written plan names that
KEYS = ("default", "io", "per_tensor", "layers")


def load_plan(path: Path, model: FloatModel) -> Plan:
    fix = f"fix {path} (a plan: `default: PRECISION`, optional io, per_tensor and layers; `mcugen quantize --help`)"
    data = read_yaml(path, fix)
    if not isinstance(data, dict) or "default" not in data:
        raise McugenError(f"{path}: a plan is a mapping with at least `default: PRECISION`", fix)
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise McugenError(f"{path}: unknown key '{unknown[0]}'{_closest(str(unknown[0]), KEYS)}", fix)
    default = _precision(path, "default", data["default"], fix)
    io = data.get("io", model_ends(default, None))
    ends = ("float32",) if default in ("float16", "fp16", "dynamic") else \
        (*IO_TYPES, "int16") if default == "16x8" else IO_TYPES
    if io not in ends:
        raise McugenError(f"{path}: io '{io}' with default {_written(default)}: the inputs and outputs are "
                          f"{' or '.join(ends)}{_closest(str(io), ends)}", fix)
    per_tensor = data.get("per_tensor", False)
    if not isinstance(per_tensor, bool):
        raise McugenError(f"{path}: per_tensor is true or false, not '{per_tensor}'", fix)
    plan = Plan(default, io=io, per_tensor=per_tensor)
    layers = data.get("layers") or {}
    if not isinstance(layers, dict):
        raise McugenError(f"{path}: layers is a mapping of layer -> precision", fix)
    chosen: dict[Layer, tuple[str, str]] = {}  # layer -> (precision, the key that named it)
    for key, value in layers.items():
        precision = _precision(path, f"layer '{key}'", value, fix)
        for layer in _named(path, model, key):
            before = chosen.get(layer)
            if before is not None and before[0] != precision:
                raise McugenError(f"{path}: layer {layer.origin} ({layer.opcode} '{layer.output}') is named twice, as "
                                  f"'{before[1]}' ({_written(before[0])}) and '{key}' ({_written(precision)})", fix)
            _require_takes(path, layer, precision, plan, fix)
            chosen[layer] = (precision, str(key))
    for layer, (precision, _) in chosen.items():
        plan = plan.with_layer(layer, precision)
    return plan


def plan_text(plan: Plan, model: FloatModel, source: str) -> str:
    """The plan as a file `--plan` reads back, each layer that differs named by its index, its op and output
    beside it."""
    by_scope = {layer.scope: layer for layer in model.layers}
    lines = [f"# mcugen precision plan for {source}: mcugen quantize {shlex.quote(str(source))} --plan THIS_FILE --data ...",
             f"default: {_written(plan.default)}"]
    lines += [f"io: {plan.io}"] if plan.io != model_ends(plan.default, None) else []
    lines += [f"per_tensor: {str(plan.per_tensor).lower()}"]
    entries = sorted(((by_scope[scope], precision) for scope, precision in plan.layers), key=lambda e: e[0].origin)
    if entries:
        lines.append("layers:")
        lines += [f"  {layer.origin}: {_written(precision)}  # {layer.opcode} '{layer.output}'"
                  for layer, precision in entries]
    return "\n".join(lines) + "\n"


def plan_json(plan: Plan, model: FloatModel) -> dict[str, Any]:
    """The plan as the search's JSON records each candidate's: the file's fields."""
    by_scope = {layer.scope: layer for layer in model.layers}
    entries = sorted(((by_scope[scope].origin, precision) for scope, precision in plan.layers))
    return dict(default=_written(plan.default), io=plan.io, per_tensor=plan.per_tensor,
                layers={str(origin): _written(precision) for origin, precision in entries})


def _written(precision: str) -> str:
    return WRITTEN.get(precision, precision)


def _precision(path: Path, what: str, value: Any, fix: str) -> str:
    if not isinstance(value, str) or value not in NAMES:
        raise McugenError(f"{path}: {what}: '{value}' is no precision (int8, 16x8, w4a8, fp16, float16, fp32, "
                          f"dynamic)"
                          f"{_closest(str(value), NAMES)}", fix)
    return NAMES[value]


def _named(path: Path, model: FloatModel, key: Any) -> list[Layer]:
    """The layers a plan's key names: an index as inspect prints it, an output's name, or a pattern over them."""
    if isinstance(key, int) and not isinstance(key, bool):
        found = [layer for layer in model.layers if layer.origin == key]
    elif isinstance(key, str):
        found = [layer for layer in model.layers if layer.output == key] or \
            [layer for layer in model.layers if fnmatch.fnmatchcase(layer.output, key)] or \
            [layer for layer in model.layers if key.isdigit() and layer.origin == int(key)]  # a quoted index
    else:
        found = []
    if not found:
        names = [layer.output for layer in model.layers]
        raise McugenError(f"{path}: layer '{key}' names no layer of the model{_closest(str(key), names)}",
                          "name layers by the index or output name `mcugen inspect FLOAT` prints")
    return found


def _require_takes(path: Path, layer: Layer, precision: str, plan: Plan, fix: str) -> None:
    """A precision that needs weights, or INT4 ones, refused for a layer that has none or cannot take them."""
    weighted = layer.opcode in WEIGHTED_OPS and layer.weights > 0
    if precision in ("w4a8", "float16", "fp16", "dynamic") and not weighted:
        raise McugenError(f"{path}: layer {layer.origin} ({layer.opcode} '{layer.output}') has no weights for "
                          f"{_written(precision)}", "give it int8, 16x8 or fp32")
    if precision == "fp16" and layer.opcode not in HALF_OPS:
        raise McugenError(f"{path}: layer {layer.origin} ({layer.opcode} '{layer.output}') has no fp16 kernel (mcugen "
                          "computes FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D in fp16)",
                          "give it float16 (float16 weights, float32 arithmetic) or fp32")
    if precision == "w4a8" and not takes_int4(layer, plan):
        raise McugenError(f"{path}: layer {layer.origin} ({layer.opcode} '{layer.output}') cannot take INT4 weights "
                          "(TFLM takes them in CONV_2D, and FULLY_CONNECTED with per_tensor: true)",
                          f"give it int8 or 16x8, or {fix}")


def _closest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1)
    return f" (did you mean {close[0]}?)" if close else ""
