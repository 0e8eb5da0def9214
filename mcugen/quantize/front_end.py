"""The user's float model as the float .tflite that quantizing takes: a .tflite as it is; a Keras model
(.keras, .h5) or a TensorFlow SavedModel folder through TensorFlow's TFLiteConverter (`pip install
'mcugen[keras]'`); an ONNX model through onnx2tf (a program on PATH: see _from_onnx); a PyTorch model
names the converter that makes the .tflite (litert-torch, which converts a module in Python)."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from mcugen.errors import McugenError

KERAS = "pip install 'mcugen[keras]' (TensorFlow)"


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
    if suffix in (".pt", ".pt2", ".pth"):
        raise McugenError(f"{path} is a PyTorch model", "convert the module to a float .tflite first with "
                                                        "litert-torch (pip install litert-torch: "
                                                        "litert_torch.convert(module, sample_inputs).export(...))")
    return path


def _convert(path: Path, work: Path, converter) -> Path:
    try:
        import tensorflow as tf
    except ImportError:
        raise McugenError(f"converting {path} needs TensorFlow, which is not installed", KERAS) from None
    from mcugen.oracle import quiet_stderr

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
