// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qsi4cxp_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

size_t kp_of(size_t k) { return (k + 31) / 32 * 32; }

// Byte offset of (lane j, logical k) inside a block (docs/formats.md, "qsi4cxp RHS") and whether it is the high nibble.
size_t nibble_offset(size_t j, size_t k, size_t nr, size_t kbl, bool* high) {
    const size_t c = k / 32, p = k % 32;
    *high = p >= 16;
    const size_t pp = p % 16;
    return c * 16 * nr + (pp / kbl) * nr * kbl + j * kbl + pp % kbl;
}

// Writes one block given a per-(lane, k) value function (signed, 0 in padding) and per-lane
// scale/bias.
template <typename ValueFn>
void write_block(uint8_t* block, size_t k, size_t nr, size_t kbl, ValueFn value, const std::vector<float>& s,
                 const std::vector<float>& b) {
    const size_t kp = kp_of(k);
    for (size_t j = 0; j < nr; ++j) {
        int32_t sum = 0;
        for (size_t kk = 0; kk < kp; ++kk) {
            const int8_t v = kk < k ? value(j, kk) : 0;
            sum += v;
            bool high = false;
            const size_t off = nibble_offset(j, kk, nr, kbl, &high);
            const uint8_t nib = static_cast<uint8_t>(v) & 0x0F;
            block[off] = high ? static_cast<uint8_t>((block[off] & 0x0F) | (nib << 4))
                              : static_cast<uint8_t>((block[off] & 0xF0) | nib);
        }
        const int32_t sum16 = 16 * sum;
        const float rs = s[j] * 0.0625f;
        std::memcpy(block + nr * kp / 2 + 4 * j, &sum16, 4);
        std::memcpy(block + nr * kp / 2 + 4 * nr + 4 * j, &rs, 4);
        std::memcpy(block + nr * kp / 2 + 8 * nr + 4 * j, &b[j], 4);
    }
}

}  // namespace

int8_t qs4_value(uint8_t nibble, uint8_t rhs_zero_point) {
    nibble &= 0x0F;
    if (rhs_zero_point == 8) return static_cast<int8_t>(static_cast<int>(nibble) - 8);
    return static_cast<int8_t>(nibble >= 8 ? static_cast<int>(nibble) - 16 : static_cast<int>(nibble));
}

std::vector<int8_t> qs4_nxk_values(const uint8_t* rhs, size_t n, size_t k, uint8_t zp) {
    std::vector<int8_t> w(n * k);
    const size_t row = (k + 1) / 2;
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) {
            const uint8_t byte = rhs[j * row + kk / 2];
            w[j * k + kk] = qs4_value(kk % 2 ? byte >> 4 : byte & 0x0F, zp);
        }
    return w;
}

std::vector<int8_t> qs4_kxn_values(const uint8_t* rhs, size_t n, size_t k, uint8_t zp) {
    std::vector<int8_t> w(n * k);
    const size_t row = (n + 1) / 2;
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) {
            const uint8_t byte = rhs[kk * row + j / 2];
            w[j * k + kk] = qs4_value(j % 2 ? byte >> 4 : byte & 0x0F, zp);
        }
    return w;
}

size_t qsi4cxp_block_stride(size_t k, size_t nr) { return nr * (kp_of(k) / 2 + 12); }

size_t qsi4cxp_packed_size(size_t n, size_t k, size_t nr) { return (n + nr - 1) / nr * qsi4cxp_block_stride(k, nr); }

std::vector<uint8_t> pack_qsi4cxp_nxk(size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs,
                                      const float* bias, const float* scale, uint8_t zp) {
    std::vector<uint8_t> out(qsi4cxp_packed_size(n, k, nr), 0);
    const std::vector<int8_t> w = qs4_nxk_values(rhs, n, k, zp);
    const size_t kbl = kr / sr;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        std::vector<float> s(nr), b(nr);
        for (size_t j = 0; j < nr; ++j) {
            const size_t ch = std::min(n0 + j, n - 1);  // padded lanes copy the last channel
            s[j] = scale[ch];
            b[j] = bias ? bias[ch] : 0.0f;
        }
        auto value = [&](size_t j, size_t kk) { return w[std::min(n0 + j, n - 1) * k + kk]; };
        write_block(out.data() + n0 / nr * qsi4cxp_block_stride(k, nr), k, nr, kbl, value, s, b);
    }
    return out;
}

std::vector<uint8_t> pack_qsi4cxp_kxn(size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs,
                                      const float* bias, const float* scale, uint8_t zp) {
    std::vector<uint8_t> out(qsi4cxp_packed_size(n, k, nr), 0);
    const size_t row = (n + 1) / 2;
    const size_t kbl = kr / sr;
    for (size_t n0 = 0; n0 < n; n0 += nr) {
        std::vector<float> s(nr), b(nr);
        for (size_t j = 0; j < nr; ++j) {
            const size_t ch = std::min(n0 + j, n - 1);
            s[j] = scale[ch];
            b[j] = bias ? bias[ch] : 0.0f;
        }
        // Padded lanes: nibble of the lane's own parity from byte (n-1)/2 (KleidiAI's bytes).
        auto value = [&](size_t j, size_t kk) {
            const size_t ch = n0 + j;
            const size_t byte_idx = std::min(ch, n - 1) / 2;
            const uint8_t byte = rhs[kk * row + byte_idx];
            return qs4_value(ch % 2 ? byte >> 4 : byte & 0x0F, zp);
        };
        write_block(out.data() + n0 / nr * qsi4cxp_block_stride(k, nr), k, nr, kbl, value, s, b);
    }
    return out;
}

std::vector<uint8_t> quantize_qs4cx_nxk(const float* w, size_t n, size_t k, float* scales) {
    const size_t row = (k + 1) / 2;
    std::vector<uint8_t> out(n * row, 0);
    for (size_t j = 0; j < n; ++j) {
        float amax = 0.0f;
        for (size_t kk = 0; kk < k; ++kk) amax = std::max(amax, std::fabs(w[j * k + kk]));
        const float scale = amax > 0.0f ? amax / 7.0f : 1.0f;
        scales[j] = scale;
        for (size_t kk = 0; kk < k; ++kk) {
            const long q = std::lround(w[j * k + kk] / scale);
            const uint8_t u = static_cast<uint8_t>(std::min(7L, std::max(-8L, q)) + 8);
            out[j * row + kk / 2] |= static_cast<uint8_t>(kk % 2 ? u << 4 : u);
        }
    }
    return out;
}

float arm_fmax(float a, float b) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == 0.0f && b == 0.0f) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

float arm_fmin(float a, float b) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == 0.0f && b == 0.0f) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

std::vector<float> matmul_qai8dxp_qsi4cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                         const float* scale, const float* bias, float clamp_min, float clamp_max) {
    const size_t m = lhs.m;
    std::vector<float> dst(m * n);
    for (size_t j = 0; j < n; ++j) {
        int32_t s16 = 0;
        for (size_t kk = 0; kk < k; ++kk) s16 += 16 * w[j * k + kk];
        const volatile float rs = scale[j] * 0.0625f;
        const float b = bias ? bias[j] : 0.0f;
        for (size_t i = 0; i < m; ++i) {
            // Step 1: int32 accumulation over the padded K (weights are 0 in the padding).
            uint32_t acc = 0;  // unsigned: wrap-around like the hardware
            for (size_t kk = 0; kk < k; ++kk)
                acc += static_cast<uint32_t>(static_cast<int32_t>(lhs.q[i * lhs.kp + kk]) * (16 * w[j * k + kk]));
            // Step 2: T = A + S16 * off (wrapping).
            acc += static_cast<uint32_t>(s16) * static_cast<uint32_t>(lhs.offset[i]);
            const int32_t t = static_cast<int32_t>(acc);
            volatile float y = static_cast<float>(t);   // 3: RNE
            volatile float s = rs * lhs.scale[i];       // 4
            y = y * s;                                  // 5
            y = y + b;                                  // 6
            float r = arm_fmin(arm_fmax(y, clamp_min), clamp_max);  // 7
            dst[i * n + j] = r;
        }
    }
    return dst;
}

std::vector<uint16_t> matmul_qai8dxp_qsi4cx_bf16(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                            const float* scale, const float* bias, float clamp_min, float clamp_max) {
    const std::vector<float> y = matmul_qai8dxp_qsi4cx(lhs, n, k, w, scale, bias, clamp_min, clamp_max);
    std::vector<uint16_t> out(y.size());
    for (size_t i = 0; i < y.size(); ++i) out[i] = bf16_from_f32(y[i]);
    return out;
}

}  // namespace kai_ref
