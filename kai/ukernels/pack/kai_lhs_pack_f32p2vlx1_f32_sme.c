//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs f32 rows into the f32p2vlx1 layout (docs/matmul_sme.md): blocks of mr = 2 * SVL / 32 rows; inside a
// block, for each k, the mr values of column k (element (r, k) at byte (k * mr + r) * 4). Rows past m are 0.0.
// The copy is plain C: only mr depends on the streaming vector length, read with RDSVL (no streaming mode).

#if !defined(__aarch64__)
#error "kai_lhs_pack_f32p2vlx1_f32_sme needs AArch64"
#endif

#include "kai_lhs_pack_f32p2vlx1_f32_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_f32p2vlx1_f32_sme
#pragma weak kai_get_lhs_packed_offset_lhs_pack_f32p2vlx1_f32_sme
#pragma weak kai_get_lhs_packed_size_lhs_pack_f32p2vlx1_f32_sme
#pragma weak kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme
#pragma weak kai_run_lhs_pack_f32p2vlx1_f32_sme
// (end of the weak definitions)

static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

// 2 * the f32 lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_mr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float) * 2;
}

size_t kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    return mr;
}

size_t kai_get_lhs_offset_lhs_pack_f32p2vlx1_f32_sme(size_t m_idx, size_t lhs_stride_row) {
    return kai_mul_size_checked(m_idx, lhs_stride_row);
}

size_t kai_get_lhs_packed_offset_lhs_pack_f32p2vlx1_f32_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 1");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, k), sizeof(float));
}

size_t kai_get_lhs_packed_size_lhs_pack_f32p2vlx1_f32_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 1");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(kai_mul_size_checked(kai_roundup(m, mr), k), sizeof(float));
}

void kai_run_lhs_pack_f32p2vlx1_f32_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 1");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride_row / sizeof(float) >= k, "lhs_stride_row must be at least k * 4 when m > 1");

    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t rows = KAI_MIN(m - m0, mr);
        for (size_t kk = 0; kk < k; ++kk) {
            uint8_t* col = out + kk * mr * sizeof(float);
            for (size_t r = 0; r < rows; ++r) {
                memcpy(col + r * sizeof(float),
                       (const uint8_t*)lhs + (m0 + r) * lhs_stride_row + kk * sizeof(float), sizeof(float));
            }
            memset(col + rows * sizeof(float), 0, (mr - rows) * sizeof(float));
        }
        out += mr * k * sizeof(float);
    }
}
