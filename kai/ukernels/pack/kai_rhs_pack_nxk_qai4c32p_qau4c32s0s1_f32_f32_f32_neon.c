//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs s0s1 unsigned int4 rows with per-block f32 scale and zero for the NEON qai4c32p kernels
// (AArch64 NEON). Layout in docs/matmul_int4_asymmetric.md.
//
// nr = 4 with kbl = kr / sr of 4 or 8 (every kai kernel): per row and two 32-value chunks (32 input
// bytes X0, X1), UZP1/UZP2 on 64-bit lanes give L = the first halves (values 0-15 of each chunk) and
// H = the second halves (16-31); byte i of a half holds values 2i (high nibble) and 2i + 1 (low).
// The even output bytes are SRI(H, L, 4) = (H & 0xF0) | L >> 4 and the odd ones SLI(L, H, 4); ZIP1 /
// ZIP2 interleave them into one 16-byte chunk each, EOR 0x88 makes the nibbles signed, and one ST4 of
// 64-bit (kbl 8) or 32-bit (kbl 4) elements writes the chunk of all four lanes. Other shapes take a
// byte-by-byte path.

#include "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon
#pragma weak kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon
// (end of the weak definitions)

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_ASSUME_MSG(k % 2 == 0, "k must be even");
    KAI_ASSUME_MSG(kr != 0 && k % kr == 0, "k must be a multiple of kr");
    KAI_ASSUME_MSG(nr != 0, "nr must be non-zero");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(bl);
}

static size_t kai_packed_stride(size_t k, size_t nr, size_t bl) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_mul_size_checked(k / bl, bl / 2 + 8), 4));
}

size_t kai_get_rhs_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, kr, bl);
    return kai_packed_stride(k, nr, bl);
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr, bl));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    kai_check_shape(k, nr, kr, bl);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr, bl));
}

// The unsigned nibble of value kk of a s0s1 row.
static inline uint8_t nibble(const uint8_t* row, size_t kk) {
    const uint8_t b = row[kk / 2];
    return (uint8_t)((kk % 2 == 0) ? (b >> 4) : (b & 0x0F));
}

// Two chunks (32 input bytes at x) of one row as two 16-byte output chunks o0, o1.
static inline void convert2(const uint8_t* x, uint8x16_t* o0, uint8x16_t* o1) {
    const uint64x2_t x0 = vreinterpretq_u64_u8(vld1q_u8(x));
    const uint64x2_t x1 = vreinterpretq_u64_u8(vld1q_u8(x + 16));
    const uint8x16_t l = vreinterpretq_u8_u64(vuzp1q_u64(x0, x1));
    const uint8x16_t h = vreinterpretq_u8_u64(vuzp2q_u64(x0, x1));
    const uint8x16_t even = vsriq_n_u8(h, l, 4);
    const uint8x16_t odd = vsliq_n_u8(l, h, 4);
    const uint8x16_t m = vdupq_n_u8(0x88);
    *o0 = veorq_u8(vzip1q_u8(even, odd), m);
    *o1 = veorq_u8(vzip2q_u8(even, odd), m);
}

// One chunk (16 input bytes at x) of one row.
static inline uint8x16_t convert1(const uint8_t* x) {
    const uint8x8_t l = vld1_u8(x);
    const uint8x8_t h = vld1_u8(x + 8);
    const uint8x8_t even = vsri_n_u8(h, l, 4);
    const uint8x8_t odd = vsli_n_u8(l, h, 4);
    return veorq_u8(vcombine_u8(vzip1_u8(even, odd), vzip2_u8(even, odd)), vdupq_n_u8(0x88));
}

static inline void store4(uint8_t* d, size_t kbl, uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t e) {
    if (kbl == 8) {
        uint64x2x4_t v;
        v.val[0] = vreinterpretq_u64_u8(a);
        v.val[1] = vreinterpretq_u64_u8(b);
        v.val[2] = vreinterpretq_u64_u8(c);
        v.val[3] = vreinterpretq_u64_u8(e);
        vst4q_u64((uint64_t*)(void*)d, v);
    } else {
        uint32x4x4_t v;
        v.val[0] = vreinterpretq_u32_u8(a);
        v.val[1] = vreinterpretq_u32_u8(b);
        v.val[2] = vreinterpretq_u32_u8(c);
        v.val[3] = vreinterpretq_u32_u8(e);
        vst4q_u32((uint32_t*)(void*)d, v);
    }
}

// Data of block b for 4 lanes, kbl 4 or 8.
static void pack_data_nr4(const uint8_t* const* rows, size_t kbl, size_t bl, size_t b, uint8_t* dst) {
    const size_t chunks = bl / 32;
    const size_t off = b * bl / 2;
    size_t c = 0;
    for (; c + 2 <= chunks; c += 2) {
        uint8x16_t a0, a1, b0, b1, c0, c1, e0, e1;
        convert2(rows[0] + off + c * 16, &a0, &a1);
        convert2(rows[1] + off + c * 16, &b0, &b1);
        convert2(rows[2] + off + c * 16, &c0, &c1);
        convert2(rows[3] + off + c * 16, &e0, &e1);
        store4(dst + c * 64, kbl, a0, b0, c0, e0);
        store4(dst + c * 64 + 64, kbl, a1, b1, c1, e1);
    }
    if (c < chunks) {
        store4(dst + c * 64, kbl, convert1(rows[0] + off + c * 16), convert1(rows[1] + off + c * 16),
               convert1(rows[2] + off + c * 16), convert1(rows[3] + off + c * 16));
    }
}

void kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const void* zero, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qai4c32p_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(sr == 2, "sr must be 2");
    KAI_ASSUME_MSG(kr >= 1 && kr <= 16 && kr % sr == 0, "kr must be 2 to 16 and a multiple of sr");
    kai_check_shape(k, nr, kr, bl);
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(zero != NULL, "zero must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 8, "params->rhs_zero_point must be 8");
    KAI_UNUSED(num_groups);
    KAI_UNUSED(extra_bytes);
    KAI_UNUSED(params);
    if (n == 0) {
        return;
    }
    const size_t kbl = kr / sr;
    const size_t nb = k / bl;
    const size_t row_bytes = k / 2;
    const size_t block = nr * (bl / 2 + 8);
    const size_t stride = kai_packed_stride(k, nr, bl);
    const float* zf = (const float*)zero;
    const float* sf = (const float*)scale;
    const float* bf = (const float*)bias;
    const int fast = nr == 4 && (kbl == 4 || kbl == 8);
    enum { kMaxLanes = 16 };
    const uint8_t* rp[kMaxLanes];
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* out = (uint8_t*)rhs_packed + (n0 / nr) * stride;
        for (size_t j0 = 0; j0 < nr; j0 += kMaxLanes) {
            // Lanes [j0, j0 + lanes) of this block of rows (at most 16 at a time for the generic path).
            const size_t lanes = KAI_MIN(nr - j0, (size_t)kMaxLanes);
            for (size_t j = 0; j < lanes; ++j) {
                rp[j] = rhs + KAI_MIN(n0 + j0 + j, n - 1) * row_bytes;
            }
            for (size_t b = 0; b < nb; ++b) {
                uint8_t* blk = out + b * block;
                if (fast) {
                    pack_data_nr4(rp, kbl, bl, b, blk);
                } else {
                    // Byte positions of lane j0 + j: write into a view whose lane 0 is lane j0.
                    for (size_t j = 0; j < lanes; ++j) {
                        for (size_t kk = 0; kk < bl; ++kk) {
                            const size_t c = kk / 32;
                            const size_t p = kk % 32;
                            if (p >= 16) continue;
                            const size_t pos = c * 16 * nr + (p / kbl) * nr * kbl + (j0 + j) * kbl + p % kbl;
                            const size_t k0 = b * bl + kk;
                            blk[pos] = (uint8_t)((nibble(rp[j], k0) | (nibble(rp[j], k0 + 16) << 4)) ^ 0x88);
                        }
                    }
                }
                uint8_t* zp = blk + nr * bl / 2;
                for (size_t j = 0; j < lanes; ++j) {
                    const size_t src = KAI_MIN(n0 + j0 + j, n - 1) * nb + b;
                    const float z = zf[src];
                    const float s = sf[src] * 0.0625F;
                    memcpy(zp + (j0 + j) * sizeof(float), &z, sizeof(float));
                    memcpy(zp + (nr + j0 + j) * sizeof(float), &s, sizeof(float));
                }
            }
            uint8_t* bp = out + nb * block;
            for (size_t j = 0; j < lanes; ++j) {
                const float v = bf != NULL ? bf[KAI_MIN(n0 + j0 + j, n - 1)] : 0.0F;
                memcpy(bp + (j0 + j) * sizeof(float), &v, sizeof(float));
            }
        }
    }
}
