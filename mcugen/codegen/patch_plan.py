"""Which stage of a model runs in patches (passes/split_patches.py), and in how many: none where the
whole-tensor arena fits Budget.arena_room (or --patches off), else the stage and band count of the fewest MACs
whose arena fits (recomputed rows cost MACs, counted without building: banded_macs), in bands of whole rows
or, where none fits or for fewer MACs, a square grid of patches. Candidates are compiled and planned as the
build would be, the cheapest first, at most TRIES of them for bands and as many for grids. --patches N: N bands, RxC: R bands of C patches,
at the cheapest stage end that fits (with no room to fit, the one of the smallest arena). A cut that does not
fit evenly is tried with its first patch a row and a column short (Stage.lead)."""
from __future__ import annotations

import dataclasses
import math
import sys
from typing import Callable

from mcugen import ops
from mcugen.errors import McugenError
from mcugen.ir.budget import Budget
from mcugen.ir.graph import Compiled, Graph
from mcugen.ir.lowering import layers_const_bytes
from mcugen.ir.planner import state_layout
from mcugen.passes.split_patches import Stage, band_rows, needed_spans, split_patches, stage_ends, stage_start

BANDS = (2, 3, 4, 6, 8, 12, 16)
GRIDS = (2, 3, 4, 6, 8)  # patches of a square grid, where no bands fit
TRIES = 16  # candidates compiled at most (a MobileNetV2-224's take 1-7 s each, more patches longer)


def arena_bytes(g: Compiled) -> int:
    """What the fit check (targets/firmware.py check_fit) holds against the board's RAM beside the stack and the
    harness: the arena (its main region's part) and the variables."""
    return g.arena.plan.size + state_layout(g.variables)[1]


def macs(g: Graph) -> int:
    return sum(ops.get(g, op).macs(g, op) for op in g.ops)


def choose_stage(graph: Graph, whole: Compiled | None, budget: Budget, back_end: Callable[[Graph], Compiled],
                 tried: dict[Stage, int | None] | None = None) -> Stage | None:
    """The stage to run in patches, or None. `whole`: the graph compiled as it is (None: it did not plan);
    `tried`: filled with each candidate compiled and its arena."""
    if budget.patches == "off":
        return None
    forced = grid(budget.patches)
    room = budget.arena_room
    if forced is None and (room is None or (whole is not None and arena_bytes(whole) <= room)):
        return None
    search = _Search(graph, back_end, room, {} if tried is None else tried)
    ends = [end for end in stage_ends(graph) if room is None or _at_least(graph, end, budget.external_inputs) <= room]
    if forced is not None:
        return _forced(graph, search, ends, *forced)
    # bands of whole rows first (a band's output rows are written in place: no copies); then patches of a square
    # grid at the ends whose bands came closest, where none fits or for fewer MACs than the bands found
    best = _cheapest(graph, search, ends, [(b, 1) for b in BANDS])
    search.limit = len(search.sizes) + TRIES
    closest = sorted((size, stage.end) for stage, size in search.sizes.items() if size is not None)
    patches = _cheapest(graph, search, list(dict.fromkeys(end for _, end in closest)), [(n, n) for n in GRIDS],
                        first=True, bound=None if best is None else banded_macs(graph, best))
    return patches if patches is not None else best


def grid(patches: str) -> tuple[int, int] | None:
    """--patches N (bands) or RxC (bands of columns) as (bands, columns); None for auto or off."""
    rows, _, columns = patches.partition("x")
    return (int(rows), int(columns or 1)) if rows.isdigit() else None


def _forced(graph: Graph, search: _Search, ends: list[int], bands: int, columns: int) -> Stage | None:
    """--patches: the cheapest end that fits in that grid (with no room to fit, the one of the smallest arena)."""
    tall = [end for end in stage_ends(graph) if _fits_grid(graph, end, bands, columns)]
    if not tall:
        tallest = max((_height(graph, end) for end in stage_ends(graph)), default=0)
        raise McugenError(f"--patches {bands}" + (f"x{columns}" if columns > 1 else "") + ": no leading layers of the model make "
                          f"{bands} rows" + (f" and {columns} columns" if columns > 1 else "") + " to cut "
                          + (f"(the most rows: {tallest})" if tallest else "(none of its first layers is an integer "
                             "conv, depthwise, pool or element-wise op on a batch-1 image)"),
                          "use --patches auto, or fewer patches")
    sized = [(search.arena(Stage(end, bands, columns)), end) for end in ends if end in tall]
    if search.room is None:  # nothing to fit: the smallest arena
        return min(((size, Stage(end, bands, columns)) for size, end in sized if size is not None),
                   default=(0, None))[1]
    fitting = sorted((banded_macs(graph, Stage(end, bands, columns)), end) for size, end in sized
                     if size is not None and size <= search.room)
    return Stage(fitting[0][1], bands, columns) if fitting else None


def _cheapest(graph: Graph, search: _Search, ends: list[int], shapes: list[tuple[int, int]],
              first: bool = False, bound: int | None = None) -> Stage | None:
    """The fewest MACs that fit among `shapes` (bands, columns: the arena falls along the list) at `ends`, the
    cheapest end first (at the first shape): an end whose floor (its last shape) fits gets the first shape that
    fits; an end costing more at the first shape than the best found (or `bound`) is passed. `first`: the first
    end found."""
    best: tuple[int, Stage] | None = None
    for end in sorted(ends, key=lambda e: banded_macs(graph, Stage(e, *shapes[0]))):
        fit = [Stage(end, *shape) for shape in shapes if _fits_grid(graph, end, *shape)
               if bound is None or banded_macs(graph, Stage(end, *shape)) < bound]
        if not fit or (best is not None and banded_macs(graph, fit[0]) >= best[0]):
            continue
        if not search.fits(fit[-1]):
            continue
        low, high = 0, len(fit) - 1  # fit[high] fits
        while low < high:
            mid = (low + high) // 2
            low, high = (low, mid) if search.fits(fit[mid]) else (mid + 1, high)
        chosen = search.fitted.get(fit[high], fit[high])
        cost = banded_macs(graph, chosen)
        if best is None or cost < best[0]:
            best = (cost, chosen)
        if first:
            break
    return best[1] if best is not None else None


def _fits_grid(graph: Graph, end: int, bands: int, columns: int) -> bool:
    height, width = graph.tensors[graph.ops[end].outputs[0]].shape[1:3]
    return bands <= height and columns <= width


def _height(graph: Graph, end: int) -> int:
    return graph.tensors[graph.ops[end].outputs[0]].shape[1]


class _Search:
    """Candidates compiled and planned as the build would, each once, at most TRIES of them."""

    def __init__(self, graph: Graph, back_end: Callable[[Graph], Compiled], room: int | None,
                 sizes: dict[Stage, int | None]):
        self.graph, self.back_end, self.room, self.sizes = graph, back_end, room, sizes
        self.limit = TRIES
        self.fitted: dict[Stage, Stage] = {}  # an even cut that did not fit -> its variant with a first one short

    def arena(self, stage: Stage) -> int | None:
        if stage not in self.sizes:
            if len(self.sizes) >= self.limit:
                return None
            print(f"patch-based inference: trying the layers to {stage.end} in {stage.describe()}",
                  file=sys.stderr, flush=True)
            try:
                self.sizes[stage] = arena_bytes(self.back_end(split_patches(self.graph, stage)))
            except McugenError:  # its activations fit none of the board's RAM regions
                self.sizes[stage] = None
        return self.sizes[stage]

    def fits(self, stage: Stage) -> bool:
        """Whether the stage fits the room, cut evenly or else with its first patch short (Stage.lead)."""
        for variant in (stage, stage._replace(lead=1)) if stage.bands * stage.columns > 1 else (stage,):
            size = self.arena(variant)
            if size is not None and (self.room is None or size <= self.room):
                self.fitted[stage] = variant
                return True
        return False


def banded_macs(graph: Graph, stage: Stage) -> int:
    """The MACs of the graph with `stage` in patches: each stage layer's in proportion to the output rows and
    columns its patches compute together (their overlap recomputed), the rest as they are."""
    layers = list(graph.ops[stage_start(graph):stage.end + 1])
    height, width = graph.tensors[layers[-1].outputs[0]].shape[1:3]
    computed = {op.index: 1 for op in layers}  # rows times columns its patches compute
    for axis, (size, parts) in enumerate(((height, stage.bands), (width, stage.columns))):
        spans = [needed_spans(graph, layers, span, axis) for span in band_rows(size, parts, stage.lead)]
        for op in layers:
            computed[op.index] *= sum(need[op.outputs[0]][1] - need[op.outputs[0]][0] for need in spans)
    return sum(ops.get(graph, op).macs(graph, op) * computed[op.index] // math.prod(op.output(graph).shape[1:3])
               if op.index in computed else ops.get(graph, op).macs(graph, op) for op in graph.ops)


def _at_least(graph: Graph, end: int, external_inputs: bool) -> int:
    """A lower bound of the arena with the stage ending at op `end` in bands: the stage's input (not where the
    caller keeps a graph input: --external-input), and its output, which may lie over the input's bytes
    (passes/plan_memory.py) but never in fewer."""
    source = next(t for t in graph.ops[stage_start(graph)].inputs if t >= 0 and not graph.tensors[t].is_const)
    held = 0 if external_inputs and source in graph.inputs else graph.tensors[source].nbytes
    return max(held, graph.tensors[graph.ops[end].outputs[0]].nbytes)


def fit_hint(graph: Graph, whole: Compiled | None, budget: Budget, back_end: Callable[[Graph], Compiled],
             tried: dict[Stage, int | None]) -> str:
    """What the fit check may add where the arena does not fit Budget.arena_room: what bands would give
    (--patches off), or the smallest arena the bands tried reached."""
    if budget.patches == "off":
        stage = choose_stage(graph, whole, dataclasses.replace(budget, patches="auto"), back_end, tried)
        if stage is None:
            return ""
        return (f"patch-based inference would make it fit: {stage.describe()} to layer {stage.end}, arena "
                f"{tried[stage]:,} B, {banded_macs(graph, stage) / macs(graph) - 1:+.1%} MACs (drop --patches off)")
    sized = [(size, stage) for stage, size in tried.items() if size is not None]
    if not sized:
        return ""
    size, stage = min(sized)
    return f"in patches it still needs {size:,} B at least ({stage.describe()} to layer {stage.end})"


def settle_fit(graph: Graph, whole: Compiled | None, compiled: Compiled, budget: Budget,
               back_end: Callable[[Graph], Compiled], tried: dict[Stage, int | None]) -> Compiled:
    """The compiled model with what its bands did (the whole-tensor arena beside theirs) or, where its arena
    does not fit the room, what bands would (Compiled.fit_hint); refused past --max-arena."""
    if compiled.banded is not None:
        whole_arena = arena_bytes(whole) if whole is not None else None
        consts = sum(layers_const_bytes(whole)) if whole is not None else None
        compiled = dataclasses.replace(compiled, banded=dataclasses.replace(compiled.banded, whole_arena=whole_arena,
                                                                            whole_const_bytes=consts))
    if budget.arena_room is not None and arena_bytes(compiled) > budget.arena_room:
        compiled = dataclasses.replace(compiled, fit_hint=fit_hint(graph, whole, budget, back_end, tried))
    if budget.max_arena is not None and arena_bytes(compiled) > budget.max_arena:
        how = "with patch-based inference off" if budget.patches == "off" else "even run in bands"
        raise McugenError(f"the model's arena needs {arena_bytes(compiled):,} B, more than --max-arena "
                          f"{budget.max_arena:,} B ({how})", compiled.fit_hint or "raise --max-arena, or choose a "
                          "smaller model")
    return compiled
