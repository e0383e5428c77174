//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs N x K unsigned int4 weights with per-block bf16 scales into the qsi4c32p layout
// (portable C; a NEON path on AArch64 for kr / sr = 8 writes identical bytes).
//
// Operation: w[n][k] = u[n][k] - 8, d[n][b] = bf16 scale of block b = k / bl of channel n,
//   sum[n] = sum_b d[n][b] * sum_{k in b} w[n][k]   (f32, fixed order, see below).
//
// Packed layout (one block of nr channels, R = nr * (nb * (bl / 2 + 2) + 8) bytes, nb = K / bl):
// for each quantisation block b, nr * bl / 2 bytes of nibbles then nr bf16 scales; then nr f32
// row sums, then nr f32 biases. Inside a block, with kk = k - b * bl, c = kk / 32, p = kk % 32,
// kbl = kr / sr: w[n][k] XOR 8 sits in byte c * 16 * nr + ((p % 16) / kbl) * nr * kbl +
// (n % nr) * kbl + p % kbl, in the low nibble when p < 16 and in the high one otherwise.
// Row sum order: per lane, sum = 0.0f; for each block, each 32-chunk, each kbl-byte group,
// sum = f32(sum + G * d) with G the exact sum of the group's 2 * kbl signed nibbles (G * d is
// exact, so fusing cannot change a bit). Channels past N copy channel N - 1.
// See docs/matmul_int4_blockwise.md.
//
// NEON path (kbl = 8), per 4 channels and 32-chunk: 16 input bytes per channel; SLI/SRI pair
// bytes i and i + 8 (elements k and k + 16) into output bytes, ZIP1/ZIP2 interleave them; the
// group sums come from pairwise additions of the per-byte nibble sums.

#include "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#if defined(__aarch64__)
#include <arm_neon.h>

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
#pragma weak kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0
// (end of the weak definitions)
#endif

static const size_t kai_lanes_per_group = 4;  // channels handled together by the NEON path

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
    KAI_ASSUME_MSG(16 % (kr / sr) == 0, "kr / sr must divide 16");
    KAI_ASSUME_MSG(bl % kr == 0, "bl must be a multiple of kr");
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_n_step_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(
    size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt) {
    kai_check_shape(k, nr, kr, sr, bl, scale_dt);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

/// Returns the bf16 scale of block b of channel ch, widened to f32.
static float kai_block_scale(const uint8_t* scale, size_t scale_stride, size_t ch, size_t b, uint16_t* raw) {
    memcpy(raw, scale + ch * scale_stride + 2 * b, sizeof(*raw));
    return kai_cast_f32_bf16(*raw);
}

/// Packs lane j of the block at `out` from channel row `row` (any kbl dividing 16): data,
/// scales, row sum and bias.
static void kai_pack_lane_generic(
    size_t j, size_t ch, size_t nr, size_t kbl, size_t k, size_t bl, const uint8_t* row, const uint8_t* scale,
    size_t scale_stride, const float* bias, uint8_t* out) {
    const size_t nb = k / bl;
    const size_t block_bytes = nr * (bl / 2 + 2);
    float sum = 0.0F;
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* blk = out + b * block_bytes;
        uint16_t raw;
        const float d = kai_block_scale(scale, scale_stride, ch, b, &raw);
        memcpy(blk + nr * bl / 2 + 2 * j, &raw, sizeof(raw));
        for (size_t c = 0; c < bl / 32; ++c) {
            for (size_t s = 0; s < 16 / kbl; ++s) {
                int32_t g = 0;
                for (size_t t = 0; t < kbl; ++t) {
                    const size_t k_lo = b * bl + 32 * c + s * kbl + t;
                    const size_t k_hi = k_lo + 16;
                    const uint8_t u_lo = (uint8_t)((row[k_lo / 2] >> (4 * (k_lo % 2))) & 0xF);
                    const uint8_t u_hi = (uint8_t)((row[k_hi / 2] >> (4 * (k_hi % 2))) & 0xF);
                    blk[c * 16 * nr + s * nr * kbl + j * kbl + t] = (uint8_t)((u_lo ^ 8) | ((u_hi ^ 8) << 4));
                    g += (int32_t)u_lo + (int32_t)u_hi - 16;
                }
                sum = sum + (float)g * d;
            }
        }
    }
    uint8_t* tail = out + nb * block_bytes;  // f32 values at any byte address
    memcpy(tail + j * sizeof(float), &sum, sizeof(sum));
    const float bv = bias != NULL ? bias[ch] : 0.0F;
    memcpy(tail + (nr + j) * sizeof(float), &bv, sizeof(bv));
}

#if defined(__aarch64__)
/// Stores the four unsigned-nibble lane vectors l[j] (bytes 0-7: group s = 0, bytes 8-15: s = 1)
/// of one 32-chunk as signed nibbles at `chunk` (lanes j0..j0+3 of an nr-lane block), and adds
/// their two group sums, times d, to the four row sums.
static float32x4_t kai_store_chunk4(const uint8x16_t l[4], uint8_t* chunk, size_t nr, float32x4_t d, float32x4_t sum) {
    const uint8x16_t flip = vdupq_n_u8(0x88);
    const uint8x16_t low = vdupq_n_u8(0x0F);
    const uint64x2_t l0 = vreinterpretq_u64_u8(veorq_u8(l[0], flip));
    const uint64x2_t l1 = vreinterpretq_u64_u8(veorq_u8(l[1], flip));
    const uint64x2_t l2 = vreinterpretq_u64_u8(veorq_u8(l[2], flip));
    const uint64x2_t l3 = vreinterpretq_u64_u8(veorq_u8(l[3], flip));
    vst1q_u8(chunk, vreinterpretq_u8_u64(vzip1q_u64(l0, l1)));
    vst1q_u8(chunk + 16, vreinterpretq_u8_u64(vzip1q_u64(l2, l3)));
    vst1q_u8(chunk + nr * 8, vreinterpretq_u8_u64(vzip2q_u64(l0, l1)));
    vst1q_u8(chunk + nr * 8 + 16, vreinterpretq_u8_u64(vzip2q_u64(l2, l3)));

    // Per-byte nibble sums (<= 30), then pairwise: 8 bytes of a group add up to <= 240.
    uint8x16_t ns[4];
    for (size_t j = 0; j < 4; ++j) {
        ns[j] = vaddq_u8(vandq_u8(l[j], low), vshrq_n_u8(l[j], 4));
    }
    const uint8x16_t p01 = vpaddq_u8(ns[0], ns[1]);
    const uint8x16_t p23 = vpaddq_u8(ns[2], ns[3]);
    const uint8x16_t q = vpaddq_u8(p01, p23);
    const uint8x8_t r = vget_low_u8(vpaddq_u8(q, q));  // l0s0 l0s1 l1s0 l1s1 l2s0 l2s1 l3s0 l3s1
    const uint16x8_t w = vmovl_u8(r);
    const uint16x4_t g0 = vget_low_u16(vuzp1q_u16(w, w));
    const uint16x4_t g1 = vget_low_u16(vuzp2q_u16(w, w));
    const int32x4_t bias128 = vdupq_n_s32(128);
    const int32x4_t s0 = vsubq_s32(vreinterpretq_s32_u32(vmovl_u16(g0)), bias128);
    const int32x4_t s1 = vsubq_s32(vreinterpretq_s32_u32(vmovl_u16(g1)), bias128);
    // G * d is exact, so the fused form rounds exactly as sum + G * d.
    sum = vfmaq_f32(sum, vcvtq_f32_s32(s0), d);
    sum = vfmaq_f32(sum, vcvtq_f32_s32(s1), d);
    return sum;
}

/// Packs lanes j0..j0+3 (kbl = 8) from the channel rows rows[0..3].
static void kai_pack_lanes4_neon(
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
        const uint16x4_t raw = vld1_u16(raw4);
        const float32x4_t d = vreinterpretq_f32_u32(vshll_n_u16(raw, 16));
        for (size_t c = 0; c < bl / 32; ++c) {
            const size_t in_off = (b * bl + 32 * c) / 2;
            uint8x16_t l[4];
            for (size_t h = 0; h < 2; ++h) {
                const uint64x2_t x0 = vreinterpretq_u64_u8(vld1q_u8(rows[2 * h] + in_off));
                const uint64x2_t x1 = vreinterpretq_u64_u8(vld1q_u8(rows[2 * h + 1] + in_off));
                const uint8x16_t a = vreinterpretq_u8_u64(vzip1q_u64(x0, x1));  // elements 0..15
                const uint8x16_t bb = vreinterpretq_u8_u64(vzip2q_u64(x0, x1)); // elements 16..31
                const uint8x16_t lo = vsliq_n_u8(a, bb, 4);  // (k, k + 16) for even k
                const uint8x16_t hi = vsriq_n_u8(bb, a, 4);  // (k, k + 16) for odd k
                l[2 * h] = vzip1q_u8(lo, hi);
                l[2 * h + 1] = vzip2q_u8(lo, hi);
            }
            sum = kai_store_chunk4(l, blk + c * 16 * nr + j0 * 8, nr, d, sum);
        }
    }
    uint8_t* tail = out + nb * block_bytes;  // f32 values at any byte address
    float sums[4];
    vst1q_f32(sums, sum);
    memcpy(tail + j0 * sizeof(float), sums, sizeof(sums));
    for (size_t j = 0; j < 4; ++j) {
        const float bv = bias != NULL ? bias[ch[j]] : 0.0F;
        memcpy(tail + (nr + j0 + j) * sizeof(float), &bv, sizeof(bv));
    }
}
#endif

void kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(
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
    const size_t kbl = kr / sr;
    const size_t stride = kai_packed_stride(k, nr, bl);
    const uint8_t* scale_bytes = (const uint8_t*)scale;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        for (size_t j0 = 0; j0 < nr; j0 += kai_lanes_per_group) {
            size_t ch[4];
            const uint8_t* rows[4];
            for (size_t j = 0; j < 4; ++j) {
                ch[j] = KAI_MIN(n0 + j0 + j, n - 1);
                rows[j] = rhs + ch[j] * rhs_stride;
            }
#if defined(__aarch64__)
            if (kbl == 8) {
                kai_pack_lanes4_neon(j0, ch, nr, k, bl, rows, scale_bytes, scale_stride, bias, out);
                continue;
            }
#endif
            for (size_t j = 0; j < 4; ++j) {
                kai_pack_lane_generic(j0 + j, ch[j], nr, kbl, k, bl, rows[j], scale_bytes, scale_stride, bias, out);
            }
        }
    }
}
