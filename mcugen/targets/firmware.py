"""Firmware for a board: a PlatformIO project in the build directory, built with `pio run`.

Two environments, both real: `offline` (mcugen's bundled platform in mcugen/platformio, Debian's
arm-none-eabi-gcc, bare-metal start-up, link and UART from runtime_c/harness/: port_files) and `stock`
(the board's own PlatformIO platform and Arduino framework, harness on Serial). The fit is checked
before anything is compiled, and read back from the ELF afterwards.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jinja2

from mcugen import __version__
from mcugen.targets.boards import CODE_ALLOWANCE, HARNESS_RAM, Board
from mcugen.codegen.build import BuildResult, Harness, Sources, write_sources
from mcugen.targets.chips import write_images
from mcugen.codegen.elfsize import Sizes, sizes
from mcugen.codegen.emit_c import GeneratedC, emit_c
from mcugen.errors import McugenError
from mcugen.ir.budget import RAM
from mcugen.ir.graph import Compiled, Graph
from mcugen.codegen.outdir import OutDir
from mcugen.ir.planner import state_layout

PLATFORM_DIR = Path(__file__).resolve().parents[1] / "platformio"
_ENV = jinja2.Environment(loader=jinja2.PackageLoader("mcugen", "templates"), undefined=jinja2.StrictUndefined,
                          keep_trailing_newline=True)
PIO_ENV = {"PLATFORMIO_DISABLE_UPGRADE_CHECK": "true", "PLATFORMIO_SETTING_ENABLE_TELEMETRY": "No",
           "PLATFORMIO_SETTING_CHECK_PLATFORMIO_INTERVAL": "3650"}


def check_fit(g: Compiled, board: Board, const_bytes: int, harness_ram: int = HARNESS_RAM,
              external_bytes: int = 0) -> None:
    """Refuse before compiling: arena + stack (+ the validation harness) vs RAM, each other region's arena
    vs that region, constants + code vs flash."""
    for name, size in g.arena.plan.region_sizes[1:]:
        there = board.region(name).bytes
        if size > there:
            raise McugenError(f"the model does not fit {board.id}'s {name}: {size:,} B needed, {there:,} B there",
                              "choose a board with more RAM or a smaller model")
    state = state_layout(g.variables)[1]
    in_ram = external_bytes if g.weights_region == RAM else 0  # --weights ram: copied there at start-up
    ram_needed = g.arena.plan.size + state + in_ram + board.stack_bytes + harness_ram
    if ram_needed > board.ram.bytes:
        harness = f" + harness {harness_ram:,}" if harness_ram else ""
        variables = f" + variables {state:,}" if state else ""
        weights = f" + weights {in_ram:,}" if in_ram else ""
        raise McugenError(
            f"the model does not fit {board.id}'s RAM: it needs {ram_needed:,} B (arena {g.arena.plan.size:,}"
            f"{variables}{weights} + stack {board.stack_bytes:,}{harness}), the board has {board.ram.bytes:,} B: "
            f"{ram_needed - board.ram.bytes:,} B too many",
            f"{g.fit_hint}; or choose a board with more RAM" if g.fit_hint else
            "choose a board with more RAM or a smaller model")
    const_bytes += in_ram  # their image stays in flash
    external = board.external_flash
    if external_bytes and not in_ram and external is not None and external_bytes > external.bytes:
        raise McugenError(f"the model does not fit {board.id}'s {external.name}: {external_bytes:,} B of weights "
                          f"needed, {external.bytes:,} B there", "choose a board with more flash or a smaller model")
    flash_needed = const_bytes + CODE_ALLOWANCE
    if flash_needed > board.flash.bytes:
        raise McugenError(
            f"the model does not fit {board.id}'s flash: it needs about {flash_needed:,} B (constants "
            f"{const_bytes:,} + code {CODE_ALLOWANCE:,}), the board has {board.flash.bytes:,} B: "
            f"{flash_needed - board.flash.bytes:,} B too many", "choose a board with more flash or a smaller model")


def pio_core_dir(project: Path) -> Path:
    """The PlatformIO home of one offline project, inside its .pio folder: it holds the tool-scons
    stand-in (PlatformIO's only required download), so `pio run` never goes to the network, and the
    project's own copy of the platform, which PlatformIO installs there under the platform's name.

    One per project: in a home shared by several projects, every build would install its own copy
    of the platform under that one name, replacing it under the others' running builds."""
    root = Path(project).resolve() / ".pio" / "core"
    shim = root / "packages" / "tool-scons"
    if not (shim / ".piopm").exists():
        shim.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(PLATFORM_DIR / "tool-scons", shim, dirs_exist_ok=True)
    return root


def _require_tools(stock: bool) -> None:
    try:
        import platformio  # noqa: F401
    except ImportError:
        raise McugenError("PlatformIO is not installed", "pip install platformio (scripts/install.sh does)") from None
    if not stock and not shutil.which("arm-none-eabi-gcc"):
        raise McugenError("arm-none-eabi-gcc not found",
                          "sudo apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi")


def _stock_platform_reachable(board: Board) -> None:
    """A stock platform not yet installed needs the registry; PlatformIO would retry for a minute."""
    installed = Path(os.environ.get("PLATFORMIO_CORE_DIR", Path.home() / ".platformio")) / "platforms"
    platform = board.stock.platform if board.stock else ""
    if (installed / platform).exists():
        return
    try:
        socket.create_connection(("api.registry.platformio.org", 443), timeout=3).close()
    except OSError:
        raise McugenError(f"the stock PlatformIO platform '{platform}' is not installed and "
                          "the PlatformIO registry is unreachable",
                          "connect to the internet once, or build offline (drop --stock)"
                          if board.offline is not None else "connect to the internet once to install it") from None


def core_macro(board: Board) -> str:
    """The macro a build defines to name the board's core (MCU_CORE_CORTEX_M7): the kernels pick a schedule by
    it where GCC's own macros do not tell two cores apart."""
    return "MCU_CORE_" + board.core.upper().replace("-", "_")


def write_offline_board(board: Board, out: OutDir) -> str:
    """What the offline platform needs in a PlatformIO project for `board`: a copy of the platform
    (so the folder can be moved or committed), the board's JSON and link.ld. Returns the build
    flags the board's UART driver and chip start-up read (its base address, pins, clocks)."""
    for file in sorted((PLATFORM_DIR / "mcugen-cortexm").rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            out.write(f"platform/{file.relative_to(PLATFORM_DIR)}", file.read_bytes())
    o = board.offline
    if board.link == "semihosting" or o is None:  # QEMU's console: no UART driver is built
        flags = ["-DMCU_LINK_SEMIHOSTING"]
    else:  # each field the board gives its UART's driver (and its chip's start-up) as a macro it reads
        flags = [f"-DMCU_UART_BASE=0x{o.uart_base:08X}u"]
        flags += [f"-DMCU_UART_TX_PIN={o.tx_pin}", f"-DMCU_UART_RX_PIN={o.rx_pin}"] if o.tx_pin is not None else []
        flags += [f"-DMCU_UART_CLOCK_HZ={o.uart_clock_hz}u"] if o.uart_clock_hz is not None else []
        if o.gpio is not None:
            flags += [f"-DMCU_GPIO_BASE=0x{o.gpio.base:08X}u", f"-DMCU_GPIO_AF={o.gpio.af}"]
        if o.clock_enables:
            flags.append("-DMCU_CLOCK_ENABLES=" + ",".join(f"0x{e.register:08X}u,{e.bit}" for e in o.clock_enables))
        if o.pin_writes:
            flags.append("-DMCU_PIN_WRITES=" + ",".join(f"0x{w.register:08X}u,0x{w.value:08X}u" for w in o.pin_writes))
    out.write("link.ld", _ENV.get_template("link.ld.j2").render(version=__version__, board=board))
    out.write(f"boards/mcugen-{board.id}.json", json.dumps(dict(
        # boards whose chip has `fpu: true` compile for their core's FPU, hard-float ABI; the others soft float
        build=dict(cpu=board.core, fpu=board.cpu.fpu if board.fpu else "",
                   f_cpu=f"{board.clock_hz}L", mcu=board.id),
        frameworks=[], name=board.name, vendor="mcugen", url="",
        upload=dict(maximum_ram_size=board.ram.bytes, maximum_size=board.flash.bytes)), indent=2))
    return " ".join(flags)


def port_files(board: Board) -> tuple[str, ...]:
    """The bare-metal port of a board with an offline build (runtime_c/harness/): start-up and clock
    (port_cortexm.c), its link (link_uart.c with the driver of its UART's kind, uart_<kind>.c, or QEMU's
    console, link_semihosting.c) and its chip's start-up where the chip has one (chip_<chip>.c)."""
    o = board.offline
    uart = None if board.link == "semihosting" or o is None or o.uart is None else o.uart
    link = ("link_uart.c", f"uart_{uart.replace('-', '_')}.c") if uart else ("link_semihosting.c",)
    start = (f"chip_{board.chip.id}.c",) if board.chip.start else ()
    return ("port_cortexm.c", "mcu_uart.h", *link, *start)


def write_project(g: Graph, board: Board, out: OutDir, generated: GeneratedC, model_name: str,
                  env_name: str, harness: Harness | None = None) -> Sources:
    harness = harness or Harness()
    ports = (port_files(board) if board.offline is not None else ()) + (("port_arduino.cpp",) if board.stock else ())
    sources = write_sources(out, generated, ports, features=board.features, harness=harness)
    context = dict(version=__version__, board=board, model_name=model_name, sha256=g.sha256,
                   default_env=env_name, profile=harness.profiles,
                   core_flag=f"-D{core_macro(board)}")
    if board.offline is not None:
        context["uart_flags"] = write_offline_board(board, out)
    out.write("platformio.ini", _ENV.get_template("platformio.ini.j2").render(context))
    return sources


def build_board(g: Compiled, board: Board, out: OutDir, model_name: str, *, stock: bool = False,
                progress: Callable[[str], None] | None = None, harness: Harness | None = None) -> BuildResult:
    env_name = "stock" if stock else "offline"
    if stock and not board.stock:
        raise McugenError(f"{board.id} has no stock PlatformIO environment", "build without --stock")
    if not stock and board.offline is None:
        raise McugenError(f"{board.id} has no offline build; it needs its stock PlatformIO platform "
                          f"({board.stock.platform if board.stock else 'none'})", "rerun with --stock on a machine with internet")
    _require_tools(stock)
    generated = emit_c(g, model_name)
    check_fit(g, board, generated.const_bytes, external_bytes=generated.external_bytes)
    if stock:
        _stock_platform_reachable(board)
    sources = write_project(g, board, out, generated, model_name, env_name, harness)
    out.finish()
    env = dict(os.environ, **PIO_ENV)
    if not stock:
        env["PLATFORMIO_CORE_DIR"] = str(pio_core_dir(out.root))
    cmd = [sys.executable, "-m", "platformio", "run", "-e", env_name, "-d", str(out.root)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    log = []
    for line in proc.stdout or ():
        log.append(line.rstrip())
        if progress and line.startswith(("Compiling", "Linking")):
            progress(line.split()[0].lower() + " " + Path(line.split()[-1]).name)
    proc.wait()
    (out.scratch(".build") / "pio.log").write_text("\n".join(log) + "\n")
    if proc.returncode != 0:
        raise _pio_failure(log, board, out, generated.custom_files)
    build_dir = out.root / ".pio" / "build" / env_name
    elf = build_dir / "firmware.elf"
    if not stock:
        write_images(board.chip.image, elf, board.flash.origin)
    # PlatformIO names objects src/model.o for the offline platform, src/model.c.o for stock ones;
    # the other environment's port has none
    objects = {s: o for s in sources.all
               for o in (build_dir / Path(s).with_suffix(".o"), build_dir / (s + ".o")) if o.exists()}
    return BuildResult(out.root, elf, g.arena.plan.size, generated.const_bytes,
                       model=sizes(objects[sources.model]),
                       kernels=sum((sizes(objects[k]) for k in sources.kernels), Sizes()),
                       image=sizes(elf), stack_bytes=board.stack_bytes)


class RegionOverflow(McugenError):
    """The linked firmware overflows a region of the board's memory by `excess` bytes: the code took more than
    CODE_ALLOWANCE, which the passes assumed (the command may compile again with that much less room)."""

    def __init__(self, board: Board, region: str, excess: int):
        super().__init__(f"the firmware does not fit {board.id}'s {region}: {excess:,} B too many",
                         "choose a board with more memory or a smaller model")
        self.region, self.excess = region, excess


def _pio_failure(log: list[str], board: Board, out: OutDir, user_files: tuple[str, ...]) -> McugenError:
    """`user_files`: the user's own kernels' C files and headers (--ops), whose errors are theirs."""
    text = "\n".join(log)
    overflow = re.search(r"region [`']?(\w+)'? overflowed by (\d+) bytes", text)
    if overflow:
        return RegionOverflow(board, overflow.group(1), int(overflow.group(2)))
    if "HTTPClientError" in text or "Could not resolve" in text:
        return McugenError("PlatformIO tried to download a package and could not reach the internet",
                           "build offline (without --stock) or connect once to install the platform")
    first = next((line for line in log if "error" in line.lower()), log[-1] if log else "no output")
    theirs = next((f for f in user_files if f in first), None)
    if theirs is not None:
        return McugenError(f"pio run failed in your custom op's {theirs}: {first.strip()[:200]}",
                           f"fix {theirs} (the C kernel --ops brings)")
    return McugenError(f"pio run failed: {first.strip()[:200]}", f"see {out.root / '.build' / 'pio.log'}")
