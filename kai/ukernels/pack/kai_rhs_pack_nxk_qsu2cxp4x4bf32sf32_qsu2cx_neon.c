//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon needs AArch64 (NEON)"
#endif

// Packs nxk 2-bit weight codes for the qsu2cxp NEON kernels (docs/formats.md, "qsu2cxp4x4 RHS").
//
// Operation: for each block of 4 channels and each group g of 16 K values, 16 bytes: channel j's
// 4 bytes at 4j, byte i = c[16g + i] | c[16g + 4 + i] << 2 | c[16g + 8 + i] << 4 | c[16g + 12 + i] << 6
// (c[k] the code of K index k); after the data 4 int32 sums of lut[c[k]] over k, 4 f32 scales and 4
// f32 biases (0 if NULL). Channels past n: bytes 0xAA, sum, scale and bias 0.
//
// The input's 4 bytes of a group hold c[16g + 4s + i] at bit 8s + 2i; the packed word wants it at bit
// 8i + 2s: a transpose of a 4x4 matrix of 2-bit fields, done on the 32-bit word with two masked
// swaps (the 2x2 blocks of fields, then the fields within each block). The sums come from a table of
// the 256 byte values' sums of look-up values, built once per call.

#include "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
#pragma weak kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon
// (end of the weak definitions)

static const size_t kai_k_chunk = 32;  // K must be a multiple of 32
static const size_t kai_nr_fixed = 4;
static const int32_t kai_default_lut[4] = {-2, -1, 0, 1};

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 4, 12));
}

size_t kai_get_n_step_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(k, nr, kr, sr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    return kai_mul_size_checked(
        kai_roundup(n, nr) / nr, kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(k, nr, kr, sr));
}

// Transposes the 4x4 matrix of 2-bit fields of w (field (s, i) at bit 8s + 2i goes to bit 8i + 2s).
static inline uint32_t kai_transpose_2bit_4x4(uint32_t w) {
    uint32_t t = ((w >> 12) ^ w) & 0x0000F0F0u;
    w ^= t ^ (t << 12);
    t = ((w >> 6) ^ w) & 0x00CC00CCu;
    w ^= t ^ (t << 6);
    return w;
}

void kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon_params* params, const int32_t* lut_arg) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    KAI_ASSUME_MSG(k >= 1 && k % kai_k_chunk == 0, "k must be a positive multiple of 32");
    KAI_ASSUME_MSG(nr == kai_nr_fixed, "nr must be 4");
    KAI_ASSUME_MSG(sr >= 1 && kr == 4 * sr, "kr must be 4 * sr");
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 2, "params->rhs_zero_point must be 2");
    const int32_t* lut = lut_arg != NULL ? lut_arg : kai_default_lut;
    for (size_t c = 0; c < 4; ++c) {
        KAI_ASSUME_MSG(lut[c] >= -64 && lut[c] <= 63, "lut_arg entries must be in [-64, 63]");
    }
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);

    // byte_sum[b]: the sum of the look-up values of the four codes of byte b.
    int32_t byte_sum[256];
    for (size_t b = 0; b < 256; ++b) {
        byte_sum[b] = lut[b & 3] + lut[(b >> 2) & 3] + lut[(b >> 4) & 3] + lut[b >> 6];
    }

    const size_t row_bytes = k / 4;
    const size_t stride = kai_packed_stride(k, nr);
    const size_t groups = k / 16;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        int32_t sums[4];
        float scales[4];
        float biases[4];
        for (size_t j = 0; j < nr; ++j) {
            uint8_t* dst = block + 4 * j;
            if (n0 + j >= n) {
                for (size_t g = 0; g < groups; ++g) {
                    memset(dst + g * 16, 0xAA, 4);
                }
                sums[j] = 0;
                scales[j] = 0.0F;
                biases[j] = 0.0F;
                continue;
            }
            const uint8_t* src = rhs + (n0 + j) * row_bytes;
            int32_t sum = 0;
            for (size_t g = 0; g < groups; ++g) {
                uint32_t w;
                memcpy(&w, src + 4 * g, 4);
                sum += byte_sum[src[4 * g]] + byte_sum[src[4 * g + 1]] + byte_sum[src[4 * g + 2]] +
                    byte_sum[src[4 * g + 3]];
                w = kai_transpose_2bit_4x4(w);
                memcpy(dst + g * 16, &w, 4);
            }
            sums[j] = sum;
            scales[j] = scale[n0 + j];
            biases[j] = bias != NULL ? bias[n0 + j] : 0.0F;
        }
        uint8_t* tail = block + nr * row_bytes;
        memcpy(tail, sums, sizeof(sums));
        memcpy(tail + 16, scales, sizeof(scales));
        memcpy(tail + 32, biases, sizeof(biases));
    }
}
