"""Validation at dataset scale: data read lazily, several targets at once (--jobs), shards of a run
(--shard K/N) merged into the report one run writes (`mcugen report merge`), and the oracle each run
names. Reports are compared whole but for the times, which differ from run to run on the host."""
from __future__ import annotations

import json
import zipfile

import numpy as np

from conftest import MODELS
from mcugen.validation.dataset import load_samples, slices
from mcugen.codegen.pipeline import lower
from test_cli import assert_one_error_line, checked_report, run_cli

PERSON = MODELS / "tflm_person_detect.tflite"
KWS = MODELS / "mlperf_kws_dscnn.tflite"


def without_times(report: dict) -> dict:
    report = json.loads(json.dumps(report))
    for sample in report["per_sample"]:
        sample.pop("time")
        sample.pop("layer_times", None)
    report.pop("inference")
    report.pop("estimated_cycles", None)
    for layer in report["layers"] or []:
        layer.pop("time")
        layer.pop("ms")
    for key in ("data", "shard"):
        report["inputs"].pop(key)
    return report


def dataset(tmp_path, n=12, compressed=False, shape=(1, 96, 96, 1), classes=2):
    """n random samples of `shape` (person_detect's input unless told) and labels of `classes` classes."""
    rng = np.random.default_rng(5)
    data, labels = tmp_path / "images.npz", tmp_path / "labels.npy"
    (np.savez_compressed if compressed else np.savez)(data, input_0=rng.integers(-128, 128, (n, *shape),
                                                                                 dtype=np.int8))
    np.save(labels, rng.integers(0, classes, n))
    return data, labels


def test_data_is_memory_mapped_not_loaded(tmp_path):
    g = lower(PERSON)
    data, _ = dataset(tmp_path, n=40)
    samples = load_samples(g, data)
    assert isinstance(samples.per_input[0].base, np.memmap) or isinstance(samples.per_input[0], np.memmap)
    assert len(samples) == 40 and samples.stacked
    with np.load(data) as whole:
        np.testing.assert_array_equal(samples[17][0], whole["input_0"][17])
    np.save(tmp_path / "one.npy", np.load(data)["input_0"])
    mapped = load_samples(g, tmp_path / "one.npy")
    assert isinstance(mapped.per_input[0], np.memmap)
    np.testing.assert_array_equal(mapped[39][0], samples[39][0])
    # a compressed member cannot be mapped: read when used, same values
    (tmp_path / "z").mkdir()
    packed, _ = dataset(tmp_path / "z", n=40, compressed=True)
    with zipfile.ZipFile(packed) as z:
        assert z.infolist()[0].compress_type != zipfile.ZIP_STORED
    np.testing.assert_array_equal(load_samples(g, packed)[17][0], samples[17][0])


def test_slices_are_contiguous_and_cut_a_stateful_model_only_at_resets():
    assert slices(range(10), 3, None, False) == [range(0, 3), range(3, 6), range(6, 10)]
    assert slices(range(2), 3, None, False) == [range(0, 0), range(0, 1), range(1, 2)]
    assert slices(range(10), 2, 4, True) == [range(0, 4), range(4, 10)]
    assert slices(range(3, 9), 2, 3, True) == [range(3, 6), range(6, 9)]


def test_jobs_give_the_report_one_target_gives(capsys, tmp_path):
    data, labels = dataset(tmp_path)
    reports = {}
    for jobs in (1, 2):
        path = tmp_path / f"jobs{jobs}.json"
        code, out, _ = run_cli(capsys, "test", PERSON, "--board", "host", "--data", data, "--labels", labels,
                               "--jobs", jobs, "--json", path)
        assert code == 0 and "bit-exact on 12 sample(s) on host" in out
        reports[jobs] = checked_report(path, "test")
    ran = reports[2].pop("cluster")  # --jobs 2: a local cluster of two processes, each taking parts of the samples
    assert len(ran["workers"]) == 2 and sorted(s for w in ran["workers"] for s in w["samples"]) == list(range(12))
    assert without_times(reports[1]) == without_times(reports[2])
    assert reports[1]["oracle"] == "TFLM on the first sample" and reports[1]["accuracy"]["samples"] == 12


def test_shards_merge_into_the_report_of_the_whole_run(capsys, tmp_path):
    """On the emulated M4 (KWS: a quarter of person_detect's instructions), per-layer times and all."""
    data, labels = dataset(tmp_path, n=7, shape=(1, 49, 10, 1), classes=12)
    common = ("--board", "mps2-an386", "--data", data, "--labels", labels, "--profile")
    code, _, _ = run_cli(capsys, "test", KWS, *common, "--json", tmp_path / "whole.json")
    assert code == 0
    shards = []
    for k in (3, 1, 2):
        shards.append(tmp_path / f"shard{k}.json")
        code, out, _ = run_cli(capsys, "test", KWS, *common, "--shard", f"{k}/3", "--json", shards[-1])
        assert code == 0 and "bit-exact on" in out
        assert checked_report(shards[-1], "test")["inputs"]["shard"] == {"index": k, "count": 3}
    code, out, _ = run_cli(capsys, "report", "merge", *shards, "--json", tmp_path / "merged.json")
    assert code == 0 and "bit-exact on 7 sample(s) on mps2-an386" in out
    whole, merged = checked_report(tmp_path / "whole.json", "test"), checked_report(tmp_path / "merged.json", "test")
    assert without_times(merged) == without_times(whole)
    assert [s["index"] for s in merged["per_sample"]] == list(range(7))
    # QEMU's times are instruction counts: the same within one SysTick tick (40 instructions)
    assert abs(merged["inference"]["median"] - whole["inference"]["median"]) <= 40


def test_bad_jobs_shards_and_reports_are_one_line_errors(capsys, tmp_path, models):
    data, labels = dataset(tmp_path, n=4)
    for flag, value, phrase in (("--jobs", "0", "number of jobs from 1 to 64"), ("--jobs", "x", "number of jobs"),
                                ("--shard", "4/3", "K/N with 1 <= K <= N"), ("--shard", "0/2", "K/N"),
                                ("--shard", "1", "K/N")):
        try:
            run_cli(capsys, "test", PERSON, "--board", "host", flag, value)
        except SystemExit as exc:
            assert exc.code == 1
        err = capsys.readouterr().err
        assert phrase in err and len(err.strip().splitlines()) == 1, err
    code, _, err = run_cli(capsys, "test", PERSON, "--board", "host", "--data", data, "--shard", "1/5")
    assert_one_error_line(code, err, "shard 1/5 of 4 sample(s) is empty")
    # a stateful model's steps depend on each other: slices need --reset-every
    code, _, err = run_cli(capsys, "test", models / "real" / "tflm_keyword_scrambled_8bit.tflite", "--board", "host",
                           "--samples", "4", "--jobs", "2")
    assert_one_error_line(code, err, "keeps state from one step to the next", "--reset-every")
    # reports of other runs do not merge
    first = tmp_path / "a.json"
    run_cli(capsys, "test", PERSON, "--board", "host", "--data", data, "--shard", "1/2", "--json", first)
    other_board = tmp_path / "b.json"
    run_cli(capsys, "test", PERSON, "--board", "mps2-an386", "--data", data, "--shard", "2/2", "--json", other_board)
    code, _, err = run_cli(capsys, "report", "merge", first, other_board, "--json", tmp_path / "m.json")
    assert_one_error_line(code, err, "is from another run", "board differs")
    other_model = tmp_path / "c.json"
    kws_data = tmp_path / "kws.npy"
    np.save(kws_data, np.zeros((4, 1, 49, 10, 1), np.int8))
    run_cli(capsys, "test", models / "mlperf_kws_dscnn.tflite", "--board", "host", "--data", kws_data,
            "--shard", "2/2", "--json", other_model)
    code, _, err = run_cli(capsys, "report", "merge", first, other_model, "--json", tmp_path / "m.json")
    assert_one_error_line(code, err, "is from another run", "differs")
    (tmp_path / "junk.json").write_text("{not json")
    code, _, err = run_cli(capsys, "report", "merge", first, tmp_path / "junk.json", "--json", tmp_path / "m.json")
    assert_one_error_line(code, err, "junk.json: not a JSON report")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)  # past Python's nesting limit
    for command in (("report", "merge", first, tmp_path / "deep.json", "--json", tmp_path / "m.json"),
                    ("report", "html", tmp_path / "deep.json", "--out", tmp_path / "p.html")):
        code, _, err = run_cli(capsys, *command)
        assert_one_error_line(code, err, "deep.json: not a", "nested too deep")
    assert not (tmp_path / "m.json").exists()


def test_a_model_tflm_cannot_run_is_checked_against_litert_and_says_so(capsys, tmp_path):
    from tflite_writer import ModelSpec

    m = ModelSpec()
    x = m.tensor("x", [1, 2, 3], "int8", 0.1, 3)
    y = m.tensor("y", [2, 2, 3], "int8", 0.1, 3)
    m.inputs, m.outputs = [x], [y]
    m.op("TILE", [x, m.const("multiples", [2, 1, 1], "int32")], [y])
    path = tmp_path / "tile.tflite"
    path.write_bytes(m.build())
    code, out, err = run_cli(capsys, "compare", path, "--samples", "2")
    assert code == 0 and "equal LiteRT BUILTIN_REF's" in out
    assert "TFLM refuses this model: Didn't find op for builtin opcode 'TILE'" in err
    code, out, err = run_cli(capsys, "test", path, "--board", "host", "--samples", "2", "--json", tmp_path / "r.json")
    assert code == 0 and "golden model checked against LiteRT BUILTIN_REF (TFLM refuses" in out
    assert checked_report(tmp_path / "r.json", "test")["oracle"].startswith("LiteRT BUILTIN_REF (TFLM refuses")
    code, out, _ = run_cli(capsys, "inspect", path)
    assert "oracle   LiteRT BUILTIN_REF (TFLM refuses this model" in out
