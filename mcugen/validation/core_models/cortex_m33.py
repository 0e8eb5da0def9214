"""Cortex-M33: three stages, the third for multiplies, MACs and SIMD; two 16-bit instructions may pair.

Sources: Arm publishes no instruction timing table for the M33 (its TRM has none, and LLVM schedules it
with the M4's model). The figures below are those measured with the cycle counter on a Cortex-M33 r1p0
(RP2350) in jnk0le's "pipeline cycle test" (github.com/jnk0le/random, doc/cortex_m33.md), with Arm's
knowledge article KA001260 (MULS takes a cycle more); what they leave open is marked "assumed".

- One instruction issues per cycle. LDR/STR of any size 1 (pipelined, no first-load cycle as on the
  M4), LDRD/STRD 2, LDM/STM/PUSH/POP (and VLDM/VSTM/VPUSH/VPOP) 1 per word; SDIV/UDIV `divide`.
- Results ready in 1 cycle, except in 2 (an instruction that reads one straight after waits 1) for
  loads, multiplies and MACs, ALU ops with a shifted register or a shifted constant as their second
  operand (not an 8-bit, 12-bit ADDW/SUBW, or 0x00XY00XY-style pattern constant), and the
  extend-and-add ops (SXTAB ...). Assumed: the DSP extension's SIMD, saturating and packing ops
  (SXTB16, SADD16, SSAT, SEL ...) also in 2, as Arm places SIMD in the third stage.
- No wait where a 2-cycle result is a MAC's accumulator and comes from a MAC, an extend-and-add, a
  shifted-operand op or (for a multiply's accumulator, not an extend-and-add's) a load; nor where a
  store writes a value a load or a MAC made.
- MULS, and flag-setting ops with a shifted constant, take 2 cycles.
- Two 16-bit instructions issue together when the second is a NOP after an ALU op, load or store; an
  IT after any 16-bit instruction; or a 16-bit B (conditional or not) after any 16-bit instruction but
  a branch: it then costs nothing falling through and only the refill taken, but a taken one pairs only
  where the first sets no flags.
- A taken branch costs `refill` more (1: a taken B costs 2); TBB/TBH 2 + refill (assumed, as the M4);
  an exception entry `exception` (12).
- Scalar floating point (VFP): 1 cycle (VLDR's result ready in 1); VMLA/VFMA and their family ready in
  3, and no VFP instruction issues in the 2 cycles after one; VDIV/VSQRT 14 (assumed, as the M4).
Not modelled: memory wait states, flags a shifted-operand op sets being a cycle late, instructions
that fail in an IT block (charged as executed).
"""
from __future__ import annotations

import re

import numpy as np

from mcugen.targets.boards import Timing
from mcugen.validation.core_models.issue import after_a_jump, paired
from mcugen.validation.disassembly import CORE, Decoded, register_names, registers

FIELDS = ("size", "cost", "latency", "slow", "reads", "acc", "data", "made", "takes", "dual", "kind")
OTHER, LOAD, MAC, EXTEND_ADD, SHIFTED = range(5)  # what made a result (`made`)
NOTHING, MULTIPLY_ACC, EXTEND_ACC = range(3)  # the accumulator an instruction takes (`takes`)
LONE, FIRST, NOP, BRANCH, IT = range(5)  # its place in a pair (`dual`)
PLAIN, TAKES_PC, FLOATS, FLOAT_MAC = range(4)  # kinds
SETS_FLAGS = 8  # kind bit

_DATA = frozenset("add adc sub sbc rsb and orr orn eor bic mov mvn".split())
_FLAG_SETTING = _DATA | {"mul", "lsl", "lsr", "asr", "ror", "neg"}  # with an s: ADDS, MULS, LSLS ...
_COMPARES = frozenset("cmp cmn tst teq".split())
_SHIFT = re.compile(r"^((lsl|lsr|asr|ror) #\d+|rrx)$")
_EXTEND_ADD = frozenset("sxtab sxtah sxtab16 uxtab uxtah uxtab16".split())
_SIMD = re.compile(r"^([su]xtb16|[su]h?(add|sub)(8|16)|[su]h?(asx|sax)|q.*|uq.*|[su]sat(16)?|usada?8|sel|pkh(bt|tb))$")
_FLOAT_MACS = frozenset("vmla vmls vnmla vnmls vfma vfms vfnma vfnms".split())


def _shifted_constant(insn: Decoded, op: str) -> bool:
    """A modified immediate that is not a plain 8-bit one or a repeated-byte pattern (MOV and MVN
    aside: their constant is made in decode)."""
    last = insn.operands[-1] if insn.operands else ""
    if insn.size == 2 or op in ("mov", "mvn") or not last.startswith("#"):
        return False
    v = int(last[1:], 0) & 0xFFFFFFFF
    low = v & 0xFF
    return v > 0xFF and v not in (low * 0x00010001, low * 0x01000100, low * 0x01010101)


def describe(insn: Decoded, timing: Timing) -> tuple[int, ...]:
    op = insn.operation
    base = op[:-1] if op.endswith("s") and op[:-1] in _FLAG_SETTING else op
    flags = SETS_FLAGS if base != op or op in _COMPARES else 0
    kind = TAKES_PC if insn.writes_pc else PLAIN
    cost, latency, made, takes, acc, dual = 1, 1, OTHER, NOTHING, 0, LONE
    slow = insn.writes
    if op.startswith("v") and not insn.vector:
        kind = FLOAT_MAC if op in _FLOAT_MACS else FLOATS
        latency = 3 if kind == FLOAT_MAC else 1
        if insn.listed:
            cost = max(1, sum(2 if n.startswith("d") else 1 for n in register_names(insn.listed)))
        elif insn.kind in ("load", "store") and insn.operands[0].startswith("d"):
            cost = 2
        elif op in ("vdiv", "vsqrt"):
            cost = 14
    elif insn.listed:
        cost, latency, made = max(1, len([n for n in register_names(insn.listed) if n in CORE])), 2, LOAD
        slow = registers(insn.listed) if insn.kind == "load" else 0
    elif insn.kind == "load":
        cost, latency, made = 2 if op == "ldrd" else 1, 2, LOAD
        slow = registers(", ".join(insn.operands[:2] if op == "ldrd" else insn.operands[:1]))
    elif op == "strd":
        cost = 2
    elif op in ("tbb", "tbh"):
        cost = 2
    elif op in ("sdiv", "udiv"):
        cost = latency = timing.divide
    elif insn.multiplies or op == "muls":
        latency, made = 2, MAC
        cost = 2 if op == "muls" else 1
        if insn.kind == "long" and op not in ("smull", "umull"):
            takes, acc = MULTIPLY_ACC, registers(", ".join(insn.operands[:2]))
        elif len(insn.operands) == 4:
            takes, acc = MULTIPLY_ACC, registers(insn.operands[3])
    elif op in _EXTEND_ADD:
        latency, made, takes, acc = 2, EXTEND_ADD, EXTEND_ACC, registers(insn.operands[1])
    elif _SIMD.match(op):
        latency = 2
    elif (base in _DATA or op in _COMPARES) and insn.operands and _SHIFT.match(insn.operands[-1]):
        latency, made = 2, SHIFTED
    elif (base in _DATA or op in _COMPARES) and _shifted_constant(insn, base):
        latency, made = 2, SHIFTED
        cost = 2 if flags else 1
    if insn.size == 2:
        dual = NOP if op == "nop" else IT if op.startswith("it") else BRANCH if op == "b" else \
            FIRST if kind == PLAIN else LONE
    data = insn.reads & ~insn.address_registers if insn.kind == "store" else 0
    return insn.size, cost, latency, slow if latency > 1 else 0, insn.reads, acc, data, made, takes, dual, \
        kind | flags


def _waits(c: dict[str, np.ndarray], earlier: np.ndarray, now: np.ndarray) -> np.ndarray:
    """The cycles `now` waits for the results of `earlier` (the instruction before it), 0 where unknown."""
    made, takes = c["made"][earlier], c["takes"][now]
    chained = ((takes == MULTIPLY_ACC) & np.isin(made, (MAC, EXTEND_ADD, SHIFTED, LOAD))) \
        | ((takes == EXTEND_ACC) & np.isin(made, (MAC, EXTEND_ADD, SHIFTED)))
    reads = c["reads"][now] & ~np.where(chained, c["acc"][now], 0)
    reads &= ~np.where(np.isin(made, (LOAD, MAC)), c["data"][now], 0)
    wait = np.where(reads & c["slow"][earlier] != 0, c["latency"][earlier] - 1, 0)
    floats = (c["kind"][now] & ~SETS_FLAGS) >= FLOATS
    return np.where(floats & (c["kind"][earlier] & ~SETS_FLAGS == FLOAT_MAC), np.maximum(wait, 2), wait)


def costs(c: dict[str, np.ndarray], before2: np.ndarray, before: np.ndarray, now: np.ndarray,
          jumped: np.ndarray, timing: Timing, carried: dict) -> np.ndarray:
    known, known2 = before >= 0, before2 >= 0
    b, b2 = np.where(known, before, 0), np.where(known2, before2, 0)
    stall = np.where(known, _waits(c, b, now), 0)
    dual, dual_b = c["dual"][now], c["dual"][b]
    flags_b = c["kind"][b] & SETS_FLAGS != 0
    second = ((dual == NOP) & (dual_b == FIRST)) | ((dual == IT) & (dual_b >= FIRST)) \
        | ((dual == BRANCH) & ((dual_b == FIRST) | (dual_b == NOP)) & ~(jumped & flags_b))
    pairs = known & ~after_a_jump(jumped, carried) & (c["size"][b] == 2) & second
    together = paired(pairs, carried)
    kind = c["kind"][now] & ~SETS_FLAGS

    def settled(cost: np.ndarray) -> np.ndarray:
        cost += np.where(jumped & (kind == TAKES_PC), timing.refill, 0)
        return cost + np.where(jumped & (kind != TAKES_PC), timing.exception, 0)

    first = settled(np.where(together, 0, c["cost"][now] + stall))
    # two back: a float MAC's result, and its hold on the float unit, last past the one before
    spent = np.concatenate([[carried.get("cost", 1)], first[:-1]])
    late = np.where(known2, _waits(c, b2, now) - spent, 0)
    cost = settled(np.where(together, 0, c["cost"][now] + np.maximum(stall, late)))
    carried["cost"] = int(cost[-1])
    return cost
