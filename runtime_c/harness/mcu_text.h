/* Text on the port's byte stream (mcu_text.c): what the MLPerf Tiny harness answers with. */
#ifndef MCU_TEXT_H
#define MCU_TEXT_H

#include <stdint.h>

void mcu_put(const char *text);
void mcu_put_u64(uint64_t v);
/* six decimals, as the runner's float() reads them; nan, inf, and 1e12 past it */
void mcu_put_float(float f);
/* "\r\n", then the port flushed: a line is a unit of the protocol */
void mcu_line_end(void);

#endif /* MCU_TEXT_H */
