//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[0][j] = clamp16(f16(bias[j] + sum over k pairs of FDOT products)) for one f16 LHS row (docs/matmul_sme.md,
// "f16 SME/SME2 GEMM and GEMV"), reading the packed RHS of the f16 GEMMs (docs/formats.md, "x16p2vlx2b"). VL =
// SVL / 32. A block of nr = 2VL channels is 2VL f16 biases (one vector), then for each pair of k values the 2VL
// channels' two f16 (two vectors of 32-bit pairs). One step covers 8 blocks = 16 VL columns in 16 ZA array vectors
// (vector groups at offsets 0 / 1: blocks 0, 2, 4, 6 low / high halves; 2 / 3: blocks 1, 3, 5, 7); the biases
// enter them widened to f32 (exact). The LHS is read with LD1RQH: each 128-bit segment holds 4 pairs, which the
// indexed FDOT (2-way f16 dot product per 32-bit lane, into f32) selects. Columns past n: the missing blocks'
// pointers repeat block 0 (read in bounds, results dropped), the stores are masked. K tail: predicated LHS loads,
// so nothing past k is read and the pad of an odd k is 0. One inline-assembly streaming section.

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME2)
#error "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot needs AArch64 with FEAT_SME2"
#endif

#include "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f16_f16_f16p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; clang (the only compiler that builds SME) accepts it.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_m_step = 1;
static const size_t kai_kr = 2;
static const size_t kai_sr = 1;

// The f32 lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_vl(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float);
}

// Commits a pending lazy ZA save of the caller (AAPCS64 SME): when TPIDR2_EL0 points to a TPIDR2 block, stores
// its num_za_save_slices ZA slices to its za_save_buffer and clears TPIDR2_EL0.
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

size_t kai_get_m_step_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(void) {
    return 16 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(
        n_idx, kai_mul_size_checked(kai_add_size_checked(1, kai_roundup(k, kai_kr)), sizeof(uint16_t)));
}

size_t kai_get_dst_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(dst_stride);
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_dst_size_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(uint16_t));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;     // 0
    const void* rhs;     // 8: packed RHS, first block
    void* dst;           // 16
    uint64_t n;          // 24
    uint64_t k_main;     // 32: k / 8 (4 full pairs per iteration)
    uint64_t k_tail;     // 40: the remaining pairs, roundup(k, 2) / 2 - 4 * k_main
    uint64_t rhs_block;  // 48: bytes per RHS block, 2VL * (2 + 2 * roundup(k, 2))
    uint32_t min_bits;   // 56: f16 bits of the lower bound
    uint32_t max_bits;   // 60: f16 bits of the upper bound
    uint64_t k_left;     // 64: LHS values left for the tail, k - 8 * k_main
};

// Widens the f16 biases of one block (at the block pointer) to f32: lo = channels 0..VL-1, hi = VL..2VL-1.
#define KAI_BIAS(ptr, lo, hi)                    \
    "ld1h {" lo ".h}, p0/z, [" ptr "]\n"         \
    "zip2 " hi ".h, " lo ".h, " lo ".h\n"        \
    "zip1 " lo ".h, " lo ".h, " lo ".h\n"        \
    "fcvt " lo ".s, p0/m, " lo ".h\n"            \
    "fcvt " hi ".s, p0/m, " hi ".h\n"

// Two k pairs (x9 at the first) of the 8 blocks, with the LHS pairs idx0 and idx1 of z0's segments.
#define KAI_TWO_PAIRS(idx0, idx1)                                          \
    "ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x19, x9, lsl #2]\n"        \
    "ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x21, x9, lsl #2]\n"        \
    "ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x23, x9, lsl #2]\n"        \
    "ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x25, x9, lsl #2]\n"        \
    "fdot za.s[w8, 0, vgx4], {z16.h-z19.h}, z0.h[" idx0 "]\n"              \
    "fdot za.s[w8, 1, vgx4], {z20.h-z23.h}, z0.h[" idx0 "]\n"              \
    "fdot za.s[w8, 0, vgx4], {z24.h-z27.h}, z0.h[" idx1 "]\n"              \
    "fdot za.s[w8, 1, vgx4], {z28.h-z31.h}, z0.h[" idx1 "]\n"              \
    "ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x20, x9, lsl #2]\n"        \
    "ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x22, x9, lsl #2]\n"        \
    "ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x24, x9, lsl #2]\n"        \
    "ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x26, x9, lsl #2]\n"        \
    "fdot za.s[w8, 2, vgx4], {z16.h-z19.h}, z0.h[" idx0 "]\n"              \
    "fdot za.s[w8, 3, vgx4], {z20.h-z23.h}, z0.h[" idx0 "]\n"              \
    "fdot za.s[w8, 2, vgx4], {z24.h-z27.h}, z0.h[" idx1 "]\n"              \
    "fdot za.s[w8, 3, vgx4], {z28.h-z31.h}, z0.h[" idx1 "]\n"              \
    "add x9, x9, x15, lsl #1\n"

void kai_run_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max) {
    KAI_ASSUME_MSG(m == 1, "m must be 1");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(uint16_t), "dst_stride_col must be 2");
    KAI_UNUSED(lhs_stride);
    KAI_UNUSED(dst_stride_row);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");

    struct kai_args args;
    args.lhs = lhs;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.n = n;
    args.k_main = k / 8;
    args.k_tail = kai_roundup(k, kai_kr) / 2 - 4 * (k / 8);
    args.k_left = k - 8 * (k / 8);
    args.rhs_block = kai_mul_size_checked(
        2 * kai_vl(), kai_mul_size_checked(kai_add_size_checked(1, kai_roundup(k, kai_kr)), sizeof(uint16_t)));
    args.min_bits = kai_cast_f16_f32(clamp_min);
    args.max_bits = kai_cast_f16_f32(clamp_max);

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS tile (block 0), x3 DST tile, x4 columns left, x5 k / 8, x6 tail pairs, x7 block
    // bytes, w8 ZA vector select (0), x9 32-bit offset inside a block, x10 LHS pointer, w11 / w13 clamp bits,
    // x12 k counter, x14 VL, x15 nr = 2VL, x16 16VL, x17 blocks in the tile, x19-x26 block pointers (x19, x21,
    // x23, x25 = blocks 0, 2, 4, 6; x20, x22, x24, x26 = blocks 1, 3, 5, 7), x27 columns of the tile, x28 scratch,
    // x30 LHS values left in the tail. z0: LHS pairs (4 per 128-bit segment); z16-z31: RHS vectors.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        "ldp w11, w13, [x0, #56]\n"
        "smstart\n"
        "ptrue p0.b\n"
        "ptrue pn8.s\n"
        "mov w8, #0\n"
        "cntw x14\n"
        "lsl x15, x14, #1\n"
        "lsl x16, x14, #4\n"
        "1:\n"  // column tiles of 16 VL
        "cmp x4, x16\n"
        "csel x27, x4, x16, lo\n"  // columns of this tile
        "add x17, x27, x15\n"
        "sub x17, x17, #1\n"
        "udiv x17, x17, x15\n"  // blocks of this tile
        "mov x19, x2\n"
        "mov x28, x2\n"
        "add x28, x28, x7\n"
        "cmp x17, #1\n"
        "csel x20, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #2\n"
        "csel x21, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #3\n"
        "csel x22, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #4\n"
        "csel x23, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #5\n"
        "csel x24, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #6\n"
        "csel x25, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #7\n"
        "csel x26, x28, x2, hi\n"
        KAI_BIAS("x19", "z16", "z20")
        KAI_BIAS("x21", "z17", "z21")
        KAI_BIAS("x23", "z18", "z22")
        KAI_BIAS("x25", "z19", "z23")
        "mova za.d[w8, 0, vgx4], {z16.d-z19.d}\n"
        "mova za.d[w8, 1, vgx4], {z20.d-z23.d}\n"
        KAI_BIAS("x20", "z16", "z20")
        KAI_BIAS("x22", "z17", "z21")
        KAI_BIAS("x24", "z18", "z22")
        KAI_BIAS("x26", "z19", "z23")
        "mova za.d[w8, 2, vgx4], {z16.d-z19.d}\n"
        "mova za.d[w8, 3, vgx4], {z20.d-z23.d}\n"
        "mov x9, x14\n"  // 32-bit offset of k = 0 in a block (after the nr f16 biases)
        "mov x10, x1\n"
        "mov x12, x5\n"
        "cbz x12, 3f\n"
        "2:\n"  // 4 k pairs per iteration
        "ld1rqh {z0.h}, p0/z, [x10]\n"
        KAI_TWO_PAIRS("0", "1")
        KAI_TWO_PAIRS("2", "3")
        "add x10, x10, #16\n"
        "subs x12, x12, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "mov x12, x6\n"
        "ldr x30, [x0, #64]\n"
        "cbz x12, 5f\n"
        "4:\n"  // one k pair per iteration
        "whilelt p1.h, xzr, x30\n"
        "ld1rqh {z0.h}, p1/z, [x10]\n"
        "ld1w {z16.s, z24.s}, pn8/z, [x19, x9, lsl #2]\n"
        "ld1w {z17.s, z25.s}, pn8/z, [x21, x9, lsl #2]\n"
        "ld1w {z18.s, z26.s}, pn8/z, [x23, x9, lsl #2]\n"
        "ld1w {z19.s, z27.s}, pn8/z, [x25, x9, lsl #2]\n"
        "fdot za.s[w8, 0, vgx4], {z16.h-z19.h}, z0.h[0]\n"
        "fdot za.s[w8, 1, vgx4], {z24.h-z27.h}, z0.h[0]\n"
        "ld1w {z16.s, z24.s}, pn8/z, [x20, x9, lsl #2]\n"
        "ld1w {z17.s, z25.s}, pn8/z, [x22, x9, lsl #2]\n"
        "ld1w {z18.s, z26.s}, pn8/z, [x24, x9, lsl #2]\n"
        "ld1w {z19.s, z27.s}, pn8/z, [x26, x9, lsl #2]\n"
        "fdot za.s[w8, 2, vgx4], {z16.h-z19.h}, z0.h[0]\n"
        "fdot za.s[w8, 3, vgx4], {z24.h-z27.h}, z0.h[0]\n"
        "add x9, x9, x15\n"
        "add x10, x10, #4\n"
        "sub x30, x30, #2\n"
        "subs x12, x12, #1\n"
        "b.ne 4b\n"
        "5:\n"  // to f16, clamp and store: block 2i in z16+i, block 2i+1 in z24+i
        "dup z4.h, w11\n"
        "dup z5.h, w13\n"
        "mova {z16.d-z19.d}, za.d[w8, 0, vgx4]\n"
        "mova {z20.d-z23.d}, za.d[w8, 1, vgx4]\n"
        "mova {z24.d-z27.d}, za.d[w8, 2, vgx4]\n"
        "mova {z28.d-z31.d}, za.d[w8, 3, vgx4]\n"
        "fcvt z16.h, p0/m, z16.s\n"
        "fcvt z17.h, p0/m, z17.s\n"
        "fcvt z18.h, p0/m, z18.s\n"
        "fcvt z19.h, p0/m, z19.s\n"
        "fcvt z20.h, p0/m, z20.s\n"
        "fcvt z21.h, p0/m, z21.s\n"
        "fcvt z22.h, p0/m, z22.s\n"
        "fcvt z23.h, p0/m, z23.s\n"
        "fcvt z24.h, p0/m, z24.s\n"
        "fcvt z25.h, p0/m, z25.s\n"
        "fcvt z26.h, p0/m, z26.s\n"
        "fcvt z27.h, p0/m, z27.s\n"
        "fcvt z28.h, p0/m, z28.s\n"
        "fcvt z29.h, p0/m, z29.s\n"
        "fcvt z30.h, p0/m, z30.s\n"
        "fcvt z31.h, p0/m, z31.s\n"
        "uzp1 z16.h, z16.h, z20.h\n"
        "uzp1 z17.h, z17.h, z21.h\n"
        "uzp1 z18.h, z18.h, z22.h\n"
        "uzp1 z19.h, z19.h, z23.h\n"
        "uzp1 z24.h, z24.h, z28.h\n"
        "uzp1 z25.h, z25.h, z29.h\n"
        "uzp1 z26.h, z26.h, z30.h\n"
        "uzp1 z27.h, z27.h, z31.h\n"
        "fclamp {z16.h-z19.h}, z4.h, z5.h\n"
        "fclamp {z24.h-z27.h}, z4.h, z5.h\n"
        "mov x28, #0\n"
        "whilelt pn9.h, x28, x27, vlx2\n"
        "st1h {z16.h, z24.h}, pn9, [x3, #0, mul vl]\n"
        "add x28, x28, x14, lsl #2\n"
        "whilelt pn9.h, x28, x27, vlx2\n"
        "st1h {z17.h, z25.h}, pn9, [x3, #2, mul vl]\n"
        "add x28, x28, x14, lsl #2\n"
        "whilelt pn9.h, x28, x27, vlx2\n"
        "st1h {z18.h, z26.h}, pn9, [x3, #4, mul vl]\n"
        "add x28, x28, x14, lsl #2\n"
        "whilelt pn9.h, x28, x27, vlx2\n"
        "st1h {z19.h, z27.h}, pn9, [x3, #6, mul vl]\n"
        "addvl x3, x3, #8\n"
        "add x2, x2, x7, lsl #3\n"
        "subs x4, x4, x27\n"
        "b.ne 1b\n"
        "smstop\n"
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x30", "z0", "z1", "z2", "z3", "z4",
          "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19", "z20",
          "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4",
          "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "za", "cc", "memory");
}
