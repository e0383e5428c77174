// SPDX-License-Identifier: Apache-2.0
// Reference of the static int8 SME family from docs/formats.md; no intrinsics, no code of the units under test.
#include "test/reference/qai8_static_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kai_ref {

namespace {
size_t roundup4(size_t v) {
    return (v + 3) / 4 * 4;
}

// "Static int8 requantization", steps 2-4, for one accumulator.
int8_t requantize(int32_t acc, float s, const Qai8Params& p) {
    const float y = static_cast<float>(acc) * s;                       // two roundings to nearest even
    const float r = std::nearbyint(y);                                 // default mode: ties to even
    int32_t q;
    if (r >= 2147483648.0f) {
        q = INT32_MAX;
    } else if (r < -2147483648.0f) {
        q = INT32_MIN;
    } else {
        q = static_cast<int32_t>(r);
    }
    const int32_t o = static_cast<int32_t>(static_cast<uint32_t>(q) + static_cast<uint32_t>(p.output_zero_point));
    return static_cast<int8_t>(std::min(std::max(o, p.min_value), p.max_value));
}
}  // namespace

std::vector<uint8_t> pack_lhs_x8p2vlx4(size_t m, size_t k, size_t mr, const uint8_t* lhs, size_t stride) {
    const size_t kp = roundup4(k);
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * kp, 0);
    for (size_t i = 0; i < m; ++i) {
        uint8_t* block = out.data() + i / mr * mr * kp;
        const size_t r = i % mr;
        for (size_t kk = 0; kk < k; ++kk) block[(kk / 4 * mr + r) * 4 + kk % 4] = lhs[i * stride + kk];
    }
    return out;
}

std::vector<uint8_t> pack_rhs_qsi8cxp2vlx4sb(size_t n, size_t k, size_t nr, const int8_t* rhs, size_t stride,
                                             const int32_t* bias, const float* scale, int32_t lhs_zero_point,
                                             float scale_multiplier) {
    const size_t kp = roundup4(k);
    const size_t block_bytes = nr * (kp + 8);
    const size_t blocks = (n + nr - 1) / nr;
    std::vector<uint8_t> out(blocks * block_bytes, 0);
    for (size_t j = 0; j < n; ++j) {
        uint8_t* block = out.data() + j / nr * block_bytes;
        const size_t c = j % nr;
        int64_t sum = 0;
        for (size_t kk = 0; kk < k; ++kk) {
            const int8_t v = rhs[kk * stride + j];
            block[nr * 4 + (kk / 4 * nr + c) * 4 + kk % 4] = static_cast<uint8_t>(v);
            sum += v;
        }
        // bias - zp * sum modulo 2^32.
        const uint32_t folded = static_cast<uint32_t>(static_cast<int64_t>(bias[j]) -
                                                      static_cast<int64_t>(lhs_zero_point) * sum);
        const float s = scale[j] * scale_multiplier;
        std::memcpy(block + c * 4, &folded, 4);
        std::memcpy(block + nr * 4 + nr * kp + c * 4, &s, 4);
    }
    return out;
}

std::vector<uint8_t> pack_lhs_indirect_x8p2vlx4(size_t m, size_t k_chunk_count, size_t k_chunk_length, size_t mr,
                                                const std::vector<const uint8_t*>& rows) {
    const size_t kc = roundup4(k_chunk_length);
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * k_chunk_count * mr * kc, 0);
    for (size_t i = 0; i < m; ++i) {
        for (size_t c = 0; c < k_chunk_count; ++c) {
            // Block i / mr holds its chunks one after the other, each an mr x Kc x8p2vlx4 tile.
            uint8_t* tile = out.data() + (i / mr * k_chunk_count + c) * mr * kc;
            const uint8_t* src = rows[i * k_chunk_count + c];
            for (size_t kk = 0; kk < k_chunk_length; ++kk) tile[(kk / 4 * mr + i % mr) * 4 + kk % 4] = src[kk];
        }
    }
    return out;
}

std::vector<uint8_t> pack_rhs_indirect_qsi8cxp2vlx4sb(size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t nr,
                                                      const int8_t* rhs, size_t stride, const int32_t* bias,
                                                      const float* scale, int32_t lhs_zero_point,
                                                      float scale_multiplier) {
    // Each chunk padded on its own to a multiple of 4 rows is the plain layout of the stacked padded chunks.
    const size_t kc = roundup4(k_chunk_length);
    std::vector<int8_t> stacked(k_chunk_count * kc * n, 0);
    for (size_t c = 0; c < k_chunk_count; ++c)
        for (size_t r = 0; r < k_chunk_length; ++r)
            for (size_t j = 0; j < n; ++j) stacked[(c * kc + r) * n + j] = rhs[(c * k_chunk_length + r) * stride + j];
    return pack_rhs_qsi8cxp2vlx4sb(n, k_chunk_count * kc, nr, stacked.data(), n, bias, scale, lhs_zero_point,
                                   scale_multiplier);
}

std::vector<int8_t> matmul_qai8_static(size_t m, size_t n, size_t k, const int8_t* lhs, const int8_t* rhs,
                                       const int32_t* bias, const float* scale, const Qai8Params& p) {
    std::vector<int8_t> dst(m * n);
    for (size_t j = 0; j < n; ++j) {
        const float s = scale[j] * p.scale_multiplier;
        for (size_t i = 0; i < m; ++i) {
            // acc = bias + sum (a - zp) * w, modulo 2^32 (the packer folds -zp * sum w into the bias).
            int64_t acc = bias[j];
            for (size_t kk = 0; kk < k; ++kk) {
                acc += (static_cast<int64_t>(lhs[i * k + kk]) - p.lhs_zero_point) * rhs[kk * n + j];
            }
            const int32_t acc32 = static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc)));
            dst[i * n + j] = requantize(acc32, s, p);
        }
    }
    return dst;
}

}  // namespace kai_ref
