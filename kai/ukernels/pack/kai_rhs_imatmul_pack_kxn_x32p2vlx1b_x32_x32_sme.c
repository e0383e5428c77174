//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a K x N RHS of 32-bit values and N 32-bit biases in the x32p2vlx1b layout (docs/formats.md, "Indirect GEMM
// packed layouts"): blocks of nr = 2 * SVL / 32 columns; a block is the nr biases, then for each k < K the nr values
// of row k; columns past n are 0. The copy is plain C: only nr depends on the streaming vector length, read with
// RDSVL (no streaming mode).

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME)
#error "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme needs AArch64 with FEAT_SME"
#endif

#include "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_n_step_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
// (end of the weak definitions)

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
}

size_t kai_get_n_step_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx, sizeof(uint32_t));
}

size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(uint32_t));
}

size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t k_chunk_count, size_t k_chunk_length) {
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    return kai_mul_size_checked(kai_nr(), kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(uint32_t)));
}

size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx / nr, kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(k_chunk_count, k_chunk_length));
}

size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
        kai_roundup(n, kai_nr()), k_chunk_count, k_chunk_length);
}

void kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed) {
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row / sizeof(uint32_t) >= n, "rhs_stride_row must be at least n * 4 when K > 1");
    const size_t nr = kai_nr();
    (void)kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(n, k_chunk_count, k_chunk_length);

    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t cols = KAI_MIN(n - n0, nr);
        const size_t pad = (nr - cols) * sizeof(uint32_t);
        memcpy(out, (const uint8_t*)bias + n0 * sizeof(uint32_t), cols * sizeof(uint32_t));
        memset(out + cols * sizeof(uint32_t), 0, pad);
        out += nr * sizeof(uint32_t);
        for (size_t kk = 0; kk < k; ++kk) {
            memcpy(out, (const uint8_t*)rhs + kk * rhs_stride_row + n0 * sizeof(uint32_t), cols * sizeof(uint32_t));
            memset(out + cols * sizeof(uint32_t), 0, pad);
            out += nr * sizeof(uint32_t);
        }
    }
}
