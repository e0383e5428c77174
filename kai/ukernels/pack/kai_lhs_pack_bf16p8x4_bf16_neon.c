//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs bf16 rows (raw bit patterns) into the bf16p8x4 layout (docs/matmul_bf16.md): blocks of 8 rows x Kp bf16,
// Kp = roundup(k, 4); inside a block, for each group of 4 k values, rows 0..7 x 4 bf16 (64 bytes).
// Element (i, k) lands at byte (i / 8) * 16 * Kp + (k / 4) * 64 + (i % 8) * 8 + (k % 4) * 2.
// k >= K is 0; rows past m in the last block repeat the block's first row (as KleidiAI does).
// The values are copied unchanged, so the packer is portable C (no FEAT_BF16 needed).

#include "kai_lhs_pack_bf16p8x4_bf16_neon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_bf16p8x4_bf16_neon
#pragma weak kai_get_lhs_packed_offset_lhs_pack_bf16p8x4_bf16_neon
#pragma weak kai_get_lhs_packed_size_lhs_pack_bf16p8x4_bf16_neon
#pragma weak kai_get_m_step_lhs_pack_bf16p8x4_bf16_neon
#pragma weak kai_run_lhs_pack_bf16p8x4_bf16_neon
// (end of the weak definitions)

static const size_t kai_mr = 8;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_m_step_lhs_pack_bf16p8x4_bf16_neon(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    return kai_mr;
}

size_t kai_get_lhs_offset_lhs_pack_bf16p8x4_bf16_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_pack_bf16p8x4_bf16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_lhs_packed_size_lhs_pack_bf16p8x4_bf16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(
        kai_mul_size_checked(kai_roundup(m, kai_mr), kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

void kai_run_lhs_pack_bf16p8x4_bf16_neon(
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
    KAI_ASSUME_MSG(m == 1 || lhs_stride / 2 >= k, "lhs_stride must be at least k * 2 when m > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += kai_mr) {
        for (size_t r = 0; r < kai_mr; ++r) {
            const size_t i = (m0 + r < m) ? m0 + r : m0;
            const uint8_t* row = (const uint8_t*)lhs + i * lhs_stride;
            for (size_t c = 0; c < kp / kai_kr; ++c) {
                // 4 k values (8 bytes) of row r at (c * 8 + r) * 8; zeros past k.
                uint8_t* o = out + (c * kai_mr + r) * kai_kr * sizeof(uint16_t);
                const size_t valid = KAI_MIN(k - c * kai_kr, kai_kr);
                memset(o, 0, kai_kr * sizeof(uint16_t));
                memcpy(o, row + c * kai_kr * sizeof(uint16_t), valid * sizeof(uint16_t));
            }
        }
        out += kai_mr * kp * sizeof(uint16_t);
    }
}
