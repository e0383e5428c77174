//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
#error "kai_lhs_quant_pack_bf16p8x4_f32_neon needs AArch64 with FEAT_BF16"
#endif

// Packs f32 rows into the bf16p8x4 layout (docs/matmul_bf16.md): blocks of 8 rows x Kp bf16,
// Kp = roundup(k, 4); inside a block, for each group of 4 k values, rows 0..7 x 4 bf16 (64 bytes).
// Element (i, k) lands at byte (i / 8) * 16 * Kp + (k / 4) * 64 + (i % 8) * 8 + (k % 4) * 2.
// k >= K is 0; rows past m in the last block repeat the block's first row (as KleidiAI does).
// BFCVTN/BFCVTN2 round to nearest even (default FPCR); one pair converts the same 4 k values of
// two rows into the 16 bytes the kernel loads as one BFMMLA operand.

#include "kai_lhs_quant_pack_bf16p8x4_f32_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_bf16p8x4_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_bf16p8x4_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_bf16p8x4_f32_neon
#pragma weak kai_run_lhs_quant_pack_bf16p8x4_f32_neon
// (end of the weak definitions)

static const size_t kai_mr = 8;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_m_step_lhs_quant_pack_bf16p8x4_f32_neon(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    return kai_mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_bf16p8x4_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_bf16p8x4_f32_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(
        kai_mul_size_checked(kai_roundup(m, kai_mr), kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

// Converts the same 4 k values of two rows and stores them as one 16-byte row pair.
static inline void kai_pack_pair(bfloat16_t* out, float32x4_t row_a, float32x4_t row_b) {
    vst1q_bf16(out, vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(row_a), row_b));
}

void kai_run_lhs_quant_pack_bf16p8x4_f32_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / 4 >= k, "lhs_stride must be at least k * 4 when m > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    const size_t full_chunks = k / kai_kr;
    const size_t tail = k % kai_kr;
    bfloat16_t* out = (bfloat16_t*)lhs_packed;

    for (size_t m0 = 0; m0 < m; m0 += kai_mr) {
        const float* row[8];
        for (size_t r = 0; r < kai_mr; ++r) {
            const size_t i = (m0 + r < m) ? m0 + r : m0;
            row[r] = (const float*)(const void*)((const uint8_t*)lhs + i * lhs_stride);
        }

        size_t c = 0;
        // Two groups of 4 k values per row and iteration: 8 LDP, 16 conversions, 8 stores.
        for (; c + 2 <= full_chunks; c += 2) {
            for (size_t r = 0; r < kai_mr; r += 2) {
                const float* a = row[r] + c * kai_kr;
                const float* b = row[r + 1] + c * kai_kr;
                kai_pack_pair(out + c * 32 + r * 4, vld1q_f32(a), vld1q_f32(b));
                kai_pack_pair(out + c * 32 + 32 + r * 4, vld1q_f32(a + 4), vld1q_f32(b + 4));
            }
        }
        for (; c < full_chunks; ++c) {
            for (size_t r = 0; r < kai_mr; r += 2) {
                kai_pack_pair(out + c * 32 + r * 4, vld1q_f32(row[r] + c * kai_kr), vld1q_f32(row[r + 1] + c * kai_kr));
            }
        }
        if (tail != 0) {
            // Last group: the k values present, then zeros.
            for (size_t r = 0; r < kai_mr; r += 2) {
                float a[4] = {0.0F, 0.0F, 0.0F, 0.0F};
                float b[4] = {0.0F, 0.0F, 0.0F, 0.0F};
                memcpy(a, row[r] + c * kai_kr, tail * sizeof(float));
                memcpy(b, row[r + 1] + c * kai_kr, tail * sizeof(float));
                kai_pack_pair(out + c * 32 + r * 4, vld1q_f32(a), vld1q_f32(b));
            }
        }
        out += kai_mr * kp;
    }
}
