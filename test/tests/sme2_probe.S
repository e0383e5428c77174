// SPDX-License-Identifier: Apache-2.0
// An SME2 probe for the toolchain test: enters streaming mode with ZA, runs instructions that
// exist only in SME2 (a multi-vector load and a ZA array-vector FMLA), reads one ZA slice back
// and leaves streaming mode. Built with -march=armv9-a+sme2, which kai's GCC wrapper hands to
// clang-19 (GCC 12 cannot assemble SME).
//
// uint64_t kai_test_sme2_probe(float* out);
//   Writes 4 floats: ZA.S[w8, 0] after FMLA of {1.0, 1.0} * 2.0 over a 2-vector group, i.e. 4.0
//   in every lane (two accumulations of 1.0 * 2.0). Returns the streaming vector length in bytes.
//   Follows the AAPCS64: touches only caller-saved registers; ZA is off on return.
    .text
    .p2align 2
    .globl kai_test_sme2_probe
    .type kai_test_sme2_probe, %function
kai_test_sme2_probe:
    .inst 0xd503477f  // smstart
    .inst 0xc00800ff  // zero    {za}
    .inst 0x04bf5829  // rdsvl   x9, #1
    .inst 0x25a07810  // ptrue   pn8.s
    .inst 0x25b9ce00  // fmov    z0.s, #1.0
    .inst 0x25b9ce01  // fmov    z1.s, #1.0
    .inst 0x25b9c002  // fmov    z2.s, #2.0
    mov     w8, #0
    // SME2: za.s[w8, 0, vgx2] += {z0, z1} * z2 (one vector group of two ZA slices).
    .inst 0xc1221800  // fmla    za.s[w8, 0, vgx2], {z0.s - z1.s}, z2.s
    .inst 0xc1221800  // fmla    za.s[w8, 0, vgx2], {z0.s - z1.s}, z2.s
    // Read ZA array vector 0 back (SME2 MOVA to a vector group) and store its first 4 lanes.
    .inst 0xc0060804  // mova    {z4.d - z5.d}, za.d[w8, 0, vgx2]
    .inst 0x2598e080  // ptrue   p0.s, vl4
    .inst 0xe540e004  // st1w    {z4.s}, p0, [x0]
    .inst 0xd503467f  // smstop
    mov     x0, x9
    ret
    .size kai_test_sme2_probe, . - kai_test_sme2_probe
    .section .note.GNU-stack, "", %progbits
