"""`mcugen quantize --search`: each layer's precision chosen by accuracy on evaluation data (the golden model)
and cost measured on the board's core (real builds run once on its emulator), on the digits example (a
small CNN trained on scikit-learn's 8x8 digits: examples/digits/train.py); bad input one line."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT
from mcugen.codegen.pipeline import compile_model
from test_cli import assert_one_error_line, refused, run_cli
from test_plan import _quantize

pytest.importorskip("ai_edge_quantizer")

DIGITS = ROOT / "examples" / "digits"


def search(capsys, tmp_path, *options):
    out = tmp_path / "chosen.tflite"
    code, stdout, err = run_cli(capsys, "quantize", DIGITS / "digits_float.tflite", "--data",
                                DIGITS / "calibration.npz", "--search", "--eval", DIGITS / "evaluation.npz",
                                "--out", out, "--json", tmp_path / "search.json", *options)
    assert code == 0, err
    return out, stdout, err, json.loads((tmp_path / "search.json").read_text())


def test_the_choice_is_within_the_drop_and_cheaper_than_all_16x8(tmp_path, capsys):
    """On a real board (nano33: measured on its emulated twin, held to its memory)."""
    out, stdout, err, report = search(capsys, tmp_path, "--labels", DIGITS / "labels.npy", "--board", "nano33")
    by_name = {c["name"]: c for c in report["candidates"]}
    assert {"float model", "all int8", "all 16x8"} <= set(by_name)
    # fp16 weighed beside the rest: every layer of the digits CNN takes it (float16 weights on the M4)
    assert set(by_name["fp16 where layers take it"]["precisions"].values()) == {"fp16"}
    assert by_name["fp16 where layers take it"]["flash_bytes"] < by_name["float model"]["flash_bytes"]
    chosen = by_name[report["chosen"]]
    assert chosen["top1"] >= by_name["float model"]["top1"] - 0.01 and chosen["top1"] == report["target_top1"] + (
        chosen["top1"] - report["target_top1"])
    assert chosen["time"] < by_name["all 16x8"]["time"] and chosen["time_unit"] == "cycles"
    # an int8 model's firmware is smaller than its float original's (issue 60: it was not, on the M4)
    assert by_name["all int8"]["flash_bytes"] < by_name["float model"]["flash_bytes"]
    assert report["against"] == "labels" and any(c["front"] for c in report["candidates"])
    assert all(set(c["precisions"]) == set(report["layers"]) for c in report["candidates"])
    # each candidate's time is its layers' (QUANTIZE ops where precisions meet included)
    assert all(sum(layer["time"] for layer in c["layer_time"]) == c["time"] for c in report["candidates"])
    assert (tmp_path / "chosen.front.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "the choice is bit-exact on mps2-an386" in err and "wrote" in stdout
    assert report["measured_on"] == "mps2-an386" and "nano33's Arm Cortex-M4" in err
    assert all(c["fits"] for c in report["candidates"])
    compile_model(out)  # mcugen runs what it wrote


def test_a_tight_drop_widens_layers_and_a_cluster_searches_as_one_process_does(tmp_path, capsys):
    """All-int8 loses 0.2 points of top-1: no drop allowed makes the search widen layers, and the choice written
    as a plan makes the same model again. The same search on a local Dask cluster of two workers (--jobs 2: each
    candidate's quantizing, cost and accuracy per half of the evaluation samples as tasks, every layer's
    candidate sent at once) reports every candidate's accuracy, SNR and cost, and the choice, as one process
    does, and writes the same model."""
    options = ["--board", "mps2-an386", "--labels", DIGITS / "labels.npy", "--max-drop", "0"]
    _, stdout, _, whole = search(capsys, tmp_path, *options)
    by_name = {c["name"]: c for c in whole["candidates"]}
    assert by_name["all int8"]["top1"] < whole["target_top1"] == by_name["float model"]["top1"]
    assert by_name[whole["chosen"]]["top1"] >= whole["target_top1"]
    assert len(whole["candidates"]) > 4 and "widened" in whole["why"]
    assert " at 16x8" in stdout
    # the choice as a plan (--plan) makes the same model again
    plan = tmp_path / "chosen.plan.yaml"
    assert f"wrote {plan}" in stdout and "layers:" in plan.read_text()  # --max-drop 0 widens layers
    chosen = next(c for c in whole["candidates"] if c["chosen"])
    assert chosen["plan"]["layers"] and all(c["plan"]["default"] for c in whole["candidates"])
    again, _ = _quantize(capsys, tmp_path, plan.read_text(), "again")
    assert again.read_bytes() == (tmp_path / "chosen.tflite").read_bytes()
    (tmp_path / "cluster").mkdir()
    _, _, err, clustered = search(capsys, tmp_path / "cluster", *options, "--jobs", "2")
    assert "on the Dask cluster local:2" in err
    keys = ("name", "precisions", "top1", "snr_db", "time", "flash_bytes", "ram_bytes", "front", "chosen")
    assert [{k: c[k] for k in keys} for c in clustered["candidates"]] == \
        [{k: c[k] for k in keys} for c in whole["candidates"]]
    assert clustered["chosen"] == whole["chosen"] and (tmp_path / "cluster" / "chosen.tflite").read_bytes() == \
        (tmp_path / "chosen.tflite").read_bytes()


def test_without_labels_on_a_core_without_timing_the_cost_is_instructions(tmp_path, capsys):
    """Accuracy is agreement with the float model's top-1; the M0's time is its instructions."""
    _, _, err, report = search(capsys, tmp_path, "--board", "microbit", "--cost", "flash")
    assert "no timing table: the candidates' time is their instructions" in err
    assert {c["time_unit"] for c in report["candidates"]} == {"instructions"} and report["cost"] == "flash"
    by_name = {c["name"]: c for c in report["candidates"]}
    assert report["against"] == "float model" and by_name["float model"]["top1"] == 1.0
    assert by_name["all int8"]["flash_bytes"] < by_name["float model"]["flash_bytes"]  # on the M0 too


def test_max_arena_holds_every_candidate_to_it(tmp_path, capsys):
    """--max-arena: each candidate built as `build --max-arena` would (bands where they bring it within), the
    ones still past it marked as not fitting (the float model's 3,072 B: float layers never run in bands), and
    the choice within it."""
    _, _, _, report = search(capsys, tmp_path, "--board", "mps2-an386", "--max-arena", "2000")
    by_name = {c["name"]: c for c in report["candidates"]}
    assert not by_name["float model"]["fits"] and "more than --max-arena 2,000 B" in by_name["float model"]["misfit"]
    assert all(c["fits"] == (c["ram_bytes"] <= 2000) for c in report["candidates"])
    assert by_name[report["chosen"]]["fits"] and by_name[report["chosen"]]["ram_bytes"] <= 2000
    assert (report["max_arena"], report["patches"], report["optimize"]) == (2000, "auto", "balanced")


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path, capsys):
    import numpy as np

    np.save(tmp_path / "short.npy", np.zeros(5, np.int64))
    out = tmp_path / "chosen.tflite"
    base = ["quantize", DIGITS / "digits_float.tflite", "--data", DIGITS / "calibration.npz", "--out", out]
    cases = [
        ((*base, "--search", "--board", "mps2-an386"), "--search needs --eval"),
        ((*base, "--labels", DIGITS / "labels.npy"), "--labels name the classes of the --eval samples"),
        ((*base, "--board", "mps2-an386"), "--board is for --search"),
        ((*base, "--search", "--eval", DIGITS / "evaluation.npz", "--board", "mps2-an386", "--labels",
          tmp_path / "short.npy"), "has 5 labels for 597 samples"),
        ((*base, "--search", "--eval", DIGITS / "evaluation.npz", "--board", "no-such-board"), "no-such-board"),
        ((*base, "--search", "--eval", DIGITS / "evaluation.npz", "--board", "host"), "host is none"),
        ((*base, "--search", "--eval", DIGITS / "evaluation.npz", "--board", "mps2-an386", "--max-drop", "-1"),
         "not a drop in percentage points from 0 to 100"),
        ((*base, "--jobs", "2"), "--jobs is for --search"),
        ((*base, "--max-arena", "2000"), "--max-arena is for --search"),
        ((*base, "--patches", "off"), "--patches is for --search"),
        ((*base, "--search", "--eval", DIGITS / "evaluation.npz", "--board", "mps2-an386", "--jobs", "2",
          "--cluster", "local:2"), "--jobs 2 is a cluster of 2 local processes"),
    ]
    for argv, phrase in cases:
        code, err = refused(capsys, *argv)
        assert_one_error_line(code, err, phrase)
        assert not out.exists()


def test_the_front_and_the_choice_leave_out_what_does_not_fit_the_board():
    """Hand-checked: b beats c (as accurate, cheaper); d is the cheapest within 0.9 but does not fit."""
    from mcugen.quantize.measure import Accuracy
    from mcugen.quantize.cost import Cost
    from mcugen.quantize.search import Candidate, pareto

    def candidate(name, top1, time, misfit=""):
        return Candidate(name, ("int8",), Accuracy(top1, "labels", 30.0), Cost(time, "cycles", 1000, 100, (), misfit),
                         b"")

    marked = {c.name: c.front for c in pareto([candidate("a", 0.80, 100), candidate("b", 0.95, 200),
                                               candidate("c", 0.95, 300), candidate("d", 0.99, 150, "too big")],
                                              "time")}
    assert marked == {"a": True, "b": True, "c": False, "d": False}
