//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Quantises an f32 LHS per block of bl values to int8 with an f16 scale, into the layout of
// KleidiAI's SME Q4_0 kernels (AArch64 NEON).
//
// Operation, per row and block of bl values x: amax = max|x| (from 0), scale = amax / 127 (f32),
// rep = scale != 0 ? 1 / scale : 0, q = (int8) roundf(x * rep) (product rounded to f32, then ties
// away from zero: FCVTAS), stored scale f16(scale) (ties to even). |q| <= 127.
// Packed layout (one block of mr rows, S = mr * nb * (bl + 2) bytes, nb = K / bl): q[r][k] at
// (k / 4) * mr * 4 + (r % mr) * 4 + k % 4 over the whole row; then the f16 scales, (lane, block b)
// at mr * K + (b * mr + lane) * 2. See docs/matmul_q4_0.md.
//
// Four rows at a time when they fill 4 lanes of one block (mr % 4 == 0): the amax of the four
// rows' blocks in one vector (pairwise FMAXP), one division for the four scales and one for the
// reciprocals, FCVTN for the four f16 scales; per group of 4 K values, the four rows' products
// are converted (FCVTAS) and narrowed by UZP1 into one 16-byte store. Other rows one at a time.

#include "kai_lhs_quant_pack_qsi8d32p_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_lhs_quant_pack_qsi8d32p_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d32p_f32_neon
#pragma weak kai_run_lhs_quant_pack_qsi8d32p_f32_neon
// (end of the weak definitions)

static const size_t kai_kr = 4;  // values per group of the layout

static void kai_check_shape(size_t k, size_t bl, size_t mr, size_t kr) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(mr != 0, "mr must be non-zero");
    KAI_ASSUME_MSG(kr != 0 && k % kr == 0, "k must be a multiple of kr");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
}

static size_t kai_block_row_stride(size_t k, size_t bl, size_t mr) {
    return kai_mul_size_checked(kai_mul_size_checked(mr, k / bl), bl + 2);
}

size_t kai_get_m_step_lhs_quant_pack_qsi8d32p_f32_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx / mr, kai_block_row_stride(k, bl, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, bl, mr, kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), kai_block_row_stride(k, bl, mr));
}

/// Returns the reciprocals 1 / scale, 0 where scale == 0.
static float32x4_t kai_reciprocal(float32x4_t scale) {
    const float32x4_t rep = vdivq_f32(vdupq_n_f32(1.0F), scale);
    return vbslq_f32(vceqzq_f32(scale), vdupq_n_f32(0.0F), rep);
}

/// Quantises one block of one row (bl values at x) into lane `lane`: data at `data` (the block's
/// first group), scale at `scale_dst`.
static void kai_quant_row_block(const float* x, size_t bl, size_t mr, size_t lane, uint8_t* data, uint8_t* scale_dst) {
    float32x4_t m0 = vdupq_n_f32(0.0F);
    float32x4_t m1 = m0;
    for (size_t i = 0; i < bl; i += 8) {
        m0 = vmaxq_f32(m0, vabsq_f32(vld1q_f32(x + i)));
        m1 = vmaxq_f32(m1, vabsq_f32(vld1q_f32(x + i + 4)));
    }
    const float32x4_t scale = vdupq_n_f32(vmaxvq_f32(vmaxq_f32(m0, m1)) / 127.0F);
    const float32x4_t rep = kai_reciprocal(scale);
    const uint16_t h = vget_lane_u16(vreinterpret_u16_f16(vcvt_f16_f32(scale)), 0);
    memcpy(scale_dst, &h, sizeof(h));
    for (size_t i = 0; i < bl; i += 4) {
        const int32x4_t q = vcvtaq_s32_f32(vmulq_f32(vld1q_f32(x + i), rep));
        const int16x8_t q16 = vuzp1q_s16(vreinterpretq_s16_s32(q), vreinterpretq_s16_s32(q));
        const int8x16_t q8 = vuzp1q_s8(vreinterpretq_s8_s16(q16), vreinterpretq_s8_s16(q16));
        const uint32_t word = vgetq_lane_u32(vreinterpretq_u32_s8(q8), 0);
        memcpy(data + (i / 4) * mr * 4 + lane * 4, &word, sizeof(word));
    }
}

/// Returns max|x| over one row block, as a vector whose lanes are partial maxima (bl % 16 == 0).
static float32x4_t kai_block_absmax(const float* x, size_t bl) {
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
    return vmaxq_f32(vmaxq_f32(m0, m1), vmaxq_f32(m2, m3));
}

/// Returns the int8 values of four rows' group of 4 (row r's products x * rep[r], rounded ties away
/// from zero) as one 16-byte row of the layout: row 0's 4 bytes, then rows 1, 2, 3.
static int8x16_t kai_quant_group4(const float* x0, const float* x1, const float* x2, const float* x3,
                                  float32x4_t rep) {
    const int32x4_t q0 = vcvtaq_s32_f32(vmulq_laneq_f32(vld1q_f32(x0), rep, 0));
    const int32x4_t q1 = vcvtaq_s32_f32(vmulq_laneq_f32(vld1q_f32(x1), rep, 1));
    const int32x4_t q2 = vcvtaq_s32_f32(vmulq_laneq_f32(vld1q_f32(x2), rep, 2));
    const int32x4_t q3 = vcvtaq_s32_f32(vmulq_laneq_f32(vld1q_f32(x3), rep, 3));
    // |q| <= 127: keeping the low byte of each lane is the exact conversion to int8.
    const int16x8_t h0 = vuzp1q_s16(vreinterpretq_s16_s32(q0), vreinterpretq_s16_s32(q1));
    const int16x8_t h1 = vuzp1q_s16(vreinterpretq_s16_s32(q2), vreinterpretq_s16_s32(q3));
    return vuzp1q_s8(vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1));
}

/// Quantises one block of four rows (bl values at x[0..3]) into lanes lane0 .. lane0 + 3: data at
/// `data` (the block's first group), scales at `scale_dst`.
static void kai_quant_rows4_block(const float* const x[4], size_t bl, size_t mr, size_t lane0, uint8_t* data,
                                  uint8_t* scale_dst) {
    // FMAXP: lane r of amax is row r's maximum (all values >= 0, so 0 as the start changes nothing).
    const float32x4_t amax = vpmaxq_f32(vpmaxq_f32(kai_block_absmax(x[0], bl), kai_block_absmax(x[1], bl)),
                                        vpmaxq_f32(kai_block_absmax(x[2], bl), kai_block_absmax(x[3], bl)));
    const float32x4_t scale = vdivq_f32(amax, vdupq_n_f32(127.0F));
    const float32x4_t rep = kai_reciprocal(scale);
    uint16_t h[4];
    vst1_u16(h, vreinterpret_u16_f16(vcvt_f16_f32(scale)));
    memcpy(scale_dst, h, sizeof(h));
    const size_t step = mr * 4;  // bytes between groups of 4 K values
    int8_t* dst = (int8_t*)(void*)(data + lane0 * 4);
    const float* x0 = x[0];
    const float* x1 = x[1];
    const float* x2 = x[2];
    const float* x3 = x[3];
    for (size_t i = 0; i < bl; i += 8) {
        vst1q_s8(dst, kai_quant_group4(x0, x1, x2, x3, rep));
        vst1q_s8(dst + step, kai_quant_group4(x0 + 4, x1 + 4, x2 + 4, x3 + 4, rep));
        dst += 2 * step;
        x0 += 8;
        x1 += 8;
        x2 += 8;
        x3 += 8;
    }
}

void kai_run_lhs_quant_pack_qsi8d32p_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed) {
    kai_check_shape(k, bl, mr, kr);
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(bl % kr == 0, "bl must be a multiple of kr");
    KAI_UNUSED(sr);
    KAI_UNUSED(m_idx_start);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / sizeof(float) >= k, "lhs_stride must be at least k * sizeof(float) when m > 1");

    const size_t nb = k / bl;
    const size_t stride = kai_block_row_stride(k, bl, mr);
    const uint8_t* src = (const uint8_t*)lhs;
    size_t r = 0;
    while (r < m) {
        const size_t lane = r % mr;
        uint8_t* data = (uint8_t*)lhs_packed + (r / mr) * stride;
        uint8_t* scales = data + mr * k;
        if (lane % 4 == 0 && lane + 4 <= mr && r + 4 <= m) {
            const float* x[4];
            for (size_t i = 0; i < 4; ++i) {
                x[i] = (const float*)(const void*)(src + (r + i) * lhs_stride);
            }
            for (size_t b = 0; b < nb; ++b) {
                const float* xb[4] = {x[0] + b * bl, x[1] + b * bl, x[2] + b * bl, x[3] + b * bl};
                kai_quant_rows4_block(xb, bl, mr, lane, data + b * bl * mr, scales + (b * mr + lane) * 2);
            }
            r += 4;
            continue;
        }
        const float* x = (const float*)(const void*)(src + r * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            kai_quant_row_block(x + b * bl, bl, mr, lane, data + b * bl * mr, scales + (b * mr + lane) * 2);
        }
        r += 1;
    }
}
