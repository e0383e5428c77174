//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs nxk int4 weights for the qsi4cxp kernels (portable C; NEON path on AArch64 giving the
// same bytes).
//
// Operation: for each block of nr channels (channel j of the block = min(n0 + j, N - 1)), each
// 32-K chunk c, each position p' < 16 of its two halves: byte c*16*nr + (p'/kbl)*nr*kbl + j*kbl +
// p'%kbl = w[j][32c + p'] & 0xF | (w[j][32c + 16 + p'] & 0xF) << 4 (signed nibbles, K padding 0);
// after the data nr int32 16*sum_k w[j][k], nr f32 scale[j]*0.0625, nr f32 bias[j] (0 if NULL).
// kbl = kr / sr. Layout diagram: docs/matmul_int4_channelwise.md, docs/formats.md, "qsi4cxp RHS".
//
// NEON path (kbl == 8): the 16 input bytes of a chunk, taken as biased unsigned nibbles u = w + 8
// (input XOR 0x88 for signed input), are split (AND 0x0F, USHR #4), re-interleaved into K order
// (ZIP1: K 0-15, ZIP2: K 16-31), merged (SLI #4) and turned signed (EOR 0x88); sum(u) comes from
// UADALP of the nibble pair sums, and sum(w) = sum(u) - 8 * Kp (pad nibbles are u = 8).

#include "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#if defined(__aarch64__)
#include <arm_neon.h>

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
#pragma weak kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0
// (end of the weak definitions)
#endif

static const size_t kai_k_chunk = 32;  // Kp = roundup(K, 32), whatever kr and sr are

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 2, 12));
}

size_t kai_get_n_step_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr));
}

// Biased unsigned nibble u = w + 8 of element k of a channel row (pad: 8, i.e. w = 0).
static uint8_t kai_biased_nibble(const uint8_t* row, size_t k, size_t k_real, uint8_t flip) {
    if (k >= k_real) {
        return 8;
    }
    const uint8_t byte = row[k / 2];
    const uint8_t nib = (uint8_t)((k % 2 == 0) ? (byte & 0x0F) : (byte >> 4));
    return (uint8_t)(nib ^ flip);
}

// Packs chunks [c0, kp / 32) of one channel lane with scalar code; returns sum(u) over them.
static int32_t kai_pack_lane_scalar(
    const uint8_t* row, size_t k, size_t c0, size_t kp, size_t nr, size_t kbl, size_t j, uint8_t flip, uint8_t* out) {
    int32_t sum_u = 0;
    for (size_t c = c0; c < kp / kai_k_chunk; ++c) {
        for (size_t p = 0; p < 16; ++p) {
            const uint8_t lo = kai_biased_nibble(row, c * 32 + p, k, flip);
            const uint8_t hi = kai_biased_nibble(row, c * 32 + 16 + p, k, flip);
            sum_u += lo + hi;
            out[c * 16 * nr + (p / kbl) * nr * kbl + j * kbl + p % kbl] = (uint8_t)((lo | (hi << 4)) ^ 0x88);
        }
    }
    return sum_u;
}

#if defined(__aarch64__)
// Packs the full chunks [0, k / 32) of one lane (kbl == 8); returns sum(u) over them.
static int32_t kai_pack_lane_neon(const uint8_t* row, size_t chunks, size_t nr, size_t j, uint8_t flip, uint8_t* out) {
    const uint8x16_t vflip = vdupq_n_u8((uint8_t)(flip | (flip << 4)));
    const uint8x16_t v88 = vdupq_n_u8(0x88);
    const uint8x16_t v0f = vdupq_n_u8(0x0F);
    uint8_t* dst = out + j * 8;
    const size_t half = nr * 8;
    const size_t step = nr * 16;
    uint32_t sum_u = 0;
    size_t c = 0;
    while (c < chunks) {
        // u16 lanes take at most 60 per chunk: flush to u32 every 512 chunks.
        const size_t end = KAI_MIN(chunks, c + 512);
        uint16x8_t acc = vdupq_n_u16(0);
        for (; c < end; ++c) {
            const uint8x16_t u = veorq_u8(vld1q_u8(row + c * 16), vflip);
            const uint8x16_t lo = vandq_u8(u, v0f);
            const uint8x16_t hi = vshrq_n_u8(u, 4);
            const uint8x16_t k0_15 = vzip1q_u8(lo, hi);
            const uint8x16_t k16_31 = vzip2q_u8(lo, hi);
            const uint8x16_t packed = veorq_u8(vsliq_n_u8(k0_15, k16_31, 4), v88);
            acc = vpadalq_u8(acc, vaddq_u8(lo, hi));
            vst1_u8(dst, vget_low_u8(packed));
            vst1_u8(dst + half, vget_high_u8(packed));
            dst += step;
        }
        sum_u += vaddlvq_u16(acc);
    }
    return (int32_t)sum_u;
}
#endif

void kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr >= sr && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(16 % (kr / sr) == 0, "kr / sr must divide 16");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 0 || params->rhs_zero_point == 8, "params->rhs_zero_point must be 0 or 8");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");

    const size_t kbl = kr / sr;
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t row_bytes = kai_div_ceil(k, 2);
    const size_t stride = kai_packed_stride(k, nr);
    // Unsigned input (zero point 8) is already biased; signed input gets bias 8 by flipping bit 3.
    const uint8_t flip = (uint8_t)(params->rhs_zero_point == 8 ? 0 : 8);
    uint8_t* block = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* tail = block + nr * kp / 2;
        for (size_t j = 0; j < nr; ++j) {
            const size_t ch = KAI_MIN(n0 + j, n - 1);
            const uint8_t* row = rhs + ch * row_bytes;
            size_t c0 = 0;
            int32_t sum_u = 0;
#if defined(__aarch64__)
            if (kbl == 8) {
                c0 = k / kai_k_chunk;  // chunks whose 16 input bytes all exist
                sum_u = kai_pack_lane_neon(row, c0, nr, j, flip, block);
            }
#endif
            sum_u += kai_pack_lane_scalar(row, k, c0, kp, nr, kbl, j, flip, block);
            const int32_t sum16 = (int32_t)(16 * (sum_u - (int32_t)(8 * kp)));
            const float s = scale[ch] * 0.0625F;
            const float b = bias != NULL ? bias[ch] : 0.0F;
            memcpy(tail + 4 * j, &sum16, sizeof(sum16));
            memcpy(tail + 4 * nr + 4 * j, &s, sizeof(s));
            memcpy(tail + 8 * nr + 4 * j, &b, sizeof(b));
        }
        block += stride;
    }
}
