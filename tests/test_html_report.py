"""The HTML report: `mcugen test --html` and `mcugen report html` pages opened in headless Chromium (Debian's
package), checked by what renders (the DOM after layout) and kept as a screenshot; bad input one line."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import ROOT
from test_cli import assert_one_error_line, run_cli

DIGITS = ROOT / "examples" / "digits"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def rendered(page, tmp_path) -> str:
    """The DOM Chromium builds from the page (what a person sees), and a screenshot beside it."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium)")
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,2400"]
    shot = tmp_path / "page.png"
    subprocess.run([*flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    print(f"screenshot: {shot}")
    return subprocess.run([*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120,
                          check=True).stdout


def test_a_labelled_profiled_run_as_one_page(tmp_path, capsys):
    """The digits CNN quantized to int8, validated on the emulated M4 against its labels and its float original."""
    page, report, model = tmp_path / "run.html", tmp_path / "run.json", tmp_path / "digits_int8.tflite"
    code, _, err = run_cli(capsys, "quantize", DIGITS / "digits_float.tflite", "--data", DIGITS / "calibration.npz",
                           "--out", model)
    assert code == 0, err
    code, out, err = run_cli(capsys, "test", model, "--board", "mps2-an386", "--data", DIGITS / "evaluation.npz",
                             "--labels", DIGITS / "labels.npy", "--reference", DIGITS / "digits_float.tflite",
                             "--profile", "--json", report, "--html", page)
    assert code == 0, err
    dom = rendered(page, tmp_path)
    data = json.loads(report.read_text())
    layers = len(data["layers"])
    assert "bit-exact" in dom and "597 sample(s)" in dom
    card = dom.split('id="card"')[1].split('<p id="verdict"')[0]
    for label in ("latency", "top-1 accuracy", "float model", "arena", "flash", "RAM"):
        assert f"<span>{label}</span>" in card
    assert card.count("of the board's 4,194,304 B") == 3  # arena, flash and RAM against the an386's 4 MB
    profile = dom.split('id="profile"')[1].split("</svg>")[0]
    assert profile.count("<rect") == layers and "estimated cycles" in dom  # a bar per layer
    latency = dom.split('id="latency">')[1].split("</span>")[0]
    assert latency == f"{data['inference']['ms']['median']:.3g} ms" and data["inference"]["ms_from"] in dom
    table = dom.split('id="layers"')[1].split("</table>")[0]
    assert table.count(f"<td>{data['layers'][0]['ms']:.3f}</td>") >= 1  # ms per layer
    assert "<th>ROM B</th><th>RAM B</th>" in table and f"<td>{data['layers'][0]['constants_bytes']:,}</td>" in table
    kernels = dom.split('id="kernels"')[1].split("</svg>")[0]
    assert kernels.count("<rect") == len({layer["kernel"] for layer in data["layers"]})
    arena = dom.split('class="arena-picture"')[1].split("</svg>")[0]
    assert arena.count('class="buffer"') >= layers - 1  # one rectangle per arena buffer
    confusion = dom.split('id="confusion"')[1].split("</table>")[0]
    assert confusion.count("<tr>") == 11 and f"{100 * data['accuracy']['top1_target']:.2f}%" in dom
    per_class = dom.split('id="per-class"')[1].split("</table>")[0]
    assert per_class.count("<tr>") == 11 and f"{100 * data['accuracy']['per_class'][0]['recall']:.2f}%" in per_class
    metrics = dom.split('id="metrics"')[1].split("</table>")[0]
    assert [row.split('<td class="name">')[2].split("<")[0] for row in metrics.split("<tr>")[2:]] == \
        ["labels (one-hot)", "float model", "golden model"]
    reference = data["reference"]
    assert reference["model"] == "digits_float.tflite" and f"{100 * reference['top1']:.2f}%" in dom
    assert f"{100 * reference['metrics'][0]['acc']:.2f}%" in metrics
    assert "<script" not in dom and "http" not in page.read_text().replace("http://www.w3.org/2000/svg", "")


def test_report_html_draws_saved_reports_and_refuses_what_is_not_one(tmp_path, capsys):
    model = DIGITS / "digits_float.tflite"
    build, test = tmp_path / "build.json", tmp_path / "test.json"
    assert run_cli(capsys, "build", model, "--board", "mps2-an386", "--out", tmp_path / "fw", "--json", build)[0] == 0
    assert run_cli(capsys, "test", model, "--board", "mps2-an386", "--samples", "2", "--json", test)[0] == 0
    for argv, page in ((["report", "html", test, "--build", build], "both.html"), (["report", "html", build], "b.html")):
        code, _, err = run_cli(capsys, *argv, "--out", tmp_path / page)
        assert code == 0, err
        dom = rendered(tmp_path / page, tmp_path)
        assert "Arena over time" in dom and "mps2-an386" in dom
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**json.loads(build.read_text()), "board": "microbit"}))
    for argv, phrase in ((["report", "html", DIGITS / "labels.npy"], "not a JSON report"),
                         (["report", "html", build, "--build", build], "is a build report already"),
                         (["report", "html", test, "--build", other], "give the build report of the same model")):
        code, _, err = run_cli(capsys, *argv, "--out", tmp_path / "bad.html")
        assert_one_error_line(code, err, phrase)
        assert not (tmp_path / "bad.html").exists()
