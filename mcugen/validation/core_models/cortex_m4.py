"""Cortex-M4 (and M3): the TRM's instruction timing tables, zero wait states.

The core file's `timing` gives what the tables leave open (refill P, divide, exception entry); the
same assumptions as the measurements the MLPerf Tiny anchors were made with, so the numbers compare:
- data processing, shifts, extends, bit fields, saturation, SIMD, every multiply and MAC: 1;
- LDR/STR of a byte, halfword or word (and LDREX/STREX, PLD): 2, or 1 straight after another such load
  or store (the address and data phases pipeline) unless its address registers were written by that one
  (the register it loaded, a base it wrote back);
- LDRD/STRD: 3, never pipelined; LDM/STM/PUSH/POP: 1 + registers; VLDM/VSTM/VPUSH/VPOP: 1 + words;
- branches 1, plus `refill` when taken; TBB/TBH 2 + refill; any other instruction that writes PC pays
  the refill too;
- IT: 1, folded (0) after a 16-bit instruction;
- SDIV/UDIV: `divide` (2-12 by operand values, which the trace does not carry);
- VFP: 1; VMLA/VMLS/VFMA family 3; VDIV/VSQRT 14; VLDR/VSTR 2; VMOV of two core registers 2;
- a jump that no instruction made is an exception entry: `exception` cycles.
Not modelled: bus contention, the stall of an address computed by the instruction just before,
conditional instructions that fail in an IT block (charged as executed).
"""
from __future__ import annotations

import numpy as np

from mcugen.targets.boards import Timing
from mcugen.validation.disassembly import CORE, Decoded, register_names

FIELDS = ("size", "kind", "cost", "writes_pc", "address", "written")
ALU, LDST, PAIR, MULTI, BRANCH, IT = range(6)

SINGLE = frozenset("ldr ldrb ldrh ldrsb ldrsh ldrt ldrbt ldrht ldrsbt ldrsht ldrex ldrexb ldrexh "
                   "str strb strh strt strbt strht strex strexb strexh pld".split())
MULTIPLE = frozenset("ldm ldmia ldmdb stm stmia stmdb push pop vldmia vldmdb vstmia vstmdb vpush vpop".split())
VFP_MAC = frozenset("vmla vmls vnmla vnmls vfma vfms vfnma vfnms".split())


def describe(insn: Decoded, timing: Timing) -> tuple[int, ...]:
    op = insn.operation
    pc = insn.writes_pc
    if op in SINGLE:
        return insn.size, LDST, 2, pc, insn.address_registers & 0xFFFF, insn.writes & 0xFFFF
    if op in ("ldrd", "strd"):
        return insn.size, PAIR, 3, pc, 0, 0
    if op in MULTIPLE:
        words = sum(2 if name.startswith("d") else 1 for name in register_names(insn.listed))
        return insn.size, MULTI, 1 + words, pc, 0, 0
    if op in ("tbb", "tbh"):
        return insn.size, BRANCH, 2, pc, 0, 0
    if op.startswith("it") and set(op[2:]) <= {"t", "e"}:
        return insn.size, IT, 1, pc, 0, 0
    if op in ("sdiv", "udiv"):
        cost = timing.divide
    elif op in VFP_MAC:
        cost = 3
    elif op in ("vdiv", "vsqrt"):
        cost = 14
    elif op in ("vldr", "vstr"):
        cost = 2
    elif op == "vmov" and sum(name in CORE for name in register_names(", ".join(insn.operands))) >= 2:
        cost = 2
    else:
        cost = 1
    return insn.size, BRANCH if pc else ALU, cost, pc, 0, 0


def costs(c: dict[str, np.ndarray], before2: np.ndarray, before: np.ndarray, now: np.ndarray,
          jumped: np.ndarray, timing: Timing, state: dict) -> np.ndarray:
    known = before >= 0
    b = np.where(known, before, 0)
    cost = c["cost"][now].copy()
    cost -= known & (c["kind"][now] == LDST) & (c["kind"][b] == LDST) & ((c["written"][b] & c["address"][now]) == 0)
    cost -= known & (c["kind"][now] == IT) & (c["size"][b] == 2)
    cost += np.where(jumped, np.where(c["writes_pc"][now], timing.refill, timing.exception), 0)
    return cost
