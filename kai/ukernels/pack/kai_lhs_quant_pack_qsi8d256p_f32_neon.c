//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Quantizes f32 rows to int8 per block of 256 values for the GGUF K-quant kernels (AArch64 NEON).
// Per row and block: FABS + FMAX over four accumulators for amax, FMUL by 127 / amax, FCVTNS (ties
// to even), SQXTN twice (exact: |x * 127 / amax| <= 127), SADDLP for the 32-value sums, then
// stores of kr bytes to the lane's groups. Layout in docs/matmul_gguf_kquants.md.

#include "kai_lhs_quant_pack_qsi8d256p_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_lhs_quant_pack_qsi8d256p_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_run_lhs_quant_pack_qsi8d256p_f32_neon
// (end of the weak definitions)

// Weak definitions, written by tools/gen_compat_paths.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qsi8d256p_f32_neon
#pragma weak kai_run_lhs_quant_pack_qsi8d256p_f32_neon
// (end of the weak definitions)

enum { KAI_QK = 256, KAI_ROW_BYTES = 4 + 16 + 256 };

static void kai_check_shape(size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_ALWAYS_MSG(k != 0 && k % KAI_QK == 0, "k must be a non-zero multiple of 256");
    KAI_ASSUME_MSG(mr == 1 || mr == 2 || mr == 4 || mr == 8, "mr must be 1, 2, 4 or 8");
    KAI_ASSUME_MSG(kr == 4 || kr == 8, "kr must be 4 or 8");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(k);
    KAI_UNUSED(mr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_m_step_lhs_quant_pack_qsi8d256p_f32_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d256p_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, mr, kr, sr);
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, kai_mul_size_checked(k / KAI_QK, KAI_ROW_BYTES));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    kai_check_shape(k, mr, kr, sr);
    return kai_mul_size_checked(kai_roundup(m, mr), kai_mul_size_checked(k / KAI_QK, KAI_ROW_BYTES));
}

// Quantizes 256 values of x into q (256 int8) and the 8 sub-block sums; returns the scale.
static float kai_quant_block(const float* x, int8_t* q, int16_t* sums) {
    float32x4_t m0 = vdupq_n_f32(0.0F), m1 = m0, m2 = m0, m3 = m0;
    for (size_t i = 0; i < KAI_QK; i += 16) {
        m0 = vmaxq_f32(m0, vabsq_f32(vld1q_f32(x + i)));
        m1 = vmaxq_f32(m1, vabsq_f32(vld1q_f32(x + i + 4)));
        m2 = vmaxq_f32(m2, vabsq_f32(vld1q_f32(x + i + 8)));
        m3 = vmaxq_f32(m3, vabsq_f32(vld1q_f32(x + i + 12)));
    }
    const float amax = vmaxvq_f32(vmaxq_f32(vmaxq_f32(m0, m1), vmaxq_f32(m2, m3)));
    const float inv = amax == 0.0F ? 0.0F : 127.0F / amax;
    for (size_t j = 0; j < 8; ++j) {
        int16x8_t acc = vdupq_n_s16(0);
        for (size_t h = 0; h < 32; h += 16) {
            const float* p = x + 32 * j + h;
            const int32x4_t q0 = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(p), inv));
            const int32x4_t q1 = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(p + 4), inv));
            const int32x4_t q2 = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(p + 8), inv));
            const int32x4_t q3 = vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(p + 12), inv));
            const int16x8_t h01 = vcombine_s16(vqmovn_s32(q0), vqmovn_s32(q1));
            const int16x8_t h23 = vcombine_s16(vqmovn_s32(q2), vqmovn_s32(q3));
            const int8x16_t v = vcombine_s8(vqmovn_s16(h01), vqmovn_s16(h23));
            vst1q_s8(q + 32 * j + h, v);
            acc = vpadalq_s8(acc, v);
        }
        sums[j] = (int16_t)vaddvq_s16(acc);
    }
    return amax / 127.0F;
}

void kai_run_lhs_quant_pack_qsi8d256p_f32_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs, size_t lhs_stride,
    void* lhs_packed) {
    kai_check_shape(k, mr, kr, sr);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_IF_MSG(m > 1, lhs_stride >= k * sizeof(float), "lhs_stride must be at least k * sizeof(float)");
    const size_t nb = k / KAI_QK;
    const size_t block_bytes = mr * KAI_ROW_BYTES;
    int8_t q[KAI_QK];
    int16_t sums[8];
    for (size_t r = 0; r < m; ++r) {
        const size_t row = (m_idx_start % mr) + r;
        uint8_t* group = (uint8_t*)lhs_packed + (row / mr) * nb * block_bytes;
        const size_t lane = row % mr;
        const float* x = (const float*)((const uint8_t*)lhs + r * lhs_stride);
        for (size_t b = 0; b < nb; ++b) {
            uint8_t* dst = group + b * block_bytes;
            const float scale = kai_quant_block(x + b * KAI_QK, q, sums);
            memcpy(dst + 4 * lane, &scale, sizeof(scale));
            for (size_t j = 0; j < 8; ++j) {
                memcpy(dst + 4 * mr + 2 * (j * mr + lane), &sums[j], sizeof(int16_t));
            }
            int8_t* data = (int8_t*)(dst + 20 * mr) + lane * kr;
            if (kr == 8) {
                for (size_t g = 0; g < KAI_QK / 8; ++g) {
                    vst1_s8(data + g * mr * 8, vld1_s8(q + g * 8));
                }
            } else {
                for (size_t g = 0; g < KAI_QK / 4; ++g) {
                    memcpy(data + g * mr * 4, q + g * 4, 4);
                }
            }
        }
    }
}
