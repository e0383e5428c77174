//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs GGUF Q4_K rows for the q4kp kernels (AArch64 NEON, layout in docs/matmul_gguf_kquants.md).
// Per 4 columns and super-block: the 6-bit scales and mins of each column are unpacked with a
// few 8-byte vector operations (AND, USHR/SHL, ORR, a ZIP on 32-bit lanes), widened to int16 and
// transposed to [j][c] by ST4; the 128 nibble bytes of the 4 columns are interleaved 8 bytes at a
// time by ZIP1/ZIP2 on 64-bit lanes. About 0.2 instructions per weight.

#include "kai_rhs_pack_nxk_q4kp_q4k_neon.h"

#if !defined(__aarch64__)
#error "kai_rhs_pack_nxk_q4kp_q4k_neon needs AArch64"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_compat_paths.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_nxk_q4kp_q4k_neon
#pragma weak kai_get_rhs_offset_rhs_pack_nxk_q4kp_q4k_neon
#pragma weak kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon
#pragma weak kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon
#pragma weak kai_get_rhs_packed_stride_rhs_pack_nxk_q4kp_q4k_neon
#pragma weak kai_run_rhs_pack_nxk_q4kp_q4k_neon
// (end of the weak definitions)

enum { KAI_QK = 256, KAI_SRC_BLOCK = 144, KAI_NR = 4, KAI_PACKED_BLOCK = 672 };

static void kai_check_shape(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_ALWAYS_MSG(k != 0 && k % KAI_QK == 0, "k must be a non-zero multiple of 256");
    KAI_ASSUME_MSG(nr == KAI_NR, "nr must be 4");
    KAI_ASSUME_MSG(kr == 4 || kr == 8, "kr must be 4 or 8 (the layout is the same)");
    KAI_ASSUME_MSG(sr == 1, "sr must be 1");
    KAI_UNUSED(k);
    KAI_UNUSED(nr);
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
}

size_t kai_get_n_step_rhs_pack_nxk_q4kp_q4k_neon(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_nxk_q4kp_q4k_neon(size_t n_idx, size_t rhs_stride) {
    return kai_mul_size_checked(n_idx, rhs_stride);
}

size_t kai_get_rhs_packed_stride_rhs_pack_nxk_q4kp_q4k_neon(size_t k, size_t nr, size_t kr, size_t sr) {
    kai_check_shape(k, nr, kr, sr);
    return kai_add_size_checked(kai_mul_size_checked(k / KAI_QK, KAI_PACKED_BLOCK), KAI_NR * sizeof(float));
}

size_t kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(n_idx % KAI_NR == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / KAI_NR, kai_get_rhs_packed_stride_rhs_pack_nxk_q4kp_q4k_neon(k, nr, kr, sr));
}

size_t kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    return kai_mul_size_checked(kai_div_ceil(n, KAI_NR), kai_get_rhs_packed_stride_rhs_pack_nxk_q4kp_q4k_neon(k, nr, kr, sr));
}

// Unpacks the 12 scale bytes at s (get_scale_min_k4): sc[j] and m[j] for j = 0..7, as int16.
static void kai_unpack_scales(const uint8_t* s, int16x8_t* sc, int16x8_t* m) {
    uint8_t bytes[16];
    memcpy(bytes, s, 12);
    memcpy(bytes + 12, s + 8, 4);
    const uint8x16_t v = vld1q_u8(bytes);
    const uint8x8_t a = vget_low_u8(v);   // bytes 0..7
    const uint8x8_t b = vget_high_u8(v);  // bytes 8..11 twice
    const uint8x8_t low6 = vand_u8(a, vdup_n_u8(63));                       // sc0..3, m0..3
    const uint8x8_t top2 = vshl_n_u8(vshr_n_u8(a, 6), 4);                   // bits 4-5 of sc4..7, m4..7
    const int8x8_t shifts = {0, 0, 0, 0, -4, -4, -4, -4};
    const uint8x8_t nib = vshl_u8(vand_u8(b, vcreate_u8(0xF0F0F0F00F0F0F0FULL)), shifts);
    const uint8x8_t high = vorr_u8(nib, top2);                              // sc4..7, m4..7
    const uint32x2_t lo32 = vreinterpret_u32_u8(low6);
    const uint32x2_t hi32 = vreinterpret_u32_u8(high);
    *sc = vreinterpretq_s16_u16(vmovl_u8(vreinterpret_u8_u32(vzip1_u32(lo32, hi32))));
    *m = vreinterpretq_s16_u16(vmovl_u8(vreinterpret_u8_u32(vzip2_u32(lo32, hi32))));
}

void kai_run_rhs_pack_nxk_q4kp_q4k_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, const void* rhs, size_t rhs_stride, const float* bias,
    void* rhs_packed) {
    kai_check_shape(k, nr, kr, sr);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_IF_MSG(n > 1, rhs_stride >= k / KAI_QK * KAI_SRC_BLOCK, "rhs_stride must be at least k / 256 * 144");
    static const uint8_t zero_block[KAI_SRC_BLOCK] = {0};
    const size_t nb = k / KAI_QK;
    uint8_t* out = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += KAI_NR) {
        const uint8_t* src[KAI_NR];
        for (size_t c = 0; c < KAI_NR; ++c) {
            src[c] = n0 + c < n ? (const uint8_t*)rhs + (n0 + c) * rhs_stride : NULL;
        }
        for (size_t b = 0; b < nb; ++b) {
            const uint8_t* blk[KAI_NR];
            float d[KAI_NR];
            float dmin[KAI_NR];
            int16x8x4_t sc;
            int16x8x4_t mn;
            for (size_t c = 0; c < KAI_NR; ++c) {
                blk[c] = src[c] != NULL ? src[c] + b * KAI_SRC_BLOCK : zero_block;
                uint16_t h[2];
                memcpy(h, blk[c], sizeof(h));
                d[c] = kai_cast_f32_f16(h[0]);
                dmin[c] = kai_cast_f32_f16(h[1]);
                kai_unpack_scales(blk[c] + 4, &sc.val[c], &mn.val[c]);
            }
            memcpy(out, d, sizeof(d));
            memcpy(out + 16, dmin, sizeof(dmin));
            vst4q_s16((int16_t*)(out + 32), sc);
            vst4q_s16((int16_t*)(out + 96), mn);
            uint8_t* q = out + 160;
            for (size_t h = 0; h < 4; ++h) {
                uint64x2_t lo[KAI_NR];
                uint64x2_t hi[KAI_NR];
                for (size_t c = 0; c < KAI_NR; ++c) {
                    lo[c] = vreinterpretq_u64_u8(vld1q_u8(blk[c] + 16 + 32 * h));
                    hi[c] = vreinterpretq_u64_u8(vld1q_u8(blk[c] + 16 + 32 * h + 16));
                }
                uint8_t* o = q + 128 * h;
                vst1q_u8(o + 0, vreinterpretq_u8_u64(vzip1q_u64(lo[0], lo[1])));
                vst1q_u8(o + 16, vreinterpretq_u8_u64(vzip1q_u64(lo[2], lo[3])));
                vst1q_u8(o + 32, vreinterpretq_u8_u64(vzip2q_u64(lo[0], lo[1])));
                vst1q_u8(o + 48, vreinterpretq_u8_u64(vzip2q_u64(lo[2], lo[3])));
                vst1q_u8(o + 64, vreinterpretq_u8_u64(vzip1q_u64(hi[0], hi[1])));
                vst1q_u8(o + 80, vreinterpretq_u8_u64(vzip1q_u64(hi[2], hi[3])));
                vst1q_u8(o + 96, vreinterpretq_u8_u64(vzip2q_u64(hi[0], hi[1])));
                vst1q_u8(o + 112, vreinterpretq_u8_u64(vzip2q_u64(hi[2], hi[3])));
            }
            out += KAI_PACKED_BLOCK;
        }
        float bv[KAI_NR] = {0.0F, 0.0F, 0.0F, 0.0F};
        for (size_t c = 0; c < KAI_NR && bias != NULL && n0 + c < n; ++c) {
            bv[c] = bias[n0 + c];
        }
        memcpy(out, bv, sizeof(bv));
        out += sizeof(bv);
    }
}
