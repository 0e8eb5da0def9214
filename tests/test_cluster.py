"""`test --cluster` on a real Dask cluster on 127.0.0.1: a `dask scheduler` and two `dask worker` processes started
here (one advertising the emulated Cortex-M4 as a resource), the reports equal to a single target's, a worker killed
mid-run without changing them, and a board's samples on the workers that advertise it only."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import MODELS
from test_cli import assert_one_error_line, run_cli

DASK = Path(sys.executable).with_name("dask")
BOARD = "mps2-an386"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(address: str, *resources: str) -> subprocess.Popen:
    return subprocess.Popen([DASK, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                             "--no-dashboard", *(("--resources", " ".join(resources)) if resources else ())],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    with Client(address, timeout=30) as client:
        client.wait_for_workers(count, timeout=60)


@pytest.fixture
def cluster():
    """(scheduler address, {name: worker process}): worker "board" advertises the emulated M4, "plain" nothing."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers = {"board": worker(address, f"{BOARD}=1"), "plain": worker(address)}
    try:
        wait_for_workers(address, 2)
        yield address, workers
    finally:
        for proc in (*workers.values(), scheduler):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def report(capsys, tmp_path: Path, name: str, *argv) -> dict:
    path = tmp_path / f"{name}.json"
    code, _, err = run_cli(capsys, "test", *argv, "--json", path)
    assert code == 0, err
    return json.loads(path.read_text())


def tick(board: str) -> int:
    """Instructions a SysTick tick of the emulated board (one instruction a nanosecond under -icount shift=0: 40 at
    25 MHz, 80 at the LM3S6965's 12.5 MHz): where in a tick an inference starts depends on how long the harness
    polled the UART for its input, so two runs of one sample may time it a tick apart."""
    from mcugen.targets.boards import load_board

    return 10 ** 9 // load_board(board).clock_hz


def same_run(single: dict, clustered: dict, host: bool = False, board: str = BOARD) -> None:
    """Equal but for where the samples ran and their times: the host's wall times, which no two runs share, and
    a board's within a tick."""
    clustered = {k: v for k, v in clustered.items() if k != "cluster"}
    times = []
    for r in (single, clustered):
        spread = r.pop("inference")
        times.append([s.pop("time") for s in r["per_sample"]] + [spread[k] for k in ("min", "median", "max")])
    if not host:
        assert all(abs(a - b) <= tick(board) for a, b in zip(*times)), times
    assert clustered == single


def test_reports_on_the_cluster_equal_one_target_s_and_a_board_goes_to_its_worker(capsys, tmp_path, cluster):
    address, workers = cluster
    kws = MODELS / "mlperf_kws_dscnn.tflite"
    for board, samples in (("host", "10"), (BOARD, "8")):
        single = report(capsys, tmp_path, f"single-{board}", kws, "--board", board, "--samples", samples)
        clustered = report(capsys, tmp_path, f"cluster-{board}", kws, "--board", board, "--samples", samples,
                           "--cluster", address)
        same_run(single, clustered, host=board == "host")
        ran = {w["address"]: w["samples"] for w in clustered["cluster"]["workers"]}
        assert sorted(s for samples in ran.values() for s in samples) == list(range(int(samples)))
        if board == BOARD:  # only the worker advertising the board took its samples
            (taker,) = [w for w in clustered["cluster"]["workers"] if w["samples"]]
            assert taker["resources"] == {BOARD: 1}
            page = tmp_path / "page.html"
            assert run_cli(capsys, "report", "html", tmp_path / f"cluster-{board}.json", "--out", page)[0] == 0
            line = page.read_text().split('<p id="cluster">')[1].split("</p>")[0]
            assert f"{taker['address']} ({BOARD}) {samples} sample(s)" in line


def test_a_worker_killed_mid_run_has_its_samples_run_elsewhere(tmp_path, cluster):
    """The worker advertising nothing is killed while it validates a part (on the Cortex-M3, which no worker
    advertises, so both take parts): its parts run again on the other, the report is still one target's."""
    from distributed import Client

    address, workers = cluster
    kws, board = MODELS / "mlperf_kws_dscnn.tflite", "lm3s6965evb"
    single, clustered = tmp_path / "single.json", tmp_path / "cluster.json"
    argv = [sys.executable, "-m", "mcugen", "test", kws, "--board", board, "--samples", "16", "--out", tmp_path / "fw"]
    subprocess.run([*argv, "--json", single], check=True, capture_output=True)
    run = subprocess.Popen([*argv, "--cluster", address, "--json", clustered], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    with Client(address, timeout=30) as client:
        plain = next(a for a, w in client.scheduler_info()["workers"].items() if not w.get("resources"))
        deadline = time.monotonic() + 120
        while not client.processing().get(plain) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.processing().get(plain), "the worker never took a part"
        os.killpg(workers["plain"].pid, signal.SIGKILL)
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    same_run(json.loads(single.read_text()), json.loads(clustered.read_text()), board=board)


def test_a_cluster_that_cannot_take_the_samples_is_one_line(capsys, tmp_path):
    kws = MODELS / "mlperf_kws_dscnn.tflite"
    code, _, err = run_cli(capsys, "test", kws, "--board", "host", "--cluster", f"tcp://127.0.0.1:{free_port()}")
    assert_one_error_line(code, err, "cannot reach the Dask scheduler at tcp://127.0.0.1:", "dask scheduler")
    code, _, err = run_cli(capsys, "test", kws, "--board", "host", "--cluster", "local:1", "--jobs", "2")
    assert_one_error_line(code, err, "--jobs 2 is a cluster of 2 local processes")
    code, _, err = run_cli(capsys, "test", kws, "--board", "nano33", "--cluster", "local:1")
    assert_one_error_line(code, err, "no worker of the cluster advertises a nano33", "--resources nano33=1")


def test_a_large_run_goes_in_parts_of_at_most_256_samples_sent_as_workers_free(capsys, tmp_path):
    """1,100 samples on one local worker: five parts (not the four a worker takes at least), two sent ahead at a
    time and the rest as each finishes (its samples read then), the report one target's."""
    model = MODELS / "tflm_hello_world.tflite"
    single = report(capsys, tmp_path, "single", model, "--board", "host", "--samples", "1100")
    clustered = report(capsys, tmp_path, "cluster", model, "--board", "host", "--samples", "1100", "--cluster",
                       "local:1")
    assert clustered["cluster"]["tasks"] == 5
    same_run(single, clustered, host=True)
