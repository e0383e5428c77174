//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Quantises f32 rows to int8 per block of bl values and packs them for the asymmetric int4 kernels
// (AArch64 NEON). Per row and block: a pass for amax (FABS + FMAX over four accumulators), then
// FMUL by 127 / amax, FCVTNS (ties to even), UZP1 narrowing to int8 (exact: |x * scale| <= 127), SADALP into
// 16-bit lanes for the sum (flushed every 2048 values) and stores of kbl = kr / sr bytes to the lane's
// groups. Layout in docs/matmul_int4_asymmetric.md.

#include "kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d32pscalef32_f32_neon
#pragma weak kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon
// (end of the weak definitions)

static void kai_check_shape(size_t k, size_t bl, size_t mr, size_t kr) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(k % 2 == 0, "k must be even");
    KAI_ASSUME_MSG(kr != 0 && k % kr == 0, "k must be a multiple of kr");
    KAI_ASSUME_MSG(mr != 0, "mr must be non-zero");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
}

size_t kai_get_m_step_lhs_quant_pack_qsi8d32pscalef32_f32_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f32_neon(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx / mr, kai_mul_size_checked(mr * (k / bl), bl + 8));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), kai_mul_size_checked(mr * (k / bl), bl + 8));
}

// The int8 of 16 int32 values in [-127, 127] (|x * scale| <= 127, so the low bytes are the
// values): two UZP1 of 16-bit, one of 8-bit elements.
static inline int8x16_t narrow16(int32x4_t q0, int32x4_t q1, int32x4_t q2, int32x4_t q3) {
    const int16x8_t h0 = vuzp1q_s16(vreinterpretq_s16_s32(q0), vreinterpretq_s16_s32(q1));
    const int16x8_t h1 = vuzp1q_s16(vreinterpretq_s16_s32(q2), vreinterpretq_s16_s32(q3));
    return vuzp1q_s8(vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1));
}

// The same with saturation, for blocks whose scale overflowed to infinity (amax below 127 / FLT_MAX):
// x * scale is then infinite and FCVT saturates, and the int8 must saturate too.
static inline int8x16_t narrow16_sat(int32x4_t q0, int32x4_t q1, int32x4_t q2, int32x4_t q3) {
    const int16x8_t h0 = vqmovn_high_s32(vqmovn_s32(q0), q1);
    const int16x8_t h1 = vqmovn_high_s32(vqmovn_s32(q2), q3);
    return vqmovn_high_s16(vqmovn_s16(h0), h1);
}

// Quantises 16 values: q = FCVTNS(x * scale), narrowed to int8.
static inline int8x16_t quant16(const float* x, float32x4_t vs, int sat) {
    const int32x4_t q0 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x), vs));
    const int32x4_t q1 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + 4), vs));
    const int32x4_t q2 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + 8), vs));
    const int32x4_t q3 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + 12), vs));
    return sat ? narrow16_sat(q0, q1, q2, q3) : narrow16(q0, q1, q2, q3);
}

// A block of exactly 32 values (the common bl), held in registers: one load of the data, no loops.
// Returns 0 (nothing written) for a block whose scale overflows, which pack_block handles.
static inline int pack_block32(const float* x, size_t kbl, size_t gs, int8_t* dst, uint8_t* par, size_t mr) {
    const float32x4_t v0 = vld1q_f32(x);
    const float32x4_t v1 = vld1q_f32(x + 4);
    const float32x4_t v2 = vld1q_f32(x + 8);
    const float32x4_t v3 = vld1q_f32(x + 12);
    const float32x4_t v4 = vld1q_f32(x + 16);
    const float32x4_t v5 = vld1q_f32(x + 20);
    const float32x4_t v6 = vld1q_f32(x + 24);
    const float32x4_t v7 = vld1q_f32(x + 28);
    const float32x4_t m01 = vmaxq_f32(vabsq_f32(v0), vabsq_f32(v1));
    const float32x4_t m23 = vmaxq_f32(vabsq_f32(v2), vabsq_f32(v3));
    const float32x4_t m45 = vmaxq_f32(vabsq_f32(v4), vabsq_f32(v5));
    const float32x4_t m67 = vmaxq_f32(vabsq_f32(v6), vabsq_f32(v7));
    const float amax = vmaxvq_f32(vmaxq_f32(vmaxq_f32(m01, m23), vmaxq_f32(m45, m67)));
    const float scale = amax == 0.0F ? 0.0F : 127.0F / amax;
    if (scale > 3.4e38F) {
        return 0;
    }
    const float recip = scale != 0.0F ? 1.0F / scale : 0.0F;
    const float32x4_t vs = vdupq_n_f32(scale);
    const int8x16_t a = narrow16(vcvtnq_s32_f32(vmulq_f32(v0, vs)), vcvtnq_s32_f32(vmulq_f32(v1, vs)), vcvtnq_s32_f32(vmulq_f32(v2, vs)),
                                 vcvtnq_s32_f32(vmulq_f32(v3, vs)));
    const int8x16_t b = narrow16(vcvtnq_s32_f32(vmulq_f32(v4, vs)), vcvtnq_s32_f32(vmulq_f32(v5, vs)), vcvtnq_s32_f32(vmulq_f32(v6, vs)),
                                 vcvtnq_s32_f32(vmulq_f32(v7, vs)));
    const float s = (float)vaddlvq_s16(vpadalq_s8(vpaddlq_s8(a), b)) * recip;
    if (gs == kbl) {
        vst1q_s8(dst, a);
        vst1q_s8(dst + 16, b);
    } else if (kbl == 8) {
        vst1_s8(dst, vget_low_s8(a));
        vst1_s8(dst + gs, vget_high_s8(a));
        vst1_s8(dst + 2 * gs, vget_low_s8(b));
        vst1_s8(dst + 3 * gs, vget_high_s8(b));
    } else {
        const int32x4_t wa = vreinterpretq_s32_s8(a);
        const int32x4_t wb = vreinterpretq_s32_s8(b);
        vst1q_lane_s32((int32_t*)(void*)dst, wa, 0);
        vst1q_lane_s32((int32_t*)(void*)(dst + gs), wa, 1);
        vst1q_lane_s32((int32_t*)(void*)(dst + 2 * gs), wa, 2);
        vst1q_lane_s32((int32_t*)(void*)(dst + 3 * gs), wa, 3);
        vst1q_lane_s32((int32_t*)(void*)(dst + 4 * gs), wb, 0);
        vst1q_lane_s32((int32_t*)(void*)(dst + 5 * gs), wb, 1);
        vst1q_lane_s32((int32_t*)(void*)(dst + 6 * gs), wb, 2);
        vst1q_lane_s32((int32_t*)(void*)(dst + 7 * gs), wb, 3);
    }
    memcpy(par, &s, sizeof(float));
    memcpy(par + mr * sizeof(float), &recip, sizeof(float));
    return 1;
}

// Internal limit: the block sum is kept in 8 int16 lanes (SADALP adds two int8 values per lane per 16
// values), flushed to int32 every KAI_SUM16_FLUSH values: a lane then holds 2 * KAI_SUM16_FLUSH / 16 = 256
// values of magnitude <= 127, |sum| <= 32512 <= INT16_MAX; flushing every 2064 or more values could wrap a
// lane for a block of more than that many full-scale values (test/common/limits.cc: bl 2048 +- 32, 4096).
enum { KAI_SUM16_FLUSH = 2048 };

// One row's block: bl values at x to the lane's bytes at dst (group stride gs = mr * kbl), its
// two parameters at par (sum * recip) and par + mr (recip).
static inline void pack_block(const float* x, size_t bl, size_t kbl, size_t gs, int8_t* dst, uint8_t* par, size_t mr) {
    float32x4_t m0 = vabsq_f32(vld1q_f32(x));
    float32x4_t m1 = vabsq_f32(vld1q_f32(x + 4));
    float32x4_t m2 = vabsq_f32(vld1q_f32(x + 8));
    float32x4_t m3 = vabsq_f32(vld1q_f32(x + 12));
    for (size_t i = 16; i < bl; i += 16) {
        m0 = vmaxq_f32(m0, vabsq_f32(vld1q_f32(x + i)));
        m1 = vmaxq_f32(m1, vabsq_f32(vld1q_f32(x + i + 4)));
        m2 = vmaxq_f32(m2, vabsq_f32(vld1q_f32(x + i + 8)));
        m3 = vmaxq_f32(m3, vabsq_f32(vld1q_f32(x + i + 12)));
    }
    const float amax = vmaxvq_f32(vmaxq_f32(vmaxq_f32(m0, m1), vmaxq_f32(m2, m3)));
    const float scale = amax == 0.0F ? 0.0F : 127.0F / amax;
    const float recip = scale != 0.0F ? 1.0F / scale : 0.0F;
    const float32x4_t vs = vdupq_n_f32(scale);
    const int sat = scale > 3.4e38F;  // +inf
    int32_t total = 0;
    int16x8_t sum = vdupq_n_s16(0);
    if (gs == kbl) {  // mr = 1: the row's bytes are contiguous
        for (size_t i = 0; i < bl; i += 16) {
            const int8x16_t q = quant16(x + i, vs, sat);
            sum = vpadalq_s8(sum, q);
            if ((i + 16) % KAI_SUM16_FLUSH == 0) {
                total += vaddlvq_s16(sum);
                sum = vdupq_n_s16(0);
            }
            vst1q_s8(dst + i, q);
        }
    } else if (kbl == 8) {
        for (size_t i = 0; i < bl; i += 16) {
            const int8x16_t q = quant16(x + i, vs, sat);
            sum = vpadalq_s8(sum, q);
            if ((i + 16) % KAI_SUM16_FLUSH == 0) {
                total += vaddlvq_s16(sum);
                sum = vdupq_n_s16(0);
            }
            int8_t* d = dst + (i / 8) * gs;
            vst1_s8(d, vget_low_s8(q));
            vst1_s8(d + gs, vget_high_s8(q));
        }
    } else {  // kbl == 4
        for (size_t i = 0; i < bl; i += 16) {
            const int8x16_t q = quant16(x + i, vs, sat);
            sum = vpadalq_s8(sum, q);
            if ((i + 16) % KAI_SUM16_FLUSH == 0) {
                total += vaddlvq_s16(sum);
                sum = vdupq_n_s16(0);
            }
            int8_t* d = dst + (i / 4) * gs;
            const int32x4_t w = vreinterpretq_s32_s8(q);
            vst1q_lane_s32((int32_t*)(void*)d, w, 0);
            vst1q_lane_s32((int32_t*)(void*)(d + gs), w, 1);
            vst1q_lane_s32((int32_t*)(void*)(d + 2 * gs), w, 2);
            vst1q_lane_s32((int32_t*)(void*)(d + 3 * gs), w, 3);
        }
    }
    const float s = (float)(total + vaddlvq_s16(sum)) * recip;
    memcpy(par, &s, sizeof(float));
    memcpy(par + mr * sizeof(float), &recip, sizeof(float));
}

void kai_run_lhs_quant_pack_qsi8d32pscalef32_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed) {
    KAI_ASSUME_MSG(sr != 0 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_ASSUME_MSG(kr / sr == 4 || kr / sr == 8, "kr / sr must be 4 or 8");
    KAI_ASSUME_MSG(bl % kr == 0, "bl must be a multiple of kr");
    kai_check_shape(k, bl, mr, kr);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    const size_t kbl = kr / sr;
    const size_t nb = k / bl;
    const size_t block = mr * (bl + 8);
    const size_t stride = nb * block;
    const size_t gs = mr * kbl;
    uint8_t* base = (uint8_t*)lhs_packed;
    for (size_t r = 0; r < m; ++r) {
        const size_t row = m_idx_start + r;
        const size_t lane = row % mr;
        const float* x = (const float*)(const void*)((const uint8_t*)lhs + row * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            uint8_t* blk = base + b * block;
            int8_t* d = (int8_t*)(blk + lane * kbl);
            uint8_t* par = blk + mr * bl + lane * sizeof(float);
            if (bl != 32 || !pack_block32(x + b * bl, kbl, gs, d, par, mr)) {
                pack_block(x + b * bl, bl, kbl, gs, d, par, mr);
            }
        }
        if (lane == mr - 1) {
            base += stride;
        }
    }
}
