"""Cortex-M7: in-order dual issue.

Sources: the Cortex-M7 scheduling model Arm contributed to LLVM (llvm/lib/Target/ARM/ARMScheduleM7.td);
what it does not give is marked "assumed".

- Two instructions issue in a cycle when neither is single-issue (LDM/STM/PUSH/POP, LDRD/STRD,
  VLDM/VSTM, TBB/TBH, divides, barriers and system instructions), the second is not one that must
  issue first (BFI/BFC, CLZ, LDREX, the DSP extension's SIMD, saturation and extend ops), the second
  does not read what the first writes, and they do not both need a unit there is one of: the store
  port, the MAC, the branch unit, the FPU, the SIMD unit (two ALUs and two load ports).
- A result is ready `latency` cycles after issue: ALU and word loads 1, byte and halfword loads,
  multiplies and MACs 2 (but a MAC reads its accumulator a stage late, so MAC after MAC does not wait),
  scalar float 3, VMLA.F32 6, VDIV/VSQRT 16. A load or store reads its address one stage early: one
  cycle more when the instruction before made it.
- LDM/STM/PUSH/POP and VLDM/VSTM move 64 bits a cycle; LDRD/STRD 1; SDIV/UDIV `divide`; TBB/TBH 2.
- A taken branch costs `refill` more (1, assumed: the branch predictor hides most of the refill on
  the loops that dominate kernels; a mispredicted branch, about 6 on this pipeline, is not told apart);
  an exception entry `exception` (12).
Not modelled: caches and TCM wait states (zero wait states throughout), the shifter-in-EX1 timing of
shifted operands, a dependency on an instruction two or more back.
"""
from __future__ import annotations

import re

import numpy as np

from mcugen.targets.boards import Timing
from mcugen.validation.core_models.issue import after_a_jump, paired
from mcugen.validation.disassembly import CORE, Decoded, register_names

FIELDS = ("size", "cost", "unit", "latency", "reads", "writes", "address", "slot", "kind")
ALU, LOAD, STORE, MAC, BRANCH, FPU, SIMD = range(7)  # units; of ALU and LOAD there are two
EITHER, FIRST, ALONE = range(3)  # where in a pair an instruction may issue
PLAIN, TAKES_PC = range(2)

_SINGLE = re.compile(r"^(ldm.*|stm.*|push|pop|ldrd|strd|vldm.*|vstm.*|vpush|vpop|tbb|tbh|sdiv|udiv|dsb|dmb|isb"
                     r"|mrs|msr|svc|bkpt|cpsi[de]|wfi|wfe|strex.?|clrex)$")
_FIRST = re.compile(r"^(bfi|bfc|clz|ldrex.?|[su]xt.*|[su]h?(add|sub)(8|16)|[su]h?(asx|sax)|q.*|uq.*|[su]sat(16)?"
                    r"|usada?8|sel|rbit|rev.*|[su]bfx|pkh(bt|tb))$")


def describe(insn: Decoded, timing: Timing) -> tuple[int, ...]:
    op = insn.operation
    kind = TAKES_PC if insn.writes_pc else PLAIN
    cost, unit, latency = 1, ALU, 1
    slot = ALONE if _SINGLE.match(op) else FIRST if _FIRST.match(op) else EITHER
    if insn.listed:
        names = register_names(insn.listed)
        cost = max(1, (sum(2 if n.startswith("d") else 1 for n in names) + 1) // 2)
        unit = LOAD if insn.kind == "load" else STORE
    elif insn.kind == "load":
        unit, latency = LOAD, 2 if op in ("ldrb", "ldrh", "ldrsb", "ldrsh", "ldrex", "ldrexb", "ldrexh") else 1
    elif insn.kind == "store":
        unit = STORE
    elif op in ("tbb", "tbh"):
        cost, unit = 2, BRANCH
    elif kind == TAKES_PC or op.startswith("it"):
        unit = BRANCH
    elif op in ("sdiv", "udiv"):
        cost = latency = timing.divide
    elif insn.multiplies:
        unit, latency = MAC, 2
    elif op.startswith("v"):  # scalar floating point
        unit = FPU
        latency = 16 if op in ("vdiv", "vsqrt") else 6 if op in ("vmla", "vmls", "vnmla", "vnmls") else \
            1 if op in ("vmov", "vmrs") and insn.operands and insn.operands[0] in CORE else 3
    elif slot == FIRST and not op.startswith(("bf", "clz", "rbit", "rev", "sbfx", "ubfx")):
        unit = SIMD
    return insn.size, cost, unit, latency, insn.reads, insn.writes, insn.address_registers, slot, kind


_SHARED = (STORE, MAC, BRANCH, FPU, SIMD)  # units there is one of


def costs(c: dict[str, np.ndarray], before2: np.ndarray, before: np.ndarray, now: np.ndarray,
          jumped: np.ndarray, timing: Timing, carried: dict) -> np.ndarray:
    known = before >= 0
    b = np.where(known, before, 0)
    unit, unit_b = c["unit"][now], c["unit"][b]
    depends = known & (c["reads"][now] & c["writes"][b] != 0)
    accumulates = (unit == MAC) & (unit_b == MAC)
    stall = np.where(depends & ~accumulates, c["latency"][b] - 1, 0)
    early = known & (c["address"][now] & c["writes"][b] != 0)  # an address is read a stage early
    stall = np.maximum(stall, np.where(early, c["latency"][b], 0))
    clash = (unit == unit_b) & np.isin(unit, _SHARED)
    pairs = known & ~after_a_jump(jumped, carried) & ~depends & ~early & ~clash \
        & (c["slot"][now] == EITHER) & (c["slot"][b] != ALONE)
    cost = np.where(paired(pairs, carried), 0, c["cost"][now] + stall)
    kind = c["kind"][now]
    cost += np.where(jumped & (kind == TAKES_PC), timing.refill, 0)
    return cost + np.where(jumped & (kind == PLAIN), timing.exception, 0)
