"""Boards and cores as data: boards/<id>.yaml, each validated against boards/schema.json, and the
cores they name, boards/cores/<core>.yaml against boards/cores/schema.json.

Unknown keys, duplicate keys, a file whose id differs from its name, two files claiming the same
id, a board naming a core with no file, or claiming an FPU or DSP extension its core cannot have,
are all errors. `host` is built in: the system C compiler, no board file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any
from pathlib import Path

import jsonschema
import yaml

from mcugen.errors import McugenError
from mcugen.runtime import FEATURES

BOARDS_DIR = Path(__file__).resolve().parents[1] / "boards"  # ../boards in a checkout (a link), package data in a wheel
HOST = "host"


@dataclass(frozen=True)
class Timing:
    """The numbers a core's timing table leaves to the chip (boards/cores/<id>.yaml `timing`), which the
    cycle estimate (mcugen/validation/cycles.py) reads."""

    refill: int  # pipeline refill after a taken branch (the TRM's P, 1-3)
    divide: int  # SDIV/UDIV
    exception: int  # exception entry


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
class Board:
    id: str
    spec: dict[str, Any]
    path: Path

    @property
    def features(self) -> frozenset[str]:
        """The ISA extensions this board's chip has: the kernel variants it runs (mcugen/ops/variants.py)."""
        return frozenset(f for f in FEATURES if self.spec.get(f))

    @property
    def cpu(self) -> Core:
        return all_cores()[self.spec["core"]]

    @property
    def regions(self) -> tuple[MemoryRegion, ...]:
        """Every memory region: RAM (code's data, the stack and the main arena), FLASH (code and, by
        default, constants), then the board's other regions."""
        main = tuple(MemoryRegion(key.upper(), self.spec[key]["origin"],
                                  self.spec[key]["bytes"], key, False, self.spec[key].get("rank", 1))
                     for key in ("ram", "flash"))
        return main + tuple(MemoryRegion(r["name"], r["origin"], r["bytes"], r["kind"], r.get("external", False),
                                         r["rank"]) for r in self.spec.get("regions", ()))

    def region(self, name: str) -> MemoryRegion:
        return next(r for r in self.regions if r.name == name)

    @property
    def external_flash(self) -> MemoryRegion | None:
        """The flash region outside the chip that weights may go to (--weights), if the board has one."""
        return next((r for r in self.regions[2:] if r.kind == "flash" and r.external), None)

    @property
    def emulated(self) -> bool:
        return "qemu" in self.spec

    @property
    def link(self) -> str:
        """How the offline firmware talks to the host: its UART, or (emulated boards that say so)
        QEMU's semihosting console."""
        return self.spec.get("qemu", {}).get("link", "uart")

    @property
    def offline(self) -> dict[str, Any] | None:
        return self.spec.get("offline")

    @property
    def stock(self) -> dict[str, Any] | None:
        return self.spec.get("platformio")

    def wiring(self, stock: bool) -> str:
        """Which serial of the board the firmware talks on (the board file's words), "" if unsaid."""
        env = self.stock if stock else self.offline
        return (env or {}).get("serial", "")

    def __getattr__(self, key: str) -> Any:
        try:
            return self.spec[key]
        except KeyError:
            raise AttributeError(key) from None


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (PyYAML keeps the last)."""


def _mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    keys = [loader.construct_object(k, deep=deep) for k, _ in node.value]
    dup = next((k for k in keys if keys.count(k) > 1), None)
    if dup is not None:
        raise yaml.constructor.ConstructorError(None, None, f"key '{dup}' appears twice", node.start_mark)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                              lambda loader, node: _mapping(loader, node, deep=True))


def _load_spec(path: Path, schema: dict[str, Any], fix: str) -> dict[str, Any]:
    """A YAML file checked against its schema, named after its id."""
    try:
        spec = yaml.load(path.read_text(), Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        raise McugenError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})", fix) from None
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(spec), key=lambda e: list(e.path))
    if errors:
        where = "/".join(map(str, errors[0].path)) or "top level"
        raise McugenError(f"{path}: {where}: {errors[0].message}", fix)
    if spec["id"] != path.stem:
        raise McugenError(f"{path}: id '{spec['id']}' differs from the file name", fix)
    return spec


# what the firmware needs besides uart and uart_base to drive each kind of UART (runtime_c/harness/uart_<kind>.c)
UART_NEEDS = {"nrf-uarte": {"tx_pin", "rx_pin"},
              "stm32-usart-v2": {"tx_pin", "rx_pin", "uart_clock_hz", "clock_enables", "gpio"},
              "dw-apb-uart": {"uart_clock_hz", "clock_enables", "pin_writes"}}
CHIP_NEEDS = {"rp2040": {"tx_pin", "rx_pin", "uart_clock_hz"}}
# the pins a UART kind or chip has (its driver indexes registers by them): an STM32 GPIO port's 16, the RP2040's 30
PIN_COUNTS = {"stm32-usart-v2": 16, "rp2040": 30}


def parse_board(path: Path, schema: dict[str, Any], cores: dict[str, Core]) -> Board:
    fix = f"fix {path.name} (the fields are described in boards/schema.json)"
    spec = _load_spec(path, schema, fix)
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
    talks_uart = spec.get("qemu", {}).get("link", "uart") == "uart"
    if talks_uart and "offline" in spec and not {"uart", "uart_base"} <= set(spec["offline"]):
        raise McugenError(f"{path}: offline: needs uart and uart_base (the firmware talks on its UART)", fix)
    needs = UART_NEEDS.get(spec.get("offline", {}).get("uart", ""), set()) | CHIP_NEEDS.get(
        spec.get("offline", {}).get("chip", ""), set())
    if talks_uart and not needs <= set(spec.get("offline", {})):
        what = f"the {spec['offline']['chip']}" if "chip" in spec["offline"] else f"a {spec['offline']['uart']} UART"
        raise McugenError(f"{path}: offline: {what} needs {', '.join(sorted(needs))}", fix)
    offline = spec.get("offline", {})
    pins = PIN_COUNTS.get(offline.get("chip", offline.get("uart", "")))
    wrong = [k for k in ("tx_pin", "rx_pin") if pins is not None and offline.get(k, 0) >= pins]
    if wrong:
        raise McugenError(f"{path}: offline: {wrong[0]} {offline[wrong[0]]} is not one of the {pins} pins it can be", fix)
    board = Board(spec["id"], spec, path)
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
    specs = {path.stem: _load_spec(path, schema, fix) for path in sorted(directory.glob("*.yaml"))}
    return {name: Core(**{**spec, "timing": Timing(**spec["timing"]) if "timing" in spec else None})
            for name, spec in specs.items()}


@cache
def all_boards(directory: Path = BOARDS_DIR) -> dict[str, Board]:
    schema = json.loads((directory / "schema.json").read_text())
    cores = all_cores(directory / "cores")
    boards: dict[str, Board] = {}
    for path in sorted(directory.glob("*.y*ml")):
        board = parse_board(path, schema, cores)
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
    twins = [b for b in all_boards().values() if b.emulated and b.spec["core"] == board.spec["core"]
             and board.features <= b.features]
    if not twins:
        raise McugenError(f"no board in boards/ emulates {board.id}'s {board.cpu.name} ({purpose})",
                          "choose a board whose core QEMU emulates (mcugen boards lists them)")
    return min(twins, key=lambda b: (len(b.features - board.features), b.id))


def load_board(board_id: str) -> Board:
    boards = all_boards()
    if board_id not in boards:
        raise McugenError(f"unknown board '{board_id}'",
                          f"use one of: {HOST}, {', '.join(sorted(boards))} (see boards/)")
    return boards[board_id]
