//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC) || \
    !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon needs AArch64 with FEAT_BF16 and FEAT_FP16"
#endif

// Packs f16 weights stored N x K (row j holds the k weights of output column j) into the
// bf16p12x4biasf16 layout (docs/matmul_bf16.md): blocks of 12 columns of 24 + 24 * Kp bytes,
// Kp = roundup(k, 4). A block starts with the 12 f16 bias values; then, for each group of 4 k
// values, 12 columns x 4 bf16 (96 bytes). B[k][j] lands at byte
// (j / 12) * (24 + 24 * Kp) + 24 + (k / 4) * 96 + (j % 12) * 8 + (k % 4) * 2.
// Padding as KleidiAI: k >= K holds copies of k = 0, columns past n hold 0, and their bias slots
// are not written.
//
// The bytes are those of kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon for the transposed weights.
//
// Conversion: FCVTL (f16 -> f32, exact) then BFCVTN (f32 -> bf16, nearest, ties to even). In N x K
// order a packed group (12 columns x 4 k values) is 12 runs of 4 consecutive weights, so no
// transposition is needed: BFCVTN writes the low half of its destination and BFCVTN2 the high half,
// and converting column j's 4 values with BFCVTN and column j + 1's with BFCVTN2 gives 16 packed
// bytes. 12 columns x 8 k values (two groups) take 12 loads, 24 FCVTL, 24 BFCVTN and four stores.

#include "kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_n_step_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
#pragma weak kai_run_rhs_pack_nxk_bf16p12x4biasf16_f16_neon
// (end of the weak definitions)

static const size_t kai_nr = 12;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;
static const size_t kai_bias_bytes = sizeof(uint16_t);  // one f16 bias value

size_t kai_get_n_step_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(void) {
    return kai_nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(size_t n_idx, size_t rhs_stride) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_bias_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(size_t n_idx) {
    return kai_mul_size_checked(n_idx, kai_bias_bytes);
}

// Bytes of one packed column: its bias and roundup(k, 4) bf16 weights.
static size_t kai_column_bytes(size_t k) {
    return kai_add_size_checked(kai_bias_bytes, kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t)));
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_column_bytes(k));
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, kai_column_bytes(k));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(size_t n, size_t k) {
    return kai_mul_size_checked(kai_roundup(n, kai_nr), kai_column_bytes(k));
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

// Stores one packed group (12 columns x 4 k, 96 bytes) from the 4-value runs x[0..11] of the columns.
static inline void kai_store_group(uint8_t* out, const float16x4_t* x) {
    bfloat16x8x4_t g0;
    g0.val[0] = kai_cvt_pair(x[0], x[1]);
    g0.val[1] = kai_cvt_pair(x[2], x[3]);
    g0.val[2] = kai_cvt_pair(x[4], x[5]);
    g0.val[3] = kai_cvt_pair(x[6], x[7]);
    bfloat16x8x2_t g1;
    g1.val[0] = kai_cvt_pair(x[8], x[9]);
    g1.val[1] = kai_cvt_pair(x[10], x[11]);
    vst1q_bf16_x4((bfloat16_t*)(void*)out, g0);
    vst1q_bf16_x2((bfloat16_t*)(void*)(out + 64), g1);
}

void kai_run_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(nr == kai_nr, "nr must be 12");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(sr == kai_sr, "sr must be 1");
    KAI_ASSUME_MSG(scale == NULL, "scale must be NULL");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params == NULL, "params must be NULL");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(n == 1 || rhs_stride / 2 >= k, "rhs_stride must be at least k * 2 when n > 1");

    const size_t k_groups = kai_roundup(k, kai_kr) / kai_kr;
    const size_t k8 = k / 8 * 8;
    const size_t block_bytes = kai_get_rhs_packed_stride_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(k);
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / kai_nr) * block_bytes;
        const size_t cols = KAI_MIN(n - n0, kai_nr);
        if (bias != NULL) {
            memcpy(block, (const uint8_t*)bias + n0 * kai_bias_bytes, cols * kai_bias_bytes);
        } else {
            memset(block, 0, cols * kai_bias_bytes);
        }
        uint8_t* const data = block + kai_nr * kai_bias_bytes;
        // Columns past n read column n0 (any valid row) and are zeroed afterwards.
        const uint8_t* c[12];
        for (size_t j = 0; j < kai_nr; ++j) {
            c[j] = (const uint8_t*)rhs + (j < cols ? n0 + j : n0) * rhs_stride;
        }
        uint8_t* o = data;
        size_t off = 0;  // byte offset of depth kk in a column
        for (; off < k8 * sizeof(uint16_t); off += 8 * sizeof(uint16_t)) {
            float16x4_t lo[12];
            float16x4_t hi[12];
            for (size_t j = 0; j < kai_nr; ++j) {
                const float16x8_t x = kai_load8(c[j] + off);
                lo[j] = vget_low_f16(x);
                hi[j] = vget_high_f16(x);
            }
            kai_store_group(o, lo);
            kai_store_group(o + 96, hi);
            o += 192;
        }
        if (k - k8 >= 4) {
            float16x4_t x[12];
            for (size_t j = 0; j < kai_nr; ++j) {
                x[j] = kai_load4(c[j] + off);
            }
            kai_store_group(o, x);
            o += 96;
            off += 4 * sizeof(uint16_t);
        }
        const size_t tail = k % 4;
        if (tail != 0) {
            // The last k % 4 weights of each column, padded with copies of its weight at k = 0.
            uint16_t t[12][4];
            float16x4_t x[12];
            for (size_t j = 0; j < kai_nr; ++j) {
                memcpy(t[j], c[j] + off, tail * sizeof(uint16_t));
                for (size_t i = tail; i < 4; ++i) {
                    memcpy(&t[j][i], c[j], sizeof(uint16_t));
                }
                x[j] = kai_load4((const uint8_t*)t[j]);
            }
            kai_store_group(o, x);
        }
        for (size_t g = 0; cols < kai_nr && g < k_groups; ++g) {
            memset(data + g * 96 + cols * 8, 0, (kai_nr - cols) * 8);
        }
    }
}
