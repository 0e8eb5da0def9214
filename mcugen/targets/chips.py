"""What a chip needs besides its ELF before it boots (its chip file's `image`), written next to
firmware.elf after the build.

uf2 (the RP2040): a bootrom that runs 256 bytes of second-stage boot code (boot2) from the start of
flash, checked by a CRC-32 in their last 4 bytes, and takes firmware as UF2 files copied to its USB
drive. The board file links the firmware 256 bytes past the image's base; firmware.uf2 holds boot2 at
the base followed by it.

alif-atoc (Alif Ensemble): no core runs until the Secure Enclave boots it, from a table of contents
(ATOC) that Alif's Security Toolkit (SETOOLS: app-gen-toc, app-write-mram) builds from a JSON config and
writes into MRAM with the images it names. firmware.bin is the image, executed in place at the board
file's flash origin; firmware.atoc.json is the config naming it (the config format of Alif's CMSIS pack
examples: the toolkit's own device config, then this image, unsigned, booted on the chip's core).
"""
from __future__ import annotations

import json
import struct
import subprocess
from pathlib import Path

from mcugen.runtime import RUNTIME
from mcugen.targets.boards import AtocImage, Uf2Image


BOOT2_BYTES = 256


def crc32_mpeg2(data: bytes) -> int:
    """CRC-32 as the RP2040 bootrom checks boot2: polynomial 0x04C11DB7, initial value all ones, bits not
    reflected, no final inversion (zlib's CRC-32 reflects its bits, so it can't be used)."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7 if crc & 0x80000000 else crc << 1) & 0xFFFFFFFF
    return crc


def boot2(source: str, work: Path) -> bytes:
    """runtime_c/harness/<source> assembled, padded to 252 bytes and its CRC appended."""
    obj, raw = work / "boot2.o", work / "boot2.bin"
    subprocess.run(["arm-none-eabi-gcc", "-mcpu=cortex-m0plus", "-mthumb", "-c",
                    str(RUNTIME / "harness" / source), "-o", str(obj)], check=True)
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", "-j", ".text", str(obj), str(raw)], check=True)
    code = raw.read_bytes()
    if len(code) > BOOT2_BYTES - 4:
        raise ValueError(f"boot2 is {len(code)} bytes, more than {BOOT2_BYTES - 4}")
    code = code.ljust(BOOT2_BYTES - 4, b"\0")
    return code + struct.pack("<I", crc32_mpeg2(code))


def uf2(image: bytes, base: int, family: int) -> bytes:
    """image (written from address base) as UF2 blocks: 512 bytes each, 256 of payload."""
    chunks = [image[k:k + 256] for k in range(0, len(image), 256)]
    blocks = []
    for n, chunk in enumerate(chunks):
        header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x00002000, base + 256 * n, 256, n, len(chunks), family)
        blocks.append(header + chunk.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30))
    return b"".join(blocks)


def binary_image(elf: Path) -> Path:
    """The firmware as a raw image from its first loaded address (what flashers and boot tables take)."""
    binary = elf.with_suffix(".bin")
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", str(elf), str(binary)], check=True)
    return binary


def _uf2_image(image: Uf2Image, elf: Path) -> Path:
    out = elf.with_suffix(".uf2")
    out.write_bytes(uf2(boot2(image.boot2, elf.parent) + binary_image(elf).read_bytes(), image.base, image.family))
    return out


ALIF_IMAGE = "mcugen-firmware.bin"  # its name in SETOOLS' build/images/


def _atoc_config(image: AtocImage, elf: Path, flash_origin: int) -> Path:
    binary_image(elf)
    config = {"DEVICE": {"disabled": False, "binary": "app-device-config.json", "version": "0.5.00", "signed": True},
              "HP_APP": {"disabled": False, "binary": ALIF_IMAGE, "version": "1.0.0", "signed": False,
                         "mramAddress": f"0x{flash_origin:08X}", "cpu_id": image.cpu, "flags": ["boot"]}}
    out = elf.with_suffix(".atoc.json")
    out.write_text(json.dumps(config, indent=4) + "\n")
    return out


def write_images(image: Uf2Image | AtocImage | None, elf: Path, flash_origin: int) -> Path | None:
    """The files the chip boots from, beside elf (None: the ELF's own image is what is flashed)."""
    if isinstance(image, Uf2Image):
        return _uf2_image(image, elf)
    if isinstance(image, AtocImage):
        return _atoc_config(image, elf, flash_origin)
    return None
