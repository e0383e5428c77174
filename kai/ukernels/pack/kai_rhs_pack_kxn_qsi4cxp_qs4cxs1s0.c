//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs kxn int4 weights for the qsi4cxp kernels (portable C).
//
// Operation: for each block of nr channels, each 32-K chunk c, each position p' < 16 of its two
// halves: byte c*16*nr + (p'/kbl)*nr*kbl + j*kbl + p'%kbl = w[j][32c + p'] & 0xF |
// (w[j][32c + 16 + p'] & 0xF) << 4 (signed nibbles, K padding 0); after the data nr int32
// 16*sum_k w[j][k], nr f32 scale[j]*0.0625, nr f32 bias[j] (0 if NULL). kbl = kr / sr. The input is
// K rows of ceil(N/2) bytes; channels j >= N read the nibble of parity j from byte (N-1)/2 of
// each row and take the scale and bias of channel N-1 (KleidiAI's bytes, docs/formats.md, "qsi4cxp RHS").
// Layout diagram: docs/matmul_int4_channelwise.md.
//
// The K rows are first transposed, one 32-K chunk of nr channels at a time, into the nxk form of
// the chunk (16 bytes per channel, biased nibbles u = w + 8); the NEON path then packs each
// channel's 16 bytes exactly as the nxk packer does.

#include "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#if defined(__aarch64__)
#include <arm_neon.h>

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_n_step_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
#pragma weak kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
#pragma weak kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0
// (end of the weak definitions)
#endif

static const size_t kai_k_chunk = 32;  // Kp = roundup(K, 32), whatever kr and sr are

static size_t kai_packed_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 2, 12));
}

size_t kai_get_n_step_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(size_t nr) {
    return nr;
}

size_t kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t rhs_stride) {
    KAI_ASSUME_MSG(n_idx % 2 == 0, "n_idx must be even");
    KAI_UNUSED(rhs_stride);
    return n_idx / 2;
}

size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_packed_stride(k, nr);
}

size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(n_idx / nr, kai_packed_stride(k, nr));
}

size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(size_t n, size_t k, size_t nr, size_t kr, size_t sr) {
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr % sr == 0, "kr must be a multiple of sr");
    KAI_UNUSED(kr);
    KAI_UNUSED(sr);
    return kai_mul_size_checked(kai_div_ceil(n, nr), kai_packed_stride(k, nr));
}

// Biased unsigned nibble u = w + 8 of element (kk, ch) of the kxn input (pad rows: 8).
static uint8_t kai_biased_nibble(const uint8_t* rhs, size_t row_bytes, size_t n, size_t ch, size_t kk, size_t k, uint8_t flip) {
    if (kk >= k) {
        return 8;
    }
    const size_t col = KAI_MIN(ch, n - 1);
    const uint8_t byte = rhs[kk * row_bytes + col / 2];
    const uint8_t nib = (uint8_t)((ch % 2 == 0) ? (byte & 0x0F) : (byte >> 4));
    return (uint8_t)(nib ^ flip);
}

// Gathers chunk c of channels n0..n0+nr-1 into nxk form: tmp[j * 16 + b] = u(2b) | u(2b+1) << 4.
static void kai_gather_chunk(
    const uint8_t* rhs, size_t row_bytes, size_t n, size_t k, size_t n0, size_t nr, size_t c, uint8_t flip, uint8_t* tmp) {
    for (size_t b = 0; b < 16; ++b) {
        const size_t kk = c * 32 + 2 * b;
        for (size_t j = 0; j < nr; ++j) {
            const uint8_t lo = kai_biased_nibble(rhs, row_bytes, n, n0 + j, kk, k, flip);
            const uint8_t hi = kai_biased_nibble(rhs, row_bytes, n, n0 + j, kk + 1, k, flip);
            tmp[j * 16 + b] = (uint8_t)(lo | (hi << 4));
        }
    }
}

// Packs one gathered chunk (16 bytes of biased nibbles) of lane j; returns sum(u).
static int32_t kai_pack_chunk_scalar(const uint8_t* src, size_t nr, size_t kbl, size_t j, uint8_t* out) {
    int32_t sum_u = 0;
    for (size_t p = 0; p < 16; ++p) {
        const uint8_t lo = (uint8_t)((p % 2 == 0) ? (src[p / 2] & 0x0F) : (src[p / 2] >> 4));
        const uint8_t hi = (uint8_t)((p % 2 == 0) ? (src[8 + p / 2] & 0x0F) : (src[8 + p / 2] >> 4));
        sum_u += lo + hi;
        out[(p / kbl) * nr * kbl + j * kbl + p % kbl] = (uint8_t)((lo | (hi << 4)) ^ 0x88);
    }
    return sum_u;
}

#if defined(__aarch64__)
// NEON twin of kai_pack_chunk_scalar for kbl == 8.
static int32_t kai_pack_chunk_neon(const uint8_t* src, size_t nr, size_t j, uint8_t* out) {
    const uint8x16_t u = vld1q_u8(src);
    const uint8x16_t lo = vandq_u8(u, vdupq_n_u8(0x0F));
    const uint8x16_t hi = vshrq_n_u8(u, 4);
    const uint8x16_t packed = veorq_u8(vsliq_n_u8(vzip1q_u8(lo, hi), vzip2q_u8(lo, hi), 4), vdupq_n_u8(0x88));
    vst1_u8(out + j * 8, vget_low_u8(packed));
    vst1_u8(out + nr * 8 + j * 8, vget_high_u8(packed));
    return (int32_t)vaddlvq_u8(vaddq_u8(lo, hi));
}
#endif

#if defined(__aarch64__)
// Fast path (kbl == 8, nr 4 or 8, a block of real channels, a chunk of real K rows): works on the
// kxn bytes directly. For K rows L = 32c + p and H = L + 16 (p < 16) the output byte of an even lane
// 2b is (L_b & 0xF) | (H_b & 0xF) << 4 ("E", one SLI) and of the odd lane 2b+1 is
// (L_b >> 4) | (H_b & 0xF0) ("O", one SLI); a TBL then transposes E and O of 8 rows into lane-major
// order, 8 bytes per lane. Nibble sums accumulate per position of E/O and are folded into lanes at
// the end of the block.

// Loads `rows` rows (4 or 8) of `bytes` (4 or 2) bytes, row stride rb, into one register. The
// rows sit at any byte address, so each goes through memcpy (one LD1 lane load each, as a cast
// pointer would give, without the misaligned uint32_t/uint16_t access).
static inline uint32_t kai_load_u32(const uint8_t* p) {
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint16_t kai_load_u16(const uint8_t* p) {
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint8x16_t kai_load_rows4(const uint8_t* p, size_t rb) {
    uint32x4_t v = vdupq_n_u32(kai_load_u32(p));
    v = vsetq_lane_u32(kai_load_u32(p + rb), v, 1);
    v = vsetq_lane_u32(kai_load_u32(p + 2 * rb), v, 2);
    v = vsetq_lane_u32(kai_load_u32(p + 3 * rb), v, 3);
    return vreinterpretq_u8_u32(v);
}

static inline uint8x16_t kai_load_rows8x2(const uint8_t* p, size_t rb) {
    uint16x8_t v = vdupq_n_u16(kai_load_u16(p));
    v = vsetq_lane_u16(kai_load_u16(p + rb), v, 1);
    v = vsetq_lane_u16(kai_load_u16(p + 2 * rb), v, 2);
    v = vsetq_lane_u16(kai_load_u16(p + 3 * rb), v, 3);
    v = vsetq_lane_u16(kai_load_u16(p + 4 * rb), v, 4);
    v = vsetq_lane_u16(kai_load_u16(p + 5 * rb), v, 5);
    v = vsetq_lane_u16(kai_load_u16(p + 6 * rb), v, 6);
    v = vsetq_lane_u16(kai_load_u16(p + 7 * rb), v, 7);
    return vreinterpretq_u8_u16(v);
}

// One 32-K chunk of 8 channels; src = row 32c, byte n0/2. acc_e/acc_o: u16 sums per E/O position
// (4 * row + byte), positions 0-7 in [0], 8-15 in [1].
static void kai_chunk_nr8(
    const uint8_t* src, size_t rb, uint8x16_t vflip, uint8_t* out, uint16x8_t acc_e[2], uint16x8_t acc_o[2]) {
    static const uint8_t idx[4][16] = {
        {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60},
        {1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61},
        {2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62},
        {3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63},
    };
    const uint8x16_t v0f = vdupq_n_u8(0x0F);
    const uint8x16_t v88 = vdupq_n_u8(0x88);
    for (size_t h = 0; h < 2; ++h) {
        const uint8_t* l = src + 8 * h * rb;
        const uint8_t* hi = src + (16 + 8 * h) * rb;
        const uint8x16_t l_lo = veorq_u8(kai_load_rows4(l, rb), vflip);
        const uint8x16_t l_hi = veorq_u8(kai_load_rows4(l + 4 * rb, rb), vflip);
        const uint8x16_t h_lo = veorq_u8(kai_load_rows4(hi, rb), vflip);
        const uint8x16_t h_hi = veorq_u8(kai_load_rows4(hi + 4 * rb, rb), vflip);
        const uint8x16_t ll_lo = vandq_u8(l_lo, v0f);
        const uint8x16_t ll_hi = vandq_u8(l_hi, v0f);
        const uint8x16_t lh_lo = vshrq_n_u8(l_lo, 4);
        const uint8x16_t lh_hi = vshrq_n_u8(l_hi, 4);
        const uint8x16_t hl_lo = vandq_u8(h_lo, v0f);
        const uint8x16_t hl_hi = vandq_u8(h_hi, v0f);
        const uint8x16_t hh_lo = vshrq_n_u8(h_lo, 4);
        const uint8x16_t hh_hi = vshrq_n_u8(h_hi, 4);
        uint8x16x4_t t;
        t.val[0] = vsliq_n_u8(ll_lo, h_lo, 4);  // E rows 0-3
        t.val[1] = vsliq_n_u8(ll_hi, h_hi, 4);  // E rows 4-7
        t.val[2] = vsliq_n_u8(lh_lo, hh_lo, 4);  // O rows 0-3
        t.val[3] = vsliq_n_u8(lh_hi, hh_hi, 4);  // O rows 4-7
        const uint8x16_t se = vaddq_u8(vaddq_u8(ll_lo, hl_lo), vaddq_u8(ll_hi, hl_hi));
        const uint8x16_t so = vaddq_u8(vaddq_u8(lh_lo, hh_lo), vaddq_u8(lh_hi, hh_hi));
        acc_e[0] = vaddw_u8(acc_e[0], vget_low_u8(se));
        acc_e[1] = vaddw_high_u8(acc_e[1], se);
        acc_o[0] = vaddw_u8(acc_o[0], vget_low_u8(so));
        acc_o[1] = vaddw_high_u8(acc_o[1], so);
        uint8x16x4_t o;
        o.val[0] = veorq_u8(vqtbl4q_u8(t, vld1q_u8(idx[0])), v88);
        o.val[1] = veorq_u8(vqtbl4q_u8(t, vld1q_u8(idx[1])), v88);
        o.val[2] = veorq_u8(vqtbl4q_u8(t, vld1q_u8(idx[2])), v88);
        o.val[3] = veorq_u8(vqtbl4q_u8(t, vld1q_u8(idx[3])), v88);
        vst1q_u8_x4(out + 64 * h, o);
    }
}

// One 32-K chunk of 4 channels (2 bytes per row); positions 2 * row + byte.
static void kai_chunk_nr4(
    const uint8_t* src, size_t rb, uint8x16_t vflip, uint8_t* out, uint16x8_t acc_e[2], uint16x8_t acc_o[2]) {
    static const uint8_t idx[2][16] = {
        {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30},
        {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31},
    };
    const uint8x16_t v0f = vdupq_n_u8(0x0F);
    const uint8x16_t v88 = vdupq_n_u8(0x88);
    for (size_t h = 0; h < 2; ++h) {
        const uint8x16_t l = veorq_u8(kai_load_rows8x2(src + 8 * h * rb, rb), vflip);
        const uint8x16_t hi = veorq_u8(kai_load_rows8x2(src + (16 + 8 * h) * rb, rb), vflip);
        const uint8x16_t ll = vandq_u8(l, v0f);
        const uint8x16_t lh = vshrq_n_u8(l, 4);
        const uint8x16_t hl = vandq_u8(hi, v0f);
        const uint8x16_t hh = vshrq_n_u8(hi, 4);
        uint8x16x2_t t;
        t.val[0] = vsliq_n_u8(ll, hi, 4);  // E
        t.val[1] = vsliq_n_u8(lh, hh, 4);  // O
        const uint8x16_t se = vaddq_u8(ll, hl);
        const uint8x16_t so = vaddq_u8(lh, hh);
        acc_e[0] = vaddw_u8(acc_e[0], vget_low_u8(se));
        acc_e[1] = vaddw_high_u8(acc_e[1], se);
        acc_o[0] = vaddw_u8(acc_o[0], vget_low_u8(so));
        acc_o[1] = vaddw_high_u8(acc_o[1], so);
        uint8x16x2_t o;
        o.val[0] = veorq_u8(vqtbl2q_u8(t, vld1q_u8(idx[0])), v88);
        o.val[1] = veorq_u8(vqtbl2q_u8(t, vld1q_u8(idx[1])), v88);
        vst1q_u8_x2(out + 32 * h, o);
    }
}

// Adds the position sums of the fast path to the lane sums and clears them. Position p of E/O
// belongs to byte p % (nr / 2), i.e. lanes 2 * (p % (nr / 2)) (E) and 2 * (p % (nr / 2)) + 1 (O).
static void kai_fold_sums(size_t nr, uint16x8_t acc_e[2], uint16x8_t acc_o[2], int32_t* sums) {
    uint16_t e[16];
    uint16_t o[16];
    vst1q_u16(e, acc_e[0]);
    vst1q_u16(e + 8, acc_e[1]);
    vst1q_u16(o, acc_o[0]);
    vst1q_u16(o + 8, acc_o[1]);
    const size_t bytes = nr / 2;
    for (size_t p = 0; p < 16; ++p) {
        sums[2 * (p % bytes)] += e[p];
        sums[2 * (p % bytes) + 1] += o[p];
    }
    acc_e[0] = vdupq_n_u16(0);
    acc_e[1] = vdupq_n_u16(0);
    acc_o[0] = vdupq_n_u16(0);
    acc_o[1] = vdupq_n_u16(0);
}
#endif

void kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0_params* params) {
    KAI_ASSUME_MSG(num_groups == 1, "num_groups must be 1");
    KAI_ASSUME_MSG(extra_bytes == 0, "extra_bytes must be 0");
    KAI_ASSUME_MSG(nr >= 1, "nr must be at least 1");
    KAI_ASSUME_MSG(sr >= 1 && kr >= sr && kr % sr == 0, "kr must be a non-zero multiple of sr");
    KAI_ASSUME_MSG(16 % (kr / sr) == 0, "kr / sr must divide 16");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    KAI_ASSUME_MSG(params != NULL, "params must not be NULL");
    KAI_ASSUME_MSG(params->lhs_zero_point == 1, "params->lhs_zero_point must be 1");
    KAI_ASSUME_MSG(params->rhs_zero_point == 0 || params->rhs_zero_point == 8, "params->rhs_zero_point must be 0 or 8");
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(scale != NULL, "scale must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");

    const size_t kbl = kr / sr;
    const size_t kp = kai_roundup(k, kai_k_chunk);
    const size_t row_bytes = kai_div_ceil(n, 2);
    const size_t stride = kai_packed_stride(k, nr);
    // Unsigned input (zero point 8) is already biased; signed input gets bias 8 by flipping bit 3.
    const uint8_t flip = (uint8_t)(params->rhs_zero_point == 8 ? 0 : 8);
    // Position sums of the fast path (nr 4 or 8 only); the generic path adds its chunks per lane.
    int32_t fast_sums[8] = {0};
    uint8_t* block = (uint8_t*)rhs_packed;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* tail = block + nr * kp / 2;
        size_t c = 0;
#if defined(__aarch64__)
        if (kbl == 8 && (nr == 4 || nr == 8) && n0 + nr <= n) {
            // Chunks whose 32 K rows all exist, through the fast path; u16 position sums take at
            // most 120 per chunk, so they are folded every 256 chunks.
            for (size_t j = 0; j < nr; ++j) {
                fast_sums[j] = 0;
            }
            const uint8x16_t vflip = vdupq_n_u8((uint8_t)(flip | (flip << 4)));
            uint16x8_t acc_e[2] = {vdupq_n_u16(0), vdupq_n_u16(0)};
            uint16x8_t acc_o[2] = {vdupq_n_u16(0), vdupq_n_u16(0)};
            const size_t full = k / kai_k_chunk;
            for (; c < full; ++c) {
                const uint8_t* src = rhs + c * 32 * row_bytes + n0 / 2;
                if (nr == 8) {
                    kai_chunk_nr8(src, row_bytes, vflip, block + c * 16 * nr, acc_e, acc_o);
                } else {
                    kai_chunk_nr4(src, row_bytes, vflip, block + c * 16 * nr, acc_e, acc_o);
                }
                if (c % 256 == 255) {
                    kai_fold_sums(nr, acc_e, acc_o, fast_sums);
                }
            }
            kai_fold_sums(nr, acc_e, acc_o, fast_sums);
        }
#endif
        const size_t c_rest = c;
        for (size_t j = 0; j < nr; ++j) {
            int32_t sum = c_rest > 0 ? fast_sums[j] : 0;
            // The remaining chunks of lane j, one column gathered at a time (any nr, no scratch
            // beyond 16 bytes).
            for (c = c_rest; c < kp / kai_k_chunk; ++c) {
                uint8_t tmp[16];
                kai_gather_chunk(rhs, row_bytes, n, k, n0 + j, 1, c, flip, tmp);
                uint8_t* out = block + c * 16 * nr;
#if defined(__aarch64__)
                if (kbl == 8) {
                    sum += kai_pack_chunk_neon(tmp, nr, j, out);
                    continue;
                }
#endif
                sum += kai_pack_chunk_scalar(tmp, nr, kbl, j, out);
            }
            const size_t ch = KAI_MIN(n0 + j, n - 1);
            const int32_t sum16 = (int32_t)(16 * (sum - (int32_t)(8 * kp)));
            const float s = scale[ch] * 0.0625F;
            const float b = bias != NULL ? bias[ch] : 0.0F;
            memcpy(tail + 4 * j, &sum16, sizeof(sum16));
            memcpy(tail + 4 * nr + 4 * j, &s, sizeof(s));
            memcpy(tail + 8 * nr + 4 * j, &b, sizeof(b));
        }
        block += stride;
    }
}
