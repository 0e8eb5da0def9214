"""Graph invariants and the text form passes are tested against."""
from __future__ import annotations

from mcugen.ops._conv import ConvData
from mcugen.passes.check_support import find_problems
from mcugen.codegen.pipeline import lower
from mcugen.frontend.read_tflite import read_tflite


def test_text_form_lists_ops_in_order(models):
    text = str(read_tflite(models / "tflm_micro_speech.tflite"))
    assert text.splitlines() == [
        "graph tflm_micro_speech inputs=(t3) outputs=(t9)",
        "  0: t4 = RESHAPE(t3, t5) -> [1x49x40x1]",
        "  1: t2 = DEPTHWISE_CONV_2D(t4, t8, t0) -> [1x25x20x8]",
        "  2: t6 = FULLY_CONNECTED(t2, t7, t1) -> [1x4]",
        "  3: t9 = SOFTMAX(t6) -> [1x4]",
    ]


def test_reading_before_writing_is_a_support_problem_not_a_broken_file(models):
    """Legal in a file (state, scratch, an NPU's command stream), so verify() lets it through and
    check_support names the op that does it."""
    g = read_tflite(models / "tflm_micro_speech.tflite")
    swapped = g.renumber([g.ops[1], g.ops[0], *g.ops[2:]]).verify()
    problems = find_problems(swapped)
    assert problems[0].startswith("DEPTHWISE_CONV_2D at index 1: reads tensor") and \
        "that no earlier op writes" in problems[0]


def test_prepare_computes_tflm_parameters(models):
    g = lower(models / "mlperf_kws_dscnn.tflite")
    conv = g.ops[0].prepared(ConvData)
    assert conv.window.out_hw == (25, 5) and conv.window.stride == (2, 2)
    assert len(conv.quant.multiplier) == 64 and conv.quant.act_min == g.tensors[g.ops[0].outputs[0]].quant.zp


def test_dump_ir_writes_the_ir_after_every_pass(models, tmp_path, capsys):
    from mcugen.ir.dump import passes
    from test_cli import run_cli

    code, _, err = run_cli(capsys, "--dump-ir", tmp_path / "ir", "build", models / "tflm_micro_speech.tflite",
                           "--board", "host", "--out", tmp_path / "out")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "ir").iterdir()) == [f"{k + 1:02d}_{name}.txt"
                                                                   for k, name in enumerate(passes())]
    lowered = (tmp_path / "ir" / "15_lower_ops.txt").read_text()
    assert "call mcu_fully_connected_s8" in lowered and "arena" not in lowered
    assert (tmp_path / "ir" / "21_plan_memory.txt").read_text().splitlines()[-1].startswith("arena 5960 B")
    assert "MCUGEN_DUMP_IR" not in __import__("os").environ  # as it was before the command



def test_the_pass_names_are_the_pipelines():
    """The dump's numbering is codegen/pipeline.py's passes in its order, each the function of its name, and
    DEVELOPERS.md's map names them in that order: a pass added to the pipeline is added to the map, or this fails."""
    import re

    from conftest import ROOT
    from mcugen.codegen import pipeline
    from mcugen.ir.dump import passes

    assert passes()[:2] == ("read_tflite", "verify") and passes()[-1] == "stage_weights"
    assert all(hasattr(pipeline, name) for name in passes() if name != "verify")
    developers = (ROOT / "DEVELOPERS.md").read_text().replace("\n", " ")
    chain = re.search(r"read_tflite →.*?, then `emit_c`", developers)
    assert chain and tuple(re.findall(r"(\w+)(?= →|, then)", chain.group(0))) == passes()