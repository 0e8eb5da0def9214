"""Randomized one-op models, data movement: the copies, PAD, CONCATENATION / PACK / SPLIT, GATHER, the resizes,
space/batch/depth rearrangements; raw values whatever the quantization."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcugen.errors import McugenError
from single_op import DTYPES, ORACLES, ZP, ZP16, check, io, scale
from tflite_writer import ModelSpec


@given(st.sampled_from(["SPACE_TO_BATCH_ND", "BATCH_TO_SPACE_ND"]), st.booleans(), st.integers(1, 2),
       st.lists(st.integers(1, 4), min_size=2, max_size=2), st.integers(1, 3), st.integers(1, 3), st.data(),
       scale(), ZP, st.integers(0, 99))
def test_space_batch(tmp_path_factory, opcode, three_d, n, blocks, h, c, data, s, z, seed):
    spatial = 1 if three_d else 2
    block = blocks[:spatial]
    small = [data.draw(st.integers(1, 3)) for _ in block]  # the batched side's height (and width)
    edges = []
    for b, k in zip(block, small):
        total = data.draw(st.integers(0, b * k - 1))  # padding (or crop) summed over both ends
        before = data.draw(st.integers(0, total))
        edges.append([before, total - before])
    space = [n] + [b * k - sum(e) for b, k, e in zip(block, small, edges)] + [c]
    batched = [n * int(np.prod(block))] + small + [c]
    m = ModelSpec()
    shapes = (space, batched) if opcode == "SPACE_TO_BATCH_ND" else (batched, space)
    x, y = io(m, *shapes, (s, z), (s, z))
    options = "SpaceToBatchNDOptions" if opcode == "SPACE_TO_BATCH_ND" else "BatchToSpaceNDOptions"
    m.op(opcode, [x, m.const("block", block, "int32"), m.const("edges", edges, "int32")], [y], options)
    # TFLM pads with uninitialised memory, LiteRT with the zero point (mcugen/ops/space_batch.py)
    padded = opcode == "SPACE_TO_BATCH_ND" and any(map(any, edges))
    check(tmp_path_factory.mktemp("space_batch"), m, seed, oracles=("litert",) if padded else ("tflm", "litert"))


@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 12), st.integers(1, 12), st.integers(1, 3),
       st.sampled_from([(False, False), (True, False), (False, True)]), scale(), ZP, st.integers(0, 99))
def test_resize_bilinear(tmp_path_factory, h, w, oh, ow, c, flags, s, z, seed):
    m = ModelSpec()
    x, y = io(m, [1, h, w, c], [1, oh, ow, c], (s, z), (s, z))
    m.op("RESIZE_BILINEAR", [x, m.const("size", [oh, ow], "int32")], [y],
         "ResizeBilinearOptions", version=3, AlignCorners=flags[0], HalfPixelCenters=flags[1])
    check(tmp_path_factory.mktemp("bilinear"), m, seed)


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.integers(2, 3), st.data(), DTYPES, scale(), ZP,
       st.integers(0, 99))
def test_concatenation(tmp_path_factory, shape, n, data, dtype, s, z, seed):
    """int8 inputs share the output's quantization; int16 ones have zero points of 0 and any scales
    (TFLM copies them raw all the same)."""
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    sizes = [data.draw(st.integers(1, 4)) for _ in range(n)]
    z = z if dtype == "int8" else 0
    m = ModelSpec()
    ins = []
    for k, size in enumerate(sizes):
        part = list(shape)
        part[axis] = size
        ins.append(m.tensor(f"x{k}", part, dtype, scale=s if dtype == "int8" else data.draw(scale()), zp=z))
    out = list(shape)
    out[axis] = sum(sizes)
    y = m.tensor("y", out, dtype, scale=s, zp=z)
    m.inputs, m.outputs = ins, [y]
    m.op("CONCATENATION", ins, [y], "ConcatenationOptions", Axis=axis)
    check(tmp_path_factory.mktemp("concat"), m, seed, oracles=ORACLES[dtype])


@given(st.sampled_from(["PAD", "PADV2"]), st.lists(st.integers(1, 4), min_size=1, max_size=4),
       st.data(), DTYPES, scale(), st.booleans(), st.integers(0, 99))
def test_pad(tmp_path_factory, opcode, shape, data, dtype, s, same_quant, seed):
    """PAD fills with the output zero point (int8) or 0 (int16); TFLM copies the input raw even when
    its quantization differs from the output's."""
    zp = ZP if dtype == "int8" else ZP16
    z, z_out = data.draw(zp), data.draw(zp)
    out_q = (s, z) if same_quant else (data.draw(scale()), z_out)
    pads = [[data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))] for _ in shape]
    m = ModelSpec()
    x, y = io(m, shape, [d + a + b for d, (a, b) in zip(shape, pads)], (s, z), out_q, dtype)
    p = m.const("paddings", pads, "int32")
    ins = [x, p]
    if opcode == "PADV2":
        ins.append(m.const("value", [data.draw(zp)], dtype, scale=out_q[0], zp=out_q[1]))
    m.op(opcode, ins, [y], version=2)
    # LiteRT requires the input quantized as the output
    check(tmp_path_factory.mktemp("pad"), m, seed, oracles=ORACLES[dtype] if same_quant else ("tflm",))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data(), DTYPES, scale(), st.integers(0, 99))
def test_transpose(tmp_path_factory, shape, data, dtype, s, seed):
    perm = data.draw(st.permutations(range(len(shape))))
    z = data.draw(ZP if dtype == "int8" else ZP16)
    m = ModelSpec()
    x, y = io(m, shape, [shape[i] for i in perm], (s, z), (s, z), dtype)
    m.op("TRANSPOSE", [x, m.const("perm", perm, "int32")], [y], version=2)
    check(tmp_path_factory.mktemp("transpose"), m, seed, oracles=ORACLES[dtype])


@given(st.sampled_from(["RESHAPE", "SQUEEZE", "EXPAND_DIMS"]), st.lists(st.integers(1, 4), min_size=1,
       max_size=4), st.data(), scale(), ZP, st.integers(0, 99))
def test_reshape_family(tmp_path_factory, opcode, shape, data, s, z, seed):
    m = ModelSpec()
    if opcode == "RESHAPE":
        out = [int(np.prod(shape))] if data.draw(st.booleans()) else shape[::-1]
        x, y = io(m, shape, out, (s, z), (s, z))
        m.op(opcode, [x, m.const("shape", out, "int32")], [y], "ReshapeOptions", NewShape=out)
    elif opcode == "SQUEEZE":
        shape = shape + [1]
        x, y = io(m, shape, shape[:-1], (s, z), (s, z))
        m.op(opcode, [x], [y], "SqueezeOptions", SqueezeDims=[len(shape) - 1])
    else:
        axis = data.draw(st.integers(0, len(shape)))
        out = shape[:axis] + [1] + shape[axis:]
        x, y = io(m, shape, out, (s, z), (s, z))
        m.op(opcode, [x, m.const("axis", [axis], "int32")], [y])
    check(tmp_path_factory.mktemp("reshape"), m, seed)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.data(), DTYPES, scale(), st.integers(0, 99))
def test_strided_slice(tmp_path_factory, shape, data, dtype, s, seed):
    from mcugen.ops.strided_slice import axis_indices
    z = data.draw(ZP if dtype == "int8" else ZP16)
    rank = len(shape)
    begin = [data.draw(st.integers(-d - 1, d)) for d in shape]
    end = [data.draw(st.integers(-d - 1, d + 1)) for d in shape]
    strides = [data.draw(st.sampled_from([-2, -1, 1, 2, 3])) for _ in shape]
    bm, em, sm = (data.draw(st.integers(0, (1 << rank) - 1)) for _ in range(3))
    sm &= ~bm  # a shrunk axis reads begin
    for i in range(rank):  # shrink needs an in-range begin and a positive stride in TFLM
        if sm >> i & 1:
            begin[i] = data.draw(st.integers(-shape[i], shape[i] - 1))
            strides[i] = 1
    dims = [len(axis_indices(begin[i], end[i], strides[i], shape[i], bm >> i & 1, em >> i & 1,
                             sm >> i & 1)) for i in range(rank)]
    if 0 in dims:
        return
    out = [d for i, d in enumerate(dims) if not sm >> i & 1]
    m = ModelSpec()
    x, y = io(m, shape, out, (s, z), (s, z), dtype)
    consts = [m.const(n, v, "int32") for n, v in (("begin", begin), ("end", end), ("strides", strides))]
    m.op("STRIDED_SLICE", [x, *consts], [y], "StridedSliceOptions", version=2,
         BeginMask=bm, EndMask=em, ShrinkAxisMask=sm)
    check(tmp_path_factory.mktemp("slice"), m, seed, oracles=ORACLES[dtype])


@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 12), st.integers(1, 12), st.integers(1, 3),
       st.sampled_from([(False, False), (True, False), (False, True)]), DTYPES, scale(), st.data(), st.integers(0, 99))
def test_resize_nearest_neighbor(tmp_path_factory, h, w, oh, ow, c, flags, dtype, s, data, seed):
    z = data.draw(ZP if dtype == "int8" else ZP16)
    m = ModelSpec()
    x, y = io(m, [1, h, w, c], [1, oh, ow, c], (s, z), (s, z), dtype)
    m.op("RESIZE_NEAREST_NEIGHBOR", [x, m.const("size", [oh, ow], "int32")], [y],
         "ResizeNearestNeighborOptions", version=3 if dtype == "int8" else 4, AlignCorners=flags[0],
         HalfPixelCenters=flags[1])
    check(tmp_path_factory.mktemp("resize"), m, seed, oracles=ORACLES[dtype])


@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data(), scale(), ZP, st.integers(0, 99))
def test_tile(tmp_path_factory, shape, data, s, z, seed):
    multiples = [data.draw(st.integers(1, 3)) for _ in shape]
    m = ModelSpec()
    x, y = io(m, shape, [d * k for d, k in zip(shape, multiples)], (s, z), (s, z))
    m.op("TILE", [x, m.const("multiples", multiples, "int32")], [y])
    # Neither oracle has an int8 TILE kernel: the definition is np.tile.
    check(tmp_path_factory.mktemp("tile"), m, seed, oracles=(),
          reference=lambda xs: np.tile(xs[0], multiples))


@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.integers(1, 3), st.data(), DTYPES, scale(),
       st.integers(0, 99))
def test_pack(tmp_path_factory, shape, n, data, dtype, s, seed):
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    z = data.draw(ZP if dtype == "int8" else ZP16)
    m = ModelSpec()
    ins = [m.tensor(f"x{k}", shape, dtype, scale=s, zp=z) for k in range(n)]
    out = list(shape)
    out.insert(axis % (len(shape) + 1), n)
    y = m.tensor("y", out, dtype, scale=s, zp=z)
    m.inputs, m.outputs = ins, [y]
    m.op("PACK", ins, [y], "PackOptions", ValuesCount=n, Axis=axis)
    check(tmp_path_factory.mktemp("pack"), m, seed, oracles=ORACLES[dtype], reference=lambda xs: np.stack(xs, axis=axis))


@given(st.sampled_from(["SPLIT", "SPLIT_V", "UNPACK"]), st.lists(st.integers(1, 4), min_size=1, max_size=4),
       st.data(), DTYPES, scale(), st.integers(0, 99))
def test_split(tmp_path_factory, opcode, shape, data, dtype, s, seed):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    z = data.draw(ZP if dtype == "int8" else ZP16)
    dim = shape[axis]
    if opcode == "SPLIT":
        n = data.draw(st.sampled_from([k for k in range(1, dim + 1) if dim % k == 0]))
        sizes = [dim // n] * n
    elif opcode == "SPLIT_V":
        cuts = sorted(data.draw(st.sets(st.integers(1, dim - 1), max_size=3))) if dim > 1 else []
        sizes = [b - a for a, b in zip([0] + cuts, cuts + [dim])]
    else:
        sizes = [1] * dim
    m = ModelSpec()
    x = m.tensor("x", shape, dtype, scale=s, zp=z)
    outs = []
    for k, size in enumerate(sizes):
        part = list(shape)
        part[axis] = size
        if opcode == "UNPACK":
            del part[axis]
        outs.append(m.tensor(f"y{k}", part, dtype, scale=s, zp=z))
    m.inputs, m.outputs = [x], outs
    if opcode == "SPLIT":
        m.op(opcode, [m.const("axis", [axis], "int32"), x], outs, "SplitOptions", NumSplits=len(sizes))
    elif opcode == "SPLIT_V":
        m.op(opcode, [x, m.const("sizes", sizes, "int32"), m.const("axis", [axis], "int32")], outs,
             "SplitVOptions", NumSplits=len(sizes))
    else:
        m.op(opcode, [x], outs, "UnpackOptions", Num=len(sizes), Axis=axis)
    check(tmp_path_factory.mktemp("split"), m, seed, oracles=ORACLES[dtype])


@given(st.sampled_from(["DEPTH_TO_SPACE", "SPACE_TO_DEPTH"]), st.integers(1, 2), st.integers(1, 3),
       st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), scale(), ZP, st.integers(0, 99))
def test_space_depth(tmp_path_factory, opcode, n, h, w, c, b, s, z, seed):
    small, big = [n, h, w, c * b * b], [n, h * b, w * b, c]
    m = ModelSpec()
    x, y = io(m, small if opcode == "DEPTH_TO_SPACE" else big, big if opcode == "DEPTH_TO_SPACE" else small,
              (s, z), (s, z))
    options = "DepthToSpaceOptions" if opcode == "DEPTH_TO_SPACE" else "SpaceToDepthOptions"
    m.op(opcode, [x], [y], options, version=2, BlockSize=b)
    # LiteRT's reference resolver has no int8 (version 2) DEPTH_TO_SPACE: TFLM only.
    check(tmp_path_factory.mktemp("space"), m, seed, oracles=("tflm",))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data(), scale(), ZP, st.integers(0, 99))
def test_gather(tmp_path_factory, shape, data, s, z, seed):
    axis = data.draw(st.integers(0, len(shape) - 1))
    indices = data.draw(st.lists(st.integers(0, shape[axis] - 1), min_size=1, max_size=6))
    m = ModelSpec()
    x, y = io(m, shape, shape[:axis] + [len(indices)] + shape[axis + 1:], (s, z), (s, z))
    m.op("GATHER", [x, m.const("indices", indices, "int32")], [y], "GatherOptions", Axis=axis)
    check(tmp_path_factory.mktemp("gather"), m, seed)


@pytest.mark.parametrize("opcode", ["GATHER", "ARG_MAX", "SPLIT"])
def test_an_axis_out_of_range_is_refused_not_wrapped(tmp_path, opcode):
    from mcugen.codegen.pipeline import read
    m = ModelSpec()
    x = m.tensor("x", [2, 3], "int8", scale=0.1, zp=0)
    if opcode == "GATHER":
        y = m.tensor("y", [2, 1], "int8", scale=0.1, zp=0)
        m.op(opcode, [x, m.const("i", [0], "int32")], [y], "GatherOptions", Axis=2)
    elif opcode == "ARG_MAX":
        y = m.tensor("y", [2], "int32")
        m.op(opcode, [x, m.const("axis", [2], "int32")], [y], "ArgMaxOptions", OutputType=2)
    else:
        y = m.tensor("y", [2, 3], "int8", scale=0.1, zp=0)
        m.op(opcode, [m.const("axis", [-3], "int32"), x], [y], "SplitOptions", NumSplits=1)
    m.inputs, m.outputs = [x], [y]
    (tmp_path / "m.tflite").write_bytes(m.build())
    with pytest.raises(McugenError, match=re.escape(f"{opcode} at index 0: axis") + r".* is outside \[-2, 2\)"):
        read(tmp_path / "m.tflite")


RAW_COPIES = {
    "GATHER": ([4, 2], [2, 2], lambda m, x, y: m.op("GATHER", [x, m.const("i", [0, 2], "int32")], [y],
                                                   "GatherOptions", Axis=0)),
    "RESHAPE": ([2, 3], [3, 2], lambda m, x, y: m.op("RESHAPE", [x, m.const("s", [3, 2], "int32")], [y])),
    "RESIZE_NEAREST_NEIGHBOR": ([1, 2, 2, 1], [1, 4, 4, 1], lambda m, x, y: m.op(
        "RESIZE_NEAREST_NEIGHBOR", [x, m.const("s", [4, 4], "int32")], [y], "ResizeNearestNeighborOptions")),
    "SPACE_TO_DEPTH": ([1, 2, 2, 1], [1, 1, 1, 4], lambda m, x, y: m.op("SPACE_TO_DEPTH", [x], [y],
                                                                         "SpaceToDepthOptions", BlockSize=2)),
    "TRANSPOSE": ([2, 3], [3, 2], lambda m, x, y: m.op("TRANSPOSE", [x, m.const("p", [1, 0], "int32")], [y])),
    "SPACE_TO_BATCH_ND": ([1, 2, 2, 1], [4, 1, 1, 1], lambda m, x, y: m.op(
        "SPACE_TO_BATCH_ND", [x, m.const("b", [2, 2], "int32"), m.const("p", [[0, 0], [0, 0]], "int32")], [y])),
    "STRIDED_SLICE": ([1, 4], [1, 2], lambda m, x, y: m.op(
        "STRIDED_SLICE", [x, *(m.const(n, v, "int32") for n, v in (("b", [0, 1]), ("e", [1, 3]), ("s", [1, 1])))],
        [y], "StridedSliceOptions", version=2)),
}


@pytest.mark.parametrize("opcode", sorted(RAW_COPIES))
def test_data_movement_copies_raw_values_whatever_the_quantization(tmp_path, opcode):
    """TFLM runs these with an output quantized unlike the input and copies the values as they are;
    mcugen runs them too (it refused them before) and gives TFLM's bytes."""
    in_shape, out_shape, make = RAW_COPIES[opcode]
    m = ModelSpec()
    x, y = io(m, in_shape, out_shape, (0.1, 3), (0.5, -7))
    make(m, x, y)
    check(tmp_path, m, 0, oracles=("tflm",))


UNQUANTIZED = {
    "RESHAPE": RAW_COPIES["RESHAPE"], "TRANSPOSE": RAW_COPIES["TRANSPOSE"],
    "UNPACK": ([2, 3], [3], lambda m, x, y: m.op("UNPACK", [x], [y, m.tensor("y1", [3], m.tensors[x]["dtype"])],
                                                 "UnpackOptions", Num=2, Axis=0)),
    "PACK": ([2, 3], [1, 2, 3], lambda m, x, y: m.op("PACK", [x], [y], "PackOptions", ValuesCount=1, Axis=0)),
}


@pytest.mark.parametrize("dtype", ["int8", "int16"])
@pytest.mark.parametrize("opcode", sorted(UNQUANTIZED))
def test_data_movement_of_unquantized_tensors(tmp_path, opcode, dtype):
    """A tensor without quantization parameters is fine where TFLM's kernel only copies the values
    (it reads no scale): int8 and int16, bit-exact with TFLM."""
    in_shape, out_shape, make = UNQUANTIZED[opcode]
    m = ModelSpec()
    x, y = m.tensor("x", in_shape, dtype), m.tensor("y", out_shape, dtype)
    make(m, x, y)
    m.inputs, m.outputs = [x], [t for t in range(len(m.tensors)) if t != x and m.tensors[t]["data"] is None]
    check(tmp_path, m, 0, oracles=("tflm",))
