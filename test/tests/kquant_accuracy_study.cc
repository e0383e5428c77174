// SPDX-License-Identifier: Apache-2.0
// Accuracy study of the GGUF K-quant kernels (against ggml's Q8_K path; figures in
// docs/matmul_gguf_kquants.md). For 20 LLM-shaped problems per format it compares, against the exact
// f64 product of the f32 activations and the GGUF weights dequantized as ggml does:
//   kai      the kernels' result (test/reference/kquant_ref's kquant_matmul, which kquant_test checks
//            bit for bit against every kernel): int8 per 256 values, scale amax / 127;
//   ggml     ggml's own Q4_K.Q8_K / Q6_K.Q8_K path (activations quantized to Q8_K as ggml documents);
//   kai-b32  the same arithmetic with one int8 scale per 32 values (the alternative block), for the
//            choice of the LHS block.
// Error of a problem: ||y - exact||_2 / ||exact||_2 over its m x n outputs. Prints per-problem rows
// and the medians. Portable C++: runs natively (see the document) or under bazel run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "test/reference/kquant_ref.h"
#include "test/reference/reference_common.h"

namespace {

using kai_ref::Kquant;

// Activations shaped like an LLM's hidden states: N(0, 1) with a few outlier channels (x20), the
// same channels in every row, as in real models.
std::vector<float> activations(size_t m, size_t k, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<float> x(m * k);
    std::vector<size_t> outliers;
    for (int i = 0; i < 6; ++i) outliers.push_back(rng() % k);
    for (auto& v : x) v = g(rng);
    for (size_t i = 0; i < m; ++i)
        for (size_t c : outliers) x[i * k + c] *= 20.0f;
    return x;
}

// The kai arithmetic with the LHS quantized per `bl` values (bl divides 256): exact integer sums per
// sub-block, then f32 scaling per LHS block (a float path like the kernels', for the error only).
std::vector<double> kai_block(Kquant f, size_t bl, size_t m, size_t n, size_t k, const float* x, const uint8_t* rhs,
                              size_t stride) {
    const size_t bb = kai_ref::kquant_block_bytes(f);
    std::vector<double> y(m * n);
    std::vector<int> q(k);
    std::vector<float> s(k / bl);
    for (size_t i = 0; i < m; ++i) {
        for (size_t b = 0; b < k / bl; ++b) {
            float amax = 0.0f;
            for (size_t e = b * bl; e < b * bl + bl; ++e) amax = std::max(amax, std::fabs(x[i * k + e]));
            const float inv = amax == 0.0f ? 0.0f : 127.0f / amax;
            for (size_t e = b * bl; e < b * bl + bl; ++e) q[e] = static_cast<int>(std::lrint(x[i * k + e] * inv));
            s[b] = amax / 127.0f;
        }
        for (size_t j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (size_t sb = 0; sb < k / 256; ++sb) {
                const uint8_t* block = rhs + j * stride + sb * bb;
                // Integer dot per LHS block of the weights' integer parts, scaled as the kernels do.
                for (size_t b0 = 0; b0 < 256; b0 += bl) {
                    int64_t isum = 0, msum = 0;
                    for (size_t e = b0; e < b0 + bl; ++e) {
                        int w, sc, mn;
                        kai_ref::kquant_weight(f, block, e, &w, &sc, &mn);
                        isum += static_cast<int64_t>(sc) * w * q[sb * 256 + e];
                        msum += static_cast<int64_t>(mn) * q[sb * 256 + e];
                    }
                    uint16_t h[2];
                    std::memcpy(h, f == Kquant::q4k ? block : block + 208, sizeof(h));
                    const float d = kai_ref::f32_from_f16(h[0]);
                    const float dmin = f == Kquant::q4k ? kai_ref::f32_from_f16(h[1]) : 0.0f;
                    float t = static_cast<float>(isum) * d;
                    t = std::fma(-static_cast<float>(msum), dmin, t);
                    acc = std::fma(t, s[(sb * 256 + b0) / bl], acc);
                }
            }
            y[i * n + j] = acc;
        }
    }
    return y;
}

template <typename T>
double rel_err(const std::vector<T>& y, const std::vector<double>& exact) {
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < y.size(); ++i) {
        const double d = static_cast<double>(y[i]) - exact[i];
        num += d * d;
        den += exact[i] * exact[i];
    }
    return std::sqrt(num / den);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

int main() {
    // (K, weight scale) of LLM projections: 4096 (7B/8B attention and up/gate input), 11008 and
    // 14336 (ffn_down input of 7B / 8B), 5120 (13B), 3072, 2048 (small models); m = 4 rows, n = 32.
    const size_t ks[] = {4096, 11008, 14336, 5120, 3072, 2048, 4096, 8192, 4096, 11008,
                         2048, 5120, 4096, 14336, 3072, 4096, 6144, 4096, 2560, 4096};
    const size_t m = 4, n = 32;
    for (Kquant f : {Kquant::q4k, Kquant::q6k}) {
        const char* fname = f == Kquant::q4k ? "Q4_K" : "Q6_K";
        std::vector<double> e_kai, e_ggml, e_b32, ratio;
        std::printf("%s  problem   K      kai        ggml Q8_K  kai-b32    kai/ggml\n", fname);
        for (size_t p = 0; p < 20; ++p) {
            const size_t k = ks[p];
            const std::vector<float> x = activations(m, k, static_cast<uint32_t>(1000 + p));
            const size_t stride = k / 256 * kai_ref::kquant_block_bytes(f);
            const std::vector<uint8_t> w = kai_ref::kquant_random_rows(f, n, k, stride, 0.002f, static_cast<uint32_t>(2000 + p));
            const std::vector<double> exact = kai_ref::kquant_matmul_exact(f, m, n, k, x.data(), w.data(), stride, nullptr);
            const std::vector<float> kai = kai_ref::kquant_matmul(f, m, n, k, x.data(), k * sizeof(float), w.data(), stride,
                                                                  nullptr, -INFINITY, INFINITY);
            const std::vector<double> ggml = kai_ref::kquant_matmul_q8k(f, m, n, k, x.data(), w.data(), stride, nullptr);
            const std::vector<double> b32 = kai_block(f, 32, m, n, k, x.data(), w.data(), stride);
            e_kai.push_back(rel_err(kai, exact));
            e_ggml.push_back(rel_err(ggml, exact));
            e_b32.push_back(rel_err(b32, exact));
            ratio.push_back(e_kai.back() / e_ggml.back());
            std::printf("%s  %2zu  %6zu  %.3e  %.3e  %.3e  %.3f\n", fname, p, k, e_kai.back(), e_ggml.back(), e_b32.back(),
                        ratio.back());
        }
        std::printf("%s  median          %.3e  %.3e  %.3e  %.3f (median of the ratios)\n\n", fname, median(e_kai),
                    median(e_ggml), median(e_b32), median(ratio));
    }
    return 0;
}
