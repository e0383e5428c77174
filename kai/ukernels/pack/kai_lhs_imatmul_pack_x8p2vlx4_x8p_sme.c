//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs an indirect 8-bit LHS (docs/formats.md, "Indirect x8p2vlx4 LHS"): per block of mr = 2 * SVL / 32 rows and
// per chunk c, one x8p2vlx4 tile of mr x Kc bytes (Kc = roundup(k_chunk_length, 4)), byte (r, k) at
// (k / 4 * mr + r) * 4 + k % 4, rows past m and K past k_chunk_length zero. The rows come from the pointer table
// (entry (b * k_chunk_count + c) * mr + r; lhs_ptr_offset added unless the entry is pad_ptr). Plain C: only mr
// depends on the streaming vector length, read with RDSVL.

#if !defined(__aarch64__)
#error "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme needs AArch64"
#endif

#include "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme
#pragma weak kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme
#pragma weak kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme
#pragma weak kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme
// (end of the weak definitions)

static const size_t kai_kr = 4;

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_mr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4 * 2;
}

size_t kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme(void) {
    return kai_mr();
}

size_t kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of the m step");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, k_chunk_count), kai_roundup(k_chunk_length, kai_kr));
}

size_t kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(size_t m, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
        kai_roundup(m, kai_mr()), k_chunk_count, k_chunk_length);
}

void kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs, size_t lhs_ptr_offset,
    const void* pad_ptr, void* lhs_packed) {
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_ptrs != NULL, "lhs_ptrs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");

    const size_t mr = kai_mr();
    const size_t kc = kai_roundup(k_chunk_length, kai_kr);
    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t rows = KAI_MIN(m - m0, mr);
        for (size_t c = 0; c < k_chunk_count; ++c) {
            const void* const* entries = lhs_ptrs + (m0 / mr * k_chunk_count + c) * mr;
            memset(out, 0, mr * kc);
            for (size_t r = 0; r < rows; ++r) {
                const uint8_t* src = (const uint8_t*)entries[r];
                if (entries[r] != pad_ptr) {
                    src += lhs_ptr_offset;
                }
                for (size_t kk = 0; kk < k_chunk_length; ++kk) {
                    out[(kk / kai_kr * mr + r) * kai_kr + kk % kai_kr] = src[kk];
                }
            }
            out += mr * kc;
        }
    }
}
