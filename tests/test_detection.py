"""TFLite_Detection_PostProcess (SSD detectors' post-processing, a custom op TFLM ships): bit-exact with
TFLM on the rows TFLM defines, the generated C equal to the golden model on the host and the emulated
cores; boxes across the image border, tied scores, both NMS flavours; what TFLM refuses is one line."""
from __future__ import annotations

import numpy as np
import pytest
from flatbuffers import flexbuffers

from conftest import OBJECT_CACHE, bit_exact_on_board
from mcugen.validation import golden
from mcugen.codegen.build import build_host
from mcugen.validation.oracle import Tflm
from mcugen.codegen.pipeline import compile_model
from mcugen.targets.target import Target
from mcugen.validation.validate import run_on_target
from test_cli import assert_one_error_line, run_cli
from tflite_writer import ModelSpec


def detector(boxes=24, classes=3, background=True, regular=False, max_detections=5, anchors=None,
             **overrides) -> ModelSpec:
    rng = np.random.default_rng(boxes + classes)
    m = ModelSpec()
    total = classes + int(background)
    encodings = m.tensor("encodings", [1, boxes, 4], "float32")
    scores = m.tensor("scores", [1, boxes, total], "float32")
    if anchors is None:  # centres on a grid that reaches past the image's edges, sizes from 0.1 to 0.6
        anchors = np.concatenate([rng.uniform(-0.1, 1.1, (boxes, 2)), rng.uniform(0.1, 0.6, (boxes, 2))], axis=1)
    anchor = m.const("anchors", np.asarray(anchors, np.float32), "float32")
    rows = max_detections
    outs = [m.tensor("boxes", [1, rows, 4], "float32"), m.tensor("classes", [1, rows], "float32"),
            m.tensor("detection_scores", [1, rows], "float32"), m.tensor("count", [1], "float32")]
    options = dict(max_detections=max_detections, max_classes_per_detection=1,
                   detections_per_class=4, use_regular_nms=regular, nms_score_threshold=0.25,
                   nms_iou_threshold=0.45, num_classes=classes, y_scale=10.0, x_scale=10.0, h_scale=5.0,
                   w_scale=5.0)
    options.update(overrides)
    m.op("CUSTOM", [encodings, scores, anchor], outs, custom="TFLite_Detection_PostProcess",
         custom_options=bytes(flexbuffers.Dumps(options)))
    m.inputs, m.outputs = [encodings, scores], outs
    return m


def inputs(m: ModelSpec, seed: int) -> list[np.ndarray]:
    """Encodings that move and stretch boxes; scores on a coarse grid, so that many tie."""
    rng = np.random.default_rng(seed)
    boxes, total = m.tensors[1]["shape"][1:]
    encodings = rng.normal(0, 4, (1, boxes, 4)).astype(np.float32)
    scores = (rng.integers(0, 8, (1, boxes, total)) / 8).astype(np.float32)
    return [encodings, scores]


def assert_equal_where_tflm_defines(m: ModelSpec, xs, ours):
    theirs = Tflm(m.build()).run(xs, 4)
    count = int(ours[3][0])
    assert count == int(theirs[3][0]) and count > 0
    for a, b in zip(ours[:3], theirs[:3]):  # TFLM's fast NMS leaves the rows past the count as they were
        assert a[:, :count].tobytes() == b[:, :count].tobytes()
    assert ours[3].tobytes() == theirs[3].tobytes()


@pytest.mark.parametrize("regular", [False, True])
@pytest.mark.parametrize("background", [True, False])
def test_detections_equal_tflm_and_the_c_on_the_host(tmp_path, regular, background):
    m = detector(background=background, regular=regular)
    path = tmp_path / "detector.tflite"
    path.write_bytes(m.build())
    g = compile_model(path)
    samples = [inputs(m, seed) for seed in range(3)]
    for xs in samples:
        assert_equal_where_tflm_defines(m, xs, golden.run(g, xs))
    program = build_host(g, tmp_path / "c", "detector.tflite", object_cache=OBJECT_CACHE).program
    _, results = run_on_target(Target.of("host"), program, g, samples)
    assert all(r.passed for r in results), [r.outputs for r in results]


@pytest.mark.parametrize("board", ["mps2-an386", "microbit"])
def test_detections_on_cores_with_and_without_an_fpu(tmp_path, board):
    bit_exact_on_board(tmp_path, detector(boxes=40, classes=4, regular=board == "microbit"), 3, samples=3,
                       board=board)


def test_what_tflm_refuses_is_one_line(tmp_path, capsys):
    anchors = np.tile([0.5, 0.5, 0.2, 0.0], (24, 1))
    for model, phrase in ((detector(nms_iou_threshold=1.5), "nms_iou_threshold must be in (0, 1]"),
                          (detector(anchors=anchors), "an anchor of no height or width"),
                          (detector(num_classes=1), "scores per box for 1 classes"),
                          (detector(num_classes=0, classes=1, background=False), "num_classes 0"),
                          (detector(num_classes=float("nan")), "no number"),
                          (detector(max_classes_per_detection=2), "max_classes_per_detection 2")):
        path = tmp_path / "bad.tflite"
        path.write_bytes(model.build())
        code, _, err = run_cli(capsys, "build", path, "--board", "host", "--out", tmp_path / "out")
        assert_one_error_line(code, err, phrase)
        assert not (tmp_path / "out").exists()
