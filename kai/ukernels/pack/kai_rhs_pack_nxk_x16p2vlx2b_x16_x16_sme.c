//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Copies a nxk 16-bit RHS and its 16-bit bias into the x16p2vlx2b layout (docs/formats.md, "x16p2vlx2b"): blocks
// of nr = 2 * SVL / 32 channels, nr * (2 + 2 * Kp) bytes each (Kp = roundup(k, 2)): nr biases, then for each pair
// of k values and each channel the two values. The pad slot of an odd k and channels past n are 0. Plain C; only
// nr depends on the streaming vector length (RDSVL, no streaming mode).

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme needs AArch64"
#endif

#include "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_n_step_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
#pragma weak kai_run_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme
// (end of the weak definitions)

static const size_t kai_kr = 2;
static const size_t kai_sr = 1;

static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float) * 2;
}

// Bytes of one packed channel: its bias and its roundup(k, 2) values.
static size_t kai_channel_bytes(size_t k) {
    return kai_mul_size_checked(kai_add_size_checked(1, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_n_step_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(size_t n_idx, size_t rhs_stride) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_bias_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

// KleidiAI's stride of this packer is per channel (its kxn twin's is per block).
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(size_t k) {
    return kai_channel_bytes(k);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, kai_channel_bytes(k));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(size_t n, size_t k) {
    return kai_mul_size_checked(kai_roundup(n, kai_nr()), kai_channel_bytes(k));
}

void kai_run_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(nr == kai_nr(), "nr must be 2 * SVL / 32");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 2");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(scale == NULL, "scale must be NULL");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params == NULL, "params must be NULL");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL || k == 0, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL (pass zeros for no bias)");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(n == 1 || rhs_stride / sizeof(uint16_t) >= k, "rhs_stride must be at least k * 2 when n > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        const size_t cols = KAI_MIN(n - n0, nr);
        memset(out, 0, nr * (1 + kp) * sizeof(uint16_t));
        memcpy(out, (const uint8_t*)bias + n0 * sizeof(uint16_t), cols * sizeof(uint16_t));
        uint16_t* data = (uint16_t*)(out + nr * sizeof(uint16_t));
        for (size_t c = 0; c < cols; ++c) {
            const uint8_t* row = (const uint8_t*)rhs + (n0 + c) * rhs_stride;
            for (size_t kk = 0; kk < k; ++kk) {
                memcpy(&data[((kk / 2) * nr + c) * 2 + kk % 2], row + kk * sizeof(uint16_t), sizeof(uint16_t));
            }
        }
        out += nr * (1 + kp) * sizeof(uint16_t);
    }
}
