"""Boards, chips and cores as data, each a typed record read from its file and validated against its
folder's schema: boards/<id>.yaml (what is on the board: its chip, clock, memory, how it talks and is
flashed), boards/chips/<id>.yaml (what the chip is: its core and the parts of it the chip has, its
start-up, the files it boots from), boards/cores/<id>.yaml (what a core is and may have).

Unknown keys, duplicate keys, a file whose id differs from its name, two files claiming the same id,
a name with no file, a chip claiming an FPU or DSP extension its core cannot have, a board missing
what its UART's driver or its chip's start-up reads: all errors. `host` is built in: the system C
compiler, no board file.
"""
from __future__ import annotations

import difflib

import json
from dataclasses import dataclass
from functools import cache
from typing import Any
from pathlib import Path

from mcugen.errors import McugenError
from mcugen.ir.budget import RAM, READ_BYTES, Budget, FlashReads
from mcugen.ir.planner import Region
from mcugen.runtime import FEATURES
from mcugen.targets.spec_files import load_spec

BOARDS_DIR = Path(__file__).resolve().parents[1] / "boards"  # ../boards in a checkout (a link), package data in a wheel
HOST = "host"
HARNESS_RAM = 1024  # protocol buffers and per-layer timings, besides the arena
CODE_ALLOWANCE = 24 * 1024  # kernels + harness + startup + libc, for the fit check before compiling


@dataclass(frozen=True)
class Timing:
    """The numbers a core's timing table leaves to the chip (boards/cores/<id>.yaml `timing`), which the
    cycle estimate (mcugen/validation/cycles.py) reads."""

    refill: int  # pipeline refill after a taken branch (the TRM's P, 1-3)
    divide: int  # SDIV/UDIV
    exception: int  # exception entry


@dataclass(frozen=True)
class Cache:
    lines: int
    line_bytes: int


@dataclass(frozen=True)
class MemoryTiming:
    """What reading the board's flash costs at its clock (the board file's `memory_timing`), which the cycle
    estimate adds to its zero-wait-state figure (mcugen/validation/memory.py)."""

    flash_wait_states: int
    prefetch: bool  # the flash line after the one instructions are fetched from is read ahead
    instruction_cache: Cache | None
    data_cache: Cache | None


@dataclass(frozen=True)
class Core:
    """What a Cortex-M core is and may have (boards/cores/<id>.yaml); a board says what its chip has."""

    id: str  # GCC's -mcpu
    name: str
    arch: str
    fpu: str | None  # GCC's -mfpu for the FPU a chip may have (auto: what -mcpu implies); None: no FPU
    dsp: bool  # the DSP extension is possible
    mve: bool = False  # Helium is possible
    timing: Timing | None = None  # what the cycle estimate needs (mcugen/validation/cycles.py); None: no estimate


@dataclass(frozen=True)
class MemoryRegion:
    """A board's memory region: its ram or flash, or one of its `regions`."""

    name: str
    origin: int
    bytes: int
    kind: str  # "ram" or "flash"
    external: bool
    rank: int  # access cost, 0 the fastest

    @property
    def end(self) -> int:
        return self.origin + self.bytes


@dataclass(frozen=True)
class Uf2Image:
    """Firmware as UF2 blocks for the chip's USB drive, second-stage boot code first (boards/chips/schema.json)."""

    family: int
    drive: str
    base: int
    boot2: str


@dataclass(frozen=True)
class AtocImage:
    """Firmware booted by Alif's Secure Enclave from a table of contents its SETOOLS build from a config."""

    cpu: str


@dataclass(frozen=True)
class Chip:
    """What a chip is (boards/chips/<id>.yaml)."""

    id: str
    name: str
    core: Core
    fpu: bool
    dsp: bool
    mve: bool
    start: bool  # runtime_c/harness/chip_<id>.c sets its clocks, resets or pins up before the UART
    gpio_pins: int | None  # where a board's tx_pin and rx_pin are GPIO numbers: how many there are
    uart_needs: frozenset[str]  # what a board's offline block gives for the start-up
    image: Uf2Image | AtocImage | None  # the files it boots from; None: the ELF's image


@dataclass(frozen=True)
class Stock:
    """The stock PlatformIO environment, for machines with internet."""

    platform: str
    board: str
    framework: str
    serial: str = ""  # which serial of the board the firmware talks on (the board file's words)


@dataclass(frozen=True)
class ClockEnable:
    register: int
    bit: int


@dataclass(frozen=True)
class PinWrite:
    register: int
    value: int


@dataclass(frozen=True)
class Gpio:
    base: int
    af: int


@dataclass(frozen=True)
class Offline:
    """mcugen's bundled bare-metal platform: the UART the firmware talks on and what its driver reads."""

    uart: str | None = None  # the driver: runtime_c/harness/uart_<kind>.c
    uart_base: int | None = None
    tx_pin: int | None = None
    rx_pin: int | None = None
    uart_clock_hz: int | None = None
    clock_enables: tuple[ClockEnable, ...] = ()
    gpio: Gpio | None = None
    pin_writes: tuple[PinWrite, ...] = ()
    serial: str = ""


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    chip: Chip
    clock_hz: int
    ram: MemoryRegion
    flash: MemoryRegion
    stack_bytes: int
    extra_regions: tuple[MemoryRegion, ...]
    stock: Stock | None
    offline: Offline | None
    upload: str  # the flash method
    upload_device: str  # jlink: the J-Link device name
    qemu_machine: str | None  # the QEMU machine that emulates it; None: a real board
    link: str  # how the offline firmware talks to the host: its UART, or (emulated) QEMU's semihosting console
    path: Path
    memory_timing: MemoryTiming | None = None  # None: zero wait states

    @property
    def features(self) -> frozenset[str]:  # the ISA extensions its chip has: the kernel variants it runs
        return frozenset(f for f in FEATURES if getattr(self.chip, f))

    @property
    def cpu(self) -> Core:
        return self.chip.core

    @property
    def core(self) -> str:  # GCC's -mcpu
        return self.chip.core.id

    @property
    def fpu(self) -> bool:
        return self.chip.fpu

    @property
    def fp16_arithmetic(self) -> bool:  # Helium with an FPU (the M55): fp16 layers in fp16 (passes/compute_fp16.py)
        return self.fpu and self.chip.mve

    @property
    def regions(self) -> tuple[MemoryRegion, ...]:
        """Every memory region: RAM (code's data, the stack and the main arena), FLASH (code and, by
        default, constants), then the board's other regions."""
        return (self.ram, self.flash, *self.extra_regions)

    def region(self, name: str) -> MemoryRegion:
        return next(r for r in self.regions if r.name == name)

    @property
    def external_flash(self) -> MemoryRegion | None:
        """The flash region outside the chip that weights may go to (--weights), if the board has one."""
        return next((r for r in self.extra_regions if r.kind == "flash" and r.external), None)

    @property
    def emulated(self) -> bool:
        return self.qemu_machine is not None

    def arena_regions(self, always: bool = False) -> tuple[Region, ...] | None:
        """The RAM regions a model's arena may use (mcugen/ir/planner.py place): its RAM less the stack and
        the harness's buffers, then its other RAM regions whole; None when it has only its RAM (unless
        `always`: then that one region, for overrides to apply to)."""
        others = [r for r in self.extra_regions if r.kind == "ram"]
        if not others and not always:
            return None
        return (Region(self.ram.name, self.ram.bytes - self.stack_bytes - HARNESS_RAM, self.ram.rank),
                *(Region(r.name, r.bytes, r.rank) for r in others))

    def budget(self, weights: str = "auto", regions: tuple[Region, ...] | None = None,
               pins: tuple[tuple[str, str], ...] = (), optimize: str = "balanced") -> Budget:
        """What a model may take on the board (the passes read it): the chip's flash less the code's
        allowance for constants, the external flash region where --weights lets weights go (or, --weights
        ram, its RAM less the stack and the harness), and the RAM regions (arena_regions, or `regions` as
        the command line changed them) with --pin's requests, and what --optimize lets kernels spend flash on."""
        external = self.external_flash
        if weights == "external" and external is None:
            raise McugenError(f"--weights external: {self.id} has no external flash region",
                              "use --weights internal, or a board file that declares one (regions, kind: flash, "
                              "external)")
        room = self.flash.bytes - CODE_ALLOWANCE
        arena = regions if regions is not None else self.arena_regions()
        timing, flash = self.memory_timing, FlashReads()
        if timing is not None:
            cache = timing.data_cache
            flash = FlashReads(timing.flash_wait_states, cache.line_bytes if cache else READ_BYTES,
                               cache.lines * cache.line_bytes if cache else 0)
        if weights == "ram":
            return Budget(room, room, RAM, weights, arena, pins, self.ram.bytes - self.stack_bytes - HARNESS_RAM,
                          optimize, arena_room=self.ram.bytes - self.stack_bytes - HARNESS_RAM, flash=flash)
        out = external is not None and weights != "internal"
        return Budget(room + (external.bytes if out and external is not None else 0), room,
                      external.name if out and external is not None else "", weights, arena, pins, optimize=optimize,
                      arena_room=self.ram.bytes - self.stack_bytes - HARNESS_RAM, flash=flash)

    def wiring(self, stock: bool) -> str:
        """Which serial of the board the firmware talks on (the board file's words), "" if unsaid."""
        env = self.stock if stock else self.offline
        return env.serial if env is not None else ""


def parse_chip(path: Path, schema: dict[str, Any], cores: dict[str, Core]) -> Chip:
    fix = f"fix {path.name} (the fields are described in boards/chips/schema.json)"
    spec = load_spec(path, schema, fix)
    core = cores.get(spec["core"])
    if core is None:
        raise McugenError(f"{path}: core '{spec['core']}' has no file in boards/cores/",
                          f"use one of {', '.join(sorted(cores))}, or describe the core in boards/cores/")
    if spec["fpu"] and core.fpu is None:
        raise McugenError(f"{path}: fpu: true, but a {core.name} has no FPU", fix)
    if spec["dsp"] and not core.dsp:
        raise McugenError(f"{path}: dsp: true, but a {core.name} has no DSP extension", fix)
    if spec.get("mve") and not core.mve:
        raise McugenError(f"{path}: mve: true, but a {core.name} has no Helium (MVE)", fix)
    image: Uf2Image | AtocImage | None = None
    if "image" in spec:
        fields = {k: v for k, v in spec["image"].items() if k != "kind"}
        image = Uf2Image(**fields) if spec["image"]["kind"] == "uf2" else AtocImage(**fields)
    return Chip(spec["id"], spec["name"], core, spec["fpu"], spec["dsp"], spec.get("mve", False), spec.get("start", False),
                spec.get("gpio_pins"), frozenset(spec.get("uart_needs", ())), image)


def _memory(name: str, spec: dict[str, Any]) -> MemoryRegion:
    return MemoryRegion(name.upper(), spec["origin"], spec["bytes"], name, False, spec.get("rank", 1))


def _offline(spec: dict[str, Any]) -> Offline:
    return Offline(**{**spec, "clock_enables": tuple(ClockEnable(**e) for e in spec.get("clock_enables", ())),
                      "pin_writes": tuple(PinWrite(**w) for w in spec.get("pin_writes", ())),
                      "gpio": Gpio(**spec["gpio"]) if "gpio" in spec else None})


def _memory_timing(spec: dict[str, Any]) -> MemoryTiming:
    def cache(name: str) -> Cache | None:
        return Cache(**spec[name]) if name in spec else None

    return MemoryTiming(spec["flash_wait_states"], spec.get("prefetch", False), cache("instruction_cache"),
                        cache("data_cache"))


def parse_board(path: Path, schema: dict[str, Any], chips: dict[str, Chip]) -> Board:
    fix = f"fix {path.name} (the fields are described in boards/schema.json)"
    spec = load_spec(path, schema, fix)
    chip = chips.get(spec["chip"])
    if chip is None:
        raise McugenError(f"{path}: chip '{spec['chip']}' has no file in boards/chips/",
                          f"use one of {', '.join(sorted(chips))}, or describe the chip in boards/chips/")
    qemu = spec.get("qemu")
    link = qemu.get("link", "uart") if qemu else "uart"
    offline = _offline(spec["offline"]) if "offline" in spec else None
    if link == "uart" and offline is not None:
        if offline.uart is None or offline.uart_base is None:
            raise McugenError(f"{path}: offline: needs uart and uart_base (the firmware talks on its UART)", fix)
        missing = sorted(k for k in chip.uart_needs if getattr(offline, k) is None)
        if missing:
            raise McugenError(f"{path}: offline: the {chip.id} needs {', '.join(missing)}", fix)
        wrong = [k for k in ("tx_pin", "rx_pin") if chip.gpio_pins is not None and (getattr(offline, k) or 0) >= chip.gpio_pins]
        if wrong:
            raise McugenError(f"{path}: offline: {wrong[0]} {getattr(offline, wrong[0])} is not one of the "
                              f"{chip.id}'s {chip.gpio_pins} GPIOs", fix)
    stock = spec.get("platformio")
    board = Board(spec["id"], spec["name"], chip, spec["clock_hz"], _memory("ram", spec["ram"]),
                  _memory("flash", spec["flash"]), spec["stack_bytes"],
                  tuple(MemoryRegion(r["name"], r["origin"], r["bytes"], r["kind"], r.get("external", False), r["rank"])
                        for r in spec.get("regions", ())),
                  Stock(**stock) if stock else None, offline, spec["upload"]["method"],
                  spec["upload"].get("device", ""), qemu["machine"] if qemu else None, link, path,
                  _memory_timing(spec["memory_timing"]) if "memory_timing" in spec else None)
    regions = board.regions
    names = [r.name for r in regions]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise McugenError(f"{path}: two memory regions are named {twice}", fix)
    beyond = next((r for r in regions if r.end > 1 << 32), None)
    if beyond is not None:
        raise McugenError(f"{path}: memory region {beyond.name} ends past the 4 GB address space "
                          f"(0x{beyond.origin:08X} + {beyond.bytes:,} B)", fix)
    for k, a in enumerate(regions):
        for b in regions[k + 1:]:
            if a.origin < b.end and b.origin < a.end:
                raise McugenError(f"{path}: memory regions {a.name} and {b.name} overlap "
                                  f"(0x{a.origin:08X}..0x{a.end:08X}, 0x{b.origin:08X}..0x{b.end:08X})", fix)
    return board


@cache
def all_cores(directory: Path = BOARDS_DIR / "cores") -> dict[str, Core]:
    schema = json.loads((directory / "schema.json").read_text())
    fix = "fix it (the fields are described in boards/cores/schema.json)"
    specs = {path.stem: load_spec(path, schema, fix) for path in sorted(directory.glob("*.yaml"))}
    return {name: Core(**{**spec, "timing": Timing(**spec["timing"]) if "timing" in spec else None})
            for name, spec in specs.items()}


@cache
def all_chips(directory: Path = BOARDS_DIR / "chips") -> dict[str, Chip]:
    schema = json.loads((directory / "schema.json").read_text())
    cores = all_cores(directory.parent / "cores")
    return {path.stem: parse_chip(path, schema, cores) for path in sorted(directory.glob("*.yaml"))}


@cache
def all_boards(directory: Path = BOARDS_DIR) -> dict[str, Board]:
    schema = json.loads((directory / "schema.json").read_text())
    chips = all_chips(directory / "chips")
    boards: dict[str, Board] = {}
    for path in sorted(directory.glob("*.y*ml")):
        board = parse_board(path, schema, chips)
        if board.id in boards or board.id == HOST:
            first = boards[board.id].path.name if board.id in boards else "built in"
            raise McugenError(f"board id '{board.id}' is declared twice ({first} and {path.name})",
                              "give every board file its own id")
        boards[board.id] = board
    return boards


def emulated_twin(board: Board, purpose: str) -> Board:
    """The board itself when QEMU runs it, else an emulated board with its core and at least its ISA
    extensions (firmware built with the board's features runs the same kernels there), the closest
    first. `purpose` says, in the error, why one was needed."""
    if board.emulated:
        return board
    twins = [b for b in all_boards().values() if b.emulated and b.core == board.core
             and board.features <= b.features]
    if not twins:
        raise McugenError(f"no board in boards/ emulates {board.id}'s {board.cpu.name} ({purpose})",
                          "choose a board whose core QEMU emulates (mcugen boards lists them)")
    return min(twins, key=lambda b: (len(b.features - board.features), b.id))


def load_board(board_id: str) -> Board:
    boards = all_boards()
    if board_id not in boards:
        close = difflib.get_close_matches(board_id, [HOST, *boards], n=1)
        guess = f" (did you mean {close[0]}?)" if close else ""
        raise McugenError(f"unknown board '{board_id}'{guess}",
                          f"use one of: {HOST}, {', '.join(sorted(boards))} (see boards/)")
    return boards[board_id]
