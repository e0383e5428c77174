// SPDX-License-Identifier: Apache-2.0
#include "test/reference/qsu2cxp_ref.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace kai_ref {

namespace {

const int32_t kDefaultLut[4] = {-2, -1, 0, 1};

// Step 6 of "qsu2cxp matmul": FMAX with lo, then FMIN with hi; NaN propagates, max(-0, +0) = +0,
// min(-0, +0) = -0.
float clamp_fmax_fmin(float y, float lo, float hi) {
    if (std::isnan(y) || std::isnan(lo)) return std::isnan(y) ? y : lo;
    if (y == lo) y = std::signbit(y) ? lo : y;
    else if (y < lo) y = lo;
    if (std::isnan(hi)) return hi;
    if (y == hi) return std::signbit(y) ? y : hi;
    return y > hi ? hi : y;
}

// FCLAMP: maxNum(y, lo) then minNum(., hi); a NaN operand is ignored, so a NaN y gives lo (hi when below it).
float fclamp(float y, float lo, float hi) {
    y = std::isnan(y) ? lo : (y < lo ? lo : y);
    return std::isnan(y) ? hi : (y > hi ? hi : y);
}

}  // namespace

const int32_t* qsu2_default_lut() { return kDefaultLut; }

int qsu2_code(const uint8_t* rhs, size_t k, size_t j, size_t kk) {
    return (rhs[j * (k / 4) + kk / 4] >> (2 * (kk % 4))) & 3;
}

size_t qsu2cxp4x4_block_stride(size_t k) { return 4 * (k / 4 + 12); }

size_t qsu2cxp4x4_packed_size(size_t n, size_t k) { return (n + 3) / 4 * qsu2cxp4x4_block_stride(k); }

std::vector<uint8_t> pack_qsu2cxp4x4(size_t n, size_t k, const uint8_t* rhs, const float* bias, const float* scale,
                                     const int32_t* lut) {
    if (lut == nullptr) lut = kDefaultLut;
    std::vector<uint8_t> out(qsu2cxp4x4_packed_size(n, k));
    for (size_t b = 0; b * 4 < n; ++b) {
        uint8_t* block = out.data() + b * qsu2cxp4x4_block_stride(k);
        for (size_t j = 0; j < 4; ++j) {
            const size_t ch = b * 4 + j;
            int32_t sum = 0;
            float s = 0.0f, bb = 0.0f;
            for (size_t g = 0; g < k / 16; ++g) {
                for (size_t i = 0; i < 4; ++i) {
                    int byte = 0;
                    for (size_t f = 0; f < 4; ++f) {
                        const int c = ch < n ? qsu2_code(rhs, k, ch, 16 * g + 4 * f + i) : 2;
                        byte |= c << (2 * f);
                    }
                    block[16 * g + 4 * j + i] = static_cast<uint8_t>(byte);
                }
            }
            if (ch < n) {
                for (size_t kk = 0; kk < k; ++kk) sum += lut[qsu2_code(rhs, k, ch, kk)];
                s = scale[ch];
                bb = bias ? bias[ch] : 0.0f;
            }
            std::memcpy(block + k + 4 * j, &sum, 4);
            std::memcpy(block + k + 16 + 4 * j, &s, 4);
            std::memcpy(block + k + 32 + 4 * j, &bb, 4);
        }
    }
    return out;
}

size_t qsu2cxp4vlx4_block_stride(size_t k, size_t nr) { return nr * (k / 4 + 12); }

size_t qsu2cxp4vlx4_packed_size(size_t n, size_t k, size_t nr) { return (n + nr - 1) / nr * qsu2cxp4vlx4_block_stride(k, nr); }

std::vector<uint8_t> pack_qsu2cxp4vlx4(size_t n, size_t k, size_t nr, const uint8_t* rhs, const float* bias,
                                       const float* scale, const int32_t* lut) {
    if (lut == nullptr) lut = kDefaultLut;
    std::vector<uint8_t> out(qsu2cxp4vlx4_packed_size(n, k, nr));
    for (size_t b0 = 0; b0 < n; b0 += nr) {
        uint8_t* block = out.data() + b0 / nr * qsu2cxp4vlx4_block_stride(k, nr);
        uint8_t* tail = block + nr * (k / 4);
        for (size_t j = 0; j < nr; ++j) {
            const size_t ch = b0 + j, src = std::min(ch, n - 1);
            for (size_t b = 0; b < k / 4; ++b) block[b * nr + j] = rhs[src * (k / 4) + b];
            int32_t sum = 0;
            for (size_t kk = 0; kk < k; ++kk) sum += lut[qsu2_code(rhs, k, src, kk)];
            const float s = ch < n ? scale[ch] : 0.0f;
            const float bb = (ch < n && bias) ? bias[ch] : 0.0f;
            std::memcpy(tail + 4 * j, &sum, 4);
            std::memcpy(tail + 4 * nr + 4 * j, &s, 4);
            std::memcpy(tail + 8 * nr + 4 * j, &bb, 4);
        }
    }
    return out;
}

std::vector<float> matmul_qai8dxp_qsu2cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const uint8_t* rhs,
                                         const int32_t* lut, const float* scale, const float* bias, float clamp_min,
                                         float clamp_max, Qsu2Epilogue epilogue) {
    if (lut == nullptr) lut = kDefaultLut;
    const size_t m = lhs.m;
    std::vector<float> dst(m * n);
    for (size_t j = 0; j < n; ++j) {
        int32_t sum = 0;
        for (size_t kk = 0; kk < k; ++kk) sum += lut[qsu2_code(rhs, k, j, kk)];
        const float b = bias ? bias[j] : 0.0f;
        for (size_t i = 0; i < m; ++i) {
            uint32_t acc = 0;  // steps 1-2 in unsigned arithmetic: wraps like the hardware
            for (size_t kk = 0; kk < k; ++kk)
                acc += static_cast<uint32_t>(lhs.q[i * lhs.kp + kk] * lut[qsu2_code(rhs, k, j, kk)]);
            acc += static_cast<uint32_t>(sum) * static_cast<uint32_t>(lhs.offset[i]);
            volatile float y = static_cast<float>(static_cast<int32_t>(acc));  // 3
            volatile float s = lhs.scale[i] * scale[j];
            switch (epilogue) {  // 4-5
                case Qsu2Epilogue::kNeonGemm:
                    y = y * scale[j];
                    y = y * lhs.scale[i];
                    y = y + b;
                    break;
                case Qsu2Epilogue::kSme2Dot:
                    y = std::fma(static_cast<float>(y), static_cast<float>(s), b);
                    break;
                default:
                    y = y * s;
                    y = y + b;
                    break;
            }
            const bool fc = epilogue == Qsu2Epilogue::kSme2Mopa || epilogue == Qsu2Epilogue::kSme2Dot;
            dst[i * n + j] = fc ? fclamp(y, clamp_min, clamp_max) : clamp_fmax_fmin(y, clamp_min, clamp_max);  // 6
        }
    }
    return dst;
}

}  // namespace kai_ref
