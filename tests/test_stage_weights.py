"""passes/stage_weights.py: on a board whose flash waits, a layer that reads its weights once per block of
positions reads them from a copy in the arena's free bytes. Stated as IR before and after the pass, then run:
bit-exact on the emulated Cortex-M4 against the golden model, and costed with the NUCLEO-L4R5ZI's flash timing."""
from __future__ import annotations

import dataclasses
import difflib

import numpy as np
import pytest

from conftest import MODELS, lowered
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.pipeline import compile_model
from mcugen.ir.budget import Budget, FlashReads
from mcugen.passes.place_weights import place_weights
from mcugen.passes.plan_memory import plan_memory
from mcugen.passes.stage_weights import stage_weights
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation.compare import random_inputs
from mcugen.validation.cycles import estimate_cycles
from mcugen.validation.validate import run_on_target
from test_cli import checked_report, run_cli
from tflite_writer import ModelSpec

DSP = frozenset({"dsp"})
L4R5_FLASH = FlashReads(wait_states=5, line_bytes=32, cached_bytes=256)  # boards/nucleo-l4r5zi.yaml's
CONSTS = {"w": np.arange(32 * 16).reshape(32, 1, 1, 16) % 7 - 3, "w2": np.arange(8 * 32).reshape(8, 1, 1, 32) % 5 - 2}


def _two_pointwise() -> ModelSpec:
    """x [1, 12, 12, 16] -> 1x1 CONV_2D (32 channels) -> h -> 1x1 CONV_2D (8 channels) -> y: each conv reads its
    weights once per three of its 144 positions (48 times)."""
    m = ModelSpec()
    x = m.tensor("x", [1, 12, 12, 16], "int8", scale=0.5, zp=-3)
    w = m.const("w", CONSTS["w"], "int8", scale=0.05, zp=0)
    h = m.tensor("h", [1, 12, 12, 32], "int8", scale=1.0, zp=2)
    options = dict(version=3, Padding="VALID", StrideH=1, StrideW=1, DilationHFactor=1, DilationWFactor=1)
    m.op("CONV_2D", [x, w, -1], [h], "Conv2DOptions", **options)
    w2 = m.const("w2", CONSTS["w2"], "int8", scale=0.05, zp=0)
    y = m.tensor("y", [1, 12, 12, 8], "int8", scale=1.0, zp=-1)
    m.op("CONV_2D", [h, w2, -1], [y], "Conv2DOptions", **options)
    m.inputs, m.outputs = [x], [y]
    return m


def _added(before: str, after: str) -> list[str]:
    """The lines the pass added or changed."""
    return [line[2:] for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line.startswith("+ ")]


FRONT = "\n".join([  # _two_pointwise's IR
    "graph m inputs=(t0) outputs=(t4)",
    "tensors",
    "  t0 int8[1, 12, 12, 16] scale 0.5 zp -3 input 'x'",
    "  t1 int8[32, 1, 1, 16] scale 0.05 zp 0 const 'w'",
    "  t2 int8[1, 12, 12, 32] scale 1 zp 2 'h'",
    "  t3 int8[8, 1, 1, 32] scale 0.05 zp 0 const 'w2'",
    "  t4 int8[1, 12, 12, 8] scale 1 zp -1 output 'y'",
    "ops",
    "  0: t2 = CONV_2D(t0, t1, -) -> [1x12x12x32] with padding='VALID'",
    "  1: t4 = CONV_2D(t2, t3, -) -> [1x12x12x8] with padding='VALID'"])


def _placed(budget: Budget) -> tuple[str, str]:
    """The IR before stage_weights (the two convs lowered for the M4, planned, their weights placed) and after."""
    placed = place_weights(plan_memory(lowered(FRONT, DSP, budget, consts=CONSTS), budget.regions, budget.pins),
                           budget)
    return placed.text(), stage_weights(placed, budget).text()


def test_stage_weights_copies_a_layers_weights_into_room_the_arena_has():
    """Balanced (the default): op 0's step is the arena's peak (x, h and its scratch fill the 7,120 bytes), so
    its weights stay where they are; at op 1's step x's 2,304 bytes are free, and op 1's weights (256 B of
    twin words), channel table (64 B) and bias (32 B) go there, each read 48 times: 27 lines that would wait 5
    cycles 48 times, copied once. The arena keeps its size."""
    before, after = _placed(Budget(flash=L4R5_FLASH))
    assert "  t0 int8[1, 12, 12, 16] scale 0.5 zp -3 @4608 input 'x'" in before
    assert "arena 7120 B (largest first)" in before
    assert _added(before, after) == [
        "     copies its channels (64 B) to the arena @5280 first",
        "     copies its filter_twins (256 B) to the arena @5024 first",
        "     copies its bias (32 B) to the arena @5344 first"]
    assert after.index("copies its channels") > after.index("  1: t4 = CONV_2D")


def test_stage_weights_lets_speed_grow_the_arena_for_its_copies():
    """--optimize speed (weights widened to int16 pairs): op 0's copies go past the arena's end, which grows
    from 7,120 to 8,528 bytes: RAM spent on cycles, and the arena's figure says so. Without room for them (the
    board's RAM) they are not made."""
    budget = Budget(flash=L4R5_FLASH, optimize="speed")
    before, after = _placed(budget)
    assert _added(before, after) == [
        "     copies its channels (256 B) to the arena @8144 first",
        "     copies its filter_pairs (1024 B) to the arena @7120 first",
        "     copies its bias (128 B) to the arena @8400 first",
        "     copies its channels (64 B) to the arena @5536 first",
        "     copies its filter_pairs (512 B) to the arena @5024 first",
        "     copies its bias (32 B) to the arena @5600 first",
        "arena 8528 B (largest first)"]
    _, tight = _placed(dataclasses.replace(budget, arena_room=7120))
    assert "arena 7120 B" in tight and tight.count("copies its") == 3


@pytest.mark.parametrize("budget", [Budget(), Budget(flash=dataclasses.replace(L4R5_FLASH, wait_states=0))])
def test_stage_weights_copies_nothing_where_flash_does_not_wait(budget):
    before, after = _placed(budget)
    assert after == before


def _run(g, tmp_path, samples: int = 2):
    """g built for the emulated M4, its outputs for `samples` random inputs (all bit-exact with the golden
    model asserted), and one inference's estimate with the L4R5's flash timing."""
    board, l4r5 = load_board("mps2-an386"), load_board("nucleo-l4r5zi")
    program = build_board(g, board, OutDir(tmp_path), "model.tflite").program
    inputs = random_inputs(g, samples, seed=3)
    _, results = run_on_target(Target.of(board.id), program, g, inputs)
    assert all(r.passed for r in results), [r.outputs for r in results]
    return estimate_cycles(Target.of(board.id), program, g, inputs[0], board.cpu, memory=l4r5.memory_timing)


@pytest.mark.parametrize("optimize", ["balanced", "speed"])
def test_staged_weights_run_bit_exact_and_wait_less(tmp_path, optimize):
    """The copies change where the kernel reads, not what it computes: bit-exact on the emulated M4, the same
    instructions' estimate at zero wait states within the copies' cost, and the layers that copy wait a
    fraction of what they waited reading flash."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_pointwise().build())
    l4r5 = load_board("nucleo-l4r5zi")
    staged = compile_model(path, features=DSP, budget=l4r5.budget(optimize=optimize))
    plain = compile_model(path, features=DSP, budget=dataclasses.replace(l4r5.budget(optimize=optimize),
                                                                          flash=FlashReads()))
    copying = sorted(staged.arena.staged)
    assert copying == ([1] if optimize == "balanced" else [0, 1]) and not plain.arena.staged
    with_copies, without = _run(staged, tmp_path / "staged"), _run(plain, tmp_path / "plain")
    for k in copying:
        copies = [staged.arena.plan.buffers[b].size for *_, b in staged.arena.staged[k]]
        assert with_copies.memory_stalls[k] < without.memory_stalls[k] / 3  # what is left: instruction fetches
        assert with_copies.layers[k] - without.layers[k] < 3 * sum(copies) // 4 + 40 * len(copies)  # memcpy's


def test_a_real_model_with_staged_weights_is_bit_exact(tmp_path):
    """MLPerf Tiny's ResNet-8 as `build --board nucleo-l4r5zi --max-arena 40000` compiles it (every copy in room
    the arena has, its fused first ResNet block's two filters and lookup table among them), on the emulated
    twin: bit-exact, and waiting less than the same build reading flash."""
    l4r5 = load_board("nucleo-l4r5zi")
    budget = dataclasses.replace(l4r5.budget(), arena_room=40_000, max_arena=40_000)
    g = compile_model(MODELS / "mlperf_ic_resnet8.tflite", features=l4r5.features, budget=budget)
    plain = dataclasses.replace(g, arena=dataclasses.replace(g.arena, staged={}))  # the same build, no copies
    assert [op.fused_into for op in g.ops if op.fused_into is not None] == [3, 3] and len(g.arena.staged) >= 5
    # a ResNet block: its two convs' three arrays and the ADD's table of rescaled inputs (a field of its parameters)
    assert any(len(copies) == 7 and copies[-1][1] == "rescaled" for copies in g.arena.staged.values())
    staged, unstaged = _run(g, tmp_path / "staged", samples=1), _run(plain, tmp_path / "plain", samples=1)
    assert sum(staged.memory_stalls) < 0.7 * sum(unstaged.memory_stalls)


def test_the_build_report_says_what_each_layer_copies(capsys, tmp_path):
    """`build --board nucleo-l4r5zi --estimate --json`: op 1's 352 bytes of copies in its layer's entry, op 0's
    (at the arena's peak) none."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_two_pointwise().build())
    code, _, err = run_cli(capsys, "build", path, "--board", "nucleo-l4r5zi", "--out", tmp_path / "b", "--estimate",
                           "--json", tmp_path / "b.json")
    assert code == 0, err
    layers = checked_report(tmp_path / "b.json", "build")["layers"]
    assert "staged_bytes" not in layers[0] and layers[1]["staged_bytes"] == 64 + 256 + 32


@pytest.mark.parametrize("optimize, grows", [("balanced", True), ("size", False)])
def test_balanced_grows_the_arena_a_little_for_copies_that_save_much(optimize, grows):
    """VWW's first layer is the arena's peak (its 27,648-byte input beside its output) and reads its 608 bytes
    of constants 768 times: balanced grows the arena by them (1.3%, within 1/64, 127 cycles saved a byte), size
    does not."""
    l4r5 = load_board("nucleo-l4r5zi")
    model = MODELS / "mlperf_vww_mobilenet.tflite"
    plain = compile_model(model, features=l4r5.features,
                          budget=dataclasses.replace(l4r5.budget(optimize=optimize), flash=FlashReads()))
    g = compile_model(model, features=l4r5.features, budget=l4r5.budget(optimize=optimize))
    first = sum(g.arena.plan.buffers[k].size for *_, k in g.arena.staged.get(0, ()))
    assert first == (608 if grows else 0)
    assert g.arena.plan.size == plain.arena.plan.size + first
