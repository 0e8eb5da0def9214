@ Hand-timed Cortex-M4 sequences for mcugen/validation/core_models/cortex_m4.py (tests/test_cycles.py). Each case runs between two
@ calls of model_layer_done, so the estimate gives it its own "layer"; the count beside each instruction is
@ the M4 TRM timing table as that model's docstring states it (refill P = 2, divide 7, exception entry
@ 12), and "@= N" closes a case with its total. A case also pays for the `bl model_layer_done` that ends it
@ (1 + P) and, from the second on, for the `bx lr` of the model_layer_done that started it (1 + P).
    .syntax unified
    .cpu cortex-m4
    .fpu fpv4-sp-d16
    .thumb

#include "harness.S"

    .type model_invoke, %function
model_invoke:
    push {r4-r7, lr}          @ 6
    sub sp, #16               @ 1
    mov r4, sp                @ 1
    str r4, [r4]              @ 2: after an ALU instruction
    bl model_layer_done       @ 3
    @= 13

    adds r0, r1, r2           @ 1
    smlad r0, r1, r2, r0      @ 1
    sxtb16 r3, r1             @ 1
    mul r0, r1, r0            @ 1
    bl model_layer_done       @ 3
    @= 10

    ldr r0, [r4]              @ 2
    ldr r1, [r4, #4]          @ 1: pipelined after a load
    ldr r2, [r4, #8]          @ 1
    adds r3, r3, #1           @ 1
    ldr r3, [r4]              @ 2: after an ALU instruction
    bl model_layer_done       @ 3
    @= 13

    ldr r5, [r4]              @ 2
    ldr r0, [r5]              @ 2: its address is the register just loaded
    ldr r1, [r4, #4]          @ 1
    bl model_layer_done       @ 3
    @= 11

    ldr r0, [r4], #4          @ 2
    ldr r1, [r4]              @ 2: its base was just written back
    subs r4, r4, #4           @ 1
    bl model_layer_done       @ 3
    @= 11

    ldrd r0, r1, [r4]         @ 3
    ldr r2, [r4]              @ 2: nothing pipelines after LDRD
    ldrd r0, r1, [r4]         @ 3: nor is LDRD pipelined
    bl model_layer_done       @ 3
    @= 14

    str r0, [r4, #8]          @ 2
    str r1, [r4, #12]         @ 1: pipelined after a store
    strd r0, r1, [r4, #8]     @ 3
    bl model_layer_done       @ 3
    @= 12

    push {r0-r3}              @ 5
    pop {r0-r3}               @ 5
    stmia r4, {r0, r1}        @ 3: the base register is not transferred
    ldmia r4, {r0, r1}        @ 3
    bl model_layer_done       @ 3
    @= 22

    movs r0, #3               @ 1
1:  subs r0, #1               @ 1 x 3
    bne 1b                    @ 3 x 2 taken, 1 x 1 falling through
    bl model_layer_done       @ 3
    @= 17

    cmp r0, #0                @ 1
    it eq                     @ 0: folded after a 16-bit instruction
    moveq r1, #1              @ 1
    cmp.w r0, #0              @ 1
    it ne                     @ 1: after a 32-bit instruction
    movne.w r1, #2            @ 1
    bl model_layer_done       @ 3
    @= 11

    movs r0, #0               @ 1
    cbz r0, 2f                @ 3: taken
    nop
2:  cbnz r0, 3f               @ 1: falls through
    nop                       @ 1
3:  bl model_layer_done       @ 3
    @= 12

    movs r0, #100             @ 1
    movs r1, #7               @ 1
    udiv r2, r0, r1           @ 7
    sdiv r2, r0, r1           @ 7
    bl model_layer_done       @ 3
    @= 22

    vmov s0, r0               @ 1
    vadd.f32 s1, s0, s0       @ 1
    vmla.f32 s2, s0, s1       @ 3
    vdiv.f32 s3, s0, s1       @ 14
    vldr s4, [r4]             @ 2
    vmov r0, r1, s4, s5       @ 2: two core registers
    bl model_layer_done       @ 3
    @= 29

    movs r0, #1               @ 1
    tbb [pc, r0]              @ 4: 2 + refill
4:  .byte (5f - 4b) / 2, (6f - 4b) / 2
5:  nop
6:  nop                       @ 1
    bl model_layer_done       @ 3
    @= 12

    bl helper                 @ 3, and helper's bx lr 3
    svc #0                    @ 1 + 12 (exception entry), and the handler's bx lr 3
    bl model_layer_done       @ 3
    @= 28

    add sp, #16               @ 1
    pop {r4-r7, pc}           @ 8: 1 + 5 registers + refill
    @= 12
    .size model_invoke, . - model_invoke
    .ltorg
