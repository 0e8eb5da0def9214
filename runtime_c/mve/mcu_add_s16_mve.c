#include "mcu_nn_mve.h"
#include "mcu_nn_elementwise_mve.h"

/*
 * ADD or SUB of two int16 tensors of one shape (no broadcasting) on Helium (MVE): mcu_add's results,
 * four elements per vector (each input widened as it loads; mcu_add_x4), the last vector predicated.
 * output may be input1 or input2.
 */
void mcu_add_s16_mve(const mcu_add_params *params, int32_t size, const int16_t *input1, const int16_t *input2,
                     int16_t *output)
{
    const mcu_add_params add_copy = *params, *add = &add_copy; /* output stores cannot alias it */
    const int32_t sign = add->operation == MCU_SUB ? -1 : 1;
    for (int32_t i = 0; i < size; i += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(size - i));
        vstrhq_p_s32(output + i, mcu_add_x4(add, vldrhq_z_s32(input1 + i, p), vldrhq_z_s32(input2 + i, p), sign), p);
    }
}
