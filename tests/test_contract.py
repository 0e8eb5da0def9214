"""The contract between the generators (Python) and the kernels (C), checked rather than trusted:

- every kernel name the generators can emit has a prototype in a runtime header and a source file
  named after it, in runtime_c/src/ (every core) or runtime_c/dsp/ (cores with the DSP extension);
- every source file defines the one function it is named after, declared in a header;
- every struct the generators fill is a typedef of the headers;
- on the real models, a build for a core without DSP calls only runtime_c/src/ kernels;
- the numbers both sides use are read by Python from the headers (mcugen/runtime.py).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from conftest import DSP, MODELS, kernel_parameters
from mcugen.errors import McugenError
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget
from mcugen.ir.calls import Call, Const, Packed, Scratch, Struct
from mcugen.runtime import RUNTIME, _integer, c_define

PACKAGE = Path(__file__).resolve().parents[1] / "mcugen"
HEADERS = {p.name: p.read_text() for p in (RUNTIME / "include").glob("*.h")}
C_FILES = {p.stem: p for folder in ("src", "dsp", "mve") for p in (RUNTIME / folder).glob("*.c")}


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def _prototypes() -> set[str]:
    """Functions declared (not defined inline) in the headers."""
    names = set()
    for text in HEADERS.values():
        for match in re.finditer(r"^[A-Za-z_][\w \*]*?\b(mcu_\w+)\s*\(([^;{]*?)\)\s*;", _strip_comments(text), re.M | re.S):
            names.add(match.group(1))
    return names


def _typedefs() -> set[str]:
    return {m.group(1) or m.group(2) for text in HEADERS.values()
            for m in re.finditer(r"\}\s*(mcu_\w+)\s*;|^typedef [^;{(]*\b(mcu_\w+)\s*;", text, re.M)}


def _python_names() -> set[str]:
    """Every "mcu_..." string literal of the package: a kernel or a struct the generators name."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        names.update(re.findall(r"[\"'](mcu_[a-z0-9_]+)[\"']", path.read_text()))
    return names


def test_every_kernel_name_the_generators_write_has_a_prototype_and_a_source_file():
    prototypes, typedefs = _prototypes(), _typedefs()
    kernels = {n for n in _python_names() if n not in typedefs}
    assert kernels, "no kernel names found: the scan is broken"
    assert not kernels - prototypes, f"no prototype in runtime_c/include/: {sorted(kernels - prototypes)}"
    assert not kernels - set(C_FILES), f"no runtime_c/src/ or dsp/ file: {sorted(kernels - set(C_FILES))}"


def test_every_struct_the_generators_fill_is_declared():
    typedefs = _typedefs()
    structs = {n for n in _python_names() if n.endswith(("_params", "_quant", "_dims", "_channel"))}
    assert structs and not structs - typedefs, sorted(structs - typedefs)


@pytest.mark.parametrize("name", sorted(C_FILES))
def test_a_source_file_defines_the_function_it_is_named_after(name):
    code = _strip_comments(C_FILES[name].read_text())
    defined = re.findall(r"^[A-Za-z_][\w \*]*?\b(mcu_\w+)\s*\([^;{]*\)\s*\{", code, re.M | re.S)
    assert defined == [name], f"{C_FILES[name].relative_to(RUNTIME)} defines {defined}"
    assert name in _prototypes(), f"{name} has no prototype in runtime_c/include/"
    folder = "dsp" if re.search(r"_(x\d+|w16|twin|quads|dsp)$", name) else "mve" if name.endswith("_mve") else "src"
    assert C_FILES[name].parent.name == folder, \
        "DSP variants (blocked _xN, widened weights _w16, twin words _twin, channel quads _quads) and the bodies they " \
        "share (_dsp) live in dsp/, Helium ones (_mve) in mve/, reference kernels in src/"


REAL = sorted(p.name for p in MODELS.glob("*.tflite"))


def _named_alike(const: str, parameter: str) -> bool:
    """A constant array and the parameter it is passed as: the same name, but for the layout a widened filter's
    name says (filter_pairs, filter_twins) and the other layers' prefix or suffix in a fused call (dw_, fc_, 2, 3)."""
    base = const.removesuffix("_pairs").removesuffix("_twins")
    return parameter in (const, base, base + "2", base + "3", "dw_" + base, "fc_" + base)


def _arguments_match_their_prototype(call: Call) -> list[str]:
    """Where a call's arguments and its kernel's parameters disagree: the count, a constant array under another
    parameter's name, a struct or scratch of another type than the parameter's (the C compiler catches a wrong
    pointer type but not two arrays of one type swapped)."""
    parameters = kernel_parameters(call.kernel)
    if len(parameters) != len(call.args):
        return [f"{call.kernel}: {len(call.args)} arguments for {len(parameters)} parameters"]
    wrong = []
    for k, (arg, (words, name)) in enumerate(zip(call.args, parameters)):
        arg = arg.const if isinstance(arg, Packed) else arg
        if isinstance(arg, Const) and not _named_alike(arg.name, name):
            wrong.append(f"{call.kernel} argument {k}: array {arg.name} passed as {name}")
        if isinstance(arg, (Struct, Scratch)) and arg.ctype not in words:
            wrong.append(f"{call.kernel} argument {k}: {arg.ctype} passed as {' '.join(words)} {name}")
    return wrong


@pytest.mark.parametrize("name", REAL)
def test_a_core_calls_only_kernels_of_its_features_with_arguments_in_their_order(name):
    """Every call of every layer, on each core's features (widened weights too: --optimize speed), names a kernel
    of those features and passes its arguments in its prototype's order."""
    for features, optimize in ((frozenset(), "balanced"), (DSP, "balanced"), (DSP, "speed"),
                               (DSP | {"mve"}, "balanced")):
        try:
            g = compile_model(MODELS / name, features=features, budget=Budget(optimize=optimize))
        except McugenError:
            pytest.skip("not supported whole (tests/test_models.py covers why)")
        kernels = {k for op in g.ops if op.call for k in (op.call.kernel, *op.call.extra_kernels)}
        assert kernels <= set(C_FILES)
        folders = {k: C_FILES[k].parent.name for k in kernels}
        assert set(folders.values()) <= {"src", *features}, folders
        assert [w for op in g.ops if op.call for w in _arguments_match_their_prototype(op.call)] == []


def test_every_variant_is_declared_with_its_file_and_feature():
    from mcugen import ops
    from mcugen.kernels import TABLES

    assert {key.split(":")[0] for key in TABLES} <= set(ops.supported_opcodes())  # OPCODE:family
    declared = [v for table in TABLES.values() for v in table]
    assert declared
    for v in declared:
        assert C_FILES[v.kernel].parent.name == v.needs, f"{v.kernel} needs {v.needs}: runtime_c/{v.needs}/"


def test_the_shared_numbers_come_from_the_headers():
    from mcugen.ir.lowering import MAX_DIMS
    from mcugen.ops._quant import FAST_BOUND
    from mcugen.kernels.conv import CONV_BLOCK

    assert (MAX_DIMS, CONV_BLOCK, FAST_BOUND) == (c_define("MCU_MAX_DIMS"), c_define("MCU_CONV_BLOCK"),
                                                  c_define("MCU_REQUANTIZE_FAST_BOUND"))
    assert _integer("(1u << 30)") == 1 << 30 and _integer("-(3 * 4)") == -12
    with pytest.raises(ValueError):
        _integer("sizeof(int)")
    with pytest.raises(McugenError, match="defines no MCU_NO_SUCH"):
        c_define("MCU_NO_SUCH")


SIX_POSITIONS = ("mcu_conv2d_s8_x6", "mcu_conv2d_s4_x6", "mcu_conv2d_s8_w16", "mcu_conv2d_split_s8_w16",
                 "mcu_conv2d_split_s8_x6", "mcu_conv2d_live_s8_w16", "mcu_conv2d_live_s8_x6", "mcu_conv2d_live_s4_x6")
FUSED = ("mcu_conv2d_rows_s8_x6", "mcu_conv2d_fc_s8_x6", "mcu_conv2d_add_s8_x6", "mcu_conv2d_depthwise_s8_x4",
         "mcu_conv2d_depthwise_s4_x4", "mcu_conv2d_conv2d_add_s8_x6", "mcu_conv2d_conv2d_add_shortcut_s8_x6")


@pytest.mark.parametrize("kernel", SIX_POSITIONS + FUSED)
def test_the_typed_argument_records_follow_their_prototypes(kernel):
    """X6Args's fields are the six-positions family's first parameters, in order (a filter of int16 pairs is
    `filter_pairs` in C), and Strips.args() is what every fused kernel starts with."""
    import dataclasses

    from mcugen.kernels.conv import X6Args

    names = [n.replace("filter_pairs", "filter") for _, n in kernel_parameters(kernel)]
    fields = [f.name for f in dataclasses.fields(X6Args)]
    if kernel in SIX_POSITIONS:
        assert names[:len(fields)] == fields
    else:  # Strips.args(): X6Args with the filter's bits after the filter, then the conv's whole output
        expected = fields[:6] + ["filter_bits", "bias"]
        assert names[:8] == expected and names[8] in ("output_dims", "mid_dims")


def test_the_channel_table_is_mcu_channel_field_by_field():
    """channel_table's rows are emitted as mcu_channel initializers and counted as constants by their
    numpy size: the dtype must be the struct, field for field, type for type, byte for byte."""
    from mcugen.ops._quant import CHANNEL_DTYPE

    struct = re.search(r"typedef struct \{([^}]*)\}\s*mcu_channel;", _strip_comments(HEADERS["mcu_nn_types.h"]))
    assert struct
    fields = re.findall(r"(u?int\d+)_t (\w+);", struct.group(1))
    assert [name for _, name in fields] == list(CHANNEL_DTYPE.names)
    assert [np.dtype(ctype) for ctype, _ in fields] == [CHANNEL_DTYPE[name] for name in CHANNEL_DTYPE.names]
    assert CHANNEL_DTYPE.itemsize == 8
