// SPDX-License-Identifier: Apache-2.0
#include "test/reference/bf16_ref.h"

#include <cfloat>
#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

void put_u16(std::vector<uint8_t>& buf, size_t offset, uint16_t v) {
    buf[offset] = static_cast<uint8_t>(v & 0xFF);
    buf[offset + 1] = static_cast<uint8_t>(v >> 8);
}

size_t roundup(size_t a, size_t b) {
    return (a + b - 1) / b * b;
}

}  // namespace

std::vector<uint8_t> bf16_pack_lhs(const uint16_t* lhs, size_t m, size_t k, size_t mr) {
    const size_t kp = roundup(k, 4);
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * kp * 2, 0);
    for (size_t blk = 0; blk < blocks; ++blk) {
        for (size_t r = 0; r < mr; ++r) {
            const size_t i = blk * mr + r < m ? blk * mr + r : blk * mr;  // padding rows copy row 0
            for (size_t kk = 0; kk < kp; ++kk) {
                const uint16_t v = kk < k ? lhs[i * k + kk] : 0;
                // (i / mr) * mr * 2 * Kp + (k / 4) * mr * 8 + (i % mr) * 8 + (k % 4) * 2
                put_u16(out, blk * mr * kp * 2 + (kk / 4) * mr * 8 + r * 8 + (kk % 4) * 2, v);
            }
        }
    }
    return out;
}

std::vector<uint8_t> bf16_pack_rhs(const uint16_t* rhs_kxn, const float* bias, size_t n, size_t k,
                                   std::vector<uint8_t>* mask) {
    const size_t nr = 12;
    const size_t kp = roundup(k, 4);
    const size_t blocks = (n + nr - 1) / nr;
    const size_t block_bytes = nr * 4 + nr * kp * 2;
    std::vector<uint8_t> out(blocks * block_bytes, 0);
    if (mask != nullptr) mask->assign(out.size(), 1);
    for (size_t blk = 0; blk < blocks; ++blk) {
        const size_t base = blk * block_bytes;
        for (size_t j = 0; j < nr; ++j) {
            const size_t col = blk * nr + j;
            if (col < n) {
                const float b = bias != nullptr ? bias[col] : 0.0f;
                std::memcpy(out.data() + base + j * 4, &b, 4);
            } else if (mask != nullptr) {
                for (size_t t = 0; t < 4; ++t) (*mask)[base + j * 4 + t] = 0;
            }
            for (size_t kk = 0; kk < kp; ++kk) {
                const uint16_t v = col < n ? rhs_kxn[(kk < k ? kk : 0) * n + col] : 0;
                put_u16(out, base + nr * 4 + (kk / 4) * nr * 8 + j * 8 + (kk % 4) * 2, v);
            }
        }
    }
    return out;
}

void bf16_matmul(const uint16_t* a, const uint16_t* b, const float* bias, size_t m, size_t n, size_t k,
                 std::vector<double>* out, std::vector<double>* abs_sum) {
    out->assign(m * n, 0.0);
    abs_sum->assign(m * n, 0.0);
    std::vector<double> bd(k * n);
    for (size_t t = 0; t < k * n; ++t) bd[t] = f32_from_bf16(b[t]);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            const double bj = bias != nullptr ? static_cast<double>(bias[j]) : 0.0;
            double s = bj;
            double sa = std::fabs(bj);
            for (size_t kk = 0; kk < k; ++kk) {
                // The product of two bf16 values has at most 16 significant bits: exact in double.
                const double p = static_cast<double>(f32_from_bf16(a[i * k + kk])) * bd[kk * n + j];
                s += p;
                sa += std::fabs(p);
            }
            (*out)[i * n + j] = s;
            (*abs_sum)[i * n + j] = sa;
        }
    }
}

double bf16_clamp(double x, float min, float max) {
    // fmin/fmax semantics of the NEON instructions: NaN in, NaN out.
    if (std::isnan(x) || std::isnan(min) || std::isnan(max)) return std::nan("");
    const double lo = static_cast<double>(min);
    const double hi = static_cast<double>(max);
    const double y = x < hi ? x : hi;
    return y > lo ? y : lo;
}

// Error bound. The products a * b of two bf16 values are exact in f32 (16-bit significands).
// The kernels add them in f32: BFMMLA adds a group of 4 products to an accumulator per
// instruction, BFDOT a pair of 2, then the GEMV adds two partial sums (FADDP) and the bias. The
// Arm pseudocode of these instructions rounds each addition with a non-IEEE mode (round to odd for
// the intermediate sums, and the accumulate itself) and flushes denormals when FEAT_EBF16 is not
// enabled. We therefore count, for the longest chain any product goes through, one rounding per
// addition: at most 2 per BFDOT step, K/2 steps per partial sum, plus FADDP, bias and a slack of
// 2, i.e. n = Kp + 4 roundings, each with a relative error of at most u = 2^-23 (one ulp of f32,
// which covers round-to-odd and truncation, not only the half-ulp of round-to-nearest). The
// classic bound for a sum computed with n roundings is then
//     |fl(sum) - sum| <= gamma_n * sum |terms|,  gamma_n = n u / (1 - n u),
// with sum |terms| = |bias| + sum |a * b| = abs_sum. Denormal flushing adds at most FLT_MIN per
// flushed value (Kp + 4 of them). For bf16 output the kernel rounds the clamped f32 result c to
// bf16 (round to nearest even, relative error <= 2^-8 for an 8-bit significand):
//     |bf16(c) - exact_clamped| <= 2^-8 |c| + |c - exact_clamped|,  |c| <= |exact_clamped| + f32 bound.
// The clamp is 1-Lipschitz, so clamping never increases these differences.
double bf16_error_bound(double abs_sum, double exact_clamped, size_t k, bool bf16_output) {
    const double u = std::ldexp(1.0, -23);
    const double n = static_cast<double>(roundup(k, 4) + 4);
    const double gamma = n * u / (1.0 - n * u);
    const double f32_bound = gamma * abs_sum + n * std::ldexp(1.0, -126);
    if (!bf16_output) return f32_bound;
    return f32_bound + std::ldexp(1.0, -8) * (std::fabs(exact_clamped) + f32_bound);
}

uint16_t bf16_from_f16(uint16_t h) {
    if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0) {
        // NaN: FCVTL gives sign | 0x7FC00000 | mantissa << 13 (quiet bit set); BFCVTN keeps the
        // upper 16 bits of a NaN (quiet already): the f16 mantissa's top 7 bits.
        return static_cast<uint16_t>((h & 0x8000u) | 0x7FC0u | ((h & 0x3FFu) >> 3));
    }
    return bf16_from_f32(f32_from_f16(h));  // f16 -> f32 is exact for every other value
}

std::vector<uint8_t> bf16_pack_rhs_biasf16(const uint16_t* rhs_kxn, const uint16_t* bias_f16, size_t n, size_t k,
                                           std::vector<uint8_t>* mask) {
    const size_t nr = 12;
    const size_t kp = roundup(k, 4);
    const size_t blocks = (n + nr - 1) / nr;
    const size_t block_bytes = nr * 2 + nr * kp * 2;
    std::vector<uint8_t> out(blocks * block_bytes, 0);
    if (mask != nullptr) mask->assign(out.size(), 1);
    for (size_t blk = 0; blk < blocks; ++blk) {
        const size_t base = blk * block_bytes;
        for (size_t j = 0; j < nr; ++j) {
            const size_t col = blk * nr + j;
            if (col < n) {
                put_u16(out, base + j * 2, bias_f16 != nullptr ? bias_f16[col] : 0);
            } else if (mask != nullptr) {
                (*mask)[base + j * 2] = 0;
                (*mask)[base + j * 2 + 1] = 0;
            }
            for (size_t kk = 0; kk < kp; ++kk) {
                const uint16_t v = col < n ? rhs_kxn[(kk < k ? kk : 0) * n + col] : 0;
                put_u16(out, base + nr * 2 + (kk / 4) * nr * 8 + j * 8 + (kk % 4) * 2, v);
            }
        }
    }
    return out;
}

uint16_t f16_from_f32_rne(float x) {
    return f16_from_f32(x);  // reference_common: round to nearest even in double, >= 65520 -> inf
}

void f16_output_interval(double exact, double f32_bound, float min, float max, float* lo, float* hi) {
    const auto clamp = [&](float v) {
        const float y = v < max ? v : max;
        return y > min ? y : min;
    };
    if (std::isnan(exact)) {
        *lo = *hi = std::nanf("");
        return;
    }
    if (std::isinf(exact)) {
        // An infinite input term (the bound is then infinite too): the kernel's f32 value is that
        // infinity exactly.
        *lo = *hi = f32_from_f16(f16_from_f32_rne(clamp(static_cast<float>(exact))));
        return;
    }
    // To f32 outward (a double may not be an f32 value), then the kernel's clamp and rounding.
    const auto down = [](double v) {
        float f = static_cast<float>(v);
        if (static_cast<double>(f) > v) f = std::nextafter(f, -INFINITY);
        return f;
    };
    const auto up = [](double v) {
        float f = static_cast<float>(v);
        if (static_cast<double>(f) < v) f = std::nextafter(f, INFINITY);
        return f;
    };
    *lo = f32_from_f16(f16_from_f32_rne(clamp(down(exact - f32_bound))));
    *hi = f32_from_f16(f16_from_f32_rne(clamp(up(exact + f32_bound))));
}

}  // namespace kai_ref
