"""Section sizes of object files and ELF images (pyelftools), split the way a linker map is."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from elftools.elf.constants import SH_FLAGS
from elftools.elf.elffile import ELFFile


@dataclass(frozen=True)
class Sizes:
    text: int = 0    # code
    rodata: int = 0  # constants (flash on a MCU)
    data: int = 0    # initialised variables (flash and RAM)
    bss: int = 0     # zeroed variables (RAM): the arena lives here

    def __add__(self, other: "Sizes") -> "Sizes":
        return Sizes(self.text + other.text, self.rodata + other.rodata,
                     self.data + other.data, self.bss + other.bss)

    @property
    def flash(self) -> int:
        return self.text + self.rodata + self.data

    @property
    def ram(self) -> int:
        return self.data + self.bss


def sizes(path: Path) -> Sizes:
    text = rodata = data = bss = 0
    with open(path, "rb") as f:
        for section in ELFFile(f).iter_sections():
            flags = section["sh_flags"]
            if not flags & SH_FLAGS.SHF_ALLOC or section.name.startswith((".eh_frame", ".note", ".stack")):
                continue  # unwind tables and notes (host bookkeeping); the stack is reported on its own
            size = section["sh_size"]
            if section["sh_type"] == "SHT_NOBITS":
                bss += size
            elif flags & SH_FLAGS.SHF_EXECINSTR:
                text += size
            elif flags & SH_FLAGS.SHF_WRITE:
                data += size
            else:
                rodata += size
    return Sizes(text, rodata, data, bss)
