//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs the RHS of an indirect matmul (docs/formats.md, "Indirect qsi8cxp2vlx4sb RHS"): blocks of nr = 2 * SVL / 32
// channels, stride nr * (kcc * Kc + 8) bytes (Kc = roundup(k_chunk_length, 4)): nr int32 biases
// bias[j] - lhs_zero_point * sum_k rhs[k][j] (wrapping int32), then per chunk c the bytes of its rows with row
// (c * k_chunk_length + r, j) at c * nr * Kc + (r / 4 * nr + j) * 4 + r % 4, then nr f32 scales
// scale[j] * scale_multiplier. Padding is zero. Plain C: only nr depends on the SVL, read with RDSVL.

#if !defined(__aarch64__)
#error "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme needs AArch64"
#endif

#include "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_scale_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
// (end of the weak definitions)

static const size_t kai_kr = 4;

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4 * 2;
}

size_t kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return n_idx;
}

size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(int32_t));
}

size_t kai_get_scale_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t k_chunk_count, size_t k_chunk_length) {
    const size_t data = kai_mul_size_checked(k_chunk_count, kai_roundup(k_chunk_length, kai_kr));
    return kai_mul_size_checked(kai_nr(), kai_add_size_checked(data, 8));
}

size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx / nr, kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(k_chunk_count, k_chunk_length));
}

size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
        kai_roundup(n, kai_nr()), k_chunk_count, k_chunk_length);
}

void kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    const void* scale, void* rhs_packed, const struct kai_rhs_pack_qsi8cx_params* params) {
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    if (n == 0) {
        return;
    }
    const size_t k = k_chunk_count * k_chunk_length;
    KAI_ASSUME_MSG(rhs != NULL || k == 0, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row >= n, "rhs_stride_row must be at least n when there are two rows or more");

    const size_t nr = kai_nr();
    const size_t kc = kai_roundup(k_chunk_length, kai_kr);
    const size_t block = nr * (k_chunk_count * kc + 8);
    const uint8_t* src = (const uint8_t*)rhs;
    const uint8_t* bias_bytes = (const uint8_t*)bias;
    const uint8_t* scale_bytes = (const uint8_t*)scale;
    const uint32_t zp = (uint32_t)params->lhs_zero_point;
    const float mult = params->scale_multiplier;
    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t cols = KAI_MIN(n - n0, nr);
        uint8_t* data = out + nr * sizeof(int32_t);
        uint8_t* scales = data + nr * k_chunk_count * kc;
        memset(out, 0, block);
        for (size_t j = 0; j < cols; ++j) {
            uint32_t sum = 0;
            for (size_t c = 0; c < k_chunk_count; ++c) {
                uint8_t* chunk = data + c * nr * kc;
                for (size_t r = 0; r < k_chunk_length; ++r) {
                    const int8_t v = (int8_t)src[(c * k_chunk_length + r) * rhs_stride_row + n0 + j];
                    chunk[(r / kai_kr * nr + j) * kai_kr + r % kai_kr] = (uint8_t)v;
                    sum = (uint32_t)((int64_t)sum + v);  // the int32 column sum, wrapping (kept unsigned)
                }
            }
            int32_t b;
            float s;
            memcpy(&b, bias_bytes + (n0 + j) * sizeof(int32_t), sizeof(b));
            memcpy(&s, scale_bytes + (n0 + j) * sizeof(float), sizeof(s));
            const uint32_t folded = (uint32_t)b - zp * sum;
            const float scaled = s * mult;
            memcpy(out + j * sizeof(int32_t), &folded, sizeof(folded));
            memcpy(scales + j * sizeof(float), &scaled, sizeof(scaled));
        }
        out += block;
    }
}
