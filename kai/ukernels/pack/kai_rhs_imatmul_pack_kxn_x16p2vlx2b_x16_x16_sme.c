//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a K x N RHS of 16-bit values (K = k_chunk_count * k_chunk_length rows, chunk c the rows c * k_chunk_length
// ...) and N 16-bit biases in the x16p2vlx2b layout (docs/formats.md, "Indirect GEMM packed layouts"): blocks of
// nr = 2 * SVL / 32 columns; a block is the nr biases, then for each chunk, its length padded to even (kcp =
// roundup(k_chunk_length, 2)), and each pair p of the chunk, the nr columns' two values (rows c * k_chunk_length +
// 2p and + 2p + 1; the pad of an odd chunk is 0); columns past n are 0 (biases and values). Values are copied as
// 16-bit patterns, in plain C (no streaming mode).

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME)
#error "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme needs AArch64 with FEAT_SME"
#endif

#include "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_n_step_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
// (end of the weak definitions)

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
}

size_t kai_get_n_step_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t k_chunk_count, size_t k_chunk_length) {
    const size_t kp = kai_mul_size_checked(k_chunk_count, kai_roundup(k_chunk_length, 2));
    return kai_mul_size_checked(kai_nr(), kai_mul_size_checked(kai_add_size_checked(kp, 1), sizeof(uint16_t)));
}

size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx / nr, kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(k_chunk_count, k_chunk_length));
}

size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
        kai_roundup(n, kai_nr()), k_chunk_count, k_chunk_length);
}

// The 16-bit value at row r, column j of the unpacked RHS.
static uint16_t kai_load16(const uint8_t* base, size_t stride, size_t r, size_t j) {
    uint16_t v;
    memcpy(&v, base + r * stride + j * sizeof(uint16_t), sizeof(v));
    return v;
}

void kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed) {
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row / sizeof(uint16_t) >= n, "rhs_stride_row must be at least n * 2 when K > 1");
    const size_t size = kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(n, k_chunk_count, k_chunk_length);
    const size_t nr = kai_nr();
    const size_t kcp = kai_roundup(k_chunk_length, 2);
    const uint8_t* src = (const uint8_t*)rhs;

    memset(rhs_packed, 0, size);
    uint16_t* out = (uint16_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t width = KAI_MIN(n - n0, nr);
        for (size_t j = 0; j < width; ++j) {
            out[j] = kai_load16((const uint8_t*)bias, 0, 0, n0 + j);
        }
        out += nr;
        for (size_t c = 0; c < k_chunk_count; ++c) {
            for (size_t kk = 0; kk < k_chunk_length; ++kk) {
                const size_t r = c * k_chunk_length + kk;
                for (size_t j = 0; j < width; ++j) {
                    out[(kk / 2) * nr * 2 + j * 2 + kk % 2] = kai_load16(src, rhs_stride_row, r, n0 + j);
                }
            }
            out += nr * kcp;
        }
    }
}
