//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs nxk int4 weights with per-channel f32 scales into the qsi4cxps1s0 layout of KleidiAI's
// SME2 kernels (AArch64 NEON).
//
// Operation: w[n][k] = signed nibble (u - 8 for zero point 8, the nibble itself for zero point 0),
//   0 for k >= K; sum[n] = sum_k w[n][k] (int32).
// Packed layout (one block of nr channels, nr * (Kp / 2 + 12) bytes, Kp = roundup(K, 32)): for
// each group g of kr K values and lane j, kr / 2 bytes at g * nr * kr / 2 + j * kr / 2 holding
// elements g * kr .. g * kr + kr - 1 in input order (two per byte, signed nibbles); then nr int32
// sums, nr f32 scales (verbatim) and nr f32 biases. Lanes past N are zero.
// See docs/matmul_int4_channelwise.md.
//
// Per 4 real channels and full 32-K chunk: the 16 input bytes of each channel, taken as biased
// unsigned nibbles (XOR 0x88 for signed input), are already in output order; XOR 0x88 makes them
// signed, and a 4-lane transpose of kr / 2-byte units (TRN1/TRN2 on 16-, 32- or 64-bit elements)
// gives the rows of kr / 2 * 4 bytes. The sums come from pairwise additions of per-byte nibble sums.
// The partial last chunk, other kr and lanes of blocks with padding take the scalar path.

#include "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
#pragma weak kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon
// (end of the weak definitions)

static const size_t kai_k_chunk = 32;  // Kp = roundup(K, 32), whatever kr and sr are

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 2, 12));
}

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_n_step_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    kai_check_shape(k, nr, kr, sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    kai_check_shape(k, nr, kr, sr);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    kai_check_shape(k, nr, kr, sr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr));
}

/// Packs elements [k0, kp) of one real lane with scalar code; returns their sum of signed values.
/// `flip` is 8 for signed input (biases it), 0 for unsigned input.
static int32_t kai_pack_lane_scalar(
    const uint8_t* row, size_t k, size_t k0, size_t kp, size_t nr, size_t kr, size_t j, uint8_t flip, uint8_t* out) {
    int32_t sum = 0;
    for (size_t e = k0; e < kp; e += 2) {
        uint8_t u[2];
        for (size_t h = 0; h < 2; ++h) {
            const size_t kk = e + h;
            u[h] = 8;  // biased: 8 is the value 0 (K padding)
            if (kk < k) {
                const uint8_t nib = (uint8_t)((kk % 2 == 0) ? (row[kk / 2] & 0x0F) : (row[kk / 2] >> 4));
                u[h] = (uint8_t)(nib ^ flip);
            }
            sum += (int32_t)u[h] - 8;
        }
        const size_t g = e / kr, t = (e % kr) / 2;
        out[g * nr * (kr / 2) + j * (kr / 2) + t] = (uint8_t)((u[0] | (u[1] << 4)) ^ 0x88);
    }
    return sum;
}

/// Stores the biased lane vectors l[0..3] (16 bytes = one 32-K chunk each) of lanes j0..j0+3 as
/// signed nibbles into the chunk at `dst` (its group 0, lane 0), for units of kr / 2 bytes.
static void kai_store_chunk4(const uint8x16_t l[4], size_t kr, size_t nr, uint8_t* dst) {
    const uint8x16_t flip = vdupq_n_u8(0x88);
    const uint8x16_t s0 = veorq_u8(l[0], flip), s1 = veorq_u8(l[1], flip);
    const uint8x16_t s2 = veorq_u8(l[2], flip), s3 = veorq_u8(l[3], flip);
    const size_t row = nr * (kr / 2);  // bytes between groups
    if (kr == 4) {
        const uint32x4_t a = vreinterpretq_u32_u16(vtrn1q_u16(vreinterpretq_u16_u8(s0), vreinterpretq_u16_u8(s1)));
        const uint32x4_t b = vreinterpretq_u32_u16(vtrn2q_u16(vreinterpretq_u16_u8(s0), vreinterpretq_u16_u8(s1)));
        const uint32x4_t c = vreinterpretq_u32_u16(vtrn1q_u16(vreinterpretq_u16_u8(s2), vreinterpretq_u16_u8(s3)));
        const uint32x4_t d = vreinterpretq_u32_u16(vtrn2q_u16(vreinterpretq_u16_u8(s2), vreinterpretq_u16_u8(s3)));
        const uint8x16_t g04 = vreinterpretq_u8_u32(vtrn1q_u32(a, c));
        const uint8x16_t g26 = vreinterpretq_u8_u32(vtrn2q_u32(a, c));
        const uint8x16_t g15 = vreinterpretq_u8_u32(vtrn1q_u32(b, d));
        const uint8x16_t g37 = vreinterpretq_u8_u32(vtrn2q_u32(b, d));
        vst1_u8(dst, vget_low_u8(g04));
        vst1_u8(dst + row, vget_low_u8(g15));
        vst1_u8(dst + 2 * row, vget_low_u8(g26));
        vst1_u8(dst + 3 * row, vget_low_u8(g37));
        vst1_u8(dst + 4 * row, vget_high_u8(g04));
        vst1_u8(dst + 5 * row, vget_high_u8(g15));
        vst1_u8(dst + 6 * row, vget_high_u8(g26));
        vst1_u8(dst + 7 * row, vget_high_u8(g37));
    } else if (kr == 8) {
        const uint64x2_t a = vreinterpretq_u64_u32(vtrn1q_u32(vreinterpretq_u32_u8(s0), vreinterpretq_u32_u8(s1)));
        const uint64x2_t b = vreinterpretq_u64_u32(vtrn2q_u32(vreinterpretq_u32_u8(s0), vreinterpretq_u32_u8(s1)));
        const uint64x2_t c = vreinterpretq_u64_u32(vtrn1q_u32(vreinterpretq_u32_u8(s2), vreinterpretq_u32_u8(s3)));
        const uint64x2_t d = vreinterpretq_u64_u32(vtrn2q_u32(vreinterpretq_u32_u8(s2), vreinterpretq_u32_u8(s3)));
        vst1q_u8(dst, vreinterpretq_u8_u64(vzip1q_u64(a, c)));
        vst1q_u8(dst + row, vreinterpretq_u8_u64(vzip1q_u64(b, d)));
        vst1q_u8(dst + 2 * row, vreinterpretq_u8_u64(vzip2q_u64(a, c)));
        vst1q_u8(dst + 3 * row, vreinterpretq_u8_u64(vzip2q_u64(b, d)));
    } else if (kr == 16) {
        const uint64x2_t a = vreinterpretq_u64_u8(s0), b = vreinterpretq_u64_u8(s1);
        const uint64x2_t c = vreinterpretq_u64_u8(s2), d = vreinterpretq_u64_u8(s3);
        vst1q_u8(dst, vreinterpretq_u8_u64(vzip1q_u64(a, b)));
        vst1q_u8(dst + 16, vreinterpretq_u8_u64(vzip1q_u64(c, d)));
        vst1q_u8(dst + row, vreinterpretq_u8_u64(vzip2q_u64(a, b)));
        vst1q_u8(dst + row + 16, vreinterpretq_u8_u64(vzip2q_u64(c, d)));
    } else {  // kr == 32: one unit per lane and chunk
        vst1q_u8(dst, s0);
        vst1q_u8(dst + 16, s1);
        vst1q_u8(dst + 32, s2);
        vst1q_u8(dst + 48, s3);
    }
}

/// Packs the full chunks [0, chunks) of the four real lanes j0..j0+3 (rows rows[0..3]); returns
/// their sums of biased nibbles.
static uint32x4_t kai_pack_lanes4(
    const uint8_t* const rows[4], size_t chunks, size_t nr, size_t kr, size_t j0, uint8_t flip, uint8_t* out) {
    const uint8x16_t vflip = vdupq_n_u8((uint8_t)(flip | (flip << 4)));
    const uint8x16_t low = vdupq_n_u8(0x0F);
    uint32x4_t acc = vdupq_n_u32(0);
    uint8_t* dst = out + j0 * (kr / 2);
    for (size_t c = 0; c < chunks; ++c) {
        uint8x16_t l[4];
        uint8x16_t ns[4];
        for (size_t j = 0; j < 4; ++j) {
            l[j] = veorq_u8(vld1q_u8(rows[j] + c * 16), vflip);
            ns[j] = vaddq_u8(vandq_u8(l[j], low), vshrq_n_u8(l[j], 4));  // <= 30
        }
        kai_store_chunk4(l, kr, nr, dst + c * 16 * nr);
        const uint8x16_t q = vpaddq_u8(vpaddq_u8(ns[0], ns[1]), vpaddq_u8(ns[2], ns[3]));  // <= 120
        acc = vaddq_u32(acc, vpaddlq_u16(vpaddlq_u8(q)));
    }
    return acc;
}

void kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr >= sr && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(kr % 2 == 0, "kr must be even");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kai_roundup(k, kai_k_chunk) % kr == 0, "roundup(k, 32) must be a multiple of kr");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 0 || params->rhs_zero_point == 8, "params->rhs_zero_point must be 0 or 8");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(sr);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");

    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t row_bytes = kai_div_ceil(k, 2);
    const size_t stride = kai_packed_stride(k, nr);
    const uint8_t flip = (uint8_t)(params->rhs_zero_point == 8 ? 0 : 8);
    const int fast_kr = kr == 4 || kr == 8 || kr == 16 || kr == 32;
    const size_t full_chunks = fast_kr ? k / kai_k_chunk : 0;  // chunks whose 16 input bytes all exist
    uint8_t* block = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* tail = block + nr * kp / 2;
        const size_t real = KAI_MIN(nr, n - n0);
        size_t j = 0;
        for (; j + 4 <= real; j += 4) {
            const uint8_t* rows[4];
            for (size_t i = 0; i < 4; ++i) {
                rows[i] = rhs + (n0 + j + i) * row_bytes;
            }
            uint32_t sum_u[4];
            vst1q_u32(sum_u, kai_pack_lanes4(rows, full_chunks, nr, kr, j, flip, block));
            for (size_t i = 0; i < 4; ++i) {
                const int32_t s = (int32_t)sum_u[i] - (int32_t)(8 * 32 * full_chunks) +
                                  kai_pack_lane_scalar(rows[i], k, full_chunks * kai_k_chunk, kp, nr, kr, j + i, flip,
                                                       block);
                memcpy(tail + 4 * (j + i), &s, sizeof(s));
            }
        }
        for (; j < real; ++j) {
            const int32_t s = kai_pack_lane_scalar(rhs + (n0 + j) * row_bytes, k, 0, kp, nr, kr, j, flip, block);
            memcpy(tail + 4 * j, &s, sizeof(s));
        }
        for (size_t i = 0; i < real; ++i) {
            const float b = bias != NULL ? bias[n0 + i] : 0.0F;
            memcpy(tail + 4 * nr + 4 * i, &scale[n0 + i], sizeof(float));
            memcpy(tail + 8 * nr + 4 * i, &b, sizeof(b));
        }
        if (real < nr) {  // padded lanes: zero data, sum, scale and bias
            for (size_t g = 0; g < kp / kr; ++g) {
                memset(block + g * nr * (kr / 2) + real * (kr / 2), 0, (nr - real) * (kr / 2));
            }
            for (size_t f = 0; f < 3; ++f) {
                memset(tail + f * 4 * nr + 4 * real, 0, 4 * (nr - real));
            }
        }
        block += stride;
    }
}
