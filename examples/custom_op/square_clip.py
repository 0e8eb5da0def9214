"""The example model's custom op SquareClip, for `mcugen ... --ops square_clip.py`: its numpy definition
(the golden model) and the C kernel that runs it (square_clip.c, declared in square_clip.h)."""
import numpy as np

from mcugen.ops.custom import CustomOp, custom_op


@custom_op("SquareClip")
class SquareClip(CustomOp):
    source, header = "square_clip.c", "square_clip.h"
    kernel, params_type = "square_clip_s8", "square_clip_params"

    def check(self, inputs, outputs):
        if inputs[0].dtype != "int8" or outputs[0].dtype != "int8":
            return ["SquareClip takes and makes int8"]
        return []

    def params(self, options, inputs, outputs):
        return dict(size=int(np.prod(inputs[0].shape)), input_offset=-inputs[0].zero_point,
                    output_offset=outputs[0].zero_point, shift=int(options.get("shift", 0)))

    def run(self, params, xs):
        d = xs[0].astype(np.int32) + params["input_offset"]
        y = ((d * d) >> params["shift"]) + params["output_offset"]
        return [np.clip(y, -128, 127).astype(np.int8)]
