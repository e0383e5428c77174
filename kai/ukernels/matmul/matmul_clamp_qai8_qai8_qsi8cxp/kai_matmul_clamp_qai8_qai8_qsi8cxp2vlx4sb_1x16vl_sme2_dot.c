//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[j] = clamp(rne(f32(acc[j]) * s[j]) + zp, min, max), acc[j] = b[j] + sum_{k < Kp} a[k] * w[k][j] in wrapping
// int32 (docs/formats.md, "Static int8 requantization"). VL = SVL / 32.
//
// Packed RHS (qsi8cxp2vlx4sb, nr = 2VL): per block two vectors of int32 biases, per group of 4 K values two vectors
// [c0 k0-3, c1 k0-3, ...], then two vectors of f32 scales. One step covers two blocks A and B (4VL columns, one
// vector of int8 outputs) in one ZA vector group (vgx4: A's two halves, then B's): the biases are moved in with
// MOVA, then per 16 LHS bytes (LD1RQB, predicated on the K left) four multi-vector SDOTs by element (group i of
// the 128-bit segment against four vectors: A's and B's group). Epilogue: MOVA out, SCVTF, FMUL by the four
// scale vectors, FRINTN (ties to even), FCVTZS, + zp, SCLAMP (all 4-vector but FMUL), two UZP1 to one vector of
// 4VL bytes, one predicated ST1B. An odd last block reads block A twice (in bounds; the store drops B). One
// streaming-mode section (inline assembly; calling convention in the header).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot needs AArch64"
#endif

#include "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_qai8_qai8_qsi8cxp_interface.h"

// The streaming body is one assembly string (it holds state in registers throughout), longer than the 4095
// characters C99 guarantees; GCC and clang accept it.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

// The 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_vl(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4;
}

// Commits a pending lazy ZA save of the caller (AAPCS64 SME): when TPIDR2_EL0 points to a TPIDR2 block, stores
// its num_za_save_slices ZA slices to its za_save_buffer (ZA is then active, so STR ZA is valid outside streaming
// mode) and clears TPIDR2_EL0, which tells the caller that ZA must be restored from the buffer.
static void kai_commit_za(void) {
    __asm__ volatile(
        ".inst 0xd53bd0b0\n"  // mrs x16, tpidr2_el0
        "cbz x16, 2f\n"
        "ldr x17, [x16]\n"
        "ldrh w15, [x16, #8]\n"
        "cbz x17, 1f\n"
        "cbz w15, 1f\n"
        "mov w12, #0\n"
        "0:\n"
        ".inst 0xe1200220\n"  // str za[w12, 0], [x17]
        ".inst 0x04315831\n"  // addsvl x17, x17, #1
        "add w12, w12, #1\n"
        "cmp w12, w15\n"
        "b.lo 0b\n"
        "1:\n"
        ".inst 0xd51bd0bf\n"  // msr tpidr2_el0, xzr
        "2:\n"
        :
        :
        : "x12", "x15", "x16", "x17", "cc", "memory");
}

size_t kai_get_m_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void) {
    return 1;
}

size_t kai_get_n_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void) {
    return 16 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(m_idx);
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, kai_add_size_checked(kai_roundup(k, kai_kr), 8));
}

size_t kai_get_dst_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_ASSUME_MSG(n_idx % (16 * kai_vl()) == 0, "n_idx must be a multiple of n_step");
    KAI_UNUSED(m_idx);
    KAI_UNUSED(dst_stride);
    return n_idx;
}

size_t kai_get_dst_size_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m, size_t n) {
    return kai_mul_size_checked(m, n);
}

// Arguments of the assembly body, read from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;      // 0: the LHS row
    const void* rhs;      // 8: packed RHS block of the first column
    void* dst;            // 16
    uint64_t n;           // 24
    uint64_t k;           // 32
    uint64_t groups;      // 40: Kp / 4
    uint64_t rhs_block;   // 48: bytes per RHS block, nr * (Kp + 8)
    int32_t zero_point;   // 56
    int32_t min_value;    // 60
    int32_t max_value;    // 64
    int32_t unused;       // 68
};

void kai_run_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(
    size_t m, size_t n, size_t k, const void* lhs, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, const struct kai_matmul_requantize32_params* params) {
    KAI_ASSUME_MSG(m == 1, "m must be 1");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(int8_t), "dst_stride_col must be 1");
    KAI_UNUSED(m);
    KAI_UNUSED(dst_stride_row);
    KAI_UNUSED(dst_stride_col);
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->min_value >= INT8_MIN, "params->min_value must be at least -128");
    KAI_ASSUME_MSG(params->max_value <= INT8_MAX, "params->max_value must be at most 127");
    KAI_ASSUME_MSG(params->min_value <= params->max_value, "params->min_value must not exceed params->max_value");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL || k == 0, "lhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");

    const size_t kp = kai_roundup(k, kai_kr);
    struct kai_args args;
    args.lhs = lhs;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.n = n;
    args.k = k;
    args.groups = kp / kai_kr;
    args.rhs_block = kai_mul_size_checked(2 * kai_vl(), kai_add_size_checked(kp, 8));
    args.zero_point = params->output_zero_point;
    args.min_value = params->min_value;
    args.max_value = params->max_value;
    args.unused = 0;

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS block pair, x3 DST, x4 columns left, x5 k, x6 groups, x7 RHS block bytes, x13
    // VL, x14 / x15 blocks A / B, x16 LHS bytes left, x17 LHS pointer, x20 counter, x24 2VL, x25 4VL, w8 ZA vector
    // select. z8 zp, z9 16 LHS bytes, z10 / z11 bounds, p1 LHS predicate, p2 store predicate, pn8 all-true.
    // SMSTART / SMSTOP zero every Z and P register: all are in the clobber list (the compiler saves d8-d15).
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25207810\n"  // ptrue pn8.b
        ".inst 0x04a0e3ed\n"  // cntw x13
        "add x24, x13, x13\n"
        "add x25, x24, x24\n"
        ".inst 0x854ec008\n"  // ld1rw {z8.s}, p0/z, [x0, #56]
        ".inst 0x854fc00a\n"  // ld1rw {z10.s}, p0/z, [x0, #60]
        ".inst 0x8550c00b\n"  // ld1rw {z11.s}, p0/z, [x0, #64]
        "mov w8, #0\n"
        "1:\n"  // two blocks (4VL columns) per iteration
        "mov x14, x2\n"
        "add x15, x2, x7\n"
        "cmp x4, x24\n"
        "csel x15, x15, x14, hi\n"
        ".inst 0xa04041c4\n"  // ld1w {z4.s-z5.s}, pn8/z, [x14]
        ".inst 0xa04041e6\n"  // ld1w {z6.s-z7.s}, pn8/z, [x15]
        ".inst 0xc0040c80\n"  // mova za.d[w8, 0, vgx4], {z4.d-z7.d}
        ".inst 0x042e504e\n"  // addvl x14, x14, #2
        ".inst 0x042f504f\n"  // addvl x15, x15, #2
        "mov x17, x1\n"
        "mov x16, x5\n"
        "lsr x20, x6, #2\n"
        "cbz x20, 4f\n"
        "3:\n"  // 16 LHS bytes (four groups) per iteration
        ".inst 0x253017e1\n"  // whilelt p1.b, xzr, x16
        ".inst 0xa4002629\n"  // ld1rqb {z9.b}, p1/z, [x17]
        // Loads group g (0..3 of the current 16 LHS bytes) of blocks A (x14) and B (x15) into z<r0>-z<r3>.
        ".inst 0xa04001dc\n"  // ld1b {z28.b-z29.b}, pn8/z, [x14, #0*2, mul vl]
        ".inst 0xa04001fe\n"  // ld1b {z30.b-z31.b}, pn8/z, [x15, #0*2, mul vl]
        ".inst 0xa04101d8\n"  // ld1b {z24.b-z25.b}, pn8/z, [x14, #1*2, mul vl]
        ".inst 0xa04101fa\n"  // ld1b {z26.b-z27.b}, pn8/z, [x15, #1*2, mul vl]
        ".inst 0xc15993a0\n"  // sdot za.s[w8, 0, vgx4], {z28.b-z31.b}, z9.b[0]
        ".inst 0xa04201d4\n"  // ld1b {z20.b-z21.b}, pn8/z, [x14, #2*2, mul vl]
        ".inst 0xa04201f6\n"  // ld1b {z22.b-z23.b}, pn8/z, [x15, #2*2, mul vl]
        ".inst 0xc1599720\n"  // sdot za.s[w8, 0, vgx4], {z24.b-z27.b}, z9.b[1]
        ".inst 0xa04301d0\n"  // ld1b {z16.b-z17.b}, pn8/z, [x14, #3*2, mul vl]
        ".inst 0xa04301f2\n"  // ld1b {z18.b-z19.b}, pn8/z, [x15, #3*2, mul vl]
        ".inst 0xc1599aa0\n"  // sdot za.s[w8, 0, vgx4], {z20.b-z23.b}, z9.b[2]
        ".inst 0xc1599e20\n"  // sdot za.s[w8, 0, vgx4], {z16.b-z19.b}, z9.b[3]
        ".inst 0x042e510e\n"  // addvl x14, x14, #8
        ".inst 0x042f510f\n"  // addvl x15, x15, #8
        "add x17, x17, #16\n"
        "sub x16, x16, #16\n"
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        "4:\n"  // the last one to three groups
        "ands x20, x6, #3\n"
        "b.eq 6f\n"
        ".inst 0x253017e1\n"  // whilelt p1.b, xzr, x16
        ".inst 0xa4002629\n"  // ld1rqb {z9.b}, p1/z, [x17]
        // One tail group: loads it at the pointers' start, SDOT with LHS element g, steps both pointers.
        ".inst 0xa04001dc\n"  // ld1b {z28.b-z29.b}, pn8/z, [x14, #0*2, mul vl]
        ".inst 0xa04001fe\n"  // ld1b {z30.b-z31.b}, pn8/z, [x15, #0*2, mul vl]
        ".inst 0xc15993a0\n"  // sdot za.s[w8, 0, vgx4], {z28.b-z31.b}, z9.b[0]
        ".inst 0x042e504e\n"  // addvl x14, x14, #2
        ".inst 0x042f504f\n"  // addvl x15, x15, #2
        "subs x20, x20, #1\n"
        "b.eq 6f\n"
        ".inst 0xa04001dc\n"  // ld1b {z28.b-z29.b}, pn8/z, [x14, #0*2, mul vl]
        ".inst 0xa04001fe\n"  // ld1b {z30.b-z31.b}, pn8/z, [x15, #0*2, mul vl]
        ".inst 0xc15997a0\n"  // sdot za.s[w8, 0, vgx4], {z28.b-z31.b}, z9.b[1]
        ".inst 0x042e504e\n"  // addvl x14, x14, #2
        ".inst 0x042f504f\n"  // addvl x15, x15, #2
        "subs x20, x20, #1\n"
        "b.eq 6f\n"
        ".inst 0xa04001dc\n"  // ld1b {z28.b-z29.b}, pn8/z, [x14, #0*2, mul vl]
        ".inst 0xa04001fe\n"  // ld1b {z30.b-z31.b}, pn8/z, [x15, #0*2, mul vl]
        ".inst 0xc1599ba0\n"  // sdot za.s[w8, 0, vgx4], {z28.b-z31.b}, z9.b[2]
        ".inst 0x042e504e\n"  // addvl x14, x14, #2
        ".inst 0x042f504f\n"  // addvl x15, x15, #2
        "6:\n"  // epilogue: x14 / x15 are at the blocks' scales
        ".inst 0xa04041d8\n"  // ld1w {z24.s-z25.s}, pn8/z, [x14]
        ".inst 0xa04041fa\n"  // ld1w {z26.s-z27.s}, pn8/z, [x15]
        ".inst 0xc0060c14\n"  // mova {z20.d-z23.d}, za.d[w8, 0, vgx4]
        ".inst 0xc132e294\n"  // scvtf {z20.s-z23.s}, {z20.s-z23.s}
        ".inst 0x65980a94\n"  // fmul z20.s, z20.s, z24.s
        ".inst 0x65990ab5\n"  // fmul z21.s, z21.s, z25.s
        ".inst 0x659a0ad6\n"  // fmul z22.s, z22.s, z26.s
        ".inst 0x659b0af7\n"  // fmul z23.s, z23.s, z27.s
        ".inst 0xc1b8e294\n"  // frintn {z20.s-z23.s}, {z20.s-z23.s}
        ".inst 0xc131e294\n"  // fcvtzs {z20.s-z23.s}, {z20.s-z23.s}
        ".inst 0xc1a8ab14\n"  // add {z20.s-z23.s}, {z20.s-z23.s}, z8.s
        ".inst 0xc1abcd54\n"  // sclamp {z20.s-z23.s}, z10.s, z11.s
        ".inst 0x05756a80\n"  // uzp1 z0.h, z20.h, z21.h
        ".inst 0x05776ac1\n"  // uzp1 z1.h, z22.h, z23.h
        ".inst 0x05216802\n"  // uzp1 z2.b, z0.b, z1.b
        ".inst 0x252417e2\n"  // whilelt p2.b, xzr, x4
        ".inst 0xe400e862\n"  // st1b {z2.b}, p2, [x3]
        "add x3, x3, x25\n"
        "add x2, x2, x7, lsl #1\n"
        "subs x4, x4, x25\n"
        "b.gt 1b\n"
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x13", "x14", "x15", "x16", "x17", "x20", "x24", "x25",
          "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16",
          "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0",
          "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc",
          "memory");
}
