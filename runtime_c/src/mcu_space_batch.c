#include <string.h>

#include "mcu_nn.h"

/* Walks the batched side in order; each pixel's depth bytes go one way or the other. */
void mcu_space_batch(const mcu_space_batch_params *sb, const void *from, void *to)
{
    const uint8_t *input = from;
    uint8_t *output = to;
    const size_t depth = (size_t)sb->depth;
    int32_t batched = 0; /* byte offset of the current batched pixel */
    for (int32_t i = 0; i < sb->block_h; ++i) {
        for (int32_t j = 0; j < sb->block_w; ++j) {
            for (int32_t n = 0; n < sb->batch; ++n) {
                for (int32_t y = 0; y < sb->batched_h; ++y) {
                    const int32_t sy = y * sb->block_h + i - sb->top;
                    for (int32_t x = 0; x < sb->batched_w; ++x, batched += sb->depth) {
                        const int32_t sx = x * sb->block_w + j - sb->left;
                        const int32_t space = ((n * sb->space_h + sy) * sb->space_w + sx) * sb->depth;
                        if (sy < 0 || sy >= sb->space_h || sx < 0 || sx >= sb->space_w) {
                            if (sb->to_batch) {
                                memset(output + batched, sb->fill, depth);
                            }
                        } else if (sb->to_batch) {
                            memcpy(output + batched, input + space, depth);
                        } else {
                            memcpy(output + space, input + batched, depth);
                        }
                    }
                }
            }
        }
    }
}
