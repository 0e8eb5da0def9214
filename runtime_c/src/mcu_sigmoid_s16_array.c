#include "mcu_nn_support.h"

/* TFLM's int16 LOGISTIC / TANH (reference_integer_ops): the helpers the LSTM's gates use, applied
 * to every value. */
void mcu_sigmoid_s16_array(const mcu_sigmoid_params *sigmoid, int32_t size, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < size; ++i) {
        output[i] = sigmoid->tanh ? mcu_tanh_s16(sigmoid->sigmoid_table, input[i], sigmoid->multiplier, sigmoid->shift)
                                  : mcu_sigmoid_s16(sigmoid->sigmoid_table, input[i], sigmoid->multiplier, sigmoid->shift);
    }
}
