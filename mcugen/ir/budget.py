"""What a model may take on its board, as the board's file gives it (targets/boards.py Board.budget works
it out): data below the IR, so that the pipeline's passes read a board's limits without knowing boards."""
from __future__ import annotations

from dataclasses import dataclass

from mcugen.ir.planner import Region

RAM = "RAM"  # the board's RAM region, where --weights ram copies weight arrays at start-up
READ_BYTES = 8  # a flash line where the board has no data cache: one 64-bit flash read


@dataclass(frozen=True)
class FlashReads:
    """What reading constants from the board's flash costs (its file's memory_timing): the cycles a read of a
    line no cache holds waits, the line's bytes, and the bytes the data cache holds (0: none)."""

    wait_states: int = 0
    line_bytes: int = READ_BYTES
    cached_bytes: int = 0


@dataclass(frozen=True)
class Budget:
    """The defaults are a host build's: no limit, one arena, every constant in the one flash."""

    const_room: int | None = None  # flash for every constant, external included (lower_ops narrows filters past it)
    internal_room: int | None = None  # the chip's own flash for constants (place_weights moves weights out past it)
    weights_region: str = ""  # the external flash region weights may go to, or RAM ("": none)
    weights: str = "auto"  # --weights: auto (out only what does not fit, least read first), internal, external, ram
    regions: tuple[Region, ...] | None = None  # the RAM regions the arena may use (None: one arena)
    pins: tuple[tuple[str, str], ...] = ()  # (tensor name, region name) pairs the arena's placement keeps
    ram_room: int | None = None  # RAM for the arena's main part, the variables and --weights ram's arrays
    # --optimize: what the kernels may spend flash on (passes/lower_ops.py): speed (widened weights wherever
    # const_room has room), size (none widened), balanced (widened only within OPTIMIZE_ROOM of the weights)
    optimize: str = "balanced"
    # RAM the arena's main part and the variables may take (the board's less stack and harness, or --max-arena):
    # where the whole-tensor plan needs more, the model's first stage runs in bands (passes/split_patches.py)
    arena_room: int | None = None
    patches: str = "auto"  # --patches: auto (bands only where the arena does not fit), off, or a number of bands
    max_arena: int | None = None  # --max-arena: a limit the arena may not pass (arena_room is at most it)
    flash: FlashReads = FlashReads()  # what a data read from the board's flash costs (passes/stage_weights.py)
    # --external-input: the model reads its inputs where the caller keeps them (NAME_set_input), not in the arena
    external_inputs: bool = False


OPTIMIZE = ("balanced", "speed", "size")
# balanced's room for constants: this much of the model's weights, and per output channel its requantization
# (TFLM keeps a multiplier and a shift, 8 B)
OPTIMIZE_ROOM, ROOM_PER_CHANNEL = 1.1, 8
