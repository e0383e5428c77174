//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs K x N unsigned int4 weights with per-block bf16 scales into the qsi4c32ps1s0 layout of
// KleidiAI's SME2 kernels (AArch64 NEON).
//
// Input: K rows of rhs_stride bytes, element (k, n) in byte k * rhs_stride + n / 2, low nibble
// for even n. Operation: w[n][k] = u - 8, d[n][b] = bf16 scale of block b of channel n,
//   sum[n] = sum_b d[n][b] * sum_{k in b} w[n][k]   (f32, rounded once per group of 4 K rows).
//
// Packed layout (one block of nr channels, R = nr * (nb * (bl / 2 + 2) + 8) bytes, nb = K / bl):
// for each quantisation block b, nr * bl / 2 bytes of nibbles then nr bf16 scales; then nr f32
// row sums, then nr f32 biases. Inside a block, with kk = k - b * bl, c = kk / 32, g = (kk % 32) / 4,
// t = kk % 4: w[n][k] XOR 8 sits in byte c * 16 * nr + g * 2 * nr + (n % nr) * 2 + t / 2, in the
// low nibble for even t. Channels past N: see the header. See docs/matmul_int4_blockwise.md.
//
// 16 channels at a time (all of them real): per group of 4 K rows, four 8-byte loads hold the
// 16 channels' nibbles; SLI/SRI pair rows (0, 1) and (2, 3) per channel parity, ZIP1/ZIP2 put the
// channels in order and then the two bytes of each channel side by side: 32 output bytes. The
// group sums of the 16 channels are the nibble sums of those bytes. Other lanes (nr not a
// multiple of 16, the last block's partial group) take the scalar path.

#include "kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
#pragma weak kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon
// (end of the weak definitions)

static const size_t kai_kbl = 4;    // kr / sr
static const size_t kai_lanes = 16;  // channels of the vector path

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

size_t kai_get_n_step_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t n_idx, size_t rhs_stride) {
    KAI_ASSUME_MSG(n_idx % 2 == 0, "n_idx must be even");
    KAI_UNUSED(rhs_stride);
    return n_idx / 2;
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

/// Packs lane j of the block at `out` with scalar code: the nibble selected by `shift` of input
/// byte `byte` of each K row (bytes at or past `limit` read as 0), scale and bias of channel ch.
static void kai_pack_lane_scalar(
    size_t j, size_t byte, unsigned shift, size_t ch, size_t nr, size_t k, size_t bl, const uint8_t* rhs,
    size_t rhs_stride, size_t limit, const uint8_t* scale, size_t scale_stride, const float* bias, uint8_t* out) {
    const size_t nb = k / bl;
    const size_t block_bytes = nr * (bl / 2 + 2);
    float sum = 0.0F;
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* blk = out + b * block_bytes;
        uint16_t raw;
        memcpy(&raw, scale + ch * scale_stride + 2 * b, sizeof(raw));
        memcpy(blk + nr * bl / 2 + 2 * j, &raw, sizeof(raw));
        const float d = kai_cast_f32_bf16(raw);
        for (size_t g = 0; g < bl / 4; ++g) {
            uint8_t u[4];
            int32_t gsum = 0;
            for (size_t t = 0; t < 4; ++t) {
                const size_t at = (b * bl + 4 * g + t) * rhs_stride + byte;
                u[t] = (uint8_t)(at < limit ? ((rhs[at] >> shift) & 0xF) : 0);
                gsum += (int32_t)u[t] - 8;
            }
            uint8_t* dst = blk + (g / 8) * 16 * nr + (g % 8) * 2 * nr + 2 * j;
            dst[0] = (uint8_t)((u[0] | (u[1] << 4)) ^ 0x88);
            dst[1] = (uint8_t)((u[2] | (u[3] << 4)) ^ 0x88);
            sum = sum + (float)gsum * d;  // exact product, one rounding per group
        }
    }
    float* tail = (float*)(void*)(out + nb * block_bytes);
    memcpy(&tail[j], &sum, sizeof(sum));
    const float bv = bias != NULL ? bias[ch] : 0.0F;
    memcpy(&tail[nr + j], &bv, sizeof(bv));
}

/// Packs lanes j0..j0+15 of the block at `out`: channels n0 + j0 .. n0 + j0 + 15 (all < n), whose
/// nibbles are the 8 bytes at col + kk * rhs_stride of each K row kk.
static void kai_pack_lanes16(
    size_t j0, size_t c0, size_t nr, size_t k, size_t bl, const uint8_t* col, size_t rhs_stride,
    const uint8_t* scale, size_t scale_stride, const float* bias, uint8_t* out) {
    const size_t nb = k / bl;
    const size_t block_bytes = nr * (bl / 2 + 2);
    const uint8x16_t flip = vdupq_n_u8(0x88);
    const uint8x16_t low = vdupq_n_u8(0x0F);
    const uint8x8_t v32 = vdup_n_u8(32);
    float32x4_t sum[4];
    for (size_t q = 0; q < 4; ++q) {
        sum[q] = vdupq_n_f32(0.0F);
    }
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* blk = out + b * block_bytes;
        uint16_t raw[16];
        for (size_t j = 0; j < kai_lanes; ++j) {
            memcpy(&raw[j], scale + (c0 + j) * scale_stride + 2 * b, sizeof(raw[j]));
        }
        memcpy(blk + nr * bl / 2 + 2 * j0, raw, sizeof(raw));
        float32x4_t d[4];
        for (size_t q = 0; q < 4; ++q) {
            d[q] = vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(raw + 4 * q), 16));
        }
        const uint8_t* src = col + b * bl * rhs_stride;
        for (size_t g = 0; g < bl / 4; ++g) {
            const uint8x8_t r0 = vld1_u8(src);
            const uint8x8_t r1 = vld1_u8(src + rhs_stride);
            const uint8x8_t r2 = vld1_u8(src + 2 * rhs_stride);
            const uint8x8_t r3 = vld1_u8(src + 3 * rhs_stride);
            src += 4 * rhs_stride;
            // Byte 0 of each channel pairs rows 0 and 1, byte 1 rows 2 and 3; even channels use the
            // low nibbles of the input bytes, odd channels the high ones.
            const uint8x16_t even = vcombine_u8(vsli_n_u8(r0, r1, 4), vsli_n_u8(r2, r3, 4));
            const uint8x16_t odd = vcombine_u8(vsri_n_u8(r1, r0, 4), vsri_n_u8(r3, r2, 4));
            const uint8x16_t byte0 = vzip1q_u8(even, odd);  // channels 0..15, rows 0-1
            const uint8x16_t byte1 = vzip2q_u8(even, odd);  // channels 0..15, rows 2-3
            uint8_t* dst = blk + (g / 8) * 16 * nr + (g % 8) * 2 * nr + 2 * j0;
            vst1q_u8(dst, veorq_u8(vzip1q_u8(byte0, byte1), flip));
            vst1q_u8(dst + 16, veorq_u8(vzip2q_u8(byte0, byte1), flip));
            // Per channel: the 4 nibbles' sum (<= 60) minus 32, then one rounding per group.
            const uint8x16_t ns = vaddq_u8(vaddq_u8(vandq_u8(byte0, low), vshrq_n_u8(byte0, 4)),
                                           vaddq_u8(vandq_u8(byte1, low), vshrq_n_u8(byte1, 4)));
            const int16x8_t g_lo = vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(ns), v32));
            const int16x8_t g_hi = vreinterpretq_s16_u16(vsubl_u8(vget_high_u8(ns), v32));
            sum[0] = vfmaq_f32(sum[0], vcvtq_f32_s32(vmovl_s16(vget_low_s16(g_lo))), d[0]);
            sum[1] = vfmaq_f32(sum[1], vcvtq_f32_s32(vmovl_s16(vget_high_s16(g_lo))), d[1]);
            sum[2] = vfmaq_f32(sum[2], vcvtq_f32_s32(vmovl_s16(vget_low_s16(g_hi))), d[2]);
            sum[3] = vfmaq_f32(sum[3], vcvtq_f32_s32(vmovl_s16(vget_high_s16(g_hi))), d[3]);
        }
    }
    float* tail = (float*)(void*)(out + nb * block_bytes);
    for (size_t q = 0; q < 4; ++q) {
        float s4[4];
        vst1q_f32(s4, sum[q]);
        memcpy(&tail[j0 + 4 * q], s4, sizeof(s4));
    }
    for (size_t j = 0; j < kai_lanes; ++j) {
        const float bv = bias != NULL ? bias[c0 + j] : 0.0F;
        memcpy(&tail[nr + j0 + j], &bv, sizeof(bv));
    }
}

void kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params* params) {
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    kai_check_shape(k, nr, kr, sr, bl, params->scale_dt);
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_ASSUME_MSG(rhs_stride >= n / 2 + n % 2, "rhs_stride must be at least ceil(n / 2)");
    KAI_ASSUME_MSG(scale_stride >= 2 * (k / bl), "scale_stride must be at least 2 * (k / bl)");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    if (n == 0 || k == 0) {
        return;
    }
    const size_t stride = kai_packed_stride(k, nr, bl);
    const size_t limit = (k - 1) * rhs_stride + n / 2 + n % 2;  // end of the input's last byte
    const uint8_t* scale_bytes = (const uint8_t*)scale;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        size_t j0 = 0;
        for (; j0 + kai_lanes <= nr && n0 + j0 + kai_lanes <= n; j0 += kai_lanes) {
            kai_pack_lanes16(
                j0, n0 + j0, nr, k, bl, rhs + (n0 + j0) / 2, rhs_stride, scale_bytes, scale_stride, bias, out);
        }
        for (; j0 < nr; ++j0) {
            // As KleidiAI's 16-channel loads: a group that starts past the last channel starts at it.
            const size_t first = KAI_MIN(n0 + j0 / kai_lanes * kai_lanes, n - 1);
            const size_t t = j0 % kai_lanes;
            kai_pack_lane_scalar(
                j0, first / 2 + t / 2, (unsigned)(4 * (t % 2)), KAI_MIN(n0 + j0, n - 1), nr, k, bl, rhs, rhs_stride,
                limit, scale_bytes, scale_stride, bias, out);
        }
    }
}
