"""On-target validation: send inputs over the protocol, compare outputs with the golden model."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from mcugen import ops
from mcugen.ops.custom import UserOp

from mcugen.validation import golden
from mcugen.validation.accuracy import judge
from mcugen.validation.compare import differences, differing
from mcugen.errors import McugenError
from mcugen.ir.graph import Compiled, Graph
from mcugen.targets.protocol import Link, TargetFault, TargetInfo
from mcugen.targets.target import Target, connect

STALE_FIX = "the board runs firmware for a different model; run mcugen flash"


@dataclass
class OutputDiff:
    """How one output differs from the golden model (what ST's validate reports)."""

    max_abs_diff: float  # in quantized steps (LSB), or in real units for a float output
    differing: int
    rmse: float  # in real units, scale * (q - zero_point)
    cosine: float
    unit: str = "LSB"  # of max_abs_diff: quantized steps, or "real" for a float output

    @classmethod
    def of(cls, ours: np.ndarray, theirs: np.ndarray, scale: float) -> "OutputDiff":
        differing, worst = differences(ours, theirs)
        a, b = ours.astype(np.float64).ravel(), theirs.astype(np.float64).ravel()
        with np.errstate(invalid="ignore", over="ignore"):  # float outputs may hold infinities and NaNs
            d = a - b
            norm = np.linalg.norm(a) * np.linalg.norm(b)
            return cls(worst, differing,
                       float(np.sqrt(np.mean((d * scale) ** 2))) if d.size else 0.0,
                       float(a @ b / norm) if norm else float(np.array_equal(a, b)),
                       "real" if ours.dtype.kind == "f" else "LSB")


@dataclass(frozen=True)
class TimeUnit:
    """What the target's time counts mean, in the unit reports use: `name` = raw count * factor.

    host: ns of wall time. Hardware: core cycles (DWT). QEMU: instructions, since under
    -icount shift=0 each instruction takes 1 ns of virtual time and SysTick counts at the board's
    clock, i.e. one tick per 1e9 / clock_hz instructions (40 on the 25 MHz MPS2 boards); checked
    against an exact instruction-count plugin within 60 instructions per inference.
    ms: milliseconds per unit at the board's clock (an estimate for instructions: one per cycle).
    """

    name: str
    factor: float
    ms: float

    @classmethod
    def of(cls, clock: str, target: Target) -> TimeUnit:
        if target.board is None or clock == "ns":
            return cls("ns", 1.0, 1e-6)
        hz = target.board.clock_hz
        if clock == "systick":
            return cls("instructions", 1e9 / hz, 1e3 / hz)
        return cls(clock, 1.0, 1e3 / hz)

    def count(self, raw: int) -> int:
        return int(round(raw * self.factor))


@dataclass
class SampleResult:
    index: int
    passed: bool
    cycles: int  # raw counts of the target's clock (`clock`); `unit` says what they are
    clock: str  # ns, cycles or systick
    outputs: list[OutputDiff]
    layer_cycles: list[int] = field(default_factory=list)
    unit: TimeUnit | None = None
    values: list[np.ndarray] = field(default_factory=list, repr=False)  # the target's outputs
    judged: dict = field(default_factory=dict, repr=False)  # accuracy.judge: what the metrics need

    @property
    def time(self) -> int:
        return self.unit.count(self.cycles) if self.unit else self.cycles

    def line(self, total: int) -> str:
        head = f"sample {self.index + 1}/{total}: "
        timing = f"{self.time:,} {self.unit.name if self.unit else self.clock}"
        if self.passed:
            return head + f"bit-exact, {timing}"
        worst = ", ".join(f"output {k}: {d.differing} differ, max |diff| {d.max_abs_diff:g} {d.unit}, "
                          f"rmse {d.rmse:.4g}, cosine {d.cosine:.6f}"
                          for k, d in enumerate(self.outputs) if d.differing)
        return head + f"MISMATCH ({worst}), {timing}"


def check_target(info: TargetInfo, g: Compiled, describe: str) -> None:
    """The handshake: the firmware must have been built from this very model."""
    if info.sha256 != g.sha256:
        raise McugenError(f"{describe} runs firmware for another model (sha256 {info.sha256[:12]}…, "
                          f"this model {g.sha256[:12]}…)", STALE_FIX)
    def described(tensors):
        return [(g.tensors[t].nbytes, g.tensors[t].shape) for t in tensors]

    if (info.inputs, info.outputs, info.arena_bytes) != (described(g.inputs), described(g.outputs),
                                                         g.arena.plan.size):
        raise McugenError(f"{describe} reports different tensors or arena than this build", STALE_FIX)


def expected_seconds(g: Graph, target: Target) -> float:
    """A generous guess of one inference's wall time, before the first one is measured: about 4
    instructions per MAC and 20 per value written (what mcugen's kernels take on a Cortex-M4),
    at half the board's clock, 20 MIPS under QEMU on a loaded machine, 100 MIPS on the host
    (sanitizer builds are that slow)."""
    instructions = sum(4 * ops.get(g, op).macs(g, op)
                       + 20 * sum(math.prod(g.tensors[t].shape) for t in op.outputs) for op in g.ops)
    if target.board is None:
        rate = 1e8
    else:
        rate = 2e7 if target.board.emulated else target.board.clock_hz / 2
    return instructions / rate


def run_samples(link: Link, g: Graph, samples, *, clock: str, timeout: float,
                seconds: float = 1.0, profile: bool = False, on_sample=None,
                unit: TimeUnit | None = None, reset_every: int | None = None, indices: range | None = None,
                labels=None) -> list[SampleResult]:
    """Validate samples[s] for s in `indices` (all by default); `timeout` bounds one inference (its
    retries included), `seconds` is a guess of its wall time (expected_seconds); `labels` (one class
    per sample, or None) go into each sample's judgement (accuracy.judge).

    Samples are consecutive steps: a stateful model keeps its state from one to the next, on the
    target as in the golden model, both starting from the boot state (the target is reset first:
    a real board keeps its state from an earlier run) and both reset before every sample whose
    index is a multiple of `reset_every`."""
    results = []
    # real units: quantized outputs are scaled, float outputs already are real values
    scales = [q.s if (q := g.tensors[t].quant) is not None and g.tensors[t].dtype != "float32" else 1.0
              for t in g.outputs]
    runner = golden.Runner(g)
    link.reset()
    indices = range(len(samples)) if indices is None else indices
    for s in indices:
        inputs = samples[s]
        if s != indices.start and reset_every and s % reset_every == 0:
            link.reset()
            runner.reset()
        expected = runner.run(inputs)
        for k, x in enumerate(inputs):
            link.write_input(k, np.ascontiguousarray(x).tobytes())
        cycles = link.invoke(seconds, timeout)
        diffs, values, passed = [], [], True
        for k, (t, want) in enumerate(zip(g.outputs, expected)):
            got = np.frombuffer(link.read(0, k, g.tensors[t].nbytes), dtype=want.dtype).reshape(want.shape)
            diffs.append(OutputDiff.of(got, want, scales[k]))
            values.append(got)
            passed &= not differing(got, want).any()  # floats too: the same bit patterns
        layers = link.layer_cycles(len(g.ops)) if profile else []
        judged = judge(g, values, expected, None if labels is None else labels[s])
        results.append(SampleResult(s, passed, cycles, clock, diffs, layers, unit, values, judged))
        if on_sample:
            on_sample(results[-1])
    return results


def _named(fault: TargetFault, g: Compiled) -> McugenError:
    """The fault with its layer named: the op, where the file has it, and the kernel that ran."""
    if not 0 <= fault.layer < len(g.ops):
        return fault
    op = g.ops[fault.layer]
    runs = g.ops[op.fused_into].call if op.fused_into is not None else op.call
    kernel = f" on {runs.kernel}" if runs is not None else ""
    opdef = ops.definition(g, op)
    fix = (f"the fault is in your custom op's C kernel ({opdef.source.name}, --ops): fix it there"
           if isinstance(opdef, UserOp) else fault.fix)
    return McugenError(f"{fault.problem}: {op.opcode} (op {op.origin} in the file){kernel}", fix)


def run_on_target(target: Target, program, g: Compiled, samples, *, timeout: float = 120.0, profile: bool = False,
                  on_sample=None, reset_every: int | None = None, indices: range | None = None,
                  labels=None) -> tuple[TargetInfo, list[SampleResult]]:
    """Connect (starting the host process or QEMU when needed), check the handshake, validate
    samples[s] for s in `indices` (all by default), in order (several targets at once: cluster.py)."""
    indices = range(len(samples)) if indices is None else indices
    with connect(target, program) as link:
        info = link.hello()
        check_target(info, g, link.describe)
        try:
            return info, run_samples(link, g, samples, clock=info.clock, timeout=timeout,
                                     seconds=expected_seconds(g, target), profile=profile, on_sample=on_sample,
                                     unit=TimeUnit.of(info.clock, target), reset_every=reset_every,
                                     indices=indices, labels=labels)
        except TargetFault as fault:
            raise _named(fault, g) from None
