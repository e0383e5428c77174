//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_lhs_quant_pack_qai8dxp_bf16_neon needs AArch64"
#endif

// Per-row asymmetric int8 quantisation of a bf16 LHS (AArch64 NEON).
//
// Operation, per row x[0..K-1] (x widened from bf16 to f32 exactly; IEEE f32, every operation
// rounded, no fused multiply-add):
//   rmin = min(0, min x), rmax = max(0, max x)
//   scale = rmax == rmin ? 1 : 255 / (rmax - rmin),   recip = 1 / scale
//   dmin = rmin * scale, dmax = rmax * scale
//   zp = (-128 + dmin) + (127 + dmax) > 0 ? -128 - dmin : 127 - dmax, clamped to [-128, 127],
//        rounded half to even -> ZP
//   q[k] = clamp(round(x[k] * scale) + ZP, -128, 127), where round is half to even for
//        k < 8 * floor(K / 8) (KleidiAI's FCVTNS on full groups) and half away from zero for the
//        rest of the row and the K padding (KleidiAI's roundf), docs/formats.md, "qai8dxp LHS from bf16 and f16".
//
// Packed layout (docs/formats.md, "qai8dxp LHS"; one block of mr rows, S = mr * (Kp + 8) bytes, Kp = roundup(K, 32)):
// int8 data in groups of kbl = 8 values, q[r][k] at (k / 8) * mr * 8 + r * 8 + k % 8, K positions
// K..Kp-1 repeating x[K-1] quantised; then mr int32 offsets (-ZP), then mr f32 scales (recip).
// Lanes past the last row are not written.
//
// NEON path, both passes 16 values per step: USHLL #16 widens bf16 to f32 (exact); the range pass
// folds FMIN/FMAX into four chains (NaN propagates, which flags the row: rows with a NaN or an
// overflowing multiplier take kai_pack_row_special, KleidiAI's arithmetic);
// the quantisation pass is
// FMUL, FCVTNS, UZP1 to int16 (|round(x * scale)| <= 256), ADD ZP, SQXTN (= the clamp), two 8-byte
// stores (one per group). Written with explicit intrinsics: GCC 12 crashes (internal compiler
// error) at -O3 on a loop it vectorises itself from the scalar form.

#include "kai_lhs_quant_pack_qai8dxp_bf16_neon.h"

#include <arm_neon.h>
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon
#pragma weak kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon
#pragma weak kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon
#pragma weak kai_get_m_step_lhs_quant_pack_qai8dxp_bf16_neon
#pragma weak kai_run_lhs_quant_pack_qai8dxp_bf16_neon
// (end of the weak definitions)

// The row parameters must not be contracted into fused multiply-adds (GCC contracts across
// statements in its GNU modes), or the zero point would differ from the spec's.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// Wrapping int16 add: an unsigned ADD, the same instruction (and bytes) as vaddq_s16 without the
// undefined behaviour of C's signed overflow should a lane wrap.
static inline int16x8_t kai_add_wrap_s16(int16x8_t a, int16x8_t b) {
    return vreinterpretq_s16_u16(vaddq_u16(vreinterpretq_u16_s16(a), vreinterpretq_u16_s16(b)));
}

static const size_t kai_k_pad = 32;  // Kp = roundup(K, 32)
static const size_t kai_kbl = 8;     // kr / sr: the only group length KleidiAI's packer takes

/// Quantisation parameters of one row.
struct kai_qai8dx_row {
    float scale;  // quantisation multiplier
    float recip;  // stored dequantisation scale
    int32_t zp;   // ZP; the stored offset is -ZP
};

static size_t kai_kp(size_t k) {
    return kai_roundup(k, kai_k_pad);
}

static size_t kai_block_stride(size_t k, size_t mr) {
    return kai_mul_size_checked(mr, kai_add_size_checked(kai_kp(k), 8));
}

size_t kai_get_m_step_lhs_quant_pack_qai8dxp_bf16_neon(size_t mr) {
    return mr;
}

size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon(size_t m_idx, size_t lhs_stride) {
    return kai_mul_size_checked(m_idx, lhs_stride);
}

size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(
    size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(m_idx / mr, kai_block_stride(k, mr));
}

size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(m, mr), kai_block_stride(k, mr));
}

static float kai_f32_of_bf16(uint16_t b) {
    const uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
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

// Returns clamp(round_half_away(x * scale) + zp, -128, 127) (KleidiAI's roundf).
static int8_t kai_quantize_away(float x, float scale, int32_t zp) {
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

// v converted to int32 as FCVTNS (even) or FCVTAS (!even) do: saturated, NaN to 0.
static int32_t kai_cvt_sat(float v, int even) {
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
    const int odd = (t & 1) != 0;
    if (f > 0.5F || (f == 0.5F && (!even || odd))) {
        t += 1;
    } else if (f < -0.5F || (f == -0.5F && (!even || odd))) {
        t -= 1;
    }
    return t;
}

// a + b in `bits`-bit two's complement (16 or 32), wrapping, without implementation-defined
// conversions.
static int32_t kai_add_wrap(int32_t a, int32_t b, unsigned bits) {
    const uint32_t mask = bits == 32 ? 0xFFFFFFFFU : ((1U << bits) - 1U);
    const uint32_t u = ((uint32_t)a + (uint32_t)b) & mask;
    return (u & (1U << (bits - 1))) != 0 ? -(int32_t)(mask - u) - 1 : (int32_t)u;
}

// A special row (kai_is_special) packed with KleidiAI's arithmetic, the bf16 twin of
// kai_lhs_quant_pack_qai8dxp_f32.c's (see there and the header): min / max NaN-propagating over
// x[0 .. 8 floor(K/8)), fminf / fmaxf (skipping a quiet NaN; a signalling one gives NaN) over the
// rest, from FLT_MAX / -FLT_MAX; the multiplier, reciprocal and zero point in IEEE f32 (255 / inf
// = 0; a NaN zero point gives -128); data in full groups of 8 rounded half to even, saturated to
// int16, ZP added in int16 (wrapping); the last partial group and the K padding rounded half away,
// ZP added in int32 (wrapping); saturated to [-128, 127].
static KAI_NEVER_INLINE void kai_pack_row_special(
    const uint16_t* x, size_t k, size_t mr, int8_t* lane, uint8_t* tail, size_t r) {
    const size_t k_vec = k & ~(size_t)7;
    float mn = FLT_MAX;
    float mx = -FLT_MAX;
    int nan = 0;
    for (size_t i = 0; i < k_vec; ++i) {
        const float v = kai_f32_of_bf16(x[i]);
        nan |= v != v;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }
    if (nan) {
        mn = kai_f32_of_bf16(0x7FC0U);  // FMINV / FMAXV of a NaN lane
        mx = mn;
    }
    for (size_t i = k_vec; i < k; ++i) {
        const float v = kai_f32_of_bf16(x[i]);
        if (v == v) {
            mn = (mn != mn || v < mn) ? v : mn;
            mx = (mx != mx || v > mx) ? v : mx;
        } else if ((x[i] & 0x0040U) == 0) {
            mn = v - v;  // a signalling NaN: FMINNM / FMAXNM return a NaN
            mx = mn;
        }
    }
    const struct kai_qai8dx_row p = kai_row_params(mn, mx);
    const float scale = p.scale;
    const float recip = p.recip;
    const int32_t zp = p.zp;
    const size_t group_stride = mr * kai_kbl;
    for (size_t j = 0; j < kai_kp(k); ++j) {
        const float v = kai_f32_of_bf16(x[j < k ? j : k - 1]) * scale;
        int32_t t;
        if (j < k_vec) {
            t = kai_cvt_sat(v, 1);
            t = kai_add_wrap(t < -32768 ? -32768 : (t > 32767 ? 32767 : t), zp, 16);
        } else {
            t = kai_add_wrap(kai_cvt_sat(v, 0), zp, 32);
        }
        t = t < -128 ? -128 : (t > 127 ? 127 : t);
        lane[(j / kai_kbl) * group_stride + j % kai_kbl] = (int8_t)t;
    }
    const int32_t offset = -zp;
    memcpy(tail + 4 * r, &offset, sizeof(offset));
    memcpy(tail + 4 * mr + 4 * r, &recip, sizeof(recip));
}

static inline float32x4_t kai_widen_lo(uint16x8_t v) {
    return vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(v), 16));
}

static inline float32x4_t kai_widen_hi(uint16x8_t v) {
    return vreinterpretq_f32_u32(vshll_high_n_u16(v, 16));
}

// Quantises 8 values (half to even) to int8: round(x * scale) + ZP, saturated.
static inline int8x8_t kai_quantize8(uint16x8_t b, float32x4_t vs, int16x8_t vzp) {
    const int32x4_t lo = vcvtnq_s32_f32(vmulq_f32(kai_widen_lo(b), vs));
    const int32x4_t hi = vcvtnq_s32_f32(vmulq_f32(kai_widen_hi(b), vs));
    const int16x8_t h = kai_add_wrap_s16(vuzp1q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi)), vzp);
    return vqmovn_s16(h);
}

// Packs one row into its lane (lane points at r * 8 inside the block; tail at the block's
// offsets/scales area).
static void kai_pack_row(const uint16_t* x, size_t k, size_t mr, int8_t* lane, uint8_t* tail, size_t r) {
    const size_t kp = kai_kp(k);
    const size_t group_stride = mr * kai_kbl;

    // Range: 16 values per step, four min and four max chains.
    float32x4_t vmn0 = vdupq_n_f32(0.0F);
    float32x4_t vmn1 = vmn0;
    float32x4_t vmx0 = vmn0;
    float32x4_t vmx1 = vmn0;
    size_t i = 0;
    for (; i + 16 <= k; i += 16) {
        const uint16x8_t a = vld1q_u16(x + i);
        const uint16x8_t b = vld1q_u16(x + i + 8);
        const float32x4_t a0 = kai_widen_lo(a);
        const float32x4_t a1 = kai_widen_hi(a);
        const float32x4_t b0 = kai_widen_lo(b);
        const float32x4_t b1 = kai_widen_hi(b);
        vmn0 = vminq_f32(vmn0, vminq_f32(a0, a1));
        vmx0 = vmaxq_f32(vmx0, vmaxq_f32(a0, a1));
        vmn1 = vminq_f32(vmn1, vminq_f32(b0, b1));
        vmx1 = vmaxq_f32(vmx1, vmaxq_f32(b0, b1));
    }
    if (i + 8 <= k) {
        const uint16x8_t a = vld1q_u16(x + i);
        vmn0 = vminq_f32(vmn0, vminq_f32(kai_widen_lo(a), kai_widen_hi(a)));
        vmx0 = vmaxq_f32(vmx0, vmaxq_f32(kai_widen_lo(a), kai_widen_hi(a)));
        i += 8;
    }
    // FMIN/FMAX propagate NaN: a NaN anywhere shows up in both reductions.
    float mn = vminvq_f32(vminq_f32(vmn0, vmn1));
    float mx = vmaxvq_f32(vmaxq_f32(vmx0, vmx1));
    int nan = (mn != mn) || (mx != mx);
    for (; i < k; ++i) {
        const float v = kai_f32_of_bf16(x[i]);
        if (v != v) {
            nan = 1;
        }
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }

    const struct kai_qai8dx_row p = kai_row_params(mn, mx);
    if (kai_is_special(nan, p.scale)) {
        kai_pack_row_special(x, k, mr, lane, tail, r);
        return;
    }
    const int32_t offset = -p.zp;
    const float recip = p.recip;

    // Full groups of 8: half to even.
    const size_t k_full = k & ~(size_t)7;
    const float32x4_t vs = vdupq_n_f32(p.scale);
    const int16x8_t vzp = vdupq_n_s16((int16_t)p.zp);
    int8_t* dst = lane;
    i = 0;
    for (; i + 16 <= k_full; i += 16) {
        const int8x8_t q0 = kai_quantize8(vld1q_u16(x + i), vs, vzp);
        const int8x8_t q1 = kai_quantize8(vld1q_u16(x + i + 8), vs, vzp);
        vst1_s8(dst, q0);
        vst1_s8(dst + group_stride, q1);
        dst += 2 * group_stride;
    }
    if (i < k_full) {
        vst1_s8(dst, kai_quantize8(vld1q_u16(x + i), vs, vzp));
        dst += group_stride;
        i += 8;
    }
    // The partial last group and the K padding: half away from zero.
    for (size_t j = 0; i + j < kp; ++j) {
        const float v = kai_f32_of_bf16(x[i + j < k ? i + j : k - 1]);
        dst[(j / kai_kbl) * group_stride + j % kai_kbl] = kai_quantize_away(v, p.scale, p.zp);
    }
    memcpy(tail + 4 * r, &offset, sizeof(offset));
    memcpy(tail + 4 * mr + 4 * r, &recip, sizeof(recip));
}

void kai_run_lhs_quant_pack_qai8dxp_bf16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed) {
    KAI_ASSUME_MSG(mr >= 1, "mr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_ASSUME_MSG(kr / sr == kai_kbl, "kr / sr must be 8");
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(lhs_stride >= k * sizeof(uint16_t), "lhs_stride must be at least k * 2");

    const size_t kp = kai_kp(k);
    const size_t stride = kai_block_stride(k, mr);
    uint8_t* block = (uint8_t*)lhs_packed;
    for (size_t row = 0; row < m; ++row) {
        const size_t r = (row + m_idx_start) % mr;
        const uint16_t* x = (const uint16_t*)(const void*)((const uint8_t*)lhs + row * lhs_stride);
        kai_pack_row(x, k, mr, (int8_t*)(block + r * kai_kbl), block + mr * kp, r);
        if (r == mr - 1) {
            block += stride;
        }
    }
}
