#include "mcu_uart.h"

/* STM32F4 USART: SR (bit7 TXE, bit5 RXNE), DR, BRR, CR1 (UE, TE, RE). Bytes sent before UE are lost. */
void mcu_uart_init(void)
{
    REG(0x40023844) |= 1u << 4; /* RCC APB2ENR: USART1 clock */
    REG(MCU_UART_BASE + 0x08) = 0x16D;
    REG(MCU_UART_BASE + 0x0C) = (1u << 13) | (1u << 3) | (1u << 2);
}

void mcu_uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x00) & (1u << 7))) {
    }
    REG(MCU_UART_BASE + 0x04) = c;
}

uint8_t mcu_uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x00) & (1u << 5))) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x04);
}
