//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Converts an f32 LHS to f16 (FCVTN: round to nearest even, NaN quietened) and interleaves it by pairs of k values
// in blocks of mr rows (the layout of the f16 x Q4_0 SME2 kernel, docs/formats.md, "SME packed layouts"): element (r, k) at halfword
// ((k / 2) * mr + r % mr) * 2 + k % 2 of block r / mr (block stride mr * k * 2 bytes).
// Four rows at a time when they fill 4 consecutive lanes of one block: per 8 values, two FCVTN per row give four
// 32-bit pairs, a 4 x 4 transpose of the 32-bit lanes (TRN1/TRN2 on 32 and 64 bits) gives, per pair, the four
// rows' words in lane order: one 16-byte store per pair. Other rows (and the k tail) one pair at a time.

#include "kai_lhs_pack_f16pmrx2_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_lhs_pack_f16pmrx2_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_f16pmrx2_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon
#pragma weak kai_get_m_step_lhs_pack_f16pmrx2_f32_neon
#pragma weak kai_run_lhs_pack_f16pmrx2_f32_neon
// (end of the weak definitions)

static void kai_check_shape(size_t k, size_t bl, size_t mr, size_t kr) {
    KAI_ASSUME_MSG(k % 2 == 0, "k must be even");
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && k % bl == 0, "k must be a multiple of bl (non-zero)");
    KAI_ASSUME_MSG(mr != 0, "mr must be non-zero");
    KAI_ASSUME_MSG(kr != 0 && k % kr == 0, "k must be a multiple of kr (non-zero)");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
}

size_t kai_get_m_step_lhs_pack_f16pmrx2_f32_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_pack_f16pmrx2_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx, kai_mul_size_checked(k, sizeof(uint16_t)));
}

size_t kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_UNUSED(sr);
    const size_t blocks = m / mr + (m % mr != 0);
    return kai_mul_size_checked(kai_mul_size_checked(blocks, mr), kai_mul_size_checked(k, sizeof(uint16_t)));
}

// The f16 pairs (k = 2p, 2p + 1) of 8 values at x, as four 32-bit lanes (pairs p0 .. p0 + 3).
static inline uint32x4_t kai_pairs8(const float* x) {
    const float16x8_t h = vcvt_high_f16_f32(vcvt_f16_f32(vld1q_f32(x)), vld1q_f32(x + 4));
    return vreinterpretq_u32_f16(h);
}

// The same for the n < 8 values left at x (the missing ones converted as 0 and not stored).
static inline uint32x4_t kai_pairs_tail(const float* x, size_t n) {
    float t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(t, x, n * sizeof(float));
    return kai_pairs8(t);
}

void kai_run_lhs_pack_f16pmrx2_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
    size_t lhs_stride, void* lhs_packed) {
    KAI_ASSUME_MSG(sr == 2, "sr must be 2");
    KAI_ASSUME_MSG(mr != 0, "mr must be non-zero");
    KAI_ASSUME_MSG(k % 2 == 0, "k must be even");
    KAI_UNUSED(bl);
    KAI_UNUSED(kr);
    KAI_UNUSED(m_idx_start);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / sizeof(float) >= k, "lhs_stride must be at least k * sizeof(float) when m > 1");

    const uint8_t* src = (const uint8_t*)lhs;
    uint8_t* dst = (uint8_t*)lhs_packed;
    const size_t pair_stride = mr * sizeof(uint32_t);  // bytes between pairs p and p + 1 of one lane
    const size_t k8 = k - k % 8;
    size_t r = 0;
    while (r < m) {
        const size_t lane = r % mr;
        uint8_t* block = dst + (r / mr) * mr * k * sizeof(uint16_t);
        if (r + 4 <= m && lane + 4 <= mr) {
            const float* x0 = (const float*)(const void*)(src + r * lhs_stride);
            const float* x1 = (const float*)(const void*)(src + (r + 1) * lhs_stride);
            const float* x2 = (const float*)(const void*)(src + (r + 2) * lhs_stride);
            const float* x3 = (const float*)(const void*)(src + (r + 3) * lhs_stride);
            uint8_t* out = block + lane * sizeof(uint32_t);
            for (size_t kk = 0; kk < k; kk += 8) {
                uint32x4_t a, b, c, d;
                if (kk < k8) {
                    a = kai_pairs8(x0 + kk);
                    b = kai_pairs8(x1 + kk);
                    c = kai_pairs8(x2 + kk);
                    d = kai_pairs8(x3 + kk);
                } else {
                    a = kai_pairs_tail(x0 + kk, k - kk);
                    b = kai_pairs_tail(x1 + kk, k - kk);
                    c = kai_pairs_tail(x2 + kk, k - kk);
                    d = kai_pairs_tail(x3 + kk, k - kk);
                }
                // Transpose: t0 = a0 b0 a2 b2, t1 = a1 b1 a3 b3, t2 = c0 d0 c2 d2, t3 = c1 d1 c3 d3.
                const uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(a, b));
                const uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(a, b));
                const uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(c, d));
                const uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(c, d));
                uint8_t* o = out + (kk / 2) * pair_stride;
                const size_t pairs = (k - kk) / 2 < 4 ? (k - kk) / 2 : 4;
                const uint32x4_t p[4] = {
                    vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)), vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)),
                    vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)), vreinterpretq_u32_u64(vtrn2q_u64(t1, t3))};
                for (size_t q = 0; q < pairs; ++q) vst1q_u32((uint32_t*)(void*)(o + q * pair_stride), p[q]);
            }
            r += 4;
        } else {
            const float* x = (const float*)(const void*)(src + r * lhs_stride);
            uint8_t* out = block + lane * sizeof(uint32_t);
            for (size_t kk = 0; kk < k; kk += 8) {
                const uint32x4_t v = kk < k8 ? kai_pairs8(x + kk) : kai_pairs_tail(x + kk, k - kk);
                uint32_t w[4];
                vst1q_u32(w, v);
                const size_t pairs = (k - kk) / 2 < 4 ? (k - kk) / 2 : 4;
                for (size_t q = 0; q < pairs; ++q) memcpy(out + (kk / 2 + q) * pair_stride, &w[q], sizeof(uint32_t));
            }
            r += 1;
        }
    }
}
