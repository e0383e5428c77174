// SPDX-License-Identifier: Apache-2.0
// Tests of the BF16 families: matmul_clamp_f32_bf16p_bf16p (f32 output, family bf16),
// matmul_clamp_bf16_bf16p_bf16p (bf16 output, family bf16o) and their eight packers.
//  - packers: byte-exact against test/reference/bf16_ref (written from the spec), packing in row
//    or column ranges equals one whole pack, nxk == kxn, f32 source == bf16 source on bf16 values;
//  - kernels: against an f64 matmul of the bf16 operands with the per-element bound derived in
//    bf16_ref.cc, over variant x shape x sub-tile x clamp x bias, packed inputs ending at guard
//    pages, a NaN-sentinel destination with a wider row stride;
//  - the KleidiAI v1.30.0 compat vectors (test/data/compat/*bf16*).

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/preconditions.h"
#include "test/common/environment.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16_registry.h"

namespace {

using kai_registry::Bf16LhsPacker;
using kai_registry::Bf16RhsPacker;
using kai_registry::Bf16Variant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

constexpr size_t kNr = 12;
constexpr size_t kKr = 4;
constexpr size_t kSr = 1;

// ------------------------------------------------------------------------------------------
// Inputs and packing helpers.
// ------------------------------------------------------------------------------------------

// A row-major matrix given both as f32 values and as their bf16 patterns (RNE).
struct Matrix {
    size_t rows = 0, cols = 0;
    std::vector<float> f32;
    std::vector<uint16_t> bf16;
};

Matrix make_matrix(size_t rows, size_t cols, uint64_t seed, bool per_row_scale) {
    Rng rng(seed);
    Matrix mat;
    mat.rows = rows;
    mat.cols = cols;
    mat.f32.resize(rows * cols);
    for (size_t i = 0; i < rows; ++i) {
        const float mul = per_row_scale ? std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3))) : 1.0f;
        for (size_t j = 0; j < cols; ++j) mat.f32[i * cols + j] = rng.uniform(-1.0f, 1.0f) * mul;
    }
    // A few exact bf16 ties, so that rounding to nearest even is exercised everywhere.
    for (size_t t = 0; t < mat.f32.size(); t += 7) {
        uint32_t b = kai_ref::f32_bits(mat.f32[t]);
        b = (b & 0xFFFF0000u) | 0x8000u;
        mat.f32[t] = kai_ref::f32_from_bits(b);
    }
    mat.bf16.resize(mat.f32.size());
    for (size_t t = 0; t < mat.f32.size(); ++t) mat.bf16[t] = kai_ref::bf16_from_f32(mat.f32[t]);
    return mat;
}

Matrix transpose(const Matrix& a) {
    Matrix t;
    t.rows = a.cols;
    t.cols = a.rows;
    t.f32.resize(a.f32.size());
    t.bf16.resize(a.bf16.size());
    for (size_t i = 0; i < a.rows; ++i) {
        for (size_t j = 0; j < a.cols; ++j) {
            t.f32[j * a.rows + i] = a.f32[i * a.cols + j];
            t.bf16[j * a.rows + i] = a.bf16[i * a.cols + j];
        }
    }
    return t;
}

// The matrix as the packer's source bytes (f32 or bf16), with a row stride of cols + pad
// elements; the gaps hold NaN patterns a packer must not read into its output.
std::vector<uint8_t> source_bytes(const Matrix& mat, bool bf16, size_t pad, size_t* stride_bytes) {
    const size_t es = bf16 ? 2 : 4;
    const size_t stride = (mat.cols + pad) * es;
    std::vector<uint8_t> out(std::max<size_t>(mat.rows * stride, 1), 0xFF);
    for (size_t i = 0; i < mat.rows; ++i) {
        for (size_t j = 0; j < mat.cols; ++j) {
            uint8_t* d = out.data() + i * stride + j * es;
            if (bf16) {
                std::memcpy(d, &mat.bf16[i * mat.cols + j], 2);
            } else {
                std::memcpy(d, &mat.f32[i * mat.cols + j], 4);
            }
        }
    }
    *stride_bytes = stride;
    return out;
}

// Packs rows [0, m) of `lhs` with packer p into a buffer of exactly the packed size, in one call
// or, when split > 0, in two calls at row split (a multiple of mr).
std::unique_ptr<GuardedBuffer> pack_lhs(const Bf16LhsPacker& p, const Matrix& lhs, size_t split = 0) {
    const size_t m = lhs.rows, k = lhs.cols;
    size_t stride = 0;
    const std::vector<uint8_t> src = source_bytes(lhs, p.bf16_source, 3, &stride);
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_lhs_packed_size)(m, k, p.mr, kKr, kSr));
    if (split == 0 || split >= m) {
        KAI_ABI(p.run)(m, k, p.mr, kKr, kSr, 0, src.data(), stride, buf->data());
    } else {
        KAI_ABI(p.run)(split, k, p.mr, kKr, kSr, 0, src.data(), stride, buf->data());
        KAI_ABI(p.run)(m - split, k, p.mr, kKr, kSr, 0, src.data() + KAI_ABI(p.get_lhs_offset)(split, stride), stride,
              buf->data() + KAI_ABI(p.get_lhs_packed_offset)(split, k, p.mr, kKr, kSr));
    }
    return buf;
}

// Packs the K x N weights `rhs_kxn` (and bias, may be empty) with packer p; in one call, or in
// column ranges of `chunk` columns (a multiple of 12) when chunk > 0.
std::unique_ptr<GuardedBuffer> pack_rhs(const Bf16RhsPacker& p, const Matrix& rhs_kxn, const std::vector<float>& bias,
                                        size_t chunk = 0, uint8_t fill = 0xA5) {
    const size_t k = rhs_kxn.rows, n = rhs_kxn.cols;
    const Matrix src_mat = p.nxk ? transpose(rhs_kxn) : rhs_kxn;
    size_t stride = 0;
    const std::vector<uint8_t> src = source_bytes(src_mat, p.bf16_source, 5, &stride);
    const size_t es = p.bf16_source ? 2 : 4;
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_rhs_packed_size)(n, k, kNr, kKr), fill);
    const float* b = bias.empty() ? nullptr : bias.data();
    if (chunk == 0) chunk = n;
    for (size_t n0 = 0; n0 < n; n0 += chunk) {
        const size_t cnt = std::min(chunk, n - n0);
        const uint8_t* s = src.data() + (p.nxk ? n0 * stride : n0 * es);
        KAI_ABI(p.run)(1, cnt, k, kNr, kKr, kSr, stride, s, b != nullptr ? b + n0 : nullptr, nullptr,
              buf->data() + KAI_ABI(p.get_rhs_packed_offset)(n0, k, kNr, kKr), 0, nullptr);
    }
    return buf;
}

std::vector<float> make_bias(size_t n, uint64_t seed) {
    Rng rng(seed);
    std::vector<float> b(n);
    for (auto& x : b) x = rng.uniform(-1.0f, 1.0f);
    return b;
}

// ------------------------------------------------------------------------------------------
// Packers.
// ------------------------------------------------------------------------------------------

struct LhsPackCase {
    size_t packer;
    size_t m, k;
};

class Bf16LhsPackTest : public ::testing::TestWithParam<LhsPackCase> {};

TEST_P(Bf16LhsPackTest, MatchesReference) {
    const LhsPackCase& c = GetParam();
    const Bf16LhsPacker& p = kai_registry::bf16_lhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    const uint64_t seed = kai_test::seed_from(::testing::UnitTest::GetInstance()->current_test_info()->name());
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Matrix lhs = make_matrix(c.m, c.k, seed, true);

    EXPECT_EQ(KAI_ABI(p.get_m_step)(p.mr), p.mr);
    const std::vector<uint8_t> expected = kai_ref::bf16_pack_lhs(lhs.bf16.data(), c.m, c.k, p.mr);
    ASSERT_EQ(KAI_ABI(p.get_lhs_packed_size)(c.m, c.k, p.mr, kKr, kSr), expected.size());
    const auto got = pack_lhs(p, lhs);
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.data(), expected.size()));

    if (p.mr > 1 && c.m > p.mr) {
        // Row ranges at a multiple of mr give the same bytes as one call.
        const size_t split = (c.m / 2) / p.mr * p.mr;
        if (split > 0) {
            const auto parts = pack_lhs(p, lhs, split);
            EXPECT_TRUE(kai_test::bytes_equal(parts->data(), expected.data(), expected.size())) << "split " << split;
        }
    }
}

struct RhsPackCase {
    size_t packer;
    size_t n, k;
    bool bias;
};

class Bf16RhsPackTest : public ::testing::TestWithParam<RhsPackCase> {};

TEST_P(Bf16RhsPackTest, MatchesReference) {
    const RhsPackCase& c = GetParam();
    const Bf16RhsPacker& p = kai_registry::bf16_rhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    const uint64_t seed = kai_test::seed_from(::testing::UnitTest::GetInstance()->current_test_info()->name());
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Matrix rhs = make_matrix(c.k, c.n, seed, false);
    const std::vector<float> bias = c.bias ? make_bias(c.n, seed + 1) : std::vector<float>();

    EXPECT_EQ(KAI_ABI(p.get_n_step)(), kNr);
    EXPECT_EQ(KAI_ABI(p.get_bias_offset)(kNr), kNr * sizeof(float));
    std::vector<uint8_t> mask;
    const std::vector<uint8_t> expected =
        kai_ref::bf16_pack_rhs(rhs.bf16.data(), c.bias ? bias.data() : nullptr, c.n, c.k, &mask);
    ASSERT_EQ(KAI_ABI(p.get_rhs_packed_size)(c.n, c.k, kNr, kKr), expected.size());
    const auto got = pack_rhs(p, rhs, bias);
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.data(), expected.size(), mask.data()));
    // The unwritten bias slots of padded columns keep what the buffer held.
    for (size_t t = 0; t < expected.size(); ++t) {
        if (mask[t] == 0) {
            ASSERT_EQ(got->data()[t], 0xA5) << "byte " << t << " of a padded column's bias was written";
        }
    }

    if (c.n > kNr) {
        // Column ranges of 12 and of 24 columns give the same bytes as one call.
        for (size_t chunk : {kNr, 2 * kNr}) {
            const auto parts = pack_rhs(p, rhs, bias, chunk);
            EXPECT_TRUE(kai_test::bytes_equal(parts->data(), expected.data(), expected.size(), mask.data()))
                << "chunk " << chunk;
        }
    }
}

// Every RHS packer writes the same bytes for the same weights (nxk == kxn, f32 source == bf16
// source on values that are exactly bf16), and both LHS sources agree in the same way.
TEST(Bf16PackerAgreement, AllSourcesGiveOneLayout) {
    const auto& rhs_packers = kai_registry::bf16_rhs_packers();
    const auto& lhs_packers = kai_registry::bf16_lhs_packers();
    std::string not_run;
    for (const Bf16RhsPacker& p : rhs_packers) {
        const std::string missing = kai_test::missing_features(p.features);
        if (!missing.empty()) not_run += std::string(" ") + p.name + " (needs " + missing + ")";
    }
    for (const Bf16LhsPacker& p : lhs_packers) {
        const std::string missing = kai_test::missing_features(p.features);
        if (!missing.empty()) not_run += std::string(" ") + p.name + " (needs " + missing + ")";
    }
    const size_t shapes[][2] = {{1, 1}, {13, 7}, {25, 38}, {53, 64}};
    for (const auto& s : shapes) {
        const size_t n = s[0], k = s[1];
        Matrix rhs = make_matrix(k, n, 1000 + n * 31 + k, false);
        rhs.f32.assign(rhs.f32.size(), 0.0f);
        for (size_t t = 0; t < rhs.bf16.size(); ++t) rhs.f32[t] = kai_ref::f32_from_bf16(rhs.bf16[t]);
        const std::vector<float> bias = make_bias(n, 7 + n);
        std::unique_ptr<GuardedBuffer> first;
        std::string first_name;
        for (const Bf16RhsPacker& p : rhs_packers) {
            if (!kai_test::missing_features(p.features).empty()) continue;
            auto got = pack_rhs(p, rhs, bias, 0, 0x00);
            if (!first) {
                first = std::move(got);
                first_name = p.name;
                continue;
            }
            EXPECT_TRUE(kai_test::bytes_equal(got->data(), first->data(), first->size()))
                << p.name << " vs " << first_name << " n=" << n << " k=" << k;
        }
        for (size_t mr : {size_t{8}, size_t{1}}) {
            const size_t m = mr == 8 ? 11 : 1;
            Matrix lhs = make_matrix(m, k, 77 + k, true);
            for (size_t t = 0; t < lhs.bf16.size(); ++t) lhs.f32[t] = kai_ref::f32_from_bf16(lhs.bf16[t]);
            std::unique_ptr<GuardedBuffer> ref;
            for (const Bf16LhsPacker& p : lhs_packers) {
                if (p.mr != mr || !kai_test::missing_features(p.features).empty()) continue;
                auto got = pack_lhs(p, lhs);
                if (!ref) {
                    ref = std::move(got);
                    continue;
                }
                EXPECT_TRUE(kai_test::bytes_equal(got->data(), ref->data(), ref->size())) << p.name;
            }
        }
    }
    if (!not_run.empty()) GTEST_SKIP() << "compared the packers this CPU runs; it lacks features for" << not_run;
}

std::vector<LhsPackCase> lhs_pack_cases() {
    std::vector<LhsPackCase> cases;
    const auto& packers = kai_registry::bf16_lhs_packers();
    for (size_t p = 0; p < packers.size(); ++p) {
        const std::vector<size_t> ms =
            packers[p].mr == 1 ? std::vector<size_t>{1} : std::vector<size_t>{1, 7, 8, 9, 17, 37};
        for (size_t m : ms) {
            for (size_t k : {1, 3, 4, 5, 38, 64, 129, 255, 1024, 1031}) cases.push_back({p, m, k});
        }
    }
    return cases;
}

std::vector<RhsPackCase> rhs_pack_cases() {
    std::vector<RhsPackCase> cases;
    const auto& packers = kai_registry::bf16_rhs_packers();
    for (size_t p = 0; p < packers.size(); ++p) {
        for (size_t n : {1, 11, 12, 13, 25, 53}) {
            for (size_t k : {1, 3, 4, 5, 38, 64, 129, 1031}) {
                cases.push_back({p, n, k, (n + k) % 2 == 0});
            }
        }
    }
    return cases;
}

std::string short_name(const char* full) {
    std::string s(full);
    if (s.rfind("kai_", 0) == 0) s = s.substr(4);
    return s;
}

INSTANTIATE_TEST_SUITE_P(
    Packers, Bf16LhsPackTest, ::testing::ValuesIn(lhs_pack_cases()),
    [](const ::testing::TestParamInfo<LhsPackCase>& info) {
        std::ostringstream os;
        os << short_name(kai_registry::bf16_lhs_packers()[info.param.packer].name) << "_m" << info.param.m << "_k"
           << info.param.k;
        return os.str();
    });

INSTANTIATE_TEST_SUITE_P(
    Packers, Bf16RhsPackTest, ::testing::ValuesIn(rhs_pack_cases()),
    [](const ::testing::TestParamInfo<RhsPackCase>& info) {
        std::ostringstream os;
        os << short_name(kai_registry::bf16_rhs_packers()[info.param.packer].name) << "_n" << info.param.n << "_k"
           << info.param.k << (info.param.bias ? "_bias" : "_nobias");
        return os.str();
    });

// ------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------

enum class Portion { kFull, kAllTiles, kInterior, kLastRagged };
// kRelu: [0, +FLT_MAX] (one finite bound); kInverted: scalar_min > scalar_max (every output is
// scalar_min, KleidiAI's min-then-max order); kMaxOnly: [-FLT_MAX, 60 % quantile] (the other bound).
enum class Clamp { kNone, kInfinite, kBite, kRelu, kInverted, kMaxOnly };

struct KernelCase {
    size_t variant;
    size_t m, n, k;
    Portion portion;
    Clamp clamp;
    bool bias;
    size_t lhs_packer;  // index into bf16_lhs_packers()
    size_t rhs_packer;  // index into bf16_rhs_packers()
};

struct Tile {
    size_t m0, mh, n0, nw;
};

std::vector<Tile> tiles_of(Portion portion, size_t m, size_t n, size_t ms, size_t ns) {
    std::vector<Tile> tiles;
    switch (portion) {
        case Portion::kFull:
            tiles.push_back({0, m, 0, n});
            break;
        case Portion::kAllTiles:
            for (size_t m0 = 0; m0 < m; m0 += ms) {
                for (size_t n0 = 0; n0 < n; n0 += ns) {
                    tiles.push_back({m0, std::min(ms, m - m0), n0, std::min(ns, n - n0)});
                }
            }
            break;
        case Portion::kInterior: {
            const size_t m0 = (m / 2) / ms * ms;
            const size_t n0 = (n / 2) / ns * ns;
            tiles.push_back({m0, std::min(2 * ms, m - m0), n0, std::min(2 * ns, n - n0)});
            break;
        }
        case Portion::kLastRagged: {
            const size_t m0 = (m - 1) / ms * ms;
            const size_t n0 = (n - 1) / ns * ns;
            tiles.push_back({m0, m - m0, n0, n - n0});
            break;
        }
    }
    return tiles;
}

class Bf16KernelTest : public ::testing::TestWithParam<KernelCase> {};

TEST_P(Bf16KernelTest, MatchesReferenceWithinBound) {
    const KernelCase& c = GetParam();
    const Bf16Variant& v = kai_registry::bf16_variants()[c.variant];
    const Bf16LhsPacker& lp = kai_registry::bf16_lhs_packers()[c.lhs_packer];
    const Bf16RhsPacker& rp = kai_registry::bf16_rhs_packers()[c.rhs_packer];
    KAI_TEST_SKIP_UNLESS(v.features | lp.features | rp.features);
    const uint64_t seed = kai_test::seed_from(::testing::UnitTest::GetInstance()->current_test_info()->name());
    SCOPED_TRACE(kai_test::seed_trace(seed));
    SCOPED_TRACE(std::string(v.name) + " fed by " + lp.name + " and " + rp.name);

    const auto& uk = v.ukernel;
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    ASSERT_EQ(mr, lp.mr);
    ASSERT_EQ(nr, kNr);
    ASSERT_EQ(kr, kKr);
    ASSERT_EQ(sr, kSr);
    ASSERT_EQ(ms % mr, 0u);
    ASSERT_EQ(ns % nr, 0u);

    const Matrix lhs = make_matrix(c.m, c.k, seed, true);
    const Matrix rhs = make_matrix(c.k, c.n, seed + 1, false);
    const std::vector<float> bias = c.bias ? make_bias(c.n, seed + 2) : std::vector<float>();
    const auto lhs_packed = pack_lhs(lp, lhs);
    const auto rhs_packed = pack_rhs(rp, rhs, bias);

    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(lhs.bf16.data(), rhs.bf16.data(), c.bias ? bias.data() : nullptr, c.m, c.n, c.k, &ref,
                         &abs_sum);

    float min = -FLT_MAX, max = FLT_MAX;
    if (c.clamp == Clamp::kInfinite) {
        min = -INFINITY;
        max = INFINITY;
    } else if (c.clamp == Clamp::kBite) {
        // The 20 % and 80 % quantiles of the output: about 40 % of the outputs are clamped.
        std::vector<double> sorted(ref);
        std::sort(sorted.begin(), sorted.end());
        min = static_cast<float>(sorted[sorted.size() / 5]);
        max = static_cast<float>(sorted[sorted.size() * 4 / 5]);
    } else if (c.clamp == Clamp::kRelu) {
        min = 0.0f;
    } else if (c.clamp == Clamp::kMaxOnly) {
        std::vector<double> sorted(ref);
        std::sort(sorted.begin(), sorted.end());
        max = static_cast<float>(sorted[sorted.size() * 3 / 5]);
    } else if (c.clamp == Clamp::kInverted) {
        std::vector<double> sorted(ref);
        std::sort(sorted.begin(), sorted.end());
        min = static_cast<float>(sorted[sorted.size() * 4 / 5]);
        max = static_cast<float>(sorted[sorted.size() / 5]);
    }

    const size_t es = kai_registry::bf16_dst_elem_size(v);
    const size_t stride = (c.n + 3) * es;  // wider than a row
    DstBuffer dst(c.m, c.n, es, stride);
    const std::vector<Tile> tiles = tiles_of(c.portion, c.m, c.n, ms, ns);
    for (const Tile& t : tiles) {
        const size_t lhs_off = KAI_ABI(uk.get_lhs_packed_offset)(t.m0, c.k);
        const size_t rhs_off = KAI_ABI(uk.get_rhs_packed_offset)(t.n0, c.k);
        ASSERT_EQ(lhs_off, KAI_ABI(lp.get_lhs_packed_offset)(t.m0, c.k, mr, kr, sr));
        ASSERT_EQ(rhs_off, KAI_ABI(rp.get_rhs_packed_offset)(t.n0, c.k, nr, kr));
        const size_t dst_off = KAI_ABI(uk.get_dst_offset)(t.m0, t.n0, stride);
        ASSERT_EQ(dst.at(0, 0) + dst_off, dst.at(t.m0, t.n0));
        KAI_ABI(uk.run_matmul)(t.mh, t.nw, c.k, lhs_packed->data() + lhs_off, rhs_packed->data() + rhs_off,
                      dst.at(t.m0, t.n0), stride, es, min, max);
    }
    EXPECT_EQ(KAI_ABI(uk.get_dst_size)(c.m, c.n), c.m * c.n * es);

    size_t m_lo = c.m, m_hi = 0, n_lo = c.n, n_hi = 0;
    for (const Tile& t : tiles) {
        m_lo = std::min(m_lo, t.m0);
        m_hi = std::max(m_hi, t.m0 + t.mh);
        n_lo = std::min(n_lo, t.n0);
        n_hi = std::max(n_hi, t.n0 + t.nw);
    }
    EXPECT_TRUE(dst.untouched_outside(m_lo, m_hi - m_lo, n_lo, n_hi - n_lo));
    EXPECT_TRUE(dst.written_inside(m_lo, m_hi - m_lo, n_lo, n_hi - n_lo));
    size_t failures = 0;
    for (size_t i = m_lo; i < m_hi && failures < 5; ++i) {
        for (size_t j = n_lo; j < n_hi && failures < 5; ++j) {
            const double expected = kai_ref::bf16_clamp(ref[i * c.n + j], min, max);
            const double bound = kai_ref::bf16_error_bound(abs_sum[i * c.n + j], expected, c.k, v.bf16_output);
            const double got = dst.value(i, j);
            if (!(std::fabs(got - expected) <= bound)) {
                ADD_FAILURE() << "dst[" << i << "][" << j << "] = " << got << ", expected " << expected << " +- "
                              << bound << " (m=" << c.m << " n=" << c.n << " k=" << c.k << ")";
                ++failures;
            }
            if (expected == static_cast<double>(min) || expected == static_cast<double>(max)) {
                // A clamped output is the bound itself (rounded to bf16 for bf16 output).
                const double want = v.bf16_output ? kai_ref::round_to_bf16(static_cast<float>(expected)) : expected;
                if (got != want && std::fabs(ref[i * c.n + j] - expected) > 2 * bound) {
                    ADD_FAILURE() << "dst[" << i << "][" << j << "] = " << got << " is not the clamp bound " << want;
                    ++failures;
                }
            }
            if (c.clamp == Clamp::kInverted) {
                // min > max: every output is exactly scalar_min (min(x, max) first, then max(., min)),
                // whatever x is; the other order would give scalar_max.
                const double want = v.bf16_output ? kai_ref::round_to_bf16(min) : static_cast<double>(min);
                if (got != want) {
                    ADD_FAILURE() << "dst[" << i << "][" << j << "] = " << got << ", inverted bounds give " << want;
                    ++failures;
                }
            }
        }
    }
}

struct Shape {
    size_t m, n, k;
};

std::vector<KernelCase> kernel_cases() {
    const bool reduced = kai_test::reduced_sweep();
    // GEMM: 1x1x1, tile-1/tile/tile+1 in each dimension, K not a multiple of 4, primes, K >= 1024
    // and >= 2048 on small M x N. The bf16-output GEMM computes pairs of column blocks as 4x24
    // tiles inside a call: n = 23/24/25 and a single K step (k <= 4) with n > 12 reach its
    // one-step and ragged-pair paths, k = 5..8 its two-step path, and k = 9..16 the shortest K
    // loops of its assembly (one and two iterations), with 1, 2 and an odd number of tiles per
    // call.
    const std::vector<Shape> gemm = {{1, 1, 1},    {7, 11, 3},   {8, 12, 4},    {9, 13, 5},    {3, 7, 3},
                                     {12, 8, 4},   {16, 24, 7},  {17, 25, 38},  {13, 33, 23},  {37, 53, 64},
                                     {2, 1013, 6}, {1, 1, 1023}, {93, 57, 89},  {257, 113, 373}, {9, 25, 2048},
                                     {9, 25, 3},   {8, 24, 4},   {17, 23, 1},   {33, 47, 2},   {8, 24, 9},
                                     {41, 40, 11}, {24, 48, 13}};
    // GEMV (m = 1): n around 12 and 36, K not a multiple of 4, K >= 1024 and >= 2048.
    const std::vector<Shape> gemv = {{1, 1, 1},   {1, 11, 3},   {1, 12, 4},     {1, 13, 5},  {1, 35, 7},
                                     {1, 36, 8},  {1, 37, 38},  {1, 72, 64},    {1, 73, 89}, {1, 113, 373},
                                     {1, 1023, 1}, {1, 71, 32}, {1, 1013, 1023}, {1, 37, 2048}};
    const auto& variants = kai_registry::bf16_variants();
    // K of real models and past 16384 (every path of the K loops) on M = 1 or mr + 1 and N = nr + 1; the reduced
    // sweep keeps the deepest.
    std::vector<Shape> deep_gemm, deep_gemv;
    for (size_t k : reduced ? std::vector<size_t>{16448} : std::vector<size_t>{4096, 11008, 16448}) {
        deep_gemm.push_back({9, 13, k});
        deep_gemv.push_back({1, 13, k});
    }
    const auto& lhs_packers = kai_registry::bf16_lhs_packers();
    const auto& rhs_packers = kai_registry::bf16_rhs_packers();
    std::vector<KernelCase> cases;
    size_t rotate = 0;
    for (size_t vi = 0; vi < variants.size(); ++vi) {
        const size_t mr = KAI_ABI(variants[vi].ukernel.get_mr)();
        std::vector<size_t> lhs_for;
        for (size_t p = 0; p < lhs_packers.size(); ++p) {
            if (lhs_packers[p].mr == mr) lhs_for.push_back(p);
        }
        // The deep shapes: once each, a biting clamp on the whole matrix or ReLU on every tile, alternating.
        for (const Shape& s : mr == 1 ? deep_gemv : deep_gemm) {
            {
                const bool relu = (rotate + vi) % 2 == 1;
                cases.push_back({vi, s.m, s.n, s.k, relu ? Portion::kAllTiles : Portion::kFull,
                                 relu ? Clamp::kRelu : Clamp::kBite, !relu, lhs_for[rotate % lhs_for.size()],
                                 rhs_packers.empty() ? 0 : (rotate / 2) % rhs_packers.size()});
                ++rotate;
            }
        }
        for (const Shape& s : mr == 1 ? gemv : gemm) {
            const bool big = s.m * s.n * s.k > 1000000;
            for (Portion portion : {Portion::kFull, Portion::kAllTiles, Portion::kInterior, Portion::kLastRagged}) {
                for (Clamp clamp :
                     {Clamp::kNone, Clamp::kInfinite, Clamp::kBite, Clamp::kRelu, Clamp::kInverted, Clamp::kMaxOnly}) {
                    for (bool bias : {true, false}) {
                        // One-sided and inverted clamps: one sub-tile each, every shape and kernel.
                        const bool extra = clamp == Clamp::kRelu || clamp == Clamp::kInverted || clamp == Clamp::kMaxOnly;
                        if (extra && !((clamp == Clamp::kRelu && portion == Portion::kFull && bias) ||
                                       // inverted bounds on the ragged last tile and on the whole
                                       // matrix (the bf16-output GEMM's column-pair blocks)
                                       (clamp == Clamp::kInverted && portion == Portion::kLastRagged && !bias) ||
                                       (clamp == Clamp::kInverted && portion == Portion::kFull && bias) ||
                                       (clamp == Clamp::kMaxOnly && portion == Portion::kInterior && bias))) {
                            continue;
                        }
                        if ((big || reduced) && !extra && !((portion == Portion::kFull && clamp == Clamp::kBite && bias) ||
                                                  (portion == Portion::kAllTiles && clamp == Clamp::kNone && !bias) ||
                                                  (portion == Portion::kLastRagged && clamp == Clamp::kInfinite))) {
                            continue;
                        }
                        // Rotate through the packers that can feed the kernel.
                        cases.push_back({vi, s.m, s.n, s.k, portion, clamp, bias, lhs_for[rotate % lhs_for.size()],
                                         rhs_packers.empty() ? 0 : (rotate / 2) % rhs_packers.size()});
                        ++rotate;
                    }
                }
            }
        }
    }
    return cases;
}

std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
    const KernelCase& c = info.param;
    static const char* const portions[] = {"full", "alltiles", "interior", "lastragged"};
    static const char* const clamps[] = {"noclamp", "infclamp", "clamp", "reluclamp", "invclamp", "maxonlyclamp"};
    std::ostringstream os;
    os << short_name(kai_registry::bf16_variants()[c.variant].name) << "_" << c.m << "x" << c.n << "x" << c.k << "_"
       << portions[static_cast<int>(c.portion)] << "_" << clamps[static_cast<int>(c.clamp)] << "_"
       << (c.bias ? "bias" : "nobias");
    return os.str();
}

INSTANTIATE_TEST_SUITE_P(Kernels, Bf16KernelTest, ::testing::ValuesIn(kernel_cases()), kernel_case_name);

// Infinities and NaN in the output: the kernels skip the clamp when the bounds are no narrower
// than [-FLT_MAX, FLT_MAX] and must still map an infinite result to the bound (f32 output).
// Column 0 gets bias +inf, column 1 -inf, column 2 NaN, column 3 an overflowing product, the
// other columns stay finite; rows are in both a full and the ragged tile.
TEST(Bf16KernelSpecialValues, InfinitiesAndNaNAreClamped) {
    for (const Bf16Variant& v : kai_registry::bf16_variants()) {
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        const size_t mr = KAI_ABI(uk.get_mr)();
        const size_t m = mr == 1 ? 1 : 11, n = 25, k = 8;
        const Bf16LhsPacker* lp = nullptr;
        for (const Bf16LhsPacker& p : kai_registry::bf16_lhs_packers()) {
            if (p.mr == mr && !p.bf16_source) lp = &p;
        }
        ASSERT_NE(lp, nullptr);
        const Bf16RhsPacker& rp = kai_registry::bf16_rhs_packers()[0];
        Matrix lhs = make_matrix(m, k, 5, false);
        Matrix rhs = make_matrix(k, n, 6, false);
        for (size_t i = 0; i < m; ++i) {
            lhs.f32[i * k] = 1e30f;  // k = 0 of every row
            lhs.bf16[i * k] = kai_ref::bf16_from_f32(1e30f);
        }
        for (size_t j = 0; j < n; ++j) {
            rhs.f32[j] = j == 3 ? 1e30f : 0.0f;  // row k = 0: only column 3 overflows
            rhs.bf16[j] = kai_ref::bf16_from_f32(rhs.f32[j]);
        }
        std::vector<float> bias = make_bias(n, 9);
        bias[0] = INFINITY;
        bias[1] = -INFINITY;
        bias[2] = NAN;
        const auto lhs_packed = pack_lhs(*lp, lhs);
        const auto rhs_packed = pack_rhs(rp, rhs, bias);
        const size_t es = kai_registry::bf16_dst_elem_size(v);
        for (const float bound : {FLT_MAX, INFINITY}) {
            DstBuffer dst(m, n, es, n * es);
            KAI_ABI(uk.run_matmul)(m, n, k, lhs_packed->data(), rhs_packed->data(), dst.at(0, 0), n * es, es, -bound, bound);
            // bf16(FLT_MAX) is +inf: for bf16 output the bound itself rounds to infinity.
            const float hi = v.bf16_output ? INFINITY : bound;
            for (size_t i = 0; i < m; ++i) {
                EXPECT_EQ(dst.value(i, 0), hi) << "row " << i;
                EXPECT_EQ(dst.value(i, 1), -hi) << "row " << i;
                EXPECT_TRUE(std::isnan(dst.value(i, 2))) << "row " << i;  // written: see below
                EXPECT_EQ(dst.value(i, 3), hi) << "row " << i;
                for (size_t j = 4; j < n; ++j) EXPECT_TRUE(std::isfinite(dst.value(i, j))) << i << "," << j;
            }
            // The NaN expected in column 2 must be the kernel's, not the sentinel left in place.
            EXPECT_TRUE(dst.written_inside(0, m, 0, n));
        }
    }
}

// k == 0: no products, every output is its clamped bias (rounded to bf16 for bf16 output).
TEST(Bf16KernelSpecialValues, EmptyDepthGivesTheClampedBias) {
    for (const Bf16Variant& v : kai_registry::bf16_variants()) {
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        const size_t m = KAI_ABI(uk.get_mr)() == 1 ? 1 : 9, n = 13;
        const std::vector<float> bias = make_bias(n, 3);
        Matrix rhs;
        rhs.rows = 0;
        rhs.cols = n;
        const auto rhs_packed = pack_rhs(kai_registry::bf16_rhs_packers()[0], rhs, bias);
        ASSERT_EQ(rhs_packed->size(), 2 * kNr * sizeof(float));
        GuardedBuffer lhs_packed(1);  // nothing may be read from it
        const size_t es = kai_registry::bf16_dst_elem_size(v);
        DstBuffer dst(m, n, es, n * es);
        KAI_ABI(uk.run_matmul)(m, n, 0, lhs_packed.data(), rhs_packed->data(), dst.at(0, 0), n * es, es, -0.5f, 0.5f);
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const float want = std::min(std::max(bias[j], -0.5f), 0.5f);
                EXPECT_EQ(dst.value(i, j), v.bf16_output ? kai_ref::round_to_bf16(want) : want) << i << "," << j;
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// KleidiAI compat vectors.
// ------------------------------------------------------------------------------------------

std::vector<uint16_t> to_bf16(const float* x, size_t count) {
    std::vector<uint16_t> out(count);
    for (size_t t = 0; t < count; ++t) out[t] = kai_ref::bf16_from_f32(x[t]);
    return out;
}

// Packer files: the named packer must reproduce the bytes; so must the other packers of the same
// layout fed the same values (nxk from the transposed matrix, bf16 sources from the RNE patterns,
// which are exactly what the f32 packers must produce).
void replay_packer(const kai_test::CompatVector& f) {
    const std::string name = f.str("name");
    const std::string kind = f.str("kind");
    if (kind == "lhs_packer") {
        const size_t m = f.size("m"), k = f.size("k"), mr = f.size("mr");
        const auto& expected = f.section("lhs_packed");
        Matrix lhs;
        lhs.rows = m;
        lhs.cols = k;
        lhs.f32.assign(f.section("lhs").f32(), f.section("lhs").f32() + m * k);
        lhs.bf16 = to_bf16(lhs.f32.data(), m * k);
        bool found = false;
        for (const Bf16LhsPacker& p : kai_registry::bf16_lhs_packers()) {
            if (p.mr != mr || !kai_test::missing_features(p.features).empty()) continue;
            found = found || name == p.name;
            ASSERT_EQ(KAI_ABI(p.get_lhs_packed_size)(m, k, mr, kKr, kSr), expected.bytes.size()) << p.name;
            const auto got = pack_lhs(p, lhs);
            EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.bytes.data(), expected.bytes.size(),
                                              expected.mask.data()))
                << p.name;
        }
        EXPECT_TRUE(found) << name << " is not in the registry (or the CPU lacks its features)";
    } else {
        const size_t n = f.size("n"), k = f.size("k");
        const auto& expected = f.section("rhs_packed");
        Matrix rhs;
        rhs.rows = k;
        rhs.cols = n;
        rhs.f32.assign(f.section("rhs").f32(), f.section("rhs").f32() + k * n);
        rhs.bf16 = to_bf16(rhs.f32.data(), k * n);
        std::vector<float> bias;
        if (f.str("bias") == "f32") bias.assign(f.section("bias").f32(), f.section("bias").f32() + n);
        bool found = false;
        for (const Bf16RhsPacker& p : kai_registry::bf16_rhs_packers()) {
            if (!kai_test::missing_features(p.features).empty()) continue;
            found = found || name == p.name;
            ASSERT_EQ(KAI_ABI(p.get_rhs_packed_size)(n, k, kNr, kKr), expected.bytes.size()) << p.name;
            const auto got = pack_rhs(p, rhs, bias);
            EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.bytes.data(), expected.bytes.size(),
                                              expected.mask.data()))
                << p.name;
        }
        EXPECT_TRUE(found) << name << " is not in the registry (or the CPU lacks its features)";
    }
}

// Kernel files: the named kernel, and its bf16-output twin, on the stored packed operands,
// against the stored output with the README's rule |got - expected| <= 1e-4 * (|bias| + sum |a b|)
// (plus the bf16 rounding, 2^-8 |expected|, for the twin), and against the f64 reference with the
// bound derived from K (bf16_error_bound), as in the sweep.
void replay_kernel(const kai_test::CompatVector& f) {
    const std::string name = f.str("name");
    const size_t m = f.size("m"), n = f.size("n"), k = f.size("k");
    const float* a = f.section("lhs").f32();
    const float* b = f.section("rhs").f32();
    const bool has_bias = f.str("bias") == "f32";
    const std::vector<uint16_t> a16 = to_bf16(a, m * k), b16 = to_bf16(b, k * n);
    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(a16.data(), b16.data(), has_bias ? f.section("bias").f32() : nullptr, m, n, k, &ref,
                         &abs_sum);
    const float* expected = f.section("dst").f32();

    std::string twin = name;
    twin.replace(twin.find("clamp_f32_"), 10, "clamp_bf16_");
    size_t ran = 0;
    for (const Bf16Variant& v : kai_registry::bf16_variants()) {
        if (name != v.name && twin != v.name) continue;
        if (!kai_test::missing_features(v.features).empty()) continue;
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        EXPECT_EQ(KAI_ABI(uk.get_m_step)(), f.size("m_step"));
        EXPECT_EQ(KAI_ABI(uk.get_n_step)(), f.size("n_step"));
        EXPECT_EQ(KAI_ABI(uk.get_mr)(), f.size("mr"));
        EXPECT_EQ(KAI_ABI(uk.get_nr)(), f.size("nr"));
        EXPECT_EQ(KAI_ABI(uk.get_kr)(), f.size("kr"));
        EXPECT_EQ(KAI_ABI(uk.get_sr)(), f.size("sr"));
        const auto& lsec = f.section("lhs_packed");
        const auto& rsec = f.section("rhs_packed");
        GuardedBuffer lhs_packed(lsec.bytes.size()), rhs_packed(rsec.bytes.size());
        std::memcpy(lhs_packed.data(), lsec.bytes.data(), lsec.bytes.size());
        std::memcpy(rhs_packed.data(), rsec.bytes.data(), rsec.bytes.size());
        const size_t es = kai_registry::bf16_dst_elem_size(v);
        DstBuffer dst(m, n, es, (n + 1) * es);
        KAI_ABI(uk.run_matmul)(m, n, k, lhs_packed.data(), rhs_packed.data(), dst.at(0, 0), (n + 1) * es, es, f.clamp_min(),
                      f.clamp_max());
        EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
        EXPECT_TRUE(dst.written_inside(0, m, 0, n));
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const double got = dst.value(i, j);
                // The stored KleidiAI output, with the vectors' own rule.
                const double e = expected[i * n + j];
                double bound = 1e-4 * abs_sum[i * n + j];
                if (v.bf16_output) bound += std::ldexp(std::fabs(e) + bound, -8);
                ASSERT_LE(std::fabs(got - e), bound) << "dst[" << i << "][" << j << "] vs the stored output";
                // The exact result on the same bf16 operands, with the bound derived from K.
                const double exact = kai_ref::bf16_clamp(ref[i * n + j], f.clamp_min(), f.clamp_max());
                ASSERT_LE(std::fabs(got - exact),
                          kai_ref::bf16_error_bound(abs_sum[i * n + j], exact, k, v.bf16_output))
                    << "dst[" << i << "][" << j << "] vs the f64 reference";
            }
        }
        ++ran;
    }
    EXPECT_EQ(ran, 2u) << name << " and its bf16-output twin must both be in the registry";
}

TEST(Bf16Compat, ReplaysKleidiAIVectors) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_BF16);
    size_t files = 0;
    for (const std::string& path : kai_test::list_compat_vectors("kai_")) {
        // The family's files (compat.py bf16), not those of the f16-input packers (bf16f16_test).
        const std::string base = path.substr(path.rfind('/') + 1);
        if (base.rfind("kai_lhs_quant_pack_bf16p", 0) != 0 && base.rfind("kai_rhs_quant_pack_kxn_bf16p", 0) != 0 &&
            base.rfind("kai_matmul_clamp_f32_bf16p", 0) != 0) {
            continue;
        }
        SCOPED_TRACE(path);
        const kai_test::CompatVector f = kai_test::load_compat_vector(path);
        if (f.str("kind") == "kernel") {
            replay_kernel(f);
        } else {
            replay_packer(f);
        }
        ++files;
    }
    EXPECT_EQ(files, 30u) << "expected the 30 bf16 files in test/data/compat";
}

// ------------------------------------------------------------------------------------------
// Preconditions (debug builds only: KAI_ASSUME is compiled out with NDEBUG).
//
// One death test per distinct (function, message) of the family's KAI_ASSUME_MSG checks: the
// call violates exactly that precondition (every other argument valid, buffers zeroed and large
// enough), and the child must print KAI_ERROR's "<file>:<line> <message>" from the function's
// own source file with exactly that message. Not covered, because no argument can reach them:
// the GEMVs' get_dst_offset check "m_idx must be a multiple of m_step (1)" (always true) and
// the internal KAI_ASSUME on a static helper of the bf16-output GEMM.
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG

// A call that must abort with `message`.
struct Violation {
    const char* function;  // the entry point called (for the failure message)
    std::string message;   // the KAI_ASSUME_MSG text it must print
    std::function<void()> call;
};

// Runs every call of `table` in a death test; `stem` names the source file ("<stem>.c").
void expect_each_aborts(const char* stem, const std::vector<Violation>& table) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string file = std::string(stem) + ".c";
    for (const Violation& v : table) {
        EXPECT_DEATH(v.call(), kai_test::kai_error_regex(file, v.message))
            << v.function << ": \"" << v.message << "\"";
    }
}

class Bf16KernelPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Bf16KernelPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const Bf16Variant& v = kai_registry::bf16_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const bool gemv = KAI_ABI(uk.get_mr)() == 1;
    const size_t es = kai_registry::bf16_dst_elem_size(v);
    const std::string elem = v.bf16_output ? "sizeof(uint16_t)" : "sizeof(float)";
    // m = 1, n = 1, k = 4: one LHS block (8 x 4 bf16 at most), one RHS block (12 x (4 + 4 x 2)
    // bytes), one DST element (dst_stride_row = es).
    alignas(16) uint8_t lhs[256] = {};
    alignas(16) uint8_t rhs[256] = {};
    alignas(16) uint8_t dst[256] = {};
    const size_t k = 4;
    const auto run = [&](size_t m, const void* l, const void* r, void* d, size_t stride_row, size_t stride_col) {
        KAI_ABI(uk.run_matmul)(m, 1, k, l, r, d, stride_row, stride_col, -FLT_MAX, FLT_MAX);
    };

    // The valid arguments the violations start from return normally.
    EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(0, k), 0u);
    EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(0, k), 0u);
    EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(0, 0, 64), 0u);
    run(1, lhs, rhs, dst, es, es);

    std::vector<Violation> table = {
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr (12)", [&] { (void)uk.get_rhs_packed_offset(6, k); }},
        // The other family's element size.
        {"run_matmul", "dst_stride_col must be " + elem, [&] { run(1, lhs, rhs, dst, es, v.bf16_output ? 4 : 2); }},
        {"run_matmul", "lhs_packed must not be NULL", [&] { run(1, nullptr, rhs, dst, es, es); }},
        {"run_matmul", "rhs_packed must not be NULL", [&] { run(1, lhs, nullptr, dst, es, es); }},
        {"run_matmul", "dst must not be NULL", [&] { run(1, lhs, rhs, nullptr, es, es); }},
    };
    if (gemv) {
        table.push_back({"get_lhs_packed_offset", "m_idx must be 0 (the GEMV takes one row)",
                         [&] { (void)uk.get_lhs_packed_offset(1, k); }});
        // 12 is a multiple of nr but not of the n step.
        table.push_back({"get_dst_offset", "n_idx must be a multiple of n_step (36)",
                         [&] { (void)uk.get_dst_offset(0, 12, 64); }});
        table.push_back({"run_matmul", "m must be 1 (the 1x36 kernel is a GEMV)",
                         [&] { run(2, lhs, rhs, dst, es, es); }});
    } else {
        table.push_back({"get_lhs_packed_offset", "m_idx must be a multiple of mr (8)",
                         [&] { (void)uk.get_lhs_packed_offset(4, k); }});
        table.push_back({"get_dst_offset", "m_idx must be a multiple of m_step (8)",
                         [&] { (void)uk.get_dst_offset(4, 0, 64); }});
        table.push_back({"get_dst_offset", "n_idx must be a multiple of n_step (12)",
                         [&] { (void)uk.get_dst_offset(0, 6, 64); }});
        table.push_back({"run_matmul", "dst_stride_row must be a multiple of " + elem,
                         [&] { run(1, lhs, rhs, dst, es + 1, es); }});
        // Rows 0 and 1 would overlap.
        if (v.bf16_output) {
            table.push_back({"run_matmul", "dst_stride_row must be at least n * sizeof(uint16_t) when m > 1",
                             [&] { run(2, lhs, rhs, dst, 0, es); }});
        } else {
            table.push_back({"run_matmul", "dst_stride_row must be at least n * dst_stride_col if m > 1",
                             [&] { run(2, lhs, rhs, dst, 0, es); }});
        }
    }
    expect_each_aborts(v.name, table);
}

INSTANTIATE_TEST_SUITE_P(Kernels, Bf16KernelPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::bf16_variants().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::bf16_variants()[info.param].name);
                         });

class Bf16LhsPackerPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Bf16LhsPackerPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const Bf16LhsPacker& p = kai_registry::bf16_lhs_packers()[GetParam()];
    KAI_TEST_SKIP_UNLESS(p.features);
    const size_t mr = p.mr;
    const size_t bad_mr = mr == 8 ? 1 : 8;  // the other layout's mr
    const std::string mr_msg = mr == 8 ? "mr must be 8" : "mr must be 1";
    // m = 1 (2 for "m must be 1"), k = 4, f32 or bf16 source with a row stride of 16 bytes.
    alignas(16) float lhs[64] = {};
    alignas(16) uint8_t packed[256] = {};
    const size_t k = 4, stride = k * sizeof(float);
    const auto run = [&](size_t m, size_t r_mr, size_t kr, size_t sr, size_t m_idx_start, const void* src,
                         void* out) { KAI_ABI(p.run)(m, k, r_mr, kr, sr, m_idx_start, src, stride, out); };

    EXPECT_EQ(KAI_ABI(p.get_m_step)(mr), mr);
    EXPECT_EQ(KAI_ABI(p.get_lhs_packed_offset)(0, k, mr, kKr, kSr), 0u);
    EXPECT_EQ(KAI_ABI(p.get_lhs_packed_size)(1, k, mr, kKr, kSr), mr * k * 2);
    run(1, mr, kKr, kSr, 0, lhs, packed);

    std::vector<Violation> table = {
        {"get_m_step", mr_msg, [&] { (void)p.get_m_step(bad_mr); }},
        {"get_lhs_packed_offset", mr_msg, [&] { (void)p.get_lhs_packed_offset(0, k, bad_mr, kKr, kSr); }},
        {"get_lhs_packed_offset", "kr must be 4", [&] { (void)p.get_lhs_packed_offset(0, k, mr, 2, kSr); }},
        {"get_lhs_packed_offset", "sr must be 1", [&] { (void)p.get_lhs_packed_offset(0, k, mr, kKr, 2); }},
        {"get_lhs_packed_size", mr_msg, [&] { (void)p.get_lhs_packed_size(1, k, bad_mr, kKr, kSr); }},
        {"get_lhs_packed_size", "kr must be 4", [&] { (void)p.get_lhs_packed_size(1, k, mr, 2, kSr); }},
        {"get_lhs_packed_size", "sr must be 1", [&] { (void)p.get_lhs_packed_size(1, k, mr, kKr, 2); }},
        {"run", mr_msg, [&] { run(1, bad_mr, kKr, kSr, 0, lhs, packed); }},
        {"run", "kr must be 4", [&] { run(1, mr, 2, kSr, 0, lhs, packed); }},
        {"run", "sr must be 1", [&] { run(1, mr, kKr, 2, 0, lhs, packed); }},
        {"run", "m_idx_start must be 0", [&] { run(1, mr, kKr, kSr, mr, lhs, packed); }},
        {"run", "lhs must not be NULL", [&] { run(1, mr, kKr, kSr, 0, nullptr, packed); }},
        {"run", "lhs_packed must not be NULL", [&] { run(1, mr, kKr, kSr, 0, lhs, nullptr); }},
    };
    if (mr == 1) {
        table.push_back({"get_lhs_packed_offset", "m_idx must be 0",
                         [&] { (void)p.get_lhs_packed_offset(1, k, mr, kKr, kSr); }});
        table.push_back({"run", "m must be 1", [&] { run(2, mr, kKr, kSr, 0, lhs, packed); }});
    } else {
        table.push_back({"get_lhs_packed_offset", "m_idx must be a multiple of mr",
                         [&] { (void)p.get_lhs_packed_offset(4, k, mr, kKr, kSr); }});
        // Two rows 8 bytes apart: less than one row of k = 4 f32 values, or of k = 8 bf16 ones.
        const size_t kk = p.bf16_source ? 8 : 4;
        table.push_back({"run", p.bf16_source ? "lhs_stride must be at least k * 2 when m > 1"
                                              : "lhs_stride must be at least k * 4 when m > 1",
                         [&, kk] { KAI_ABI(p.run)(2, kk, mr, kKr, kSr, 0, lhs, 8, packed); }});
    }
    expect_each_aborts(p.name, table);
}

INSTANTIATE_TEST_SUITE_P(Packers, Bf16LhsPackerPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::bf16_lhs_packers().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::bf16_lhs_packers()[info.param].name);
                         });

// kai_get_rhs_offset_* is not in the registry (kxn takes n_idx, nxk also the row stride).
using RhsOffsetFn = size_t (*)(size_t n_idx, size_t rhs_stride);

RhsOffsetFn rhs_offset_fn(const std::string& packer) {
    struct Entry {
        const char* name;
        RhsOffsetFn fn;
    };
    static const Entry entries[] = {
        {"kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon",
         [](size_t n_idx, size_t) { return KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon)(n_idx); }},
        {"kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon",
         [](size_t n_idx, size_t s) { return KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon)(n_idx, s); }},
        {"kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon",
         [](size_t n_idx, size_t) { return KAI_ABI(kai_get_rhs_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon)(n_idx); }},
        {"kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon",
         [](size_t n_idx, size_t s) {
             return KAI_ABI(kai_get_rhs_offset_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon)(n_idx, s);
         }},
    };
    for (const Entry& e : entries) {
        if (packer == e.name) return e.fn;
    }
    return nullptr;
}

class Bf16RhsPackerPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Bf16RhsPackerPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const Bf16RhsPacker& p = kai_registry::bf16_rhs_packers()[GetParam()];
    KAI_TEST_SKIP_UNLESS(p.features);
    const auto rhs_offset = rhs_offset_fn(p.name);
    ASSERT_NE(rhs_offset, nullptr) << p.name << " has no kai_get_rhs_offset_* entry here";
    // n = 1, k = 4, f32 or bf16 source with a row stride of 16 bytes (kxn: 4 rows of one value;
    // nxk: one row of 4 values); no bias. One packed block is 12 x (4 + 4 x 2) = 144 bytes.
    alignas(16) float rhs[64] = {};
    alignas(16) uint8_t packed[256] = {};
    const size_t n = 1, k = 4, stride = 16;
    const float scale = 1.0f;
    const int params = 0;
    const auto run = [&](size_t num_groups, size_t nr, size_t kr, size_t sr, const void* src, const void* s,
                         void* out, size_t extra_bytes, const void* prm) {
        KAI_ABI(p.run)(num_groups, n, k, nr, kr, sr, stride, src, nullptr, s, out, extra_bytes, prm);
    };

    EXPECT_EQ(rhs_offset(kNr, stride), p.nxk ? kNr * stride : kNr * (p.bf16_source ? 2 : 4));
    EXPECT_EQ(KAI_ABI(p.get_bias_offset)(kNr), kNr * sizeof(float));
    EXPECT_EQ(KAI_ABI(p.get_rhs_packed_offset)(kNr, k, kNr, kKr), 144u);
    EXPECT_EQ(KAI_ABI(p.get_rhs_packed_size)(n, k, kNr, kKr), 144u);
    run(1, kNr, kKr, kSr, rhs, nullptr, packed, 0, nullptr);

    const std::vector<Violation> table = {
        {"get_rhs_offset", "n_idx must be a multiple of 12", [&] { (void)rhs_offset(6, stride); }},
        {"get_bias_offset", "n_idx must be a multiple of 12", [&] { (void)p.get_bias_offset(6); }},
        {"get_rhs_packed_offset", "nr must be 12", [&] { (void)p.get_rhs_packed_offset(0, k, 8, kKr); }},
        {"get_rhs_packed_offset", "kr must be 4", [&] { (void)p.get_rhs_packed_offset(0, k, kNr, 2); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr",
         [&] { (void)p.get_rhs_packed_offset(6, k, kNr, kKr); }},
        {"get_rhs_packed_size", "nr must be 12", [&] { (void)p.get_rhs_packed_size(n, k, 8, kKr); }},
        {"get_rhs_packed_size", "kr must be 4", [&] { (void)p.get_rhs_packed_size(n, k, kNr, 2); }},
        {"run", "num_groups must be 1", [&] { run(2, kNr, kKr, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "nr must be 12", [&] { run(1, 8, kKr, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "kr must be 4", [&] { run(1, kNr, 2, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "sr must be 1", [&] { run(1, kNr, kKr, 2, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "scale must be NULL", [&] { run(1, kNr, kKr, kSr, rhs, &scale, packed, 0, nullptr); }},
        {"run", "extra_bytes must be 0", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, packed, 4, nullptr); }},
        {"run", "params must be NULL", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, packed, 0, &params); }},
        {"run", "rhs must not be NULL", [&] { run(1, kNr, kKr, kSr, nullptr, nullptr, packed, 0, nullptr); }},
        {"run", "rhs_packed must not be NULL", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, nullptr, 0, nullptr); }},
    };
    expect_each_aborts(p.name, table);
}

INSTANTIATE_TEST_SUITE_P(Packers, Bf16RhsPackerPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::bf16_rhs_packers().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::bf16_rhs_packers()[info.param].name);
                         });
#endif

// Sizes and offsets that do not fit in size_t abort (kai_common.h's checked arithmetic) instead of
// wrapping to a small value that a caller would allocate, in every build: release builds abort
// without a message.
TEST(Bf16SizeDeathTest, SizesThatOverflowAbort) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    for (const Bf16LhsPacker& p : kai_registry::bf16_lhs_packers()) {
        SCOPED_TRACE(p.name);
        EXPECT_DEATH((void)p.get_lhs_packed_size(1, SIZE_MAX, p.mr, kKr, kSr), overflow);
        EXPECT_DEATH((void)p.get_lhs_packed_size(1, SIZE_MAX / 2, p.mr, kKr, kSr), overflow);
        if (p.mr == 8) EXPECT_DEATH((void)p.get_lhs_packed_size(SIZE_MAX, 4, p.mr, kKr, kSr), overflow);
    }
    for (const Bf16RhsPacker& p : kai_registry::bf16_rhs_packers()) {
        SCOPED_TRACE(p.name);
        EXPECT_DEATH((void)p.get_rhs_packed_size(1, SIZE_MAX, kNr, kKr), overflow);
        for (size_t n : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 11}) {
            EXPECT_DEATH((void)p.get_rhs_packed_size(n, 4, kNr, kKr), overflow) << "n = SIZE_MAX - " << SIZE_MAX - n;
        }
        EXPECT_DEATH((void)p.get_rhs_packed_offset(kNr, SIZE_MAX / 4, kNr, kKr), overflow);
    }
    for (const Bf16Variant& v : kai_registry::bf16_variants()) {
        SCOPED_TRACE(v.name);
        EXPECT_DEATH((void)v.ukernel.get_rhs_packed_offset(kNr, SIZE_MAX), overflow);
        // (The GEMV's only LHS offset is 0, whatever k.)
        if (KAI_ABI(v.ukernel.get_mr)() == 8) EXPECT_DEATH((void)v.ukernel.get_lhs_packed_offset(8, SIZE_MAX), overflow);
    }
}

}  // namespace
