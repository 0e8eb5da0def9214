"""Sliding-window geometry shared by convolutions and pools (TFLM's padding rules)."""
from __future__ import annotations

import numpy as np


def out_size(padding: str, size: int, kernel: int, stride: int, dilation: int = 1) -> int:
    effective = (kernel - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size + stride - effective) // stride


def pad_before(size: int, kernel: int, stride: int, dilation: int, out: int) -> int:
    """TFLM ComputePaddingWithOffset: the leading pad; any odd extra goes after."""
    effective = (kernel - 1) * dilation + 1
    total = max(0, (out - 1) * stride + effective - size)
    return total // 2


def geometry(attrs: dict, in_hw: tuple[int, int], kernel_hw: tuple[int, int]) -> dict:
    """Strides, dilations, leading pads and output size of a 2-D window op."""
    sh, sw = attrs.get("stride_h", 1), attrs.get("stride_w", 1)
    dh, dw = attrs.get("dilation_hfactor", 1), attrs.get("dilation_wfactor", 1)
    pad = attrs.get("padding", "VALID")
    oh = out_size(pad, in_hw[0], kernel_hw[0], sh, dh)
    ow = out_size(pad, in_hw[1], kernel_hw[1], sw, dw)
    return dict(stride=(sh, sw), dilation=(dh, dw), out_hw=(oh, ow),
                pad=(pad_before(in_hw[0], kernel_hw[0], sh, dh, oh),
                     pad_before(in_hw[1], kernel_hw[1], sw, dw, ow)))


def windows(x: np.ndarray, kernel_hw, geo: dict, fill) -> np.ndarray:
    """View of x [N,H,W,C] as [N,OH,OW,KH,KW,C] windows, out-of-image taps = fill."""
    n, h, w, c = x.shape
    kh, kw = kernel_hw
    (sh, sw), (dh, dw), (oh, ow), (ph, pw) = geo["stride"], geo["dilation"], geo["out_hw"], geo["pad"]
    need_h = (oh - 1) * sh + (kh - 1) * dh + 1
    need_w = (ow - 1) * sw + (kw - 1) * dw + 1
    if ph == pw == 0 and need_h <= h and need_w <= w and x.flags.c_contiguous:
        padded = x
    else:
        padded = np.full((n, max(need_h, ph + h), max(need_w, pw + w), c), fill, dtype=x.dtype)
        padded[:, ph:ph + h, pw:pw + w, :] = x
    s = padded.strides
    # np.ndarray on the buffer, not as_strided: same view, a fraction of the per-call cost
    view = np.ndarray((n, oh, ow, kh, kw, c), padded.dtype, padded,
                      strides=(s[0], s[1] * sh, s[2] * sw, s[1] * dh, s[2] * dw, s[3]))
    view.flags.writeable = False
    return view


def describe(geo: dict, kernel_hw, padding: str) -> str:
    """The window geometry for a generated layer comment."""
    (sh, sw), (dh, dw), (ph, pw) = geo["stride"], geo["dilation"], geo["pad"]
    return (f"kernel {kernel_hw[0]}x{kernel_hw[1]}, stride {sh}x{sw}, dilation {dh}x{dw}, "
            f"padding {padding} (top {ph}, left {pw})")
