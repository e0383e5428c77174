//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SVE) || !defined(__ARM_FEATURE_MATMUL_INT8)
#error "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm needs AArch64 with FEAT_SVE and FEAT_I8MM"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(16 * I) / 16, f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * w[j][k]
// with q the int8 LHS, a its f16 scale, w = nibble - 8 the int4 RHS, d its f16 scale (fused: one
// rounding per block).
// Packed LHS (mr = 4, kbl = 8): per 4 rows and block, 4 f16 scales then groups of 8 K values of
// rows 0..3 (32 bytes per group). Packed RHS (nr = 8, kr = 16): per 8 columns and block, 8 f16
// scales then segments of 8 bytes of columns 0..7 (64 bytes); byte j carries w[k0 + j] in the low
// nibble and w[k0 + bl/2 + j] in the high one (docs/matmul_q4_0.md has the diagrams).
// Vector length: every load and store works on the low 256 bits (two 128-bit segments; predicates
// VL32 bytes / VL8 words; arithmetic runs on all lanes, the lanes above 256 bits are never stored)
// and every cross-lane op used (LD1RQ, TBL with indices < 8, EXT by 4 words)
// keeps those 256 bits independent of the rest, so the kernel gives the same bits at any SVE
// length >= 256.
// Tile: 8 rows (two 4-row LHS blocks) x 8 columns; the 16-row m_step runs as two such passes
// (16 int32 + 16 f32 accumulators would not fit in 32 registers). SVE SMMLA multiplies per 128-bit
// segment: with the LHS rows 0-1 (or 2-3) of a K group replicated to both segments (LD1RQ) and
// the RHS segment of columns 0-3 (or 4-7), acc_r01_c0123 = [r0c0, r0c1, r1c0, r1c1 | r0c2, r0c3,
// r1c2, r1c3]. Nibbles are decoded once per segment and tile as byte << 4 and byte & 0xF0
// (16 * w, so the block sum is 16 * I). Per block, the scale vectors are built with TBL in the same
// lane order, a_r01 = [a0, a0, a1, a1 | ..] and d_c0123 = [d0, d1, d0, d1 | d2, d3, d2, d3] / 16,
// and acc_f = fmaf(16 I, a * d / 16, acc_f): the recipe's single rounding, since both factors
// are exact. At the store, TBL on doublewords gives [r0c0..r0c3 | r1c0..r1c3] and EXT moves row 1
// down.

#include "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm.h"

#include <arm_sve.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

static const size_t kai_m_step = 16;
static const size_t kai_n_step = 8;
static const size_t kai_mr = 4;
static const size_t kai_nr = 8;
static const size_t kai_kr = 16;
static const size_t kai_sr = 2;

// TBL indices (words): the LHS scales of rows 0-1 / 2-3 and the RHS scales of columns 0-3 / 4-7 in
// the lane order of the SMMLA accumulators; then (doublewords) the row-major order of one.
static const uint32_t kai_idx_words[4][8] = {
    {0, 0, 1, 1, 0, 0, 1, 1},
    {2, 2, 3, 3, 2, 2, 3, 3},
    {0, 1, 0, 1, 2, 3, 2, 3},
    {4, 5, 4, 5, 6, 7, 6, 7},
};
static const uint64_t kai_idx_rows[4] = {0, 2, 1, 3};

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (4)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_mul_size_checked(kai_mr * (k / bl), bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (8)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_mul_size_checked(kai_nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (16)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (8)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// One 16-K segment for the 2 x 2 accumulators of one 4-row LHS block: lhs_lo / lhs_hi point at
// the block's 32-byte groups of K = 8t.. and bl/2 + 8t..; lo_* / hi_* are the decoded RHS.
static inline __attribute__((always_inline)) void segment(
    svint32_t* acc_r01_c0123, svint32_t* acc_r01_c4567, svint32_t* acc_r23_c0123, svint32_t* acc_r23_c4567,
    const uint8_t* lhs_lo, const uint8_t* lhs_hi, svint8_t lo_c0123, svint8_t lo_c4567, svint8_t hi_c0123,
    svint8_t hi_c4567) {
    const svbool_t pall = svptrue_b8();
    const svint8_t x01_lo = svld1rq_s8(pall, (const int8_t*)lhs_lo);
    const svint8_t x23_lo = svld1rq_s8(pall, (const int8_t*)lhs_lo + 16);
    const svint8_t x01_hi = svld1rq_s8(pall, (const int8_t*)lhs_hi);
    const svint8_t x23_hi = svld1rq_s8(pall, (const int8_t*)lhs_hi + 16);
    *acc_r01_c0123 = svmmla_s32(svmmla_s32(*acc_r01_c0123, x01_lo, lo_c0123), x01_hi, hi_c0123);
    *acc_r01_c4567 = svmmla_s32(svmmla_s32(*acc_r01_c4567, x01_lo, lo_c4567), x01_hi, hi_c4567);
    *acc_r23_c0123 = svmmla_s32(svmmla_s32(*acc_r23_c0123, x23_lo, lo_c0123), x23_hi, hi_c0123);
    *acc_r23_c4567 = svmmla_s32(svmmla_s32(*acc_r23_c4567, x23_lo, lo_c4567), x23_hi, hi_c4567);
}

// Segment t of a block for all 8 rows: decodes the 64 RHS bytes once and runs both LHS blocks.
static inline __attribute__((always_inline)) void segments(
    svint32_t* a_r01_c0123, svint32_t* a_r01_c4567, svint32_t* a_r23_c0123, svint32_t* a_r23_c4567,
    svint32_t* a_r45_c0123, svint32_t* a_r45_c4567, svint32_t* a_r67_c0123, svint32_t* a_r67_c4567,
    const uint8_t* l0, const uint8_t* l1, const uint8_t* r, size_t bl, size_t t) {
    const svbool_t pb = svptrue_pat_b8(SV_VL32);
    const int8_t* pr = (const int8_t*)(r + 2 * kai_nr + 64 * t);
    const svint8_t raw_c0123 = svld1_s8(pb, pr);
    const svint8_t raw_c4567 = svld1_s8(pb, pr + 32);
    const svint8_t lo_c0123 = svlsl_n_s8_x(pb, raw_c0123, 4);
    const svint8_t lo_c4567 = svlsl_n_s8_x(pb, raw_c4567, 4);
    // The high-nibble mask in a register the optimiser cannot see into: with it GCC uses the
    // three-operand AND (vectors), not the destructive AND (immediate) and a MOVPRFX per use.
    svint8_t mask = svdup_n_s8((int8_t)-16);
    __asm__("" : "+w"(mask));
    const svint8_t hi_c0123 = svand_s8_x(svptrue_b8(), raw_c0123, mask);
    const svint8_t hi_c4567 = svand_s8_x(svptrue_b8(), raw_c4567, mask);
    const size_t lo = 2 * kai_mr + 32 * t;
    const size_t hi = 2 * kai_mr + 32 * (bl / 16 + t);
    segment(a_r01_c0123, a_r01_c4567, a_r23_c0123, a_r23_c4567, l0 + lo, l0 + hi, lo_c0123, lo_c4567, hi_c0123,
            hi_c4567);
    segment(a_r45_c0123, a_r45_c4567, a_r67_c0123, a_r67_c4567, l1 + lo, l1 + hi, lo_c0123, lo_c4567, hi_c0123,
            hi_c4567);
}

// fmaf(16 I, s, f) for one accumulator: s = the row scales times the column scales / 16.
static inline __attribute__((always_inline)) svfloat32_t scale_add(
    svfloat32_t f, svint32_t acc, svfloat32_t a, svfloat32_t d16) {
    // All lanes: the lanes above 256 bits are never stored, and unpredicated forms need no copies.
    const svbool_t all = svptrue_b32();
    return svmla_f32_x(all, f, svcvt_f32_s32_x(all, acc), svmul_f32_x(all, a, d16));
}

// The 4 f16 row scales of an LHS block, widened.
static inline __attribute__((always_inline)) svfloat32_t lhs_scales(const uint8_t* p) {
    const svbool_t p4 = svptrue_pat_b32(SV_VL4);
    return svcvt_f32_f16_x(p4, svreinterpret_f16_u32(svld1uh_u32(p4, (const uint16_t*)(const void*)p)));
}

// Clamps (max first, then min) one accumulator holding rows r, r + 1 and 4 columns, and stores
// the valid ones: rows_left rows (from r) and cols columns (of these 4) are in range.
static inline __attribute__((always_inline)) void store2x4(
    float* dst, size_t dst_stride, svfloat32_t f, size_t rows_left, size_t cols, svfloat32_t vmin, svfloat32_t vmax,
    svuint64_t rows_idx) {
    const svbool_t pw = svptrue_pat_b32(SV_VL8);
    const svfloat32_t y = svmin_f32_x(pw, svmax_f32_x(pw, f, vmin), vmax);
    const svfloat32_t rm = svreinterpret_f32_u64(svtbl_u64(svreinterpret_u64_f32(y), rows_idx));
    const svbool_t pc = svand_b_z(svptrue_pat_b32(SV_VL4), svptrue_pat_b32(SV_VL4), svwhilelt_b32_u64(0, cols));
    if (rows_left >= 1) {
        svst1_f32(pc, dst, rm);
    }
    if (rows_left >= 2) {
        svst1_f32(pc, (float*)(void*)((uint8_t*)dst + dst_stride), svext_f32(rm, rm, 4));
    }
}

// 8 rows (LHS blocks lhs0 and lhs1, which may be the same block when only 4 rows are left) x one
// 8-column RHS block over all k; rows (1..8) and cols (1..8) count the valid ones.
static inline __attribute__((always_inline)) void tile(
    const uint8_t* lhs0, const uint8_t* lhs1, const uint8_t* rhs, size_t nb, size_t bl, float* dst, size_t dst_stride,
    size_t rows, size_t cols, svfloat32_t vmin, svfloat32_t vmax) {
    const svbool_t pw = svptrue_pat_b32(SV_VL8);
    // The index vectors (once per tile: the compiler keeps them in registers over the K loop).
    const svuint32_t idx_a_r01 = svld1_u32(pw, kai_idx_words[0]);
    const svuint32_t idx_a_r23 = svld1_u32(pw, kai_idx_words[1]);
    const svuint32_t idx_d_c0123 = svld1_u32(pw, kai_idx_words[2]);
    const svuint32_t idx_d_c4567 = svld1_u32(pw, kai_idx_words[3]);
    const size_t lhs_block = kai_mr * (bl + 2);
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    const svfloat32_t zero = svdup_n_f32(0.0f);
    svfloat32_t f_r01_c0123 = zero, f_r01_c4567 = zero, f_r23_c0123 = zero, f_r23_c4567 = zero;
    svfloat32_t f_r45_c0123 = zero, f_r45_c4567 = zero, f_r67_c0123 = zero, f_r67_c4567 = zero;
    for (size_t b = 0; b < nb; ++b) {
        const uint8_t* l0 = lhs0 + b * lhs_block;
        const uint8_t* l1 = lhs1 + b * lhs_block;
        const uint8_t* r = rhs + b * rhs_block;
        const svint32_t z = svdup_n_s32(0);
        svint32_t a_r01_c0123 = z, a_r01_c4567 = z, a_r23_c0123 = z, a_r23_c4567 = z;
        svint32_t a_r45_c0123 = z, a_r45_c4567 = z, a_r67_c0123 = z, a_r67_c4567 = z;
        // bl / 16 is even (bl is a multiple of 32): two segments per step, so bl = 32 is one step.
        for (size_t t = 0; t < bl / 16; t += 2) {
            segments(&a_r01_c0123, &a_r01_c4567, &a_r23_c0123, &a_r23_c4567, &a_r45_c0123, &a_r45_c4567,
                     &a_r67_c0123, &a_r67_c4567, l0, l1, r, bl, t);
            segments(&a_r01_c0123, &a_r01_c4567, &a_r23_c0123, &a_r23_c4567, &a_r45_c0123, &a_r45_c4567,
                     &a_r67_c0123, &a_r67_c4567, l0, l1, r, bl, t + 1);
        }
        // The column scales / 16 (exact): a * (d / 16) is then the exact a * d / 16.
        const svfloat32_t d = svmul_n_f32_x(
            pw, svcvt_f32_f16_x(pw, svreinterpret_f16_u32(svld1uh_u32(pw, (const uint16_t*)(const void*)r))), 0.0625f);
        const svfloat32_t d_c0123 = svtbl_f32(d, idx_d_c0123);
        const svfloat32_t d_c4567 = svtbl_f32(d, idx_d_c4567);
        const svfloat32_t a0 = lhs_scales(l0);
        const svfloat32_t a1 = lhs_scales(l1);
        const svfloat32_t a_r01 = svtbl_f32(a0, idx_a_r01);
        const svfloat32_t a_r23 = svtbl_f32(a0, idx_a_r23);
        const svfloat32_t a_r45 = svtbl_f32(a1, idx_a_r01);
        const svfloat32_t a_r67 = svtbl_f32(a1, idx_a_r23);
        f_r01_c0123 = scale_add(f_r01_c0123, a_r01_c0123, a_r01, d_c0123);
        f_r01_c4567 = scale_add(f_r01_c4567, a_r01_c4567, a_r01, d_c4567);
        f_r23_c0123 = scale_add(f_r23_c0123, a_r23_c0123, a_r23, d_c0123);
        f_r23_c4567 = scale_add(f_r23_c4567, a_r23_c4567, a_r23, d_c4567);
        f_r45_c0123 = scale_add(f_r45_c0123, a_r45_c0123, a_r45, d_c0123);
        f_r45_c4567 = scale_add(f_r45_c4567, a_r45_c4567, a_r45, d_c4567);
        f_r67_c0123 = scale_add(f_r67_c0123, a_r67_c0123, a_r67, d_c0123);
        f_r67_c4567 = scale_add(f_r67_c4567, a_r67_c4567, a_r67, d_c4567);
    }
    const svuint64_t idx_rows = svld1_u64(svptrue_pat_b64(SV_VL4), kai_idx_rows);
    const size_t c_lo = KAI_MIN(cols, 4);
    const size_t c_hi = cols > 4 ? cols - 4 : 0;
    for (size_t rp = 0; rp < 4 && 2 * rp < rows; ++rp) {
        const svfloat32_t lo4 = rp == 0 ? f_r01_c0123 : rp == 1 ? f_r23_c0123 : rp == 2 ? f_r45_c0123 : f_r67_c0123;
        const svfloat32_t hi4 = rp == 0 ? f_r01_c4567 : rp == 1 ? f_r23_c4567 : rp == 2 ? f_r45_c4567 : f_r67_c4567;
        float* d_rp = (float*)(void*)((uint8_t*)dst + 2 * rp * dst_stride);
        store2x4(d_rp, dst_stride, lo4, rows - 2 * rp, c_lo, vmin, vmax, idx_rows);
        if (c_hi > 0) {
            store2x4(d_rp + 4, dst_stride, hi4, rows - 2 * rp, c_hi, vmin, vmax, idx_rows);
        }
    }
}

// All tiles: 8-row passes over 8-column blocks. Inlined into the two instances below (bl = 32, the
// GGUF block, fully unrolled; any bl), which keep the hot loop in a small function of its own.
static inline __attribute__((always_inline)) void tiles(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, const uint8_t* rhs_packed, float* dst,
    size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    const size_t lhs_stride = nb * kai_mr * (bl + 2);
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    for (size_t m0 = 0; m0 < m; m0 += 8) {
        const size_t rows = KAI_MIN(m - m0, 8);
        const uint8_t* lhs0 = lhs_packed + (m0 / kai_mr) * lhs_stride;
        const uint8_t* lhs1 = rows > 4 ? lhs0 + lhs_stride : lhs0;
        float* dst_row = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
            tile(lhs0, lhs1, rhs_packed + (n0 / kai_nr) * rhs_stride, nb, bl, dst_row + n0, dst_stride_row, rows,
                 KAI_MIN(n - n0, kai_nr), vmin, vmax);
        }
    }
}

static __attribute__((noinline)) void sve16x8_tiles_bl32(
    size_t m, size_t n, size_t nb, const uint8_t* lhs_packed, const uint8_t* rhs_packed, float* dst,
    size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    tiles(m, n, nb, 32, lhs_packed, rhs_packed, dst, dst_stride_row, vmin, vmax);
}

static __attribute__((noinline)) void sve16x8_tiles_any_bl(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, const uint8_t* rhs_packed, float* dst,
    size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    tiles(m, n, nb, bl, lhs_packed, rhs_packed, dst, dst_stride_row, vmin, vmax);
}

void kai_run_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max) {
    check_block(k, bl);
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    KAI_UNUSED(dst_stride_col);
    // Refused in every build: at 128 bits the 32-byte vectors this kernel is written for do not exist.
    KAI_ASSERT_ALWAYS_MSG(svcntb() >= 32, "needs an SVE vector length of at least 256 bits");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row / sizeof(float) >= n, "dst_stride_row must be at least n * sizeof(float) when m > 1");

    const size_t nb = k / bl;
    const svfloat32_t vmin = svdup_n_f32(scalar_min);
    const svfloat32_t vmax = svdup_n_f32(scalar_max);
    if (bl == 32) {
        sve16x8_tiles_bl32(m, n, nb, (const uint8_t*)lhs_packed, (const uint8_t*)rhs_packed, dst, dst_stride_row, vmin,
                           vmax);
    } else {
        sve16x8_tiles_any_bl(m, n, nb, bl, (const uint8_t*)lhs_packed, (const uint8_t*)rhs_packed, dst, dst_stride_row,
                             vmin, vmax);
    }
}
