//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon needs AArch64 (NEON)"
#endif

// Packs kxn int8 weights for the qsi8cxp kernels.
//
// Operation: for each block of nr channels (channel of lane j = min(n0 + j, N - 1)) and each group
// g of kr K values: bytes g*nr*kr + j*kr + t = w[g*kr + t][ch] (input K x N, row stride N; 0 for
// K <= k < Kp = roundup(K, 32)); after the data nr int32 lhs_zero_point * sum_k w[k][ch], nr f32
// scale[ch], nr f32 bias[ch] (0 if NULL). Layout diagram: docs/matmul_int8_channelwise.md,
// docs/formats.md, "qsi8cxp RHS".
//
// NEON path (kr 4 or 8, nr a multiple of 4): strips of 16 columns. Per group the strip's kr K rows
// are loaded (16 bytes each) and one TBL over four rows per quad of columns transposes them into
// the quad's bytes [c0 k0-3, c1 k0-3, c2 k0-3, c3 k0-3]; for kr = 8 ZIP1/ZIP2 .4s merge the two
// halves (rows 0-3, 4-7) into [c0 k0-7, c1 k0-7] and [c2 k0-7, c3 k0-7]. The column sums come
// from the transposed registers (SADDLP, SADALP). Columns past the last strip, padded lanes, the
// K tail and the padding take the scalar path.

#include "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
#pragma weak kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon
// (end of the weak definitions)

static const size_t kai_k_chunk = 32;  // Kp = roundup(K, 32), whatever kr is

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 12));
}

size_t kai_get_n_step_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr));
}

// Per-channel tail of block `block` (nr channels, kp data bytes per channel): sums, scales, biases
// of lanes [j0, j1), channel of lane j = min(n0 + j, n - 1).
static void kai_write_tail(
    uint8_t* block, size_t nr, size_t kp, size_t n0, size_t n, size_t j0, size_t j1, const int32_t* sums,
    int32_t lhs_zero_point, const float* bias, const float* scale) {
    uint8_t* tail = block + nr * kp;
    for (size_t j = j0; j < j1; ++j) {
        const size_t ch = KAI_MIN(n0 + j, n - 1);
        // lhs_zero_point * sum, wrapping like KleidiAI's int32 multiply.
        const int32_t s = (int32_t)((uint32_t)sums[j - j0] * (uint32_t)lhs_zero_point);
        const float b = bias != NULL ? bias[ch] : 0.0f;
        memcpy(tail + 4 * j, &s, sizeof(s));
        memcpy(tail + 4 * nr + 4 * j, &scale[ch], sizeof(float));
        memcpy(tail + 8 * nr + 4 * j, &b, sizeof(b));
    }
}

// The generic path for lane j of a block: K values k0 <= kk < kp of channel row `row` (element kk
// at row[kk * step]; 0 for kk >= k), added to *sum.
static void kai_pack_lane_tail(
    uint8_t* block, size_t nr, size_t kr, size_t j, const int8_t* row, size_t step, size_t k0, size_t k, size_t kp,
    int32_t* sum) {
    int32_t s = *sum;
    for (size_t kk = k0; kk < kp; ++kk) {
        const int8_t v = kk < k ? row[kk * step] : 0;
        block[(kk / kr) * nr * kr + j * kr + kk % kr] = (uint8_t)v;
        s += v;
    }
    *sum = s;
}

size_t kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t rhs_stride) {
    KAI_UNUSED(rhs_stride);
    return n_idx;
}

// TBL indices of quad q (columns 4q..4q+3 of a 16-column strip) over four 16-byte rows: byte
// 4 * c + t of the result = row t, column 4q + c.
static const uint8_t kai_quad_idx[4][16] = {
    {0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50, 3, 19, 35, 51},
    {4, 20, 36, 52, 5, 21, 37, 53, 6, 22, 38, 54, 7, 23, 39, 55},
    {8, 24, 40, 56, 9, 25, 41, 57, 10, 26, 42, 58, 11, 27, 43, 59},
    {12, 28, 44, 60, 13, 29, 45, 61, 14, 30, 46, 62, 15, 31, 47, 63},
};

// Columns [c, c + 16) (all < n) for the K values [0, kfull), kfull a multiple of kr (4 or 8):
// out[q] = the packed data of quad q (lane j of its block, group 0), sums[q] = its column sums.
static void kai_pack_strip(
    const int8_t* src, size_t n, size_t kr, size_t nr, size_t kfull, int8_t* const out[4], int32x4_t sums[4]) {
    const uint8x16_t idx0 = vld1q_u8(kai_quad_idx[0]);
    const uint8x16_t idx1 = vld1q_u8(kai_quad_idx[1]);
    const uint8x16_t idx2 = vld1q_u8(kai_quad_idx[2]);
    const uint8x16_t idx3 = vld1q_u8(kai_quad_idx[3]);
    int32x4_t acc0 = vdupq_n_s32(0);
    int32x4_t acc1 = vdupq_n_s32(0);
    int32x4_t acc2 = vdupq_n_s32(0);
    int32x4_t acc3 = vdupq_n_s32(0);
    const size_t line = nr * kr;  // bytes per group in a block
    int8_t* o0 = out[0];
    int8_t* o1 = out[1];
    int8_t* o2 = out[2];
    int8_t* o3 = out[3];
    if (kr == 4) {
        for (size_t kk = 0; kk < kfull; kk += 4) {
            int8x16x4_t rows;
            rows.val[0] = vld1q_s8(src);
            rows.val[1] = vld1q_s8(src + n);
            rows.val[2] = vld1q_s8(src + 2 * n);
            rows.val[3] = vld1q_s8(src + 3 * n);
            const int8x16_t q0 = vqtbl4q_s8(rows, idx0);
            const int8x16_t q1 = vqtbl4q_s8(rows, idx1);
            const int8x16_t q2 = vqtbl4q_s8(rows, idx2);
            const int8x16_t q3 = vqtbl4q_s8(rows, idx3);
            vst1q_s8(o0, q0);
            vst1q_s8(o1, q1);
            vst1q_s8(o2, q2);
            vst1q_s8(o3, q3);
            acc0 = vpadalq_s16(acc0, vpaddlq_s8(q0));
            acc1 = vpadalq_s16(acc1, vpaddlq_s8(q1));
            acc2 = vpadalq_s16(acc2, vpaddlq_s8(q2));
            acc3 = vpadalq_s16(acc3, vpaddlq_s8(q3));
            src += 4 * n;
            o0 += line;
            o1 += line;
            o2 += line;
            o3 += line;
        }
    } else {
        for (size_t kk = 0; kk < kfull; kk += 8) {
            int8x16x4_t lo;
            int8x16x4_t hi;
            lo.val[0] = vld1q_s8(src);
            lo.val[1] = vld1q_s8(src + n);
            lo.val[2] = vld1q_s8(src + 2 * n);
            lo.val[3] = vld1q_s8(src + 3 * n);
            hi.val[0] = vld1q_s8(src + 4 * n);
            hi.val[1] = vld1q_s8(src + 5 * n);
            hi.val[2] = vld1q_s8(src + 6 * n);
            hi.val[3] = vld1q_s8(src + 7 * n);
            const int8x16_t x0 = vqtbl4q_s8(lo, idx0);
            const int8x16_t y0 = vqtbl4q_s8(hi, idx0);
            const int8x16_t x1 = vqtbl4q_s8(lo, idx1);
            const int8x16_t y1 = vqtbl4q_s8(hi, idx1);
            const int8x16_t x2 = vqtbl4q_s8(lo, idx2);
            const int8x16_t y2 = vqtbl4q_s8(hi, idx2);
            const int8x16_t x3 = vqtbl4q_s8(lo, idx3);
            const int8x16_t y3 = vqtbl4q_s8(hi, idx3);
            vst1q_s8(o0, vreinterpretq_s8_s32(vzip1q_s32(vreinterpretq_s32_s8(x0), vreinterpretq_s32_s8(y0))));
            vst1q_s8(o0 + 16, vreinterpretq_s8_s32(vzip2q_s32(vreinterpretq_s32_s8(x0), vreinterpretq_s32_s8(y0))));
            vst1q_s8(o1, vreinterpretq_s8_s32(vzip1q_s32(vreinterpretq_s32_s8(x1), vreinterpretq_s32_s8(y1))));
            vst1q_s8(o1 + 16, vreinterpretq_s8_s32(vzip2q_s32(vreinterpretq_s32_s8(x1), vreinterpretq_s32_s8(y1))));
            vst1q_s8(o2, vreinterpretq_s8_s32(vzip1q_s32(vreinterpretq_s32_s8(x2), vreinterpretq_s32_s8(y2))));
            vst1q_s8(o2 + 16, vreinterpretq_s8_s32(vzip2q_s32(vreinterpretq_s32_s8(x2), vreinterpretq_s32_s8(y2))));
            vst1q_s8(o3, vreinterpretq_s8_s32(vzip1q_s32(vreinterpretq_s32_s8(x3), vreinterpretq_s32_s8(y3))));
            vst1q_s8(o3 + 16, vreinterpretq_s8_s32(vzip2q_s32(vreinterpretq_s32_s8(x3), vreinterpretq_s32_s8(y3))));
            acc0 = vpadalq_s16(vpadalq_s16(acc0, vpaddlq_s8(x0)), vpaddlq_s8(y0));
            acc1 = vpadalq_s16(vpadalq_s16(acc1, vpaddlq_s8(x1)), vpaddlq_s8(y1));
            acc2 = vpadalq_s16(vpadalq_s16(acc2, vpaddlq_s8(x2)), vpaddlq_s8(y2));
            acc3 = vpadalq_s16(vpadalq_s16(acc3, vpaddlq_s8(x3)), vpaddlq_s8(y3));
            src += 8 * n;
            o0 += line;
            o1 += line;
            o2 += line;
            o3 += line;
        }
    }
    sums[0] = acc0;
    sums[1] = acc1;
    sums[2] = acc2;
    sums[3] = acc3;
}

void kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const int8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qsi8cx_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(kr >= 1, "kr must be at least 1");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kai_roundup(k, kai_k_chunk) % kr == 0, "kr must divide roundup(k, 32)");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(sr);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t stride = kai_packed_stride(k, nr);
    uint8_t* packed = (uint8_t*)rhs_packed;
    size_t done = 0;  // columns [0, done) are packed
    if ((kr == 4 || kr == 8) && nr % 4 == 0) {
        const size_t kfull = k / kr * kr;
        for (; done + 16 <= n; done += 16) {
            int8_t* out[4];
            uint8_t* blocks[4];
            size_t lanes[4];
            for (size_t q = 0; q < 4; ++q) {
                const size_t col = done + 4 * q;
                blocks[q] = packed + (col / nr) * stride;
                lanes[q] = col % nr;
                out[q] = (int8_t*)blocks[q] + lanes[q] * kr;
            }
            int32x4_t quad_sums[4];
            kai_pack_strip(rhs + done, n, kr, nr, kfull, out, quad_sums);
            for (size_t q = 0; q < 4; ++q) {
                int32_t sums[4];
                vst1q_s32(sums, quad_sums[q]);
                for (size_t c = 0; c < 4; ++c) {
                    kai_pack_lane_tail(blocks[q], nr, kr, lanes[q] + c, rhs + done + 4 * q + c, n, kfull, k, kp, &sums[c]);
                }
                kai_write_tail(blocks[q], nr, kp, done + 4 * q - lanes[q], n, lanes[q], lanes[q] + 4, sums,
                               params->lhs_zero_point, bias, scale);
            }
        }
    }
    // The remaining lanes from column `done` on (padded ones copy column n - 1).
    for (size_t n0 = done / nr * nr; n0 < n; n0 += nr) {
        uint8_t* block = packed + (n0 / nr) * stride;
        for (size_t j = 0; j < nr; ++j) {
            if (n0 + j < done) {
                continue;
            }
            const size_t ch = KAI_MIN(n0 + j, n - 1);
            int32_t sum = 0;
            kai_pack_lane_tail(block, nr, kr, j, rhs + ch, n, 0, k, kp, &sum);
            kai_write_tail(block, nr, kp, n0, n, j, j + 1, &sum, params->lhs_zero_point, bias, scale);
        }
    }
}
