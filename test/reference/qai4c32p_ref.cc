// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qai4c32p_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

void store_f32(uint8_t* p, float v) {
    std::memcpy(p, &v, sizeof v);
}

// Ties to even without relying on the rounding mode: nearbyint under the default mode is exactly
// that, but spell it out.
float round_half_even(float v) {
    const float f = std::floor(v);
    const float d = v - f;
    if (d > 0.5f) return f + 1.0f;
    if (d < 0.5f) return f;
    return std::fmod(f, 2.0f) == 0.0f ? f : f + 1.0f;
}

float round_half_away(float v) {
    return std::round(v);
}

template <typename Load>
Qsi8d32s quantize(size_t m, size_t k, size_t bl, bool ties_even, Load load) {
    Qsi8d32s r;
    r.m = m;
    r.k = k;
    r.bl = bl;
    const size_t nb = k / bl;
    r.q.assign(m * k, 0);
    r.sum.assign(m * nb, 0.0f);
    r.recip.assign(m * nb, 0.0f);
    for (size_t i = 0; i < m; ++i) {
        for (size_t b = 0; b < nb; ++b) {
            float amax = 0.0f;
            for (size_t t = 0; t < bl; ++t) amax = std::fmax(amax, std::fabs(load(i, b * bl + t)));
            const float scale = amax == 0.0f ? 0.0f : 127.0f / amax;
            const float recip = scale != 0.0f ? 1.0f / scale : 0.0f;
            int32_t s = 0;
            for (size_t t = 0; t < bl; ++t) {
                const float v = load(i, b * bl + t) * scale;
                // NaN (0 times an infinite scale, when amax < 127 / FLT_MAX) converts to 0, as FCVT does.
                float qf = std::isnan(v) ? 0.0f : ties_even ? round_half_even(v) : round_half_away(v);
                qf = std::fmin(127.0f, std::fmax(-128.0f, qf));
                const int8_t q = static_cast<int8_t>(qf);
                r.q[i * k + b * bl + t] = q;
                s += q;
            }
            r.sum[i * nb + b] = static_cast<float>(s) * recip;
            r.recip[i * nb + b] = recip;
        }
    }
    return r;
}

}  // namespace

Qsi8d32s quantize_qsi8d32s_f32(size_t m, size_t k, size_t bl, const float* lhs, size_t lhs_stride) {
    return quantize(m, k, bl, true, [&](size_t i, size_t kk) {
        float v;
        std::memcpy(&v, reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride + kk * 4, 4);
        return v;
    });
}

Qsi8d32s quantize_qsi8d32s_f16(size_t m, size_t k, size_t bl, const uint16_t* lhs, size_t lhs_stride) {
    return quantize(m, k, bl, false, [&](size_t i, size_t kk) {
        uint16_t h;
        std::memcpy(&h, reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride + kk * 2, 2);
        return f32_from_f16(h);
    });
}

std::vector<uint8_t> pack_qsi8d32pscalef32(const Qsi8d32s& q, size_t mr, size_t kbl, uint8_t fill,
                                           std::vector<uint8_t>* mask) {
    const size_t nb = q.k / q.bl, bl = q.bl;
    const size_t block = mr * (bl + 8), stride = nb * block;
    const size_t rows = (q.m + mr - 1) / mr * mr;
    std::vector<uint8_t> out(rows / mr * stride, fill);
    if (mask) mask->assign(out.size(), 0);
    for (size_t i = 0; i < q.m; ++i) {
        const size_t lane = i % mr;
        uint8_t* base = out.data() + (i / mr) * stride;
        uint8_t* mbase = mask ? mask->data() + (i / mr) * stride : nullptr;
        for (size_t b = 0; b < nb; ++b) {
            for (size_t t = 0; t < bl; ++t) {
                const size_t g = t / kbl;
                const size_t pos = b * block + g * mr * kbl + lane * kbl + t % kbl;
                base[pos] = static_cast<uint8_t>(q.q[i * q.k + b * bl + t]);
                if (mbase) mbase[pos] = 1;
            }
            const size_t ps = b * block + mr * bl + lane * 4, pr = ps + mr * 4;
            store_f32(base + ps, q.sum[i * nb + b]);
            store_f32(base + pr, q.recip[i * nb + b]);
            if (mbase) {
                std::memset(mbase + ps, 1, 4);
                std::memset(mbase + pr, 1, 4);
            }
        }
    }
    return out;
}

int qau4_nibble(const uint8_t* rows, size_t k, size_t j, size_t kk, bool s0s1) {
    const uint8_t b = rows[j * (k / 2) + kk / 2];
    const bool high = s0s1 ? (kk % 2 == 0) : (kk % 2 == 1);
    return high ? (b >> 4) : (b & 0x0F);
}

size_t qai4c32p_packed_size(size_t n, size_t k, size_t bl, size_t nr) {
    return (n + nr - 1) / nr * nr * ((k / bl) * (bl / 2 + 8) + 4);
}

std::vector<uint8_t> pack_qai4c32p(size_t n, size_t k, size_t bl, size_t nr, size_t kr, const uint8_t* rows,
                                   const float* scale, const float* zero, const float* bias) {
    const size_t nb = k / bl, kbl = kr / 2;
    const size_t block = nr * (bl / 2 + 8), stride = nb * block + nr * 4;
    std::vector<uint8_t> out(qai4c32p_packed_size(n, k, bl, nr), 0xEE);
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* base = out.data() + (n0 / nr) * stride;
        for (size_t j = 0; j < nr; ++j) {
            const size_t src = std::min(n0 + j, n - 1);
            for (size_t b = 0; b < nb; ++b) {
                uint8_t* blk = base + b * block;
                for (size_t kk = 0; kk < bl; ++kk) {
                    const size_t c = kk / 32, p = kk % 32, pp = p % 16;
                    const size_t pos = c * 16 * nr + (pp / kbl) * nr * kbl + j * kbl + pp % kbl;
                    const int s = qau4_nibble(rows, k, src, b * bl + kk, true) - 8;  // signed nibble
                    const uint8_t nib = static_cast<uint8_t>(s & 0x0F);
                    if (p < 16) {
                        blk[pos] = static_cast<uint8_t>((blk[pos] & 0xF0) | nib);
                    } else {
                        blk[pos] = static_cast<uint8_t>((blk[pos] & 0x0F) | (nib << 4));
                    }
                }
                store_f32(blk + nr * bl / 2 + j * 4, zero[src * nb + b]);
                store_f32(blk + nr * bl / 2 + nr * 4 + j * 4, scale[src * nb + b] * 0.0625f);
            }
            store_f32(base + nb * block + j * 4, bias ? bias[src] : 0.0f);
        }
    }
    return out;
}

std::vector<uint8_t> pack_qai4c32ps1s0nrx4(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows,
                                           bool input_s0s1, const float* scale, const float* zero,
                                           const float* bias) {
    const size_t nb = k / bl;
    const size_t block = nr * (bl / 2 + 8), stride = nb * block + nr * 4;
    std::vector<uint8_t> out(qai4c32p_packed_size(n, k, bl, nr), 0xEE);
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* base = out.data() + (n0 / nr) * stride;
        for (size_t j = 0; j < nr; ++j) {
            const size_t src = std::min(n0 + j, n - 1);
            for (size_t b = 0; b < nb; ++b) {
                uint8_t* blk = base + b * block;
                // Value kk of the block: chunk c = kk / 16, piece q = (kk % 16) / 4, byte (kk % 4) / 2
                // of the piece, low nibble for even kk.
                for (size_t kk = 0; kk < bl; kk += 2) {
                    const size_t c = kk / 16, q = (kk % 16) / 4, byte = (kk % 4) / 2;
                    const size_t pos = c * 8 * nr + q * 2 * nr + j * 2 + byte;
                    const int lo = qau4_nibble(rows, k, src, b * bl + kk, input_s0s1);
                    const int hi = qau4_nibble(rows, k, src, b * bl + kk + 1, input_s0s1);
                    blk[pos] = static_cast<uint8_t>(lo | (hi << 4));
                }
                store_f32(blk + nr * bl / 2 + j * 4, zero[src * nb + b]);
                store_f32(blk + nr * bl / 2 + nr * 4 + j * 4, scale[src * nb + b]);
            }
            store_f32(base + nb * block + j * 4, (bias && n0 + j < n) ? bias[n0 + j] : 0.0f);
        }
    }
    return out;
}

namespace {

// IEEE maxNum / minNum as FMAXNM / FMINNM compute them: a NaN operand gives the other one, +0 > -0.
float max_num(float a, float b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

float min_num(float a, float b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

// The NEON recipe (docs/formats.md, "qai4c32p matmul") when neon, else the SME2 one ("qai4c32p SME2 matmul").
std::vector<float> matmul_any(const Qsi8d32s& lhs, size_t n, const uint8_t* rows, const float* scale, const float* zero,
                              const float* bias, float clamp_min, float clamp_max, bool neon, Sme2Recipe recipe) {
    const size_t m = lhs.m, k = lhs.k, bl = lhs.bl, nb = k / bl;
    const int wmul = neon ? 16 : 1;  // the NEON kernels read the nibbles as 16 w, their scale is scale / 16
    std::vector<float> dst(m * n);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                int32_t I = 0;
                for (size_t t = 0; t < bl; ++t) {
                    const size_t kk = b * bl + t;
                    I += lhs.q[i * k + kk] * wmul * (qau4_nibble(rows, k, j, kk, true) - 8);
                }
                const float z = zero[j * nb + b], S = lhs.sum[i * nb + b];
                const float t = (b == 0 && !neon && recipe != Sme2Recipe::kDot) ? z * S : std::fma(z, S, acc);
                const float s = (neon ? scale[j * nb + b] * 0.0625f : scale[j * nb + b]) * lhs.recip[i * nb + b];
                acc = std::fma(static_cast<float>(I), s, t);
                if (!neon && recipe == Sme2Recipe::kMopaF16) acc = f32_from_f16(f16_from_f32(acc));
            }
            const float y = acc + (bias ? bias[j] : 0.0f);
            dst[i * n + j] = neon ? std::fmin(std::fmax(y, clamp_min), clamp_max) : min_num(max_num(y, clamp_min), clamp_max);
        }
    }
    return dst;
}

}  // namespace

std::vector<float> matmul_qsi8d32p_qai4c32p(const Qsi8d32s& lhs, size_t n, const uint8_t* rows,
                                            const float* scale, const float* zero, const float* bias, float clamp_min,
                                            float clamp_max) {
    return matmul_any(lhs, n, rows, scale, zero, bias, clamp_min, clamp_max, true, Sme2Recipe::kDot);
}

std::vector<float> matmul_qsi8d32p_qai4c32p_sme2(const Qsi8d32s& lhs, size_t n, const uint8_t* rows,
                                                 const float* scale, const float* zero, const float* bias,
                                                 float clamp_min, float clamp_max, Sme2Recipe recipe) {
    return matmul_any(lhs, n, rows, scale, zero, bias, clamp_min, clamp_max, false, recipe);
}

std::vector<double> dequantize_qai4c32(size_t n, size_t k, size_t bl, const uint8_t* rows, const float* scale,
                                       const float* zero) {
    const size_t nb = k / bl;
    std::vector<double> w(n * k);
    for (size_t j = 0; j < n; ++j) {
        for (size_t kk = 0; kk < k; ++kk) {
            const size_t b = kk / bl;
            w[j * k + kk] = static_cast<double>(scale[j * nb + b]) * (qau4_nibble(rows, k, j, kk, true) - 8) +
                            static_cast<double>(zero[j * nb + b]);
        }
    }
    return w;
}

}  // namespace kai_ref
