@ What every hand-timed file runs its cases in (tests/test_cycles.py): the vector table, a reset handler
@ that turns the FPU (and Helium) on, calls model_invoke and exits through semihosting, an SVC handler,
@ a function to call, and model_layer_done, whose calls separate the cases. STACK_TOP: the top of the
@ board's stack (tests/test_cycles.py defines it from the board's RAM).
    .section .text
vectors:
    .word STACK_TOP
    .word Reset_Handler + 1
    .rept 9
    .word hang + 1
    .endr
    .word svc_handler + 1  @ SVCall, exception 11
    .rept 4
    .word hang + 1
    .endr

    .type Reset_Handler, %function
Reset_Handler:
    ldr r0, =0xE000ED88  @ CPACR: the FPU (and Helium) on
    ldr r1, [r0]
    orr r1, r1, #(0xF << 20)
    str r1, [r0]
    dsb
    isb
    bl model_invoke
    movs r0, #0x18       @ semihosting SYS_EXIT, ADP_Stopped_ApplicationExit
    ldr r1, =0x20026
    bkpt 0xab
hang:
    b hang
    .size Reset_Handler, . - Reset_Handler

    .type svc_handler, %function
svc_handler:
    bx lr
    .size svc_handler, . - svc_handler

    .type helper, %function
helper:
    bx lr
    .size helper, . - helper

    .type model_layer_done, %function
model_layer_done:
    bx lr
    .size model_layer_done, . - model_layer_done
