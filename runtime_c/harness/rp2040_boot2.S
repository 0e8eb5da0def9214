/*
 * RP2040 second-stage boot code (boot2): the bootrom copies the first 256 bytes of flash to SRAM, checks
 * their CRC-32 (the last 4 bytes, which mcugen/chips.py appends) and runs them. This one sets the flash
 * interface (SSI) up for execute-in-place with the plain 03h read command, which every serial flash
 * answers (slower than quad reads, and independent of the flash part), then starts the firmware whose
 * vector table follows at 0x10000100: VTOR, stack pointer, reset handler.
 */
    .syntax unified
    .cpu cortex-m0plus
    .thumb
    .section .text
    .global mcu_boot2
    .type mcu_boot2, %function
mcu_boot2:
    ldr r3, =0x18000000      /* XIP_SSI */
    movs r1, #0
    str r1, [r3, #0x08]      /* SSIENR: off while configured */
    movs r1, #4
    str r1, [r3, #0x14]      /* BAUDR: clk_sys / 4 */
    ldr r1, =0x001F0300      /* CTRLR0: standard SPI, 32-bit data frames, TMOD EEPROM read */
    str r1, [r3, #0x00]
    movs r1, #0
    str r1, [r3, #0x04]      /* CTRLR1: one data frame per transfer */
    ldr r1, =0x03000218      /* SPI_CTRLR0: XIP command 03h, 8-bit instruction, 24-bit address */
    movs r2, #0xF4
    adds r2, r2, r3
    str r1, [r2]
    movs r1, #1
    str r1, [r3, #0x08]      /* SSIENR: on; flash reads now go through XIP */
    ldr r0, =0x10000100      /* the firmware's vector table */
    ldr r1, =0xE000ED08      /* VTOR */
    str r0, [r1]
    ldmia r0, {r0, r1}       /* initial SP, reset handler */
    msr msp, r0
    bx r1
    .ltorg
