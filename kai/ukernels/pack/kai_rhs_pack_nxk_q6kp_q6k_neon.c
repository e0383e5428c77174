//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs GGUF Q6_K rows for the q6kp kernels (AArch64 NEON, layout in docs/matmul_gguf_kquants.md).
// Per column and 128-value half of a super-block, 16 values at a time: the low 4 bits come from ql
// (AND or USHR), the high 2 bits from qh (SHL/USHR and AND 0x30), ORR, SUB 32; then the 4 columns
// are interleaved 8 values at a time by ZIP1/ZIP2 on 64-bit lanes, and the scales widened (SXTL) and
// transposed to [j][c] by ST4. About 0.3 instructions per weight.

#include "kai_rhs_pack_nxk_q6kp_q6k_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_q6kp_q6k_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_compat_paths.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_q6kp_q6k_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_q6kp_q6k_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_q6kp_q6k_neon
#pragma weak kai_run_rhs_pack_nxk_q6kp_q6k_neon
// (end of the weak definitions)

enum { KAI_QK = 256, KAI_SRC_BLOCK = 210, KAI_NR = 4, KAI_PACKED_BLOCK = 1168 };

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_ALWAYS_MSG(k != 0 && k % KAI_QK == 0, "k must be a non-zero multiple of 256");
    KAI_ASSUME_MSG(nr == KAI_NR, "nr must be 4");
    KAI_ASSUME_MSG(kr == 4 || kr == 8, "kr must be 4 or 8 (the layout is the same)");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_n_step_rhs_pack_nxk_q6kp_q6k_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_q6kp_q6k_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_q6kp_q6k_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    kai_check_shape(k, nr, kr, sr);
    return kai_add_size_checked(kai_mul_size_checked(k / KAI_QK, KAI_PACKED_BLOCK), KAI_NR * sizeof(float));
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(n_idx % KAI_NR == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / KAI_NR, kai_get_rhs_packed_stride_rhs_pack_nxk_q6kp_q6k_neon(k, nr, kr, sr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    return kai_mul_size_checked(kai_div_ceil(n, KAI_NR), kai_get_rhs_packed_stride_rhs_pack_nxk_q6kp_q6k_neon(k, nr, kr, sr));
}

// Decodes one block_q6_K's 256 values to int8 q - 32 in w (value order).
static void kai_decode_block(const uint8_t* blk, int8_t* w) {
    const uint8x16_t low4 = vdupq_n_u8(0x0F);
    const uint8x16_t top2 = vdupq_n_u8(0x30);
    const int8x16_t bias = vdupq_n_s8(32);
    for (size_t half = 0; half < 2; ++half) {
        const uint8_t* ql = blk + 64 * half;
        const uint8_t* qh = blk + 128 + 32 * half;
        int8_t* o = w + 128 * half;
        for (size_t l = 0; l < 32; l += 16) {
            const uint8x16_t a = vld1q_u8(ql + l);
            const uint8x16_t b = vld1q_u8(ql + l + 32);
            const uint8x16_t h = vld1q_u8(qh + l);
            const uint8x16_t v0 = vorrq_u8(vandq_u8(a, low4), vandq_u8(vshlq_n_u8(h, 4), top2));
            const uint8x16_t v1 = vorrq_u8(vandq_u8(b, low4), vandq_u8(vshlq_n_u8(h, 2), top2));
            const uint8x16_t v2 = vorrq_u8(vshrq_n_u8(a, 4), vandq_u8(h, top2));
            const uint8x16_t v3 = vorrq_u8(vshrq_n_u8(b, 4), vandq_u8(vshrq_n_u8(h, 2), top2));
            vst1q_s8(o + l, vsubq_s8(vreinterpretq_s8_u8(v0), bias));
            vst1q_s8(o + l + 32, vsubq_s8(vreinterpretq_s8_u8(v1), bias));
            vst1q_s8(o + l + 64, vsubq_s8(vreinterpretq_s8_u8(v2), bias));
            vst1q_s8(o + l + 96, vsubq_s8(vreinterpretq_s8_u8(v3), bias));
        }
    }
}

void kai_run_rhs_pack_nxk_q6kp_q6k_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, const void* rhs, size_t rhs_stride, const float* bias,
    void* rhs_packed) {
    kai_check_shape(k, nr, kr, sr);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_IF_MSG(n > 1, rhs_stride >= k / KAI_QK * KAI_SRC_BLOCK, "rhs_stride must be at least k / 256 * 210");
    const size_t nb = k / KAI_QK;
    uint8_t* out = (uint8_t*)rhs_packed;
    int8_t w[KAI_NR][KAI_QK];
    for (size_t n0 = 0; n0 < n; n0 += KAI_NR) {
        for (size_t b = 0; b < nb; ++b) {
            float d[KAI_NR];
            int16x8x4_t sc_lo;
            int16x8x4_t sc_hi;
            for (size_t c = 0; c < KAI_NR; ++c) {
                if (n0 + c < n) {
                    const uint8_t* blk = (const uint8_t*)rhs + (n0 + c) * rhs_stride + b * KAI_SRC_BLOCK;
                    uint16_t h;
                    memcpy(&h, blk + 208, sizeof(h));
                    d[c] = kai_cast_f32_f16(h);
                    const int8x16_t s = vld1q_s8((const int8_t*)(blk + 192));
                    sc_lo.val[c] = vmovl_s8(vget_low_s8(s));
                    sc_hi.val[c] = vmovl_high_s8(s);
                    kai_decode_block(blk, w[c]);
                } else {
                    d[c] = 0.0F;
                    sc_lo.val[c] = vdupq_n_s16(0);
                    sc_hi.val[c] = vdupq_n_s16(0);
                    memset(w[c], 0, sizeof(w[c]));
                }
            }
            memcpy(out, d, sizeof(d));
            vst4q_s16((int16_t*)(out + 16), sc_lo);
            vst4q_s16((int16_t*)(out + 80), sc_hi);
            int8_t* q = (int8_t*)(out + 144);
            for (size_t t = 0; t < KAI_QK / 16; ++t) {
                const int64x2_t c0 = vreinterpretq_s64_s8(vld1q_s8(w[0] + 16 * t));
                const int64x2_t c1 = vreinterpretq_s64_s8(vld1q_s8(w[1] + 16 * t));
                const int64x2_t c2 = vreinterpretq_s64_s8(vld1q_s8(w[2] + 16 * t));
                const int64x2_t c3 = vreinterpretq_s64_s8(vld1q_s8(w[3] + 16 * t));
                vst1q_s8(q + 64 * t, vreinterpretq_s8_s64(vzip1q_s64(c0, c1)));
                vst1q_s8(q + 64 * t + 16, vreinterpretq_s8_s64(vzip1q_s64(c2, c3)));
                vst1q_s8(q + 64 * t + 32, vreinterpretq_s8_s64(vzip2q_s64(c0, c1)));
                vst1q_s8(q + 64 * t + 48, vreinterpretq_s8_s64(vzip2q_s64(c2, c3)));
            }
            out += KAI_PACKED_BLOCK;
        }
        float bv[KAI_NR] = {0.0F, 0.0F, 0.0F, 0.0F};
        for (size_t c = 0; c < KAI_NR && bias != NULL && n0 + c < n; ++c) {
            bv[c] = bias[n0 + c];
        }
        memcpy(out, bv, sizeof(bv));
        out += sizeof(bv);
    }
}
