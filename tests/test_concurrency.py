"""Builds side by side: any number of mcugen processes at once on one machine, into different folders,
all succeed (CI jobs, make -j, scripts building several models); a second process wanting the same
folder is refused with one line and leaves the first one's build whole."""
from __future__ import annotations

import subprocess
import sys

from conftest import MODELS
from test_cli import assert_one_error_line, run_cli


def mcugen(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mcugen", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_several_builds_at_once_all_succeed_and_validate(tmp_path):
    names = ["tflm_hello_world", "tflm_micro_speech", "gen_keras_small_cnn", "tflm_simple_add"]
    running = [mcugen("test", MODELS / f"{name}.tflite", "--board", "mps2-an386", "--samples", "2",
                      "--out", tmp_path / name) for name in names]
    running.append(mcugen("build", MODELS / "tflm_hello_world.tflite", "--board", "host",
                          "--out", tmp_path / "host"))
    finished = [proc.communicate(timeout=600) for proc in running]
    assert [proc.returncode for proc in running] == [0] * len(running), [err for _, err in finished]
    for out, _ in finished[:len(names)]:
        assert "bit-exact on 2 sample(s) on mps2-an386" in out
    assert "built " in finished[-1][0]


def test_a_folder_in_use_is_refused_and_left_whole(capsys, tmp_path):
    folder = tmp_path / "build"
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sys
from mcugen.codegen.outdir import OutDir
OutDir({str(folder)!r}).write("model.c", "/* being written */\\n")
print("holding", flush=True)
sys.stdin.read()
"""], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "holding\n"
        code, _, err = run_cli(capsys, "build", MODELS / "tflm_hello_world.tflite", "--board", "host",
                               "--out", folder)
        assert_one_error_line(code, err, f"{folder} is in use by another mcugen process")
        assert (folder / "model.c").read_text() == "/* being written */\n"
    finally:
        holder.communicate("")
    # once the other process is done, the folder is this one's
    code, _, _ = run_cli(capsys, "build", MODELS / "tflm_hello_world.tflite", "--board", "host", "--out", folder)
    assert code == 0
