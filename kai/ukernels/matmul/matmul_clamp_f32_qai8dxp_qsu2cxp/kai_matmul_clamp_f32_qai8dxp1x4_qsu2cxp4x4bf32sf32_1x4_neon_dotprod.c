//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[0][j] = clamp(f32(A[j] + sum_j * off) * (ls * rs_j) + b_j, min, max), with
// A[j] = sum_{k < K} q[k] * lut[c[j][k]] accumulated in int32 (docs/formats.md, "qsu2cxp matmul"; each f32
// operation rounded, no fused multiply-add; clamp FMAX then FMIN).
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 1, kr = 4): K int8 values in K order, then the
// row's int32 offset (-ZP) and f32 scale. Packed RHS (docs/formats.md, "qsu2cxp4x4 RHS", nr = 4):
// per group of 16 K values 16 bytes, channel j's 4 at 4j, byte i holding the codes of K = i, 4 + i,
// 8 + i, 12 + i (of the group) in bits 0-1, 2-3, 4-5, 6-7; after the data 4 int32 sums of lut[c],
// 4 f32 scales, 4 f32 biases.
//
// Tile 1x4 (GEMV). The field s of a group's 16 bytes, looked up, is a 16-byte SDOT operand
// [c0 k4s..4s+3, c1 ..., c2 ..., c3 ...] to multiply by LHS lane s of the group. Decoding takes two
// ALU instructions per 16 bytes: lo = x & 0xF holds the fields 0 and 1, hi = x >> 4 the fields 2
// and 3, and two 16-entry tables give the value of the low field (lut[i & 3]) or the high field
// (lut[i >> 2]) of a nibble, so one TBL decodes each field. Two column blocks run side by side,
// sharing the LHS loads (acc_bB_fF: block B, field F), 32 K per step.

#include "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qai8dxp_qsu2cxp_interface.h"

// The epilogue must not be contracted into fused multiply-adds (GCC contracts across statements
// in its GNU modes): docs/formats.md, "qsu2cxp matmul" rounds the product and the sum separately.
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
static const int32_t kai_default_lut[4] = {-2, -1, 0, 1};

static size_t kai_lhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_mr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 8));
}

static size_t kai_rhs_block_stride(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 4, 12));
}

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_stride(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_stride(k));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// The two decoding tables: lo_tab[x] = lut[x & 3] (the low field of nibble x), hi_tab[x] = lut[x >> 2].
static void kai_decode_tables(const int32_t* lut, int8x16_t* lo_tab, int8x16_t* hi_tab) {
    int8_t lo[16];
    int8_t hi[16];
    for (size_t x = 0; x < 16; ++x) {
        lo[x] = (int8_t)lut[x & 3];
        hi[x] = (int8_t)lut[x >> 2];
    }
    *lo_tab = vld1q_s8(lo);
    *hi_tab = vld1q_s8(hi);
}

#if defined(__GNUC__)
#define KAI_NOINLINE __attribute__((noinline))
#else
#define KAI_NOINLINE
#endif

// One 16-K group of one column block: the four looked-up fields of x, SDOT with LHS lanes 0-3 of l.
#define KAI_GROUP(acc0, acc1, acc2, acc3, x, l)                                  \
    do {                                                                         \
        const uint8x16_t lo_ = vandq_u8((x), nib);                               \
        const uint8x16_t hi_ = vshrq_n_u8((x), 4);                               \
        (acc0) = vdotq_laneq_s32((acc0), vqtbl1q_s8(lo_tab, lo_), (l), 0);       \
        (acc1) = vdotq_laneq_s32((acc1), vqtbl1q_s8(hi_tab, lo_), (l), 1);       \
        (acc2) = vdotq_laneq_s32((acc2), vqtbl1q_s8(lo_tab, hi_), (l), 2);       \
        (acc3) = vdotq_laneq_s32((acc3), vqtbl1q_s8(hi_tab, hi_), (l), 3);       \
    } while (0)

// Sums A[j] of one block of 4 columns over kp (a multiple of 32) K values.
KAI_NOINLINE static int32x4_t kai_gemv_1x4(
    const int8_t* l, const uint8_t* r, size_t kp, int8x16_t lo_tab, int8x16_t hi_tab) {
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    int32x4_t acc_f0 = vdupq_n_s32(0);
    int32x4_t acc_f1 = vdupq_n_s32(0);
    int32x4_t acc_f2 = vdupq_n_s32(0);
    int32x4_t acc_f3 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0 = vld1q_s8(l);
        const int8x16_t l_g1 = vld1q_s8(l + 16);
        const uint8x16_t r_g0 = vld1q_u8(r);
        const uint8x16_t r_g1 = vld1q_u8(r + 16);
        KAI_GROUP(acc_f0, acc_f1, acc_f2, acc_f3, r_g0, l_g0);
        KAI_GROUP(acc_f0, acc_f1, acc_f2, acc_f3, r_g1, l_g1);
        l += 32;
        r += 32;
    }
    return vaddq_s32(vaddq_s32(acc_f0, acc_f1), vaddq_s32(acc_f2, acc_f3));
}

// The same for two adjacent column blocks (r0 and r1 = r0 + the block stride), sharing the LHS.
KAI_NOINLINE static void kai_gemv_1x8(
    const int8_t* l, const uint8_t* r0, const uint8_t* r1, size_t kp, int8x16_t lo_tab, int8x16_t hi_tab,
    int32x4_t* out0, int32x4_t* out1) {
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    int32x4_t acc_b0_f0 = vdupq_n_s32(0);
    int32x4_t acc_b0_f1 = vdupq_n_s32(0);
    int32x4_t acc_b0_f2 = vdupq_n_s32(0);
    int32x4_t acc_b0_f3 = vdupq_n_s32(0);
    int32x4_t acc_b1_f0 = vdupq_n_s32(0);
    int32x4_t acc_b1_f1 = vdupq_n_s32(0);
    int32x4_t acc_b1_f2 = vdupq_n_s32(0);
    int32x4_t acc_b1_f3 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += kai_k_chunk) {
        const int8x16_t l_g0 = vld1q_s8(l);
        const int8x16_t l_g1 = vld1q_s8(l + 16);
        const uint8x16_t r0_g0 = vld1q_u8(r0);
        const uint8x16_t r0_g1 = vld1q_u8(r0 + 16);
        const uint8x16_t r1_g0 = vld1q_u8(r1);
        const uint8x16_t r1_g1 = vld1q_u8(r1 + 16);
        KAI_GROUP(acc_b0_f0, acc_b0_f1, acc_b0_f2, acc_b0_f3, r0_g0, l_g0);
        KAI_GROUP(acc_b1_f0, acc_b1_f1, acc_b1_f2, acc_b1_f3, r1_g0, l_g0);
        KAI_GROUP(acc_b0_f0, acc_b0_f1, acc_b0_f2, acc_b0_f3, r0_g1, l_g1);
        KAI_GROUP(acc_b1_f0, acc_b1_f1, acc_b1_f2, acc_b1_f3, r1_g1, l_g1);
        l += 32;
        r0 += 32;
        r1 += 32;
    }
    *out0 = vaddq_s32(vaddq_s32(acc_b0_f0, acc_b0_f1), vaddq_s32(acc_b0_f2, acc_b0_f3));
    *out1 = vaddq_s32(vaddq_s32(acc_b1_f0, acc_b1_f1), vaddq_s32(acc_b1_f2, acc_b1_f3));
}

// docs/formats.md, "qsu2cxp matmul" steps 2-6 on one block of 4 columns (its tail after kp / 4 * nr data bytes):
// T = A + sum_j * off (wrapping int32 MLA), y = f32(T) * (rs_j * ls) + b_j, FMAX with min, FMIN with max;
// stores the first `cols` (1..4) lanes at dst.
static void kai_finish(
    int32x4_t acc, const uint8_t* rhs_block, size_t kp, int32_t lhs_off, float lhs_scale, float* dst, size_t cols,
    float32x4_t vmin, float32x4_t vmax) {
    const uint8_t* tail = rhs_block + kai_nr * (kp / 4);
    const int32x4_t rsum = vld1q_s32((const int32_t*)(const void*)tail);
    const float32x4_t rscale = vld1q_f32((const float*)(const void*)(tail + 16));
    const float32x4_t rbias = vld1q_f32((const float*)(const void*)(tail + 32));
    const int32x4_t t = vmlaq_n_s32(acc, rsum, lhs_off);
    const float32x4_t s = vmulq_n_f32(rscale, lhs_scale);
    float32x4_t y = vmulq_f32(vcvtq_f32_s32(t), s);
    y = vaddq_f32(y, rbias);
    y = vminq_f32(vmaxq_f32(y, vmin), vmax);
    if (cols == 4) {
        vst1q_f32(dst, y);
    } else {
        float tmp[4];
        vst1q_f32(tmp, y);
        memcpy(dst, tmp, cols * sizeof(float));
    }
}

void kai_run_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max, const int32_t* lut) {
    KAI_ASSUME_MSG(m == 1, "m must be 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    KAI_ASSUME_MSG(k >= 1 && k % kai_k_chunk == 0, "k must be a positive multiple of 32");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_UNUSED(dst_stride_row);
    const int32_t* tab = lut != NULL ? lut : kai_default_lut;
    for (size_t c = 0; c < 4; ++c) {
        KAI_ASSUME_MSG(tab[c] >= -64 && tab[c] <= 63, "lut entries must be in [-64, 63]");
    }
    int8x16_t lo_tab;
    int8x16_t hi_tab;
    kai_decode_tables(tab, &lo_tab, &hi_tab);
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t rhs_stride = kai_rhs_block_stride(k);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    const int8_t* l = (const int8_t*)lhs_packed;
    int32_t lhs_off;
    float lhs_scale;
    memcpy(&lhs_off, l + kp, sizeof(lhs_off));
    memcpy(&lhs_scale, l + kp + 4, sizeof(lhs_scale));
    const uint8_t* r = (const uint8_t*)rhs_packed;
    size_t n0 = 0;
    for (; n0 + 2 * kai_nr <= n; n0 += 2 * kai_nr) {
        int32x4_t acc0;
        int32x4_t acc1;
        kai_gemv_1x8(l, r, r + rhs_stride, kp, lo_tab, hi_tab, &acc0, &acc1);
        kai_finish(acc0, r, kp, lhs_off, lhs_scale, dst + n0, kai_nr, vmin, vmax);
        kai_finish(acc1, r + rhs_stride, kp, lhs_off, lhs_scale, dst + n0 + kai_nr, kai_nr, vmin, vmax);
        r += 2 * rhs_stride;
    }
    for (; n0 < n; n0 += kai_nr) {
        const int32x4_t acc = kai_gemv_1x4(l, r, kp, lo_tab, hi_tab);
        kai_finish(acc, r, kp, lhs_off, lhs_scale, dst + n0, KAI_MIN(kai_nr, n - n0), vmin, vmax);
        r += rhs_stride;
    }
}
