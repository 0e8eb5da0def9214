"""Flash wait states in the cycle estimate: what the board's memory timing (its file's `memory_timing`) adds
to the zero-wait-state figure of mcugen/validation/cycles.py.

The estimate runs on an emulated board; its firmware's flash region stands for the board's flash (code,
and the constants mcugen places there), its RAM for the board's RAM. Instruction fetches and data reads
in flash go through the board's caches:
- instruction fetches, line by line from the exec log: a line the instruction cache does not hold waits
  `flash_wait_states` cycles, unless the board prefetches and it is the line after the last one fetched;
- data reads: a second run logs the core registers before each execution of the loads the first run
  executed (QEMU `-d cpu`, filtered to their addresses), from which each load's address and size
  follow (base and index registers, offset, pre- or post-indexing; LDM/POP, LDRD, VLDR/VLDM and Helium
  loads by their size; PC-relative literals); a line the data cache does not hold waits the wait states.
Assumptions: the caches are fully associative and replace the least recently used line; a miss waits
the wait states once for its line (the rest of the line streams in behind the word wanted); without a
cache, lines are 8 bytes (a 64-bit flash read) and every read of another line than the one just read
waits; the stalls add to the core's cycles (nothing overlaps them); RAM and stores have no wait states
(stores go to RAM through the write buffer); a Helium gather reads at its base only.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from mcugen.ir.budget import READ_BYTES
from mcugen.targets.boards import Cache, MemoryRegion, MemoryTiming
from mcugen.validation.disassembly import CORE, Decoded, register_names

# QEMU's -d cpu prints R00-R15 as four lines of four "Rnn=xxxxxxxx", 13 characters apart, 52 to a line
_FIELDS = np.array([52 * (r // 4) + 4 + 13 * (r % 4) for r in range(16)])[:, None] + np.arange(8)
_DIGIT = np.zeros(256, dtype=np.uint32)
_DIGIT[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16)


class Lines:
    """A cache of flash lines: which reads wait."""

    def __init__(self, cache: Cache | None):
        self.size = cache.line_bytes if cache else READ_BYTES
        self.capacity = cache.lines if cache else 0
        self.held: OrderedDict[int, None] = OrderedDict()

    def misses(self, line: int) -> bool:
        if line in self.held:
            self.held.move_to_end(line)
            return False
        if self.capacity:
            self.held[line] = None
            if len(self.held) > self.capacity:
                self.held.popitem(last=False)
        return True


class FetchStalls:
    """Instruction fetches from flash, chunk by chunk of the exec log: the cycles they wait, per layer."""

    def __init__(self, memory: MemoryTiming, flash: MemoryRegion, layers: int):
        self.memory, self.flash = memory, flash
        self.lines = Lines(memory.instruction_cache)
        self.last = -2
        self.stalls = np.zeros(layers, dtype=np.int64)

    def feed(self, pcs: np.ndarray, layers: np.ndarray) -> None:
        inside = (pcs >= self.flash.origin) & (pcs < self.flash.end)
        lines = pcs[inside].astype(np.int64) // self.lines.size
        layers = layers[inside]
        changed = np.concatenate([[True], lines[1:] != lines[:-1]]) if len(lines) else np.zeros(0, dtype=bool)
        wait, prefetch = self.memory.flash_wait_states, self.memory.prefetch
        for line, layer in zip(lines[changed].tolist(), layers[changed].tolist()):
            if line != self.last and self.lines.misses(line) and not (prefetch and line == self.last + 1):
                self.stalls[layer] += wait
            self.last = line


@dataclass(frozen=True)
class Access:
    """Where a load reads, from the registers before it runs: regs[base] (+ regs[index] << shift) + offset
    (post-indexed: regs[base]), `size` bytes; base -1: at `offset` (a PC-relative literal)."""

    base: int
    index: int
    shift: int
    offset: int
    size: int


_SIZES = {"ldr": 4, "ldrt": 4, "ldrex": 4, "ldrb": 1, "ldrsb": 1, "ldrbt": 1, "ldrsbt": 1, "ldrexb": 1,
          "ldrh": 2, "ldrsh": 2, "ldrht": 2, "ldrsht": 2, "ldrexh": 2, "ldrd": 8}
_HELIUM = re.compile(r"^vldr([bhwd])$")


def access(insn: Decoded) -> Access | None:
    """The read of a load (None: not a load, or one that reads no memory we can place)."""
    op = insn.operation
    if insn.kind != "load":
        return None
    if insn.listed:  # LDM, POP, VLDM, VPOP
        size = sum(8 if n.startswith("d") else 4 for n in register_names(insn.listed))
        base = CORE["sp"] if op in ("pop", "vpop") else CORE.get(insn.operands[0].rstrip("!"), -1)
        return Access(base, -1, 0, -size if op.endswith("db") else 0, size)
    if not insn.memory:
        return None
    parts = [p.strip() for p in insn.memory.rstrip("!").strip("[]").split(",")]
    post = insn.writes_back and not insn.memory.endswith("!")
    base = CORE.get(parts[0], -1)
    index, shift, offset = -1, 0, 0
    if not post:
        for part in parts[1:]:
            if part.startswith("#"):
                offset = int(part[1:], 0)
            elif part in CORE:
                index = CORE[part]
            elif part.startswith("lsl #"):
                shift = int(part[5:], 0)
    if op in _SIZES:
        size = _SIZES[op]
    elif op == "vldr":
        size = 8 if insn.operands[0].startswith("d") else 4
    elif m := _HELIUM.match(op):
        element = {"b": 1, "h": 2, "w": 4, "d": 8}[m[1]]
        lane = int(insn.data_type[1:] or 8 * element) // 8
        size = 16 * element // lane
    elif op.startswith(("vld2", "vld4")):
        size = 16
    else:
        return None
    if base == CORE["pc"]:  # a literal: the word-aligned PC after this instruction, plus the offset
        return Access(-1, -1, 0, ((insn.address + 4) & ~3) + offset, size)
    return Access(base, index, shift, offset, size)


def register_rows(data: bytes) -> np.ndarray:
    """The core registers of every whole entry of a QEMU `-d cpu` log: one row of 16 per entry."""
    text = np.frombuffer(data, dtype=np.uint8)
    if len(text) < 4:
        return np.zeros((0, 16), dtype=np.uint32)
    starts = np.flatnonzero((text[:-3] == ord("R")) & (text[1:-2] == ord("0")) & (text[2:-1] == ord("0"))
                            & (text[3:] == ord("=")))
    starts = starts[starts + _FIELDS.max() < len(text)]
    digits = _DIGIT[text[starts[:, None, None] + _FIELDS[None]]]
    return (digits << np.arange(28, -1, -4, dtype=np.uint32)).sum(axis=2, dtype=np.uint32)


class DataStalls:
    """Data reads from flash, from the registers QEMU logs before each executed load: the cycles they
    wait, per layer."""

    def __init__(self, program, executed: list[int], memory: MemoryTiming, flash: MemoryRegion, layers: int):
        self.program, self.memory, self.flash = program, memory, flash
        self.accesses = {a: x for a in executed if (x := access(program.decode(a))) is not None}
        self.registers_at = tuple(sorted({*self.accesses, program.entry, program.layer_done, program.back}))
        self._pcs = np.array(sorted(self.accesses), dtype=np.int64)
        self._columns = [np.array([getattr(self.accesses[a], f) for a in self._pcs.tolist()], dtype=np.int64)
                         for f in ("base", "index", "shift", "offset", "size")]
        self.lines = Lines(memory.data_cache)
        self.stalls = np.zeros(layers, dtype=np.int64)
        self.state, self.layer = "before", 0

    def read(self, stream: BinaryIO, chunk: int = 1 << 22) -> None:
        rest = b""
        while self.state != "after":
            data = stream.read(chunk)
            if not data:
                break
            data = rest + data
            cut = data.rfind(b"XPSR=")
            cut = data.find(b"\n", cut) + 1 if cut >= 0 else 0
            data, rest = data[:cut], data[cut:]
            registers = register_rows(data)
            if len(registers):
                self._feed(registers)

    def _feed(self, registers: np.ndarray) -> None:
        program = self.program
        pcs = registers[:, 15].astype(np.int64)
        if self.state == "before":
            start = np.flatnonzero(pcs == program.entry)
            if not len(start):
                return
            self.state, pcs, registers = "inside", pcs[start[0] + 1:], registers[start[0] + 1:]
        end = np.flatnonzero(pcs == program.back)
        if len(end):
            self.state, pcs, registers = "after", pcs[:end[0]], registers[:end[0]]
        layers = np.minimum(self.layer + np.cumsum(pcs == program.layer_done), len(self.stalls) - 1)
        if len(layers):
            self.layer = int(layers[-1])
        rows = np.flatnonzero(np.isin(pcs, self._pcs))
        k = np.searchsorted(self._pcs, pcs[rows])
        base, index, shift, offset, size = (column[k] for column in self._columns)
        regs = registers[rows].astype(np.int64)
        at = np.arange(len(rows))
        start = np.where(base >= 0, regs[at, np.maximum(base, 0)], 0) + offset + \
            np.where(index >= 0, regs[at, np.maximum(index, 0)] << shift, 0)
        start &= 0xFFFFFFFF
        inside = (start >= self.flash.origin) & (start < self.flash.end)
        width = self.lines.size
        first, last = start[inside] // width, (start[inside] + size[inside] - 1) // width
        spans = last - first + 1
        lines = np.repeat(first, spans) + (np.arange(spans.sum()) - np.repeat(np.cumsum(spans) - spans, spans))
        owner = np.repeat(layers[rows][inside], spans)
        # a line read again straight after is held (the most recently used): only the changes are looked up
        changed = np.concatenate([[True], lines[1:] != lines[:-1]]) if len(lines) else np.zeros(0, dtype=bool)
        wait = self.memory.flash_wait_states
        for line, layer in zip(lines[changed].tolist(), owner[changed].tolist()):
            if self.lines.misses(line):
                self.stalls[layer] += wait
