"""Your own ops: `--ops FILE.py` makes a custom op of the model run on your C kernel, checked against your
numpy function as mcugen checks its own kernels against TFLM's.

FILE.py declares one class per custom op code the model uses (examples/custom_op/ has a whole one):

    from mcugen.ops.custom import CustomOp, custom_op

    @custom_op("SquareClip")                  # the model's custom_code
    class SquareClip(CustomOp):
        source, header = "square_clip.c", "square_clip.h"   # beside FILE.py
        kernel, params_type = "square_clip_s8", "square_clip_params"

        def params(self, options, inputs, outputs):   # build time, as TFLM's Prepare: the C struct's fields
            return dict(shift=options.get("shift", 0), size=int(np.prod(inputs[0].shape)))

        def run(self, params, xs):                    # the golden model: one array per output
            return [np.clip((xs[0].astype(np.int32) ** 2) >> params["shift"], -128, 127).astype(np.int8)]

The header includes "mcu_nn.h" (so that a model's kernels take its name, like mcugen's) and declares the
params struct and `void square_clip_s8(const square_clip_params *params, const void *const inputs[],
void *const outputs[]);`; the C file defines that one function. `options` is the op's custom_options
decoded from their FlexBuffer (raw bytes under "bytes" if they are not one), `inputs` and `outputs`
the tensors (TensorSpec: name, dtype, shape, scale, zero_point and, for constants, data). `check`
may return reasons an instance can't run. What `run` returns is checked against the model's declared
outputs (count, dtype, shape): a mismatch is one error line naming the op.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Op, Tensor
from mcugen.ir.lowering import Call, Slice, Struct
from mcugen.ir.options import CustomOptions

TYPES = ("int8", "uint8", "int16", "int32", "float32")  # the tensor types a custom op may take and make
_DECLARED: list[tuple[str, type]] = []


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dtype: str
    shape: tuple[int, ...]
    scale: float | None
    zero_point: int | None
    data: np.ndarray | None  # a constant's values


class CustomOp:
    source = ""
    header = ""
    kernel = ""
    params_type = ""

    def check(self, inputs: list[TensorSpec], outputs: list[TensorSpec]) -> list[str]:
        return []

    def params(self, options: dict[str, Any], inputs: list[TensorSpec], outputs: list[TensorSpec]) -> dict[str, Any]:
        raise NotImplementedError

    def run(self, params: dict[str, Any], xs: list[np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError


def custom_op(code: str) -> Callable[[type], type]:
    """Declare the class that runs the model's custom op `code` (in a file --ops loads)."""
    def declare(cls: type) -> type:
        _DECLARED.append((code, cls))
        return cls
    return declare


@dataclass(frozen=True)
class UserParams:
    fields: tuple[tuple[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.fields)


def _spec(t: Tensor) -> TensorSpec:
    q = t.quant
    return TensorSpec(t.name, t.dtype, tuple(t.shape), float(q.s) if q is not None else None,
                      q.zp if q is not None else None, t.data)


def _specs(g: Graph, op: Op) -> tuple[list[TensorSpec], list[TensorSpec]]:
    return ([_spec(op.input(g, k)) for k in range(len(op.inputs))],
            [_spec(op.output(g, k)) for k in range(len(op.outputs))])


class UserOp(ops.OpDef):
    """A declared custom op as mcugen's pipeline sees every op."""

    input_types = output_types = TYPES
    converts = copies_values = True  # the user's kernel decides what types and scales it reads
    declared_by_user = True
    arity = ((0, 64), (1, 64))

    def __init__(self, code: str, impl: CustomOp, ops_file: Path):
        self.code, self.impl, self.ops_file = code, impl, ops_file
        self.source, self.header = ops_file.parent / impl.source, ops_file.parent / impl.header

    def _call(self, name: str, *args: Any) -> Any:
        """The user's method `name`: whatever it raises, or exits with, is theirs, said in one line."""
        try:
            return getattr(self.impl, name)(*args)
        except (Exception, SystemExit) as exc:
            raise McugenError(f"custom op {self.code}: {type(self.impl).__name__}.{name}() in {self.ops_file.name} "
                              f"raised {type(exc).__name__}: {str(exc)[:200]}",
                              f"fix {name}() in {self.ops_file}") from None

    def check(self, g: Graph, op: Op) -> list[str]:
        if any(t < 0 for t in op.inputs):
            return [f"custom op {self.code} has an omitted input: custom kernels take every input they list"]
        problems = self._call("check", *_specs(g, op))
        if not isinstance(problems, (list, tuple)) or not all(isinstance(p, str) for p in problems):
            raise McugenError(f"custom op {self.code}: check() returned {type(problems).__name__}, not a list of "
                              "problems", "return a list of strings (empty when the op is fine)")
        return list(problems)

    def prepare(self, g: Graph, op: Op) -> object:
        fields = self._call("params", dict(op.options_as(CustomOptions).values), *_specs(g, op))
        if not isinstance(fields, dict) or not all(isinstance(k, str) for k in fields):
            raise McugenError(f"custom op {self.code}: params() returned {type(fields).__name__}, not a dict of "
                              f"{self.impl.params_type}'s fields", "return dict(field=value, ...)")
        return UserParams(tuple(sorted(fields.items())))

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> ops.Outputs:
        ys = self._call("run", op.prepared(UserParams).as_dict(), xs)
        declared = [op.output(g, k) for k in range(len(op.outputs))]
        if not isinstance(ys, (list, tuple)) or len(ys) != len(declared):
            raise McugenError(f"custom op {self.code} (op {op.origin}): run() returned "
                              f"{len(ys) if isinstance(ys, (list, tuple)) else type(ys).__name__} output(s), "
                              f"the model declares {len(declared)}", "return a list with one array per output")
        for k, (y, t) in enumerate(zip(ys, declared)):
            if not isinstance(y, np.ndarray) or y.dtype != np.dtype(t.dtype) or tuple(y.shape) != tuple(t.shape):
                got = f"{y.dtype}{list(y.shape)}" if isinstance(y, np.ndarray) else type(y).__name__
                raise McugenError(f"custom op {self.code} (op {op.origin}): run() returned {got} for output {k}, "
                                  f"the model declares {t.dtype}{list(t.shape)}", "return arrays of the declared "
                                  "dtype and shape")
        return list(ys) if len(ys) > 1 else ys[0]

    def lower(self, g: Graph, op: Op) -> Call | None:
        params = Struct(self.impl.params_type, "params", op.prepared(UserParams).as_dict())
        return Call(self.impl.kernel, (params, Slice(tuple(op.inputs), as_array=True),
                                       Slice(tuple(op.outputs), writable=True, as_array=True)),
                    note=f"your custom op {self.code} ({self.source.name})")


def load_ops(path: str | Path) -> list[str]:
    """Import FILE.py and register each custom op it declares; the op codes, in order."""
    path = Path(path)
    if not path.is_file():
        raise McugenError(f"--ops {path}: no such file", "pass the Python file that declares your custom ops")
    start = len(_DECLARED)
    spec = importlib.util.spec_from_file_location(f"mcugen_user_ops_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[spec.name] = module  # type: ignore[union-attr]
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    except (Exception, SystemExit) as exc:  # the user's code: its own error (or exit), in one line
        raise McugenError(f"--ops {path}: {type(exc).__name__}: {exc}", "fix the file so that it imports") from None
    codes = []
    for code, cls in _DECLARED[start:]:
        impl = cls()
        missing = [f for f in ("source", "header", "kernel", "params_type") if not getattr(impl, f, "")]
        if missing:
            raise McugenError(f"--ops {path}: custom op {code} declares no {missing[0]}",
                              "set source, header, kernel and params_type on the class")
        for name in (impl.source, impl.header):
            file = path.parent / name
            # beside the ops file, by name: a path elsewhere would copy any file into the build
            if Path(name).name != name or not file.is_file():
                raise McugenError(f"--ops {path}: custom op {code}'s {name} is not beside it",
                                  f"put {Path(name).name} in {path.parent} and name it without a folder")
        opdef = UserOp(code, impl, path)
        opdef.opcodes = (f"CUSTOM:{code}",)
        ops.register_external(f"CUSTOM:{code}", opdef)
        codes.append(code)
    if not codes:
        raise McugenError(f"--ops {path} declares no custom op", "decorate a class with @custom_op(\"CODE\")")
    return codes


def forget_ops() -> None:
    """Unregister every custom op load_ops registered (a command's, once it is done)."""
    for code, _ in _DECLARED:
        ops.register_external(f"CUSTOM:{code}", None)
    _DECLARED.clear()


def sources_of(g: Graph) -> tuple[dict[str, str], tuple[str, ...]]:
    """The C file and header of every custom op the graph runs (by file name), and their kernels."""
    files, kernels = {}, []
    for op in g.ops:
        opdef = ops.definition(g, op)
        if isinstance(opdef, UserOp) and op.call is not None:
            files[opdef.source.name] = opdef.source.read_text()
            files[opdef.header.name] = opdef.header.read_text()
            kernels.append(opdef.impl.kernel)
    return files, tuple(sorted(set(kernels)))
