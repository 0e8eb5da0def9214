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
 * Each inference copies the loaded bytes into the model's input first (the arena reuses them; the
 * copy is inside the timed loop), or, built with --external-input, gives the model the loaded bytes. */
#include <string.h>

#include "mcu_harness_config.h"
#include "mcu_port.h"
#include "mcu_text.h"
#include "model.h"

#define COMMAND_SIZE 80

static int8_t arena[MODEL_ARENA_BYTES] __attribute__((aligned(16)));
static uint8_t loaded[MCU_MLPERF_INPUT_BYTES] __attribute__((aligned(16)));
static uint32_t load_size, load_pos;

/* the generated model calls this after every layer where it was built with -DMODEL_PROFILE */
void model_layer_done(int32_t layer) { (void)layer; }

/* the port's counter (cycles, SysTick ticks under QEMU -icount, the host's nanoseconds) at MCU_CPU_HZ */
static uint64_t microseconds(void)
{
#if MCU_CPU_HZ % 1000000u == 0u
    return mcu_port_cycles() / (MCU_CPU_HZ / 1000000u);
#else
    return mcu_port_cycles() * 1000000u / MCU_CPU_HZ;
#endif
}

/* one line of the protocol */
static void put_line(const char *text)
{
    mcu_put(text);
    mcu_line_end();
}

static void timestamp(void)
{
    mcu_put("m-lap-us-");
    mcu_put_u64(microseconds());
    mcu_line_end();
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
    mcu_put("m-results-[");
    if (MODEL_INPUT_COUNT == 1 && n == elements(in)) { /* an autoencoder: AD's reconstruction error */
        float sum = 0.0f;
        for (int32_t i = 0; i < n; ++i) {
            const float d = dequantize(out, model_output(0), i) - dequantize(in, loaded, i);
            sum += d * d;
        }
        mcu_put_float(sum / (float)n);
    } else {
        for (int32_t i = 0; i < n; ++i) {
            mcu_put_float(dequantize(out, model_output(0), i));
            if (i + 1 < n) {
                mcu_put(",");
            }
        }
    }
    put_line("]");
}

static void infer_once(void)
{
#if defined(MODEL_EXTERNAL_INPUTS)
    (void)model_set_input(0, loaded);
#else
    memcpy(model_input(0), loaded, (size_t)model_inputs[0].bytes);
#endif
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
        put_line("e-[Inference iterations must be >0]");
        return;
    }
    const uint32_t warmups = count > 2 ? number(words[2], &ok) : 10u;
    if (!ok) {
        put_line("e-[Inference warmup must be >=0]");
        return;
    }
    if (load_pos != (uint32_t)model_inputs[0].bytes) {
        mcu_put("e-[Input db has ");
        mcu_put_u64(load_pos);
        mcu_put(" bytes, the model takes ");
        mcu_put_u64((uint64_t)model_inputs[0].bytes);
        put_line("]");
        return;
    }
    mcu_put("m-warmup-start-");
    mcu_put_u64(warmups);
    mcu_line_end();
    for (uint32_t i = 0; i < warmups; ++i) {
        infer_once();
    }
    put_line("m-warmup-done");
    mcu_put("m-infer-start-");
    mcu_put_u64(n);
    mcu_line_end();
    timestamp();
    for (uint32_t i = 0; i < n; ++i) {
        infer_once();
    }
    timestamp();
    put_line("m-infer-done");
    results();
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static void buffer(char *const words[], int count)
{
    if (count < 2) {
        mcu_put("e-[Command 'db' requires a subcommand]");
    } else if (strcmp(words[1], "load") == 0) {
        int ok = 1;
        const uint32_t n = count > 2 ? number(words[2], &ok) : 0u;
        if (count < 3) {
            mcu_put("e-[Command 'db load' requires the # of bytes]");
        } else if (!ok || n == 0u) {
            mcu_put("e-[Command 'db load' must be >0 bytes]");
        } else if (n > MCU_MLPERF_INPUT_BYTES) {
            mcu_put("e-[Supplied buffer size ");
            mcu_put_u64(n);
            mcu_put(" exceeds maximum of ");
            mcu_put_u64(MCU_MLPERF_INPUT_BYTES);
            mcu_put("]");
        } else {
            load_size = n;
            load_pos = 0u;
            mcu_put("m-[Expecting ");
            mcu_put_u64(n);
            mcu_put(" bytes]");
        }
    } else if (strcmp(words[1], "print") == 0) {
        for (uint32_t i = 0; i < load_size; ++i) {
            static const char hex[] = "0123456789abcdef";
            const char pair[2] = {hex[loaded[i] >> 4], hex[loaded[i] & 15u]};
            mcu_put(i % 8u == 0u ? "m-buffer-" : "-");
            mcu_port_write((const uint8_t *)pair, 2);
            if (i % 8u == 7u || i + 1u == load_size) {
                mcu_line_end();
            }
        }
        return;
    } else {
        const char *digits = words[1];
        const size_t length = strlen(digits);
        if (length % 2u != 0u) {
            put_line("e-[Insufficent number of hex digits]");
            return;
        }
        for (size_t i = 0; i < length && load_pos < load_size; i += 2u) {
            const int hi = hex_digit(digits[i]), lo = hex_digit(digits[i + 1u]);
            if (hi < 0 || lo < 0) {
                put_line("e-[Invalid hex digit]");
                return;
            }
            loaded[load_pos++] = (uint8_t)(hi << 4 | lo);
        }
        if (load_pos < load_size) {
            return;
        }
        mcu_put("m-load-done");
    }
    mcu_line_end();
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
        put_line("e-[Unknown command: ]");
    } else if (strcmp(words[0], "name") == 0) {
        put_line("m-name-dut-[mcugen]");
    } else if (strcmp(words[0], "timestamp") == 0) {
        timestamp();
    } else if (strcmp(words[0], "profile") == 0) {
        put_line("m-profile-[ULPMark for tinyML Firmware V0.0.1]");
        put_line("m-model-[" MCU_MLPERF_MODEL "]");
    } else if (strcmp(words[0], "db") == 0) {
        buffer(words, count);
    } else if (strcmp(words[0], "infer") == 0) {
        infer(words, count);
    } else if (strcmp(words[0], "results") == 0) {
        results();
    } else {
        mcu_put("e-[Unknown command: ");
        mcu_put(words[0]);
        put_line("]");
    }
    put_line("m-ready");
}

int mcu_harness_run(void)
{
    static char line[COMMAND_SIZE + 1];
    uint32_t n = 0;
    if (model_init(arena, sizeof arena) != MODEL_OK) {
        return 1;
    }
    put_line("m-timestamp-mode-performance");
    put_line("m-init-done");
    put_line("m-ready");
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
