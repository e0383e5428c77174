//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon needs AArch64 with NEON"
#endif

// Operation, per row i and block b of bl values (IEEE f32, each operation rounded, no FMA):
//   amax = max_k |x[k]|, scale = amax / 127, rep = scale != 0 ? 1 / scale : 0,
//   stored scale = f16(scale) (ties to even), q[k] = (int8)round_half_even(x[k] * rep) (FCVTNS).
// Only the data rounding differs from kai_lhs_quant_pack_qsi8d32p_f32: exact ties x * rep = n + 1/2.
// Packed layout (docs/matmul_q4_0.md), mr = 4, kbl = kr / sr = 8: blocks of 4 rows, stride
// S_L = 4 * (k / bl) * (bl + 2); quantisation block b at b * 4 * (bl + 2) holds the 4 f16 scales,
// then for each group of 8 values, 8 int8 of row 0, row 1, row 2, row 3. Unused lanes of the last
// block are not written. Every row is read at lhs + row * lhs_stride (KleidiAI reads rows 1-3 of
// each group of four densely; that is a bug, not copied).

#include "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p4x8sb_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d32p4x8sb_f32_neon
#pragma weak kai_run_lhs_quant_pack_qsi8d32p4x8sb_f32_neon
// (end of the weak definitions)

static const size_t kai_mr = 4;
static const size_t kai_kr = 16;
static const size_t kai_sr = 2;

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

static size_t block_row_stride(size_t k, size_t bl, size_t mr) {
    return kai_mul_size_checked(kai_mul_size_checked(mr, k / bl), bl + 2);
}

size_t kai_get_m_step_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    check_shape(k, bl, mr, kr, sr);
    return kai_mul_size_checked(m_idx / mr, block_row_stride(k, bl, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr) {
    check_shape(k, bl, mr, kr, sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), block_row_stride(k, bl, mr));
}

// Quantises bl values of x; group g of 8 values goes to dst + g * 32.
static void quant_block(const float* x, size_t bl, int8_t* dst, uint8_t* scale_dst) {
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
    const float scale = amax / 127.0f;
    const float32x4_t rep = vdupq_n_f32(scale != 0.0f ? 1.0f / scale : 0.0f);
    const uint16_t h = kai_cast_f16_f32(scale);
    memcpy(scale_dst, &h, sizeof(h));
    for (size_t i = 0; i < bl; i += 16) {
        const int32x4_t q0 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + i), rep));
        const int32x4_t q1 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + i + 4), rep));
        const int32x4_t q2 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + i + 8), rep));
        const int32x4_t q3 = vcvtnq_s32_f32(vmulq_f32(vld1q_f32(x + i + 12), rep));
        // |q| <= 127: keeping the low byte of each lane is the exact conversion to int8.
        const int16x8_t h0 = vuzp1q_s16(vreinterpretq_s16_s32(q0), vreinterpretq_s16_s32(q1));
        const int16x8_t h1 = vuzp1q_s16(vreinterpretq_s16_s32(q2), vreinterpretq_s16_s32(q3));
        const int8x16_t q = vuzp1q_s8(vreinterpretq_s8_s16(h0), vreinterpretq_s8_s16(h1));
        int8_t* d = dst + (i / 8) * 32;
        vst1_s8(d, vget_low_s8(q));
        vst1_s8(d + 32, vget_high_s8(q));
    }
}

void kai_run_lhs_quant_pack_qsi8d32p4x8sb_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed) {
    if (m == 0) {
        return;
    }
    check_shape(k, bl, mr, kr, sr);
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 4");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 16");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 2");
    KAI_ASSUME_MSG(m_idx_start % kai_mr == 0, "m_idx_start must be a multiple of 4");
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / sizeof(float) >= k, "lhs_stride must be at least k * sizeof(float) when m > 1");

    const size_t nb = k / bl;
    const size_t sub_block = kai_mr * (bl + 2);
    uint8_t* block = (uint8_t*)lhs_packed;
    for (size_t r = 0; r < m; ++r) {
        const size_t lane = r % kai_mr;
        const float* row = (const float*)(const void*)((const uint8_t*)lhs + (m_idx_start + r) * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            uint8_t* sb = block + b * sub_block;
            quant_block(row + b * bl, bl, (int8_t*)(sb + 2 * kai_mr + lane * 8), sb + 2 * lane);
        }
        if (lane == kai_mr - 1) {
            block += nb * sub_block;
        }
    }
}
