"""Graph invariants, the file's options as typed records, and the text form passes are tested in (written and
read back)."""
from __future__ import annotations

import dataclasses

import pytest
import tflite

from mcugen.codegen.pipeline import lower
from mcugen.frontend.read_tflite import _empty_table, _fields, _options_type, read_tflite
from mcugen.ir.graph import Graph
from mcugen.ir.options import (TABLES, Conv2DOptions, CustomOptions, DepthwiseConv2DOptions, Options, Pool2DOptions,
                               SoftmaxOptions, record_of)
from mcugen.ops import supported_opcodes
from mcugen.ops._conv import ConvData
from mcugen.passes.check_support import find_problems


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
    lowered = (tmp_path / "ir" / "16_lower_ops.txt").read_text()
    assert "call mcu_fully_connected_s8" in lowered and "arena" not in lowered
    assert (tmp_path / "ir" / "22_plan_memory.txt").read_text().splitlines()[-1].startswith("arena 5960 B")
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

def test_options_records_are_the_schemas_tables():
    """Each typed options record is a table of the schema and each of its fields one of the table's (a
    misspelt field would be read as nothing); CallOnceOptions, which the tflite package predates, is read
    by hand."""
    for name, kind in TABLES.items():
        schema = {key.replace("_", "") for key in _fields(getattr(tflite, name), _empty_table())}
        fields = {f.name.replace("_", "") for f in dataclasses.fields(kind)}
        assert fields <= schema or name == "CallOnceOptions", (name, fields - schema)
    for opcode in supported_opcodes():  # the text form's parser finds each opcode's record as the reader does
        expected = CustomOptions if opcode.startswith("CUSTOM:") else TABLES.get(_options_type(opcode), Options)
        assert record_of(opcode) is expected, opcode


def test_reading_gives_each_op_its_tables_record(models):
    g = read_tflite(models / "tflm_person_detect.tflite")
    first = g.ops[0]  # a depthwise conv of the one-channel image, 8 channels out
    assert first.options == DepthwiseConv2DOptions(fused_activation_function="RELU6", padding="SAME", stride_h=2,
                                                   stride_w=2, depth_multiplier=8)
    kinds = {op.opcode: type(op.options) for op in g.ops}
    assert kinds["CONV_2D"] is Conv2DOptions and kinds["AVERAGE_POOL_2D"] is Pool2DOptions
    assert kinds["RESHAPE"] is Options and kinds["SOFTMAX"] is SoftmaxOptions


@pytest.mark.parametrize("model", ["tflm_hello_world.tflite", "tflm_micro_speech.tflite", "tflm_simple_add.tflite",
                                   "mlperf_ad_autoencoder.tflite", "mlperf_ic_resnet8_float.tflite",
                                   "real/tflm_mnist_lstm_int8.tflite", "tflm_audio_preprocessor_int8.tflite"])
def test_the_text_form_reads_back_as_the_graph_it_was(models, model):
    """Graph.parse(g.text()) is g again, as far as the passes before lower_ops read it: tensors, quantization,
    options, facts (the LSTM's state, resolved to variables) and variables; constants the text does not list
    come from `consts`."""
    g = lower(models / model)
    consts = {t.name: t.data for t in g.tensors if t.data is not None} | {v.name: v.initial for v in g.variables}
    back = Graph.parse(g.text(), consts)
    assert back.text() == g.text()
    for a, b in zip(g.tensors, back.tensors):
        assert (a.name, a.shape, a.dtype, a.variable, a.stored) == (b.name, b.shape, b.dtype, b.variable, b.stored)
        assert (a.quant is None) == (b.quant is None) and (a.data is None) == (b.data is None)
        if a.quant is not None and b.quant is not None:
            assert a.quant.scale.tobytes() == b.quant.scale.tobytes()
        if a.data is not None and b.data is not None:
            assert a.data.dtype == b.data.dtype and a.data.tobytes() == b.data.tobytes()
    assert [(op.opcode, op.inputs, op.outputs, op.options, op.facts) for op in g.ops] == \
        [(op.opcode, op.inputs, op.outputs, op.options, op.facts) for op in back.ops]


_FC = ["graph model inputs=(t0) outputs=(t2)", "tensors", "  t0 int8[1, 4] scale 0.5 zp 0 input 'x'",
       "  t1 int8[3, 4] scale 0.25 zp 0 const 'w' = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
       "  t2 int8[1, 3] scale 1 zp 0 output 'h'", "ops", "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3]"]


@pytest.mark.parametrize("at, line, why", [
    (3, "  t1 int8[3, 4] scale 0.25 zp 0 const 'w'", "'w' has more values than the text lists: pass them (consts)"),
    (3, "  t1 int8[3, 4] 40 scales on axis 0 const 'w'", "tensor t1 'w' has 40 scales, more than the text lists"),
    (6, "  0: t2 = FULLY_CONNECTED(t0, t1, -) -> [1x3] with weights=2", "not FULLY_CONNECTED's options as keyword "
     "arguments (FullyConnectedOptions.__init__() got an unexpected keyword argument 'weights'): 'weights=2'"),
    (7, "     call mcu_fully_connected_s8 (1 row(s) of 4 -> 3 units)", "not a fact of the IR before lower_ops: "
     "'     call mcu_fully_connected_s8 (1 row(s) of 4 -> 3 units)'"),
    (4, "  t2 int8[1, 3] scale 1 zp 0 @4 'h'", "not a tensor: tK dtype[shape] [quantization] [role] 'name' "
     "[= values]: \"  t2 int8[1, 3] scale 1 zp 0 @4 'h'\"")])
def test_the_text_form_names_a_line_it_cannot_read(at, line, why):
    assert Graph.parse("\n".join(_FC)).text() == "\n".join(_FC)
    with pytest.raises(ValueError) as error:
        Graph.parse("\n".join(_FC[:at] + [line] + _FC[at + 1:]))
    assert str(error.value) == why
