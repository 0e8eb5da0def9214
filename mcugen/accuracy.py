"""Accuracy on labelled data, as `stedgeai validate` reports it: top-1 accuracy of the target's
outputs and of the golden model's, a confusion matrix, and per output ACC / RMSE / MAE / L2r / COS.

Metrics are taken on real values (scale * (q - zero_point), float outputs as they are):
  ACC   share of samples whose top-1 class agrees (with the labels, or with the golden model)
  RMSE  sqrt(mean((y - r)^2))        MAE  mean(|y - r|)
  L2r   ||y - r|| / ||r||  (relative L2 error)
  COS   y.r / (||y|| ||r||)
r is the golden model's output, or the one-hot labels for the labelled output.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from mcugen.errors import McugenError
from mcugen.ir import Graph


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
    v = values.astype(np.float64)
    if tensor.dtype != "float32" and tensor.quant is not None:
        v = tensor.quant.s * (v - tensor.quant.zp)
    return v


def _metrics(y: np.ndarray, r: np.ndarray) -> dict:
    """y, r: [samples, values] real numbers."""
    d = y - r
    norm_r, norm_y = np.linalg.norm(r), np.linalg.norm(y)
    agree = np.argmax(y, axis=1) == np.argmax(r, axis=1) if y.shape[1] > 1 else np.ones(len(y), bool)
    return dict(acc=float(agree.mean()), rmse=float(np.sqrt(np.mean(d ** 2))), mae=float(np.mean(np.abs(d))),
                l2r=float(np.linalg.norm(d) / norm_r) if norm_r else float(np.linalg.norm(d) > 0),
                cos=float((y * r).sum() / (norm_y * norm_r)) if norm_y * norm_r else float(np.array_equal(y, r)))


def output_metrics(g: Graph, results) -> list[dict]:
    """Per output: the target's outputs against the golden model's."""
    rows = []
    for k, t in enumerate(g.outputs):
        y = np.stack([_real(g, t, r.values[k]).reshape(-1) for r in results])
        ref = np.stack([_real(g, t, r.expected[k]).reshape(-1) for r in results])
        rows.append(dict(output=k, name=g.tensors[t].name, reference="golden", **_metrics(y, ref)))
    return rows


def accuracy(g: Graph, results, labels: np.ndarray) -> dict:
    classes = classes_of(g)
    t = g.outputs[0]
    target = np.array([int(np.argmax(r.values[0].reshape(-1, classes)[0])) for r in results])
    golden = np.array([int(np.argmax(r.expected[0].reshape(-1, classes)[0])) for r in results])
    confusion = np.zeros((classes, classes), dtype=np.int64)
    np.add.at(confusion, (labels, target), 1)
    y = np.stack([_real(g, t, r.values[0]).reshape(-1)[:classes] for r in results])
    one_hot = np.eye(classes)[labels]
    return dict(output=0, classes=classes, samples=len(labels),
                top1_target=float(np.mean(target == labels)), top1_golden=float(np.mean(golden == labels)),
                confusion=confusion.tolist(), vs_labels=_metrics(y, one_hot))


def format_accuracy(acc: dict | None, metrics: list[dict]) -> str:
    lines = []
    if acc:
        n = acc["samples"]
        lines.append(f"top-1 accuracy on {n} labelled sample(s): target {acc['top1_target']:.2%} "
                     f"({round(acc['top1_target'] * n)}/{n}), golden model {acc['top1_golden']:.2%}")
        if acc["classes"] <= 20:
            c = acc["classes"]
            lines.append("confusion matrix (rows: label, columns: target's top-1):")
            lines.append("       " + "".join(f"{j:>6}" for j in range(c)))
            lines += [f"  {i:>4} " + "".join(f"{v:>6}" for v in row) for i, row in enumerate(acc["confusion"])]
        m = acc["vs_labels"]
        lines.append(f"output 0 vs labels (one-hot): ACC {m['acc']:.2%}  RMSE {m['rmse']:.4g}  MAE {m['mae']:.4g}  "
                     f"L2r {m['l2r']:.4g}  COS {m['cos']:.6f}")
    for m in metrics:
        lines.append(f"output {m['output']} vs golden model: ACC {m['acc']:.2%}  RMSE {m['rmse']:.4g}  "
                     f"MAE {m['mae']:.4g}  L2r {m['l2r']:.4g}  COS {m['cos']:.6f}")
    return "\n".join(lines)
