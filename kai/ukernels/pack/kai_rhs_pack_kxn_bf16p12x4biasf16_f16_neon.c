//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC) || \
    !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon needs AArch64 with FEAT_BF16 and FEAT_FP16"
#endif

// Packs f16 weights stored K x N (row k holds the n weights of depth k) into the
// bf16p12x4biasf16 layout (docs/matmul_bf16.md): blocks of 12 columns of 24 + 24 * Kp bytes,
// Kp = roundup(k, 4). A block starts with the 12 f16 bias values; then, for each group of 4 k
// values, 12 columns x 4 bf16 (96 bytes). B[k][j] lands at byte
// (j / 12) * (24 + 24 * Kp) + 24 + (k / 4) * 96 + (j % 12) * 8 + (k % 4) * 2.
// Padding as KleidiAI: k >= K holds copies of k = 0, columns past n hold 0, and their bias slots
// are not written.
//
// Conversion: FCVTL (f16 -> f32, exact) then BFCVTN (f32 -> bf16, nearest, ties to even). A group
// is 4 rows x 12 columns: 8 loads, 12 FCVTL, 12 BFCVTN, and ST4 stores that interleave the four
// rows so that each column's 4 k values come out consecutively.

#include "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_n_step_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
#pragma weak kai_run_rhs_pack_kxn_bf16p12x4biasf16_f16_neon
// (end of the weak definitions)

static const size_t kai_nr = 12;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;
static const size_t kai_bias_bytes = sizeof(uint16_t);  // one f16 bias value

size_t kai_get_n_step_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(void) {
    return kai_nr;
}

size_t kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_bias_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx) {
    return kai_mul_size_checked(n_idx, kai_bias_bytes);
}

// Bytes of one packed column: its bias and roundup(k, 4) bf16 weights.
static size_t kai_column_bytes(size_t k) {
    return kai_add_size_checked(kai_bias_bytes, kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t)));
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t k) {
    return kai_mul_size_checked(kai_nr, kai_column_bytes(k));
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, kai_column_bytes(k));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n, size_t k) {
    return kai_mul_size_checked(kai_roundup(n, kai_nr), kai_column_bytes(k));
}

static inline float16x8_t kai_load8(const uint8_t* p) {
    return vreinterpretq_f16_u16(vld1q_u16((const uint16_t*)(const void*)p));
}

static inline float16x4_t kai_load4(const uint8_t* p) {
    return vreinterpret_f16_u16(vld1_u16((const uint16_t*)(const void*)p));
}

// bf16 of 8 f16 values.
static inline uint16x8_t kai_cvt8(float16x8_t x) {
    return vreinterpretq_u16_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vcvt_f32_f16(vget_low_f16(x))), vcvt_high_f32_f16(x)));
}

// bf16 of 4 f16 values.
static inline uint16x4_t kai_cvt4(float16x4_t x) {
    return vreinterpret_u16_bf16(vcvt_bf16_f32(vcvt_f32_f16(x)));
}

// Converts 12 columns of 4 rows (r0..r3, each 12 f16 values) and stores them as one packed group
// (96 bytes at out).
static inline void kai_pack_group(uint8_t* out, const uint8_t* r0, const uint8_t* r1, const uint8_t* r2, const uint8_t* r3) {
    uint16x8x4_t lo;  // columns 0-7
    lo.val[0] = kai_cvt8(kai_load8(r0));
    lo.val[1] = kai_cvt8(kai_load8(r1));
    lo.val[2] = kai_cvt8(kai_load8(r2));
    lo.val[3] = kai_cvt8(kai_load8(r3));
    uint16x4x4_t hi;  // columns 8-11
    hi.val[0] = kai_cvt4(kai_load4(r0 + 16));
    hi.val[1] = kai_cvt4(kai_load4(r1 + 16));
    hi.val[2] = kai_cvt4(kai_load4(r2 + 16));
    hi.val[3] = kai_cvt4(kai_load4(r3 + 16));
    vst4q_u16((uint16_t*)(void*)out, lo);
    vst4_u16((uint16_t*)(void*)(out + 64), hi);
}

void kai_run_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(
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
    KAI_ASSUME_MSG(k <= 1 || rhs_stride / 2 >= n, "rhs_stride must be at least n * 2 when k > 1");

    const size_t k_groups = kai_roundup(k, kai_kr) / kai_kr;
    const size_t block_bytes = kai_get_rhs_packed_stride_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(k);
    const uint8_t* base = (const uint8_t*)rhs;
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / kai_nr) * block_bytes;
        const size_t cols = KAI_MIN(n - n0, kai_nr);
        if (bias != NULL) {
            memcpy(block, (const uint8_t*)bias + n0 * kai_bias_bytes, cols * kai_bias_bytes);
        } else {
            memset(block, 0, cols * kai_bias_bytes);
        }
        uint8_t* data = block + kai_nr * kai_bias_bytes;
        const uint8_t* col = base + n0 * sizeof(uint16_t);
        if (cols == kai_nr) {
            // Four row pointers stepping by 4 rows: no offset registers to keep (or spill).
            const size_t step = 4 * rhs_stride;
            const uint8_t* r0 = col;
            const uint8_t* r1 = col + rhs_stride;
            const uint8_t* r2 = col + 2 * rhs_stride;
            const uint8_t* r3 = col + 3 * rhs_stride;
            size_t kk = 0;
            for (; kk + 4 <= k; kk += 4) {
                kai_pack_group(data, r0, r1, r2, r3);
                r0 += step;
                r1 += step;
                r2 += step;
                r3 += step;
                data += 96;
            }
            if (kk < k) {
                // The last group: rows past k repeat row 0.
                const uint8_t* r[4];
                for (size_t i = 0; i < 4; ++i) {
                    r[i] = col + (kk + i < k ? kk + i : 0) * rhs_stride;
                }
                kai_pack_group(data, r[0], r[1], r[2], r[3]);
            }
        } else {
            // A ragged block: each group's rows are first copied into a zero-padded 4 x 12 tile.
            uint16_t tile[4][12];
            memset(tile, 0, sizeof(tile));
            for (size_t c = 0; c < k_groups; ++c) {
                for (size_t i = 0; i < 4; ++i) {
                    const size_t kk = c * kai_kr + i;
                    memcpy(tile[i], col + (kk < k ? kk : 0) * rhs_stride, cols * sizeof(uint16_t));
                }
                kai_pack_group(
                    data, (const uint8_t*)tile[0], (const uint8_t*)tile[1], (const uint8_t*)tile[2],
                    (const uint8_t*)tile[3]);
                data += 96;
            }
        }
    }
}
