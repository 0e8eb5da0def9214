#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_mve.h"

/* CONV_2D in fp16 on Helium: each tap's channels eight lanes at a time (mcu_nn_half.h's order). */
void mcu_conv2d_f16_mve(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                        const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                        const mcu_dims *output_dims, mcu_f16 *output)
{
    mcu_half_window(params, input_dims, input, filter_dims, filter, bias, output_dims, output, mcu_half_conv_position,
                    mcu_half_lanes_mve);
}
