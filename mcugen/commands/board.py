"""Commands that make firmware: build, export (a C library), flash."""
from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcugen.commands.common import budget_of, refuse_overwrite, require_writable_folder, write_json
from mcugen.errors import McugenError

if TYPE_CHECKING:
    from mcugen.targets.boards import Board
    from mcugen.validation.cycles import Estimate


def default_out(model: str, board: str) -> Path:
    return Path("mcugen_build") / f"{Path(model).stem}-{board}"


def build_in(args, target, out_dir: Path, g):
    """The firmware (or host program) of g in out_dir, and the graph it holds: where the linked code took more of
    the chip's flash than the passes allowed for and less room for constants changes the model (weights moved to
    the board's external flash, or fewer filters widened), g compiled again with that room."""
    from mcugen.codegen.build import say
    from mcugen.codegen.outdir import OutDir
    from mcugen.targets.firmware import RegionOverflow
    from mcugen.targets.target import build_for

    harness = getattr(args, "harness", "mcugen")
    out = OutDir(out_dir, force=getattr(args, "force", False))
    out.claim(target.id, Path(args.model).name, harness)
    say(f"building {Path(args.model).name} for {target.id} in {out_dir}/"
        + ("" if harness == "mcugen" else f" (harness: {harness})"))

    def build(g):
        return build_for(target, g, out, Path(args.model).name, sanitize=args.sanitize,
                         progress=lambda line: say(f"  {line}"), harness=harness)

    try:
        return build(g), out, g
    except RegionOverflow as overflow:
        if target.board is None or overflow.region != "FLASH":
            raise
        tighter = compile_for(args, target, g.tuning, overflow.excess + FLASH_SLACK)
        if _internal_const_bytes(tighter, args) >= _internal_const_bytes(g, args):
            raise
        say(f"  the code took {overflow.excess:,} B more of the chip's flash than allowed for: compiling again with "
            "that much less room for constants")
        return build(tighter), out, tighter


# what the code may grow by when the model is compiled again with less room (its kernels may change)
FLASH_SLACK = 2048


def _internal_const_bytes(g, args) -> int:
    from mcugen.codegen.emit_c import emit_c

    return emit_c(g, Path(args.model).name).const_bytes


def compile_for(args, target, tuning=None, less_room: int = 0):
    """The model lowered for the target's core; with --tune, each layer's kernel measured first (unless
    `tuning` has them). less_room: the chip's flash has that much less room for constants than the board's
    budget says."""
    import dataclasses

    from mcugen.codegen.pipeline import compile_model

    budget = budget_of(args, target.board)
    if less_room:
        budget = dataclasses.replace(budget, **{f: max(0, getattr(budget, f) - less_room)
                                                for f in ("const_room", "internal_room")
                                                if getattr(budget, f) is not None})
    outputs = every_layer(args) if getattr(args, "layers", False) else tuple(args.outputs)
    if getattr(args, "layers", False):  # every layer's output kept whole: no layer runs in patches either
        budget = dataclasses.replace(budget, patches="off")
    if tuning is None and args.tune:
        if target.board is None or not target.features:
            raise McugenError(f"--tune chooses among a layer's kernel variants, and {target.id} "
                              "runs only the reference ones", "build without --tune")
        from mcugen.validation.tune import tune

        with tempfile.TemporaryDirectory(prefix="mcugen-tune-") as work:
            tuning = tune(Path(args.model), target.board, tuple(args.outputs), Path(work), args.signature)
        print(tuning.summary(), file=sys.stderr)
    return compile_model(args.model, outputs, features=target.features, tuning=tuning, budget=budget,
                         signature=args.signature, fp16=target.fp16_arithmetic)


def every_layer(args) -> tuple[str, ...]:
    """test --layers: the name of every tensor a layer computes (of the part --outputs keeps), in order."""
    from mcugen.codegen.pipeline import lower

    g = lower(args.model, tuple(args.outputs), args.signature)
    names = [g.tensors[t].name for op in g.ops for t in op.outputs if g.tensors[t].dtype != "resource"]
    repeated = sorted({n for n in names if names.count(n) > 1 or sum(t.name == n for t in g.tensors) > 1})
    if repeated:
        raise McugenError(f"--layers names each layer's output, and {len(repeated)} tensor name(s) repeat in "
                          f"{Path(args.model).name} (e.g. '{repeated[0]}')", "compare the model's own outputs "
                          "(drop --layers), or give the tensors distinct names")
    return tuple(names)


def cmd_build(args) -> int:
    from mcugen.codegen.build import format_report
    from mcugen.validation.report import write_report
    from mcugen.targets.target import Target

    for page in (args.json, args.html):
        if page:
            refuse_overwrite(Path(page), args.force)
    if args.out:
        require_writable_folder(Path(args.out), f"--out {args.out}")
    target = Target.of(args.board, stock=args.stock)
    twin = estimate_twin(target) if args.estimate else None
    g = compile_for(args, target)
    built_on = target
    board = target.board
    if twin is not None and board is not None and twin is not board and not args.stock and board.offline is None:
        # the board's own firmware needs its stock platform; the estimate needs only its twin's
        from mcugen.codegen.emit_c import emit_c
        from mcugen.targets.firmware import check_fit

        built_on = Target(twin)
        generated = emit_c(g, Path(args.model).name)
        check_fit(g, board, generated.const_bytes, external_bytes=generated.external_bytes)
        print(f"{target.id} has no offline build (its firmware needs the stock platform: --stock); building for "
              f"its emulated twin {twin.id}, the same core and kernels, to estimate it", file=sys.stderr)
    out_dir = Path(args.out) if args.out else default_out(args.model, built_on.id)
    result, out, g = build_in(args, built_on, out_dir, g)
    print(f"built {result.program}" + (f" (for {built_on.id})" if built_on is not target else ""))
    print(format_report(result, g))
    if target.board is not None and not target.board.emulated and built_on is target:
        wiring = target.wiring()
        if wiring:
            print(f"  serial      the {'stock' if args.stock else 'offline'} firmware talks on {wiring}")
    print(g.arena.plan.timeline() if args.report else
          f"  (arena plan: {len(g.arena.plan.buffers)} buffers; --report draws it)")
    estimate = None
    if twin is not None:
        estimate = estimate_on(target, twin, g, Path(args.model).name,
                               result.program if twin is built_on.board else None)
        print(estimate.line())
    if args.report:
        for path in write_report(g, out):
            print(f"wrote {path}")
    if args.json or args.html:
        from mcugen.validation.json_reports import build_report

        report = build_report(g, Path(args.model).name, args.board, result, args.optimize,
                              estimate.as_json() if estimate else None, built_on.id)
        if args.json:
            write_json(Path(args.json), report)
            print(f"wrote {args.json}")
        if args.html:
            from mcugen.commands.report import write_page

            write_page(Path(args.html), None, report)
    return 0


def estimate_twin(target):
    """The emulated board `build --estimate` runs on: the board's twin, whose core must have a cycle model."""
    from mcugen.targets.boards import emulated_twin

    if target.board is None:
        raise McugenError("--estimate costs a run on a board's core, and host is none",
                          "name a board (mcugen boards lists them)")
    twin = emulated_twin(target.board, "--estimate runs the model there")
    if twin.cpu.timing is None:
        raise McugenError(f"mcugen has no cycle model of the {target.board.cpu.name} (--estimate)",
                          "mcugen test --profile counts its instructions on the emulator")
    return twin


@dataclass(frozen=True)
class BoardEstimate:
    """`build --estimate`'s figures for the board: its twin's run costed by the core's model, and by the
    board's flash timing where its file gives one."""

    board: Board
    on: str  # the emulated board that ran it
    e: Estimate

    @property
    def with_flash_timing(self) -> int | None:
        return sum(self.e.layers_with_memory) if self.board.memory_timing is not None else None

    def line(self) -> str:
        board, e, ms = self.board, self.e, 1e3 / self.board.clock_hz
        line = (f"  estimated   {e.cycles:,} cycles at zero wait states ({e.cycles * ms:.2f} ms at "
                f"{board.clock_hz / 1e6:g} MHz; {e.instructions:,} instructions)")
        m, total = board.memory_timing, self.with_flash_timing
        if m is not None and total is not None:
            caches = ", ".join(f"{kind} cache {c.lines} x {c.line_bytes} B" for kind, c in
                               (("instruction", m.instruction_cache), ("data", m.data_cache)) if c)
            line += (f"\n              {total:,} with its flash timing ({total * ms:.2f} ms: {m.flash_wait_states} "
                     f"wait states{', prefetch' if m.prefetch else ''}{', ' + caches if caches else ''})")
        return line

    def as_json(self) -> dict[str, object]:
        """ms: one inference at the board's clock, with its flash timing where the file gives it."""
        timed = self.with_flash_timing
        return dict(on=self.on, instructions=self.e.instructions, cycles=self.e.cycles,
                    cycles_with_flash_timing=timed,
                    ms=round((timed if timed is not None else self.e.cycles) * 1e3 / self.board.clock_hz, 3))


def estimate_on(target, twin, g, name: str, program: Path | None = None) -> BoardEstimate:
    """`build --estimate`: one inference of random inputs on the board's emulated twin, costed by its
    core's model (mcugen/validation/cycles.py) and, where the board file gives it, its flash timing
    (mcugen/validation/memory.py). `program`: the firmware, when it was built for the twin."""
    from mcugen.codegen.build import say
    from mcugen.codegen.outdir import OutDir
    from mcugen.targets.firmware import build_board
    from mcugen.targets.target import Target
    from mcugen.validation.compare import random_inputs
    from mcugen.validation.cycles import estimate_cycles

    board = target.board
    say(f"estimating {board.cpu.name} cycles: one inference on {twin.id}, every instruction logged")
    with tempfile.TemporaryDirectory(prefix="mcugen-estimate-") as work:
        if program is None:
            program = build_board(g, twin, OutDir(Path(work)), name).program
        e = estimate_cycles(Target(twin), program, g, random_inputs(g, 1, seed=0)[0], twin.cpu,
                            memory=board.memory_timing)
    return BoardEstimate(board, twin.id, e)


def cmd_export(args) -> int:
    from mcugen.targets.boards import HOST, load_board
    from mcugen.codegen.emit_c import check_name, emit_c
    from mcugen.codegen.export import export_library, exported_files
    from mcugen.targets.firmware import check_fit
    from mcugen.codegen.outdir import OutDir
    from mcugen.codegen.pipeline import compile_model

    check_name(args.name)
    board = load_board(args.board) if args.board and args.board != HOST else None
    require_writable_folder(Path(args.out), f"--out {args.out}")
    out = OutDir(Path(args.out), force=args.force)
    features = board.features if board is not None else frozenset()
    g = compile_model(args.model, tuple(args.outputs), features=features, budget=budget_of(args, board),
                      signature=args.signature, fp16=board is not None and board.fp16_arithmetic)
    generated = emit_c(g, Path(args.model).name, name=args.name, static_arena=args.static_arena)
    if board is not None:
        check_fit(g, board, generated.const_bytes, harness_ram=0,  # the application's own RAM is its business
                  external_bytes=generated.external_bytes)
    from mcugen.codegen.build import Harness

    harness = None if args.harness == "mcugen" else Harness.of(args.harness, g, board.clock_hz if board else 0)
    export_library(g, out, generated, Path(args.model).name, args.format, features=features, harness=harness)
    files = exported_files(out.root)
    kernels = (f"the {' and '.join(sorted(f.upper() for f in features))} kernels of {board.id}"
               if features and board is not None else "the reference kernels")
    print(f"exported {Path(args.model).name} as {args.name} ({args.format}, {len(files)} files, {kernels}) "
          f"in {out.root}/")
    print(f"  arena {g.arena.plan.size:,} B ({args.name.upper()}_ARENA_BYTES), constants "
          f"{generated.const_bytes:,} B; API: {args.name}_init, {args.name}_{'set_input' if g.arena.outside else 'input'}"
          f", {args.name}_invoke, {args.name}_output in {args.name}.h")
    return 0


def sizes_of(result) -> dict:
    image = result.image if result.image.flash else result.model + result.kernels
    return dict(arena_bytes=result.arena_bytes, flash_bytes=image.flash,
                ram_bytes=image.ram + result.stack_bytes if result.image.flash else result.arena_bytes)


def cmd_flash(args) -> int:
    from mcugen.targets.flash import flash
    from mcugen.targets.target import Target

    return flash(Target.of(args.board, args.port, args.stock), Path(args.out) if args.out else None, args.serial)
