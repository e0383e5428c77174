// SPDX-License-Identifier: Apache-2.0
// aten_style_op against (1) KleidiAI's packed bytes: the compat vectors recorded from KleidiAI
// v1.30.0's rhs_pack_nxk_qsi4cxp_qs4cxs1s0 and rhs_pack_nxk_qsi4c32p_qsu4c32s1s0 at the layout
// PyTorch uses (nr = 8, kr = 16, sr = 2), and (2) a plain reference of the op: the f32 product with
// the dequantised weights, within the bound that per-row int8 activation quantisation allows.
#include "examples/aten_style_op/aten_style_op.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "test/common/compat_vector.h"
#include "test/common/rng.h"

namespace {

using aten_style::DType;

bool has_dotprod() {
    return kai_cpu_has(kai_cpu_get_features(), KAI_CPU_FEATURE_DOTPROD);
}

void expect_packed_equals_vector(const char* file, int64_t block_size) {
    const kai_test::CompatVector v = kai_test::load_compat_vector(std::string("test/data/compat/") + file);
    ASSERT_FALSE(v.sections.empty()) << file;
    ASSERT_EQ(v.size("nr"), aten_style::kNr);
    ASSERT_EQ(v.size("kr"), aten_style::kKr);
    ASSERT_EQ(v.size("sr"), aten_style::kSr);
    ASSERT_EQ(v.size("rhs_zero_point"), 8u);
    ASSERT_EQ(v.str("bias"), "null");
    const int64_t n = static_cast<int64_t>(v.size("n")), k = static_cast<int64_t>(v.size("k"));
    const auto& want = v.section("rhs_packed");
    const size_t size = aten_style::packed_weight_size(block_size, k, n);
    ASSERT_EQ(size, want.bytes.size()) << file << ": packed-size function";
    const bool groupwise = v.str("scale_dt") == "bf16";
    std::vector<uint8_t> got(size, 0xA5);
    aten_style::pack_4bit_weight(got.data(), v.section("rhs").bytes.data(), v.section("scale").bytes.data(),
                                 groupwise ? DType::kBFloat16 : DType::kFloat32, nullptr, block_size, k, n);
    size_t diff = 0;
    for (size_t i = 0; i < size; ++i) {
        if (want.mask[i] && got[i] != want.bytes[i]) ++diff;
    }
    EXPECT_EQ(diff, 0u) << file << ": bytes differ from KleidiAI's";
    std::printf("%s: %zu packed bytes equal KleidiAI's\n", file, size);
}

TEST(AtenStyleOp, ChannelwisePackedBytesEqualKleidiAI) {
    if (!has_dotprod()) GTEST_SKIP() << "CPU lacks FEAT DotProd (the op's KleidiAI path needs it)";
    // block_size == in_features (45): channel-wise, f32 scales, odd K.
    expect_packed_equals_vector("kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0__n13_k45_nr8_kr16_sr2_zp8.txt", 45);
}

TEST(AtenStyleOp, GroupwisePackedBytesEqualKleidiAI) {
    if (!has_dotprod()) GTEST_SKIP() << "CPU lacks FEAT DotProd (the op's KleidiAI path needs it)";
    // block_size 32 < in_features 96: group-wise, bf16 scales. (The n8_k64_bl64 vector has
    // block_size == in_features, which the op treats as channel-wise: not this path.)
    expect_packed_equals_vector("kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0__n13_k96_bl32_nr8_kr16_sr2.txt", 32);
}

TEST(AtenStyleOp, LayoutRulesAndSizes) {
    using aten_style::Layout;
    EXPECT_EQ(aten_style::layout_for(64, 64), Layout::kChannelwise);   // wins over group-wise
    EXPECT_EQ(aten_style::layout_for(45, 45), Layout::kChannelwise);
    EXPECT_EQ(aten_style::layout_for(32, 128), Layout::kGroupwise);
    EXPECT_EQ(aten_style::layout_for(48, 96), Layout::kUnsupported);   // not a multiple of 32
    EXPECT_EQ(aten_style::layout_for(64, 96), Layout::kUnsupported);   // does not divide K
    EXPECT_EQ(aten_style::packed_weight_size(48, 96, 10), 960u);       // N * K, as PyTorch
    // Channel-wise: ceil(N / 8) blocks of 8 * (Kp / 2 + 12) bytes, Kp = K rounded up to 32.
    EXPECT_EQ(aten_style::packed_weight_size(45, 45, 13), 2u * 8u * (64u / 2 + 12));
    // Group-wise: 8 * ((K / bl) * (bl / 2 + 2) + 8) per block of 8 channels.
    EXPECT_EQ(aten_style::packed_weight_size(32, 96, 13), 2u * 8u * (3u * (16 + 2) + 8));
    if (has_dotprod()) {
        std::vector<uint8_t> buf(960), w(10 * 48);
        std::vector<float> s(10, 1.0f);
        EXPECT_THROW(aten_style::pack_4bit_weight(buf.data(), w.data(), s.data(), DType::kFloat32, nullptr, 48, 96, 10),
                     std::invalid_argument);
        // Channel-wise with bf16 scales is not a KleidiAI case either (PyTorch: fallback).
        EXPECT_THROW(aten_style::pack_4bit_weight(buf.data(), w.data(), s.data(), DType::kBFloat16, nullptr, 96, 96, 10),
                     std::invalid_argument);
    }
}

struct Problem {
    int64_t m, n, k, bl;
    DType input;
    bool bias;
    int threads;
};

// The plain reference: out = x * dequant(W)^T + bias in double, with dequant(W)[j][k] =
// (nibble - 8) * scale(j, k / bl). Bound: per-row asymmetric int8 quantisation moves each
// activation by at most half a step, step = (max(0, max x) - min(0, min x)) / 255, so
// |kai - ref| <= sum_k |W[j][k]| * step / 2 (x 1.01 for the f32 arithmetic of the scales) plus
// 2^-20 of the magnitude for f32 accumulation, plus 2^-8 of |ref| when the output is bf16.
void check(const Problem& p) {
    SCOPED_TRACE("m=" + std::to_string(p.m) + " n=" + std::to_string(p.n) + " k=" + std::to_string(p.k) +
                 " bl=" + std::to_string(p.bl) + (p.input == DType::kBFloat16 ? " bf16" : " f32") +
                 " T=" + std::to_string(p.threads));
    const size_t m = p.m, n = p.n, k = p.k, bl = p.bl, rs = (k + 1) / 2, nb = k / bl;
    const bool cw = p.bl == p.k;
    kai_test::Rng rng(1000u + m * 7 + n + k);
    std::vector<uint8_t> w(n * rs);
    for (auto& b : w) b = static_cast<uint8_t>(rng.next_u64());
    std::vector<float> scale_f(cw ? n : n * nb);
    for (auto& s : scale_f) s = cw ? rng.uniform(0.001f, 0.02f) : kai_cast_f32_bf16(kai_cast_bf16_f32(rng.uniform(0.001f, 0.02f)));
    std::vector<uint16_t> scale_bf(scale_f.size());
    for (size_t i = 0; i < scale_f.size(); ++i) scale_bf[i] = kai_cast_bf16_f32(scale_f[i]);
    std::vector<float> bias(n);
    for (auto& b : bias) b = rng.uniform(-1.0f, 1.0f);
    std::vector<float> x(m * k);
    for (auto& v : x) v = rng.uniform(-1.5f, 1.0f);
    std::vector<uint16_t> x_bf(m * k);
    if (p.input == DType::kBFloat16) {
        for (size_t i = 0; i < m * k; ++i) {
            x_bf[i] = kai_cast_bf16_f32(x[i]);
            x[i] = kai_cast_f32_bf16(x_bf[i]);  // the reference sees the bf16 values
        }
    }

    std::vector<uint8_t> packed(aten_style::packed_weight_size(p.bl, p.k, p.n));
    aten_style::pack_4bit_weight(packed.data(), w.data(), cw ? static_cast<const void*>(scale_f.data()) : scale_bf.data(),
                                 cw ? DType::kFloat32 : DType::kBFloat16, p.bias ? bias.data() : nullptr, p.bl, p.k, p.n);
    std::vector<float> out_f(m * n, NAN);
    std::vector<uint16_t> out_bf(m * n, 0x7FC0);
    if (p.input == DType::kBFloat16) {
        aten_style::matmul_4bit(out_bf.data(), x_bf.data(), DType::kBFloat16, p.m, packed.data(), p.bl, p.k, p.n, p.threads);
    } else {
        aten_style::matmul_4bit(out_f.data(), x.data(), DType::kFloat32, p.m, packed.data(), p.bl, p.k, p.n, p.threads);
    }
    size_t bad = 0;
    double worst = 0.0;
    for (size_t i = 0; i < m; ++i) {
        float lo = 0.0f, hi = 0.0f;
        for (size_t kk = 0; kk < k; ++kk) {
            lo = std::fmin(lo, x[i * k + kk]);
            hi = std::fmax(hi, x[i * k + kk]);
        }
        const double step = (static_cast<double>(hi) - lo) / 255.0;
        for (size_t j = 0; j < n; ++j) {
            double ref = p.bias ? bias[j] : 0.0, wsum = 0.0, mag = std::fabs(ref);
            for (size_t kk = 0; kk < k; ++kk) {
                const uint8_t byte = w[j * rs + kk / 2];
                const int q = ((kk % 2 == 0) ? (byte & 0xF) : (byte >> 4)) - 8;
                const double wv = q * static_cast<double>(cw ? scale_f[j] : scale_f[j * nb + kk / bl]);
                ref += wv * x[i * k + kk];
                wsum += std::fabs(wv);
                mag += std::fabs(wv * x[i * k + kk]);
            }
            const double got = p.input == DType::kBFloat16 ? kai_cast_f32_bf16(out_bf[i * n + j]) : out_f[i * n + j];
            double bound = wsum * step / 2 * 1.01 + std::ldexp(mag + wsum * step, -20);
            if (p.input == DType::kBFloat16) bound += std::ldexp(std::fabs(ref) + bound, -8);
            const double err = std::fabs(got - ref);
            if (!(err <= bound)) ++bad;
            worst = std::fmax(worst, err / bound);
        }
    }
    std::printf("m=%3lld n=%3lld k=%4lld bl=%4lld %s T=%d: %s; worst error %.0f%% of its bound\n",
                static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k),
                static_cast<long long>(p.bl), p.input == DType::kBFloat16 ? "bf16" : "f32 ", p.threads,
                aten_style::kernels_used(p.bl, p.k, p.m).c_str(), 100.0 * worst);
    EXPECT_EQ(bad, 0u);
}

TEST(AtenStyleOp, MatmulMatchesThePlainReference) {
    if (!has_dotprod()) GTEST_SKIP() << "CPU lacks FEAT DotProd (the op's KleidiAI path needs it)";
    const Problem problems[] = {
        {1, 64, 256, 256, DType::kFloat32, true, 1},     // channel-wise GEMV (token)
        {64, 83, 256, 256, DType::kFloat32, true, 3},    // channel-wise GEMM (prompt), ragged N, 3 threads
        {7, 13, 45, 45, DType::kFloat32, false, 4},      // odd K, T > column chunks
        {5, 24, 128, 128, DType::kBFloat16, true, 2},    // bf16 activations
        {1, 40, 256, 32, DType::kFloat32, true, 2},      // group-wise GEMV
        {64, 37, 256, 64, DType::kFloat32, false, 5},    // group-wise, m > 1: the GEMV fallback
        {3, 16, 128, 32, DType::kBFloat16, true, 1},     // group-wise, bf16
    };
    for (const Problem& p : problems) check(p);
}

}  // namespace
