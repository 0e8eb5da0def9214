"""Estimated cycles of one inference on a Cortex-M3/M4-class core, from the exact instruction stream.

QEMU counts instructions exactly but has no notion of time, and on a Cortex-M4 an instruction costs
1 to 14 cycles: a kernel is judged by cycles. So the firmware runs once more under QEMU, one
instruction per translation block with every executed block logged (`-singlestep -d exec,nochain`,
into a pipe): the log is the address of every instruction executed, in order. Each address is decoded
once (capstone, from the ELF) into a cost class, and each executed instruction costs what the core's
timing table says given its neighbours, summed per layer between the calls to `model_layer_done` and
over the window from `model_invoke`'s entry to its return.

The model (the Cortex-M4 TRM's instruction timing tables, zero wait states, the core file's `timing`
numbers for what the table leaves open; the same assumptions as the measurements the MLPerf Tiny
anchors were made with, so the numbers compare):
- data processing, shifts, extends, bit fields, saturation, SIMD, every multiply and MAC: 1;
- LDR/STR of a byte, halfword or word (and LDREX/STREX): 2, or 1 straight after another such load or
  store (the address and data phases pipeline) unless its address registers were written by that one
  (the register it loaded, a base it wrote back);
- LDRD/STRD: 3, never pipelined; LDM/STM/PUSH/POP: 1 + registers; VLDM/VSTM/VPUSH/VPOP: 1 + words;
- branches 1, plus `refill` when taken (taken is seen in the trace: the next address is not the fall
  through); TBB/TBH 2 + refill; any other instruction that writes PC pays the refill too;
- IT: 1, folded (0) after a 16-bit instruction;
- SDIV/UDIV: `divide` (2-12 by operand values, which the trace does not carry);
- VFP: 1; VMLA/VMLS/VFMA family 3; VDIV/VSQRT 14; VLDR/VSTR 2; VMOV of two core registers 2;
- a jump that no instruction made is an exception entry: `exception` cycles.
Not modelled: flash wait states (weights read from flash on a real part), bus contention, the stall of
an address computed by the instruction just before, conditional instructions that fail in an IT block
(charged as executed).
"""
from __future__ import annotations

import os
import re
import tempfile
import threading
from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from mcugen.targets.boards import Timing
from mcugen.errors import McugenError

INVOKE, LAYER_DONE = "model_invoke", "model_layer_done"

# One line of QEMU's exec log: "Trace 0: 0x7f.. [cs_base/pc/flags/cflags] symbol"
_PC = re.compile(rb"\[[0-9a-f]{8}/([0-9a-f]{8})/")
_NIBBLE = np.full(256, 0, dtype=np.uint32)
_NIBBLE[np.frombuffer(b"0123456789", dtype=np.uint8)] = np.arange(10)
_NIBBLE[np.frombuffer(b"abcdef", dtype=np.uint8)] = np.arange(10, 16)
_REGISTERS = {name: i for i, name in enumerate(
    "r0 r1 r2 r3 r4 r5 r6 r7 r8 sb sl fp ip sp lr pc".split())}

# cost classes
ALU, LDST, PAIR, MULTI, BRANCH, IT = range(6)


@dataclass
class Instruction:
    size: int
    kind: int
    cost: int
    writes_pc: bool
    address_regs: int  # bit mask: registers a load/store's address is made of
    written_regs: int  # bit mask: registers a load/store writes (loaded, written-back base)


def _mask(insn, regs) -> int:
    bits = 0
    for r in regs:
        name = insn.reg_name(r)
        if name in _REGISTERS:
            bits |= 1 << _REGISTERS[name]
    return bits


def classify(insn, timing: Timing) -> Instruction:
    """One instruction's cost class and base cycles (capstone, with details)."""
    from capstone import arm_const as a

    reads, writes = insn.regs_access()
    written = _mask(insn, writes)
    writes_pc = bool(written & (1 << 15)) or insn.id in (a.ARM_INS_B, a.ARM_INS_BL, a.ARM_INS_BX, a.ARM_INS_BLX,
                                                         a.ARM_INS_CBZ, a.ARM_INS_CBNZ, a.ARM_INS_TBB, a.ARM_INS_TBH)
    made = dict(size=insn.size, writes_pc=writes_pc, address_regs=0, written_regs=0)
    mnemonic = insn.mnemonic.split(".")[0]
    classes = _classes()
    if insn.id in classes["single"]:
        memory = [op.mem for op in insn.operands if op.type == a.ARM_OP_MEM]
        address = _mask(insn, [r for m in memory for r in (m.base, m.index) if r])
        return Instruction(kind=LDST, cost=2, **{**made, "address_regs": address, "written_regs": written})
    if insn.id in (a.ARM_INS_LDRD, a.ARM_INS_STRD):
        return Instruction(kind=PAIR, cost=3, **made)
    if insn.id in classes["multiple"]:
        regs = [op.reg for op in insn.operands if op.type == a.ARM_OP_REG]
        if insn.id in (a.ARM_INS_LDM, a.ARM_INS_LDMDB, a.ARM_INS_STM, a.ARM_INS_STMDB):
            regs = regs[1:]  # the base
        if insn.id in (a.ARM_INS_VLDMIA, a.ARM_INS_VLDMDB, a.ARM_INS_VSTMIA, a.ARM_INS_VSTMDB):
            regs = regs[1:]
        words = sum(2 if insn.reg_name(r).startswith("d") else 1 for r in regs)
        return Instruction(kind=MULTI, cost=1 + words, **made)
    if insn.id in (a.ARM_INS_TBB, a.ARM_INS_TBH):
        return Instruction(kind=BRANCH, cost=2, **made)
    if insn.id == a.ARM_INS_IT:
        return Instruction(kind=IT, cost=1, **made)
    if insn.id in (a.ARM_INS_SDIV, a.ARM_INS_UDIV):
        cost = timing.divide
    elif insn.id in classes["vfp_mac"]:
        cost = 3
    elif insn.id in (a.ARM_INS_VDIV, a.ARM_INS_VSQRT):
        cost = 14
    elif insn.id in (a.ARM_INS_VLDR, a.ARM_INS_VSTR):
        cost = 2
    elif mnemonic == "vmov" and sum(1 for r in reads + writes if insn.reg_name(r) in _REGISTERS) >= 2:
        cost = 2
    else:
        cost = 1
    return Instruction(kind=BRANCH if writes_pc else ALU, cost=cost, **made)


@cache
def _classes() -> dict[str, frozenset[int]]:
    """capstone's instruction ids of the cost classes (imported only when cycles are estimated)."""
    from capstone import arm_const as a

    def ids(*names: str) -> frozenset[int]:
        return frozenset(getattr(a, "ARM_INS_" + n) for n in names)

    return {"single": ids("LDR", "LDRB", "LDRH", "LDRSB", "LDRSH", "LDRT", "LDRBT", "LDRHT", "LDRSBT", "LDRSHT",
                          "LDREX", "LDREXB", "LDREXH", "STR", "STRB", "STRH", "STRT", "STRBT", "STRHT", "STREX",
                          "STREXB", "STREXH", "PLD"),
            "multiple": ids("LDM", "LDMDB", "STM", "STMDB", "PUSH", "POP", "VLDMIA", "VLDMDB", "VSTMIA", "VSTMDB",
                            "VPUSH", "VPOP"),
            "vfp_mac": ids("VMLA", "VMLS", "VNMLA", "VNMLS", "VFMA", "VFMS", "VFNMA", "VFNMS")}


class Program:
    """The firmware ELF: its code bytes, function symbols and the invoke window's addresses."""

    def __init__(self, elf: Path):
        from capstone import CS_ARCH_ARM, CS_MODE_MCLASS, CS_MODE_THUMB, Cs
        from elftools.elf.elffile import ELFFile
        from elftools.elf.sections import SymbolTableSection

        self.disassembler = Cs(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS)
        self.disassembler.detail = True
        self.disassembler.skipdata = True
        with open(elf, "rb") as f:
            image = ELFFile(f)
            self.segments = [(s["p_vaddr"], s.data()) for s in image.iter_segments()
                             if s["p_type"] == "PT_LOAD" and s["p_filesz"]]
            symbols = image.get_section_by_name(".symtab")
            functions = sorted((s["st_value"] & ~1, s.name) for s in symbols.iter_symbols()
                               if s["st_info"]["type"] == "STT_FUNC" and s["st_size"]) \
                if isinstance(symbols, SymbolTableSection) else []
            section = image.get_section_by_name(".text")
            text = (section["sh_addr"], section.data()) if section else (0, b"")
        self.starts = [a for a, _ in functions]
        self.names = [n for _, n in functions]
        named = dict((n, a) for a, n in functions)
        if INVOKE not in named or LAYER_DONE not in named:
            raise McugenError(f"internal error: {elf} has no {INVOKE} or {LAYER_DONE} to time",
                              "build with mcugen's harness (it profiles each layer)")
        self.entry, self.layer_done = named[INVOKE], named[LAYER_DONE]
        calls = [i.address + i.size for i in self.disassembler.disasm(text[1], text[0])
                 if i.mnemonic == "bl" and i.operands and i.operands[0].imm == self.entry]
        if len(calls) != 1:
            raise McugenError(f"internal error: {len(calls)} calls to {INVOKE} in {elf}, expected one",
                              "report this with the build directory")
        self.back = calls[0]

    def decode(self, address: int, timing: Timing) -> Instruction:
        for start, data in self.segments:
            if start <= address < start + len(data):
                insn = next(self.disassembler.disasm(data[address - start:address - start + 4], address, 1), None)
                if insn is not None:
                    return classify(insn, timing)
        raise McugenError(f"internal error: QEMU ran code at 0x{address:08x}, outside the ELF's loaded code",
                          "report this with the build directory")

    def function_of(self, address: int) -> str:
        k = bisect_right(self.starts, address) - 1
        return self.names[k] if k >= 0 else f"0x{address:08x}"


@dataclass
class Estimate:
    """One inference: instructions and estimated cycles per layer (the op's index) and in all."""

    timing: Timing
    layers: list[int]
    layer_instructions: list[int]
    functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (instructions, cycles)

    @property
    def cycles(self) -> int:
        return sum(self.layers)

    @property
    def instructions(self) -> int:
        return sum(self.layer_instructions)

    def as_json(self) -> dict:
        top = sorted(self.functions.items(), key=lambda kv: -kv[1][1])
        return {"timing": asdict(self.timing), "cycles": self.cycles, "instructions": self.instructions,
                "cpi": round(self.cycles / max(self.instructions, 1), 3),
                "layer_cycles": self.layers, "layer_instructions": self.layer_instructions,
                "functions": [{"name": n, "instructions": i, "cycles": c} for n, (i, c) in top]}


class Counter:
    """Folds the exec log of one inference into an Estimate, chunk by chunk (the log of a big model
    is gigabytes: nothing is kept but per-instruction counts)."""

    def __init__(self, program: Program, timing: Timing, layers: int):
        self.program, self.timing, self.layers = program, timing, layers
        self.table: dict[int, int] = {}  # address -> row of self.instructions
        self.instructions: list[Instruction] = []
        self.columns: dict[str, np.ndarray] = {}
        self.state = "before"  # -> "inside" -> "after"
        # an instruction is costed knowing the one before it (pipelining, IT folding) and the one
        # after it (taken or not): the last one seen waits for the next chunk
        self.pending = np.zeros(0, dtype=np.uint32)
        self.before = -1  # the row of the instruction before the pending one
        self.layer = 0
        self.cycles = np.zeros(layers, dtype=np.int64)
        self.counts = np.zeros(layers, dtype=np.int64)
        self.row_cycles = np.zeros(0, dtype=np.int64)
        self.row_counts = np.zeros(0, dtype=np.int64)

    def _rows(self, pcs: np.ndarray) -> np.ndarray:
        new = [int(a) for a in np.unique(pcs) if int(a) not in self.table]
        for address in new:
            self.table[address] = len(self.instructions)
            self.instructions.append(self.program.decode(address, self.timing))
        if new or not self.columns:
            ins = self.instructions
            self.columns = {"size": np.array([i.size for i in ins]), "kind": np.array([i.kind for i in ins]),
                            "cost": np.array([i.cost for i in ins]), "pc": np.array([i.writes_pc for i in ins]),
                            "address": np.array([i.address_regs for i in ins]),
                            "written": np.array([i.written_regs for i in ins]),
                            "keys": np.array(sorted(self.table), dtype=np.int64)}
            self.columns["rows"] = np.array([self.table[k] for k in self.columns["keys"]], dtype=np.int64)
            grow = len(ins) - len(self.row_counts)
            self.row_cycles = np.concatenate([self.row_cycles, np.zeros(grow, dtype=np.int64)])
            self.row_counts = np.concatenate([self.row_counts, np.zeros(grow, dtype=np.int64)])
        return self.columns["rows"][np.searchsorted(self.columns["keys"], pcs)]

    def feed(self, pcs: np.ndarray) -> None:
        if self.state == "after" or not len(pcs):
            return
        if self.state == "before":
            start = np.flatnonzero(pcs == self.program.entry)
            if not len(start):
                return
            self.state, pcs = "inside", pcs[start[0]:]
        end = np.flatnonzero(pcs == self.program.back)
        if len(end):  # the return address ends the window; it is only the last one's successor
            self.state, pcs = "after", pcs[:end[0] + 1]
        stream = np.concatenate([self.pending, pcs])
        # QEMU logs a block before running it, and runs it again when it left at its start to serve an
        # interrupt check: the same address twice in a row (our code has no branch to itself) ran once
        stream = stream[np.concatenate([[True], stream[1:] != stream[:-1]])]
        if len(stream) < 2:
            self.pending = stream
            return
        rows = self._rows(stream)
        c = self.columns
        now = rows[:-1]
        before = np.concatenate([[self.before], rows[:-2]])
        known = before >= 0
        b = np.where(known, before, 0)
        cost = c["cost"][now].copy()
        cost -= known & (c["kind"][now] == LDST) & (c["kind"][b] == LDST) & ((c["written"][b] & c["address"][now]) == 0)
        cost -= known & (c["kind"][now] == IT) & (c["size"][b] == 2)
        jumped = stream[1:].astype(np.int64) != stream[:-1].astype(np.int64) + c["size"][now]
        cost += np.where(jumped, np.where(c["pc"][now], self.timing.refill, self.timing.exception), 0)
        # an entry to model_layer_done starts the next layer's count (the last layer keeps the tail)
        layer = np.minimum(self.layer + np.cumsum(stream[:-1] == self.program.layer_done), self.layers - 1)
        np.add.at(self.cycles, layer, cost)
        np.add.at(self.counts, layer, 1)
        np.add.at(self.row_cycles, now, cost)
        np.add.at(self.row_counts, now, 1)
        self.layer = int(layer[-1])
        self.pending, self.before = stream[-1:], int(now[-1])

    def estimate(self) -> Estimate:
        if self.state != "after":
            raise McugenError("the traced run ended before the inference returned",
                              "rerun; if it repeats, report it with the build directory")
        functions: dict[str, tuple[int, int]] = {}
        for address, row in self.table.items():
            name = self.program.function_of(address)
            i, c = functions.get(name, (0, 0))
            functions[name] = (i + int(self.row_counts[row]), c + int(self.row_cycles[row]))
        return Estimate(self.timing, [int(c) for c in self.cycles], [int(c) for c in self.counts],
                        {n: v for n, v in functions.items() if v[0]})


def read_exec_log(stream, counter: Counter, chunk: int = 1 << 22) -> None:
    """Feed the addresses in QEMU's exec log to the counter as they come (to the end of the stream)."""
    rest = b""
    while True:
        data = stream.read(chunk)
        if not data:
            break
        data, rest = rest + data, b""
        cut = data.rfind(b"\n") + 1
        data, rest = data[:cut], data[cut:]
        if counter.state == "after":
            continue  # drain: QEMU blocks on a full pipe
        found = _PC.findall(data)
        if found:
            digits = np.frombuffer(b"".join(found), dtype=np.uint8).reshape(-1, 8)
            pcs = (_NIBBLE[digits] << np.arange(28, -1, -4, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
            counter.feed(pcs)


def estimate_cycles(target, program: Path, g, inputs, timing: Timing, timeout: float = 3600.0) -> Estimate:
    """Run `inputs` once on the emulated `target` with QEMU's exec log and estimate each layer's cycles."""
    from mcugen.targets.target import connect
    from mcugen.validation.validate import check_target, expected_seconds

    counter = Counter(Program(program), timing, len(g.ops))
    errors: list[BaseException] = []
    with tempfile.TemporaryDirectory(prefix="mcugen-trace-") as tmp:
        fifo = Path(tmp) / "exec.log"
        os.mkfifo(fifo)

        def read() -> None:
            with open(fifo, "rb") as stream:
                try:
                    read_exec_log(stream, counter)
                except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                    errors.append(exc)
                    while stream.read(1 << 22):  # keep draining: QEMU blocks on a full pipe
                        pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            with connect(target, program, timeout=5.0, trace=fifo) as link:
                check_target(link.hello(), g, link.describe)
                for k, x in enumerate(inputs):
                    link.write_input(k, np.ascontiguousarray(x).tobytes())
                link.invoke(200 * expected_seconds(g, target), timeout)
                link.read(0, 0, g.tensors[g.outputs[0]].nbytes)  # more log after the window: flushes it
        finally:
            if reader.is_alive():  # QEMU never opened the log (it did not start): end the reader's wait
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass  # QEMU has it open: its exit ends the stream
            reader.join()
    if errors:
        raise errors[0]
    return counter.estimate()
