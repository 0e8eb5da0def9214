/* Text on the port's byte stream, without printf (newlib-nano has none for floats): what the MLPerf Tiny
 * harness answers with (mcu_text.h). */
#include <string.h>

#include "mcu_port.h"
#include "mcu_text.h"

void mcu_put(const char *text)
{
    mcu_port_write((const uint8_t *)text, (uint32_t)strlen(text));
}

void mcu_put_u64(uint64_t v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    char out[24];
    for (int i = 0; i < n; ++i) {
        out[i] = digits[n - 1 - i];
    }
    mcu_port_write((const uint8_t *)out, (uint32_t)n);
}

/* A float as the runner's float() reads it: six decimals, no printf needed (newlib-nano has none) */
void mcu_put_float(float f)
{
    if (f != f) {
        mcu_put("nan");
        return;
    }
    if (f < 0.0f) {
        mcu_put("-");
        f = -f;
    }
    if (f >= 1e12f) {
        mcu_put(f - f != 0.0f ? "inf" : "1e12"); /* past what the benchmarks' outputs reach: a bound */
        return;
    }
    const uint64_t micro = (uint64_t)((double)f * 1e6 + 0.5);
    mcu_put_u64(micro / 1000000u);
    mcu_put(".");
    char frac[6];
    uint64_t rest = micro % 1000000u;
    for (int i = 5; i >= 0; --i) {
        frac[i] = (char)('0' + rest % 10u);
        rest /= 10u;
    }
    mcu_port_write((const uint8_t *)frac, 6);
}

void mcu_line_end(void)
{
    mcu_put("\r\n");
    mcu_port_flush();
}
