//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs unsigned int4 rows (s1s0: value 2t in the low nibble of byte t) with per-block f32 scale and zero into the qai4c32ps1s0nrx4
// layout of KleidiAI's SME2 asymmetric kernels (AArch64 NEON). Layout in docs/matmul_int4_asymmetric.md.
//
// Per 4 rows and 16 input bytes (two 16-value chunks): ZIP1 / ZIP2 on 16-bit elements of rows 0, 1
// and of rows 2, 3, then on 32-bit elements, transpose the 2-byte pieces into [piece q of rows 0-3]
// order; the bytes are copied (the input is
// already s1s0).

#include "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon
#pragma weak kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon
// (end of the weak definitions)

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(k % 2 == 0, "k must be even");
    KAI_ASSUME_MSG(kr != 0 && k % kr == 0, "k must be a multiple of kr");
    KAI_ASSUME_MSG(nr != 0, "nr must be non-zero");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(bl);
}

static size_t kai_packed_stride(size_t k, size_t nr, size_t bl) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_mul_size_checked(k / bl, bl / 2 + 8), 4));
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon(size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, kr, bl);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

static inline uint8x16_t convert(uint8x16_t v) {
    return v;  // already s1s0
}

static inline void store_pieces(uint8_t* d, size_t nr, uint8x16_t v01, uint8x16_t v23) {
    // v01 = pieces 0, 1 of lanes 0-3; v23 = pieces 2, 3. Piece q of the 4 lanes goes to d + q * 2 * nr.
    if (nr == 4) {
        vst1q_u8(d, v01);
        vst1q_u8(d + 16, v23);
    } else {
        vst1_u8(d, vget_low_u8(v01));
        vst1_u8(d + 2 * nr, vget_high_u8(v01));
        vst1_u8(d + 4 * nr, vget_low_u8(v23));
        vst1_u8(d + 6 * nr, vget_high_u8(v23));
    }
}

void kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const void* zero, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qai4c32p_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(sr == 2, "sr must be 2");
    KAI_ASSUME_MSG(kr == 8, "kr / sr must be 4");
    kai_check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(nr % 4 == 0, "nr must be a multiple of 4");
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(zero != NULL, "zero must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(params);
    if (n == 0) {
        return;
    }
    const size_t nb = k / bl;
    const size_t row_bytes = k / 2;
    const size_t block = nr * (bl / 2 + 8);
    const size_t stride = kai_packed_stride(k, nr, bl);
    const float* zf = (const float*)zero;
    const float* sf = (const float*)scale;
    const float* bf = (const float*)bias;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        for (size_t g = 0; g < nr; g += 4) {
            const uint8_t* r0 = rhs + KAI_MIN(n0 + g, n - 1) * row_bytes;
            const uint8_t* r1 = rhs + KAI_MIN(n0 + g + 1, n - 1) * row_bytes;
            const uint8_t* r2 = rhs + KAI_MIN(n0 + g + 2, n - 1) * row_bytes;
            const uint8_t* r3 = rhs + KAI_MIN(n0 + g + 3, n - 1) * row_bytes;
            for (size_t b = 0; b < nb; ++b) {
                uint8_t* blk = out + b * block + g * 2;
                const size_t off = b * bl / 2;
                for (size_t i = 0; i < bl / 2; i += 16) {
                    const uint16x8_t a = vreinterpretq_u16_u8(vld1q_u8(r0 + off + i));
                    const uint16x8_t bb = vreinterpretq_u16_u8(vld1q_u8(r1 + off + i));
                    const uint16x8_t c = vreinterpretq_u16_u8(vld1q_u8(r2 + off + i));
                    const uint16x8_t e = vreinterpretq_u16_u8(vld1q_u8(r3 + off + i));
                    const uint32x4_t ab_lo = vreinterpretq_u32_u16(vzip1q_u16(a, bb));
                    const uint32x4_t ab_hi = vreinterpretq_u32_u16(vzip2q_u16(a, bb));
                    const uint32x4_t ce_lo = vreinterpretq_u32_u16(vzip1q_u16(c, e));
                    const uint32x4_t ce_hi = vreinterpretq_u32_u16(vzip2q_u16(c, e));
                    // chunk 2 * (i / 16): pieces 0-3 from the low halves; the next chunk from the high.
                    uint8_t* d = blk + (i / 8) * 8 * nr;
                    store_pieces(d, nr, convert(vreinterpretq_u8_u32(vzip1q_u32(ab_lo, ce_lo))),
                                 convert(vreinterpretq_u8_u32(vzip2q_u32(ab_lo, ce_lo))));
                    store_pieces(d + 8 * nr, nr, convert(vreinterpretq_u8_u32(vzip1q_u32(ab_hi, ce_hi))),
                                 convert(vreinterpretq_u8_u32(vzip2q_u32(ab_hi, ce_hi))));
                }
            }
        }
        for (size_t b = 0; b < nb; ++b) {
            uint8_t* zp = out + b * block + nr * bl / 2;
            for (size_t j = 0; j < nr; ++j) {
                const size_t src = KAI_MIN(n0 + j, n - 1) * nb + b;
                memcpy(zp + j * sizeof(float), &zf[src], sizeof(float));
                memcpy(zp + (nr + j) * sizeof(float), &sf[src], sizeof(float));
            }
        }
        uint8_t* bp = out + nb * block;
        for (size_t j = 0; j < nr; ++j) {
            const float v = (bf != NULL && n0 + j < n) ? bf[n0 + j] : 0.0F;
            memcpy(bp + j * sizeof(float), &v, sizeof(float));
        }
    }
}
