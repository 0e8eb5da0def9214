"""Validation on a Dask cluster (`test --cluster ADDRESS`, and `--jobs N`, a cluster of N local processes):
the samples cut into contiguous parts (dataset.slices: a stateful model's only where its state is reset), each
part a task that boots the target on whichever worker takes it and validates its samples there, the results
joined in sample order, so that the report is the one a single target gives.

The engine is Dask's `distributed` (the `cluster` extra): `local` or `local:N` starts N worker processes here for
the command's length; any other address is a scheduler the user started (`dask scheduler`, then `dask worker
ADDRESS` on each host). A worker that dies has its tasks run again elsewhere (the scheduler's doing); a task
that fails is retried twice. Each worker runs what its machine has: the host build (workers of the client's
kind), QEMU, or a real board attached to it: a worker started with `--resources BOARD=1` (and the board's
serial port in MCUGEN_PORT) is the only kind to take that board's samples; an emulated board's samples go to
any worker unless some worker advertises it, then only to those.
"""
from __future__ import annotations

import contextlib
import itertools
import logging
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from mcugen.errors import McugenError
from mcugen.validation.dataset import slices

_LOCAL = re.compile(r"local(?::(\d+))?")
TASKS_PER_WORKER = 4  # parts a worker takes in turn at least: the slower ones' share goes to the others
PART_SAMPLES = 256  # samples a part holds at most: what one task's inputs cost the client and the wire
IN_FLIGHT = 2  # parts per worker sent ahead; the rest are read from the data only when one finishes


@contextlib.contextmanager
def dask_client(address: str) -> Iterator:
    """A client of the cluster at `address` (local[:N]: one started here, closed after)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise McugenError(f"--cluster {address} needs Dask's distributed package",
                          "pip install 'mcugen[cluster]'") from None
    local = _LOCAL.fullmatch(address)
    if local:
        workers = int(local[1]) if local[1] else os.cpu_count() or 1
        if workers < 1:
            raise McugenError(f"--cluster {address} starts no worker", "give local:N with N >= 1")
        # non-daemonic workers: a task may start processes of its own (the oracles run in one)
        with dask.config.set({"distributed.worker.daemon": False}), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                             silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
            yield client
        return
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise McugenError(f"cannot reach the Dask scheduler at {address} ({str(exc).splitlines()[0][:120]})",
                          "start one (dask scheduler) and its workers (dask worker ADDRESS), or pass --cluster "
                          "local:N") from None
    with client:
        yield client


def workers_of(client) -> dict[str, dict[str, float]]:
    """Each worker's address and the resources it advertises."""
    return {address: dict(w.get("resources") or {}) for address, w in client.scheduler_info()["workers"].items()}


def run_on_cluster(client, target, program: Path | None, g, samples, chosen: range, labels, *, timeout: float,
                   reset_every: int | None, profile: bool = False, on_sample=None) -> tuple[list, dict]:
    """(the chosen samples' results in sample order, where they ran: the report's `cluster`)."""
    from distributed import as_completed

    workers = workers_of(client)
    board = target.board.id if target.board is not None else "host"
    takers = [a for a, r in workers.items() if r.get(board, 0) >= 1]
    if not target.emulated and not target.host and not takers:
        raise McugenError(f"no worker of the cluster advertises a {board}",
                          f"start one where the board is attached: MCUGEN_PORT=PORT dask worker ADDRESS "
                          f"--resources {board}=1")
    count = max(1, len(takers or workers))
    parts = [p for p in slices(chosen, max(count * TASKS_PER_WORKER, -(-len(chosen) // PART_SAMPLES)), reset_every,
                               bool(g.variables)) if len(p)]
    shared = client.scatter([g, program.read_bytes() if program is not None else None], broadcast=True)

    def submit(part: range):
        # the part's samples are read from --data here, as the task is sent: a data set is never in memory whole
        return client.submit(_validate_part, board, target.stock, *shared, {s: samples[s] for s in part},
                             _labels_of(labels, part), part, timeout, reset_every, profile,
                             resources={board: 1} if takers else None, retries=2, pure=False)

    waiting = iter(parts)
    running = as_completed([submit(part) for part in itertools.islice(waiting, count * IN_FLIGHT)])
    results: list = []
    ran: dict[str, list[int]] = {a: [] for a in workers}
    for future in running:
        worker, done = future.result()
        following = next(waiting, None)
        if following is not None:
            running.add(submit(following))
        ran.setdefault(worker, []).extend(r.index for r in done)
        results += done
        for r in done if on_sample else ():
            on_sample(r)
    results.sort(key=lambda r: r.index)
    return results, dict(scheduler=client.scheduler.address, tasks=len(parts),
                         workers=[dict(address=a, resources=workers.get(a, {}), samples=sorted(ran[a]))
                                  for a in sorted(ran)])


def _labels_of(labels, part: range) -> dict[int, int] | None:
    return None if labels is None else {s: int(labels[s]) for s in part}


def _validate_part(board: str, stock: bool, g, program: bytes | None, inputs: dict, labels: dict | None, part: range,
                   timeout: float, reset_every: int | None, profile: bool) -> tuple[str, list]:
    """On a worker: the part's samples on this machine's target (the program written to a file of its own)."""
    from distributed import get_worker

    from mcugen.targets.target import Target
    from mcugen.validation.validate import run_on_target

    target = Target.of(board, os.environ.get("MCUGEN_PORT"), stock)
    with tempfile.TemporaryDirectory(prefix="mcugen-worker-") as work:
        path = None
        if program is not None:
            path = Path(work) / ("mcugen_host" if board == "host" else "firmware.elf")
            path.write_bytes(program)
            path.chmod(0o755)
        _, results = run_on_target(target, path, g, inputs, timeout=timeout, profile=profile, reset_every=reset_every,
                                   indices=part, labels=labels)
    return get_worker().address, results
