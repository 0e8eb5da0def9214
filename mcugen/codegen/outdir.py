"""The build directory: mcugen writes only inside it and never over files it did not write.

A manifest (.mcugen-manifest) lists every file mcugen wrote there, with the sha256 of what it wrote. A
directory that exists, is not empty and has no manifest, or holds files the manifest does not list, is
refused; so is overwriting or deleting a file mcugen wrote that has changed since (a generated file the
user edited), unless `force`. A stamp
(mcugen-build.json) says which model file and board the folder holds a build of: building
another model or for another board there, or flashing it to another board, is refused.

One process at a time: the folder is locked (an advisory lock on its manifest, released by
release_locks() at the end of a command, or when the process ends, however it ends) from the
moment mcugen opens it, and another process that wants the same folder is refused at once instead
of writing between the first one's files.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from mcugen.errors import McugenError

MANIFEST = ".mcugen-manifest"
STAMP = "mcugen-build.json"
SCRATCH_DIRS = (".build", ".pio")  # build products, recreated at will
_HELD: dict[Path, IO[str]] = {}  # folder -> its locked manifest, open for as long as this process holds it


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class OutDir:
    def __init__(self, root: Path, force: bool = False):
        self.root = Path(root)
        self.force = force  # overwrite (or delete) a generated file that changed since mcugen wrote it
        self.written: dict[str, str] = {}  # file -> the sha256 of what this build wrote
        had_manifest = (self.root / MANIFEST).exists()
        self._lock = self._take_lock()
        try:
            self._check()
        except McugenError:
            if not had_manifest:  # the user's folder is left as it was
                _HELD.pop(self.root.resolve()).close()
                (self.root / MANIFEST).unlink(missing_ok=True)
            raise

    def _take_lock(self) -> IO[str] | None:
        """The open manifest, locked for this process (None where the OS has no flock: Windows)."""
        key = self.root.resolve()
        if sys.platform == "win32" or key in _HELD:
            return _HELD.get(key)
        import fcntl

        if self.root.exists() and not self.root.is_dir():
            raise McugenError(f"{self.root} is a file, not a directory", "choose another --out")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            handle = open(self.root / MANIFEST, "a")
        except OSError as exc:
            raise McugenError(f"cannot write in {self.root} ({exc.strerror})",
                              "choose a writable --out folder") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise McugenError(f"{self.root} is in use by another mcugen process",
                              "wait for it to finish, or choose another --out folder") from None
        _HELD[key] = handle
        return handle

    def _check(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise McugenError(f"{self.root} is a file, not a directory", "choose another --out")
        if not self.root.exists():
            return
        manifest = self.root / MANIFEST
        present = {str(p.relative_to(self.root)) for p in self.root.rglob("*")
                   if p.is_file() and p.name != MANIFEST
                   and p.relative_to(self.root).parts[0] not in SCRATCH_DIRS}
        if not present and not manifest.exists():
            return
        known = set(self._listed())
        foreign = sorted(present - known)
        if foreign:
            raise McugenError(f"{self.root} holds files mcugen did not write ({foreign[0]}"
                              + (f" and {len(foreign) - 1} more" if len(foreign) > 1 else "") + ")",
                              "move them away or choose another --out directory")

    def claim(self, board: str, model: str, harness: str = "mcugen") -> None:
        """Make this folder the build of `model` (a file name: a retrained model keeps its build
        folder) for `board`, refusing one that holds another's; `harness`: the protocol its firmware
        speaks (mcugen.codegen.build.HARNESSES), which `flash` checks."""
        held = stamp_of(self.root)
        if held is not None and (held.get("board"), held.get("model")) != (board, model):
            raise McugenError(f"{self.root} holds the build of {held.get('model')} for {held.get('board')}, "
                              f"not {model} for {board}", "choose another --out, or delete that folder")
        self.write(STAMP, json.dumps(dict(model=model, board=board, harness=harness), indent=2) + "\n")

    def write(self, relative: str, content: str | bytes) -> Path:
        path = self.root / relative
        self._refuse_changed(relative)
        data = content.encode() if isinstance(content, str) else content
        tmp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, path)
            self.written[relative] = hashlib.sha256(data).hexdigest()
            self._write_manifest({**self._listed(), **self.written})
        except OSError as exc:  # a full disk, a read-only folder: the earlier file stays as it was
            tmp.unlink(missing_ok=True)
            raise McugenError(f"cannot write {path} ({exc.strerror})",
                              "free disk space or choose a writable --out folder") from None
        return path

    def finish(self) -> None:
        """Delete files an earlier build wrote that this one did not (a kernel no longer needed)."""
        stale = sorted(set(self._listed()) - set(self.written))
        for name in stale:
            self._refuse_changed(name)
        for name in stale:
            (self.root / name).unlink(missing_ok=True)
        self._write_manifest(self.written)

    def _refuse_changed(self, relative: str) -> None:
        """A file an earlier build wrote, changed since (by hand): the user's work, kept unless --force."""
        recorded = self._listed().get(relative, "")
        path = self.root / relative
        if recorded and not self.force and path.is_file() and _digest(path) != recorded:
            raise McugenError(f"{path} was changed since mcugen wrote it", "move your changes elsewhere, or pass "
                              "--force to overwrite them")

    def _listed(self) -> dict[str, str]:
        """The manifest: file -> sha256 of what mcugen wrote ('' in a manifest of names only)."""
        manifest = self.root / MANIFEST
        if not manifest.exists():
            return {}
        listed = {}
        for line in manifest.read_text().split("\n"):
            digest, _, name = line.partition("  ")
            if line and not name:  # an older manifest: names only
                digest, name = "", line
            if name:
                listed[name] = "" if digest == "-" else digest
        return listed

    def _write_manifest(self, files: dict[str, str]) -> None:
        (self.root / MANIFEST).write_text("".join(f"{files[name] or '-'}  {name}\n" for name in sorted(files)))

    def scratch(self, name: str = ".build") -> Path:
        path = self.root / name
        path.mkdir(parents=True, exist_ok=True)
        return path


def release_locks() -> None:
    """Let other processes have the folders this one used (the end of a command)."""
    while _HELD:
        _HELD.popitem()[1].close()


def stamp_of(root: Path) -> dict[str, Any] | None:
    """The model and board a build folder holds, None for a folder without a stamp."""
    try:
        return json.loads((Path(root) / STAMP).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise McugenError(f"{root}/{STAMP} is unreadable ({exc})", "delete the build folder and build again") from None
