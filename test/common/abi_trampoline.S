// SPDX-License-Identifier: Apache-2.0
//
// kai_abi_trampoline: calls the function kai_abi_state()->target with the arguments it was called
// with, after filling the registers the callee must preserve (AAPCS64: x19-x28, the frame pointer
// x29, the low 64 bits of v8-v15) with canaries; afterwards it compares them, and x18 (the
// platform register, which kai code must not touch) with its value at entry, and stores a bit
// per changed register in kai_abi_state()->status (bits 0-9: x19-x28, 10: x29, 11-18: d8-d15,
// 19: x18). The caller's own registers are restored before it returns; x0-x7 and q0-q7 (the
// results) are returned as the callee left them.
//
// It is called through a pointer of the callee's type (see abi_call.h): x0-x7 and q0-q7 are the
// arguments, and the first 16 stack words the stack arguments, which are copied to the bottom of
// this frame so that the callee finds them at its sp. (No kai function takes more than 16 words
// of stack arguments.)

#if defined(__aarch64__)

    .text
    .p2align 4
    .globl kai_abi_trampoline
    .type kai_abi_trampoline, %function
kai_abi_trampoline:
    // Frame (512 bytes): [0, 128) stack arguments for the callee, [128, 144) x29/x30,
    // [144, 224) x19-x28, [224, 288) d8-d15, [288, 416) q0-q7, [416, 480) x0-x7,
    // [480] state pointer, [488] x18 at entry.
    sub     sp, sp, #512
    stp     x29, x30, [sp, #128]
    stp     x19, x20, [sp, #144]
    stp     x21, x22, [sp, #160]
    stp     x23, x24, [sp, #176]
    stp     x25, x26, [sp, #192]
    stp     x27, x28, [sp, #208]
    stp     d8, d9, [sp, #224]
    stp     d10, d11, [sp, #240]
    stp     d12, d13, [sp, #256]
    stp     d14, d15, [sp, #272]
    stp     q0, q1, [sp, #288]
    stp     q2, q3, [sp, #320]
    stp     q4, q5, [sp, #352]
    stp     q6, q7, [sp, #384]
    stp     x0, x1, [sp, #416]
    stp     x2, x3, [sp, #432]
    stp     x4, x5, [sp, #448]
    stp     x6, x7, [sp, #464]
    str     x18, [sp, #488]
    add     x29, sp, #128  // a valid frame record while kai_abi_state runs
    // The caller's stack arguments start at the caller's sp = sp + 512.
    add     x9, sp, #512
    ldp     x10, x11, [x9, #0]
    stp     x10, x11, [sp, #0]
    ldp     x10, x11, [x9, #16]
    stp     x10, x11, [sp, #16]
    ldp     x10, x11, [x9, #32]
    stp     x10, x11, [sp, #32]
    ldp     x10, x11, [x9, #48]
    stp     x10, x11, [sp, #48]
    ldp     x10, x11, [x9, #64]
    stp     x10, x11, [sp, #64]
    ldp     x10, x11, [x9, #80]
    stp     x10, x11, [sp, #80]
    ldp     x10, x11, [x9, #96]
    stp     x10, x11, [sp, #96]
    ldp     x10, x11, [x9, #112]
    stp     x10, x11, [sp, #112]
    bl      kai_abi_state
    str     x0, [sp, #480]
    ldr     x16, [x0]  // the target
    ldp     q0, q1, [sp, #288]
    ldp     q2, q3, [sp, #320]
    ldp     q4, q5, [sp, #352]
    ldp     q6, q7, [sp, #384]
    ldp     x0, x1, [sp, #416]
    ldp     x2, x3, [sp, #432]
    ldp     x4, x5, [sp, #448]
    ldp     x6, x7, [sp, #464]
    adrp    x17, kai_abi_canaries
    add     x17, x17, :lo12:kai_abi_canaries
    ldp     x19, x20, [x17, #0]
    ldp     x21, x22, [x17, #16]
    ldp     x23, x24, [x17, #32]
    ldp     x25, x26, [x17, #48]
    ldp     x27, x28, [x17, #64]
    ldp     d8, d9, [x17, #88]
    ldp     d10, d11, [x17, #104]
    ldp     d12, d13, [x17, #120]
    ldp     d14, d15, [x17, #136]
    ldr     x29, [x17, #80]
    blr     x16
    // x9-x15 are free now; x0-x7 and q0-q7 hold the callee's results and stay untouched.
    adrp    x11, kai_abi_canaries
    add     x11, x11, :lo12:kai_abi_canaries
    mov     x10, #0
    .macro  kai_check_x reg, off, bit
    ldr     x12, [x11, #\off]
    cmp     \reg, x12
    cset    x13, ne
    orr     x10, x10, x13, lsl #\bit
    .endm
    .macro  kai_check_d reg, off, bit
    fmov    x14, \reg
    ldr     x12, [x11, #\off]
    cmp     x14, x12
    cset    x13, ne
    orr     x10, x10, x13, lsl #\bit
    .endm
    kai_check_x x19, 0, 0
    kai_check_x x20, 8, 1
    kai_check_x x21, 16, 2
    kai_check_x x22, 24, 3
    kai_check_x x23, 32, 4
    kai_check_x x24, 40, 5
    kai_check_x x25, 48, 6
    kai_check_x x26, 56, 7
    kai_check_x x27, 64, 8
    kai_check_x x28, 72, 9
    kai_check_x x29, 80, 10
    kai_check_d d8, 88, 11
    kai_check_d d9, 96, 12
    kai_check_d d10, 104, 13
    kai_check_d d11, 112, 14
    kai_check_d d12, 120, 15
    kai_check_d d13, 128, 16
    kai_check_d d14, 136, 17
    kai_check_d d15, 144, 18
    ldr     x12, [sp, #488]
    cmp     x18, x12
    cset    x13, ne
    orr     x10, x10, x13, lsl #19
    ldr     x9, [sp, #480]
    str     x10, [x9, #8]  // status
    mov     x18, x12       // x18 as it was at entry, even after a clobber
    ldp     x19, x20, [sp, #144]
    ldp     x21, x22, [sp, #160]
    ldp     x23, x24, [sp, #176]
    ldp     x25, x26, [sp, #192]
    ldp     x27, x28, [sp, #208]
    ldp     d8, d9, [sp, #224]
    ldp     d10, d11, [sp, #240]
    ldp     d12, d13, [sp, #256]
    ldp     d14, d15, [sp, #272]
    ldp     x29, x30, [sp, #128]
    add     sp, sp, #512
    ret
    .size kai_abi_trampoline, .-kai_abi_trampoline

    // Test fixtures for the trampoline's own tests (harness_test): each changes one register,
    // as a buggy kernel would, and returns. kai_abi_clobber_x19 / _d8 / _x18 / _x29 keep the
    // other registers intact.
    .p2align 2
    .globl kai_abi_clobber_x19
    .type kai_abi_clobber_x19, %function
kai_abi_clobber_x19:
    add     x19, x19, #1
    ret
    .size kai_abi_clobber_x19, .-kai_abi_clobber_x19

    .globl kai_abi_clobber_d8
    .type kai_abi_clobber_d8, %function
kai_abi_clobber_d8:
    fmov    d8, #1.0
    ret
    .size kai_abi_clobber_d8, .-kai_abi_clobber_d8

    .globl kai_abi_clobber_v15_high
    .type kai_abi_clobber_v15_high, %function
kai_abi_clobber_v15_high:
    // Only the low 64 bits of v8-v15 are callee-saved: changing the high half is allowed.
    mov     v15.d[1], xzr
    ret
    .size kai_abi_clobber_v15_high, .-kai_abi_clobber_v15_high

    .globl kai_abi_clobber_x29
    .type kai_abi_clobber_x29, %function
kai_abi_clobber_x29:
    mov     x29, sp
    ret
    .size kai_abi_clobber_x29, .-kai_abi_clobber_x29

    .globl kai_abi_clobber_x28_x18
    .type kai_abi_clobber_x28_x18, %function
kai_abi_clobber_x28_x18:
    eor     x28, x28, #1
    eor     x18, x18, #1
    ret
    .size kai_abi_clobber_x28_x18, .-kai_abi_clobber_x28_x18

    .section .rodata
    .p2align 3
kai_abi_canaries:
    // x19-x28, x29, d8-d15: distinct, none a plausible pointer, size or float.
    .quad 0xCA19A0000000F019, 0xCA20A0000000F020, 0xCA21A0000000F021, 0xCA22A0000000F022
    .quad 0xCA23A0000000F023, 0xCA24A0000000F024, 0xCA25A0000000F025, 0xCA26A0000000F026
    .quad 0xCA27A0000000F027, 0xCA28A0000000F028, 0xCA29A0000000F029
    .quad 0x7FF4D08000000D08, 0x7FF4D09000000D09, 0x7FF4D10000000D10, 0x7FF4D11000000D11
    .quad 0x7FF4D12000000D12, 0x7FF4D13000000D13, 0x7FF4D14000000D14, 0x7FF4D15000000D15

    .section .note.GNU-stack, "", %progbits
#endif
