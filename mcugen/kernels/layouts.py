"""Filter layouts: the order each optimized kernel reads its weights in, laid out at build time so that
the kernel walks them with one pointer. Each names the kernel that reads it; INT4 layouts hold two
values a byte (nibbles: the low one first)."""
from __future__ import annotations

import numpy as np

from mcugen.ir.calls import nibbles


def x6_filter(filter_data: np.ndarray, int16_inputs: bool = False, split: bool = False) -> np.ndarray:
    """Filter [OC, KH, KW, IC] as mcu_conv2d_s8_x6 reads it: each channel's K taps (in patch_order when
    `split`) padded with zeros to K8 (a multiple of 8), channels in pairs whose words (four taps each)
    alternate, an odd last channel's words alone after them. For int16 inputs (mcu_conv2d_s16_x6), each
    four taps ordered (w0, w2, w1, w3): SXTB16 then pairs them as the inputs come, (w0, w1) and (w2, w3)."""
    oc, k_h, k_w, in_c = filter_data.shape
    rows = filter_data.reshape(oc, -1)
    if split:
        rows = rows[:, patch_order(k_h, k_w * in_c)]
    words = padded_k8(rows)
    k8 = words.shape[1]
    if int16_inputs:
        words = words.reshape(oc, k8 // 4, 4)[:, :, [0, 2, 1, 3]].reshape(oc, k8)
    paired = oc // 2 * 2
    interleaved = words[:paired].reshape(oc // 2, 2, k8 // 4, 4).transpose(0, 2, 1, 3)
    return np.concatenate([interleaved.reshape(-1), words[paired:].reshape(-1)])


def padded_k8(rows: np.ndarray) -> np.ndarray:
    """Weights [channels, K] padded with zeros to K8, K rounded up to 8 (the DSP convs' patches' length)."""
    return np.pad(rows, ((0, 0), (0, -rows.shape[1] % 8)))


def w16_filter(filter_data: np.ndarray, split: bool = False) -> np.ndarray:
    """x6_filter widened to int16, each word of four taps as (w0, w2, w1, w3): the pairs SMLAD takes
    against the widened patches' (x0, x2), (x1, x3), which SXTB16 made of the int8 words in the loop."""
    return x6_filter(filter_data, split=split).reshape(-1, 4)[:, [0, 2, 1, 3]].reshape(-1).astype(np.int16)


def twin_filter(filter_data: np.ndarray, split: bool = False) -> np.ndarray:
    """x6_filter as mcu_conv2d_s8_twin reads it: each channel pair's four taps as the int16 256 * w1 + w0, in the
    order (w0, w2, w1, w3) that SXTB16 takes c0's weights out in; an odd last channel's words as x6_filter's.
    Each halfword's bytes are w0 and w1 less w0's sign: int8 at their size (twin_pairs_fit holds them)."""
    x6 = x6_filter(filter_data, split=split)
    oc = filter_data.shape[0]
    pairs = x6[:x6.size // oc * (oc // 2 * 2)].reshape(-1, 2, 4).astype(np.int32)  # [block][channel][tap]
    halves = np.ascontiguousarray((pairs[:, 1] * 256 + pairs[:, 0])[:, [0, 2, 1, 3]], dtype="<i2")
    return np.concatenate([halves.view(np.int8).reshape(-1), x6[halves.size * 2:]])


def twin_pairs_fit(rows: np.ndarray, bias: np.ndarray) -> bool:
    """Whether twin_filter holds the channel pairs of weights [channels, K] with their bias as the kernel gets it:
    each tap's 256 * w1 + w0 an int16 (w1 = -128 with w0 < 0 is not), and c1's sums apart from c0's 256 times
    over (mcu_twin_odd): bias1 plus any sum of products with int8 inputs within [-2^23, 2^23).
    """
    paired = rows.shape[0] // 2 * 2
    w0, w1 = rows[:paired:2].astype(np.int64), rows[1:paired:2].astype(np.int64)
    held = not ((w1 == -128) & (w0 < 0)).any()
    b1 = bias[1:paired:2].astype(np.int64)
    low = b1 + np.minimum(-128 * w1, 127 * w1).sum(axis=1)
    high = b1 + np.maximum(-128 * w1, 127 * w1).sum(axis=1)
    return held and bool(low.min(initial=0) >= -2 ** 23 and high.max(initial=0) < 2 ** 23)


def patch_order(k_h: int, row: int) -> np.ndarray:
    """The order mcu_conv2d_split_s8_w16 widens a patch of k_h kernel rows of `row` values in
    (mcu_widen_rows): each row's whole words, row after row, then the values past them, row after row.
    A 3x3x3 first layer's rows of 9 then go into the patch as two words each, straight from the image."""
    whole = row // 4 * 4
    taps = np.arange(k_h * row).reshape(k_h, row)
    return np.concatenate([taps[:, :whole].reshape(-1), taps[:, whole:].reshape(-1)])


def s4_pairs(values: np.ndarray) -> np.ndarray:
    """The DSP kernels' INT4 layout (MCU_S4_PAIRS_) of weights in an int8 layout whose eights are four values
    of a channel (or unit) c0 then four of c1 (x6_filter's pairs, interleave4's): each eight as one word of
    nibbles (c0 w0, c0 w1, c1 w0, c1 w1, c0 w2, c0 w3, c1 w2, c1 w3), whose SXTB16 halves pair with an
    input word's."""
    return nibbles(values.reshape(-1, 8)[:, [0, 1, 4, 5, 2, 3, 6, 7]])


def units4_blocks(rows: np.ndarray) -> np.ndarray:
    """The Helium kernels' int8 layout (mcu_block_bytes_u4) of weights [units, depth]: blocks of four units,
    each in chunks of 16 values holding the chunk's values of each unit in turn, zero-padded to whole
    blocks and chunks."""
    units, depth = rows.shape
    padded = np.zeros((-(-units // 4) * 4, -(-depth // 16) * 16), np.int8)
    padded[:units, :depth] = rows
    return padded.reshape(-1, 4, padded.shape[1] // 16, 16).transpose(0, 2, 1, 3).copy()


def s4_blocks(rows: np.ndarray) -> np.ndarray:
    """The Helium kernels' INT4 layout (mcu_dot4_rows_s4) of weights [units, depth]: each row in blocks of 32
    values, zero-padded to whole blocks, byte j of a block holding value j (low nibble) and j + 16 (high)."""
    units, depth = rows.shape
    padded = np.zeros((units, -(-depth // 32) * 32), np.int8)
    padded[:, :depth] = rows
    blocks = padded.reshape(units, -1, 2, 16)  # [unit][block][low, high half][16]
    return nibbles(blocks.transpose(0, 1, 3, 2))



def interleave4(w: np.ndarray) -> np.ndarray:
    """[units, depth] as [ceil(units/4)][K4/4][4 units][4 values], zero-padded (K4 = depth rounded up
    to 4): the order mcu_fully_connected_s8_x4 reads it in, one pointer walking forward."""
    units, depth = w.shape
    padded = np.zeros(((units + 3) // 4 * 4, (depth + 3) // 4 * 4), dtype=w.dtype)
    padded[:units, :depth] = w
    groups, k4 = padded.shape[0] // 4, padded.shape[1]
    return padded.reshape(groups, 4, k4 // 4, 4).transpose(0, 2, 1, 3).copy()


def s4_interleave4(w: np.ndarray) -> np.ndarray:
    """interleave4's order of INT4 weights packed (mcu_fully_connected_s4_x4): per four values, the words
    of units 0-1 and 2-3 (s4_pairs)."""
    return s4_pairs(interleave4(w))


def widen4(w: np.ndarray) -> np.ndarray:
    """interleave4's order widened to int16, each unit's four values as (w0, w2, w1, w3): the words
    (w0, w2), (w1, w3) that SMLAD pairs with SXTB16's halves of an input word (MCU_DOT4_W16)."""
    return interleave4(w)[..., [0, 2, 1, 3]].astype(np.int16)


def twin4(w: np.ndarray) -> np.ndarray:
    """interleave4's groups as twin words (mcu_fully_connected_s8_twin): per four values, units 0-1's words for
    values (0, 2) and (1, 3), then units 2-3's, each halfword the even unit's weight + 128 (low byte) and the odd
    unit's weight (high byte); zero weights (128 low bytes) past the filter."""
    groups = interleave4(w).astype(np.int16)  # [groups][K4/4][unit][value]
    low = (groups[:, :, [0, 2]] + 128).astype(np.uint8)
    high = groups[:, :, [1, 3]].astype(np.int8).view(np.uint8)
    words = np.stack([low[..., [0, 2, 1, 3]], high[..., [0, 2, 1, 3]]], axis=-1)  # [g][K4/4][pair][value][lo/hi]
    return words.reshape(groups.shape).view(np.int8).copy()


def twin_fits(w: np.ndarray) -> bool:
    """Whether twin4's high bytes hold units whose sums, 256 times over, stay apart from the low ones': every
    odd unit's 128 * sum |w| below 2^23 (mcu_twin_high)."""
    return bool(128 * np.abs(w[1::2].astype(np.int64)).sum(axis=1).max(initial=0) < 2 ** 23)


def group4(w: np.ndarray) -> np.ndarray:
    """Filter [1, KH, KW, C] as int8 [ceil(C/4)][KH*KW][4], zero past C: mcu_depthwise_conv2d_s8_mve's."""
    taps = w.reshape(-1, w.shape[3])
    padded = np.zeros((taps.shape[0], (w.shape[3] + 3) // 4 * 4), dtype=np.int8)
    padded[:, :w.shape[3]] = taps
    return padded.reshape(taps.shape[0], -1, 4).transpose(1, 0, 2).copy()


def widen4_taps(w: np.ndarray) -> np.ndarray:
    """Filter [1, KH, KW, C] as int16 [ceil(C/4)][KH*KW][4], a tap's four channels in the order
    (c, c+2, c+1, c+3) that SXTB16 unpacks an input word in, zero past C: mcu_depthwise_conv2d_s8_x4's."""
    taps = w.reshape(-1, w.shape[3]).astype(np.int16)
    padded = np.zeros((taps.shape[0], (w.shape[3] + 3) // 4 * 4), dtype=np.int16)
    padded[:, :w.shape[3]] = taps
    groups = padded.reshape(taps.shape[0], -1, 4)[:, :, [0, 2, 1, 3]]
    return groups.transpose(1, 0, 2).copy()


def taps3x3(w: np.ndarray, transposed: bool) -> np.ndarray:
    """Filter [1, 3, 3, C] as [C][3][3]: each channel's kernel rows, or its kernel columns where the kernel runs
    down the columns (`transposed`): mcu_depthwise_conv2d_s8_x2's (mcu_dw3_pairs pairs them)."""
    return (w[0].transpose(2, 1, 0) if transposed else w[0].transpose(2, 0, 1)).copy()


def pairs3x3(w: np.ndarray, transposed: bool) -> np.ndarray:
    """taps3x3 as int16 [C][3][4]: each kernel row (w0, w1, w1, w2), the two pairs mcu_depthwise_conv2d_s16_x2
    multiplies words of adjacent inputs by."""
    rows = taps3x3(w, transposed).astype(np.int16)
    return np.stack([rows[:, :, 0], rows[:, :, 1], rows[:, :, 1], rows[:, :, 2]], axis=2).copy()


def s4_quads_filter(filter_data: np.ndarray) -> np.ndarray:
    """mcu_conv2d_s4_quads' filter (mcu_nn_conv_quads_dsp.h) of an INT4 filter [OC, KH, KW, IC], OC a multiple of 4:
    per quad of output channels (c0..c3) and four taps of each channel's K padded with zeros to K8, two words,
    taps (v0, v2) then (v1, v3), each tap as byte0 = 16 (c1 + 8) + c0 + 8 and byte1 = 16 c3 + c2 + 8 (c3's
    nibble signed)."""
    oc = filter_data.shape[0]
    padded = padded_k8(filter_data.reshape(oc, -1).astype(np.int32))
    q = padded.reshape(oc // 4, 4, -1, 4)  # [quad][channel][four taps][tap]
    low = ((q[:, 1] + 8) << 4) | (q[:, 0] + 8)
    high = ((q[:, 3] & 0xF) << 4) | (q[:, 2] + 8)
    taps = [0, 2, 1, 3]
    return np.stack([low[..., taps], high[..., taps]], axis=-1).astype(np.uint8).view(np.int8).reshape(-1)


def s4_quads_fit(filter_data: np.ndarray) -> bool:
    """Whether mcu_conv2d_s4_quads takes an INT4 filter: output channels in quads whose sums it tells apart
    exactly with int8 inputs: 4096 times c3's, 256 times c2's and 16 times c1's (each offset by 8 but c3's, over the
    K8 values) within int32."""
    oc = filter_data.shape[0]
    if oc % 4:
        return False
    q = padded_k8(filter_data.reshape(oc, -1).astype(np.int64)).reshape(oc // 4, 4, -1)
    return bool((128 * np.abs(q[:, 3]).sum(axis=1) < 2 ** 19).all() and
                (128 * (q[:, 2] + 8).sum(axis=1) < 2 ** 23).all() and (128 * (q[:, 1] + 8).sum(axis=1) < 2 ** 27).all())
