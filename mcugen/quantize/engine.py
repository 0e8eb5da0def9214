"""The precision search's candidates as tasks of a Dask cluster (search.py's Searcher with a client): the model,
calibration and evaluation samples sent to the workers once, each candidate's tasks (its quantizing and check,
then its cost and a tally per part of the samples) sent when first wanted, so that the candidates the search
knows it needs run at once."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Protocol

import numpy as np

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
        self.references: list | None = None

    def reference(self) -> tuple[np.ndarray, list[np.ndarray]]:
        """output_predictions of the float model over every part, joined in order."""
        graph = self.client.submit(_graph_of, self.shared[0], pure=False)
        parts = self.client.gather([self.client.submit(output_predictions, graph, inputs, pure=False)
                                    for inputs in self.inputs])
        self.references = [self.client.scatter(part) for part in parts]
        return np.concatenate([top1 for top1, _ in parts]), [v for _, values in parts for v in values]

    def submit(self, key: tuple[str, ...], plan: Plan | None) -> None:
        if key in self.pending:
            return
        model, calibration, check_samples = self.shared
        s = self.s
        checked = self.client.submit(checked_candidate, model, calibration, plan, check_samples, pure=False)
        cost = self.client.submit(_cost_on_worker, checked, s.board, s.samples[0], s.builds, pure=False)
        labels = [None if s.labels is None else s.labels[part.start:part.stop] for part in self.parts]
        tallies = [self.client.submit(_tally_on_worker, checked, inputs, reference, part_labels, pure=False)
                   for inputs, reference, part_labels in zip(self.inputs, self.references or [], labels)]
        self.pending[key] = (checked, cost, tallies)

    def result(self, key: tuple[str, ...], plan: Plan | None) -> tuple[bytes, Accuracy, Cost]:
        self.submit(key, plan)
        checked, cost, tallies = self.pending.pop(key)
        (content, _), measured, parts = self.client.gather([checked, cost, tallies])
        return content, Tally.joined(parts).accuracy(self.s.against), measured


def _graph_of(model: FloatModel):
    return model.graph


def _cost_on_worker(checked: tuple[bytes, Graph], board: Board, sample, builds: Builds) -> Cost:
    with tempfile.TemporaryDirectory(prefix="mcugen-candidate-") as work:
        return measure_cost(checked[0], board, Path(work), sample, builds)


def _tally_on_worker(checked: tuple[bytes, Graph], inputs, reference, labels) -> Tally:
    return tally(checked[1], inputs, reference, labels)
