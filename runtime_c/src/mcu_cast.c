#include "mcu_nn_support.h"

/* Truncation toward zero, saturated at [lowest, highest], NaN giving 0: the oracle's answer where C
 * leaves the conversion undefined. */
static int64_t float_to_integer(float x, int64_t lowest, int64_t highest)
{
    if (x != x) {
        return 0;
    }
    if (x <= (float)lowest) {
        return lowest;
    }
    if (x >= (float)highest) {
        return highest;
    }
    return (int64_t)x;
}

static int64_t read_integer(mcu_type type, const void *data, int32_t i)
{
    switch (type) {
    case MCU_TYPE_INT8: return ((const int8_t *)data)[i];
    case MCU_TYPE_INT16: return ((const int16_t *)data)[i];
    case MCU_TYPE_INT32: return ((const int32_t *)data)[i];
    default: return ((const uint32_t *)data)[i];
    }
}

void mcu_cast(const mcu_cast_params *params, int32_t size, const void *input, void *output)
{
    for (int32_t i = 0; i < size; ++i) {
        int64_t v;
        if (params->source == MCU_TYPE_FLOAT32) {
            const float x = ((const float *)input)[i];
            if (params->target == MCU_TYPE_FLOAT32) {
                ((float *)output)[i] = x;
                continue;
            }
            switch (params->target) {
            case MCU_TYPE_INT8: v = float_to_integer(x, INT8_MIN, INT8_MAX); break;
            case MCU_TYPE_INT16: v = float_to_integer(x, INT16_MIN, INT16_MAX); break;
            case MCU_TYPE_INT32: v = float_to_integer(x, INT32_MIN, INT32_MAX); break;
            default: v = float_to_integer(x, 0, UINT32_MAX); break;
            }
        } else {
            v = read_integer(params->source, input, i);
        }
        /* narrowing keeps the low bits: stores through unsigned types so that C defines it */
        switch (params->target) {
        case MCU_TYPE_INT8: ((uint8_t *)output)[i] = (uint8_t)(uint64_t)v; break;
        case MCU_TYPE_INT16: ((uint16_t *)output)[i] = (uint16_t)(uint64_t)v; break;
        case MCU_TYPE_INT32:
        case MCU_TYPE_UINT32: ((uint32_t *)output)[i] = (uint32_t)(uint64_t)v; break;
        default: ((float *)output)[i] = (float)v; break;
        }
    }
}
