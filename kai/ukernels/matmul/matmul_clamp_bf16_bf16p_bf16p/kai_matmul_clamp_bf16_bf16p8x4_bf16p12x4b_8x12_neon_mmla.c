//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
#error "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla needs AArch64 with FEAT_BF16"
#endif

// Operation: dst[i][j] = bf16(max(min(bias[j] + sum_{k < Kp} A[i][k] * B[k][j], scalar_max),
// scalar_min)) for 0 <= i < m, 0 <= j < n, with bf16 A and B, f32 accumulation (BFMMLA),
// Kp = roundup(k, 4) (the packers zero the LHS K padding), and bf16() rounding to nearest even
// (BFCVTN). The clamp is applied in f32, before the rounding. The bf16-output twin of
// kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla: same loop, different epilogue.
//
// Packed layout (docs/matmul_bf16.md): the LHS is a sequence of 8-row blocks of 16 * Kp bytes;
// for each group of 4 k values a block holds 8 rows x 4 bf16 (64 bytes, rows 0-1 in the first
// 16 bytes). The RHS is a sequence of 12-column blocks of 48 + 24 * Kp bytes: 12 f32 bias values,
// then for each group of 4 k values 12 columns x 4 bf16 (96 bytes, columns 0-1 in the first 16).
//
// Tile: 8 rows x 12 columns. A 16-byte LHS vector holds rows (2r, 2r+1) x 4 k, an RHS vector
// columns (2c, 2c+1) x 4 k; BFMMLA of the two adds their 2x2 product to the accumulator
// acc_r{2r}{2r+1}_c{2c}{2c+1} = [row 2r col 2c, row 2r col 2c+1, row 2r+1 col 2c, row 2r+1 col 2c+1].
// 24 accumulators (4 row pairs x 6 column pairs) use 24 of the 32 vector registers. At the end
// BFCVTN/BFCVTN2 narrow two accumulators into one vector of 32-bit lanes each holding a bf16 pair
// [r0 c01, r1 c01, r0 c23, r1 c23]; UZP1/UZP2 on 32-bit lanes then separate the two rows.
// The RHS block loop is outside the LHS block loop so that the bias of a column block is
// rearranged once, into a small table the tiles load their initial accumulators from.

#include "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_bf16_bf16p_bf16p_interface.h"

static const size_t kai_m_step = 8;
static const size_t kai_n_step = 12;
static const size_t kai_mr = 8;
static const size_t kai_nr = 12;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

// Bytes of one packed LHS block (mr rows) and one packed RHS block (nr columns with bias).
static size_t kai_lhs_block_bytes(size_t k) {
    return kai_mul_size_checked(kai_mul_size_checked(kai_roundup(k, kai_kr), kai_mr), sizeof(uint16_t));
}

static size_t kai_rhs_block_bytes(size_t k) {
    const size_t data = kai_mul_size_checked(kai_mul_size_checked(kai_roundup(k, kai_kr), kai_nr), sizeof(uint16_t));
    return kai_add_size_checked(data, kai_nr * sizeof(float));
}

size_t kai_get_m_step_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr (8)");
    return kai_mul_size_checked(m_idx / kai_mr, kai_lhs_block_bytes(k));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (12)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_bytes(k));
}

size_t kai_get_dst_offset_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (8)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (12)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(uint16_t)));
}

size_t kai_get_dst_size_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(uint16_t));
}

// Computes m_tiles full 8 x 12 tiles of one 12-column RHS block (LHS rows [0, 8 m_tiles)) and
// stores them at dst (row stride dst_stride bytes). Ragged tiles come here with dst = a scratch
// tile. Inlined into two functions, one per value of clamp_needed, so that neither has a branch
// on it.
//
// bias_table holds the 24 initial accumulators [b2c, b2c+1, b2c, b2c+1] (column pair c, repeated
// for the four row pairs). They are reloaded with plain loads at the end of every tile, in the
// same straight-line code as the stores of the tile: loads use the load pipes, while register
// copies of 6 bias vectors would take 18 vector-pipe slots, which the BFMMLA loop fills.
// The caller is not inlined, so that the compiler cannot forward the stores to the table into
// these loads and turn them back into copies.
//
// clamp_needed == 0 means both bounds round to infinities in bf16 (-FLT_MAX and FLT_MAX do): the
// clamp then cannot change any bf16 result (rounding is monotonic), so it is skipped.
__attribute__((always_inline)) static inline void kai_column_block(
    const uint8_t* lhs, const uint8_t* rhs_data, const float* bias_table, size_t k_chunks,
    size_t m_tiles, uint8_t* dst, size_t dst_stride, const float* bounds, const int clamp_needed) {
    float32x4_t acc_r01_c01;
    float32x4_t acc_r01_c23;
    float32x4_t acc_r01_c45;
    float32x4_t acc_r01_c67;
    float32x4_t acc_r01_c89;
    float32x4_t acc_r01_cab;
    float32x4_t acc_r23_c01;
    float32x4_t acc_r23_c23;
    float32x4_t acc_r23_c45;
    float32x4_t acc_r23_c67;
    float32x4_t acc_r23_c89;
    float32x4_t acc_r23_cab;
    float32x4_t acc_r45_c01;
    float32x4_t acc_r45_c23;
    float32x4_t acc_r45_c45;
    float32x4_t acc_r45_c67;
    float32x4_t acc_r45_c89;
    float32x4_t acc_r45_cab;
    float32x4_t acc_r67_c01;
    float32x4_t acc_r67_c23;
    float32x4_t acc_r67_c45;
    float32x4_t acc_r67_c67;
    float32x4_t acc_r67_c89;
    float32x4_t acc_r67_cab;

#define KAI_LOAD_BIAS() \
    acc_r01_c01 = vld1q_f32(bias_table + 0); \
    acc_r01_c23 = vld1q_f32(bias_table + 4); \
    acc_r01_c45 = vld1q_f32(bias_table + 8); \
    acc_r01_c67 = vld1q_f32(bias_table + 12); \
    acc_r01_c89 = vld1q_f32(bias_table + 16); \
    acc_r01_cab = vld1q_f32(bias_table + 20); \
    acc_r23_c01 = vld1q_f32(bias_table + 24); \
    acc_r23_c23 = vld1q_f32(bias_table + 28); \
    acc_r23_c45 = vld1q_f32(bias_table + 32); \
    acc_r23_c67 = vld1q_f32(bias_table + 36); \
    acc_r23_c89 = vld1q_f32(bias_table + 40); \
    acc_r23_cab = vld1q_f32(bias_table + 44); \
    acc_r45_c01 = vld1q_f32(bias_table + 48); \
    acc_r45_c23 = vld1q_f32(bias_table + 52); \
    acc_r45_c45 = vld1q_f32(bias_table + 56); \
    acc_r45_c67 = vld1q_f32(bias_table + 60); \
    acc_r45_c89 = vld1q_f32(bias_table + 64); \
    acc_r45_cab = vld1q_f32(bias_table + 68); \
    acc_r67_c01 = vld1q_f32(bias_table + 72); \
    acc_r67_c23 = vld1q_f32(bias_table + 76); \
    acc_r67_c45 = vld1q_f32(bias_table + 80); \
    acc_r67_c67 = vld1q_f32(bias_table + 84); \
    acc_r67_c89 = vld1q_f32(bias_table + 88); \
    acc_r67_cab = vld1q_f32(bias_table + 92);

    if (m_tiles == 0) {
        return;
    }
    KAI_LOAD_BIAS();
    // The LHS blocks are consecutive: a_ptr runs through all of them. k_chunks >= 1 and
    // m_tiles >= 1, so both loops are do-while loops (no entry test in the tile loop).
    const bfloat16_t* a_ptr = (const bfloat16_t*)(const void*)lhs;
    uint8_t* dst_block = dst;
    const size_t out_stride = dst_stride;
    size_t tiles_left = m_tiles;
    do {
        uint8_t* row = dst_block;
        const bfloat16_t* b_ptr = (const bfloat16_t*)(const void*)rhs_data;

        size_t groups_left = k_chunks;
        do {
            const bfloat16x8_t a_r01 = vld1q_bf16(a_ptr + 0);
            const bfloat16x8_t a_r23 = vld1q_bf16(a_ptr + 8);
            const bfloat16x8_t a_r45 = vld1q_bf16(a_ptr + 16);
            const bfloat16x8_t a_r67 = vld1q_bf16(a_ptr + 24);
            a_ptr += 32;
            const bfloat16x8_t b_c01 = vld1q_bf16(b_ptr + 0);
            acc_r01_c01 = vbfmmlaq_f32(acc_r01_c01, a_r01, b_c01);
            acc_r23_c01 = vbfmmlaq_f32(acc_r23_c01, a_r23, b_c01);
            acc_r45_c01 = vbfmmlaq_f32(acc_r45_c01, a_r45, b_c01);
            acc_r67_c01 = vbfmmlaq_f32(acc_r67_c01, a_r67, b_c01);
            const bfloat16x8_t b_c23 = vld1q_bf16(b_ptr + 8);
            acc_r01_c23 = vbfmmlaq_f32(acc_r01_c23, a_r01, b_c23);
            acc_r23_c23 = vbfmmlaq_f32(acc_r23_c23, a_r23, b_c23);
            acc_r45_c23 = vbfmmlaq_f32(acc_r45_c23, a_r45, b_c23);
            acc_r67_c23 = vbfmmlaq_f32(acc_r67_c23, a_r67, b_c23);
            const bfloat16x8_t b_c45 = vld1q_bf16(b_ptr + 16);
            acc_r01_c45 = vbfmmlaq_f32(acc_r01_c45, a_r01, b_c45);
            acc_r23_c45 = vbfmmlaq_f32(acc_r23_c45, a_r23, b_c45);
            acc_r45_c45 = vbfmmlaq_f32(acc_r45_c45, a_r45, b_c45);
            acc_r67_c45 = vbfmmlaq_f32(acc_r67_c45, a_r67, b_c45);
            const bfloat16x8_t b_c67 = vld1q_bf16(b_ptr + 24);
            acc_r01_c67 = vbfmmlaq_f32(acc_r01_c67, a_r01, b_c67);
            acc_r23_c67 = vbfmmlaq_f32(acc_r23_c67, a_r23, b_c67);
            acc_r45_c67 = vbfmmlaq_f32(acc_r45_c67, a_r45, b_c67);
            acc_r67_c67 = vbfmmlaq_f32(acc_r67_c67, a_r67, b_c67);
            const bfloat16x8_t b_c89 = vld1q_bf16(b_ptr + 32);
            acc_r01_c89 = vbfmmlaq_f32(acc_r01_c89, a_r01, b_c89);
            acc_r23_c89 = vbfmmlaq_f32(acc_r23_c89, a_r23, b_c89);
            acc_r45_c89 = vbfmmlaq_f32(acc_r45_c89, a_r45, b_c89);
            acc_r67_c89 = vbfmmlaq_f32(acc_r67_c89, a_r67, b_c89);
            const bfloat16x8_t b_cab = vld1q_bf16(b_ptr + 40);
            acc_r01_cab = vbfmmlaq_f32(acc_r01_cab, a_r01, b_cab);
            acc_r23_cab = vbfmmlaq_f32(acc_r23_cab, a_r23, b_cab);
            acc_r45_cab = vbfmmlaq_f32(acc_r45_cab, a_r45, b_cab);
            acc_r67_cab = vbfmmlaq_f32(acc_r67_cab, a_r67, b_cab);
            b_ptr += 48;
        } while (--groups_left != 0);

        if (clamp_needed) {
            // The bounds are loaded only now: kept in registers through the loop they would push
            // accumulators out to the stack.
            const float32x4_t vmin = vld1q_dup_f32(bounds + 0);
            const float32x4_t vmax = vld1q_dup_f32(bounds + 1);
#define KAI_CLAMP(v) v = vmaxq_f32(vminq_f32(v, vmax), vmin)
            KAI_CLAMP(acc_r01_c01);
            KAI_CLAMP(acc_r01_c23);
            KAI_CLAMP(acc_r01_c45);
            KAI_CLAMP(acc_r01_c67);
            KAI_CLAMP(acc_r01_c89);
            KAI_CLAMP(acc_r01_cab);
            KAI_CLAMP(acc_r23_c01);
            KAI_CLAMP(acc_r23_c23);
            KAI_CLAMP(acc_r23_c45);
            KAI_CLAMP(acc_r23_c67);
            KAI_CLAMP(acc_r23_c89);
            KAI_CLAMP(acc_r23_cab);
            KAI_CLAMP(acc_r45_c01);
            KAI_CLAMP(acc_r45_c23);
            KAI_CLAMP(acc_r45_c45);
            KAI_CLAMP(acc_r45_c67);
            KAI_CLAMP(acc_r45_c89);
            KAI_CLAMP(acc_r45_cab);
            KAI_CLAMP(acc_r67_c01);
            KAI_CLAMP(acc_r67_c23);
            KAI_CLAMP(acc_r67_c45);
            KAI_CLAMP(acc_r67_c67);
            KAI_CLAMP(acc_r67_c89);
            KAI_CLAMP(acc_r67_cab);
#undef KAI_CLAMP
        }

        // Narrows two accumulators into [r0 c01, r1 c01, r0 c23, r1 c23] (bf16 pairs as 32-bit lanes).
#define KAI_NARROW(lo, hi) vreinterpretq_u32_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(lo), hi))
        // Columns 0-7 of rows 2r, 2r+1: UZP1/UZP2 of the narrowed column pairs 01|23 and 45|67.
#define KAI_STORE_ROW_PAIR(acc01, acc23, acc45, acc67)                         \
    do {                                                                       \
        const uint32x4_t n0123 = KAI_NARROW(acc01, acc23);                     \
        const uint32x4_t n4567 = KAI_NARROW(acc45, acc67);                     \
        vst1q_u32((uint32_t*)(void*)row, vuzp1q_u32(n0123, n4567));            \
        row += out_stride;                                                     \
        vst1q_u32((uint32_t*)(void*)row, vuzp2q_u32(n0123, n4567));            \
        row += out_stride;                                                     \
    } while (0)
        KAI_STORE_ROW_PAIR(acc_r01_c01, acc_r01_c23, acc_r01_c45, acc_r01_c67);
        KAI_STORE_ROW_PAIR(acc_r23_c01, acc_r23_c23, acc_r23_c45, acc_r23_c67);
        KAI_STORE_ROW_PAIR(acc_r45_c01, acc_r45_c23, acc_r45_c45, acc_r45_c67);
        KAI_STORE_ROW_PAIR(acc_r67_c01, acc_r67_c23, acc_r67_c45, acc_r67_c67);
#undef KAI_STORE_ROW_PAIR
        // Columns 8-11: narrowing gives [r0 c89, r1 c89, r0 cab, r1 cab] per row pair; UZP1 of two
        // row pairs holds rows 2r and 2r+2, UZP2 rows 2r+1 and 2r+3, one per 64-bit half.
        {
            const uint32x4_t n_r01 = KAI_NARROW(acc_r01_c89, acc_r01_cab);
            const uint32x4_t n_r23 = KAI_NARROW(acc_r23_c89, acc_r23_cab);
            const uint32x4_t n_r45 = KAI_NARROW(acc_r45_c89, acc_r45_cab);
            const uint32x4_t n_r67 = KAI_NARROW(acc_r67_c89, acc_r67_cab);
            const uint32x4_t r02 = vuzp1q_u32(n_r01, n_r23);
            const uint32x4_t r13 = vuzp2q_u32(n_r01, n_r23);
            const uint32x4_t r46 = vuzp1q_u32(n_r45, n_r67);
            const uint32x4_t r57 = vuzp2q_u32(n_r45, n_r67);
            uint8_t* d = dst_block + 8 * sizeof(uint16_t);
            vst1_u32((uint32_t*)(void*)(d + 0 * out_stride), vget_low_u32(r02));
            vst1_u32((uint32_t*)(void*)(d + 1 * out_stride), vget_low_u32(r13));
            vst1_u32((uint32_t*)(void*)(d + 2 * out_stride), vget_high_u32(r02));
            vst1_u32((uint32_t*)(void*)(d + 3 * out_stride), vget_high_u32(r13));
            vst1_u32((uint32_t*)(void*)(d + 4 * out_stride), vget_low_u32(r46));
            vst1_u32((uint32_t*)(void*)(d + 5 * out_stride), vget_low_u32(r57));
            vst1_u32((uint32_t*)(void*)(d + 6 * out_stride), vget_high_u32(r46));
            vst1_u32((uint32_t*)(void*)(d + 7 * out_stride), vget_high_u32(r57));
        }
#undef KAI_NARROW
        KAI_LOAD_BIAS();  // the next tile's accumulators (a harmless reload after the last tile)
        dst_block += kai_m_step * dst_stride;
    } while (--tiles_left != 0);

#undef KAI_LOAD_BIAS
}

// GCC: the pre-register-allocation scheduler hoists the six RHS loads of the K loop to its top,
// which needs 34 vector registers and spills accumulators; it is turned off for the two functions
// holding the loop, so the loads stay where they are written (24 accumulators, 4 LHS and at most
// 4 RHS vectors live).
#if defined(__GNUC__) && !defined(__clang__)
#define KAI_NO_PRE_RA_SCHEDULE __attribute__((optimize("no-schedule-insns")))
#else
#define KAI_NO_PRE_RA_SCHEDULE
#endif

KAI_NO_PRE_RA_SCHEDULE __attribute__((noinline)) static void kai_column_block_clamp(
    const uint8_t* lhs, const uint8_t* rhs_data, const float* bias_table, size_t k_chunks,
    size_t m_tiles, uint8_t* dst, size_t dst_stride, const float* bounds) {
    kai_column_block(lhs, rhs_data, bias_table, k_chunks, m_tiles, dst, dst_stride, bounds, 1);
}

KAI_NO_PRE_RA_SCHEDULE __attribute__((noinline)) static void kai_column_block_noclamp(
    const uint8_t* lhs, const uint8_t* rhs_data, const float* bias_table, size_t k_chunks,
    size_t m_tiles, uint8_t* dst, size_t dst_stride, const float* bounds) {
    kai_column_block(lhs, rhs_data, bias_table, k_chunks, m_tiles, dst, dst_stride, bounds, 0);
}

// Copies the first n (< 12) bf16 values of a scratch row with fixed-size moves (inlined loads and
// stores; a variable-size copy would be a library call per row).
static inline void kai_copy_row(uint8_t* d, const uint8_t* s, size_t n) {
    if (n & 8) {
        memcpy(d, s, 8 * sizeof(uint16_t));
        d += 8 * sizeof(uint16_t);
        s += 8 * sizeof(uint16_t);
    }
    if (n & 4) {
        memcpy(d, s, 4 * sizeof(uint16_t));
        d += 4 * sizeof(uint16_t);
        s += 4 * sizeof(uint16_t);
    }
    if (n & 2) {
        memcpy(d, s, 2 * sizeof(uint16_t));
        d += 2 * sizeof(uint16_t);
        s += 2 * sizeof(uint16_t);
    }
    if (n & 1) {
        memcpy(d, s, sizeof(uint16_t));
    }
}

void kai_run_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(uint16_t), "dst_stride_col must be sizeof(uint16_t)");
    KAI_ASSUME_MSG(dst_stride_row % sizeof(uint16_t) == 0, "dst_stride_row must be a multiple of sizeof(uint16_t)");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");

    if (k == 0) {
        // No products: every output is its clamped bias.
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                float b;
                memcpy(&b, (const uint8_t*)rhs_packed + (j / kai_nr) * kai_rhs_block_bytes(0) + (j % kai_nr) * sizeof(float),
                       sizeof(b));
                b = b < scalar_max ? b : scalar_max;
                b = b > scalar_min ? b : scalar_min;
                const uint16_t o = kai_cast_bf16_f32(b);
                memcpy((uint8_t*)dst + i * dst_stride_row + j * sizeof(uint16_t), &o, sizeof(o));
            }
        }
        return;
    }
    const size_t k_chunks = kai_roundup(k, kai_kr) / kai_kr;
    const size_t lhs_block = kai_lhs_block_bytes(k);
    const size_t rhs_block = kai_rhs_block_bytes(k);
    const float bounds[2] = {scalar_min, scalar_max};
    // Bounds that round to -inf and +inf in bf16 (-FLT_MAX and FLT_MAX do) cannot change a bf16
    // result; NaN bounds keep the clamp.
    const int clamp_needed = !(kai_cast_bf16_f32(scalar_min) == 0xFF80u && kai_cast_bf16_f32(scalar_max) == 0x7F80u);

    float bias_table[4 * 6 * 4];
    for (size_t n0 = 0; n0 < n; n0 += kai_n_step) {
        const uint8_t* rhs_block_ptr = (const uint8_t*)rhs_packed + (n0 / kai_nr) * rhs_block;
        float bias[12];
        memcpy(bias, rhs_block_ptr, sizeof(bias));
        for (size_t rp = 0; rp < 4; ++rp) {
            for (size_t cp = 0; cp < 6; ++cp) {
                float* t = bias_table + (rp * 6 + cp) * 4;
                t[0] = bias[2 * cp];
                t[1] = bias[2 * cp + 1];
                t[2] = bias[2 * cp];
                t[3] = bias[2 * cp + 1];
            }
        }
        void (*const column_block)(
            const uint8_t*, const uint8_t*, const float*, size_t, size_t, uint8_t*, size_t, const float*) =
            clamp_needed ? kai_column_block_clamp : kai_column_block_noclamp;
        const uint8_t* rhs_data = rhs_block_ptr + kai_nr * sizeof(float);
        uint8_t* dst_col = (uint8_t*)dst + n0 * sizeof(uint16_t);
        const size_t cols = KAI_MIN(n - n0, kai_n_step);
        const size_t full_tiles = cols == kai_n_step ? m / kai_m_step : 0;
        column_block(
            (const uint8_t*)lhs_packed, rhs_data, bias_table, k_chunks, full_tiles, dst_col, dst_stride_row,
            bounds);
        // Ragged tiles (the last rows, or every tile of a ragged column block) go through a
        // scratch column of up to 8 tiles, of which the valid part is copied out.
        for (size_t m0 = full_tiles * kai_m_step; m0 < m;) {
            uint16_t scratch[8 * 8 * 12];
            const size_t tiles = KAI_MIN(kai_div_ceil(m - m0, kai_m_step), 8);
            column_block(
                (const uint8_t*)lhs_packed + (m0 / kai_m_step) * lhs_block, rhs_data, bias_table, k_chunks,
                tiles, (uint8_t*)scratch, kai_n_step * sizeof(uint16_t), bounds);
            const size_t rows = KAI_MIN(m - m0, tiles * kai_m_step);
            for (size_t r = 0; r < rows; ++r) {
                kai_copy_row(dst_col + (m0 + r) * dst_stride_row, (const uint8_t*)(scratch + r * kai_n_step), cols);
            }
            m0 += rows;
        }
    }
}
