/*
 * Two mcugen models side by side in one program, each in an arena the program owns: both inputs
 * are written before either model runs, so a model touching the other's memory would show. The
 * outputs go out as hex lines ("kws <hex>", "person <hex>", "end") for the test to compare with
 * the golden model. Written in the C subset of C++: the tests compile it as C++ (CMake, host and
 * QEMU) and as C (PlatformIO).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "inputs.h" /* written by the test: kws_sample[], person_sample[] */
#include "kws.h"
#include "person.h"

static uint8_t kws_arena[KWS_ARENA_BYTES + 1] __attribute__((aligned(16)));
static uint8_t person_arena[PERSON_ARENA_BYTES] __attribute__((aligned(16)));

#if defined(__arm__)
#include "mcu_port.h"
static void emit(const char *text, size_t n)
{
    mcu_port_write((const uint8_t *)text, (uint32_t)n);
    mcu_port_flush(); /* a port may buffer (QEMU's semihosting console does) */
}
#else
#include <stdio.h>
static void emit(const char *text, size_t n)
{
    fwrite(text, 1, n, stdout);
}
#endif

static void emit_text(const char *text)
{
    emit(text, strlen(text));
}

static void emit_hex(const char *label, const void *data, int32_t bytes)
{
    static const char digits[] = "0123456789abcdef";
    const uint8_t *p = (const uint8_t *)data;
    emit_text(label);
    emit_text(" ");
    for (int32_t i = 0; i < bytes; ++i) {
        const char pair[2] = {digits[p[i] >> 4], digits[p[i] & 15]};
        emit(pair, 2);
    }
    emit_text("\n");
}

/* The API's refusals, before the arenas are given: each failure is named on the output. */
static int check_errors(void)
{
    int bad = 0;
    bad |= kws_invoke() != KWS_ERROR_NOT_INITIALISED;
    bad |= kws_input(0) != NULL;
    bad |= kws_init(NULL, sizeof kws_arena) != KWS_ERROR_ARENA_NULL;
    bad |= kws_init(kws_arena, KWS_ARENA_BYTES - 1) != KWS_ERROR_ARENA_TOO_SMALL;
    bad |= kws_init(kws_arena + 1, KWS_ARENA_BYTES) != KWS_ERROR_ARENA_MISALIGNED;
    bad |= kws_invoke() != KWS_ERROR_NOT_INITIALISED; /* a refused arena is not taken */
    return bad;
}

static int run(void)
{
    if (check_errors()) {
        emit_text("error API refusals\n");
    }
    if (kws_init(kws_arena, KWS_ARENA_BYTES) != KWS_OK || person_init(person_arena, sizeof person_arena) != PERSON_OK) {
        emit_text("error init\n");
    }
    if (kws_input(KWS_INPUT_COUNT) != NULL || kws_input(-1) != NULL || person_output(PERSON_OUTPUT_COUNT) != NULL) {
        emit_text("error index checks\n");
    }
    memcpy(kws_input(0), kws_sample, (size_t)kws_inputs[0].bytes);
    memcpy(person_input(0), person_sample, (size_t)person_inputs[0].bytes);
    if (person_invoke() != PERSON_OK || kws_invoke() != KWS_OK) {
        emit_text("error invoke\n");
    }
    emit_hex("kws", kws_output(0), kws_outputs[0].bytes);
    emit_hex("person", person_output(0), person_outputs[0].bytes);
    emit_text("end\n");
    return 0;
}

#if defined(__arm__)
/* port_cortexm.c boots the core and the UART, then calls this. */
int mcu_harness_run(void)
{
    return run();
}
#else
int main(void)
{
    return run();
}
#endif
