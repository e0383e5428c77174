//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod needs AArch64 with FEAT_DotProd"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(16 * I) / 16, f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * w[j][k]
// with q the int8 LHS, a its f16 scale, w = nibble - 8 the int4 RHS, d its f16 scale (fused: one
// rounding per block).
// Packed LHS (mr = 4, kbl = 4): per 4 rows and block, 4 f16 scales then groups of 4 K values of
// rows 0..3 (16 bytes per group). Packed RHS (nr = 4, kr = 8): per 4 columns and block, 4 f16
// scales then segments of 4 bytes of columns 0..3; byte j carries w[k0 + j] in the low nibble and
// w[k0 + bl/2 + j] in the high one (docs/matmul_q4_0.md has the diagrams).
// Tile: 8 rows (two 4-row LHS blocks) x 4 columns; the 16-row tile of this variant (its m_step)
// runs as two 8-row passes, because 16 int32 plus 16 f32 accumulators would not fit in the 32
// vector registers. One RHS segment (16 bytes) decodes to lo = byte << 4 and hi = byte & 0xF0
// (16 * w for K group t and bl/8 + t); SDOT by element with LHS lane r adds row r's 4 values to
// acc_r = [c0, c1, c2, c3]. Per block: acc_f_r = fmaf(F_r, d * a[r], acc_f_r) with d = the 4
// column scales and a[r] by element: no shuffles anywhere.

#include "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

static const size_t kai_m_step = 16;
static const size_t kai_n_step = 4;
static const size_t kai_mr = 4;
static const size_t kai_nr = 4;
static const size_t kai_kr = 8;
static const size_t kai_sr = 2;

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (4)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_mul_size_checked(kai_mr * (k / bl), bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (4)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_mul_size_checked(kai_nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (16)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (4)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Stores a 4 x 4 tile held as rows rows[0..3], the first `rows` rows and `cols` columns.
static void store_rows(float* dst, size_t dst_stride, const float32x4_t* r, size_t rows, size_t cols) {
    for (size_t i = 0; i < rows; ++i) {
        float* d = (float*)(void*)((uint8_t*)dst + i * dst_stride);
        if (cols == 4) {
            vst1q_f32(d, r[i]);
        } else {
            float tmp[4];
            vst1q_f32(tmp, r[i]);
            memcpy(d, tmp, cols * sizeof(float));
        }
    }
}

// The block loop is bound by the vector pipes (SDOT, the nibble decode and the per-block scaling
// all issue there); the load pipes have room. So the per-block work that only moves data goes to
// them: the int32 accumulators are zeroed by LDP from a zero constant (inline assembly: the
// compiler turns a zero load back into MOVI or register moves; -DKAI_QSI8D32P_NO_ASM gives the
// plain zero), and the f32 LHS scales of an 8-row tile are converted once into a stack buffer
// shared by all its 4-column tiles instead of by an FCVTL per block and tile.
#if defined(__GNUC__) && !defined(KAI_QSI8D32P_NO_ASM)
static const int32_t kai_q40_zeros[8] __attribute__((aligned(16))) = {0, 0, 0, 0, 0, 0, 0, 0};
#define KAI_Q40_ZERO2(a, b) \
    __asm__ volatile("ldp %q0, %q1, [%2]" : "=w"(a), "=w"(b) : "r"(kai_q40_zeros), "m"(kai_q40_zeros))
#else
#define KAI_Q40_ZERO2(a, b) ((a) = vdupq_n_s32(0), (b) = (a))
#endif

// LHS scales of up to this many blocks are converted per 8-row tile (8 KiB of stack); deeper k
// converts them in the block loop instead.
enum { KAI_SCALE_VECTOR_BLOCKS = 256 };

// Writes the f32 LHS scales of an 8-row tile, 2 vectors per block: rows 0-3 (la), rows 4-7 (lb).
static void lhs_scale_vectors(const uint8_t* la, const uint8_t* lb, size_t nb, size_t lhs_block, float32x4_t* out) {
    for (size_t b = 0; b < nb; ++b) {
        out[2 * b + 0] = vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(la)));
        out[2 * b + 1] = vcvt_f32_f16(vreinterpret_f16_u8(vld1_u8(lb)));
        la += lhs_block;
        lb += lhs_block;
    }
}

// One tile of 4 or 8 rows (two_blocks) x 4 columns over all k. lhs: the first 4-row block;
// rhs: the 4-column block; both at quantisation block 0. scale_vectors: the output of
// lhs_scale_vectors for this tile, or NULL to convert the scales here.
static KAI_FORCE_INLINE void tile(
    const uint8_t* lhs, size_t lhs_stride, int two_blocks, const uint8_t* rhs, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, size_t cols, float32x4_t vmin,
    float32x4_t vmax) {
    const size_t lhs_block = kai_mr * (bl + 2);
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    const uint8x16_t high_mask = vdupq_n_u8(0xF0);

    float32x4_t f_r0 = vdupq_n_f32(0.0f);
    float32x4_t f_r1 = f_r0;
    float32x4_t f_r2 = f_r0;
    float32x4_t f_r3 = f_r0;
    float32x4_t f_r4 = f_r0;
    float32x4_t f_r5 = f_r0;
    float32x4_t f_r6 = f_r0;
    float32x4_t f_r7 = f_r0;

    // Data pointers; each block's scales sit just before its data.
    const int8_t* pa = (const int8_t*)(lhs + 2 * kai_mr);
    const int8_t* pb = (const int8_t*)(lhs + lhs_stride + 2 * kai_mr);
    const int8_t* pr = (const int8_t*)(rhs + 2 * kai_nr);
    for (size_t b = 0; b < nb; ++b) {
        int32x4_t i_r0;
        int32x4_t i_r1;
        int32x4_t i_r2;
        int32x4_t i_r3;
        int32x4_t i_r4 = vdupq_n_s32(0);
        int32x4_t i_r5 = i_r4;
        int32x4_t i_r6 = i_r4;
        int32x4_t i_r7 = i_r4;
        KAI_Q40_ZERO2(i_r0, i_r1);
        KAI_Q40_ZERO2(i_r2, i_r3);
        if (two_blocks) {
            KAI_Q40_ZERO2(i_r4, i_r5);
            KAI_Q40_ZERO2(i_r6, i_r7);
        }

        // Segment t: low nibbles are K group t, high nibbles K group bl/8 + t (2 * bl bytes on).
        for (size_t t = 0; t < bl / 8; ++t) {
            const int8x16_t raw = vld1q_s8(pr + 16 * t);
            const int8x16_t lo = vshlq_n_s8(raw, 4);
            const int8x16_t hi = vreinterpretq_s8_u8(vandq_u8(vreinterpretq_u8_s8(raw), high_mask));
            const int8x16_t alo = vld1q_s8(pa + 16 * t);
            const int8x16_t ahi = vld1q_s8(pa + 2 * bl + 16 * t);
            i_r0 = vdotq_laneq_s32(i_r0, lo, alo, 0);
            i_r1 = vdotq_laneq_s32(i_r1, lo, alo, 1);
            i_r2 = vdotq_laneq_s32(i_r2, lo, alo, 2);
            i_r3 = vdotq_laneq_s32(i_r3, lo, alo, 3);
            i_r0 = vdotq_laneq_s32(i_r0, hi, ahi, 0);
            i_r1 = vdotq_laneq_s32(i_r1, hi, ahi, 1);
            i_r2 = vdotq_laneq_s32(i_r2, hi, ahi, 2);
            i_r3 = vdotq_laneq_s32(i_r3, hi, ahi, 3);
            if (two_blocks) {
                const int8x16_t blo = vld1q_s8(pb + 16 * t);
                const int8x16_t bhi = vld1q_s8(pb + 2 * bl + 16 * t);
                i_r4 = vdotq_laneq_s32(i_r4, lo, blo, 0);
                i_r5 = vdotq_laneq_s32(i_r5, lo, blo, 1);
                i_r6 = vdotq_laneq_s32(i_r6, lo, blo, 2);
                i_r7 = vdotq_laneq_s32(i_r7, lo, blo, 3);
                i_r4 = vdotq_laneq_s32(i_r4, hi, bhi, 0);
                i_r5 = vdotq_laneq_s32(i_r5, hi, bhi, 1);
                i_r6 = vdotq_laneq_s32(i_r6, hi, bhi, 2);
                i_r7 = vdotq_laneq_s32(i_r7, hi, bhi, 3);
            }
        }

        // d * a[r] is exact in f32 (two f16 significands), so the FMLA is the recipe's single rounding.
        const float32x4_t d = vcvt_f32_f16(vreinterpret_f16_s8(vld1_s8(pr - 2 * kai_nr)));
        const float32x4_t a = scale_vectors != NULL ? scale_vectors[2 * b]
                                                    : vcvt_f32_f16(vreinterpret_f16_s8(vld1_s8(pa - 2 * kai_mr)));
        f_r0 = vfmaq_f32(f_r0, vcvtq_n_f32_s32(i_r0, 4), vmulq_laneq_f32(d, a, 0));
        f_r1 = vfmaq_f32(f_r1, vcvtq_n_f32_s32(i_r1, 4), vmulq_laneq_f32(d, a, 1));
        f_r2 = vfmaq_f32(f_r2, vcvtq_n_f32_s32(i_r2, 4), vmulq_laneq_f32(d, a, 2));
        f_r3 = vfmaq_f32(f_r3, vcvtq_n_f32_s32(i_r3, 4), vmulq_laneq_f32(d, a, 3));
        if (two_blocks) {
            const float32x4_t e = scale_vectors != NULL ? scale_vectors[2 * b + 1]
                                                        : vcvt_f32_f16(vreinterpret_f16_s8(vld1_s8(pb - 2 * kai_mr)));
            f_r4 = vfmaq_f32(f_r4, vcvtq_n_f32_s32(i_r4, 4), vmulq_laneq_f32(d, e, 0));
            f_r5 = vfmaq_f32(f_r5, vcvtq_n_f32_s32(i_r5, 4), vmulq_laneq_f32(d, e, 1));
            f_r6 = vfmaq_f32(f_r6, vcvtq_n_f32_s32(i_r6, 4), vmulq_laneq_f32(d, e, 2));
            f_r7 = vfmaq_f32(f_r7, vcvtq_n_f32_s32(i_r7, 4), vmulq_laneq_f32(d, e, 3));
        }
        pa += lhs_block;
        pb += lhs_block;
        pr += rhs_block;
    }

    // Clamp: max first, then min.
    float32x4_t r[4];
    r[0] = vminq_f32(vmaxq_f32(f_r0, vmin), vmax);
    r[1] = vminq_f32(vmaxq_f32(f_r1, vmin), vmax);
    r[2] = vminq_f32(vmaxq_f32(f_r2, vmin), vmax);
    r[3] = vminq_f32(vmaxq_f32(f_r3, vmin), vmax);
    store_rows(dst, dst_stride, r, KAI_MIN(rows, 4), cols);
    if (two_blocks) {
        r[0] = vminq_f32(vmaxq_f32(f_r4, vmin), vmax);
        r[1] = vminq_f32(vmaxq_f32(f_r5, vmin), vmax);
        r[2] = vminq_f32(vmaxq_f32(f_r6, vmin), vmax);
        r[3] = vminq_f32(vmaxq_f32(f_r7, vmin), vmax);
        store_rows((float*)(void*)((uint8_t*)dst + 4 * dst_stride), dst_stride, r, rows - 4, cols);
    }
}

// One row of tiles: 4 or 8 rows (two_blocks) x all n columns, 4 at a time. Inlined into the
// instances below (bl = 32, the GGUF block, fully unrolled; any bl; 4-row tail), which keep each
// hot loop in a small function of its own.
static KAI_FORCE_INLINE void tile_row(
    const uint8_t* lhs, size_t lhs_stride, int two_blocks, const uint8_t* rhs_packed, size_t rhs_stride, size_t n,
    size_t nb, size_t bl, const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows,
    float32x4_t vmin, float32x4_t vmax) {
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        tile(lhs, lhs_stride, two_blocks, rhs_packed + (n0 / kai_nr) * rhs_stride, nb, bl, scale_vectors, dst + n0,
             dst_stride, rows, KAI_MIN(n - n0, kai_nr), vmin, vmax);
    }
}

static KAI_NEVER_INLINE void dot16x4_rows8_bl32(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 1, rhs_packed, rhs_stride, n, nb, 32, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

static KAI_NEVER_INLINE void dot16x4_rows8(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 1, rhs_packed, rhs_stride, n, nb, bl, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

static KAI_NEVER_INLINE void dot16x4_rows4(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 0, rhs_packed, rhs_stride, n, nb, bl, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

void kai_run_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod(
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
    const size_t lhs_stride = kai_mr * nb * (bl + 2);
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    float32x4_t scale_vectors[2 * KAI_SCALE_VECTOR_BLOCKS];
    const float32x4_t* sv = nb <= KAI_SCALE_VECTOR_BLOCKS ? scale_vectors : NULL;

    for (size_t m0 = 0; m0 < m; m0 += 8) {
        const size_t rows = KAI_MIN(m - m0, 8);
        const uint8_t* lhs = (const uint8_t*)lhs_packed + (m0 / kai_mr) * lhs_stride;
        float* dst_row = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        if (sv != NULL) {
            lhs_scale_vectors(lhs, rows > 4 ? lhs + lhs_stride : lhs, nb, kai_mr * (bl + 2), scale_vectors);
        }
        const uint8_t* rhs = (const uint8_t*)rhs_packed;
        if (rows > 4 && bl == 32) {
            dot16x4_rows8_bl32(lhs, lhs_stride, rhs, rhs_stride, n, nb, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        } else if (rows > 4) {
            dot16x4_rows8(lhs, lhs_stride, rhs, rhs_stride, n, nb, bl, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        } else {
            dot16x4_rows4(lhs, lhs_stride, rhs, rhs_stride, n, nb, bl, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        }
    }
}
