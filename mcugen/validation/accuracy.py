"""Accuracy on labelled data, as `stedgeai validate` reports it: top-1 accuracy of the target's
outputs and of the golden model's, a confusion matrix, and per output ACC / RMSE / MAE / L2r / COS.

Metrics are taken on real values (scale * (q - zero_point), float outputs as they are):
  ACC   share of samples whose top-1 class agrees (with the labels, or with the golden model)
  RMSE  sqrt(mean((y - r)^2))        MAE  mean(|y - r|)
  L2r   ||y - r|| / ||r||  (relative L2 error)
  COS   y.r / (||y|| ||r||)
r is the golden model's output, or the one-hot labels for the labelled output.

With a reference model (`test --reference`, the float model the quantized one came from), each
output is also measured against the reference's real outputs on the same inputs, and the
reference's own top-1 against the labels.

Each sample is judged on its own (`judge`: its top-1 classes and the sums the metrics need), and the
summary is computed from those per-sample records with exactly rounded sums (math.fsum), so it does
not depend on the order or grouping of the samples: the shards of a run, merged, give the very
numbers the single run gives.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir.graph import Graph


def load_labels(path: Path, samples: int, classes: int) -> np.ndarray:
    """Class indices, one per sample: a .npy (or one-array .npz) of integers [N] / [N, 1], or of
    one-hot / probability rows [N, classes] (their argmax)."""
    fix = f"give one class index in [0, {classes}) per sample, or [samples, {classes}] one-hot rows, as .npy"
    try:
        data = np.load(path, allow_pickle=False)
        if isinstance(data, np.lib.npyio.NpzFile):
            if len(data.files) != 1:
                raise McugenError(f"--labels {path} holds {len(data.files)} arrays ({', '.join(data.files)})", fix)
            data = data[data.files[0]]
    except FileNotFoundError:
        raise McugenError(f"--labels {path} does not exist", fix) from None
    except (OSError, ValueError) as exc:
        raise McugenError(f"--labels {path} is not a .npy/.npz array ({exc})", fix) from None
    if data.ndim == 2 and data.shape[1] == classes and classes > 1:
        data = np.argmax(data, axis=1)
    elif data.ndim == 2 and data.shape[1] == 1:
        data = data[:, 0]
    if data.ndim != 1:
        raise McugenError(f"--labels {path} has shape {list(data.shape)}", fix)
    if len(data) != samples:
        raise McugenError(f"--labels {path} has {len(data)} labels for {samples} samples", fix)
    if data.dtype.kind == "f":
        if not np.all(np.isfinite(data)) or not np.all(data == np.round(data)):
            raise McugenError(f"--labels {path} holds values that are not class indices", fix)
    elif data.dtype.kind not in "iub":
        raise McugenError(f"--labels {path} holds {data.dtype} values", fix)
    labels = data.astype(np.int64)
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise McugenError(f"--labels {path} holds class {int(labels.min() if labels.min() < 0 else labels.max())}, "
                          f"outside the model's {classes} classes", fix)
    return labels


def classes_of(g: Graph) -> int:
    """Classes of output 0, the one labels refer to: the size of its last axis."""
    shape = g.tensors[g.outputs[0]].shape
    return int(shape[-1]) if shape else 1


def _real(g: Graph, t: int, values: np.ndarray) -> np.ndarray:
    tensor = g.tensors[t]
    v = values.astype(np.float64).reshape(-1)
    if tensor.dtype != "float32" and tensor.quant is not None:
        v = tensor.quant.s * (v - tensor.quant.zp)
    return v


def _sums(y: np.ndarray, r: np.ndarray) -> dict:
    """What the metrics need of one sample, y and r its real values."""
    with np.errstate(invalid="ignore", over="ignore"):  # float outputs may hold infinities and NaNs
        d = y - r
        return dict(n=int(y.size), sq=math.fsum(d * d), abs=math.fsum(np.abs(d)), yy=math.fsum(y * y),
                    rr=math.fsum(r * r), yr=math.fsum(y * r))


def _top1(v: np.ndarray, classes: int) -> int:
    return int(np.argmax(v[:classes]))


def judge(g: Graph, values: list[np.ndarray], expected: list[np.ndarray], label: int | None) -> dict:
    """One sample's record: per output the sums and whether the top-1 classes agree; with a label,
    the target's and the golden model's top-1 class of output 0 and the sums against its one-hot."""
    outputs = [_compared(g, t, _real(g, t, got), _real(g, t, want)) for t, got, want in zip(g.outputs, values, expected)]
    record: dict[str, object] = dict(metrics=outputs)
    if label is not None:
        classes = classes_of(g)
        y = _real(g, g.outputs[0], values[0])[:classes]
        record.update(label=int(label), top1=_top1(y, classes), golden_top1=_top1(expected[0].reshape(-1), classes),
                      vs_label=_sums(y, np.eye(classes)[label]))
    return record


def _compared(g: Graph, t: int, y: np.ndarray, r: np.ndarray) -> dict:
    """Output t's sums (y the target's real values, r the reference's) and whether their top-1 classes agree."""
    width = int(g.tensors[t].shape[-1]) if g.tensors[t].shape else 1
    return dict(_sums(y, r), agree=bool(width <= 1 or _top1(y, width) == _top1(r, width)))


def versus_reference(g: Graph, values: list[np.ndarray], reference: list[np.ndarray], label: int | None) -> dict:
    """One sample's record against the reference model's real outputs (`reference`, one per output of g)."""
    outputs = [_compared(g, t, _real(g, t, got), np.asarray(want, dtype=np.float64).reshape(-1))
               for t, got, want in zip(g.outputs, values, reference)]
    record: dict[str, object] = dict(metrics=outputs)
    if label is not None:
        record["top1"] = _top1(np.asarray(reference[0], dtype=np.float64).reshape(-1), classes_of(g))
    return record


def _metrics(records: list[dict], agree: list[bool]) -> dict:
    total = {k: math.fsum(r[k] for r in records) for k in ("n", "sq", "abs", "yy", "rr", "yr")}
    n, norm = total["n"], math.sqrt(total["yy"]) * math.sqrt(total["rr"])
    return dict(acc=sum(agree) / len(agree), rmse=math.sqrt(total["sq"] / n) if n else 0.0,
                mae=total["abs"] / n if n else 0.0,
                l2r=math.sqrt(total["sq"]) / math.sqrt(total["rr"]) if total["rr"] else float(total["sq"] > 0),
                cos=total["yr"] / norm if norm else float(total["sq"] == 0))


def output_metrics(judged: list[dict], names: list[str]) -> list[dict]:
    """Per output: the target's outputs against the golden model's."""
    return [dict(output=k, name=name, reference="golden",
                 **_metrics([j["metrics"][k] for j in judged], [j["metrics"][k]["agree"] for j in judged]))
            for k, name in enumerate(names)]


def reference_summary(judged: list[dict], names: list[str], model: dict | None) -> dict | None:
    """The target against the reference model (`model`: its name and sha256), per output, and the
    reference's own top-1 accuracy where the samples are labelled; None without a reference."""
    if model is None or not judged or "reference" not in judged[0]:
        return None
    records = [j["reference"] for j in judged]
    labelled = "label" in judged[0]
    return dict(model, top1=sum(r["top1"] == j["label"] for r, j in zip(records, judged)) / len(judged)
                if labelled else None,
                metrics=[dict(output=k, name=name, reference="float model",
                              **_metrics([r["metrics"][k] for r in records], [r["metrics"][k]["agree"] for r in records]))
                         for k, name in enumerate(names)])


def per_class(confusion: np.ndarray) -> list[dict]:
    """Precision, recall and F1 of each class (rows: label, columns: prediction); None where undefined."""
    out = []
    for c in range(len(confusion)):
        hit, predicted, support = int(confusion[c, c]), int(confusion[:, c].sum()), int(confusion[c].sum())
        precision = hit / predicted if predicted else None
        recall = hit / support if support else None
        f1 = None
        if precision is not None and recall is not None:
            f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out.append(dict(precision=precision, recall=recall, f1=f1, support=support))
    return out


def accuracy(judged: list[dict], classes: int) -> dict | None:
    """Top-1 accuracy, the confusion matrix and each class's precision/recall/F1 of labelled samples (None
    without labels)."""
    if not judged or "label" not in judged[0]:
        return None
    labels = [j["label"] for j in judged]
    confusion = np.zeros((classes, classes), dtype=np.int64)
    np.add.at(confusion, (labels, [j["top1"] for j in judged]), 1)
    n = len(judged)
    return dict(output=0, classes=classes, samples=n,
                top1_target=sum(j["top1"] == j["label"] for j in judged) / n,
                top1_golden=sum(j["golden_top1"] == j["label"] for j in judged) / n,
                confusion=confusion.tolist(), per_class=per_class(confusion),
                vs_labels=_metrics([j["vs_label"] for j in judged], [j["top1"] == j["label"] for j in judged]))


def format_accuracy(acc: dict | None, metrics: list[dict], reference: dict | None = None) -> str:
    lines = []
    if acc:
        n = acc["samples"]
        float_model = (f", float model ({reference['model']}) {reference['top1']:.2%}"
                       if reference and reference["top1"] is not None else "")
        lines.append(f"top-1 accuracy on {n} labelled sample(s): target {acc['top1_target']:.2%} "
                     f"({round(acc['top1_target'] * n)}/{n}), golden model {acc['top1_golden']:.2%}{float_model}")
        if acc["classes"] <= 20:
            c = acc["classes"]
            lines.append("confusion matrix (rows: label, columns: target's top-1):")
            lines.append("       " + "".join(f"{j:>6}" for j in range(c)))
            lines += [f"  {i:>4} " + "".join(f"{v:>6}" for v in row) for i, row in enumerate(acc["confusion"])]
            lines.append(f"per class: {'precision':>9}  {'recall':>9}  {'F1':>9}  {'samples':>7}")
            lines += [f"  {i:>4}     {_share(m['precision'])}  {_share(m['recall'])}  {_share(m['f1'])}  {m['support']:>7}"
                      for i, m in enumerate(acc["per_class"])]
        m = acc["vs_labels"]
        lines.append(f"output 0 vs labels (one-hot): ACC {m['acc']:.2%}  RMSE {m['rmse']:.4g}  MAE {m['mae']:.4g}  "
                     f"L2r {m['l2r']:.4g}  COS {m['cos']:.6f}")
    for m in (reference or {}).get("metrics", []):
        lines.append(f"output {m['output']} vs float model: top-1 agreement {m['acc']:.2%}  RMSE {m['rmse']:.4g}  "
                     f"MAE {m['mae']:.4g}  L2r {m['l2r']:.4g}  COS {m['cos']:.6f}")
    for m in metrics:
        lines.append(f"output {m['output']} vs golden model: ACC {m['acc']:.2%}  RMSE {m['rmse']:.4g}  "
                     f"MAE {m['mae']:.4g}  L2r {m['l2r']:.4g}  COS {m['cos']:.6f}")
    return "\n".join(lines)


def _share(value: float | None) -> str:
    return f"{'-':>9}" if value is None else f"{value:>9.2%}"
