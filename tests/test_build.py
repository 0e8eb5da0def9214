"""`mcugen build` / `mcugen test` on the host: reports, safety of the output directory, bad input,
and the generated C of the examples checked in as golden files (UPDATE_GOLDEN=1 rewrites them)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from mcugen.emit_c import emit_c
from mcugen.pipeline import compile_model
from test_cli import assert_one_error_line, one_op_model, run_cli

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


def test_build_prints_the_memory_report_and_draws_the_arena(capsys, tmp_path, shared_models):
    out = tmp_path / "kws"
    code, stdout, _ = run_cli(capsys, "build", shared_models / "mlperf_kws_dscnn.tflite", "--board", "host",
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
    code, _, _ = run_cli(capsys, "build", shared_models / "mlperf_kws_dscnn.tflite", "--board", "host", "--out", out)
    assert code == 0


def test_build_refuses_a_directory_with_foreign_files(capsys, tmp_path, shared_models):
    (tmp_path / "notes.txt").write_text("mine")
    code, _, err = run_cli(capsys, "build", shared_models / "tflm_hello_world.tflite", "--board", "host",
                           "--out", tmp_path)
    assert_one_error_line(code, err, "files mcugen did not write", "notes.txt")
    assert (tmp_path / "notes.txt").read_text() == "mine" and not (tmp_path / "src").exists()


def test_build_of_an_unsupported_model_gives_the_inspect_error(capsys, tmp_path):
    path = one_op_model(tmp_path, dtype="float32")
    code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
    assert_one_error_line(code, err, "unsupported model", "float32")
    assert not (tmp_path / "out").exists()


def test_build_without_a_c_compiler_says_what_to_install(tmp_path, shared_models):
    env = dict(os.environ, PATH=str(tmp_path))  # no cc, gcc or clang here
    env.pop("CC", None)
    proc = subprocess.run([sys.executable, "-m", "mcugen", "build", str(shared_models / "tflm_hello_world.tflite"),
                           "--board", "host", "--out", str(tmp_path / "out")], capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "mcugen: error: no C compiler found (looked for cc, gcc, clang); "
        "install one, e.g. sudo apt-get install gcc"]


def test_unknown_board(capsys, tmp_path, shared_models):
    code, _, err = run_cli(capsys, "build", shared_models / "tflm_hello_world.tflite", "--board", "nope",
                           "--out", tmp_path / "o")
    assert_one_error_line(code, err, "unknown board 'nope'")


def test_test_command_writes_the_json_report(capsys, tmp_path, shared_models):
    report = tmp_path / "r.json"
    code, stdout, _ = run_cli(capsys, "test", shared_models / "tflm_micro_speech.tflite", "--board", "host",
                              "--samples", "2", "--profile", "--json", report)
    assert code == 0 and "bit-exact on 2 sample(s) on host" in stdout
    r = json.loads(report.read_text())
    assert {"model", "model_sha256", "board", "samples", "passed", "max_abs_diff", "arena_bytes",
            "flash_bytes", "ram_bytes"} <= set(r)
    assert r["samples"] == r["passed"] == 2 and r["max_abs_diff"] == 0
    assert all(len(s["layer_cycles"]) == 4 and s["cycles"] > 0 for s in r["per_sample"])
    assert "FULLY_CONNECTED" in stdout and "share" in stdout  # the per-layer table
    assert (tmp_path / "r.layers.png").stat().st_size > 5_000
    # the report is not overwritten without --force
    code, _, err = run_cli(capsys, "test", shared_models / "tflm_micro_speech.tflite", "--board", "host",
                           "--json", report)
    assert_one_error_line(code, err, "already exists")
