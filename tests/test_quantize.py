"""`mcugen quantize`: a float model and the user's samples to an integer model that TFLM runs and mcugen
runs bit-exact (checked by the command before it writes, checked again here with the oracles, the
generated C and the emulated cores), each layer's error printed; bad input one line, nothing written."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import MODELS, ROOT
from mcugen.validation.compare import compare_with_tflm, random_inputs
from mcugen.codegen.pipeline import compile_model
from test_cli import assert_one_error_line, refused, run_cli
from test_float import float_cnn

pytest.importorskip("ai_edge_quantizer")


def samples(tmp_path, shape, count=24, seed=0, name="calib.npz"):
    """Calibration samples for a one-input model: non-negative, like images or spectra."""
    path = tmp_path / name
    np.savez(path, input_0=np.random.default_rng(seed).uniform(0, 1, (count, *shape)).astype(np.float32))
    return path


def quantize(capsys, tmp_path, model, data, *options, name="q"):
    out = tmp_path / f"{name}.tflite"
    code, stdout, err = run_cli(capsys, "quantize", model, "--data", data, "--out", out, *options)
    assert code == 0, err
    return out, stdout


def assert_bit_exact_with_tflm(path):
    g = compile_model(path)
    assert compare_with_tflm(g, path, random_inputs(g, 3, seed=5)) is None


@pytest.mark.parametrize("precision, weights", [("int8", "int8"), ("16x8", "int8"), ("w4a8", "int4")])
def test_a_float_model_written_by_the_test_each_precision(tmp_path, capsys, precision, weights):
    model = tmp_path / "cnn.tflite"
    model.write_bytes(float_cnn().build())
    out, stdout = quantize(capsys, tmp_path, model, samples(tmp_path, (1, 10, 10, 3)), "--precision", precision,
                           "--json", tmp_path / "q.json")
    g = compile_model(out)
    activations = "int16" if precision == "16x8" else "int8"
    assert g.tensors[g.ops[0].outputs[0]].dtype == activations
    assert g.tensors[g.ops[0].inputs[1]].dtype == weights  # the conv's filter
    assert_bit_exact_with_tflm(out)
    # the table names every layer, the report holds the same
    report = json.loads((tmp_path / "q.json").read_text())
    assert [layer["op"] for layer in report["layers"]] == [op.opcode for op in g.ops]
    assert report["plan"]["precision"] == precision and report["bytes"]["quantized"] == out.stat().st_size
    assert "CONV_2D" in stdout and "SNR" in stdout and "checked: TFLM runs it" in stdout
    ends = g.tensors[g.inputs[0]].dtype
    assert ends == report["plan"]["io"] == activations  # 16x8's ends are int16, and said so
    code, stdout, err = run_cli(capsys, "test", out, "--board", "host", "--samples", "2", "--out", tmp_path / "host")
    assert code == 0 and "bit-exact on 2 sample(s)" in stdout, err


@pytest.mark.parametrize("precision, stored", [("float16", "float16"), ("dynamic", "int8")])
def test_float16_and_dynamic_range_run_bit_exact_with_litert_ref(tmp_path, capsys, precision, stored):
    """--precision float16 (the quantizer's float casting: weights float16 behind DEQUANTIZE) and dynamic
    (int8 weights read by hybrid layers): float32 activations and ends, checked against LiteRT's reference
    kernels, as TFLM runs neither; then bit-exact on the M4F and the M55."""
    model = tmp_path / "cnn.tflite"
    model.write_bytes(float_cnn().build())
    out, stdout = quantize(capsys, tmp_path, model, samples(tmp_path, (1, 10, 10, 3)), "--precision", precision,
                           "--json", tmp_path / "q.json")
    assert "checked: LiteRT BUILTIN_REF (TFLM refuses this model" in stdout
    report = json.loads((tmp_path / "q.json").read_text())
    assert report["plan"]["io"] == "float32" and report["oracle"].startswith("LiteRT BUILTIN_REF")
    assert report["bytes"]["quantized"] < report["bytes"]["float"]
    assert {layer["precision"] for layer in report["layers"] if layer["op"] in ("CONV_2D", "DEPTHWISE_CONV_2D",
                                                                             "FULLY_CONNECTED")} == {precision}
    g = compile_model(out)
    conv, filters = g.ops[0], g.tensors[g.ops[0].inputs[1]]
    assert stored in (filters.stored, filters.dtype) and g.tensors[conv.outputs[0]].dtype == "float32"
    for board in ("mps2-an386", "mps3-an547"):
        code, stdout, err = run_cli(capsys, "test", out, "--board", board, "--samples", "2", "--out", tmp_path / board)
        assert code == 0 and f"bit-exact on 2 sample(s) on {board}" in stdout, err


@pytest.mark.parametrize("io", ["float32", "uint8"])
def test_the_mlperf_float_autoencoder_with_other_ends_on_the_m4(tmp_path, capsys, io):
    """A public float model (mlcommons/tiny, tests/models/README.md) whose constants pass 256 KB, past
    which the quantizer keeps them after the FlatBuffer, where TFLM does not read: written inline."""
    out, stdout = quantize(capsys, tmp_path, MODELS / "mlperf_ad_autoencoder_float.tflite",
                           samples(tmp_path, (640,), count=12), "--io", io)
    g = compile_model(out)
    assert [g.tensors[i].dtype for i in (*g.inputs, *g.outputs)] == [io, io]
    assert_bit_exact_with_tflm(out)
    code, stdout, err = run_cli(capsys, "test", out, "--board", "mps2-an386", "--samples", "2",
                                "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 2 sample(s) on mps2-an386" in stdout, err


def test_int4_resnet8_from_the_quantizer_on_the_m4_and_m55(tmp_path, capsys):
    """The float MLPerf ResNet-8 with INT4 conv filters, as the LiteRT quantizer writes them: the golden model
    bit-exact with TFLM, the generated C with it on the host (reference kernels on the packed weights), the M4's
    DSP kernels and the M55's Helium ones, its constants about half of int8's."""
    data = samples(tmp_path, (32, 32, 3), count=12)
    sizes = {}
    for precision in ("int8", "w4a8"):
        out, _ = quantize(capsys, tmp_path, MODELS / "mlperf_ic_resnet8_float.tflite", data,
                          "--precision", precision, name=precision)
        g = compile_model(out)
        sizes[precision] = sum(t.nbytes for t in g.tensors if t.is_const)
    assert sizes["w4a8"] < 0.6 * sizes["int8"]
    assert {g.tensors[op.inputs[1]].dtype for op in g.ops if op.opcode == "CONV_2D"} == {"int4"}
    assert_bit_exact_with_tflm(tmp_path / "w4a8.tflite")
    for board in ("host", "mps2-an386", "mps3-an547"):
        code, stdout, err = run_cli(capsys, "test", tmp_path / "w4a8.tflite", "--board", board, "--samples", "1",
                                    "--out", tmp_path / board)
        assert code == 0 and f"bit-exact on 1 sample(s) on {board}" in stdout, err


def test_clipping_per_layer_min_max_calibration_and_every_eval_sample(tmp_path, capsys):
    """Each layer's clipped share is what TFLM's own float values (by tensor name) give against the quantized
    tensor's range; min-max calibration clips none of the calibration samples (the fixed-range softmax output
    aside) where the quantizer's moving average clips some; --eval with --labels scores both models on every
    evaluation sample as TFLM's runs of them score."""
    from mcugen.codegen.pipeline import read
    from mcugen.ops.quantize import affine_quantize
    from mcugen.validation.oracle import Tflm

    digits = ROOT / "examples" / "digits"
    float_model = digits / "digits_float.tflite"
    calibration = np.load(digits / "calibration.npz")["input_0"][:32]
    images, labels = np.load(digits / "evaluation.npz")["input_0"], np.load(digits / "labels.npy")
    names = {t.name: k for k, t in enumerate(read(float_model).tensors)}
    floats = Tflm(float_model, preserve_all_tensors=True)
    shares = {}
    for method in ("moving-average", "min-max"):
        out, _ = quantize(capsys, tmp_path, float_model, digits / "calibration.npz", "--calibration", method,
                          "--eval", digits / "evaluation.npz", "--labels", digits / "labels.npy", "--json",
                          tmp_path / f"{method}.json", name=method)
        report = json.loads((tmp_path / f"{method}.json").read_text())
        tensors = {t.name: t for t in read(out).tensors}
        for layer in report["layers"]:
            t = tensors[layer["tensor"]]
            low = float(t.q.s) * (-128 - t.q.zp) - float(t.q.s) / 2
            high = float(t.q.s) * (127 - t.q.zp) + float(t.q.s) / 2
            values = []
            for x in calibration:
                floats.run([x[None]], 1)
                values.append(floats.tensors([names[layer["tensor"]]])[0].reshape(-1).astype(np.float64))
            f = np.concatenate(values)
            assert layer["clipped_share"] == np.count_nonzero((f < low) | (f > high)) / f.size
        shares[method] = {layer["op"]: layer["clipped_share"] for layer in report["layers"] if layer["op"] != "SOFTMAX"}
        output = report["output"]
        assert output["samples"] == 597 and output["measured_on"] == "eval"
        q = read(out).tensors[read(out).inputs[0]].q
        ints = Tflm(out)
        top1 = np.mean([np.argmax(ints.run([affine_quantize(x[None], q.s, q.zp, "int8")], 1)[0]) for x in images]
                       == labels)
        assert output["top1"] == top1 and output["float_top1"] == np.mean(
            [np.argmax(floats.run([x[None]], 1)[0]) for x in images] == labels)
    assert max(shares["moving-average"].values()) > 0 and set(shares["min-max"].values()) == {0.0}


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path, capsys):
    model = tmp_path / "cnn.tflite"
    model.write_bytes(float_cnn().build())
    good = samples(tmp_path, (1, 10, 10, 3))
    out = tmp_path / "q.tflite"
    cases = [
        ((MODELS / "mlperf_ad_autoencoder.tflite", good), "is already quantized"),
        ((model, samples(tmp_path, (1, 10, 10, 4), name="wide.npz")), "needs float32[1, 10, 10, 3]"),
        ((model, samples(tmp_path, (1, 10, 10, 3), count=4, name="few.npz")), "calibration needs at least 10"),
        ((model, good, "--precision", "int3"), "invalid choice: 'int3'"),
        ((model, good, "--precision", "float16", "--io", "int8"), "--io int8 with --precision float16"),
        ((model, good, "--precision", "dynamic", "--io", "uint8"), "--io uint8 with --precision dynamic"),
        ((model, good, "--precision", "16x8", "--io", "uint8"), "--io uint8 with --precision 16x8"),
        ((model, good, "--out", model), "is the float model itself"),
    ]
    for (source, data, *options), phrase in cases:
        argv = ["quantize", source, "--data", data, *(options if "--out" in options else ["--out", out, *options])]
        code, err = refused(capsys, *argv)
        assert_one_error_line(code, err, phrase)
        assert not out.exists()
    out.write_bytes(b"the user's")
    code, _, err = run_cli(capsys, "quantize", model, "--data", good, "--out", out)
    assert_one_error_line(code, err, "already exists")
    assert out.read_bytes() == b"the user's"


def test_nan_in_the_model_or_the_data_is_one_line_before_any_work(tmp_path, capsys):
    """A float model with a NaN bias (a diverged training), calibration or evaluation data holding NaN or an
    infinity: refused at once, naming the tensor or the file."""
    cnn = float_cnn()
    bias = next(t for t in cnn.tensors if t["name"] == "b")
    bias["data"] = np.array(bias["data"], np.float32)
    bias["data"][3] = np.nan
    bad_model = tmp_path / "nan.tflite"
    bad_model.write_bytes(cnn.build())
    model = tmp_path / "cnn.tflite"
    model.write_bytes(float_cnn().build())
    good = samples(tmp_path, (1, 10, 10, 3))
    values = np.random.default_rng(0).uniform(0, 1, (24, 1, 10, 10, 3)).astype(np.float32)
    values[5, 0, 1, 1, 1] = np.inf
    nan_data = tmp_path / "inf.npz"
    np.savez(nan_data, input_0=values)
    out = tmp_path / "q.tflite"
    cases = [
        ((bad_model, good), ["constant 'b' holds 1 NaN or infinite value(s)", "finite weights"]),
        ((model, nan_data), ["inf.npz: input 0 holds 1 NaN or infinite value(s)", "clean the data"]),
        ((model, good, "--search", "--eval", nan_data, "--board", "mps2-an386"),
         ["inf.npz: input 0 holds 1 NaN or infinite value(s)"]),
    ]
    for (source, data, *options), phrases in cases:
        code, err = refused(capsys, "quantize", source, "--data", data, "--out", out, *options)
        assert_one_error_line(code, err, *phrases)
        assert not out.exists()


def test_constants_kept_after_the_flatbuffer_are_refused_as_tflm_never_reads_them(tmp_path, capsys):
    """TFLM reads a buffer's own data only: a tensor whose bytes sit at an offset past the FlatBuffer
    would run as an activation nobody wrote."""
    from mcugen.frontend import model_object

    model = model_object.load((MODELS / "tflm_hello_world.tflite").read_bytes())
    index = next(k for k, b in enumerate(model.buffers) if b.data is not None and len(b.data) > 16)
    data = bytes(model.buffers[index].data)
    model.buffers[index].data, model.buffers[index].offset, model.buffers[index].size = None, 1, 1
    head = model_object.save(model)
    model.buffers[index].offset, model.buffers[index].size = len(head) + (-len(head) % 16), len(data)
    head = model_object.save(model)  # the same length: only two numbers changed
    path = tmp_path / "external.tflite"
    path.write_bytes(head + bytes(-len(head) % 16) + data)
    code, _, err = run_cli(capsys, "inspect", path)
    assert_one_error_line(code, err, f"buffer {index} keeps its data after the FlatBuffer", "inline")


def _missing(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is None


def test_a_keras_model_and_a_saved_model_are_converted_first(tmp_path, capsys):
    tf = pytest.importorskip("tensorflow")
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((6,), batch_size=1), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.save(tmp_path / "net.keras")
    model.export(tmp_path / "saved")
    data = samples(tmp_path, (6,), count=12)
    for source, name in ((tmp_path / "net.keras", "from_keras"), (tmp_path / "saved", "from_saved_model")):
        out, _ = quantize(capsys, tmp_path, source, data, name=name)
        g = compile_model(out)
        assert [op.opcode for op in g.ops] == ["FULLY_CONNECTED", "FULLY_CONNECTED"]
        assert_bit_exact_with_tflm(out)


def test_an_onnx_model_through_onnx2tf(tmp_path, capsys):
    """onnx2tf pins TensorFlow, NumPy and LiteRT older than mcugen's oracles: it runs as a program from an
    environment of its own, found on PATH (the model turns NHWC: [1, 8, 8, 1])."""
    import shutil

    if shutil.which("onnx2tf") is None:  # scripts/test.sh installs it in an environment of its own
        pytest.skip("onnx2tf is not on PATH (pipx install onnx2tf)")
    out, _ = quantize(capsys, tmp_path, MODELS / "tiny_cnn.onnx", samples(tmp_path, (1, 8, 8, 1), count=12))
    assert [op.opcode for op in compile_model(out).ops][0] == "CONV_2D"
    assert_bit_exact_with_tflm(out)


def test_a_pytorch_program_through_litert_torch(tmp_path, capsys):
    """A module saved with torch.export (.pt2: the program and its example inputs), NCHW as PyTorch has it:
    litert-torch transposes inside, the quantized model runs bit-exact."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("litert_torch")
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(),
                                 torch.nn.Linear(4 * 8 * 8, 3)).eval()
    torch.export.save(torch.export.export(module, (torch.randn(1, 1, 8, 8),)), tmp_path / "net.pt2")
    out, _ = quantize(capsys, tmp_path, tmp_path / "net.pt2", samples(tmp_path, (1, 1, 8, 8), count=12))
    assert {"DEPTHWISE_CONV_2D", "FULLY_CONNECTED"} <= {op.opcode for op in compile_model(out).ops}
    assert_bit_exact_with_tflm(out)


def test_models_from_other_frameworks_name_their_converter(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")  # no onnx2tf
    for name, phrase in (("net.onnx", "pipx install onnx2tf"), ("net.pt", "torch.export.save"),
                         ("net.pt2", "PyTorch program" if _missing("torch") else "not a program torch.export saved")):
        (tmp_path / name).write_bytes(b"not read")
        code, _, err = run_cli(capsys, "quantize", tmp_path / name, "--data", tmp_path / "x.npz", "--out",
                               tmp_path / "q.tflite")
        assert_one_error_line(code, err, phrase)
    (tmp_path / "folder").mkdir()
    code, _, err = run_cli(capsys, "quantize", tmp_path / "folder", "--data", tmp_path / "x.npz", "--out",
                           tmp_path / "q.tflite")
    assert_one_error_line(code, err, "without saved_model.pb")


def test_weights_stored_as_float16_are_unfolded_for_the_quantizer(tmp_path, capsys):
    """The converter's float16 option keeps weights as float16 behind DEQUANTIZE ops (which TFLM does not
    run): quantize reads them as the float32 constants they stand for, and the written file keeps no dead
    float16 copy of them (no larger than the int8 model quantized from the float32 export)."""
    tf = pytest.importorskip("tensorflow")
    tf.keras.utils.set_random_seed(2)
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 1), batch_size=1), tf.keras.layers.Conv2D(4, 3, activation="relu"),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations, converter.target_spec.supported_types = [tf.lite.Optimize.DEFAULT], [tf.float16]
    source = tmp_path / "fp16.tflite"
    source.write_bytes(converter.convert())
    data = samples(tmp_path, (1, 8, 8, 1), count=12)
    out, _ = quantize(capsys, tmp_path, source, data)
    assert [op.opcode for op in compile_model(out).ops] == ["CONV_2D", "RESHAPE", "FULLY_CONNECTED"]
    assert_bit_exact_with_tflm(out)
    plain = tmp_path / "fp32.tflite"
    plain.write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())
    from_float32, _ = quantize(capsys, tmp_path, plain, data, name="q32")
    from mcugen.frontend import model_object

    def buffer_bytes(path):
        return sum(len(b.data) for b in model_object.load(path.read_bytes()).buffers if b.data is not None)
    assert buffer_bytes(out) == buffer_bytes(from_float32)
    assert "float16" not in {t.dtype for t in compile_model(out).tensors}
