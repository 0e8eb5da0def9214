#include <string.h>

#include "mcu_nn.h"

void mcu_pad_s8(const mcu_pad_params *pad, const int8_t *input, int8_t *output)
{
    memset(output, pad->pad_value, (size_t)pad->output_size);
    mcu_copy_strided_s8(&pad->copy, input, output);
}
