"""What the passes learn of an op or a graph, apart from the file's contents: compiler facts the IR carries."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Alias:
    """A tensor that is bytes of another's buffer (passes/place_views.py): `tensor` lies in `whole` from byte
    `offset` on, so the op that makes it writes (or the view reads) them there and no copy runs."""

    tensor: int
    whole: int
    offset: int


@dataclass(frozen=True)
class Banding:
    """What patch-based inference did (passes/split_patches.py): the file's layers `first` to `last` run in
    `bands` bands of `columns` patches; the whole-tensor plan's arena (None: it fitted no RAM) and MACs beside."""

    first: int
    last: int
    bands: int
    whole_macs: int
    whole_arena: int | None = None
    whole_const_bytes: int | None = None  # the whole-tensor plan's constants (the flash the bands' calls add to)
    # each stage layer's file index and opcode, its output's height, and the rows each band computes of it
    # (overlapping where bands recompute what their neighbours' windows share)
    rows: tuple[tuple[int, str, int, tuple[tuple[int, int], ...]], ...] = ()
    columns: int = 1  # each band cut into that many patches of its columns
    # as `rows`, the columns of each layer's output each patch of a band computes (empty: bands of whole rows)
    cols: tuple[tuple[int, str, int, tuple[tuple[int, int], ...]], ...] = ()
    # the stage's input and output tensors: the planner may write the output over the input behind the
    # patches' reads (passes/plan_memory.py)
    source: int = -1
    output: int = -1


@dataclass(frozen=True)
class Facts:
    """What the passes learned of an op, apart from the file's options (Op.options)."""

    # input position (OWN_STATE: the kernel's own state) -> its Graph.variables index (resolve_variables)
    state: dict[int, int] = field(default_factory=dict)
    variable: int | None = None  # READ_VARIABLE's or ASSIGN_VARIABLE's Graph.variables index (resolve_variables)
    groups: int | None = None  # a grouped conv run as the plain one it equals: the file's group count (expand_groups)
    # a window over the unpadded input padded [[top, bottom], [left, right]] (fold_pads, split_patches)
    folded_pad: tuple[tuple[int, int], tuple[int, int]] | None = None
    clamp: tuple[int, int] | None = None  # a folded QUANTIZE's output range, its zero point's (fold_quantizes)
