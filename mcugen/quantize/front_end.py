"""The user's float model as the float .tflite that quantizing takes: a .tflite as it is; a Keras model
(.keras, .h5) or a TensorFlow SavedModel folder through TensorFlow's TFLiteConverter (`pip install
'mcugen[keras]'`); an ONNX model through onnx2tf (a program on PATH: see _from_onnx); a PyTorch program
saved with torch.export (.pt2, its example inputs inside) through litert-torch (`pip install
'mcugen[pytorch]'`)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from mcugen.errors import McugenError

KERAS = "pip install 'mcugen[keras]' (TensorFlow)"
PYTORCH = "pip install 'mcugen[pytorch]' (litert-torch and PyTorch)"
EXPORT = ("save the module with torch.export.save(torch.export.export(module.eval(), sample_inputs), "
          "'model.pt2'): a .pt2 carries the program and the input shapes it was traced with")


def float_tflite(path: Path, work: Path) -> Path:
    """`path` if it is a .tflite, else the float .tflite converted from it into `work`."""
    if path.is_dir():
        if not (path / "saved_model.pb").is_file():
            raise McugenError(f"{path} is a folder without saved_model.pb", "pass a .tflite, a Keras model file or a "
                                                                            "TensorFlow SavedModel folder")
        return _convert(path, work, lambda tf: tf.lite.TFLiteConverter.from_saved_model(str(path)))
    suffix = path.suffix.lower()
    if suffix in (".keras", ".h5"):
        return _convert(path, work, lambda tf: tf.lite.TFLiteConverter.from_keras_model(
            tf.keras.models.load_model(path, compile=False)))
    if suffix == ".onnx":
        return _from_onnx(path, work)
    if suffix == ".pt2":
        return _from_pytorch(path, work)
    if suffix in (".pt", ".pth"):
        raise McugenError(f"{path} is a PyTorch checkpoint or TorchScript file: it holds no program litert-torch can "
                          "convert (a checkpoint needs your module's class, TorchScript is not traceable)", EXPORT)
    return path


def _convert(path: Path, work: Path, converter) -> Path:
    try:
        import tensorflow as tf
    except ImportError:
        raise McugenError(f"converting {path} needs TensorFlow, which is not installed", KERAS) from None
    from mcugen.validation.oracle import quiet_stderr

    try:
        with quiet_stderr(), contextlib.redirect_stdout(io.StringIO()):
            content = converter(tf).convert()
    except Exception as exc:  # noqa: BLE001 - TensorFlow raises many kinds; each is the model's
        text = str(exc).strip().splitlines()
        raise McugenError(f"TensorFlow cannot convert {path} ({text[0][:200] if text else type(exc).__name__})",
                          "check the model loads in TensorFlow") from None
    converted = work / f"{path.stem}.tflite"
    converted.write_bytes(content)
    return converted


def _from_onnx(path: Path, work: Path) -> Path:
    """onnx2tf, run as a program: it pins its own TensorFlow, NumPy and LiteRT (older than mcugen's
    oracles), so it lives in an environment of its own (`pipx install onnx2tf` or a venv on PATH)."""
    import shutil
    import subprocess

    program = shutil.which("onnx2tf")
    if program is None:
        raise McugenError(f"converting the ONNX model {path} needs onnx2tf, which is not on PATH",
                          "install it in an environment of its own (its pins clash with mcugen's): pipx install "
                          "onnx2tf, or a venv whose bin/ is on PATH")
    out = work / "onnx2tf"
    proc = subprocess.run([program, "-i", str(path), "-o", str(out), "-n"], capture_output=True, text=True)
    converted = out / f"{path.stem}_float32.tflite"
    if proc.returncode != 0 or not converted.is_file():
        said = next((line for line in reversed((proc.stdout + proc.stderr).splitlines()) if "rror" in line), "")
        raise McugenError(f"onnx2tf cannot convert {path} ({said.strip()[:200] or f'exit {proc.returncode}'})",
                          "check the model with onnx2tf -i MODEL.onnx -o OUT")
    return converted


def _from_pytorch(path: Path, work: Path) -> Path:
    """torch.export's program (its module and the example inputs it was traced with) through
    litert-torch, which lowers it to a float .tflite (NCHW inputs stay NCHW: it transposes inside). Run in
    a process of its own: the converter brings JAX's threads, under which mcugen's forked TFLM child
    could deadlock."""
    import importlib.util
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    if importlib.util.find_spec("litert_torch") is None or importlib.util.find_spec("torch") is None:
        raise McugenError(f"converting the PyTorch program {path} needs litert-torch and PyTorch, which are not "
                          "installed", PYTORCH)
    converted = work / f"{path.stem}.tflite"
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        refusal = pool.submit(_convert_pytorch, str(path), str(converted)).result()
    if refusal is not None:
        raise McugenError(*refusal)
    return converted


def _convert_pytorch(path: str, converted: str) -> tuple[str, str] | None:
    """In the converting process: None, or the (problem, fix) of a refusal. PyTorch and the converter log
    as they go (warnings, tracebacks they recover from): kept quiet."""
    from mcugen.validation.oracle import quiet_stderr

    with quiet_stderr(), contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        import litert_torch
        import torch

        try:
            program = torch.export.load(path)
        except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a file it can't read
            said = str(exc).strip().splitlines()
            return f"{path} is not a program torch.export saved ({said[0][:160] if said else ''})", EXPORT
        examples = program.example_inputs
        if not examples or not examples[0] or examples[1]:
            return f"{path} keeps no positional example inputs (litert-torch needs their shapes)", EXPORT
        try:
            litert_torch.convert(program.module(), tuple(examples[0])).export(converted)
        except Exception as exc:  # noqa: BLE001 - the converter raises many kinds; each is the model's
            text = str(exc).strip().splitlines()
            return (f"litert-torch cannot convert {path} ({text[0][:200] if text else type(exc).__name__})",
                    "check the module converts with litert_torch.convert(module, sample_inputs)")
    return None
