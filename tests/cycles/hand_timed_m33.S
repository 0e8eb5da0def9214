@ Hand-timed Cortex-M33 sequences for mcugen/validation/core_models/cortex_m33.py (tests/test_cycles.py),
@ built like hand_timed.S: each case runs between two calls of model_layer_done, the count beside each
@ instruction is what that model's docstring states (taken branch refill 1, divide 7, exception entry
@ 12; 0 for an instruction issued with the one before it), and "@= N" closes a case with its total.
@ A case also pays for the `bl model_layer_done` that ends it (1 + refill) and, from the second on, for
@ the `bx lr` of the model_layer_done that started it (1 + refill).
    .syntax unified
    .cpu cortex-m33
    .fpu fpv5-sp-d16
    .thumb

#include "harness.S"

    .type model_invoke, %function
model_invoke:
    push {r4-r7, lr}          @ 5: a word a cycle
    sub sp, #16               @ 1
    mov r4, sp                @ 1
    str r4, [r4]              @ 1: an ALU result is ready at once
    bl model_layer_done       @ 2
    @= 10

    adds r0, r1, r2           @ 1
    ldr r5, [r4]              @ 1
    ldr r6, [r4, #4]          @ 1: loads pipeline
    adds r0, r6, #1           @ 2: a loaded value is ready in 2
    ldr r5, [r4]              @ 1
    ldr r0, [r5]              @ 2: its address was just loaded
    bl model_layer_done       @ 2
    @= 12

    mul r0, r1, r2            @ 1
    smlad r3, r1, r2, r0      @ 1: the product is its accumulator, chained
    smlad r3, r1, r2, r3      @ 1
    adds r5, r3, #1           @ 2: a MAC's result is ready in 2
    ldr r6, [r4]              @ 1
    smlad r7, r1, r2, r6      @ 1: a loaded accumulator, chained
    str r7, [r4, #8]          @ 1: a MAC's result stored at once
    sxtb16 r0, r1             @ 1
    smlad r7, r0, r2, r7      @ 2: a SIMD result is ready in 2
    bl model_layer_done       @ 2
    @= 15

    add.w r0, r1, r2, lsl #2  @ 1
    adds r3, r0, #1           @ 2: a shifted operand's result is ready in 2
    sxtab r5, r6, r1          @ 1
    sxtab r5, r5, r1          @ 1: its addend, from an extend-and-add, chained
    ldr r6, [r4]              @ 1
    sxtab r7, r6, r1          @ 2: a loaded addend is not chained into an extend-and-add
    adds.w r0, r1, #0x1fc0    @ 2: a shifted constant, setting flags
    eor.w r0, r1, #0x1b1b1b1b @ 1: a repeated-byte constant
    muls r0, r1, r0           @ 2
    bl model_layer_done       @ 2
    @= 17

    movs r0, #3               @ 1
1:  subs r0, #1               @ 1 x 3
    bne 1b                    @ 2 x 2 taken (the subtract set the flags: alone), 0 x 1 falling through
    movs r1, #2               @ 1
2:  subs r1, #1               @ 1 x 2
    mov r2, r3                @ 1 x 2
    bne 2b                    @ 1 x 1 taken (issued with the move: the refill alone), 0 x 1 falling through
    nop                       @ 1: not after a branch
    adds r2, #1               @ 1
    nop                       @ 0
    bl model_layer_done       @ 2
    @= 20

    cmp r0, #0                @ 1
    it eq                     @ 0
    moveq r1, #1              @ 1
    ldrd r0, r1, [r4]         @ 2
    strd r0, r1, [r4, #8]     @ 2: stores what the load made
    ldm r4, {r0-r3}           @ 4
    vmov s0, r5               @ 1
    vfma.f32 s1, s0, s0       @ 1
    adds r2, #1               @ 1
    adds r3, #1               @ 1
    vadd.f32 s2, s1, s1       @ 1: the float MAC's result is ready, two cycles on
    vfma.f32 s3, s0, s0       @ 1
    vmul.f32 s4, s0, s0       @ 3: no float instruction in the two cycles after a float MAC
    bl model_layer_done       @ 2
    @= 23

    movs r0, #1               @ 1
    tbb [pc, r0]              @ 3: 2 + refill
4:  .byte (5f - 4b) / 2, (6f - 4b) / 2
5:  nop
6:  nop                       @ 1: jumped to, so not issued with the one before
    movs r1, #3               @ 1
    udiv r2, r0, r1           @ 7
    bl helper                 @ 2, and helper's bx lr 2
    svc #0                    @ 1 + 12 (exception entry), and the handler's bx lr 2
    bl model_layer_done       @ 2
    @= 36

    add sp, #16               @ 1
    pop {r4-r7, pc}           @ 6: 5 + refill
    @= 9
    .size model_invoke, . - model_invoke
    .ltorg
