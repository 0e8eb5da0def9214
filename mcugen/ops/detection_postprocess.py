"""TFLite_Detection_PostProcess (a custom op TFLM ships, SSD-style detectors): TFLM's
detection_postprocess.cc, float32 in and out, batch 1.

Inputs: box encodings [1, N, >= 4] (y, x, h, w relative to the anchors), class scores [1, N, C (+ 1
background)] and anchors [N, 4] (y, x, h, w). Options (the FlexBuffer map): max_detections,
max_classes_per_detection, detections_per_class (100), use_regular_nms (false), nms_score_threshold,
nms_iou_threshold, num_classes and the four scales, read as float32.

1. Decode, in double as TFLM: ycenter = y / y_scale * anchor_h + anchor_y, half_h = 0.5 * exp(h /
   h_scale) * anchor_h (likewise x and w), each rounded to float; the box is (ycenter - half_h,
   xcenter - half_w, ycenter + half_h, xcenter + half_w) in float. exp is the C library's in double:
   the golden model calls the host's (TFLM's own), a target its libm's; any exp within an ulp gives
   the same float unless the double lies within 2^-29 of halfway between two floats.
2. Non-max suppression of one class's scores: the boxes scoring at least the threshold, stably sorted
   by decreasing score; each in turn is selected while fewer than max are, and drops every later one
   whose intersection over union with it (in float, TFLM's order) passes the IoU threshold.
3. Fast (default): each anchor's best class (ties: the lower class), its score suppressed as one
   class; each selected anchor is a detection of that class. TFLM writes the c-th of an anchor's k best
   classes to row k * i + c, i counting every row written before (rows past its outputs for k > 1):
   mcugen refuses max_classes_per_detection > 1 there. Regular: each class suppressed on its own (at
   most detections_per_class), the running list of (anchor, class) kept to the max_detections best
   (ties: earlier in the list first).
Outputs: boxes [1, M, 4] (ymin, xmin, ymax, xmax), classes and scores [1, M], the count [1]. Rows past
the count: zeros (TFLM's regular path writes zeros; its fast path leaves them as they were).

Where TFLM's Invoke fails, mcugen refuses at build time what the model fixes (an anchor of no height
or width, thresholds TFLM rejects); a box decoded at run time to no height (an encoding below
-745 x h_scale) makes TFLM's Invoke fail, and mcugen's kernel report no detections. Scores that are
NaN have no defined order in TFLM's partial sort: mcugen sorts them last.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from mcugen.ir.graph import Graph, Op
from mcugen.ir.lowering import Call, Scratch, Slice, Struct, reads
from mcugen.ir.options import CustomOptions
from mcugen.ops import OpDef, Outputs, Shapes, register
from mcugen.ops._float import F32

OPCODE = "CUSTOM:TFLite_Detection_PostProcess"
OPTIONS = ("max_detections", "max_classes_per_detection", "nms_score_threshold", "nms_iou_threshold",
           "num_classes", "y_scale", "x_scale", "h_scale", "w_scale")


@dataclass(frozen=True)
class Detection:
    max_detections: int
    classes_per_detection: int  # fast NMS: min(max_classes_per_detection, num_classes), 1 where mcugen runs it
    detections_per_class: int  # regular NMS
    regular: bool
    score_threshold: float  # as float32
    iou_threshold: float
    num_classes: int
    label_offset: int  # 1 where the scores hold a background class first
    scales: tuple[float, float, float, float]  # y, x, h, w as float32



def _options(op: Op) -> dict[str, Any]:
    return dict(op.options_as(CustomOptions).values)


@register(OPCODE)
class DetectionPostProcess(OpDef):
    arity = ((3, 3), (4, 4))
    input_types = output_types = ("float32",)

    def check(self, g: Graph, op: Op) -> list[str]:
        o = _options(op)
        missing = [k for k in OPTIONS if k not in o]
        if missing:
            return [f"its options lack {', '.join(missing)} (TFLM reads them all)"]
        if len(op.inputs) != 3 or len(op.outputs) != 4 or min(op.inputs) < 0 or min(op.outputs) < 0:
            return ["TFLM's kernel takes three inputs and four outputs"]
        boxes, scores, anchors = (op.input(g, k) for k in range(3))
        problems = []
        if len(boxes.shape) != 3 or len(scores.shape) != 3 or len(anchors.shape) != 2:
            return ["box encodings and scores must be 3-D, anchors 2-D (TFLM checks)"]
        n = boxes.shape[1]
        if boxes.shape[0] != 1 or scores.shape[0] != 1 or boxes.shape[2] < 4 or scores.shape[1] != n \
                or anchors.shape != (n, 4):
            problems.append(f"box encodings {list(boxes.shape)}, scores {list(scores.shape)} and anchors "
                            f"{list(anchors.shape)} are not [1, N, >= 4], [1, N, classes] and [N, 4]")
        try:
            p = self._detection(g, op)
        except (TypeError, ValueError, OverflowError):
            return [f"its options hold a value that is no number: {', '.join(f'{k}={o[k]!r}' for k in OPTIONS)}"]
        if p.num_classes < 1:
            problems.append(f"num_classes {p.num_classes}: TFLM's NMS reads a best class of none (undefined)")
        elif not 0 <= scores.shape[2] - p.num_classes <= 1:
            problems.append(f"{scores.shape[2]} scores per box for {p.num_classes} classes (TFLM takes the classes "
                            "and at most one background class)")
        if not 0.0 < p.iou_threshold <= 1.0 or p.max_detections < 0:
            problems.append("nms_iou_threshold must be in (0, 1] and max_detections at least 0 (TFLM's NMS fails)")
        if (p.detections_per_class if p.regular else int(o["max_classes_per_detection"])) <= 0:
            problems.append("detections_per_class (regular NMS) or max_classes_per_detection must be positive, as "
                            "TFLM's NMS requires")
        elif not p.regular and p.classes_per_detection > 1:
            problems.append(f"fast NMS with max_classes_per_detection {o['max_classes_per_detection']}: TFLM writes "
                            "an anchor's c-th class to row k * i + c, i counting all rows before, past its "
                            "outputs (undefined); give 1, or use_regular_nms")
        if anchors.is_const and anchors.values.shape == (n, 4) and not np.all(anchors.values[:, 2:] > 0):
            problems.append("an anchor of no height or width: every box decodes empty, and TFLM's Invoke fails")
        sizes = [math.prod(op.output(g, k).shape) for k in range(4)]
        needed = [p.max_detections * 4, p.max_detections, p.max_detections, 1]
        if any(have < need for have, need in zip(sizes, needed)):
            problems.append(f"outputs of {sizes} values; TFLM writes up to {needed} (boxes, classes, scores, count)")
        return problems

    def _detection(self, g: Graph, op: Op) -> Detection:
        o = _options(op)
        regular = bool(o.get("use_regular_nms", False))
        num_classes = int(o["num_classes"])
        return Detection(int(o["max_detections"]), min(int(o["max_classes_per_detection"]), num_classes),
                         int(o.get("detections_per_class", 100)), regular, float(F32(o["nms_score_threshold"])),
                         float(F32(o["nms_iou_threshold"])), num_classes,
                         op.input(g, 1).shape[2] - num_classes,
                         (float(F32(o["y_scale"])), float(F32(o["x_scale"])), float(F32(o["h_scale"])),
                          float(F32(o["w_scale"]))))

    def output_shape(self, g: Graph, op: Op) -> Shapes:
        return None  # TFLM never checks them against the options: check() holds them to what it writes

    def prepare(self, g: Graph, op: Op) -> object:
        return self._detection(g, op)

    def run(self, g: Graph, op: Op, xs: list[np.ndarray]) -> Outputs:
        p = op.prepared(Detection)
        boxes = decode(p, xs[0][0, :, :4], xs[2])
        scores = xs[1][0]
        rows = p.max_detections
        out_boxes, classes, out_scores = np.zeros((rows, 4), F32), np.zeros(rows, F32), np.zeros(rows, F32)
        found: list[tuple[int, int, float]] = []  # (anchor, class, score) in output order
        if boxes is not None:
            found = regular_nms(p, boxes, scores) if p.regular else fast_nms(p, boxes, scores)
        for row, (anchor, cls, score) in enumerate(found):
            assert boxes is not None  # found is empty otherwise
            out_boxes[row], classes[row], out_scores[row] = boxes[anchor], cls, score
        outs = []
        for k, values in enumerate((out_boxes, classes, out_scores, np.array([len(found)], F32))):
            y = np.zeros(op.output(g, k).shape, F32)
            y.reshape(-1)[:values.size] = values.reshape(-1)
            outs.append(y)
        return outs

    def lower(self, g: Graph, op: Op) -> Call | None:
        p = op.prepared(Detection)
        n, classes_with_background = op.input(g, 1).shape[1:]
        params = Struct("mcu_detection_params", "params", dict(
            boxes=n, encoding_size=op.input(g, 0).shape[2], classes_with_background=classes_with_background,
            num_classes=p.num_classes, max_detections=p.max_detections,
            detections_per_class=p.detections_per_class,
            regular=int(p.regular), score_threshold=p.score_threshold, iou_threshold=p.iou_threshold,
            scales=dict(zip("yxhw", p.scales)),
            output_sizes=[math.prod(op.output(g, k).shape) for k in range(4)]))
        return Call("mcu_detection_postprocess_f32", (
            params, reads(op, 0), reads(op, 1), reads(op, 2),
            *(Slice((op.outputs[k],), writable=True) for k in range(4)),
            Scratch(scratch_bytes(p, n), ctype="uint8_t")),
            note=f"{'regular' if p.regular else 'fast'} NMS of {n} boxes, {p.num_classes} classes, "
                 f"at most {p.max_detections} detections")


def scratch_bytes(p: Detection, boxes: int) -> int:
    """mcu_detection_postprocess_f32's working memory (its file says how it is cut): ten words a box,
    six per entry of regular NMS's running list or one a box (fast NMS: each anchor's best class), and
    a byte a box."""
    listed = 6 * (boxes + p.max_detections) if p.regular else boxes
    return 4 * (10 * boxes + listed) + boxes


def decode(p: Detection, encodings: np.ndarray, anchors: np.ndarray) -> np.ndarray | None:
    """[N, 4] boxes (ymin, xmin, ymax, xmax) in float32; None where one has no height or width (TFLM's
    NMS then fails)."""
    e, a = encodings.astype(np.float64), anchors.astype(np.float64)
    sy, sx, sh, sw = p.scales
    with np.errstate(all="ignore"):
        ycenter = (e[:, 0] / sy * a[:, 2] + a[:, 0]).astype(F32)
        xcenter = (e[:, 1] / sx * a[:, 3] + a[:, 1]).astype(F32)
        exp_h, exp_w = np.array([_exp(v) for v in (e[:, 2] / sh).tolist()]), np.array([_exp(v) for v in (e[:, 3] / sw).tolist()])
        half_h, half_w = (0.5 * exp_h * a[:, 2]).astype(F32), (0.5 * exp_w * a[:, 3]).astype(F32)
        boxes = np.stack([ycenter - half_h, xcenter - half_w, ycenter + half_h, xcenter + half_w], axis=1)
    if np.any((boxes[:, 0] >= boxes[:, 2]) | (boxes[:, 1] >= boxes[:, 3])):
        return None
    return boxes.astype(F32)


def _exp(x: float) -> float:
    """The host's exp in double, as TFLM's std::exp (numpy's may take another route)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _iou(boxes: np.ndarray, i: int, others: np.ndarray) -> np.ndarray:
    """TFLM's ComputeIntersectionOverUnion of box i with each of `others`, in float32."""
    bi, bj = boxes[i], boxes[others]
    with np.errstate(all="ignore"):
        area_i = (bi[2] - bi[0]) * (bi[3] - bi[1])
        area_j = (bj[:, 2] - bj[:, 0]) * (bj[:, 3] - bj[:, 1])
        ymin = np.where(bi[0] < bj[:, 0], bj[:, 0], bi[0])  # std::max
        xmin = np.where(bi[1] < bj[:, 1], bj[:, 1], bi[1])
        ymax = np.where(bj[:, 2] < bi[2], bj[:, 2], bi[2])  # std::min
        xmax = np.where(bj[:, 3] < bi[3], bj[:, 3], bi[3])
        dy, dx = ymax - ymin, xmax - xmin
        inter = np.where(dy < 0, F32(0), dy) * np.where(dx < 0, F32(0), dx)
        iou = inter / (area_i + area_j - inter)
    return np.where((area_i <= 0) | (area_j <= 0), F32(0), iou).astype(F32)


def suppress(p: Detection, boxes: np.ndarray, scores: np.ndarray, most: int) -> list[int]:
    """TFLM's NonMaxSuppressionSingleClassHelper: the anchors selected, best first."""
    kept = [i for i in range(len(scores)) if scores[i] >= F32(p.score_threshold)]
    order = sorted(kept, key=lambda i: -float(scores[i]))  # stable: equal scores keep anchor order
    active = np.ones(len(order), bool)
    selected: list[int] = []
    limit = min(len(kept), most)
    for k, anchor in enumerate(order):
        if not active.any() or len(selected) >= limit:
            break
        if not active[k]:
            continue
        selected.append(anchor)
        active[k] = False
        later = np.nonzero(active[k + 1:])[0] + k + 1
        if len(later):
            drop = _iou(boxes, anchor, np.array([order[j] for j in later])) > F32(p.iou_threshold)
            active[later[drop]] = False
    return selected


def _best_first(values: np.ndarray, count: int) -> list[int]:
    """TFLM's DecreasingPartialArgSort: the `count` best positions, ties to the lower position (NaN last)."""
    key = [(-float(v) if v == v else math.inf, k) for k, v in enumerate(values)]
    return [k for _, k in sorted(key)[:count]]


def fast_nms(p: Detection, boxes: np.ndarray, scores: np.ndarray) -> list[tuple[int, int, float]]:
    per_anchor = scores[:, p.label_offset:p.label_offset + p.num_classes]
    best = [_best_first(row, 1)[0] for row in per_anchor]
    maxima = np.array([row[b] for row, b in zip(per_anchor, best)], F32)
    return [(a, best[a], float(maxima[a])) for a in suppress(p, boxes, maxima, p.max_detections)]


def regular_nms(p: Detection, boxes: np.ndarray, scores: np.ndarray) -> list[tuple[int, int, float]]:
    found: list[tuple[int, int, float]] = []
    for c in range(p.num_classes):
        column = scores[:, c + p.label_offset]
        found = found + [(a, c, float(column[a])) for a in suppress(p, boxes, column, p.detections_per_class)]
        found = [found[k] for k in _best_first(np.array([s for *_, s in found], F32),
                                               min(len(found), p.max_detections))]
    return found
