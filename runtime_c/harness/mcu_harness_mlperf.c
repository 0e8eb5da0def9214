/*
 * The MLPerf Tiny device-under-test side (`--harness mlperf-tiny`): the EEMBC text protocol the
 * benchmark's runner (mlcommons/tiny benchmark/runner) speaks, as benchmark/api defines it, over the
 * board's link instead of mcugen's framed protocol. Commands end with '%', words are separated by
 * spaces; every command is answered by its lines and then "m-ready":
 *   name                 m-name-dut-[mcugen]
 *   profile              m-profile-[ULPMark for tinyML Firmware V0.0.1], m-model-[kws01|vww01|ic01|ad01|...]
 *   timestamp            m-lap-us-<microseconds of the board's counter>
 *   db load N            m-[Expecting N bytes]     (N: the bytes of input 0, as the runner sends them)
 *   db HHHH...           m-load-done once N bytes have come (two hex digits a byte)
 *   db print             m-buffer-hh-hh-... lines
 *   infer N [W=10]       W warm-up and N timed inferences: m-warmup-start-W, m-warmup-done,
 *                        m-infer-start-N, m-lap-us-T0, m-infer-done... m-lap-us-T1, then the results
 *   results              m-results-[v0,v1,...]: output 0 dequantized (an autoencoder's, whose output
 *                        matches its input, as the mean squared error of the two, AD's score)
 * Every inference copies the loaded bytes into the model's input first: mcugen's arena reuses the
 * input's bytes during a call (the copy is inside the timed loop: input bytes / 4 word stores).
 */
#include <string.h>

#include "mcu_harness_config.h"
#include "mcu_port.h"
#include "model.h"

#if defined(__GNUC__)
#define MCU_HARNESS_ALIGN __attribute__((aligned(16)))
#else
#define MCU_HARNESS_ALIGN
#endif

#define COMMAND_SIZE 80

static int8_t arena[MODEL_ARENA_BYTES] MCU_HARNESS_ALIGN;
static uint8_t loaded[MCU_MLPERF_INPUT_BYTES] MCU_HARNESS_ALIGN;
static uint32_t load_size, load_pos;

/* the generated model calls this after every layer where it was built with -DMODEL_PROFILE */
void model_layer_done(int32_t layer)
{
    (void)layer;
}

static void put(const char *text)
{
    mcu_port_write((const uint8_t *)text, (uint32_t)strlen(text));
}

static void put_u64(uint64_t v)
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
static void put_float(float f)
{
    if (f != f) {
        put("nan");
        return;
    }
    if (f < 0.0f) {
        put("-");
        f = -f;
    }
    if (f >= 1e12f) {
        put(f - f != 0.0f ? "inf" : "1e12"); /* past what the benchmarks' outputs reach: a bound */
        return;
    }
    const uint64_t micro = (uint64_t)((double)f * 1e6 + 0.5);
    put_u64(micro / 1000000u);
    put(".");
    char frac[6];
    uint64_t rest = micro % 1000000u;
    for (int i = 5; i >= 0; --i) {
        frac[i] = (char)('0' + rest % 10u);
        rest /= 10u;
    }
    mcu_port_write((const uint8_t *)frac, 6);
}

static void line_end(void)
{
    put("\r\n");
    mcu_port_flush();
}

/* the port's counter (cycles, SysTick ticks under QEMU -icount, the host's nanoseconds) at MCU_CPU_HZ */
static uint64_t microseconds(void)
{
#if MCU_CPU_HZ % 1000000u == 0u
    return mcu_port_cycles() / (MCU_CPU_HZ / 1000000u);
#else
    return mcu_port_cycles() * 1000000u / MCU_CPU_HZ;
#endif
}

static void timestamp(void)
{
    put("m-lap-us-");
    put_u64(microseconds());
    line_end();
}

static float dequantize(const model_tensor_info *t, const void *data, int32_t i)
{
    switch (t->type) {
    case MODEL_INT8: return t->scale * (float)(((const int8_t *)data)[i] - t->zero_point);
    case MODEL_UINT8: return t->scale * (float)(((const uint8_t *)data)[i] - t->zero_point);
    case MODEL_INT16: return t->scale * (float)(((const int16_t *)data)[i] - t->zero_point);
    case MODEL_INT32: return (float)((const int32_t *)data)[i];
    case MODEL_FLOAT32: return ((const float *)data)[i];
    default: return 0.0f;
    }
}

static int32_t elements(const model_tensor_info *t)
{
    int32_t n = 1;
    for (int32_t k = 0; k < t->rank; ++k) {
        n *= t->shape[k];
    }
    return n;
}

static void results(void)
{
    const model_tensor_info *out = &model_outputs[0], *in = &model_inputs[0];
    const int32_t n = elements(out);
    put("m-results-[");
    if (MODEL_INPUT_COUNT == 1 && n == elements(in)) { /* an autoencoder: AD's reconstruction error */
        float sum = 0.0f;
        for (int32_t i = 0; i < n; ++i) {
            const float d = dequantize(out, model_output(0), i) - dequantize(in, loaded, i);
            sum += d * d;
        }
        put_float(sum / (float)n);
    } else {
        for (int32_t i = 0; i < n; ++i) {
            put_float(dequantize(out, model_output(0), i));
            if (i + 1 < n) {
                put(",");
            }
        }
    }
    put("]");
    line_end();
}

static void infer_once(void)
{
    memcpy(model_input(0), loaded, (size_t)model_inputs[0].bytes);
    (void)model_invoke();
}

static uint32_t number(const char *word, int *ok)
{
    uint32_t v = 0;
    *ok = *word != '\0';
    for (; *word; ++word) {
        if (*word < '0' || *word > '9' || v > 100000000u) {
            *ok = 0;
            return 0;
        }
        v = v * 10u + (uint32_t)(*word - '0');
    }
    return v;
}

static void infer(char *const words[], int count)
{
    int ok = 1;
    const uint32_t n = count > 1 ? number(words[1], &ok) : 1u;
    if (!ok || n == 0u) {
        put("e-[Inference iterations must be >0]");
        line_end();
        return;
    }
    const uint32_t warmups = count > 2 ? number(words[2], &ok) : 10u;
    if (!ok) {
        put("e-[Inference warmup must be >=0]");
        line_end();
        return;
    }
    if (load_pos != (uint32_t)model_inputs[0].bytes) {
        put("e-[Input db has ");
        put_u64(load_pos);
        put(" bytes, the model takes ");
        put_u64((uint64_t)model_inputs[0].bytes);
        put("]");
        line_end();
        return;
    }
    put("m-warmup-start-");
    put_u64(warmups);
    line_end();
    for (uint32_t i = 0; i < warmups; ++i) {
        infer_once();
    }
    put("m-warmup-done");
    line_end();
    put("m-infer-start-");
    put_u64(n);
    line_end();
    timestamp();
    for (uint32_t i = 0; i < n; ++i) {
        infer_once();
    }
    timestamp();
    put("m-infer-done");
    line_end();
    results();
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void buffer(char *const words[], int count)
{
    if (count < 2) {
        put("e-[Command 'db' requires a subcommand]");
    } else if (strcmp(words[1], "load") == 0) {
        int ok = 1;
        const uint32_t n = count > 2 ? number(words[2], &ok) : 0u;
        if (count < 3) {
            put("e-[Command 'db load' requires the # of bytes]");
        } else if (!ok || n == 0u) {
            put("e-[Command 'db load' must be >0 bytes]");
        } else if (n > MCU_MLPERF_INPUT_BYTES) {
            put("e-[Supplied buffer size ");
            put_u64(n);
            put(" exceeds maximum of ");
            put_u64(MCU_MLPERF_INPUT_BYTES);
            put("]");
        } else {
            load_size = n;
            load_pos = 0u;
            put("m-[Expecting ");
            put_u64(n);
            put(" bytes]");
        }
    } else if (strcmp(words[1], "print") == 0) {
        for (uint32_t i = 0; i < load_size; ++i) {
            static const char hex[] = "0123456789abcdef";
            const char pair[2] = {hex[loaded[i] >> 4], hex[loaded[i] & 15u]};
            put(i % 8u == 0u ? "m-buffer-" : "-");
            mcu_port_write((const uint8_t *)pair, 2);
            if (i % 8u == 7u || i + 1u == load_size) {
                line_end();
            }
        }
        return;
    } else {
        const char *digits = words[1];
        const size_t length = strlen(digits);
        if (length % 2u != 0u) {
            put("e-[Insufficent number of hex digits]");
            line_end();
            return;
        }
        for (size_t i = 0; i < length && load_pos < load_size; i += 2u) {
            const int hi = hex_digit(digits[i]), lo = hex_digit(digits[i + 1u]);
            if (hi < 0 || lo < 0) {
                put("e-[Invalid hex digit]");
                line_end();
                return;
            }
            loaded[load_pos++] = (uint8_t)(hi << 4 | lo);
        }
        if (load_pos < load_size) {
            return;
        }
        put("m-load-done");
    }
    line_end();
}

static void command(char *text)
{
    char *words[4] = {0};
    int count = 0;
    for (char *p = text; *p && count < 4;) {
        while (*p == ' ') {
            *p++ = '\0';
        }
        if (*p) {
            words[count++] = p;
            while (*p && *p != ' ') {
                ++p;
            }
        }
    }
    if (count == 0) {
        put("e-[Unknown command: ]");
        line_end();
    } else if (strcmp(words[0], "name") == 0) {
        put("m-name-dut-[mcugen]");
        line_end();
    } else if (strcmp(words[0], "timestamp") == 0) {
        timestamp();
    } else if (strcmp(words[0], "profile") == 0) {
        put("m-profile-[ULPMark for tinyML Firmware V0.0.1]");
        line_end();
        put("m-model-[" MCU_MLPERF_MODEL "]");
        line_end();
    } else if (strcmp(words[0], "db") == 0) {
        buffer(words, count);
    } else if (strcmp(words[0], "infer") == 0) {
        infer(words, count);
    } else if (strcmp(words[0], "results") == 0) {
        results();
    } else {
        put("e-[Unknown command: ");
        put(words[0]);
        put("]");
        line_end();
    }
    put("m-ready");
    line_end();
}

int mcu_harness_run(void)
{
    static char line[COMMAND_SIZE + 1];
    uint32_t n = 0;
    if (model_init(arena, sizeof arena) != MODEL_OK) {
        return 1;
    }
    put("m-timestamp-mode-performance");
    line_end();
    put("m-init-done");
    line_end();
    put("m-ready");
    line_end();
    for (;;) {
        const int c = mcu_port_getc();
        if (c < 0) {
            return 0;
        }
        if (c == '%') {
            line[n] = '\0';
            command(line);
            n = 0;
        } else if (c != '\r' && c != '\n' && n < COMMAND_SIZE) {
            line[n++] = (char)c;
        }
    }
}
