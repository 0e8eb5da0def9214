#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_sums.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

/* Reference CONV_2D in fp16, in the order mcu_nn_half.h states, a lane at a time; taps in the padding skipped. */
void mcu_conv2d_f16(const mcu_float_conv_params *params, const mcu_dims *input_dims, const mcu_f16 *input,
                    const mcu_dims *filter_dims, const mcu_f16 *filter, const mcu_f16 *bias,
                    const mcu_dims *output_dims, mcu_f16 *output)
{
    mcu_half_window(params, input_dims, input, filter_dims, filter, bias, output_dims, output, mcu_half_conv_position,
                    mcu_half_lanes);
}

#endif /* __FLT16_MAX__ */
