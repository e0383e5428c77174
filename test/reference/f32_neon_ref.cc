// SPDX-License-Identifier: Apache-2.0
#include "test/reference/f32_neon_ref.h"

#include <cmath>
#include <cstring>

namespace kai_ref {

std::vector<uint8_t> f32_pack_rhs_kxn_bias(const float* rhs_kxn, size_t rhs_stride, const float* bias, size_t n,
                                           size_t k, size_t nr) {
    const size_t blocks = (n + nr - 1) / nr;
    std::vector<float> out(blocks * nr * (1 + k), 0.0f);
    for (size_t blk = 0; blk < blocks; ++blk) {
        float* base = out.data() + blk * nr * (1 + k);
        for (size_t j = 0; j < nr; ++j) {
            const size_t col = blk * nr + j;
            if (col >= n) continue;
            base[j] = bias[col];
            for (size_t kk = 0; kk < k; ++kk) base[nr + kk * nr + j] = rhs_kxn[kk * rhs_stride + col];
        }
    }
    std::vector<uint8_t> bytes(out.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), out.data(), bytes.size());
    return bytes;
}

float f32_clamp_min_max(float x, float lo, float hi) {
    if (std::isnan(x)) return x;
    float y = x < hi ? x : hi;
    return y > lo ? y : lo;
}

std::vector<float> f32_matmul_fma(const float* lhs, size_t lhs_stride, const float* rhs_kxn, size_t rhs_stride,
                                  const float* bias, size_t m, size_t n, size_t k, float lo, float hi) {
    std::vector<float> out(m * n);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            float acc = bias != nullptr ? bias[j] : 0.0f;
            for (size_t kk = 0; kk < k; ++kk) acc = std::fmaf(lhs[i * lhs_stride + kk], rhs_kxn[kk * rhs_stride + j], acc);
            out[i * n + j] = f32_clamp_min_max(acc, lo, hi);
        }
    }
    return out;
}

void f32_matmul_exact(const float* lhs, size_t lhs_stride, const float* rhs_kxn, size_t rhs_stride, const float* bias,
                      size_t m, size_t n, size_t k, std::vector<double>* out, std::vector<double>* abs_sum) {
    out->assign(m * n, 0.0);
    abs_sum->assign(m * n, 0.0);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            double acc = bias != nullptr ? bias[j] : 0.0;
            double scale = std::fabs(acc);
            for (size_t kk = 0; kk < k; ++kk) {
                const double p = (double)lhs[i * lhs_stride + kk] * (double)rhs_kxn[kk * rhs_stride + j];
                acc += p;
                scale += std::fabs(p);
            }
            (*out)[i * n + j] = acc;
            (*abs_sum)[i * n + j] = scale;
        }
    }
}

double f32_error_bound(double abs_sum, size_t k) {
    // The double sum itself is off by at most about k * 2^-53 * abs_sum, far below the slack of the + 2.
    return (double)(k + 2) * std::ldexp(1.0, -24) * abs_sum;
}

}  // namespace kai_ref
