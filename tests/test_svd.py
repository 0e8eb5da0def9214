"""The real boards' harness against their chips' CMSIS-SVD files: every peripheral register the
firmware of a board reads or writes (its UART driver and chip start-up in runtime_c/harness (port_files), as the
preprocessor leaves them for that board's flags, and the clock and pin writes its board file lists)
is a register of that chip at that address, every constant written sets only bits of the register's
fields, and the values that select something select what the comment says (an enumerated value).

No board is attached here: this is the check that the register map is the vendor's. The SVD files in
tests/svd/ are the vendors' own, trimmed to the peripherals the harness touches (scripts/trim_svd.py;
provenance and licences in tests/svd/README.md). The STM32U575's (nucleo-u575zi-q) is ST's CMSIS device
header instead, trimmed alike (scripts/trim_cmsis_header.py) and parsed here: its register structs give
the addresses, its _Pos/_Msk definitions the fields. Boards without a check: nucleo-l4r5zi and
disco-f746ng build only with their stock Arduino cores (the harness writes no register of theirs).
"""
from __future__ import annotations

import ast
import functools
import operator
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conftest import ROOT
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import write_offline_board
from mcugen.codegen.outdir import OutDir

SVD = Path(__file__).parent / "svd"
CHIPS = {"nano33": "nrf52840.svd", "nrf5340dk": "nrf5340_application.svd", "rpi-pico": "rp2040.svd",
         "alif-devkit-e7": "AE722F80F55D5LS_CM55_HP_View.svd", "nucleo-u575zi-q": "stm32u575xx.h"}
# a CMSIS header's peripherals: instance -> its register struct's kind (RCC_TypeDef, ...)
HEADER_INSTANCES = {"stm32u575xx.h": {"RCC": "RCC", "GPIOA": "GPIO", "USART1": "USART"}}
CORE_PERIPHERALS = 0xE0000000  # the Arm core's own registers (CPACR, DWT, SysTick): not the vendor's
# RP2040 datasheet 2.1.2: every peripheral register has atomic XOR, set and clear aliases at +0x1000/2000/3000
ALIASES = {"rpi-pico": 0x3000}

# what selects something, by board: (address, field) -> the enumerated value's name the SVD gives it
MEANT = {
    "nano33": {(0x40002524, "BAUDRATE"): "Baud115200", (0x40002500, "ENABLE"): "Enabled"},
    "nrf5340dk": {(0x50008524, "BAUDRATE"): "Baud115200", (0x50008500, "ENABLE"): "Enabled"},
    "rpi-pico": {(0x40024000, "FREQ_RANGE"): "1_15MHZ", (0x40024000, "ENABLE"): "ENABLE",
                 (0x40008030, "SRC"): "xosc_clksrc", (0x4000803C, "SRC"): "clk_ref",
                 (0x40008048, "AUXSRC"): "clk_sys", (0x40014004, "FUNCSEL"): "uart0_tx",
                 (0x4001400C, "FUNCSEL"): "uart0_rx"},
    "alif-devkit-e7": {},
    "nucleo-u575zi-q": {},  # a header's fields carry no enumerated values
}


@dataclass(frozen=True)
class HeaderField:
    """A register field as a CMSIS header defines it (KIND_REG_FIELD_Pos / _Msk), shaped as the SVD's."""

    name: str
    bit_offset: int
    bit_width: int
    enumerated_values: None = None
    description: str = ""


def header_registers(chip: str) -> dict[int, tuple[str, list]]:
    """Address -> (instance.register, fields) of the instances HEADER_INSTANCES names, from the header: each
    struct member a register at its offset (uint32_t each, arrays unrolled: GPIO's AFR[2] as AFRL and AFRH,
    the names its fields use), the base addresses evaluated, the fields from their masks."""
    text = (SVD / chip).read_text()
    defines = dict(re.findall(r"#define\s+(\w+)\s+(\([^\n]*?\)|\w+)", text))

    def value(name: str) -> int:
        expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", defines[name])
        for other in set(re.findall(r"\b[A-Za-z_]\w*\b", expr)):
            expr = re.sub(rf"\b{other}\b", str(value(other)), expr)
        return _Eval({}).visit(ast.parse(expr, mode="eval"))

    found: dict[int, tuple[str, list]] = {}
    for instance, kind in HEADER_INSTANCES[chip].items():
        body = re.search(r"typedef struct\s*\{((?:(?!typedef struct).)*?)\}\s*" + kind + r"_TypeDef;", text,
                         re.S).group(1)
        offset = 0
        for name, count in re.findall(r"uint32_t\s+(\w+)(?:\[(\d+)\])?\s*;", body):
            names = [name] if not count else [f"{name}{'LH'[k]}" if int(count) == 2 and f"{kind}_{name}L_" in text
                                              else f"{name}{k}" for k in range(int(count))]
            for register in names:
                if not register.startswith("RESERVED"):
                    fields = []
                    for field in re.findall(rf"#define\s+{kind}_{register}_(\w+)_Pos\s", text):
                        try:
                            mask = value(f"{kind}_{register}_{field}_Msk")
                        except KeyError:  # ST's typos ("(x1UL << GPIO_HSLVR_HSLV11_Pos)"): no field to judge by
                            continue
                        fields.append(HeaderField(field, value(f"{kind}_{register}_{field}_Pos"), bin(mask).count("1")))
                    found[value(f"{instance}_BASE_NS") + offset] = (f"{instance}.{register}", fields)
                offset += 4
    return found


@cache
def registers(chip: str) -> dict[int, tuple[str, list]]:
    """Address -> (peripheral.register, fields) of every register of the SVD file, arrays unrolled (or of the
    CMSIS header's instances)."""
    if chip.endswith(".h"):
        return header_registers(chip)
    from cmsis_svd import SVDParser
    device = SVDParser.for_xml_file(str(SVD / chip)).get_device()
    found: dict[int, tuple[str, list]] = {}

    def walk(peripheral, items, base: int) -> None:
        for item in items:
            meta = getattr(item, "meta_register", None) or getattr(item, "meta_cluster", None)
            if meta is not None:  # an array: dim copies dim_increment apart
                for i in range(meta.dim):
                    walk(peripheral, meta.registers if getattr(meta, "registers", None) else [meta],
                         base + i * meta.dim_increment)
            elif getattr(item, "fields", None) is None and getattr(item, "registers", None):
                walk(peripheral, item.registers, base)  # a cluster: its registers' offsets include its own
            else:
                name = re.sub(r"\[%s\]|%s", "", item.name)
                found[base + item.address_offset] = (f"{peripheral.name}.{name}", list(item.fields or []))

    for p in device.peripherals:
        walk(p, p.registers or [], p.base_address)
    return found


class _Eval(ast.NodeVisitor):
    """Integer constant expressions of C as the preprocessor leaves them (u suffixes and casts gone)."""
    OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.LShift: operator.lshift,
           ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitAnd: operator.and_}

    def __init__(self, names: dict[str, int]):
        self.names = names

    def visit_Expression(self, node):
        return self.visit(node.body)

    def visit_Constant(self, node):
        if not isinstance(node.value, int):
            raise ValueError
        return node.value

    def visit_Name(self, node):
        return self.names[node.id]

    def visit_BinOp(self, node):
        return self.OPS[type(node.op)](self.visit(node.left), self.visit(node.right))

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Invert):
            return ~self.visit(node.operand) & 0xFFFFFFFF
        raise ValueError

    def generic_visit(self, node):
        raise ValueError(ast.dump(node))


def _value(text: str, names: dict[str, int]) -> int | None:
    text = re.sub(r"\(\s*(?:uint32_t|int32_t|uint8_t)\s*\)", "", text)
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", text).strip()
    try:
        return _Eval(names).visit(ast.parse(text, mode="eval"))
    except (ValueError, KeyError, SyntaxError, TypeError):
        return None  # a run-time value (a byte, a buffer's address, a loop's table entry)


def _paren(text: str, start: int) -> int:
    """The index just past the parenthesis that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    raise ValueError("unbalanced")


ACCESS = "(*(volatile uint32_t *)"


def accesses(board_id: str, tmp_path: Path) -> list[tuple[int, int | None, str]]:
    """(address, value or mask, what) of every register access in the board's compiled harness and its
    board file's clock and pin tables: 'write' values, 'set' bits (|=), 'test' masks (&)."""
    board = load_board(board_id)
    flags = write_offline_board(board, OutDir(tmp_path / "project")).split()
    from mcugen.targets.firmware import port_files

    harness = ROOT / "runtime_c" / "harness"
    text = "".join(subprocess.run(["arm-none-eabi-gcc", "-E", "-P", "-mthumb", f"-mcpu={board.core}", *flags,
                                   f"-I{harness}", str(harness / f)], capture_output=True, text=True,
                                  check=True).stdout for f in port_files(board) if f.endswith(".c"))
    names = {name: v for name, expr in re.findall(r"const uint32_t (\w+) = ([^;]+);", text)
             if (v := _value(expr, {})) is not None}
    found = []
    at = text.find(ACCESS)
    while at >= 0:
        address_end = _paren(text, at + len(ACCESS))
        address = _value(text[at + len(ACCESS):address_end], names)
        end = _paren(text, at)
        rest = text[end:end + 200]
        if address is not None:
            if m := re.match(r"\s*(\|?=)(?!=)\s*([^;]+);", rest):
                found.append((address, _value(m.group(2), names), "set" if m.group(1) == "|=" else "write"))
            elif m := re.match(r"\s*&\s*", rest):
                mask_end = _paren(rest, m.end()) if rest[m.end()] == "(" else m.end() + len(rest[m.end():].split(")")[0])
                found.append((address, _value(rest[m.end():mask_end], names), "test"))
            else:
                found.append((address, None, "read"))
        at = text.find(ACCESS, end)
    o = board.offline
    assert o is not None
    found += [(e.register, 1 << e.bit, "set") for e in o.clock_enables]
    found += [(w.register, w.value, "write") for w in o.pin_writes]
    return [a for a in found if a[0] < CORE_PERIPHERALS]


def _fields_of(value: int, fields: list) -> dict[str, int]:
    return {f.name: (value >> f.bit_offset) & ((1 << f.bit_width) - 1) for f in fields}


@pytest.mark.parametrize("board_id", sorted(CHIPS))
def test_every_register_the_harness_touches_is_the_chip_s(tmp_path, board_id):
    regs = registers(CHIPS[board_id])
    touched = accesses(board_id, tmp_path)
    assert len(touched) >= 8, touched  # a UART driver's worth at least
    said = {}
    for address, value, how in touched:
        base = address & ~ALIASES.get(board_id, 0)
        assert base in regs, f"{board_id}: 0x{address:08X} ({how}) is no register of {CHIPS[board_id]}"
        name, fields = regs[base]
        if value is None or not fields:
            continue
        covered = functools.reduce(operator.or_, (((1 << f.bit_width) - 1) << f.bit_offset for f in fields), 0)
        assert value & ~covered & 0xFFFFFFFF == 0, f"{name}: 0x{value:08X} sets bits no field of it has"
        if how != "write":
            continue
        for f in fields:
            enums = {e.value: e.name for ev in (f.enumerated_values or [])
                     for e in (getattr(ev, "enumerated_values", None) or [ev])}
            v = (value >> f.bit_offset) & ((1 << f.bit_width) - 1)
            if enums and v in enums:
                said[(base, f.name)] = enums[v]
    for key, meant in MEANT[board_id].items():
        assert said.get(key) == meant, f"0x{key[0]:08X} {key[1]}: {said.get(key)}, meant {meant}"


@pytest.mark.parametrize("board_id", sorted(CHIPS))
def test_the_uart_is_the_board_file_s_and_the_chip_s(board_id):
    """The board file's UART base is the start of a UART peripheral of the chip."""
    board = load_board(board_id)
    assert board.offline is not None and board.offline.uart_base is not None
    name, _ = registers(CHIPS[board_id])[board.offline.uart_base]
    assert re.match(r"U(S)?ART|LPUART", name.split(".")[0]), name


def test_the_clock_enables_name_the_uart(tmp_path):
    """Alif's clock bits are the board file's data: the SVD names what each turns on."""
    regs = registers(CHIPS["alif-devkit-e7"])
    board = load_board("alif-devkit-e7")
    assert board.offline is not None
    for e in board.offline.clock_enables:
        _, fields = regs[e.register]
        field = next(f for f in fields if f.bit_offset <= e.bit < f.bit_offset + f.bit_width)
        assert "UART4" in field.name or "UART" in (field.description or ""), (field.name, field.description)


def test_the_stm32u575_s_registers_are_st_s_where_the_board_file_says():
    """nucleo-u575zi-q's clock enables are the bits ST's header names GPIOAEN and USART1EN, its UART and GPIO
    bases ST's USART1 and GPIOA, and the header's own offsets agree with the offsets its comments state."""
    regs = registers("stm32u575xx.h")
    board = load_board("nucleo-u575zi-q")
    assert board.offline is not None and board.offline.gpio is not None
    named = {regs[e.register][0]: next(f.name for f in regs[e.register][1]
                                       if f.bit_offset <= e.bit < f.bit_offset + f.bit_width)
             for e in board.offline.clock_enables}
    assert named == {"RCC.AHB2ENR1": "GPIOAEN", "RCC.APB2ENR": "USART1EN"}
    assert regs[board.offline.uart_base][0] == "USART1.CR1"
    assert regs[board.offline.gpio.base][0] == "GPIOA.MODER"
    assert regs[board.offline.gpio.base + 0x24][0] == "GPIOA.AFRH"
    rcc = re.search(r"typedef struct\s*\{((?:(?!typedef struct).)*?)\}\s*RCC_TypeDef;",
                    (SVD / "stm32u575xx.h").read_text(), re.S).group(1)
    stated = re.findall(r"uint32_t\s+(\w+);\s*/\*!<[^*]*Address offset:\s*(0x[0-9A-Fa-f]+)", rcc)
    by_name = {name: address for address, (name, _) in regs.items()}
    assert len(stated) > 40
    for register, offset in stated:
        if not register.startswith("RESERVED"):
            assert by_name[f"RCC.{register}"] - 0x46020C00 == int(offset, 16), register
