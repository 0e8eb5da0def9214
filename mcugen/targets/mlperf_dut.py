"""A client of the MLPerf Tiny benchmark's DUT protocol (what firmware built with `--harness
mlperf-tiny` speaks, mcugen/codegen/mlperf.py), written from the protocol's definition, for flashing's
handshake and the tests' whole performance run."""
from __future__ import annotations

import time

from mcugen.errors import McugenError
from mcugen.targets.transport import Stream


class Dut:
    """The runner's side of the DUT protocol over a byte stream (read/write, as pyserial's), written from
    its definition (benchmark/api/internally_implemented.cpp): a command is its words and '%', its answer
    the lines up to "m-ready"."""

    def __init__(self, stream: Stream, describe: str = "the board", timeout: float = 30.0):
        self.stream, self.describe, self.timeout = stream, describe, timeout
        self.pending = b""

    def _line(self, deadline: float) -> str:
        while b"\n" not in self.pending:
            if time.monotonic() > deadline:
                raise McugenError(f"{self.describe} sent no complete line in {self.timeout:g} s (so far: "
                                  f"{self.pending[-60:]!r})", "check that the firmware was built with --harness "
                                                              "mlperf-tiny and the port is the board's")
            self.pending += self.stream.read(4096)
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def until_ready(self) -> list[str]:
        deadline = time.monotonic() + self.timeout
        lines: list[str] = []
        while True:
            line = self._line(deadline)
            if line == "m-ready":
                return lines
            if line:
                lines.append(line)

    def command(self, text: str) -> list[str]:
        self.stream.write(text.encode() + b"%")
        return self.until_ready()

    def name(self) -> str:
        return _field(self.command("name"), "m-name-dut-")

    def profile(self) -> tuple[str, str]:
        lines = self.command("profile")
        return _field(lines, "m-profile-"), _field(lines, "m-model-")

    def load(self, data: bytes, chunk: int = 31) -> None:
        """As the runner loads an input: `db load N`, then hex in commands of `chunk` bytes."""
        answer = self.command(f"db load {len(data)}")
        if answer != [f"m-[Expecting {len(data)} bytes]"]:
            raise McugenError(f"{self.describe} refused {len(data)} bytes: {answer}", "load the model's input size")
        for k in range(0, len(data), chunk):
            answer = self.command("db " + data[k:k + chunk].hex())
        if "m-load-done" not in answer:
            raise McugenError(f"{self.describe} did not finish loading: {answer}", "load the model's input size")

    def infer(self, count: int, warmups: int) -> tuple[list[float], int]:
        """(the results vector, microseconds between the two timestamps around the `count` inferences)."""
        lines = self.command(f"infer {count} {warmups}")
        laps = [int(line.removeprefix("m-lap-us-")) for line in lines if line.startswith("m-lap-us-")]
        if len(laps) != 2:
            raise McugenError(f"{self.describe} answered infer with {lines}", "check the firmware's harness")
        return [float(v) for v in _field(lines, "m-results-").split(",")], laps[1] - laps[0]


def _field(lines: list[str], prefix: str) -> str:
    for line in lines:
        if line.startswith(prefix + "[") and line.endswith("]"):
            return line[len(prefix) + 1:-1]
    raise McugenError(f"no {prefix}[...] line in the answer {lines}", "check the firmware's harness")

