#include "mcu_uart.h"

/* nRF52 UARTE (EasyDMA), one byte per transfer, 115200 8N1 on the pins from the board file. */
static volatile uint8_t uarte_rx, uarte_tx;
void mcu_uart_init(void)
{
    REG(MCU_UART_BASE + 0x50C) = MCU_UART_TX_PIN;  /* PSEL.TXD */
    REG(MCU_UART_BASE + 0x514) = MCU_UART_RX_PIN;  /* PSEL.RXD */
    REG(MCU_UART_BASE + 0x524) = 0x01D60000u;      /* BAUDRATE 115200 */
    REG(MCU_UART_BASE + 0x56C) = 0;                /* CONFIG: no parity, no flow control */
    REG(MCU_UART_BASE + 0x500) = 8;                /* ENABLE: UARTE */
    REG(MCU_UART_BASE + 0x534) = (uint32_t)&uarte_rx; /* RXD.PTR */
    REG(MCU_UART_BASE + 0x538) = 1;                   /* RXD.MAXCNT */
    REG(MCU_UART_BASE + 0x110) = 0;                   /* EVENTS_ENDRX */
    REG(MCU_UART_BASE + 0x000) = 1;                   /* TASKS_STARTRX */
}

void mcu_uart_putc(uint8_t c)
{
    uarte_tx = c;
    REG(MCU_UART_BASE + 0x544) = (uint32_t)&uarte_tx; /* TXD.PTR */
    REG(MCU_UART_BASE + 0x548) = 1;                   /* TXD.MAXCNT */
    REG(MCU_UART_BASE + 0x120) = 0;                   /* EVENTS_ENDTX */
    REG(MCU_UART_BASE + 0x008) = 1;                   /* TASKS_STARTTX */
    while (!REG(MCU_UART_BASE + 0x120)) {
    }
}

uint8_t mcu_uart_getc(void)
{
    while (!REG(MCU_UART_BASE + 0x110)) {
    }
    const uint8_t c = uarte_rx;
    REG(MCU_UART_BASE + 0x110) = 0;
    REG(MCU_UART_BASE + 0x000) = 1; /* next byte */
    return c;
}
