//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Copies 16-bit rows into the x16p2vlx2 layout (docs/formats.md, "x16p2vlx2"): blocks of mr = 2 * SVL / 32 rows x
// Kp = roundup(k, 2) values; element (r, k) at halfword ((k / 2) * mr + r) * 2 + k % 2. Pad column and rows past
// m are 0. Plain C; only mr depends on the streaming vector length (RDSVL, no streaming mode).

#if !defined(__aarch64__)
#error "kai_lhs_pack_x16p2vlx2_x16_sme needs AArch64"
#endif

#include "kai_lhs_pack_x16p2vlx2_x16_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_x16p2vlx2_x16_sme
#pragma weak kai_get_lhs_packed_offset_lhs_pack_x16p2vlx2_x16_sme
#pragma weak kai_get_lhs_packed_size_lhs_pack_x16p2vlx2_x16_sme
#pragma weak kai_get_m_step_lhs_pack_x16p2vlx2_x16_sme
#pragma weak kai_run_lhs_pack_x16p2vlx2_x16_sme
// (end of the weak definitions)

static const size_t kai_kr = 2;
static const size_t kai_sr = 1;

static size_t kai_mr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float) * 2;
}

size_t kai_get_m_step_lhs_pack_x16p2vlx2_x16_sme(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    return mr;
}

size_t kai_get_lhs_offset_lhs_pack_x16p2vlx2_x16_sme(size_t m_idx, size_t lhs_stride_row) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, lhs_stride_row);
}

size_t kai_get_lhs_packed_offset_lhs_pack_x16p2vlx2_x16_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 2");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_lhs_packed_size_lhs_pack_x16p2vlx2_x16_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 2");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(kai_mul_size_checked(kai_roundup(m, mr), kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

void kai_run_lhs_pack_x16p2vlx2_x16_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 2");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride_row / sizeof(uint16_t) >= k, "lhs_stride_row must be at least k * 2 when m > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    uint16_t* out = (uint16_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t rows = KAI_MIN(m - m0, mr);
        memset(out, 0, mr * kp * sizeof(uint16_t));
        for (size_t r = 0; r < rows; ++r) {
            const uint8_t* row = (const uint8_t*)lhs + (m0 + r) * lhs_stride_row;
            for (size_t kk = 0; kk < k; ++kk) {
                memcpy(&out[((kk / 2) * mr + r) * 2 + kk % 2], row + kk * sizeof(uint16_t), sizeof(uint16_t));
            }
        }
        out += mr * kp;
    }
}
