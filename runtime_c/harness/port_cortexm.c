/*
 * Bare-metal Cortex-M port: vector table, reset and the cycle clock. The link is a file of its own,
 * chosen from the board file by the build (mcugen/targets/firmware.py): link_uart.c over the UART driver of
 * the board's `uart` kind (uart_<kind>.c, its registers at -DMCU_UART_BASE), or link_semihosting.c
 * (QEMU's console); a chip that starts with its clocks or pins unset brings chip_<name>.c, whose
 * mcu_chip_init runs before the link's. No vendor SDK, no interrupts except SysTick's overflow count.
 */
#include <stdint.h>

#include "mcu_port.h"
#include "mcu_uart.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void Reset_Handler(void);
void Default_Handler(void);
void mcu_port_fault(const uint32_t *frame);
void SysTick_Handler(void);

__attribute__((section(".isr_vector"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))&_estack, Reset_Handler,
    Default_Handler, Default_Handler, Default_Handler, Default_Handler, Default_Handler, /* NMI..UsageFault */
    0, 0, 0, 0,
    Default_Handler, Default_Handler, 0, Default_Handler, /* SVC, DebugMon, PendSV */
    SysTick_Handler,
};

void Reset_Handler(void)
{
#if defined(__ARM_FP)
    /* Hard-float builds: grant full access to the FPU (CPACR CP10, CP11) before any float instruction. */
    REG(0xE000ED88) |= 0xFu << 20;
    __asm volatile("dsb\n\tisb" ::: "memory");
#endif
    uint32_t *src = &_sidata, *dst = &_sdata;
    while (dst < &_edata) {
        *dst++ = *src++;
    }
    for (dst = &_sbss; dst < &_ebss;) {
        *dst++ = 0;
    }
    mcu_port_init();
    mcu_harness_run();
    for (;;) {
    }
}

/* A fault: the harness reports it (the exception and the pc the hardware stacked), then the board stops. The
 * stacked frame is on the stack the faulting code ran on (bit 2 of the exception return value in lr); the
 * assembly is Armv6-M's, which every core runs. */
__attribute__((naked)) void Default_Handler(void)
{
    __asm volatile("movs r1, #4\n\t"
                   "mov r2, lr\n\t"
                   "tst r2, r1\n\t"
                   "beq 1f\n\t"
                   "mrs r0, psp\n\t"
                   "b 2f\n"
                   "1:\n\t"
                   "mrs r0, msp\n"
                   "2:\n\t"
                   "ldr r3, =mcu_port_fault\n\t"
                   "bx r3\n\t"
                   ".ltorg");
}

__attribute__((weak)) void mcu_harness_fault(uint32_t exception, uint32_t pc)
{
    (void)exception;
    (void)pc;
}

__attribute__((noreturn, used)) void mcu_port_fault(const uint32_t *frame)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    mcu_harness_fault(ipsr & 0x1FFu, frame[6]);
    for (;;) {
    }
}

/* chips that start ready (most) bring no chip_<name>.c */
__attribute__((weak)) void mcu_chip_init(void)
{
}

/* Cycle clock: DWT->CYCCNT where it runs (hardware); QEMU leaves it at 0, so fall back to SysTick,
 * which under -icount counts deterministically (a proxy for instructions). */
#define DEMCR REG(0xE000EDFC)
#define DWT_CTRL REG(0xE0001000)
#define DWT_CYCCNT REG(0xE0001004)
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)

static uint8_t clock_kind;
static volatile uint32_t systick_wraps;
static uint32_t dwt_high, dwt_last;

void SysTick_Handler(void)
{
    ++systick_wraps;
}

void mcu_port_init(void)
{
    mcu_chip_init();
    mcu_link_init();
    DEMCR |= 1u << 24; /* TRCENA */
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
    for (volatile int i = 0; i < 100; ++i) {
    }
    if (DWT_CYCCNT != 0) {
        clock_kind = MCU_CLOCK_CYCLES;
        return;
    }
    clock_kind = MCU_CLOCK_SYSTICK;
    SYST_RVR = 0x00FFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 0x7; /* enable, interrupt on wrap, processor clock */
    /* the first tick after VAL=0 reloads without counting: wait for it so reads are monotonic */
    for (uint32_t i = 0; i < 1000000u && SYST_CVR == 0; ++i) {
    }
}

uint64_t mcu_port_cycles(void)
{
    if (clock_kind == MCU_CLOCK_CYCLES) {
        const uint32_t now = DWT_CYCCNT; /* 32-bit: extend, assuming a read at least every 2^32 cycles */
        if (now < dwt_last) {
            ++dwt_high;
        }
        dwt_last = now;
        return (uint64_t)dwt_high << 32 | now;
    }
    uint32_t wraps, value;
    do {
        wraps = systick_wraps;
        value = SYST_CVR;
    } while (wraps != systick_wraps);
    return (uint64_t)wraps * 0x01000000u + (0x00FFFFFFu - value);
}

uint8_t mcu_port_clock_kind(void)
{
    return clock_kind;
}
