"""Boards: schema-checked files, firmware built offline with PlatformIO, bit-exact on emulated
Cortex-M (QEMU), fit checks, and the protocol surviving a noisy line and catching stale firmware."""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import DSP, MODELS, ROOT, bit_exact_on_board
from mcugen import golden
from mcugen.boards import all_boards, all_cores, load_board, parse_board
from mcugen.build import build_host
from mcugen.chips import crc32_mpeg2
from mcugen.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.firmware import arena_regions, build_board
from mcugen.oracle import Tflm
from mcugen.outdir import OutDir
from mcugen.passes.fuse_strips import fuse_all
from mcugen.passes.plan_memory import plan_memory
from mcugen.planner import Region
from mcugen.pipeline import compile_model
from mcugen.framing import Framer, encode
from mcugen.protocol import ACK, Link
from mcugen.qemu import QemuTarget
from mcugen.transport import ProcessStream
from mcugen.targets import Target
from mcugen.validate import OutputDiff, check_target, expected_seconds, run_on_target, run_samples
from mcugen.ops._window import out_size
from test_cli import assert_one_error_line, checked_report, run_cli
from test_ops_conv import _conv_model, conv_case
from tflite_writer import ModelSpec

SCHEMA = json.loads((ROOT / "boards" / "schema.json").read_text())


# -- board files ------------------------------------------------------------------------------------
def test_every_board_file_is_valid_and_the_required_boards_exist():
    boards = all_boards()
    assert {"nano33", "mps2-an386", "mps2-an500", "lm3s6965evb", "netduinoplus2"} <= set(boards)
    real = [b for b in boards.values() if not b.emulated and b.stock]
    assert len(real) >= 3  # nano33 + two more popular boards with stock PlatformIO ids
    nano = load_board("nano33")
    assert nano.flash == {"origin": 0x10000, "bytes": 1024 * 1024 - 64 * 1024}
    assert nano.ram["bytes"] == 256 * 1024 and nano.clock_hz == 64_000_000 and nano.core == "cortex-m4"


@pytest.mark.parametrize("text, phrase", [
    ("serial_port: /dev/ttyACM0\n", "Additional properties are not allowed ('serial_port'"),
    ("clock_hz: 5\n", "key 'clock_hz' appears twice"),
    ("", None),
])
def test_board_files_reject_unknown_and_duplicate_keys(tmp_path, text, phrase):
    path = tmp_path / "mps2-an386.yaml"
    path.write_text((ROOT / "boards" / "mps2-an386.yaml").read_text() + text)
    if phrase is None:
        assert parse_board(path, SCHEMA, all_cores()).id == "mps2-an386"
        return
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_cores())


@pytest.mark.parametrize("change, phrase", [
    (("core: cortex-m4", "core: cortex-m99"), "core 'cortex-m99' has no file in boards/cores/"),
    (("core: cortex-m4", "core: cortex-m0plus"), "fpu: true, but a Arm Cortex-M0+ has no FPU"),
    (("core: cortex-m4\nfpu: true", "core: cortex-m3\nfpu: false"), "dsp: true, but a Arm Cortex-M3 has no DSP"),
])
def test_a_board_claims_only_what_its_core_can_have(tmp_path, change, phrase):
    path = tmp_path / "mps2-an386.yaml"
    path.write_text((ROOT / "boards" / "mps2-an386.yaml").read_text().replace(*change))
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_cores())


@pytest.mark.parametrize("board, change, phrase", [
    ("nucleo-u575zi-q", ("  gpio: {base: 0x42020000, af: 7}\n", ""), "a stm32-usart-v2 UART needs clock_enables, gpio"),
    ("nucleo-u575zi-q", ("tx_pin: 9", "tx_pin: 16"), "tx_pin 16 is not one of the 16 pins it can be"),
    ("rpi-pico", ("rx_pin: 1", "rx_pin: 30"), "rx_pin 30 is not one of the 30 pins it can be"),
    ("nucleo-u575zi-q", ("uart_clock_hz: 4000000", "uart_clock_hz: 0"), "0 is less than the minimum of 1843200"),
    ("nucleo-u575zi-q", ("bit: 14", "bit: 32"), "32 is greater than the maximum of 31"),
    ("alif-devkit-e7", ("  pin_writes:", "  pins:"), "Additional properties are not allowed ('pins' was unexpected)"),
    ("alif-devkit-e7", ("value: 0x00000002}", "value: 0x100000000}"), "4294967296 is greater than the maximum"),
])
def test_a_uart_kind_gets_the_fields_its_driver_reads_in_range(tmp_path, board, change, phrase):
    path = tmp_path / f"{board}.yaml"
    path.write_text((ROOT / "boards" / f"{board}.yaml").read_text().replace(*change))
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_cores())


@pytest.mark.parametrize("change, phrase", [
    (("origin: 0x21000000", "origin: 0x2000A000"), "memory regions RAM and PSRAM overlap (0x20000000..0x2000C000"),
    (("name: BRAM", "name: PSRAM"), "two memory regions are named PSRAM"),
    (("name: BRAM", "name: bram"), "'bram' does not match"),
    (("kind: ram, rank: 0", "kind: sram, rank: 0"), "'sram' is not one of ['ram', 'flash']"),
    (("bytes: 1048576, kind: flash", "bytes: 4294967296, kind: flash"),
     "memory region QSPI ends past the 4 GB address space (0x21100000 + 4,294,967,296 B)"),
])
def test_memory_regions_are_named_once_and_never_overlap(tmp_path, change, phrase):
    path = tmp_path / "mps2-an386-banks.yaml"
    path.write_text((ROOT / "boards" / "mps2-an386-banks.yaml").read_text().replace(*change))
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_cores())


REAL_OFFLINE = sorted(b.id for b in all_boards().values() if not b.emulated and b.offline is not None)


@pytest.mark.parametrize("board_id", REAL_OFFLINE)
def test_every_real_board_with_an_offline_platform_builds_and_fits(tmp_path, board_id):
    """Build-only boards (none is attached here): the offline firmware compiles for the board's core and
    UART, is linked at the board's flash and RAM, and its sizes are read back from the ELF."""
    board = load_board(board_id)
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", board_id)
    assert result.const_bytes < result.image.flash <= board.flash["bytes"]
    assert g.arena.plan.size < result.image.ram <= board.ram["bytes"] - board.stack_bytes
    symbols = subprocess.run(["arm-none-eabi-nm", str(result.program)], capture_output=True, text=True).stdout
    addresses = {line.split()[-1]: int(line.split()[0], 16) for line in symbols.splitlines() if len(line.split()) == 3}
    assert addresses["vectors"] == board.flash["origin"]  # where the core (or its bootloader) starts it


def _objcopy_binary(tmp_path, program):
    """The ELF's flat image as binutils makes it, into a file: objcopy replaces its output path by a rename,
    so /dev/stdout is no place for it (run as root, it turns the device link into a file)."""
    subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", str(program), str(tmp_path / "image.bin")],
                   capture_output=True, check=True)
    return (tmp_path / "image.bin").read_bytes()


def test_the_pico_firmware_is_a_uf2_image_with_its_boot2(tmp_path):
    """The RP2040 boots 256 bytes of boot2 checked by CRC-32/MPEG-2 (whose catalogue check value is
    0x0376E6E7 for "123456789"), then the firmware at 0x10000100; its USB drive takes UF2 blocks (the
    format's magic numbers, 256 bytes of payload each, the RP2040's family id)."""
    assert crc32_mpeg2(b"123456789") == 0x0376E6E7
    _, result = _build(tmp_path, "tflm_micro_speech.tflite", "rpi-pico")
    data = result.program.with_suffix(".uf2").read_bytes()
    blocks = [data[k:k + 512] for k in range(0, len(data), 512)]
    image = b""
    for n, block in enumerate(blocks):
        magic0, magic1, flags, address, size, number, count, family = struct.unpack("<8I", block[:32])
        assert (magic0, magic1, struct.unpack("<I", block[508:])[0]) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert (flags, address, size, number, count, family) == (0x2000, 0x10000000 + 256 * n, 256, n, len(blocks),
                                                                 0xE48BFF56)
        image += block[32:32 + size]
    assert struct.unpack("<I", image[252:256])[0] == crc32_mpeg2(image[:252])
    binary = _objcopy_binary(tmp_path, result.program)
    assert image[256:256 + len(binary)] == binary  # the firmware, linked at 0x10000100
    assert struct.unpack("<I", image[256 + 4:256 + 8])[0] & ~1 > 0x10000100  # its reset vector points into flash


def test_the_alif_firmware_comes_with_the_boot_table_config_that_places_it(tmp_path):
    """The Ensemble's Secure Enclave boots the HP core from a table SETOOLS builds from a JSON config: the
    config names firmware.bin (the ELF's image from the board's flash origin) at that MRAM address."""
    board = load_board("alif-devkit-e7")
    _, result = _build(tmp_path, "tflm_hello_world.tflite", board.id)
    config = json.loads(result.program.with_suffix(".atoc.json").read_text())
    assert config["HP_APP"] == {"disabled": False, "binary": "mcugen-firmware.bin", "version": "1.0.0",
                                "signed": False, "mramAddress": "0x80200000", "cpu_id": "M55_HP", "flags": ["boot"]}
    binary = _objcopy_binary(tmp_path, result.program)
    assert result.program.with_suffix(".bin").read_bytes() == binary
    assert struct.unpack("<I", binary[4:8])[0] & ~1 > board.flash["origin"]  # the reset vector points into MRAM


@pytest.mark.parametrize("core", sorted(all_cores()))
def test_every_core_file_gives_flags_the_cross_compiler_takes(tmp_path, core):
    """A core is data: its -mcpu and -mfpu build code (the FPU's hard-float ABI where it has one)."""
    spec = all_cores()[core]
    (tmp_path / "f.c").write_text("float f(float a, int b) { return a * (float)b; }\n")
    flags = ["-mthumb", f"-mcpu={spec.id}"] + ([f"-mfpu={spec.fpu}", "-mfloat-abi=hard"] if spec.fpu else
                                                ["-mfloat-abi=soft"])
    done = subprocess.run(["arm-none-eabi-gcc", *flags, "-O2", "-c", tmp_path / "f.c", "-o", tmp_path / "f.o"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_board_id_must_match_its_file_and_be_unique(tmp_path):
    shutil.copy(ROOT / "boards" / "schema.json", tmp_path)
    shutil.copytree(ROOT / "boards" / "cores", tmp_path / "cores")
    text = (ROOT / "boards" / "mps2-an386.yaml").read_text()
    (tmp_path / "other.yaml").write_text(text)
    with pytest.raises(McugenError, match="differs from the file name"):
        all_boards.__wrapped__(tmp_path)
    (tmp_path / "other.yaml").unlink()
    (tmp_path / "mps2-an386.yaml").write_text(text)
    (tmp_path / "mps2-an386.yml").write_text(text)
    with pytest.raises(McugenError, match="declared twice"):
        all_boards.__wrapped__(tmp_path)


# -- on emulated Cortex-M ---------------------------------------------------------------------------
def _build(tmp_path, model: str, board: str):
    g = compile_model(MODELS / model, features=load_board(board).features)
    return g, build_board(g, load_board(board), OutDir(tmp_path / board), model)


@pytest.mark.parametrize("model, board", [
    ("tflm_hello_world.tflite", "mps2-an386"),
    ("tflm_micro_speech.tflite", "mps2-an386"),
    ("mlperf_kws_dscnn.tflite", "mps2-an386"),
    ("mlperf_ad_autoencoder.tflite", "mps2-an386"),
    ("mlperf_ic_resnet8.tflite", "mps2-an386"),
    ("tflm_hello_world.tflite", "lm3s6965evb"),
    ("tflm_micro_speech.tflite", "mps2-an500"),
    ("tflm_hello_world.tflite", "netduinoplus2"),
    ("mlperf_kws_dscnn.tflite", "mps2-an505"),  # Cortex-M33: the DSP variants
    ("mlperf_ic_resnet8.tflite", "mps3-an547"),  # Cortex-M55
    ("tflm_micro_speech.tflite", "microbit"),  # Cortex-M0 (Armv6-M), 16 KB of RAM
    ("mlperf_sww_dscnn.tflite", "microbit"),
])
def test_bit_exact_on_the_emulated_board(tmp_path, model, board):
    g, result = _build(tmp_path, model, board)
    assert result.image.flash <= load_board(board).flash["bytes"]
    info, results = run_on_target(Target.of(board), result.program, g, random_inputs(g, 1, seed=11), profile=True)
    assert info.clock == "systick" and info.arena_bytes == g.arena.plan.size
    assert results[0].passed, results[0].outputs
    assert results[0].cycles > 0 and len(results[0].layer_cycles) == len(g.ops)
    assert sum(results[0].layer_cycles) <= results[0].cycles


def test_an_arena_too_big_for_any_bank_runs_split_across_them(tmp_path):
    """mps2-an386-banks: VWW's 46.5 KB arena fits neither its 48 KB RAM (less stack and harness) nor its
    40 KB PSRAM alone; spread over the banks it runs bit-exact, and every region's arena lies inside that
    region (the ELF's symbols) with the plan's buffers inside the arena. Its weight arrays go to the
    board's external flash region (--weights external), and are read from there."""
    board = load_board("mps2-an386-banks")
    whole = compile_model(MODELS / "mlperf_vww_mobilenet.tflite", features=board.features).arena.plan.size
    regions = arena_regions(board)
    assert all(whole > r.capacity for r in regions)
    g = compile_model(MODELS / "mlperf_vww_mobilenet.tflite", features=board.features, regions=regions)
    plan = g.arena.plan
    assert plan.conflicts() == [] and len(plan.region_sizes) > 1
    assert all(plan.offsets[k] + b.size <= dict(plan.region_sizes)[plan.region(k)] for k, b in enumerate(plan.buffers))
    assert all(plan.region(g.arena.buffer_of[t]) == "RAM" for t in (*g.inputs, *g.outputs))
    result = build_board(g, board, OutDir(tmp_path / "fw"), "vww", weights="external")
    symbols = subprocess.run(["arm-none-eabi-nm", "-S", str(result.program)], capture_output=True, text=True).stdout
    qspi = board.region("QSPI")
    filters = [(int(line.split()[0], 16), int(line.split()[1], 16)) for line in symbols.splitlines()
               if line.endswith(("_filter", "_filter_pairs")) and int(line.split()[1], 16) >= 256]
    assert len(filters) > 10 and all(qspi.origin <= at and at + n <= qspi.end for at, n in filters)
    placed = {line.split()[3]: (int(line.split()[0], 16), int(line.split()[1], 16))
              for line in symbols.splitlines() if len(line.split()) == 4 and line.split()[3].startswith("arena_")}
    for name, size in plan.region_sizes[1:]:
        at, length = placed[f"arena_{name.lower()}"]
        region = board.region(name)
        assert length == size and region.origin <= at and at + length <= region.end
    _, results = run_on_target(Target.of(board.id), result.program, g, random_inputs(g, 2, seed=4))
    assert all(r.passed for r in results)


@pytest.mark.parametrize("model, moved", [
    ("tflm_xtensa_mobilenet_v2_224.tflite", "arena"),  # 2.45 MB of activations: DTCM, SRAM and ISRAM
    ("real/efx_mediapipe_face_landmark.tflite", "weights"),  # 656 KB of constants: ITCM holds 512 KB
])
def test_the_m55_board_runs_what_its_tcms_alone_cannot_hold(tmp_path, model, moved):
    """mps3-an547: a model whose arena exceeds the 512 KB DTCM runs with it spread over the board's SRAMs,
    one whose weights exceed the 512 KB ITCM with the least read of them in the QSPI flash (--weights auto);
    bit-exact on QEMU."""
    board = load_board("mps3-an547")
    g = compile_model(MODELS / model, features=board.features, regions=arena_regions(board))
    result = build_board(g, board, OutDir(tmp_path / "fw"), model)
    sizes = dict(g.arena.plan.region_sizes)
    if moved == "arena":
        assert sizes["RAM"] <= 524288 < g.arena.plan.size + sizes["SRAM"] + sizes["ISRAM"]
    else:
        assert "weights of" in (result.out_dir / "src" / "model.c").read_text().split("*/", 1)[0]
    _, results = run_on_target(Target.of(board.id), result.program, g, random_inputs(g, 1, seed=2), timeout=300)
    assert results[0].passed


def test_weights_cannot_go_to_external_flash_a_board_does_not_have(capsys, tmp_path):
    from test_cli import assert_one_error_line, run_cli

    code, _, err = run_cli(capsys, "build", MODELS / "tflm_hello_world.tflite", "--board", "mps2-an386",
                           "--out", tmp_path / "b", "--weights", "external")
    assert_one_error_line(code, err, "--weights external: mps2-an386 has no external flash region")


def test_a_model_no_split_of_the_banks_holds_is_one_line(tmp_path):
    """Regions that together hold less than a step's live buffers: the step, its live bytes and each
    region's room, before anything is compiled."""
    with pytest.raises(McugenError, match=r"at layer \d+ \(\w+\) [\d,]+ B are live, and no split .* "
                                          r"\(RAM 20,000 B, PSRAM 20,000 B\)"):
        compile_model(MODELS / "tflm_person_detect.tflite",
                      regions=(Region("RAM", 20_000, 1), Region("PSRAM", 20_000, 2)))


@pytest.mark.parametrize("options, phrase", [
    (("--region-bytes", "SRAM9=100"), "--region-bytes: mps2-an386-banks has no RAM region named SRAM9"),
    (("--region-bytes", "PSRAM=abc"), "--region-bytes PSRAM=abc: abc is not a whole number from 1 to 40,960"),
    (("--region-bytes", "PSRAM=99999"), "99999 is not a whole number from 1 to 40,960"),
    (("--region-cost", "PSRAM"), "--region-cost 'PSRAM' is not NAME=VALUE"),
    (("--pin", "nosuch=PSRAM"), "--pin nosuch=PSRAM: nosuch is no tensor of the model"),
    (("--pin", "input=PSRAM"), "the model's inputs and outputs stay in RAM"),
])
def test_region_options_that_cannot_apply_are_one_line(capsys, tmp_path, options, phrase):
    from test_cli import assert_one_error_line, run_cli

    code, _, err = run_cli(capsys, "build", MODELS / "tflm_person_detect.tflite", "--board", "mps2-an386-banks",
                           "--out", tmp_path / "b", *options)
    assert_one_error_line(code, err, phrase)
    assert not (tmp_path / "b").exists()


def test_a_pinned_tensor_and_a_region_ranked_anew_are_kept(capsys, tmp_path):
    """--pin puts a buffer where the user says; --region-cost BRAM=9 makes the block RAM the slowest, so
    fewer buffers go there than by default (the kernels' scratch, most accessed per byte, went first)."""
    from test_cli import run_cli

    def placement(*options):
        out = tmp_path / str(len(list(tmp_path.iterdir())))
        code, _, err = run_cli(capsys, "build", MODELS / "tflm_person_detect.tflite", "--board", "mps2-an386-banks",
                               "--out", out, "--json", out.with_suffix(".json"), *options)
        assert code == 0, err
        return {b["name"]: b["region"] for b in json.loads(out.with_suffix(".json").read_text())["arena"]["buffers"]}

    default = placement()
    ranked = placement("--pin", "MobilenetV1/MobilenetV1/Conv2d_6_pointwise/Relu6=PSRAM", "--region-cost", "BRAM=9")
    assert default["conv_2d_12_out"] == "BRAM" and ranked["conv_2d_12_out"] == "PSRAM"
    assert sum(r == "BRAM" for r in ranked.values()) < sum(r == "BRAM" for r in default.values())


def test_a_model_too_big_for_the_cortex_m0_board_is_one_line_before_compiling(capsys, tmp_path):
    """The micro:bit's 16 KB: KWS's 16,000-byte arena plus stack and harness do not fit, and the fit
    check says by how much before any compiler runs."""
    from test_cli import assert_one_error_line, run_cli

    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_kws_dscnn.tflite", "--board", "microbit",
                           "--out", tmp_path / "b")
    assert_one_error_line(code, err, "does not fit microbit's RAM", "arena 16,000", "2,688 B too many")
    assert not (tmp_path / "b" / ".pio").exists()


def _fc_model(depth, units, filter_zp, seed, batch=2, act="NONE"):
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [batch, depth], "int8", scale=0.05, zp=-3)
    y = m.tensor("y", [batch, units], "int8", scale=0.2, zp=5)
    w = m.const("w", rng.integers(-128, 128, (units, depth)), "int8", scale=0.01, zp=filter_zp)
    b = m.const("b", rng.integers(-3000, 3000, units), "int32", scale=0.0005, zp=0)
    m.inputs, m.outputs = [x], [y]
    m.op("FULLY_CONNECTED", [x, w, b], [y], "FullyConnectedOptions", version=4, FusedActivationFunction=act)
    return m


@pytest.mark.parametrize("kernel", ["mcu_fully_connected_s8_w16", "mcu_fully_connected_s8_x4"])
@settings(max_examples=8, deadline=None)
@given(st.integers(1, 3), st.integers(1, 41), st.integers(1, 13), st.sampled_from([0, 0, 3]),
       st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(0, 999))
def test_dsp_fully_connected_on_qemu_for_drawn_shapes(tmp_path_factory, kernel, batch, depth, units, filter_zp, act,
                                                      seed):
    """The DSP FULLY_CONNECTED kernels, on int16-widened weights (the default) and int8 ones, bit-exact on
    QEMU: depths off the fours and eights (an odd number of words, a last partial word), units off the
    fours, batches, filter offsets, int8 weights to -128, clamping activations."""
    bit_exact_on_board(tmp_path_factory.mktemp("fc"), _fc_model(depth, units, filter_zp, seed, batch, act), seed,
                       samples=3, kernel=kernel, force=kernel != "mcu_fully_connected_s8_w16")


def test_widened_weights_give_way_where_the_flash_is_short(tmp_path):
    """A layer's int16-widened weights (mcu_fully_connected_s8_w16) are taken only while the constants
    fit the flash: short of room, the layer with the most constant bytes goes back to int8 weights
    first, then the next; a board's room is its flash less the code's allowance."""
    from mcugen.firmware import CODE_ALLOWANCE, const_room
    from mcugen.lowering import const_bytes

    m = ModelSpec()
    rng = np.random.default_rng(3)
    x = m.tensor("x", [1, 96], "int8", scale=0.05, zp=-3)
    h = m.tensor("h", [1, 64], "int8", scale=0.2, zp=5)
    y = m.tensor("y", [1, 40], "int8", scale=0.2, zp=5)
    for a, b, n, depth, units in ((x, h, 0, 96, 64), (h, y, 1, 64, 40)):
        w = m.const(f"w{n}", rng.integers(-128, 128, (units, depth)), "int8", scale=0.01, zp=0)
        bias = m.const(f"b{n}", rng.integers(-3000, 3000, units), "int32", scale=0.0005, zp=0)
        m.op("FULLY_CONNECTED", [a, w, bias], [b], "FullyConnectedOptions", FusedActivationFunction="NONE")
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "fc2.tflite"
    path.write_bytes(m.build())

    def kernels(room):
        g = compile_model(path, features=DSP, const_room=room)
        return [op.call.kernel for op in g.ops], sum(const_bytes(op.call) for op in g.ops)

    wide, everything = kernels(None)
    assert wide == ["mcu_fully_connected_s8_w16"] * 2
    # the first layer's weights (96 x 64) are the larger: it narrows first, and that is enough here
    assert kernels(everything - 1)[0] == ["mcu_fully_connected_s8_x4", "mcu_fully_connected_s8_w16"]
    narrow, least = kernels(0)
    assert narrow == ["mcu_fully_connected_s8_x4"] * 2 and least < everything - (96 * 64 + 64 * 40) + 1024
    nano = load_board("nano33")
    assert const_room(nano) == nano.flash["bytes"] - CODE_ALLOWANCE


def _conv(h, w, kh, kw, stride, dilation, pad, cin, cout, mult, depthwise, seed, out_q=(0.3, -4), batch=1):
    oh, ow = (out_size(pad, n, k, stride, dilation) for n, k in ((h, kh), (w, kw)))
    return _conv_model(dict(h=h, w=w, kh=kh, kw=kw, sh=stride, sw=stride, dh=dilation, dw=dilation, pad=pad,
                            oh=oh, ow=ow, cin=cin, cout=cout, mult=mult, w_scales=[0.02] * cout,
                            in_q=(0.05, 7), out_q=out_q, act="RELU", bias=True, seed=seed, batch=batch),
                       depthwise)


@pytest.mark.parametrize("name, spec", [
    ("conv, 3 input channels, 6 outputs, dilation 2, SAME", lambda: _conv(9, 7, 3, 3, 2, 2, "SAME", 3, 6, 1, False, 1)),
    ("conv, 1x5 kernel, 9 inputs, 5 outputs, VALID", lambda: _conv(4, 11, 1, 5, 1, 1, "VALID", 9, 5, 1, False, 2)),
    ("depthwise, 6 channels (a tail of 2), dilation 2", lambda: _conv(8, 8, 3, 3, 1, 2, "SAME", 6, 6, 1, True, 3)),
    ("depthwise 3x3 unrolled, 12 channels, VALID", lambda: _conv(6, 7, 3, 3, 1, 1, "VALID", 12, 12, 1, True, 16)),
    ("depthwise 3x3, 5 channels, stride 2, batch 2 (in place)",
     lambda: _conv(9, 6, 3, 3, 2, 1, "SAME", 5, 5, 1, True, 17, batch=2)),
    ("depthwise, depth multiplier 2, stride 2 (reference)", lambda: _conv(7, 9, 3, 3, 2, 1, "SAME", 4, 8, 2, True, 4)),
    ("depthwise, depth multiplier 4, 3 channels (reference)", lambda: _conv(6, 5, 3, 2, 1, 1, "SAME", 3, 12, 4, True, 6)),
    ("fully connected, 13 -> 7, filter zero point 3", lambda: _fc_model(13, 7, 3, 5)),
    # CONV_2D's blocks of 6 positions, its direct 1x1 path and its gathered patches
    ("1x1 conv, 8 inputs (direct), 35 positions, 5 outputs", lambda: _conv(5, 7, 1, 1, 1, 1, "VALID", 8, 5, 1, False, 7)),
    ("1x1 conv, stride 2, 12 inputs, batch 2", lambda: _conv(7, 5, 1, 1, 2, 1, "VALID", 12, 9, 1, False, 8, batch=2)),
    ("1x1 conv, 6 inputs (gathered, padded to 8)", lambda: _conv(4, 5, 1, 1, 1, 1, "VALID", 6, 7, 1, False, 9)),
    ("1x1 conv, 16 inputs, batch 2: each position's pixel read where the last one ended",
     lambda: _conv(3, 5, 1, 1, 1, 1, "VALID", 16, 6, 1, False, 28, batch=2)),
    # fewer positions than a block: the rows of a FULLY_CONNECTED
    ("1x1 conv on 5 positions, 9 inputs, 7 outputs", lambda: _conv(1, 5, 1, 1, 1, 1, "VALID", 9, 7, 1, False, 20)),
    ("conv whose kernel covers its input (streaming), 5x1 x 6, batch 2",
     lambda: _conv(5, 1, 5, 1, 1, 1, "VALID", 6, 5, 1, False, 21, batch=2)),
    ("first layer, 1 input channel, 10x4 stride 2, SAME", lambda: _conv(13, 6, 10, 4, 2, 1, "SAME", 1, 10, 1, False, 10)),
    # windows inside the image widen without the per-tap gather: rows of whole words, rows copied past
    # their end (9 bytes; 3; 2, the shortest), batches
    ("first layer, 3 input channels, 3x3 stride 2, SAME, batch 2",
     lambda: _conv(11, 10, 3, 3, 2, 1, "SAME", 3, 8, 1, False, 22, batch=2)),
    ("first layer, 1 input channel, 3x3 stride 2, VALID", lambda: _conv(9, 9, 3, 3, 2, 1, "VALID", 1, 5, 1, False, 23)),
    ("conv, 3x1 kernel over 2 channels, VALID", lambda: _conv(7, 4, 3, 1, 1, 1, "VALID", 2, 3, 1, False, 24)),
    # kernel rows longer than a word and not whole words (mcu_conv2d_split_s8_w16): 9 bytes, the first layer's
    # unrolled copy, from windows inside the image and gathered patches; 15 bytes (12 + 3) through gathered
    # patches only (dilation)
    ("first layer, 3 channels, 3x3 stride 2, SAME, rows split, 5 outputs, batch 2",
     lambda: _conv(11, 10, 3, 3, 2, 1, "SAME", 3, 5, 1, False, 26, out_q=(0.3, -128), batch=2)),
    ("conv, 2x3 kernel over 5 channels (rows of 12 + 3), dilation 2",
     lambda: _conv(8, 9, 2, 3, 1, 2, "SAME", 5, 6, 1, False, 27, out_q=(0.3, -128))),
    # ReLU at zero point -128 clamps nothing SSAT does not: channel pairs of full half-blocks go through
    # one assembly loop (mcu_conv_pairs_w16), an odd last channel and a short last half-block do not
    ("1x1 conv, 8 inputs, 7 outputs, 35 positions, ReLU at -128",
     lambda: _conv(5, 7, 1, 1, 1, 1, "VALID", 8, 7, 1, False, 25, out_q=(0.3, -128))),
    ("conv with multiplier > 1 (the exact requantization)",
     lambda: _conv(6, 6, 3, 3, 1, 1, "SAME", 4, 6, 1, False, 11, out_q=(0.0006, 3))),
    ("depthwise on 1 input channel, multiplier 3 (runs as conv)", lambda: _conv(9, 8, 4, 3, 2, 1, "SAME", 1, 3, 3, True, 12)),
    ("depthwise, 8 channels, 5x5, stride 2", lambda: _conv(11, 9, 5, 5, 2, 1, "SAME", 8, 8, 1, True, 13)),
    ("depthwise, multiplier > 1 requantization", lambda: _conv(5, 6, 3, 3, 1, 1, "VALID", 8, 8, 1, True, 14,
                                                               out_q=(0.0006, 3))),
    ("depthwise 3x3 stride 1, 9 wide: a channel at a time, batch 2 (in place)",
     lambda: _conv(5, 9, 3, 3, 1, 1, "SAME", 6, 6, 1, True, 18, batch=2)),
    ("depthwise 3x3 stride 1, 10 wide VALID, multiplier > 1 requantization",
     lambda: _conv(4, 12, 3, 3, 1, 1, "VALID", 5, 5, 1, True, 19, out_q=(0.0006, 3))),
    ("fully connected, 8 -> 3", lambda: _fc_model(8, 3, 0, 15)),
])
def test_dsp_kernels_match_the_golden_model_on_awkward_shapes(tmp_path, name, spec):
    """The optimized Cortex-M4 kernels (runtime_c/dsp/) on what their fast paths don't cover evenly:
    channel counts that aren't multiples of 4, padding, dilation, depth multipliers, filter offsets."""
    path = tmp_path / "op.tflite"
    path.write_bytes(spec().build())
    g = compile_model(path, features=DSP)
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "op.tflite")
    kernel = g.ops[0].call.kernel
    if (ROOT / "runtime_c" / "dsp" / f"{kernel}.c").is_file():  # the optimized kernel was the one built
        assert '#include "mcu_nn_dsp.h"' in (tmp_path / "fw" / "src" / f"{kernel}.c").read_text()
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 3, seed=8))
    assert all(r.passed for r in results), (name, [r.outputs for r in results])


@pytest.mark.parametrize("shape, dead, kernel, zp", [
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_w16", -4),  # three live: a pair and an odd one
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_live_s8_w16", -128),  # ... the pair in the assembly loop
    ((6, 3, 3, 4), (1, 3, 4), "mcu_conv2d_s8_x6", -4),  # every channel computed, the pruned ones' requantization settled
    ((5, 1, 1, 8), (0, 2, 3, 4), "mcu_conv2d_live_s8_w16", -4),  # 1x1 in place, one live channel
])
def test_pruned_channels_are_skipped_or_settled_and_stay_bit_exact(tmp_path, shape, dead, kernel, zp):
    """Channels whose weights are all zero (pruned; MLPerf's MobileNet keeps biases near 2^30 on them) output
    one value each: mcu_conv2d_live_s8_w16 computes only the others and writes those values from a row; the
    int8-weight conv computes them all, their requantization made the fast one (ops/_quant.py
    settle_dead_channels). One pruned channel has a multiplier > 1. With an activation that clamps nothing
    SSAT does not (zero point -128), the live pair goes through the assembly loop and its outputs to their
    channels. Bit-exact on the emulated Cortex-M4, the golden model with TFLM."""
    rng = np.random.default_rng(len(dead))
    taps = rng.integers(-127, 128, shape)
    taps[list(dead)] = 0
    cout = shape[0]
    scales = [9.0 if c == dead[-1] else 0.02 for c in range(cout)]  # input * weight scale > output scale
    biases = [(-1) ** c * (2 ** 30 + 128 * c) if c in dead else int(rng.integers(-900, 900)) for c in range(cout)]
    m = ModelSpec()
    x = m.tensor("x", [1, 5, 6, shape[3]], "int8", scale=0.05, zp=7)
    f = m.const("f", taps, "int8", scale=scales, zp=[0] * cout, axis=0)
    b = m.const("b", biases, "int32", scale=[0.05 * s for s in scales], zp=[0] * cout)
    y = m.tensor("y", [1, 5, 6, cout], "int8", scale=0.3, zp=zp)
    m.op("CONV_2D", [x, f, b], [y], "Conv2DOptions", Padding="SAME", StrideW=1, StrideH=1,
         FusedActivationFunction="RELU")
    m.inputs, m.outputs = [x], [y]
    bit_exact_on_board(tmp_path, m, 6, samples=3, kernel=kernel, force=kernel == "mcu_conv2d_s8_x6")
    g = compile_model(tmp_path / "op.tflite", features=DSP)
    tflm = Tflm(m.build())
    for xs in random_inputs(g, 3, seed=6):
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1)))


@settings(max_examples=16, deadline=None)
@given(st.booleans(), st.data())
def test_dsp_conv_kernels_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, data):
    """The randomized single-op cases (tests/test_ops_conv.py, whose golden model the oracles
    check) built for the emulated Cortex-M4: the DSP kernels (CONV_2D in blocks, depthwise by
    channel groups from a padded window, in place) bit-exact on QEMU, for drawn kernel sizes,
    strides, dilations, padding, channel counts, depth multipliers, batches and quantizations."""
    c = data.draw(conv_case(depthwise=depthwise))
    m = _conv_model(c, depthwise)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("dsp"), m, c["seed"])


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_the_int8_weight_conv_on_qemu_for_drawn_shapes(tmp_path_factory, data):
    """mcu_conv2d_s8_x6, the conv on int8 weights that a layer falls back to where the flash has no room
    for widened ones (the default, mcu_conv2d_s8_w16, runs the cases above), forced: bit-exact on QEMU for
    drawn shapes, strides, dilations, padding, channel counts and quantizations."""
    c = data.draw(conv_case(depthwise=False))
    m = _conv_model(c, False)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("x6"), m, c["seed"], kernel="mcu_conv2d_s8_x6", force=True)


@settings(max_examples=16, deadline=None)
@given(st.booleans(), st.booleans(), st.sampled_from(["int32", "int64"]), st.data())
def test_dsp_16x8_kernels_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, three, bias_type, data):
    """The 16x8 DSP variants (mcu_conv2d_s16_x6 on the register-blocked conv loop, the channel-at-a-time
    mcu_depthwise_conv2d_s16_x2 for 3x3 stride 1) bit-exact on QEMU for drawn shapes, strides,
    dilations, padding, channel counts, batches, 32- and 64-bit accumulators."""
    c = data.draw(conv_case(depthwise=depthwise))
    if three:  # the depthwise variant's shapes
        c.update(kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, oh=out_size(c["pad"], c["h"], 3, 1, 1),
                 ow=out_size(c["pad"], c["w"], 3, 1, 1))
        if depthwise:
            c.update(mult=1, cout=c["cin"], w_scales=c["w_scales"][:1])
    m = _conv_model(c, depthwise, activations="int16", bias_type="int64" if depthwise else bias_type)
    if m is None:
        return
    kernel = "mcu_conv2d_s16_x6" if not depthwise else "mcu_depthwise_conv2d_s16_x2" if three and c["cin"] > 1 else None
    bit_exact_on_board(tmp_path_factory.mktemp("dsp16"), m, c["seed"], kernel=kernel)


@settings(max_examples=16, deadline=None)
@given(st.booleans(), st.sampled_from(["int32", "int64"]), st.data())
def test_helium_16x8_conv_on_qemu_for_drawn_shapes(tmp_path_factory, depthwise, bias_type, data):
    """mcu_conv2d_s16_mve (patches gathered with zeros, or read in place for unpadded 1x1 kernels; eight
    products per VMLADAVA, the weights widened as they load, depths off the eights) and
    mcu_depthwise_conv2d_s16_mve (four channels per vector, windows clipped, the last channels predicated)
    bit-exact on the emulated Cortex-M55 for drawn shapes, strides, dilations, padding, batches, both
    accumulators."""
    c = data.draw(conv_case(depthwise=depthwise))
    if depthwise:
        c.update(mult=1, cout=c["cin"], w_scales=c["w_scales"][:1])
    m = _conv_model(c, depthwise, activations="int16", bias_type="int64" if depthwise else bias_type)
    if m is None:
        return
    three = (c["kh"], c["kw"], c["sh"], c["sw"], c["dh"], c["dw"]) == (3, 3, 1, 1, 1, 1)
    kernel = ("mcu_conv2d_s16_mve" if not depthwise and c["kh"] * c["kw"] * c["cin"] * 32768 * 128 < 2 ** 31 else
              "mcu_depthwise_conv2d_s16_mve" if depthwise and c["cin"] > 1 and not three else None)
    bit_exact_on_board(tmp_path_factory.mktemp("mve16"), m, c["seed"], kernel=kernel, board="mps3-an547")


@settings(max_examples=14, deadline=None)
@given(st.integers(1, 7), st.integers(1, 13), st.integers(2, 9), st.sampled_from(["SAME", "VALID"]),
       st.sampled_from(["NONE", "RELU", "RELU6"]), st.integers(1, 2), st.booleans(), st.integers(0, 999))
def test_the_channel_at_a_time_3x3_depthwise_on_qemu(tmp_path_factory, h, w, c, pad, act, batch, exact, seed):
    """mcu_depthwise_conv2d_s8_x2 (3x3, stride 1) bit-exact on QEMU at any width, forced where the
    default keeps the four-channel kernel (narrower than depthwise_conv_2d.WIDE): odd widths (a pair
    straddling each row's end), one to thirteen columns, SAME and VALID, batches, in place, the SSAT-only
    and clamping epilogues, the exact (multiplier > 1) requantization."""
    oh, ow = out_size(pad, h, 3, 1, 1), out_size(pad, w, 3, 1, 1)
    m = _conv_model(dict(h=h, w=w, kh=3, kw=3, sh=1, sw=1, dh=1, dw=1, pad=pad, oh=oh, ow=ow, cin=c, cout=c, mult=1,
                         w_scales=[0.02] * c, in_q=(0.05, 7), out_q=(0.0006, 3) if exact else (0.3, -4), act=act,
                         bias=True, seed=seed, batch=batch), True)
    if m is None:
        return
    bit_exact_on_board(tmp_path_factory.mktemp("dw3"), m, seed, kernel="mcu_depthwise_conv2d_s8_x2", force=True)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["ADD", "SUB"]), st.lists(st.integers(1, 7), min_size=1, max_size=4),
       st.floats(1e-3, 1.0), st.integers(-128, 127), st.floats(1e-3, 1.0), st.integers(-128, 127),
       st.floats(1e-3, 2.0), st.integers(-128, 127), st.sampled_from(["NONE", "RELU", "RELU6"]))
@example("ADD", [4, 4, 16], 0.05, -3, 0.05, 5, 0.1, -2, "RELU")  # equal scales: an input shift of 0
@example("SUB", [7], 0.9, 127, 0.001, -128, 1e-3, 5, "NONE")  # an output left shift: the reference kernel
def test_dsp_add_and_sub_on_qemu_for_drawn_shapes(tmp_path_factory, opcode, shape, s1, z1, s2, z2, so, zo, act):
    """mcu_add_s8_x4 (each rescale with SMMULR, its shifts 0 or right shifts; the reference mcu_add for
    the rest) bit-exact on the emulated Cortex-M4: element counts off the fours, zero points at the ends
    of int8, fused activations."""
    from single_op import binary_model

    model = binary_model(opcode, (shape, shape), "int8", (s1, z1), (s2, z2), (so, zo), act)
    bit_exact_on_board(tmp_path_factory.mktemp("add_x4"), model, len(shape), samples=3, kernel="mcu_add_s8_x4")


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([("int16", "int8"), ("int8", "int16"), ("int16", "int16")]), st.integers(1, 40),
       st.floats(1e-4, 1.0), st.integers(-128, 127), st.floats(2.5, 3000.0), st.integers(-128, 127))
def test_dsp_requantize_on_qemu(tmp_path_factory, types, n, s_in, z_in, ratio, z_out):
    """QUANTIZE between int8 and int16 ends with a right shift (an output scale over twice the input's)
    on mcu_requantize_int_x4, bit-exact on the emulated Cortex-M4: counts off the fours, zero points."""
    m = ModelSpec()
    x = m.tensor("x", [1, n], types[0], scale=s_in, zp=z_in if types[0] == "int8" else 0)
    y = m.tensor("y", [1, n], types[1], scale=s_in * ratio, zp=z_out if types[1] == "int8" else 0)
    m.op("QUANTIZE", [x], [y])
    m.inputs, m.outputs = [x], [y]
    bit_exact_on_board(tmp_path_factory.mktemp("rq_x4"), m, n, samples=3, kernel="mcu_requantize_int_x4")


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 4), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(["SAME", "VALID"]), st.integers(1, 11), st.integers(-128, 127),
       st.sampled_from(["NONE", "RELU", "RELU6"]))
@example(17, 16, 17, 16, 1, "VALID", 5, 3, "NONE")  # a 272-tap window: the reference kernel's way
def test_dsp_average_pool_on_qemu(tmp_path_factory, h, w, kh, kw, stride, pad, channels, zp, act):
    """mcu_avgpool_s8_x4 (four channels summed per word) bit-exact on the emulated Cortex-M4: channels
    off the fours, windows the padding clips (fewer taps to average), strides, fused activations."""
    from single_op import pool_model

    m = pool_model("AVERAGE_POOL_2D", h, w, kh, kw, stride, pad, channels, zp, act)
    if m is not None:
        bit_exact_on_board(tmp_path_factory.mktemp("avgpool_x4"), m, h * w, kernel="mcu_avgpool_s8_x4")

def _conv_into(m, rng, x, x_shape, k, stride, cout, depthwise=False, pruned=()):
    """A CONV_2D (or DEPTHWISE_CONV_2D on one channel, which runs as a conv) on x, SAME padding; `pruned`:
    output channels whose weights are all zero."""
    _, h, w, cin = x_shape
    oh, ow = -(-h // stride), -(-w // stride)
    taps = rng.integers(-127, 128, (1, k, k, cout) if depthwise else (cout, k, k, cin))
    taps[list(pruned)] = 0
    f = m.const("f", taps, "int8", scale=[0.02] * cout, zp=[0] * cout, axis=3 if depthwise else 0)
    b = m.const("b", rng.integers(-900, 900, cout), "int32", scale=[0.001] * cout, zp=[0] * cout)
    t = m.tensor("t", [1, oh, ow, cout], "int8", scale=0.4, zp=-6)
    if depthwise:
        m.op("DEPTHWISE_CONV_2D", [x, f, b], [t], "DepthwiseConv2DOptions", Padding="SAME", StrideW=stride,
             StrideH=stride, DepthMultiplier=cout, FusedActivationFunction="RELU")
    else:
        m.op("CONV_2D", [x, f, b], [t], "Conv2DOptions", Padding="SAME", StrideW=stride, StrideH=stride,
             FusedActivationFunction="RELU")
    return t, (1, oh, ow, cout)


def _conv_then_fc(h, w, cin, k, stride, cout, units, depthwise=False, view=False):
    rng = np.random.default_rng(h * w + units)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], "int8", scale=0.05, zp=7)
    t, shape = _conv_into(m, rng, x, (1, h, w, cin), k, stride, cout, depthwise)
    depth = int(np.prod(shape))
    if view:  # a RESHAPE between them, as Keras' Flatten makes
        flat = m.tensor("flat", [1, depth], "int8", scale=0.4, zp=-6)
        m.op("RESHAPE", [t, m.const("shape", [1, depth], "int32")], [flat], "ReshapeOptions", NewShape=[1, depth])
        t = flat
    fw = m.const("fw", rng.integers(-127, 128, (units, depth)), "int8", scale=0.003, zp=0)
    fb = m.const("fb", rng.integers(-3000, 3000, units), "int32", scale=0.4 * 0.003, zp=0)
    y = m.tensor("y", [1, units], "int8", scale=0.5, zp=3)
    m.op("FULLY_CONNECTED", [t, fw, fb], [y], "FullyConnectedOptions", version=4, FusedActivationFunction="NONE")
    m.inputs, m.outputs = [x], [y]
    return m


def _conv_then_add(h, w, c, stride, conv_first, residual_is_input, pruned=()):
    """ADD(conv(z), r) (or ADD(r, conv(z))) where r is a second input, or the conv's own input."""
    rng = np.random.default_rng(h * w * c + stride)
    m = ModelSpec()
    z = m.tensor("z", [1, h * stride, w * stride, c], "int8", scale=0.05, zp=-2)
    t, shape = _conv_into(m, rng, z, (1, h * stride, w * stride, c), 3, stride, c, pruned=pruned)
    r = z if residual_is_input else m.tensor("r", list(shape), "int8", scale=0.07, zp=4)
    y = m.tensor("y", list(shape), "int8", scale=0.3, zp=-1)
    m.op("ADD", [t, r] if conv_first else [r, t], [y], "AddOptions", FusedActivationFunction="RELU")
    m.inputs, m.outputs = ([z] if residual_is_input else [z, r]), [y]
    return m


def _conv_conv_add(h, w, cin, c, k1, stride, residual_is_input):
    """ADD(conv(conv(z)), r): a ResNet block, whose residual r is a second input or z itself."""
    rng = np.random.default_rng(h * w * c + k1 + stride)
    m = ModelSpec()
    z = m.tensor("z", [1, h, w, cin], "int8", scale=0.05, zp=-2)
    t, shape = _conv_into(m, rng, z, (1, h, w, cin), k1, stride, c)
    u, shape = _conv_into(m, rng, t, shape, 3, 1, c)
    r = z if residual_is_input else m.tensor("r", list(shape), "int8", scale=0.07, zp=4)
    y = m.tensor("y", list(shape), "int8", scale=0.3, zp=-1)
    m.op("ADD", [u, r], [y], "AddOptions", FusedActivationFunction="RELU")
    m.inputs, m.outputs = ([z] if residual_is_input else [z, r]), [y]
    return m


def _conv_then_depthwise(h, w, cin, k, cout, dw_k, stride, padding, dilation=1):
    """DEPTHWISE_CONV_2D (depth multiplier 1) of conv(x): MobileNet's pointwise -> depthwise pairs."""
    rng = np.random.default_rng(h * w * cin + dw_k * stride)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, cin], "int8", scale=0.05, zp=7)
    t, (_, th, tw, _) = _conv_into(m, rng, x, (1, h, w, cin), k, 1, cout)
    oh, ow = (out_size(padding, n, dw_k, stride, dilation) for n in (th, tw))
    f = m.const("dwf", rng.integers(-127, 128, (1, dw_k, dw_k, cout)), "int8", scale=[0.03] * cout, zp=[0] * cout,
                axis=3)
    b = m.const("dwb", rng.integers(-2000, 2000, cout), "int32", scale=[0.4 * 0.03] * cout, zp=[0] * cout)
    y = m.tensor("y", [1, oh, ow, cout], "int8", scale=0.5, zp=-3)
    m.op("DEPTHWISE_CONV_2D", [t, f, b], [y], "DepthwiseConv2DOptions", Padding=padding, StrideW=stride,
         StrideH=stride, DepthMultiplier=1, DilationWFactor=dilation, DilationHFactor=dilation,
         FusedActivationFunction="RELU6")
    m.inputs, m.outputs = [x], [y]
    return m


@pytest.mark.parametrize("name, spec, in_place", [
    # the depthwise's output rows each read a few of the conv's, held in a buffer (rows skipped by stride 2
    # never computed, top padding, rows past the bottom)
    ("1x1 conv -> depthwise 3x3 stride 2 SAME", lambda: _conv_then_depthwise(12, 10, 3, 1, 16, 3, 2, "SAME"), False),
    ("conv 3x3 -> depthwise 3x3 stride 1 VALID, 7 wide (forced)", lambda: _conv_then_depthwise(11, 9, 4, 3, 12, 3, 1, "VALID"),
     False),
    ("1x1 conv -> depthwise 5x5 stride 2 SAME, odd sizes",
     lambda: _conv_then_depthwise(13, 7, 2, 1, 20, 5, 2, "SAME"), False),
    ("1x1 conv -> depthwise 3x3 dilation 2 SAME, 10 channels (forced)",
     lambda: _conv_then_depthwise(9, 6, 3, 1, 10, 3, 1, "SAME", dilation=2), False),
    ("conv 3x3 -> FC: 7 rows in strips of 6 and 1, 280 values, 5 units", lambda: _conv_then_fc(7, 5, 3, 3, 1, 8, 5),
     False),
    ("conv 3x3 -> FC: 135 values (not a multiple of 4)", lambda: _conv_then_fc(9, 3, 3, 3, 1, 5, 5), False),
    ("depthwise on 1 channel (as conv), stride 2 -> RESHAPE -> FC, 4 units",
     lambda: _conv_then_fc(11, 8, 1, 3, 2, 4, 4, depthwise=True, view=True), False),
    ("conv 3x3 stride 2 -> ADD with a second input, conv second (in place)",
     lambda: _conv_then_add(5, 4, 6, 2, False, False), True),
    # both convs of a block inside the ADD's call, a row at a time
    ("conv 3x3 -> conv 3x3 -> ADD with the first conv's input (in place: rows written behind the reads)",
     lambda: _conv_conv_add(9, 7, 5, 5, 3, 1, True), True),
    ("conv 3x3 stride 2 -> conv 3x3 -> ADD with a second input, 7 channels (forced; in place over it)",
     lambda: _conv_conv_add(11, 8, 4, 7, 3, 2, False), True),
    ("conv 5x5 -> conv 3x3 -> ADD with the first conv's input (forced; not in place: it reads a row behind)",
     lambda: _conv_conv_add(8, 6, 3, 3, 5, 1, True), False),
    # a conv run on its live channels alone runs its strips on all of them
    ("conv 3x3 with pruned channels -> ADD with a second input (in place over it)",
     lambda: _conv_then_add(5, 4, 6, 1, True, False, pruned=(1, 4)), True),
    # fusing saves nothing here, so the pass leaves it; forced, the residual keeps its bytes
    ("conv 3x3 -> ADD with its own input (forced; not in place: the conv still reads it)",
     lambda: _conv_then_add(6, 5, 4, 1, True, True), False),
])
@pytest.mark.parametrize("room, filter_bits", [(None, 16), (0, 8)])
def test_fused_strip_plans_are_bit_exact_with_tflm_on_qemu(tmp_path, name, spec, in_place, room, filter_bits):
    """A conv run a strip of rows at a time inside its consumer's call (passes/fuse_strips.py), on
    widened weights or (no flash to spare) int8 ones: the intermediate has no buffer, the residual is
    overwritten only when nothing else reads it, and the outputs on the emulated Cortex-M4 equal the
    golden model's, which equal TFLM's."""
    blob = spec().build()
    path = tmp_path / "op.tflite"
    path.write_bytes(blob)
    g = compile_model(path, features=DSP, const_room=room)
    if "forced" in name:
        assert all(op.fused_into is None for op in g.ops)
        g = plan_memory(fuse_all(g))
    conv = next(op for op in g.ops if op.opcode in ("CONV_2D", "DEPTHWISE_CONV_2D"))
    consumer = g.ops[conv.fused_into]
    assert consumer.call.args[6] == filter_bits  # mcu_conv2d_rows_s8_x6's: after the conv's filter
    assert conv.outputs[0] not in g.arena.buffer_of and g.arena.plan.conflicts() == []
    out = g.arena.buffer_of[consumer.outputs[0]]
    assert any(out == g.arena.buffer_of[t] for t in (*g.inputs, *conv.inputs) if t in g.arena.buffer_of) == in_place
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "op.tflite")
    samples = random_inputs(g, 3, seed=4)
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, samples)
    assert all(r.passed for r in results), (name, [r.outputs for r in results])
    tflm = Tflm(blob)
    for xs in samples:
        assert all(np.array_equal(a, b) for a, b in zip(golden.run(g, xs), tflm.run(xs, 1))), name


def _chain_of_newer_ops():
    """SPACE_TO_BATCH_ND -> BATCH_TO_SPACE_ND -> PRELU -> RESIZE_BILINEAR -> ABS -> SQUARED_DIFFERENCE
    -> RSQRT (whose input, a square, is never negative)."""
    m = ModelSpec()
    x = m.tensor("x", [1, 4, 6, 3], "int8", scale=0.05, zp=-3)
    batched = m.tensor("batched", [4, 3, 3, 3], "int8", scale=0.05, zp=-3)
    m.op("SPACE_TO_BATCH_ND", [x, m.const("block", [2, 2], "int32"), m.const("pads", [[1, 1], [0, 0]], "int32")],
         [batched], "SpaceToBatchNDOptions")
    space = m.tensor("space", [1, 4, 6, 3], "int8", scale=0.05, zp=-3)
    m.op("BATCH_TO_SPACE_ND", [batched, m.const("block2", [2, 2], "int32"),
                               m.const("crops", [[1, 1], [0, 0]], "int32")], [space], "BatchToSpaceNDOptions")
    prelu = m.tensor("prelu", [1, 4, 6, 3], "int8", scale=0.04, zp=-10)
    m.op("PRELU", [space, m.const("alpha", [-90, 30, 127], "int8", scale=0.01, zp=4)], [prelu])
    big = m.tensor("big", [1, 7, 5, 3], "int8", scale=0.04, zp=-10)
    m.op("RESIZE_BILINEAR", [prelu, m.const("size", [7, 5], "int32")], [big], "ResizeBilinearOptions",
         version=3, HalfPixelCenters=True)
    magnitude = m.tensor("abs", [1, 7, 5, 3], "int8", scale=0.03, zp=-100)
    m.op("ABS", [big], [magnitude], version=2)
    square = m.tensor("square", [1, 7, 5, 3], "int8", scale=0.05, zp=-128)
    m.op("SQUARED_DIFFERENCE", [magnitude, big], [square], version=2)
    y = m.tensor("y", [1, 7, 5, 3], "int8", scale=0.1, zp=-50)
    m.op("RSQRT", [square], [y], version=2)
    m.inputs, m.outputs = [x], [y]
    return m


def test_newer_reference_kernels_are_bit_exact_on_the_emulated_board(tmp_path):
    path = tmp_path / "chain.tflite"
    path.write_bytes(_chain_of_newer_ops().build())
    g = compile_model(path)
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "fw"), "chain.tflite")
    _, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 3, seed=4))
    assert [op.opcode for op in g.ops][-1] == "RSQRT" and len(g.ops) == 7
    assert all(r.passed for r in results), [r.outputs for r in results]


@pytest.mark.parametrize("model", ["mlperf_kws_dscnn.tflite", "tflm_person_detect.tflite"])
def test_nano33_offline_build_compiles_and_reports_sizes(tmp_path, model):
    g, result = _build(tmp_path, model, "nano33")
    board = load_board("nano33")
    assert result.program.name == "firmware.elf"
    assert result.const_bytes < result.image.flash <= board.flash["bytes"]
    assert g.arena.plan.size < result.image.ram <= board.ram["bytes"] - board.stack_bytes
    assert "0x00010000" in (result.out_dir / "link.ld").read_text()  # above the bootloader


def test_a_model_too_big_for_the_board_is_refused_before_compiling(capsys, tmp_path):
    out = tmp_path / "big"
    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_ic_resnet8_large.tflite",
                           "--board", "lm3s6965evb", "--out", out)
    assert_one_error_line(code, err, "does not fit lm3s6965evb's RAM", "122,880", "B too many")
    assert not (out / ".pio").exists()
    code, _, err = run_cli(capsys, "build", MODELS / "tflm_person_detect.tflite",
                           "--board", "lm3s6965evb", "--out", tmp_path / "flash")
    assert_one_error_line(code, err, "does not fit lm3s6965evb's flash", "B too many")


def test_cli_test_on_qemu_writes_the_report(capsys, tmp_path):
    report = tmp_path / "r.json"
    code, out, _ = run_cli(capsys, "test", MODELS / "tflm_hello_world.tflite", "--board", "mps2-an386",
                           "--samples", "2", "--json", report)
    assert code == 0 and "bit-exact on 2 sample(s) on mps2-an386" in out
    r = checked_report(report, "test")
    assert r["board"] == "mps2-an386" and r["passed"] == 2 and r["sizes"]["flash_bytes"] > 0
    assert r["sizes"]["ram_bytes"] > 0 and r["time_unit"] == "instructions"
    assert re.search(r"sample 1/2: bit-exact, [\d,]+ instructions", out)
    assert all(s["time"] > 0 and s["time"] % 40 == 0 for s in r["per_sample"])  # SysTick ticks x 40
    assert r["inference"]["ms"]["max"] == pytest.approx(r["inference"]["max"] / 25_000)  # at the 25 MHz clock


def test_a_wrong_result_fails_with_per_output_statistics(capsys, tmp_path, monkeypatch):
    """Fault injection: the generated C gets one bias of the first layer changed, as a miscompiled
    kernel or corrupted flash would. The run fails (exit 2), and each differing output is described
    by max |diff|, RMSE and cosine similarity, on the console and in the JSON report."""
    from mcugen import build

    emit = build.emit_c

    def emit_with_a_wrong_bias(*args, **kwargs):
        generated = emit(*args, **kwargs)
        source = generated.files["model.c"]
        bias = re.search(r"_bias\[\d+\][^{]*= \{\s*(-?\d+)", source)
        wrong = str(int(bias.group(1)) + 200_000)
        generated.files["model.c"] = source[:bias.start(1)] + wrong + source[bias.end(1):]
        return generated

    monkeypatch.setattr(build, "emit_c", emit_with_a_wrong_bias)
    report = tmp_path / "r.json"
    code, out, _ = run_cli(capsys, "test", MODELS / "tflm_micro_speech.tflite", "--board", "host",
                           "--samples", "3", "--json", report)
    assert code == 2 and "3 of 3 sample(s) differ from the golden model on host" in out
    assert re.search(r"sample 1/3: MISMATCH \(output 0: \d+ differ, max \|diff\| \d+ LSB, "
                     r"rmse [\d.e-]+, cosine -?[\d.]+\)", out), out
    r = checked_report(report, "test")
    assert r["passed"] == 0 and r["max_abs_diff"] > 0 and r["metrics"][0]["rmse"] > 0
    for sample in r["per_sample"]:
        (d,) = sample["outputs"]
        assert not sample["passed"] and d["differing"] > 0 and d["rmse"] > 0 and d["cosine"] < 1


def test_output_statistics_by_hand():
    d = OutputDiff.of(np.array([1, 2, 3], dtype=np.int8), np.array([1, 2, 5], dtype=np.int8), 0.5)
    assert (d.max_abs_diff, d.differing) == (2, 1)
    assert d.rmse == pytest.approx(np.sqrt((2 * 0.5) ** 2 / 3))
    assert d.cosine == pytest.approx(20 / np.sqrt(14 * 30))


# -- protocol faults ----------------------------------------------------------------------------------
class NoisyLine:
    """Sits on the wire between host and target: flips bits, drops bytes and adds garbage, both ways."""

    def __init__(self, stream, seed: int, rate: float):
        self.stream, self.rng, self.rate = stream, np.random.default_rng(seed), rate
        self.faults = 0

    def _spoil(self, data: bytes) -> bytes:
        out = bytearray()
        for b in data:
            r = self.rng.random()
            if r < self.rate:  # dropped
                self.faults += 1
                continue
            if r < 2 * self.rate:  # one bit flipped
                self.faults += 1
                b ^= 1 << int(self.rng.integers(8))
            out.append(b)
            if self.rng.random() < self.rate / 2:  # garbage in between
                self.faults += 1
                out.append(int(self.rng.integers(256)))
        return bytes(out)

    def write(self, data: bytes) -> None:
        self.stream.write(self._spoil(data))

    def read(self, n: int) -> bytes:
        return self._spoil(self.stream.read(n))


def test_corrupted_and_dropped_bytes_are_detected_and_retried_on_host(tmp_path):
    g = compile_model(MODELS / "tflm_micro_speech.tflite")
    result = build_host(g, tmp_path, "m")
    with ProcessStream([result.program]) as target:
        line = NoisyLine(target, seed=5, rate=0.002)
        link = Link(line, timeout=0.5, attempts=20)
        check_target(link.hello(), g, "host")
        results = run_samples(link, g, random_inputs(g, 4, seed=2), clock="ns", timeout=5)
    assert line.faults > 10 and link.retries > 0
    assert all(r.passed for r in results)  # never a false pass, and no false failure either


def test_corrupted_bytes_are_retried_on_qemu(tmp_path):
    g, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = NoisyLine(qemu.stream, seed=1, rate=0.01)
        link = Link(line, timeout=1.0, attempts=20)
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 4, seed=4), clock="systick", timeout=10)
    assert line.faults > 0 and link.retries > 0 and all(r.passed for r in results)


def test_one_percent_of_bytes_corrupted_still_validates_kws_on_qemu(tmp_path):
    """~1% of the bytes each way dropped, flipped or followed by garbage: a 250-byte frame arrives
    whole 8% of the time, so the link shrinks its frames until they get through."""
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = NoisyLine(qemu.stream, seed=3, rate=0.004)
        link = Link(line)
        start = time.monotonic()
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 3, seed=5), clock="systick", timeout=60,
                              seconds=expected_seconds(g, Target.of("mps2-an386")))
        took = time.monotonic() - start
    assert line.faults > 10 and link.retries > 0 and all(r.passed for r in results)
    print(f"KWS, 3 samples at ~1% byte errors: {line.faults} faults, {link.retries} retries, {took:.1f} s")


class DropReplies:
    """Loses every byte the target sends for `seconds` after the host's `count`-th INVOKE."""

    def __init__(self, stream, count: int = 1, seconds: float = 0.5):
        self.stream, self.count, self.seconds = stream, count, seconds
        self.invokes, self.until, self.dropped = 0, 0.0, 0

    def write(self, data: bytes) -> None:
        if data[:3] == b"\xa5\x5a\x03":
            self.invokes += 1
            if self.invokes == self.count:
                self.until = time.monotonic() + self.seconds
        self.stream.write(data)

    def read(self, n: int) -> bytes:
        data = self.stream.read(n)
        if time.monotonic() < self.until:
            self.dropped += len(data)
            return b""
        return data


def test_a_lost_invoke_reply_is_recovered_in_seconds_not_the_run_timeout(tmp_path):
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", "mps2-an386")
    xs = random_inputs(g, 2, seed=6)
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        line = DropReplies(qemu.stream, count=2, seconds=1.0)
        link = Link(line)
        check_target(link.hello(), g, "qemu")
        run_samples(link, g, xs[:1], clock="systick", timeout=120, seconds=expected_seconds(g, Target.of("mps2-an386")))
        start = time.monotonic()
        results = run_samples(link, g, xs[1:], clock="systick", timeout=120,
                              seconds=expected_seconds(g, Target.of("mps2-an386")))
        took = time.monotonic() - start
    assert line.dropped > 0 and link.retries > 0 and results[0].passed
    assert took < 10, f"recovering a lost INVOKE reply took {took:.1f} s"


class StraySync:
    """Puts a stray A5 5A in front of every frame the host sends."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(b"\xa5\x5a" + data)

    def read(self, n: int) -> bytes:
        return self.stream.read(n)


def test_stray_sync_bytes_never_swallow_the_frame_behind_them(tmp_path):
    g, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    with QemuTarget(load_board("mps2-an386"), result.program) as qemu:
        link = Link(StraySync(qemu.stream))
        check_target(link.hello(), g, "qemu")
        results = run_samples(link, g, random_inputs(g, 2, seed=1), clock="systick", timeout=30)
    assert link.retries == 0 and all(r.passed for r in results)

    class Replay:  # the host side: a reply preceded by A5 5A and by a frame cut short
        def __init__(self, data):
            self.data = data

        def read(self, n):
            out, self.data = self.data[:n], self.data[n:]
            return out

    reply = encode(ACK, 7)
    host = Framer(Replay(b"\xa5\x5a" + reply[:5] + reply))
    assert host.receive(time.monotonic() + 1) == (ACK, 7, b"")


def test_a_twenty_output_model_describes_itself_over_several_info_frames(tmp_path):
    m = ModelSpec()
    x = m.tensor("x", [1, 2, 3, 20], "int8", scale=0.05, zp=1)
    ys = [m.tensor(f"y{k}", [1, 2, 3, 1], "int8", scale=0.05, zp=1) for k in range(20)]
    m.op("SPLIT", [m.const("axis", [3], "int32"), x], ys, "SplitOptions", NumSplits=20)
    m.inputs, m.outputs = [x], ys
    (tmp_path / "m.tflite").write_bytes(m.build())
    g = compile_model(tmp_path / "m.tflite")
    result = build_board(g, load_board("mps2-an386"), OutDir(tmp_path / "b"), "m.tflite")
    info, results = run_on_target(Target.of("mps2-an386"), result.program, g, random_inputs(g, 2, seed=0))
    assert len(info.outputs) == 20 and info.outputs[19] == (6, (1, 2, 3, 1))
    assert all(r.passed for r in results)


def test_stale_firmware_is_caught(tmp_path):
    _, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    other = compile_model(MODELS / "mlperf_kws_dscnn.tflite")
    with pytest.raises(McugenError, match="runs firmware for another model.*run mcugen flash"):
        run_on_target(Target.of("mps2-an386"), result.program, other, random_inputs(other, 1, seed=0))


def test_a_dead_serial_port_is_one_clear_error(capsys, models):
    code, _, err = run_cli(capsys, "test", models / "mlperf_kws_dscnn.tflite", "--board", "nano33",
                           "--port", "/dev/ttyNOSUCHPORT")
    assert_one_error_line(code, err, "cannot open serial port /dev/ttyNOSUCHPORT")


def test_a_silent_target_times_out_with_one_clear_error(capsys, models):
    # A listening socket that never answers: what a board running something else looks like.
    import socket
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33",
                               "--port", f"socket://127.0.0.1:{port}", "--timeout", "1")
    # it says which serial the offline firmware talks on: the Nano's D0/D1 UART, not its USB port
    assert_one_error_line(code, err, "did not answer correctly after 12 attempts", "UARTE0 on the D1 (TX) and D0 (RX)")


def test_nano33_messages_name_the_serial_the_firmware_uses(capsys, tmp_path, models):
    code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33")
    assert_one_error_line(code, err, "offline firmware talks on UARTE0", "USB-serial adapter", "pass --port")
    code, _, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "nano33", "--stock")
    assert_one_error_line(code, err, "stock firmware talks on the USB port")
    code, out, err = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", "nano33",
                             "--out", tmp_path / "nano")
    assert code == 0, err
    assert "serial      the offline firmware talks on UARTE0 on the D1 (TX) and D0 (RX) pins" in out


def test_missing_qemu_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(McugenError, match="qemu-system-arm not found.*apt-get install qemu-system-arm"):
        QemuTarget(load_board("mps2-an386"), tmp_path / "x.elf")


def test_unreachable_stock_platform_fails_within_seconds(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PLATFORMIO_CORE_DIR", str(tmp_path / "empty-pio-home"))
    start = time.monotonic()
    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_kws_dscnn.tflite", "--board", "nano33",
                           "--stock", "--out", tmp_path / "o")
    assert time.monotonic() - start < 15
    assert_one_error_line(code, err, "stock PlatformIO platform 'nordicnrf52' is not installed")


def test_the_firmware_project_can_be_moved_and_rebuilt(tmp_path):
    """The PlatformIO project refers to its own copy of the offline platform, not to mcugen's
    folder: moved elsewhere (or committed and checked out), `pio run` builds it again."""
    from mcugen.firmware import PIO_ENV, pio_core_dir

    _, result = _build(tmp_path, "tflm_hello_world.tflite", "mps2-an386")
    moved = tmp_path / "moved"
    shutil.move(result.out_dir, moved)
    shutil.rmtree(moved / ".pio")
    text = "".join(p.read_text() for p in moved.rglob("*") if p.is_file() and p.suffix in (".ini", ".json", ".ld"))
    assert str(tmp_path) not in text and "mcugen-cortexm" in (moved / "platformio.ini").read_text()
    env = dict(os.environ, **PIO_ENV, PLATFORMIO_CORE_DIR=str(pio_core_dir(moved)))
    proc = subprocess.run([sys.executable, "-m", "platformio", "run", "-d", str(moved)], capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (moved / ".pio" / "build" / "offline" / "firmware.elf").exists()


def test_tune_measures_each_layer_and_keeps_the_faster_kernel(capsys, tmp_path):
    """--tune on a small model: every layer with a DSP and a reference kernel is measured on QEMU,
    the faster is the one built (recorded in the report and the generated C), outputs bit-exact."""
    report = tmp_path / "r.json"
    code, _, err = run_cli(capsys, "test", MODELS / "tflm_micro_speech.tflite", "--board", "mps2-an386",
                           "--tune", "--samples", "2", "--out", tmp_path / "fw", "--json", report)
    assert code == 0 and "tuned on mps2-an386" in err, err
    r = checked_report(report, "test")
    assert r["passed"] == 2 and r["failed"] == 0
    tuned = [layer for layer in r["layers"] if "tuned" in layer]
    assert {layer["name"] for layer in tuned} == {"depthwise_conv_2d_1", "fully_connected_2"}
    for layer in tuned:
        assert layer["tuned"]["unit"] == "estimated cycles"  # the M4 has a timing table
        times = layer["tuned"]["time"]
        assert len(times) >= 2 and layer["kernel"] == min(times, key=times.get)
    source = (tmp_path / "fw" / "src" / "model.c").read_text()
    assert "--tune (measured on mps2-an386)" in source and source.count("tuned on mps2-an386 (estimated cycles):") == 2


def test_tune_on_a_core_without_dsp_is_one_clear_error(capsys):
    code, _, err = run_cli(capsys, "build", MODELS / "tflm_hello_world.tflite", "--board", "lm3s6965evb",
                           "--tune")
    assert_one_error_line(code, err, "--tune", "runs only the reference ones")
