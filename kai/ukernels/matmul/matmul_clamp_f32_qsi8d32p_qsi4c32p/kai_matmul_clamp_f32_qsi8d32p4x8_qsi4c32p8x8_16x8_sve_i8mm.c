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

#if defined(__GNUC__) && !defined(KAI_QSI8D32P_NO_ASM)
#define KAI_SVE16X8_ASM 1
// Each assembly block is one string (it holds the accumulators and the pass constants in
// registers throughout, so it cannot be split), longer than the 4095 characters C99 guarantees.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif
// The bl = 32 block loop in assembly (the intrinsics twin, -DKAI_QSI8D32P_NO_ASM, is the
// loop in tile() below): block_loop_bl32_asm for the edge tiles of tile(), pass_bl32_asm for the
// full tiles of a full 8-row pass; both run KAI_SVE16X8_BLOCK. Compiled from intrinsics a block
// took about 119 instructions; this one takes 105: the 60 of the K work (4 LD1B, 8 LSL/AND,
// 16 LD1RQB, 32 SMMLA), 32 for the block's scaling (per accumulator SCVTF, FMUL, FMLA and the
// zeroing DUP), 10 for the scale vectors and 1.5 for the loop (two blocks per iteration). The
// savings: no register copies (the high-nibble AND is done in place on the raw bytes once the
// LSL has read them), every load addresses from the two block pointers (immediate offsets for
// the first LHS block, registers holding fixed offsets for the second LHS block and the RHS),
// one gather fetches the 8 LHS scales of both 4-row blocks, and the column scales are not
// divided by 16: the f32 accumulators hold 16 * acc (an exact power-of-2 scaling: |acc| never
// comes near the f32 overflow or subnormal range, as every nonzero partial sum is a multiple of
// 2^-48, the f16 x f16 product grain) and are multiplied by 1/16 before the clamp, so
// fmaf(16 I, a * d, 16 acc) = 16 fmaf(I, a * d, acc) gives the same bits.
// Register map: z16-z23 the int32 accumulators (acc_r01_c0123, acc_r01_c4567, acc_r23_c0123,
// ..., acc_r67_c4567), z24/z25 the decoded low nibbles (16 w) of columns 0-3 / 4-7, z26/z27
// their high nibbles (in place on the raw bytes; segment 1 swaps the two pairs), z28-z31 the LHS
// rows 0-1 / 2-3 of the low and the high K half; in the scaling, z24/z25 the products a * d,
// z26/z27 the column scales, z28-z31 the row scales. x9-x16 the offsets of the second LHS
// block's groups, x17/x8/x7 the RHS segment offsets 32, 64, 96 and x6 = -8 (the RHS scales,
// halfword-scaled, sit 16 bytes before the data).
// p0 all lanes, p1 the low 32 bytes, p2 the low 8 words.
// l0: first LHS block's data (past its 8 scale bytes); r: the RHS block's data (past its 16 scale
// bytes); nb >= 1 blocks; s1: bytes from the first to the second LHS block (0: the same block).

// One bl = 32 block (the body of both assembly loops): LW / RW the block pointers, F0-F7 the f32
// accumulators (f_r01_c0123, f_r01_c4567, f_r23_c0123, ..., f_r67_c4567), G the gather offsets,
// IA01-IA67 / ID0, ID1 the TBL indices of the row / column scales.
#define KAI_SVE16X8_BLOCK(LW, RW, F0, F1, F2, F3, F4, F5, F6, F7, G, IA01, IA23, IA45, IA67, ID0, ID1) \
        /* Segment 0: K 0-7 (low nibbles) and 16-23 (high nibbles). */ \
        "ld1b {z26.b}, p1/z, [" RW "]\n" \
        "ld1b {z27.b}, p1/z, [" RW ", x17]\n" \
        "ld1rqb {z28.b}, p0/z, [" LW "]\n" \
        "ld1rqb {z29.b}, p0/z, [" LW ", #16]\n" \
        "lsl z24.b, z26.b, #4\n" \
        "lsl z25.b, z27.b, #4\n" \
        "ld1rqb {z30.b}, p0/z, [" LW ", #64]\n" \
        "ld1rqb {z31.b}, p0/z, [" LW ", #80]\n" \
        "and z26.b, z26.b, #0xf0\n" \
        "and z27.b, z27.b, #0xf0\n" \
        "smmla z16.s, z28.b, z24.b\n" \
        "smmla z17.s, z28.b, z25.b\n" \
        "smmla z18.s, z29.b, z24.b\n" \
        "smmla z19.s, z29.b, z25.b\n" \
        "ld1rqb {z28.b}, p0/z, [" LW ", x9]\n" \
        "ld1rqb {z29.b}, p0/z, [" LW ", x10]\n" \
        "smmla z16.s, z30.b, z26.b\n" \
        "smmla z17.s, z30.b, z27.b\n" \
        "smmla z18.s, z31.b, z26.b\n" \
        "smmla z19.s, z31.b, z27.b\n" \
        "ld1rqb {z30.b}, p0/z, [" LW ", x13]\n" \
        "ld1rqb {z31.b}, p0/z, [" LW ", x14]\n" \
        "smmla z20.s, z28.b, z24.b\n" \
        "smmla z21.s, z28.b, z25.b\n" \
        "smmla z22.s, z29.b, z24.b\n" \
        "smmla z23.s, z29.b, z25.b\n" \
        "ld1b {z24.b}, p1/z, [" RW ", x8]\n" \
        "ld1b {z25.b}, p1/z, [" RW ", x7]\n" \
        "smmla z20.s, z30.b, z26.b\n" \
        "smmla z21.s, z30.b, z27.b\n" \
        "smmla z22.s, z31.b, z26.b\n" \
        "smmla z23.s, z31.b, z27.b\n" \
        /* Segment 1: K 8-15 and 24-31; the raw bytes are in z24/z25: low nibbles to z26/z27, high */ \
        /* ones in place. */ \
        "ld1rqb {z28.b}, p0/z, [" LW ", #32]\n" \
        "ld1rqb {z29.b}, p0/z, [" LW ", #48]\n" \
        "lsl z26.b, z24.b, #4\n" \
        "lsl z27.b, z25.b, #4\n" \
        "ld1rqb {z30.b}, p0/z, [" LW ", #96]\n" \
        "ld1rqb {z31.b}, p0/z, [" LW ", #112]\n" \
        "and z24.b, z24.b, #0xf0\n" \
        "and z25.b, z25.b, #0xf0\n" \
        "smmla z16.s, z28.b, z26.b\n" \
        "smmla z17.s, z28.b, z27.b\n" \
        "smmla z18.s, z29.b, z26.b\n" \
        "smmla z19.s, z29.b, z27.b\n" \
        "ld1rqb {z28.b}, p0/z, [" LW ", x11]\n" \
        "ld1rqb {z29.b}, p0/z, [" LW ", x12]\n" \
        "smmla z16.s, z30.b, z24.b\n" \
        "smmla z17.s, z30.b, z25.b\n" \
        "smmla z18.s, z31.b, z24.b\n" \
        "smmla z19.s, z31.b, z25.b\n" \
        "ld1rqb {z30.b}, p0/z, [" LW ", x15]\n" \
        "ld1rqb {z31.b}, p0/z, [" LW ", x16]\n" \
        "smmla z20.s, z28.b, z26.b\n" \
        "smmla z21.s, z28.b, z27.b\n" \
        "smmla z22.s, z29.b, z26.b\n" \
        "smmla z23.s, z29.b, z27.b\n" \
        "smmla z20.s, z30.b, z24.b\n" \
        "smmla z21.s, z30.b, z25.b\n" \
        "smmla z22.s, z31.b, z24.b\n" \
        "smmla z23.s, z31.b, z25.b\n" \
        /* Scaling: d (8 f16 column scales), a (4 + 4 f16 row scales, one gather), widened, then */ \
        /* laid out in the accumulators' lane order. */ \
        "ld1h {z24.s}, p2/z, [" RW ", x6, lsl #1]\n" \
        "ld1h {z25.s}, p2/z, [" LW ", " G ".s, sxtw]\n" \
        "fcvt z24.s, p2/m, z24.h\n" \
        "fcvt z25.s, p2/m, z25.h\n" \
        "tbl z26.s, {z24.s}, " ID0 ".s\n" \
        "tbl z27.s, {z24.s}, " ID1 ".s\n" \
        "tbl z28.s, {z25.s}, " IA01 ".s\n" \
        "tbl z29.s, {z25.s}, " IA23 ".s\n" \
        "tbl z30.s, {z25.s}, " IA45 ".s\n" \
        "tbl z31.s, {z25.s}, " IA67 ".s\n" \
        "fmul z24.s, z28.s, z26.s\n" \
        "fmul z25.s, z28.s, z27.s\n" \
        "scvtf z16.s, p0/m, z16.s\n" \
        "scvtf z17.s, p0/m, z17.s\n" \
        "fmla " F0 ".s, p0/m, z16.s, z24.s\n" \
        "fmla " F1 ".s, p0/m, z17.s, z25.s\n" \
        "fmul z24.s, z29.s, z26.s\n" \
        "fmul z25.s, z29.s, z27.s\n" \
        "scvtf z18.s, p0/m, z18.s\n" \
        "scvtf z19.s, p0/m, z19.s\n" \
        "fmla " F2 ".s, p0/m, z18.s, z24.s\n" \
        "fmla " F3 ".s, p0/m, z19.s, z25.s\n" \
        "fmul z24.s, z30.s, z26.s\n" \
        "fmul z25.s, z30.s, z27.s\n" \
        "scvtf z20.s, p0/m, z20.s\n" \
        "scvtf z21.s, p0/m, z21.s\n" \
        "fmla " F4 ".s, p0/m, z20.s, z24.s\n" \
        "fmla " F5 ".s, p0/m, z21.s, z25.s\n" \
        "fmul z24.s, z31.s, z26.s\n" \
        "fmul z25.s, z31.s, z27.s\n" \
        "scvtf z22.s, p0/m, z22.s\n" \
        "scvtf z23.s, p0/m, z23.s\n" \
        "fmla " F6 ".s, p0/m, z22.s, z24.s\n" \
        "fmla " F7 ".s, p0/m, z23.s, z25.s\n" \
        "mov z16.s, #0\n" \
        "mov z17.s, #0\n" \
        "mov z18.s, #0\n" \
        "mov z19.s, #0\n" \
        "mov z20.s, #0\n" \
        "mov z21.s, #0\n" \
        "mov z22.s, #0\n" \
        "mov z23.s, #0\n"

// Byte offsets, from the first LHS block's data, of the 4 f16 scales of each 4-row block (the
// second block's get the distance s1 added), and the TBL indices of rows 4-5 / 6-7 in that vector.
static const int32_t kai_gather_offsets[8] = {-8, -6, -4, -2, -8, -6, -4, -2};
static const uint32_t kai_idx_rows4567[2][8] = {{4, 4, 5, 5, 4, 4, 5, 5}, {6, 6, 7, 7, 6, 6, 7, 7}};

static inline __attribute__((always_inline)) void block_loop_bl32_asm(
    const uint8_t* l0, const uint8_t* r, size_t nb, size_t s1, svint32_t gofs, svuint32_t idx_a01, svuint32_t idx_a23,
    svuint32_t idx_a45, svuint32_t idx_a67, svuint32_t idx_d0123, svuint32_t idx_d4567, svfloat32_t* f01_0123,
    svfloat32_t* f01_4567, svfloat32_t* f23_0123, svfloat32_t* f23_4567, svfloat32_t* f45_0123, svfloat32_t* f45_4567,
    svfloat32_t* f67_0123, svfloat32_t* f67_4567) {
    svfloat32_t a0 = *f01_0123, a1 = *f01_4567, a2 = *f23_0123, a3 = *f23_4567;
    svfloat32_t a4 = *f45_0123, a5 = *f45_4567, a6 = *f67_0123, a7 = *f67_4567;
    __asm__ volatile(
        "ptrue p0.b\n"
        "ptrue p1.b, vl32\n"
        "ptrue p2.s, vl8\n"
        "add x9, %x[s1], #0\n"
        "add x10, %x[s1], #16\n"
        "add x11, %x[s1], #32\n"
        "add x12, %x[s1], #48\n"
        "add x13, %x[s1], #64\n"
        "add x14, %x[s1], #80\n"
        "add x15, %x[s1], #96\n"
        "add x16, %x[s1], #112\n"
        "mov x17, #32\n"
        "mov x8, #64\n"
        "mov x7, #96\n"
        "mov x6, #-8\n"
        "mov z16.s, #0\n"
        "mov z17.s, #0\n"
        "mov z18.s, #0\n"
        "mov z19.s, #0\n"
        "mov z20.s, #0\n"
        "mov z21.s, #0\n"
        "mov z22.s, #0\n"
        "mov z23.s, #0\n"
        // Two blocks per iteration; an odd count enters at the second one.
        "tbz %x[nb], #0, 2f\n"
        "add %x[nb], %x[nb], #1\n"
        "b 3f\n"
        "2:\n"
        KAI_SVE16X8_BLOCK("%x[l0]", "%x[r]", "%[a0]", "%[a1]", "%[a2]", "%[a3]", "%[a4]", "%[a5]", "%[a6]", "%[a7]",
                          "%[gofs]", "%[idx_a01]", "%[idx_a23]", "%[idx_a45]", "%[idx_a67]", "%[idx_d0123]",
                          "%[idx_d4567]")
        "add %x[l0], %x[l0], #136\n"
        "add %x[r], %x[r], #144\n"
        "3:\n"
        KAI_SVE16X8_BLOCK("%x[l0]", "%x[r]", "%[a0]", "%[a1]", "%[a2]", "%[a3]", "%[a4]", "%[a5]", "%[a6]", "%[a7]",
                          "%[gofs]", "%[idx_a01]", "%[idx_a23]", "%[idx_a45]", "%[idx_a67]", "%[idx_d0123]",
                          "%[idx_d4567]")
        "add %x[l0], %x[l0], #136\n"
        "add %x[r], %x[r], #144\n"
        "subs %x[nb], %x[nb], #2\n"
        "b.gt 2b\n"
        : [l0] "+r"(l0), [r] "+r"(r), [nb] "+r"(nb), [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3),
          [a4] "+w"(a4), [a5] "+w"(a5), [a6] "+w"(a6), [a7] "+w"(a7)
        : [s1] "r"(s1), [gofs] "w"(gofs), [idx_a01] "w"(idx_a01), [idx_a23] "w"(idx_a23), [idx_a45] "w"(idx_a45),
          [idx_a67] "w"(idx_a67), [idx_d0123] "w"(idx_d0123), [idx_d4567] "w"(idx_d4567)
        : "cc", "memory", "p0", "p1", "p2", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30",
          "z31");
    *f01_0123 = a0, *f01_4567 = a1, *f23_0123 = a2, *f23_4567 = a3;
    *f45_0123 = a4, *f45_4567 = a5, *f67_0123 = a6, *f67_4567 = a7;
}

// The constants of pass_bl32_asm, one 8-word vector each: the TBL indices of the row scales of
// rows 0-1, 2-3, 4-5, 6-7 and of the column scales of columns 0-3, 4-7 (lane order of the
// accumulators), the gather offsets (s1 still to add to lanes 4-7) and, as doublewords, the
// row-major order of an accumulator for the store.
static const uint32_t kai_pass_consts[8][8] = {
    {0, 0, 1, 1, 0, 0, 1, 1}, {2, 2, 3, 3, 2, 2, 3, 3}, {4, 4, 5, 5, 4, 4, 5, 5}, {6, 6, 7, 7, 6, 6, 7, 7},
    {0, 1, 0, 1, 2, 3, 2, 3}, {4, 5, 4, 5, 6, 7, 6, 7}, {(uint32_t)-8, (uint32_t)-6, (uint32_t)-4, (uint32_t)-2,
    (uint32_t)-8, (uint32_t)-6, (uint32_t)-4, (uint32_t)-2}, {0, 0, 2, 0, 1, 0, 3, 0},
};

// ntiles >= 1 full 8 x 8 tiles of one 8-row pass, all in assembly: compiled around the block loop
// alone, GCC spilled the constants and re-loaded them for every tile (about 160 instructions per
// tile outside the block loop, 5 % at k = 1024); here a tile costs about 75 beyond its blocks. Per
// tile: zero the f32 accumulators, run the blocks (the block loop of block_loop_bl32_asm, the same
// instructions), scale by 1/16, clamp (FMAX then FMIN, as store2x4), TBL to row-major order and
// store as store2x8 does. l0: the pass's first LHS block's data; r: the first tile's RHS data;
// rhs_stride: bytes between the tiles' RHS; dst: the first tile's output. Register map as
// block_loop_bl32_asm, plus z0-z7 the f32 accumulators, z8-z13 the TBL indices, z14 the gather
// offsets, z15 the store order, z24-z26 1/16, min and max; x0-x5 by the compiler (operands).
static inline __attribute__((always_inline)) void pass_bl32_asm(
    const uint8_t* l0, const uint8_t* r, size_t rhs_stride, size_t ntiles, size_t nb, size_t s1, float* dst,
    size_t dst_stride, float scalar_min, float scalar_max) {
    uint32_t min_bits, max_bits;
    memcpy(&min_bits, &scalar_min, sizeof(min_bits));
    memcpy(&max_bits, &scalar_max, sizeof(max_bits));
    const uint8_t* lw;
    const uint8_t* rw;
    size_t cnt;
    uint8_t* dp;
    __asm__ volatile(
        "ptrue p0.b\n"
        "ptrue p1.b, vl32\n"
        "ptrue p2.s, vl8\n"
        "ptrue p3.s, vl4\n"
        "bic p4.b, p2/z, p2.b, p3.b\n"
        "mov %x[lw], %x[consts]\n"
        "ld1w {z8.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z9.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z10.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z11.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z12.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z13.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z14.s}, p2/z, [%x[lw]]\n"
        "add %x[lw], %x[lw], #32\n"
        "ld1w {z15.s}, p2/z, [%x[lw]]\n"
        "dup z24.s, %w[s1]\n"
        "add z14.s, p4/m, z14.s, z24.s\n"
        "add x9, %x[s1], #0\n"
        "add x10, %x[s1], #16\n"
        "add x11, %x[s1], #32\n"
        "add x12, %x[s1], #48\n"
        "add x13, %x[s1], #64\n"
        "add x14, %x[s1], #80\n"
        "add x15, %x[s1], #96\n"
        "add x16, %x[s1], #112\n"
        "mov x17, #32\n"
        "mov x8, #64\n"
        "mov x7, #96\n"
        "mov x6, #-8\n"
        "mov z16.s, #0\n"
        "mov z17.s, #0\n"
        "mov z18.s, #0\n"
        "mov z19.s, #0\n"
        "mov z20.s, #0\n"
        "mov z21.s, #0\n"
        "mov z22.s, #0\n"
        "mov z23.s, #0\n"
        "5:\n"
        "mov %x[lw], %x[l0]\n"
        "mov %x[rw], %x[r]\n"
        "mov %x[cnt], %x[nb]\n"
        "mov z0.s, #0\n"
        "mov z1.s, #0\n"
        "mov z2.s, #0\n"
        "mov z3.s, #0\n"
        "mov z4.s, #0\n"
        "mov z5.s, #0\n"
        "mov z6.s, #0\n"
        "mov z7.s, #0\n"
        // Two blocks per iteration; an odd count enters at the second one. The int32
        // accumulators z16-z23 are zero here (each block leaves them so).
        "tbz %x[cnt], #0, 2f\n"
        "add %x[cnt], %x[cnt], #1\n"
        "b 3f\n"
        "2:\n"
        KAI_SVE16X8_BLOCK("%x[lw]", "%x[rw]", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z14", "z8", "z9", "z10",
                          "z11", "z12", "z13")
        "add %x[lw], %x[lw], #136\n"
        "add %x[rw], %x[rw], #144\n"
        "3:\n"
        KAI_SVE16X8_BLOCK("%x[lw]", "%x[rw]", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z14", "z8", "z9", "z10",
                          "z11", "z12", "z13")
        "add %x[lw], %x[lw], #136\n"
        "add %x[rw], %x[rw], #144\n"
        "subs %x[cnt], %x[cnt], #2\n"
        "b.gt 2b\n"
        // 16 * acc back to acc, clamp, row-major order, store.
        "mov w6, #0x3d800000\n"
        "dup z24.s, w6\n"
        "mov x6, #-8\n"
        "dup z25.s, %w[vmin]\n"
        "dup z26.s, %w[vmax]\n"
        "fmul z0.s, z0.s, z24.s\n"
        "fmul z1.s, z1.s, z24.s\n"
        "fmul z2.s, z2.s, z24.s\n"
        "fmul z3.s, z3.s, z24.s\n"
        "fmul z4.s, z4.s, z24.s\n"
        "fmul z5.s, z5.s, z24.s\n"
        "fmul z6.s, z6.s, z24.s\n"
        "fmul z7.s, z7.s, z24.s\n"
        "fmax z0.s, p0/m, z0.s, z25.s\n"
        "fmax z1.s, p0/m, z1.s, z25.s\n"
        "fmax z2.s, p0/m, z2.s, z25.s\n"
        "fmax z3.s, p0/m, z3.s, z25.s\n"
        "fmax z4.s, p0/m, z4.s, z25.s\n"
        "fmax z5.s, p0/m, z5.s, z25.s\n"
        "fmax z6.s, p0/m, z6.s, z25.s\n"
        "fmax z7.s, p0/m, z7.s, z25.s\n"
        "fmin z0.s, p0/m, z0.s, z26.s\n"
        "fmin z1.s, p0/m, z1.s, z26.s\n"
        "fmin z2.s, p0/m, z2.s, z26.s\n"
        "fmin z3.s, p0/m, z3.s, z26.s\n"
        "fmin z4.s, p0/m, z4.s, z26.s\n"
        "fmin z5.s, p0/m, z5.s, z26.s\n"
        "fmin z6.s, p0/m, z6.s, z26.s\n"
        "fmin z7.s, p0/m, z7.s, z26.s\n"
        "tbl z24.d, {z0.d}, z15.d\n"
        "tbl z25.d, {z1.d}, z15.d\n"
        "tbl z26.d, {z2.d}, z15.d\n"
        "tbl z27.d, {z3.d}, z15.d\n"
        "tbl z28.d, {z4.d}, z15.d\n"
        "tbl z29.d, {z5.d}, z15.d\n"
        "tbl z30.d, {z6.d}, z15.d\n"
        "tbl z31.d, {z7.d}, z15.d\n"
        // Row 2i from lanes 0-3 (columns 0-3, and 4-7 at x7 = 4 floats on); row 2i + 1 from lanes
        // 4-7, columns 0-3 based x8 = -4 floats lower (x7, x8 get their block-loop values back).
        "mov x7, #4\n"
        "mov x8, #-4\n"
        "mov %x[dp], %x[dst]\n"
        "st1w {z24.s}, p3, [%x[dp]]\n"
        "st1w {z25.s}, p3, [%x[dp], x7, lsl #2]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z24.s}, p4, [%x[dp], x8, lsl #2]\n"
        "st1w {z25.s}, p4, [%x[dp]]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z26.s}, p3, [%x[dp]]\n"
        "st1w {z27.s}, p3, [%x[dp], x7, lsl #2]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z26.s}, p4, [%x[dp], x8, lsl #2]\n"
        "st1w {z27.s}, p4, [%x[dp]]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z28.s}, p3, [%x[dp]]\n"
        "st1w {z29.s}, p3, [%x[dp], x7, lsl #2]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z28.s}, p4, [%x[dp], x8, lsl #2]\n"
        "st1w {z29.s}, p4, [%x[dp]]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z30.s}, p3, [%x[dp]]\n"
        "st1w {z31.s}, p3, [%x[dp], x7, lsl #2]\n"
        "add %x[dp], %x[dp], %x[stride]\n"
        "st1w {z30.s}, p4, [%x[dp], x8, lsl #2]\n"
        "st1w {z31.s}, p4, [%x[dp]]\n"
        "mov x7, #96\n"
        "mov x8, #64\n"
        "mov z16.s, #0\n"
        "mov z17.s, #0\n"
        "mov z18.s, #0\n"
        "mov z19.s, #0\n"
        "mov z20.s, #0\n"
        "mov z21.s, #0\n"
        "mov z22.s, #0\n"
        "mov z23.s, #0\n"
        "add %x[r], %x[r], %x[rhs_stride]\n"
        "add %x[dst], %x[dst], #32\n"
        "subs %x[ntiles], %x[ntiles], #1\n"
        "b.ne 5b\n"
        : [r] "+r"(r), [dst] "+r"(dst), [ntiles] "+r"(ntiles), [lw] "=&r"(lw), [rw] "=&r"(rw), [cnt] "=&r"(cnt),
          [dp] "=&r"(dp)
        : [l0] "r"(l0), [nb] "r"(nb), [s1] "r"(s1), [rhs_stride] "r"(rhs_stride), [stride] "r"(dst_stride),
          [vmin] "r"(min_bits), [vmax] "r"(max_bits), [consts] "r"(kai_pass_consts)
        : "cc", "memory", "p0", "p1", "p2", "p3", "p4", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15",
          "x16", "x17", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14",
          "z15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30",
          "z31");
}
#endif

// Clamps and stores rows r, r + 1 x 8 columns from their two accumulators (columns 0-3, 4-7).
// Row 1 leaves through lanes 4-7 of the row-major vectors, so its base is 4 floats lower (still
// inside the output: with 8 columns the row stride is at least 8 floats).
static inline __attribute__((always_inline)) void store2x8(
    float* dst, size_t dst_stride, svfloat32_t lo4, svfloat32_t hi4, svfloat32_t vmin, svfloat32_t vmax,
    svuint64_t rows_idx, svbool_t p_lo4, svbool_t p_hi4) {
    const svbool_t pw = svptrue_pat_b32(SV_VL8);
    const svfloat32_t ylo = svmin_f32_x(pw, svmax_f32_x(pw, lo4, vmin), vmax);
    const svfloat32_t yhi = svmin_f32_x(pw, svmax_f32_x(pw, hi4, vmin), vmax);
    const svfloat32_t rlo = svreinterpret_f32_u64(svtbl_u64(svreinterpret_u64_f32(ylo), rows_idx));
    const svfloat32_t rhi = svreinterpret_f32_u64(svtbl_u64(svreinterpret_u64_f32(yhi), rows_idx));
    svst1_f32(p_lo4, dst, rlo);
    svst1_f32(p_lo4, dst + 4, rhi);
    float* dst1 = (float*)(void*)((uint8_t*)dst + dst_stride);
    svst1_f32(p_hi4, dst1 - 4, rlo);
    svst1_f32(p_hi4, dst1, rhi);
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
#if defined(KAI_SVE16X8_ASM)
    // The gather offsets of block_loop_bl32_asm are 32-bit: a larger distance between the two LHS
    // blocks (k beyond about 2^31 / 4.25) takes the intrinsics loop.
    const size_t s1 = (size_t)(lhs1 - lhs0);
    if (bl == 32 && nb > 0 && s1 <= (size_t)INT32_MAX - 8) {
        const svbool_t p_hi4 = svbic_b_z(pw, pw, svptrue_pat_b32(SV_VL4));
        const svint32_t gofs = svadd_n_s32_m(p_hi4, svld1_s32(pw, kai_gather_offsets), (int32_t)s1);
        const svuint32_t idx_a45 = svld1_u32(pw, kai_idx_rows4567[0]);
        const svuint32_t idx_a67 = svld1_u32(pw, kai_idx_rows4567[1]);
        block_loop_bl32_asm(lhs0 + 2 * kai_mr, rhs + 2 * kai_nr, nb, s1, gofs, idx_a_r01, idx_a_r23, idx_a45, idx_a67,
                            idx_d_c0123, idx_d_c4567, &f_r01_c0123, &f_r01_c4567, &f_r23_c0123, &f_r23_c4567,
                            &f_r45_c0123, &f_r45_c4567, &f_r67_c0123, &f_r67_c4567);
        // The accumulators hold 16 * acc (see block_loop_bl32_asm): exact back-scaling.
        const svbool_t all = svptrue_b32();
        f_r01_c0123 = svmul_n_f32_x(all, f_r01_c0123, 0.0625f);
        f_r01_c4567 = svmul_n_f32_x(all, f_r01_c4567, 0.0625f);
        f_r23_c0123 = svmul_n_f32_x(all, f_r23_c0123, 0.0625f);
        f_r23_c4567 = svmul_n_f32_x(all, f_r23_c4567, 0.0625f);
        f_r45_c0123 = svmul_n_f32_x(all, f_r45_c0123, 0.0625f);
        f_r45_c4567 = svmul_n_f32_x(all, f_r45_c4567, 0.0625f);
        f_r67_c0123 = svmul_n_f32_x(all, f_r67_c0123, 0.0625f);
        f_r67_c4567 = svmul_n_f32_x(all, f_r67_c4567, 0.0625f);
        nb = 0;  // the loop below has nothing left to do
    }
#endif
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
    if (rows == 8 && cols == 8) {
        // Full tile: no per-row decisions, and row 1 of each store2x4 goes out through the upper
        // 4 lanes (no EXT).
        const svbool_t p_lo4 = svptrue_pat_b32(SV_VL4);
        const svbool_t p_hi4 = svbic_b_z(pw, pw, p_lo4);
        uint8_t* d = (uint8_t*)dst;
        const size_t s = dst_stride;
        store2x8((float*)(void*)d, s, f_r01_c0123, f_r01_c4567, vmin, vmax, idx_rows, p_lo4, p_hi4);
        store2x8((float*)(void*)(d + 2 * s), s, f_r23_c0123, f_r23_c4567, vmin, vmax, idx_rows, p_lo4, p_hi4);
        store2x8((float*)(void*)(d + 4 * s), s, f_r45_c0123, f_r45_c4567, vmin, vmax, idx_rows, p_lo4, p_hi4);
        store2x8((float*)(void*)(d + 6 * s), s, f_r67_c0123, f_r67_c4567, vmin, vmax, idx_rows, p_lo4, p_hi4);
        return;
    }
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
    size_t dst_stride_row, float scalar_min, float scalar_max) {
    const svfloat32_t vmin = svdup_n_f32(scalar_min);
    const svfloat32_t vmax = svdup_n_f32(scalar_max);
    const size_t lhs_stride = nb * kai_mr * (bl + 2);
    const size_t rhs_stride = kai_nr * nb * (bl / 2 + 2);
    for (size_t m0 = 0; m0 < m; m0 += 8) {
        const size_t rows = KAI_MIN(m - m0, 8);
        const uint8_t* lhs0 = lhs_packed + (m0 / kai_mr) * lhs_stride;
        const uint8_t* lhs1 = rows > 4 ? lhs0 + lhs_stride : lhs0;
        float* dst_row = (float*)(void*)((uint8_t*)dst + m0 * dst_stride_row);
        size_t n_done = 0;
#if defined(KAI_SVE16X8_ASM)
        // The full 8 x 8 tiles of a full 8-row pass (the gather's offsets are 32-bit).
        if (bl == 32 && rows == 8 && n >= kai_nr && nb > 0 && lhs_stride <= (size_t)INT32_MAX - 8) {
            n_done = n - n % kai_nr;
            pass_bl32_asm(lhs0 + 2 * kai_mr, rhs_packed + 2 * kai_nr, rhs_stride, n / kai_nr, nb, lhs_stride, dst_row,
                          dst_stride_row, scalar_min, scalar_max);
        }
#endif
        for (size_t n0 = n_done; n0 < n; n0 += kai_nr) {
            tile(lhs0, lhs1, rhs_packed + (n0 / kai_nr) * rhs_stride, nb, bl, dst_row + n0, dst_stride_row, rows,
                 KAI_MIN(n - n0, kai_nr), vmin, vmax);
        }
    }
}

static __attribute__((noinline)) void sve16x8_tiles_bl32(
    size_t m, size_t n, size_t nb, const uint8_t* lhs_packed, const uint8_t* rhs_packed, float* dst,
    size_t dst_stride_row, float scalar_min, float scalar_max) {
    tiles(m, n, nb, 32, lhs_packed, rhs_packed, dst, dst_stride_row, scalar_min, scalar_max);
}

static __attribute__((noinline)) void sve16x8_tiles_any_bl(
    size_t m, size_t n, size_t nb, size_t bl, const uint8_t* lhs_packed, const uint8_t* rhs_packed, float* dst,
    size_t dst_stride_row, float scalar_min, float scalar_max) {
    tiles(m, n, nb, bl, lhs_packed, rhs_packed, dst, dst_stride_row, scalar_min, scalar_max);
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
    if (bl == 32) {
        sve16x8_tiles_bl32(m, n, nb, (const uint8_t*)lhs_packed, (const uint8_t*)rhs_packed, dst, dst_stride_row,
                           scalar_min, scalar_max);
    } else {
        sve16x8_tiles_any_bl(m, n, nb, bl, (const uint8_t*)lhs_packed, (const uint8_t*)rhs_packed, dst, dst_stride_row,
                             scalar_min, scalar_max);
    }
}
