//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs GGUF Q4_0 rows into the qsi4c32ps4s0sf16 layout of KleidiAI's SME Q4_0 kernels (AArch64 NEON).
//
// Input: per row, nb = K / bl blocks of {f16 d; bl / 2 bytes}, byte j = element j (low nibble) and
// element j + bl / 2 (high nibble), unsigned u (value (u - 8) * d).
// Packed layout (one block of nr rows, S_R = nr * nb * (bl / 2 + 2) bytes): the data,
// for each block b, 8-value packet p and lane i, 4 bytes at ((b * bl / 8 + p) * nr + i) * 4, byte t
// holding elements 8p + t (low nibble) and 8p + t + 4 (high nibble) of the block, XOR 0x88;
// then the nr * nb f16 scales, (lane i, block b) at nr * nb * bl / 2 + (b * nr + i) * 2, each f16(f32(d) * 0.0625) (round to nearest even).
// Lanes past N are zero. See docs/matmul_q4_0.md.
//
// Per 4 rows and 16 input bytes (32 values of the block): UZP1/UZP2 on 32-bit words of two rows
// separate bytes 0-3, 8-11 from 4-7, 12-15; SLI merges their low nibbles (packets of the first
// half), SRI the high nibbles (the second half); UZP1/UZP2 across the two row pairs transpose the
// 4-byte packets into rows of 4 lanes.

#include "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
#pragma weak kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
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

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_UNUSED(kr);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(kr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, bl);
    KAI_UNUSED(kr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

/// Returns byte t (0..3) of packet p of block data `in` (s16s0) as unsigned nibbles.
static uint8_t kai_s4s0_byte(const uint8_t* in, size_t bl, size_t p, size_t t) {
    const size_t half = bl / 16;  // packets per half block
    if (p < half) {
        return (uint8_t)((in[8 * p + t] & 0x0F) | (in[8 * p + t + 4] << 4));
    }
    const size_t j = 8 * (p - half) + t;
    return (uint8_t)((in[j] >> 4) | (in[j + 4] & 0xF0));
}

/// Returns the stored scale: f16(f32(d) / 16), round to nearest even.
static uint16_t kai_scale_div16(uint16_t d) {
    return kai_cast_f16_f32(kai_cast_f32_f16(d) * 0.0625F);
}

/// Packs one row into lane i with scalar code.
static void kai_pack_lane_scalar(
    const uint8_t* row, size_t nb, size_t bl, size_t nr, size_t i, uint8_t* out, uint8_t* scales) {
    const size_t in_block = bl / 2 + 2;
    for (size_t b = 0; b < nb; ++b) {
        const uint8_t* in = row + b * in_block + 2;
        for (size_t p = 0; p < bl / 8; ++p) {
            uint8_t* dst = out + ((b * bl / 8 + p) * nr + i) * 4;
            for (size_t t = 0; t < 4; ++t) {
                dst[t] = (uint8_t)(kai_s4s0_byte(in, bl, p, t) ^ 0x88);
            }
        }
        uint16_t d;
        memcpy(&d, row + b * in_block, sizeof(d));
        d = kai_scale_div16(d);
        memcpy(scales + (b * nr + i) * 2, &d, sizeof(d));
    }
}

/// Stores the four rows' scales of one block, each f16(f32(d) * 0.0625).
static void kai_store_scales4(const uint16_t d[4], uint8_t* dst) {
    const float32x4_t f = vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(d)));
    const uint16x4_t s = vreinterpret_u16_f16(vcvt_f16_f32(vmulq_n_f32(f, 0.0625F)));
    uint16_t s4[4];
    vst1_u16(s4, s);
    memcpy(dst, s4, sizeof(s4));
}

/// Packs one block of four rows (their bl / 2 data bytes at in[0..3]) into the block's data at
/// `dst` (packet 0, lane i0).
static void kai_pack_block4(const uint8_t* const in[4], size_t bl, size_t nr, uint8_t* dst) {
    const uint8x16_t flip = vdupq_n_u8(0x88);
    const size_t row = nr * 4;     // bytes between packets
    const size_t half = bl / 16;   // packets per half block
    for (size_t q = 0; q < bl / 32; ++q) {
        uint32x4_t lo[2], hi[2];
        for (size_t h = 0; h < 2; ++h) {
            const uint32x4_t x = vreinterpretq_u32_u8(veorq_u8(vld1q_u8(in[2 * h] + 16 * q), flip));
            const uint32x4_t y = vreinterpretq_u32_u8(veorq_u8(vld1q_u8(in[2 * h + 1] + 16 * q), flip));
            const uint8x16_t a = vreinterpretq_u8_u32(vuzp1q_u32(x, y));  // bytes 0-3, 8-11 of x, then of y
            const uint8x16_t e = vreinterpretq_u8_u32(vuzp2q_u32(x, y));  // bytes 4-7, 12-15
            lo[h] = vreinterpretq_u32_u8(vsliq_n_u8(a, e, 4));  // packets 2q, 2q + 1 of x, then of y
            hi[h] = vreinterpretq_u32_u8(vsriq_n_u8(e, a, 4));  // packets half + 2q, + 1
        }
        uint8_t* first = dst + 2 * q * row;
        uint8_t* second = dst + (half + 2 * q) * row;
        vst1q_u8(first, vreinterpretq_u8_u32(vuzp1q_u32(lo[0], lo[1])));
        vst1q_u8(first + row, vreinterpretq_u8_u32(vuzp2q_u32(lo[0], lo[1])));
        vst1q_u8(second, vreinterpretq_u8_u32(vuzp1q_u32(hi[0], hi[1])));
        vst1q_u8(second + row, vreinterpretq_u8_u32(vuzp2q_u32(hi[0], hi[1])));
    }
}

void kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(
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
                kai_pack_block4(in, bl, nr, out + b * nr * (bl / 2) + i * 4);
                kai_store_scales4(d, scales + (b * nr + i) * 2);
            }
        }
        for (; i < real; ++i) {
            kai_pack_lane_scalar(rhs + (n0 + i) * rhs_stride, nb, bl, nr, i, out, scales);
        }
        for (; i < nr; ++i) {  // lanes past n: zero data and scales
            for (size_t u = 0; u < nb * bl / (2 * 4); ++u) {
                memset(out + (u * nr + i) * 4, 0, 4);
            }
            for (size_t b = 0; b < nb; ++b) {
                memset(scales + (b * nr + i) * 2, 0, 2);
            }
        }
    }
}
