"""Boards: schema-checked files, firmware built offline with PlatformIO for every real board, bit-exact
on emulated Cortex-M (QEMU), arenas split across RAM banks, fit checks, the firmware project, --tune."""
from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys

import pytest

from conftest import MODELS, ROOT
from mcugen.targets.boards import all_boards, all_chips, all_cores, load_board, parse_board, parse_chip
from mcugen.targets.chips import crc32_mpeg2
from mcugen.validation.compare import random_inputs
from mcugen.errors import McugenError
from mcugen.targets.firmware import build_board
from mcugen.codegen.outdir import OutDir
from mcugen.ir.budget import Budget
from mcugen.ir.planner import Region
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from test_cli import assert_one_error_line, checked_report, run_cli


SCHEMA = json.loads((ROOT / "boards" / "schema.json").read_text())
CHIP_SCHEMA = json.loads((ROOT / "boards" / "chips" / "schema.json").read_text())


# -- board files ------------------------------------------------------------------------------------
def test_every_board_file_is_valid_and_the_required_boards_exist():
    boards = all_boards()
    assert {"nano33", "mps2-an386", "mps2-an500", "lm3s6965evb", "netduinoplus2"} <= set(boards)
    real = [b for b in boards.values() if not b.emulated and b.stock]
    assert len(real) >= 3  # nano33 + two more popular boards with stock PlatformIO ids
    nano = load_board("nano33")
    assert (nano.flash.origin, nano.flash.bytes) == (0x10000, 1024 * 1024 - 64 * 1024)
    assert nano.ram.bytes == 256 * 1024 and nano.clock_hz == 64_000_000 and nano.core == "cortex-m4"
    assert nano.chip.id == "nrf52840" and nano.features == {"dsp"} and nano.fpu


@pytest.mark.parametrize("text, phrase", [
    ("serial_port: /dev/ttyACM0\n", "Additional properties are not allowed ('serial_port'"),
    ("clock_hz: 5\n", "key 'clock_hz' appears twice"),
    ("", None),
])
def test_board_files_reject_unknown_and_duplicate_keys(tmp_path, text, phrase):
    path = tmp_path / "mps2-an386.yaml"
    path.write_text((ROOT / "boards" / "mps2-an386.yaml").read_text() + text)
    if phrase is None:
        assert parse_board(path, SCHEMA, all_chips()).id == "mps2-an386"
        return
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_chips())


@pytest.mark.parametrize("change, phrase", [
    (("core: cortex-m4", "core: cortex-m99"), "core 'cortex-m99' has no file in boards/cores/"),
    (("core: cortex-m4", "core: cortex-m0plus"), "fpu: true, but a Arm Cortex-M0+ has no FPU"),
    (("core: cortex-m4\nfpu: true", "core: cortex-m3\nfpu: false"), "dsp: true, but a Arm Cortex-M3 has no DSP"),
    (("dsp: true", "dsp: true\nmve: true"), "mve: true, but a Arm Cortex-M4 has no Helium"),
])
def test_a_chip_claims_only_what_its_core_can_have(tmp_path, change, phrase):
    path = tmp_path / "nrf52840.yaml"
    path.write_text((ROOT / "boards" / "chips" / "nrf52840.yaml").read_text().replace(*change))
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_chip(path, CHIP_SCHEMA, all_cores())


def test_a_board_names_a_chip_with_a_file(tmp_path):
    path = tmp_path / "nano33.yaml"
    path.write_text((ROOT / "boards" / "nano33.yaml").read_text().replace("chip: nrf52840", "chip: nrf99"))
    with pytest.raises(McugenError, match=re.escape("chip 'nrf99' has no file in boards/chips/")):
        parse_board(path, SCHEMA, all_chips())


@pytest.mark.parametrize("board, change, phrase", [
    ("nucleo-u575zi-q", ("  gpio: {base: 0x42020000, af: 7}\n", ""), "offline: 'gpio' is a required property"),
    ("nano33", ("  rx_pin: 42\n", ""), "offline: 'rx_pin' is a required property"),
    ("nucleo-u575zi-q", ("tx_pin: 9", "tx_pin: 16"), "offline/tx_pin: 16 is greater than the maximum of 15"),
    ("rpi-pico", ("rx_pin: 1", "rx_pin: 30"), "offline: rx_pin 30 is not one of the rp2040's 30 GPIOs"),
    ("rpi-pico", ("  uart_clock_hz: 12000000\n", ""), "offline: the rp2040 needs uart_clock_hz"),
    ("nucleo-u575zi-q", ("uart_clock_hz: 4000000", "uart_clock_hz: 0"), "0 is less than the minimum of 1843200"),
    ("nucleo-u575zi-q", ("bit: 14", "bit: 32"), "32 is greater than the maximum of 31"),
    ("alif-devkit-e7", ("  pin_writes:", "  pins:"), "Additional properties are not allowed ('pins' was unexpected)"),
    ("alif-devkit-e7", ("value: 0x00000002}", "value: 0x100000000}"), "4294967296 is greater than the maximum"),
])
def test_a_uart_kind_gets_the_fields_its_driver_reads_in_range(tmp_path, board, change, phrase):
    path = tmp_path / f"{board}.yaml"
    path.write_text((ROOT / "boards" / f"{board}.yaml").read_text().replace(*change))
    with pytest.raises(McugenError, match=re.escape(phrase)):
        parse_board(path, SCHEMA, all_chips())


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
        parse_board(path, SCHEMA, all_chips())


REAL_OFFLINE = sorted(b.id for b in all_boards().values() if not b.emulated and b.offline is not None)


@pytest.mark.parametrize("board_id", REAL_OFFLINE)
def test_every_real_board_with_an_offline_platform_builds_and_fits(tmp_path, board_id):
    """Build-only boards (none is attached here): the offline firmware compiles for the board's core and
    UART, is linked at the board's flash and RAM, and its sizes are read back from the ELF."""
    board = load_board(board_id)
    g, result = _build(tmp_path, "mlperf_kws_dscnn.tflite", board_id)
    assert result.const_bytes < result.image.flash <= board.flash.bytes
    assert g.arena.plan.size < result.image.ram <= board.ram.bytes - board.stack_bytes
    symbols = subprocess.run(["arm-none-eabi-nm", str(result.program)], capture_output=True, text=True).stdout
    addresses = {line.split()[-1]: int(line.split()[0], 16) for line in symbols.splitlines() if len(line.split()) == 3}
    assert addresses["vectors"] == board.flash.origin  # where the core (or its bootloader) starts it


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
    assert struct.unpack("<I", binary[4:8])[0] & ~1 > board.flash.origin  # the reset vector points into MRAM


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
    shutil.copytree(ROOT / "boards" / "chips", tmp_path / "chips")
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
    assert result.image.flash <= load_board(board).flash.bytes
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
    budget = board.budget("external")
    assert budget.regions is not None and all(whole > r.capacity for r in budget.regions)
    g = compile_model(MODELS / "mlperf_vww_mobilenet.tflite", features=board.features, budget=budget)
    plan = g.arena.plan
    assert plan.conflicts() == [] and len(plan.region_sizes) > 1
    assert all(plan.offsets[k] + b.size <= dict(plan.region_sizes)[plan.region(k)] for k, b in enumerate(plan.buffers))
    assert all(plan.region(g.arena.buffer_of[t]) == "RAM" for t in (*g.inputs, *g.outputs))
    result = build_board(g, board, OutDir(tmp_path / "fw"), "vww")
    symbols = subprocess.run(["arm-none-eabi-nm", "-S", str(result.program)], capture_output=True, text=True).stdout
    qspi = board.region("QSPI")
    filters = [(int(line.split()[0], 16), int(line.split()[1], 16)) for line in symbols.splitlines()
               if line.endswith(("_filter", "_filter_pairs", "_filter_twins")) and int(line.split()[1], 16) >= 256]
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
    g = compile_model(MODELS / model, features=board.features, budget=board.budget())
    result = build_board(g, board, OutDir(tmp_path / "fw"), model)
    sizes = dict(g.arena.plan.region_sizes)
    if moved == "arena":
        assert sizes["RAM"] <= 524288 < g.arena.plan.size + sizes["SRAM"] + sizes["ISRAM"]
    else:
        assert "weights of" in (result.out_dir / "src" / "model.c").read_text().split("*/", 1)[0]
    _, results = run_on_target(Target.of(board.id), result.program, g, random_inputs(g, 1, seed=2), timeout=300)
    assert results[0].passed


def test_weights_copied_into_ram_are_read_from_there(tmp_path):
    """--weights ram: KWS's weight arrays lie in the board's RAM (the ELF's symbols), copied there at
    start-up, and the model runs bit-exact."""
    board = load_board("mps2-an386")
    g = compile_model(MODELS / "mlperf_kws_dscnn.tflite", features=board.features, budget=board.budget("ram"))
    assert len(g.weights_out) > 5
    result = build_board(g, board, OutDir(tmp_path / "fw"), "kws")
    symbols = subprocess.run(["arm-none-eabi-nm", "-S", str(result.program)], capture_output=True, text=True).stdout
    filters = [int(line.split()[0], 16) for line in symbols.splitlines()
               if line.endswith(("_filter", "_filter_pairs", "_filter_twins")) and int(line.split()[1], 16) >= 256]
    assert len(filters) > 5 and all(board.ram.origin <= at < board.ram.end for at in filters)
    _, results = run_on_target(Target.of(board.id), result.program, g, random_inputs(g, 1, seed=4))
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
                      budget=Budget(regions=(Region("RAM", 20_000, 1), Region("PSRAM", 20_000, 2))))


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

@pytest.mark.parametrize("model", ["mlperf_kws_dscnn.tflite", "tflm_person_detect.tflite"])
def test_nano33_offline_build_compiles_and_reports_sizes(tmp_path, model):
    g, result = _build(tmp_path, model, "nano33")
    board = load_board("nano33")
    assert result.program.name == "firmware.elf"
    assert result.const_bytes < result.image.flash <= board.flash.bytes
    assert g.arena.plan.size < result.image.ram <= board.ram.bytes - board.stack_bytes
    assert "0x00010000" in (result.out_dir / "link.ld").read_text()  # above the bootloader


def test_a_model_too_big_for_the_board_is_refused_before_compiling(capsys, tmp_path):
    """ResNet-8 large's arena is past the board's RAM: with --patches off that is the refusal; by default its
    first layers run in bands and fit the RAM, and its flash is what it lacks."""
    out = tmp_path / "big"
    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_ic_resnet8_large.tflite",
                           "--board", "lm3s6965evb", "--out", out, "--patches", "off")
    assert_one_error_line(code, err, "does not fit lm3s6965evb's RAM", "122,880", "B too many",
                          "patch-based inference would make it fit", "drop --patches off")
    assert not (out / ".pio").exists()
    code, _, err = run_cli(capsys, "build", MODELS / "mlperf_ic_resnet8_large.tflite",
                           "--board", "lm3s6965evb", "--out", out)
    assert_one_error_line(code, err, "does not fit lm3s6965evb's flash")
    code, _, err = run_cli(capsys, "build", MODELS / "tflm_person_detect.tflite",
                           "--board", "lm3s6965evb", "--out", tmp_path / "flash")
    assert_one_error_line(code, err, "does not fit lm3s6965evb's flash", "B too many")


def test_the_firmware_project_can_be_moved_and_rebuilt(tmp_path):
    """The PlatformIO project refers to its own copy of the offline platform, not to mcugen's
    folder: moved elsewhere (or committed and checked out), `pio run` builds it again."""
    from mcugen.targets.firmware import PIO_ENV, pio_core_dir

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
