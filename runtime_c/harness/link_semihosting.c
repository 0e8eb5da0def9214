#include "mcu_port.h"
#include "mcu_uart.h"

/* Emulated boards whose board file says `qemu: {link: semihosting}`: the protocol's bytes go through
 * QEMU's semihosting console (SYS_READ/SYS_WRITE on ":tt") instead of the UART. QEMU's UART models
 * take one byte per pass of its main loop (~40 us); the console moves a buffer per call, so an
 * input costs what its bytes cost to copy and validation runs at the emulator's speed. */
enum { SYS_OPEN = 0x01, SYS_WRITE = 0x05, SYS_READ = 0x06 };

static int32_t semihost(int32_t op, const void *args)
{
    register int32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = args;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static int32_t console(uint32_t mode) /* 0: read, 4: write */
{
    const uint32_t args[3] = {(uint32_t)":tt", mode, 3};
    return semihost(SYS_OPEN, args);
}

static uint8_t in_buf[256], out_buf[256];
static uint32_t in_len, in_pos, out_len;
static int32_t console_in = -1, console_out = -1;

int mcu_port_getc(void)
{
    if (in_pos == in_len) {
        if (console_in < 0) {
            console_in = console(0);
        }
        const uint32_t args[3] = {(uint32_t)console_in, (uint32_t)in_buf, sizeof in_buf};
        const int32_t unread = semihost(SYS_READ, args); /* blocks until at least one byte */
        in_len = sizeof in_buf - (uint32_t)unread;
        in_pos = 0;
        if (unread < 0 || in_len == 0) {
            return -1;
        }
    }
    return in_buf[in_pos++];
}

void mcu_port_flush(void)
{
    if (out_len) {
        if (console_out < 0) {
            console_out = console(4);
        }
        const uint32_t args[3] = {(uint32_t)console_out, (uint32_t)out_buf, out_len};
        (void)semihost(SYS_WRITE, args);
        out_len = 0;
    }
}

void mcu_port_write(const uint8_t *data, uint32_t size)
{
    while (size--) {
        if (out_len == sizeof out_buf) {
            mcu_port_flush();
        }
        out_buf[out_len++] = *data++;
    }
}

void mcu_link_init(void) /* nothing to set up: QEMU's console is there */
{
}
