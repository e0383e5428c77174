//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a kxn f32 RHS and its bias into f32p8x1biasf32 (docs/formats.md, "f32p8x1biasf32 RHS"): blocks of 8
// columns, stride 8 * (1 + k) * 4 bytes: 8 biases, then for each k the 8 values rhs[k][j]; columns past n are 0.
// A full block copies two vectors per row; the ragged last block is zeroed first and then gets its n % 8 values.

#if !defined(__aarch64__)
#error "kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon needs AArch64"
#endif

#include "kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
#pragma weak kai_get_n_step_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
#pragma weak kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon
// (end of the weak definitions)

static const size_t kai_nr = 8;
static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

size_t kai_get_n_step_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(void) {
    return kai_nr;
}

size_t kai_get_rhs_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (8)");
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_bias_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (8)");
    return kai_mul_size_checked(n_idx, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n, size_t k) {
    return kai_get_rhs_packed_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(kai_roundup(n, kai_nr), k);
}

void kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(nr == kai_nr, "nr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 1");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(scale == NULL, "scale must be NULL");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params == NULL, "params must be NULL");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL || k == 0, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_stride % sizeof(float) == 0, "rhs_stride must be a multiple of 4");
    KAI_ASSUME_MSG(k <= 1 || rhs_stride >= n * sizeof(float), "rhs_stride must be at least n * 4");

    const size_t row = rhs_stride / sizeof(float);
    const float* src = (const float*)rhs;
    const float* b = (const float*)bias;
    float* out = (float*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        if (n - n0 >= kai_nr) {
            vst1q_f32(out, vld1q_f32(b + n0));
            vst1q_f32(out + 4, vld1q_f32(b + n0 + 4));
            out += kai_nr;
            const float* s = src + n0;
            for (size_t kk = 0; kk < k; ++kk, s += row, out += kai_nr) {
                vst1q_f32(out, vld1q_f32(s));
                vst1q_f32(out + 4, vld1q_f32(s + 4));
            }
        } else {
            const size_t cols = n - n0;
            memset(out, 0, kai_nr * (1 + k) * sizeof(float));
            memcpy(out, b + n0, cols * sizeof(float));
            out += kai_nr;
            const float* s = src + n0;
            for (size_t kk = 0; kk < k; ++kk, s += row, out += kai_nr) {
                memcpy(out, s, cols * sizeof(float));
            }
        }
    }
}
