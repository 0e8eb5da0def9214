"""The reference runtimes mcugen is checked against.

TFLM (tflite_micro.runtime.Interpreter) is the target, bit for bit. LiteRT is
used only with OpResolverType.BUILTIN_REF: its default XNNPACK path rounds
differently, and even its reference FULLY_CONNECTED requantizes in float
(single rounding), so it can differ from TFLM by 1 LSB per FC layer.
"""
from __future__ import annotations

import contextlib
import faulthandler
import importlib.util
import multiprocessing
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


class TflmInProcess:
    """TFLM's Python interpreter in this process: for timing it, and inside TflmWorker."""

    def __init__(self, content: bytes, preserve_all_tensors: bool = False):
        from tflite_micro import runtime
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

    def tensors(self, indices) -> list[np.ndarray]:
        return [np.array(self._it.GetTensor(i, 0)["tensor_data"]) for i in indices]


def _serve(conn, parent_end, content: bytes, preserve_all_tensors: bool) -> None:
    """The child's loop: one reply per request, ("ok", value) or ("error", message)."""
    faulthandler.disable()  # a crash is reported by the parent, in one line
    parent_end.close()  # the fork's copy: while open, the parent closing its end is no EOF here
    try:
        tflm = TflmInProcess(content, preserve_all_tensors)
        conn.send(("ok", None))
    except Exception as exc:  # noqa: BLE001 - TFLM reports a refused model as RuntimeError, or worse
        conn.send(("error", f"TFLM refuses this model ({exc})"))
        return
    while True:
        try:
            method, args = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", getattr(tflm, method)(*args)))
        except Exception as exc:  # noqa: BLE001
            conn.send(("error", f"TFLM failed to run this model ({exc})"))


def _require_tflm() -> None:
    if importlib.util.find_spec("tflite_micro") is None:
        raise McugenError("the TFLM interpreter is not installed",
                          "pip install tflite-micro (or: pip install 'mcugen[oracles]')")


class Tflm:
    """TFLM in a child process, so that a model TFLM crashes on (it does, on some invalid files)
    ends the child with a signal instead of mcugen. Refusals and crashes are McugenErrors."""

    def __init__(self, model: Path | bytes, preserve_all_tensors: bool = False):
        _require_tflm()
        content = model if isinstance(model, bytes) else Path(model).read_bytes()
        context = multiprocessing.get_context("fork")  # cheap, and the child needs nothing re-imported
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child, self._conn, content, preserve_all_tensors),
                                        daemon=True)
        self._process.start()
        child.close()
        self._reply()

    def _reply(self):
        try:
            status, value = self._conn.recv()
        except (EOFError, ConnectionResetError):
            self._process.join(timeout=5)
            code = self._process.exitcode
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            raise McugenError(f"TFLM crashed on this model ({how})",
                              "TFLM cannot run this file; check the model with `mcugen inspect`") from None
        if status == "error":
            raise McugenError(value, "TFLM cannot run this file; check the model with `mcugen inspect`")
        return value

    def _call(self, method: str, *args):
        try:
            self._conn.send((method, args))
        except (BrokenPipeError, OSError):
            pass  # the child is gone: _reply says how
        return self._reply()

    def run(self, inputs, n_outputs: int) -> list[np.ndarray]:
        return self._call("run", [np.asarray(x) for x in inputs], n_outputs)

    def tensors(self, indices) -> list[np.ndarray]:
        return self._call("tensors", list(indices))

    def close(self) -> None:
        self._conn.close()
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.kill()

    def __del__(self):
        with contextlib.suppress(Exception):
            self.close()


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
