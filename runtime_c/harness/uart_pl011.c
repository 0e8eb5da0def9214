#include "mcu_uart.h"

/* Arm PL011: DR, FR (bit4 RX empty, bit5 TX full); FIFOs on (LCRH.FEN) or input overruns. The baud
 * divisor from the board's UART clock (IBRD, FBRD: clock / (16 x 115200) in 1/64ths, rounded half up);
 * QEMU ignores it, and boards that give no clock are emulated. */
#if defined(MCU_UART_CLOCK_HZ)
#define MCU_UART_SIXTY_FOURTHS ((MCU_UART_CLOCK_HZ * 4u + 57600u) / 115200u)
#define MCU_UART_IBRD (MCU_UART_SIXTY_FOURTHS / 64u)
#define MCU_UART_FBRD (MCU_UART_SIXTY_FOURTHS % 64u)
#else
#define MCU_UART_IBRD 27
#define MCU_UART_FBRD 8
#endif
void mcu_uart_init(void)
{
    REG(MCU_UART_BASE + 0x030) = 0;
    REG(MCU_UART_BASE + 0x024) = MCU_UART_IBRD;
    REG(MCU_UART_BASE + 0x028) = MCU_UART_FBRD;
    REG(MCU_UART_BASE + 0x02C) = (3u << 5) | (1u << 4);
    REG(MCU_UART_BASE + 0x030) = (1u << 9) | (1u << 8) | 1u;
}

void mcu_uart_putc(uint8_t c)
{
    while (REG(MCU_UART_BASE + 0x018) & (1u << 5)) {
    }
    REG(MCU_UART_BASE + 0x000) = c;
}

uint8_t mcu_uart_getc(void)
{
    while (REG(MCU_UART_BASE + 0x018) & (1u << 4)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x000);
}
