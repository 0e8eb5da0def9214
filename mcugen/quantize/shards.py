"""`quantize --search --shard K/N --shard-dir DIR`: one search run by N processes (on one machine or on
several sharing DIR), each measuring accuracy on its contiguous slice of the evaluation samples.

Every shard runs the same search. Where it needs a candidate's accuracy it writes its slice's tally to
DIR and waits for the other shards' (the tallies joined in shard order are exactly the whole set's, so
every shard takes the same decisions as one process would); shard 1 alone builds and measures each
candidate on the emulator and publishes the cost, which the others read. Shard 1 validates the choice
and writes the outputs; the others end when the search does. Each file carries the run's fingerprint
(model, data, options, N): a shard of another run sharing DIR is an error, not a silent mix.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcugen.codegen.build import say
from mcugen.errors import McugenError

POLL_SECONDS = 0.2


@dataclass(frozen=True)
class Shards:
    k: int  # this shard, 1..n
    n: int
    folder: Path
    fingerprint: str
    timeout: float  # seconds a shard waits for the others at one candidate

    @property
    def leads(self) -> bool:
        return self.k == 1

    def share(self, key: tuple[str, ...], kind: str, mine: Any) -> list[Any]:
        """Publish this shard's `mine` for the candidate `key`; every shard's, in shard order."""
        self._write(self._path(key, kind, self.k), mine)
        return [mine if j == self.k else self._read(self._path(key, kind, j), kind) for j in range(1, self.n + 1)]

    def publish(self, key: tuple[str, ...], kind: str, value: Any) -> None:
        self._write(self._path(key, kind, 0), value)

    def receive(self, key: tuple[str, ...], kind: str) -> Any:
        return self._read(self._path(key, kind, 0), kind)

    def _path(self, key: tuple[str, ...], kind: str, shard: int) -> Path:
        name = hashlib.sha256("\0".join(key).encode()).hexdigest()[:20]
        return self.folder / f"{name}.{kind}.{shard or 'lead'}.json"

    def _write(self, path: Path, value: Any) -> None:
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(dict(run=self.fingerprint, value=value)))
        part.replace(path)  # whole or absent for the readers

    def _read(self, path: Path, kind: str) -> Any:
        start, said = time.monotonic(), False
        while not path.exists():
            if time.monotonic() - start > self.timeout:
                raise McugenError(f"shard {self.k}/{self.n}: no {kind} from the other shards in {self.folder} after "
                                  f"{self.timeout:g} s ({path.name} is missing)",
                                  "start every shard of the run with the same options and --shard-dir, or raise "
                                  "--shard-timeout")
            if not said and time.monotonic() - start > 5:
                say(f"    shard {self.k}/{self.n}: waiting for the other shards' {kind}")
                said = True
            time.sleep(POLL_SECONDS)
        record = json.loads(path.read_text())
        if record.get("run") != self.fingerprint:
            raise McugenError(f"{self.folder} holds shards of another run ({path.name}): its model, data or options "
                              "differ from this shard's", "give each run a --shard-dir of its own")
        return record["value"]


def fingerprint(parts: list[bytes | str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()
