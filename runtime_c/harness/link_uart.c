#include "mcu_port.h"
#include "mcu_uart.h"

/* The protocol's bytes through the board's UART (uart_<kind>.c, the board file's `uart`), polled. */
void mcu_link_init(void)
{
    mcu_uart_init();
}

int mcu_port_getc(void)
{
    return mcu_uart_getc();
}

void mcu_port_write(const uint8_t *data, uint32_t size)
{
    while (size--) {
        mcu_uart_putc(*data++);
    }
}

void mcu_port_flush(void)
{
}
