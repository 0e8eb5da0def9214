"""A per-layer precision plan, the quantizer's recipe for it, and the quantized model it gives,
checked before anyone sees it.

ai-edge-quantizer picks each op's configuration from the recipe's entries whose scope regex matches
the op's scope (its output tensors' names, each followed by ';') and whose op name matches; the
last match wins. So a plan is one entry for the model's default precision and one entry per layer
that differs, anchored to that layer's exact scope. Its float32 ("no_quantize") layers keep float
kernels with QUANTIZE/DEQUANTIZE around them; int8 and int16 layers meet through QUANTIZE ops.

Every quantized model is checked: mcugen lowers it (so it runs every layer), TFLM runs it and the
golden model equals TFLM at every layer on calibration samples. A model failing either is never
written: the first is a layer's precision mcugen cannot run, the second mcugen's own bug.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mcugen.frontend import model_object
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph
from mcugen.ops.half_layers import HALF_OPS
from mcugen.quantize.model import INT4_OPS, FloatModel, Layer
INSTALL = "pip install 'mcugen[quantize]' (ai-edge-quantizer)"


@dataclass(frozen=True)
class Plan:
    default: str = "int8"  # one of model.PRECISIONS
    layers: tuple[tuple[str, str], ...] = ()  # (Layer.scope, precision) where a layer differs from the default
    io: str = "int8"  # the type of the model's inputs and outputs: model_ends()
    per_tensor: bool = False  # one weight scale per tensor instead of per output channel

    def precision_of(self, layer: Layer) -> str:
        chosen = dict(self.layers).get(layer.scope, self.default)
        return chosen if chosen != "w4a8" or takes_int4(layer, self) else "int8"

    def with_layer(self, layer: Layer, precision: str) -> "Plan":
        others = tuple((s, p) for s, p in self.layers if s != layer.scope)
        return Plan(self.default, others + (((layer.scope, precision),) if precision != self.default else ()),
                    self.io, self.per_tensor)


# the float model as a plan: nothing quantized (what --search writes when it chooses the float model)
FLOAT_PLAN = Plan("float32", io="float32")


def model_ends(precision: str, io: str | None) -> str:
    """The type of the model's inputs and outputs for `--precision` and `--io` (None: not given): a
    float16, fp16 or dynamic-range model's activations are float32 in the file, so are its ends; 16x8's are int16
    unless float32."""
    if precision in ("float16", "fp16", "dynamic") and io not in (None, "float32"):
        raise McugenError(f"--io {io} with --precision {precision}: such a model computes in float32, its inputs and "
                          "outputs are float32", "drop --io, or choose an integer --precision")
    if precision == "16x8" and io not in (None, "float32"):
        raise McugenError(f"--io {io} with --precision 16x8: its inputs and outputs are int16 (or float32)",
                          "drop --io for int16 ends, or give --io float32")
    return io or {"float16": "float32", "fp16": "float32", "dynamic": "float32", "16x8": "int16"}.get(precision, "int8")


def takes_int4(layer: Layer, plan: Plan) -> bool:
    """INT4 filters both TFLM and the quantizer take: conv, and FULLY_CONNECTED with one scale per tensor."""
    return layer.opcode in INT4_OPS and (layer.opcode != "FULLY_CONNECTED" or plan.per_tensor)


def _quantizer():
    try:
        from ai_edge_quantizer import qtyping, quantizer
    except ImportError:
        raise McugenError("quantizing needs the LiteRT quantizer, which is not installed", INSTALL) from None
    return quantizer, qtyping


@contextlib.contextmanager
def _quiet():
    """The quantizer and LiteRT report progress on stdout and fd 2; mcugen reports its own."""
    from mcugen.validation.oracle import quiet_stderr

    with quiet_stderr(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def _configure(q, qtyping, model: FloatModel, plan: Plan) -> None:
    ops = qtyping.TFLOperationName
    granularity = qtyping.QuantGranularity.TENSORWISE if plan.per_tensor else qtyping.QuantGranularity.CHANNELWISE

    def apply(regex: str, op, precision: str) -> None:
        if precision == "float32":
            q.update_quantization_recipe(regex, op, None, algorithm_key="no_quantize")
        elif precision in ("float16", "fp16"):
            half = qtyping.TensorQuantizationConfig(num_bits=16, dtype=qtyping.TensorDataType.FLOAT)
            q.update_quantization_recipe(regex, op, qtyping.OpQuantizationConfig(
                weight_tensor_config=half, compute_precision=qtyping.ComputePrecision.FLOAT, explicit_dequantize=True),
                algorithm_key="float_casting")
        elif precision == "dynamic":
            int8 = qtyping.TensorQuantizationConfig(num_bits=8, symmetric=True, granularity=granularity)
            q.update_quantization_recipe(regex, op, qtyping.OpQuantizationConfig(
                weight_tensor_config=int8, compute_precision=qtyping.ComputePrecision.INTEGER,
                explicit_dequantize=False), algorithm_key="min_max_uniform_quantize")
        else:
            activations, weights = {"int8": (8, 8), "16x8": (16, 8), "w4a8": (8, 4)}[precision]
            q.add_static_config(regex, op, activations, weights, granularity)

    apply(".*", ops.ALL_SUPPORTED, "int8" if plan.default == "w4a8" else plan.default)
    if plan.default == "w4a8":
        for opcode in sorted({layer.opcode for layer in model.layers if takes_int4(layer, plan)}):
            apply(".*", ops(opcode), "w4a8")
    for layer in model.layers:
        if layer.scope in dict(plan.layers):
            apply(f"^{re.escape(layer.scope)}$", ops.ALL_SUPPORTED, plan.precision_of(layer))
    if plan.io == "float32":
        q.update_quantization_recipe(".*", ops.INPUT, None, algorithm_key="no_quantize")
        q.update_quantization_recipe(".*", ops.OUTPUT, None, algorithm_key="no_quantize")


# how the quantizer's calibration folds each sample's range into a tensor's: its own moving average of the
# samples' extremes (the default), or the extremes over every sample (nothing of the calibration data clipped)
CALIBRATIONS = ("moving-average", "min-max")


def calibrate(model: FloatModel, samples, method: str = "moving-average") -> dict:
    """The float model's tensor ranges over the samples (what every plan's quantization reads)."""
    quantizer, qtyping = _quantizer()
    q = quantizer.Quantizer(model.content)
    q.add_static_config(".*", qtyping.TFLOperationName.ALL_SUPPORTED, 8, 8)
    data = {model.signature: [dict(zip(model.input_names, xs)) for xs in samples]}
    try:
        with _quiet():
            if method == "moving-average":
                return q.calibrate(data, num_threads=os.cpu_count() or 1)
            from ai_edge_quantizer import calibrator
            from ai_edge_quantizer.utils import qsv_utils

            # the quantizer's own calibration, told to keep the extremes (it offers no other way to)
            calib = calibrator.Calibrator(model.content, num_threads=os.cpu_count() or 1,
                                          qsv_update_func=qsv_utils.min_max_update)
            calib.calibrate(data, q._recipe_manager)
            return calib.get_model_qsvs()
    except (ValueError, RuntimeError) as exc:
        raise McugenError(f"the quantizer cannot calibrate this model ({_first_line(exc)})",
                          "check the model runs in LiteRT with these samples") from None


def quantize(model: FloatModel, calibration: dict, plan: Plan) -> bytes:
    """The quantized file for `plan`, not yet checked (`check`)."""
    quantizer, qtyping = _quantizer()
    q = quantizer.Quantizer(model.content)
    try:
        _configure(q, qtyping, model, plan)
        with _quiet():
            result = q.quantize(calibration, enable_progress_bar=False, enable_progress_report=False)
    except (ValueError, RuntimeError, KeyError) as exc:
        raise McugenError(f"the quantizer refuses {describe(plan)} for this model ({_first_line(exc)})",
                          "choose another --precision") from None
    content = bytes(result.quantized_model)
    # the quantizer keeps a large model's constants after the FlatBuffer, where TFLM never looks
    content = retype_ends(content, "uint8") if plan.io == "uint8" else model_object.save(model_object.load(content))
    half = fp16_layers(model, plan)
    return model_object.with_fp16_layers(content, half) if half else content


def fp16_layers(model: FloatModel, plan: Plan) -> list[str]:
    """The output names of the layers `plan` makes fp16 that mcugen computes in fp16 (where the core can)."""
    return [layer.output for layer in model.layers
            if layer.opcode in HALF_OPS and layer.weights and plan.precision_of(layer) == "fp16"]


def describe(plan: Plan) -> str:
    differing = f" ({len(plan.layers)} layer(s) otherwise)" if plan.layers else ""
    return f"{plan.default}{differing}, {plan.io} inputs and outputs"


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


@dataclass(frozen=True)
class Checked:
    """A quantized model mcugen runs and its oracle agrees with, layer for layer."""

    content: bytes
    graph: Graph
    oracle: str  # which judged (TFLM; LiteRT BUILTIN_REF where TFLM refuses the model, with its words)


def check(content: bytes, name: str, samples, fp16: bool = False) -> Checked:
    """Lowered by mcugen, run by its oracle (TFLM, or LiteRT's reference kernels for what TFLM refuses:
    float16 weights), the golden model equal to the oracle at every layer on `samples` (float samples:
    each converted to the quantized model's input type). `fp16`: the graph it gives computes the fp16 layers
    in fp16, as a core with half-precision arithmetic does (no oracle computes them: the check is of the file
    as the rest compute it, fp16 layers in float32 from float16 weights)."""
    from mcugen.validation.compare import compare_with_oracle
    from mcugen.validation.golden import model_inputs
    from mcugen.codegen.pipeline import lower

    with tempfile.TemporaryDirectory(prefix="mcugen-quantize-") as work:
        path = Path(work) / f"{name}.tflite"
        path.write_bytes(content)
        try:
            graph = lower(path)
        except McugenError as exc:
            raise McugenError(f"the quantized model is one mcugen does not run: {exc.problem}",
                              "choose another precision for that layer") from None
        inputs = [model_inputs(graph, xs) for xs in samples]
        try:
            oracle, mismatch = compare_with_oracle(graph, path, inputs)
        except McugenError as exc:
            raise McugenError(f"no oracle runs the quantized model: {exc.problem}",
                              "choose another precision for that layer") from None
        if fp16 and graph.fp16_layers:
            graph = lower(path, fp16=True)
    if mismatch is not None:
        raise McugenError(f"internal error: the golden model differs from {oracle} on the quantized model "
                          f"({mismatch})", "report this model")
    return Checked(content, graph, oracle)


def retype_ends(content: bytes, dtype: str) -> bytes:
    """The int8 model with `dtype` inputs and outputs: a QUANTIZE from each new input to the int8 one,
    and from each int8 output to a new one; the user-facing tensors keep their names (the int8 ones
    take a suffix), the zero point moves by 128 so real values stay the same."""
    schema = model_object.schema()
    model = model_object.load(content)
    sub = model.subgraphs[0]
    code = next((k for k, c in enumerate(model.operatorCodes)
                 if max(c.builtinCode, c.deprecatedBuiltinCode) == schema.BuiltinOperator.QUANTIZE), None)
    if code is None:
        opcode = schema.OperatorCodeT()
        opcode.builtinCode = opcode.deprecatedBuiltinCode = schema.BuiltinOperator.QUANTIZE
        opcode.version = 1
        model.operatorCodes.append(opcode)
        code = len(model.operatorCodes) - 1

    def twin(idx: int) -> int:
        old = sub.tensors[idx]
        new = schema.TensorT()
        new.name, new.shape, new.type = old.name, old.shape, schema.TensorType.UINT8
        new.buffer = 0
        new.quantization = schema.QuantizationParametersT()
        new.quantization.scale = list(old.quantization.scale)
        new.quantization.zeroPoint = [int(z) + 128 for z in old.quantization.zeroPoint]
        old.name = old.name + b"_int8"
        sub.tensors.append(new)
        return len(sub.tensors) - 1

    def op(src: int, dst: int):
        o = schema.OperatorT()
        o.opcodeIndex, o.inputs, o.outputs = code, [src], [dst]
        o.builtinOptionsType = schema.BuiltinOptions.QuantizeOptions
        o.builtinOptions = schema.QuantizeOptionsT()
        return o

    moved: dict[int, int] = {}
    for idx in [*sub.inputs, *sub.outputs]:
        if idx not in moved and sub.tensors[idx].type == schema.TensorType.INT8:
            moved[idx] = twin(idx)
    first = [op(moved[i], i) for i in sub.inputs if i in moved]
    last = [op(i, moved[i]) for i in sub.outputs if i in moved]
    sub.operators = first + list(sub.operators) + last
    sub.inputs = [moved.get(i, i) for i in sub.inputs]
    sub.outputs = [moved.get(i, i) for i in sub.outputs]
    for sig in model.signatureDefs or []:
        for entry in [*(sig.inputs or []), *(sig.outputs or [])]:
            entry.tensorIndex = moved.get(entry.tensorIndex, entry.tensorIndex)
    return model_object.save(model)


def checked_candidate(model: FloatModel, calibration: dict, plan: Plan | None, check_samples,
                      fp16: bool = False) -> tuple[bytes, Graph]:
    """(the candidate's file, its graph): quantized with `plan` and checked against its oracle (None: the float
    model as it is); `fp16`: the graph computes fp16 layers in fp16 (check)."""
    if plan is None:
        return model.content, model.graph
    checked = check(quantize(model, calibration, plan), "candidate", check_samples, fp16)
    return checked.content, checked.graph
