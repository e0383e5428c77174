//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(bias[j] + sum over k pairs of BFMOPA products) (docs/matmul_sme.md). VL = SVL / 32.
// Packed LHS: blocks of 2VL rows, for each pair of k values the 2VL rows' two bf16 (two vectors). Packed RHS:
// blocks of 2VL channels, stride 2VL * (4 + 2 * Kp) bytes: 2VL f32 biases (two vectors), then for each pair the
// 2VL channels' two bf16 (two vectors). Tile 2VL x 2VL in the four 32-bit ZA tiles: za0 = rows 0..VL-1 x cols
// 0..VL-1, za1 = rows 0..VL-1 x cols VL..2VL-1, za2 and za3 the same for rows VL..2VL-1. Per pair, four widening
// BFMOPAs of (LHS lo/hi) x (RHS lo/hi). The bias enters first as the f32 outer product of a vector of 1.0 with
// the bias row (exact). The whole call runs in one streaming-mode section (inline assembly: GCC 12's libgcc has
// no SME ABI routines, so no __arm_new("za") / __arm_locally_streaming).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa needs AArch64"
#endif

#include "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_bf16p_bf16p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 2;
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

size_t kai_get_m_step_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_tile();
}

size_t kai_get_n_step_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_tile();
}

size_t kai_get_mr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_tile();
}

size_t kai_get_nr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_tile();
}

size_t kai_get_kr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_tile() == 0, "m_idx must be a multiple of the m step");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_tile() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx, kai_add_size_checked(sizeof(float), kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t))));
}

size_t kai_get_dst_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride_row) {
    KAI_ASSUME_MSG(m_idx % kai_tile() == 0, "m_idx must be a multiple of the m step");
    KAI_ASSUME_MSG(n_idx % kai_tile() == 0, "n_idx must be a multiple of the n step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride_row), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldr from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;       // 0: packed LHS block of the first row block
    const void* rhs;       // 8: packed RHS block of the first column block
    void* dst;             // 16
    uint64_t m;            // 24
    uint64_t n;            // 32
    uint64_t k_main;       // 40: pairs / 8 (pairs = roundup(k, 2) / 2)
    uint64_t k_tail;       // 48: pairs % 8
    uint64_t dst_stride;   // 56
    uint64_t lhs_block;    // 64: bytes per LHS block, 2VL * Kp * 2
    uint64_t rhs_block;    // 72: bytes per RHS block, 2VL * (4 + Kp * 2)
    uint32_t min_bits;     // 80
    uint32_t max_bits;     // 84
};

void kai_run_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(
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
    const size_t kp = kai_roundup(k, kai_kr);
    args.k_main = kp / 2 / 8;
    args.k_tail = kp / 2 % 8;
    args.dst_stride = dst_stride_row;
    args.lhs_block = kai_mul_size_checked(kai_mul_size_checked(tile, kp), sizeof(uint16_t));
    args.rhs_block = kai_mul_size_checked(tile, kai_add_size_checked(sizeof(float), kai_mul_size_checked(kp, sizeof(uint16_t))));
    memcpy(&args.min_bits, &clamp_min, sizeof(float));
    memcpy(&args.max_bits, &clamp_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 pairs / 8,
    // x7 pairs % 8, x8 DST stride, x9 / x10 LHS / RHS block bytes, w11 / w13 clamp bits, w12 ZA slice, x14 RHS block,
    // x15 DST tile, x16 columns left, x17 / x19 LHS / RHS k pointer, x20 k counter, x21 DST row, x22 rows of a
    // half, x23 rows of the tile, x24 2VL, x25 VL, x26 columns of the tile, x27 zero.
    // Main loop: 8 k pairs per iteration, LHS in z0-z15 (two vectors per pair), RHS in z16-z31.
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
        ".inst 0x25a07810\n"  // ptrue pn8.s
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
        ".inst 0xa04041c0\n"  // ld1w {z0.s-z1.s}, pn8/z, [x14]
        ".inst 0x808003e0\n"  // fmopa za0.s, p0/m, p0/m, z31.s, z0.s
        ".inst 0x808103e1\n"  // fmopa za1.s, p0/m, p0/m, z31.s, z1.s
        ".inst 0x808003e2\n"  // fmopa za2.s, p0/m, p0/m, z31.s, z0.s
        ".inst 0x808103e3\n"  // fmopa za3.s, p0/m, p0/m, z31.s, z1.s
        "mov x17, x1\n"
        ".inst 0x042e5053\n"  // addvl x19, x14, #2
        "mov x20, x6\n"
        "cbz x20, 4f\n"
        "3:\n"  // 8 k pairs per iteration
        ".inst 0xa040c220\n"  // ld1w {z0.s-z3.s}, pn8/z, [x17]
        ".inst 0xa040c270\n"  // ld1w {z16.s-z19.s}, pn8/z, [x19]
        ".inst 0xa041c224\n"  // ld1w {z4.s-z7.s}, pn8/z, [x17, #4, mul vl]
        ".inst 0xa041c274\n"  // ld1w {z20.s-z23.s}, pn8/z, [x19, #4, mul vl]
        // The bias: the four f32 outer products of a vector of 1.0 with the bias (lo, hi).
        ".inst 0x81900000\n"  // bfmopa za0.s, p0/m, p0/m, z0.h, z16.h
        ".inst 0x81910001\n"  // bfmopa za1.s, p0/m, p0/m, z0.h, z17.h
        ".inst 0x81900022\n"  // bfmopa za2.s, p0/m, p0/m, z1.h, z16.h
        ".inst 0x81910023\n"  // bfmopa za3.s, p0/m, p0/m, z1.h, z17.h
        ".inst 0x81920040\n"  // bfmopa za0.s, p0/m, p0/m, z2.h, z18.h
        ".inst 0x81930041\n"  // bfmopa za1.s, p0/m, p0/m, z2.h, z19.h
        ".inst 0x81920062\n"  // bfmopa za2.s, p0/m, p0/m, z3.h, z18.h
        ".inst 0x81930063\n"  // bfmopa za3.s, p0/m, p0/m, z3.h, z19.h
        ".inst 0xa042c228\n"  // ld1w {z8.s-z11.s}, pn8/z, [x17, #8, mul vl]
        ".inst 0xa042c278\n"  // ld1w {z24.s-z27.s}, pn8/z, [x19, #8, mul vl]
        ".inst 0x81940080\n"  // bfmopa za0.s, p0/m, p0/m, z4.h, z20.h
        ".inst 0x81950081\n"  // bfmopa za1.s, p0/m, p0/m, z4.h, z21.h
        ".inst 0x819400a2\n"  // bfmopa za2.s, p0/m, p0/m, z5.h, z20.h
        ".inst 0x819500a3\n"  // bfmopa za3.s, p0/m, p0/m, z5.h, z21.h
        ".inst 0x819600c0\n"  // bfmopa za0.s, p0/m, p0/m, z6.h, z22.h
        ".inst 0x819700c1\n"  // bfmopa za1.s, p0/m, p0/m, z6.h, z23.h
        ".inst 0x819600e2\n"  // bfmopa za2.s, p0/m, p0/m, z7.h, z22.h
        ".inst 0x819700e3\n"  // bfmopa za3.s, p0/m, p0/m, z7.h, z23.h
        ".inst 0xa043c22c\n"  // ld1w {z12.s-z15.s}, pn8/z, [x17, #12, mul vl]
        ".inst 0xa043c27c\n"  // ld1w {z28.s-z31.s}, pn8/z, [x19, #12, mul vl]
        ".inst 0x81980100\n"  // bfmopa za0.s, p0/m, p0/m, z8.h, z24.h
        ".inst 0x81990101\n"  // bfmopa za1.s, p0/m, p0/m, z8.h, z25.h
        ".inst 0x81980122\n"  // bfmopa za2.s, p0/m, p0/m, z9.h, z24.h
        ".inst 0x81990123\n"  // bfmopa za3.s, p0/m, p0/m, z9.h, z25.h
        ".inst 0x819a0140\n"  // bfmopa za0.s, p0/m, p0/m, z10.h, z26.h
        ".inst 0x819b0141\n"  // bfmopa za1.s, p0/m, p0/m, z10.h, z27.h
        ".inst 0x819a0162\n"  // bfmopa za2.s, p0/m, p0/m, z11.h, z26.h
        ".inst 0x819b0163\n"  // bfmopa za3.s, p0/m, p0/m, z11.h, z27.h
        ".inst 0x819c0180\n"  // bfmopa za0.s, p0/m, p0/m, z12.h, z28.h
        ".inst 0x819d0181\n"  // bfmopa za1.s, p0/m, p0/m, z12.h, z29.h
        ".inst 0x819c01a2\n"  // bfmopa za2.s, p0/m, p0/m, z13.h, z28.h
        ".inst 0x819d01a3\n"  // bfmopa za3.s, p0/m, p0/m, z13.h, z29.h
        ".inst 0x819e01c0\n"  // bfmopa za0.s, p0/m, p0/m, z14.h, z30.h
        ".inst 0x819f01c1\n"  // bfmopa za1.s, p0/m, p0/m, z14.h, z31.h
        ".inst 0x819e01e2\n"  // bfmopa za2.s, p0/m, p0/m, z15.h, z30.h
        ".inst 0x819f01e3\n"  // bfmopa za3.s, p0/m, p0/m, z15.h, z31.h
        ".inst 0x04315211\n"  // addvl x17, x17, #16
        ".inst 0x04335213\n"  // addvl x19, x19, #16
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        "4:\n"
        "mov x20, x7\n"
        "cbz x20, 6f\n"
        "5:\n"  // one k pair per iteration
        ".inst 0xa0404220\n"  // ld1w {z0.s-z1.s}, pn8/z, [x17]
        ".inst 0xa0404270\n"  // ld1w {z16.s-z17.s}, pn8/z, [x19]
        ".inst 0x81900000\n"  // bfmopa za0.s, p0/m, p0/m, z0.h, z16.h
        ".inst 0x81910001\n"  // bfmopa za1.s, p0/m, p0/m, z0.h, z17.h
        ".inst 0x81900022\n"  // bfmopa za2.s, p0/m, p0/m, z1.h, z16.h
        ".inst 0x81910023\n"  // bfmopa za3.s, p0/m, p0/m, z1.h, z17.h
        ".inst 0x04315051\n"  // addvl x17, x17, #2
        ".inst 0x04335053\n"  // addvl x19, x19, #2
        "subs x20, x20, #1\n"
        "b.ne 5b\n"
        "6:\n"  // clamp and store the tile
        ".inst 0x05a0396e\n"  // dup z14.s, w11
        ".inst 0x05a039af\n"  // dup z15.s, w13
        ".inst 0x25ba4771\n"  // whilelt pn9.s, x27, x26, vlx2
        "mov x21, x15\n"
        "cmp x23, x25\n"
        "csel x22, x23, x25, lo\n"
        "mov w12, #0\n"
        // Stores the rows of one half of the tile (ZA tiles t_lo, t_hi: columns 0..VL-1 and VL..2VL-1), x22 rows from
        // slice 0, to x21 onwards (stride x8): four rows at a time, then one at a time. Clamp: FCLAMP to [z14, z15] (maxNum, then minNum: NaN -> z14).
        "10:\n"
        "cmp x22, #4\n"
        "b.lo 11f\n"
        ".inst 0xc0860400\n"  // mova {z0.s-z3.s}, za0h.s[w12, 0:3]
        ".inst 0xc0860428\n"  // mova {z8.s-z11.s}, za1h.s[w12, 0:3]
        ".inst 0xc1afc9c0\n"  // fclamp {z0.s-z3.s}, z14.s, z15.s
        ".inst 0xc1afc9c8\n"  // fclamp {z8.s-z11.s}, z14.s, z15.s
        ".inst 0xa16046a0\n"  // st1w {z0.s, z8.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a1\n"  // st1w {z1.s, z9.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a2\n"  // st1w {z2.s, z10.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a3\n"  // st1w {z3.s, z11.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #4\n"
        "sub x22, x22, #4\n"
        "b 10b\n"
        "11:\n"
        "cbz x22, 12f\n"
        ".inst 0xc0820000\n"  // mova z0.s, p0/m, za0h.s[w12, 0]
        ".inst 0xc0820088\n"  // mova z8.s, p0/m, za1h.s[w12, 0]
        ".inst 0x64af25c0\n"  // fclamp z0.s, z14.s, z15.s
        ".inst 0x64af25c8\n"  // fclamp z8.s, z14.s, z15.s
        ".inst 0xa16046a0\n"  // st1w {z0.s, z8.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #1\n"
        "sub x22, x22, #1\n"
        "b 11b\n"
        "12:\n"
        "subs x22, x23, x25\n"
        "b.ls 9f\n"
        "mov w12, #0\n"
        "13:\n"
        "cmp x22, #4\n"
        "b.lo 14f\n"
        ".inst 0xc0860440\n"  // mova {z0.s-z3.s}, za2h.s[w12, 0:3]
        ".inst 0xc0860468\n"  // mova {z8.s-z11.s}, za3h.s[w12, 0:3]
        ".inst 0xc1afc9c0\n"  // fclamp {z0.s-z3.s}, z14.s, z15.s
        ".inst 0xc1afc9c8\n"  // fclamp {z8.s-z11.s}, z14.s, z15.s
        ".inst 0xa16046a0\n"  // st1w {z0.s, z8.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a1\n"  // st1w {z1.s, z9.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a2\n"  // st1w {z2.s, z10.s}, pn9, [x21]
        "add x21, x21, x8\n"
        ".inst 0xa16046a3\n"  // st1w {z3.s, z11.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #4\n"
        "sub x22, x22, #4\n"
        "b 13b\n"
        "14:\n"
        "cbz x22, 15f\n"
        ".inst 0xc0820100\n"  // mova z0.s, p0/m, za2h.s[w12, 0]
        ".inst 0xc0820188\n"  // mova z8.s, p0/m, za3h.s[w12, 0]
        ".inst 0x64af25c0\n"  // fclamp z0.s, z14.s, z15.s
        ".inst 0x64af25c8\n"  // fclamp z8.s, z14.s, z15.s
        ".inst 0xa16046a0\n"  // st1w {z0.s, z8.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #1\n"
        "sub x22, x22, #1\n"
        "b 14b\n"
        "15:\n"
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
