//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
#error "kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon needs AArch64 with FEAT_BF16"
#endif

// Packs f32 weights stored K x N (row k holds the n weights of depth k) into the
// bf16p12x4biasf32 layout (docs/matmul_bf16.md): blocks of 12 columns of 48 + 24 * Kp bytes,
// Kp = roundup(k, 4). A block starts with the 12 f32 bias values; then, for each group of 4 k
// values, 12 columns x 4 bf16 (96 bytes). B[k][j] lands at byte
// (j / 12) * (48 + 24 * Kp) + 48 + (k / 4) * 96 + (j % 12) * 8 + (k % 4) * 2.
// Padding as KleidiAI: k >= K holds copies of k = 0, columns past n hold 0, and their bias slots
// are not written.
// Each group of 4 rows x 12 columns is converted with BFCVTN/BFCVTN2 and transposed on the way
// out by ST4 (4 rows interleaved = 4 k values per column); a ragged block's rows are copied into a
// zero-padded tile first. The K tail goes through the portable path, which rounds identically
// (kai_cast_bf16_f32: ties to even).

#include "kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
#pragma weak kai_get_n_step_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
#pragma weak kai_get_rhs_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
#pragma weak kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
#pragma weak kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
#pragma weak kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon
// (end of the weak definitions)

static const size_t kai_nr = 12;
static const size_t kai_kr = 4;
static const size_t kai_sr = 1;

size_t kai_get_n_step_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(void) {
    return kai_nr;
}

size_t kai_get_rhs_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_bias_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr == 0, "n_idx must be a multiple of 12");
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx, size_t k, size_t nr, size_t kr) {
    KAI_ASSUME_MSG(nr == kai_nr, "nr must be 12");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    const size_t col_bytes = kai_add_size_checked(sizeof(float), kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t)));
    return kai_mul_size_checked(n_idx, col_bytes);
}

size_t kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n, size_t k, size_t nr, size_t kr) {
    KAI_ASSUME_MSG(nr == kai_nr, "nr must be 12");
    KAI_ASSUME_MSG(kr == kai_kr, "kr must be 4");
    return kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(kai_roundup(n, kai_nr), k, nr, kr);
}

// Returns the packed bf16 pattern of B[kk][j] (kk < k, j < n).
static uint16_t kai_weight(const void* rhs, size_t rhs_stride, size_t kk, size_t j) {
    float v;
    memcpy(&v, (const uint8_t*)rhs + kk * rhs_stride + j * sizeof(float), sizeof(v));
    return kai_cast_bf16_f32(v);
}

// Portable path: writes groups [c_begin, c_end) of the block whose first column is column n0 of
// the range (cols valid columns).
static void kai_pack_groups_portable(
    uint16_t* data, const void* rhs, size_t rhs_stride, size_t n0, size_t cols, size_t k, size_t c_begin,
    size_t c_end) {
    for (size_t c = c_begin; c < c_end; ++c) {
        for (size_t j = 0; j < kai_nr; ++j) {
            for (size_t r = 0; r < kai_kr; ++r) {
                const size_t kk = c * kai_kr + r;
                data[c * kai_nr * kai_kr + j * kai_kr + r] =
                    j < cols ? kai_weight(rhs, rhs_stride, kk < k ? kk : 0, n0 + j) : 0;
            }
        }
    }
}

// Converts 4 rows x 12 columns (r0..r3) and stores them transposed: ST4 interleaves the rows, so
// each column's 4 k values come out consecutively.
static inline void kai_pack_group(uint16_t* out, const float* r0, const float* r1, const float* r2, const float* r3) {
    uint16x8x4_t lo;  // columns 0-7
    lo.val[0] = vreinterpretq_u16_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(r0)), vld1q_f32(r0 + 4)));
    lo.val[1] = vreinterpretq_u16_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(r1)), vld1q_f32(r1 + 4)));
    lo.val[2] = vreinterpretq_u16_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(r2)), vld1q_f32(r2 + 4)));
    lo.val[3] = vreinterpretq_u16_bf16(vcvtq_high_bf16_f32(vcvtq_low_bf16_f32(vld1q_f32(r3)), vld1q_f32(r3 + 4)));
    uint16x4x4_t hi;  // columns 8-11
    hi.val[0] = vreinterpret_u16_bf16(vcvt_bf16_f32(vld1q_f32(r0 + 8)));
    hi.val[1] = vreinterpret_u16_bf16(vcvt_bf16_f32(vld1q_f32(r1 + 8)));
    hi.val[2] = vreinterpret_u16_bf16(vcvt_bf16_f32(vld1q_f32(r2 + 8)));
    hi.val[3] = vreinterpret_u16_bf16(vcvt_bf16_f32(vld1q_f32(r3 + 8)));
    vst4q_u16(out, lo);
    vst4_u16(out + 32, hi);
}

// Fast path for the full groups (rows 4c..4c+3 < k) of the block at column n0 with cols valid
// columns. A ragged block's rows are first copied into a zero-padded 4 x 12 tile.
static void kai_pack_groups_neon(
    uint16_t* data, const void* rhs, size_t rhs_stride, size_t n0, size_t cols, size_t c_end) {
    const uint8_t* base = (const uint8_t*)rhs + n0 * sizeof(float);
    float tile[4][12];
    memset(tile, 0, sizeof(tile));
    for (size_t c = 0; c < c_end; ++c) {
        const float* r[4];
        for (size_t i = 0; i < 4; ++i) {
            r[i] = (const float*)(const void*)(base + (4 * c + i) * rhs_stride);
            if (cols < kai_nr) {
                memcpy(tile[i], r[i], cols * sizeof(float));
                r[i] = tile[i];
            }
        }
        kai_pack_group(data + c * 48, r[0], r[1], r[2], r[3]);
    }
}

void kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(
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

    const size_t k_groups = kai_roundup(k, kai_kr) / kai_kr;
    const size_t block_bytes = kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(kai_nr, k, kai_nr, kai_kr);
    for (size_t n0 = 0; n0 < n; n0 += kai_nr) {
        uint8_t* block = (uint8_t*)rhs_packed + (n0 / kai_nr) * block_bytes;
        const size_t cols = KAI_MIN(n - n0, kai_nr);
        for (size_t j = 0; j < cols; ++j) {
            float b = 0.0F;
            if (bias != NULL) {
                memcpy(&b, (const uint8_t*)bias + (n0 + j) * sizeof(float), sizeof(b));
            }
            memcpy(block + j * sizeof(float), &b, sizeof(b));
        }
        uint16_t* data = (uint16_t*)(void*)(block + kai_nr * sizeof(float));
        const size_t fast_groups = k / kai_kr;
        kai_pack_groups_neon(data, rhs, rhs_stride, n0, cols, fast_groups);
        kai_pack_groups_portable(data, rhs, rhs_stride, n0, cols, k, fast_groups, k_groups);
    }
}
