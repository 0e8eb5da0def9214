"""Estimated cycles (mcugen/validation/cycles.py): hand-timed sequences under QEMU, and `test --profile`."""
import re
import subprocess
from pathlib import Path

import pytest

from test_cli import checked_report, run_cli

from mcugen.targets.boards import load_board
from mcugen.validation.cycles import Counter, Program, read_exec_log

HAND_TIMED = Path(__file__).parent / "cycles"


@pytest.mark.parametrize("board, source", [("mps2-an386", "hand_timed.S"), ("mps3-an547", "hand_timed_m55.S"),
                                           ("mps2-an500", "hand_timed_m7.S")])
def test_hand_timed_sequences_cost_what_the_core_model_says(tmp_path, board, source):
    """Each case of the core's hand-timed file costs its hand count. The M4's: pipelined and blocked
    loads, LDRD, LDM/STM, taken and falling-through branches, IT folding, CBZ, divides, VFP, TBB, calls,
    an SVC exception. The M55's: Helium beats overlapping across pipes and not within one, result
    latencies one and two instructions back, dual issue, a low-overhead loop, VFP, predication. The M7's:
    which pairs issue together (two ALUs, two load ports, one store port, MAC, branch unit and FPU),
    latencies, addresses read a stage early, the MAC's late accumulator, single-issue instructions."""
    core = load_board(board).cpu
    path = HAND_TIMED / source
    elf, log = tmp_path / "hand_timed.elf", tmp_path / "exec.log"
    subprocess.run(["arm-none-eabi-gcc", "-nostdlib", f"-mcpu={core.id}", "-mthumb", "-mfloat-abi=hard",
                    "-Wl,-Ttext=0", "-Wl,-eReset_Handler", "-o", str(elf), str(path)], check=True)
    subprocess.run(["qemu-system-arm", "-M", board, "-display", "none", "-monitor", "none",
                    "-semihosting-config", "enable=on,target=native", "-kernel", str(elf),
                    "-singlestep", "-d", "exec,nochain", "-D", str(log)], check=True, timeout=60)
    expected = [int(n) for n in re.findall(r"@= (\d+)", path.read_text())]
    counter = Counter(Program(elf, core.arch), core, len(expected))
    with open(log, "rb") as stream:
        read_exec_log(stream, counter, chunk=512)  # small chunks: costs carried across chunk edges
    assert counter.estimate().layers == expected


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


def test_profile_without_a_timing_table_reports_instructions_only(capsys, tmp_path, models):
    report = tmp_path / "r.json"
    code, out, err = run_cli(capsys, "test", models / "tflm_hello_world.tflite", "--board", "mps2-an505",
                             "--samples", "1", "--profile", "--json", report)
    assert code == 0 and "estimating" not in err and "est. cycles" not in out
    assert "estimated_cycles" not in checked_report(report, "test")
