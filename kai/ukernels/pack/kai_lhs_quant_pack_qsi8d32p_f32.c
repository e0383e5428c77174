//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Portable C (no feature guard): on AArch64 a NEON path writes the same bytes.
//
// Operation, per row i and block b of bl values (IEEE f32, each operation rounded, no FMA):
//   amax = max_k |x[k]|, scale = amax / 127, rep = scale != 0 ? 1 / scale : 0,
//   stored scale = f16(scale) (ties to even), q[k] = (int8)round_half_away(x[k] * rep).
// Packed layout (docs/matmul_q4_0.md): blocks of mr rows, stride S_L = mr * (k / bl) * (bl + 2).
// Inside one block, quantisation block b starts at b * mr * (bl + 2) with the mr f16 scales (lane r
// at 2r), then for each group of kbl = kr / sr values, kbl int8 values of each lane in turn.
// Lanes of rows past m are left unwritten. No K padding: k is a multiple of bl.

#include "kai_lhs_quant_pack_qsi8d32p_f32.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d32p_f32
#pragma weak kai_run_lhs_quant_pack_qsi8d32p_f32
// (end of the weak definitions)

static void check_shape(size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(mr != 0, "mr must be non-zero");
    KAI_ASSUME_MSG(sr != 0 && kr != 0 && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(bl % (kr / sr) == 0, "kr / sr must divide bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

// Bytes of one packed block of mr rows.
static size_t block_row_stride(size_t k, size_t bl, size_t mr) {
    return kai_mul_size_checked(kai_mul_size_checked(mr, k / bl), bl + 2);
}

size_t kai_get_m_step_lhs_quant_pack_qsi8d32p_f32(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    check_shape(k, bl, mr, kr, sr);
    return kai_mul_size_checked(m_idx / mr, block_row_stride(k, bl, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    check_shape(k, bl, mr, kr, sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), block_row_stride(k, bl, mr));
}

// Rounds y (|y| < 2^23) to the nearest integer, ties away from zero: roundf without libm.
static int32_t round_half_away(float y) {
    int32_t i = (int32_t)y;
    const float frac = y - (float)i;  // exact
    if (frac >= 0.5f) {
        i++;
    } else if (frac <= -0.5f) {
        i--;
    }
    return i;
}

// Scale of one block from its largest magnitude; writes the f16 scale, returns the reciprocal.
static float block_scale(float amax, uint8_t* scale_dst) {
    const float scale = amax / 127.0f;
    const float rep = scale != 0.0f ? 1.0f / scale : 0.0f;
    const uint16_t h = kai_cast_f16_f32(scale);
    memcpy(scale_dst, &h, sizeof(h));
    return rep;
}

// Quantises bl values of x; value kk goes to dst[(kk / kbl) * group_stride + kk % kbl].
static void quant_block_scalar(
    const float* x, size_t bl, size_t kbl, size_t group_stride, int8_t* dst, uint8_t* scale_dst) {
    float amax = 0.0f;
    for (size_t i = 0; i < bl; ++i) {
        const float a = x[i] < 0.0f ? -x[i] : x[i];
        amax = a > amax ? a : amax;
    }
    const float rep = block_scale(amax, scale_dst);
    if (rep > FLT_MAX) {
        // A tiny block (0 < amax < ~3.7e-37): rep = +inf. KleidiAI's bytes, which the NEON path
        // gives by itself (FCVTAS saturates, the low byte is kept): x * inf = +inf -> INT32_MAX ->
        // -1 for x > 0; -inf -> INT32_MIN -> 0 for x < 0; 0 * inf = NaN -> 0. The f16 scale is +0.
        for (size_t i = 0; i < bl; ++i) {
            dst[(i / kbl) * group_stride + i % kbl] = x[i] > 0.0f ? (int8_t)-1 : (int8_t)0;
        }
        return;
    }
    for (size_t i = 0; i < bl; ++i) {
        dst[(i / kbl) * group_stride + i % kbl] = (int8_t)round_half_away(x[i] * rep);
    }
}

#if defined(__aarch64__) && defined(__ARM_NEON)
// NEON twin of quant_block_scalar: the same operations on 4 lanes (FMAX, FMUL, FCVTAS = ties
// away), so the bytes are identical. Inlined with constant kbl (4 or 8; others use the scalar
// path) and,
// for bl = 32, constant bl, so that the block stays in registers and every address is folded.
static KAI_FORCE_INLINE void quant_block_neon(
    const float* x, size_t bl, size_t kbl, size_t group_stride, int8_t* dst, uint8_t* scale_dst) {
    float32x4_t m0 = vdupq_n_f32(0.0f);
    float32x4_t m1 = m0;
    float32x4_t m2 = m0;
    float32x4_t m3 = m0;
    for (size_t i = 0; i < bl; i += 16) {
        m0 = vmaxq_f32(m0, vabsq_f32(vld1q_f32(x + i)));
        m1 = vmaxq_f32(m1, vabsq_f32(vld1q_f32(x + i + 4)));
        m2 = vmaxq_f32(m2, vabsq_f32(vld1q_f32(x + i + 8)));
        m3 = vmaxq_f32(m3, vabsq_f32(vld1q_f32(x + i + 12)));
    }
    const float amax = vmaxvq_f32(vmaxq_f32(vmaxq_f32(m0, m1), vmaxq_f32(m2, m3)));
    const float32x4_t rep = vdupq_n_f32(block_scale(amax, scale_dst));
    for (size_t i = 0; i < bl; i += 16) {
        const int32x4_t q0 = vcvtaq_s32_f32(vmulq_f32(vld1q_f32(x + i), rep));
        const int32x4_t q1 = vcvtaq_s32_f32(vmulq_f32(vld1q_f32(x + i + 4), rep));
        const int32x4_t q2 = vcvtaq_s32_f32(vmulq_f32(vld1q_f32(x + i + 8), rep));
        const int32x4_t q3 = vcvtaq_s32_f32(vmulq_f32(vld1q_f32(x + i + 12), rep));
        // |q| <= 127: keeping the low byte of each lane is the exact conversion to int8.
        const int16x8_t h0 = vuzp1q_s16(vreinterpretq_s16_s32(q0), vreinterpretq_s16_s32(q1));
        const int16x8_t h1 = vuzp1q_s16(vreinterpretq_s16_s32(q2), vreinterpretq_s16_s32(q3));
        const int8x16_t q = vuzp1q_s8(vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1));
        int8_t* d = dst + (i / kbl) * group_stride + i % kbl;
        if (kbl == 8) {
            vst1_s8(d, vget_low_s8(q));
            vst1_s8(d + group_stride, vget_high_s8(q));
        } else {
            // 4-byte groups at any byte address: memcpy of each lane (one STR/ST1 lane store each).
            const uint32x4_t w = vreinterpretq_u32_s8(q);
            const uint32_t w0 = vgetq_lane_u32(w, 0);
            const uint32_t w1 = vgetq_lane_u32(w, 1);
            const uint32_t w2 = vgetq_lane_u32(w, 2);
            const uint32_t w3 = vgetq_lane_u32(w, 3);
            memcpy(d, &w0, sizeof(w0));
            memcpy(d + group_stride, &w1, sizeof(w1));
            memcpy(d + 2 * group_stride, &w2, sizeof(w2));
            memcpy(d + 3 * group_stride, &w3, sizeof(w3));
        }
    }
}

// One row of nb blocks: data and scales of block b are sub_block bytes after those of block 0.
// One instance per kbl of the kernels (4, 8), with bl = 32 (GGUF) fully unrolled.
typedef void (*row_fn)(const float* row, size_t nb, size_t bl, size_t group_stride, size_t sub_block, uint8_t* data,
                       uint8_t* scales);

static void row_k8_bl32(const float* row, size_t nb, size_t bl, size_t group_stride, size_t sub_block, uint8_t* data,
                        uint8_t* scales) {
    KAI_UNUSED(bl);
    for (size_t b = 0; b < nb; ++b) {
        quant_block_neon(row + b * 32, 32, 8, group_stride, (int8_t*)(data + b * sub_block), scales + b * sub_block);
    }
}

static void row_k4_bl32(const float* row, size_t nb, size_t bl, size_t group_stride, size_t sub_block, uint8_t* data,
                        uint8_t* scales) {
    KAI_UNUSED(bl);
    for (size_t b = 0; b < nb; ++b) {
        quant_block_neon(row + b * 32, 32, 4, group_stride, (int8_t*)(data + b * sub_block), scales + b * sub_block);
    }
}

static void row_k8(const float* row, size_t nb, size_t bl, size_t group_stride, size_t sub_block, uint8_t* data,
                   uint8_t* scales) {
    for (size_t b = 0; b < nb; ++b) {
        quant_block_neon(row + b * bl, bl, 8, group_stride, (int8_t*)(data + b * sub_block), scales + b * sub_block);
    }
}

static void row_k4(const float* row, size_t nb, size_t bl, size_t group_stride, size_t sub_block, uint8_t* data,
                   uint8_t* scales) {
    for (size_t b = 0; b < nb; ++b) {
        quant_block_neon(row + b * bl, bl, 4, group_stride, (int8_t*)(data + b * sub_block), scales + b * sub_block);
    }
}
#endif

void kai_run_lhs_quant_pack_qsi8d32p_f32(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed) {
    if (m == 0) {
        return;
    }
    check_shape(k, bl, mr, kr, sr);
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / sizeof(float) >= k, "lhs_stride must be at least k * sizeof(float) when m > 1");

    const size_t kbl = kr / sr;
    const size_t nb = k / bl;
    const size_t sub_block = mr * (bl + 2);  // one quantisation block of mr rows
    const size_t group_stride = mr * kbl;
#if defined(__aarch64__) && defined(__ARM_NEON)
    row_fn neon_row = NULL;
    if (kbl == 8) {
        neon_row = bl == 32 ? row_k8_bl32 : row_k8;
    } else if (kbl == 4) {
        neon_row = bl == 32 ? row_k4_bl32 : row_k4;
    }
#endif

    uint8_t* block = (uint8_t*)lhs_packed;
    size_t lane = m_idx_start % mr;
    for (size_t r = 0; r < m; ++r) {
        const float* row = (const float*)(const void*)((const uint8_t*)lhs + (m_idx_start + r) * lhs_stride);
#if defined(__aarch64__) && defined(__ARM_NEON)
        if (neon_row != NULL) {
            neon_row(row, nb, bl, group_stride, sub_block, block + 2 * mr + lane * kbl, block + 2 * lane);
        } else
#endif
        {
            for (size_t b = 0; b < nb; ++b) {
                uint8_t* sb = block + b * sub_block;
                quant_block_scalar(row + b * bl, bl, kbl, group_stride, (int8_t*)(sb + 2 * mr + lane * kbl), sb + 2 * lane);
            }
        }
        if (++lane == mr) {
            lane = 0;
            block += nb * sub_block;
        }
    }
}
