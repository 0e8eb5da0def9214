/*
 * What the target harness needs from a board: a byte stream to the host and a clock.
 * One implementation per board family (port_host.c for the host build, port_*.c for MCUs).
 */
#ifndef MCU_PORT_H
#define MCU_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What mcu_port_cycles() counts; reported to the host in the handshake. */
enum {
    MCU_CLOCK_NANOSECONDS = 0, /* host build: monotonic wall clock */
    MCU_CLOCK_CYCLES = 1,      /* DWT->CYCCNT: core clock cycles */
    MCU_CLOCK_SYSTICK = 2      /* SysTick under QEMU -icount: a deterministic instruction-count proxy */
};

void mcu_port_init(void);
/* The next byte from the host, blocking; -1 once the link is closed (only the host build closes). */
int mcu_port_getc(void);
void mcu_port_write(const uint8_t *data, uint32_t size);
/* Called after each complete frame: push out anything buffered. */
void mcu_port_flush(void);
uint64_t mcu_port_cycles(void);
uint8_t mcu_port_clock_kind(void);

/* The protocol loop (mcu_harness.c); returns when the link closes. */
int mcu_harness_run(void);
/* What a port's fault handler calls before it stops the board: the exception number and the faulting pc,
 * reported to the host (mcu_harness.c; the MLPerf harness has none, and the port's weak one says nothing). */
void mcu_harness_fault(uint32_t exception, uint32_t pc);

#ifdef __cplusplus
}
#endif

#endif /* MCU_PORT_H */
