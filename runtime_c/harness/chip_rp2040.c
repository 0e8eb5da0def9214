#include "mcu_uart.h"

/* RP2040 after its bootrom and boot2: the ring oscillator (1.8 to 12 MHz, chip to chip) clocks everything,
 * clk_peri (the UARTs') is off, and the UARTs and GPIO banks are held in reset. The crystal (12 MHz on the
 * Pico) becomes clk_ref, which clk_sys follows; clk_peri runs from clk_sys; UART0 and the GPIO banks leave
 * reset and the board's two pins are given to UART0 (function 2). */
void mcu_chip_init(void)
{
    REG(0x40024000) = 0xAA0u;                 /* XOSC CTRL: FREQ_RANGE 1-15 MHz */
    REG(0x4002400C) = 47u;                    /* XOSC STARTUP: 47 x 256 cycles, ~1 ms at 12 MHz */
    REG(0x40024000 + 0x2000) = 0xFABu << 12;  /* XOSC CTRL, set alias: ENABLE */
    while (!(REG(0x40024004) & (1u << 31))) { /* XOSC STATUS: STABLE */
    }
    REG(0x40008030) = 2u;                     /* CLK_REF_CTRL: SRC = xosc */
    while (!(REG(0x40008038) & (1u << 2))) {  /* CLK_REF_SELECTED: xosc */
    }
    REG(0x4000803C) = 0u;                     /* CLK_SYS_CTRL: SRC = clk_ref */
    while (!(REG(0x40008044) & 1u)) {         /* CLK_SYS_SELECTED: clk_ref */
    }
    REG(0x40008048) = 1u << 11;               /* CLK_PERI_CTRL: ENABLE, AUXSRC = clk_sys */
    const uint32_t blocks = (1u << 5) | (1u << 8) | (1u << 22); /* IO_BANK0, PADS_BANK0, UART0 */
    REG(0x4000C000 + 0x3000) = blocks;        /* RESETS RESET, clear alias: out of reset */
    while ((REG(0x4000C008) & blocks) != blocks) { /* RESET_DONE */
    }
    REG(0x40014004 + 8u * MCU_UART_TX_PIN) = 2u; /* IO_BANK0 GPIOn_CTRL: FUNCSEL = UART */
    REG(0x40014004 + 8u * MCU_UART_RX_PIN) = 2u;
}
