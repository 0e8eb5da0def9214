"""The reference runtimes mcugen is checked against.

TFLM (tflite_micro.runtime.Interpreter) is the target, bit for bit. LiteRT is
used only with OpResolverType.BUILTIN_REF: its default XNNPACK path rounds
differently, and even its reference FULLY_CONNECTED requantizes in float
(single rounding), so it can differ from TFLM by 1 LSB per FC layer.

`oracle_for` picks the oracle for a model: TFLM, or, where TFLM cannot run it (no
kernel for an op, as int8 TILE), LiteRT BUILTIN_REF, saying why in TFLM's own words.
"""
from __future__ import annotations

import contextlib
import faulthandler
import importlib.util
import multiprocessing
import os
import tempfile
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError


@contextlib.contextmanager
def quiet_stderr(said: list | None = None):
    """TFLM prints allocation chatter, and its reasons for refusing a model, on fd 2: keep the
    user's terminal clean, and the lines in `said`."""
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            if said is not None:
                sink.seek(0)
                said += [line.strip() for line in sink.read().decode(errors="replace").splitlines() if line.strip()]


ARENA_TOO_SMALL = ("Failed to resize buffer", "Failed to allocate memory", "arena size is too small",
                   "Failed to allocate tail memory")
MAX_ARENA = 1 << 31


class TflmInProcess:
    """TFLM's Python interpreter in this process: for timing it, and inside Tflm's child. An arena
    too small for the model (the first try: 8 MiB or 16x the file) is retried four times larger."""

    def __init__(self, content: bytes, preserve_all_tensors: bool = False):
        from tflite_micro import runtime
        config = (runtime.InterpreterConfig.kPreserveAllTensors if preserve_all_tensors
                  else runtime.InterpreterConfig.kAllocationRecording)
        arena = max(8 << 20, 16 * len(content))
        while True:
            said: list[str] = []
            try:
                with quiet_stderr(said):
                    self._it = runtime.Interpreter.from_bytes(content, arena_size=arena, intrepreter_config=config)
                return
            except RuntimeError as exc:
                reasons = [line for line in said if "RecordingMicroAllocator" not in line] or [str(exc)]
                if any(m in line for line in reasons for m in ARENA_TOO_SMALL) and arena * 4 <= MAX_ARENA:
                    arena *= 4
                    continue
                raise RuntimeError("; ".join(dict.fromkeys(reasons))) from None

    def run(self, inputs, n_outputs: int) -> list[np.ndarray]:
        for k, x in enumerate(inputs):
            self._it.set_input(x, k)
        with quiet_stderr():
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
        conn.send(("error", f"TFLM refuses this model: {exc}"))
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


def entry_first(content: bytes, signature: str | None) -> bytes:
    """The model with `signature`'s subgraph moved to the front: TFLM runs subgraph 0 and has no way to
    pick a signature. Subgraph indices (CALL_ONCE, IF, WHILE, the signature table) follow the move."""
    if not signature:
        return content
    from mcugen.frontend import model_object

    model = model_object.load(content)
    main = next((s.subgraphIndex for s in model.signatureDefs or []
                 if (s.signatureKey or b"").decode("utf-8", "replace") == signature), 0)
    if main == 0:
        return content
    order = [main] + [k for k in range(len(model.subgraphs)) if k != main]
    moved = {old: new for new, old in enumerate(order)}
    model.subgraphs = [model.subgraphs[k] for k in order]
    for sub in model.subgraphs:
        for op in sub.operators or []:
            options = op.builtinOptions
            for field in ("initSubgraphIndex", "thenSubgraphIndex", "elseSubgraphIndex", "condSubgraphIndex",
                          "bodySubgraphIndex", "subgraph"):
                if isinstance(getattr(options, field, None), int) and getattr(options, field) in moved:
                    setattr(options, field, moved[getattr(options, field)])
    for s in model.signatureDefs or []:
        s.subgraphIndex = moved[s.subgraphIndex]
    return model_object.save(model)


class Tflm:
    """TFLM in a child process, so that a model TFLM crashes on (it does, on some invalid files)
    ends the child with a signal instead of mcugen. Refusals and crashes are McugenErrors.
    `signature`: the entry point to run, of a file with several (TFLM itself runs subgraph 0)."""

    name = "TFLM"

    def __init__(self, model: Path | bytes, preserve_all_tensors: bool = False, signature: str | None = None):
        _require_tflm()
        content = entry_first(model if isinstance(model, bytes) else Path(model).read_bytes(), signature)
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
    """LiteRT's reference kernels (BUILTIN_REF). Refusals are McugenErrors in LiteRT's words."""

    name = "LiteRT BUILTIN_REF"

    def __init__(self, model: Path | bytes, preserve_all_tensors: bool = False, signature: str | None = None):
        try:
            from ai_edge_litert.interpreter import Interpreter, OpResolverType
        except ImportError:
            raise McugenError("LiteRT is not installed", "pip install ai-edge-litert") from None
        content = entry_first(model if isinstance(model, bytes) else Path(model).read_bytes(), signature)
        try:
            with quiet_stderr():
                self._it = Interpreter(model_content=content, num_threads=1,
                                       experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                                       experimental_preserve_all_tensors=preserve_all_tensors)
                self._it.allocate_tensors()
        except (RuntimeError, ValueError) as exc:
            raise McugenError(f"LiteRT refuses this model: {str(exc).strip().splitlines()[0]}",
                              "check the model with `mcugen inspect`") from None

    def run(self, inputs, n_outputs: int | None = None) -> list[np.ndarray]:
        for d, x in zip(self._it.get_input_details(), inputs):
            self._it.set_tensor(d["index"], x)
        try:
            self._it.invoke()
        except RuntimeError as exc:
            raise McugenError(f"LiteRT failed to run this model: {str(exc).strip().splitlines()[0]}",
                              "check the model with `mcugen inspect`") from None
        return [self._it.get_tensor(d["index"]).copy() for d in self._it.get_output_details()]

    def tensors(self, indices) -> list[np.ndarray]:
        return [self._it.get_tensor(i).copy() for i in indices]

    def close(self) -> None:
        self._it = None


def _tflm_misreads(model: Path, signature: str | None) -> str | None:
    """Why TFLM's result for a model it does not refuse means nothing, or None: its LSTM reads a
    dynamic-range LSTM's int8 weights as float32 (past their buffers: NaNs)."""
    from mcugen.frontend.read_tflite import read_tflite

    g = read_tflite(model, signature or None)  # "": the file's first subgraph, as Graph.signature says it
    for op in g.ops:
        if op.opcode == "UNIDIRECTIONAL_SEQUENCE_LSTM" and len(op.inputs) > 1 and op.inputs[1] >= 0 \
                and g.tensors[op.inputs[1]].dtype == "int8" and g.tensors[op.inputs[0]].dtype == "float32":
            return (f"TFLM runs UNIDIRECTIONAL_SEQUENCE_LSTM at index {op.origin} reading its int8 weights as "
                    "float32: TFLM does not run dynamic-range models")
    return None


def oracle_for(model: Path, preserve_all_tensors: bool = False, signature: str | None = None):
    """(the oracle, what it is and why): TFLM, or LiteRT BUILTIN_REF where TFLM refuses the model
    (its reason said), or (None, why neither can run it). Without TFLM installed: McugenError."""
    _require_tflm()
    tflm_said = _tflm_misreads(model, signature)
    try:
        if tflm_said is None:
            return Tflm(model, preserve_all_tensors, signature), "TFLM"
    except McugenError as exc:
        tflm_said = exc.problem
    try:
        return LiteRtRef(model, preserve_all_tensors, signature), f"LiteRT BUILTIN_REF ({tflm_said})"
    except McugenError as exc:
        return None, f"{tflm_said}; {exc.problem}"
