// SPDX-License-Identifier: Apache-2.0
#include "test/reference/imatmul_ref.h"

#include <cmath>
#include <cstring>

namespace kai_ref {

const uint8_t* imatmul_chunk(const void* const* lhs_ptrs, size_t i, size_t c, size_t k_chunk_count, size_t mr,
                             size_t lhs_ptr_offset, const void* pad_ptr) {
    const size_t block = i / mr, y = i % mr;
    const void* p = lhs_ptrs[block * mr * k_chunk_count + c * mr + y];
    if (p == pad_ptr) return static_cast<const uint8_t*>(p);
    return reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) + lhs_ptr_offset);
}

std::vector<float> imatmul_gather_f32(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                      size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset, const void* pad_ptr) {
    const size_t k = k_chunk_count * k_chunk_length;
    std::vector<float> a(m * k);
    for (size_t i = 0; i < m; ++i)
        for (size_t c = 0; c < k_chunk_count; ++c) {
            const uint8_t* src = imatmul_chunk(lhs_ptrs, i, c, k_chunk_count, mr, lhs_ptr_offset, pad_ptr);
            if (k_chunk_length != 0) std::memcpy(&a[i * k + c * k_chunk_length], src, k_chunk_length * sizeof(float));
        }
    return a;
}

std::vector<uint8_t> imatmul_pack_lhs_x32p2vlx1(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr) {
    const size_t k = k_chunk_count * k_chunk_length;
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * k * 4, 0);
    for (size_t i = 0; i < m; ++i)
        for (size_t c = 0; c < k_chunk_count; ++c) {
            const uint8_t* src = imatmul_chunk(lhs_ptrs, i, c, k_chunk_count, mr, lhs_ptr_offset, pad_ptr);
            for (size_t kk = 0; kk < k_chunk_length; ++kk) {
                const size_t col = c * k_chunk_length + kk;
                std::memcpy(&out[((i / mr) * mr * k + col * mr + i % mr) * 4], src + kk * 4, 4);
            }
        }
    return out;
}

std::vector<uint8_t> imatmul_pack_rhs_x32p2vlx1b(const uint8_t* rhs_kxn, size_t rhs_stride, const uint8_t* bias,
                                                 size_t n, size_t k, size_t nr) {
    const size_t blocks = (n + nr - 1) / nr;
    std::vector<uint8_t> out(blocks * nr * (1 + k) * 4, 0);
    for (size_t j = 0; j < n; ++j) {
        uint8_t* block = &out[(j / nr) * nr * (1 + k) * 4];
        std::memcpy(block + (j % nr) * 4, bias + j * 4, 4);
        for (size_t kk = 0; kk < k; ++kk) std::memcpy(block + ((1 + kk) * nr + j % nr) * 4, rhs_kxn + kk * rhs_stride + j * 4, 4);
    }
    return out;
}

std::vector<float> imatmul_f32_fma(const float* a, const float* w_kxn, const float* bias, size_t m, size_t n, size_t k,
                                   float lo, float hi, ImatmulClamp clamp) {
    std::vector<float> out(m * n);
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            float acc = bias[j];
            for (size_t kk = 0; kk < k; ++kk) acc = std::fmaf(a[i * k + kk], w_kxn[kk * n + j], acc);
            if (clamp == ImatmulClamp::fclamp) {
                acc = std::fminf(std::fmaxf(acc, lo), hi);  // maxNum / minNum: a NaN operand yields the other
            } else {
                if (!std::isnan(acc)) acc = acc > hi ? hi : acc;  // FMIN, FMAX: NaN propagates
                if (!std::isnan(acc)) acc = acc < lo ? lo : acc;
            }
            out[i * n + j] = acc;
        }
    return out;
}

std::vector<uint16_t> imatmul_gather_f16_padded(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr) {
    const size_t kcp = (k_chunk_length + 1) / 2 * 2, kp = k_chunk_count * kcp;
    std::vector<uint16_t> a(m * kp, 0);
    for (size_t i = 0; i < m; ++i)
        for (size_t c = 0; c < k_chunk_count; ++c) {
            const uint8_t* src = imatmul_chunk(lhs_ptrs, i, c, k_chunk_count, mr, lhs_ptr_offset, pad_ptr);
            if (k_chunk_length != 0) std::memcpy(&a[i * kp + c * kcp], src, k_chunk_length * sizeof(uint16_t));
        }
    return a;
}

std::vector<uint16_t> imatmul_pad_rhs_f16(const uint8_t* rhs_kxn, size_t rhs_stride, size_t n, size_t k_chunk_count,
                                          size_t k_chunk_length) {
    const size_t kcp = (k_chunk_length + 1) / 2 * 2;
    std::vector<uint16_t> w(k_chunk_count * kcp * n, 0);
    for (size_t c = 0; c < k_chunk_count; ++c)
        for (size_t kk = 0; kk < k_chunk_length; ++kk)
            if (n != 0) std::memcpy(&w[(c * kcp + kk) * n], rhs_kxn + (c * k_chunk_length + kk) * rhs_stride, n * 2);
    return w;
}

std::vector<uint8_t> imatmul_pack_lhs_x16p2vlx2(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr) {
    const std::vector<uint16_t> a =
        imatmul_gather_f16_padded(lhs_ptrs, m, k_chunk_count, k_chunk_length, mr, lhs_ptr_offset, pad_ptr);
    const size_t kp = k_chunk_count * ((k_chunk_length + 1) / 2 * 2);
    const size_t blocks = (m + mr - 1) / mr;
    std::vector<uint8_t> out(blocks * mr * kp * 2, 0);
    for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < kp; ++kk)
            std::memcpy(&out[((i / mr) * mr * kp + ((kk / 2) * mr + i % mr) * 2 + kk % 2) * 2], &a[i * kp + kk], 2);
    return out;
}

std::vector<uint8_t> imatmul_pack_rhs_x16p2vlx2b(const uint8_t* rhs_kxn, size_t rhs_stride, const uint8_t* bias,
                                                 size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t nr) {
    const std::vector<uint16_t> w = imatmul_pad_rhs_f16(rhs_kxn, rhs_stride, n, k_chunk_count, k_chunk_length);
    const size_t kp = k_chunk_count * ((k_chunk_length + 1) / 2 * 2);
    const size_t blocks = (n + nr - 1) / nr;
    std::vector<uint8_t> out(blocks * nr * (1 + kp) * 2, 0);
    for (size_t j = 0; j < n; ++j) {
        uint8_t* block = &out[(j / nr) * nr * (1 + kp) * 2];
        std::memcpy(block + (j % nr) * 2, bias + j * 2, 2);
        for (size_t kk = 0; kk < kp; ++kk)
            std::memcpy(block + (nr + ((kk / 2) * nr + j % nr) * 2 + kk % 2) * 2, &w[kk * n + j], 2);
    }
    return out;
}

}  // namespace kai_ref
