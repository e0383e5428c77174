//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
#error "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot needs AArch64 with FEAT_BF16"
#endif

// Operation (GEMV, m = 1): dst[j] = bf16(max(min(bias[j] + sum_{k < Kp} a[k] * B[k][j],
// scalar_max), scalar_min)) for 0 <= j < n, with bf16 a and B, f32 accumulation (BFDOT),
// Kp = roundup(k, 4), and bf16() rounding to nearest even (BFCVTN) after the f32 clamp.
//
// Packed layout (docs/matmul_bf16.md): the LHS is Kp bf16 values (zeros past k). The RHS is a
// sequence of 12-column blocks of 48 + 24 * Kp bytes: 12 f32 bias values, then for each group of
// 4 k values 12 columns x 4 bf16 (96 bytes, columns 0-1 in the first 16).
//
// Tile: 1 x 36 = three RHS blocks walked side by side. A 16-byte RHS vector holds columns
// (2c, 2c+1) x 4 k values; BFDOT with the LHS group [a0 a1 a2 a3 a0 a1 a2 a3] adds to
// acc_b{block}_c{2c}{2c+1} = [col 2c (k0,k1), col 2c (k2,k3), col 2c+1 (k0,k1), col 2c+1 (k2,k3)].
// 18 accumulators; FADDP of two of them gives 4 finished columns at the end. Every RHS byte is
// used once (no reuse at m = 1), so the loop is bounded by the load pipes: two groups of k are
// consumed per iteration, with one 16-byte LHS load split by DUP into the two groups.
// Columns past the last multiple of 36 go through the same code one block at a time.

#include "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_bf16_bf16p_bf16p_interface.h"

static const size_t kai_m_step = 1;
static const size_t kai_n_step = 36;
static const size_t kai_mr = 1;
static const size_t kai_nr = 12;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

static size_t kai_rhs_block_bytes(size_t k) {
    const size_t data = kai_mul_size_checked(kai_mul_size_checked(kai_roundup(k, kai_kr), kai_nr), sizeof(uint16_t));
    return kai_add_size_checked(data, kai_nr * sizeof(float));
}

size_t kai_get_m_step_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_n_step;
}

size_t kai_get_mr_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_nr;
}

size_t kai_get_kr_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0 (the GEMV takes one row)");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of nr (12)");
    return kai_mul_size_checked(n_idx / kai_nr, kai_rhs_block_bytes(k));
}

size_t kai_get_dst_offset_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_m_step == 0, "m_idx must be a multiple of m_step (1)");
    KAI_ASSUME_MSG(n_idx % kai_n_step == 0, "n_idx must be a multiple of n_step (36)");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(uint16_t)));
}

size_t kai_get_dst_size_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(uint16_t));
}

// [a0 a1 a2 a3 a0 a1 a2 a3] from the 64-bit lane `lane` of v.
#define KAI_DUP_GROUP(v, lane) \
    vreinterpretq_bf16_u64(vdupq_laneq_u64(vreinterpretq_u64_bf16(v), lane))

// Finishes one block: 12 columns from its 6 accumulators, plus bias, clamped, rounded to bf16,
// stored at out.
static inline void kai_finish_block(
    const float* bias, float32x4_t acc_c01, float32x4_t acc_c23, float32x4_t acc_c45, float32x4_t acc_c67,
    float32x4_t acc_c89, float32x4_t acc_cab, float32x4_t vmin, float32x4_t vmax, uint16_t* out) {
    const float32x4_t c0123 = vaddq_f32(vpaddq_f32(acc_c01, acc_c23), vld1q_f32(bias + 0));
    const float32x4_t c4567 = vaddq_f32(vpaddq_f32(acc_c45, acc_c67), vld1q_f32(bias + 4));
    const float32x4_t c89ab = vaddq_f32(vpaddq_f32(acc_c89, acc_cab), vld1q_f32(bias + 8));
    const bfloat16x8_t n0_7 =
        vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vmaxq_f32(vminq_f32(c0123, vmax), vmin)), vmaxq_f32(vminq_f32(c4567, vmax), vmin));
    vst1q_u16(out + 0, vreinterpretq_u16_bf16(n0_7));
    vst1_u16(out + 8, vreinterpret_u16_bf16(vcvt_bf16_f32(vmaxq_f32(vminq_f32(c89ab, vmax), vmin))));
}

// 36 columns: blocks at rhs, rhs + block_bytes, rhs + 2 * block_bytes; writes out[0..36).
static void kai_gemv_1x36(
    const bfloat16_t* lhs, const uint8_t* rhs, size_t block_bytes, size_t k_groups, const float* bounds, uint16_t* out) {
    const bfloat16_t* b0 = (const bfloat16_t*)(const void*)(rhs + kai_nr * sizeof(float));
    const bfloat16_t* b1 = (const bfloat16_t*)(const void*)(rhs + block_bytes + kai_nr * sizeof(float));
    const bfloat16_t* b2 = (const bfloat16_t*)(const void*)(rhs + 2 * block_bytes + kai_nr * sizeof(float));

    float32x4_t acc_b0_c01 = vdupq_n_f32(0.0F), acc_b0_c23 = acc_b0_c01, acc_b0_c45 = acc_b0_c01;
    float32x4_t acc_b0_c67 = acc_b0_c01, acc_b0_c89 = acc_b0_c01, acc_b0_cab = acc_b0_c01;
    float32x4_t acc_b1_c01 = acc_b0_c01, acc_b1_c23 = acc_b0_c01, acc_b1_c45 = acc_b0_c01;
    float32x4_t acc_b1_c67 = acc_b0_c01, acc_b1_c89 = acc_b0_c01, acc_b1_cab = acc_b0_c01;
    float32x4_t acc_b2_c01 = acc_b0_c01, acc_b2_c23 = acc_b0_c01, acc_b2_c45 = acc_b0_c01;
    float32x4_t acc_b2_c67 = acc_b0_c01, acc_b2_c89 = acc_b0_c01, acc_b2_cab = acc_b0_c01;

#define KAI_GROUP(b, x, off)                                                       \
    acc_##b##_c01 = vbfdotq_f32(acc_##b##_c01, vld1q_bf16(b + (off) + 0), x);     \
    acc_##b##_c23 = vbfdotq_f32(acc_##b##_c23, vld1q_bf16(b + (off) + 8), x);     \
    acc_##b##_c45 = vbfdotq_f32(acc_##b##_c45, vld1q_bf16(b + (off) + 16), x);    \
    acc_##b##_c67 = vbfdotq_f32(acc_##b##_c67, vld1q_bf16(b + (off) + 24), x);    \
    acc_##b##_c89 = vbfdotq_f32(acc_##b##_c89, vld1q_bf16(b + (off) + 32), x);    \
    acc_##b##_cab = vbfdotq_f32(acc_##b##_cab, vld1q_bf16(b + (off) + 40), x)

    size_t c = 0;
    for (; c + 2 <= k_groups; c += 2) {
        const bfloat16x8_t a = vld1q_bf16(lhs);
        lhs += 8;
        const bfloat16x8_t x0 = KAI_DUP_GROUP(a, 0);
        const bfloat16x8_t x1 = KAI_DUP_GROUP(a, 1);
        KAI_GROUP(b0, x0, 0);
        KAI_GROUP(b1, x0, 0);
        KAI_GROUP(b2, x0, 0);
        KAI_GROUP(b0, x1, 48);
        KAI_GROUP(b1, x1, 48);
        KAI_GROUP(b2, x1, 48);
        b0 += 96;
        b1 += 96;
        b2 += 96;
    }
    if (c < k_groups) {
        // Odd number of groups: the last one alone (an 8-byte LHS load, so nothing is read past Kp).
        const bfloat16x4_t a = vld1_bf16(lhs);
        const bfloat16x8_t x0 = vcombine_bf16(a, a);
        KAI_GROUP(b0, x0, 0);
        KAI_GROUP(b1, x0, 0);
        KAI_GROUP(b2, x0, 0);
    }
#undef KAI_GROUP

    const float32x4_t vmin = vld1q_dup_f32(bounds + 0);
    const float32x4_t vmax = vld1q_dup_f32(bounds + 1);
    kai_finish_block(
        (const float*)(const void*)rhs, acc_b0_c01, acc_b0_c23, acc_b0_c45, acc_b0_c67, acc_b0_c89, acc_b0_cab, vmin,
        vmax, out);
    kai_finish_block(
        (const float*)(const void*)(rhs + block_bytes), acc_b1_c01, acc_b1_c23, acc_b1_c45, acc_b1_c67, acc_b1_c89,
        acc_b1_cab, vmin, vmax, out + 12);
    kai_finish_block(
        (const float*)(const void*)(rhs + 2 * block_bytes), acc_b2_c01, acc_b2_c23, acc_b2_c45, acc_b2_c67,
        acc_b2_c89, acc_b2_cab, vmin, vmax, out + 24);
}

// 12 columns of the block at rhs; writes out[0..12).
static void kai_gemv_1x12(const bfloat16_t* lhs, const uint8_t* rhs, size_t k_groups, const float* bounds, uint16_t* out) {
    const bfloat16_t* b = (const bfloat16_t*)(const void*)(rhs + kai_nr * sizeof(float));
    float32x4_t acc_c01 = vdupq_n_f32(0.0F), acc_c23 = acc_c01, acc_c45 = acc_c01;
    float32x4_t acc_c67 = acc_c01, acc_c89 = acc_c01, acc_cab = acc_c01;
    for (size_t c = 0; c < k_groups; ++c) {
        const bfloat16x4_t a = vld1_bf16(lhs + 4 * c);
        const bfloat16x8_t x = vcombine_bf16(a, a);
        acc_c01 = vbfdotq_f32(acc_c01, vld1q_bf16(b + 0), x);
        acc_c23 = vbfdotq_f32(acc_c23, vld1q_bf16(b + 8), x);
        acc_c45 = vbfdotq_f32(acc_c45, vld1q_bf16(b + 16), x);
        acc_c67 = vbfdotq_f32(acc_c67, vld1q_bf16(b + 24), x);
        acc_c89 = vbfdotq_f32(acc_c89, vld1q_bf16(b + 32), x);
        acc_cab = vbfdotq_f32(acc_cab, vld1q_bf16(b + 40), x);
        b += 48;
    }
    kai_finish_block(
        (const float*)(const void*)rhs, acc_c01, acc_c23, acc_c45, acc_c67, acc_c89, acc_cab,
        vld1q_dup_f32(bounds + 0), vld1q_dup_f32(bounds + 1), out);
}

void kai_run_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max) {
    KAI_ASSUME_MSG(m <= 1, "m must be 1 (the 1x36 kernel is a GEMV)");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(uint16_t), "dst_stride_col must be sizeof(uint16_t)");
    KAI_UNUSED(dst_stride_row);
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");

    const size_t k_groups = kai_roundup(k, kai_kr) / kai_kr;
    const size_t block_bytes = kai_rhs_block_bytes(k);
    const bfloat16_t* lhs = (const bfloat16_t*)lhs_packed;
    const uint8_t* rhs = (const uint8_t*)rhs_packed;
    uint16_t* out = (uint16_t*)dst;
    const float bounds[2] = {scalar_min, scalar_max};

    size_t n0 = 0;
    for (; n0 + kai_n_step <= n; n0 += kai_n_step) {
        kai_gemv_1x36(lhs, rhs, block_bytes, k_groups, bounds, out + n0);
        rhs += 3 * block_bytes;
    }
    for (; n0 < n; n0 += kai_nr) {
        const size_t cols = KAI_MIN(n - n0, kai_nr);
        if (cols == kai_nr) {
            kai_gemv_1x12(lhs, rhs, k_groups, bounds, out + n0);
        } else {
            uint16_t scratch[12];
            kai_gemv_1x12(lhs, rhs, k_groups, bounds, scratch);
            memcpy(out + n0, scratch, cols * sizeof(uint16_t));
        }
        rhs += block_bytes;
    }
}
