// SPDX-License-Identifier: Apache-2.0
// ABI probes for the SME kernel tests (sme_float_test.cc), built with -march=armv9-a+sme (clang-19 in every
// configuration: GCC 12 cannot assemble SME).
//
// void kai_test_abi_call(struct AbiFrame* f);
//   Calls f->fn with x0-x7 = f->x[0..7], one stack argument f->stack_arg (the 9th integer argument), s0/s1 =
//   f->s0/f->s1, after loading x18-x28 from f->in_gpr[0..10] and d8-d15 from f->in_d[0..7]; stores x18-x28 and
//   d8-d15 as the callee left them in f->out_gpr / f->out_d. Keeps the AAPCS64 itself (its own x18-x28, d8-d15).
//   Frame offsets: fn 0, x 8, stack_arg 72, s0 80, s1 84, in_gpr 88, in_d 176, out_gpr 240, out_d 328.
//
// void kai_test_za_arm_lazy_save(const void* pattern, void* tpidr2_block);
//   Enables ZA (SMSTART ZA), loads every ZA array vector from pattern (SVL/8 vectors of SVL/8 bytes) and sets
//   TPIDR2_EL0 to tpidr2_block: the state of a caller with live ZA that has set up a lazy save (AAPCS64 SME).
//
// void kai_test_za_finish(uint64_t* tpidr2, uint64_t* svcr);
//   Reads TPIDR2_EL0 and SVCR (PSTATE.SM bit 0, PSTATE.ZA bit 1), then clears TPIDR2_EL0 and disables ZA.
    .text
    .p2align 2
    .globl kai_test_abi_call
    .type kai_test_abi_call, %function
kai_test_abi_call:
    stp     x29, x30, [sp, #-176]!
    mov     x29, sp
    stp     x19, x20, [sp, #16]
    stp     x21, x22, [sp, #32]
    stp     x23, x24, [sp, #48]
    stp     x25, x26, [sp, #64]
    stp     x27, x28, [sp, #80]
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    stp     x0, x18, [sp, #160]
    mov     x16, x0
    ldr     x9, [x16, #72]
    sub     sp, sp, #16
    str     x9, [sp]
    ldr     x17, [x16, #0]
    ldr     s0, [x16, #80]
    ldr     s1, [x16, #84]
    ldr     x18, [x16, #88]
    ldp     x19, x20, [x16, #96]
    ldp     x21, x22, [x16, #112]
    ldp     x23, x24, [x16, #128]
    ldp     x25, x26, [x16, #144]
    ldp     x27, x28, [x16, #160]
    ldp     d8, d9, [x16, #176]
    ldp     d10, d11, [x16, #192]
    ldp     d12, d13, [x16, #208]
    ldp     d14, d15, [x16, #224]
    ldp     x0, x1, [x16, #8]
    ldp     x2, x3, [x16, #24]
    ldp     x4, x5, [x16, #40]
    ldp     x6, x7, [x16, #56]
    blr     x17
    add     sp, sp, #16
    ldr     x16, [sp, #160]
    str     x18, [x16, #240]
    stp     x19, x20, [x16, #248]
    stp     x21, x22, [x16, #264]
    stp     x23, x24, [x16, #280]
    stp     x25, x26, [x16, #296]
    stp     x27, x28, [x16, #312]
    stp     d8, d9, [x16, #328]
    stp     d10, d11, [x16, #344]
    stp     d12, d13, [x16, #360]
    stp     d14, d15, [x16, #376]
    ldr     x18, [sp, #168]
    ldp     x19, x20, [sp, #16]
    ldp     x21, x22, [sp, #32]
    ldp     x23, x24, [sp, #48]
    ldp     x25, x26, [sp, #64]
    ldp     x27, x28, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    ldp     x29, x30, [sp], #176
    ret
    .size kai_test_abi_call, . - kai_test_abi_call

    .p2align 2
    .globl kai_test_za_arm_lazy_save
    .type kai_test_za_arm_lazy_save, %function
kai_test_za_arm_lazy_save:
    .inst 0xd503457f  // smstart za
    .inst 0x04bf5822  // rdsvl   x2, #1
    mov     x3, #0
    mov     w12, #0
1:
    .inst 0xe1000000  // ldr     za[w12, 0], [x0]
    .inst 0x04205820  // addsvl  x0, x0, #1
    add     w12, w12, #1
    add     x3, x3, #1
    cmp     x3, x2
    b.lo    1b
    .inst 0xd51bd0a1  // msr     tpidr2_el0, x1
    ret
    .size kai_test_za_arm_lazy_save, . - kai_test_za_arm_lazy_save

    .p2align 2
    .globl kai_test_za_finish
    .type kai_test_za_finish, %function
kai_test_za_finish:
    .inst 0xd53bd0a2  // mrs     x2, tpidr2_el0
    str     x2, [x0]
    .inst 0xd53b4243  // mrs     x3, svcr
    str     x3, [x1]
    .inst 0xd51bd0bf  // msr     tpidr2_el0, xzr
    .inst 0xd503447f  // smstop  za
    ret
    .size kai_test_za_finish, . - kai_test_za_finish
    .section .note.GNU-stack, "", %progbits
