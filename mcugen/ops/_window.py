"""Sliding-window geometry shared by convolutions and pools (TFLM's padding rules)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from mcugen.ir.options import Windowed


def out_size(padding: str, size: int, kernel: int, stride: int, dilation: int = 1) -> int:
    effective = (kernel - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size + stride - effective) // stride


def tflm_out_size(padding: str, size: int, kernel: int, stride: int, dilation: int = 1) -> int:
    """TFLM's ComputeOutSize: out_size in C's division, which truncates a window larger than the image (a
    negative size) toward zero; the padding follows from it."""
    effective = (kernel - 1) * dilation + 1
    top = size + stride - 1 if padding == "SAME" else size + stride - effective
    return -(-top // stride) if top < 0 else top // stride


def pad_before(size: int, kernel: int, stride: int, dilation: int, out: int) -> int:
    """TFLM ComputePaddingWithOffset: the leading pad; any odd extra goes after."""
    effective = (kernel - 1) * dilation + 1
    total = max(0, (out - 1) * stride + effective - size)
    return total // 2


MAX_SPAN = 1 << 16  # strides and filter spans beyond this are corrupt fields (and overflow int32 in C)


def window_shape(options: Windowed, x_shape: tuple[int, ...], kernel_hw: tuple[int, ...], channels: int,
                 declared: tuple[int, ...] = ()) -> tuple[int, ...]:
    """[N, OH, OW, channels] of a 2-D window op; ValueError for options that make no sense. `declared`: the
    output tensor's shape, whose height and width TFLM's kernels take as they are (declared_hw)."""
    if len(x_shape) != 4:
        raise ValueError(f"input {list(x_shape)} is not 4-D [N, H, W, C]")
    named = {"stride_h": options.stride_h, "stride_w": options.stride_w, "dilation_h_factor": options.dilation[0],
             "dilation_w_factor": options.dilation[1]}
    for key, value in named.items():
        if not 1 <= value <= MAX_SPAN:
            raise ValueError(f"{key} {value} (must be in [1, {MAX_SPAN}])")
    for k, dilation in zip(kernel_hw, options.dilation):
        if not 1 <= k or (k - 1) * dilation + 1 > MAX_SPAN:
            raise ValueError(f"filter {kernel_hw[0]}x{kernel_hw[1]} with the dilation makes no window")
    if options.padding not in ("SAME", "VALID"):
        raise ValueError(f"padding {options.padding}")
    return (x_shape[0], *geometry(options, x_shape[1:3], kernel_hw, declared_hw(declared)).out_hw, channels)


def declared_hw(shape: tuple[int, ...]) -> tuple[int, int] | None:
    """The height and width of an output tensor [N, H, W, C], where they are sizes (not a dynamic -1)."""
    return (shape[1], shape[2]) if len(shape) == 4 and shape[1] >= 1 and shape[2] >= 1 else None


Pair = tuple[int, int]


@dataclass(frozen=True)
class Window:
    """Strides, dilations, leading pads (SAME's as TFLM computes them, any odd extra going after, or a folded
    PAD's) and output size of a 2-D window op, each (height, width)."""

    stride: Pair
    dilation: Pair
    out_hw: Pair
    pad: Pair
    # the output tensor's height and width, not the ones the options compute (TFLM loops over the tensor's
    # and pads as computed): only the reference kernels, which clip every window to the image, run it
    declared: bool = False

    def span(self, kernel_hw: Pair) -> Pair:
        """The input rows and columns the windows cover, pads included."""
        return ((self.out_hw[0] - 1) * self.stride[0] + (kernel_hw[0] - 1) * self.dilation[0] + 1,
                (self.out_hw[1] - 1) * self.stride[1] + (kernel_hw[1] - 1) * self.dilation[1] + 1)

    def describe(self, kernel_hw: tuple[int, ...], padding: str) -> str:
        """The window geometry for a generated layer comment."""
        (sh, sw), (dh, dw), (ph, pw) = self.stride, self.dilation, self.pad
        return (f"kernel {kernel_hw[0]}x{kernel_hw[1]}, stride {sh}x{sw}, dilation {dh}x{dw}, "
                f"padding {padding} (top {ph}, left {pw})")


def geometry(options: Windowed, in_hw: tuple[int, ...], kernel_hw: tuple[int, ...],
             declared: tuple[int, int] | None = None,
             folded_pad: tuple[tuple[int, int], tuple[int, int]] | None = None) -> Window:
    """The Window of a 2-D window op with these options, input size and kernel size. `declared`: the output
    tensor's height and width, which TFLM's conv, depthwise and pooling kernels loop over whatever the options
    compute (a model saved with placeholder input shapes), padding as the options say. `folded_pad`: a
    window a PAD was folded into (passes/fold_pads.py) pads as the PAD did (Facts.folded_pad)."""
    sh, sw = options.stride_h, options.stride_w
    dh, dw = options.dilation
    if folded_pad is not None:  # a VALID window over the input as a folded PAD padded it
        (top, bottom), (left, right) = folded_pad
        oh = tflm_out_size("VALID", in_hw[0] + top + bottom, kernel_hw[0], sh, dh)
        ow = tflm_out_size("VALID", in_hw[1] + left + right, kernel_hw[1], sw, dw)
        lead = (top, left)
    else:
        pad = options.padding
        oh = tflm_out_size(pad, in_hw[0], kernel_hw[0], sh, dh)
        ow = tflm_out_size(pad, in_hw[1], kernel_hw[1], sw, dw)
        lead = (pad_before(in_hw[0], kernel_hw[0], sh, dh, oh), pad_before(in_hw[1], kernel_hw[1], sw, dw, ow))
    out = declared if declared is not None else (oh, ow)
    return Window(stride=(sh, sw), dilation=(dh, dw), out_hw=out, pad=lead, declared=out != (oh, ow))


class Taps(NamedTuple):
    """Which input pixel every kernel tap of every output position reads (im2col as a gather)."""

    pixel: np.ndarray  # [OH*OW, KH*KW] of h * W + w, or H * W for a tap outside the image
    padded: bool  # some tap falls outside the image

    @classmethod
    def of(cls, geo: Window, in_hw: tuple[int, ...], kernel_hw: tuple[int, ...]) -> "Taps":
        (sh, sw), (dh, dw), (oh, ow), (ph, pw) = geo.stride, geo.dilation, geo.out_hw, geo.pad
        (h, w), (kh, kw) = in_hw, kernel_hw
        ys = np.arange(oh)[:, None] * sh - ph + np.arange(kh)[None, :] * dh  # [OH, KH]
        xs = np.arange(ow)[:, None] * sw - pw + np.arange(kw)[None, :] * dw  # [OW, KW]
        inside = ((ys >= 0) & (ys < h))[:, None, :, None] & ((xs >= 0) & (xs < w))[None, :, None, :]
        index = np.where(inside, ys[:, None, :, None] * w + xs[None, :, None, :], h * w)
        return cls(index.reshape(oh * ow, kh * kw).astype(np.intp), not inside.all())

    def gather(self, x: np.ndarray, fill: int) -> np.ndarray:
        """x [N,H,W,C] -> [N, OH*OW, KH*KW, C], taps outside the image reading `fill`."""
        n, h, w, c = x.shape
        rows = x.reshape(n, h * w, c)
        if self.padded:
            rows = np.concatenate([rows, np.full((n, 1, c), fill, dtype=x.dtype)], axis=1)
        return np.take(rows, self.pixel, axis=1)  # several times faster than rows[:, index]

