#include "mcu_nn_mve.h"
#include "mcu_nn_elementwise_mve.h"

/*
 * MUL of two int16 tensors of one shape (no broadcasting) on Helium (MVE): mcu_mul's results, four
 * elements per vector (each input widened as it loads; mcu_mul_x4), the last vector predicated.
 * output may be input1 or input2.
 */
void mcu_mul_s16_mve(const mcu_mul_params *params, int32_t size, const int16_t *input1, const int16_t *input2,
                     int16_t *output)
{
    const mcu_mul_params mul_copy = *params, *mul = &mul_copy; /* output stores cannot alias it */
    for (int32_t i = 0; i < size; i += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        vstrhq_p_s32(output + i, mcu_mul_x4(mul, vldrhq_z_s32(input1 + i, p), vldrhq_z_s32(input2 + i, p)), p);
    }
}
