// SPDX-License-Identifier: Apache-2.0
#include "test/reference/f16p_qsi4c32p_ref.h"

#include <cmath>

#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"

namespace kai_ref {

std::vector<uint8_t> pack_lhs_f16pmrx2(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr, uint8_t fill,
                                       std::vector<uint8_t>* mask) {
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * k * 2, fill);
    if (mask != nullptr) mask->assign(out.size(), 0);
    for (size_t r = 0; r < m; ++r) {
        const float* row = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + r * lhs_stride);
        for (size_t kk = 0; kk < k; ++kk) {
            const size_t half = (r / mr) * mr * k + ((kk / 2) * mr + r % mr) * 2 + kk % 2;
            const uint16_t h = f16_from_f32(row[kk]);
            out[2 * half] = static_cast<uint8_t>(h & 0xFF);
            out[2 * half + 1] = static_cast<uint8_t>(h >> 8);
            if (mask != nullptr) (*mask)[2 * half] = (*mask)[2 * half + 1] = 1;
        }
    }
    return out;
}

uint16_t f16_q4_0_weight(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t kk) {
    const float d = f32_from_f16(q4_0_scale(rows, k, bl, j, kk / bl));
    // (u - 8) * d is exact in f32 (an 11-bit significand times a 4-bit integer); one rounding to f16.
    return f16_from_f32(static_cast<float>(q4_0_weight(rows, k, bl, j, kk)) * d);
}

void matmul_f16_q4_0_exact(const float* lhs, size_t lhs_stride, size_t m, size_t k, size_t bl, const uint8_t* rows,
                           size_t n, std::vector<double>* exact, std::vector<double>* abs_sum) {
    std::vector<double> a(m * k), w(n * k);
    for (size_t i = 0; i < m; ++i) {
        const float* row = reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(lhs) + i * lhs_stride);
        for (size_t kk = 0; kk < k; ++kk) a[i * k + kk] = f32_from_f16(f16_from_f32(row[kk]));
    }
    for (size_t j = 0; j < n; ++j) {
        for (size_t kk = 0; kk < k; ++kk) w[j * k + kk] = f32_from_f16(f16_q4_0_weight(rows, k, bl, j, kk));
    }
    exact->assign(m * n, 0.0);
    abs_sum->assign(m * n, 0.0);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            double s = 0.0, t = 0.0;
            for (size_t kk = 0; kk < k; ++kk) {
                const double p = a[i * k + kk] * w[j * k + kk];  // exact: two 11-bit significands
                s += p;
                t += std::fabs(p);
            }
            (*exact)[i * n + j] = s;
            (*abs_sum)[i * n + j] = t;
        }
    }
}

double f16_q4_0_error_bound(double abs_sum, size_t k) {
    return 2.0 * static_cast<double>(k + 2) * std::ldexp(1.0, -24) * abs_sum;
}

double clamp_f16_q4_0(double x, float lo, float hi) {
    if (std::isnan(x)) return std::fmin(static_cast<double>(lo), static_cast<double>(hi));
    double y = x < static_cast<double>(lo) ? static_cast<double>(lo) : x;
    return y > static_cast<double>(hi) ? static_cast<double>(hi) : y;
}

}  // namespace kai_ref
