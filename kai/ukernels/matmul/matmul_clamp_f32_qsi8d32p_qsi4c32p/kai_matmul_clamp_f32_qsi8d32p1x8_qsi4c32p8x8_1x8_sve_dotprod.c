//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SVE) || !defined(__ARM_FEATURE_DOTPROD)
#error "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod needs AArch64 with FEAT_SVE and FEAT_DotProd"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(16 * I) / 16, f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * w[j][k]
// with q the int8 LHS, a its f16 scale, w = nibble - 8 the int4 RHS, d its f16 scale (fused: one
// rounding per block).
// Packed LHS (mr = 1): per row and block, the f16 scale then the bl int8 values in K order. Packed
// RHS (nr = 8, kr = 16): per 8 columns and block, 8 f16 scales then segments of 8 bytes of columns
// 0..7 (64 bytes); byte j carries w[k0 + j] in the low nibble and w[k0 + bl/2 + j] in the high one
// (docs/matmul_q4_0.md has the diagrams).
// Vector length: every load and store works on the low 256 bits (predicates VL32 bytes / VL8 words;
// arithmetic runs on all lanes, the lanes above 256 bits are never stored) and
// every cross-lane op used (TRN1/TRN2 pairs, TBL with indices < 8) keeps those 256 bits independent
// of the rest, so the kernel gives the same bits at any SVE length >= 256.
// Tile: 1 row x 32 columns (four 8-column blocks), then 1 x 8 for the rest; any m (m_step 1).
// Segment t of a column block is two 32-byte vectors, columns 0-3 and 4-7, decoded to
// lo = byte << 4 and hi = byte & 0xF0 (16 * w for K = 8t.. and bl/2 + 8t..). The 8 LHS values of
// each K range are broadcast to every doubleword, so SDOT gives
// acc_c0123 = [c0 k0-3, c0 k4-7, c1 k0-3, c1 k4-7, c2 .., c3 ..] (likewise acc_c4567). Per block,
// TRN1 + TRN2 + ADD fold the pairs into [c0, c4, c1, c5, c2, c6, c3, c7] and one TBL puts them in
// column order; then acc_f = fmaf(16 I, d * (a / 16), acc_f) — the same single rounding as the
// recipe, since 16 I and d * a / 16 are exact.

#include "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod.h"

#include <arm_sve.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

static const size_t kai_m_step = 1;
static const size_t kai_n_step = 8;
static const size_t kai_mr = 1;
static const size_t kai_nr = 8;
static const size_t kai_kr = 16;
static const size_t kai_sr = 2;

// Column order of the folded block sums: lane i of the result takes lane kai_unfold[i] of
// [c0, c4, c1, c5, c2, c6, c3, c7].
static const uint32_t kai_unfold[8] = {0, 2, 4, 6, 1, 3, 5, 7};

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (1)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_mul_size_checked(kai_mr * (k / bl), bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (8)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_mul_size_checked(kai_nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (1)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (8)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Broadcasts 8 bytes at p to every doubleword (LD1RD).
static inline svint8_t bcast8(const uint8_t* p) {
    int64_t v;
    memcpy(&v, p, sizeof(v));
    return svreinterpret_s8_s64(svdup_n_s64(v));
}

// One 16-K segment of one 8-column block: its 64 RHS bytes are at r + seg_lo (columns 0-3) and
// r + seg_hi (4-7); xlo / xhi are the LHS values of K = 8t.. and bl/2 + 8t.. broadcast to every
// doubleword.
static inline __attribute__((always_inline)) void segment(
    svint32_t* acc_c0123, svint32_t* acc_c4567, const uint8_t* r, size_t seg_lo, size_t seg_hi, svint8_t xlo,
    svint8_t xhi) {
    const svbool_t pb = svptrue_pat_b8(SV_VL32);
    const svint8_t raw_c0123 = svld1_s8(pb, (const int8_t*)(r + seg_lo));
    const svint8_t raw_c4567 = svld1_s8(pb, (const int8_t*)(r + seg_hi));
    const svint8_t lo_c0123 = svlsl_n_s8_x(pb, raw_c0123, 4);
    const svint8_t lo_c4567 = svlsl_n_s8_x(pb, raw_c4567, 4);
    // The high-nibble mask in a register the optimiser cannot see into: with it GCC uses the
    // three-operand AND (vectors), not the destructive AND (immediate) and a MOVPRFX per use.
    svint8_t mask = svdup_n_s8((int8_t)-16);
    __asm__("" : "+w"(mask));
    const svint8_t hi_c0123 = svand_s8_x(svptrue_b8(), raw_c0123, mask);
    const svint8_t hi_c4567 = svand_s8_x(svptrue_b8(), raw_c4567, mask);
    svint32_t a0 = svdot_s32(*acc_c0123, lo_c0123, xlo);
    svint32_t a1 = svdot_s32(*acc_c4567, lo_c4567, xlo);
    a0 = svdot_s32(a0, hi_c0123, xhi);
    a1 = svdot_s32(a1, hi_c4567, xhi);
    *acc_c0123 = a0;
    *acc_c4567 = a1;
}

// End of a block for one 8-column block: folds the SDOT pairs into column order and returns
// fmaf(16 I, d * (a / 16), f); scales points at the block's 8 f16 column scales. a / 16 and
// d * (a / 16) are exact (f16 inputs), so the FMLA is the recipe's one rounding.
static inline __attribute__((always_inline)) svfloat32_t block_end(
    svfloat32_t f, svint32_t acc_c0123, svint32_t acc_c4567, const uint8_t* scales, svfloat32_t a16,
    svuint32_t unfold) {
    const svbool_t pw = svptrue_pat_b32(SV_VL8);
    const svbool_t all = svptrue_b32();
    const svint32_t folded = svadd_s32_x(all, svtrn1_s32(acc_c0123, acc_c4567), svtrn2_s32(acc_c0123, acc_c4567));
    const svint32_t sum16 = svtbl_s32(folded, unfold);
    const svfloat32_t d =
        svcvt_f32_f16_x(pw, svreinterpret_f16_u32(svld1uh_u32(pw, (const uint16_t*)(const void*)scales)));
    return svmla_f32_x(all, f, svcvt_f32_s32_x(all, sum16), svmul_f32_x(all, d, a16));
}

// Clamps (max first, then min) and stores the valid columns of one 8-column block.
static inline __attribute__((always_inline)) void store(
    float* dst, svfloat32_t f, size_t cols, svfloat32_t vmin, svfloat32_t vmax) {
    const svbool_t pw = svptrue_pat_b32(SV_VL8);
    const svfloat32_t y = svmin_f32_x(pw, svmax_f32_x(pw, f, vmin), vmax);
    svst1_f32(svand_b_z(pw, pw, svwhilelt_b32_u64(0, cols)), dst, y);
}

// The LHS block scale of the row divided by 16, broadcast.
static inline __attribute__((always_inline)) svfloat32_t lhs_scale16(const uint8_t* la) {
    uint16_t a_bits;
    memcpy(&a_bits, la, sizeof(a_bits));
    return svdup_n_f32(kai_cast_f32_f16(a_bits) * 0.0625f);
}

// Segment t of a block for four 8-column blocks r0..r3 (seg_lo / seg_hi: the offsets of its two
// 32-byte halves) and the row's values lv.
static inline __attribute__((always_inline)) void segments4(
    svint32_t* a0_c0123, svint32_t* a0_c4567, svint32_t* a1_c0123, svint32_t* a1_c4567, svint32_t* a2_c0123,
    svint32_t* a2_c4567, svint32_t* a3_c0123, svint32_t* a3_c4567, const uint8_t* lv, const uint8_t* r0,
    const uint8_t* r1, const uint8_t* r2, const uint8_t* r3, size_t bl, size_t t, size_t seg_lo, size_t seg_hi) {
    const svint8_t xlo = bcast8(lv + 8 * t);
    const svint8_t xhi = bcast8(lv + bl / 2 + 8 * t);
    segment(a0_c0123, a0_c4567, r0, seg_lo, seg_hi, xlo, xhi);
    segment(a1_c0123, a1_c4567, r1, seg_lo, seg_hi, xlo, xhi);
    segment(a2_c0123, a2_c4567, r2, seg_lo, seg_hi, xlo, xhi);
    segment(a3_c0123, a3_c4567, r3, seg_lo, seg_hi, xlo, xhi);
}

// One row x 32 columns (four 8-column blocks rhs_stride apart) over all k.
static inline __attribute__((always_inline)) void tile4(
    const uint8_t* lhs, const uint8_t* rhs, size_t rhs_stride, size_t nb, size_t bl, float* dst, svfloat32_t vmin,
    svfloat32_t vmax, svuint32_t unfold) {
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    svfloat32_t f0 = svdup_n_f32(0.0f), f1 = f0, f2 = f0, f3 = f0;
    const uint8_t* r0 = rhs;
    const uint8_t* r1 = rhs + rhs_stride;
    const uint8_t* r2 = rhs + 2 * rhs_stride;
    const uint8_t* r3 = rhs + 3 * rhs_stride;
    // The row's values of the block (after its 2-byte scale): LD1RD then takes its immediate offsets.
    const uint8_t* lv = lhs + 2;
    // The four RHS segment offsets of a bl = 32 block, held in registers (opaque to the optimiser) so
    // that every LD1B takes the [base, offset] form instead of an ADD per load.
    size_t o_lo = 2 * kai_nr, o_hi = 2 * kai_nr + 32, o_lo2 = 2 * kai_nr + 64, o_hi2 = 2 * kai_nr + 96;
    __asm__("" : "+r"(o_lo), "+r"(o_hi), "+r"(o_lo2), "+r"(o_hi2));
    for (size_t b = 0; b < nb; ++b) {
        svint32_t a0_c0123 = svdup_n_s32(0), a0_c4567 = a0_c0123, a1_c0123 = a0_c0123, a1_c4567 = a0_c0123;
        svint32_t a2_c0123 = a0_c0123, a2_c4567 = a0_c0123, a3_c0123 = a0_c0123, a3_c4567 = a0_c0123;
        // bl / 16 is even (bl is a multiple of 32): two segments per step, so bl = 32 is one step.
        for (size_t t = 0; t < bl / 16; t += 2) {
            segments4(&a0_c0123, &a0_c4567, &a1_c0123, &a1_c4567, &a2_c0123, &a2_c4567, &a3_c0123, &a3_c4567, lv, r0,
                      r1, r2, r3, bl, t, o_lo + 128 * (t / 2), o_hi + 128 * (t / 2));
            segments4(&a0_c0123, &a0_c4567, &a1_c0123, &a1_c4567, &a2_c0123, &a2_c4567, &a3_c0123, &a3_c4567, lv, r0,
                      r1, r2, r3, bl, t + 1, o_lo2 + 128 * (t / 2), o_hi2 + 128 * (t / 2));
        }
        const svfloat32_t a16 = lhs_scale16(lv - 2);
        f0 = block_end(f0, a0_c0123, a0_c4567, r0, a16, unfold);
        f1 = block_end(f1, a1_c0123, a1_c4567, r1, a16, unfold);
        f2 = block_end(f2, a2_c0123, a2_c4567, r2, a16, unfold);
        f3 = block_end(f3, a3_c0123, a3_c4567, r3, a16, unfold);
        r0 += rhs_block;
        r1 += rhs_block;
        r2 += rhs_block;
        r3 += rhs_block;
        lv += bl + 2;
    }
    store(dst, f0, 8, vmin, vmax);
    store(dst + 8, f1, 8, vmin, vmax);
    store(dst + 16, f2, 8, vmin, vmax);
    store(dst + 24, f3, 8, vmin, vmax);
}

// One row x one 8-column block over all k; cols (1..8) counts the valid columns.
static inline __attribute__((always_inline)) void tile1(
    const uint8_t* lhs, const uint8_t* rhs, size_t nb, size_t bl, float* dst, size_t cols, svfloat32_t vmin,
    svfloat32_t vmax, svuint32_t unfold) {
    const size_t rhs_block = kai_nr * (bl / 2 + 2);
    svfloat32_t f0 = svdup_n_f32(0.0f);
    const uint8_t* r0 = rhs;
    const uint8_t* la = lhs;
    for (size_t b = 0; b < nb; ++b) {
        svint32_t a0_c0123 = svdup_n_s32(0), a0_c4567 = a0_c0123;
        for (size_t t = 0; t < bl / 16; t += 2) {
            segment(&a0_c0123, &a0_c4567, r0, 2 * kai_nr + 64 * t, 2 * kai_nr + 64 * t + 32, bcast8(la + 2 + 8 * t),
                    bcast8(la + 2 + bl / 2 + 8 * t));
            segment(&a0_c0123, &a0_c4567, r0, 2 * kai_nr + 64 * (t + 1), 2 * kai_nr + 64 * (t + 1) + 32,
                    bcast8(la + 2 + 8 * (t + 1)), bcast8(la + 2 + bl / 2 + 8 * (t + 1)));
        }
        f0 = block_end(f0, a0_c0123, a0_c4567, r0, lhs_scale16(la), unfold);
        r0 += rhs_block;
        la += bl + 2;
    }
    store(dst, f0, cols, vmin, vmax);
}

// All rows: 32 columns at a time, then 8. Inlined into the two instances below (bl = 32, the
// GGUF block, fully unrolled; any bl), which keep the hot loop in a small function of its own.
static inline __attribute__((always_inline)) void rows(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    const svuint32_t unfold = svld1_u32(svptrue_pat_b32(SV_VL8), kai_unfold);
    for (size_t i = 0; i < m; ++i) {
        const uint8_t* lhs = lhs_packed + i * lhs_stride;
        float* dst_row = (float*)(void*)((uint8_t*)dst + i * dst_stride_row);
        size_t n0 = 0;
        for (; n0 + 32 <= n; n0 += 32) {
            tile4(lhs, rhs_packed + (n0 / kai_nr) * rhs_stride, rhs_stride, nb, bl, dst_row + n0, vmin, vmax, unfold);
        }
        for (; n0 < n; n0 += kai_nr) {
            tile1(lhs, rhs_packed + (n0 / kai_nr) * rhs_stride, nb, bl, dst_row + n0, KAI_MIN(n - n0, kai_nr), vmin,
                  vmax, unfold);
        }
    }
}

static __attribute__((noinline)) void sve1x8_rows_bl32(
    size_t m, size_t n, size_t nb, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    rows(m, n, nb, 32, lhs_packed, lhs_stride, rhs_packed, rhs_stride, dst, dst_stride_row, vmin, vmax);
}

static __attribute__((noinline)) void sve1x8_rows_any_bl(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, size_t lhs_stride, const uint8_t* rhs_packed,
    size_t rhs_stride, float* dst, size_t dst_stride_row, svfloat32_t vmin, svfloat32_t vmax) {
    rows(m, n, nb, bl, lhs_packed, lhs_stride, rhs_packed, rhs_stride, dst, dst_stride_row, vmin, vmax);
}

void kai_run_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod(
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
    const size_t lhs_stride = nb * (bl + 2);
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    const svfloat32_t vmin = svdup_n_f32(scalar_min);
    const svfloat32_t vmax = svdup_n_f32(scalar_max);
    if (bl == 32) {
        sve1x8_rows_bl32(m, n, nb, (const uint8_t*)lhs_packed, lhs_stride, (const uint8_t*)rhs_packed, rhs_stride, dst,
                         dst_stride_row, vmin, vmax);
    } else {
        sve1x8_rows_any_bl(m, n, nb, bl, (const uint8_t*)lhs_packed, lhs_stride, (const uint8_t*)rhs_packed, rhs_stride,
                           dst, dst_stride_row, vmin, vmax);
    }
}
