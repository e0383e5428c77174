//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon needs AArch64 (NEON)"
#endif

// Packs nxk 2-bit weight codes for the qsu2cxp SME2 kernels (docs/formats.md, "qsu2cxp4vlx4 RHS").
//
// Operation: for each block of nr channels (channel of lane j = min(n0 + j, n - 1)) and each input byte b of a
// row, nr bytes: lane j's byte b, unchanged (the codes of K = 4b .. 4b + 3 in bits 0-1 ... 6-7); after the data
// nr int32 sums of lut[c[k]] over k, nr f32 scales and nr f32 biases (0 for lanes past n, and biases 0 if
// NULL). So the nr bytes of one input byte position are one SME2 vector of codes at SVL = 2 * nr bits.
//
// The copy is a transpose of bytes: 8 lanes x 8 input bytes at a time with NEON zips (ZIP1/ZIP2 on bytes, half
// words and words: three levels of the 8x8 byte transpose); the sums come from a table of the 256 byte values'
// sums of look-up values, built once per call.

#include "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
#pragma weak kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon
// (end of the weak definitions)

static const size_t kai_k_chunk = 32;  // K must be a multiple of 32
static const int32_t kai_default_lut[4] = {-2, -1, 0, 1};

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 4, 12));
}

size_t kai_get_n_step_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(k, nr, kr, sr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    return kai_mul_size_checked(
        kai_roundup(n, nr) / nr, kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(k, nr, kr, sr));
}

// Transposes 8 rows x 8 bytes: out[t] (8 bytes) = byte t of rows r[0..7].
static inline void kai_transpose_8x8(const uint8x8_t r[8], uint8x8_t out[8]) {
    const uint8x8_t b01_lo = vzip1_u8(r[0], r[1]);
    const uint8x8_t b01_hi = vzip2_u8(r[0], r[1]);
    const uint8x8_t b23_lo = vzip1_u8(r[2], r[3]);
    const uint8x8_t b23_hi = vzip2_u8(r[2], r[3]);
    const uint8x8_t b45_lo = vzip1_u8(r[4], r[5]);
    const uint8x8_t b45_hi = vzip2_u8(r[4], r[5]);
    const uint8x8_t b67_lo = vzip1_u8(r[6], r[7]);
    const uint8x8_t b67_hi = vzip2_u8(r[6], r[7]);
    // Half words: (row pair, byte t) ; words: 4 rows of byte t.
    const uint16x4_t h0 = vzip1_u16(vreinterpret_u16_u8(b01_lo), vreinterpret_u16_u8(b23_lo));  // t0 t1: r0-3
    const uint16x4_t h1 = vzip2_u16(vreinterpret_u16_u8(b01_lo), vreinterpret_u16_u8(b23_lo));  // t2 t3
    const uint16x4_t h2 = vzip1_u16(vreinterpret_u16_u8(b01_hi), vreinterpret_u16_u8(b23_hi));  // t4 t5
    const uint16x4_t h3 = vzip2_u16(vreinterpret_u16_u8(b01_hi), vreinterpret_u16_u8(b23_hi));  // t6 t7
    const uint16x4_t h4 = vzip1_u16(vreinterpret_u16_u8(b45_lo), vreinterpret_u16_u8(b67_lo));  // r4-7
    const uint16x4_t h5 = vzip2_u16(vreinterpret_u16_u8(b45_lo), vreinterpret_u16_u8(b67_lo));
    const uint16x4_t h6 = vzip1_u16(vreinterpret_u16_u8(b45_hi), vreinterpret_u16_u8(b67_hi));
    const uint16x4_t h7 = vzip2_u16(vreinterpret_u16_u8(b45_hi), vreinterpret_u16_u8(b67_hi));
    const uint16x4_t lo[4] = {h0, h1, h2, h3};
    const uint16x4_t hi[4] = {h4, h5, h6, h7};
    for (size_t q = 0; q < 4; ++q) {
        const uint32x2_t a = vreinterpret_u32_u16(lo[q]);
        const uint32x2_t b = vreinterpret_u32_u16(hi[q]);
        out[2 * q] = vreinterpret_u8_u32(vzip1_u32(a, b));
        out[2 * q + 1] = vreinterpret_u8_u32(vzip2_u32(a, b));
    }
}

void kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon_params* params, const int32_t* lut_arg) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(n >= 1, "n must be at least 1");
    KAI_ASSUME_MSG(k >= 1 && k % kai_k_chunk == 0, "k must be a positive multiple of 32");
    KAI_ASSUME_MSG(nr >= 8 && nr % 8 == 0, "nr must be a positive multiple of 8");
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

    int32_t byte_sum[256];
    for (size_t b = 0; b < 256; ++b) {
        byte_sum[b] = lut[b & 3] + lut[(b >> 2) & 3] + lut[(b >> 4) & 3] + lut[b >> 6];
    }

    const size_t row_bytes = k / 4;
    const size_t stride = kai_packed_stride(k, nr);
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        uint8_t* tail = block + nr * row_bytes;
        for (size_t j0 = 0; j0 < nr; j0 += 8) {
            const uint8_t* src[8];
            for (size_t j = 0; j < 8; ++j) {
                src[j] = rhs + KAI_MIN(n0 + j0 + j, n - 1) * row_bytes;
            }
            // row_bytes is a multiple of 8 (k a multiple of 32).
            for (size_t b = 0; b < row_bytes; b += 8) {
                uint8x8_t rows[8];
                uint8x8_t cols[8];
                for (size_t j = 0; j < 8; ++j) {
                    rows[j] = vld1_u8(src[j] + b);
                }
                kai_transpose_8x8(rows, cols);
                for (size_t t = 0; t < 8; ++t) {
                    vst1_u8(block + (b + t) * nr + j0, cols[t]);
                }
            }
            for (size_t j = 0; j < 8; ++j) {
                const size_t ch = n0 + j0 + j;
                int32_t sum = 0;
                for (size_t b = 0; b < row_bytes; ++b) {
                    sum += byte_sum[src[j][b]];
                }
                const float s = ch < n ? scale[ch] : 0.0F;
                const float bb = (ch < n && bias != NULL) ? bias[ch] : 0.0F;
                memcpy(tail + 4 * (j0 + j), &sum, 4);
                memcpy(tail + 4 * nr + 4 * (j0 + j), &s, 4);
                memcpy(tail + 8 * nr + 4 * (j0 + j), &bb, 4);
            }
        }
    }
}
