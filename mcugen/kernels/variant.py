"""A kernel variant as one row of its opcode's table, and the conditions the rows are written with."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mcugen import ops
from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call
from mcugen.runtime import FEATURES

Build = Callable[[Graph, Op], Call]


@dataclass(frozen=True)
class When:
    """A condition on a layer (its types, its geometry), combined with & and named for the table's reader."""

    test: Callable[[Graph, Op], bool]
    name: str

    def __call__(self, g: Graph, op: Op) -> bool:
        return self.test(g, op)

    def __and__(self, other: When) -> When:
        return When(lambda g, op: self.test(g, op) and other.test(g, op), f"{self.name} & {other.name}")

    def __invert__(self) -> When:
        return When(lambda g, op: not self.test(g, op), f"~{self.name}")

    def __repr__(self) -> str:
        return self.name


def when(test: Callable[[Graph, Op], bool]) -> When:
    """A named condition: the function's name."""
    return When(test, test.__name__)


@dataclass(frozen=True)
class Variant:
    """`kernel` (the C function, runtime_c/<needs>/<kernel>.c) for the layers `takes` holds for (their types,
    geometry, and where it matters their values: sums that fit int32, pruned channels), its call made by
    `build`. `widens`: its constants outgrow the next row's (int8 weights widened to int16)."""

    kernel: str
    needs: str  # one of FEATURES
    takes: When
    build: Build
    widens: bool = False

    def __post_init__(self) -> None:
        if self.needs not in FEATURES:
            raise ValueError(f"variant {self.kernel} needs {self.needs!r}, not one of {FEATURES}")


@when
def always(g: Graph, op: Op) -> bool:
    return True


@when
def int8(g: Graph, op: Op) -> bool:
    """int8 activations (the first input's)."""
    return op.input(g, 0).dtype == "int8"


@when
def int16(g: Graph, op: Op) -> bool:
    """int16 activations (the first input's)."""
    return op.input(g, 0).dtype == "int16"


@when
def int4_weights(g: Graph, op: Op) -> bool:
    return ops.int4_filter(g, op)


def sums_fit(taps: Callable[[Graph, Op], int], largest_product: int) -> When:
    """Every sum of `taps(g, op)` products, each at most `largest_product` in magnitude, fits int32."""
    return When(lambda g, op: taps(g, op) * largest_product < 2 ** 31, f"sums_fit({taps.__name__})")
