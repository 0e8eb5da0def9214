#include "mcu_nn_fp_exact.h"

#include "mcu_nn_half_sums.h"

/* _Float16 is the host's and the cores' with half-precision arithmetic, where mcugen calls this; elsewhere the
 * file compiles to nothing. */
#if defined(__FLT16_MAX__)

/* Reference FULLY_CONNECTED in fp16, in the order mcu_nn_half.h states, a lane at a time. */
void mcu_fully_connected_f16(const mcu_float_activation *activation, int32_t batches, int32_t depth, int32_t units,
                             const mcu_f16 *input, const mcu_f16 *filter, const mcu_f16 *bias, mcu_f16 *output)
{
    mcu_half_fc(activation, batches, depth, units, input, filter, bias, output, mcu_half_lanes);
}

#endif /* __FLT16_MAX__ */
