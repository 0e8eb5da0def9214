#include "mcu_nn_support.h"

/*
 * TFLM (as the x86 oracle runs it): q = int32(round(x / scale)) + zero_point, clamped, with x / scale
 * one float32 division and round() half away from zero. A quotient that is NaN or outside int32
 * converts to INT32_MIN (x86's cvttss2si) and the zero point is added with int32 wrap-around, so
 * +inf gives the output type's minimum for zero_point >= 0 and its maximum below. Written out here
 * because C leaves both the conversion and the overflow undefined, and an Arm core would saturate
 * instead. No libm needed.
 */
void mcu_quantize_f32(const mcu_float_quant *quant, int32_t size, const float *input, void *output)
{
    const int32_t low = mcu_min_of(quant->bits), high = mcu_max_of(quant->bits);
    for (int32_t i = 0; i < size; ++i) {
        int32_t q = mcu_round_f32_x86(input[i] / quant->scale);
        q = (int32_t)((uint32_t)q + (uint32_t)quant->zero_point);
        mcu_store(output, i, quant->bits, q < low ? low : (q > high ? high : q));
    }
}
