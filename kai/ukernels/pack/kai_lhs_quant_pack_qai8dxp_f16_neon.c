//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "kai_lhs_quant_pack_qai8dxp_f16_neon needs AArch64 with FEAT_FP16"
#endif

// Per-row asymmetric int8 quantisation of an f16 LHS, bytes as KleidiAI's f16 packer (docs/formats.md, "qai8dxp LHS from bf16 and f16").
//
// Per row x[0..K-1], widened to f32 exactly (FCVTL), all arithmetic IEEE f32, each operation
// rounded, no fused multiply-add:
//   mn, mx = FMIN/FMAX over the row (a NaN anywhere makes both NaN)
//   rmin = fminf(0, mn), rmax = fmaxf(0, mx)  (a NaN gives 0)
//   scale = rmax == rmin ? 1 : 255 / (rmax - rmin),   recip = scale != 0 ? 1 / scale : 0
//   zp = (-128 + rmin * scale) + (127 + rmax * scale) > 0 ? -128 - rmin * scale : 127 - rmax * scale,
//        fmaxf(., -128) then fminf(., 127) (a NaN gives -128), rounded half to even -> ZP
//   q[k] = sat8(round(x[k] * scale) + ZP), with three roundings by position (see the header):
//     truncation or half-even (the vector part of KleidiAI's paths): int32 -> sat16, + ZP in
//     int16 (wrapping), sat8;
//     half away (KleidiAI's scalar part, tails and K padding): int32 + ZP in int32 (wrapping),
//     sat8.
//   The two int16/int32 orders only differ for |x * scale| > 32640, i.e. rows with a NaN (scale 1).
//
// Layout (docs/formats.md, "qai8dxp LHS"): blocks of mr rows, S = mr * (Kp + 8) bytes, Kp = roundup(K, 32); q[r][k] at
// (k / kbl) * mr * kbl + r * kbl + k % kbl, kbl = kr / sr (4 or 8); then mr int32 offsets (-ZP) and
// mr f32 scales (recip).
//
// NEON: per row one pass of FMIN/FMAX on f16 vectors (32 values a step), then per 8 values LD1,
// FCVTL/FCVTL2, 2 FMUL, 2 FCVTZS/FCVTNS/FCVTAS, SQXTN/SQXTN2, ADD, SQXTN, one or two stores.

#include "kai_lhs_quant_pack_qai8dxp_f16_neon.h"

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f16_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qai8dxp_f16_neon
#pragma weak kai_run_lhs_quant_pack_qai8dxp_f16_neon
// (end of the weak definitions)

// The row parameters must not be contracted into fused multiply-adds (GCC contracts across
// statements in its GNU modes).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static const size_t kai_k_pad = 32;  // Kp = roundup(K, 32), whatever kr and sr are

enum kai_f16q_mode { kai_mode_trunc = 0, kai_mode_even = 1, kai_mode_away = 2 };

static size_t kai_kp(size_t k) {
    return kai_roundup(k, kai_k_pad);
}

static size_t kai_block_stride(size_t k, size_t mr) {
    return kai_mul_size_checked(mr, kai_add_size_checked(kai_kp(k), 8));
}

size_t kai_get_m_step_lhs_quant_pack_qai8dxp_f16_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f16_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon(
    size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx / mr, kai_block_stride(k, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), kai_block_stride(k, mr));
}

/// Quantisation parameters of one row.
struct kai_f16q_row {
    float scale;  // quantisation multiplier
    float recip;  // stored dequantisation scale
    int32_t zp;   // ZP; the stored offset is -ZP
};

// Rounds v (in [-128, 127]) to the nearest integer, ties to even.
static int32_t kai_round_half_even(float v) {
    int32_t t = (int32_t)v;        // truncates
    const float f = v - (float)t;  // exact
    if (f > 0.5F || (f == 0.5F && (t & 1) != 0)) {
        t += 1;
    } else if (f < -0.5F || (f == -0.5F && (t & 1) != 0)) {
        t -= 1;
    }
    return t;
}

// docs/formats.md, "qai8dxp LHS" steps 2-7 with KleidiAI's fminf/fmaxf: mn, mx may be NaN or infinite.
static struct kai_f16q_row kai_row_params(float mn, float mx) {
    struct kai_f16q_row p;
    const float rmin = mn < 0.0F ? mn : 0.0F;  // fminf(0, mn): NaN gives 0
    const float rmax = mx > 0.0F ? mx : 0.0F;
    p.scale = rmin == rmax ? 1.0F : 255.0F / (rmax - rmin);
    p.recip = p.scale != 0.0F ? 1.0F / p.scale : 0.0F;
    const float dmin = rmin * p.scale;
    const float dmax = rmax * p.scale;
    const float e_min = -128.0F + dmin;
    const float e_max = 127.0F + dmax;
    float zp = (e_min + e_max > 0.0F) ? (-128.0F - dmin) : (127.0F - dmax);
    zp = zp >= -128.0F ? zp : -128.0F;  // fmaxf(zp, -128): NaN gives -128
    zp = zp <= 127.0F ? zp : 127.0F;
    p.zp = kai_round_half_even(zp);
    return p;
}

// Quantises 4 widened values to int16 lanes before the final int8 saturation (see the top).
static inline int16x4_t kai_q4(float32x4_t x, float32x4_t vs, int32x4_t vzp32, int16x4_t vzp16, int mode) {
    const float32x4_t v = vmulq_f32(x, vs);
    if (mode == kai_mode_away) {
        return vqmovn_s32(vreinterpretq_s32_u32(vaddq_u32(
            vreinterpretq_u32_s32(vcvtaq_s32_f32(v)), vreinterpretq_u32_s32(vzp32))));
    }
    const int32x4_t t = mode == kai_mode_trunc ? vcvtq_s32_f32(v) : vcvtnq_s32_f32(v);
    // Wrapping int16 add (see the top): an unsigned ADD, the same instruction without C's signed overflow.
    return vreinterpret_s16_u16(vadd_u16(vreinterpret_u16_s16(vqmovn_s32(t)), vreinterpret_u16_s16(vzp16)));
}

// Stores the 8 values of logical K positions i..i+7 (i a multiple of 4) of a lane.
static inline void kai_store8(int8_t* lane, size_t i, size_t gs, size_t kbl, int8x8_t q) {
    if (kbl == 8) {
        vst1_s8(lane + (i / 8) * gs, q);
    } else {
        const uint32x2_t w = vreinterpret_u32_s8(q);
        const uint32_t w0 = vget_lane_u32(w, 0);
        const uint32_t w1 = vget_lane_u32(w, 1);
        memcpy(lane + (i / 4) * gs, &w0, 4);
        memcpy(lane + (i / 4 + 1) * gs, &w1, 4);
    }
}

// Quantises and stores 8 values starting at i from the f16 vector h: the first `split` use `mode`,
// the rest half away (split is 0, 4 or 8).
// zlo and zhi: the int16 zero points of the first and second 4 values in the vector rounding.
static inline void kai_quant8(
    float16x8_t h, size_t i, size_t split, int mode, float32x4_t vs, int32x4_t vzp32, int16x4_t zlo, int16x4_t zhi,
    int8_t* lane, size_t gs, size_t kbl) {
    const float32x4_t lo = vcvt_f32_f16(vget_low_f16(h));
    const float32x4_t hi = vcvt_high_f32_f16(h);
    const int16x4_t a = kai_q4(lo, vs, vzp32, zlo, split >= 4 ? mode : kai_mode_away);
    const int16x4_t b = kai_q4(hi, vs, vzp32, zhi, split >= 8 ? mode : kai_mode_away);
    kai_store8(lane, i, gs, kbl, vqmovn_s16(vcombine_s16(a, b)));
}

// The main loop, one rounding mode for all of [0, end) (end a multiple of 8): 16 values a step,
// the store pointer stepping by the group stride. z holds the zero points of the two 4-groups; the
// int16 add wraps (unsigned ADD, see the top).
#define KAI_Q8(h, cvt)                                                                              \
    vqmovn_s16(vreinterpretq_s16_u16(vaddq_u16(                                                     \
        vreinterpretq_u16_s16(vqmovn_high_s32(vqmovn_s32(cvt(vmulq_f32(vcvt_f32_f16(vget_low_f16(h)), vs))), \
                                              cvt(vmulq_f32(vcvt_high_f32_f16(h), vs)))),             \
        vreinterpretq_u16_s16(z))))
#define KAI_QUANT_RUN(cvt)                                                                          \
    do {                                                                                            \
        size_t i = 0;                                                                               \
        int8_t* out = lane;                                                                         \
        if (kbl == 8) {                                                                             \
            for (; i + 16 <= end; i += 16) {                                                        \
                const float16x8_t h0 = vld1q_f16(x + i);                                            \
                const float16x8_t h1 = vld1q_f16(x + i + 8);                                        \
                vst1_s8(out, KAI_Q8(h0, cvt));                                                      \
                vst1_s8(out + gs, KAI_Q8(h1, cvt));                                                 \
                out += 2 * gs;                                                                      \
            }                                                                                       \
            if (i < end) {                                                                          \
                const float16x8_t h0 = vld1q_f16(x + i);                                            \
                vst1_s8(out, KAI_Q8(h0, cvt));                                                      \
            }                                                                                       \
        } else {                                                                                    \
            for (; i < end; i += 8) {                                                               \
                const float16x8_t h0 = vld1q_f16(x + i);                                            \
                kai_store8(out, 0, gs, 4, KAI_Q8(h0, cvt));                                         \
                out += 2 * gs;                                                                      \
            }                                                                                       \
        }                                                                                           \
    } while (0)

static void kai_quant_run_trunc(
    const float16_t* x, size_t end, float32x4_t vs, int16x8_t z, int8_t* lane, size_t gs, size_t kbl) {
    KAI_QUANT_RUN(vcvtq_s32_f32);
}

static void kai_quant_run_even(
    const float16_t* x, size_t end, float32x4_t vs, int16x8_t z, int8_t* lane, size_t gs, size_t kbl) {
    KAI_QUANT_RUN(vcvtnq_s32_f32);
}

#undef KAI_QUANT_RUN
#undef KAI_Q8

// The quantisation parameters of row x[0..k-1].
static struct kai_f16q_row kai_row_of(const float16_t* x, size_t k) {
    // Min / max: FMIN / FMAX keep a NaN, which then shows in both results.
    float16x8_t mn0 = vdupq_n_f16((float16_t)65504.0F);
    float16x8_t mx0 = vdupq_n_f16((float16_t)-65504.0F);
    float16x8_t mn1 = mn0;
    float16x8_t mx1 = mx0;
    size_t i = 0;
    float16x8_t mn2 = mn0;
    float16x8_t mx2 = mx0;
    float16x8_t mn3 = mn0;
    float16x8_t mx3 = mx0;
    for (; i + 32 <= k; i += 32) {
        const float16x8_t a = vld1q_f16(x + i);
        const float16x8_t b = vld1q_f16(x + i + 8);
        const float16x8_t c = vld1q_f16(x + i + 16);
        const float16x8_t d = vld1q_f16(x + i + 24);
        mn0 = vminq_f16(mn0, a);
        mx0 = vmaxq_f16(mx0, a);
        mn1 = vminq_f16(mn1, b);
        mx1 = vmaxq_f16(mx1, b);
        mn2 = vminq_f16(mn2, c);
        mx2 = vmaxq_f16(mx2, c);
        mn3 = vminq_f16(mn3, d);
        mx3 = vmaxq_f16(mx3, d);
    }
    for (; i + 8 <= k; i += 8) {
        const float16x8_t a = vld1q_f16(x + i);
        mn0 = vminq_f16(mn0, a);
        mx0 = vmaxq_f16(mx0, a);
    }
    mn0 = vminq_f16(vminq_f16(mn0, mn2), vminq_f16(mn1, mn3));
    mx0 = vmaxq_f16(vmaxq_f16(mx0, mx2), vmaxq_f16(mx1, mx3));
    float mn = (float)vminvq_f16(mn0);
    float mx = (float)vmaxvq_f16(mx0);
    for (; i < k; ++i) {
        const float v = (float)x[i];
        mn = (v != v || mn != mn) ? v + mn : (v < mn ? v : mn);
        mx = (v != v || mx != mx) ? v + mx : (v > mx ? v : mx);
    }

    return kai_row_params(mn, mx);
}

// Packs one row into its lane (lane at r * kbl inside the block) with parameters p: `mode` is the
// rounding of the vector part (trunc or even), for K positions below `split`, where the zero points
// of the first and second 4 values of each 8 are zlo and zhi (the row's own, except on KleidiAI's
// four-row path with kbl = 4); offset and scale go to tail + 4 r and tail + 4 mr + 4 r.
static void kai_pack_row(
    const float16_t* x, size_t k, struct kai_f16q_row p, int32_t zlo_s, int32_t zhi_s, size_t kbl, size_t gs,
    int8_t* lane, int mode, size_t split, uint8_t* tail, size_t mr, size_t r) {
    size_t i;
    const float32x4_t vs = vdupq_n_f32(p.scale);
    const int32x4_t vzp32 = vdupq_n_s32(p.zp);
    const int16x4_t zlo = vdup_n_s16((int16_t)zlo_s);
    const int16x4_t zhi = vdup_n_s16((int16_t)zhi_s);
    const int32_t offset = -p.zp;
    memcpy(tail + 4 * r, &offset, sizeof(offset));
    memcpy(tail + 4 * mr + 4 * r, &p.recip, sizeof(p.recip));

    // [0, split8): the vector rounding; [split8, full): 8 at a time with split at `split`; then the
    // last partial 8 and the K padding from a buffer repeating x[K-1], half away.
    const size_t full = k & ~(size_t)7;
    const size_t split8 = split & ~(size_t)7;
    if (mode == kai_mode_trunc) {
        kai_quant_run_trunc(x, split8, vs, vcombine_s16(zlo, zhi), lane, gs, kbl);
    } else {
        kai_quant_run_even(x, split8, vs, vcombine_s16(zlo, zhi), lane, gs, kbl);
    }
    for (i = split8; i < full; i += 8) {
        const size_t s = split > i ? split - i : 0;
        kai_quant8(vld1q_f16(x + i), i, s, mode, vs, vzp32, zlo, zhi, lane, gs, kbl);
    }
    const size_t kp = kai_kp(k);
    if (full < kp) {
        float16_t buf[8];
        for (size_t j = 0; j < 8; ++j) {
            buf[j] = x[full + j < k ? full + j : k - 1];
        }
        kai_quant8(vld1q_f16(buf), full, 0, kai_mode_away, vs, vzp32, zlo, zhi, lane, gs, kbl);
        if (full + 8 < kp) {
            const float16x8_t last = vdupq_n_f16(x[k - 1]);
            for (i = full + 8; i < kp; i += 8) {
                kai_quant8(last, i, 0, kai_mode_away, vs, vzp32, zlo, zhi, lane, gs, kbl);
            }
        }
    }
}

void kai_run_lhs_quant_pack_qai8dxp_f16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_ASSUME_MSG(kr / sr == 4 || kr / sr == 8, "kr / sr must be 4 or 8");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(lhs_stride % 2 == 0 && lhs_stride >= k * 2, "lhs_stride must be even and at least k * 2");
    KAI_ASSUME_MSG(mr != 4 || m < 4 || m_idx_start % 4 == 0, "m_idx_start must be a multiple of 4 when mr is 4");

    const size_t kbl = kr / sr;
    const size_t kp = kai_kp(k);
    const size_t gs = mr * kbl;
    const size_t stride = kai_block_stride(k, mr);
    // KleidiAI's paths (docs/formats.md, "qai8dxp LHS from bf16 and f16"): rows in complete groups of 4 when mr == 4 truncate up to the last
    // full 8-group; the other rows round half to even, stopping one vector step early.
    const size_t four_rows = mr == 4 ? (m & ~(size_t)3) : 0;
    const size_t split_four = k & ~(size_t)7;
    const size_t steps = k / kbl;
    const size_t back = kbl == 8 ? 1 : 2;
    const size_t split_one = steps > back ? (steps - back) * kbl : 0;
    uint8_t* block = (uint8_t*)lhs_packed;
    struct kai_f16q_row quad[4];
    for (size_t row = 0; row < m; ++row) {
        const size_t r = (row + m_idx_start) % mr;
        const float16_t* x = (const float16_t*)(const void*)((const uint8_t*)lhs + row * lhs_stride);
        const int four = row < four_rows;
        if (four && row % 4 == 0) {
            for (size_t j = 0; j < 4; ++j) {
                quad[j] = kai_row_of((const float16_t*)(const void*)((const uint8_t*)x + j * lhs_stride), k);
            }
        }
        const struct kai_f16q_row p = four ? quad[row % 4] : kai_row_of(x, k);
        int32_t zlo = p.zp;
        int32_t zhi = p.zp;
        if (four && kbl == 4) {
            // KleidiAI's four-row path with kbl = 4 adds, to the two 4-groups of each 8 values, the
            // zero points of rows 2 h + r / 2 (h = 0, 1) of the group of 4 rows, not the row's own.
            zlo = quad[r / 2].zp;
            zhi = quad[2 + r / 2].zp;
        }
        kai_pack_row(
            x, k, p, zlo, zhi, kbl, gs, (int8_t*)(block + r * kbl), four ? kai_mode_trunc : kai_mode_even,
            four ? split_four : split_one, block + mr * kp, mr, r);
        if (r == mr - 1) {
            block += stride;
        }
    }
}
