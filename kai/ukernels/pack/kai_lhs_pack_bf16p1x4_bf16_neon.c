//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs one bf16 row (raw bit patterns) into the bf16p1x4 layout (docs/matmul_bf16.md):
// Kp = roundup(k, 4) bf16 values in k order, zeros for k >= K. Portable C: a copy and a pad.

#include "kai_lhs_pack_bf16p1x4_bf16_neon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_bf16p1x4_bf16_neon
#pragma weak kai_get_lhs_packed_offset_lhs_pack_bf16p1x4_bf16_neon
#pragma weak kai_get_lhs_packed_size_lhs_pack_bf16p1x4_bf16_neon
#pragma weak kai_get_m_step_lhs_pack_bf16p1x4_bf16_neon
#pragma weak kai_run_lhs_pack_bf16p1x4_bf16_neon
// (end of the weak definitions)

static const size_t kai_mr = 1;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_m_step_lhs_pack_bf16p1x4_bf16_neon(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    return kai_mr;
}

size_t kai_get_lhs_offset_lhs_pack_bf16p1x4_bf16_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_pack_bf16p1x4_bf16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_lhs_packed_size_lhs_pack_bf16p1x4_bf16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(kai_mul_size_checked(m, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

void kai_run_lhs_pack_bf16p1x4_bf16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    KAI_ASSUME_MSG(m <= 1, "m must be 1");
    KAI_UNUSED(lhs_stride);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");

    const size_t kp = kai_roundup(k, kai_kr);
    memcpy(lhs_packed, lhs, k * sizeof(uint16_t));
    memset((uint8_t*)lhs_packed + k * sizeof(uint16_t), 0, (kp - k) * sizeof(uint16_t));
}
