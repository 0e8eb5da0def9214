"""Input data for `run`, `compare` and `test`, read lazily, and the slices of it that shards and jobs take.

A data file is checked whole before any work (keys, dtypes, shapes) but its values are read only when a
sample is asked for: a .npy is memory-mapped, and so is every member of an .npz that numpy.savez stored
uncompressed; a compressed member (numpy.savez_compressed) cannot be mapped and is read when first used.
So 10,000 images cost the memory of the samples in flight, not of the file.

Slices: a run's samples are split into contiguous ranges (`--shard K/N` takes the K-th of N, `--jobs`
splits a run among targets). A stateful model's steps depend on the ones before, so its ranges start
only where the state is reset anyway (every `--reset-every` steps) and each range starts from a reset:
every slice then computes what the single run computes.
"""
from __future__ import annotations

import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mcugen.validation import golden
from mcugen.errors import McugenError
from mcugen.ir.graph import Graph, Tensor


def _npz_members(path: Path) -> dict[str, np.ndarray]:
    """Each member of an .npz, memory-mapped where it is stored uncompressed."""
    arrays = {}
    with zipfile.ZipFile(path) as archive, open(path, "rb") as raw:
        for info in archive.infolist():
            key = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                with np.load(path, allow_pickle=False) as data:
                    arrays[key] = data[key]
                continue
            # the member's data start after its local header (30 bytes, name, extra field)
            raw.seek(info.header_offset + 26)
            name_len, extra_len = np.frombuffer(raw.read(4), dtype="<u2")
            raw.seek(info.header_offset + 30 + int(name_len) + int(extra_len))
            read_header = {(1, 0): np.lib.format.read_array_header_1_0,
                           (2, 0): np.lib.format.read_array_header_2_0}.get(np.lib.format.read_magic(raw))
            if read_header is None:  # a format numpy writes only for exotic dtypes: read it whole
                with np.load(path, allow_pickle=False) as data:
                    arrays[key] = data[key]
                continue
            shape, fortran, dtype = read_header(raw)
            if dtype.hasobject:
                raise ValueError(f"member {key} holds Python objects")
            arrays[key] = np.memmap(path, dtype=dtype, mode="r", offset=raw.tell(), shape=shape,
                                    order="F" if fortran else "C") if int(np.prod(shape)) else np.zeros(shape, dtype)
    return arrays


def _arrays(path: Path) -> dict[str, np.ndarray]:
    if zipfile.is_zipfile(path):
        return _npz_members(path)
    return {"input_0": np.load(path, mmap_mode="r", allow_pickle=False)}


class Samples(Sequence):
    """Samples as lists of arrays (one per model input), read only when indexed. `quantized`: for each
    input given float values where the model takes integers, its (scale, zero point, dtype): each sample
    is quantized as TFLM's QUANTIZE would, when read."""

    def __init__(self, per_input: list[np.ndarray], stacked: bool,
                 quantized: dict[int, tuple[float, int, str]] | None = None):
        self.per_input, self.stacked, self.quantized = per_input, stacked, quantized or {}

    def __len__(self) -> int:
        return len(self.per_input[0])

    def __getitem__(self, s):
        if isinstance(s, slice):
            return [self[k] for k in range(*s.indices(len(self)))]
        if not -len(self) <= s < len(self):
            raise IndexError(s)
        from mcugen.ops.quantize import affine_quantize

        return [affine_quantize(a[s], *self.quantized[k]) if k in self.quantized else np.array(a[s])
                for k, a in enumerate(self.per_input)]


def _advice(t: Tensor, wrong_type: bool) -> str:
    if wrong_type:
        return f"save the input as {t.dtype} (or float values, which mcugen quantizes)"
    return f"give each sample the shape {list(t.shape)}"


def load_samples(g: Graph, path: Path) -> Samples:
    """Samples for `run`, `compare` and `test`, from one file, checked before any work is done:
    - an .npz with one array per model input, named input_0, input_1, … or by the input's tensor
      name (every array must name an input);
    - or, for a one-input model, an .npy.
    Each array is shaped like its input, or has a leading sample axis ([N, *shape]), or, for a
    batch-1 input, holds N samples along the batch ([N, *shape[1:]]). `stacked`: whether the file
    had a sample axis."""
    fix = "save inputs with numpy.savez(path, input_0=array, …)" + (
        " or numpy.save for this one-input model" if len(g.inputs) == 1 else "")
    try:
        arrays = _arrays(path)
    except FileNotFoundError:
        raise McugenError(f"{path}: no such file", "check the path of the input data") from None
    except IsADirectoryError:
        raise McugenError(f"{path}: is a directory", "pass the .npz or .npy file itself") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise McugenError(f"{path}: cannot read as .npz or .npy ({exc})", fix) from None
    if not zipfile.is_zipfile(path) and len(g.inputs) != 1:
        raise McugenError(f"{path}: one array for a model with {len(g.inputs)} inputs", fix)
    names = {g.tensors[idx].name: k for k, idx in enumerate(g.inputs)}
    for k in range(len(g.inputs)):
        if names.setdefault(f"input_{k}", k) != k and f"input_{k}" in arrays:
            # Keras names its inputs input_1, input_2, …: the key could mean either input
            raise McugenError(f"{path}: 'input_{k}' is both input {k} and the name of input {names[f'input_{k}']}",
                              "key the arrays by input name only")
    unknown = sorted(set(arrays) - set(names))
    if unknown:
        raise McugenError(f"{path}: array '{unknown[0]}' names no input of the model",
                          f"name arrays input_0 … input_{len(g.inputs) - 1} or by input name")
    per_input, stacked, quantized = [], False, {}
    for k, idx in enumerate(g.inputs):
        t = g.tensors[idx]
        keys = [key for key in arrays if names[key] == k]
        if len(keys) != 1:
            raise McugenError(f"{path}: {'no array' if not keys else 'two arrays'} for input {k} ('{t.name}')", fix)
        given = arrays[keys[0]]
        if given.dtype.kind == "f" and t.dtype in ("int8", "uint8", "int16") and t.quant is not None:
            quantized[k] = (float(t.q.s), t.q.zp, t.dtype)  # float data for a quantized input: as QUANTIZE would
        if given.dtype != np.dtype(t.dtype) and k not in quantized:
            a = None
        elif tuple(given.shape) == t.shape:
            a = given[None]
        elif tuple(given.shape[1:]) == t.shape:
            a, stacked = given, True
        elif t.shape and t.shape[0] == 1 and given.ndim == len(t.shape) and tuple(given.shape[1:]) == t.shape[1:]:
            a, stacked = given[:, None], True
        else:
            a = None
        if a is None or len(a) == 0:
            raise McugenError(f"{path}: '{keys[0]}' is {golden.describe(str(given.dtype), given.shape)}, input {k} "
                              f"needs {golden.describe(t.dtype, t.shape)} or [N, …] of it (N >= 1)",
                              _advice(t, given.dtype != np.dtype(t.dtype) and k not in quantized))
        per_input.append(a)
    count = {len(a) for a in per_input}
    if len(count) != 1:
        raise McugenError(f"{path}: inputs have different sample counts {sorted(count)}",
                          "give every input the same number of samples")
    return Samples(per_input, stacked, quantized)


def parse_shard(text: str) -> tuple[int, int]:
    """'K/N' (1 <= K <= N) as (K, N)."""
    try:
        k, n = (int(part) for part in text.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        raise ValueError(f"{text!r} is not K/N with 1 <= K <= N (e.g. 2/4: the second of four slices)")
    return k, n


def slices(samples: range, parts: int, reset_every: int | None, stateful: bool) -> list[range]:
    """`samples` cut into `parts` contiguous ranges as even as the model allows (some may be empty).
    A stateful model's cuts fall on multiples of reset_every (none without it: one range)."""
    if stateful and not reset_every:
        return [samples] + [range(samples.stop, samples.stop)] * (parts - 1)
    step = reset_every if stateful and reset_every else 1
    blocks = -(-len(samples) // step)
    edges = [samples.start + min(len(samples), step * (blocks * p // parts)) for p in range(parts + 1)]
    return [range(a, b) for a, b in zip(edges, edges[1:])]


def require_independent(g: Graph, reset_every: int | None, what: str) -> None:
    """Slicing a stateful model's steps changes what each step sees unless the state is reset at the cuts."""
    if g.variables and not reset_every:
        raise McugenError(f"{what} splits the samples, and this model keeps state from one step to the next",
                          "pass --reset-every K so that every K steps form an independent sequence")
