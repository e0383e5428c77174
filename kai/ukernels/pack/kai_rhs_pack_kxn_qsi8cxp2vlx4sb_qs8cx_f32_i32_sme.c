//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a K x N int8 RHS into the qsi8cxp2vlx4sb layout (docs/formats.md, "qsi8cxp2vlx4sb RHS"): blocks of
// nr = 2 * SVL / 32 channels, stride nr * (Kp + 8) bytes (Kp = roundup(k, 4)): nr int32 biases
// bias[j] - lhs_zero_point * sum_k rhs[k][j] (wrapping int32 arithmetic), the data with byte (k, j) at
// (k / 4 * nr + j) * 4 + k % 4, then nr f32 scales scale[j] * scale_multiplier. Padding is zero. Plain C: only nr
// depends on the streaming vector length, read with RDSVL.

#if !defined(__aarch64__)
#error "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme needs AArch64"
#endif

#include "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_get_scale_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
#pragma weak kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme
// (end of the weak definitions)

static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / 4 * 2;
}

size_t kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return n_idx;
}

size_t kai_get_bias_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(int32_t));
}

size_t kai_get_scale_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t k) {
    return kai_mul_size_checked(kai_nr(), kai_add_size_checked(kai_roundup(k, kai_kr), 8));
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx, size_t k) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx / nr, kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(k));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n, size_t k) {
    return kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(kai_roundup(n, kai_nr()), k);
}

void kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride_row, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_qsi8cx_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(nr == kai_nr(), "nr must be the n step (2 * SVL / 32)");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    KAI_UNUSED(extra_bytes);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL || k == 0, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row >= n, "rhs_stride_row must be at least n when k > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    const uint8_t* src = (const uint8_t*)rhs;
    const uint8_t* bias_bytes = (const uint8_t*)bias;
    const uint8_t* scale_bytes = (const uint8_t*)scale;
    const uint32_t zp = (uint32_t)params->lhs_zero_point;
    const float mult = params->scale_multiplier;
    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t cols = KAI_MIN(n - n0, nr);
        uint8_t* data = out + nr * sizeof(int32_t);
        uint8_t* scales = data + nr * kp;
        memset(out, 0, nr * (kp + 8));
        for (size_t j = 0; j < cols; ++j) {
            uint32_t sum = 0;
            for (size_t kk = 0; kk < k; ++kk) {
                const int8_t v = (int8_t)src[kk * rhs_stride_row + n0 + j];
                data[(kk / kai_kr * nr + j) * kai_kr + kk % kai_kr] = (uint8_t)v;
                sum = (uint32_t)((int64_t)sum + v);  // the int32 column sum, wrapping (kept unsigned)
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
        out += nr * (kp + 8);
    }
}
