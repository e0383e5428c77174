// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qsi8cxp_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kai_ref {

namespace {

size_t kp_of(size_t k) { return (k + 31) / 32 * 32; }

// NEON FMAX / FMIN semantics (NaN propagates; max(-0, +0) = +0, min(-0, +0) = -0).
float neon_fmax(float a, float b) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == 0.0f && b == 0.0f) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

float neon_fmin(float a, float b) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == 0.0f && b == 0.0f) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

}  // namespace

size_t qsi8cxp_block_stride(size_t k, size_t nr) { return nr * (kp_of(k) + 12); }

size_t qsi8cxp_packed_size(size_t n, size_t k, size_t nr) { return (n + nr - 1) / nr * qsi8cxp_block_stride(k, nr); }

std::vector<int8_t> qsi8_nxk_values(const int8_t* rhs, size_t n, size_t k) { return std::vector<int8_t>(rhs, rhs + n * k); }

std::vector<int8_t> qsi8_kxn_values(const int8_t* rhs, size_t n, size_t k) {
    std::vector<int8_t> w(n * k);
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) w[j * k + kk] = rhs[kk * n + j];
    return w;
}

std::vector<uint8_t> pack_qsi8cxp(size_t n, size_t k, size_t nr, size_t kr, const int8_t* w, const float* bias,
                                  const float* scale, int32_t lhs_zero_point) {
    const size_t kp = kp_of(k), stride = qsi8cxp_block_stride(k, nr);
    std::vector<uint8_t> out(qsi8cxp_packed_size(n, k, nr), 0xEE);  // every byte is written below
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        uint8_t* block = out.data() + n0 / nr * stride;
        for (size_t j = 0; j < nr; ++j) {
            const size_t ch = std::min(n0 + j, n - 1);
            int64_t sum = 0;
            for (size_t kk = 0; kk < kp; ++kk) {
                const int8_t v = kk < k ? w[ch * k + kk] : 0;
                block[(kk / kr) * nr * kr + j * kr + kk % kr] = static_cast<uint8_t>(v);
                sum += v;
            }
            // lhs_zero_point * sum in int32 with wrap-around.
            const int32_t s = static_cast<int32_t>(static_cast<uint32_t>(sum) * static_cast<uint32_t>(lhs_zero_point));
            const float b = bias ? bias[ch] : 0.0f;
            std::memcpy(block + nr * kp + 4 * j, &s, 4);
            std::memcpy(block + nr * kp + 4 * nr + 4 * j, &scale[ch], 4);
            std::memcpy(block + nr * kp + 8 * nr + 4 * j, &b, 4);
        }
    }
    return out;
}

std::vector<int8_t> quantize_qsi8cx_nxk(const float* w, size_t n, size_t k, float* scales) {
    std::vector<int8_t> q(n * k);
    for (size_t j = 0; j < n; ++j) {
        float amax = 0.0f;
        for (size_t kk = 0; kk < k; ++kk) amax = std::max(amax, std::fabs(w[j * k + kk]));
        const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
        scales[j] = s;
        for (size_t kk = 0; kk < k; ++kk) {
            const long v = std::lround(w[j * k + kk] / s);
            q[j * k + kk] = static_cast<int8_t>(std::min(127L, std::max(-127L, v)));
        }
    }
    return q;
}

std::vector<float> matmul_qai8dxp_qsi8cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                         const float* scale, const float* bias, float clamp_min, float clamp_max,
                                         bool fused_scale_bias, bool fclamp) {
    const size_t m = lhs.m;
    std::vector<float> dst(m * n);
    for (size_t j = 0; j < n; ++j) {
        int32_t sum = 0;
        for (size_t kk = 0; kk < k; ++kk) sum += w[j * k + kk];
        const float b = bias ? bias[j] : 0.0f;
        for (size_t i = 0; i < m; ++i) {
            // Step 1: int32 accumulation (the weights are 0 in the K padding, so k suffices).
            uint32_t acc = 0;  // unsigned: wrap-around like the hardware
            for (size_t kk = 0; kk < k; ++kk)
                acc += static_cast<uint32_t>(static_cast<int32_t>(lhs.q[i * lhs.kp + kk]) * w[j * k + kk]);
            // Step 2: T = A + sum_j * off_i (wrapping).
            acc += static_cast<uint32_t>(sum) * static_cast<uint32_t>(lhs.offset[i]);
            const int32_t t = static_cast<int32_t>(acc);
            volatile float y = static_cast<float>(t);       // 3: RNE
            volatile float s = scale[j] * lhs.scale[i];     // 4
            if (fused_scale_bias) {
                y = std::fma(static_cast<float>(y), static_cast<float>(s), b);  // 5 + 6, one rounding (docs/formats.md, "SME matmul recipes")
            } else {
                y = y * s;                                  // 5
                y = y + b;                                  // 6
            }
            float out = y;
            if (fclamp) {  // 7, maxNum then minNum: a NaN operand is ignored
                out = std::isnan(out) ? clamp_min : (out < clamp_min ? clamp_min : out);
                out = std::isnan(out) ? clamp_max : (out > clamp_max ? clamp_max : out);
            } else {
                out = neon_fmin(neon_fmax(out, clamp_min), clamp_max);  // 7
            }
            dst[i * n + j] = out;
        }
    }
    return dst;
}

}  // namespace kai_ref
