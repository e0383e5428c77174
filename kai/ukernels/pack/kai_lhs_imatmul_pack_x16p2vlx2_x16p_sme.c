//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Gathers the chunks of each row through the pointer table and packs them in the x16p2vlx2 layout (docs/formats.md,
// "Indirect GEMM packed layouts"): blocks of mr = 2 * SVL / 32 rows; in a block, for each chunk, its length padded
// to even, kcp = roundup(k_chunk_length, 2), and for each pair p of the chunk, the mr rows' two 16-bit values
// (element (y, k) of chunk c at byte (c * mr * kcp + (k / 2) * mr * 2 + y * 2 + k % 2) * 2 of the block). The pad
// value of an odd chunk and the rows past m are 0. Values are copied as 16-bit patterns, in plain C (no
// streaming mode).

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME)
#error "kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme needs AArch64 with FEAT_SME"
#endif

#include "kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_packed_offset_lhs_imatmul_pack_x16p2vlx2_x16p_sme
#pragma weak kai_get_lhs_packed_size_lhs_imatmul_pack_x16p2vlx2_x16p_sme
#pragma weak kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme
#pragma weak kai_run_lhs_imatmul_pack_x16p2vlx2_x16p_sme
// (end of the weak definitions)

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_mr(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
}

size_t kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme(void) {
    return kai_mr();
}

size_t kai_get_lhs_packed_offset_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of the m step");
    const size_t kp = kai_mul_size_checked(k_chunk_count, kai_roundup(k_chunk_length, 2));
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kp), sizeof(uint16_t));
}

size_t kai_get_lhs_packed_size_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_lhs_packed_offset_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
        kai_roundup(m, kai_mr()), k_chunk_count, k_chunk_length);
}

void kai_run_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs, size_t lhs_ptr_offset,
    const void* pad_ptr, void* lhs_packed) {
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_ptrs != NULL, "lhs_ptrs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    const size_t mr = kai_mr();
    const size_t kcp = kai_roundup(k_chunk_length, 2);
    // Values of one chunk of a block (checked once through the size; every offset below is less).
    (void)kai_get_lhs_packed_size_lhs_imatmul_pack_x16p2vlx2_x16p_sme(m, k_chunk_count, k_chunk_length);
    const size_t chunk_values = mr * kcp;

    uint16_t* out = (uint16_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t height = KAI_MIN(m - m0, mr);
        const void* const* block_ptrs = lhs_ptrs + m0 * k_chunk_count;
        for (size_t c = 0; c < k_chunk_count; ++c) {
            memset(out, 0, chunk_values * sizeof(uint16_t));
            for (size_t y = 0; y < height; ++y) {
                // Integer arithmetic: a table of offsets (lhs_ptr_offset the base address) may hold a NULL entry.
                const void* ptr = block_ptrs[c * mr + y];
                const uint8_t* row = (const uint8_t*)ptr;
                if (ptr != pad_ptr) {
                    row = (const uint8_t*)((uintptr_t)ptr + lhs_ptr_offset);
                }
                for (size_t k = 0; k < k_chunk_length; ++k) {
                    uint16_t v;
                    memcpy(&v, row + k * sizeof(uint16_t), sizeof(v));
                    out[(k / 2) * mr * 2 + y * 2 + k % 2] = v;
                }
            }
            out += chunk_values;
        }
    }
}
