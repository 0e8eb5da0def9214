#include "mcu_uart.h"

/* Arm CMSDK APB UART (MPS2): DATA, STATE (bit0 TX full, bit1 RX full), CTRL (TX/RX enable). */
void mcu_uart_init(void)
{
    REG(MCU_UART_BASE + 0x10) = 16; /* BAUDDIV: QEMU drops input below 16 */
    REG(MCU_UART_BASE + 0x08) = 0x3;
}

void mcu_uart_putc(uint8_t c)
{
    while (REG(MCU_UART_BASE + 0x04) & 1u) {
    }
    REG(MCU_UART_BASE + 0x00) = c;
}

uint8_t mcu_uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x04) & 2u)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x00);
}
