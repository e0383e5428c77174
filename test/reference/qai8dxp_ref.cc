// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qai8dxp_ref.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace kai_ref {

namespace {

size_t kp_of(size_t k) { return (k + 31) / 32 * 32; }

// Offset of q[r][k] inside an mr-row block.
size_t data_offset(size_t r, size_t k, size_t mr, size_t kbl) { return (k / kbl) * mr * kbl + r * kbl + k % kbl; }


// (int32) round(v) as the AArch64 conversions do: NaN -> 0, saturating to int32.
int64_t cvt_sat(double r) {
    if (std::isnan(r)) return 0;
    if (r >= 2147483647.0) return 2147483647;
    if (r <= -2147483648.0) return -2147483648LL;
    return static_cast<int64_t>(r);
}

int32_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
int16_t wrap16(int64_t v) { return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint64_t>(v))); }
int64_t sat(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

enum class Rounding { kTrunc, kEven, kAway };

// One datum: v = x * scale (f32), rounded by `mode` and converted to int32 as the AArch64
// conversions do; then either (int16 = true, KleidiAI's NEON blocks) saturated to int16 with ZP
// added in int16, wrapping, or (KleidiAI's scalar code) ZP added in int32, wrapping; clamped to int8.
int8_t quantize_value(float x, float scale, int32_t zp, Rounding mode, bool int16) {
    volatile float v = x * scale;
    const double fv = static_cast<float>(v);
    const double r = mode == Rounding::kTrunc ? std::trunc(fv) : (mode == Rounding::kEven ? std::nearbyint(fv) : std::round(fv));
    if (!int16) return static_cast<int8_t>(sat(wrap32(cvt_sat(r) + zp), -128, 127));
    const int64_t t16 = sat(cvt_sat(r), -32768, 32767);
    return static_cast<int8_t>(sat(wrap16(t16 + zp), -128, 127));
}

// The f16 packer's datum: half away in int32 (its scalar part), the other roundings in int16.
int8_t quantize_f16_value(float x, float scale, int32_t zp, Rounding mode) {
    return quantize_value(x, scale, zp, mode, mode != Rounding::kAway);
}

struct RowParams {
    float scale, recip;
    int32_t zp;
};

// docs/formats.md, "qai8dxp LHS" steps 2-7 in IEEE f32, each step rounded (volatile: no fusing, no extra precision),
// from the row's min and max as KleidiAI computes them (NaN possible): rmin = fminf(0, mn) and
// rmax = fmaxf(0, mx) (0 for a NaN); scale = rmin == rmax ? 1 : 255 / (rmax - rmin) (255 / inf = 0,
// 255 / tiny = inf); recip = scale != 0 ? 1 / scale : 0; zp clamped by fmaxf(., -128) (-128 for a
// NaN) then fminf(., 127), rounded half to even.
RowParams row_params(float mn, float mx) {
    const float rmin = std::isnan(mn) ? 0.0f : std::min(0.0f, mn);
    const float rmax = std::isnan(mx) ? 0.0f : std::max(0.0f, mx);
    volatile float diff = rmax - rmin;
    volatile float scale = (rmin == rmax) ? 1.0f : 255.0f / diff;
    volatile float recip = (scale != 0.0f) ? 1.0f / scale : 0.0f;
    volatile float dmin = rmin * scale;
    volatile float dmax = rmax * scale;
    volatile float e_min = -128.0f + dmin;
    volatile float e_max = 127.0f + dmax;
    volatile float esum = e_min + e_max;
    volatile float zpf = (esum > 0.0f) ? (-128.0f - dmin) : (127.0f - dmax);
    float z = zpf;
    z = std::isnan(z) ? -128.0f : std::min(127.0f, std::max(-128.0f, z));
    return RowParams{scale, recip, static_cast<int32_t>(std::nearbyint(z))};
}

// KleidiAI's range of a row of the f32 and bf16 packers (docs/formats.md, "qai8dxp LHS" step 1 as its AArch64 code
// computes it): NaN-propagating min / max over x[0 .. 8 floor(K/8)) (a NaN there makes both NaN),
// then C's fminf / fmaxf over the rest, from FLT_MAX / -FLT_MAX: on AArch64 (FMINNM / FMAXNM) they
// skip a quiet NaN operand and return NaN for a signalling one.
void kleidiai_min_max(const float* x, size_t k, float* mn_out, float* mx_out) {
    const size_t k_vec = k / 8 * 8;
    float mn = FLT_MAX, mx = -FLT_MAX;
    for (size_t i = 0; i < k_vec; ++i) {
        if (std::isnan(x[i])) {
            mn = mx = std::numeric_limits<float>::quiet_NaN();
            break;
        }
        mn = std::min(mn, x[i]);
        mx = std::max(mx, x[i]);
    }
    for (size_t i = k_vec; i < k; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &x[i], 4);
        if (std::isnan(x[i]) && (bits & 0x00400000u) == 0) {
            // AArch64's fminf / fmaxf (FMINNM / FMAXNM) skip a quiet NaN, not a signalling one.
            mn = mx = std::numeric_limits<float>::quiet_NaN();
            continue;
        }
        mn = std::isnan(x[i]) ? mn : (std::isnan(mn) ? x[i] : std::min(mn, x[i]));
        mx = std::isnan(x[i]) ? mx : (std::isnan(mx) ? x[i] : std::max(mx, x[i]));
    }
    *mn_out = mn;
    *mx_out = mx;
}

// A whole row: data q[j] of K positions below `vec_end` take (vec_mode, int16), the rest and the
// padding (x[K-1]) half away in int32.
Qai8dxRow quantize_row(const float* x, size_t k, size_t vec_end, Rounding vec_mode) {
    Qai8dxRow row;
    float mn, mx;
    kleidiai_min_max(x, k, &mn, &mx);
    const RowParams p = row_params(mn, mx);
    row.scale = p.scale;
    row.recip = p.recip;
    row.zp = p.zp;
    for (size_t i = 0; i < k; ++i) row.finite = row.finite && std::isfinite(x[i]);
    row.q.resize(k);
    for (size_t i = 0; i < k; ++i) {
        row.q[i] = i < vec_end ? quantize_value(x[i], p.scale, p.zp, vec_mode, true)
                               : quantize_value(x[i], p.scale, p.zp, Rounding::kAway, false);
    }
    row.pad = quantize_value(x[k - 1], p.scale, p.zp, Rounding::kAway, false);
    return row;
}

}  // namespace

Qai8dxRow quantize_qai8dx_row(const float* x, size_t k, size_t kbl) {
    // KleidiAI's NEON blocks of the f32 packer: kbl 4 or 8, full blocks only; rounding half away.
    const size_t vec_end = (kbl == 4 || kbl == 8) ? k / kbl * kbl : 0;
    return quantize_row(x, k, vec_end, Rounding::kAway);
}

Qai8dxRowBf16 quantize_qai8dx_row_bf16(const uint16_t* x, size_t k) {
    std::vector<float> xf(k);
    for (size_t i = 0; i < k; ++i) {
        const uint32_t bits = static_cast<uint32_t>(x[i]) << 16;
        std::memcpy(&xf[i], &bits, 4);
    }
    Qai8dxRowBf16 out;
    // Full groups of 8 rounded half to even (FCVTNS) in int16, the rest half away in int32.
    out.row = quantize_row(xf.data(), k, k / 8 * 8, Rounding::kEven);
    out.pad = out.row.pad;
    return out;
}

void pack_qai8dxp_bf16(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const uint16_t* lhs,
                       size_t lhs_stride, uint8_t* packed) {
    const size_t kbl = kr / sr;
    const size_t kp = kp_of(k);
    const size_t stride = qai8dxp_block_stride(k, mr);
    uint8_t* block = packed;
    for (size_t i = 0; i < m; ++i) {
        const size_t r = (i + m_idx_start) % mr;
        const uint16_t* x =
            reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        const Qai8dxRowBf16 q = quantize_qai8dx_row_bf16(x, k);
        for (size_t kk = 0; kk < kp; ++kk) {
            block[data_offset(r, kk, mr, kbl)] = static_cast<uint8_t>(kk < k ? q.row.q[kk] : q.pad);
        }
        const int32_t off = -q.row.zp;
        std::memcpy(block + mr * kp + 4 * r, &off, 4);
        std::memcpy(block + mr * kp + 4 * mr + 4 * r, &q.row.recip, 4);
        if (r == mr - 1) block += stride;
    }
}

size_t qai8dxp_block_stride(size_t k, size_t mr) { return mr * (kp_of(k) + 8); }

size_t qai8dxp_packed_size(size_t m, size_t k, size_t mr) { return (m + mr - 1) / mr * qai8dxp_block_stride(k, mr); }

void pack_qai8dxp(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
                  size_t lhs_stride, uint8_t* packed) {
    const size_t kbl = kr / sr;
    const size_t kp = kp_of(k);
    const size_t stride = qai8dxp_block_stride(k, mr);
    uint8_t* block = packed;
    for (size_t i = 0; i < m; ++i) {
        const size_t r = (i + m_idx_start) % mr;
        const float* x = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        const Qai8dxRow row = quantize_qai8dx_row(x, k, kbl);
        for (size_t kk = 0; kk < kp; ++kk) {
            const int8_t q = kk < k ? row.q[kk] : row.pad;
            block[data_offset(r, kk, mr, kbl)] = static_cast<uint8_t>(q);
        }
        const int32_t off = -row.zp;
        std::memcpy(block + mr * kp + 4 * r, &off, 4);
        std::memcpy(block + mr * kp + 4 * mr + 4 * r, &row.recip, 4);
        if (r == mr - 1) block += stride;
    }
}

std::vector<uint8_t> qai8dxp_written_mask(size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    const size_t kbl = kr / sr;
    const size_t kp = kp_of(k);
    std::vector<uint8_t> mask(qai8dxp_packed_size(m, k, mr), 0);
    for (size_t i = 0; i < m; ++i) {
        uint8_t* block = mask.data() + (i / mr) * qai8dxp_block_stride(k, mr);
        const size_t r = i % mr;
        for (size_t kk = 0; kk < kp; ++kk) block[data_offset(r, kk, mr, kbl)] = 1;
        std::memset(block + mr * kp + 4 * r, 1, 4);
        std::memset(block + mr * kp + 4 * mr + 4 * r, 1, 4);
    }
    return mask;
}

Qai8dxpUnpacked unpack_qai8dxp(const uint8_t* packed, size_t m, size_t k, size_t mr, size_t kr, size_t sr) {
    Qai8dxpUnpacked u;
    const size_t kbl = kr / sr;
    u.m = m;
    u.kp = kp_of(k);
    u.q.resize(m * u.kp);
    u.offset.resize(m);
    u.scale.resize(m);
    for (size_t i = 0; i < m; ++i) {
        const uint8_t* block = packed + (i / mr) * qai8dxp_block_stride(k, mr);
        const size_t r = i % mr;
        for (size_t kk = 0; kk < u.kp; ++kk) {
            u.q[i * u.kp + kk] = static_cast<int8_t>(block[data_offset(r, kk, mr, kbl)]);
        }
        std::memcpy(&u.offset[i], block + mr * u.kp + 4 * r, 4);
        std::memcpy(&u.scale[i], block + mr * u.kp + 4 * mr + 4 * r, 4);
    }
    return u;
}

namespace {

// Exact binary16 -> binary32 widening (portable).
float f16_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1Fu;
    const uint32_t f = h & 0x3FFu;
    float v;
    if (e == 0x1F) {
        const uint32_t bits = sign | 0x7F800000u | (f << 13) | (f ? 0x00400000u : 0u);
        std::memcpy(&v, &bits, 4);
        return v;
    }
    v = e == 0 ? std::ldexp(static_cast<float>(f), -24) : std::ldexp(static_cast<float>(f | 0x400u), static_cast<int>(e) - 25);
    return sign ? -v : v;
}

}  // namespace

void pack_qai8dxp_f16(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const uint16_t* lhs,
                      size_t lhs_stride, uint8_t* packed) {
    const size_t kbl = kr / sr;
    const size_t kp = kp_of(k);
    const size_t stride = qai8dxp_block_stride(k, mr);
    const size_t four_rows = mr == 4 ? m / 4 * 4 : 0;
    const size_t split_four = k / 8 * 8;
    const size_t back = kbl == 8 ? 1 : 2;
    const size_t split_one = k / kbl > back ? (k / kbl - back) * kbl : 0;
    struct Params {
        float scale, recip;
        int32_t zp;
    };
    auto row_x = [&](size_t i) {
        const uint16_t* h = reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        std::vector<float> x(k);
        for (size_t j = 0; j < k; ++j) x[j] = f16_to_f32(h[j]);
        return x;
    };
    auto params = [&](const std::vector<float>& x) {
        // The f16 packer's range: a NaN anywhere makes min and max NaN (range [0, 0]).
        bool nan = false;
        float mn = 65504.0f, mx = -65504.0f;
        for (size_t j = 0; j < k; ++j) {
            if (std::isnan(x[j])) nan = true;
            mn = std::min(mn, x[j]);
            mx = std::max(mx, x[j]);
        }
        const float q = std::numeric_limits<float>::quiet_NaN();
        return row_params(nan ? q : mn, nan ? q : mx);
    };
    uint8_t* block = packed;
    for (size_t i = 0; i < m; ++i) {
        const size_t r = (i + m_idx_start) % mr;
        const std::vector<float> x = row_x(i);
        const RowParams p = params(x);
        const bool four = i < four_rows;
        // KleidiAI's four-row path with kbl = 4 adds to each 8 values' first and second 4 the zero
        // points of rows r / 2 and 2 + r / 2 of the group of 4 (probed against the compat vectors).
        int32_t zlo = p.zp, zhi = p.zp;
        if (four && kbl == 4) {
            const size_t base = i / 4 * 4;
            zlo = params(row_x(base + r / 2)).zp;
            zhi = params(row_x(base + 2 + r / 2)).zp;
        }
        const size_t split = four ? split_four : split_one;
        for (size_t kk = 0; kk < kp; ++kk) {
            const float v = x[kk < k ? kk : k - 1];
            const Rounding mode = kk < split ? (four ? Rounding::kTrunc : Rounding::kEven) : Rounding::kAway;
            const int32_t z = mode == Rounding::kAway ? p.zp : (kk % 8 < 4 ? zlo : zhi);
            block[data_offset(r, kk, mr, kbl)] = static_cast<uint8_t>(quantize_f16_value(v, p.scale, z, mode));
        }
        const int32_t off = -p.zp;
        std::memcpy(block + mr * kp + 4 * r, &off, 4);
        std::memcpy(block + mr * kp + 4 * mr + 4 * r, &p.recip, 4);
        if (r == mr - 1) block += stride;
    }
}

}  // namespace kai_ref
