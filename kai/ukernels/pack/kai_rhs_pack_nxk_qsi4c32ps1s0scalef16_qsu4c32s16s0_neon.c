//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs GGUF Q4_0 rows into the qsi4c32ps1s0scalef16 layout of KleidiAI's SME2 Q4_0 kernels (AArch64 NEON).
//
// Input: per row, nb = K / bl blocks of {f16 d; bl / 2 bytes}, byte j = element j (low nibble) and
// element j + bl / 2 (high nibble), unsigned u (value (u - 8) * d).
// Packed layout (one block of nr rows, S_R = nr * nb * (bl / 2 + 2) bytes): the data,
// for each block b, 4-value group g and lane i, 2 bytes at ((b * bl / 4 + g) * nr + i) * 2 holding
// elements 4g .. 4g + 3 of the block in s1s0 order (4g low, 4g + 1 high; then 4g + 2, 4g + 3),
// unsigned;
// then the nr * nb f16 scales, (lane i, block b) at nr * nb * bl / 2 + (b * nr + i) * 2, verbatim.
// Lanes past N are zero. See docs/matmul_q4_0.md.
//
// Per 4 rows and 16 input bytes (32 values of the block): LD2 splits even and odd bytes; SLI
// merges the low nibbles of bytes 2t and 2t + 1 (elements 2t, 2t + 1 of the first half), SRI the
// high nibbles (the second half); a 4 x 8 transpose of 16-bit units (TRN1/TRN2) gives eight rows
// of 4 lanes.

#include "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
#pragma weak kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
// (end of the weak definitions)

static const size_t kai_kr = 4;
static const size_t kai_sr = 2;
static const size_t kai_bl_max = 256;

static void kai_check_shape(size_t k, size_t nr, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(nr != 0, "nr must be non-zero");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(bl);
}

static size_t kai_packed_stride(size_t k, size_t nr, size_t bl) {
    return kai_mul_size_checked(nr, kai_mul_size_checked(k / bl, bl / 2 + 2));
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_UNUSED(kr);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(kr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_UNUSED(kr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

/// Rearranges the bl / 2 bytes of block b of one row (s16s0) into s1s0 order: byte t of the
/// result holds elements 2t and 2t + 1.
static uint8_t kai_s1s0_byte(const uint8_t* in, size_t bl, size_t t) {
    const size_t half = bl / 4;  // output bytes per half block
    if (t < half) {
        return (uint8_t)((in[2 * t] & 0x0F) | (in[2 * t + 1] << 4));
    }
    const size_t j = 2 * (t - half);
    return (uint8_t)((in[j] >> 4) | (in[j + 1] & 0xF0));
}

/// Packs one row into lane i with scalar code.
static void kai_pack_lane_scalar(
    const uint8_t* row, size_t nb, size_t bl, size_t nr, size_t i, uint8_t* out, uint8_t* scales) {
    const size_t in_block = bl / 2 + 2;
    for (size_t b = 0; b < nb; ++b) {
        const uint8_t* in = row + b * in_block + 2;
        for (size_t g = 0; g < bl / 4; ++g) {
            uint8_t* dst = out + ((b * bl / 4 + g) * nr + i) * 2;
            dst[0] = kai_s1s0_byte(in, bl, 2 * g);
            dst[1] = kai_s1s0_byte(in, bl, 2 * g + 1);
        }
        memcpy(scales + (b * nr + i) * 2, row + b * in_block, 2);
    }
}

/// Stores the four rows' f16 scales of one block, verbatim.
static void kai_store_scales4(const uint16_t d[4], uint8_t* dst) {
    memcpy(dst, d, 4 * sizeof(d[0]));
}

/// Packs one block of four rows (their bl / 2 data bytes at in[0..3]) into the block's data at
/// `dst` (group 0, lane i0).
static void kai_pack_block4(const uint8_t* const in[4], size_t bl, size_t nr, uint8_t* dst) {
    const size_t row = nr * 2;     // bytes between groups
    const size_t half = bl / 8;    // groups per half block
    for (size_t p = 0; p < bl / 32; ++p) {
        uint16x8_t v[4];
        for (size_t r = 0; r < 4; ++r) {
            const uint8x8x2_t eo = vld2_u8(in[r] + 16 * p);  // even bytes, odd bytes
            const uint8x8_t lo = vsli_n_u8(eo.val[0], eo.val[1], 4);  // groups 4p .. 4p + 3
            const uint8x8_t hi = vsri_n_u8(eo.val[1], eo.val[0], 4);  // groups half + 4p .. + 3
            v[r] = vreinterpretq_u16_u8(vcombine_u8(lo, hi));
        }
        const uint32x4_t a = vreinterpretq_u32_u16(vtrn1q_u16(v[0], v[1]));
        const uint32x4_t b = vreinterpretq_u32_u16(vtrn2q_u16(v[0], v[1]));
        const uint32x4_t c = vreinterpretq_u32_u16(vtrn1q_u16(v[2], v[3]));
        const uint32x4_t d = vreinterpretq_u32_u16(vtrn2q_u16(v[2], v[3]));
        const uint8x16_t u04 = vreinterpretq_u8_u32(vtrn1q_u32(a, c));  // units 0 | 4 of the vector
        const uint8x16_t u26 = vreinterpretq_u8_u32(vtrn2q_u32(a, c));
        const uint8x16_t u15 = vreinterpretq_u8_u32(vtrn1q_u32(b, d));
        const uint8x16_t u37 = vreinterpretq_u8_u32(vtrn2q_u32(b, d));
        uint8_t* first = dst + 4 * p * row;
        uint8_t* second = dst + (half + 4 * p) * row;
        vst1_u8(first, vget_low_u8(u04));
        vst1_u8(first + row, vget_low_u8(u15));
        vst1_u8(first + 2 * row, vget_low_u8(u26));
        vst1_u8(first + 3 * row, vget_low_u8(u37));
        vst1_u8(second, vget_high_u8(u04));
        vst1_u8(second + row, vget_high_u8(u15));
        vst1_u8(second + 2 * row, vget_high_u8(u26));
        vst1_u8(second + 3 * row, vget_high_u8(u37));
    }
}

void kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const float* bias, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qs4cxs1s0_param* params) {
    kai_check_shape(k, nr, bl);
    KAI_ASSUME_MSG(bl <= kai_bl_max, "bl must be at most 256");
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 2");
    KAI_ASSUME_MSG(bias == NULL, "bias must be NULL: the Q4_0 family takes no bias");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    KAI_UNUSED(bias);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(params);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t nb = k / bl;
    const size_t in_block = bl / 2 + 2;
    const size_t rhs_stride = nb * in_block;
    const size_t stride = kai_packed_stride(k, nr, bl);
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        uint8_t* scales = out + nr * nb * (bl / 2);
        const size_t real = KAI_MIN(nr, n - n0);
        size_t i = 0;
        for (; i + 4 <= real; i += 4) {
            const uint8_t* rows[4];
            for (size_t r = 0; r < 4; ++r) {
                rows[r] = rhs + (n0 + i + r) * rhs_stride;
            }
            for (size_t b = 0; b < nb; ++b) {
                const uint8_t* in[4];
                uint16_t d[4];
                for (size_t r = 0; r < 4; ++r) {
                    in[r] = rows[r] + b * in_block + 2;
                    memcpy(&d[r], rows[r] + b * in_block, sizeof(d[r]));
                }
                kai_pack_block4(in, bl, nr, out + b * nr * (bl / 2) + i * 2);
                kai_store_scales4(d, scales + (b * nr + i) * 2);
            }
        }
        for (; i < real; ++i) {
            kai_pack_lane_scalar(rhs + (n0 + i) * rhs_stride, nb, bl, nr, i, out, scales);
        }
        for (; i < nr; ++i) {  // lanes past n: zero data and scales
            for (size_t u = 0; u < nb * bl / (2 * 2); ++u) {
                memset(out + (u * nr + i) * 2, 0, 2);
            }
            for (size_t b = 0; b < nb; ++b) {
                memset(scales + (b * nr + i) * 2, 0, 2);
            }
        }
    }
}
