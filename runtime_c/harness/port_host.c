/* The host "board": the protocol over stdin/stdout, timed with the monotonic clock. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#include <unistd.h>

#include "mcu_port.h"

static uint8_t in_buffer[4096];
static ssize_t in_size, in_next;

void mcu_port_init(void)
{
}

int mcu_port_getc(void)
{
    if (in_next == in_size) {
        in_size = read(STDIN_FILENO, in_buffer, sizeof in_buffer);
        in_next = 0;
        if (in_size <= 0) {
            return -1;
        }
    }
    return in_buffer[in_next++];
}

void mcu_port_write(const uint8_t *data, uint32_t size)
{
    while (size > 0) {
        const ssize_t n = write(STDOUT_FILENO, data, size);
        if (n <= 0) {
            return;
        }
        data += n;
        size -= (uint32_t)n;
    }
}

void mcu_port_flush(void)
{
}

uint64_t mcu_port_cycles(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

uint8_t mcu_port_clock_kind(void)
{
    return MCU_CLOCK_NANOSECONDS;
}

int main(void)
{
    mcu_port_init();
    return mcu_harness_run();
}
