#include "mcu_uart.h"

/* Synopsys DesignWare APB UART (16550 registers; Alif Ensemble): RBR/THR and DLL at 0x00, DLH 0x04, FCR 0x08,
 * LCR 0x0C, LSR 0x14 (bit0 data ready, bit5 THR empty), DLF 0xC0 (sixteenths of the divisor). Clocks on and
 * the pins muxed from the board file (MCU_PIN_WRITES: register, value pairs), then 8N1 at 115200. */
/* 16x oversampling: clock / 115200 in sixteenths (rounded half up), the whole part in DLL/DLH */
#define MCU_UART_SIXTEENTHS ((MCU_UART_CLOCK_HZ + 57600u) / 115200u)
#define MCU_UART_DIVISOR (MCU_UART_SIXTEENTHS / 16u)
#define MCU_UART_DLF (MCU_UART_SIXTEENTHS % 16u)

void mcu_uart_init(void)
{
    mcu_enable_clocks();
    static const uint32_t pins[] = {MCU_PIN_WRITES};
    for (uint32_t k = 0; k + 1 < sizeof pins / sizeof pins[0]; k += 2) {
        REG(pins[k]) = pins[k + 1];
    }
    REG(MCU_UART_BASE + 0x0C) = 0x80u; /* LCR.DLAB: the divisor latches */
    REG(MCU_UART_BASE + 0x00) = MCU_UART_DIVISOR & 0xFFu;
    REG(MCU_UART_BASE + 0x04) = MCU_UART_DIVISOR >> 8;
    REG(MCU_UART_BASE + 0xC0) = MCU_UART_DLF;
    REG(MCU_UART_BASE + 0x0C) = 0x03u; /* 8 data bits, no parity, 1 stop bit */
    REG(MCU_UART_BASE + 0x08) = 0x07u; /* FIFOs on, both reset */
    /* Alif's driver waits 32 x divisor loop passes after a new divisor ("hardware requires this delay") */
    for (volatile uint32_t i = 0; i < 32u * MCU_UART_DIVISOR; ++i) {
    }
}

void mcu_uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x14) & (1u << 5))) {
    }
    REG(MCU_UART_BASE + 0x00) = c;
}

uint8_t mcu_uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x14) & 1u)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x00);
}
