//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Portable C (no feature guard): on AArch64 a NEON path writes the same bytes for nr = 4 and
// kr = 8 or 16 (the pairings of the family's kernels).
//
// Operation: packed = Q4_0 rows regrouped, nibbles XOR 8 (unsigned u -> two's-complement u - 8).
// Packed layout (docs/matmul_q4_0.md): blocks of nr rows, stride S_R = nr * (k / bl) * (bl / 2 + 2).
// Quantisation block b of a row block starts at b * nr * (bl / 2 + 2): the nr f16 scales (lane i at
// 2i), then for each segment s of seg = kr / 2 input bytes, bytes [s * seg, (s + 1) * seg) of lane
// 0, lane 1, ... Byte j of a block keeps element j in its low nibble and element j + bl / 2 in its
// high nibble. Lanes past n copy row n - 1 (scale and data).

#include "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0
#pragma weak kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0
// (end of the weak definitions)

static inline uint16_t kai_load_u16(const uint8_t* p) {
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static void check_shape(size_t k, size_t nr, size_t kr, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(nr != 0, "nr must be non-zero");
    KAI_ASSUME_MSG(kr != 0 && kr % 2 == 0 && kr <= 16 && bl % kr == 0, "kr must be even, at most 16 and divide bl");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(bl);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t k, size_t nr, size_t kr, size_t bl) {
    check_shape(k, nr, kr, bl);
    return kai_mul_size_checked(kai_mul_size_checked(nr, k / bl), bl / 2 + 2);
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(k, nr, kr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    check_shape(k, nr, kr, bl);
    return kai_mul_size_checked(
        kai_div_ceil(n, nr), kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(k, nr, kr, bl));
}

void kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const float* bias, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qs4cxs1s0_param* params) {
    check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(sr == 2, "sr must be 2");
    KAI_ASSUME_MSG(bias == NULL, "bias must be NULL: the Q4_0 family takes no bias");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(sr);
    KAI_UNUSED(bias);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(params);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");

    const size_t nb = k / bl;
    const size_t half_bl = bl / 2;
    const size_t in_block = half_bl + 2;
    const size_t rhs_stride = nb * in_block;
    const size_t out_block = nr * in_block;
    uint8_t* dst = (uint8_t*)rhs_packed;

    for (size_t n0 = 0; n0 < n; n0 += nr) {
#if defined(__aarch64__) && defined(__ARM_NEON)
        if (nr == 4 && (kr == 8 || kr == 16)) {
            const uint8_t* s0 = rhs + n0 * rhs_stride;
            const uint8_t* s1 = rhs + KAI_MIN(n0 + 1, n - 1) * rhs_stride;
            const uint8_t* s2 = rhs + KAI_MIN(n0 + 2, n - 1) * rhs_stride;
            const uint8_t* s3 = rhs + KAI_MIN(n0 + 3, n - 1) * rhs_stride;
            const uint8x16_t flip = vdupq_n_u8(0x88);
            for (size_t b = 0; b < nb; ++b) {
                // Source and packed blocks sit at any byte address: memcpy for the f16 scales
                // (LD1 lane loads), byte-vector stores below.
                uint16x4_t scales = vdup_n_u16(kai_load_u16(s0));
                scales = vset_lane_u16(kai_load_u16(s1), scales, 1);
                scales = vset_lane_u16(kai_load_u16(s2), scales, 2);
                scales = vset_lane_u16(kai_load_u16(s3), scales, 3);
                vst1_u8(dst, vreinterpret_u8_u16(scales));
                uint8_t* d = dst + 8;
                for (size_t j = 0; j < half_bl; j += 16) {
                    // Lane i's 16 bytes hold 16 / seg segments, interleaved segment by segment (what
                    // an ST4 of 64- or 32-bit elements stores, as ZIP/TRN and one byte store).
                    const uint8x16_t v0 = veorq_u8(vld1q_u8(s0 + 2 + j), flip);
                    const uint8x16_t v1 = veorq_u8(vld1q_u8(s1 + 2 + j), flip);
                    const uint8x16_t v2 = veorq_u8(vld1q_u8(s2 + 2 + j), flip);
                    const uint8x16_t v3 = veorq_u8(vld1q_u8(s3 + 2 + j), flip);
                    if (kr == 16) {
                        const uint64x2_t w0 = vreinterpretq_u64_u8(v0);
                        const uint64x2_t w1 = vreinterpretq_u64_u8(v1);
                        const uint64x2_t w2 = vreinterpretq_u64_u8(v2);
                        const uint64x2_t w3 = vreinterpretq_u64_u8(v3);
                        uint8x16x4_t q;
                        q.val[0] = vreinterpretq_u8_u64(vzip1q_u64(w0, w1));
                        q.val[1] = vreinterpretq_u8_u64(vzip1q_u64(w2, w3));
                        q.val[2] = vreinterpretq_u8_u64(vzip2q_u64(w0, w1));
                        q.val[3] = vreinterpretq_u8_u64(vzip2q_u64(w2, w3));
                        vst1q_u8_x4(d, q);
                    } else {
                        // 4x4 transpose of 32-bit elements: TRN pairs, then ZIP of their halves.
                        const uint32x4_t w0 = vreinterpretq_u32_u8(v0);
                        const uint32x4_t w1 = vreinterpretq_u32_u8(v1);
                        const uint32x4_t w2 = vreinterpretq_u32_u8(v2);
                        const uint32x4_t w3 = vreinterpretq_u32_u8(v3);
                        const uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(w0, w1));
                        const uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(w0, w1));
                        const uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(w2, w3));
                        const uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(w2, w3));
                        uint8x16x4_t q;
                        q.val[0] = vreinterpretq_u8_u64(vzip1q_u64(t0, t2));
                        q.val[1] = vreinterpretq_u8_u64(vzip1q_u64(t1, t3));
                        q.val[2] = vreinterpretq_u8_u64(vzip2q_u64(t0, t2));
                        q.val[3] = vreinterpretq_u8_u64(vzip2q_u64(t1, t3));
                        vst1q_u8_x4(d, q);
                    }
                    d += 64;
                }
                s0 += in_block;
                s1 += in_block;
                s2 += in_block;
                s3 += in_block;
                dst += out_block;
            }
            continue;
        }
#endif
        const size_t seg = kr / 2;
        for (size_t b = 0; b < nb; ++b) {
            for (size_t i = 0; i < nr; ++i) {
                const uint8_t* src = rhs + KAI_MIN(n0 + i, n - 1) * rhs_stride + b * in_block;
                dst[2 * i] = src[0];
                dst[2 * i + 1] = src[1];
                for (size_t s = 0; s < half_bl; s += seg) {
                    for (size_t j = 0; j < seg; ++j) {
                        dst[2 * nr + s * nr + i * seg + j] = (uint8_t)(src[2 + s + j] ^ 0x88u);
                    }
                }
            }
            dst += out_block;
        }
    }
}
