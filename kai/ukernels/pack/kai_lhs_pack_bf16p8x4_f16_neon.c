//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC) || \
    !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "kai_lhs_pack_bf16p8x4_f16_neon needs AArch64 with FEAT_BF16 and FEAT_FP16"
#endif

// Packs f16 rows into the bf16p8x4 layout (docs/matmul_bf16.md): blocks of 8 rows x Kp bf16,
// Kp = roundup(k, 4); inside a block, for each group of 4 k values, rows 0..7 x 4 bf16 (64 bytes).
// Element (i, k) lands at byte (i / 8) * 16 * Kp + (k / 4) * 64 + (i % 8) * 8 + (k % 4) * 2.
// k >= K is 0; rows past m in the last block repeat the block's first row (as KleidiAI does).
//
// Conversion: FCVTL (f16 -> f32, exact) then BFCVTN (f32 -> bf16, nearest, ties to even).
// BFCVTN writes the low half of its destination and BFCVTN2 the high half, so converting the
// 4 values of row r with BFCVTN and those of row r + 1 with BFCVTN2 gives the 16 packed bytes of
// the row pair directly: 8 rows x 8 k values take 8 loads, 16 FCVTL, 16 BFCVTN and two 64-byte
// stores, with no permutes.

#include "kai_lhs_pack_bf16p8x4_f16_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_pack_bf16p8x4_f16_neon
#pragma weak kai_get_lhs_packed_offset_lhs_pack_bf16p8x4_f16_neon
#pragma weak kai_get_lhs_packed_size_lhs_pack_bf16p8x4_f16_neon
#pragma weak kai_get_m_step_lhs_pack_bf16p8x4_f16_neon
#pragma weak kai_run_lhs_pack_bf16p8x4_f16_neon
// (end of the weak definitions)

static const size_t kai_mr = 8;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_m_step_lhs_pack_bf16p8x4_f16_neon(size_t mr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    return kai_mr;
}

size_t kai_get_lhs_offset_lhs_pack_bf16p8x4_f16_neon(size_t m_idx, size_t lhs_stride) {
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of 8");
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_pack_bf16p8x4_f16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx % kai_mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(kai_mul_size_checked(m_idx, kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

size_t kai_get_lhs_packed_size_lhs_pack_bf16p8x4_f16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    return kai_mul_size_checked(
        kai_mul_size_checked(kai_roundup(m, kai_mr), kai_roundup(k, kai_kr)), sizeof(uint16_t));
}

// 4 f16 values (a) and 4 more (b) as [bf16(a), bf16(b)].
static inline bfloat16x8_t kai_cvt_pair(float16x4_t a, float16x4_t b) {
    return vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vcvt_f32_f16(a)), vcvt_f32_f16(b));
}

static inline float16x8_t kai_load8(const uint8_t* p) {
    return vreinterpretq_f16_u16(vld1q_u16((const uint16_t*)(const void*)p));
}

static inline float16x4_t kai_load4(const uint8_t* p) {
    return vreinterpret_f16_u16(vld1_u16((const uint16_t*)(const void*)p));
}

// Stores 8 rows x 4 k (one packed group, 64 bytes) from the 4-value halves x0..x7 of the rows.
static inline void kai_store_group(
    uint8_t* out, float16x4_t x0, float16x4_t x1, float16x4_t x2, float16x4_t x3, float16x4_t x4, float16x4_t x5,
    float16x4_t x6, float16x4_t x7) {
    bfloat16x8x4_t g;
    g.val[0] = kai_cvt_pair(x0, x1);
    g.val[1] = kai_cvt_pair(x2, x3);
    g.val[2] = kai_cvt_pair(x4, x5);
    g.val[3] = kai_cvt_pair(x6, x7);
    vst1q_bf16_x4((bfloat16_t*)(void*)out, g);
}

void kai_run_lhs_pack_bf16p8x4_f16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr == kai_mr, "mr must be 8");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(m_idx_start == 0, "m_idx_start must be 0");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(m == 1 || lhs_stride / 2 >= k, "lhs_stride must be at least k * 2 when m > 1");

    const size_t kp = kai_roundup(k, kai_kr);
    const size_t k8 = k / 8 * 8;
    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += kai_mr) {
        const uint8_t* r[8];
        for (size_t i = 0; i < kai_mr; ++i) {
            r[i] = (const uint8_t*)lhs + (m0 + i < m ? m0 + i : m0) * lhs_stride;
        }
        uint8_t* o = out;
        size_t off = 0;  // byte offset of k value kk in a row
        for (; off < k8 * sizeof(uint16_t); off += 8 * sizeof(uint16_t)) {
            const float16x8_t x0 = kai_load8(r[0] + off);
            const float16x8_t x1 = kai_load8(r[1] + off);
            const float16x8_t x2 = kai_load8(r[2] + off);
            const float16x8_t x3 = kai_load8(r[3] + off);
            const float16x8_t x4 = kai_load8(r[4] + off);
            const float16x8_t x5 = kai_load8(r[5] + off);
            const float16x8_t x6 = kai_load8(r[6] + off);
            const float16x8_t x7 = kai_load8(r[7] + off);
            kai_store_group(
                o, vget_low_f16(x0), vget_low_f16(x1), vget_low_f16(x2), vget_low_f16(x3), vget_low_f16(x4),
                vget_low_f16(x5), vget_low_f16(x6), vget_low_f16(x7));
            kai_store_group(
                o + 64, vget_high_f16(x0), vget_high_f16(x1), vget_high_f16(x2), vget_high_f16(x3),
                vget_high_f16(x4), vget_high_f16(x5), vget_high_f16(x6), vget_high_f16(x7));
            o += 128;
        }
        if (k - k8 >= 4) {
            kai_store_group(
                o, kai_load4(r[0] + off), kai_load4(r[1] + off), kai_load4(r[2] + off), kai_load4(r[3] + off),
                kai_load4(r[4] + off), kai_load4(r[5] + off), kai_load4(r[6] + off), kai_load4(r[7] + off));
            o += 64;
            off += 4 * sizeof(uint16_t);
        }
        const size_t tail = k % 4;
        if (tail != 0) {
            // The last k % 4 values of each row, zero-padded to a group.
            uint16_t t[8][4];
            memset(t, 0, sizeof(t));
            for (size_t i = 0; i < kai_mr; ++i) {
                memcpy(t[i], r[i] + off, tail * sizeof(uint16_t));
            }
            kai_store_group(
                o, kai_load4((const uint8_t*)t[0]), kai_load4((const uint8_t*)t[1]), kai_load4((const uint8_t*)t[2]),
                kai_load4((const uint8_t*)t[3]), kai_load4((const uint8_t*)t[4]), kai_load4((const uint8_t*)t[5]),
                kai_load4((const uint8_t*)t[6]), kai_load4((const uint8_t*)t[7]));
        }
        out += kai_mr * kp * sizeof(uint16_t);
    }
}
