//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
#error "kai_lhs_quant_pack_bf16p1x4_f32_neon needs AArch64 with FEAT_BF16"
#endif

// Packs one f32 row into the bf16p1x4 layout (docs/matmul_bf16.md): Kp = roundup(k, 4) bf16
// values in k order, zeros for k >= K. Every element, the K tail included, is rounded to nearest
// even with BFCVTN (KleidiAI truncates the tail when built with GCC; docs/formats.md, "bf16p1x4 LHS").

#include "kai_lhs_quant_pack_bf16p1x4_f32_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_bf16p1x4_f32_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_bf16p1x4_f32_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_bf16p1x4_f32_neon
#pragma weak kai_get_m_step_lhs_quant_pack_bf16p1x4_f32_neon
#pragma weak kai_run_lhs_quant_pack_bf16p1x4_f32_neon
// (end of the weak definitions)

static const size_t kai_mr = 1;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_m_step_lhs_quant_pack_bf16p1x4_f32_neon(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    return kai_mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_bf16p1x4_f32_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_bf16p1x4_f32_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_bf16p1x4_f32_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(kai_mul_size_checked(m, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

void kai_run_lhs_quant_pack_bf16p1x4_f32_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 1");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    KAI_ASSUME_MSG(m <= 1, "m must be 1");
    KAI_UNUSED(lhs_stride);
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");

    const float* src = (const float*)lhs;
    bfloat16_t* out = (bfloat16_t*)lhs_packed;
    size_t i = 0;
    for (; i + 16 <= k; i += 16) {
        vst1q_bf16(out + i, vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(src + i)), vld1q_f32(src + i + 4)));
        vst1q_bf16(
            out + i + 8, vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(src + i + 8)), vld1q_f32(src + i + 12)));
    }
    for (; i + 4 <= k; i += 4) {
        vst1_bf16(out + i, vcvt_bf16_f32(vld1q_f32(src + i)));
    }
    if (i < k) {
        float t[4] = {0.0F, 0.0F, 0.0F, 0.0F};
        memcpy(t, src + i, (k - i) * sizeof(float));
        vst1_bf16(out + i, vcvt_bf16_f32(vld1q_f32(t)));
    }
}
