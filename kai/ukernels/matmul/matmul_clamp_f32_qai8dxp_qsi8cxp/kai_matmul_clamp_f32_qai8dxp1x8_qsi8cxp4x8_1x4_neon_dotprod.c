//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = clamp(f32(A[i][j] + sum_j * off_i) * (rs_j * ls_i) + b_j, min, max), with
// A[i][j] = sum_{k < Kp} q[i][k] * w[j][k] accumulated in int32 (spec §15.4; each f32 operation
// rounded, no fused multiply-add; clamp FMAX then FMIN).
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 1, kr = 8): a row is Kp int8 values in K order,
// then its int32 offset (-ZP) and f32 scale. Packed RHS (qsi8cxp, nr = 4, kr = 8): per group of 8 K
// values 32 bytes, lane j's 8 values at 8j; after the data nr int32 sum(w), nr f32 scales, nr f32
// biases. docs/matmul_int8_channelwise.md has the diagrams.
//
// Tile 1x4 (GEMV). The RHS registers of a group are [c0 k0-7, c1 k0-7] and [c2 k0-7, c3 k0-7];
// SDOT with the group's 8 LHS values loaded into both halves (LD1R .2d) gives
// acc_c01 = [c0 k0-3, c0 k4-7, c1 k0-3, c1 k4-7] (and acc_c23), which one ADDP folds into
// [c0, c1, c2, c3]. Steps of 32 K (Kp is a multiple of 32); even and odd groups accumulate into
// separate registers (acc_gE_c01, acc_gO_c01, ...) so that SDOT latency never binds. Two column
// blocks run side by side where they can, sharing the LHS loads (acc_bB_...: block B).

#include "kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod.h"

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
static const size_t kai_kr = 8;
static const size_t kai_sr = 1;
static const size_t kai_k_chunk = 32;  // K per inner-loop step and the K padding unit

static size_t kai_lhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_mr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 8));
}

static size_t kai_rhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 12));
}

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_stride(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_stride(k));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(size_t m, size_t n) {
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

// The 8 LHS values of one group in both halves of a register.
static inline int8x16_t kai_lhs_group(const int8_t* l) {
    return vreinterpretq_s8_u64(vld1q_dup_u64((const uint64_t*)(const void*)l));
}

// Sums A[j] of one row and one block of 4 columns over kp (a multiple of 32) K values.
KAI_NOINLINE static int32x4_t kai_gemv_kr8_1x4(const int8_t* l, const int8_t* r, size_t kp) {
    int32x4_t acc_ge_c01 = vdupq_n_s32(0);
    int32x4_t acc_ge_c23 = vdupq_n_s32(0);
    int32x4_t acc_go_c01 = vdupq_n_s32(0);
    int32x4_t acc_go_c23 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0 = kai_lhs_group(l);
        const int8x16_t l_g1 = kai_lhs_group(l + 8);
        const int8x16_t l_g2 = kai_lhs_group(l + 16);
        const int8x16_t l_g3 = kai_lhs_group(l + 24);
        const int8x16x4_t r_g01 = vld1q_s8_x4(r);
        const int8x16x4_t r_g23 = vld1q_s8_x4(r + 64);
        acc_ge_c01 = vdotq_s32(acc_ge_c01, r_g01.val[0], l_g0);
        acc_ge_c23 = vdotq_s32(acc_ge_c23, r_g01.val[1], l_g0);
        acc_go_c01 = vdotq_s32(acc_go_c01, r_g01.val[2], l_g1);
        acc_go_c23 = vdotq_s32(acc_go_c23, r_g01.val[3], l_g1);
        acc_ge_c01 = vdotq_s32(acc_ge_c01, r_g23.val[0], l_g2);
        acc_ge_c23 = vdotq_s32(acc_ge_c23, r_g23.val[1], l_g2);
        acc_go_c01 = vdotq_s32(acc_go_c01, r_g23.val[2], l_g3);
        acc_go_c23 = vdotq_s32(acc_go_c23, r_g23.val[3], l_g3);
        l += 32;
        r += 128;
    }
    return vpaddq_s32(vaddq_s32(acc_ge_c01, acc_go_c01), vaddq_s32(acc_ge_c23, acc_go_c23));
}

// The same for two adjacent column blocks (r0 and r1 = r0 + the block stride), sharing the LHS.
KAI_NOINLINE static void kai_gemv_kr8_1x8(
    const int8_t* l, const int8_t* r0, const int8_t* r1, size_t kp, int32x4_t* out0, int32x4_t* out1) {
    int32x4_t acc_b0_ge_c01 = vdupq_n_s32(0);
    int32x4_t acc_b0_ge_c23 = vdupq_n_s32(0);
    int32x4_t acc_b0_go_c01 = vdupq_n_s32(0);
    int32x4_t acc_b0_go_c23 = vdupq_n_s32(0);
    int32x4_t acc_b1_ge_c01 = vdupq_n_s32(0);
    int32x4_t acc_b1_ge_c23 = vdupq_n_s32(0);
    int32x4_t acc_b1_go_c01 = vdupq_n_s32(0);
    int32x4_t acc_b1_go_c23 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0 = kai_lhs_group(l);
        const int8x16_t l_g1 = kai_lhs_group(l + 8);
        const int8x16x4_t r0_g01 = vld1q_s8_x4(r0);
        const int8x16x4_t r1_g01 = vld1q_s8_x4(r1);
        acc_b0_ge_c01 = vdotq_s32(acc_b0_ge_c01, r0_g01.val[0], l_g0);
        acc_b0_ge_c23 = vdotq_s32(acc_b0_ge_c23, r0_g01.val[1], l_g0);
        acc_b1_ge_c01 = vdotq_s32(acc_b1_ge_c01, r1_g01.val[0], l_g0);
        acc_b1_ge_c23 = vdotq_s32(acc_b1_ge_c23, r1_g01.val[1], l_g0);
        acc_b0_go_c01 = vdotq_s32(acc_b0_go_c01, r0_g01.val[2], l_g1);
        acc_b0_go_c23 = vdotq_s32(acc_b0_go_c23, r0_g01.val[3], l_g1);
        acc_b1_go_c01 = vdotq_s32(acc_b1_go_c01, r1_g01.val[2], l_g1);
        acc_b1_go_c23 = vdotq_s32(acc_b1_go_c23, r1_g01.val[3], l_g1);
        const int8x16_t l_g2 = kai_lhs_group(l + 16);
        const int8x16_t l_g3 = kai_lhs_group(l + 24);
        const int8x16x4_t r0_g23 = vld1q_s8_x4(r0 + 64);
        const int8x16x4_t r1_g23 = vld1q_s8_x4(r1 + 64);
        acc_b0_ge_c01 = vdotq_s32(acc_b0_ge_c01, r0_g23.val[0], l_g2);
        acc_b0_ge_c23 = vdotq_s32(acc_b0_ge_c23, r0_g23.val[1], l_g2);
        acc_b1_ge_c01 = vdotq_s32(acc_b1_ge_c01, r1_g23.val[0], l_g2);
        acc_b1_ge_c23 = vdotq_s32(acc_b1_ge_c23, r1_g23.val[1], l_g2);
        acc_b0_go_c01 = vdotq_s32(acc_b0_go_c01, r0_g23.val[2], l_g3);
        acc_b0_go_c23 = vdotq_s32(acc_b0_go_c23, r0_g23.val[3], l_g3);
        acc_b1_go_c01 = vdotq_s32(acc_b1_go_c01, r1_g23.val[2], l_g3);
        acc_b1_go_c23 = vdotq_s32(acc_b1_go_c23, r1_g23.val[3], l_g3);
        l += 32;
        r0 += 128;
        r1 += 128;
    }
    *out0 = vpaddq_s32(vaddq_s32(acc_b0_ge_c01, acc_b0_go_c01), vaddq_s32(acc_b0_ge_c23, acc_b0_go_c23));
    *out1 = vpaddq_s32(vaddq_s32(acc_b1_ge_c01, acc_b1_go_c01), vaddq_s32(acc_b1_ge_c23, acc_b1_go_c23));
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

void kai_run_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod(
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
            kai_gemv_kr8_1x8(l, r, r + rhs_stride, kp, &acc0, &acc1);
            kai_finish(acc0, r, kp, lhs_off, lhs_scale, d + n0, kai_nr, vmin, vmax);
            kai_finish(acc1, r + rhs_stride, kp, lhs_off, lhs_scale, d + n0 + kai_nr, kai_nr, vmin, vmax);
            r += 2 * rhs_stride;
        }
        for (; n0 < n; n0 += kai_nr) {
            const int32x4_t acc = kai_gemv_kr8_1x4(l, r, kp);
            kai_finish(acc, r, kp, lhs_off, lhs_scale, d + n0, KAI_MIN(kai_nr, n - n0), vmin, vmax);
            r += rhs_stride;
        }
    }
}
