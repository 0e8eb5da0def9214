#include <string.h>

#include "mcu_nn_support.h"

void mcu_pad(const mcu_pad_params *pad, const void *input, void *output)
{
    if (pad->bits == 8) {
        memset(output, pad->pad_value, (size_t)pad->output_size);
    } else {
        for (int32_t i = 0; i < pad->output_size; ++i) {
            mcu_store(output, i, pad->bits, pad->pad_value);
        }
    }
    mcu_copy_strided(&pad->copy, input, output);
}
