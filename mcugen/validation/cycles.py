"""Estimated cycles of one inference on a Cortex-M core, from the exact instruction stream.

QEMU counts instructions exactly but has no notion of time, and an instruction costs from nothing
(dual-issued, overlapped) to 14 cycles: a kernel is judged by cycles. So the firmware runs once more
under QEMU, one instruction per translation block with every executed block logged (`-singlestep -d
exec,nochain`, into a pipe): the log is the address of every instruction executed, in order. Each
address is decoded once (mcugen/validation/disassembly.py) and described by the core's model
(mcugen/validation/core_models/<core>.py, named after the core; its docstring states the timing and
every assumption); the model costs each executed instruction given the two before it and whether it
jumped, vectorised over the stream. The costs are summed per layer between the calls to
`model_layer_done` and over the window from `model_invoke`'s entry to its return.

Every model assumes zero wait states (no flash or bus delay), the MLPerf Tiny anchors' own
assumption on the M4; a jump that no instruction made is an exception entry.
"""
from __future__ import annotations

import importlib
import re
from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from mcugen.errors import McugenError
from mcugen.targets.boards import Core, MemoryTiming, Timing
from mcugen.targets.qemu import Trace
from mcugen.validation.disassembly import Decoded, disassemble
from mcugen.validation.memory import DataStalls, FetchStalls
from mcugen.validation.traced_run import hex_words, traced_run

INVOKE, LAYER_DONE = "model_invoke", "model_layer_done"

# One line of QEMU's exec log: "Trace 0: 0x7f.. [cs_base/pc/flags/cflags] symbol"
_PC = re.compile(rb"\[[0-9a-f]{8}/([0-9a-f]{8})/")


@cache
def core_model(core: Core) -> ModuleType:
    """The core's cycle model, mcugen/validation/core_models/<core id with underscores>.py; on a core
    without a timing table, every instruction costs one (the estimate counts instructions)."""
    name = core.id.replace("-", "_") if core.timing is not None else "instruction_count"
    return importlib.import_module(f"mcugen.validation.core_models.{name}")


class Program:
    """The firmware ELF: its instructions, function symbols and the invoke window's addresses."""

    def __init__(self, elf: Path, arch: str):
        from elftools.elf.elffile import ELFFile
        from elftools.elf.sections import SymbolTableSection

        with open(elf, "rb") as f:
            symbols = ELFFile(f).get_section_by_name(".symtab")
            functions = sorted((s["st_value"] & ~1, s.name) for s in symbols.iter_symbols()
                               if s["st_info"]["type"] == "STT_FUNC" and s["st_size"]) \
                if isinstance(symbols, SymbolTableSection) else []
        self.starts = [a for a, _ in functions]
        self.names = [n for _, n in functions]
        named = dict((n, a) for a, n in functions)
        if INVOKE not in named or LAYER_DONE not in named:
            raise McugenError(f"internal error: {elf} has no {INVOKE} or {LAYER_DONE} to time",
                              "build with mcugen's harness (it profiles each layer)")
        self.entry, self.layer_done = named[INVOKE], named[LAYER_DONE]
        self.instructions = disassemble(elf, arch)
        calls = [i.address + i.size for i in self.instructions.values()
                 if i.operation == "bl" and i.target == self.entry]
        if len(calls) != 1:
            raise McugenError(f"internal error: {len(calls)} calls to {INVOKE} in {elf}, expected one",
                              "report this with the build directory")
        self.back = calls[0]

    def decode(self, address: int) -> Decoded:
        if address not in self.instructions:
            raise McugenError(f"internal error: QEMU ran code at 0x{address:08x}, where the ELF has no instruction",
                              "report this with the build directory")
        return self.instructions[address]

    def function_of(self, address: int) -> str:
        k = bisect_right(self.starts, address) - 1
        return self.names[k] if k >= 0 else f"0x{address:08x}"


@dataclass
class Estimate:
    """One inference: instructions and estimated cycles per layer (the op's index) and in all."""

    timing: Timing | None  # None: the core has no timing table, and the "cycles" are instructions
    layers: list[int]
    layer_instructions: list[int]
    functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (instructions, cycles)
    memory: MemoryTiming | None = None  # the board's, when its flash wait states were added
    memory_stalls: list[int] | None = None  # per layer, what they add to `layers`

    @property
    def cycles(self) -> int:
        return sum(self.layers)

    @property
    def instructions(self) -> int:
        return sum(self.layer_instructions)

    @property
    def layers_with_memory(self) -> list[int]:
        """Per layer, the cycles with the board's flash wait states added (without them if not asked for)."""
        return [c + s for c, s in zip(self.layers, self.memory_stalls or [0] * len(self.layers))]

    def as_json(self) -> dict:
        top = sorted(self.functions.items(), key=lambda kv: -kv[1][1])
        return {"timing": asdict(self.timing) if self.timing else None, "cycles": self.cycles,
                "instructions": self.instructions,
                "cpi": round(self.cycles / max(self.instructions, 1), 3),
                "layer_cycles": self.layers, "layer_instructions": self.layer_instructions,
                "functions": [{"name": n, "instructions": i, "cycles": c} for n, (i, c) in top],
                **({"memory": {"timing": asdict(self.memory), "stall_cycles": self.memory_stalls,
                               "cycles": self.cycles + sum(self.memory_stalls)}}
                   if self.memory is not None and self.memory_stalls is not None else {})}


class Counter:
    """Folds the exec log of one inference into an Estimate, chunk by chunk (the log of a big model
    is gigabytes: nothing is kept but per-instruction counts)."""

    def __init__(self, program: Program, core: Core, layers: int, fetches: FetchStalls | None = None):
        self.program, self.timing, self.layers = program, core.timing, layers
        self.fetches = fetches  # what instruction fetches from flash wait, when the board's memory timing is asked for
        self.model = core_model(core)
        self.table: dict[int, int] = {}  # address -> row of self.described
        self.described: list[tuple[int, ...]] = []
        self.columns: dict[str, np.ndarray] = {}
        self.state = "before"  # -> "inside" -> "after"
        # an instruction is costed knowing the two before it (pipelining, overlap, pairing) and the one
        # after it (taken or not): the last one seen waits for the next chunk
        self.pending = np.zeros(0, dtype=np.uint32)
        self.history = np.array([-1, -1], dtype=np.int64)  # the rows of the two instructions before the pending one
        self.carried: dict = {}  # what the model carries from one chunk to the next
        self.layer = 0
        self.cycles = np.zeros(layers, dtype=np.int64)
        self.counts = np.zeros(layers, dtype=np.int64)
        self.row_cycles = np.zeros(0, dtype=np.int64)
        self.row_counts = np.zeros(0, dtype=np.int64)

    def _rows(self, pcs: np.ndarray) -> np.ndarray:
        new = [int(a) for a in np.unique(pcs) if int(a) not in self.table]
        for address in new:
            self.table[address] = len(self.described)
            self.described.append(tuple(int(v) for v in self.model.describe(self.program.decode(address),
                                                                             self.timing)))
        if new or not self.columns:
            table = np.array(self.described, dtype=np.int64).reshape(len(self.described), len(self.model.FIELDS))
            self.columns = {name: table[:, k] for k, name in enumerate(self.model.FIELDS)}
            self.columns["keys"] = np.array(sorted(self.table), dtype=np.int64)
            self.columns["rows"] = np.array([self.table[k] for k in self.columns["keys"]], dtype=np.int64)
            grow = len(self.described) - len(self.row_counts)
            self.row_cycles = np.concatenate([self.row_cycles, np.zeros(grow, dtype=np.int64)])
            self.row_counts = np.concatenate([self.row_counts, np.zeros(grow, dtype=np.int64)])
        return self.columns["rows"][np.searchsorted(self.columns["keys"], pcs)]

    def feed(self, pcs: np.ndarray) -> None:
        if self.state == "after" or not len(pcs):
            return
        if self.state == "before":
            start = np.flatnonzero(pcs == self.program.entry)
            if not len(start):
                return
            self.state, pcs = "inside", pcs[start[0]:]
        end = np.flatnonzero(pcs == self.program.back)
        if len(end):  # the return address ends the window; it is only the last one's successor
            self.state, pcs = "after", pcs[:end[0] + 1]
        stream = np.concatenate([self.pending, pcs])
        # QEMU logs a block before running it, and runs it again when it left at its start to serve an
        # interrupt check: the same address twice in a row (our code has no branch to itself) ran once
        stream = stream[np.concatenate([[True], stream[1:] != stream[:-1]])]
        if len(stream) < 2:
            self.pending = stream
            return
        rows = self._rows(stream)
        now = rows[:-1]
        earlier = np.concatenate([self.history, now])
        jumped = stream[1:].astype(np.int64) != stream[:-1].astype(np.int64) + self.columns["size"][now]
        cost = self.model.costs(self.columns, earlier[:-2], earlier[1:-1], now, jumped, self.timing, self.carried)
        # an entry to model_layer_done starts the next layer's count (the last layer keeps the tail)
        layer = np.minimum(self.layer + np.cumsum(stream[:-1] == self.program.layer_done), self.layers - 1)
        np.add.at(self.cycles, layer, cost)
        np.add.at(self.counts, layer, 1)
        np.add.at(self.row_cycles, now, cost)
        np.add.at(self.row_counts, now, 1)
        if self.fetches is not None:
            self.fetches.feed(stream[:-1], layer)
        self.layer = int(layer[-1])
        self.pending, self.history = stream[-1:], earlier[-2:]

    def estimate(self) -> Estimate:
        if self.state != "after":
            raise McugenError("the traced run ended before the inference returned",
                              "rerun; if it repeats, report it with the build directory")
        functions: dict[str, tuple[int, int]] = {}
        for address, row in self.table.items():
            name = self.program.function_of(address)
            i, c = functions.get(name, (0, 0))
            functions[name] = (i + int(self.row_counts[row]), c + int(self.row_cycles[row]))
        return Estimate(self.timing, [int(c) for c in self.cycles], [int(c) for c in self.counts],
                        {n: v for n, v in functions.items() if v[0]})


def read_exec_log(stream, counter: Counter, chunk: int = 1 << 22) -> None:
    """Feed the addresses in QEMU's exec log to the counter as they come (to the end of the stream)."""
    rest = b""
    while True:
        data = stream.read(chunk)
        if not data:
            break
        data, rest = rest + data, b""
        cut = data.rfind(b"\n") + 1
        data, rest = data[:cut], data[cut:]
        if counter.state == "after":
            continue  # drain: QEMU blocks on a full pipe
        found = _PC.findall(data)
        if found:
            counter.feed(hex_words(found))


def estimate_cycles(target, program: Path, g, inputs, core: Core, timeout: float = 3600.0,
                    memory: MemoryTiming | None = None) -> Estimate:
    """Run `inputs` once on the emulated `target` with QEMU's exec log and estimate each layer's cycles
    on `core`; with `memory`, once more for the data reads, and the flash wait states it adds
    (mcugen/validation/memory.py)."""
    flash = target.board.flash
    counter = Counter(Program(program, core.arch), core, len(g.ops),
                      FetchStalls(memory, flash, len(g.ops)) if memory else None)
    traced_run(target, program, g, inputs, Trace, lambda stream: read_exec_log(stream, counter), timeout)
    estimate = counter.estimate()
    if memory is not None and counter.fetches is not None:
        reads = DataStalls(counter.program, sorted(counter.table), memory, flash, len(g.ops))
        traced_run(target, program, g, inputs, lambda path: Trace(path, reads.registers_at),
                   reads.read, timeout)
        if reads.state != "after":
            raise McugenError("the run logging the data reads ended before the inference returned",
                              "rerun; if it repeats, report it with the build directory")
        estimate.memory = memory
        estimate.memory_stalls = [int(a + b) for a, b in zip(counter.fetches.stalls, reads.stalls)]
    return estimate
