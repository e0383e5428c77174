//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs 8-bit rows into the x8p2vlx4 layout (docs/formats.md, "x8p2vlx4 LHS"): blocks of mr = 2 * SVL / 32 rows,
// stride mr * Kp bytes (Kp = roundup(k, 4)); byte (r, k) of a block at (k / 4 * mr + r) * 4 + k % 4. Padding (K past
// k, rows past m) is zero. Plain C: only mr depends on the streaming vector length, read with RDSVL.

#if !defined(__aarch64__)
#error "kai_lhs_pack_x8p2vlx4_x8_sme needs AArch64"
#endif

#include "kai_lhs_pack_x8p2vlx4_x8_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_x8p2vlx4_x8_sme
#pragma weak kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme
#pragma weak kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme
#pragma weak kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme
#pragma weak kai_run_lhs_pack_x8p2vlx4_x8_sme
// (end of the weak definitions)

static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_mr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4 * 2;
}

static void kai_check_params(size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr(), "mr must be 2 * SVL / 32");
    return mr;
}

size_t kai_get_lhs_offset_lhs_pack_x8p2vlx4_x8_sme(size_t m_idx, size_t lhs_stride_row) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, lhs_stride_row);
}

size_t kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    kai_check_params(mr, kr, sr);
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr));
}

size_t kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    kai_check_params(mr, kr, sr);
    return kai_mul_size_checked(kai_roundup(m, mr), kai_roundup(k, kai_kr));
}

void kai_run_lhs_pack_x8p2vlx4_x8_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed) {
    kai_check_params(mr, kr, sr);
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    KAI_UNUSED(m_idx_start);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride_row >= k, "lhs_stride_row must be at least k when m > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    const uint8_t* src = (const uint8_t*)lhs;
    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t rows = KAI_MIN(m - m0, mr);
        memset(out, 0, mr * kp);
        for (size_t r = 0; r < rows; ++r) {
            const uint8_t* row = src + (m0 + r) * lhs_stride_row;
            for (size_t kk = 0; kk < k; ++kk) {
                out[(kk / kai_kr * mr + r) * kai_kr + kk % kai_kr] = row[kk];
            }
        }
        out += mr * kp;
    }
}
