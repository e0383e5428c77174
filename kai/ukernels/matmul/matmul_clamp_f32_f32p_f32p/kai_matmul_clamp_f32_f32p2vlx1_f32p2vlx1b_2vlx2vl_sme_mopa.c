//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(fma chain over k starting from bias[j]) (docs/matmul_sme.md); SME only (no SME2 instruction). VL =
// SVL / 32 f32 lanes.
// Packed LHS: blocks of 2VL rows, for each k the 2VL values of column k (two vectors). Packed RHS: blocks of 2VL
// channels, stride 2VL * (1 + k) * 4: 2VL biases (two vectors), then for each k the 2VL values (two vectors).
// Tile 2VL x 2VL in the four 32-bit ZA tiles: za0 = rows 0..VL-1 x cols 0..VL-1, za1 = rows 0..VL-1 x cols
// VL..2VL-1, za2 and za3 the same for rows VL..2VL-1. Per k, four FMOPAs of (LHS lo/hi) x (RHS lo/hi): each ZA
// element does one fused multiply-add per k, in k order. The bias enters first as the outer product of a vector
// of 1.0 with the bias row (exact). The whole call runs in one streaming-mode section (inline assembly: GCC 12's
// libgcc has no SME ABI routines, so no __arm_new("za") / __arm_locally_streaming).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa needs AArch64"
#endif

#include "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_f32p_f32p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

// 2 * the f32 lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_tile(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float) * 2;
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

size_t kai_get_m_step_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_tile();
}

size_t kai_get_n_step_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_tile();
}

size_t kai_get_mr_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_tile();
}

size_t kai_get_nr_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_tile();
}

size_t kai_get_kr_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_tile() == 0, "m_idx must be a multiple of the m step");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, k), sizeof(float));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_tile() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_dst_offset_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride_row) {
    KAI_ASSUME_MSG(m_idx % kai_tile() == 0, "m_idx must be a multiple of the m step");
    KAI_ASSUME_MSG(n_idx % kai_tile() == 0, "n_idx must be a multiple of the n step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride_row), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldr from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;       // 0: packed LHS block of the first row block
    const void* rhs;       // 8: packed RHS block of the first column block
    void* dst;             // 16
    uint64_t m;            // 24
    uint64_t n;            // 32
    uint64_t k_main;       // 40: k / 8
    uint64_t k_tail;       // 48: k % 8
    uint64_t dst_stride;   // 56
    uint64_t lhs_block;    // 64: bytes per LHS block, 2VL * k * 4
    uint64_t rhs_block;    // 72: bytes per RHS block, 2VL * (1 + k) * 4
    uint32_t min_bits;     // 80
    uint32_t max_bits;     // 84
};

void kai_run_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, float clamp_min, float clamp_max) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be 4");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row / sizeof(float) >= n, "dst_stride_row must be at least n * 4 when m > 1");

    const size_t tile = kai_tile();
    struct kai_args args;
    args.lhs = lhs_packed;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.m = m;
    args.n = n;
    args.k_main = k / 8;
    args.k_tail = k % 8;
    args.dst_stride = dst_stride_row;
    args.lhs_block = kai_mul_size_checked(kai_mul_size_checked(tile, k), sizeof(float));
    args.rhs_block = kai_mul_size_checked(tile, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
    memcpy(&args.min_bits, &clamp_min, sizeof(float));
    memcpy(&args.max_bits, &clamp_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 k / 8,
    // x7 k % 8, x8 DST stride, x9 / x10 LHS / RHS block bytes, w11 / w13 clamp bits, w12 ZA slice, x14 RHS block,
    // x15 DST tile, x16 columns left, x17 / x19 LHS / RHS k pointer, x20 k counter, x21 DST row, x22 rows of a
    // half, x23 rows of the tile, x24 2VL, x25 VL, x26 columns of the tile, x27 zero.
    // Main loop: 8 k per iteration, LHS in z0-z15 (two vectors per k), RHS in z16-z31, single-vector SVE loads.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x7, x8, [x0, #48]\n"
        "ldp x9, x10, [x0, #64]\n"
        "ldp w11, w13, [x0, #80]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x04a0e3f9\n"  // cntw x25
        "lsl x24, x25, #1\n"
        "mov x27, #0\n"
        "1:\n"  // row blocks
        "cmp x4, x24\n"
        "csel x23, x4, x24, lo\n"
        "mov x14, x2\n"
        "mov x15, x3\n"
        "mov x16, x5\n"
        "2:\n"  // column blocks
        "cmp x16, x24\n"
        "csel x26, x16, x24, lo\n"
        ".inst 0xc00800ff\n"  // zero {za}
        ".inst 0x25b9ce1f\n"  // fmov z31.s, #1.0
        ".inst 0xa540a1c0\n"  // ld1w z0.s, p0/z, [x14]
        ".inst 0xa541a1c1\n"  // ld1w z1.s, p0/z, [x14, #1, mul vl]
        // One k step: the four outer products of LHS (lo, hi) x RHS (lo, hi).
        ".inst 0x808003e0\n"  // fmopa za0.s, p0/m, p0/m, z31.s, z0.s
        ".inst 0x808103e1\n"  // fmopa za1.s, p0/m, p0/m, z31.s, z1.s
        ".inst 0x808003e2\n"  // fmopa za2.s, p0/m, p0/m, z31.s, z0.s
        ".inst 0x808103e3\n"  // fmopa za3.s, p0/m, p0/m, z31.s, z1.s
        ".inst 0x04215111\n"  // addvl x17, x1, #8
        ".inst 0x042e5153\n"  // addvl x19, x14, #10
        "mov x20, x6\n"
        "cbz x20, 4f\n"
        "3:\n"  // 8 k per iteration: LHS in z0-z15, RHS in z16-z31
        ".inst 0xa548a220\n"  // ld1w z0.s, p0/z, [x17, #-8, mul vl]
        ".inst 0xa548a270\n"  // ld1w z16.s, p0/z, [x19, #-8, mul vl]
        ".inst 0xa549a221\n"  // ld1w z1.s, p0/z, [x17, #-7, mul vl]
        ".inst 0xa549a271\n"  // ld1w z17.s, p0/z, [x19, #-7, mul vl]
        ".inst 0x80900000\n"  // fmopa za0.s, p0/m, p0/m, z0.s, z16.s
        ".inst 0x80910001\n"  // fmopa za1.s, p0/m, p0/m, z0.s, z17.s
        ".inst 0x80900022\n"  // fmopa za2.s, p0/m, p0/m, z1.s, z16.s
        ".inst 0x80910023\n"  // fmopa za3.s, p0/m, p0/m, z1.s, z17.s
        ".inst 0xa54aa222\n"  // ld1w z2.s, p0/z, [x17, #-6, mul vl]
        ".inst 0xa54aa272\n"  // ld1w z18.s, p0/z, [x19, #-6, mul vl]
        ".inst 0xa54ba223\n"  // ld1w z3.s, p0/z, [x17, #-5, mul vl]
        ".inst 0xa54ba273\n"  // ld1w z19.s, p0/z, [x19, #-5, mul vl]
        ".inst 0x80920040\n"  // fmopa za0.s, p0/m, p0/m, z2.s, z18.s
        ".inst 0x80930041\n"  // fmopa za1.s, p0/m, p0/m, z2.s, z19.s
        ".inst 0x80920062\n"  // fmopa za2.s, p0/m, p0/m, z3.s, z18.s
        ".inst 0x80930063\n"  // fmopa za3.s, p0/m, p0/m, z3.s, z19.s
        ".inst 0xa54ca224\n"  // ld1w z4.s, p0/z, [x17, #-4, mul vl]
        ".inst 0xa54ca274\n"  // ld1w z20.s, p0/z, [x19, #-4, mul vl]
        ".inst 0xa54da225\n"  // ld1w z5.s, p0/z, [x17, #-3, mul vl]
        ".inst 0xa54da275\n"  // ld1w z21.s, p0/z, [x19, #-3, mul vl]
        ".inst 0x80940080\n"  // fmopa za0.s, p0/m, p0/m, z4.s, z20.s
        ".inst 0x80950081\n"  // fmopa za1.s, p0/m, p0/m, z4.s, z21.s
        ".inst 0x809400a2\n"  // fmopa za2.s, p0/m, p0/m, z5.s, z20.s
        ".inst 0x809500a3\n"  // fmopa za3.s, p0/m, p0/m, z5.s, z21.s
        ".inst 0xa54ea226\n"  // ld1w z6.s, p0/z, [x17, #-2, mul vl]
        ".inst 0xa54ea276\n"  // ld1w z22.s, p0/z, [x19, #-2, mul vl]
        ".inst 0xa54fa227\n"  // ld1w z7.s, p0/z, [x17, #-1, mul vl]
        ".inst 0xa54fa277\n"  // ld1w z23.s, p0/z, [x19, #-1, mul vl]
        ".inst 0x809600c0\n"  // fmopa za0.s, p0/m, p0/m, z6.s, z22.s
        ".inst 0x809700c1\n"  // fmopa za1.s, p0/m, p0/m, z6.s, z23.s
        ".inst 0x809600e2\n"  // fmopa za2.s, p0/m, p0/m, z7.s, z22.s
        ".inst 0x809700e3\n"  // fmopa za3.s, p0/m, p0/m, z7.s, z23.s
        ".inst 0xa540a228\n"  // ld1w z8.s, p0/z, [x17, #0, mul vl]
        ".inst 0xa540a278\n"  // ld1w z24.s, p0/z, [x19, #0, mul vl]
        ".inst 0xa541a229\n"  // ld1w z9.s, p0/z, [x17, #1, mul vl]
        ".inst 0xa541a279\n"  // ld1w z25.s, p0/z, [x19, #1, mul vl]
        ".inst 0x80980100\n"  // fmopa za0.s, p0/m, p0/m, z8.s, z24.s
        ".inst 0x80990101\n"  // fmopa za1.s, p0/m, p0/m, z8.s, z25.s
        ".inst 0x80980122\n"  // fmopa za2.s, p0/m, p0/m, z9.s, z24.s
        ".inst 0x80990123\n"  // fmopa za3.s, p0/m, p0/m, z9.s, z25.s
        ".inst 0xa542a22a\n"  // ld1w z10.s, p0/z, [x17, #2, mul vl]
        ".inst 0xa542a27a\n"  // ld1w z26.s, p0/z, [x19, #2, mul vl]
        ".inst 0xa543a22b\n"  // ld1w z11.s, p0/z, [x17, #3, mul vl]
        ".inst 0xa543a27b\n"  // ld1w z27.s, p0/z, [x19, #3, mul vl]
        ".inst 0x809a0140\n"  // fmopa za0.s, p0/m, p0/m, z10.s, z26.s
        ".inst 0x809b0141\n"  // fmopa za1.s, p0/m, p0/m, z10.s, z27.s
        ".inst 0x809a0162\n"  // fmopa za2.s, p0/m, p0/m, z11.s, z26.s
        ".inst 0x809b0163\n"  // fmopa za3.s, p0/m, p0/m, z11.s, z27.s
        ".inst 0xa544a22c\n"  // ld1w z12.s, p0/z, [x17, #4, mul vl]
        ".inst 0xa544a27c\n"  // ld1w z28.s, p0/z, [x19, #4, mul vl]
        ".inst 0xa545a22d\n"  // ld1w z13.s, p0/z, [x17, #5, mul vl]
        ".inst 0xa545a27d\n"  // ld1w z29.s, p0/z, [x19, #5, mul vl]
        ".inst 0x809c0180\n"  // fmopa za0.s, p0/m, p0/m, z12.s, z28.s
        ".inst 0x809d0181\n"  // fmopa za1.s, p0/m, p0/m, z12.s, z29.s
        ".inst 0x809c01a2\n"  // fmopa za2.s, p0/m, p0/m, z13.s, z28.s
        ".inst 0x809d01a3\n"  // fmopa za3.s, p0/m, p0/m, z13.s, z29.s
        ".inst 0xa546a22e\n"  // ld1w z14.s, p0/z, [x17, #6, mul vl]
        ".inst 0xa546a27e\n"  // ld1w z30.s, p0/z, [x19, #6, mul vl]
        ".inst 0xa547a22f\n"  // ld1w z15.s, p0/z, [x17, #7, mul vl]
        ".inst 0xa547a27f\n"  // ld1w z31.s, p0/z, [x19, #7, mul vl]
        ".inst 0x809e01c0\n"  // fmopa za0.s, p0/m, p0/m, z14.s, z30.s
        ".inst 0x809f01c1\n"  // fmopa za1.s, p0/m, p0/m, z14.s, z31.s
        ".inst 0x809e01e2\n"  // fmopa za2.s, p0/m, p0/m, z15.s, z30.s
        ".inst 0x809f01e3\n"  // fmopa za3.s, p0/m, p0/m, z15.s, z31.s
        ".inst 0x04315211\n"  // addvl x17, x17, #16
        ".inst 0x04335213\n"  // addvl x19, x19, #16
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        "4:\n"
        "mov x20, x7\n"
        "cbz x20, 6f\n"
        "5:\n"  // one k per iteration
        ".inst 0xa548a220\n"  // ld1w z0.s, p0/z, [x17, #-8, mul vl]
        ".inst 0xa549a221\n"  // ld1w z1.s, p0/z, [x17, #-7, mul vl]
        ".inst 0xa548a270\n"  // ld1w z16.s, p0/z, [x19, #-8, mul vl]
        ".inst 0xa549a271\n"  // ld1w z17.s, p0/z, [x19, #-7, mul vl]
        ".inst 0x80900000\n"  // fmopa za0.s, p0/m, p0/m, z0.s, z16.s
        ".inst 0x80910001\n"  // fmopa za1.s, p0/m, p0/m, z0.s, z17.s
        ".inst 0x80900022\n"  // fmopa za2.s, p0/m, p0/m, z1.s, z16.s
        ".inst 0x80910023\n"  // fmopa za3.s, p0/m, p0/m, z1.s, z17.s
        ".inst 0x04315051\n"  // addvl x17, x17, #2
        ".inst 0x04335053\n"  // addvl x19, x19, #2
        "subs x20, x20, #1\n"
        "b.ne 5b\n"
        "6:\n"  // clamp and store the tile
        ".inst 0x05a0396e\n"  // dup z14.s, w11
        ".inst 0x05a039af\n"  // dup z15.s, w13
        ".inst 0x25ba1761\n"  // whilelt p1.s, x27, x26
        ".inst 0x25ba1722\n"  // whilelt p2.s, x25, x26
        "mov x21, x15\n"
        "cmp x23, x25\n"
        "csel x22, x23, x25, lo\n"
        "mov w12, #0\n"
        // Stores the rows of one half of the tile (ZA tiles t_lo, t_hi: columns 0..VL-1 and VL..2VL-1), x22 rows from
        // slice 0, to x21 onwards (stride x8), one row per iteration. Clamp: max with z14, min with z15; columns masked
        // by p1 (0..VL-1) and p2 (VL..2VL-1).
        "10:\n"
        "cbz x22, 11f\n"
        ".inst 0xc0820000\n"  // mova z0.s, p0/m, za0h.s[w12, 0]
        ".inst 0xc0820081\n"  // mova z1.s, p0/m, za1h.s[w12, 0]
        ".inst 0x658681c0\n"  // fmax z0.s, p0/m, z0.s, z14.s
        ".inst 0x658681c1\n"  // fmax z1.s, p0/m, z1.s, z14.s
        ".inst 0x658781e0\n"  // fmin z0.s, p0/m, z0.s, z15.s
        ".inst 0x658781e1\n"  // fmin z1.s, p0/m, z1.s, z15.s
        ".inst 0xe540e6a0\n"  // st1w z0.s, p1, [x21]
        ".inst 0xe541eaa1\n"  // st1w z1.s, p2, [x21, #1, mul vl]
        "add x21, x21, x8\n"
        "add w12, w12, #1\n"
        "sub x22, x22, #1\n"
        "b 10b\n"
        "11:\n"
        "subs x22, x23, x25\n"
        "b.ls 9f\n"
        "mov w12, #0\n"
        "13:\n"
        "cbz x22, 14f\n"
        ".inst 0xc0820100\n"  // mova z0.s, p0/m, za2h.s[w12, 0]
        ".inst 0xc0820181\n"  // mova z1.s, p0/m, za3h.s[w12, 0]
        ".inst 0x658681c0\n"  // fmax z0.s, p0/m, z0.s, z14.s
        ".inst 0x658681c1\n"  // fmax z1.s, p0/m, z1.s, z14.s
        ".inst 0x658781e0\n"  // fmin z0.s, p0/m, z0.s, z15.s
        ".inst 0x658781e1\n"  // fmin z1.s, p0/m, z1.s, z15.s
        ".inst 0xe540e6a0\n"  // st1w z0.s, p1, [x21]
        ".inst 0xe541eaa1\n"  // st1w z1.s, p2, [x21, #1, mul vl]
        "add x21, x21, x8\n"
        "add w12, w12, #1\n"
        "sub x22, x22, #1\n"
        "b 13b\n"
        "14:\n"
        "9:\n"
        "add x15, x15, x24, lsl #2\n"
        "add x14, x14, x10\n"
        "subs x16, x16, x26\n"
        "b.ne 2b\n"
        "add x1, x1, x9\n"
        "madd x3, x8, x24, x3\n"
        "subs x4, x4, x23\n"
        "b.ne 1b\n"
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x30", "z0", "z1", "z2", "z3", "z4",
          "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20",
          "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4",
          "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}
