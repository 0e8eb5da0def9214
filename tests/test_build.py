"""`mcugen build` / `mcugen test` on the host: reports, safety of the output directory, bad input,
and the generated C of the examples checked in as golden files (UPDATE_GOLDEN=1 rewrites them)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT
from mcugen.codegen.emit_c import emit_c
from mcugen.codegen.pipeline import compile_model
from mcugen import __version__
from test_cli import assert_one_error_line, checked_report, one_op_model, run_cli

EXAMPLES = {
    "keyword_spotting": "kws_dscnn.tflite",
    "person_detection": "person_detect.tflite",
}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_generated_c_matches_the_checked_in_golden_files(example):
    model = ROOT / "examples" / example / EXAMPLES[example]
    files = emit_c(compile_model(model), model.name).files
    for name, text in files.items():
        golden = ROOT / "examples" / example / "generated" / name
        if os.environ.get("UPDATE_GOLDEN"):
            golden.write_text(text)
        assert golden.read_text() == text, (
            f"{golden} differs from what the generator makes now: review `git diff` after "
            "UPDATE_GOLDEN=1 python -m pytest tests/test_build.py")


def test_build_prints_the_memory_report_and_draws_the_arena(capsys, tmp_path, models):
    out = tmp_path / "kws"
    code, stdout, _ = run_cli(capsys, "build", models / "mlperf_kws_dscnn.tflite", "--board", "host",
                              "--out", out, "--report")
    assert code == 0
    assert "arena          16,000 B" in stdout and "constants" in stdout and "code" in stdout
    assert (out / "report" / "arena.png").stat().st_size > 10_000
    assert "steps 0..1" in (out / "report" / "arena_timeline.txt").read_text()
    header = (out / "src" / "model.c").read_text().splitlines()[:5]
    # the header names what the code depends on (model, options), never the folder or the command line
    assert any("sha256" in line for line in header) and any("options: --name model" in line for line in header)
    assert str(tmp_path) not in (out / "src" / "model.c").read_text()
    # a second build into its own directory is fine
    code, _, _ = run_cli(capsys, "build", models / "mlperf_kws_dscnn.tflite", "--board", "host", "--out", out)
    assert code == 0


def test_build_refuses_a_directory_with_foreign_files(capsys, tmp_path, models):
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", "host",
                           "--out", tmp_path)
    assert_one_error_line(code, err, "files mcugen did not write", "notes.txt")
    assert (tmp_path / "notes.txt").read_text() == "mine" and not (tmp_path / "src").exists()


def test_build_of_an_unsupported_model_gives_the_inspect_error(capsys, tmp_path):
    path = one_op_model(tmp_path, opcode="CUSTOM", custom="NoSuchOp")
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "unsupported model", "CUSTOM:NoSuchOp", "mcugen inspect")
    assert not (tmp_path / "out").exists()


def test_build_without_a_c_compiler_says_what_to_install(tmp_path, models):
    env = dict(os.environ, PATH=str(tmp_path))  # no cc, gcc or clang here
    env.pop("CC", None)
    proc = subprocess.run([sys.executable, "-m", "mcugen", "build", str(models / "tflm_hello_world.tflite"),
                           "--board", "host", "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "mcugen: error: no C compiler found (looked for cc, gcc, clang); "
        "install one, e.g. sudo apt-get install gcc"]


def test_unknown_board(capsys, tmp_path, models):
    code, _, err = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", "nope",
                           "--out", tmp_path / "o")
    assert_one_error_line(code, err, "unknown board 'nope'")


def test_test_command_writes_the_json_report(capsys, tmp_path, models):
    report = tmp_path / "r.json"
    code, stdout, _ = run_cli(capsys, "test", models / "tflm_micro_speech.tflite", "--board", "host",
                              "--samples", "2", "--seed", "7", "--profile", "--json", report)
    assert code == 0 and "bit-exact on 2 sample(s) on host" in stdout
    r = checked_report(report, "test")
    assert r["mcugen_version"] == __version__ and r["inputs"] == {"data": None, "seed": 7, "samples": 2, "shard": None}
    assert r["passed"] == 2 and r["failed"] == 0 and r["max_abs_diff"] == 0 and r["time_unit"] == "ns"
    assert r["inference"]["min"] <= r["inference"]["median"] <= r["inference"]["max"]
    assert [(layer["index"], layer["op"], layer["macs"]) for layer in r["layers"]] == [
        (0, "RESHAPE", 0), (1, "DEPTHWISE_CONV_2D", 320_000), (2, "FULLY_CONNECTED", 16_000), (3, "SOFTMAX", 0)]
    # a depthwise layer on one input channel runs on the CONV_2D kernel
    assert r["layers"][1]["kernel"] == "mcu_conv2d_s8" and r["layers"][1]["time"]["max"] > 0
    assert all(m["rmse"] == 0 and m["acc"] == 1 and m["cos"] == pytest.approx(1) for m in r["metrics"])
    assert "FULLY_CONNECTED" in stdout and "share" in stdout  # the per-layer table
    assert (tmp_path / "r.layers.png").stat().st_size > 5_000
    # the report is not overwritten without --force
    code, _, err = run_cli(capsys, "test", models / "tflm_micro_speech.tflite", "--board", "host",
                           "--json", report)
    assert_one_error_line(code, err, "already exists")


PERSON = ROOT / "examples" / "person_detection"


def test_labels_give_top1_accuracy_confusion_and_metrics(capsys, tmp_path):
    """Real images with their labels: the reported accuracy is what TFLM's own outputs score."""
    from mcugen.validation.oracle import Tflm

    report = tmp_path / "r.json"
    code, out, err = run_cli(capsys, "test", PERSON / "person_detect.tflite", "--board", "host",
                             "--data", PERSON / "images.npz", "--labels", PERSON / "labels.npy", "--json", report)
    assert code == 0, err
    images, labels = np.load(PERSON / "images.npz")["input_0"], np.load(PERSON / "labels.npy")
    tflm = Tflm(PERSON / "person_detect.tflite")
    predicted = [int(np.argmax(tflm.run([x], 1)[0])) for x in images]
    top1 = float(np.mean(np.array(predicted) == labels))
    r = checked_report(report, "test")
    acc = r["accuracy"]
    assert acc["top1_target"] == acc["top1_golden"] == top1 and acc["classes"] == 2
    confusion = np.zeros((2, 2), int)
    for label, p in zip(labels, predicted):
        confusion[label, p] += 1
    assert acc["confusion"] == confusion.tolist()
    assert f"top-1 accuracy on 2 labelled sample(s): target {top1:.2%}" in out and "confusion matrix" in out
    assert 0 < acc["vs_labels"]["rmse"] and -1 <= acc["vs_labels"]["cos"] <= 1


def test_reference_float_model_is_judged_as_tflm_runs_it(capsys, tmp_path):
    """--reference: the float digits CNN beside its int8 quantization; the float model's top-1 on the labels and
    the int8 model's agreement with it are what TFLM's own float outputs give; per-class figures from the matrix."""
    from mcugen.validation.oracle import Tflm

    digits, model, report = ROOT / "examples" / "digits", tmp_path / "int8.tflite", tmp_path / "r.json"
    assert run_cli(capsys, "quantize", digits / "digits_float.tflite", "--data", digits / "calibration.npz",
                   "--out", model)[0] == 0
    code, out, err = run_cli(capsys, "test", model, "--board", "host", "--data", digits / "evaluation.npz",
                             "--labels", digits / "labels.npy", "--reference", digits / "digits_float.tflite",
                             "--json", report)
    assert code == 0, err
    images, labels = np.load(digits / "evaluation.npz")["input_0"], np.load(digits / "labels.npy")
    tflm = Tflm(digits / "digits_float.tflite")
    floats = [int(np.argmax(tflm.run([x[None]], 1)[0])) for x in images]
    r = checked_report(report, "test")
    targets = [s["judged"]["top1"] for s in r["per_sample"]]
    reference = r["reference"]
    assert reference["model"] == "digits_float.tflite" and reference["top1"] == float(np.mean(np.array(floats) == labels))
    assert reference["metrics"][0]["acc"] == float(np.mean(np.array(floats) == np.array(targets)))
    assert 0 < reference["metrics"][0]["rmse"] < 0.1 and r["metrics"][0]["rmse"] == 0
    assert f"float model (digits_float.tflite) {reference['top1']:.2%}" in out and "vs float model" in out
    confusion = np.array(r["accuracy"]["confusion"])
    for c, m in enumerate(r["accuracy"]["per_class"]):
        precision, recall = confusion[c, c] / confusion[:, c].sum(), confusion[c, c] / confusion[c].sum()
        assert (m["precision"], m["recall"], m["support"]) == (precision, recall, confusion[c].sum())
        assert m["f1"] == pytest.approx(2 * precision * recall / (precision + recall))
    for args, phrase in (((tmp_path / "none.tflite",), "--reference"),
                         ((PERSON / "person_detect.tflite",), "input 0 is [1, 96, 96, 1]"),
                         ((digits / "digits_float.tflite", "--layers"), "--layers compares every layer")):
        code, _, err = run_cli(capsys, "test", model, "--board", "host", "--out", tmp_path / "b", "--reference", *args)
        assert_one_error_line(code, err, phrase)
        assert not (tmp_path / "b").exists()


def test_bad_labels_are_refused_before_building(capsys, tmp_path):
    model, data = PERSON / "person_detect.tflite", PERSON / "images.npz"
    cases = [((), "--labels needs --data"),
             (("--data", data), "has 3 labels for 2 samples", np.array([0, 1, 1])),
             (("--data", data), "outside the model's 2 classes", np.array([0, 2])),
             (("--data", data), "not class indices", np.array([0.5, 1.0])),
             (("--data", data), "has shape [2, 3]", np.zeros((2, 3)))]
    for args, phrase, *labels in cases:
        path = tmp_path / "labels.npy"
        np.save(path, labels[0] if labels else np.array([0, 1]))
        code, _, err = run_cli(capsys, "test", model, "--board", "host", "--out", tmp_path / "b", *args,
                               "--labels", path)
        assert_one_error_line(code, err, phrase)
        assert not (tmp_path / "b").exists()


def test_build_json_report(capsys, tmp_path):
    report = tmp_path / "build.json"
    code, _, err = run_cli(capsys, "build", ROOT / "examples" / "keyword_spotting" / "kws_dscnn.tflite",
                           "--board", "host", "--out", tmp_path / "b", "--json", report)
    assert code == 0, err
    r = checked_report(report, "build")
    g = compile_model(ROOT / "examples" / "keyword_spotting" / "kws_dscnn.tflite")
    assert r["arena_bytes"] == g.arena.plan.size and r["firmware"] is None and r["code_bytes"]["total"] > 0
    assert r["macs"] == 2_656_768 == sum(layer["macs"] for layer in r["layers"])
    assert [layer["op"] for layer in r["layers"]] == [op.opcode for op in g.ops]
    assert max(b["offset"] + b["bytes"] for b in r["arena"]["buffers"]) <= r["arena_bytes"]


@pytest.mark.parametrize("model", ["mlperf_vww_mobilenet.tflite", "mlperf_kws_dscnn.tflite"])
def test_arena_picture_is_readable(models, model):
    """Every label sits inside its own bar and no two overlap; every buffer is drawn at least a few
    pixels tall; the peak is marked with the arena's size."""
    import matplotlib.pyplot as plt

    from mcugen.validation.report import arena_figure

    g = compile_model(models / model)
    fig = arena_figure(g)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    labels = [t for t in ax.texts if t.get_text() and not t.get_text().startswith("peak")]
    boxes = [t.get_window_extent(renderer) for t in labels]
    assert len(boxes) >= len(g.arena.plan.buffers) // 2
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (labels[i].get_text(), a, b)
    bars = [c for c in ax.collections]
    assert len(bars) == len(g.arena.plan.buffers)
    for bar in bars:
        corners = ax.transData.transform(bar.get_paths()[0].vertices)
        assert corners[:, 1].max() - corners[:, 1].min() >= 2  # pixels
    peak = [t.get_text() for t in ax.texts if t.get_text().startswith("peak")]
    assert peak == [f"peak: {g.arena.plan.size:,} B" + peak[0].split(" B", 1)[1]]
    plt.close(fig)


def test_the_build_json_says_what_optimize_chose_and_what_each_layers_constants_are(capsys, tmp_path, models):
    """--optimize on the M4: speed widens micro_speech's conv to int16 weights (said in the report, the JSON's
    layer and the header's stamp); size keeps every filter int8 within balanced's room (1.1x the model's weights
    and 8 B an output channel); each layer's arrays add up to its constants."""
    from mcugen.passes.lower_ops import balanced_room

    model = models / "tflm_micro_speech.tflite"
    reports = {}
    for optimize in ("speed", "size"):
        report = tmp_path / f"{optimize}.json"
        code, out, err = run_cli(capsys, "build", model, "--board", "mps2-an386", "--out", tmp_path / optimize,
                                 "--optimize", optimize, "--json", report)
        assert code == 0, err
        reports[optimize] = r = checked_report(report, "build")
        assert r["optimize"] == optimize
        for layer in r["layers"]:
            assert sum(a["bytes"] for a in layer["arrays"]) == layer["constants_bytes"]
        widened = [layer for layer in r["layers"] if layer["widened"]]
        header = (tmp_path / optimize / "src" / "model.c").read_text().splitlines()[3]
        if optimize == "speed":
            assert widened and any(a["name"] == "filter_pairs" for layer in widened for a in layer["arrays"])
            assert f"widened     {len(widened)} layer(s) read int8 weights widened to int16" in out
            assert f"({len(widened)} layer(s) on weights widened to int16: --optimize)" in header
        else:
            assert not widened and "widened " not in out and "widened to int16" not in header
    g = compile_model(model, features=frozenset({"dsp"}))
    size, speed = (sum(layer["constants_bytes"] for layer in reports[k]["layers"]) for k in ("size", "speed"))
    assert size <= balanced_room(g) and size < speed


def test_code_past_its_allowance_moves_weights_to_the_external_flash(tmp_path, models, capsys):
    """The passes allow CODE_ALLOWANCE of the chip's flash for code; VWW's Helium kernels, harness and libc take
    more. On a chip whose flash holds its constants and that allowance but not its code, the link overflows, and
    the build compiles again with that much less room: weights go to the board's QSPI flash, and the firmware
    still gives TFLM's answers."""
    import dataclasses

    from mcugen.commands.board import build_in, compile_for
    from mcugen.commands.cli import build_parser
    from mcugen.targets.boards import CODE_ALLOWANCE, load_board
    from mcugen.targets.target import Target
    from mcugen.validation import golden
    from mcugen.validation.compare import random_inputs
    from mcugen.validation.oracle import Tflm
    from mcugen.validation.validate import run_on_target

    model = models / "mlperf_vww_mobilenet.tflite"
    args = build_parser().parse_args(["build", str(model), "--board", "mps3-an547"])
    board = load_board("mps3-an547")
    g = compile_for(args, Target(board))
    constants = emit_c(g, model.name).const_bytes
    assert not g.weights_out  # everything fits the chip's flash, as far as the allowance says
    short = dataclasses.replace(board, flash=dataclasses.replace(board.flash, bytes=constants + CODE_ALLOWANCE))
    target = Target(short)
    result, _, built = build_in(args, target, tmp_path / "fw", compile_for(args, target))
    assert built.weights_region == "QSPI" and built.weights_out
    assert "compiling again with that much less room" in capsys.readouterr().err
    samples = random_inputs(built, 1, seed=2)
    _, results = run_on_target(target, result.program, built, samples)
    assert results[0].passed  # equal to the golden model's, which equals TFLM's
    assert all(np.array_equal(a, b) for a, b in zip(golden.run(built, samples[0]),
                                                    Tflm(model.read_bytes()).run(samples[0], 1)))
