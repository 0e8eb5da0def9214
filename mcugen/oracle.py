"""The reference runtimes mcugen is checked against.

TFLM (tflite_micro.runtime.Interpreter) is the target, bit for bit. LiteRT is
used only with OpResolverType.BUILTIN_REF: its default XNNPACK path rounds
differently, and even its reference FULLY_CONNECTED requantizes in float
(single rounding), so it can differ from TFLM by 1 LSB per FC layer.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError


@contextlib.contextmanager
def _quiet_stderr():
    """TFLM prints allocation chatter on fd 2; keep the user's terminal clean."""
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


class Tflm:
    def __init__(self, model: Path | bytes, preserve_all_tensors: bool = False):
        try:
            from tflite_micro import runtime
        except ImportError:
            raise McugenError("the TFLM interpreter is not installed",
                              "pip install tflite-micro (or: pip install 'mcugen[oracles]')") from None
        content = model if isinstance(model, bytes) else Path(model).read_bytes()
        config = (runtime.InterpreterConfig.kPreserveAllTensors if preserve_all_tensors
                  else runtime.InterpreterConfig.kAllocationRecording)
        with _quiet_stderr():
            self._it = runtime.Interpreter.from_bytes(
                content, arena_size=max(8 << 20, 16 * len(content)), intrepreter_config=config)

    def run(self, inputs, n_outputs: int) -> list[np.ndarray]:
        for k, x in enumerate(inputs):
            self._it.set_input(x, k)
        with _quiet_stderr():
            self._it.invoke()
        return [self._it.get_output(k).copy() for k in range(n_outputs)]

    def tensor(self, index: int) -> np.ndarray:
        return np.array(self._it.GetTensor(index, 0)["tensor_data"])


class LiteRtRef:
    def __init__(self, model: Path | bytes):
        try:
            from ai_edge_litert.interpreter import Interpreter, OpResolverType
        except ImportError:
            raise McugenError("LiteRT is not installed", "pip install ai-edge-litert") from None
        content = model if isinstance(model, bytes) else Path(model).read_bytes()
        self._it = Interpreter(model_content=content, num_threads=1,
                               experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
        self._it.allocate_tensors()

    def run(self, inputs) -> list[np.ndarray]:
        for d, x in zip(self._it.get_input_details(), inputs):
            self._it.set_tensor(d["index"], x)
        self._it.invoke()
        return [self._it.get_tensor(d["index"]).copy() for d in self._it.get_output_details()]
