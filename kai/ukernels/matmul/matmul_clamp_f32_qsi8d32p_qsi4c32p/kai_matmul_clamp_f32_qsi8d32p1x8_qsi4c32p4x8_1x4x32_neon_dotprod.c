//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(16 * I) / 16, f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * w[j][k]
// with q the int8 LHS, a its f16 scale, w = nibble - 8 the int4 RHS, d its f16 scale (fused: one
// rounding per block).
// Packed LHS (mr = 1): per row and block, the f16 scale then the bl int8 values in K order (the
// shape of GGUF block_q8_0 for bl = 32). Packed RHS (nr = 4, kr = 16): per 4 columns and block, 4
// f16 scales then segments of 8 bytes of columns 0..3; byte j carries w[k0 + j] in the low nibble
// and w[k0 + bl/2 + j] in the high one (docs/matmul_q4_0.md has the diagrams).
// Tile: 1 row x 16 columns (four 4-column blocks), then 1 x 4 for the rest; any m (m_step 1).
// RHS segment t (32 bytes: columns 0-1, then 2-3) decodes to lo = byte << 4 and hi = byte & 0xF0
// (16 * w for K = 8t.. and bl/2 + 8t..). The LHS 8 values of that K range are broadcast to both
// halves of a register (LD1R), so SDOT gives acc_c01 = [c0 k0-3, c0 k4-7, c1 k0-3, c1 k4-7];
// one ADDP per block folds acc_c01 and acc_c23 into [c0, c1, c2, c3]. Per block:
// acc_f = fmaf(F, d * a, acc_f) with d the 4 column scales and a the row scale.

#include "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

static const size_t kai_m_step = 1;
static const size_t kai_n_step = 4;
static const size_t kai_mr = 1;
static const size_t kai_nr = 4;
static const size_t kai_kr = 16;
static const size_t kai_sr = 2;

// Packed scales and LHS values sit at any byte address (rows of bl + 2 bytes): scalar loads go
// through memcpy (the same LDR/LD1R as a cast pointer, without the misaligned access).
static inline uint16_t kai_load_u16(const uint8_t* p) {
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline int64_t kai_load_s64(const uint8_t* p) {
    int64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (1)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_mul_size_checked(kai_mr * (k / bl), bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (4)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_mul_size_checked(kai_nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (1)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (4)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// One row x (4 * ncb) columns over all k: lhs is the packed row, rhs the first 4-column block
// (blocks rhs_stride apart), both at quantisation block 0; cols counts the valid columns.
static KAI_FORCE_INLINE void tile(
    const uint8_t* lhs, const uint8_t* rhs, size_t rhs_stride, size_t ncb, size_t nb, size_t bl, float* dst,
    size_t cols, float32x4_t vmin, float32x4_t vmax) {
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    const uint8x16_t high_mask = vdupq_n_u8(0xF0);
    float32x4_t f[4];
    const uint8_t* rb[4];
    for (size_t c = 0; c < ncb; ++c) {
        f[c] = vdupq_n_f32(0.0f);
        rb[c] = rhs + c * rhs_stride;
    }
    const uint8_t* la = lhs;
    for (size_t b = 0; b < nb; ++b) {
        int32x4_t acc01[4];
        int32x4_t acc23[4];
        for (size_t c = 0; c < ncb; ++c) {
            acc01[c] = vdupq_n_s32(0);
            acc23[c] = vdupq_n_s32(0);
        }
        // 16 K values per step: one segment of every column block (8 low-nibble K values and the
        // 8 high-nibble ones bl/2 further).
        for (size_t t = 0; t < bl / 16; ++t) {
            const int8x16_t xlo = vreinterpretq_s8_s64(vdupq_n_s64(kai_load_s64(la + 2 + 8 * t)));
            const int8x16_t xhi =
                vreinterpretq_s8_s64(vdupq_n_s64(kai_load_s64(la + 2 + bl / 2 + 8 * t)));
            for (size_t c = 0; c < ncb; ++c) {
                const int8_t* pr = (const int8_t*)(rb[c] + 2 * kai_nr + 32 * t);
                const int8x16_t raw_c01 = vld1q_s8(pr);
                const int8x16_t raw_c23 = vld1q_s8(pr + 16);
                int32x4_t a01 = acc01[c];
                int32x4_t a23 = acc23[c];
                a01 = vdotq_s32(a01, vshlq_n_s8(raw_c01, 4), xlo);
                a23 = vdotq_s32(a23, vshlq_n_s8(raw_c23, 4), xlo);
                a01 = vdotq_s32(a01, vreinterpretq_s8_u8(vandq_u8(vreinterpretq_u8_s8(raw_c01), high_mask)), xhi);
                a23 = vdotq_s32(a23, vreinterpretq_s8_u8(vandq_u8(vreinterpretq_u8_s8(raw_c23), high_mask)), xhi);
                acc01[c] = a01;
                acc23[c] = a23;
            }
        }
        // d * a is exact in f32 (two f16 significands), so the FMLA is the recipe's single rounding.
        const float32x4_t a = vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(kai_load_u16(la))));
        for (size_t c = 0; c < ncb; ++c) {
            const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(rb[c])));
            f[c] = vfmaq_f32(f[c], vcvtq_n_f32_s32(vpaddq_s32(acc01[c], acc23[c]), 4), vmulq_f32(d, a));
            rb[c] += rhs_block;
        }
        la += bl + 2;
    }
    // Clamp: max first, then min.
    for (size_t c = 0; c < ncb; ++c) {
        const float32x4_t y = vminq_f32(vmaxq_f32(f[c], vmin), vmax);
        if (cols >= 4 * c + 4) {
            vst1q_f32(dst + 4 * c, y);
        } else {
            float tmp[4];
            vst1q_f32(tmp, y);
            memcpy(dst + 4 * c, tmp, (cols - 4 * c) * sizeof(float));
        }
    }
}

// All rows: 16 columns at a time, then 4. Inlined into the two instances below (bl = 32, the
// GGUF block, fully unrolled; any bl), which keep the hot loop in a small function of its own.
static KAI_FORCE_INLINE void rows(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, float32x4_t vmin, float32x4_t vmax) {
    for (size_t i = 0; i < m; ++i) {
        const uint8_t* lhs = lhs_packed + i * lhs_stride;
        float* dst_row = (float*)(void*)((uint8_t*)dst + i * dst_stride_row);
        size_t n0 = 0;
        for (; n0 + 16 <= n; n0 += 16) {
            tile(lhs, rhs_packed + (n0 / kai_nr) * rhs_stride, rhs_stride, 4, nb, bl, dst_row + n0, 16, vmin, vmax);
        }
        for (; n0 < n; n0 += kai_nr) {
            tile(lhs, rhs_packed + (n0 / kai_nr) * rhs_stride, rhs_stride, 1, nb, bl, dst_row + n0,
                 KAI_MIN(n - n0, kai_nr), vmin, vmax);
        }
    }
}

static KAI_NEVER_INLINE void dot1x4x32_rows_bl32(
    size_t m, size_t n, size_t nb, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, float32x4_t vmin, float32x4_t vmax) {
    rows(m, n, nb, 32, lhs_packed, lhs_stride, rhs_packed, rhs_stride, dst, dst_stride_row, vmin, vmax);
}

static KAI_NEVER_INLINE void dot1x4x32_rows_any_bl(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, float32x4_t vmin, float32x4_t vmax) {
    rows(m, n, nb, bl, lhs_packed, lhs_stride, rhs_packed, rhs_stride, dst, dst_stride_row, vmin, vmax);
}

void kai_run_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max) {
    check_block(k, bl);
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    KAI_UNUSED(dst_stride_col);
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row / sizeof(float) >= n, "dst_stride_row must be at least n * sizeof(float) when m > 1");

    const size_t nb = k / bl;
    const size_t lhs_stride = nb * (bl + 2);
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    if (bl == 32) {
        dot1x4x32_rows_bl32(m, n, nb, (const uint8_t*)lhs_packed, lhs_stride, (const uint8_t*)rhs_packed, rhs_stride, dst,
                  dst_stride_row, vmin, vmax);
    } else {
        dot1x4x32_rows_any_bl(m, n, nb, bl, (const uint8_t*)lhs_packed, lhs_stride, (const uint8_t*)rhs_packed, rhs_stride, dst,
                    dst_stride_row, vmin, vmax);
    }
}
