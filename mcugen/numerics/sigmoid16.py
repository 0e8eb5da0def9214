"""TFLM's int16 LOGISTIC and TANH (reference_integer_ops, the kernels its LSTM gates use), vectorised.

Both interpolate one table, sigmoid(i / 24) for i in 0..255 in unsigned 0.16 fixed point, on the
absolute value of the input (tanh(x) = 2 sigmoid(2x) - 1; both are symmetric): the high bits of
|x| pick an entry, the low bits weigh the step to the next, and the sign folds the result back.
The input is first scaled by (x * multiplier + round) >> shift; TFLM's power-of-two case (a
multiplier of 0) means a multiplier of 3 << shift and no shift, which widens [-8, 8) to the
table's [-10.7, 10.7). Outputs are Q0.15.
"""
from __future__ import annotations

import numpy as np

from mcugen.numerics.requant import round_half_away, wrap_int32

# TFLM's table (tensorflow/lite/kernels/internal/common.h, sigmoid_table_uint16, Apache-2.0): the
# entries are not the correctly rounded values of any one formula, so bit-exactness needs these.
SIGMOID_TABLE = np.array([
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794,
    41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443,
    48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374,
    54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544,
    58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279,
    61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990,
    63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030,
    64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652,
    64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019,
    65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476,
    65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501,
    65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516,
    65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529,
    65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532,
    65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535
], dtype=np.int64)


def checked_log2(x: float) -> tuple[bool, int]:
    """TFLM CheckedLog2, in float32 as it computes it: log2(x) rounded (ties away from zero), and
    whether x is within 1e-3 (in log2) of that power of two."""
    log2 = np.float32(np.log(np.float32(x))) * (np.float32(1.0) / np.float32(np.log(np.float32(2.0))))
    rounded = round_half_away(float(log2))
    return bool(abs(log2 - np.float32(rounded)) < np.float32(1e-3)), rounded


def prepare_scaling(scale: float, power_of_two_shifts: tuple[int, ...]) -> tuple[int, int]:
    """TFLM's Prepare of int16 LOGISTIC (power_of_two_shifts (0,)) and TANH ((0, 1)): a power-of-two
    input scale 2^(shift - 12) with shift among those gives (0, shift); any other scale a multiplier
    of scale * 3 * 4096 doubled (with the shift) until it passes 32767 / 2, then truncated."""
    power_of_two, log2 = checked_log2(scale)
    if power_of_two and 12 + log2 in power_of_two_shifts:
        return 0, 12 + log2
    multiplier, shift = float(np.float32(scale)) * 4096.0 * 3.0, 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    return int(multiplier), shift


def input_scaling(multiplier: int, shift: int) -> tuple[int, int, int]:
    """(multiplier, shift, round) as the kernels apply them, TFLM's power-of-two case resolved."""
    if multiplier == 0:
        multiplier, shift = 3 << shift, 0
    return multiplier, shift, (1 << (shift - 1)) if shift > 0 else 0


def _scaled(x, multiplier: int, shift: int) -> np.ndarray:
    """The kernels' input scaling. TFLM's product is int32: an input scale past 2^16 / 12288 (a multiplier
    above 65536, which its Prepare leaves unchecked outside debug builds) wraps it."""
    multiplier, shift, round_ = input_scaling(multiplier, shift)
    return wrap_int32(np.asarray(x, np.int64) * multiplier + round_) >> shift


def _interpolate(magnitude: np.ndarray, fraction_bits: int) -> np.ndarray:
    entry = np.minimum(magnitude >> fraction_bits, 254)
    low, high = SIGMOID_TABLE[entry], SIGMOID_TABLE[entry + 1]
    step = magnitude & ((1 << fraction_bits) - 1)
    return (low << fraction_bits) + step * (high - low)


def sigmoid_s16(x, multiplier: int = 0, shift: int = 0) -> np.ndarray:
    """reference_integer_ops::Logistic on int16 (0.16 table, 9 fraction bits), to Q0.15."""
    v = _scaled(x, multiplier, shift)
    a = np.abs(v)
    r = np.where(a >> 9 >= 255, 0x7FFF << 10, _interpolate(a, 9))
    r = np.where(v >= 0, r + (1 << 9), (1 << 25) - r + (1 << 9) - 1)
    return (r >> 10).astype(np.int16)


def tanh_s16(x, multiplier: int = 0, shift: int = 0) -> np.ndarray:
    """reference_integer_ops::Tanh on int16 (the same table, 8 fraction bits), to Q0.15."""
    v = _scaled(x, multiplier, shift)
    a = np.abs(v)
    r = np.where(a >> 8 >= 255, 0xFFFF << 8, _interpolate(a, 8))
    r = np.where(v >= 0, r - (1 << 23) + (1 << 7), -r + (1 << 23) + (1 << 7) - 1)
    return (r >> 8).astype(np.int16)
