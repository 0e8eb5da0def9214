/*
 * The target side of mcugen's validation protocol (the host side and the frame format are
 * documented in mcugen/targets/protocol.py). The host asks, the target answers; every request gets
 * exactly one reply frame carrying the request's sequence number, so the host can retry
 * anything that was lost or corrupted on the wire. Writes and reads are idempotent; a repeated
 * INVOKE (same sequence number, no write in between) replays the stored result instead of
 * running again, because the arena may have reused the input bytes and a stateful model's state
 * has moved on. RESET puts the model's state back to its boot value (model_reset), which is
 * idempotent too.
 */
#include <string.h>

#include "mcu_frame.h"
#include "mcu_port.h"
#include "model.h"

#if defined(__GNUC__)
#define MCU_HARNESS_ALIGN __attribute__((aligned(16)))
#else
#define MCU_HARNESS_ALIGN
#endif

#define PROTOCOL_VERSION 3

enum {
    REQ_HELLO = 0x01,
    REQ_WRITE = 0x02,
    REQ_INVOKE = 0x03,
    REQ_READ = 0x04,
    REQ_RESET = 0x05,
    REP_INFO = 0x81,
    REP_ACK = 0x82,
    REP_RESULT = 0x83,
    REP_DATA = 0x84,
    REP_NAK = 0x85,
    REP_FAULT = 0x86
};

enum { NAK_CRC = 0, NAK_UNKNOWN = 1, NAK_RANGE = 2 };
enum { REGION_OUTPUT = 0, REGION_LAYER_CYCLES = 1 };

static uint64_t layer_cycles[MODEL_LAYER_COUNT + 1];
static uint64_t layer_start;
static volatile int32_t layer_running = -1; /* the layer model_invoke is in (-1: none), for a fault report */

void model_layer_done(int32_t layer)
{
    const uint64_t now = mcu_port_cycles();
    layer_cycles[layer] = now - layer_start;
    layer_start = now;
    layer_running = layer + 1;
}

/* A fault stops the board (mcu_port's handler calls this first): one frame the host reads whatever it waits
 * for, so that it names the layer rather than waiting out a silent board. */
void mcu_harness_fault(uint32_t exception, uint32_t pc)
{
    uint8_t report[12];
    memset(report, 0, sizeof report);
    report[0] = (uint8_t)exception;
    mcu_put_u32(report + 4, pc);
    mcu_put_u32(report + 8, (uint32_t)layer_running);
    mcu_frame_send(REP_FAULT, 0, report, sizeof report);
}

static void send_nak(uint8_t seq, uint8_t reason)
{
    mcu_frame_send(REP_NAK, seq, &reason, 1);
}

/* INFO describes the build: a byte string the host reads in pages of up to INFO_PAGE bytes
 * (HELLO carries the page's offset), so any number of tensors of any rank fits:
 *   clock u8, arena u32, layers u16, inputs u16, outputs u16, sha256[32],
 *   per input then output: bytes u32, rank u8, dims u32[rank]
 * Each reply is version u8 | total length u32 | the page. The description is produced twice, once
 * to measure the page and once to send it, keeping only the bytes that fall into the page: the
 * reply needs no buffer (its 240 bytes of RAM would be a third of a small model's arena). */
#define INFO_PAGE (MAX_PAYLOAD - 5)

typedef struct {
    uint32_t at;     /* bytes of the description produced so far */
    uint32_t start;  /* the page's offset */
    uint32_t used;   /* bytes of the page produced */
    int send;        /* 0: measuring */
    uint32_t crc;    /* of the frame so far, when sending */
} info_page;

static void info_put(info_page *page, const uint8_t *bytes, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i, ++page->at) {
        if (page->at >= page->start && page->used < INFO_PAGE) {
            ++page->used;
            if (page->send) {
                page->crc = mcu_frame_put(page->crc, bytes + i, 1);
            }
        }
    }
}

static void info_mcu_put_u32(info_page *page, uint32_t v, uint32_t width)
{
    uint8_t b[4];
    mcu_put_u32(b, v);
    info_put(page, b, width);
}

static void info_put_tensor(info_page *page, const model_tensor_info *t)
{
    info_mcu_put_u32(page, (uint32_t)t->bytes, 4);
    info_mcu_put_u32(page, (uint32_t)t->rank, 1);
    for (int32_t k = 0; k < t->rank; ++k) {
        info_mcu_put_u32(page, (uint32_t)t->shape[k], 4);
    }
}

static void describe(info_page *page)
{
    info_mcu_put_u32(page, mcu_port_clock_kind(), 1);
    info_mcu_put_u32(page, MODEL_ARENA_BYTES, 4);
    info_mcu_put_u32(page, MODEL_LAYER_COUNT, 2);
    info_mcu_put_u32(page, MODEL_INPUT_COUNT, 2);
    info_mcu_put_u32(page, MODEL_OUTPUT_COUNT, 2);
    info_put(page, model_sha256, 32);
    for (int32_t i = 0; i < MODEL_INPUT_COUNT; ++i) {
        info_put_tensor(page, &model_inputs[i]);
    }
    for (int32_t i = 0; i < MODEL_OUTPUT_COUNT; ++i) {
        info_put_tensor(page, &model_outputs[i]);
    }
}

static void send_info(uint8_t seq, uint32_t size)
{
    info_page page = {0, size >= 4 ? mcu_get_u32(mcu_frame_request) : 0, 0, 0, 0};
    describe(&page);
    if (page.start > page.at) {
        send_nak(seq, NAK_RANGE);
        return;
    }
    uint8_t head[5] = {PROTOCOL_VERSION};
    mcu_put_u32(head + 1, page.at);
    page.crc = mcu_frame_put(mcu_frame_begin(REP_INFO, seq, 5 + page.used), head, 5);
    page.at = page.used = 0;
    page.send = 1;
    describe(&page);
    mcu_frame_end(page.crc);
}

static int have_result;
static uint8_t result_seq;
static uint8_t result[12];

static void handle_invoke(uint8_t seq)
{
    if (!have_result || seq != result_seq) {
        layer_start = mcu_port_cycles();
        const uint64_t start = layer_start;
        layer_running = 0;
        const int status = model_invoke();
        layer_running = -1;
        const uint64_t cycles = mcu_port_cycles() - start;
        memset(result, 0, sizeof result);
        result[0] = (uint8_t)status;
        mcu_put_u32(result + 4, (uint32_t)cycles);
        mcu_put_u32(result + 8, (uint32_t)(cycles >> 32));
        have_result = 1;
        result_seq = seq;
    }
    mcu_frame_send(REP_RESULT, seq, result, sizeof result);
}

static void handle_reset(uint8_t seq)
{
    model_reset();
    have_result = 0;
    mcu_frame_send(REP_ACK, seq, NULL, 0);
}

static void handle_write(uint8_t seq, uint32_t size)
{
    if (size < 5) {
        send_nak(seq, NAK_RANGE);
        return;
    }
    const uint8_t *request = mcu_frame_request;
    const uint32_t index = request[0], offset = mcu_get_u32(request + 1), n = size - 5;
    if (index >= MODEL_INPUT_COUNT || offset > (uint32_t)model_inputs[index].bytes
        || n > (uint32_t)model_inputs[index].bytes - offset) {
        send_nak(seq, NAK_RANGE);
        return;
    }
    memcpy((uint8_t *)model_input((int)index) + offset, request + 5, n);
    have_result = 0;
    mcu_frame_send(REP_ACK, seq, NULL, 0);
}

static void handle_read(uint8_t seq, uint32_t size)
{
    const uint8_t *request = mcu_frame_request;
    const uint32_t region = request[0], index = request[1];
    const uint32_t offset = mcu_get_u32(request + 2), n = (uint32_t)request[6] | (uint32_t)request[7] << 8;
    const uint8_t *base = NULL;
    uint32_t limit = 0;
    if (size == 8 && region == REGION_OUTPUT && index < MODEL_OUTPUT_COUNT) {
        base = (const uint8_t *)model_output((int)index);
        limit = (uint32_t)model_outputs[index].bytes;
    } else if (size == 8 && region == REGION_LAYER_CYCLES) {
        base = (const uint8_t *)layer_cycles;
        limit = MODEL_LAYER_COUNT * (uint32_t)sizeof layer_cycles[0];
    }
    if (base == NULL || n > MAX_PAYLOAD || offset > limit || n > limit - offset) {
        send_nak(seq, NAK_RANGE);
        return;
    }
    mcu_frame_send(REP_DATA, seq, base + offset, n);
}

/* The harness is an application like any other: it gives the model its arena through the
 * generated API (the model is always generated as `model` for it). */
static int8_t arena[MODEL_ARENA_BYTES] MCU_HARNESS_ALIGN;
#if defined(MODEL_EXTERNAL_INPUTS)
/* A model built with --external-input reads its inputs where the application keeps them: here. */
static uint8_t inputs_kept[MODEL_EXTERNAL_INPUT_BYTES] MCU_HARNESS_ALIGN;
#endif

int mcu_harness_run(void)
{
    if (model_init(arena, sizeof arena) != MODEL_OK) {
        return 1;
    }
#if defined(MODEL_EXTERNAL_INPUTS)
    (void)model_set_inputs(inputs_kept);
#endif
    for (;;) {
        uint8_t type = 0, seq = 0;
        uint32_t size = 0;
        const int status = mcu_frame_receive(&type, &seq, &size);
        if (status == LINK_CLOSED) {
            return 0;
        }
        if (status == FRAME_BAD) {
            send_nak(seq, NAK_CRC);
            continue;
        }
        switch (type) {
        case REQ_HELLO:
            send_info(seq, size);
            break;
        case REQ_WRITE:
            handle_write(seq, size);
            break;
        case REQ_INVOKE:
            handle_invoke(seq);
            break;
        case REQ_READ:
            handle_read(seq, size);
            break;
        case REQ_RESET:
            handle_reset(seq);
            break;
        default:
            send_nak(seq, NAK_UNKNOWN);
            break;
        }
    }
}
