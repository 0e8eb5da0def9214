/*
 * What the bare-metal port's pieces give each other (port_cortexm.c, link_*.c, uart_<kind>.c,
 * chip_<name>.c): one file per UART driver and per chip start-up, the build picks them from the board file.
 */
#ifndef MCU_UART_H
#define MCU_UART_H

#include <stdint.h>

#define REG(addr) (*(volatile uint32_t *)(addr))

void mcu_uart_init(void);
void mcu_uart_putc(uint8_t c);
uint8_t mcu_uart_getc(void);
void mcu_link_init(void);
void mcu_chip_init(void);

#if defined(MCU_CLOCK_ENABLES)
/* A UART on a chip nothing has set up: its clocks (the board file's register and bit pairs) first. */
static inline void mcu_enable_clocks(void)
{
    static const uint32_t clocks[] = {MCU_CLOCK_ENABLES}; /* register, bit, ... */
    for (uint32_t k = 0; k + 1 < sizeof clocks / sizeof clocks[0]; k += 2) {
        REG(clocks[k]) |= 1u << clocks[k + 1];
        (void)REG(clocks[k]); /* read back: the clock runs before the peripheral is written */
    }
}
#endif

#endif /* MCU_UART_H */
