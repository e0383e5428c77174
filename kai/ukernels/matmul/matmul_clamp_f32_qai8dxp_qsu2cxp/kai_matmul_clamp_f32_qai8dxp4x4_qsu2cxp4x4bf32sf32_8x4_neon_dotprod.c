//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = clamp((f32(A[i][j] + sum_j * off_i) * rs_j) * ls_i + b_j, min, max), with
// A[i][j] = sum_{k < K} q[i][k] * lut[c[j][k]] accumulated in int32 (docs/formats.md, "qsu2cxp matmul"; each f32
// operation rounded, no fused multiply-add; clamp FMAX then FMIN).
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 4, kr = 4): per block of 4 rows and group of 4 K
// values 16 bytes, row r's 4 values at 4r; after the data 4 int32 offsets (-ZP) and 4 f32 scales. Packed RHS (docs/formats.md, "qsu2cxp4x4 RHS", nr = 4):
// per group of 16 K values 16 bytes, channel j's 4 at 4j, byte i holding the codes of K = i, 4 + i,
// 8 + i, 12 + i (of the group) in bits 0-1, 2-3, 4-5, 6-7; after the data 4 int32 sums of lut[c],
// 4 f32 scales, 4 f32 biases.
//
// Tile 8x4: two LHS blocks of 4 rows and one RHS block of 4 columns, acc_rR = row R, columns 0-3.
// The field s of a group's 16 RHS bytes, looked up, is a 16-byte SDOT operand [c0 k4s..4s+3, c1 ...,
// c2 ..., c3 ...]; the LHS's 16 bytes of the same 4 K values hold the 4 rows, so SDOT by element r
// adds row r's products. Decoding takes two ALU instructions per 16 bytes: lo = x & 0xF holds the
// fields 0 and 1, hi = x >> 4 the fields 2 and 3, and two 16-entry tables give the value of the low
// field (lut[i & 3]) or the high field (lut[i >> 2]) of a nibble, one TBL per field. A last block of
// 1-4 rows takes the 4-row loop.

#include "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod.h"

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

static const size_t kai_m_step = 8;
static const size_t kai_n_step = 4;
static const size_t kai_mr = 4;
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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_stride(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_stride(k));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(size_t m, size_t n) {
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

// One 16-K group: the four looked-up fields of x, SDOT with the 4-row LHS lines l0 (K 0-3 of the
// group) ... l3 (K 12-15), element r for row r.
#define KAI_DECODE(f0, f1, f2, f3, x)                       \
    do {                                                    \
        const uint8x16_t lo_ = vandq_u8((x), nib);          \
        const uint8x16_t hi_ = vshrq_n_u8((x), 4);          \
        (f0) = vqtbl1q_s8(lo_tab, lo_);                     \
        (f1) = vqtbl1q_s8(hi_tab, lo_);                     \
        (f2) = vqtbl1q_s8(lo_tab, hi_);                     \
        (f3) = vqtbl1q_s8(hi_tab, hi_);                     \
    } while (0)

#define KAI_ROWS4(a0, a1, a2, a3, f0, f1, f2, f3, l0, l1, l2, l3) \
    do {                                                          \
        (a0) = vdotq_laneq_s32((a0), (f0), (l0), 0);              \
        (a1) = vdotq_laneq_s32((a1), (f0), (l0), 1);              \
        (a2) = vdotq_laneq_s32((a2), (f0), (l0), 2);              \
        (a3) = vdotq_laneq_s32((a3), (f0), (l0), 3);              \
        (a0) = vdotq_laneq_s32((a0), (f1), (l1), 0);              \
        (a1) = vdotq_laneq_s32((a1), (f1), (l1), 1);              \
        (a2) = vdotq_laneq_s32((a2), (f1), (l1), 2);              \
        (a3) = vdotq_laneq_s32((a3), (f1), (l1), 3);              \
        (a0) = vdotq_laneq_s32((a0), (f2), (l2), 0);              \
        (a1) = vdotq_laneq_s32((a1), (f2), (l2), 1);              \
        (a2) = vdotq_laneq_s32((a2), (f2), (l2), 2);              \
        (a3) = vdotq_laneq_s32((a3), (f2), (l2), 3);              \
        (a0) = vdotq_laneq_s32((a0), (f3), (l3), 0);              \
        (a1) = vdotq_laneq_s32((a1), (f3), (l3), 1);              \
        (a2) = vdotq_laneq_s32((a2), (f3), (l3), 2);              \
        (a3) = vdotq_laneq_s32((a3), (f3), (l3), 3);              \
    } while (0)

// A[r][0..3] of 8 rows (LHS blocks la and lb) and one block of 4 columns over kp K values.
KAI_NOINLINE static void kai_gemm_8x4(
    const int8_t* la, const int8_t* lb, const uint8_t* r, size_t kp, int8x16_t lo_tab, int8x16_t hi_tab,
    int32x4_t acc[8]) {
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    int32x4_t acc_r0 = vdupq_n_s32(0);
    int32x4_t acc_r1 = vdupq_n_s32(0);
    int32x4_t acc_r2 = vdupq_n_s32(0);
    int32x4_t acc_r3 = vdupq_n_s32(0);
    int32x4_t acc_r4 = vdupq_n_s32(0);
    int32x4_t acc_r5 = vdupq_n_s32(0);
    int32x4_t acc_r6 = vdupq_n_s32(0);
    int32x4_t acc_r7 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += 16) {
        int8x16_t f0;
        int8x16_t f1;
        int8x16_t f2;
        int8x16_t f3;
        KAI_DECODE(f0, f1, f2, f3, vld1q_u8(r));
        const int8x16x4_t a = vld1q_s8_x4(la);
        const int8x16x4_t b = vld1q_s8_x4(lb);
        KAI_ROWS4(acc_r0, acc_r1, acc_r2, acc_r3, f0, f1, f2, f3, a.val[0], a.val[1], a.val[2], a.val[3]);
        KAI_ROWS4(acc_r4, acc_r5, acc_r6, acc_r7, f0, f1, f2, f3, b.val[0], b.val[1], b.val[2], b.val[3]);
        la += 64;
        lb += 64;
        r += 16;
    }
    acc[0] = acc_r0;
    acc[1] = acc_r1;
    acc[2] = acc_r2;
    acc[3] = acc_r3;
    acc[4] = acc_r4;
    acc[5] = acc_r5;
    acc[6] = acc_r6;
    acc[7] = acc_r7;
}

// The same for one LHS block of 4 rows.
KAI_NOINLINE static void kai_gemm_4x4(
    const int8_t* la, const uint8_t* r, size_t kp, int8x16_t lo_tab, int8x16_t hi_tab, int32x4_t acc[4]) {
    const uint8x16_t nib = vdupq_n_u8(0x0F);
    int32x4_t acc_r0 = vdupq_n_s32(0);
    int32x4_t acc_r1 = vdupq_n_s32(0);
    int32x4_t acc_r2 = vdupq_n_s32(0);
    int32x4_t acc_r3 = vdupq_n_s32(0);
    for (size_t kc = 0; kc < kp; kc += 16) {
        int8x16_t f0;
        int8x16_t f1;
        int8x16_t f2;
        int8x16_t f3;
        KAI_DECODE(f0, f1, f2, f3, vld1q_u8(r));
        const int8x16x4_t a = vld1q_s8_x4(la);
        KAI_ROWS4(acc_r0, acc_r1, acc_r2, acc_r3, f0, f1, f2, f3, a.val[0], a.val[1], a.val[2], a.val[3]);
        la += 64;
        r += 16;
    }
    acc[0] = acc_r0;
    acc[1] = acc_r1;
    acc[2] = acc_r2;
    acc[3] = acc_r3;
}

// docs/formats.md, "qsu2cxp matmul" steps 2-6 on `rows` rows (1..8) of LHS blocks starting at lhs_block (stride
// lhs_stride) and one block of 4 columns (its tail after kp / 4 * nr data bytes): T = A + sum_j * off_i (wrapping
// int32 MLA), y = (f32(T) * rs_j) * ls_i + b_j, FMAX with min, FMIN with max; stores the first `cols` (1..4) lanes.
static void kai_finish(
    const int32x4_t* acc, size_t rows, const int8_t* lhs_block, size_t lhs_stride, size_t kp, const uint8_t* rhs_block,
    float* dst, size_t dst_stride_row, size_t cols, float32x4_t vmin, float32x4_t vmax) {
    const uint8_t* tail = rhs_block + kai_nr * (kp / 4);
    const int32x4_t rsum = vld1q_s32((const int32_t*)(const void*)tail);
    const float32x4_t rscale = vld1q_f32((const float*)(const void*)(tail + 16));
    const float32x4_t rbias = vld1q_f32((const float*)(const void*)(tail + 32));
    for (size_t i = 0; i < rows; ++i) {
        const int8_t* lt = lhs_block + (i / kai_mr) * lhs_stride + kai_mr * kp;
        int32_t lhs_off;
        float lhs_scale;
        memcpy(&lhs_off, lt + 4 * (i % kai_mr), sizeof(lhs_off));
        memcpy(&lhs_scale, lt + 4 * kai_mr + 4 * (i % kai_mr), sizeof(lhs_scale));
        const int32x4_t t = vmlaq_n_s32(acc[i], rsum, lhs_off);
        float32x4_t y = vmulq_f32(vcvtq_f32_s32(t), rscale);
        y = vmulq_n_f32(y, lhs_scale);
        y = vaddq_f32(y, rbias);
        y = vminq_f32(vmaxq_f32(y, vmin), vmax);
        float* d = (float*)(void*)((uint8_t*)dst + i * dst_stride_row);
        if (cols == 4) {
            vst1q_f32(d, y);
        } else {
            float tmp[4];
            vst1q_f32(tmp, y);
            memcpy(d, tmp, cols * sizeof(float));
        }
    }
}

void kai_run_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max, const int32_t* lut) {
    KAI_ASSUME_MSG(m >= 1, "m must be at least 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    KAI_ASSUME_MSG(k >= 1 && k % kai_k_chunk == 0, "k must be a positive multiple of 32");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(
        m == 1 || dst_stride_row / dst_stride_col >= n, "dst_stride_row must be at least n * dst_stride_col if m > 1");
    const int32_t* tab = lut != NULL ? lut : kai_default_lut;
    for (size_t c = 0; c < 4; ++c) {
        KAI_ASSUME_MSG(tab[c] >= -64 && tab[c] <= 63, "lut entries must be in [-64, 63]");
    }
    int8x16_t lo_tab;
    int8x16_t hi_tab;
    kai_decode_tables(tab, &lo_tab, &hi_tab);
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t lhs_stride = kai_lhs_block_stride(k);
    const size_t rhs_stride = kai_rhs_block_stride(k);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    for (size_t m0 = 0; m0 < m; m0 += kai_m_step) {
        const size_t rows = KAI_MIN(kai_m_step, m - m0);
        const int8_t* la = (const int8_t*)lhs_packed + (m0 / kai_mr) * lhs_stride;
        float* d = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        const uint8_t* r = (const uint8_t*)rhs_packed;
        for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
            int32x4_t acc[8];
            if (rows > kai_mr) {
                kai_gemm_8x4(la, la + lhs_stride, r, kp, lo_tab, hi_tab, acc);
            } else {
                kai_gemm_4x4(la, r, kp, lo_tab, hi_tab, acc);
            }
            kai_finish(acc, rows, la, lhs_stride, kp, r, d + n0, dst_stride_row, KAI_MIN(kai_nr, n - n0), vmin, vmax);
            r += rhs_stride;
        }
    }
}
