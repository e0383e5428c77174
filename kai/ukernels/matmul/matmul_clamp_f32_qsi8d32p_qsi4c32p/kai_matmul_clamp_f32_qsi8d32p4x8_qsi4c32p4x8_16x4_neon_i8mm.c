//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_MATMUL_INT8)
#error "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm needs AArch64 with FEAT_I8MM"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(16 * I) / 16, f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * w[j][k]
// with q the int8 LHS, a its f16 scale, w = nibble - 8 the int4 RHS, d its f16 scale (fused: one
// rounding per block).
// Packed LHS (mr = 4, kbl = 8): per 4 rows and block, 4 f16 scales then groups of 8 K values of
// rows 0..3 (32 bytes per group). Packed RHS (nr = 4, kr = 16): per 4 columns and block, 4 f16
// scales then segments of 8 bytes of columns 0..3; byte j carries w[k0 + j] in the low nibble and
// w[k0 + bl/2 + j] in the high one (docs/matmul_q4_0.md has the diagrams).
// Tile: 8 rows (two 4-row LHS blocks) x 4 columns. SMMLA(acc, rhs, lhs) gives transposed 2x2
// blocks, acc_c01_r01 = [c0r0, c0r1, c1r0, c1r1]: the nibbles are decoded once per segment as
// byte << 4 and byte & 0xF0 (16 * w, so the block sum is 16 * I). The per-block scale vectors are
// d_c01 = [d0, d0, d1, d1] (one FCVTL and a ZIP per block) and a_r01 = [a0, a1, a0, a1], which
// are precomputed once per 8-row tile for all its column blocks. Eight int32 and eight f32
// accumulators; rows are un-transposed (UZP) only once, at the store. bl = 32 (GGUF) runs a fully
// unrolled block.
// The 16-row tile of this variant (its m_step) runs as two 8-row passes over the same columns:
// 16 int32 plus 16 f32 accumulators would not fit in the 32 vector registers.

#include "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"

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
static const size_t kai_kr = 16;
static const size_t kai_sr = 2;

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (4)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_mul_size_checked(kai_mr * (k / bl), bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (4)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_mul_size_checked(kai_nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (16)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (4)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), n_idx * sizeof(float));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Stores the first `rows` rows and `cols` columns of a tile held as rows r[0..7].
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

// LHS scale vectors of up to this many blocks are precomputed per 8-row tile (16 KiB of stack);
// deeper k computes them in the block loop instead.
enum { KAI_SCALE_VECTOR_BLOCKS = 256 };

// Writes the f32 LHS scale vectors of an 8-row tile, 4 per block: a_r01 = [a0, a1, a0, a1],
// a_r23, a_r45, a_r67 (the transposed-MMLA order of the accumulators). They are reused by every
// 4-column block, so the f16 conversions and shuffles leave the block loop.
static void lhs_scale_vectors(const uint8_t* la, const uint8_t* lb, size_t nb, size_t lhs_block, float32x4_t* out) {
    for (size_t b = 0; b < nb; ++b) {
        const float64x2_t a = vreinterpretq_f64_f32(vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16((const uint16_t*)(const void*)la))));
        const float64x2_t e = vreinterpretq_f64_f32(vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16((const uint16_t*)(const void*)lb))));
        out[4 * b + 0] = vreinterpretq_f32_f64(vdupq_laneq_f64(a, 0));
        out[4 * b + 1] = vreinterpretq_f32_f64(vdupq_laneq_f64(a, 1));
        out[4 * b + 2] = vreinterpretq_f32_f64(vdupq_laneq_f64(e, 0));
        out[4 * b + 3] = vreinterpretq_f32_f64(vdupq_laneq_f64(e, 1));
        la += lhs_block;
        lb += lhs_block;
    }
}

// One tile of 4 or 8 rows (two_blocks) x 4 columns over all k. lhs: the first 4-row block;
// rhs: the 4-column block; both at quantisation block 0. scale_vectors: the output of
// lhs_scale_vectors for this tile, or NULL to compute them here. Inlined with constant
// two_blocks (and bl = 32, the GGUF block, for a fully unrolled block).
static inline __attribute__((always_inline)) void tile(
    const uint8_t* lhs, size_t lhs_stride, int two_blocks, const uint8_t* rhs, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, size_t cols, float32x4_t vmin,
    float32x4_t vmax) {
    const size_t lhs_block = kai_mr * (bl + 2);
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    const uint8x16_t high_mask = vdupq_n_u8(0xF0);

    float32x4_t f_c01_r01 = vdupq_n_f32(0.0f);
    float32x4_t f_c23_r01 = f_c01_r01;
    float32x4_t f_c01_r23 = f_c01_r01;
    float32x4_t f_c23_r23 = f_c01_r01;
    float32x4_t f_c01_r45 = f_c01_r01;
    float32x4_t f_c23_r45 = f_c01_r01;
    float32x4_t f_c01_r67 = f_c01_r01;
    float32x4_t f_c23_r67 = f_c01_r01;

    // Data pointers; each block's scales sit just before its data.
    const int8_t* pa = (const int8_t*)(lhs + 2 * kai_mr);
    const int8_t* pb = (const int8_t*)(lhs + lhs_stride + 2 * kai_mr);
    const int8_t* pr = (const int8_t*)(rhs + 2 * kai_nr);
    for (size_t b = 0; b < nb; ++b) {
        int32x4_t i_c01_r01 = vdupq_n_s32(0);
        int32x4_t i_c23_r01 = i_c01_r01;
        int32x4_t i_c01_r23 = i_c01_r01;
        int32x4_t i_c23_r23 = i_c01_r01;
        int32x4_t i_c01_r45 = i_c01_r01;
        int32x4_t i_c23_r45 = i_c01_r01;
        int32x4_t i_c01_r67 = i_c01_r01;
        int32x4_t i_c23_r67 = i_c01_r01;

        // Segment t: low nibbles are K group t, high nibbles K group bl/16 + t (2 * bl bytes on).
        for (size_t t = 0; t < bl / 16; ++t) {
            const int8x16_t raw_c01 = vld1q_s8(pr + 32 * t);
            const int8x16_t raw_c23 = vld1q_s8(pr + 32 * t + 16);
            const int8x16_t lo_c01 = vshlq_n_s8(raw_c01, 4);
            const int8x16_t lo_c23 = vshlq_n_s8(raw_c23, 4);
            const int8x16_t hi_c01 = vreinterpretq_s8_u8(vandq_u8(vreinterpretq_u8_s8(raw_c01), high_mask));
            const int8x16_t hi_c23 = vreinterpretq_s8_u8(vandq_u8(vreinterpretq_u8_s8(raw_c23), high_mask));

            const int8x16_t alo_r01 = vld1q_s8(pa + 32 * t);
            const int8x16_t alo_r23 = vld1q_s8(pa + 32 * t + 16);
            const int8x16_t ahi_r01 = vld1q_s8(pa + 2 * bl + 32 * t);
            const int8x16_t ahi_r23 = vld1q_s8(pa + 2 * bl + 32 * t + 16);
            i_c01_r01 = vmmlaq_s32(i_c01_r01, lo_c01, alo_r01);
            i_c23_r01 = vmmlaq_s32(i_c23_r01, lo_c23, alo_r01);
            i_c01_r23 = vmmlaq_s32(i_c01_r23, lo_c01, alo_r23);
            i_c23_r23 = vmmlaq_s32(i_c23_r23, lo_c23, alo_r23);
            i_c01_r01 = vmmlaq_s32(i_c01_r01, hi_c01, ahi_r01);
            i_c23_r01 = vmmlaq_s32(i_c23_r01, hi_c23, ahi_r01);
            i_c01_r23 = vmmlaq_s32(i_c01_r23, hi_c01, ahi_r23);
            i_c23_r23 = vmmlaq_s32(i_c23_r23, hi_c23, ahi_r23);
            if (two_blocks) {
                const int8x16_t blo_r45 = vld1q_s8(pb + 32 * t);
                const int8x16_t blo_r67 = vld1q_s8(pb + 32 * t + 16);
                const int8x16_t bhi_r45 = vld1q_s8(pb + 2 * bl + 32 * t);
                const int8x16_t bhi_r67 = vld1q_s8(pb + 2 * bl + 32 * t + 16);
                i_c01_r45 = vmmlaq_s32(i_c01_r45, lo_c01, blo_r45);
                i_c23_r45 = vmmlaq_s32(i_c23_r45, lo_c23, blo_r45);
                i_c01_r67 = vmmlaq_s32(i_c01_r67, lo_c01, blo_r67);
                i_c23_r67 = vmmlaq_s32(i_c23_r67, lo_c23, blo_r67);
                i_c01_r45 = vmmlaq_s32(i_c01_r45, hi_c01, bhi_r45);
                i_c23_r45 = vmmlaq_s32(i_c23_r45, hi_c23, bhi_r45);
                i_c01_r67 = vmmlaq_s32(i_c01_r67, hi_c01, bhi_r67);
                i_c23_r67 = vmmlaq_s32(i_c23_r67, hi_c23, bhi_r67);
            }
        }

        // Per-block scales: d_c01 = [d0, d0, d1, d1], a_r01 = [a0, a1, a0, a1] (f16 widened exactly);
        // their product is exact in f32, so fmaf(F, d * a, acc) is the recipe's single rounding.
        const float32x4_t d =
            vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16((const uint16_t*)(const void*)(pr - 2 * kai_nr))));
        const float32x4_t d_c01 = vzip1q_f32(d, d);
        const float32x4_t d_c23 = vzip2q_f32(d, d);
        float32x4_t a_r01;
        float32x4_t a_r23;
        float32x4_t a_r45;
        float32x4_t a_r67;
        if (scale_vectors != NULL) {
            a_r01 = scale_vectors[4 * b + 0];
            a_r23 = scale_vectors[4 * b + 1];
            a_r45 = scale_vectors[4 * b + 2];
            a_r67 = scale_vectors[4 * b + 3];
        } else {
            float32x4_t v[4];
            const uint8_t* la = (const uint8_t*)(pa - 2 * kai_mr);
            lhs_scale_vectors(la, two_blocks ? (const uint8_t*)(pb - 2 * kai_mr) : la, 1, lhs_block, v);
            a_r01 = v[0];
            a_r23 = v[1];
            a_r45 = v[2];
            a_r67 = v[3];
        }
        f_c01_r01 = vfmaq_f32(f_c01_r01, vcvtq_n_f32_s32(i_c01_r01, 4), vmulq_f32(d_c01, a_r01));
        f_c23_r01 = vfmaq_f32(f_c23_r01, vcvtq_n_f32_s32(i_c23_r01, 4), vmulq_f32(d_c23, a_r01));
        f_c01_r23 = vfmaq_f32(f_c01_r23, vcvtq_n_f32_s32(i_c01_r23, 4), vmulq_f32(d_c01, a_r23));
        f_c23_r23 = vfmaq_f32(f_c23_r23, vcvtq_n_f32_s32(i_c23_r23, 4), vmulq_f32(d_c23, a_r23));
        if (two_blocks) {
            f_c01_r45 = vfmaq_f32(f_c01_r45, vcvtq_n_f32_s32(i_c01_r45, 4), vmulq_f32(d_c01, a_r45));
            f_c23_r45 = vfmaq_f32(f_c23_r45, vcvtq_n_f32_s32(i_c23_r45, 4), vmulq_f32(d_c23, a_r45));
            f_c01_r67 = vfmaq_f32(f_c01_r67, vcvtq_n_f32_s32(i_c01_r67, 4), vmulq_f32(d_c01, a_r67));
            f_c23_r67 = vfmaq_f32(f_c23_r67, vcvtq_n_f32_s32(i_c23_r67, 4), vmulq_f32(d_c23, a_r67));
        }
        pa += lhs_block;
        pb += lhs_block;
        pr += rhs_block;
    }

    // Un-transpose: row 0 = even lanes of (c01_r01, c23_r01), row 1 = odd lanes. Clamp max then min.
    float32x4_t r[8];
    r[0] = vminq_f32(vmaxq_f32(vuzp1q_f32(f_c01_r01, f_c23_r01), vmin), vmax);
    r[1] = vminq_f32(vmaxq_f32(vuzp2q_f32(f_c01_r01, f_c23_r01), vmin), vmax);
    r[2] = vminq_f32(vmaxq_f32(vuzp1q_f32(f_c01_r23, f_c23_r23), vmin), vmax);
    r[3] = vminq_f32(vmaxq_f32(vuzp2q_f32(f_c01_r23, f_c23_r23), vmin), vmax);
    if (two_blocks) {
        r[4] = vminq_f32(vmaxq_f32(vuzp1q_f32(f_c01_r45, f_c23_r45), vmin), vmax);
        r[5] = vminq_f32(vmaxq_f32(vuzp2q_f32(f_c01_r45, f_c23_r45), vmin), vmax);
        r[6] = vminq_f32(vmaxq_f32(vuzp1q_f32(f_c01_r67, f_c23_r67), vmin), vmax);
        r[7] = vminq_f32(vmaxq_f32(vuzp2q_f32(f_c01_r67, f_c23_r67), vmin), vmax);
    } else {
        r[4] = r[5] = r[6] = r[7] = vmin;  // not stored (rows <= 4); set to keep the compiler quiet
    }
    if (two_blocks && rows == 8 && cols == 4) {
        uint8_t* d = (uint8_t*)dst;
        vst1q_f32((float*)(void*)d, r[0]);
        vst1q_f32((float*)(void*)(d + dst_stride), r[1]);
        vst1q_f32((float*)(void*)(d + 2 * dst_stride), r[2]);
        vst1q_f32((float*)(void*)(d + 3 * dst_stride), r[3]);
        vst1q_f32((float*)(void*)(d + 4 * dst_stride), r[4]);
        vst1q_f32((float*)(void*)(d + 5 * dst_stride), r[5]);
        vst1q_f32((float*)(void*)(d + 6 * dst_stride), r[6]);
        vst1q_f32((float*)(void*)(d + 7 * dst_stride), r[7]);
    } else {
        store_rows(dst, dst_stride, r, rows, cols);  // edge tile
    }
}

// One row of tiles: 4 or 8 rows (two_blocks) x all n columns, 4 at a time. Inlined into the
// instances below, which keep each hot loop in a small function of its own.
static inline __attribute__((always_inline)) void tile_row(
    const uint8_t* lhs, size_t lhs_stride, int two_blocks, const uint8_t* rhs_packed, size_t rhs_stride, size_t n,
    size_t nb, size_t bl, const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows,
    float32x4_t vmin, float32x4_t vmax) {
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        tile(lhs, lhs_stride, two_blocks, rhs_packed + (n0 / kai_nr) * rhs_stride, nb, bl, scale_vectors, dst + n0,
             dst_stride, rows, KAI_MIN(n - n0, kai_nr), vmin, vmax);
    }
}

static __attribute__((noinline)) void i8mm16x4_rows8_bl32(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 1, rhs_packed, rhs_stride, n, nb, 32, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

static __attribute__((noinline)) void i8mm16x4_rows8(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 1, rhs_packed, rhs_stride, n, nb, bl, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

static __attribute__((noinline)) void i8mm16x4_rows4(
    const uint8_t* lhs, size_t lhs_stride, const uint8_t* rhs_packed, size_t rhs_stride, size_t n, size_t nb, size_t bl,
    const float32x4_t* scale_vectors, float* dst, size_t dst_stride, size_t rows, float32x4_t vmin, float32x4_t vmax) {
    tile_row(lhs, lhs_stride, 0, rhs_packed, rhs_stride, n, nb, bl, scale_vectors, dst, dst_stride, rows, vmin, vmax);
}

void kai_run_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(
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

    const size_t nb = k / bl;
    const size_t lhs_block = kai_mr * (bl + 2);
    const size_t lhs_stride = nb * lhs_block;
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    const float32x4_t vmin = vdupq_n_f32(scalar_min);
    const float32x4_t vmax = vdupq_n_f32(scalar_max);
    float32x4_t scale_vectors[4 * KAI_SCALE_VECTOR_BLOCKS];
    const float32x4_t* sv = nb <= KAI_SCALE_VECTOR_BLOCKS ? scale_vectors : NULL;

    for (size_t m0 = 0; m0 < m; m0 += 8) {
        const size_t rows = KAI_MIN(m - m0, 8);
        const int two = rows > 4;
        const uint8_t* lhs = (const uint8_t*)lhs_packed + (m0 / kai_mr) * lhs_stride;
        float* dst_row = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        if (sv != NULL) {
            lhs_scale_vectors(lhs, two ? lhs + lhs_stride : lhs, nb, lhs_block, scale_vectors);
        }
        const uint8_t* rhs = (const uint8_t*)rhs_packed;
        if (two && bl == 32) {
            i8mm16x4_rows8_bl32(lhs, lhs_stride, rhs, rhs_stride, n, nb, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        } else if (two) {
            i8mm16x4_rows8(lhs, lhs_stride, rhs, rhs_stride, n, nb, bl, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        } else {
            i8mm16x4_rows4(lhs, lhs_stride, rhs, rhs_stride, n, nb, bl, sv, dst_row, dst_stride_row, rows, vmin, vmax);
        }
    }
}
