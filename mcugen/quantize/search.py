"""Per-layer precision chosen by measurement: accuracy from the golden model (bit-exact with the board) on
the user's evaluation data, cost from real builds for the board's core run once on its emulator.

The search, each step a candidate model (quantized, checked with TFLM, built, measured):
1. the reference points: the float model, all-int8, all-16x8 (and all-INT4 weights where layers take them, and
   fp16 where layers take it: computed in fp16 where the board's core can, else float16 weights);
2. if all-int8 is within the allowed drop of the float model's accuracy: the cheapest candidate within it,
   after trying INT4 weights layer by layer where the cost is flash;
3. else each layer with weights alone at 16x8 (the rest int8) measures what that layer's precision is worth;
   then layers go to 16x8 in order of accuracy gained per cost added, one more per candidate, until the
   drop is met; past all-16x8, the same with fp16 layers, then with float32 ones.
The Pareto front is every candidate no other beats on both accuracy and cost; the choice is the cheapest
candidate within the drop (ties: the more accurate).

On a Dask cluster (`--cluster`, `--jobs`: mcugen/validation/cluster.py) each candidate is tasks: its quantizing
and check, its cost (a build and an emulator run) and its accuracy on each part of the evaluation samples; the
candidates the search knows it needs (the reference points, every layer alone) are all sent at once, and the
results are the ones one process computes.
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from mcugen.targets.boards import Board
from mcugen.codegen.build import say
from mcugen.errors import McugenError
from mcugen.quantize.measure import Accuracy, output_predictions, tally
from mcugen.quantize.model import FLOAT_PRECISIONS, FloatModel, Layer
from mcugen.quantize.cost import Builds, Cost, builds_for, measure_cost
from mcugen.ops.half_layers import HALF_OPS
from mcugen.quantize.recipe import FLOAT_PLAN, Plan, checked_candidate


@dataclass(frozen=True)
class Candidate:
    name: str
    precisions: tuple[str, ...]  # per layer with weights, in model order
    accuracy: Accuracy
    cost: Cost
    content: bytes  # the model (the float model's own where nothing is quantized)
    front: bool = False
    plan: Plan = FLOAT_PLAN  # what quantized it


@dataclass(frozen=True)
class Search:
    candidates: tuple[Candidate, ...]
    chosen: Candidate | None
    target: float  # the accuracy the choice had to reach
    cost: str  # what "cheapest" meant: model.COSTS
    why: str


def pareto(candidates: list[Candidate], cost: str) -> list[Candidate]:
    """Every candidate marked: on the front when it fits the board and no fitting one is as accurate and
    as cheap, and better in one."""
    fitting = [c for c in candidates if not c.cost.misfit]

    def beaten(c: Candidate) -> bool:
        return any(o is not c and o.accuracy.top1 >= c.accuracy.top1 and o.cost.of(cost) <= c.cost.of(cost)
                   and (o.accuracy.top1 > c.accuracy.top1 or o.cost.of(cost) < c.cost.of(cost)) for o in fitting)
    return [replace(c, front=not c.cost.misfit and not beaten(c)) for c in candidates]


class Searcher:
    """Evaluates candidates once each (a plan's precisions name it), remembering every one; with `client` (a
    Dask cluster's), as tasks there."""

    def __init__(self, model: FloatModel, calibration: dict, base: Plan, board: Board, samples, labels, work: Path,
                 check_samples, builds: Builds, client=None):
        self.model, self.calibration, self.base, self.board = model, calibration, base, board
        self.builds = builds
        self.samples, self.labels, self.work, self.check_samples = samples, labels, work, check_samples
        self.done: dict[tuple[str, ...], Candidate] = {}
        # the float model's predictions each candidate is measured against: here, or on the cluster's workers
        self.engine, self.reference = None, None
        if client is not None:
            from mcugen.quantize.engine import Engine

            self.engine = Engine(client, self)
        else:
            self.reference = output_predictions(model.graph, samples)

    def plan_of(self, precisions: tuple[str, ...]) -> Plan:
        """The quantizer's plan: each layer with weights at its precision, and each layer without (reshapes,
        pools, softmax) at its producer's activations, so that a 16x8 or float32 stretch is not cut to int8."""
        if len(set(precisions)) == 1:
            return replace(self.base, default=precisions[0])
        chosen = dict(zip(self.model.weighted, precisions))
        plan, flowing = self.base, self.base.default
        for layer in self.model.layers:
            if layer in chosen:
                plan = plan.with_layer(layer, chosen[layer])
                flowing = "float32" if chosen[layer] in FLOAT_PRECISIONS else \
                    chosen[layer] if chosen[layer] == "16x8" else self.base.default
            elif flowing != self.base.default:
                plan = plan.with_layer(layer, flowing)
        return plan

    @staticmethod
    def key_of(precisions: tuple[str, ...] | None) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
        """(the candidate's name in `done`, its precisions: None for the float model, all float32 included)."""
        if precisions is not None and set(precisions) == {"float32"}:
            precisions = None
        return precisions or ("float model",), precisions

    def prefetch(self, wanted: list[tuple[str, ...] | None]) -> None:
        """On a cluster, these candidates' tasks sent at once (evaluate then waits for each one's)."""
        if self.engine is not None:
            for precisions in wanted:
                key, precisions = self.key_of(precisions)
                if key not in self.done:
                    self.engine.submit(key, None if precisions is None else self.plan_of(precisions))

    def evaluate(self, name: str, precisions: tuple[str, ...] | None) -> Candidate:
        """precisions None (or all float32): the float model."""
        key, precisions = self.key_of(precisions)
        if precisions is None:
            name = "float model"
        if key in self.done:
            return self.done[key]
        say(f"  candidate {len(self.done) + 1}: {name}")
        plan = None if precisions is None else self.plan_of(precisions)
        if self.engine is not None:
            content, acc, cost = self.engine.result(key, plan)
        else:
            content, graph = checked_candidate(self.model, self.calibration, plan, self.check_samples,
                                               self.board.fp16_arithmetic)
            assert self.reference is not None
            acc = tally(graph, self.samples, self.reference, self.labels).accuracy(self.against)
            with tempfile.TemporaryDirectory(prefix="mcugen-candidate-", dir=self.work) as work:
                cost = measure_cost(content, self.board, Path(work), self.samples[0], self.builds)
        found = Candidate(name, precisions or ("float32",) * len(self.model.weighted), acc, cost, content,
                          plan=plan or FLOAT_PLAN)
        self.done[key] = found
        say(f"    top-1 {100 * acc.top1:.1f}%, {cost.time:,} {cost.unit}, {cost.flash:,} B flash, {cost.ram:,} B RAM"
            + (f"; does not fit: {cost.misfit}" if cost.misfit else ""))
        return found

    @property
    def against(self) -> str:
        return "labels" if self.labels is not None else "float model"


def search(model: FloatModel, calibration: dict, base: Plan, board: Board, samples, labels, max_drop: float,
           cost: str, work: Path, check_samples, builds: Builds = Builds(), client=None) -> Search:
    """`client`: a Dask cluster's, to evaluate candidates on (None: here, one at a time)."""
    s = Searcher(model, calibration, base, board, samples, labels, work, check_samples, builds_for(cost, builds),
                 client)
    layers = model.weighted
    if not layers:
        raise McugenError("the model has no layer with weights to choose a precision for",
                          "quantize it without --search")
    every = lambda precision: tuple(precision for _ in layers)  # noqa: E731
    int4 = [layer for layer in layers if _takes_int4(layer, base)]
    half = [layer for layer in layers if layer.opcode in HALF_OPS]
    s.prefetch([None, every("int8"), every("16x8")] + ([_with(every("int8"), layers, int4, "w4a8")] if int4 else [])
               + ([_with(every("float32"), layers, half, "fp16")] if half else []))
    float_model = s.evaluate("float model", None)
    int8 = s.evaluate("all int8", every("int8"))
    wide = s.evaluate("all 16x8", every("16x8"))
    if half:
        s.evaluate("fp16 where layers take it", _with(every("float32"), layers, half, "fp16"))
    if int4:
        s.evaluate("INT4 weights where layers take them", _with(int8.precisions, layers, int4, "w4a8"))
    target = float_model.accuracy.top1 - max_drop / 100
    if int8.accuracy.top1 >= target:
        why = f"all-int8 is within {max_drop:g} points of the float model"
        if cost == "flash":  # INT4 weights halve a layer's flash: try them, the layers that lose least first
            _downgrade(s, int8, layers, int4, target)
    else:
        why = f"all-int8 loses {100 * (float_model.accuracy.top1 - int8.accuracy.top1):.1f} points: layers widened " \
              "in order of accuracy gained per cost"
        current = _widen(s, int8, layers, "16x8", target, cost)
        if current.accuracy.top1 < target:
            current = wide if wide.accuracy.top1 > current.accuracy.top1 else current
            if half:
                current = _widen(s, current, layers, "fp16", target, cost, among=half)
            if current.accuracy.top1 < target:
                _widen(s, current, layers, "float32", target, cost)
    candidates = pareto(list(s.done.values()), cost)
    within = [c for c in candidates if c.accuracy.top1 >= target and not c.cost.misfit]
    chosen = min(within, key=lambda c: (c.cost.of(cost), -c.accuracy.top1)) if within else None
    if chosen is not None:
        why += f"; {chosen.name} is the cheapest candidate within the drop ({cost})"
    return Search(tuple(candidates), chosen, target, cost, why)


def _takes_int4(layer: Layer, plan: Plan) -> bool:
    from mcugen.quantize.recipe import takes_int4

    return takes_int4(layer, plan)


def _with(precisions: tuple[str, ...], layers: tuple[Layer, ...], chosen: list[Layer], precision: str
          ) -> tuple[str, ...]:
    return tuple(precision if layer in chosen else p for layer, p in zip(layers, precisions))


def _widen(s: Searcher, start: Candidate, layers: tuple[Layer, ...], precision: str, target: float,
           cost: str, among: list[Layer] | None = None) -> Candidate:
    """Layers (of `among`, else all) to `precision` one more at a time, the best accuracy per cost first."""
    alone_each = [layer for layer in among or layers if dict(zip(layers, start.precisions))[layer] != precision]
    s.prefetch([_with(start.precisions, layers, [layer], precision) for layer in alone_each])
    gains = []
    for layer in alone_each:
        alone = s.evaluate(f"{_name(layer)} at {precision}", _with(start.precisions, layers, [layer], precision))
        added = max(alone.cost.of(cost) - start.cost.of(cost), 1)
        gains.append(((alone.accuracy.top1 - start.accuracy.top1) / added, layer))
    current, chosen = start, []
    for gain, layer in sorted(gains, key=lambda g: -g[0]):
        if current.accuracy.top1 >= target:
            break
        chosen.append(layer)
        names = ", ".join(_name(c) for c in chosen)
        current = s.evaluate(f"{names} at {precision}", _with(start.precisions, layers, chosen, precision))
    return current


def _downgrade(s: Searcher, start: Candidate, layers: tuple[Layer, ...], int4: list[Layer], target: float) -> None:
    s.prefetch([_with(start.precisions, layers, [layer], "w4a8") for layer in int4])
    losses = []
    for layer in int4:
        alone = s.evaluate(f"{_name(layer)} with INT4 weights", _with(start.precisions, layers, [layer], "w4a8"))
        losses.append((start.accuracy.top1 - alone.accuracy.top1, layer))
    chosen: list[Layer] = []
    for _, layer in sorted(losses, key=lambda x: x[0]):
        trial = s.evaluate(", ".join(_name(c) for c in [*chosen, layer]) + " with INT4 weights",
                           _with(start.precisions, layers, [*chosen, layer], "w4a8"))
        if trial.accuracy.top1 < target:
            break
        chosen.append(layer)


def _name(layer: Layer) -> str:
    return f"{layer.opcode.lower()} {layer.index}"


def format_search(result: Search, layers: tuple[Layer, ...]) -> str:
    unit = result.candidates[0].cost.unit
    header = (f"{'candidate':<44} {'top-1':>7} {'SNR':>8} {unit:>13} {'flash B':>9} {'RAM B':>8}  front  "
              + " ".join(_name(layer) for layer in layers))
    lines = [header]
    for c in sorted(result.candidates, key=lambda c: c.cost.of(result.cost)):
        mark = "*" if result.chosen is not None and c.name == result.chosen.name else " "
        snr = "exact" if c.accuracy.snr_db == math.inf else f"{c.accuracy.snr_db:.1f}"
        front = "no fit" if c.cost.misfit else "yes" if c.front else ""
        lines.append(f"{mark}{c.name[:43]:<43} {100 * c.accuracy.top1:6.1f}% {snr:>8} {c.cost.time:>13,} "
                     f"{c.cost.flash:>9,} {c.cost.ram:>8,}  {front:<6} " + " ".join(c.precisions))
    against = result.candidates[0].accuracy.against
    lines.append(f"top-1 against the {against}; the choice (*) had to reach {100 * result.target:.1f}%: {result.why}")
    return "\n".join(lines)


def front_picture(result: Search) -> bytes:
    """A PNG of every candidate's accuracy against its cost, the front joined, the choice ringed."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    unit = {"time": result.candidates[0].cost.unit, "flash": "flash bytes", "ram": "RAM bytes"}[result.cost]
    xs = [c.cost.of(result.cost) for c in result.candidates]
    ys = [100 * c.accuracy.top1 for c in result.candidates]
    ax.scatter(xs, ys, color="0.6", label="candidates")
    front = sorted((c for c in result.candidates if c.front), key=lambda c: c.cost.of(result.cost))
    ax.plot([c.cost.of(result.cost) for c in front], [100 * c.accuracy.top1 for c in front], "-o", color="tab:blue",
            label="Pareto front")
    for c in result.candidates:
        if c.name in ("float model", "all int8", "all 16x8"):
            ax.annotate(c.name, (c.cost.of(result.cost), 100 * c.accuracy.top1), textcoords="offset points",
                        xytext=(6, -12), fontsize=9)
    if result.chosen is not None:
        ax.scatter([result.chosen.cost.of(result.cost)], [100 * result.chosen.accuracy.top1], s=160,
                   facecolors="none", edgecolors="tab:red", linewidths=2, label=f"chosen: {result.chosen.name}")
    ax.axhline(100 * result.target, color="tab:red", linestyle=":", label=f"needed: {100 * result.target:.1f}%")
    ax.set_xlabel(unit)
    ax.set_ylabel(f"top-1 (%) against the {result.candidates[0].accuracy.against}")
    ax.set_title("per-layer precision: accuracy against cost")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png")
    plt.close(fig)
    return png.getvalue()
