@ Hand-counted flash data reads for mcugen/validation/memory.py (tests/test_cycles.py), built and run like
@ hand_timed.S on the emulated Cortex-M4, whose code and constants are in its flash region. The test's
@ memory timing: 5 wait states, a data cache of 2 lines of 32 bytes. The count beside each load is what
@ it waits (a line not held: 5, the least recently used line replaced), and "@= N" closes a case
@ (between two calls of model_layer_done) with its total. RAM reads and stores wait nothing.
    .syntax unified
    .cpu cortex-m4
    .fpu fpv4-sp-d16
    .thumb

#include "harness.S"

    .type model_invoke, %function
model_invoke:
    push {r4-r7, lr}
    movw r4, #:lower16:table
    movt r4, #:upper16:table
    ldr r0, [r4]               @ 5: line 0
    ldr r1, [r4, #4]           @ 0: held
    ldr r2, [r4, #32]          @ 5: line 1
    ldr r3, [r4]               @ 0
    ldr r0, [r4, #64]          @ 5: line 2 replaces line 1, the least recently used
    ldr r1, [r4, #32]          @ 5: line 1 replaces line 0
    ldr r2, [sp]               @ 0: RAM
    bl model_layer_done
    @= 20

    ldmia r4!, {r0-r3}         @ 5: line 0 (16 bytes) replaces line 2
    ldr r0, [r4], #16          @ 0: line 0, post-indexed (r4 then table + 32)
    ldrd r0, r1, [r4, #28]     @ 5: bytes 60-67, line 1 held and line 2 replacing line 0
    movs r5, #8
    ldr r2, [r4, r5, lsl #2]   @ 0: table + 64, line 2
    vldr s0, [r4, #-32]        @ 5: line 0 replaces line 1
    str r0, [sp]               @ 0: a store
    bl model_layer_done
    @= 15

    ldr r0, =0x12345678        @ 5: the literal's line
    ldr r1, =0x12345678        @ 0: the same literal
    b 1f
    .ltorg
1:  bl model_layer_done
    @= 5

    pop {r4-r7, pc}
    @= 0
    .size model_invoke, . - model_invoke

    .section .rodata
    .balign 32
table:
    .rept 32
    .word 0x01020304
    .endr
