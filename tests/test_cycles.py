"""Estimated cycles (mcugen/validation/cycles.py): hand-timed sequences under QEMU, and `test --profile`."""
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from test_cli import checked_report, run_cli

from mcugen.codegen.pipeline import compile_model
from mcugen.commands.board import estimate_on, estimate_twin
from mcugen.targets.boards import Cache, MemoryTiming, load_board
from mcugen.targets.qemu import Trace
from mcugen.targets.target import Target
from mcugen.validation.cycles import Counter, Program, read_exec_log
from mcugen.validation.memory import DataStalls, FetchStalls

HAND_TIMED = Path(__file__).parent / "cycles"


def traced(tmp_path, board: str, source: str, registers_at: tuple[int, ...] = ()) -> tuple[Path, Path]:
    """The hand-timed file built for the board's core and run once under QEMU logging what the estimate's
    Trace asks for (every executed address, or the registers before those at `registers_at`) into a file."""
    b = load_board(board)
    elf, out = tmp_path / "hand_timed.elf", tmp_path / "trace.log"
    subprocess.run(["arm-none-eabi-gcc", "-nostdlib", f"-mcpu={b.cpu.id}", "-mthumb", "-mfloat-abi=hard",
                    f"-DSTACK_TOP={b.ram.origin + 0x10000:#x}", f"-Wl,-Ttext={b.flash.origin:#x}",
                    "-Wl,-eReset_Handler", "-o", str(elf), str(HAND_TIMED / source)], check=True)
    subprocess.run(["qemu-system-arm", "-M", board, "-display", "none", "-monitor", "none",
                    "-semihosting-config", "enable=on,target=native", "-kernel", str(elf),
                    *Trace(out, registers_at).arguments()], check=True, timeout=60)
    return elf, out


def counted(tmp_path, board: str, source: str, chunk: int = 512) -> Counter:
    """The hand-timed file's exec log folded by the core's model (small chunks: costs carried across chunk edges)."""
    core = load_board(board).cpu
    elf, log = traced(tmp_path, board, source)
    expected = re.findall(r"@= (\d+)", (HAND_TIMED / source).read_text())
    counter = Counter(Program(elf, core.arch), core, len(expected))
    with open(log, "rb") as stream:
        read_exec_log(stream, counter, chunk=chunk)
    return counter


@pytest.mark.parametrize("board, source", [("mps2-an386", "hand_timed.S"), ("mps3-an547", "hand_timed_m55.S"),
                                           ("mps2-an500", "hand_timed_m7.S"), ("mps2-an505", "hand_timed_m33.S")])
def test_hand_timed_sequences_cost_what_the_core_model_says(tmp_path, board, source):
    """Each case of the core's hand-timed file costs its hand count. The M4's: pipelined and blocked
    loads, LDRD, LDM/STM, taken and falling-through branches, IT folding, CBZ, divides, VFP, TBB, calls,
    an SVC exception. The M55's: Helium beats overlapping across pipes and not within one, result
    latencies one and two instructions back, dual issue, a low-overhead loop, VFP, predication. The M7's:
    which pairs issue together (two ALUs, two load ports, one store port, MAC, branch unit and FPU),
    latencies, addresses read a stage early, the MAC's late accumulator, single-issue instructions."""
    expected = [int(n) for n in re.findall(r"@= (\d+)", (HAND_TIMED / source).read_text())]
    assert counted(tmp_path, board, source).estimate().layers == expected


def test_flash_data_reads_wait_where_the_data_cache_misses(tmp_path):
    """hand_timed_memory.S's loads from a table in flash (word, LDM, post-indexed, LDRD across two lines,
    a shifted index, VLDR, a literal), each case's wait states counted by hand: the load's address from
    the registers QEMU logs before it, its lines against a 2-line cache."""
    memory = MemoryTiming(5, prefetch=False, instruction_cache=None, data_cache=Cache(lines=2, line_bytes=32))
    board = load_board("mps2-an386")
    (tmp_path / "exec").mkdir()
    counter = counted(tmp_path / "exec", "mps2-an386", "hand_timed_memory.S")
    reads = DataStalls(counter.program, sorted(counter.table), memory, board.flash, counter.layers)
    _, log = traced(tmp_path, "mps2-an386", "hand_timed_memory.S", reads.registers_at)
    with open(log, "rb") as stream:
        reads.read(stream, chunk=700)  # entries cut across chunks
    expected = [int(n) for n in re.findall(r"@= (\d+)", (HAND_TIMED / "hand_timed_memory.S").read_text())]
    assert reads.stalls.tolist() == expected


def test_instruction_fetches_wait_where_the_cache_and_prefetch_miss():
    """FetchStalls on a hand-made stretch of fetch addresses (32-byte lines, a 2-line cache, prefetch)."""
    flash = load_board("mps2-an386").flash
    memory = MemoryTiming(5, prefetch=True, instruction_cache=Cache(lines=2, line_bytes=32), data_cache=None)
    fetches = FetchStalls(memory, flash, 2)
    pcs = np.array([0x100, 0x102, 0x120,  # line 8 waits, line 9 was prefetched
                    0x200,  # a jump: line 16 waits, replacing line 8
                    0x120,  # line 9 is held
                    0x100,  # line 8 was replaced: waits
                    0x20000000], dtype=np.uint32)  # RAM
    fetches.feed(pcs[:4], np.zeros(4, dtype=np.int64))
    fetches.feed(pcs[4:], np.ones(3, dtype=np.int64))  # carried across stretches
    assert fetches.stalls.tolist() == [10, 5]


def test_profile_on_the_emulated_m4_reports_estimated_cycles(capsys, tmp_path, models):
    report = tmp_path / "r.json"
    code, out, err = run_cli(capsys, "test", models / "tflm_micro_speech.tflite", "--board", "mps2-an386",
                             "--samples", "2", "--profile", "--json", report)
    assert code == 0 and "estimating Arm Cortex-M4 cycles: sample 1 once more" in err
    r = checked_report(report, "test")
    e = r["estimated_cycles"]
    assert e["sample"] == 0 and e["timing"] == {"refill": 2, "divide": 7, "exception": 12}
    assert sum(e["layer_cycles"]) == e["cycles"] and sum(e["layer_instructions"]) == e["instructions"]
    # the traced window is the SysTick-timed one: the same instructions within a tick (40) and the
    # timer reads around it
    assert abs(e["instructions"] - r["per_sample"][0]["time"]) <= 100
    for layer, n, c in zip(r["per_sample"][0]["layer_times"], e["layer_instructions"], e["layer_cycles"]):
        assert abs(layer - n) <= 100 and n <= c <= 14 * n
    assert sum(f["cycles"] for f in e["functions"]) == e["cycles"]
    # where the cycles went: the one-channel depthwise layer runs as a conv (kernels carry the model's prefix)
    assert e["functions"][0]["name"].startswith("model_mcu_conv2d")
    assert f"estimated cycles: {e['cycles']:,} for {e['instructions']:,} instructions" in out
    assert (tmp_path / "r.layers.png").stat().st_size > 5_000
    # milliseconds at the board's 25 MHz from the estimated cycles (the run's CPI on every sample), each layer's
    # from its own
    ms, cpi = r["inference"]["ms"], e["cycles"] / e["instructions"]
    assert r["inference"]["ms_from"] == f"estimated cycles at 25 MHz, CPI {cpi:.2f}"
    assert ms["median"] == pytest.approx(r["inference"]["median"] * cpi / 25e3)
    assert [layer["ms"] for layer in r["layers"]] == pytest.approx([c / 25e3 for c in e["layer_cycles"]])
    assert f"median {ms['median']:.3g} ms (estimated cycles at 25 MHz, CPI {cpi:.2f})" in out


def test_ms_without_an_estimate_are_instructions_at_the_clock_and_say_so(capsys, tmp_path, models):
    report = tmp_path / "r.json"
    code, out, _ = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "mps2-an386",
                           "--samples", "1", "--json", report)
    r = checked_report(report, "test")
    assert code == 0 and r["inference"]["ms"]["median"] == pytest.approx(r["inference"]["median"] / 25e3)
    assert r["inference"]["ms_from"] == "instructions at 25 MHz, one a cycle; --profile estimates cycles"
    assert r["inference"]["ms_from"] in out


def test_profile_without_a_timing_table_reports_instructions_only(capsys, tmp_path, models):
    report = tmp_path / "r.json"
    code, out, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "microbit",
                             "--samples", "1", "--profile", "--json", report)
    assert code == 0 and "estimating" not in err and "est. cycles" not in out
    assert "estimated_cycles" not in checked_report(report, "test")


def test_build_estimate_reports_the_cores_cycles(capsys, tmp_path, models):
    code, out, err = run_cli(capsys, "build", models / "tflm_micro_speech.tflite", "--board", "mps3-an547",
                             "--out", tmp_path / "b", "--estimate")
    assert code == 0 and "estimating Arm Cortex-M55 cycles: one inference on mps3-an547" in err
    found = re.search(r"estimated +([\d,]+) cycles at zero wait states \([\d.]+ ms at 32 MHz; ([\d,]+) instructions\)",
                      out)
    assert found and "with its flash timing" not in out  # an emulated board has no flash timing
    assert "(for " not in out  # built for the board asked for
    cycles, instructions = (int(n.replace(",", "")) for n in found.groups())
    assert instructions < cycles < 3 * instructions


def test_build_estimate_of_a_board_without_an_offline_build_runs_on_its_twin(capsys, tmp_path, models):
    """NUCLEO-L4R5ZI's firmware needs its stock platform; its estimate does not: offline, `build --estimate`
    links for the emulated twin (same core, same kernels), checks the fit against the L4R5's memory, and the
    JSON records both figures and which board the firmware is for."""
    report = tmp_path / "b.json"
    code, out, err = run_cli(capsys, "build", models / "tflm_micro_speech.tflite", "--board", "nucleo-l4r5zi",
                             "--out", tmp_path / "b", "--estimate", "--json", report, "--html", tmp_path / "b.html")
    assert code == 0, err
    assert "nucleo-l4r5zi has no offline build" in err and "twin mps2-an386" in err
    assert "(for mps2-an386)" in out and "with its flash timing" in out
    r = checked_report(report, "build")
    e = r["estimate"]
    assert r["board"] == "nucleo-l4r5zi" and r["firmware"]["board"] == "mps2-an386" and e["on"] == "mps2-an386"
    assert e["instructions"] < e["cycles"] < e["cycles_with_flash_timing"]
    assert e["ms"] == round(e["cycles_with_flash_timing"] / 120e3, 3)
    assert f"{e['cycles']:,} cycles at zero wait states" in out and f"{e['cycles_with_flash_timing']:,} with" in out
    page = (tmp_path / "b.html").read_text()
    assert "mps2-an386 (the board&#39;s emulated twin)" in page or "mps2-an386 (the board's emulated twin)" in page
    assert f"{e['cycles_with_flash_timing']:,}" in page and f"{e['ms']:.2f} ms" in page
    code, _, err = run_cli(capsys, "build", models / "tflm_micro_speech.tflite", "--board", "nucleo-l4r5zi",
                           "--out", tmp_path / "c")
    assert code == 1 and "nucleo-l4r5zi has no offline build" in err  # without --estimate: nothing to build for


def test_the_estimate_adds_the_boards_flash_wait_states(models):
    """NUCLEO-L4R5ZI's file gives its flash timing: the estimate on its emulated twin adds at least a miss
    per line of weights (each is read at least once, through a 256-byte data cache); with the weights
    copied into RAM (--weights ram) the same instructions wait a fraction of that."""
    board = load_board("nucleo-l4r5zi")
    target = Target.of(board.id)

    def estimated(weights: str) -> tuple[int, int, int]:
        g = compile_model(models / "mlperf_ad_autoencoder.tflite", features=board.features,
                          budget=board.budget(weights))
        line = estimate_on(target, estimate_twin(target), g, "ad").line()
        found = re.search(r"([\d,]+) cycles at zero wait states.*\n +([\d,]+) with its flash timing \([\d.]+ ms: "
                          r"5 wait states, prefetch, instruction cache 32 x 32 B, data cache 8 x 32 B\)", line)
        assert found, line
        plain, with_flash = (int(n.replace(",", "")) for n in found.groups())
        return plain, with_flash, sum(t.nbytes for t in g.tensors if t.is_const)

    plain, with_flash, weights = estimated("auto")
    assert with_flash - plain >= weights // 32 * 5
    plain_ram, with_flash_ram, _ = estimated("ram")
    assert plain_ram == plain and with_flash_ram - plain < (with_flash - plain) / 4


@pytest.mark.parametrize("board, problem", [("microbit", "mcugen has no cycle model of the Arm Cortex-M0"),
                                            ("host", "--estimate costs a run on a board's core, and host is none")])
def test_estimate_is_refused_before_building_where_there_is_no_model(capsys, tmp_path, models, board, problem):
    code, _, err = run_cli(capsys, "build", models / "tflm_hello_world.tflite", "--board", board,
                           "--out", tmp_path / "b", "--estimate")
    assert code == 1 and problem in err and not (tmp_path / "b").exists()
