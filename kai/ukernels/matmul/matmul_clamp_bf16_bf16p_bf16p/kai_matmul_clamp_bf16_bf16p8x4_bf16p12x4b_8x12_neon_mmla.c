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
// (BFCVTN). The clamp is applied in f32, before the rounding. The bf16-output counterpart of
// kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla: same packed inputs and interface tile.
//
// Packed layout (docs/matmul_bf16.md): the LHS is a sequence of 8-row blocks of 16 * Kp bytes;
// for each group of 4 k values a block holds 8 rows x 4 bf16 (64 bytes, rows 0-1 in the first
// 16 bytes). The RHS is a sequence of 12-column blocks of 48 + 24 * Kp bytes: 12 f32 bias values,
// then for each group of 4 k values 12 columns x 4 bf16 (96 bytes, columns 0-1 in the first 16).
//
// Interface tile (m_step x n_step): 8 rows x 12 columns, as the packed formats and the f32 twin.
// Inside a call the kernel works on 4 x 24 tiles instead: rows 0-3 or 4-7 of an 8-row LHS block
// times two consecutive 12-column RHS blocks. A 16-byte LHS vector holds rows (2r, 2r+1) x 4 k,
// an RHS vector columns (2c, 2c+1) x 4 k; BFMMLA of the two adds their 2x2 product to an
// accumulator [row 2r col 2c, row 2r col 2c+1, row 2r+1 col 2c, row 2r+1 col 2c+1]; 24 of them
// (2 row pairs x 12 column pairs) use 24 of the 32 vector registers. At the end BFCVTN/BFCVTN2
// narrow two accumulators into one vector of 32-bit lanes each holding a bf16 pair
// [r0 c01, r1 c01, r0 c23, r1 c23]; UZP1/UZP2 on 32-bit lanes then separate the two rows.
// Why 4 x 24: a row of 24 bf16 is three full 16-byte stores, where a row of 12 is a 16-byte and an
// 8-byte store plus an extraction, so a tile costs 12 permutes and 12 stores per 96 outputs instead
// of 16 and 16 (BFCVTN's 24 instructions are the same): the epilogue is the only vector-pipe work
// besides BFMMLA, and on Neoverse V2 BFCVTN is two micro-ops on two of the four vector pipes.
// The RHS block-pair loop is outside the LHS loop so that the bias of a pair is rearranged once,
// into a small table the tiles load their initial accumulators from. A column block without a
// partner (n <= 12, or an odd last block) takes the 8 x 12 path; ragged columns or rows go
// through a scratch tile.

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

// Computes `tiles` tiles of 4 rows x 24 columns (two 12-column RHS blocks, rhs0 and rhs1) and
// stores them at dst (row stride dst_stride bytes). Tile t covers LHS rows [4t, 4t + 4): half
// t % 2 of the 8-row LHS block t / 2 (lhs points to block 0, lhs_block is the block size in
// bytes). Ragged tiles come here with dst = a scratch column. Inlined into one function per value
// of (clamp_needed, multi_k), so that none has a branch on them (with the assembly below, which
// takes K > 8, multi_k == 1 serves only 4 < K <= 8).
//
// The last K step of a tile is peeled and written in the same straight-line code as the tile's
// narrowing, stores and the next tile's accumulator initialisation: the BFCVTN/BFCVTN2, UZP and
// stores then share the vector pipes with 24 BFMMLA instead of running on their own.
//
// bias_table holds the 24 initial accumulators [b2c, b2c+1, b2c, b2c+1] (column pair c of the 24
// columns, for row pair 01 then 23). They are reloaded with plain loads (load pipes, not vector
// pipes) after the stores of every tile. The caller is not inlined, so that the compiler cannot
// forward the stores to the table into these loads and turn them back into register copies.
//
// clamp_needed == 0 means both bounds round to infinities in bf16 (-FLT_MAX and FLT_MAX do): the
// clamp then cannot change any bf16 result (rounding is monotonic), so it is skipped.
// multi_k == 0 means k_chunks == 1 (no K loop before the peeled step).
__attribute__((always_inline)) static inline void kai_tiles(
    const uint8_t* lhs, size_t lhs_block, const uint8_t* rhs0, const uint8_t* rhs1, const float* bias_table,
    size_t k_chunks, size_t tiles, uint8_t* dst, size_t dst_stride, const float* bounds, const int clamp_needed,
    const int multi_k) {
    float32x4_t acc_r01_c00;
    float32x4_t acc_r01_c01;
    float32x4_t acc_r01_c02;
    float32x4_t acc_r01_c03;
    float32x4_t acc_r01_c04;
    float32x4_t acc_r01_c05;
    float32x4_t acc_r01_c06;
    float32x4_t acc_r01_c07;
    float32x4_t acc_r01_c08;
    float32x4_t acc_r01_c09;
    float32x4_t acc_r01_c10;
    float32x4_t acc_r01_c11;
    float32x4_t acc_r23_c00;
    float32x4_t acc_r23_c01;
    float32x4_t acc_r23_c02;
    float32x4_t acc_r23_c03;
    float32x4_t acc_r23_c04;
    float32x4_t acc_r23_c05;
    float32x4_t acc_r23_c06;
    float32x4_t acc_r23_c07;
    float32x4_t acc_r23_c08;
    float32x4_t acc_r23_c09;
    float32x4_t acc_r23_c10;
    float32x4_t acc_r23_c11;

#define KAI_LOAD_BIAS()                            \
    acc_r01_c00 = vld1q_f32(bias_table + 0);       \
    acc_r01_c01 = vld1q_f32(bias_table + 4);       \
    acc_r01_c02 = vld1q_f32(bias_table + 8);       \
    acc_r01_c03 = vld1q_f32(bias_table + 12);      \
    acc_r01_c04 = vld1q_f32(bias_table + 16);      \
    acc_r01_c05 = vld1q_f32(bias_table + 20);      \
    acc_r01_c06 = vld1q_f32(bias_table + 24);      \
    acc_r01_c07 = vld1q_f32(bias_table + 28);      \
    acc_r01_c08 = vld1q_f32(bias_table + 32);      \
    acc_r01_c09 = vld1q_f32(bias_table + 36);      \
    acc_r01_c10 = vld1q_f32(bias_table + 40);      \
    acc_r01_c11 = vld1q_f32(bias_table + 44);      \
    acc_r23_c00 = vld1q_f32(bias_table + 48);      \
    acc_r23_c01 = vld1q_f32(bias_table + 52);      \
    acc_r23_c02 = vld1q_f32(bias_table + 56);      \
    acc_r23_c03 = vld1q_f32(bias_table + 60);      \
    acc_r23_c04 = vld1q_f32(bias_table + 64);      \
    acc_r23_c05 = vld1q_f32(bias_table + 68);      \
    acc_r23_c06 = vld1q_f32(bias_table + 72);      \
    acc_r23_c07 = vld1q_f32(bias_table + 76);      \
    acc_r23_c08 = vld1q_f32(bias_table + 80);      \
    acc_r23_c09 = vld1q_f32(bias_table + 84);      \
    acc_r23_c10 = vld1q_f32(bias_table + 88);      \
    acc_r23_c11 = vld1q_f32(bias_table + 92);

    // Two consecutive RHS vectors (column pairs c and d of a block x 4 k; loaded together, so
    // that they become one LDP) times both LHS row pairs.
#define KAI_COLUMN_PAIRS(b_ptr, offset, c, d)                             \
    do {                                                                  \
        const bfloat16x8_t b_c = vld1q_bf16((b_ptr) + (offset));          \
        const bfloat16x8_t b_d = vld1q_bf16((b_ptr) + (offset) + 8);      \
        acc_r01_##c = vbfmmlaq_f32(acc_r01_##c, a_r01, b_c);              \
        acc_r23_##c = vbfmmlaq_f32(acc_r23_##c, a_r23, b_c);              \
        acc_r01_##d = vbfmmlaq_f32(acc_r01_##d, a_r01, b_d);              \
        acc_r23_##d = vbfmmlaq_f32(acc_r23_##d, a_r23, b_d);              \
    } while (0)
    // One group of 4 k values: 2 LHS vectors (rows 0-1, 2-3 of the tile), 12 RHS vectors.
#define KAI_K_STEP()                                                      \
    do {                                                                  \
        const bfloat16x8_t a_r01 = vld1q_bf16(a_ptr + 0);                 \
        const bfloat16x8_t a_r23 = vld1q_bf16(a_ptr + 8);                 \
        a_ptr += 32;                                                      \
        KAI_COLUMN_PAIRS(b0_ptr, 0, c00, c01);                            \
        KAI_COLUMN_PAIRS(b0_ptr, 16, c02, c03);                           \
        KAI_COLUMN_PAIRS(b0_ptr, 32, c04, c05);                           \
        b0_ptr += 48;                                                     \
        KAI_COLUMN_PAIRS(b1_ptr, 0, c06, c07);                            \
        KAI_COLUMN_PAIRS(b1_ptr, 16, c08, c09);                           \
        KAI_COLUMN_PAIRS(b1_ptr, 32, c10, c11);                           \
        b1_ptr += 48;                                                     \
    } while (0)

    if (tiles == 0) {
        return;
    }
    KAI_LOAD_BIAS();
    const uint8_t* a_tile = lhs;
    // Bytes from the LHS start of one tile to that of the next: 32 (to the other half of the same
    // 8-row block), then lhs_block - 32 (to the first half of the next block), alternately.
    size_t a_step = 4 * kai_kr * sizeof(uint16_t);  // 4 rows x 4 k values
    uint8_t* dst_tile = dst;
    const size_t out_stride = dst_stride;
    size_t tiles_left = tiles;
    do {
        const bfloat16_t* a_ptr = (const bfloat16_t*)(const void*)a_tile;
        const bfloat16_t* b0_ptr = (const bfloat16_t*)(const void*)rhs0;
        const bfloat16_t* b1_ptr = (const bfloat16_t*)(const void*)rhs1;
        if (multi_k) {
            // k_chunks >= 2: all but the last group of 4 k values (a do-while: no entry test).
            size_t groups_left = k_chunks - 1;
            do {
                KAI_K_STEP();
            } while (--groups_left != 0);
        }
        KAI_K_STEP();

        if (clamp_needed) {
            // The bounds are loaded only now: kept in registers through the loop they would push
            // accumulators out to the stack.
            const float32x4_t vmin = vld1q_dup_f32(bounds + 0);
            const float32x4_t vmax = vld1q_dup_f32(bounds + 1);
#define KAI_CLAMP(v) v = vmaxq_f32(vminq_f32(v, vmax), vmin)
            KAI_CLAMP(acc_r01_c00);
            KAI_CLAMP(acc_r01_c01);
            KAI_CLAMP(acc_r01_c02);
            KAI_CLAMP(acc_r01_c03);
            KAI_CLAMP(acc_r01_c04);
            KAI_CLAMP(acc_r01_c05);
            KAI_CLAMP(acc_r01_c06);
            KAI_CLAMP(acc_r01_c07);
            KAI_CLAMP(acc_r01_c08);
            KAI_CLAMP(acc_r01_c09);
            KAI_CLAMP(acc_r01_c10);
            KAI_CLAMP(acc_r01_c11);
            KAI_CLAMP(acc_r23_c00);
            KAI_CLAMP(acc_r23_c01);
            KAI_CLAMP(acc_r23_c02);
            KAI_CLAMP(acc_r23_c03);
            KAI_CLAMP(acc_r23_c04);
            KAI_CLAMP(acc_r23_c05);
            KAI_CLAMP(acc_r23_c06);
            KAI_CLAMP(acc_r23_c07);
            KAI_CLAMP(acc_r23_c08);
            KAI_CLAMP(acc_r23_c09);
            KAI_CLAMP(acc_r23_c10);
            KAI_CLAMP(acc_r23_c11);
#undef KAI_CLAMP
        }

        // Narrows two accumulators into [r0 c01, r1 c01, r0 c23, r1 c23] (bf16 pairs as 32-bit lanes).
#define KAI_NARROW(lo, hi) vreinterpretq_u32_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(lo), hi))
        // Rows 2r, 2r+1 (24 columns each): UZP1/UZP2 of the narrowed column pairs 01|23 and 45|67
        // give columns 0-7 of the two rows, and the same for columns 8-15 and 16-23.
#define KAI_STORE_ROW_PAIR(row, c00, c01, c02, c03, c04, c05, c06, c07, c08, c09, c10, c11) \
    do {                                                                                   \
        const uint32x4_t n0 = KAI_NARROW(c00, c01);                                        \
        const uint32x4_t n1 = KAI_NARROW(c02, c03);                                        \
        const uint32x4_t n2 = KAI_NARROW(c04, c05);                                        \
        const uint32x4_t n3 = KAI_NARROW(c06, c07);                                        \
        const uint32x4_t n4 = KAI_NARROW(c08, c09);                                        \
        const uint32x4_t n5 = KAI_NARROW(c10, c11);                                        \
        vst1q_u8((row) + 0, vreinterpretq_u8_u32(vuzp1q_u32(n0, n1)));                     \
        vst1q_u8((row) + 16, vreinterpretq_u8_u32(vuzp1q_u32(n2, n3)));                    \
        vst1q_u8((row) + 32, vreinterpretq_u8_u32(vuzp1q_u32(n4, n5)));                    \
        vst1q_u8((row) + out_stride + 0, vreinterpretq_u8_u32(vuzp2q_u32(n0, n1)));        \
        vst1q_u8((row) + out_stride + 16, vreinterpretq_u8_u32(vuzp2q_u32(n2, n3)));       \
        vst1q_u8((row) + out_stride + 32, vreinterpretq_u8_u32(vuzp2q_u32(n4, n5)));       \
    } while (0)
        KAI_STORE_ROW_PAIR(
            dst_tile, acc_r01_c00, acc_r01_c01, acc_r01_c02, acc_r01_c03, acc_r01_c04, acc_r01_c05, acc_r01_c06,
            acc_r01_c07, acc_r01_c08, acc_r01_c09, acc_r01_c10, acc_r01_c11);
        KAI_STORE_ROW_PAIR(
            dst_tile + 2 * out_stride, acc_r23_c00, acc_r23_c01, acc_r23_c02, acc_r23_c03, acc_r23_c04, acc_r23_c05,
            acc_r23_c06, acc_r23_c07, acc_r23_c08, acc_r23_c09, acc_r23_c10, acc_r23_c11);
#undef KAI_STORE_ROW_PAIR
#undef KAI_NARROW
        KAI_LOAD_BIAS();  // the next tile's accumulators (a harmless reload after the last tile)
        a_tile += a_step;
        a_step = lhs_block - a_step;
        dst_tile += 4 * out_stride;
    } while (--tiles_left != 0);

#undef KAI_K_STEP
#undef KAI_COLUMN_PAIRS
#undef KAI_LOAD_BIAS
}

// The 8 x 12 path, for a column block without a partner (n of one block, or an odd last block):
// computes m_tiles full 8 x 12 tiles of one 12-column RHS block (LHS rows [0, 8 m_tiles)) and
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
        vst1q_u8(row, vreinterpretq_u8_u32(vuzp1q_u32(n0123, n4567)));         \
        row += out_stride;                                                     \
        vst1q_u8(row, vreinterpretq_u8_u32(vuzp2q_u32(n0123, n4567)));         \
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
            vst1_u8(d + 0 * out_stride, vreinterpret_u8_u32(vget_low_u32(r02)));
            vst1_u8(d + 1 * out_stride, vreinterpret_u8_u32(vget_low_u32(r13)));
            vst1_u8(d + 2 * out_stride, vreinterpret_u8_u32(vget_high_u32(r02)));
            vst1_u8(d + 3 * out_stride, vreinterpret_u8_u32(vget_high_u32(r13)));
            vst1_u8(d + 4 * out_stride, vreinterpret_u8_u32(vget_low_u32(r46)));
            vst1_u8(d + 5 * out_stride, vreinterpret_u8_u32(vget_low_u32(r57)));
            vst1_u8(d + 6 * out_stride, vreinterpret_u8_u32(vget_high_u32(r46)));
            vst1_u8(d + 7 * out_stride, vreinterpret_u8_u32(vget_high_u32(r57)));
        }
#undef KAI_NARROW
        KAI_LOAD_BIAS();  // the next tile's accumulators (a harmless reload after the last tile)
        dst_block += kai_m_step * dst_stride;
    } while (--tiles_left != 0);

#undef KAI_LOAD_BIAS
}

// GCC: the pre-register-allocation scheduler hoists the RHS loads of the K loop to its top, which
// needs more than 32 vector registers and spills accumulators; it is turned off for the functions
// holding the loop, so the loads stay where they are written (24 accumulators, 2 LHS and few RHS
// vectors live).
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


#if defined(__GNUC__) && !defined(KAI_BF16_NO_ASM)
// Assembly twin of kai_tiles() for k_chunks >= 3 (the intrinsics version stays the reference:
// build with -DKAI_BF16_NO_ASM to use it everywhere; both pass the same tests and compat vectors,
// and both add the K steps of every output in the same order, so their results are identical).
//
// Schedule: the tile's two column halves run one K step apart. Half A is columns 0-15 (column
// pairs 0-7: RHS block 0 and the first 4 columns of block 1), half B columns 16-23 (pairs 8-11).
// While half A computes step j, half B computes step j + 1 of the same tile, so that the two
// halves finish in different straight-line blocks:
//   - K loop (k_chunks - 2 times): A step j, B step j + 1.
//   - Epilogue B: A step k_chunks - 2, B's last step, then B's narrowing and stores (32 outputs)
//     and B's next accumulators.
//   - Epilogue A: A's last step, B's step 0 of the next tile, then A's narrowing and stores
//     (64 outputs) and A's next accumulators.
// Each epilogue thus holds 24 BFMMLA beside the narrowing of 32 or 64 outputs. In LLVM's
// Neoverse V2 model BFCVTN/BFCVTN2 are two micro-ops on vector pipes V0/V2 only, so a block that
// narrows all 96 outputs of a tile next to 24 BFMMLA needs a perfect pipe assignment (the
// previous design's 77-instruction epilogue modelled 28 cycles against a bound of 24), while these
// two have slack on V0/V2 and reach their bounds of 12 and 18 cycles (measured figures in
// docs/performance.md). Over a tile at K = 256 that is 62 x 6 + 12 + 18 = 402 cycles for 384
// cycles of BFMMLA: the 95.5 % ceiling the narrowing's micro-ops allow.
// The LHS vectors of step j + 1 are loaded twice (by half B in one iteration and half A in the
// next): keeping them would need two more vector registers than the 32 in use, and the loop has
// load bandwidth to spare (16 of the 18 128-bit load slots of 6 cycles on V2).
//
// Why assembly: GCC does not keep the two halves' steps and the epilogues' interleaving, and
// turns four-register loads into register copies (vector-pipe work).
//
// Registers: v8-v19 accumulate rows 0-1 and v20-v31 rows 2-3 of the tile, column pair j in
// v8+j / v20+j (half A: j = 0..7, half B: j = 8..11); v0-v1 hold half A's LHS vectors (rows 0-1,
// 2-3), v2-v3 half B's, v4-v7 RHS vectors. bias0..bias2 point at the accumulator initial values
// of column pairs 0-3, 4-7 and 8-11 (the same for both row pairs).
// Pointers: a is half A's LHS step (half B reads the step after it), b0 and b1 half A's RHS
// in blocks 0 and 1 (96 bytes a step, of which b1 uses the first 32), bb half B's RHS (bytes
// 32-95 of block 1's step), an the next tile's LHS start; row_a and row_b the destination rows of
// the halves (row_b = row_a + 32 bytes).

#define KAI_ASM_BF(acc, lhs, rhs) "bfmmla v" #acc ".4s, v" #lhs ".8h, v" #rhs ".8h\n"

// The BFMMLA of one K step, by group of column pairs, for both row pairs: half A's LHS vectors in
// v0 (rows 0-1) and v1 (rows 2-3), half B's in v2 and v3; pairs 0-3 take RHS vectors v4-v7, pairs
// 4-5 v4-v5, pairs 6-7 v6-v7, pairs 8-11 v4-v7.
#define KAI_ASM_A_PAIRS_0_3                                                                    \
    KAI_ASM_BF(8, 0, 4) KAI_ASM_BF(20, 1, 4) KAI_ASM_BF(9, 0, 5) KAI_ASM_BF(21, 1, 5)          \
    KAI_ASM_BF(10, 0, 6) KAI_ASM_BF(22, 1, 6) KAI_ASM_BF(11, 0, 7) KAI_ASM_BF(23, 1, 7)
#define KAI_ASM_A_PAIRS_4_5 KAI_ASM_BF(12, 0, 4) KAI_ASM_BF(24, 1, 4) KAI_ASM_BF(13, 0, 5) KAI_ASM_BF(25, 1, 5)
#define KAI_ASM_A_PAIRS_6_7 KAI_ASM_BF(14, 0, 6) KAI_ASM_BF(26, 1, 6) KAI_ASM_BF(15, 0, 7) KAI_ASM_BF(27, 1, 7)
#define KAI_ASM_B_PAIRS_8_9 KAI_ASM_BF(16, 2, 4) KAI_ASM_BF(28, 3, 4) KAI_ASM_BF(17, 2, 5) KAI_ASM_BF(29, 3, 5)
#define KAI_ASM_B_PAIRS_10_11 KAI_ASM_BF(18, 2, 6) KAI_ASM_BF(30, 3, 6) KAI_ASM_BF(19, 2, 7) KAI_ASM_BF(31, 3, 7)

// One K step of half A (pointers advanced by one step): column pairs 0-3 and 4-5 from block 0,
// 6-7 from block 1.
#define KAI_ASM_A_STEP                                                                         \
    "ldp q0, q1, [%[a]], #64\n"                                                                \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[b0]], #64\n"                                         \
    KAI_ASM_A_PAIRS_0_3                                                                        \
    "ldp q4, q5, [%[b0]], #32\n"                                                               \
    KAI_ASM_A_PAIRS_4_5                                                                        \
    "ldp q6, q7, [%[b1]], #96\n"                                                               \
    KAI_ASM_A_PAIRS_6_7

// Half A's last step (pointers not advanced).
#define KAI_ASM_A_LAST_STEP                                                                    \
    "ldp q0, q1, [%[a]]\n"                                                                     \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[b0]]\n"                                              \
    KAI_ASM_A_PAIRS_0_3                                                                        \
    "ldp q4, q5, [%[b0], #64]\n"                                                               \
    KAI_ASM_A_PAIRS_4_5                                                                        \
    "ldp q6, q7, [%[b1]]\n"                                                                    \
    KAI_ASM_A_PAIRS_6_7

// One K step of half B, LHS at lhs_addr (an addressing mode), RHS at bb (advanced by one step).
#define KAI_ASM_B_STEP(lhs_addr)                                                               \
    "ldp q2, q3, " lhs_addr "\n"                                                               \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[bb]], %[rhs_step]\n"                                 \
    KAI_ASM_B_PAIRS_8_9                                                                        \
    KAI_ASM_B_PAIRS_10_11

// Narrows accumulator pair (x, x+1) into x: [r0 c01, r1 c01, r0 c23, r1 c23] as bf16 pairs.
#define KAI_ASM_NARROW_LO(x) "bfcvtn v" #x ".4h, v" #x ".4s\n"
#define KAI_ASM_NARROW_HI(x, y) "bfcvtn2 v" #x ".8h, v" #y ".4s\n"
#define KAI_ASM_NARROW(x, y) KAI_ASM_NARROW_LO(x) KAI_ASM_NARROW_HI(x, y)

// max(min(acc, hi), lo) on accumulators x and y (lo, hi: vector registers holding the bounds).
#define KAI_ASM_CLAMP2(x, y, lo, hi)                                                           \
    "fmin v" #x ".4s, v" #x ".4s, v" #hi ".4s\n" "fmin v" #y ".4s, v" #y ".4s, v" #hi ".4s\n"  \
    "fmax v" #x ".4s, v" #x ".4s, v" #lo ".4s\n" "fmax v" #y ".4s, v" #y ".4s, v" #lo ".4s\n"
#define KAI_ASM_CLAMP_B                                                                        \
    "ld2r {v2.4s, v3.4s}, [%[bounds]]\n"                                                       \
    KAI_ASM_CLAMP2(16, 17, 2, 3) KAI_ASM_CLAMP2(18, 19, 2, 3)                                  \
    KAI_ASM_CLAMP2(28, 29, 2, 3) KAI_ASM_CLAMP2(30, 31, 2, 3)
#define KAI_ASM_CLAMP_A                                                                        \
    "ld2r {v0.4s, v1.4s}, [%[bounds]]\n"                                                       \
    KAI_ASM_CLAMP2(8, 9, 0, 1) KAI_ASM_CLAMP2(10, 11, 0, 1) KAI_ASM_CLAMP2(12, 13, 0, 1)       \
    KAI_ASM_CLAMP2(14, 15, 0, 1) KAI_ASM_CLAMP2(20, 21, 0, 1) KAI_ASM_CLAMP2(22, 23, 0, 1)     \
    KAI_ASM_CLAMP2(24, 25, 0, 1) KAI_ASM_CLAMP2(26, 27, 0, 1)
#define KAI_ASM_NARROW_B KAI_ASM_NARROW(16, 17) KAI_ASM_NARROW(28, 29) KAI_ASM_NARROW(18, 19) KAI_ASM_NARROW(30, 31)
#define KAI_ASM_NARROW_A                                                                       \
    KAI_ASM_NARROW(8, 9) KAI_ASM_NARROW(20, 21) KAI_ASM_NARROW(10, 11) KAI_ASM_NARROW(22, 23)   \
    KAI_ASM_NARROW(12, 13) KAI_ASM_NARROW(24, 25) KAI_ASM_NARROW(14, 15) KAI_ASM_NARROW(26, 27)

// Half B's rows: UZP1/UZP2 separate rows 0/1 (from v16, v18) and 2/3 (v28, v30), 16 bytes each;
// then its next accumulators.
#define KAI_ASM_STORE_B                                                                        \
    "uzp1 v17.4s, v16.4s, v18.4s\n"                                                            \
    "uzp2 v19.4s, v16.4s, v18.4s\n"                                                            \
    "uzp1 v29.4s, v28.4s, v30.4s\n"                                                            \
    "uzp2 v31.4s, v28.4s, v30.4s\n"                                                            \
    "st1 {v17.16b}, [%[row_b]], %[stride]\n"                                                   \
    "st1 {v19.16b}, [%[row_b]], %[stride]\n"                                                   \
    "st1 {v29.16b}, [%[row_b]], %[stride]\n"                                                   \
    "st1 {v31.16b}, [%[row_b]], %[stride]\n"
#define KAI_ASM_RELOAD_B                                                                       \
    "ld1 {v16.2d, v17.2d, v18.2d, v19.2d}, [%[bias2]]\n"                                       \
    "ld1 {v28.2d, v29.2d, v30.2d, v31.2d}, [%[bias2]]\n"

// Half A's rows (32 bytes each): row 0 = UZP1 of (v8, v10) and (v12, v14), row 1 = UZP2, rows 2-3
// the same from v20-v26.
#define KAI_ASM_STORE_A_ROWS01                                                                 \
    "uzp1 v0.4s, v8.4s, v10.4s\n"                                                              \
    "uzp1 v1.4s, v12.4s, v14.4s\n"                                                             \
    "uzp2 v2.4s, v8.4s, v10.4s\n"                                                              \
    "uzp2 v3.4s, v12.4s, v14.4s\n"                                                             \
    "st1 {v0.2d, v1.2d}, [%[row_a]], %[stride]\n"                                              \
    "st1 {v2.2d, v3.2d}, [%[row_a]], %[stride]\n"
#define KAI_ASM_STORE_A_ROWS23                                                                 \
    "uzp1 v4.4s, v20.4s, v22.4s\n"                                                             \
    "uzp1 v5.4s, v24.4s, v26.4s\n"                                                             \
    "uzp2 v6.4s, v20.4s, v22.4s\n"                                                             \
    "uzp2 v7.4s, v24.4s, v26.4s\n"                                                             \
    "st1 {v4.2d, v5.2d}, [%[row_a]], %[stride]\n"                                              \
    "st1 {v6.2d, v7.2d}, [%[row_a]], %[stride]\n"
#define KAI_ASM_RELOAD_A01                                                                     \
    "ld1 {v8.2d, v9.2d, v10.2d, v11.2d}, [%[bias0]]\n"                                         \
    "ld1 {v12.2d, v13.2d, v14.2d, v15.2d}, [%[bias1]]\n"
#define KAI_ASM_RELOAD_A23                                                                     \
    "ld1 {v20.2d, v21.2d, v22.2d, v23.2d}, [%[bias0]]\n"                                       \
    "ld1 {v24.2d, v25.2d, v26.2d, v27.2d}, [%[bias1]]\n"

// Epilogue B without clamp: half B's narrowing interleaved with half A's step.
#define KAI_ASM_EPILOGUE_B_NOCLAMP                                                             \
    "ldp q0, q1, [%[a]], #64\n"                                                                \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[b0]], #64\n"                                         \
    KAI_ASM_A_PAIRS_0_3                                                                        \
    KAI_ASM_B_STEP("[%[a]]")                                                                   \
    KAI_ASM_NARROW(16, 17)                                                                     \
    "ldp q4, q5, [%[b0]], #32\n"                                                               \
    KAI_ASM_A_PAIRS_4_5                                                                        \
    KAI_ASM_NARROW(28, 29)                                                                     \
    "ldp q6, q7, [%[b1]], #96\n"                                                               \
    KAI_ASM_A_PAIRS_6_7                                                                        \
    KAI_ASM_NARROW(18, 19)                                                                     \
    KAI_ASM_NARROW(30, 31)                                                                     \
    KAI_ASM_STORE_B                                                                            \
    KAI_ASM_RELOAD_B

#define KAI_ASM_EPILOGUE_B_CLAMP                                                               \
    KAI_ASM_A_STEP                                                                             \
    KAI_ASM_B_STEP("[%[a]]")                                                                   \
    KAI_ASM_CLAMP_B                                                                            \
    KAI_ASM_NARROW_B                                                                           \
    KAI_ASM_STORE_B                                                                            \
    KAI_ASM_RELOAD_B

// Epilogue A without clamp: half A's last step and narrowing with half B's step 0 of the next tile
// (LHS at an), then half A's stores and next accumulators. The instructions are those of
// KAI_ASM_A_LAST_STEP, KAI_ASM_B_STEP, KAI_ASM_NARROW_A, the stores and the reloads, in an order
// found by a dependency-preserving search in llvm-mca's Neoverse V2 model (18 cycles per block,
// its bound; the textbook order models 19-21): the loads of columns 12-15 go before those of
// 8-11, and the BFCVTN2 of column pairs 0-1 (rows 0-1 and 2-3) go late.
#define KAI_ASM_EPILOGUE_A_NOCLAMP                                                             \
    "ldp q0, q1, [%[a]]\n"                                                                     \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[b0]]\n"                                              \
    KAI_ASM_A_PAIRS_0_3                                                                        \
    KAI_ASM_NARROW_LO(8)                                                                       \
    KAI_ASM_NARROW_LO(20)                                                                      \
    "ldp q6, q7, [%[b1]]\n"                                                                    \
    "ldp q4, q5, [%[b0], #64]\n"                                                               \
    KAI_ASM_A_PAIRS_4_5                                                                        \
    KAI_ASM_NARROW(10, 11)                                                                     \
    KAI_ASM_NARROW(22, 23)                                                                     \
    KAI_ASM_A_PAIRS_6_7                                                                        \
    "ldp q2, q3, [%[an]]\n"                                                                    \
    "ld1 {v4.2d, v5.2d, v6.2d, v7.2d}, [%[bb]], %[rhs_step]\n"                                 \
    KAI_ASM_NARROW(12, 13)                                                                     \
    KAI_ASM_NARROW(24, 25)                                                                     \
    KAI_ASM_B_PAIRS_8_9                                                                        \
    KAI_ASM_NARROW(14, 15)                                                                     \
    KAI_ASM_B_PAIRS_10_11                                                                      \
    KAI_ASM_NARROW_LO(26)                                                                      \
    KAI_ASM_NARROW_HI(8, 9)                                                                    \
    KAI_ASM_NARROW_HI(26, 27)                                                                  \
    "uzp1 v0.4s, v8.4s, v10.4s\n"                                                              \
    "uzp1 v1.4s, v12.4s, v14.4s\n"                                                             \
    "uzp2 v2.4s, v8.4s, v10.4s\n"                                                              \
    "uzp2 v3.4s, v12.4s, v14.4s\n"                                                             \
    "st1 {v0.2d, v1.2d}, [%[row_a]], %[stride]\n"                                              \
    KAI_ASM_NARROW_HI(20, 21)                                                                  \
    "st1 {v2.2d, v3.2d}, [%[row_a]], %[stride]\n"                                              \
    KAI_ASM_RELOAD_A01                                                                         \
    KAI_ASM_STORE_A_ROWS23                                                                     \
    KAI_ASM_RELOAD_A23

#define KAI_ASM_EPILOGUE_A_CLAMP                                                               \
    KAI_ASM_A_LAST_STEP                                                                        \
    KAI_ASM_B_STEP("[%[an]]")                                                                  \
    KAI_ASM_CLAMP_A                                                                            \
    KAI_ASM_NARROW_A                                                                           \
    KAI_ASM_STORE_A_ROWS01                                                                     \
    KAI_ASM_RELOAD_A01                                                                         \
    KAI_ASM_STORE_A_ROWS23                                                                     \
    KAI_ASM_RELOAD_A23

// The last tile's half A (no next tile for half B).
#define KAI_ASM_LAST_A(CLAMP_A)                                                                \
    KAI_ASM_A_LAST_STEP                                                                        \
    CLAMP_A                                                                                    \
    KAI_ASM_NARROW_A                                                                           \
    KAI_ASM_STORE_A_ROWS01                                                                     \
    KAI_ASM_STORE_A_ROWS23

// The tile loop. an and d step the next tile's LHS start: d alternates between 32 (rows 4-7 of
// the same 8-row block) and lhs_block - 32 (rows 0-3 of the next block); d_sum = lhs_block.
#define KAI_ASM_TILES(EPILOGUE_B, EPILOGUE_A, CLAMP_A)                                         \
    "ld1 {v8.2d, v9.2d, v10.2d, v11.2d}, [%[bias0]]\n"                                         \
    "ld1 {v12.2d, v13.2d, v14.2d, v15.2d}, [%[bias1]]\n"                                       \
    "ld1 {v16.2d, v17.2d, v18.2d, v19.2d}, [%[bias2]]\n"                                       \
    "ld1 {v20.2d, v21.2d, v22.2d, v23.2d}, [%[bias0]]\n"                                       \
    "ld1 {v24.2d, v25.2d, v26.2d, v27.2d}, [%[bias1]]\n"                                       \
    "ld1 {v28.2d, v29.2d, v30.2d, v31.2d}, [%[bias2]]\n"                                       \
    "mov %[b0], %[rhs0]\n"                                                                     \
    "mov %[b1], %[rhs1]\n"                                                                     \
    "mov %[bb], %[rhs1b]\n"                                                                    \
    "mov %[k], %[k_loop]\n"                                                                    \
    KAI_ASM_B_STEP("[%[a]]") /* half B's step 0 of the first tile */                           \
    "1:\n"                                                                                     \
    KAI_ASM_A_STEP                                                                             \
    KAI_ASM_B_STEP("[%[a]]")                                                                   \
    "subs %[k], %[k], #1\n"                                                                    \
    "b.ne 1b\n"                                                                                \
    EPILOGUE_B                                                                                 \
    "mov %[bb], %[rhs1b]\n"                                                                    \
    "add %[an], %[an], %[d]\n"                                                                 \
    "sub %[d], %[d_sum], %[d]\n"                                                               \
    "cmp %[tiles], #1\n"                                                                       \
    "b.eq 2f\n"                                                                                \
    EPILOGUE_A                                                                                 \
    "mov %[a], %[an]\n"                                                                        \
    "mov %[b0], %[rhs0]\n"                                                                     \
    "mov %[b1], %[rhs1]\n"                                                                     \
    "mov %[k], %[k_loop]\n"                                                                    \
    "sub %[tiles], %[tiles], #1\n"                                                             \
    "b 1b\n"                                                                                   \
    "2:\n"                                                                                     \
    KAI_ASM_LAST_A(CLAMP_A)

// align: a power of two no smaller than the function's tile loop (GCC 12 -O3 -DNDEBUG: the whole
// function is about 1.0 KiB without the clamp, 1.3 KiB with it; a debug build's precondition check
// adds a cold tail), so that no 4 KiB page boundary falls inside the tile loop: QEMU ends a
// translation block at a page boundary, and ../shared/perf/mca_call.py costs the two halves of a
// cut block apart, which moves the modelled whole-call figure with the size of unrelated code.
#define KAI_TILES_ASM(name, align, EPILOGUE_B, EPILOGUE_A, CLAMP_A)                                           \
    __attribute__((noinline, aligned(align))) static void name(                                                \
        const uint8_t* lhs, size_t lhs_block, const uint8_t* rhs0, const uint8_t* rhs1, const float* bias_table, \
        size_t k_chunks, size_t tiles, uint8_t* dst, size_t dst_stride, const float* bounds) {                 \
        KAI_ASSUME(k_chunks >= 3 && lhs_block == k_chunks * 64);                                               \
        if (tiles == 0) {                                                                                      \
            return;                                                                                            \
        }                                                                                                      \
        const uint8_t* a = lhs;                                                                                \
        const uint8_t* an = lhs;                                                                               \
        size_t d = 32;                                                                                         \
        const size_t d_sum = lhs_block;                                                                        \
        const uint8_t* rhs1b = rhs1 + 32;                                                                      \
        const size_t rhs_step = 96;                                                                            \
        const float* bias0 = bias_table;                                                                       \
        const float* bias1 = bias_table + 16;                                                                  \
        const float* bias2 = bias_table + 32;                                                                  \
        const uint8_t* b0;                                                                                     \
        const uint8_t* b1;                                                                                     \
        const uint8_t* bb;                                                                                     \
        size_t k;                                                                                              \
        const size_t k_loop = k_chunks - 2;                                                                    \
        uint8_t* row_a = dst;                                                                                  \
        uint8_t* row_b = dst + 32;                                                                             \
        __asm__ __volatile__(KAI_ASM_TILES(EPILOGUE_B, EPILOGUE_A, CLAMP_A)                                   \
                             : [a] "+&r"(a), [an] "+&r"(an), [d] "+&r"(d), [tiles] "+&r"(tiles),               \
                               [row_a] "+&r"(row_a), [row_b] "+&r"(row_b), [b0] "=&r"(b0), [b1] "=&r"(b1),     \
                               [bb] "=&r"(bb), [k] "=&r"(k)                                                     \
                             : [rhs0] "r"(rhs0), [rhs1] "r"(rhs1), [rhs1b] "r"(rhs1b), [rhs_step] "r"(rhs_step), \
                               [k_loop] "r"(k_loop), [d_sum] "r"(d_sum), [stride] "r"(dst_stride),              \
                               [bias0] "r"(bias0), [bias1] "r"(bias1), [bias2] "r"(bias2), [bounds] "r"(bounds) \
                             : "cc", "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",     \
                               "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20",     \
                               "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");    \
    }
// The assembly text of a tile loop is one string of several thousand characters; ISO C99 only
// guarantees 4,095, which -Wpedantic reports (Clang) for every compiler that accepts it anyway.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
KAI_TILES_ASM(kai_tiles_asm_noclamp, 1024, KAI_ASM_EPILOGUE_B_NOCLAMP, KAI_ASM_EPILOGUE_A_NOCLAMP, "")
KAI_TILES_ASM(kai_tiles_asm_clamp, 2048, KAI_ASM_EPILOGUE_B_CLAMP, KAI_ASM_EPILOGUE_A_CLAMP, KAI_ASM_CLAMP_A)
#pragma GCC diagnostic pop
#undef KAI_TILES_ASM
#define KAI_HAVE_TILES_ASM 1
#endif

typedef void (*kai_tiles_fn)(
    const uint8_t*, size_t, const uint8_t*, const uint8_t*, const float*, size_t, size_t, uint8_t*, size_t,
    const float*);

#define KAI_TILES_VARIANT(name, clamp_needed, multi_k)                                                           \
    KAI_NO_PRE_RA_SCHEDULE __attribute__((noinline)) static void name(                                           \
        const uint8_t* lhs, size_t lhs_block, const uint8_t* rhs0, const uint8_t* rhs1, const float* bias_table, \
        size_t k_chunks, size_t tiles, uint8_t* dst, size_t dst_stride, const float* bounds) {                   \
        kai_tiles(                                                                                               \
            lhs, lhs_block, rhs0, rhs1, bias_table, k_chunks, tiles, dst, dst_stride, bounds, clamp_needed,      \
            multi_k);                                                                                            \
    }
KAI_TILES_VARIANT(kai_tiles_clamp_k1, 1, 0)
KAI_TILES_VARIANT(kai_tiles_noclamp_k1, 0, 0)
KAI_TILES_VARIANT(kai_tiles_clamp_k2, 1, 1)
KAI_TILES_VARIANT(kai_tiles_noclamp_k2, 0, 1)
#if defined(KAI_HAVE_TILES_ASM)
#define kai_tiles_clamp_kn kai_tiles_asm_clamp
#define kai_tiles_noclamp_kn kai_tiles_asm_noclamp
#else
#define kai_tiles_clamp_kn kai_tiles_clamp_k2
#define kai_tiles_noclamp_kn kai_tiles_noclamp_k2
#endif
#undef KAI_TILES_VARIANT

// Copies the first n (< 24) bf16 values of a scratch row with fixed-size moves (inlined loads and
// stores; a variable-size copy would be a library call per row).
static inline void kai_copy_row(uint8_t* d, const uint8_t* s, size_t n) {
    if (n & 16) {
        memcpy(d, s, 16 * sizeof(uint16_t));
        d += 16 * sizeof(uint16_t);
        s += 16 * sizeof(uint16_t);
    }
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

// The initial accumulators of a tile: for each of row_pairs row pairs, column pair c gets
// [b2c, b2c+1, b2c, b2c+1] (BFMMLA's accumulator layout), at table + (row pair * col_pairs + c) * 4.
static void kai_fill_bias_table(float* table, const float* bias, size_t col_pairs, size_t row_pairs) {
    for (size_t rp = 0; rp < row_pairs; ++rp) {
        for (size_t cp = 0; cp < col_pairs; ++cp) {
            float* t = table + (rp * col_pairs + cp) * 4;
            t[0] = bias[2 * cp];
            t[1] = bias[2 * cp + 1];
            t[2] = bias[2 * cp];
            t[3] = bias[2 * cp + 1];
        }
    }
}

// The 8 x 12 path over one column block of cols (<= 12) columns: full tiles straight to dst,
// ragged ones through a scratch column of up to 8 tiles, of which the valid part is copied out.
// bias_table: room for 96 floats (the 24 initial accumulators of the 8 x 12 tile).
static void kai_lone_column_block(
    size_t m, size_t cols, size_t k_chunks, const uint8_t* lhs_packed, size_t lhs_block, const uint8_t* rhs_block_ptr,
    uint8_t* dst_col, size_t dst_stride_row, const float* bounds, int clamp_needed, float* bias_table) {
    float bias[12];
    memcpy(bias, rhs_block_ptr, sizeof(bias));
    kai_fill_bias_table(bias_table, bias, 6, 4);
    void (*const column_block)(
        const uint8_t*, const uint8_t*, const float*, size_t, size_t, uint8_t*, size_t, const float*) =
        clamp_needed ? kai_column_block_clamp : kai_column_block_noclamp;
    const uint8_t* rhs_data = rhs_block_ptr + kai_nr * sizeof(float);
    const size_t full_tiles = cols == kai_n_step ? m / kai_m_step : 0;
    column_block(lhs_packed, rhs_data, bias_table, k_chunks, full_tiles, dst_col, dst_stride_row, bounds);
    for (size_t m0 = full_tiles * kai_m_step; m0 < m;) {
        uint16_t scratch[8 * 8 * 12];
        const size_t tiles = KAI_MIN(kai_div_ceil(m - m0, kai_m_step), 8);
        column_block(
            lhs_packed + (m0 / kai_m_step) * lhs_block, rhs_data, bias_table, k_chunks, tiles, (uint8_t*)scratch,
            kai_n_step * sizeof(uint16_t), bounds);
        const size_t rows = KAI_MIN(m - m0, tiles * kai_m_step);
        for (size_t r = 0; r < rows; ++r) {
            kai_copy_row(dst_col + (m0 + r) * dst_stride_row, (const uint8_t*)(scratch + r * kai_n_step), cols);
        }
        m0 += rows;
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
    KAI_ASSUME_MSG(m == 1 || dst_stride_row / sizeof(uint16_t) >= n,
                   "dst_stride_row must be at least n * sizeof(uint16_t) when m > 1");

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
    // k_chunks: 1 has no K loop, 2 is too short for the assembly's staggered halves (it needs 3).
    const kai_tiles_fn tiles_fn = clamp_needed ? (k_chunks > 2 ? kai_tiles_clamp_kn
                                                               : (k_chunks == 2 ? kai_tiles_clamp_k2 : kai_tiles_clamp_k1))
                                               : (k_chunks > 2 ? kai_tiles_noclamp_kn
                                                               : (k_chunks == 2 ? kai_tiles_noclamp_k2 : kai_tiles_noclamp_k1));

    // Column blocks go in pairs (24 columns, 4 x 24 tiles); a lone last block (or the only one)
    // takes the 8 x 12 path.
    const size_t n_blocks = kai_div_ceil(n, kai_nr);
    float bias_table[2 * 12 * 4];
    for (size_t nb = 0; nb < n_blocks; nb += 2) {
        const uint8_t* rhs0 = (const uint8_t*)rhs_packed + nb * rhs_block;
        if (nb + 1 == n_blocks) {
            kai_lone_column_block(
                m, n - nb * kai_nr, k_chunks, (const uint8_t*)lhs_packed, lhs_block, rhs0,
                (uint8_t*)dst + nb * kai_nr * sizeof(uint16_t), dst_stride_row, bounds, clamp_needed, bias_table);
            break;
        }
        const uint8_t* rhs1 = rhs0 + rhs_block;
        float bias[24];
        memcpy(bias, rhs0, kai_nr * sizeof(float));
        memcpy(bias + kai_nr, rhs1, kai_nr * sizeof(float));
        kai_fill_bias_table(bias_table, bias, 12, 2);
        const size_t n0 = nb * kai_nr;
        uint8_t* dst_col = (uint8_t*)dst + n0 * sizeof(uint16_t);
        const size_t cols = KAI_MIN(n - n0, 2 * kai_nr);
        const size_t full_tiles = cols == 2 * kai_nr ? (m / kai_mr) * 2 : 0;
        tiles_fn(
            (const uint8_t*)lhs_packed, lhs_block, rhs0 + kai_nr * sizeof(float), rhs1 + kai_nr * sizeof(float),
            bias_table, k_chunks, full_tiles, dst_col, dst_stride_row, bounds);
        // Ragged tiles (the last rows, or every tile of a ragged column pair) go through a scratch
        // column of up to 16 tiles (64 rows, so that every chunk starts at an 8-row LHS block), of
        // which the valid part is copied out.
        for (size_t m0 = full_tiles * 4; m0 < m;) {
            uint16_t scratch[16 * 4 * 24];
            const size_t tiles = KAI_MIN(kai_div_ceil(m - m0, 4), 16);
            tiles_fn(
                (const uint8_t*)lhs_packed + (m0 / kai_mr) * lhs_block, lhs_block, rhs0 + kai_nr * sizeof(float),
                rhs1 + kai_nr * sizeof(float), bias_table, k_chunks, tiles, (uint8_t*)scratch,
                2 * kai_nr * sizeof(uint16_t), bounds);
            const size_t rows = KAI_MIN(m - m0, tiles * 4);
            for (size_t r = 0; r < rows; ++r) {
                kai_copy_row(
                    dst_col + (m0 + r) * dst_stride_row, (const uint8_t*)(scratch + r * 2 * kai_nr), cols);
            }
            m0 += rows;
        }
    }
}
