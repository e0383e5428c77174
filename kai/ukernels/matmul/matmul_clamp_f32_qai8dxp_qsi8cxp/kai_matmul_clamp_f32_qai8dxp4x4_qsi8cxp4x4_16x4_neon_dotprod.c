//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = clamp(f32(A[i][j] + sum_j * off_i) * (rs_j * ls_i) + b_j, min, max), with
// A[i][j] = sum_{k < Kp} q[i][k] * w[j][k] accumulated in int32 (spec §15.4; each f32 operation
// rounded, no fused multiply-add; clamp FMAX then FMIN).
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 4, kr = 4): per block of 4 rows and group of 4 K
// values 16 bytes [r0 k0-3, r1 k0-3, r2 k0-3, r3 k0-3]; after the data 4 int32 offsets (-ZP) and
// 4 f32 scales. Packed RHS (qsi8cxp, nr = 4, kr = 4): per group 16 bytes [c0 k0-3, ..., c3 k0-3];
// after the data 4 int32 sum(w), 4 f32 scales, 4 f32 biases. docs/matmul_int8_channelwise.md has
// the diagrams.
//
// Tile 16x4: four LHS blocks against one RHS block. SDOT by element multiplies the RHS group
// register by LHS lane i of block b and adds row 4b + i's contribution to acc_rR = [c0, c1, c2, c3]
// (R = 4b + i): 16 SDOT per group and no shuffles. The loop runs in steps of four groups (16 K):
// one LD1 of four registers for the RHS and one per LHS block, 64 SDOT. A ragged last tile of up to three blocks runs block by block (4x4).

#include "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qai8dxp_qsi8cxp_interface.h"

// The epilogue must not be contracted into fused multiply-adds (GCC contracts across statements
// in its GNU modes): spec §15.4 rounds the product and the sum separately.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// t = acc + b * c[lane] in wrapping int32 arithmetic (the spec's recipe wraps; on padding rows of
// the last LHS block the operands are whatever the buffer held): done on unsigned lanes, which is
// the same MLA instruction without signed overflow in C.
#define kai_mla_lane_wrap(acc, b, c, lane)                                                              \
    vreinterpretq_s32_u32(vmlaq_laneq_u32(vreinterpretq_u32_s32(acc), vreinterpretq_u32_s32(b), \
                                          vreinterpretq_u32_s32(c), lane))

static const size_t kai_m_step = 16;
static const size_t kai_n_step = 4;
static const size_t kai_mr = 4;
static const size_t kai_nr = 4;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;
static const size_t kai_k_chunk = 32;  // the K padding unit

static size_t kai_lhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_mr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 8));
}

static size_t kai_rhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 12));
}

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_stride(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_stride(k));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Stores the first `cols` (1..4) lanes of y at dst.
static inline void kai_store4(float* dst, float32x4_t y, size_t cols) {
    if (cols == 4) {
        vst1q_f32(dst, y);
    } else {
        float tmp[4];
        vst1q_f32(tmp, y);
        memcpy(dst, tmp, cols * sizeof(float));
    }
}

// The K loops stay out of line so that each is compiled (and profiled) on its own.
#if defined(__GNUC__)
#define KAI_NOINLINE __attribute__((noinline))
#else
#define KAI_NOINLINE
#endif

// Sums A of 16 rows (LHS blocks at l0, l0 + lhs_stride, ...) and one block of 4 columns over kp K
// values: acc[R] = row R's 4 columns.
static inline void kai_dot_16x4_dotprod(
    const int8_t* l0, size_t lhs_stride, const int8_t* r, size_t kp, const int32x4_t init[16], int32x4_t acc[16]) {
    const int8_t* l1 = l0 + lhs_stride;
    const int8_t* l2 = l1 + lhs_stride;
    const int8_t* l3 = l2 + lhs_stride;
    int32x4_t acc_r0 = init[0];
    int32x4_t acc_r1 = init[1];
    int32x4_t acc_r2 = init[2];
    int32x4_t acc_r3 = init[3];
    int32x4_t acc_r4 = init[4];
    int32x4_t acc_r5 = init[5];
    int32x4_t acc_r6 = init[6];
    int32x4_t acc_r7 = init[7];
    int32x4_t acc_r8 = init[8];
    int32x4_t acc_r9 = init[9];
    int32x4_t acc_r10 = init[10];
    int32x4_t acc_r11 = init[11];
    int32x4_t acc_r12 = init[12];
    int32x4_t acc_r13 = init[13];
    int32x4_t acc_r14 = init[14];
    int32x4_t acc_r15 = init[15];
    const int8_t* r_end = r + kp * kai_nr;
    while (r < r_end) {
        const int8x16x4_t r_g = vld1q_s8_x4(r);
        const int8x16x4_t l_b0 = vld1q_s8_x4(l0);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[0], l_b0.val[0], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[0], l_b0.val[0], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[0], l_b0.val[0], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[0], l_b0.val[0], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[1], l_b0.val[1], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[1], l_b0.val[1], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[1], l_b0.val[1], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[1], l_b0.val[1], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[2], l_b0.val[2], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[2], l_b0.val[2], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[2], l_b0.val[2], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[2], l_b0.val[2], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[3], l_b0.val[3], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[3], l_b0.val[3], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[3], l_b0.val[3], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[3], l_b0.val[3], 3);
        const int8x16x4_t l_b1 = vld1q_s8_x4(l1);
        acc_r4 = vdotq_laneq_s32(acc_r4, r_g.val[0], l_b1.val[0], 0);
        acc_r5 = vdotq_laneq_s32(acc_r5, r_g.val[0], l_b1.val[0], 1);
        acc_r6 = vdotq_laneq_s32(acc_r6, r_g.val[0], l_b1.val[0], 2);
        acc_r7 = vdotq_laneq_s32(acc_r7, r_g.val[0], l_b1.val[0], 3);
        acc_r4 = vdotq_laneq_s32(acc_r4, r_g.val[1], l_b1.val[1], 0);
        acc_r5 = vdotq_laneq_s32(acc_r5, r_g.val[1], l_b1.val[1], 1);
        acc_r6 = vdotq_laneq_s32(acc_r6, r_g.val[1], l_b1.val[1], 2);
        acc_r7 = vdotq_laneq_s32(acc_r7, r_g.val[1], l_b1.val[1], 3);
        acc_r4 = vdotq_laneq_s32(acc_r4, r_g.val[2], l_b1.val[2], 0);
        acc_r5 = vdotq_laneq_s32(acc_r5, r_g.val[2], l_b1.val[2], 1);
        acc_r6 = vdotq_laneq_s32(acc_r6, r_g.val[2], l_b1.val[2], 2);
        acc_r7 = vdotq_laneq_s32(acc_r7, r_g.val[2], l_b1.val[2], 3);
        acc_r4 = vdotq_laneq_s32(acc_r4, r_g.val[3], l_b1.val[3], 0);
        acc_r5 = vdotq_laneq_s32(acc_r5, r_g.val[3], l_b1.val[3], 1);
        acc_r6 = vdotq_laneq_s32(acc_r6, r_g.val[3], l_b1.val[3], 2);
        acc_r7 = vdotq_laneq_s32(acc_r7, r_g.val[3], l_b1.val[3], 3);
        const int8x16x4_t l_b2 = vld1q_s8_x4(l2);
        acc_r8 = vdotq_laneq_s32(acc_r8, r_g.val[0], l_b2.val[0], 0);
        acc_r9 = vdotq_laneq_s32(acc_r9, r_g.val[0], l_b2.val[0], 1);
        acc_r10 = vdotq_laneq_s32(acc_r10, r_g.val[0], l_b2.val[0], 2);
        acc_r11 = vdotq_laneq_s32(acc_r11, r_g.val[0], l_b2.val[0], 3);
        acc_r8 = vdotq_laneq_s32(acc_r8, r_g.val[1], l_b2.val[1], 0);
        acc_r9 = vdotq_laneq_s32(acc_r9, r_g.val[1], l_b2.val[1], 1);
        acc_r10 = vdotq_laneq_s32(acc_r10, r_g.val[1], l_b2.val[1], 2);
        acc_r11 = vdotq_laneq_s32(acc_r11, r_g.val[1], l_b2.val[1], 3);
        acc_r8 = vdotq_laneq_s32(acc_r8, r_g.val[2], l_b2.val[2], 0);
        acc_r9 = vdotq_laneq_s32(acc_r9, r_g.val[2], l_b2.val[2], 1);
        acc_r10 = vdotq_laneq_s32(acc_r10, r_g.val[2], l_b2.val[2], 2);
        acc_r11 = vdotq_laneq_s32(acc_r11, r_g.val[2], l_b2.val[2], 3);
        acc_r8 = vdotq_laneq_s32(acc_r8, r_g.val[3], l_b2.val[3], 0);
        acc_r9 = vdotq_laneq_s32(acc_r9, r_g.val[3], l_b2.val[3], 1);
        acc_r10 = vdotq_laneq_s32(acc_r10, r_g.val[3], l_b2.val[3], 2);
        acc_r11 = vdotq_laneq_s32(acc_r11, r_g.val[3], l_b2.val[3], 3);
        const int8x16x4_t l_b3 = vld1q_s8_x4(l3);
        acc_r12 = vdotq_laneq_s32(acc_r12, r_g.val[0], l_b3.val[0], 0);
        acc_r13 = vdotq_laneq_s32(acc_r13, r_g.val[0], l_b3.val[0], 1);
        acc_r14 = vdotq_laneq_s32(acc_r14, r_g.val[0], l_b3.val[0], 2);
        acc_r15 = vdotq_laneq_s32(acc_r15, r_g.val[0], l_b3.val[0], 3);
        acc_r12 = vdotq_laneq_s32(acc_r12, r_g.val[1], l_b3.val[1], 0);
        acc_r13 = vdotq_laneq_s32(acc_r13, r_g.val[1], l_b3.val[1], 1);
        acc_r14 = vdotq_laneq_s32(acc_r14, r_g.val[1], l_b3.val[1], 2);
        acc_r15 = vdotq_laneq_s32(acc_r15, r_g.val[1], l_b3.val[1], 3);
        acc_r12 = vdotq_laneq_s32(acc_r12, r_g.val[2], l_b3.val[2], 0);
        acc_r13 = vdotq_laneq_s32(acc_r13, r_g.val[2], l_b3.val[2], 1);
        acc_r14 = vdotq_laneq_s32(acc_r14, r_g.val[2], l_b3.val[2], 2);
        acc_r15 = vdotq_laneq_s32(acc_r15, r_g.val[2], l_b3.val[2], 3);
        acc_r12 = vdotq_laneq_s32(acc_r12, r_g.val[3], l_b3.val[3], 0);
        acc_r13 = vdotq_laneq_s32(acc_r13, r_g.val[3], l_b3.val[3], 1);
        acc_r14 = vdotq_laneq_s32(acc_r14, r_g.val[3], l_b3.val[3], 2);
        acc_r15 = vdotq_laneq_s32(acc_r15, r_g.val[3], l_b3.val[3], 3);
        l0 += 64;
        l1 += 64;
        l2 += 64;
        l3 += 64;
        r += 64;
    }
    acc[0] = acc_r0;
    acc[1] = acc_r1;
    acc[2] = acc_r2;
    acc[3] = acc_r3;
    acc[4] = acc_r4;
    acc[5] = acc_r5;
    acc[6] = acc_r6;
    acc[7] = acc_r7;
    acc[8] = acc_r8;
    acc[9] = acc_r9;
    acc[10] = acc_r10;
    acc[11] = acc_r11;
    acc[12] = acc_r12;
    acc[13] = acc_r13;
    acc[14] = acc_r14;
    acc[15] = acc_r15;
}

// The same for one LHS block (4 rows).
KAI_NOINLINE static void kai_dot_4x4_dotprod(const int8_t* l0, const int8_t* r, size_t kp, int32x4_t acc[4]) {
    int32x4_t acc_r0 = vdupq_n_s32(0);
    int32x4_t acc_r1 = vdupq_n_s32(0);
    int32x4_t acc_r2 = vdupq_n_s32(0);
    int32x4_t acc_r3 = vdupq_n_s32(0);
    const int8_t* r_end = r + kp * kai_nr;
    while (r < r_end) {
        const int8x16x4_t r_g = vld1q_s8_x4(r);
        const int8x16x4_t l_b0 = vld1q_s8_x4(l0);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[0], l_b0.val[0], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[0], l_b0.val[0], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[0], l_b0.val[0], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[0], l_b0.val[0], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[1], l_b0.val[1], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[1], l_b0.val[1], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[1], l_b0.val[1], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[1], l_b0.val[1], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[2], l_b0.val[2], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[2], l_b0.val[2], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[2], l_b0.val[2], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[2], l_b0.val[2], 3);
        acc_r0 = vdotq_laneq_s32(acc_r0, r_g.val[3], l_b0.val[3], 0);
        acc_r1 = vdotq_laneq_s32(acc_r1, r_g.val[3], l_b0.val[3], 1);
        acc_r2 = vdotq_laneq_s32(acc_r2, r_g.val[3], l_b0.val[3], 2);
        acc_r3 = vdotq_laneq_s32(acc_r3, r_g.val[3], l_b0.val[3], 3);
        l0 += 64;
        r += 64;
    }
    acc[0] = acc_r0;
    acc[1] = acc_r1;
    acc[2] = acc_r2;
    acc[3] = acc_r3;
}

// Spec §15.4 steps 3-7 for one row from T (step 2 done) and s = rs_j * ls_i.
static inline void kai_finish_row(
    float* dst, int32x4_t t, float32x4_t s, float32x4_t bias, float32x4_t vmin, float32x4_t vmax, size_t cols) {
    float32x4_t y = vcvtq_f32_s32(t);
    y = vmulq_f32(y, s);
    y = vaddq_f32(y, bias);
    y = vmaxq_f32(y, vmin);
    kai_store4(dst, vminq_f32(y, vmax), cols);
}

// The four rows of one LHS block (scales at ltail + 16) of a full tile from T (step 2 already in
// the accumulators), stored at dst.
static inline void kai_finish_full_block(
    const int32x4_t* t, const int8_t* ltail, float32x4_t rscale, float32x4_t rbias, float* dst, size_t dst_stride_row,
    float32x4_t vmin, float32x4_t vmax) {
    const float32x4_t scales = vld1q_f32((const float*)(const void*)(ltail + 16));
    uint8_t* d = (uint8_t*)dst;
    kai_finish_row((float*)(void*)d, t[0], vmulq_laneq_f32(rscale, scales, 0), rbias, vmin, vmax, 4);
    kai_finish_row((float*)(void*)(d + dst_stride_row), t[1], vmulq_laneq_f32(rscale, scales, 1), rbias, vmin, vmax, 4);
    kai_finish_row((float*)(void*)(d + 2 * dst_stride_row), t[2], vmulq_laneq_f32(rscale, scales, 2), rbias, vmin, vmax,
                   4);
    kai_finish_row((float*)(void*)(d + 3 * dst_stride_row), t[3], vmulq_laneq_f32(rscale, scales, 3), rbias, vmin, vmax,
                   4);
}

// Epilogue of rows [0, rows) of a tile whose first LHS block is lhs_block, against the RHS block
// rhs_block; acc[R] = row R's sums (all four rows of every block that holds a row < rows); stores
// cols (1..4) columns per row. Each block's 4 offsets and scales are one load each, taken by
// element (MLA and FMUL by element): no scalar loads or duplicates per row.
static void kai_finish(
    const int32x4_t* acc, size_t rows, const int8_t* lhs_block, size_t lhs_stride, const int8_t* rhs_block, size_t kp,
    float* dst, size_t dst_stride_row, size_t cols, float32x4_t vmin, float32x4_t vmax) {
    const int8_t* tail = rhs_block + kai_nr * kp;
    const int32x4_t rsum = vld1q_s32((const int32_t*)(const void*)tail);
    const float32x4_t rscale = vld1q_f32((const float*)(const void*)(tail + 16));
    const float32x4_t rbias = vld1q_f32((const float*)(const void*)(tail + 32));
    for (size_t r0 = 0; r0 < rows; r0 += kai_mr) {
        const int8_t* ltail = lhs_block + (r0 / kai_mr) * lhs_stride + kai_mr * kp;
        const int32x4_t offs = vld1q_s32((const int32_t*)(const void*)ltail);
        const float32x4_t scales = vld1q_f32((const float*)(const void*)(ltail + 16));
        const int32x4_t t0 = kai_mla_lane_wrap(acc[r0 + 0], rsum, offs, 0);
        const int32x4_t t1 = kai_mla_lane_wrap(acc[r0 + 1], rsum, offs, 1);
        const int32x4_t t2 = kai_mla_lane_wrap(acc[r0 + 2], rsum, offs, 2);
        const int32x4_t t3 = kai_mla_lane_wrap(acc[r0 + 3], rsum, offs, 3);
        const float32x4_t s0 = vmulq_laneq_f32(rscale, scales, 0);
        const float32x4_t s1 = vmulq_laneq_f32(rscale, scales, 1);
        const float32x4_t s2 = vmulq_laneq_f32(rscale, scales, 2);
        const float32x4_t s3 = vmulq_laneq_f32(rscale, scales, 3);
        float* d = (float*)(void*)((uint8_t*)dst + r0 * dst_stride_row);
        kai_finish_row(d, t0, s0, rbias, vmin, vmax, cols);
        if (r0 + 1 < rows) {
            kai_finish_row((float*)(void*)((uint8_t*)d + dst_stride_row), t1, s1, rbias, vmin, vmax, cols);
        }
        if (r0 + 2 < rows) {
            kai_finish_row((float*)(void*)((uint8_t*)d + 2 * dst_stride_row), t2, s2, rbias, vmin, vmax, cols);
        }
        if (r0 + 3 < rows) {
            kai_finish_row((float*)(void*)((uint8_t*)d + 3 * dst_stride_row), t3, s3, rbias, vmin, vmax, cols);
        }
    }
}

// Full tiles (16 rows, 4 columns). Spec §15.4 step 2 (T = A + sum_j * off_i, int32 wrapping) is
// folded into the accumulators' start values (acc_rR starts at sum_j * off_R; addition modulo 2^32 does
// not depend on the order), so the epilogue starts at step 3, straight from the registers, with
// no row or column checks.
KAI_NOINLINE static void kai_tiles_16x4_full_dotprod(
    const int8_t* l0, size_t lhs_stride, const int8_t* r, size_t rhs_stride, size_t blocks, size_t kp, float* dst,
    size_t dst_stride_row, float32x4_t vmin, float32x4_t vmax) {
    // All `blocks` RHS blocks of this row strip in one call: the call and its register saves are
    // paid once per strip, not per tile.
    for (size_t nb = 0; nb < blocks; ++nb, r += rhs_stride, dst += kai_nr) {
        const int8_t* tail = r + kai_nr * kp;
        const int32x4_t rsum = vld1q_s32((const int32_t*)(const void*)tail);
        const float32x4_t rscale = vld1q_f32((const float*)(const void*)(tail + 16));
        const float32x4_t rbias = vld1q_f32((const float*)(const void*)(tail + 32));
        int32x4_t init[16];
        for (size_t b = 0; b < 4; ++b) {
            const int32x4_t offs = vld1q_s32((const int32_t*)(const void*)(l0 + b * lhs_stride + kai_mr * kp));
            init[4 * b + 0] = vmulq_laneq_s32(rsum, offs, 0);
            init[4 * b + 1] = vmulq_laneq_s32(rsum, offs, 1);
            init[4 * b + 2] = vmulq_laneq_s32(rsum, offs, 2);
            init[4 * b + 3] = vmulq_laneq_s32(rsum, offs, 3);
        }
        int32x4_t t[16];
        kai_dot_16x4_dotprod(l0, lhs_stride, r, kp, init, t);
        for (size_t b = 0; b < 4; ++b) {
            kai_finish_full_block(t + 4 * b, l0 + b * lhs_stride + kai_mr * kp, rscale, rbias,
                                  (float*)(void*)((uint8_t*)dst + 4 * b * dst_stride_row), dst_stride_row, vmin, vmax);
        }
    }
}

void kai_run_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t lhs_stride = kai_lhs_block_stride(k);
    const size_t rhs_stride = kai_rhs_block_stride(k);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    int32x4_t zero[16];
    for (size_t i = 0; i < 16; ++i) {
        zero[i] = vdupq_n_s32(0);
    }
    for (size_t m0 = 0; m0 < m; m0 += kai_m_step) {
        const size_t rows = KAI_MIN(kai_m_step, m - m0);
        const int8_t* l = (const int8_t*)lhs_packed + (m0 / kai_mr) * lhs_stride;
        float* d_rows = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        const int8_t* r = (const int8_t*)rhs_packed;
        for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
            const size_t cols = KAI_MIN(kai_nr, n - n0);
            if (rows == kai_m_step && cols == kai_nr) {
                const size_t blocks = (n - n0) / kai_nr;  // the full column blocks from n0 on
                kai_tiles_16x4_full_dotprod(l, lhs_stride, r, rhs_stride, blocks, kp, d_rows + n0, dst_stride_row, vmin, vmax);
                r += blocks * rhs_stride;
                n0 += (blocks - 1) * kai_nr;
                continue;
            }
            int32x4_t acc[16];
            if (rows > 3 * kai_mr) {
                kai_dot_16x4_dotprod(l, lhs_stride, r, kp, zero, acc);
            } else {
                // Only the blocks that exist: the packed LHS ends after the last one.
                for (size_t b = 0; b * kai_mr < rows; ++b) {
                    kai_dot_4x4_dotprod(l + b * lhs_stride, r, kp, acc + kai_mr * b);
                }
            }
            kai_finish(acc, rows, l, lhs_stride, r, kp, d_rows + n0, dst_stride_row, cols, vmin, vmax);
            r += rhs_stride;
        }
    }
}
