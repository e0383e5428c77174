// SPDX-License-Identifier: Apache-2.0
#include "test/reference/reference_common.h"

#include <cmath>
#include <cstring>

namespace kai_ref {

uint32_t f32_bits(float x) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
}

float f32_from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

uint16_t bf16_from_f32(float x) {
    const uint32_t b = f32_bits(x);
    if (std::isnan(x)) return static_cast<uint16_t>((b >> 16) | 0x40u);
    // Round to nearest even on the upper 16 bits: compare the discarded half with 0x8000.
    const uint32_t upper = b >> 16;
    const uint32_t lower = b & 0xFFFFu;
    uint32_t r = upper;
    if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u))) r = upper + 1;
    return static_cast<uint16_t>(r);
}

float f32_from_bf16(uint16_t b) { return f32_from_bits(static_cast<uint32_t>(b) << 16); }

float round_to_bf16(float x) { return f32_from_bf16(bf16_from_f32(x)); }

float f32_from_f16(uint16_t h) {
    const int sign = (h >> 15) & 1;
    const int exp = (h >> 10) & 0x1F;
    const int man = h & 0x3FF;
    double v;
    if (exp == 0x1F) {
        v = man == 0 ? INFINITY : NAN;
    } else if (exp == 0) {
        v = std::ldexp(static_cast<double>(man), -24);
    } else {
        v = std::ldexp(static_cast<double>(man + 1024), exp - 25);
    }
    return static_cast<float>(sign ? -v : v);
}

uint16_t f16_from_f32(float x) {
    if (std::isnan(x)) return static_cast<uint16_t>(((f32_bits(x) >> 16) & 0x8000u) | 0x7E00u | ((f32_bits(x) >> 13) & 0x3FFu));
    const uint16_t sign = std::signbit(x) ? 0x8000u : 0;
    double a = std::fabs(static_cast<double>(x));
    if (a == 0) return sign;
    // Candidate f16 values are multiples of a quantum that depends on the binade; round the
    // magnitude to that quantum with ties to even (exact in double).
    int e;
    std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
    int quantum_exp = e - 11;  // 11 significant bits
    if (quantum_exp < -24) quantum_exp = -24;  // subnormal range
    const double q = std::ldexp(1.0, quantum_exp);
    const double units = a / q;  // exact
    double r = std::floor(units);
    const double frac = units - r;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0)) r += 1.0;
    const double rounded = r * q;
    if (rounded >= 65536.0) return static_cast<uint16_t>(sign | 0x7C00u);
    // Encode.
    if (rounded < std::ldexp(1.0, -14)) {
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(rounded / std::ldexp(1.0, -24)));
    }
    int re;
    const double rf = std::frexp(rounded, &re);  // rounded = rf * 2^re
    const int biased = re - 1 + 15;
    const uint16_t man = static_cast<uint16_t>((rf * 2.0 - 1.0) * 1024.0);
    return static_cast<uint16_t>(sign | (biased << 10) | man);
}

void matmul_f64(size_t m, size_t n, size_t k, const float* lhs, size_t lhs_ld, const float* rhs, size_t rhs_ld,
                double* dst) {
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) dst[i * n + j] = 0.0;
        for (size_t kk = 0; kk < k; ++kk) {
            const double a = static_cast<double>(lhs[i * lhs_ld + kk]);
            const float* b = rhs + kk * rhs_ld;
            double* d = dst + i * n;
            for (size_t j = 0; j < n; ++j) d[j] += a * static_cast<double>(b[j]);
        }
    }
}

}  // namespace kai_ref
