// SPDX-License-Identifier: Apache-2.0
#include "test/reference/sme_f16_ref.h"

#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

void put16(std::vector<uint8_t>* out, size_t halfword, uint16_t v) {
    std::memcpy(out->data() + halfword * 2, &v, 2);
}

}  // namespace

std::vector<uint8_t> sme_pack_lhs_x16p2vlx2(const uint16_t* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr) {
    const size_t kp = (k + 1) / 2 * 2;
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * kp * 2, 0);
    for (size_t i = 0; i < m; ++i) {
        const size_t b = i / mr, r = i % mr;
        for (size_t kk = 0; kk < k; ++kk) {
            put16(&out, b * mr * kp + ((kk / 2) * mr + r) * 2 + kk % 2, lhs[i * lhs_stride + kk]);
        }
    }
    return out;
}

std::vector<uint8_t> sme_pack_rhs_x16p2vlx2b(const uint16_t* rhs, bool kxn, size_t rhs_stride, const uint16_t* bias,
                                             size_t n, size_t k, size_t nr) {
    const size_t kp = (k + 1) / 2 * 2;
    const size_t per_block = nr * (1 + kp);  // halfwords
    const size_t blocks = (n + nr - 1) / nr;
    std::vector<uint8_t> out(blocks * per_block * 2, 0);
    for (size_t j = 0; j < n; ++j) {
        const size_t b = j / nr, c = j % nr;
        put16(&out, b * per_block + c, bias[j]);
        for (size_t kk = 0; kk < k; ++kk) {
            const uint16_t v = kxn ? rhs[kk * rhs_stride + j] : rhs[j * rhs_stride + kk];
            put16(&out, b * per_block + nr + ((kk / 2) * nr + c) * 2 + kk % 2, v);
        }
    }
    return out;
}

void sme_matmul_f16_exact(const uint16_t* lhs, const uint16_t* rhs_kxn, const uint16_t* bias, size_t m, size_t n,
                          size_t k, std::vector<double>* exact, std::vector<double>* abs_sum) {
    exact->assign(m * n, 0.0);
    abs_sum->assign(m * n, 0.0);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            double s = f32_from_f16(bias[j]);
            double a = std::fabs(s);
            for (size_t kk = 0; kk < k; ++kk) {
                const double p = static_cast<double>(f32_from_f16(lhs[i * k + kk])) * f32_from_f16(rhs_kxn[kk * n + j]);
                s += p;
                a += std::fabs(p);
            }
            (*exact)[i * n + j] = s;
            (*abs_sum)[i * n + j] = a;
        }
    }
}

uint16_t sme_f16_output(double x, float lo, float hi, bool fclamp) {
    // x -> f32 -> f16 rounds twice; the f32 step is exact for the exact sums of f16 products of the tests
    // (at most 24 significant bits are needed only when k is small; otherwise the error is inside the bound).
    const float y = f32_from_f16(f16_from_f32(static_cast<float>(x)));
    const float lo16 = f32_from_f16(f16_from_f32(lo));
    const float hi16 = f32_from_f16(f16_from_f32(hi));
    float r;
    if (fclamp) {
        r = std::isnan(y) ? lo16 : (y < lo16 ? lo16 : y);  // maxNum
        r = std::isnan(r) ? hi16 : (r > hi16 ? hi16 : r);  // minNum
    } else {
        if (std::isnan(y)) return f16_from_f32(y);
        r = y > hi16 ? hi16 : y;
        r = r < lo16 ? lo16 : r;
    }
    return f16_from_f32(r);
}

double sme_f16_error_bound(double abs_sum, size_t k, double magnitude) {
    // Kernel: acc is a sum of the exact bias and k exact products (f16 x f16 fits f32), rounded at most k + 1 times
    // (a FMOPA pair may round once or twice), each rounding off by at most 2^-24 of the running |sum| <= abs_sum:
    // |acc - exact| <= (k + 2) * 2^-24 * abs_sum. The reference rounds exact (through f32, one more 2^-24) to
    // f16. Two values within e of each other round to f16 values at most e + ulp apart, ulp the f16 spacing at
    // the larger magnitude (2^-24 below the normal range); the clamp is 1-Lipschitz. Twice the f32 term covers
    // both sides.
    const double a = std::fabs(magnitude) + 2.0 * (static_cast<double>(k) + 2.0) * std::ldexp(abs_sum, -24);
    const int e = a > 0 ? std::ilogb(a) : -24;
    const double ulp = std::ldexp(1.0, (e < -14 ? -14 : e) - 10);
    return 2.0 * (static_cast<double>(k) + 2.0) * std::ldexp(abs_sum, -24) + ulp;
}

}  // namespace kai_ref
