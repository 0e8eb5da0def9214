/*
 * mcugen's frames on the port's byte stream (the format is documented in mcugen/targets/protocol.py): sync
 * A5 5A, type, sequence, a 16-bit length, the payload and a CRC-32 of all but the sync. Written as
 * they are produced, read by hunting for the sync (mcu_frame.h).
 */
#include <string.h>

#include "mcu_frame.h"
#include "mcu_port.h"

/* CRC-32 (IEEE 802.3, reflected, as zlib.crc32), bit by bit: a table would cost 1 KB of flash
 * and the UART, not this loop, limits the speed. */
static uint32_t crc32_update(uint32_t crc, const uint8_t *data, uint32_t size)
{
    crc = ~crc;
    for (uint32_t i = 0; i < size; ++i) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; ++bit) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void put_u16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

void mcu_put_u32(uint8_t *p, uint32_t v)
{
    put_u16(p, v);
    put_u16(p + 2, v >> 16);
}

uint32_t mcu_get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A frame is written as it is produced (header, payload pieces, trailer) so that no reply needs a
 * buffer of its own: the CRC runs along. */
uint32_t mcu_frame_begin(uint8_t type, uint8_t seq, uint32_t size)
{
    uint8_t header[6] = {SYNC0, SYNC1, type, seq, 0, 0};
    put_u16(header + 4, size);
    mcu_port_write(header, 6);
    return crc32_update(0, header + 2, 4);
}

uint32_t mcu_frame_put(uint32_t crc, const uint8_t *payload, uint32_t size)
{
    mcu_port_write(payload, size);
    return crc32_update(crc, payload, size);
}

void mcu_frame_end(uint32_t crc)
{
    uint8_t trailer[4];
    mcu_put_u32(trailer, crc);
    mcu_port_write(trailer, 4);
    mcu_port_flush();
}

void mcu_frame_send(uint8_t type, uint8_t seq, const uint8_t *payload, uint32_t size)
{
    mcu_frame_end(mcu_frame_put(mcu_frame_begin(type, seq, size), payload, size));
}

/* Bytes received and not yet done with; a frame being parsed always starts at rx[0]. When a
 * frame turns out bad (a wrong second sync byte, an impossible length, a wrong CRC), its sync may
 * have been noise or a stray A5 5A just before a real frame: only its first byte is dropped and
 * the rest is parsed again before new bytes are read, so a valid frame behind it is never lost.
 * One frame's worth of bytes is all that is ever held. */
static uint8_t rx[MAX_PAYLOAD + 10];
static uint32_t rx_len;  /* bytes held */
static uint32_t rx_pos;  /* of them, parsed as the current frame */
static uint32_t rx_done; /* bytes of the last good frame, dropped when the next one is sought */
const uint8_t *const mcu_frame_request = rx + 6;  /* the payload of the good frame */

static int next_byte(void)
{
    if (rx_pos == rx_len) {
        const int b = mcu_port_getc();
        if (b < 0) {
            return b;
        }
        rx[rx_len++] = (uint8_t)b;
    }
    return rx[rx_pos++];
}

static void drop(uint32_t n)
{
    memmove(rx, rx + n, rx_len - n);
    rx_len -= n;
    rx_pos = 0;
}

/* Hunts for the sync bytes, then reads one frame; its payload is at mcu_frame_request. */
int mcu_frame_receive(uint8_t *type, uint8_t *seq, uint32_t *size)
{
    drop(rx_done);
    rx_done = 0;
    for (;;) {
        int b = next_byte();
        if (b == SYNC0) {
            b = next_byte();
        }
        if (b < 0) {
            return LINK_CLOSED;
        }
        if (rx_pos < 2 || b != SYNC1) {
            drop(1);
            continue;
        }
        for (int i = 0; i < 4; ++i) {
            if (next_byte() < 0) {
                return LINK_CLOSED;
            }
        }
        *type = rx[2];
        *seq = rx[3];
        *size = (uint32_t)rx[4] | (uint32_t)rx[5] << 8;
        if (*size > MAX_PAYLOAD) {
            drop(1);
            continue;
        }
        for (uint32_t i = 0; i < *size + 4; ++i) {
            if (next_byte() < 0) {
                return LINK_CLOSED;
            }
        }
        if (crc32_update(0, rx + 2, 4 + *size) == mcu_get_u32(rx + 6 + *size)) {
            rx_done = rx_pos;
            return FRAME_OK;
        }
        drop(1);
        return FRAME_BAD;
    }
}
