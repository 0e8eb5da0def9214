"""The command line on good and bad input: one clear line, the right exit code, nothing lost."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT
from mcugen.commands.cli import main
from tflite_writer import ModelSpec

KWS = "mlperf_kws_dscnn.tflite"


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> tuple[int, str]:
    """(exit code, stderr) of a command expected to fail, the argument parser's own refusals included
    (it exits with its one line)."""
    try:
        code, _, err = run_cli(capsys, *argv)
    except SystemExit as exc:
        code, err = exc.code, capsys.readouterr().err
    return code, err


def assert_one_error_line(code, err, *phrases):
    """One error line, last, after at most some progress lines; no traceback."""
    assert code != 0
    lines = err.strip().splitlines()
    errors = [line for line in lines if line.startswith("mcugen: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0] and "Traceback" not in err, err
    for phrase in phrases:
        assert phrase in errors[0], errors[0]


def checked_report(path, kind: str) -> dict:
    """A JSON report read back and validated against its schema in mcugen/schemas/."""
    import jsonschema

    report = json.loads(path.read_text())
    schema = json.loads((ROOT / "mcugen" / "schemas" / f"{kind}-report.schema.json").read_text())
    jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
    return report


def one_op_model(tmp_path, dtype="int8", signature=None, opcode="RELU", custom=None, subgraphs=0,
                 options=None, shape=(1, 4), **fields):
    m = ModelSpec()
    q = dict(scale=0.1, zp=0) if dtype in ("int8", "int16") else {}
    x = m.tensor("x", shape, dtype, signature=signature, **q)
    y = m.tensor("y", shape, dtype, signature=signature, **q)
    m.op(opcode, [x], [y], options, custom=custom, **fields)
    m.inputs, m.outputs, m.extra_subgraphs = [x], [y], subgraphs
    path = tmp_path / "model.tflite"
    path.write_bytes(m.build())
    return path


# -- inspect ------------------------------------------------------------------
def test_inspect_reports_io_ops_totals_and_verdict(capsys, models):
    code, out, _ = run_cli(capsys, "inspect", models / KWS)
    assert code == 0
    assert "int8[1, 49, 10, 1]" in out and "zero point 83" in out
    assert "CONV_2D" in out and "verdict  supported" in out


# MACs as measured with TFLM (benchmarks/bench_boards.py ANCHORS) (the issue rounds them: 2.66 M, 7.49 M, 12.50 M, 0.26 M);
# weight bytes as measured in tests/models/README.md.
@pytest.mark.parametrize("name,macs,weight_bytes", [
    ("mlperf_kws_dscnn", 2_656_768, 24376), ("mlperf_vww_mobilenet", 7_489_664, 219072),
    ("mlperf_ic_resnet8", 12_501_632, 78752), ("mlperf_ad_autoencoder", 264_192, 270880)])
def test_inspect_totals_match_measured_facts(capsys, models, name, macs, weight_bytes):
    code, out, _ = run_cli(capsys, "inspect", models / f"{name}.tflite", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["supported"]
    assert abs(summary["totals"]["macs"] - macs) / macs < 0.01
    assert summary["totals"]["weight_bytes"] == weight_bytes


def test_inspect_lists_every_problem_of_an_unsupported_model(capsys, tmp_path):
    path = one_op_model(tmp_path, dtype="int16", opcode="ELU")
    code, out, _ = run_cli(capsys, "inspect", path)
    assert code == 1
    assert "verdict  not supported" in out and "ELU" in out


# -- bad model files ----------------------------------------------------------
def test_missing_file(capsys, tmp_path):
    code, _, err = run_cli(capsys, "inspect", tmp_path / "nope.tflite")
    assert_one_error_line(code, err, "no such file")


def test_not_a_tflite_file(capsys, tmp_path):
    path = tmp_path / "notes.tflite"
    path.write_text("this is not a model\n" * 10)
    code, _, err = run_cli(capsys, "run", path, "--input", "x.npy", "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, "not a TFLite model")


def test_empty_file(capsys, tmp_path):
    path = tmp_path / "empty.tflite"
    path.write_bytes(b"")
    code, _, err = run_cli(capsys, "inspect", path)
    assert_one_error_line(code, err, "not a TFLite model")


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_truncated_file(capsys, tmp_path, models, fraction):
    raw = (models / KWS).read_bytes()
    path = tmp_path / "cut.tflite"
    path.write_bytes(raw[:int(len(raw) * fraction)])
    code, _, err = run_cli(capsys, "compare", path)
    assert_one_error_line(code, err, "corrupt or truncated", "re-export")


def test_corrupt_file(capsys, tmp_path, models):
    raw = bytearray((models / KWS).read_bytes())
    raw[8:64] = np.random.default_rng(0).integers(0, 256, 56, dtype=np.uint8).tobytes()
    path = tmp_path / "corrupt.tflite"
    path.write_bytes(bytes(raw))
    code, _, err = run_cli(capsys, "inspect", path)
    assert_one_error_line(code, err, "corrupt")


# -- models mcugen refuses ----------------------------------------------------
def _second_subgraph(path):
    """The model with a second subgraph of ops that nothing calls (an empty one changes nothing)."""
    import copy

    from model_edit import load, pack
    model = load(path)
    model.subgraphs.append(copy.deepcopy(model.subgraphs[0]))
    path.write_bytes(pack(model))
    return path


@pytest.mark.parametrize("kind,phrases", [
    ("int16", ["int16", "not supported"]),
    ("dynamic", ["dynamic shapes", "fixed shapes"]),
    ("custom", ["unsupported op CUSTOM:MyOp", "custom"]),
    ("flex", ["unsupported op CUSTOM:FlexErf"]),
    ("subgraphs", ["2 subgraphs"]),
    ("unsupported", ["unsupported op L2_NORMALIZATION at index 0"]),
])
def test_refused_models(capsys, tmp_path, kind, phrases):
    path = {
        "int16": lambda: one_op_model(tmp_path, dtype="int16"),
        "dynamic": lambda: one_op_model(tmp_path, shape=[1, -1]),
        "custom": lambda: one_op_model(tmp_path, opcode="CUSTOM", custom="MyOp"),
        "flex": lambda: one_op_model(tmp_path, opcode="CUSTOM", custom="FlexErf"),
        "subgraphs": lambda: _second_subgraph(one_op_model(tmp_path)),
        "unsupported": lambda: one_op_model(tmp_path, opcode="L2_NORMALIZATION"),
    }[kind]()
    out_file = tmp_path / "o.npz"
    np.save(tmp_path / "x.npy", np.zeros((1, 4), np.int8))
    code, _, err = run_cli(capsys, "run", path, "--input", tmp_path / "x.npy", "--output", out_file)
    assert_one_error_line(code, err, *phrases)
    assert not out_file.exists()


# -- run ------------------------------------------------------------------------
def test_run_writes_outputs_and_layers(capsys, tmp_path, models):
    x = np.random.default_rng(3).integers(-128, 128, (1, 49, 10, 1), dtype=np.int8)
    np.save(tmp_path / "x.npy", x)
    code, out, _ = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "x.npy",
                           "--output", tmp_path / "out.npz", "--dump-layers", tmp_path / "layers")
    assert code == 0
    result = np.load(tmp_path / "out.npz")
    assert list(result.keys()) == ["output_0"] and result["output_0"].dtype == np.int8
    from mcugen.validation.oracle import Tflm
    np.testing.assert_array_equal(result["output_0"], Tflm(models / KWS).run([x], 1)[0])
    dumped = sorted(p.name for p in (tmp_path / "layers").iterdir())
    assert len(dumped) == 13 and dumped[0].startswith("t0022_")


def test_run_wrong_input_shape_names_expected(capsys, tmp_path, models):
    np.save(tmp_path / "x.npy", np.zeros((1, 49, 10), np.float32))
    code, _, err = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "x.npy",
                           "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, "'input_0' is float32[1, 49, 10]", "needs int8[1, 49, 10, 1]")


def test_run_compare_and_test_take_the_same_input_forms(capsys, tmp_path, models):
    """An .npz keyed input_0 or by input name, or an .npy for a one-input model, with or without a
    sample axis; anything else is refused before any work, naming what was given."""
    xs = np.random.default_rng(4).integers(-128, 128, (3, 1, 49, 10, 1), dtype=np.int8)
    np.save(tmp_path / "three.npy", xs)
    np.savez(tmp_path / "named.npz", **{"input_2": xs[0]})
    np.savez(tmp_path / "stray.npz", input_0=xs[0], extra=xs[0])
    code, out, _ = run_cli(capsys, "run", models / KWS, "--data", tmp_path / "three.npy",
                           "--output", tmp_path / "o.npz")
    assert code == 0 and "of 3 sample(s)" in out
    got = np.load(tmp_path / "o.npz")["output_0"]
    from mcugen.validation.oracle import Tflm
    tflm = Tflm(models / KWS)
    assert got.shape == (3, 1, 12)
    for k in range(3):
        np.testing.assert_array_equal(got[k], tflm.run([xs[k]], 1)[0])
    code, out, _ = run_cli(capsys, "compare", models / KWS, "--data", tmp_path / "three.npy")
    assert code == 0 and "bit-exact on 3 sample(s)" in out
    code, _, err = run_cli(capsys, "compare", models / KWS, "--data", tmp_path / "named.npz")
    assert_one_error_line(code, err, "array 'input_2' names no input")
    code, _, err = run_cli(capsys, "test", models / KWS, "--board", "host", "--data", tmp_path / "stray.npz",
                           "--out", tmp_path / "never")
    assert_one_error_line(code, err, "array 'extra' names no input")
    np.save(tmp_path / "wide.npy", np.zeros((3, 49, 10, 1), np.int32))
    code, _, err = run_cli(capsys, "test", models / KWS, "--board", "host", "--data", tmp_path / "wide.npy",
                           "--out", tmp_path / "never")
    assert_one_error_line(code, err, "is int32[3, 49, 10, 1]", "needs int8[1, 49, 10, 1]", "save the input as int8")
    assert not (tmp_path / "never").exists()  # refused before anything was built


def test_run_missing_and_garbage_input_files(capsys, tmp_path, models):
    code, _, err = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "none.npy",
                           "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, "no such file")
    (tmp_path / "junk.npy").write_text("junk")
    code, _, err = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "junk.npy",
                           "--output", tmp_path / "o.npz")
    assert_one_error_line(code, err, "cannot read as .npz or .npy")


def test_run_never_overwrites(capsys, tmp_path, models):
    np.save(tmp_path / "x.npy", np.zeros((1, 49, 10, 1), np.int8))
    existing = tmp_path / "out.npz"
    existing.write_bytes(b"precious")
    code, _, err = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "x.npy",
                           "--output", existing)
    assert_one_error_line(code, err, "already exists", "--force")
    assert existing.read_bytes() == b"precious"


def test_float_data_for_a_quantized_input_is_quantized_and_said_so(capsys, tmp_path, models):
    """A float user's evaluation data given to the int8 model: each sample quantized with the input's scale
    and zero point as TFLM's QUANTIZE would (the note says so); a wrong shape gets shape advice."""
    from mcugen.codegen.pipeline import compile_model
    from mcugen.ops.quantize import affine_quantize
    from mcugen.validation.oracle import Tflm

    g = compile_model(models / KWS)
    q = g.tensors[g.inputs[0]].q
    x = (np.random.default_rng(4).standard_normal((2, 1, 49, 10, 1)) * 20).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    code, out, err = run_cli(capsys, "test", models / KWS, "--board", "host", "--data", tmp_path / "x.npy",
                             "--out", tmp_path / "fw")
    assert code == 0 and "bit-exact on 2 sample(s)" in out, err
    assert f"input 0: float data quantized to int8 with the input's scale {q.s:.9g} and zero point {q.zp}" in err
    np.save(tmp_path / "x0.npy", x[0])
    code, _, _ = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "x0.npy", "--output", tmp_path / "y.npz")
    expected = Tflm(models / KWS).run([affine_quantize(x[0], q.s, q.zp, "int8")], 1)[0]
    assert code == 0 and np.array_equal(np.load(tmp_path / "y.npz")["output_0"], expected)
    np.save(tmp_path / "wide.npy", np.zeros((1, 49, 11, 1), np.int8))
    code, err = refused(capsys, "run", models / KWS, "--input", tmp_path / "wide.npy", "--output", tmp_path / "z.npz")
    assert_one_error_line(code, err, "give each sample the shape [1, 49, 10, 1]")


@pytest.mark.parametrize("umask, before, expected", [(0o022, None, 0o644), (0o077, None, 0o600),
                                                      (0o077, 0o664, 0o664)])
def test_written_files_follow_the_umask(capsys, tmp_path, models, umask, before, expected):
    """Never mkstemp's 0600 behind the user's back, never narrower than the file it replaces."""
    import os
    np.save(tmp_path / "x.npy", np.zeros((1, 49, 10, 1), np.int8))
    out = tmp_path / "out.npz"
    if before is not None:
        out.write_bytes(b"old")
        out.chmod(before)
    old = os.umask(umask)
    try:
        code, _, _ = run_cli(capsys, "run", models / KWS, "--input", tmp_path / "x.npy", "--output", out,
                             *(["--force"] if before is not None else []))
    finally:
        os.umask(old)
    assert code == 0 and out.stat().st_mode & 0o777 == expected


# -- compare ------------------------------------------------------------------
def test_compare_reports_bit_exact(capsys, models):
    code, out, _ = run_cli(capsys, "compare", models / KWS, "--samples", "2", "--seed", "5")
    assert code == 0 and "bit-exact on 2 sample(s)" in out


def test_compare_with_data_file(capsys, tmp_path, models):
    from samples import person_bmp
    x = np.concatenate([person_bmp(models / "samples" / f"person_detect_{k}.bmp")
                        for k in ("person", "no_person")])
    np.savez(tmp_path / "in.npz", input_0=x)
    code, out, _ = run_cli(capsys, "compare", models / "tflm_person_detect.tflite",
                           "--data", tmp_path / "in.npz")
    assert code == 0 and "bit-exact on 2 sample(s)" in out


def test_compare_bad_data_file(capsys, tmp_path, models):
    np.savez(tmp_path / "in.npz", input_0=np.zeros((2, 3), np.int8))
    code, _, err = run_cli(capsys, "compare", models / KWS, "--data", tmp_path / "in.npz")
    assert_one_error_line(code, err, "needs int8[1, 49, 10, 1]")


def test_compare_without_tflm_says_how_to_install(tmp_path, models):
    script = ("import sys; sys.modules['tflite_micro'] = None; from mcugen.commands.cli import main; "
              f"sys.exit(main(['compare', {str(models / KWS)!r}]))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "pip install tflite-micro" in proc.stderr and "Traceback" not in proc.stderr


def test_module_entry_point_runs(models):
    proc = subprocess.run([sys.executable, "-m", "mcugen", "inspect", str(models / KWS)],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "verdict  supported" in proc.stdout


# -- partition report and --outputs -----------------------------------------------------------------
def tail_model(tmp_path):
    """A CONV_2D mcugen runs, then an ELU it has no kernel for (TFLM has one)."""
    m = ModelSpec()
    x = m.tensor("x", [1, 6, 6, 3], "int8", scale=0.05, zp=-3)
    w = m.const("w", np.arange(108).reshape(4, 3, 3, 3) % 7 - 3, "int8", scale=[0.01] * 4, zp=[0] * 4, axis=0)
    y = m.tensor("features,0", [1, 6, 6, 4], "int8", scale=0.05, zp=1)
    z = m.tensor("z", [1, 6, 6, 4], "int8", scale=0.05, zp=1)
    m.op("CONV_2D", [x, w, -1], [y], "Conv2DOptions", Padding="SAME", StrideW=1, StrideH=1)
    m.op("ELU", [y], [z])
    m.inputs, m.outputs = [x], [z]
    path = tmp_path / "tail.tflite"
    path.write_bytes(m.build())
    return path


def test_inspect_prints_the_partition_and_where_to_cut(capsys, tmp_path):
    path = tail_model(tmp_path)
    code, out, _ = run_cli(capsys, "inspect", path)
    assert code == 1 and "unsupported op ELU at index 1" in out
    assert "the first 1 op(s) run (3,888 MACs); the first blocker is op 1 ELU" in out
    advice = out.split("to build the part that runs: ")[1].splitlines()[0]
    argv = shlex.split(advice)  # pasted into a shell, it is this command
    assert argv == ["mcugen", "build", str(path), "--outputs", "features,0", "--board", "BOARD"]
    code, _, err = run_cli(capsys, *argv[1:-1], "host", "--out", tmp_path / "part")
    assert code == 0, err
    code, out, _ = run_cli(capsys, "inspect", path, "--json")
    part = json.loads(out)["partition"]
    assert part["cut_at"] == ["features,0"] and part["first_blocker"]["op"] == "ELU"


def test_outputs_builds_and_validates_the_part_that_runs(capsys, tmp_path):
    path = tail_model(tmp_path)
    code, out, _ = run_cli(capsys, "compare", path, "--outputs", "features,0")
    assert code == 0 and "bit-exact on 3 sample(s)" in out  # against TFLM's tensor of that name
    code, out, err = run_cli(capsys, "test", path, "--outputs", "features,0", "--board", "host",
                             "--out", tmp_path / "build")
    assert code == 0 and "bit-exact on 3 sample(s) on host" in out, err
    header = (tmp_path / "build" / "include" / "model.h").read_text()
    assert "cut:     outputs are the tensors features,0; the layers after them are left out" in header
    code, _, err = run_cli(capsys, "build", path, "--outputs", "nope", "--board", "host",
                           "--out", tmp_path / "other")
    assert_one_error_line(code, err, "tail has no tensor named 'nope'")


def test_run_takes_and_returns_the_models_float_ends(capsys, tmp_path):
    from mcugen.validation.oracle import Tflm
    model = ROOT / "tests" / "models" / "real" / "mlex_ds_cnn_m_quantized.tflite"
    x = np.random.default_rng(5).normal(0, 3, (1, 490)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    code, _, _ = run_cli(capsys, "run", model, "--input", tmp_path / "x.npy", "--output", tmp_path / "o.npz")
    assert code == 0
    y = np.load(tmp_path / "o.npz")["output_0"]
    expected = Tflm(model).run([x], 1)[0]
    assert y.dtype == np.float32 and y.tobytes() == expected.tobytes()  # same float32 bit patterns
    np.save(tmp_path / "x8.npy", np.zeros((1, 490), np.int8))
    code, _, err = run_cli(capsys, "run", model, "--input", tmp_path / "x8.npy", "--output", tmp_path / "p.npz")
    assert_one_error_line(code, err, "is int8[1, 490]", "needs float32[1, 490]")


def test_dequantize_to_int8_is_refused_as_tflm_refuses_it(capsys, tmp_path):
    from mcugen.validation.oracle import Tflm
    from mcugen.errors import McugenError
    path = one_op_model(tmp_path, opcode="DEQUANTIZE")
    with pytest.raises(McugenError, match="TFLM refuses this model"):
        Tflm(path).run([np.zeros((1, 4), np.int8)], 1)
    code, out, _ = run_cli(capsys, "inspect", path)
    assert "DEQUANTIZE" in out and "float32" in out and "verdict  supported" not in out


def test_every_argument_of_every_command_has_help():
    import argparse

    from mcugen.commands.cli import build_parser

    missing = []

    def walk(parser, command):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{command} {name}")
            elif not action.help and not isinstance(action, argparse._HelpAction):
                missing.append(f"{command}: {action.dest}")

    walk(build_parser(), "mcugen")
    assert missing == []
    assert "mcugen test model.tflite --board" in build_parser().format_help()


def test_boards_lists_every_board_file(capsys):
    import json

    from conftest import ROOT

    files = sorted(p.stem for p in (ROOT / "boards").glob("*.yaml"))
    code, out, _ = run_cli(capsys, "boards")
    assert code == 0 and sorted(line.split()[0] for line in out.splitlines()[1:]) == files
    code, out, _ = run_cli(capsys, "boards", "--json")
    rows = json.loads(out)
    assert sorted(r["id"] for r in rows) == files
    m55 = next(r for r in rows if r["id"] == "mps3-an547")
    assert m55["emulated"] and "mve" in m55["features"] and m55["flasher"] == "qemu"
    code, out, _ = run_cli(capsys, "boards", "nano33", "--json")
    nano = json.loads(out)
    assert not nano["emulated"] and nano["flasher"] == "bossac" and "UARTE0" in nano["serial"]
    code, _, err = run_cli(capsys, "boards", "no-such-board")
    assert_one_error_line(code, err, "unknown board 'no-such-board'")
    code, _, err = run_cli(capsys, "boards", "mps2-an38")
    assert_one_error_line(code, err, "unknown board 'mps2-an38' (did you mean mps2-an386?)")
