//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Per-row asymmetric int8 quantisation of an f32 LHS (portable C; NEON path on AArch64 with
// bit-identical results).
//
// Operation, per row x[0..K-1] (IEEE f32, every operation rounded, no fused multiply-add):
//   rmin = min(0, min x), rmax = max(0, max x)
//   scale = rmax == rmin ? 1 : 255 / (rmax - rmin),   recip = 1 / scale
//   dmin = rmin * scale, dmax = rmax * scale
//   zp = (-128 + dmin) + (127 + dmax) > 0 ? -128 - dmin : 127 - dmax, clamped to [-128, 127],
//        rounded half to even -> ZP
//   q[k] = clamp(round_half_away(x[k] * scale) + ZP, -128, 127)
//
// Packed layout (one block of mr rows, S = mr * (Kp + 8) bytes, Kp = roundup(K, 32)): int8 data
// interleaved in groups of kbl = kr / sr values, q[r][k] at (k / kbl) * mr * kbl + r * kbl + k % kbl,
// K positions K..Kp-1 repeating q[r][K-1]; then mr int32 offsets (-ZP), then mr f32 scales (recip).
// Lanes past the last row are not written. See docs/matmul_int4_channelwise.md.
//
// NEON path: min/max with FMIN/FMAX (NaN propagates, which flags the row), then per 16 values
// FMUL, FCVTAS (ties away, as the scalar rounding), saturating narrow to int16, add ZP, saturating
// narrow to int8 (= the clamp). Rows with a NaN or an overflowing multiplier (a range below
// ~7.5e-37) take a scalar path with KleidiAI's arithmetic (kai_pack_row_special).

#include "kai_lhs_quant_pack_qai8dxp_f32.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#if defined(__aarch64__)
#include <arm_neon.h>

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32
#pragma weak kai_get_m_step_lhs_quant_pack_qai8dxp_f32
#pragma weak kai_run_lhs_quant_pack_qai8dxp_f32
// (end of the weak definitions)
#endif

// The epilogue of the row parameters must not be contracted into fused multiply-adds (GCC
// contracts across statements in its GNU modes), or the zero point would differ from the spec's.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(__aarch64__)
// Wrapping int16 add: an unsigned ADD, the same instruction (and bytes) as vaddq_s16 without the
// undefined behaviour of C's signed overflow should a lane wrap.
static inline int16x8_t kai_add_wrap_s16(int16x8_t a, int16x8_t b) {
    return vreinterpretq_s16_u16(vaddq_u16(vreinterpretq_u16_s16(a), vreinterpretq_u16_s16(b)));
}
#endif

static const size_t kai_k_pad = 32;  // Kp = roundup(K, 32), whatever kr and sr are

/// Quantisation parameters of one row.
struct kai_qai8dx_row {
    float scale;   // quantisation multiplier
    float recip;   // stored dequantisation scale
    int32_t zp;    // ZP; the stored offset is -ZP
};

static size_t kai_kp(size_t k) {
    return kai_roundup(k, kai_k_pad);
}

static size_t kai_block_stride(size_t k, size_t mr) {
    return kai_mul_size_checked(mr, kai_add_size_checked(kai_kp(k), 8));
}

size_t kai_get_m_step_lhs_quant_pack_qai8dxp_f32(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx / mr, kai_block_stride(k, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), kai_block_stride(k, mr));
}

// Rounds v to the nearest integer, ties to even (rintf in the default mode). |v| <= 128.
static int32_t kai_round_half_even(float v) {
    int32_t t = (int32_t)v;  // truncates
    const float f = v - (float)t;  // exact
    if (f > 0.5F || (f == 0.5F && (t & 1) != 0)) {
        t += 1;
    } else if (f < -0.5F || (f == -0.5F && (t & 1) != 0)) {
        t -= 1;
    }
    return t;
}

// Returns clamp(round_half_away(x * scale) + zp, -128, 127) (roundf; FCVTAS on NEON).
static int8_t kai_quantize(float x, float scale, int32_t zp) {
    const float v = x * scale;  // |v| <= 255 * (1 + eps) for a finite row
    int32_t t = (int32_t)v;
    const float f = v - (float)t;
    if (f >= 0.5F) {
        t += 1;
    } else if (f <= -0.5F) {
        t -= 1;
    }
    t += zp;
    t = t < -128 ? -128 : (t > 127 ? 127 : t);
    return (int8_t)t;
}

// docs/formats.md, "qai8dxp LHS" steps 2-7 in IEEE f32, as KleidiAI computes them, from the row's minimum and maximum
// (NaN and infinities included): rmin = fminf(0, mn), rmax = fmaxf(0, mx) (0 for a NaN);
// scale = rmin == rmax ? 1 : 255 / (rmax - rmin) (255 / inf = 0, 255 / tiny = inf);
// recip = scale != 0 ? 1 / scale : 0; zp clamped by fmaxf(., -128) (-128 for a NaN), then
// fminf(., 127), rounded half to even.
static struct kai_qai8dx_row kai_row_params(float mn, float mx) {
    struct kai_qai8dx_row p;
    const float rmin = mn < 0.0F ? mn : 0.0F;
    const float rmax = mx > 0.0F ? mx : 0.0F;
    p.scale = rmin == rmax ? 1.0F : 255.0F / (rmax - rmin);
    p.recip = p.scale != 0.0F ? 1.0F / p.scale : 0.0F;
    const float dmin = rmin * p.scale;
    const float dmax = rmax * p.scale;
    const float e_min = -128.0F + dmin;
    const float e_max = 127.0F + dmax;
    float zp = (e_min + e_max > 0.0F) ? (-128.0F - dmin) : (127.0F - dmax);
    zp = zp >= -128.0F ? zp : -128.0F;
    zp = zp <= 127.0F ? zp : 127.0F;
    p.zp = kai_round_half_even(zp);
    return p;
}

// Rows the fast path does not take: a NaN, or a multiplier that overflows (every |x| below ~7.5e-37
// makes 255 / range +inf). An infinity in the row, or a finite range that overflows f32, gives
// 255 / range = 0 (the fast path's FMIN / FMAX start at 0, so mn <= 0 <= mx): the fast path then
// writes ZP for every datum (x * 0 = 0, inf * 0 = NaN -> 0), which are KleidiAI's bytes
// (test/data/compat/*__special_*). An ordinary row pays two compares.
static int kai_is_special(int nan, float scale) {
    return nan || !(scale <= FLT_MAX);
}

// Converts v to int32 as FCVTAS does: rounded half away from zero, saturated, NaN to 0.
static int32_t kai_cvt_away_sat(float v) {
    if (v != v) {
        return 0;
    }
    if (v >= 2147483648.0F) {
        return INT32_MAX;
    }
    if (v <= -2147483648.0F) {
        return INT32_MIN;
    }
    int32_t t = (int32_t)v;  // |v| < 2^31: truncates without overflow
    const float f = v - (float)t;  // exact; 0 once |v| >= 2^23
    if (f >= 0.5F) {
        t += 1;
    } else if (f <= -0.5F) {
        t -= 1;
    }
    return t;
}

// Two's complement value of the low `bits` bits of u (16 or 32), without implementation-defined
// conversions.
static int32_t kai_wrap(uint32_t u, unsigned bits) {
    const uint32_t mask = bits == 32 ? 0xFFFFFFFFU : ((1U << bits) - 1U);
    const uint32_t sign = 1U << (bits - 1);
    u &= mask;
    return (u & sign) != 0 ? -(int32_t)(mask - u) - 1 : (int32_t)u;
}

// A special row (kai_is_special), packed with KleidiAI's arithmetic (docs/formats.md, "qai8dxp LHS" in IEEE f32):
//   min / max: NaN-propagating FMIN / FMAX over x[0 .. 8 floor(K/8)), then fminf / fmaxf (FMINNM /
//     FMAXNM: a quiet NaN operand is skipped, a signalling one gives NaN) over the rest of the row,
//     starting from FLT_MAX / -FLT_MAX;
//   rmin = fminf(0, min), rmax = fmaxf(0, max); scale = rmin == rmax ? 1 : 255 / (rmax - rmin)
//     (255 / inf = 0, 255 / tiny = inf); recip = scale != 0 ? 1 / scale : 0; the zero point as
//     for any row, fmaxf(., -128) turning a NaN into -128;
//   data: v = x * scale converted half away and saturated to int32 (NaN -> 0); for kbl 4 or 8 and
//     K positions below kbl floor(K / kbl) (KleidiAI's NEON blocks) saturated to int16 and ZP added
//     in int16 (wrapping), elsewhere (other kbl, the last partial block and the K padding, x[K-1])
//     ZP added in int32 (wrapping); clamped to [-128, 127].
// So a row with -inf (and a finite maximum) packs data 127, offset -127, scale 0; with +inf, or
// both, -128, 128, 0; a NaN is skipped where fminf / fmaxf see it and otherwise turns the range
// into [0, 0] (scale 1, ZP 127).
static KAI_NEVER_INLINE void kai_pack_row_special(
    const float* x, size_t k, size_t mr, size_t kbl, int8_t* lane, uint8_t* tail, size_t r) {
    const size_t k_vec = k & ~(size_t)7;
    float mn = FLT_MAX;
    float mx = -FLT_MAX;
    int nan = 0;
    for (size_t i = 0; i < k_vec; ++i) {
        const float v = x[i];
        nan |= v != v;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }
    if (nan) {
        const uint32_t qnan_bits = 0x7FC00000U;  // FMINV / FMAXV of a NaN lane
        memcpy(&mn, &qnan_bits, sizeof(mn));
        mx = mn;
    }
    for (size_t i = k_vec; i < k; ++i) {
        const float v = x[i];
        uint32_t bits;
        memcpy(&bits, &v, sizeof(bits));
        if (v == v) {
            mn = (mn != mn || v < mn) ? v : mn;
            mx = (mx != mx || v > mx) ? v : mx;
        } else if ((bits & 0x00400000U) == 0) {
            // FMINNM / FMAXNM skip a quiet NaN but return a NaN for a signalling one.
            const uint32_t qnan_bits = 0x7FC00000U;
            memcpy(&mn, &qnan_bits, sizeof(mn));
            mx = mn;
        }
    }
    const struct kai_qai8dx_row p = kai_row_params(mn, mx);
    const float scale = p.scale;
    const float recip = p.recip;
    const int32_t zp = p.zp;
    const size_t k_int16 = (kbl == 4 || kbl == 8) ? k / kbl * kbl : 0;
    const size_t group_stride = mr * kbl;
    for (size_t j = 0; j < kai_kp(k); ++j) {
        int32_t t = kai_cvt_away_sat(x[j < k ? j : k - 1] * scale);
        if (j < k_int16) {
            t = t < -32768 ? -32768 : (t > 32767 ? 32767 : t);
            t = kai_wrap((uint32_t)t + (uint32_t)zp, 16);
        } else {
            t = kai_wrap((uint32_t)t + (uint32_t)zp, 32);
        }
        t = t < -128 ? -128 : (t > 127 ? 127 : t);
        lane[(j / kbl) * group_stride + j % kbl] = (int8_t)t;
    }
    const int32_t offset = -zp;
    memcpy(tail + 4 * r, &offset, sizeof(offset));
    memcpy(tail + 4 * mr + 4 * r, &recip, sizeof(recip));
}

// Scalar min/max over x[k0..k-1], folded into *mn, *mx, *nan.
static void kai_minmax_scalar(const float* x, size_t k0, size_t k, float* mn, float* mx, int* nan) {
    for (size_t i = k0; i < k; ++i) {
        const float v = x[i];
        if (v != v) {
            *nan = 1;
        }
        *mn = v < *mn ? v : *mn;
        *mx = v > *mx ? v : *mx;
    }
}

// Writes one quantised value of lane r at logical position i.
static void kai_put(int8_t* lane, size_t i, size_t group_stride, size_t kbl, int8_t q) {
    lane[(i / kbl) * group_stride + i % kbl] = q;
}

#if defined(__aarch64__)
// Quantises 32 values to int16 lanes before the clamp: round_away(x * scale) + ZP (the int8 saturation
// follows in the caller's narrowing).
static inline void kai_quantize32(const float* x, float32x4_t vs, int16x8_t vzp, int16x8_t out[4]) {
    const float32x4x4_t a = vld1q_f32_x4(x);
    const float32x4x4_t b = vld1q_f32_x4(x + 16);
    const int32x4_t a0 = vcvtaq_s32_f32(vmulq_f32(a.val[0], vs));
    const int32x4_t a1 = vcvtaq_s32_f32(vmulq_f32(a.val[1], vs));
    const int32x4_t a2 = vcvtaq_s32_f32(vmulq_f32(a.val[2], vs));
    const int32x4_t a3 = vcvtaq_s32_f32(vmulq_f32(a.val[3], vs));
    const int32x4_t b0 = vcvtaq_s32_f32(vmulq_f32(b.val[0], vs));
    const int32x4_t b1 = vcvtaq_s32_f32(vmulq_f32(b.val[1], vs));
    const int32x4_t b2 = vcvtaq_s32_f32(vmulq_f32(b.val[2], vs));
    const int32x4_t b3 = vcvtaq_s32_f32(vmulq_f32(b.val[3], vs));
    // |round(x * scale)| <= 256: UZP1 (the low halves) narrows to int16 exactly, in one
    // instruction per 8 values.
    out[0] = kai_add_wrap_s16(vuzp1q_s16(vreinterpretq_s16_s32(a0), vreinterpretq_s16_s32(a1)), vzp);
    out[1] = kai_add_wrap_s16(vuzp1q_s16(vreinterpretq_s16_s32(a2), vreinterpretq_s16_s32(a3)), vzp);
    out[2] = kai_add_wrap_s16(vuzp1q_s16(vreinterpretq_s16_s32(b0), vreinterpretq_s16_s32(b1)), vzp);
    out[3] = kai_add_wrap_s16(vuzp1q_s16(vreinterpretq_s16_s32(b2), vreinterpretq_s16_s32(b3)), vzp);
}
#endif

// Packs one row into its lane (lane points at r * kbl inside the block; tail at the block's
// offsets/scales area).
static void kai_pack_row(
    const float* x, size_t k, size_t mr, size_t kbl, int8_t* lane, uint8_t* tail, size_t r) {
    const size_t kp = kai_kp(k);
    const size_t group_stride = mr * kbl;
    float mn = 0.0F;
    float mx = 0.0F;
    int nan = 0;
    size_t i = 0;

#if defined(__aarch64__)
    const int fast = (mr == 1 || kbl == 8 || kbl == 16);
    if (fast) {
        // 64 values per step, eight independent min/max chains.
        float32x4_t vmn[4];
        float32x4_t vmx[4];
        for (size_t v = 0; v < 4; ++v) {
            vmn[v] = vdupq_n_f32(0.0F);
            vmx[v] = vdupq_n_f32(0.0F);
        }
        const float* src = x;
        const float* const src_end = x + (k & ~(size_t)63);
        for (; src != src_end; src += 64) {
            for (size_t h = 0; h < 64; h += 16) {
                const float32x4x4_t a = vld1q_f32_x4(src + h);
                vmn[0] = vminq_f32(vmn[0], a.val[0]);
                vmx[0] = vmaxq_f32(vmx[0], a.val[0]);
                vmn[1] = vminq_f32(vmn[1], a.val[1]);
                vmx[1] = vmaxq_f32(vmx[1], a.val[1]);
                vmn[2] = vminq_f32(vmn[2], a.val[2]);
                vmx[2] = vmaxq_f32(vmx[2], a.val[2]);
                vmn[3] = vminq_f32(vmn[3], a.val[3]);
                vmx[3] = vmaxq_f32(vmx[3], a.val[3]);
            }
        }
        i = k & ~(size_t)63;
        for (; i + 4 <= k; i += 4) {
            const float32x4_t a = vld1q_f32(x + i);
            vmn[0] = vminq_f32(vmn[0], a);
            vmx[0] = vmaxq_f32(vmx[0], a);
        }
        // FMIN/FMAX propagate NaN: a NaN anywhere shows up in both reductions.
        const float32x4_t vmn_all = vminq_f32(vminq_f32(vmn[0], vmn[1]), vminq_f32(vmn[2], vmn[3]));
        const float32x4_t vmx_all = vmaxq_f32(vmaxq_f32(vmx[0], vmx[1]), vmaxq_f32(vmx[2], vmx[3]));
        mn = vminvq_f32(vmn_all);
        mx = vmaxvq_f32(vmx_all);
        if (mn != mn || mx != mx) {
            nan = 1;
        }
    }
#endif
    kai_minmax_scalar(x, i, k, &mn, &mx, &nan);

    const struct kai_qai8dx_row p = kai_row_params(mn, mx);
    if (kai_is_special(nan, p.scale)) {
        kai_pack_row_special(x, k, mr, kbl, lane, tail, r);
        return;
    }
    const int32_t offset = -p.zp;
    const float recip = p.recip;

    i = 0;
#if defined(__aarch64__)
    if (fast) {
        const float32x4_t vs = vdupq_n_f32(p.scale);
        const int16x8_t vzp = vdupq_n_s16((int16_t)p.zp);
        // 64 values per step, one loop per store pattern. mr == 1: the bytes are contiguous;
        // mr * kbl == 32 (mr = 4, kbl = 8): groups of 8 bytes, 32 bytes apart.
        if (mr == 1) {
            for (; i + 64 <= k; i += 64) {
                for (size_t h = 0; h < 64; h += 32) {
                    int16x8_t q16[4];
                    kai_quantize32(x + i + h, vs, vzp, q16);
                    vst1q_s8(lane + i + h, vqmovn_high_s16(vqmovn_s16(q16[0]), q16[1]));
                    vst1q_s8(lane + i + h + 16, vqmovn_high_s16(vqmovn_s16(q16[2]), q16[3]));
                }
            }
        } else if (group_stride == 32) {
            int8_t* dst = lane;
            for (; i + 64 <= k; i += 64) {
                for (size_t h = 0; h < 2; ++h) {
                    int16x8_t q16[4];
                    kai_quantize32(x + i + 32 * h, vs, vzp, q16);
                    vst1_s8(dst + 128 * h, vqmovn_s16(q16[0]));
                    vst1_s8(dst + 128 * h + 32, vqmovn_s16(q16[1]));
                    vst1_s8(dst + 128 * h + 64, vqmovn_s16(q16[2]));
                    vst1_s8(dst + 128 * h + 96, vqmovn_s16(q16[3]));
                }
                dst += 256;
            }
        }
        for (; i + 16 <= k; i += 16) {
            const float32x4x4_t v = vld1q_f32_x4(x + i);
            const int32x4_t i0 = vcvtaq_s32_f32(vmulq_f32(v.val[0], vs));
            const int32x4_t i1 = vcvtaq_s32_f32(vmulq_f32(v.val[1], vs));
            const int32x4_t i2 = vcvtaq_s32_f32(vmulq_f32(v.val[2], vs));
            const int32x4_t i3 = vcvtaq_s32_f32(vmulq_f32(v.val[3], vs));
            const int16x8_t h0 = kai_add_wrap_s16(vqmovn_high_s32(vqmovn_s32(i0), i1), vzp);
            const int16x8_t h1 = kai_add_wrap_s16(vqmovn_high_s32(vqmovn_s32(i2), i3), vzp);
            if (mr == 1 || kbl == 16) {
                vst1q_s8(lane + (i / kbl) * group_stride, vqmovn_high_s16(vqmovn_s16(h0), h1));
            } else {  // kbl == 8
                int8_t* dst = lane + (i / 8) * group_stride;
                vst1_s8(dst, vqmovn_s16(h0));
                vst1_s8(dst + group_stride, vqmovn_s16(h1));
            }
        }
    }
#endif
    for (; i < k; ++i) {
        kai_put(lane, i, group_stride, kbl, kai_quantize(x[i], p.scale, p.zp));
    }
    const int8_t q_last = kai_quantize(x[k - 1], p.scale, p.zp);
    for (; i < kp; ++i) {
        kai_put(lane, i, group_stride, kbl, q_last);
    }
    memcpy(tail + 4 * r, &offset, sizeof(offset));
    memcpy(tail + 4 * mr + 4 * r, &recip, sizeof(recip));
}

void kai_run_lhs_quant_pack_qai8dxp_f32(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr >= sr && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(kai_k_pad % (kr / sr) == 0, "kr / sr must divide 32");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(lhs_stride >= k * sizeof(float), "lhs_stride must be at least k * sizeof(float)");

    const size_t kbl = kr / sr;
    const size_t kp = kai_kp(k);
    const size_t stride = kai_block_stride(k, mr);
    uint8_t* block = (uint8_t*)lhs_packed;
    for (size_t row = 0; row < m; ++row) {
        const size_t r = (row + m_idx_start) % mr;
        const float* x = (const float*)((const uint8_t*)lhs + row * lhs_stride);
        kai_pack_row(x, k, mr, kbl, (int8_t*)(block + r * kbl), block + mr * kp, r);
        if (r == mr - 1) {
            block += stride;
        }
    }
}
