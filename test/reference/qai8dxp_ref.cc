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

}  // namespace

Qai8dxRow quantize_qai8dx_row(const float* x, size_t k) {
    Qai8dxRow row;
    row.q.assign(k, 0);
    float mn = 0.0f, mx = 0.0f;
    bool nan = false;
    for (size_t i = 0; i < k; ++i) {
        if (std::isnan(x[i])) nan = true;
        mn = std::min(mn, x[i]);
        mx = std::max(mx, x[i]);
    }
    const float rmin = std::min(0.0f, mn);
    const float rmax = std::max(0.0f, mx);
    if (nan || !std::isfinite(rmin) || !std::isfinite(rmax)) {
        row.finite = false;
        row.scale = 0.0f;
        row.recip = std::numeric_limits<float>::quiet_NaN();
        row.zp = 0;
        return row;
    }
    volatile float range = rmax - rmin;
    // Each step in its own volatile so that no compiler fuses or keeps extra precision.
    volatile float scale = 1.0f;
    if (rmax != rmin) {
        if (std::isfinite(static_cast<float>(range))) {
            scale = 255.0f / range;
        } else {
            // kai's rule for a finite row whose range overflows: the same quotient from halves.
            volatile float half_range = rmax * 0.5f - rmin * 0.5f;
            scale = 127.5f / half_range;
        }
    }
    if (std::isinf(scale)) {
        // KleidiAI's bytes for a range below 255 / FLT_MAX (docs/matmul_int4_channelwise.md
        // derives them from docs/formats.md, "qai8dxp LHS"): data 127 for x != 0, -128 for +-0; offset 128; scale 0.
        row.scale = scale;
        row.recip = 0.0f;
        row.zp = -128;
        for (size_t i = 0; i < k; ++i) row.q[i] = x[i] != 0.0f ? 127 : -128;
        return row;
    }
    const float lo = rmin, hi = rmax;
    volatile float recip = (scale != 0.0f) ? 1.0f / scale : 0.0f;
    volatile float dmin = lo * scale;
    volatile float dmax = hi * scale;
    volatile float e_min = -128.0f + dmin;
    volatile float e_max = 127.0f + dmax;
    volatile float esum = e_min + e_max;
    volatile float zpf = (esum > 0.0f) ? (-128.0f - dmin) : (127.0f - dmax);
    float z = std::min(127.0f, std::max(-128.0f, static_cast<float>(zpf)));
    row.zp = static_cast<int32_t>(std::nearbyint(z));  // ties to even (default rounding mode)
    row.scale = scale;
    row.recip = recip;
    for (size_t i = 0; i < k; ++i) {
        volatile float v = x[i] * row.scale;
        long r = std::lround(static_cast<float>(v)) + row.zp;  // ties away from zero
        row.q[i] = static_cast<int8_t>(std::min(127L, std::max(-128L, r)));
    }
    return row;
}

Qai8dxRowBf16 quantize_qai8dx_row_bf16(const uint16_t* x, size_t k) {
    std::vector<float> xf(k);
    for (size_t i = 0; i < k; ++i) {
        const uint32_t bits = static_cast<uint32_t>(x[i]) << 16;
        std::memcpy(&xf[i], &bits, 4);
    }
    Qai8dxRowBf16 out;
    out.row = quantize_qai8dx_row(xf.data(), k);  // ties away everywhere, the degenerate rules
    Qai8dxRow& row = out.row;
    out.pad = row.q[k - 1];
    if (!row.finite || std::isinf(row.scale)) return out;  // no rounding in these rows' bytes
    const size_t k_full = k / 8 * 8;
    for (size_t i = 0; i < k_full; ++i) {
        volatile float v = xf[i] * row.scale;
        long r = static_cast<long>(std::nearbyint(static_cast<float>(v))) + row.zp;  // ties to even
        row.q[i] = static_cast<int8_t>(std::min(127L, std::max(-128L, r)));
    }
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
        const Qai8dxRow row = quantize_qai8dx_row(x, k);
        for (size_t kk = 0; kk < kp; ++kk) {
            const int8_t q = row.q[kk < k ? kk : k - 1];
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

int8_t quantize_f16_value(float x, float scale, int32_t zp, Rounding mode) {
    volatile float v = x * scale;
    const float fv = v;
    if (mode == Rounding::kAway) {
        // KleidiAI's scalar part: int32 + ZP (wrapping), clamp.
        const int64_t t = cvt_sat(std::round(static_cast<double>(fv)));
        return static_cast<int8_t>(sat(wrap32(t + zp), -128, 127));
    }
    // The vector part: int32 -> saturated int16, + ZP in int16 (wrapping), clamp.
    const double r = mode == Rounding::kTrunc ? std::trunc(static_cast<double>(fv)) : std::nearbyint(static_cast<double>(fv));
    const int64_t t16 = sat(cvt_sat(r), -32768, 32767);
    return static_cast<int8_t>(sat(wrap16(t16 + zp), -128, 127));
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
        bool nan = false;
        float mn = 65504.0f, mx = -65504.0f;
        for (size_t j = 0; j < k; ++j) {
            if (std::isnan(x[j])) nan = true;
            mn = std::min(mn, x[j]);
            mx = std::max(mx, x[j]);
        }
        // fminf(0, NaN) = 0: a row with a NaN has the range [0, 0].
        const float rmin = nan ? 0.0f : std::min(0.0f, mn);
        const float rmax = nan ? 0.0f : std::max(0.0f, mx);
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
        z = std::isnan(z) ? -128.0f : std::min(127.0f, std::max(-128.0f, z));  // fmaxf then fminf
        return Params{scale, recip, static_cast<int32_t>(std::nearbyint(z))};
    };
    uint8_t* block = packed;
    for (size_t i = 0; i < m; ++i) {
        const size_t r = (i + m_idx_start) % mr;
        const std::vector<float> x = row_x(i);
        const Params p = params(x);
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
