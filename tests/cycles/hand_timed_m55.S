@ Hand-timed Cortex-M55 sequences for mcugen/validation/core_models/cortex_m55.py (tests/test_cycles.py),
@ built like hand_timed.S: each case runs between two calls of model_layer_done, the count beside each
@ instruction is what that model's docstring states (taken branch refill P = 3, divide 7, exception
@ entry 12), and "@= N" closes a case with its total. A case also pays for the `bl model_layer_done`
@ that ends it (1 + P) and, from the second on, for the `bx lr` of the model_layer_done that started
@ it (1 + P).
    .syntax unified
    .arch armv8.1-m.main
    .arch_extension mve.fp
    .thumb

#include "harness.S"

    .type model_invoke, %function
model_invoke:
    push {r4-r7, lr}           @ 3: 64 bits a cycle
    sub sp, #32                @ 1
    mov r4, sp                 @ 1: neither pairs with any
    str r4, [r4]               @ 1
    bl model_layer_done        @ 4
    @= 10

    vldrw.u32 q0, [r4]         @ 1
    vmul.i32 q1, q2, q3        @ 1: another pipe, overlapping the load's second beat
    vldrw.u32 q4, [r4, #16]    @ 1: the load/store pipe is free again
    vldrw.u32 q5, [r4]         @ 2: the load before holds it
    bl model_layer_done        @ 4
    @= 13

    vmul.i32 q1, q2, q3        @ 1
    vadd.i32 q4, q1, q5        @ 2: the product is ready 2 cycles after the multiply
    vldrw.u32 q0, [r4]         @ 1
    vadd.i32 q6, q0, q0        @ 1: a loaded vector is ready in 1
    bl model_layer_done        @ 4
    @= 13

    vmlava.s8 r0, q0, q1       @ 1
    vmlava.s8 r2, q0, q1       @ 2: the same multiply pipe
    vrshl.s32 q2, q2, q3       @ 1
    vqrdmulh.s32 q4, q2, q3    @ 2: a rounding shift's result is ready in 2
    bl model_layer_done        @ 4
    @= 14

    vshrnb.i32 q0, q1, #8      @ 1
    vldrw.u32 q5, [r4]         @ 1
    vadd.i32 q6, q0, q0        @ 2: a narrowed vector is ready 3 cycles after the narrowing
    bl model_layer_done        @ 4
    @= 12

    movs r0, #1                @ 1
    movs r1, #2                @ 0: issued with the one before
    movs r2, #3                @ 1
    adds r2, #1                @ 1: it reads what the one before writes
    ldr r3, [r4]               @ 0: issued with the add
    adds r3, #1                @ 2: a scalar load's result is ready in 2
    add.w r5, r5, r5           @ 1
    movs r6, #0                @ 1: after a 32-bit instruction
    bl model_layer_done        @ 4
    @= 15

    movs r0, #3                @ 1
    dls lr, r0                 @ 1
1:  vldrw.u32 q1, [r4]         @ 1 x 3
    vadd.i32 q0, q0, q1        @ 1 x 3
    le lr, 1b                  @ 0 x 2 taken (the loop cache), 1 x 1 at the end
    bl model_layer_done        @ 4
    @= 17

    movs r0, #0                @ 1
    cbz r0, 2f                 @ 4: taken
    nop
2:  b 3f                       @ 4
    nop
3:  bl model_layer_done        @ 4
    @= 17

    vadd.f32 s1, s0, s0        @ 1
    vadd.f32 s2, s1, s1        @ 2: a float sum is ready in 2
    vdiv.f32 s3, s0, s1        @ 1
    vadd.f32 s4, s0, s0        @ 14: the divider holds the float pipe
    bl model_layer_done        @ 4
    @= 26

    push {r0-r3}               @ 3
    pop {r0-r3}                @ 3
    vpst                       @ 1
    vstrwt.32 q0, [r4]         @ 1
    vpt.s32 gt, q0, q1         @ 1
    vstrwt.32 q0, [r4]         @ 1: a store, predicated by the VPT
    vstrw.32 q1, [r4]          @ 2: the store before holds the load/store pipe
    udiv r2, r0, r1            @ 7
    bl model_layer_done        @ 4
    @= 27

    bl helper                  @ 4, and helper's bx lr 4
    svc #0                     @ 1 + 12 (exception entry), and the handler's bx lr 4
    bl model_layer_done        @ 4
    @= 33

    add sp, #32                @ 1
    pop {r4-r7, pc}            @ 6: 1 + 5 registers / 2 + refill
    @= 11
    .size model_invoke, . - model_invoke
    .ltorg
