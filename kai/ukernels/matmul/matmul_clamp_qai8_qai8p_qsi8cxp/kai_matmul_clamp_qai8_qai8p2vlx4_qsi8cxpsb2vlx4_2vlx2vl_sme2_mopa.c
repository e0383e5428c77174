//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(rne(f32(acc[i][j]) * s[j]) + zp, min, max), acc[i][j] = b[j] + sum_{k < Kp} a[i][k] * w[k][j]
// in wrapping int32 (docs/formats.md, "Static int8 requantization"). VL = SVL / 32.
//
// The packed buffers are those of the FEAT_SME twin (..._qsi8cxp2vlx4sb_2vlx2vl_sme_mopa; KleidiAI names the same
// RHS layout qsi8cxpsb2vlx4 here): LHS x8p2vlx4 (mr = 2VL, two vectors per group of 4 K values), RHS
// qsi8cxp2vlx4sb (nr = 2VL: two vectors of int32 biases, two vectors per group, two vectors of f32 scales).
// Tile 2VL x 2VL in the four 32-bit ZA tiles (za0 / za1: rows 0..VL-1, columns 0..VL-1 / VL..2VL-1; za2 / za3:
// rows VL..2VL-1), biases added to every row with ADDHA. SME2 shortens the loads and the epilogue: the K loop
// reads four groups with four 4-vector LD1B (16 SMOPA), the epilogue takes four rows of a tile pair at once
// (4-vector MOVA, SCVTF, FRINTN, FCVTZS, ADD and SCLAMP; FMUL per vector), narrows each row's two halves with
// UZP1 into one vector of 16-bit lanes and stores its 2VL low bytes with one predicated ST1B. One streaming-mode
// section (inline assembly; calling convention in the header).

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME2)
#error "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa needs AArch64 with FEAT_SME2"
#endif

#include "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_interface.h"

// The streaming body is one assembly string (it holds state in registers throughout), longer than the 4095
// characters C99 guarantees; clang (the only compiler that builds SME) accepts it.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

// The 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_vl(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4;
}

// Commits a pending lazy ZA save of the caller (AAPCS64 SME): when TPIDR2_EL0 points to a TPIDR2 block, stores
// its num_za_save_slices ZA slices to its za_save_buffer (ZA is then active, so STR ZA is valid outside streaming
// mode) and clears TPIDR2_EL0, which tells the caller that ZA must be restored from the buffer.
static void kai_commit_za(void) {
    __asm__ volatile(
        "mrs x16, tpidr2_el0\n"
        "cbz x16, 2f\n"
        "ldr x17, [x16]\n"
        "ldrh w15, [x16, #8]\n"
        "cbz x17, 1f\n"
        "cbz w15, 1f\n"
        "mov w12, #0\n"
        "0:\n"
        "str za[w12, 0], [x17]\n"
        "addsvl x17, x17, #1\n"
        "add w12, w12, #1\n"
        "cmp w12, w15\n"
        "b.lo 0b\n"
        "1:\n"
        "msr tpidr2_el0, xzr\n"
        "2:\n"
        :
        :
        : "x12", "x15", "x16", "x17", "cc", "memory");
}

size_t kai_get_m_step_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return 2 * kai_vl();
}

size_t kai_get_n_step_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return 2 * kai_vl();
}

size_t kai_get_mr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return 2 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % (2 * kai_vl()) == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t n_idx, size_t k) {
    const size_t nr = 2 * kai_vl();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, kai_add_size_checked(kai_roundup(k, kai_kr), 8));
}

size_t kai_get_dst_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m_idx, size_t n_idx, size_t dst_stride_row) {
    KAI_ASSUME_MSG(m_idx % (2 * kai_vl()) == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride_row), n_idx);
}

size_t kai_get_dst_size_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(m, n);
}

// Arguments of the assembly body, read from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;      // 0: packed LHS block of the first row block
    const void* rhs;      // 8: packed RHS block of the first column block
    void* dst;            // 16
    uint64_t m;           // 24
    uint64_t n;           // 32
    uint64_t groups;      // 40: Kp / 4
    uint64_t dst_stride;  // 48
    uint64_t lhs_block;   // 56: bytes per LHS block, mr * Kp
    uint64_t rhs_block;   // 64: bytes per RHS block, nr * (Kp + 8)
    int32_t zero_point;   // 72
    int32_t min_value;    // 76
    int32_t max_value;    // 80
    int32_t unused;       // 84
};

// One group: LHS vectors l0 (rows 0..VL-1) and l1 (rows VL..2VL-1) against RHS vectors b0 and b1.
#define KAI_SMOPA4(l0, l1, b0, b1)                     \
    "smopa za0.s, p0/m, p0/m, " l0 ".b, " b0 ".b\n"    \
    "smopa za1.s, p0/m, p0/m, " l0 ".b, " b1 ".b\n"    \
    "smopa za2.s, p0/m, p0/m, " l1 ".b, " b0 ".b\n"    \
    "smopa za3.s, p0/m, p0/m, " l1 ".b, " b1 ".b\n"

// Stores the row in z<r> (16-bit lanes) at x21, steps to the next DST row and leaves the row loop at label `end`
// after the last row of the half.
#define KAI_STORE(r, end)                   \
    "st1b {z" r ".h}, p4, [x21]\n"          \
    "add x21, x21, x8\n"                    \
    "subs x22, x22, #1\n"                   \
    "b.eq " end "f\n"

// Requantizes rows w12 .. w12 + 3 of the tile pair t0 / t1 (z16-z19 / z20-z23) into z0-z3 (16-bit lanes: the
// row's 2VL outputs) and stores the rows left of them (x22) at x21; loops back to `loop` while rows remain.
#define KAI_STORE_HALF(t0, t1, loop, end)                          \
    loop ":\n"                                                      \
    "mova {z16.s-z19.s}, " t0 "h.s[w12, 0:3]\n"                     \
    "mova {z20.s-z23.s}, " t1 "h.s[w12, 0:3]\n"                     \
    "scvtf {z16.s-z19.s}, {z16.s-z19.s}\n"                          \
    "scvtf {z20.s-z23.s}, {z20.s-z23.s}\n"                          \
    "fmul z16.s, z16.s, z26.s\n"                                    \
    "fmul z17.s, z17.s, z26.s\n"                                    \
    "fmul z18.s, z18.s, z26.s\n"                                    \
    "fmul z19.s, z19.s, z26.s\n"                                    \
    "fmul z20.s, z20.s, z27.s\n"                                    \
    "fmul z21.s, z21.s, z27.s\n"                                    \
    "fmul z22.s, z22.s, z27.s\n"                                    \
    "fmul z23.s, z23.s, z27.s\n"                                    \
    "frintn {z16.s-z19.s}, {z16.s-z19.s}\n"                         \
    "frintn {z20.s-z23.s}, {z20.s-z23.s}\n"                         \
    "fcvtzs {z16.s-z19.s}, {z16.s-z19.s}\n"                         \
    "fcvtzs {z20.s-z23.s}, {z20.s-z23.s}\n"                         \
    "add {z16.s-z19.s}, {z16.s-z19.s}, z4.s\n"                      \
    "add {z20.s-z23.s}, {z20.s-z23.s}, z4.s\n"                      \
    "sclamp {z16.s-z19.s}, z29.s, z30.s\n"                          \
    "sclamp {z20.s-z23.s}, z29.s, z30.s\n"                          \
    "uzp1 z0.h, z16.h, z20.h\n"                                     \
    "uzp1 z1.h, z17.h, z21.h\n"                                     \
    "uzp1 z2.h, z18.h, z22.h\n"                                     \
    "uzp1 z3.h, z19.h, z23.h\n"                                     \
    KAI_STORE("0", end)                                             \
    KAI_STORE("1", end)                                             \
    KAI_STORE("2", end)                                             \
    "st1b {z3.h}, p4, [x21]\n"                                      \
    "add x21, x21, x8\n"                                            \
    "add w12, w12, #4\n"                                            \
    "subs x22, x22, #1\n"                                           \
    "b.ne " loop "b\n"                                              \
    end ":\n"

void kai_run_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, const struct kai_matmul_requantize32_params* params) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(int8_t), "dst_stride_col must be 1");
    KAI_UNUSED(dst_stride_col);
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->min_value >= INT8_MIN, "params->min_value must be at least -128");
    KAI_ASSUME_MSG(params->max_value <= INT8_MAX, "params->max_value must be at most 127");
    KAI_ASSUME_MSG(params->min_value <= params->max_value, "params->min_value must not exceed params->max_value");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row >= n, "dst_stride_row must be at least n when m > 1");

    const size_t tile = 2 * kai_vl();
    const size_t kp = kai_roundup(k, kai_kr);
    struct kai_args args;
    args.lhs = lhs_packed;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.m = m;
    args.n = n;
    args.groups = kp / kai_kr;
    args.dst_stride = dst_stride_row;
    args.lhs_block = kai_mul_size_checked(tile, kp);
    args.rhs_block = kai_mul_size_checked(tile, kai_add_size_checked(kp, 8));
    args.zero_point = params->output_zero_point;
    args.min_value = params->min_value;
    args.max_value = params->max_value;
    args.unused = 0;

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 groups,
    // x8 DST stride, x9 / x10 LHS / RHS block bytes, x13 VL, x14 RHS block, x15 DST tile, x16 columns left,
    // x17 / x19 LHS / RHS pointer, x20 counter, x21 DST row, x22 rows left in a half, x23 rows of the tile, x24
    // tile (2VL), x26 columns of the tile, w12 ZA slice. Epilogue: scales z26 / z27, zp z4, bounds z29 / z30,
    // column predicate p4 (16-bit lanes), pn8 all-true for the multi-vector loads.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x8, x9, [x0, #48]\n"
        "ldr x10, [x0, #64]\n"
        "smstart\n"
        "ptrue p0.b\n"
        "ptrue pn8.b\n"
        "cntw x13\n"
        "add x24, x13, x13\n"
        "ld1rw {z29.s}, p0/z, [x0, #76]\n"
        "ld1rw {z30.s}, p0/z, [x0, #80]\n"
        "1:\n"  // row blocks
        "cmp x4, x24\n"
        "csel x23, x4, x24, lo\n"
        "mov x14, x2\n"
        "mov x15, x3\n"
        "mov x16, x5\n"
        "2:\n"  // column blocks
        "cmp x16, x24\n"
        "csel x26, x16, x24, lo\n"
        "zero {za}\n"
        "ld1w {z24.s-z25.s}, pn8/z, [x14]\n"
        "addha za0.s, p0/m, p0/m, z24.s\n"
        "addha za1.s, p0/m, p0/m, z25.s\n"
        "addha za2.s, p0/m, p0/m, z24.s\n"
        "addha za3.s, p0/m, p0/m, z25.s\n"
        "addvl x19, x14, #2\n"
        "mov x17, x1\n"
        "lsr x20, x6, #2\n"
        "cbz x20, 4f\n"
        "3:\n"  // four groups per iteration
        "ld1b {z0.b-z3.b}, pn8/z, [x17]\n"
        "ld1b {z8.b-z11.b}, pn8/z, [x19]\n"
        "ld1b {z4.b-z7.b}, pn8/z, [x17, #4, mul vl]\n"
        "ld1b {z12.b-z15.b}, pn8/z, [x19, #4, mul vl]\n"
        KAI_SMOPA4("z0", "z1", "z8", "z9")
        KAI_SMOPA4("z2", "z3", "z10", "z11")
        KAI_SMOPA4("z4", "z5", "z12", "z13")
        KAI_SMOPA4("z6", "z7", "z14", "z15")
        "addvl x17, x17, #8\n"
        "addvl x19, x19, #8\n"
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        "4:\n"
        "ands x20, x6, #3\n"
        "b.eq 6f\n"
        "5:\n"  // single groups
        "ld1b {z0.b-z1.b}, pn8/z, [x17]\n"
        "ld1b {z8.b-z9.b}, pn8/z, [x19]\n"
        KAI_SMOPA4("z0", "z1", "z8", "z9")
        "addvl x17, x17, #2\n"
        "addvl x19, x19, #2\n"
        "subs x20, x20, #1\n"
        "b.ne 5b\n"
        "6:\n"  // epilogue: x19 is at the block's scales
        "ld1w {z26.s-z27.s}, pn8/z, [x19]\n"
        "ld1rw {z4.s}, p0/z, [x0, #72]\n"  // zp (multi-vector ADD takes z0-z15)
        "whilelt p4.h, xzr, x26\n"
        "mov x21, x15\n"
        "cmp x23, x13\n"
        "csel x22, x23, x13, lo\n"
        "mov w12, #0\n"
        KAI_STORE_HALF("za0", "za1", "7", "8")  // rows 0..VL-1
        "subs x22, x23, x13\n"
        "b.ls 11f\n"
        "mov w12, #0\n"
        KAI_STORE_HALF("za2", "za3", "9", "10")  // rows VL..2VL-1
        "11:\n"
        "add x15, x15, x24\n"
        "add x14, x14, x10\n"
        "subs x16, x16, x26\n"
        "b.ne 2b\n"
        "add x1, x1, x9\n"
        "madd x3, x8, x24, x3\n"
        "subs x4, x4, x23\n"
        "b.ne 1b\n"
        "smstop\n"
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x8", "x9", "x10", "x12", "x13", "x14", "x15", "x16", "x17", "x19",
          "x20", "x21", "x22", "x23", "x24", "x26", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10",
          "z11", "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z29", "z30", "p0",
          "p4", "p8", "za", "cc", "memory");
}
