#include "mcu_uart.h"

/* The STM32 USART of the L4/F7/G0/H7/U5 generations: CR1 (UE, RE, TE), BRR, ISR (bit7 TXE, bit5 RXNE),
 * RDR, TDR. Nothing else has set the chip up: the USART's and its GPIO port's clocks are enabled and the
 * pins given their alternate function here, from the board file, at the reset clock. */
/* 16x oversampling: BRR = clock / 115200, rounded half up */
#define MCU_UART_BRR ((MCU_UART_CLOCK_HZ + 57600u) / 115200u)

void mcu_uart_init(void)
{
    mcu_enable_clocks();
    const uint32_t pins[] = {MCU_UART_TX_PIN, MCU_UART_RX_PIN};
    for (uint32_t k = 0; k < 2; ++k) {
        const uint32_t pin = pins[k], afr = MCU_GPIO_BASE + (pin < 8 ? 0x20u : 0x24u), at = 4u * (pin & 7u);
        REG(MCU_GPIO_BASE) = (REG(MCU_GPIO_BASE) & ~(3u << (2u * pin))) | (2u << (2u * pin)); /* MODER: AF */
        REG(afr) = (REG(afr) & ~(0xFu << at)) | ((uint32_t)MCU_GPIO_AF << at);
    }
    REG(MCU_UART_BASE + 0x0C) = MCU_UART_BRR;
    REG(MCU_UART_BASE + 0x00) = (1u << 3) | (1u << 2) | 1u;
}

void mcu_uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x1C) & (1u << 7))) {
    }
    REG(MCU_UART_BASE + 0x28) = c;
}

uint8_t mcu_uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x1C) & (1u << 5))) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x24);
}
