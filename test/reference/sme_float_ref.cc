// SPDX-License-Identifier: Apache-2.0
#include "test/reference/sme_float_ref.h"

#include <cmath>
#include <cstring>

#include "test/reference/reference_common.h"

namespace kai_ref {

namespace {

void put_f32(std::vector<uint8_t>& out, size_t offset, float v) {
    std::memcpy(out.data() + offset, &v, 4);
}

void put_u16(std::vector<uint8_t>& out, size_t offset, uint16_t v) {
    out[offset] = static_cast<uint8_t>(v & 0xFF);
    out[offset + 1] = static_cast<uint8_t>(v >> 8);
}

size_t roundup(size_t a, size_t b) {
    return (a + b - 1) / b * b;
}

// bf16 of x as a float (RNE), the value the bf16 kernels multiply.
double bf16_value(float x) {
    const uint32_t b = static_cast<uint32_t>(bf16_from_f32(x)) << 16;
    return static_cast<double>(f32_from_bits(b));
}

}  // namespace

std::vector<uint8_t> sme_pack_lhs_f32p2vlx1(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr) {
    std::vector<uint8_t> out(roundup(m, mr) * k * 4, 0);
    for (size_t i = 0; i < m; ++i) {
        const size_t block = i / mr, r = i % mr;
        for (size_t kk = 0; kk < k; ++kk) {
            put_f32(out, block * mr * k * 4 + (kk * mr + r) * 4, lhs[i * lhs_stride + kk]);
        }
    }
    return out;
}

std::vector<uint8_t> sme_pack_rhs_nxk_f32p2vlx1biasf32(const float* rhs_nxk, size_t rhs_stride, const float* bias,
                                                       size_t n, size_t k, size_t nr) {
    const size_t block_bytes = nr * (1 + k) * 4;
    std::vector<uint8_t> out(roundup(n, nr) * (1 + k) * 4, 0);
    for (size_t j = 0; j < n; ++j) {
        const size_t base = (j / nr) * block_bytes, c = j % nr;
        put_f32(out, base + c * 4, bias[j]);
        for (size_t kk = 0; kk < k; ++kk) put_f32(out, base + nr * 4 + (kk * nr + c) * 4, rhs_nxk[j * rhs_stride + kk]);
    }
    return out;
}

std::vector<uint8_t> sme_pack_lhs_bf16p2vlx2(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr) {
    const size_t kp = roundup(k, 2);
    std::vector<uint8_t> out(roundup(m, mr) * kp * 2, 0);
    for (size_t i = 0; i < m; ++i) {
        const size_t base = (i / mr) * mr * kp * 2, r = i % mr;
        for (size_t kk = 0; kk < k; ++kk) {
            put_u16(out, base + (((kk / 2) * mr + r) * 2 + kk % 2) * 2, bf16_from_f32(lhs[i * lhs_stride + kk]));
        }
    }
    return out;
}

std::vector<uint8_t> sme_pack_rhs_kxn_bf16p2vlx2b(const float* rhs_kxn, size_t rhs_stride, const float* bias,
                                                  size_t n, size_t k, size_t nr) {
    const size_t kp = roundup(k, 2);
    const size_t block_bytes = nr * (4 + 2 * kp);
    std::vector<uint8_t> out((n + nr - 1) / nr * block_bytes, 0);
    for (size_t j = 0; j < n; ++j) {
        const size_t base = (j / nr) * block_bytes, c = j % nr;
        put_f32(out, base + c * 4, bias[j]);
        for (size_t kk = 0; kk < kp; ++kk) {
            const size_t src = kk < k ? kk : 0;  // the odd-k pad repeats row 0
            put_u16(out, base + nr * 4 + (((kk / 2) * nr + c) * 2 + kk % 2) * 2,
                    bf16_from_f32(rhs_kxn[src * rhs_stride + j]));
        }
    }
    return out;
}

std::vector<float> sme_matmul_f32_fma(const float* lhs, const float* rhs_nxk, const float* bias, size_t m, size_t n,
                                      size_t k, float lo, float hi, bool fclamp) {
    std::vector<float> out(m * n);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            float acc = bias[j];
            for (size_t kk = 0; kk < k; ++kk) acc = std::fma(lhs[i * k + kk], rhs_nxk[j * k + kk], acc);
            out[i * n + j] = static_cast<float>(sme_clamp(acc, lo, hi, fclamp));
        }
    }
    return out;
}

void sme_matmul_bf16_exact(const float* lhs, const float* rhs_kxn, const float* bias, size_t m, size_t n, size_t k,
                           std::vector<double>* out, std::vector<double>* abs_sum) {
    out->assign(m * n, 0.0);
    abs_sum->assign(m * n, 0.0);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            double s = bias[j], a = std::fabs(static_cast<double>(bias[j]));
            for (size_t kk = 0; kk < k; ++kk) {
                const double p = bf16_value(lhs[i * k + kk]) * bf16_value(rhs_kxn[kk * n + j]);  // exact in double
                s += p;
                a += std::fabs(p);
            }
            (*out)[i * n + j] = s;
            (*abs_sum)[i * n + j] = a;
        }
    }
}

double sme_clamp(double x, float lo, float hi, bool fclamp) {
    if (!fclamp) {
        // FMAX / FMIN: NaN in, NaN out.
        if (std::isnan(x)) return x;
        x = x < lo ? lo : x;
        return x > hi ? hi : x;
    }
    // FCLAMP = minNum(maxNum(x, lo), hi): a NaN operand of maxNum / minNum is ignored.
    x = std::isnan(x) ? lo : (std::isnan(lo) ? x : (x < lo ? lo : x));
    return std::isnan(x) ? hi : (std::isnan(hi) ? x : (x > hi ? hi : x));
}

// The kernel's result is the bias plus K/2 BFMOPA pair sums accumulated in f32. Each pair sum a0*b0 + a1*b1 is
// computed with at most two roundings (the architecture lets the implementation round the products' sum once or
// twice, docs/formats.md, "SME matmul recipes"), then added to the f32 accumulator with one more: at most K + 2 roundings of partial sums
// whose magnitude is bounded by abs_sum, each off by at most 2^-24 of it (f32 RNE, unit roundoff 2^-24). So
// |kernel - exact| <= (K + 2) * 2^-24 * abs_sum (plus second-order terms); the bound doubles it, as
// ../shared/compat/README_sme.md does (4 (K + 2) 2^-24 there covers a reference that also rounds). Products of
// two bf16 values are exact in f32, and so are their f32 sums with up to 2 terms only when exponents are close,
// which is why no tighter bound is claimed. The clamp is monotonic and does not widen the error.
double sme_bf16_error_bound(double abs_sum, size_t k) {
    return 2.0 * static_cast<double>(k + 2) * std::ldexp(1.0, -24) * abs_sum;
}

}  // namespace kai_ref
