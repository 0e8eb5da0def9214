/*
 * Bare-metal Cortex-M port: vector table, reset, one polled UART and the cycle clock.
 * The board file picks the UART with -DMCU_UART_<KIND> and -DMCU_UART_BASE=<address>, and a chip that
 * starts with its clocks or pins unset names itself (-DMCU_CHIP_<NAME>: chip_init, before the UART).
 * No vendor SDK, no interrupts except SysTick's overflow count.
 */
#include <stdint.h>

#include "mcu_port.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void Reset_Handler(void);
void Default_Handler(void);
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

/* A fault leaves the board silent; the host times out and says so. */
void Default_Handler(void)
{
    for (;;) {
    }
}

#if defined(MCU_CHIP_RP2040)
/* RP2040 after its bootrom and boot2: the ring oscillator (1.8 to 12 MHz, chip to chip) clocks everything,
 * clk_peri (the UARTs') is off, and the UARTs and GPIO banks are held in reset. The crystal (12 MHz on the
 * Pico) becomes clk_ref, which clk_sys follows; clk_peri runs from clk_sys; UART0 and the GPIO banks leave
 * reset and the board's two pins are given to UART0 (function 2). */
static void chip_init(void)
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
#else
static void chip_init(void)
{
}
#endif

#if defined(MCU_CLOCK_ENABLES)
/* A UART on a chip nothing has set up: its clocks (the board file's register and bit pairs) first. */
static void enable_clocks(void)
{
    static const uint32_t clocks[] = {MCU_CLOCK_ENABLES}; /* register, bit, ... */
    for (uint32_t k = 0; k + 1 < sizeof clocks / sizeof clocks[0]; k += 2) {
        REG(clocks[k]) |= 1u << clocks[k + 1];
        (void)REG(clocks[k]); /* read back: the clock runs before the peripheral is written */
    }
}
#endif

#if defined(MCU_LINK_SEMIHOSTING)
static void uart_init(void) /* the link is QEMU's semihosting console (below) */
{
}
#elif defined(MCU_UART_CMSDK)
/* Arm CMSDK APB UART (MPS2): DATA, STATE (bit0 TX full, bit1 RX full), CTRL (TX/RX enable). */
static void uart_init(void)
{
    REG(MCU_UART_BASE + 0x10) = 16; /* BAUDDIV: QEMU drops input below 16 */
    REG(MCU_UART_BASE + 0x08) = 0x3;
}
static void uart_putc(uint8_t c)
{
    while (REG(MCU_UART_BASE + 0x04) & 1u) {
    }
    REG(MCU_UART_BASE + 0x00) = c;
}
static uint8_t uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x04) & 2u)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x00);
}
#elif defined(MCU_UART_STM32_USART)
/* STM32F4 USART: SR (bit7 TXE, bit5 RXNE), DR, BRR, CR1 (UE, TE, RE). Bytes sent before UE are lost. */
static void uart_init(void)
{
    REG(0x40023844) |= 1u << 4; /* RCC APB2ENR: USART1 clock */
    REG(MCU_UART_BASE + 0x08) = 0x16D;
    REG(MCU_UART_BASE + 0x0C) = (1u << 13) | (1u << 3) | (1u << 2);
}
static void uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x00) & (1u << 7))) {
    }
    REG(MCU_UART_BASE + 0x04) = c;
}
static uint8_t uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x00) & (1u << 5))) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x04);
}
#elif defined(MCU_UART_STM32_USART_V2)
/* The STM32 USART of the L4/F7/G0/H7/U5 generations: CR1 (UE, RE, TE), BRR, ISR (bit7 TXE, bit5 RXNE),
 * RDR, TDR. Nothing else has set the chip up: the USART's and its GPIO port's clocks are enabled and the
 * pins given their alternate function here, from the board file, at the reset clock. */
static void uart_init(void)
{
    enable_clocks();
    const uint32_t pins[] = {MCU_UART_TX_PIN, MCU_UART_RX_PIN};
    for (uint32_t k = 0; k < 2; ++k) {
        const uint32_t pin = pins[k], afr = MCU_GPIO_BASE + (pin < 8 ? 0x20u : 0x24u), at = 4u * (pin & 7u);
        REG(MCU_GPIO_BASE) = (REG(MCU_GPIO_BASE) & ~(3u << (2u * pin))) | (2u << (2u * pin)); /* MODER: AF */
        REG(afr) = (REG(afr) & ~(0xFu << at)) | ((uint32_t)MCU_GPIO_AF << at);
    }
    REG(MCU_UART_BASE + 0x0C) = MCU_UART_BRR;
    REG(MCU_UART_BASE + 0x00) = (1u << 3) | (1u << 2) | 1u;
}
static void uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x1C) & (1u << 7))) {
    }
    REG(MCU_UART_BASE + 0x28) = c;
}
static uint8_t uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x1C) & (1u << 5))) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x24);
}
#elif defined(MCU_UART_DW_APB)
/* Synopsys DesignWare APB UART (16550 registers; Alif Ensemble): RBR/THR and DLL at 0x00, DLH 0x04, FCR 0x08,
 * LCR 0x0C, LSR 0x14 (bit0 data ready, bit5 THR empty), DLF 0xC0 (sixteenths of the divisor). Clocks on and
 * the pins muxed from the board file (MCU_PIN_WRITES: register, value pairs), then 8N1 at 115200. */
static void uart_init(void)
{
    enable_clocks();
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
static void uart_putc(uint8_t c)
{
    while (!(REG(MCU_UART_BASE + 0x14) & (1u << 5))) {
    }
    REG(MCU_UART_BASE + 0x00) = c;
}
static uint8_t uart_getc(void)
{
    while (!(REG(MCU_UART_BASE + 0x14) & 1u)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x00);
}
#elif defined(MCU_UART_PL011)
/* Arm PL011: DR, FR (bit4 RX empty, bit5 TX full); FIFOs on (LCRH.FEN) or input overruns. The baud
 * divisor from the board's UART clock (IBRD, FBRD: clock / (16 x 115200) in 1/64ths); QEMU ignores it. */
#if !defined(MCU_UART_IBRD)
#define MCU_UART_IBRD 27
#define MCU_UART_FBRD 8
#endif
static void uart_init(void)
{
    REG(MCU_UART_BASE + 0x030) = 0;
    REG(MCU_UART_BASE + 0x024) = MCU_UART_IBRD;
    REG(MCU_UART_BASE + 0x028) = MCU_UART_FBRD;
    REG(MCU_UART_BASE + 0x02C) = (3u << 5) | (1u << 4);
    REG(MCU_UART_BASE + 0x030) = (1u << 9) | (1u << 8) | 1u;
}
static void uart_putc(uint8_t c)
{
    while (REG(MCU_UART_BASE + 0x018) & (1u << 5)) {
    }
    REG(MCU_UART_BASE + 0x000) = c;
}
static uint8_t uart_getc(void)
{
    while (REG(MCU_UART_BASE + 0x018) & (1u << 4)) {
    }
    return (uint8_t)REG(MCU_UART_BASE + 0x000);
}
#elif defined(MCU_UART_NRF_UARTE)
/* nRF52 UARTE (EasyDMA), one byte per transfer, 115200 8N1 on the pins from the board file. */
static volatile uint8_t uarte_rx, uarte_tx;
static void uart_init(void)
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
static void uart_putc(uint8_t c)
{
    uarte_tx = c;
    REG(MCU_UART_BASE + 0x544) = (uint32_t)&uarte_tx; /* TXD.PTR */
    REG(MCU_UART_BASE + 0x548) = 1;                   /* TXD.MAXCNT */
    REG(MCU_UART_BASE + 0x120) = 0;                   /* EVENTS_ENDTX */
    REG(MCU_UART_BASE + 0x008) = 1;                   /* TASKS_STARTTX */
    while (!REG(MCU_UART_BASE + 0x120)) {
    }
}
static uint8_t uart_getc(void)
{
    while (!REG(MCU_UART_BASE + 0x110)) {
    }
    const uint8_t c = uarte_rx;
    REG(MCU_UART_BASE + 0x110) = 0;
    REG(MCU_UART_BASE + 0x000) = 1; /* next byte */
    return c;
}
#else
#error "the board file selects a UART: MCU_UART_CMSDK, MCU_UART_STM32_USART(_V2), MCU_UART_DW_APB, MCU_UART_PL011 or MCU_UART_NRF_UARTE"
#endif

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
    chip_init();
    uart_init();
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

#if defined(MCU_LINK_SEMIHOSTING)
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
#else
int mcu_port_getc(void)
{
    return uart_getc();
}

void mcu_port_write(const uint8_t *data, uint32_t size)
{
    while (size--) {
        uart_putc(*data++);
    }
}

void mcu_port_flush(void)
{
}
#endif
