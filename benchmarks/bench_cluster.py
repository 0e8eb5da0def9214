"""Wall time of validation and of the precision search in one process, with --jobs 2 (a local Dask cluster of
two processes) and on a cluster of a `dask scheduler` and two `dask worker`s started beforehand, on this
machine; and the engine's own cost per task (a task that does nothing, submitted and gathered).

    python benchmarks/bench_cluster.py  # prints the table and rewrites it in benchmarks/README.md
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _tables import rewrite  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "tests" / "models"
DIGITS = ROOT / "examples" / "digits"
DASK = Path(sys.executable).with_name("dask")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(argv: list) -> float:
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "mcugen", *map(str, argv)], check=True, capture_output=True)
    return time.monotonic() - start


def per_task(address: str, tasks: int = 200) -> float:
    from distributed import Client

    with Client(address) as client:
        client.gather(client.map(abs, range(10), pure=False))  # warm
        start = time.monotonic()
        client.gather(client.map(abs, range(tasks), pure=False))
        return (time.monotonic() - start) / tasks


def main() -> int:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    procs += [subprocess.Popen([DASK, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard"],
                               env=dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
              for _ in range(2)]
    rows = ["| run | one process s | --jobs 2 s | cluster of 2 workers s |", "|---|---|---|---|"]
    try:
        time.sleep(3)
        with tempfile.TemporaryDirectory() as tmp:
            runs = {
                "person_detect, 400 random samples on mps2-an386": (
                    ["test", MODELS / "tflm_person_detect.tflite", "--board", "mps2-an386", "--samples", "400",
                     "--out", Path(tmp) / "pd"], ["--jobs", "2"], ["--cluster", address]),
                "the digits search (597 labelled samples, --max-drop 0) on mps2-an386": (
                    ["quantize", DIGITS / "digits_float.tflite", "--data", DIGITS / "calibration.npz", "--search",
                     "--eval", DIGITS / "evaluation.npz", "--labels", DIGITS / "labels.npy", "--board", "mps2-an386",
                     "--max-drop", "0", "--force", "--out", Path(tmp) / "d.tflite"], ["--jobs", "2"],
                    ["--cluster", address]),
            }
            timed(runs["person_detect, 400 random samples on mps2-an386"][0][:4] + ["--samples", "1", "--out",
                                                                                     Path(tmp) / "pd"])  # the build
            for name, (argv, jobs, cluster) in runs.items():
                rows.append(f"| {name} | {timed(argv):.1f} | {timed(argv + jobs):.1f} | {timed(argv + cluster):.1f} |")
                print(rows[-1], flush=True)
        rows.append(f"| the engine per task (a no-op task submitted and gathered, 200 of them) | | | "
                    f"{1e3 * per_task(address):.2f} ms |")
        print(rows[-1])
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    rewrite("cluster-table", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
