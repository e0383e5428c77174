//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon needs AArch64 (NEON)"
#endif

// Packs nxk int8 weights for the qsi8cxp kernels.
//
// Operation: for each block of nr channels (channel of lane j = min(n0 + j, N - 1)) and each group
// g of kr K values: bytes g*nr*kr + j*kr + t = w[ch][g*kr + t] (0 for K <= k < Kp = roundup(K, 32));
// after the data nr int32 lhs_zero_point * sum_k w[ch][k], nr f32 scale[ch], nr f32 bias[ch] (0 if
// NULL). Layout diagram: docs/matmul_int8_channelwise.md, docs/formats.md, "qsi8cxp RHS".
//
// NEON path (kr 4 or 8, four lanes whose channels all exist): 16 K values of the four rows per
// step. kr = 4: the 4x4 transpose of 32-bit words (TRN1/TRN2 .4s, then .2d) gives the four groups'
// 16-byte lines [c0, c1, c2, c3]; kr = 8: ZIP1/ZIP2 .2d give the two groups' halves. The sums come
// from the same registers (SADDLP, SADALP: two instructions per 16 weights). The other lanes, the
// K tail and the padding take the scalar path.

#include "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
#pragma weak kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon
// (end of the weak definitions)

static const size_t kai_k_chunk = 32;  // Kp = roundup(K, 32), whatever kr is

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 12));
}

size_t kai_get_n_step_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr));
}

// Per-channel tail of block `block` (nr channels, kp data bytes per channel): sums, scales, biases
// of lanes [j0, j1), channel of lane j = min(n0 + j, n - 1).
static void kai_write_tail(
    uint8_t* block, size_t nr, size_t kp, size_t n0, size_t n, size_t j0, size_t j1, const int32_t* sums,
    int32_t lhs_zero_point, const float* bias, const float* scale) {
    uint8_t* tail = block + nr * kp;
    for (size_t j = j0; j < j1; ++j) {
        const size_t ch = KAI_MIN(n0 + j, n - 1);
        // lhs_zero_point * sum, wrapping like KleidiAI's int32 multiply.
        const int32_t s = (int32_t)((uint32_t)sums[j - j0] * (uint32_t)lhs_zero_point);
        const float b = bias != NULL ? bias[ch] : 0.0f;
        memcpy(tail + 4 * j, &s, sizeof(s));
        memcpy(tail + 4 * nr + 4 * j, &scale[ch], sizeof(float));
        memcpy(tail + 8 * nr + 4 * j, &b, sizeof(b));
    }
}

// The generic path for lane j of a block: K values k0 <= kk < kp of channel row `row` (element kk
// at row[kk * step]; 0 for kk >= k), added to *sum.
static void kai_pack_lane_tail(
    uint8_t* block, size_t nr, size_t kr, size_t j, const int8_t* row, size_t step, size_t k0, size_t k, size_t kp,
    int32_t* sum) {
    int32_t s = *sum;
    for (size_t kk = k0; kk < kp; ++kk) {
        const int8_t v = kk < k ? row[kk * step] : 0;
        block[(kk / kr) * nr * kr + j * kr + kk % kr] = (uint8_t)v;
        s += v;
    }
    *sum = s;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

// Lanes j..j+3 of a block from the channel rows r0..r3 (kr == 4): K values [0, k16), k16 a multiple
// of 16; returns the four rows' sums in *sums.
static void kai_pack_quad_kr4(
    uint8_t* block, size_t nr, size_t j, const int8_t* r0, const int8_t* r1, const int8_t* r2, const int8_t* r3,
    size_t k16, int32x4_t* sums) {
    int32x4_t acc = vdupq_n_s32(0);
    const size_t line = nr * 4;  // bytes per group
    int8_t* out = (int8_t*)block + j * 4;
    for (size_t kk = 0; kk < k16; kk += 16) {
        const int32x4_t w0 = vreinterpretq_s32_s8(vld1q_s8(r0 + kk));
        const int32x4_t w1 = vreinterpretq_s32_s8(vld1q_s8(r1 + kk));
        const int32x4_t w2 = vreinterpretq_s32_s8(vld1q_s8(r2 + kk));
        const int32x4_t w3 = vreinterpretq_s32_s8(vld1q_s8(r3 + kk));
        const int64x2_t t01_even = vreinterpretq_s64_s32(vtrn1q_s32(w0, w1));
        const int64x2_t t01_odd = vreinterpretq_s64_s32(vtrn2q_s32(w0, w1));
        const int64x2_t t23_even = vreinterpretq_s64_s32(vtrn1q_s32(w2, w3));
        const int64x2_t t23_odd = vreinterpretq_s64_s32(vtrn2q_s32(w2, w3));
        const int8x16_t g0 = vreinterpretq_s8_s64(vtrn1q_s64(t01_even, t23_even));
        const int8x16_t g1 = vreinterpretq_s8_s64(vtrn1q_s64(t01_odd, t23_odd));
        const int8x16_t g2 = vreinterpretq_s8_s64(vtrn2q_s64(t01_even, t23_even));
        const int8x16_t g3 = vreinterpretq_s8_s64(vtrn2q_s64(t01_odd, t23_odd));
        vst1q_s8(out, g0);
        vst1q_s8(out + line, g1);
        vst1q_s8(out + 2 * line, g2);
        vst1q_s8(out + 3 * line, g3);
        acc = vpadalq_s16(acc, vpaddlq_s8(g0));
        acc = vpadalq_s16(acc, vpaddlq_s8(g1));
        acc = vpadalq_s16(acc, vpaddlq_s8(g2));
        acc = vpadalq_s16(acc, vpaddlq_s8(g3));
        out += 4 * line;
    }
    *sums = acc;
}

// The same for kr == 8.
static void kai_pack_quad_kr8(
    uint8_t* block, size_t nr, size_t j, const int8_t* r0, const int8_t* r1, const int8_t* r2, const int8_t* r3,
    size_t k16, int32x4_t* sums) {
    int32x4_t acc_c01 = vdupq_n_s32(0);  // [c0, c0, c1, c1]
    int32x4_t acc_c23 = vdupq_n_s32(0);
    const size_t line = nr * 8;
    int8_t* out = (int8_t*)block + j * 8;
    for (size_t kk = 0; kk < k16; kk += 16) {
        const int64x2_t w0 = vreinterpretq_s64_s8(vld1q_s8(r0 + kk));
        const int64x2_t w1 = vreinterpretq_s64_s8(vld1q_s8(r1 + kk));
        const int64x2_t w2 = vreinterpretq_s64_s8(vld1q_s8(r2 + kk));
        const int64x2_t w3 = vreinterpretq_s64_s8(vld1q_s8(r3 + kk));
        const int8x16_t g0_c01 = vreinterpretq_s8_s64(vzip1q_s64(w0, w1));
        const int8x16_t g0_c23 = vreinterpretq_s8_s64(vzip1q_s64(w2, w3));
        const int8x16_t g1_c01 = vreinterpretq_s8_s64(vzip2q_s64(w0, w1));
        const int8x16_t g1_c23 = vreinterpretq_s8_s64(vzip2q_s64(w2, w3));
        vst1q_s8(out, g0_c01);
        vst1q_s8(out + 16, g0_c23);
        vst1q_s8(out + line, g1_c01);
        vst1q_s8(out + line + 16, g1_c23);
        acc_c01 = vpadalq_s16(acc_c01, vpaddlq_s8(g0_c01));
        acc_c23 = vpadalq_s16(acc_c23, vpaddlq_s8(g0_c23));
        acc_c01 = vpadalq_s16(acc_c01, vpaddlq_s8(g1_c01));
        acc_c23 = vpadalq_s16(acc_c23, vpaddlq_s8(g1_c23));
        out += 2 * line;
    }
    *sums = vpaddq_s32(acc_c01, acc_c23);
}

void kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const int8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qsi8cx_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kai_roundup(k, kai_k_chunk) % kr == 0, "kr must divide roundup(k, 32)");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
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
    const size_t stride = kai_packed_stride(k, nr);
    const int fast_kr = kr == 4 || kr == 8;
    const size_t k16 = k / 16 * 16;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        size_t j = 0;
        // Four lanes at a time while their channels exist (the NEON path).
        for (; fast_kr && j + 4 <= nr && n0 + j + 4 <= n; j += 4) {
            const int8_t* r0 = rhs + (n0 + j) * k;
            int32x4_t quad;
            if (kr == 4) {
                kai_pack_quad_kr4(block, nr, j, r0, r0 + k, r0 + 2 * k, r0 + 3 * k, k16, &quad);
            } else {
                kai_pack_quad_kr8(block, nr, j, r0, r0 + k, r0 + 2 * k, r0 + 3 * k, k16, &quad);
            }
            int32_t sums[4];
            vst1q_s32(sums, quad);
            for (size_t q = 0; q < 4; ++q) {
                kai_pack_lane_tail(block, nr, kr, j + q, r0 + q * k, 1, k16, k, kp, &sums[q]);
            }
            kai_write_tail(block, nr, kp, n0, n, j, j + 4, sums, params->lhs_zero_point, bias, scale);
        }
        // The remaining lanes (padded ones copy channel n - 1).
        for (; j < nr; ++j) {
            const size_t ch = KAI_MIN(n0 + j, n - 1);
            int32_t sum = 0;
            kai_pack_lane_tail(block, nr, kr, j, rhs + ch * k, 1, 0, k, kp, &sum);
            kai_write_tail(block, nr, kp, n0, n, j, j + 1, &sum, params->lhs_zero_point, bias, scale);
        }
    }
}
