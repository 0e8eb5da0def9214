"""The firmware's instructions as the cycle models read them: GNU objdump's disassembly of the ELF.

objdump comes with the arm-none-eabi toolchain that built the firmware, so it decodes every instruction
that toolchain emits (Helium and the low-overhead loops included, given the core's architecture with
`-m`). Each line is parsed into a Decoded: its size, its mnemonic split into the operation (condition
and width suffixes dropped: `ldrbne.w` is `ldrb`), the data type (`vmul.i32`: i32) and the operands,
with the registers each operand names as bit masks (r0-r15 bits 0-15, q0-q7 bits 16-23, s0-s31 bits
24-55 and d0-d15 on their two s registers: Helium and scalar floating point are not mixed in a
dependency, so the q and s views are kept apart).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from mcugen.errors import McugenError

CONDITIONS = frozenset("eq ne cs hs cc lo mi pl vs vc hi ls ge lt gt le al".split())
_LINE = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f]{4})(?: ([0-9a-f]{4}))?\s*\t(\S+)(?:\t(.*))?$")
_REGISTER = re.compile(r"\b(r1[0-5]|r[0-9]|sb|sl|fp|ip|sp|lr|pc|[sdq][0-9]+)\b")
_RANGE = re.compile(r"\b([rsdq])([0-9]+)-\1([0-9]+)\b")
CORE = {**{f"r{i}": i for i in range(16)}, "sb": 9, "sl": 10, "fp": 11, "ip": 12, "sp": 13, "lr": 14, "pc": 15}
PC = 1 << 15

_COMPARES = frozenset("cmp cmn tst teq vcmp vcmpe".split())
_BRANCHES = frozenset("b bl bx blx cbz cbnz tbb tbh le letp dls wls dlstp wlstp lctp".split())
_LONG_MULTIPLIES = frozenset("umull smull umlal smlal umaal smlald smlsld smlaldx smlsldx smlalbb smlalbt smlaltb "
                             "smlaltt".split())
# operations that read the register they write (an accumulator, half of a register, a scalar reduced into)
_ACCUMULATING = frozenset("mla mls vmla vmlas vmls vfma vfms vfnma vfnms vnmla vnmls vqdmlah vqrdmlah vqdmlash "
                          "vqrdmlash vmladava vmladavax vmlsdava vmlsdavax vmlaldava vmlaldavax vmlsldava vmlsldavax "
                          "vrmlaldavha vrmlaldavhax vrmlsldavha vrmlsldavhax vaddva vaddlva vabav vmaxv vminv "
                          "vmaxav vminav vmaxnmv vminnmv vmaxnmav vminnmav vmovnb vmovnt vqmovnb vqmovnt vqmovunb "
                          "vqmovunt vshrnb vshrnt vrshrnb vrshrnt vqshrnb vqshrnt vqrshrnb vqrshrnt vqshrunb "
                          "vqshrunt vqrshrunb vqrshrunt vsli vsri bfi movt".split())
# scalar operations of two operands that do not read the first (`adds r2, #1` reads r2, `mov r2, r1` not)
_UNARY = frozenset("mov movs mvn mvns movw neg negs sxtb sxth uxtb uxth sxtb16 uxtb16 clz rev rev16 revsh rbit "
                   "adr".split())
_ADDRESS = re.compile(r"^[0-9a-f]+$")
_IT = re.compile(r"^it[te]{0,3}$")
_MULTIPLY = re.compile(r"^(mul|mla|mls|[su]mull|[su]mlal|umaal|smul..|smla..|smlal..|smla[dw].?|smlsd.?|smlsld.?"
                       r"|smmul.?|smmla.?|smmls.?|smuad.?|smusd.?|smlald.?|smulw.)$")
_VPT = re.compile(r"^vp(t|st)[te]{0,3}$")
_Q = re.compile(r"\bq[0-7]\b")


def register_bit(name: str) -> int:
    if name in CORE:
        return 1 << CORE[name]
    kind, n = name[0], int(name[1:])
    if kind == "q":
        return 1 << (16 + n)
    return (1 << (24 + n)) if kind == "s" else (3 << (24 + 2 * n))


def register_names(text: str) -> list[str]:
    """The registers an operand names, register lists' ranges (`{d8-d9}`) spelled out."""
    text = _RANGE.sub(lambda m: ", ".join(f"{m[1]}{i}" for i in range(int(m[2]), int(m[3]) + 1)), text)
    return _REGISTER.findall(text)


def registers(text: str) -> int:
    """The registers an operand names as a bit mask."""
    bits = 0
    for name in register_names(text):
        bits |= register_bit(name)
    return bits


def split_operands(text: str) -> list[str]:
    """Operands at the top level (commas inside [...] and {...} stay in theirs); comments dropped."""
    text = re.sub(r"<[^>]*>", "", text.split("\t@")[0].split(" @ ")[0]).strip()  # comments, symbols
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


@dataclass(frozen=True)
class Decoded:
    address: int
    size: int
    mnemonic: str  # as objdump prints it: "ldrbne.w", "vmul.i32"
    operands: tuple[str, ...]
    operation: str  # without the condition (in an IT block), predication (VPT block) and suffixes: "ldrb"
    target: int | None = None  # a direct branch's

    @cached_property
    def data_type(self) -> str:
        """The type suffix ("s8", "f32", "u32"), or ""."""
        parts = self.mnemonic.split(".")
        return next((p for p in parts[1:] if p not in ("w", "n")), "")

    @cached_property
    def memory(self) -> str:
        """The memory operand ("[r1, #4]!"), or ""."""
        return next((o for o in self.operands if o.startswith("[")), "")

    @cached_property
    def address_registers(self) -> int:
        return registers(self.memory.split("]")[0]) if self.memory else 0

    @cached_property
    def writes_back(self) -> bool:
        """Pre-indexed with `!` or post-indexed (`[r1], #4`): the base register is written."""
        if not self.memory:
            return any(o.endswith("!") for o in self.operands)
        k = self.operands.index(self.memory)
        return self.memory.endswith("!") or k + 1 < len(self.operands)

    @cached_property
    def listed(self) -> str:
        """The register list operand ("{r4, r5, lr}"), or ""."""
        return next((o for o in self.operands if o.startswith("{")), "")

    @cached_property
    def kind(self) -> str:
        """"load", "store", "compare", "branch", "long" (a 64-bit multiply) or "other"."""
        op = self.operation
        if op.startswith(("ldr", "ldm", "pop", "vldr", "vld2", "vld4", "vldm", "vpop")):
            return "load"
        if op.startswith(("str", "stm", "push", "vstr", "vst2", "vst4", "vstm", "vpush", "pld")):
            return "store"
        if op in _COMPARES or _VPT.match(op) or op in ("vctp", "vpnot", "vmsr"):
            return "compare"
        if op in _BRANCHES or _IT.match(op):
            return "branch"
        if op in _LONG_MULTIPLIES:
            return "long"
        return "other"

    @cached_property
    def writes(self) -> int:
        """The registers the instruction writes (flags and the predicate not counted)."""
        op, kind = self.operation, self.kind
        base = 0
        if self.memory and self.writes_back:
            base = registers(self.memory.split("]")[0]) & 0xFFFF
        elif self.operands and self.operands[0].endswith("!"):
            base = registers(self.operands[0])
        if op in ("push", "pop", "vpush", "vpop"):
            base |= register_bit("sp")
        if kind == "store":
            return base | (registers(self.operands[0]) if op.startswith("strex") else 0)
        if kind == "load":
            if self.listed:
                return base | registers(self.listed)
            return base | registers(", ".join(self.operands[:2] if op == "ldrd" else self.operands[:1]))
        if kind == "branch":
            return register_bit("lr") if op in ("bl", "blx", "le", "letp", "dls", "wls", "dlstp", "wlstp") else 0
        if kind == "compare" or not self.operands:
            return 0
        if kind == "long" or (op == "vmov" and len(self.operands) >= 3 and self.operands[1] in CORE):
            return registers(", ".join(self.operands[:2]))
        return registers(self.operands[0])

    @cached_property
    def reads(self) -> int:
        """The registers the instruction reads (flags and the predicate not counted)."""
        op, kind = self.operation, self.kind
        if kind in ("store", "compare", "branch"):
            return registers(", ".join(self.operands)) & ~(registers("pc") if kind == "branch" else 0)
        if kind == "load":
            if self.listed:
                return registers(", ".join(o for o in self.operands if o != self.listed)) | \
                    (register_bit("sp") if op in ("pop", "vpop") else 0)
            after = self.operands[self.operands.index(self.memory) + 1:] if self.memory else ()
            return registers(self.memory) | registers(", ".join(after))
        if not self.operands:
            return 0
        two = kind == "long" or (op == "vmov" and len(self.operands) >= 3 and self.operands[1] in CORE)
        sources = self.operands[2:] if two else self.operands[1:]
        bits = registers(", ".join(sources))
        two_operand = len(self.operands) == 2 and not op.startswith("v") and op not in _UNARY  # adds r2, #1
        if kind == "long" and op not in ("umull", "smull") or op in _ACCUMULATING or "[" in self.operands[0] \
                or two_operand:
            bits |= registers(self.operands[0]) | (registers(self.operands[1]) if kind == "long" else 0)
        return bits

    @cached_property
    def writes_pc(self) -> bool:
        """A branch (an IT block's start is not one) or an instruction that writes PC (pop {pc}, ldr pc)."""
        return self.kind == "branch" and not _IT.match(self.operation) or bool(self.writes & PC)

    @cached_property
    def multiplies(self) -> bool:
        """A multiply or multiply-accumulate on core registers (MUL, MLA, the long and DSP ones)."""
        return bool(_MULTIPLY.match(self.operation))

    @cached_property
    def vector(self) -> bool:
        """A Helium instruction: it names a q register or is one of those that name none."""
        return bool(_Q.search(" ".join(self.operands))) or self.operation in ("vctp", "vpnot") \
            or self.operation.startswith(("vpt", "vpst"))


def objdump() -> str:
    tool = shutil.which("arm-none-eabi-objdump")
    if tool is None:
        raise McugenError("arm-none-eabi-objdump not found (cycle estimates read the firmware with it)",
                          "sudo apt-get install binutils-arm-none-eabi")
    return tool


def disassemble(elf: Path, arch: str) -> dict[int, Decoded]:
    """Every instruction of the ELF's executable sections, by address."""
    text = subprocess.run([objdump(), "-d", "-m", arch, str(elf)], capture_output=True, text=True,
                          check=True).stdout
    found: dict[int, Decoded] = {}
    # objdump spells an instruction of an IT block with its condition (ldrbne) and one of a VPT block
    # with its then/else (vstrbt); outside them only a branch has a condition (bne)
    conditional = predicated = 0
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None or m[4].startswith("."):  # a heading, a label, or data in the code (.word)
            continue
        address = int(m[1], 16)
        name = m[4].split(".")[0]
        if conditional:
            operation, conditional = name[:-2], conditional - 1
        elif predicated:
            operation, predicated = name[:-1], predicated - 1
        elif name[:1] == "b" and name[1:] in CONDITIONS:
            operation = "b"
        else:
            operation = name
        if _IT.match(operation):
            conditional = len(operation) - 1
        elif _VPT.match(operation):  # vpt, vpst: one instruction, and one more per t or e after them
            predicated = 1 + len(operation) - (4 if operation.startswith("vpst") else 3)
        operands = split_operands(m[5] or "")
        target = None
        if operation in _BRANCHES and operands and _ADDRESS.match(operands[-1]):
            target = int(operands.pop(), 16)  # bare hex, which would read as a register ("d8")
        found[address] = Decoded(address, 4 if m[3] else 2, m[4], tuple(operands), operation, target)
    return found
