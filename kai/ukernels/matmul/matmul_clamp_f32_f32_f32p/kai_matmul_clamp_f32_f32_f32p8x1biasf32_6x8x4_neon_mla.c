//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = max(min(acc, clamp_max), clamp_min), acc = bias[j] then one fma(lhs[i][k], rhs[k][j], acc) per k in
// order (docs/formats.md, "f32 NEON matmul"). Packed RHS (docs/formats.md, "f32p8x1biasf32 RHS"): blocks of 8
// columns, stride 8 * (1 + k) * 4 bytes: 8 biases, then for each k the 8 values rhs[k][j]. One step is 6 rows x 8
// columns in 12 accumulators, accR_lo / accR_hi = row R, columns 0-3 / 4-7, started from the bias; K goes by 4:
// per row one 4-value LHS load, per k two RHS vectors, and 12 FMLA by lane; a K tail of 1-3 goes one k at a time.
// A strip of fewer than 6 rows is a separate instance of the same code (rows is a constant in each instance), so
// missing rows cost nothing; a single row takes 4 column blocks at a time (8 FMA chains hide the FMLA latency). A
// ragged last column block is computed whole (the packer pads it with zeros) and stored by vector, pair and lane.

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla needs AArch64"
#endif

#include "kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_f32_f32p_interface.h"

static const size_t kai_m_step = 6;
static const size_t kai_n_step = 8;
static const size_t kai_nr = 8;
static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

size_t kai_get_m_step_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void) {
    return kai_n_step;
}

size_t kai_get_nr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void) {
    return kai_sr;
}

size_t kai_get_lhs_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m_idx, size_t stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (6)");
    return kai_mul_size_checked(m_idx, stride);
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (8)");
    return kai_mul_size_checked(n_idx, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_dst_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m_idx, size_t n_idx, size_t stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (6)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (8)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// One FMLA pair of row R: columns 0-3 and 4-7 of k value `lane` of the row's LHS vector.
#define KAI_FMA_ROW(R, lane, b_lo, b_hi)                               \
    if (rows > R) {                                                    \
        acc##R##_lo = vfmaq_laneq_f32(acc##R##_lo, b_lo, a##R, lane); \
        acc##R##_hi = vfmaq_laneq_f32(acc##R##_hi, b_hi, a##R, lane); \
    }
#define KAI_FMA_ROWS(lane, b_lo, b_hi)  \
    KAI_FMA_ROW(0, lane, b_lo, b_hi)    \
    KAI_FMA_ROW(1, lane, b_lo, b_hi)    \
    KAI_FMA_ROW(2, lane, b_lo, b_hi)    \
    KAI_FMA_ROW(3, lane, b_lo, b_hi)    \
    KAI_FMA_ROW(4, lane, b_lo, b_hi)    \
    KAI_FMA_ROW(5, lane, b_lo, b_hi)
// Loads row R's LHS: 4 values at k (load4), or one value broadcast (load1).
#define KAI_LOAD_ROWS(load)                         \
    if (rows > 0) a0 = load(p0 + kk);               \
    if (rows > 1) a1 = load(p0 + 1 * lhs_row + kk); \
    if (rows > 2) a2 = load(p0 + 2 * lhs_row + kk); \
    if (rows > 3) a3 = load(p0 + 3 * lhs_row + kk); \
    if (rows > 4) a4 = load(p0 + 4 * lhs_row + kk); \
    if (rows > 5) a5 = load(p0 + 5 * lhs_row + kk);

// Clamps and stores one row of the tile: cols columns (1 to 8), by vector, pair and lane stores past a ragged edge.
static KAI_FORCE_INLINE void kai_store_row(
    float* d, size_t cols, float32x4_t lo, float32x4_t hi, float32x4_t vmin, float32x4_t vmax) {
    lo = vmaxq_f32(vminq_f32(lo, vmax), vmin);
    hi = vmaxq_f32(vminq_f32(hi, vmax), vmin);
    if (cols == 8) {
        vst1q_f32(d, lo);
        vst1q_f32(d + 4, hi);
        return;
    }
    if (cols >= 4) {
        vst1q_f32(d, lo);
        lo = hi;
        d += 4;
        cols -= 4;
    }
    if (cols >= 2) {
        vst1_f32(d, vget_low_f32(lo));
        lo = vextq_f32(lo, lo, 2);
        d += 2;
        cols -= 2;
    }
    if (cols == 1) {
        vst1q_lane_f32(d, lo, 0);
    }
}

// All column blocks of a strip of `rows` (1 to 6, a constant in every inlined instance) LHS rows starting at p0.
static KAI_FORCE_INLINE void kai_strip(
    size_t rows, size_t n, size_t k, const float* p0, size_t lhs_row, const float* rhs, float* dst, size_t dst_row,
    float32x4_t vmin, float32x4_t vmax) {
    for (size_t n0 = 0; n0 < n; n0 += kai_n_step) {
        const float* b = rhs + n0 * (1 + k);
        const float32x4_t bias_lo = vld1q_f32(b);
        const float32x4_t bias_hi = vld1q_f32(b + 4);
        b += kai_nr;
        float32x4_t acc0_lo = bias_lo, acc0_hi = bias_hi, acc1_lo = bias_lo, acc1_hi = bias_hi;
        float32x4_t acc2_lo = bias_lo, acc2_hi = bias_hi, acc3_lo = bias_lo, acc3_hi = bias_hi;
        float32x4_t acc4_lo = bias_lo, acc4_hi = bias_hi, acc5_lo = bias_lo, acc5_hi = bias_hi;
        float32x4_t a0 = vdupq_n_f32(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
        size_t kk = 0;
        for (; kk + 4 <= k; kk += 4) {
            KAI_LOAD_ROWS(vld1q_f32)
            const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4);
            const float32x4_t b2 = vld1q_f32(b + 8), b3 = vld1q_f32(b + 12);
            const float32x4_t b4 = vld1q_f32(b + 16), b5 = vld1q_f32(b + 20);
            const float32x4_t b6 = vld1q_f32(b + 24), b7 = vld1q_f32(b + 28);
            b += 4 * kai_nr;
            KAI_FMA_ROWS(0, b0, b1)
            KAI_FMA_ROWS(1, b2, b3)
            KAI_FMA_ROWS(2, b4, b5)
            KAI_FMA_ROWS(3, b6, b7)
        }
        for (; kk < k; ++kk) {
            KAI_LOAD_ROWS(vld1q_dup_f32)
            const float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4);
            b += kai_nr;
            KAI_FMA_ROWS(0, b0, b1)
        }
        const size_t cols = n - n0 < kai_n_step ? n - n0 : kai_n_step;
        float* d = dst + n0;
        if (rows > 0) kai_store_row(d, cols, acc0_lo, acc0_hi, vmin, vmax);
        if (rows > 1) kai_store_row(d + 1 * dst_row, cols, acc1_lo, acc1_hi, vmin, vmax);
        if (rows > 2) kai_store_row(d + 2 * dst_row, cols, acc2_lo, acc2_hi, vmin, vmax);
        if (rows > 3) kai_store_row(d + 3 * dst_row, cols, acc3_lo, acc3_hi, vmin, vmax);
        if (rows > 4) kai_store_row(d + 4 * dst_row, cols, acc4_lo, acc4_hi, vmin, vmax);
        if (rows > 5) kai_store_row(d + 5 * dst_row, cols, acc5_lo, acc5_hi, vmin, vmax);
    }
}

// One FMLA pair of column block B (accB_lo / accB_hi) for k value `lane` of the LHS vector a, RHS at bB + off.
#define KAI_FMA_BLOCK(B, off, lane)                                                 \
    acc##B##_lo = vfmaq_laneq_f32(acc##B##_lo, vld1q_f32(b##B + (off)), a, lane); \
    acc##B##_hi = vfmaq_laneq_f32(acc##B##_hi, vld1q_f32(b##B + (off) + 4), a, lane);
#define KAI_FMA_BLOCKS(off, lane)  \
    KAI_FMA_BLOCK(0, off, lane)    \
    KAI_FMA_BLOCK(1, off, lane)    \
    KAI_FMA_BLOCK(2, off, lane)    \
    KAI_FMA_BLOCK(3, off, lane)

// One LHS row against four column blocks at a time (the GEMV case, and a GEMM's last row when m % 6 == 1): eight
// independent FMA chains instead of one block's two, so the FMLA latency is hidden. Returns the columns it covered
// (a multiple of 32); the rest goes through kai_strip.
static size_t kai_row_by_4_blocks(
    size_t n, size_t k, const float* p0, const float* rhs, float* dst, float32x4_t vmin, float32x4_t vmax) {
    const size_t block = kai_nr * (1 + k);
    size_t n0 = 0;
    for (; n0 + 4 * kai_n_step <= n; n0 += 4 * kai_n_step) {
        const float* b0 = rhs + n0 * (1 + k);
        const float* b1 = b0 + block;
        const float* b2 = b1 + block;
        const float* b3 = b2 + block;
        float32x4_t acc0_lo = vld1q_f32(b0), acc0_hi = vld1q_f32(b0 + 4);
        float32x4_t acc1_lo = vld1q_f32(b1), acc1_hi = vld1q_f32(b1 + 4);
        float32x4_t acc2_lo = vld1q_f32(b2), acc2_hi = vld1q_f32(b2 + 4);
        float32x4_t acc3_lo = vld1q_f32(b3), acc3_hi = vld1q_f32(b3 + 4);
        b0 += kai_nr;
        b1 += kai_nr;
        b2 += kai_nr;
        b3 += kai_nr;
        size_t kk = 0;
        for (; kk + 4 <= k; kk += 4) {
            const float32x4_t a = vld1q_f32(p0 + kk);
            KAI_FMA_BLOCKS(0, 0)
            KAI_FMA_BLOCKS(8, 1)
            KAI_FMA_BLOCKS(16, 2)
            KAI_FMA_BLOCKS(24, 3)
            b0 += 4 * kai_nr;
            b1 += 4 * kai_nr;
            b2 += 4 * kai_nr;
            b3 += 4 * kai_nr;
        }
        for (; kk < k; ++kk) {
            const float32x4_t a = vld1q_dup_f32(p0 + kk);
            KAI_FMA_BLOCKS(0, 0)
            b0 += kai_nr;
            b1 += kai_nr;
            b2 += kai_nr;
            b3 += kai_nr;
        }
        kai_store_row(dst + n0, kai_n_step, acc0_lo, acc0_hi, vmin, vmax);
        kai_store_row(dst + n0 + 8, kai_n_step, acc1_lo, acc1_hi, vmin, vmax);
        kai_store_row(dst + n0 + 16, kai_n_step, acc2_lo, acc2_hi, vmin, vmax);
        kai_store_row(dst + n0 + 24, kai_n_step, acc3_lo, acc3_hi, vmin, vmax);
    }
    return n0;
}

void kai_run_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be 4");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(lhs_stride % sizeof(float) == 0, "lhs_stride must be a multiple of 4");
    KAI_ASSUME_MSG(dst_stride_row % sizeof(float) == 0, "dst_stride_row must be a multiple of 4");
    KAI_ASSUME_MSG(m == 1 || lhs_stride >= k * sizeof(float), "lhs_stride must be at least k * 4");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row >= n * sizeof(float), "dst_stride_row must be at least n * 4");

    const size_t lhs_row = lhs_stride / sizeof(float);
    const size_t dst_row = dst_stride_row / sizeof(float);
    const float32x4_t vmin = vdupq_n_f32(clamp_min);
    const float32x4_t vmax = vdupq_n_f32(clamp_max);
    const float* rhs = (const float*)rhs_packed;

    for (size_t m0 = 0; m0 < m; m0 += kai_m_step) {
        const float* p0 = (const float*)lhs + m0 * lhs_row;
        float* d = (float*)dst + m0 * dst_row;
        switch (m - m0 < kai_m_step ? m - m0 : kai_m_step) {
            case 1: {
                const size_t done = kai_row_by_4_blocks(n, k, p0, rhs, d, vmin, vmax);
                kai_strip(1, n - done, k, p0, lhs_row, rhs + done * (1 + k), d + done, dst_row, vmin, vmax);
                break;
            }
            case 2:
                kai_strip(2, n, k, p0, lhs_row, rhs, d, dst_row, vmin, vmax);
                break;
            case 3:
                kai_strip(3, n, k, p0, lhs_row, rhs, d, dst_row, vmin, vmax);
                break;
            case 4:
                kai_strip(4, n, k, p0, lhs_row, rhs, d, dst_row, vmin, vmax);
                break;
            case 5:
                kai_strip(5, n, k, p0, lhs_row, rhs, d, dst_row, vmin, vmax);
                break;
            default:
                kai_strip(6, n, k, p0, lhs_row, rhs, d, dst_row, vmin, vmax);
                break;
        }
    }
}
