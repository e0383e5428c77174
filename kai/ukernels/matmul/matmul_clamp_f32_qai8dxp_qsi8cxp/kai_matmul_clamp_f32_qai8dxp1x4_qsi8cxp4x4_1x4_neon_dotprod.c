//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = clamp(f32(A[i][j] + sum_j * off_i) * (rs_j * ls_i) + b_j, min, max), with
// A[i][j] = sum_{k < Kp} q[i][k] * w[j][k] accumulated in int32 (spec §15.4; each f32 operation
// rounded, no fused multiply-add; clamp FMAX then FMIN).
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 1, kr = 4): a row is Kp int8 values in K order,
// then its int32 offset (-ZP) and f32 scale. Packed RHS (qsi8cxp, nr = 4, kr = 4): per group of 4 K
// values 16 bytes, lane j's 4 values at 4j; after the data nr int32 sum(w), nr f32 scales, nr f32
// biases. docs/matmul_int8_channelwise.md has the diagrams.
//
// Tile 1x4 (GEMV). One 16-byte RHS group register holds [c0 k0-3, c1 k0-3, c2 k0-3, c3 k0-3], so
// SDOT by element with LHS lane g (the group's 4 LHS values, one 16-byte load covers four groups)
// adds that group's contribution to acc = [c0, c1, c2, c3]: no shuffles and no duplicated LHS.
// The loop runs in steps of 32 K (Kp is a multiple of 32) with acc_g0 ... acc_g7 per group
// position, so each accumulator takes one SDOT per step and SDOT latency never binds. Two column
// blocks run side by side where they can, sharing the LHS loads (acc_bB_gG: block B, group G).

#include "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod.h"

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

static const size_t kai_m_step = 1;
static const size_t kai_n_step = 4;
static const size_t kai_mr = 1;
static const size_t kai_nr = 4;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;
static const size_t kai_k_chunk = 32;  // K per inner-loop step and the K padding unit

static size_t kai_lhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_mr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 8));
}

static size_t kai_rhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 12));
}

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_stride(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_stride(k));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Spec §15.4 steps 2-7 on four columns of one row: T = A + sum_j * off_i (wrapping int32 MLA),
// y = ((f32(T) * (rs_j * ls_i)) + b_j), then FMAX with min and FMIN with max.
static inline float32x4_t kai_epilogue4(
    int32x4_t acc, int32_t lhs_offset, float lhs_scale, int32x4_t rhs_sum, float32x4_t rhs_scale, float32x4_t bias,
    float32x4_t vmin, float32x4_t vmax) {
    const int32x4_t t = vmlaq_n_s32(acc, rhs_sum, lhs_offset);
    const float32x4_t s = vmulq_n_f32(rhs_scale, lhs_scale);
    float32x4_t y = vcvtq_f32_s32(t);
    y = vmulq_f32(y, s);
    y = vaddq_f32(y, bias);
    y = vmaxq_f32(y, vmin);
    return vminq_f32(y, vmax);
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

// Sums A[j] of one row and one block of 4 columns over kp (a multiple of 32) K values.
KAI_NOINLINE static int32x4_t kai_gemv_kr4_1x4(const int8_t* l, const int8_t* r, size_t kp) {
    int32x4_t acc_g0 = vdupq_n_s32(0);
    int32x4_t acc_g1 = vdupq_n_s32(0);
    int32x4_t acc_g2 = vdupq_n_s32(0);
    int32x4_t acc_g3 = vdupq_n_s32(0);
    int32x4_t acc_g4 = vdupq_n_s32(0);
    int32x4_t acc_g5 = vdupq_n_s32(0);
    int32x4_t acc_g6 = vdupq_n_s32(0);
    int32x4_t acc_g7 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0123 = vld1q_s8(l);
        const int8x16_t l_g4567 = vld1q_s8(l + 16);
        const int8x16x4_t r_g0123 = vld1q_s8_x4(r);
        const int8x16x4_t r_g4567 = vld1q_s8_x4(r + 64);
        acc_g0 = vdotq_laneq_s32(acc_g0, r_g0123.val[0], l_g0123, 0);
        acc_g1 = vdotq_laneq_s32(acc_g1, r_g0123.val[1], l_g0123, 1);
        acc_g2 = vdotq_laneq_s32(acc_g2, r_g0123.val[2], l_g0123, 2);
        acc_g3 = vdotq_laneq_s32(acc_g3, r_g0123.val[3], l_g0123, 3);
        acc_g4 = vdotq_laneq_s32(acc_g4, r_g4567.val[0], l_g4567, 0);
        acc_g5 = vdotq_laneq_s32(acc_g5, r_g4567.val[1], l_g4567, 1);
        acc_g6 = vdotq_laneq_s32(acc_g6, r_g4567.val[2], l_g4567, 2);
        acc_g7 = vdotq_laneq_s32(acc_g7, r_g4567.val[3], l_g4567, 3);
        l += 32;
        r += 128;
    }
    const int32x4_t a0 = vaddq_s32(vaddq_s32(acc_g0, acc_g1), vaddq_s32(acc_g2, acc_g3));
    const int32x4_t a1 = vaddq_s32(vaddq_s32(acc_g4, acc_g5), vaddq_s32(acc_g6, acc_g7));
    return vaddq_s32(a0, a1);
}

// The same for two adjacent column blocks (r0 and r1 = r0 + the block stride), sharing the LHS.
// 16 accumulators (acc_bB_gG: block B, group position G), one SDOT each per step, so that the
// loop is bound by its 18 loads, not by SDOT latency.
KAI_NOINLINE static void kai_gemv_kr4_1x8(
    const int8_t* l, const int8_t* r0, const int8_t* r1, size_t kp, int32x4_t* out0, int32x4_t* out1) {
    int32x4_t acc_b0_g0 = vdupq_n_s32(0);
    int32x4_t acc_b0_g1 = vdupq_n_s32(0);
    int32x4_t acc_b0_g2 = vdupq_n_s32(0);
    int32x4_t acc_b0_g3 = vdupq_n_s32(0);
    int32x4_t acc_b0_g4 = vdupq_n_s32(0);
    int32x4_t acc_b0_g5 = vdupq_n_s32(0);
    int32x4_t acc_b0_g6 = vdupq_n_s32(0);
    int32x4_t acc_b0_g7 = vdupq_n_s32(0);
    int32x4_t acc_b1_g0 = vdupq_n_s32(0);
    int32x4_t acc_b1_g1 = vdupq_n_s32(0);
    int32x4_t acc_b1_g2 = vdupq_n_s32(0);
    int32x4_t acc_b1_g3 = vdupq_n_s32(0);
    int32x4_t acc_b1_g4 = vdupq_n_s32(0);
    int32x4_t acc_b1_g5 = vdupq_n_s32(0);
    int32x4_t acc_b1_g6 = vdupq_n_s32(0);
    int32x4_t acc_b1_g7 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0123 = vld1q_s8(l);
        const int8x16_t l_g4567 = vld1q_s8(l + 16);
        const int8x16x4_t r0_h0 = vld1q_s8_x4(r0 + 0);
        const int8x16x4_t r1_h0 = vld1q_s8_x4(r1 + 0);
        acc_b0_g0 = vdotq_laneq_s32(acc_b0_g0, r0_h0.val[0], l_g0123, 0);
        acc_b1_g0 = vdotq_laneq_s32(acc_b1_g0, r1_h0.val[0], l_g0123, 0);
        acc_b0_g1 = vdotq_laneq_s32(acc_b0_g1, r0_h0.val[1], l_g0123, 1);
        acc_b1_g1 = vdotq_laneq_s32(acc_b1_g1, r1_h0.val[1], l_g0123, 1);
        acc_b0_g2 = vdotq_laneq_s32(acc_b0_g2, r0_h0.val[2], l_g0123, 2);
        acc_b1_g2 = vdotq_laneq_s32(acc_b1_g2, r1_h0.val[2], l_g0123, 2);
        acc_b0_g3 = vdotq_laneq_s32(acc_b0_g3, r0_h0.val[3], l_g0123, 3);
        acc_b1_g3 = vdotq_laneq_s32(acc_b1_g3, r1_h0.val[3], l_g0123, 3);
        const int8x16x4_t r0_h1 = vld1q_s8_x4(r0 + 64);
        const int8x16x4_t r1_h1 = vld1q_s8_x4(r1 + 64);
        acc_b0_g4 = vdotq_laneq_s32(acc_b0_g4, r0_h1.val[0], l_g4567, 0);
        acc_b1_g4 = vdotq_laneq_s32(acc_b1_g4, r1_h1.val[0], l_g4567, 0);
        acc_b0_g5 = vdotq_laneq_s32(acc_b0_g5, r0_h1.val[1], l_g4567, 1);
        acc_b1_g5 = vdotq_laneq_s32(acc_b1_g5, r1_h1.val[1], l_g4567, 1);
        acc_b0_g6 = vdotq_laneq_s32(acc_b0_g6, r0_h1.val[2], l_g4567, 2);
        acc_b1_g6 = vdotq_laneq_s32(acc_b1_g6, r1_h1.val[2], l_g4567, 2);
        acc_b0_g7 = vdotq_laneq_s32(acc_b0_g7, r0_h1.val[3], l_g4567, 3);
        acc_b1_g7 = vdotq_laneq_s32(acc_b1_g7, r1_h1.val[3], l_g4567, 3);
        l += 32;
        r0 += 128;
        r1 += 128;
    }
    const int32x4_t b0_lo = vaddq_s32(vaddq_s32(acc_b0_g0, acc_b0_g1), vaddq_s32(acc_b0_g2, acc_b0_g3));
    const int32x4_t b0_hi = vaddq_s32(vaddq_s32(acc_b0_g4, acc_b0_g5), vaddq_s32(acc_b0_g6, acc_b0_g7));
    const int32x4_t b1_lo = vaddq_s32(vaddq_s32(acc_b1_g0, acc_b1_g1), vaddq_s32(acc_b1_g2, acc_b1_g3));
    const int32x4_t b1_hi = vaddq_s32(vaddq_s32(acc_b1_g4, acc_b1_g5), vaddq_s32(acc_b1_g6, acc_b1_g7));
    *out0 = vaddq_s32(b0_lo, b0_hi);
    *out1 = vaddq_s32(b1_lo, b1_hi);
}

// Epilogue of one block of 4 columns (its tail after nr * kp data bytes), stored at dst.
static void kai_finish(
    int32x4_t acc, const int8_t* rhs_block, size_t kp, int32_t lhs_off, float lhs_scale, float* dst, size_t cols,
    float32x4_t vmin, float32x4_t vmax) {
    const int8_t* tail = rhs_block + kai_nr * kp;
    const int32x4_t rsum = vld1q_s32((const int32_t*)(const void*)tail);
    const float32x4_t rscale = vld1q_f32((const float*)(const void*)(tail + 16));
    const float32x4_t rbias = vld1q_f32((const float*)(const void*)(tail + 32));
    kai_store4(dst, kai_epilogue4(acc, lhs_off, lhs_scale, rsum, rscale, rbias, vmin, vmax), cols);
}

void kai_run_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod(
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
    for (size_t i = 0; i < m; ++i) {
        const int8_t* l = (const int8_t*)lhs_packed + i * lhs_stride;
        int32_t lhs_off;
        float lhs_scale;
        memcpy(&lhs_off, l + kp, sizeof(lhs_off));
        memcpy(&lhs_scale, l + kp + 4, sizeof(lhs_scale));
        float* d = (float*)(void*)((uint8_t*)dst + i * dst_stride_row);
        const int8_t* r = (const int8_t*)rhs_packed;
        size_t n0 = 0;
        for (; n0 + 2 * kai_nr <= n; n0 += 2 * kai_nr) {
            int32x4_t acc0;
            int32x4_t acc1;
            kai_gemv_kr4_1x8(l, r, r + rhs_stride, kp, &acc0, &acc1);
            kai_finish(acc0, r, kp, lhs_off, lhs_scale, d + n0, kai_nr, vmin, vmax);
            kai_finish(acc1, r + rhs_stride, kp, lhs_off, lhs_scale, d + n0 + kai_nr, kai_nr, vmin, vmax);
            r += 2 * rhs_stride;
        }
        for (; n0 < n; n0 += kai_nr) {
            const int32x4_t acc = kai_gemv_kr4_1x4(l, r, kp);
            kai_finish(acc, r, kp, lhs_off, lhs_scale, d + n0, KAI_MIN(kai_nr, n - n0), vmin, vmax);
            r += rhs_stride;
        }
    }
}
