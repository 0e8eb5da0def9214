"""Patch-based inference (passes/split_patches.py, codegen/patch_plan.py): a model's first stage run in bands of
rows is bit-exact with TFLM running the file whole, on the host (golden model and generated C) and on QEMU (the
M4's DSP kernels, the M55's Helium ones), over drawn stacks of convolutions, depthwise convolutions, pools and
residual ADDs (strides 1-2, kernels 1-7, SAME and VALID, dilations); chosen by itself where the arena does not
fit --max-arena, refused with --patches off."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mcugen.codegen.build import build_host
from mcugen.commands.cli import main
from mcugen.errors import McugenError
from mcugen.codegen.outdir import OutDir
from mcugen.codegen.patch_plan import arena_bytes, banded_macs, macs
from mcugen.codegen.pipeline import back_end, compile_model, lower
from mcugen.ir.budget import Budget
from mcugen.ir.lowering import layer_name
from mcugen.passes.split_patches import Stage, split_patches, stage_ends
from mcugen.targets.boards import load_board
from mcugen.targets.firmware import build_board
from mcugen.targets.target import Target
from mcugen.validation import golden
from mcugen.validation.compare import random_inputs
from mcugen.validation.oracle import Tflm
from mcugen.validation.validate import run_on_target
from conftest import MODELS
from tflite_writer import ModelSpec

LAYER = st.fixed_dictionaries(dict(kind=st.sampled_from(["conv", "depthwise", "depthwise", "pool", "residual"]),
                                   k=st.sampled_from([1, 2, 3, 3, 5, 7]), stride=st.sampled_from([1, 1, 2]),
                                   dilation=st.sampled_from([1, 1, 2]), pad=st.sampled_from(["SAME", "VALID"]),
                                   channels=st.sampled_from([3, 4, 5, 8])))


def _stack(layers: list[dict], h: int, w: int, seed: int) -> ModelSpec | None:
    """x [1, h, w, 3] -> the layers in turn (a residual: a 3x3 SAME depthwise added to its own input) -> a 1x1
    conv; None where a window finds no room."""
    rng = np.random.default_rng(seed)
    m = ModelSpec()
    x = m.tensor("x", [1, h, w, 3], "int8", scale=0.05, zp=1)
    cur, c, q = x, 3, (0.05, 1)  # the current tensor, its channels and quantization (a pool keeps it)
    for n, layer in enumerate(layers + [dict(kind="conv", k=1, stride=1, dilation=1, pad="VALID", channels=4)]):
        kind, k, s, d = layer["kind"], layer["k"], layer["stride"], layer["dilation"]
        if kind == "residual":
            k, s, d, pad = 3, 1, 1, "SAME"
        else:
            pad = layer["pad"]
        span = (k - 1) * d + 1
        oh, ow = ((-(-h // s), -(-w // s)) if pad == "SAME" else ((h - span) // s + 1, (w - span) // s + 1))
        if oh < 1 or ow < 1:
            return None
        out_c = c if kind in ("depthwise", "pool", "residual") else layer["channels"]
        q = q if kind == "pool" else (0.1, -2)
        y = m.tensor(f"t{n}", [1, oh, ow, out_c], "int8", scale=q[0], zp=q[1])
        fields = dict(Padding=pad, StrideH=s, StrideW=s)
        if kind == "pool":
            m.op("MAX_POOL_2D", [cur], [y], "Pool2DOptions", FilterHeight=k, FilterWidth=k, **fields)
        else:
            shape = (1, k, k, out_c) if kind != "conv" else (out_c, k, k, c)
            filt = m.const(f"w{n}", rng.integers(-127, 128, shape), "int8", scale=[0.02] * out_c, zp=[0] * out_c,
                           axis=0 if kind == "conv" else 3)
            bias = m.const(f"b{n}", rng.integers(-900, 900, out_c), "int32", scale=[0.001] * out_c,
                           zp=[0] * out_c)
            fields.update(DilationHFactor=d, DilationWFactor=d, FusedActivationFunction="RELU")
            if kind == "conv":
                m.op("CONV_2D", [cur, filt, bias], [y], "Conv2DOptions", version=3, **fields)
            else:
                m.op("DEPTHWISE_CONV_2D", [cur, filt, bias], [y], "DepthwiseConv2DOptions", version=3,
                     DepthMultiplier=1, **fields)
        if kind == "residual":
            summed = m.tensor(f"sum{n}", [1, oh, ow, out_c], "int8", scale=0.1, zp=-2)
            m.op("ADD", [y, cur], [summed], "AddOptions", version=2)
            y = summed
        cur, c, h, w = y, out_c, oh, ow
    m.inputs, m.outputs = [x], [cur]
    return m


@settings(max_examples=12, deadline=None)
@given(layers=st.lists(LAYER, min_size=1, max_size=5), h=st.integers(4, 24), w=st.integers(1, 9),
       seed=st.integers(0, 999), data=st.data())
def test_every_stage_in_patches_equals_tflm_on_the_host(tmp_path_factory, layers, h, w, seed, data):
    m = _stack(layers, h, w, seed)
    if m is None:
        return
    tmp = tmp_path_factory.mktemp("bands")
    path = tmp / "m.tflite"
    blob = m.build()
    path.write_bytes(blob)
    g = lower(path)
    samples = random_inputs(g, 2, seed=seed)
    tflm = Tflm(blob)
    expected = [tflm.run(xs, 1)[0] for xs in samples]
    drawn = None
    for end in stage_ends(g):
        height, width = g.tensors[g.ops[end].outputs[0]].shape[1:3]
        stage = Stage(end, data.draw(st.integers(1, height)), data.draw(st.integers(1, width)))
        if stage.bands * stage.columns < 2:
            continue
        banded = split_patches(g, stage)
        assert macs(banded) == banded_macs(g, stage) >= macs(g)
        for xs, want in zip(samples, expected):
            assert np.array_equal(golden.run(banded, xs)[0], want), stage
        drawn = stage
    if drawn is not None:  # the generated C of the last stage drawn (views of views refused: a one-row band's
        compiled = back_end(split_patches(g, drawn), frozenset(), None, Budget())  # patches, then the bands)
        program = build_host(compiled, tmp / "c", "m.tflite").program
        _, results = run_on_target(Target.of("host"), program, compiled, samples)
        assert all(r.passed for r in results), drawn


def _residual_stack() -> ModelSpec:
    layers = [dict(kind="conv", k=3, stride=2, dilation=1, pad="SAME", channels=8),
              dict(kind="depthwise", k=3, stride=1, dilation=1, pad="SAME", channels=8),
              dict(kind="residual", k=3, stride=1, dilation=1, pad="SAME", channels=8),
              dict(kind="depthwise", k=5, stride=2, dilation=1, pad="VALID", channels=8),
              dict(kind="pool", k=2, stride=1, dilation=1, pad="SAME", channels=8)]
    m = _stack(layers, 29, 11, seed=3)
    assert m is not None
    return m


@pytest.mark.parametrize("board", ["mps2-an386", "mps3-an547"])
def test_bands_and_patches_run_bit_exact_on_the_dsp_and_helium_kernels(tmp_path, board):
    path = tmp_path / "m.tflite"
    blob = _residual_stack().build()
    path.write_bytes(blob)
    spec = load_board(board)
    for patches in ("3", "5", "3x2"):
        g = compile_model(path, features=spec.features, budget=dataclasses.replace(spec.budget(), patches=patches))
        assert g.banded is not None and f"{g.banded.bands}x{g.banded.columns}".removesuffix("x1") == patches
        samples = random_inputs(g, 2, seed=4)
        assert all(np.array_equal(golden.run(g, xs)[0], Tflm(blob).run(xs, 1)[0]) for xs in samples)
        program = build_board(g, spec, OutDir(tmp_path / f"{board}-{patches}"), "m.tflite").program
        _, results = run_on_target(Target.of(board), program, g, samples)
        assert all(r.passed for r in results)


def _channels_first() -> ModelSpec:
    """An NCHW image [1, 3, 40, 31] transposed to NHWC, as PyTorch and ONNX exporters leave it, then a 3x3 conv,
    a stride-2 3x3 depthwise and a 1x1 conv."""
    rng = np.random.default_rng(6)
    m = ModelSpec()
    x = m.tensor("x", [1, 3, 40, 31], "int8", scale=0.05, zp=1)
    cur = m.tensor("nhwc", [1, 40, 31, 3], "int8", scale=0.05, zp=1)
    m.op("TRANSPOSE", [x, m.const("perm", [0, 2, 3, 1], "int32")], [cur], "TransposeOptions")
    for n, (kind, k, s, out_c, hw) in enumerate([("conv", 3, 1, 16, (40, 31)), ("depthwise", 3, 2, 16, (20, 16)),
                                                 ("conv", 1, 1, 4, (20, 16))]):
        in_c = 3 if n == 0 else 16
        shape = (out_c, k, k, in_c) if kind == "conv" else (1, k, k, out_c)
        filt = m.const(f"w{n}", rng.integers(-127, 128, shape), "int8", scale=[0.02] * out_c, zp=[0] * out_c,
                       axis=0 if kind == "conv" else 3)
        bias = m.const(f"b{n}", rng.integers(-900, 900, out_c), "int32", scale=[0.001] * out_c, zp=[0] * out_c)
        y = m.tensor(f"t{n}", [1, *hw, out_c], "int8", scale=0.1, zp=-2)
        fields = dict(Padding="SAME", StrideH=s, StrideW=s, FusedActivationFunction="RELU")
        if kind == "conv":
            m.op("CONV_2D", [cur, filt, bias], [y], "Conv2DOptions", version=3, **fields)
        else:
            m.op("DEPTHWISE_CONV_2D", [cur, filt, bias], [y], "DepthwiseConv2DOptions", version=3, DepthMultiplier=1,
                 **fields)
        cur = y
    m.inputs, m.outputs = [x], [cur]
    return m


@pytest.mark.parametrize("board", ["host", "mps2-an386", "mps3-an547"])
def test_a_channels_first_image_is_transposed_a_patch_at_a_time(tmp_path, board):
    """The input TRANSPOSE opens the stage: each patch transposes its part of the NCHW image, which never exists
    whole in NHWC; bit-exact with TFLM in a grid of patches, and the arena smaller than the whole run's."""
    path = tmp_path / "m.tflite"
    blob = _channels_first().build()
    path.write_bytes(blob)
    features, budget = (frozenset(), Budget()) if board == "host" else (load_board(board).features,
                                                                         load_board(board).budget())
    graph = lower(path)
    whole = back_end(graph, features, None, budget)
    g = back_end(split_patches(graph, Stage(stage_ends(graph)[-1], 3, 2)), features, None, budget)
    assert g.banded is not None and (g.banded.first, g.banded.last) == (0, 3)
    assert not [op for op in g.ops if op.outputs and op.output(g).shape == (1, 40, 31, 3)]
    assert arena_bytes(g) < arena_bytes(whole)
    samples = random_inputs(g, 2, seed=6)
    assert all(np.array_equal(golden.run(g, xs)[0], Tflm(blob).run(xs, 1)[0]) for xs in samples)
    program = (build_host(g, tmp_path / "c", "m.tflite") if board == "host" else
               build_board(g, load_board(board), OutDir(tmp_path / board), "m.tflite")).program
    _, results = run_on_target(Target.of(board), program, g, samples)
    assert all(r.passed for r in results)


def test_a_grid_of_patches_is_reported_in_the_json_and_drawn(tmp_path, capsys):
    """--patches RxC on build: the report line names the grid, the JSON its columns, the picture has a panel
    for a band's patches; each layer's patches cover its columns, the last layer's one after another."""
    path = tmp_path / "m.tflite"
    path.write_bytes(_channels_first().build())
    code = main(["build", str(path), "--board", "host", "--out", str(tmp_path / "b"), "--patches", "3x2",
                 "--json", str(tmp_path / "b.json"), "--report"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "3x2 patches" in out
    assert json.loads((tmp_path / "b.json").read_text())["patches"]["columns"] == 2
    assert (tmp_path / "b" / "report" / "patches.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    banding = compile_model(path, budget=Budget(patches="3x2")).banded
    assert banding is not None and len(banding.cols) == len(banding.rows)
    for _, _, width, spans in banding.cols:
        assert len(spans) == 2 and set().union(*(range(a, b) for a, b in spans)) == set(range(width))
    last = banding.cols[-1][3]
    assert last[0][0] == 0 and last[0][1] == last[1][0]


def test_bands_are_chosen_where_the_arena_does_not_fit_and_refused_when_off(tmp_path, capsys):
    """--max-arena below the whole-tensor arena: the build runs the first layers in bands, fits, and says so
    (report and JSON); with --patches off the same limit is refused in one line."""
    wide = [dict(kind="conv", k=3, stride=1, dilation=1, pad="SAME", channels=16),
            dict(kind="depthwise", k=3, stride=1, dilation=1, pad="SAME", channels=16),
            dict(kind="conv", k=3, stride=2, dilation=1, pad="SAME", channels=8)]
    path = tmp_path / "m.tflite"
    path.write_bytes(_stack(wide, 48, 12, seed=5).build())  # type: ignore[union-attr]
    whole = arena_bytes(compile_model(path))
    limit = whole // 2
    code = main(["build", str(path), "--board", "host", "--out", str(tmp_path / "b"), "--max-arena", str(limit),
                 "--json", str(tmp_path / "b.json"), "--report"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "bands of rows" in out
    report = json.loads((tmp_path / "b.json").read_text())
    assert report["patches"]["whole_arena_bytes"] == whole and report["arena_bytes"] <= limit
    # the picture of the bands, and the rows it draws: each band's rows of every stage layer within its height,
    # together covering it; the last layer's bands one after another
    assert (tmp_path / "b" / "report" / "patches.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    banding = compile_model(path, budget=Budget(arena_room=limit)).banded
    assert banding is not None and len(banding.rows) == banding.last - banding.first + 1
    for _, _, height, rows in banding.rows:
        assert len(rows) == banding.bands and all(0 <= a < b <= height for a, b in rows)
        assert set().union(*(range(a, b) for a, b in rows)) == set(range(height))
    last = banding.rows[-1][3]
    assert all(b == a2 for (_, b), (a2, _) in zip(last, last[1:])) and last[0][0] == 0
    code = main(["build", str(path), "--board", "host", "--out", str(tmp_path / "c"), "--max-arena", str(limit),
                 "--patches", "off"])
    _, err = capsys.readouterr()
    lines = err.splitlines()  # the search for what would fit shows its progress, then one error line
    assert code == 1 and [line for line in lines if line.startswith("mcugen: error:")] == lines[-1:]
    assert "--max-arena" in lines[-1] and "patch-based inference would make it fit" in lines[-1]
    assert "drop --patches off" in lines[-1] and "Traceback" not in err
    for bad in (["--patches", "1"], ["--patches", "some"], ["--patches", "2x0"], ["--patches", "1x1"],
                ["--max-arena", "0"], ["--max-arena", "-5"]):
        with pytest.raises(SystemExit) as exc:  # the argument parser's one line
            main(["build", str(path), "--board", "host", "--out", str(tmp_path / "d"), *bad])
        err = capsys.readouterr().err
        assert exc.value.code == 1 and err.count("\n") == 1 and bad[0] in err and bad[1] in err
    assert not (tmp_path / "d").exists()
    # test --layers keeps every layer's output whole: no patches (it ran into an internal error), one line where
    # that does not fit --max-arena, and the layers compared where it does
    code = main(["test", str(path), "--board", "host", "--max-arena", str(limit), "--layers", "--samples", "1"])
    err = capsys.readouterr().err
    assert code == 1 and err.splitlines()[-1].startswith("mcugen: error:") and "--max-arena" in err.splitlines()[-1]
    assert "internal error" not in err
    code = main(["test", str(path), "--board", "host", "--max-arena", str(8 * whole), "--layers", "--samples", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err


def test_float_and_dynamic_range_layers_are_never_banded(tmp_path):
    """A dynamic-range conv quantizes its whole input with one scale (a band would pick its own), so only integer
    layers run in bands: a float32 conv has no stage to end."""
    rng = np.random.default_rng(0)
    m = ModelSpec()
    x = m.tensor("x", [1, 8, 4, 2], "float32")
    y = m.tensor("y", [1, 8, 4, 3], "float32")
    m.op("CONV_2D", [x, m.const("w", rng.standard_normal((3, 3, 3, 2)).astype(np.float32), "float32"),
                     m.const("b", np.zeros(3, np.float32), "float32")], [y], "Conv2DOptions", version=1,
         Padding="SAME", StrideH=1, StrideW=1)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "f.tflite"
    path.write_bytes(m.build())
    assert stage_ends(lower(path)) == []
    with pytest.raises(McugenError, match="--patches 2: no leading layers"):
        compile_model(path, budget=Budget(patches="2"))


def test_a_layer_reading_one_band_tensor_twice_reads_one_slice_of_it(tmp_path):
    """MUL(t, t) beside a 3x3 depthwise of t: the band's t holds the depthwise's halo, the MUL reads fewer of its
    rows through one STRIDED_SLICE, not two (two would be two C layers of one name)."""
    rng = np.random.default_rng(2)
    m = ModelSpec()
    x = m.tensor("x", [1, 12, 4, 4], "int8", scale=0.05, zp=1)
    t = m.tensor("t", [1, 12, 4, 4], "int8", scale=0.1, zp=-2)
    m.op("DEPTHWISE_CONV_2D", [x, m.const("w0", rng.integers(-127, 128, (1, 3, 3, 4)), "int8", scale=[0.02] * 4,
                                         zp=[0] * 4, axis=3)], [t], "DepthwiseConv2DOptions", version=3,
         DepthMultiplier=1, Padding="SAME", StrideH=1, StrideW=1)
    d = m.tensor("d", [1, 12, 4, 4], "int8", scale=0.1, zp=-2)
    m.op("DEPTHWISE_CONV_2D", [t, m.const("w1", rng.integers(-127, 128, (1, 3, 3, 4)), "int8", scale=[0.02] * 4,
                                         zp=[0] * 4, axis=3)], [d], "DepthwiseConv2DOptions", version=3,
         DepthMultiplier=1, Padding="SAME", StrideH=1, StrideW=1)
    squared = m.tensor("squared", [1, 12, 4, 4], "int8", scale=0.2, zp=0)
    m.op("MUL", [t, t], [squared], "MulOptions", version=2)
    y = m.tensor("y", [1, 12, 4, 4], "int8", scale=0.2, zp=0)
    m.op("ADD", [d, squared], [y], "AddOptions", version=2)
    m.inputs, m.outputs = [x], [y]
    path = tmp_path / "m.tflite"
    blob = m.build()
    path.write_bytes(blob)
    graph = lower(path)
    assert stage_ends(graph)[-1] == 3  # the ADD
    compiled = back_end(split_patches(graph, Stage(3, 3)), frozenset(), None, Budget())
    names = [layer_name(compiled, op) for op in compiled.ops]
    assert len(names) == len(set(names))
    samples = random_inputs(compiled, 2, seed=2)
    tflm = Tflm(blob)
    assert all(np.array_equal(golden.run(compiled, xs)[0], tflm.run(xs, 1)[0]) for xs in samples)
    _, results = run_on_target(Target.of("host"), build_host(compiled, tmp_path / "c", "m.tflite").program, compiled,
                               samples)
    assert all(r.passed for r in results)


def test_mobilenet_v2_224_runs_bit_exact_in_a_256_kb_arena(tmp_path, capsys):
    """The TFLM examples' MobileNetV2-224 (PyTorch's: an NCHW image and its TRANSPOSE; 702,464 B of arena on the M4
    whole-tensor, after its PADs are folded): `test --max-arena 262144` finds a grid of patches that fits by itself
    and runs bit-exact with TFLM on the emulated M4."""
    report = tmp_path / "t.json"
    code = main(["test", str(MODELS / "tflm_xtensa_mobilenet_v2_224.tflite"), "--board", "mps2-an386",
                 "--max-arena", "262144", "--samples", "1", "--json", str(report)])
    _, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(report.read_text())
    assert result["passed"] == 1 and result["failed"] == 0 and result["oracle"].startswith("TFLM")
    assert result["sizes"]["arena_bytes"] <= 262144


def test_person_detect_runs_bit_exact_in_a_quarter_of_tflms_arena(tmp_path, capsys):
    """person_detect within 0.25x TFLM's arena_used (82,292 B: 20,573 B; 30,644 B whole-tensor on the M4): the
    stage's output is written over its input behind the patches' reads, a later patch's intermediates lie in the
    input bytes no later patch reads (Buffer.holes), and the first patch is cut a row and a column short, the one
    that sits beside all of the input. Bit-exact with TFLM on the emulated M4."""
    report = tmp_path / "t.json"
    code = main(["test", str(MODELS / "tflm_person_detect.tflite"), "--board", "mps2-an386",
                 "--max-arena", "20573", "--samples", "1", "--json", str(report)])
    _, err = capsys.readouterr()
    assert code == 0, err
    assert "2x2 patches, the first 1 short" in err
    result = json.loads(report.read_text())
    assert result["passed"] == 1 and result["failed"] == 0 and result["oracle"].startswith("TFLM")
    assert result["sizes"]["arena_bytes"] <= 20573


def test_vww_runs_bit_exact_in_a_quarter_of_tflms_arena_reading_the_image_where_the_caller_keeps_it(tmp_path,
                                                                                                     capsys):
    """VWW within 0.25x TFLM's arena_used (100,660 B: 25,165 B), though its int8 image alone is 27,648 B: with
    --external-input the layers read the image where the application keeps it (a camera's buffer, flash), and
    the search runs its first layers in bands. Bit-exact with TFLM on the emulated M4."""
    report = tmp_path / "t.json"
    code = main(["test", str(MODELS / "mlperf_vww_mobilenet.tflite"), "--board", "mps2-an386", "--external-input",
                 "--max-arena", "25165", "--samples", "1", "--json", str(report)])
    _, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(report.read_text())
    assert result["passed"] == 1 and result["failed"] == 0 and result["oracle"].startswith("TFLM")
    assert result["sizes"]["arena_bytes"] <= 25165
