//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs N x K unsigned int4 weights with per-block bf16 scales into the qsi4c32ps1s0 layout of
// KleidiAI's SME2 kernels (AArch64 NEON).
//
// Operation: w[n][k] = u[n][k] - 8, d[n][b] = bf16 scale of block b = k / bl of channel n,
//   sum[n] = sum_b d[n][b] * sum_{k in b} w[n][k]   (f32, rounded once per 32-value chunk).
//
// Packed layout (one block of nr channels, R = nr * (nb * (bl / 2 + 2) + 8) bytes, nb = K / bl):
// for each quantisation block b, nr * bl / 2 bytes of nibbles then nr bf16 scales; then nr f32
// row sums, then nr f32 biases. Inside a block, with kk = k - b * bl, c = kk / 32, g = (kk % 32) / 4:
// the input byte holding elements kk and kk + 1 (kk even), XOR 0x88, sits in byte
// c * 16 * nr + g * 2 * nr + (n % nr) * 2 + (kk % 4) / 2, so consecutive K values share a byte as in
// the input. Row sums: per lane, sum = 0.0f; for each block, each 32-chunk, sum = f32(sum + G * d)
// with G the exact sum of the chunk's 32 signed values. Channels past N copy channel N - 1.
// See docs/matmul_int4_blockwise.md.
//
// Per 4 channels and 32-chunk: the 16 input bytes of each channel are already in output order;
// a 4 x 8 transpose of byte pairs (TRN1/TRN2 on 16- then 32-bit elements) gives eight 8-byte
// rows. The chunk sums come from pairwise additions of the per-byte nibble sums.

#include "kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
// (end of the weak definitions)

static const size_t kai_kbl = 4;  // kr / sr

static size_t kai_packed_stride(size_t k, size_t nr, size_t bl) {
    const size_t nb = k / bl;
    const size_t per_lane = kai_add_size_checked(kai_mul_size_checked(nb, bl / 2 + 2), 8);
    return kai_mul_size_checked(nr, per_lane);
}

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    KAI_ASSUME_ALWAYS_MSG(bl > 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_ALWAYS_MSG(scale_dt == kai_dt_bf16, "scale_dt must be kai_dt_bf16");
    KAI_ASSUME_MSG(nr > 0 && nr % 4 == 0, "nr must be a non-zero multiple of 4");
    KAI_ASSUME_MSG(sr > 0 && kr > 0 && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(kr / sr == kai_kbl, "kr / sr must be 4");
    KAI_ASSUME_MSG(bl % kr == 0, "bl must be a multiple of kr");
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_n_step_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

/// Stores the four unsigned-nibble lane vectors l[j] of one 32-chunk (byte i of lane j holds
/// elements 2i and 2i + 1) as signed nibbles at `chunk` (lanes j0..j0+3 of an nr-lane block).
static void kai_store_chunk4(const uint8x16_t l[4], uint8_t* chunk, size_t nr) {
    const uint8x16_t flip = vdupq_n_u8(0x88);
    // Byte pairs (u16 units): unit g of lanes 0-3 goes to g * nr * 2. TRN1/TRN2 on 16-bit then
    // 32-bit elements transpose the 4 x 8 units; each 64-bit half is one unit row.
    const uint16x8_t l0 = vreinterpretq_u16_u8(veorq_u8(l[0], flip));
    const uint16x8_t l1 = vreinterpretq_u16_u8(veorq_u8(l[1], flip));
    const uint16x8_t l2 = vreinterpretq_u16_u8(veorq_u8(l[2], flip));
    const uint16x8_t l3 = vreinterpretq_u16_u8(veorq_u8(l[3], flip));
    const uint32x4_t a = vreinterpretq_u32_u16(vtrn1q_u16(l0, l1));  // l0g0 l1g0 l0g2 l1g2 ...
    const uint32x4_t b = vreinterpretq_u32_u16(vtrn2q_u16(l0, l1));  // l0g1 l1g1 l0g3 l1g3 ...
    const uint32x4_t c = vreinterpretq_u32_u16(vtrn1q_u16(l2, l3));
    const uint32x4_t d = vreinterpretq_u32_u16(vtrn2q_u16(l2, l3));
    const uint8x16_t g04 = vreinterpretq_u8_u32(vtrn1q_u32(a, c));  // units 0 | 4 of lanes 0-3
    const uint8x16_t g26 = vreinterpretq_u8_u32(vtrn2q_u32(a, c));  // units 2 | 6
    const uint8x16_t g15 = vreinterpretq_u8_u32(vtrn1q_u32(b, d));  // units 1 | 5
    const uint8x16_t g37 = vreinterpretq_u8_u32(vtrn2q_u32(b, d));  // units 3 | 7
    const size_t u = nr * 2;
    vst1_u8(chunk, vget_low_u8(g04));
    vst1_u8(chunk + u, vget_low_u8(g15));
    vst1_u8(chunk + 2 * u, vget_low_u8(g26));
    vst1_u8(chunk + 3 * u, vget_low_u8(g37));
    vst1_u8(chunk + 4 * u, vget_high_u8(g04));
    vst1_u8(chunk + 5 * u, vget_high_u8(g15));
    vst1_u8(chunk + 6 * u, vget_high_u8(g26));
    vst1_u8(chunk + 7 * u, vget_high_u8(g37));
}

/// Returns G - 256 ... the four chunk sums sum(u) - 256 = sum(u - 8) of the lanes l[0..3].
static int32x4_t kai_chunk_sums4(const uint8x16_t l[4]) {
    const uint8x16_t low = vdupq_n_u8(0x0F);
    uint8x16_t ns[4];
    for (size_t j = 0; j < 4; ++j) {
        ns[j] = vaddq_u8(vandq_u8(l[j], low), vshrq_n_u8(l[j], 4));  // <= 30
    }
    const uint8x16_t q = vpaddq_u8(vpaddq_u8(ns[0], ns[1]), vpaddq_u8(ns[2], ns[3]));  // 4 bytes per lane, <= 120
    const uint32x4_t s = vpaddlq_u16(vpaddlq_u8(q));                                    // one per lane, <= 480
    return vsubq_s32(vreinterpretq_s32_u32(s), vdupq_n_s32(256));
}

/// Packs lanes j0..j0+3 from the channel rows rows[0..3] (channel indices ch[0..3]).
static void kai_pack_lanes4(
    size_t j0, const size_t ch[4], size_t nr, size_t k, size_t bl, const uint8_t* const rows[4],
    const uint8_t* scale, size_t scale_stride, const float* bias, uint8_t* out) {
    const size_t nb = k / bl;
    const size_t block_bytes = nr * (bl / 2 + 2);
    float32x4_t sum = vdupq_n_f32(0.0F);
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* blk = out + b * block_bytes;
        uint16_t raw4[4];
        for (size_t j = 0; j < 4; ++j) {
            memcpy(&raw4[j], scale + ch[j] * scale_stride + 2 * b, sizeof(raw4[j]));
        }
        memcpy(blk + nr * bl / 2 + 2 * j0, raw4, sizeof(raw4));
        const float32x4_t d = vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(raw4), 16));
        for (size_t c = 0; c < bl / 32; ++c) {
            const size_t in_off = (b * bl + 32 * c) / 2;
            uint8x16_t l[4];
            for (size_t j = 0; j < 4; ++j) {
                l[j] = vld1q_u8(rows[j] + in_off);
            }
            kai_store_chunk4(l, blk + c * 16 * nr + j0 * 2, nr);
            // |G| <= 256 and d has 8 significant bits: G * d is exact, one rounding per chunk.
            sum = vfmaq_f32(sum, vcvtq_f32_s32(kai_chunk_sums4(l)), d);
        }
    }
    float* tail = (float*)(void*)(out + nb * block_bytes);
    float sums[4];
    vst1q_f32(sums, sum);
    memcpy(&tail[j0], sums, sizeof(sums));
    for (size_t j = 0; j < 4; ++j) {
        const float bv = bias != NULL ? bias[ch[j]] : 0.0F;
        memcpy(&tail[nr + j0 + j], &bv, sizeof(bv));
    }
}

void kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params* params) {
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    kai_check_shape(k, nr, kr, sr, bl, params->scale_dt);
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_ASSUME_MSG(rhs_stride >= k / 2, "rhs_stride must be at least k / 2");
    KAI_ASSUME_MSG(scale_stride >= 2 * (k / bl), "scale_stride must be at least 2 * (k / bl)");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    if (n == 0) {
        return;
    }
    const size_t stride = kai_packed_stride(k, nr, bl);
    const uint8_t* scale_bytes = (const uint8_t*)scale;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        for (size_t j0 = 0; j0 < nr; j0 += 4) {
            size_t ch[4];
            const uint8_t* rows[4];
            for (size_t j = 0; j < 4; ++j) {
                ch[j] = KAI_MIN(n0 + j0 + j, n - 1);
                rows[j] = rhs + ch[j] * rhs_stride;
            }
            kai_pack_lanes4(j0, ch, nr, k, bl, rows, scale_bytes, scale_stride, bias, out);
        }
    }
}
