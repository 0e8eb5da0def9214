"""Cortex-M55: in-order issue, Helium instructions as beats, limited dual issue.

Sources: Arm's Cortex-M55 Software Optimization Guide is not among the sources this project can read;
the figures below are those of the Cortex-M55 scheduling model Arm contributed to LLVM
(llvm/lib/Target/ARM/ARMScheduleM55.td), which is written from it. What neither gives is marked
"assumed".

- One instruction issues per cycle, in order. A 16-bit instruction issues with the 16-bit one before
  it when one of the two is a move, an add or subtract of an immediate, an extend, a NOP, an IT or a
  branch, and it does not read what that one writes (the pair costs the first one's cycle).
- Helium has four pipes: load/store, integer, float/multiply and control. A Helium instruction takes
  two beats (the M55 is dual-beat: 128 bits in two 64-bit halves), so it holds its pipe for two
  cycles, and the next one overlaps its second beat unless it needs the same pipe (VLDR;VMUL;VLDR
  costs 1 + 1 + 1 and VLDR;VLDR costs 2 + ... ). VPST, VCTP and VPNOT hold the control pipe for one.
- A result is ready `latency` cycles after issue; an instruction that reads it waits (latencies of
  LLVM's model: most loads and integer ops 1, multiplies, MACs, reductions and rounding shifts 2,
  narrowing moves and shifts 3, 32-bit VMAXV/VMINV 4; scalar loads, multiplies and shifted-operand
  ALU ops 2; VFP arithmetic 2, VMLA.F32 4, VDIV/VSQRT 16).
- Scalar floating point (VFP) uses the same pipes, one cycle each; VDIV and VSQRT hold the float
  pipe for 14 (assumed: the divider is not pipelined).
- A taken branch costs `refill` more (LLVM's misprediction penalty, 3: the M55 predicts no branch;
  assumed). A taken LE/LETP costs nothing: the low-overhead-branch cache sends the fetch back to the
  loop's start (assumed for every iteration, the first included); the LE that ends a loop costs 1.
- LDM/STM/PUSH/POP move 64 bits a cycle: 1 + registers / 2 (assumed); LDRD/STRD 1; SDIV/UDIV `divide`.
Not modelled: memory wait states and TCM bank conflicts, Helium and scalar loads competing for the
data port, a dependency on an instruction three or more back.
"""
from __future__ import annotations

import re

import numpy as np

from mcugen.targets.boards import Timing
from mcugen.validation.core_models.issue import after_a_jump, paired
from mcugen.validation.disassembly import CORE, Decoded, register_names

FIELDS = ("size", "cost", "pipe", "beats", "latency", "reads", "writes", "dual", "kind")
NONE, LOAD_STORE, INTEGER, FLOAT, CONTROL = range(5)  # pipes
PLAIN, TAKES_PC, LOOP_END = range(3)  # kinds
LONE, PAIRS, PAIRS_WITH_ANY = range(3)  # dual issue

# Helium operations by pipe and latency (LLVM's ARMScheduleM55.td); the first pattern that matches wins
_VECTOR = [(re.compile(f"^(?:{pattern})$"), pipe, latency) for pattern, pipe, latency in [
    (r"vld[24][0-3]|vldr[bhwd]|vst[24][0-3]|vstr[bhwd]", LOAD_STORE, 1),
    (r"vctp|vpnot|vpst[te]*", CONTROL, 1),
    (r"vabav|v(q|r|qr)?shru?n[bt]|vq?movu?n[bt]", INTEGER, 3),
    (r"vadc|vsbc|vqr?shl|vrshl|vrshr|vmullp", INTEGER, 2),
    (r"vcmp|vpt[te]*|v(max|min)nma?", FLOAT, 1),
    (r"vaddl?va?|vcmla|vcmul|vcvt|vfm[as]|vq?r?d?mulh|vq?d?mull[bt]?|vmul|vq?r?d?ml[as].*|vr?ml[as]l.*|vrint",
     FLOAT, 2),
]]
# integer on the integer pipe, float on the float one
_EITHER = frozenset("vabd vabs vneg vadd vsub vmax vmin vcadd".split())


def _vector(insn: Decoded) -> tuple[int, int]:
    """A Helium instruction's pipe and latency."""
    op = insn.operation
    if op in _EITHER and insn.data_type.startswith("f"):
        return FLOAT, 2 if any(o in CORE for o in insn.operands) else 1  # a scalar operand: one cycle more
    if op in ("vmaxv", "vminv", "vmaxav", "vminav"):  # across the lanes: longer for wider elements
        return INTEGER, {"8": 2, "16": 3}.get(insn.data_type[1:], 4)
    if op == "vmov":
        if insn.operands[0] in CORE:
            return FLOAT, 1  # from a lane
        return (FLOAT, 2) if insn.operands[-1].startswith("#") else (INTEGER, 1)  # an immediate; q to q, to a lane
    for pattern, pipe, latency in _VECTOR:
        if pattern.match(op):
            return pipe, latency
    return INTEGER, 1


_SHIFTS = re.compile(r", (lsl|lsr|asr|ror) ")
_DUAL_ANY = frozenset("mov movs add adds sub subs uxtb uxth sxtb sxth nop it b cbz cbnz".split())
_TWO_CYCLE = re.compile(r"^(ssat|usat|ssat16|usat16|q.*|uq.*|sbfx|ubfx|[su]xta[bh]|[su]xtab16|[su]add.*|[su]sub.*"
                        r"|[su]asx|[su]sax|[su]h.*|sel|clz)$")


def describe(insn: Decoded, timing: Timing) -> tuple[int, ...]:
    op = insn.operation
    kind = LOOP_END if op in ("le", "letp") else TAKES_PC if insn.writes_pc else PLAIN
    cost, pipe, beats, latency, dual = 1, NONE, 1, 1, LONE
    if insn.vector:
        pipe, latency = _vector(insn)
        beats = 1 if pipe == CONTROL else 2
    elif op.startswith("v"):  # scalar floating point
        if insn.kind in ("load", "store"):
            words = sum(2 if n.startswith("d") else 1 for n in register_names(insn.listed or insn.operands[0]))
            pipe, beats, latency = LOAD_STORE, max(1, (words + 1) // 2), 2 if insn.kind == "load" else 1
        elif op in ("vdiv", "vsqrt"):
            pipe, beats, latency = FLOAT, 14, 16
        elif op in ("vmla", "vmls", "vnmla", "vnmls"):
            pipe, latency = FLOAT, 4
        elif op in ("vmov", "vmrs", "vmsr") and insn.operands and insn.operands[0] in CORE:
            pipe, latency = FLOAT, 1
        else:
            pipe, latency = FLOAT, 2
    else:
        if insn.listed:
            cost = 1 + len([n for n in register_names(insn.listed) if n in CORE]) // 2
            latency = 2 if insn.kind == "load" else 1
        elif insn.kind == "load":
            latency = 2
        elif op in ("sdiv", "udiv"):
            cost = latency = timing.divide
        elif insn.multiplies or _TWO_CYCLE.match(op):
            latency = 2
        elif insn.kind == "other" and len(insn.operands) > 2 and _SHIFTS.search(", " + ", ".join(insn.operands[2:])):
            latency = 2
        if insn.size == 2:
            plain_immediate = op in _DUAL_ANY and "sp" not in insn.operands and (
                op not in ("add", "adds", "sub", "subs") or insn.operands[-1].startswith("#"))
            dual = PAIRS_WITH_ANY if plain_immediate or op.startswith("it") else PAIRS
    return insn.size, cost, pipe, beats, latency, insn.reads, insn.writes, dual, kind


def costs(c: dict[str, np.ndarray], before2: np.ndarray, before: np.ndarray, now: np.ndarray,
          jumped: np.ndarray, timing: Timing, carried: dict) -> np.ndarray:
    known, known2 = before >= 0, before2 >= 0
    b, b2 = np.where(known, before, 0), np.where(known2, before2, 0)
    pipe = c["pipe"][now]
    same_pipe = known & (pipe != NONE) & (pipe == c["pipe"][b])
    stall = np.where(same_pipe, c["beats"][b] - 1, 0)
    reads = c["reads"][now]
    stall = np.maximum(stall, np.where(known & (reads & c["writes"][b] != 0), c["latency"][b] - 1, 0))
    # dual issue: a pair of 16-bit instructions, one of them of the kind that pairs with any, the
    # second not reading the first
    dual, dual_b = c["dual"][now], c["dual"][b]
    pairs = known & ~after_a_jump(jumped, carried) & (reads & c["writes"][b] == 0) & (stall == 0) \
        & (c["size"][now] == 2) & (c["size"][b] == 2) & (dual > LONE) & (dual_b > LONE) \
        & ((dual == PAIRS_WITH_ANY) | (dual_b == PAIRS_WITH_ANY))
    together = paired(pairs, carried)
    kind = c["kind"][now]

    def settled(cost: np.ndarray) -> np.ndarray:
        cost = np.where(kind == LOOP_END, np.where(jumped, 0, 1), cost)
        cost += np.where(jumped & (kind == TAKES_PC), timing.refill, 0)
        return cost + np.where(jumped & (kind == PLAIN), timing.exception, 0)

    first = settled(np.where(together, 0, c["cost"][now] + stall))
    # two back: what it writes, or the pipe it holds, may still be busy once the one before has issued
    spent = np.concatenate([[carried.get("cost", 1)], first[:-1]])
    late = np.where(known2 & (reads & c["writes"][b2] != 0), c["latency"][b2] - 1 - spent, 0)
    held = known2 & (pipe != NONE) & (pipe == c["pipe"][b2])
    late = np.maximum(late, np.where(held, c["beats"][b2] - 1 - spent, 0))
    cost = settled(np.where(together, 0, c["cost"][now] + np.maximum(stall, late)))
    carried["cost"] = int(cost[-1])
    return cost
