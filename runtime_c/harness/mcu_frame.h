/* mcugen's frames (mcu_frame.c), which the validation harness (mcu_harness.c) speaks. */
#ifndef MCU_FRAME_H
#define MCU_FRAME_H

#include <stdint.h>

#define SYNC0 0xA5
#define SYNC1 0x5A
#define MAX_PAYLOAD 240

enum { FRAME_OK = 0, FRAME_BAD = 1, LINK_CLOSED = 2 };

/* A reply in pieces, the CRC running along: begin, put (any number), end (which flushes the port). */
uint32_t mcu_frame_begin(uint8_t type, uint8_t seq, uint32_t size);
uint32_t mcu_frame_put(uint32_t crc, const uint8_t *payload, uint32_t size);
void mcu_frame_end(uint32_t crc);
void mcu_frame_send(uint8_t type, uint8_t seq, const uint8_t *payload, uint32_t size);
/* FRAME_OK (the payload at mcu_frame_request), FRAME_BAD (a CRC or length error), LINK_CLOSED */
int mcu_frame_receive(uint8_t *type, uint8_t *seq, uint32_t *size);
extern const uint8_t *const mcu_frame_request;

void mcu_put_u32(uint8_t *p, uint32_t v);
uint32_t mcu_get_u32(const uint8_t *p);

#endif /* MCU_FRAME_H */
