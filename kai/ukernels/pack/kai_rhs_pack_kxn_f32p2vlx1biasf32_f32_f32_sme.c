//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a kxn f32 RHS and its bias into the f32p2vlx1biasf32 layout (docs/formats.md, "SME packed layouts"):
// blocks of nr = 2 * SVL / 32 channels, stride nr * (1 + k) * 4 bytes: nr biases, then for each k the nr values
// rhs[k][n], one contiguous run of the source row per k. Channels past n are 0. Plain C; only nr depends on the
// streaming vector length (RDSVL, no streaming mode).

#if !defined(__aarch64__)
#error "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme needs AArch64"
#endif

#include "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_get_n_step_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
#pragma weak kai_run_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme
// (end of the weak definitions)

static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float) * 2;
}

size_t kai_get_n_step_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_bias_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t k) {
    return kai_mul_size_checked(kai_nr(), kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n, size_t k) {
    return kai_mul_size_checked(kai_roundup(n, kai_nr()), kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

void kai_run_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride_row, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(nr == kai_nr(), "nr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 1");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(scale == NULL, "scale must be NULL");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params == NULL, "params must be NULL");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL (pass zeros for no bias)");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row / sizeof(float) >= n, "rhs_stride must be at least n * 4 when k > 1");

    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t cols = KAI_MIN(n - n0, nr);
        const size_t pad = (nr - cols) * sizeof(float);
        memcpy(out, (const uint8_t*)bias + n0 * sizeof(float), cols * sizeof(float));
        memset(out + cols * sizeof(float), 0, pad);
        out += nr * sizeof(float);
        const uint8_t* row = (const uint8_t*)rhs + n0 * sizeof(float);
        for (size_t kk = 0; kk < k; ++kk, row += rhs_stride_row, out += nr * sizeof(float)) {
            memcpy(out, row, cols * sizeof(float));
            memset(out + cols * sizeof(float), 0, pad);
        }
    }
}
