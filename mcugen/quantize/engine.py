"""The precision search's candidates as tasks of a Dask cluster (search.py's Searcher with a client): the model,
calibration and evaluation samples sent to the workers once, each candidate's tasks (its quantizing and check,
then its cost and a tally per part of the samples) sent when first wanted, so that the candidates the search
knows it needs run at once."""
from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from mcugen.ir.graph import Graph
from mcugen.quantize.measure import Accuracy, Tally, output_predictions, tally
from mcugen.quantize.model import FloatModel
from mcugen.quantize.cost import Builds, Cost, measure_cost
from mcugen.quantize.recipe import Plan, checked_candidate
from mcugen.targets.boards import Board
from mcugen.validation.dataset import slices


class Searching(Protocol):
    """What the engine reads of search.py's Searcher."""

    model: FloatModel
    calibration: dict
    check_samples: Any
    samples: Any
    labels: Any
    board: Board
    builds: Builds

    @property
    def against(self) -> str: ...


class Engine:
    """A search's candidates on the cluster of `client`."""

    def __init__(self, client, searcher: Searching):
        self.client, self.s = client, searcher
        workers = max(1, len(client.scheduler_info()["workers"]))
        self.parts = [p for p in slices(range(len(searcher.samples)), 2 * workers, None, False) if len(p)]
        self.shared = client.scatter([searcher.model, searcher.calibration, list(searcher.check_samples)],
                                     broadcast=True)
        self.inputs = client.scatter([[searcher.samples[k] for k in part] for part in self.parts])
        self.pending: dict[tuple[str, ...], tuple] = {}
        # the float model's predictions on every part: each candidate's tallies are against them
        graph = client.submit(_graph_of, self.shared[0], pure=False)
        parts = client.gather([client.submit(output_predictions, graph, inputs, pure=False) for inputs in self.inputs])
        self.references = [client.scatter(part) for part in parts]

    def submit(self, key: tuple[str, ...], plan: Plan | None) -> None:
        if key in self.pending:
            return
        model, calibration, check_samples = self.shared
        s, submit = self.s, partial(self.client.submit, pure=False, retries=2)
        checked = submit(checked_candidate, model, calibration, plan, check_samples, s.board.fp16_arithmetic)
        content = submit(_content_of, checked)
        cost = submit(_cost_on_worker, content, s.board, s.samples[0], s.builds)
        labels = [None if s.labels is None else s.labels[part.start:part.stop] for part in self.parts]
        tallies = [submit(_tally_on_worker, checked, inputs, reference, part_labels)
                   for inputs, reference, part_labels in zip(self.inputs, self.references, labels)]
        self.pending[key] = (content, cost, tallies)

    def result(self, key: tuple[str, ...], plan: Plan | None) -> tuple[bytes, Accuracy, Cost]:
        self.submit(key, plan)
        content, cost, tallies = self.client.gather(list(self.pending.pop(key)))
        return content, Tally.joined(tallies).accuracy(self.s.against), cost


def _graph_of(model: FloatModel):
    return model.graph


def _content_of(checked: tuple[bytes, Graph]) -> bytes:
    return checked[0]


def _cost_on_worker(content: bytes, board: Board, sample, builds: Builds) -> Cost:
    with tempfile.TemporaryDirectory(prefix="mcugen-candidate-") as work:
        return measure_cost(content, board, Path(work), sample, builds)


def _tally_on_worker(checked: tuple[bytes, Graph], inputs, reference, labels) -> Tally:
    return tally(checked[1], inputs, reference, labels)
