@ Hand-timed Cortex-M7 sequences for mcugen/validation/core_models/cortex_m7.py (tests/test_cycles.py),
@ built like hand_timed.S: each case runs between two calls of model_layer_done, the count beside each
@ instruction is what that model's docstring states (taken branch refill P = 1, divide 7, exception
@ entry 12; 0 for an instruction issued with the one before it), and "@= N" closes a case with its total.
@ A case also pays for the `bl model_layer_done` that ends it (1 + P, or P when it issues with the
@ instruction before it) and, from the second on, for the `bx lr` of the model_layer_done that started
@ it (1 + P).
    .syntax unified
    .cpu cortex-m7
    .fpu fpv5-sp-d16
    .thumb

#include "harness.S"

    .type model_invoke, %function
model_invoke:
    push {r4-r7, lr}          @ 3: 64 bits a cycle
    sub sp, #16               @ 1: nothing issues with PUSH
    mov r4, sp                @ 1: it reads what the one before writes
    str r4, [r4]              @ 2: its address was made by the one before, and is read a stage early
    bl model_layer_done       @ 1: issued with the store
    @= 8

    adds r0, r1, r2           @ 1
    adds r3, r1, r2           @ 0: two ALUs
    ldr r5, [r4]              @ 1
    ldr r6, [r4, #4]          @ 0: two load ports
    str r0, [r4, #8]          @ 1
    str r3, [r4, #12]         @ 1: one store port
    mul r0, r1, r2            @ 0: with the store
    mla r3, r1, r2, r3        @ 1: one MAC
    mla r3, r1, r2, r3        @ 1: the accumulator is read late, so no wait for the one before
    adds r0, r3, #1           @ 2: a product is ready in 2
    bl model_layer_done       @ 1
    @= 11

    ldr r5, [r4]              @ 1
    ldr r0, [r5]              @ 2: its address is the word just loaded
    ldrb r1, [r4]             @ 0
    adds r2, r1, #1           @ 2: a byte is ready in 2
    ldrd r0, r1, [r4]         @ 1: alone
    bl model_layer_done       @ 2
    @= 10

    push {r0-r3}              @ 2
    pop {r0-r3}               @ 2
    movs r0, #3               @ 1
1:  subs r0, #1               @ 1 x 3
    bne 1b                    @ 1 x 2 taken (issued with the subtract, + refill), 0 x 1 falling through
    bl model_layer_done       @ 2: one branch unit
    @= 14

    vadd.f32 s1, s0, s0       @ 1
    vadd.f32 s2, s1, s1       @ 3: a float sum is ready in 3
    vmul.f32 s3, s0, s0       @ 1: one FPU
    adds r0, r1, r2           @ 0: with the multiply
    udiv r2, r0, r1           @ 7
    bl model_layer_done       @ 2
    @= 16

    movs r0, #1               @ 1
    tbb [pc, r0]              @ 4: 2 + refill, its index made by the one before
4:  .byte (5f - 4b) / 2, (6f - 4b) / 2
5:  nop
6:  nop                       @ 1
    bl model_layer_done       @ 1: issued with the nop
    @= 9

    bl helper                 @ 2, and helper's bx lr 2
    svc #0                    @ 1 + 12 (exception entry), and the handler's bx lr 2
    bl model_layer_done       @ 2
    @= 23

    add sp, #16               @ 1
    pop {r4-r7, pc}           @ 4: 3 + refill
    @= 7
    .size model_invoke, . - model_invoke
    .ltorg
