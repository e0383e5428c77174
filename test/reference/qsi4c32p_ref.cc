// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qsi4c32p_ref.h"

#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

// NEON FMAX / FMIN: a NaN operand gives that NaN, quietened; max(-0, +0) = +0, min(-0, +0) = -0.
float quiet(float x) {
    return f32_from_bits(f32_bits(x) | 0x00400000u);
}
float neon_fmax(float a, float b) {
    if (std::isnan(a)) return quiet(a);
    if (std::isnan(b)) return quiet(b);
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
float neon_fmin(float a, float b) {
    if (std::isnan(a)) return quiet(a);
    if (std::isnan(b)) return quiet(b);
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

void put_f32(uint8_t* p, float v) {
    std::memcpy(p, &v, sizeof(v));
}

// Writes one packed channel lane: u(k) gives its unsigned nibbles, d its block scales (raw).
template <typename NibbleFn>
void pack_lane(uint8_t* block, size_t lane, size_t nr, size_t kbl, size_t k, size_t bl, NibbleFn u,
               const uint8_t* scale_row, float bias) {
    const size_t nb = k / bl;
    const size_t qblock = nr * (bl / 2 + 2);
    float sum = 0.0f;
    for (size_t b = 0; b < nb; ++b) {
        uint8_t* q = block + b * qblock;
        uint16_t raw;
        std::memcpy(&raw, scale_row + 2 * b, 2);
        std::memcpy(q + nr * bl / 2 + 2 * lane, &raw, 2);
        const float d = f32_from_bf16(raw);
        for (size_t c = 0; c < bl / 32; ++c) {
            for (size_t s = 0; s < 16 / kbl; ++s) {
                int32_t g = 0;
                for (size_t t = 0; t < kbl; ++t) {
                    const size_t kk = 32 * c + s * kbl + t;  // position in the block; pairs with kk + 16
                    const uint8_t lo = u(b * bl + kk);
                    const uint8_t hi = u(b * bl + kk + 16);
                    q[c * 16 * nr + s * nr * kbl + lane * kbl + t] = static_cast<uint8_t>((lo ^ 8) | ((hi ^ 8) << 4));
                    g += static_cast<int32_t>(lo) + static_cast<int32_t>(hi) - 16;
                }
                sum = sum + static_cast<float>(g) * d;  // exact product, one rounding
            }
        }
    }
    uint8_t* tail = block + nb * qblock;
    put_f32(tail + 4 * lane, sum);
    put_f32(tail + 4 * nr + 4 * lane, bias);
}

}  // namespace

uint8_t qsu4_nxk_nibble(const uint8_t* rhs, size_t rhs_stride, size_t j, size_t k) {
    return static_cast<uint8_t>((rhs[j * rhs_stride + k / 2] >> (4 * (k % 2))) & 0xF);
}

uint8_t qsu4_kxn_nibble(const uint8_t* rhs, size_t rhs_stride, size_t j, size_t k) {
    return static_cast<uint8_t>((rhs[k * rhs_stride + j / 2] >> (4 * (j % 2))) & 0xF);
}

size_t qsi4c32p_block_stride(size_t k, size_t nr, size_t bl) {
    return nr * ((k / bl) * (bl / 2 + 2) + 8);
}

size_t qsi4c32p_packed_size(size_t n, size_t k, size_t nr, size_t bl) {
    return (n + nr - 1) / nr * qsi4c32p_block_stride(k, nr, bl);
}

std::vector<uint8_t> pack_qsi4c32p_nxk(size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl,
                                       const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                       const uint8_t* scale, size_t scale_stride) {
    std::vector<uint8_t> out(qsi4c32p_packed_size(n, k, nr, bl), 0);
    const size_t stride = qsi4c32p_block_stride(k, nr, bl);
    for (size_t j = 0; j < (n + nr - 1) / nr * nr; ++j) {
        const size_t ch = j < n ? j : n - 1;  // padded lanes copy the last channel
        auto u = [&](size_t kk) { return qsu4_nxk_nibble(rhs, rhs_stride, ch, kk); };
        pack_lane(out.data() + j / nr * stride, j % nr, nr, kr / sr, k, bl, u, scale + ch * scale_stride,
                  bias ? bias[ch] : 0.0f);
    }
    return out;
}

std::vector<uint8_t> pack_qsi4c32p_kxn(size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl,
                                       const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                       const uint8_t* scale, size_t scale_stride) {
    std::vector<uint8_t> out(qsi4c32p_packed_size(n, k, nr, bl), 0);
    const size_t stride = qsi4c32p_block_stride(k, nr, bl);
    for (size_t j = 0; j < (n + nr - 1) / nr * nr; ++j) {
        const size_t ch = j < n ? j : n - 1;
        // Padded lanes: byte (n - 1) / 2 of each K row, nibble chosen by the lane's own parity.
        const size_t byte = j < n ? j / 2 : (n - 1) / 2;
        const unsigned shift = static_cast<unsigned>(4 * (j % 2));
        auto u = [&](size_t kk) { return static_cast<uint8_t>((rhs[kk * rhs_stride + byte] >> shift) & 0xF); };
        pack_lane(out.data() + j / nr * stride, j % nr, nr, kr / sr, k, bl, u, scale + ch * scale_stride,
                  bias ? bias[ch] : 0.0f);
    }
    return out;
}

float qsi4c32p_row_sum(const int8_t* w, const float* d, size_t k, size_t bl, size_t kbl) {
    float sum = 0.0f;
    for (size_t b = 0; b < k / bl; ++b) {
        for (size_t c = 0; c < bl / 32; ++c) {
            for (size_t s = 0; s < 16 / kbl; ++s) {
                int32_t g = 0;
                for (size_t t = 0; t < kbl; ++t) {
                    const size_t kk = b * bl + 32 * c + s * kbl + t;
                    g += w[kk] + w[kk + 16];
                }
                sum = sum + static_cast<float>(g) * d[b];
            }
        }
    }
    return sum;
}

std::vector<float> matmul_qai8dxp_qsi4c32(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl, const int8_t* w,
                                          const float* d, const float* row_sum, const float* bias, float clamp_min,
                                          float clamp_max) {
    const size_t m = lhs.m;
    const size_t nb = k / bl;
    std::vector<float> dst(m * n);
    for (size_t i = 0; i < m; ++i) {
        const int8_t* q = lhs.q.data() + i * lhs.kp;
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                int32_t isum = 0;  // sum of q * 16 w over the block, as the kernels form it
                for (size_t kk = b * bl; kk < (b + 1) * bl; ++kk) isum += q[kk] * (16 * w[j * k + kk]);
                const float f = static_cast<float>(isum) / 16.0f;  // RNE conversion, exact scaling
                acc = std::fma(f, d[j * nb + b], acc);
            }
            acc = std::fma(row_sum[j], static_cast<float>(lhs.offset[i]), acc);
            float y = acc * lhs.scale[i];
            y = y + (bias ? bias[j] : 0.0f);
            dst[i * n + j] = neon_fmin(neon_fmax(y, clamp_min), clamp_max);
        }
    }
    return dst;
}

std::vector<float> matmul_qai8dxp_qsi4c32_sme2(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl,
                                               const int8_t* w, const float* d, const float* row_sum,
                                               const float* bias, float clamp_min, float clamp_max) {
    const size_t m = lhs.m;
    const size_t nb = k / bl;
    std::vector<float> dst(m * n);
    for (size_t i = 0; i < m; ++i) {
        const int8_t* q = lhs.q.data() + i * lhs.kp;
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (size_t b = 0; b < nb; ++b) {
                int32_t isum = 0;  // the block's plain int32 dot product
                for (size_t kk = b * bl; kk < (b + 1) * bl; ++kk) isum += q[kk] * w[j * k + kk];
                const float f = static_cast<float>(isum);
                volatile float prod = f * d[j * nb + b];  // first block: one rounded product, no addition
                acc = b == 0 ? static_cast<float>(prod) : std::fma(f, d[j * nb + b], acc);
            }
            acc = std::fma(static_cast<float>(lhs.offset[i]), row_sum[j], acc);
            volatile float y = acc * lhs.scale[i];
            const float yb = static_cast<float>(y) + (bias ? bias[j] : 0.0f);
            // FCLAMP: maxNum then minNum, a NaN operand loses to the number.
            const float lo = std::isnan(yb) ? clamp_min : std::fmax(yb, clamp_min);
            dst[i * n + j] = std::fmin(lo, clamp_max);
        }
    }
    return dst;
}

std::vector<uint16_t> matmul_qai8dxp_qsi4c32_bf16(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl,
                                             const int8_t* w, const float* d, const float* row_sum,
                                             const float* bias, float clamp_min, float clamp_max) {
    const std::vector<float> y = matmul_qai8dxp_qsi4c32(lhs, n, k, bl, w, d, row_sum, bias, clamp_min, clamp_max);
    std::vector<uint16_t> out(y.size());
    for (size_t i = 0; i < y.size(); ++i) out[i] = bf16_from_f32(y[i]);
    return out;
}

}  // namespace kai_ref
