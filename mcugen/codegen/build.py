"""`mcugen build`: a model becomes C sources in an output directory, then a program.

The directory follows PlatformIO's layout (include/, src/) for every board, the host included:
generated model.h / model.c, the runtime kernels the model calls, and the target harness.
"""
from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from mcugen.codegen.elfsize import Sizes, sizes
from mcugen.codegen.emit_c import GeneratedC, emit_c
from mcugen.codegen.patch_plan import macs
from mcugen.errors import McugenError
from mcugen.ir.budget import RAM
from mcugen.ir.graph import Compiled, Graph
from mcugen.codegen.outdir import OutDir
from mcugen.ir.lowering import const_bytes, layers_const_bytes
from mcugen.ir.planner import state_layout
from mcugen.kernels import widens
from mcugen.runtime import included_headers, kernel_file, runtime_file

HOST_CFLAGS = ("-std=c99", "-Wall", "-Wextra", "-Werror", "-DMODEL_PROFILE", "-fno-asynchronous-unwind-tables")
SANITIZE_CFLAGS = ("-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                   "-fno-omit-frame-pointer")


@dataclass
class BuildResult:
    out_dir: Path
    program: Path  # the host executable or the firmware ELF
    arena_bytes: int
    const_bytes: int  # constant arrays the generator emitted
    model: Sizes  # model.o: its code, its constants (rodata) and the arena (bss)
    kernels: Sizes  # the runtime kernels it calls
    image: Sizes = field(default_factory=Sizes)  # the whole linked program (firmware only)
    stack_bytes: int = 0

    @property
    def code_bytes(self) -> int:
        return self.model.text + self.kernels.text


def library_files(generated: GeneratedC, features: frozenset[str] = frozenset()) -> dict[str, str]:
    """A model as a C library, by file name: NAME.h (the API), NAME.c, the kernels it calls and the
    runtime's headers they include. `mcugen build` and `mcugen export` both lay out these files.

    features: the ISA features of the core it is built for, which must include those the model was
    lowered for (GeneratedC.features): some of its layers may call kernel variants of
    runtime_c/<feature>/ (their own names, filter layouts and scratch), the others the reference
    kernels of runtime_c/src/.
    """
    if not generated.features <= features:
        # the lowering chose variants and filter layouts for another core: a bug in the caller, not bad input
        raise AssertionError(f"a model lowered for {sorted(generated.features)} is being built for {sorted(features)}")
    files = dict(generated.files)
    for k in (k for k in generated.kernels if k not in generated.custom_kernels):
        files[f"{k}.c"] = runtime_file(kernel_file(k, generated.features)).read_text()
    return {**files, **included_headers(list(files.values()))}


@dataclass(frozen=True)
class Sources:
    """The .c files of a build, relative to its directory, by role."""

    model: str
    kernels: tuple[str, ...]
    harness: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        return (self.model, *self.kernels, *self.harness)


def write_sources(out: OutDir, generated: GeneratedC, ports: tuple[str, ...],
                  features: frozenset[str] = frozenset(), harness: Harness | None = None) -> Sources:
    """The model's library (headers in include/, sources in src/, PlatformIO's layout) and the
    harness, which drives the model through the same API an application uses: mcugen's validation
    protocol, or another (`harness`)."""
    harness = harness or Harness()
    for file, text in library_files(generated, features).items():
        out.write(f"{'include' if file.endswith('.h') else 'src'}/{file}", text)
    for file in (*harness.files, *ports, "mcu_port.h"):
        out.write(f"{'include' if file.endswith('.h') else 'src'}/{file}", runtime_file(f"harness/{file}").read_text())
    if harness.config:
        out.write("include/mcu_harness_config.h", harness.config)
    custom = sorted(f for f in generated.files if f.endswith(".c") and f != f"{generated.name}.c")
    kernels = [f"src/{k}.c" for k in generated.kernels if k not in generated.custom_kernels] + [f"src/{f}" for f in custom]
    return Sources(f"src/{generated.name}.c", tuple(kernels),
                   tuple(f"src/{f}" for f in (*harness.files, *ports) if not f.endswith(".h")))


# the firmware's side of each protocol (runtime_c/harness/): its files
HARNESSES = {"mcugen": ("mcu_harness.c", "mcu_frame.c", "mcu_frame.h"),
             "mlperf-tiny": ("mcu_harness_mlperf.c", "mcu_text.c", "mcu_text.h")}


@dataclass(frozen=True)
class Harness:
    """The firmware's side of the link: mcugen's validation protocol (which times every layer: the model is
    built with -DMODEL_PROFILE), or the MLPerf Tiny benchmark's (mcugen/codegen/mlperf.py), with its config header."""

    name: str = "mcugen"
    config: str = ""

    @classmethod
    def of(cls, name: str, g: Graph, clock_hz: int) -> "Harness":
        """The harness `name` (--harness) for the model on a board of that clock (0: the host)."""
        if name == "mcugen":
            return cls()
        from mcugen.codegen.mlperf import config_header

        return cls(name, config_header(g, clock_hz))

    @property
    def files(self) -> tuple[str, ...]:
        return HARNESSES[self.name]

    @property
    def profiles(self) -> bool:
        return self.name == "mcugen"


def find_c_compiler() -> str:
    chosen = os.environ.get("CC")
    if chosen:
        found = shutil.which(chosen)
        if found is None:
            raise McugenError(f"the C compiler CC={chosen} was not found", "fix CC or unset it to use cc/gcc/clang")
        return found
    for candidate in ("cc", "gcc", "clang"):
        found = shutil.which(candidate)
        if found is not None:
            return found
    raise McugenError("no C compiler found (looked for cc, gcc, clang)",
                      "install one, e.g. sudo apt-get install gcc")


_ENVIRONMENT_FAULTS = ("No space left on device", "Read-only file system", "Permission denied",
                       "Disk quota exceeded")


def _run(cmd: list[str], what: str, user_files: tuple[str, ...] = ()) -> None:
    """`user_files`: the C files and headers of the user's own kernels (--ops), whose errors are theirs."""
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode == 0:
        return
    diagnostic = next((line for line in proc.stderr.splitlines() if "error" in line), None)
    if any(cause in proc.stderr for cause in _ENVIRONMENT_FAULTS):  # not the code's fault
        raise McugenError(f"{what} failed: {diagnostic or proc.stderr.strip()[:300]}",
                          "free disk space or choose a writable --out folder")
    if diagnostic is None or proc.returncode < 0:  # no word on the code: the compiler itself failed
        how = f"was killed by signal {-proc.returncode}" if proc.returncode < 0 else \
            f"exited with code {proc.returncode}"
        said = f": {proc.stderr.strip().splitlines()[-1][:200]}" if proc.stderr.strip() else " without a message"
        raise McugenError(f"{what}: the compiler {how}{said} (command: {shlex.join(cmd)[:300]})",
                          f"check the compiler {cmd[0]} (the CC variable chooses another)")
    theirs = next((f for f in user_files if f in diagnostic), None)
    if theirs is not None:
        raise McugenError(f"{what} failed in your custom op's {theirs}: {diagnostic}",
                          f"fix {theirs} (the C kernel --ops brings)")
    raise McugenError(f"{what} failed: {diagnostic}", "this is a bug in mcugen's C output; report it with the model")


def build_host(g: Compiled, out: OutDir | Path, model_name: str, *, sanitize: bool = False,
               progress: Callable[[str], None] | None = None, object_cache: Path | None = None,
               harness: Harness | None = None) -> BuildResult:
    """Generate the sources and compile them with the system compiler into out_dir/mcugen_host.

    object_cache: a directory where objects of the model-independent sources (kernels, harness)
    are kept by content hash, so that many small models build quickly (the test suite uses it).
    """
    cc = find_c_compiler()
    out = out if isinstance(out, OutDir) else OutDir(out)
    generated = emit_c(g, model_name)
    harness = harness or Harness()
    sources = write_sources(out, generated, ("port_host.c",), harness=harness)
    user_files = generated.custom_files
    objdir = out.scratch(".build")
    flags = [*(f for f in HOST_CFLAGS if harness.profiles or f != "-DMODEL_PROFILE"),
             *(SANITIZE_CFLAGS if sanitize else ("-O2",)), f"-I{out.root / 'include'}"]

    def compile_one(src: str) -> Path:
        obj = objdir / (Path(src).stem + ".o")
        cmd = [cc, *flags, "-c", str(out.root / src), "-o", str(obj)]
        cached = None
        if object_cache is not None and src != sources.model:
            # the kernels' names come from mcu_nn_names.h
            key = hashlib.sha256("\0".join(cmd[:-3]).encode() + (out.root / src).read_bytes()
                                 + (out.root / "include" / "mcu_nn_names.h").read_bytes()).hexdigest()
            cached = Path(object_cache) / f"{Path(src).stem}-{key[:16]}.o"
            if cached.exists():
                shutil.copyfile(cached, obj)
                return obj
        _run(cmd, f"compiling {src}", user_files)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(obj, cached)
        if progress:
            progress(f"compiled {src}")
        return obj

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        objects = dict(zip(sources.all, pool.map(compile_one, sources.all)))
    program = out.root / "mcugen_host"
    link_flags = ["-fsanitize=address,undefined"] if sanitize else []
    _run([cc, *link_flags, *map(str, objects.values()), "-lm", "-o", str(program)], "linking", user_files)
    out.written["mcugen_host"] = ""  # the compiler's: rebuilt every time, never edited
    out.finish()
    return BuildResult(out.root, program, g.arena.plan.size, generated.const_bytes,
                       model=sizes(objects[sources.model]),
                       kernels=sum((sizes(objects[k]) for k in sources.kernels), Sizes()))


def format_report(r: BuildResult, g: Compiled) -> str:
    weights = g.weight_bytes
    lines = [f"  arena       {r.arena_bytes:>9,} B  activations, planned at build time ({g.arena.plan.strategy})",
             f"  constants   {r.model.rodata:>9,} B  model.o rodata: weights {weights:,} B in the model file, "
             f"{r.const_bytes:,} B of arrays emitted",
             f"  code        {r.code_bytes:>9,} B  model {r.model.text:,} B + kernels {r.kernels.text:,} B"]
    regions = g.arena.plan.region_sizes
    if regions:
        lines.insert(1, "  regions     " + ", ".join(f"{name} {size:,} B" for name, size in regions)
                     + f": each buffer in one ({regions[0][0]}'s is the arena above; the most accessed bytes in the "
                       "fastest region)")
    if g.arena.outside:
        held = sum(g.tensors[t].nbytes for t in g.inputs)
        lines.insert(1, f"  inputs      {held:>9,} B  read where the caller keeps them (--external-input: "
                        "NAME_set_input), not in the arena")
    if g.variables:
        lines.insert(1, f"  variables   {state_layout(g.variables)[1]:>9,} B  state kept between invocations "
                        f"({len(g.variables)} variable(s), beside the arena; NAME_reset() restores it)")
    if g.weights_out:
        lines.append(f"  weights     of {len(g.weights_out)} layers in {g.weights_region}"
                     + (" (copied there at start-up: no flash wait states on their reads)" if g.weights_region == RAM
                        else ""))
    elif g.weights_region == RAM:
        lines.append("  weights     all in flash: no layer's fit the RAM the arena and variables leave (--weights ram)")
    widened = [op for op in g.ops if widens(op.call)]
    if widened:
        held = sum(g.tensors[t].nbytes for op in widened for t in set(op.inputs) if t >= 0 and g.tensors[t].is_const)
        lines.append(f"  widened     {len(widened)} layer(s) read int8 weights widened to int16 in flash, for speed: "
                     f"{sum(const_bytes(op.call) for op in widened):,} B of constants for {held:,} B of the "
                     "model's weights (--optimize size keeps them int8)")
    if g.banded is not None:
        lines.append("  patches     " + describe_banding(g))
    if r.image.flash:
        lines.append(f"  firmware    flash {r.image.flash:,} B, RAM {r.image.ram:,} B + stack {r.stack_bytes:,} B")
    return "\n".join(lines)


def describe_banding(g: Compiled) -> str:
    """Patch-based inference, in a line: the stage, its bands, the arena and the MACs against the whole run."""
    b = g.banded
    assert b is not None
    grown = macs(g) - b.whole_macs
    whole = (f"{b.whole_arena:,} B whole-tensor" if b.whole_arena is not None else "the whole-tensor plan fits no RAM")
    grid = (f"{b.bands} bands of rows" if b.columns == 1 else
            f"{b.bands}x{b.columns} patches ({b.bands} bands of rows, each {b.columns} patches of columns)")
    flash = ("" if b.whole_const_bytes is None else
             f", {sum(layers_const_bytes(g)) - b.whole_const_bytes:+,} B of constants")
    return (f"layers {b.first} to {b.last} run in {grid}: arena {g.arena.plan.size:,} B ({whole}), "
            f"+{grown:,} MACs recomputed ({grown / max(b.whole_macs, 1):+.1%}){flash}; --patches off runs them whole")


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
