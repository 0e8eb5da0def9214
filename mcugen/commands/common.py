"""What the commands share: writing files without losing the user's, progress on stderr, notes."""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.budget import Budget


def progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        end = "\n" if done == total else ""
        print(f"\r  sample {done}/{total}", end=end, file=sys.stderr, flush=True)
    elif done == total or done % max(10, total // 20) == 0:
        print(f"  sample {done}/{total}", file=sys.stderr, flush=True)


def require_writable_folder(folder: Path, what: str) -> None:
    """Checked before any work: a file can be created in `folder`, or in its nearest existing
    ancestor where mcugen will create it. Tried, not guessed from permission bits (root passes
    those, and /sys or /proc or a read-only mount still refuse)."""
    if folder.exists() and not folder.is_dir():
        raise McugenError(f"cannot write {what}: {folder} is not a folder", "choose another path")
    ancestor = folder
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    try:
        if not ancestor.is_dir():
            raise NotADirectoryError(20, "not a directory")
        with tempfile.TemporaryFile(dir=ancestor):
            pass
    except OSError as exc:
        raise McugenError(f"cannot write {what}: {ancestor} is not a writable folder ({exc.strerror})",
                          "choose another path") from None


def refuse_overwrite(path: Path, force: bool) -> None:
    """Checked before any work: mcugen replaces only regular files, and only with --force, in a
    folder it can write."""
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise McugenError(f"{path} exists and is not a regular file", "choose another path")
        if not force:
            raise McugenError(f"{path} already exists", "choose another path or pass --force")
    require_writable_folder(path.parent, str(path))


def _new_file_mode(path: Path) -> int:
    """What open() would give under the user's umask, or the replaced file's mode if that is wider:
    mkstemp's 0600 would hide a report from teammates and artifact servers."""
    umask = os.umask(0)
    os.umask(umask)
    mode = 0o666 & ~umask
    try:
        mode |= path.stat().st_mode & 0o777
    except OSError:
        pass
    return mode


def write_atomically(path: Path, write, suffix: str) -> None:
    """The file appears whole or not at all; a failure leaves what was there."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=suffix + ".tmp")
        try:
            os.fchmod(fd, _new_file_mode(path))
            with os.fdopen(fd, "wb") as f:
                write(f)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError as exc:  # a full disk, a read-only or virtual file system
        raise McugenError(f"cannot write {path} ({exc.strerror})", "choose another path") from None


def write_npz_atomically(path: Path, arrays: dict) -> None:
    write_atomically(path, lambda f: np.savez(f, **arrays), ".npz")


def write_json(path: Path, report: dict) -> None:
    write_atomically(path, lambda f: f.write((json.dumps(report, indent=2) + "\n").encode()), ".json")


SAMPLE_LINES = 20  # a run of more samples shows a progress bar, and a line only for a sample that differs


def progress_bar(total: int):
    from tqdm import tqdm

    # without a terminal (CI logs) `progress` prints plain lines instead of a redrawn bar
    return tqdm(total=total, unit="sample", file=sys.stderr, disable=total <= 1 or not sys.stderr.isatty(),
                dynamic_ncols=True, leave=False)


def steps_note(g, reset_every: int | None) -> str:
    if not g.variables:
        return ""
    kept = f"reset every {reset_every} steps" if reset_every else "never reset"
    from mcugen.ir.planner import state_layout

    return f"; consecutive steps: the model's state ({state_layout(g.variables)[1]:,} B) is kept, {kept}"


def oracle_name(model: Path, signature: str | None = None) -> str:
    """What mcugen checks the golden model against for this model, and why not TFLM."""
    from mcugen.validation.oracle import oracle_for

    try:
        oracle, which = oracle_for(model, signature=signature)
    except McugenError as exc:  # the oracles are not installed
        return f"none ({exc.problem})"
    if oracle is not None:
        oracle.close()
    return which if oracle is not None else f"none ({which})"


def oracles_refuse(g, oracle: str) -> str | None:
    """Why mcugen refuses a model no oracle runs (`oracle`: oracle_name's), None where one runs it or where the
    user's own ops (--ops, which no oracle knows) are why none can."""
    from mcugen import ops
    from mcugen.ops.custom import UserOp

    if not oracle.startswith("none (") or "not installed" in oracle:
        return None
    if any(isinstance(ops.definition(g, op), UserOp) for op in g.ops):
        return None
    return (f"TFLM does not run it, nor LiteRT's reference kernels ({oracle[6:-1]}): what TFLM refuses or crashes "
            "on, mcugen does not build")


def budget_of(args, board) -> Budget:
    """What the model may take on `board` (its budget: Board.budget) with --weights and --optimize, the RAM
    regions with --region-bytes and --region-cost applied, the --pin requests (tensor, region), and --patches
    with the room --max-arena leaves; the host's: none but the last."""
    import dataclasses

    budget = _board_budget(args, board)
    room = min((r for r in (budget.arena_room, args.max_arena) if r is not None), default=None)
    return dataclasses.replace(budget, patches=args.patches, arena_room=room, max_arena=args.max_arena,
                               external_inputs=getattr(args, "external_input", False))


def _board_budget(args, board) -> Budget:
    import dataclasses

    overrides = args.region_bytes + args.region_cost + args.pin
    if board is None:
        if overrides or args.weights != "auto":
            raise McugenError("--region-bytes, --region-cost, --pin and --weights place the model in a board's "
                              "memory regions", "pass --board with a board id")
        return Budget()
    regions = board.arena_regions(always=bool(overrides))
    if regions is None:
        return board.budget(args.weights, optimize=args.optimize)
    names = [r.name for r in regions]

    def split(option: str, text: str) -> tuple[str, str]:
        key, sep, value = text.partition("=")
        if not sep or not key or not value:
            raise McugenError(f"{option} {text!r} is not NAME=VALUE", f"e.g. {option} {names[-1]}=8192")
        return key, value

    def region(option: str, name: str) -> int:
        if name not in names:
            raise McugenError(f"{option}: {board.id} has no RAM region named {name}", f"use one of {', '.join(names)}")
        return names.index(name)

    def number(option: str, text: str, value: str, low: int, high: int) -> int:
        if not value.isdigit() or not low <= int(value) <= high:
            raise McugenError(f"{option} {text}: {value} is not a whole number from {low:,} to {high:,}",
                              f"give {option} a number in that range")
        return int(value)

    chosen = list(regions)
    for text in args.region_bytes:
        name, value = split("--region-bytes", text)
        k = region("--region-bytes", name)
        chosen[k] = dataclasses.replace(chosen[k], capacity=number("--region-bytes", text, value, 1,
                                                                   chosen[k].capacity))
    for text in args.region_cost:
        name, value = split("--region-cost", text)
        k = region("--region-cost", name)
        chosen[k] = dataclasses.replace(chosen[k], rank=number("--region-cost", text, value, 0, 99))
    pins = []
    for text in args.pin:
        tensor, name = text.rpartition("=")[0], text.rpartition("=")[2]
        if not tensor:
            raise McugenError(f"--pin {text!r} is not TENSOR=REGION", f"e.g. --pin conv_out={names[-1]}")
        pins.append((tensor, names[region("--pin", name)]))
    return board.budget(args.weights, tuple(chosen), tuple(pins), args.optimize)
