// SPDX-License-Identifier: Apache-2.0
// Tests of family bf16f16: BF16 arithmetic on f16 data (docs/formats.md, "bf16p12x4biasf16 RHS", "bf16 matmul" and "Shared packed buffers").
//  - packers (kai_lhs_pack_bf16p8x4_f16_neon, kai_rhs_pack_{kxn,nxk}_bf16p12x4bias{f16,f32}_f16_neon):
//    byte-exact against test/reference/bf16_ref (written from the spec) on f16 data holding bf16
//    rounding ties, subnormals, +-0, the largest f16, infinities and NaNs (quiet 0x7e00, signalling,
//    with payloads); packing in row or column ranges equals one whole pack; nxk == kxn on the
//    transposed matrix; the biasf32 packers write the bytes of the f32-input packer of the BF16
//    family (docs/formats.md, "Shared packed buffers": one layout), and the f16 LHS packer those of the f32 LHS packer;
//  - kernel kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla: against an f64 matmul of the
//    bf16 operands; the f16 result must lie in the interval the f32 accumulation bound (derived
//    from K in bf16_ref.cc) allows once clamped and rounded to f16, over shape x sub-tile x clamp x
//    bias, packed inputs ending at guard pages, a destination of f16 sentinels (0x7e00) with a
//    wider row stride; infinities and NaNs in the inputs, outputs overflowing f16 (to inf, or to
//    the clamp bound), k == 0;
//  - the KleidiAI v1.30.0 compat vectors (test/data/compat, 24 files);
//  - the documented preconditions (death tests, debug builds) and size overflows.

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

#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16f16_registry.h"

namespace {

using kai_registry::Bf16F16LhsPacker;
using kai_registry::Bf16F16RhsPacker;
using kai_registry::Bf16F16Variant;
using kai_test::GuardedBuffer;
using kai_test::Rng;

constexpr size_t kMr = 8;
constexpr size_t kNr = 12;
constexpr size_t kKr = 4;
constexpr size_t kSr = 1;
constexpr uint16_t kSentinel = 0x7E00;  // the f16 quiet NaN

// ------------------------------------------------------------------------------------------
// Inputs and packing helpers.
// ------------------------------------------------------------------------------------------

// A row-major matrix of f16 patterns and the bf16 patterns the packers must make of them.
struct Matrix {
    size_t rows = 0, cols = 0;
    std::vector<uint16_t> f16;
    std::vector<uint16_t> bf16;
};

void finish(Matrix* mat) {
    mat->bf16.resize(mat->f16.size());
    for (size_t t = 0; t < mat->f16.size(); ++t) mat->bf16[t] = kai_ref::bf16_from_f16(mat->f16[t]);
}

// Finite f16 values in [-1, 1) (times 2^[-3, 3] per row when per_row_scale), with exact bf16 ties
// (the low 3 of the 10 mantissa bits 100) at every 5th element so that ties to even is exercised,
// and with special_values, a few subnormals, +-0, the largest f16 and the packers' special cases
// (infinities and NaNs: packer tests only, the kernel sweep needs finite data).
Matrix make_matrix(size_t rows, size_t cols, uint64_t seed, bool per_row_scale, bool special_values = false) {
    Rng rng(seed);
    Matrix mat;
    mat.rows = rows;
    mat.cols = cols;
    mat.f16.resize(rows * cols);
    for (size_t i = 0; i < rows; ++i) {
        const float mul = per_row_scale ? std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3))) : 1.0f;
        for (size_t j = 0; j < cols; ++j) mat.f16[i * cols + j] = kai_ref::f16_from_f32(rng.uniform(-1.0f, 1.0f) * mul);
    }
    for (size_t t = 0; t < mat.f16.size(); t += 5) {
        if ((mat.f16[t] & 0x7C00u) != 0) mat.f16[t] = static_cast<uint16_t>((mat.f16[t] & ~0x7u) | 0x4u);
    }
    if (special_values) {
        static const uint16_t specials[] = {0x7E00, 0x7C01, 0xFE3F, 0x7D55, 0x7C00, 0xFC00, 0x0000, 0x8000,
                                            0x0001, 0x83FF, 0x0204, 0x7BFF, 0xFBFF, 0x7BFC, 0x0404, 0x3C04};
        for (size_t t = 0; t < mat.f16.size(); t += 3) mat.f16[t] = specials[(t / 3) % 16];
    }
    finish(&mat);
    return mat;
}

Matrix transpose(const Matrix& a) {
    Matrix t;
    t.rows = a.cols;
    t.cols = a.rows;
    t.f16.resize(a.f16.size());
    for (size_t i = 0; i < a.rows; ++i) {
        for (size_t j = 0; j < a.cols; ++j) t.f16[j * a.rows + i] = a.f16[i * a.cols + j];
    }
    finish(&t);
    return t;
}

// The f16 patterns of the matrix with a row stride of cols + pad elements; the gaps hold 0xFFFF
// (an f16 NaN) that a packer must not read into its output.
std::vector<uint8_t> source_bytes(const Matrix& mat, size_t pad, size_t* stride_bytes) {
    const size_t stride = (mat.cols + pad) * 2;
    std::vector<uint8_t> out(std::max<size_t>(mat.rows * stride, 1), 0xFF);
    for (size_t i = 0; i < mat.rows; ++i) std::memcpy(out.data() + i * stride, &mat.f16[i * mat.cols], mat.cols * 2);
    *stride_bytes = stride;
    return out;
}

// Packs rows [0, m) into a buffer of exactly the packed size (it ends at a guard page), in one
// call or, when split > 0, in two calls at row split (a multiple of 8).
std::unique_ptr<GuardedBuffer> pack_lhs(const Bf16F16LhsPacker& p, const Matrix& lhs, size_t split = 0) {
    const size_t m = lhs.rows, k = lhs.cols;
    size_t stride = 0;
    const std::vector<uint8_t> src = source_bytes(lhs, 3, &stride);
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_lhs_packed_size)(m, k, kMr, kKr, kSr));
    if (split == 0 || split >= m) {
        KAI_ABI(p.run)(m, k, kMr, kKr, kSr, 0, src.data(), stride, buf->data());
    } else {
        KAI_ABI(p.run)(split, k, kMr, kKr, kSr, 0, src.data(), stride, buf->data());
        KAI_ABI(p.run)(m - split, k, kMr, kKr, kSr, 0, src.data() + KAI_ABI(p.get_lhs_offset)(split, stride), stride,
                       buf->data() + KAI_ABI(p.get_lhs_packed_offset)(split, k, kMr, kKr, kSr));
    }
    return buf;
}

// A bias for the packer's type: f16 patterns (biasf16) or f32 values of the same f16 values.
struct Bias {
    std::vector<uint16_t> f16;
    std::vector<float> f32;
    bool empty() const { return f16.empty() && f32.empty(); }
    const void* data(bool as_f16) const {
        if (empty()) return nullptr;
        return as_f16 ? static_cast<const void*>(f16.data()) : static_cast<const void*>(f32.data());
    }
};

Bias make_bias(size_t n, uint64_t seed) {
    Rng rng(seed);
    Bias b;
    for (size_t j = 0; j < n; ++j) {
        b.f16.push_back(kai_ref::f16_from_f32(rng.uniform(-1.0f, 1.0f)));
        b.f32.push_back(kai_ref::f32_from_f16(b.f16.back()));
    }
    return b;
}

// Packs the K x N weights `rhs_kxn` (and bias, may be empty) with packer p: nxk packers get the
// transposed matrix. In one call, or in column ranges of `chunk` columns (a multiple of 12).
std::unique_ptr<GuardedBuffer> pack_rhs(const Bf16F16RhsPacker& p, const Matrix& rhs_kxn, const Bias& bias,
                                        size_t chunk = 0, uint8_t fill = 0xA5) {
    const size_t k = rhs_kxn.rows, n = rhs_kxn.cols;
    const Matrix src_mat = p.nxk ? transpose(rhs_kxn) : rhs_kxn;
    size_t stride = 0;
    const std::vector<uint8_t> padded = source_bytes(src_mat, 5, &stride);
    // The source ends at a guard page right after its last element: a packer that reads a row
    // (nxk) or a column (kxn) past the matrix, e.g. for the padding columns of a ragged block, faults.
    GuardedBuffer src(src_mat.rows == 0 ? 1 : (src_mat.rows - 1) * stride + src_mat.cols * 2);
    std::memcpy(src.data(), padded.data(), src.size());
    auto buf = std::make_unique<GuardedBuffer>(KAI_ABI(p.get_rhs_packed_size)(n, k), fill);
    const size_t bias_es = p.bias_f16 ? 2 : 4;
    const uint8_t* b = static_cast<const uint8_t*>(bias.data(p.bias_f16));
    if (chunk == 0) chunk = n;
    for (size_t n0 = 0; n0 < n; n0 += chunk) {
        const size_t cnt = std::min(chunk, n - n0);
        const uint8_t* s = src.data() + (p.nxk ? n0 * stride : n0 * 2);
        EXPECT_EQ(KAI_ABI(p.get_bias_offset)(n0), n0 * bias_es);
        KAI_ABI(p.run)(1, cnt, k, kNr, kKr, kSr, stride, s, b != nullptr ? b + KAI_ABI(p.get_bias_offset)(n0) : nullptr,
                       nullptr, buf->data() + KAI_ABI(p.get_rhs_packed_offset)(n0, k), 0, nullptr);
    }
    return buf;
}

std::vector<uint8_t> reference_rhs(const Bf16F16RhsPacker& p, const Matrix& rhs_kxn, const Bias& bias,
                                   std::vector<uint8_t>* mask) {
    const size_t k = rhs_kxn.rows, n = rhs_kxn.cols;
    if (p.bias_f16) {
        return kai_ref::bf16_pack_rhs_biasf16(rhs_kxn.bf16.data(), bias.empty() ? nullptr : bias.f16.data(), n, k, mask);
    }
    return kai_ref::bf16_pack_rhs(rhs_kxn.bf16.data(), bias.empty() ? nullptr : bias.f32.data(), n, k, mask);
}

const Bf16F16LhsPacker& lhs_packer() {
    return kai_registry::bf16f16_lhs_packers().at(0);
}

std::string short_name(const char* full) {
    std::string s(full);
    if (s.rfind("kai_", 0) == 0) s = s.substr(4);
    return s;
}

uint64_t test_seed() {
    return kai_test::seed_from(::testing::UnitTest::GetInstance()->current_test_info()->name());
}

// ------------------------------------------------------------------------------------------
// Packers.
// ------------------------------------------------------------------------------------------

TEST(Bf16F16Registry, ListsTheFamily) {
    EXPECT_EQ(kai_registry::bf16f16_variants().size(), 1u);
    EXPECT_EQ(kai_registry::bf16f16_lhs_packers().size(), 1u);
    EXPECT_EQ(kai_registry::bf16f16_rhs_packers().size(), 4u);
    for (const auto& p : kai_registry::bf16f16_rhs_packers()) {
        EXPECT_EQ(p.features, KAI_FEATURE_BF16 | KAI_FEATURE_FP16) << p.name;
    }
}

// The conversion of every f16 pattern: the reference against the spec's definition, computed
// another way (f16 -> f32 exactly, then round to nearest even on the upper 16 bits), and the LHS
// packer against the reference on all 65536 patterns.
TEST(Bf16F16Conversion, EveryF16Pattern) {
    std::vector<uint16_t> all(65536);
    for (size_t t = 0; t < all.size(); ++t) all[t] = static_cast<uint16_t>(t);
    for (uint16_t h : {uint16_t{0x3C00}, uint16_t{0x3C04}, uint16_t{0x3C0C}, uint16_t{0x7BFF}, uint16_t{0x0001},
                       uint16_t{0x7C00}, uint16_t{0x7E00}, uint16_t{0x7C01}, uint16_t{0xFE3F}}) {
        SCOPED_TRACE(h);
        const uint16_t b = kai_ref::bf16_from_f16(h);
        if ((h & 0x7FFFu) > 0x7C00u) {
            EXPECT_EQ(b & 0x7FC0u, 0x7FC0u);  // a quiet NaN
            EXPECT_EQ(b & 0x8000u, h & 0x8000u);
        }
    }
    EXPECT_EQ(kai_ref::bf16_from_f16(0x3C04), 0x3F80u);  // 1 + 2^-8: a tie, to even (1.0)
    EXPECT_EQ(kai_ref::bf16_from_f16(0x3C0C), 0x3F82u);  // 1 + 3 * 2^-8: a tie, to even (1 + 2^-6)
    EXPECT_EQ(kai_ref::bf16_from_f16(0x7BFF), 0x4780u);  // 65504 rounds up to 65536
    EXPECT_EQ(kai_ref::bf16_from_f16(0x0001), 0x3380u);  // 2^-24, exact
    EXPECT_EQ(kai_ref::bf16_from_f16(0x7C01), 0x7FC0u);  // signalling NaN quietened
    EXPECT_EQ(kai_ref::bf16_from_f16(0xFE3F), 0xFFC7u);  // payload top bits kept
    KAI_TEST_SKIP_UNLESS(lhs_packer().features);
    Matrix mat;
    mat.rows = 8192;
    mat.cols = 8;
    mat.f16 = all;
    finish(&mat);
    const auto got = pack_lhs(lhs_packer(), mat);
    const std::vector<uint8_t> expected = kai_ref::bf16_pack_lhs(mat.bf16.data(), mat.rows, mat.cols, kMr);
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.data(), expected.size()));
}

struct LhsPackCase {
    size_t m, k;
    bool specials;
};

class Bf16F16LhsPackTest : public ::testing::TestWithParam<LhsPackCase> {};

TEST_P(Bf16F16LhsPackTest, MatchesReference) {
    const LhsPackCase& c = GetParam();
    const Bf16F16LhsPacker& p = lhs_packer();
    KAI_TEST_SKIP_UNLESS(p.features);
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Matrix lhs = make_matrix(c.m, c.k, seed, true, c.specials);

    EXPECT_EQ(KAI_ABI(p.get_m_step)(kMr), kMr);
    EXPECT_EQ(KAI_ABI(p.get_lhs_offset)(8, 100), 800u);
    const std::vector<uint8_t> expected = kai_ref::bf16_pack_lhs(lhs.bf16.data(), c.m, c.k, kMr);
    ASSERT_EQ(KAI_ABI(p.get_lhs_packed_size)(c.m, c.k, kMr, kKr, kSr), expected.size());
    const auto got = pack_lhs(p, lhs);
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.data(), expected.size()));
    if (c.m > kMr) {
        const size_t split = (c.m / 2) / kMr * kMr;
        if (split > 0) {
            const auto parts = pack_lhs(p, lhs, split);
            EXPECT_TRUE(kai_test::bytes_equal(parts->data(), expected.data(), expected.size())) << "split " << split;
        }
    }
}

std::vector<LhsPackCase> lhs_pack_cases() {
    std::vector<LhsPackCase> cases;
    for (size_t m : {1, 7, 8, 9, 17, 37}) {
        for (size_t k : {1, 2, 3, 4, 5, 7, 8, 9, 12, 38, 64, 129, 255, 1031}) cases.push_back({m, k, (m + k) % 2 == 1});
    }
    cases.push_back({3, 4096, true});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Packers, Bf16F16LhsPackTest, ::testing::ValuesIn(lhs_pack_cases()),
                         [](const ::testing::TestParamInfo<LhsPackCase>& info) {
                             std::ostringstream os;
                             os << "m" << info.param.m << "_k" << info.param.k
                                << (info.param.specials ? "_specials" : "");
                             return os.str();
                         });

struct RhsPackCase {
    size_t packer;
    size_t n, k;
    bool bias;
    bool specials;
};

class Bf16F16RhsPackTest : public ::testing::TestWithParam<RhsPackCase> {};

TEST_P(Bf16F16RhsPackTest, MatchesReference) {
    const RhsPackCase& c = GetParam();
    const Bf16F16RhsPacker& p = kai_registry::bf16f16_rhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Matrix rhs = make_matrix(c.k, c.n, seed, false, c.specials);
    const Bias bias = c.bias ? make_bias(c.n, seed + 1) : Bias();

    EXPECT_EQ(KAI_ABI(p.get_n_step)(), kNr);
    std::vector<uint8_t> mask;
    const std::vector<uint8_t> expected = reference_rhs(p, rhs, bias, &mask);
    ASSERT_EQ(KAI_ABI(p.get_rhs_packed_size)(c.n, c.k), expected.size());
    EXPECT_EQ(KAI_ABI(p.get_rhs_packed_offset)(kNr, c.k), expected.size() / ((c.n + kNr - 1) / kNr));
    const auto got = pack_rhs(p, rhs, bias);
    EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.data(), expected.size(), mask.data()));
    for (size_t t = 0; t < expected.size(); ++t) {
        if (mask[t] == 0) {
            ASSERT_EQ(got->data()[t], 0xA5) << "byte " << t << " of a padded column's bias was written";
        }
    }
    if (c.n > kNr) {
        for (size_t chunk : {kNr, 2 * kNr}) {
            const auto parts = pack_rhs(p, rhs, bias, chunk);
            EXPECT_TRUE(kai_test::bytes_equal(parts->data(), expected.data(), expected.size(), mask.data()))
                << "chunk " << chunk;
        }
    }
}

std::vector<RhsPackCase> rhs_pack_cases() {
    std::vector<RhsPackCase> cases;
    const bool reduced = kai_test::reduced_sweep();
    const auto& packers = kai_registry::bf16f16_rhs_packers();
    for (size_t p = 0; p < packers.size(); ++p) {
        for (size_t n : {1, 2, 11, 12, 13, 24, 25, 53}) {
            for (size_t k : {1, 2, 3, 4, 5, 7, 8, 9, 38, 64, 129, 1031}) {
                if (reduced && (n == 2 || n == 24 || k == 2 || k == 7 || k == 64 || k == 1031)) continue;
                cases.push_back({p, n, k, (n + k) % 2 == 0, (n * 3 + k) % 4 == 1});
            }
        }
        if (!reduced) cases.push_back({p, 37, 4100, true, true});
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Packers, Bf16F16RhsPackTest, ::testing::ValuesIn(rhs_pack_cases()),
                         [](const ::testing::TestParamInfo<RhsPackCase>& info) {
                             std::ostringstream os;
                             os << short_name(kai_registry::bf16f16_rhs_packers()[info.param.packer].name) << "_n"
                                << info.param.n << "_k" << info.param.k << (info.param.bias ? "_bias" : "_nobias")
                                << (info.param.specials ? "_specials" : "");
                             return os.str();
                         });

// One layout (docs/formats.md, "Shared packed buffers"): nxk == kxn for both bias types; the biasf32 packers write what the f32
// packer of the BF16 family writes for the same values (f16 values are exact in f32), and the f16
// LHS packer what the f32 LHS packer writes.
TEST(Bf16F16PackerAgreement, AllSourcesGiveOneLayout) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_BF16 | KAI_FEATURE_FP16);
    const size_t shapes[][2] = {{1, 1}, {13, 7}, {25, 38}, {53, 64}, {24, 9}};
    for (const auto& s : shapes) {
        const size_t n = s[0], k = s[1];
        SCOPED_TRACE("n=" + std::to_string(n) + " k=" + std::to_string(k));
        const Matrix rhs = make_matrix(k, n, 1000 + n * 31 + k, false);
        const Bias bias = make_bias(n, 7 + n);
        std::vector<float> rhs_f32(k * n);
        for (size_t t = 0; t < rhs_f32.size(); ++t) rhs_f32[t] = kai_ref::f32_from_f16(rhs.f16[t]);
        GuardedBuffer f32_packed(kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(n, k, kNr, kKr),
                                 0x00);
        KAI_ABI(kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon)(1, n, k, kNr, kKr, kSr, n * 4, rhs_f32.data(),
                                                                       bias.f32.data(), nullptr, f32_packed.data(), 0,
                                                                       nullptr);
        for (bool f16_bias : {true, false}) {
            std::unique_ptr<GuardedBuffer> first;
            for (const Bf16F16RhsPacker& p : kai_registry::bf16f16_rhs_packers()) {
                if (p.bias_f16 != f16_bias) continue;
                auto got = pack_rhs(p, rhs, bias, 0, 0x00);
                if (!f16_bias) {
                    ASSERT_EQ(got->size(), f32_packed.size());
                    EXPECT_TRUE(kai_test::bytes_equal(got->data(), f32_packed.data(), f32_packed.size()))
                        << p.name << " vs kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon";
                }
                if (!first) {
                    first = std::move(got);
                    continue;
                }
                EXPECT_TRUE(kai_test::bytes_equal(got->data(), first->data(), first->size())) << p.name;
            }
        }
        const size_t m = 11;
        const Matrix lhs = make_matrix(m, k, 77 + k, true);
        std::vector<float> lhs_f32(m * k);
        for (size_t t = 0; t < lhs_f32.size(); ++t) lhs_f32[t] = kai_ref::f32_from_f16(lhs.f16[t]);
        GuardedBuffer lhs_f32_packed(kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(m, k, kMr, kKr, kSr));
        KAI_ABI(kai_run_lhs_quant_pack_bf16p8x4_f32_neon)(m, k, kMr, kKr, kSr, 0, lhs_f32.data(), k * 4,
                                                           lhs_f32_packed.data());
        const auto got = pack_lhs(lhs_packer(), lhs);
        EXPECT_TRUE(kai_test::bytes_equal(got->data(), lhs_f32_packed.data(), lhs_f32_packed.size()));
    }
}

// ------------------------------------------------------------------------------------------
// The kernel.
// ------------------------------------------------------------------------------------------

// An m x n f16 destination with a row stride of `stride` bytes, filled with kSentinel, with a
// margin of sentinels before element (0, 0); ends at a guard page.
class Dst16 {
public:
    Dst16(size_t rows, size_t cols, size_t stride)
        : rows_(rows), cols_(cols), stride_(stride), buf_(kMargin + std::max<size_t>(rows, 1) * stride) {
        for (size_t t = 0; t + 1 < buf_.size(); t += 2) std::memcpy(buf_.data() + t, &kSentinel, 2);
    }
    uint8_t* at(size_t i, size_t j) { return buf_.data() + kMargin + i * stride_ + j * 2; }
    uint16_t bits(size_t i, size_t j) const {
        uint16_t v;
        std::memcpy(&v, buf_.data() + kMargin + i * stride_ + j * 2, 2);
        return v;
    }
    float value(size_t i, size_t j) const { return kai_ref::f32_from_f16(bits(i, j)); }
    // Success when every 2-byte unit outside the tile still holds the sentinel.
    ::testing::AssertionResult untouched_outside(size_t m0, size_t mh, size_t n0, size_t nw) const {
        for (size_t t = 0; t + 1 < buf_.size(); t += 2) {
            bool inside = false;
            if (t >= kMargin) {
                const size_t off = t - kMargin;
                const size_t i = off / stride_, j = (off % stride_) / 2;
                inside = i >= m0 && i < m0 + mh && j >= n0 && j < n0 + nw && (off % stride_) < cols_ * 2;
            }
            uint16_t v;
            std::memcpy(&v, buf_.data() + t, 2);
            if (!inside && v != kSentinel) {
                return ::testing::AssertionFailure() << "byte " << t << " outside the tile holds 0x" << std::hex << v;
            }
        }
        return ::testing::AssertionSuccess();
    }

private:
    static constexpr size_t kMargin = 64;
    size_t rows_, cols_, stride_;
    GuardedBuffer buf_;
};

enum class Portion { kFull, kAllTiles, kInterior, kLastRagged };
// kBite: the 20 % / 80 % quantiles moved 0.3 f16 ulp inward (not f16 values, as in the compat
// vectors); kRelu: [0, +FLT_MAX]; kInverted: scalar_min > scalar_max (every output is scalar_min);
// kHalf: [-65504, 65504] (finite f16 bounds: the clamp runs, nothing changes); kMaxOnly:
// [-FLT_MAX, 60 % quantile moved 0.3 f16 ulp inward] (only the upper bound finite).
enum class Clamp { kNone, kInfinite, kBite, kRelu, kInverted, kHalf, kMaxOnly };

struct KernelCase {
    size_t m, n, k;
    Portion portion;
    Clamp clamp;
    bool bias;
    size_t rhs_packer;  // index into bf16f16_rhs_packers() (a biasf16 one)
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
                for (size_t n0 = 0; n0 < n; n0 += ns) tiles.push_back({m0, std::min(ms, m - m0), n0, std::min(ns, n - n0)});
            }
            break;
        case Portion::kInterior: {
            const size_t m0 = (m / 2) / ms * ms, n0 = (n / 2) / ns * ns;
            tiles.push_back({m0, std::min(2 * ms, m - m0), n0, std::min(2 * ns, n - n0)});
            break;
        }
        case Portion::kLastRagged: {
            const size_t m0 = (m - 1) / ms * ms, n0 = (n - 1) / ns * ns;
            tiles.push_back({m0, m - m0, n0, n - n0});
            break;
        }
    }
    return tiles;
}

// x moved by `ulps` f16 ulps (at x) towards zero when ulps > 0.
float inward(double x, double ulps) {
    const float f = static_cast<float>(x);
    int e = 0;
    std::frexp(std::fabs(f), &e);
    const double ulp = std::ldexp(1.0, std::max(e - 1, -14) - 10);
    return static_cast<float>(x > 0 ? x - ulps * ulp : x + ulps * ulp);
}

void clamp_bounds(Clamp clamp, const std::vector<double>& ref, float* min, float* max) {
    *min = -FLT_MAX;
    *max = FLT_MAX;
    std::vector<double> sorted(ref);
    std::sort(sorted.begin(), sorted.end());
    const double q20 = sorted[sorted.size() / 5], q80 = sorted[sorted.size() * 4 / 5];
    switch (clamp) {
        case Clamp::kNone:
            break;
        case Clamp::kInfinite:
            *min = -INFINITY;
            *max = INFINITY;
            break;
        case Clamp::kBite:
            *min = inward(q20, 0.3);
            *max = inward(q80, 0.3);
            if (*min > *max) std::swap(*min, *max);
            break;
        case Clamp::kRelu:
            *min = 0.0f;
            break;
        case Clamp::kInverted:
            *min = static_cast<float>(q80);
            *max = static_cast<float>(q20);
            break;
        case Clamp::kHalf:
            *min = -65504.0f;
            *max = 65504.0f;
            break;
        case Clamp::kMaxOnly:
            *max = inward(sorted[sorted.size() * 3 / 5], 0.3);
            break;
    }
}

// Checks dst over the tiles' union against the reference: the f16 result must lie in the interval
// of kai_ref::f16_output_interval (NaN exactly where the reference is NaN).
void check_outputs(const Dst16& dst, const std::vector<double>& ref, const std::vector<double>& abs_sum, size_t n,
                   size_t k, size_t m_lo, size_t m_hi, size_t n_lo, size_t n_hi, float min, float max) {
    size_t failures = 0;
    for (size_t i = m_lo; i < m_hi && failures < 5; ++i) {
        for (size_t j = n_lo; j < n_hi && failures < 5; ++j) {
            const double exact = ref[i * n + j];
            const double bound = kai_ref::bf16_error_bound(abs_sum[i * n + j], exact, k, false);
            float lo = 0, hi = 0;
            kai_ref::f16_output_interval(exact, bound, min, max, &lo, &hi);
            const float got = dst.value(i, j);
            const bool ok = std::isnan(lo) ? std::isnan(got) : (got >= lo && got <= hi);
            if (!ok) {
                ADD_FAILURE() << "dst[" << i << "][" << j << "] = " << got << " (0x" << std::hex << dst.bits(i, j)
                              << std::dec << "), expected in [" << lo << ", " << hi << "] (exact " << exact
                              << ", f32 bound " << bound << ", clamp [" << min << ", " << max << "])";
                ++failures;
            }
        }
    }
}

class Bf16F16KernelTest : public ::testing::TestWithParam<KernelCase> {};

TEST_P(Bf16F16KernelTest, MatchesReferenceWithinBound) {
    const KernelCase& c = GetParam();
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    const Bf16F16LhsPacker& lp = lhs_packer();
    const Bf16F16RhsPacker& rp = kai_registry::bf16f16_rhs_packers()[c.rhs_packer];
    KAI_TEST_SKIP_UNLESS(v.features | lp.features | rp.features);
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    SCOPED_TRACE(std::string(v.name) + " fed by " + lp.name + " and " + rp.name);
    ASSERT_TRUE(rp.bias_f16);

    const auto& uk = v.ukernel;
    const size_t ms = KAI_ABI(uk.get_m_step)(), ns = KAI_ABI(uk.get_n_step)();
    ASSERT_EQ(ms, 8u);
    ASSERT_EQ(ns, 12u);
    ASSERT_EQ(KAI_ABI(uk.get_mr)(), kMr);
    ASSERT_EQ(KAI_ABI(uk.get_nr)(), kNr);
    ASSERT_EQ(KAI_ABI(uk.get_kr)(), kKr);
    ASSERT_EQ(KAI_ABI(uk.get_sr)(), kSr);

    const Matrix lhs = make_matrix(c.m, c.k, seed, true);
    const Matrix rhs = make_matrix(c.k, c.n, seed + 1, false);
    const Bias bias = c.bias ? make_bias(c.n, seed + 2) : Bias();
    const auto lhs_packed = pack_lhs(lp, lhs);
    const auto rhs_packed = pack_rhs(rp, rhs, bias);

    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(lhs.bf16.data(), rhs.bf16.data(), c.bias ? bias.f32.data() : nullptr, c.m, c.n, c.k, &ref,
                         &abs_sum);
    float min = 0, max = 0;
    clamp_bounds(c.clamp, ref, &min, &max);

    const size_t stride = (c.n + 3) * 2;  // wider than a row
    Dst16 dst(c.m, c.n, stride);
    const std::vector<Tile> tiles = tiles_of(c.portion, c.m, c.n, ms, ns);
    for (const Tile& t : tiles) {
        const size_t lhs_off = KAI_ABI(uk.get_lhs_packed_offset)(t.m0, c.k);
        const size_t rhs_off = KAI_ABI(uk.get_rhs_packed_offset)(t.n0, c.k);
        ASSERT_EQ(lhs_off, KAI_ABI(lp.get_lhs_packed_offset)(t.m0, c.k, kMr, kKr, kSr));
        ASSERT_EQ(rhs_off, KAI_ABI(rp.get_rhs_packed_offset)(t.n0, c.k));
        ASSERT_EQ(KAI_ABI(uk.get_dst_offset)(t.m0, t.n0, stride), t.m0 * stride + t.n0 * 2);
        KAI_ABI(uk.run_matmul)(t.mh, t.nw, c.k, lhs_packed->data() + lhs_off, rhs_packed->data() + rhs_off,
                               dst.at(t.m0, t.n0), stride, 2, min, max);
    }
    EXPECT_EQ(KAI_ABI(uk.get_dst_size)(c.m, c.n), c.m * c.n * 2);

    size_t m_lo = c.m, m_hi = 0, n_lo = c.n, n_hi = 0;
    for (const Tile& t : tiles) {
        m_lo = std::min(m_lo, t.m0);
        m_hi = std::max(m_hi, t.m0 + t.mh);
        n_lo = std::min(n_lo, t.n0);
        n_hi = std::max(n_hi, t.n0 + t.nw);
    }
    EXPECT_TRUE(dst.untouched_outside(m_lo, m_hi - m_lo, n_lo, n_hi - n_lo));
    // (Finite data: no output is NaN, so none may still hold the sentinel.)
    check_outputs(dst, ref, abs_sum, c.n, c.k, m_lo, m_hi, n_lo, n_hi, min, max);
    if (c.clamp == Clamp::kInverted) {
        // Every output is scalar_min rounded to f16.
        const float want = kai_ref::f32_from_f16(kai_ref::f16_from_f32(min));
        for (size_t i = m_lo; i < m_hi; ++i) {
            for (size_t j = n_lo; j < n_hi; ++j) ASSERT_EQ(dst.value(i, j), want) << i << "," << j;
        }
    }
}

struct Shape {
    size_t m, n, k;
};

std::vector<KernelCase> kernel_cases() {
    const bool reduced = kai_test::reduced_sweep();
    // 1x1x1, tile-1/tile/tile+1 in each dimension, K tails (not a multiple of 4), primes; the
    // 4x24 tiles of a call: n = 23/24/25, a single K step (k <= 4) with n > 12, k = 5..8 (two
    // steps) and k = 9..16 (the shortest assembly K loops), 1, 2 and an odd number of tiles; large
    // K (2048, 11008 and 14336 on small M x N).
    const std::vector<Shape> shapes = {
        {1, 1, 1},    {7, 11, 3},   {8, 12, 4},     {9, 13, 5},   {3, 7, 3},     {12, 8, 4},  {16, 24, 7},
        {17, 25, 38}, {13, 33, 23}, {37, 53, 64},   {2, 1013, 6}, {1, 1, 1023},  {93, 57, 89}, {257, 113, 373},
        {9, 25, 2048}, {9, 25, 3},  {8, 24, 4},     {17, 23, 1},  {33, 47, 2},   {8, 24, 9},  {41, 40, 11},
        {24, 48, 13}, {3, 13, 11008}, {9, 25, 14336}, {64, 96, 256},
        {9, 13, 4096}, {1, 13, 16448}};  // and past 16384: every path of the K loops
    const auto& rhs_packers = kai_registry::bf16f16_rhs_packers();
    std::vector<size_t> biasf16;
    for (size_t p = 0; p < rhs_packers.size(); ++p) {
        if (rhs_packers[p].bias_f16) biasf16.push_back(p);
    }
    std::vector<KernelCase> cases;
    size_t rotate = 0;
    for (size_t si = 0; si < shapes.size(); ++si) {
        const Shape& s = shapes[si];
        const bool big = s.m * s.n * s.k > 1000000 || s.k >= 2048;
        if (reduced && s.m * s.n * s.k > 10000000) continue;  // 257x113x373: full sweep only
        for (Portion portion : {Portion::kFull, Portion::kAllTiles, Portion::kInterior, Portion::kLastRagged}) {
            for (Clamp clamp : {Clamp::kNone, Clamp::kInfinite, Clamp::kBite, Clamp::kRelu, Clamp::kInverted, Clamp::kHalf,
                                Clamp::kMaxOnly}) {
                for (bool bias : {true, false}) {
                    // One-sided, inverted and f16-range clamps: one sub-tile each, every shape.
                    const bool extra = clamp == Clamp::kRelu || clamp == Clamp::kInverted || clamp == Clamp::kHalf ||
                                       clamp == Clamp::kMaxOnly;
                    if (extra && reduced && si % 2 == 1) continue;
                    if (extra && !((clamp == Clamp::kRelu && portion == Portion::kFull && bias) ||
                                   // inverted bounds both on the ragged last tile (single column
                                   // blocks) and on the whole matrix (the column-pair blocks)
                                   (clamp == Clamp::kInverted && portion == Portion::kLastRagged && !bias) ||
                                   (clamp == Clamp::kInverted && portion == Portion::kFull && bias) ||
                                   (clamp == Clamp::kHalf && portion == Portion::kInterior && bias) ||
                                   (clamp == Clamp::kMaxOnly && portion == Portion::kAllTiles && !bias))) {
                        continue;
                    }
                    if ((big || reduced) && !extra &&
                        !((portion == Portion::kFull && clamp == Clamp::kBite && bias) ||
                          (portion == Portion::kAllTiles && clamp == Clamp::kNone && !bias) ||
                          (portion == Portion::kLastRagged && clamp == Clamp::kInfinite))) {
                        continue;
                    }
                    // Large shapes (the f64 reference dominates under qemu): two cases, one when reduced.
                    if (big && !((portion == Portion::kFull && clamp == Clamp::kBite && bias) ||
                                 (!reduced && portion == Portion::kLastRagged && clamp == Clamp::kInfinite && !bias))) {
                        continue;
                    }
                    cases.push_back({s.m, s.n, s.k, portion, clamp, bias, biasf16[rotate % biasf16.size()]});
                    ++rotate;
                }
            }
        }
    }
    return cases;
}

std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
    const KernelCase& c = info.param;
    static const char* const portions[] = {"full", "alltiles", "interior", "lastragged"};
    static const char* const clamps[] = {"noclamp", "infclamp", "clamp", "reluclamp", "invclamp", "f16clamp", "maxonlyclamp"};
    std::ostringstream os;
    os << c.m << "x" << c.n << "x" << c.k << "_" << portions[static_cast<int>(c.portion)] << "_"
       << clamps[static_cast<int>(c.clamp)] << "_" << (c.bias ? "bias" : "nobias") << "_"
       << (kai_registry::bf16f16_rhs_packers()[c.rhs_packer].nxk ? "nxk" : "kxn");
    return os.str();
}

INSTANTIATE_TEST_SUITE_P(Kernels, Bf16F16KernelTest, ::testing::ValuesIn(kernel_cases()), kernel_case_name);

const Bf16F16RhsPacker& rhs_packer(bool nxk, bool bias_f16) {
    for (const Bf16F16RhsPacker& p : kai_registry::bf16f16_rhs_packers()) {
        if (p.nxk == nxk && p.bias_f16 == bias_f16) return p;
    }
    ADD_FAILURE() << "no such packer";
    return kai_registry::bf16f16_rhs_packers().at(0);
}

// Infinities and NaNs in the inputs and outputs beyond the f16 range, in a full and a ragged tile
// of both 4x24 and 8x12 paths (n = 37 = 24 + 13): column 0 has bias +inf, column 1 -inf, column 2
// the f16 NaN 0x7e00, column 3 a signalling NaN pattern; rows 1 and 9 of the LHS hold +inf at
// k = 1 (column 10 multiplies it by 0: NaN; column 11 by -1: -inf); column 5 overflows f16
// (4 x 256 x 256 = 262144) and column 6 overflows negatively; column 7 is exactly 65504 (the
// largest f16) and column 8 exactly 65520 (the first value that rounds to infinity, a tie). With
// the infinite bounds and with FLT_MAX the overflows become infinities; with [-60000, 60000] the
// bounds (60000 is an f16 value); with [-1e5, 1e5] infinities again (the clamp is in f32, the
// rounding after it). Every output is also checked against the reference interval.
TEST(Bf16F16KernelSpecialValues, InfinitiesNaNAndOverflow) {
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    KAI_TEST_SKIP_UNLESS(v.features | lhs_packer().features);
    const auto& uk = v.ukernel;
    const size_t m = 11, n = 37, k = 8;
    Matrix lhs = make_matrix(m, k, 5, false);
    Matrix rhs = make_matrix(k, n, 6, false);
    for (size_t i = 0; i < m; ++i) {
        for (size_t kk = 4; kk < 8; ++kk) lhs.f16[i * k + kk] = 0x5C00;  // 256 at k = 4..7
    }
    lhs.f16[1 * k + 1] = 0x7C00;  // +inf
    lhs.f16[9 * k + 1] = 0x7C00;
    for (size_t kk = 4; kk < 8; ++kk) {
        for (size_t j = 0; j < n; ++j) rhs.f16[kk * n + j] = 0;
        rhs.f16[kk * n + 5] = 0x5C00;  // 256: 4 x 65536
        rhs.f16[kk * n + 6] = 0xDC00;  // -256
    }
    // Columns 7 and 8: 256 x 255 + 256 x 0.875 = 65504 and 256 x 255 + 256 x 0.9375 = 65520, all
    // values exact in bf16 and f16, the other terms 0.
    for (size_t kk = 0; kk < 4; ++kk) rhs.f16[kk * n + 7] = rhs.f16[kk * n + 8] = 0;
    rhs.f16[4 * n + 7] = rhs.f16[4 * n + 8] = 0x5BF8;  // 255
    rhs.f16[5 * n + 7] = 0x3B00;                       // 0.875
    rhs.f16[5 * n + 8] = 0x3B80;                       // 0.9375
    rhs.f16[1 * n + 10] = 0;       // inf * 0 = NaN in rows 1 and 9, column 10
    rhs.f16[1 * n + 11] = 0xBC00;  // inf * -1 = -inf (rows 1, 9)
    finish(&lhs);
    finish(&rhs);
    Bias bias = make_bias(n, 9);
    bias.f16[0] = 0x7C00;
    bias.f16[1] = 0xFC00;
    bias.f16[2] = 0x7E00;
    bias.f16[3] = 0x7C01;
    bias.f16[5] = bias.f16[6] = bias.f16[7] = bias.f16[8] = 0;
    for (size_t j = 0; j < n; ++j) bias.f32[j] = kai_ref::f32_from_f16(bias.f16[j]);
    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(lhs.bf16.data(), rhs.bf16.data(), bias.f32.data(), m, n, k, &ref, &abs_sum);
    const auto lhs_packed = pack_lhs(lhs_packer(), lhs);
    for (bool nxk : {false, true}) {
        const auto rhs_packed = pack_rhs(rhs_packer(nxk, true), rhs, bias);
        const float bounds[][2] = {{-INFINITY, INFINITY}, {-FLT_MAX, FLT_MAX}, {-60000.0f, 60000.0f}, {-1e5f, 1e5f}};
        for (const auto& b : bounds) {
            SCOPED_TRACE(std::string(nxk ? "nxk" : "kxn") + " clamp " + std::to_string(b[1]));
            Dst16 dst(m, n, n * 2);
            KAI_ABI(uk.run_matmul)(m, n, k, lhs_packed->data(), rhs_packed->data(), dst.at(0, 0), n * 2, 2, b[0], b[1]);
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            check_outputs(dst, ref, abs_sum, n, k, 0, m, 0, n, b[0], b[1]);
            const bool sat = b[1] == 60000.0f;
            for (size_t i = 0; i < m; ++i) {
                EXPECT_TRUE(std::isnan(dst.value(i, 2))) << i;
                EXPECT_TRUE(std::isnan(dst.value(i, 3))) << i;
                if (i == 1 || i == 9) {
                    EXPECT_TRUE(std::isnan(dst.value(i, 10))) << i;
                    EXPECT_EQ(dst.value(i, 11), sat ? -60000.0f : -INFINITY) << i;
                    continue;
                }
                EXPECT_EQ(dst.value(i, 0), sat ? 60000.0f : INFINITY) << i;
                EXPECT_EQ(dst.value(i, 1), sat ? -60000.0f : -INFINITY) << i;
                EXPECT_EQ(dst.value(i, 5), sat ? 60000.0f : INFINITY) << i;
                EXPECT_EQ(dst.value(i, 6), sat ? -60000.0f : -INFINITY) << i;
                EXPECT_EQ(dst.value(i, 7), sat ? 60000.0f : 65504.0f) << i;
                EXPECT_EQ(dst.value(i, 8), sat ? 60000.0f : INFINITY) << i;
                EXPECT_TRUE(std::isfinite(dst.value(i, 10))) << i;
            }
        }
    }
}

// k == 0: no products, every output is its clamped bias rounded to f16.
TEST(Bf16F16KernelSpecialValues, EmptyDepthGivesTheClampedBias) {
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = 9, n = 13;
    Bias bias = make_bias(n, 3);
    bias.f16[4] = 0x7C00;
    bias.f32[4] = INFINITY;
    Matrix rhs;
    rhs.rows = 0;
    rhs.cols = n;
    const auto rhs_packed = pack_rhs(rhs_packer(false, true), rhs, bias);
    ASSERT_EQ(rhs_packed->size(), 2 * kNr * 2);
    GuardedBuffer lhs_packed(1);  // nothing may be read from it
    Dst16 dst(m, n, n * 2);
    KAI_ABI(uk.run_matmul)(m, n, 0, lhs_packed.data(), rhs_packed->data(), dst.at(0, 0), n * 2, 2, -0.5f, 0.4f);
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            const float want = std::max(std::min(bias.f32[j], 0.4f), -0.5f);
            EXPECT_EQ(dst.bits(i, j), kai_ref::f16_from_f32(want)) << i << "," << j;
        }
    }
}

// The biasf32 packers from f16 feed the f32-output BF16 GEMM (docs/formats.md, "Shared packed buffers").
TEST(Bf16F16PackerAgreement, Biasf32PackersFeedTheF32Gemm) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_BF16 | KAI_FEATURE_FP16);
    const size_t m = 19, n = 29, k = 45;
    const Matrix lhs = make_matrix(m, k, 11, true);
    const Matrix rhs = make_matrix(k, n, 12, false);
    const Bias bias = make_bias(n, 13);
    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(lhs.bf16.data(), rhs.bf16.data(), bias.f32.data(), m, n, k, &ref, &abs_sum);
    const auto lhs_packed = pack_lhs(lhs_packer(), lhs);
    for (bool nxk : {false, true}) {
        const Bf16F16RhsPacker& p = rhs_packer(nxk, false);
        SCOPED_TRACE(p.name);
        const auto rhs_packed = pack_rhs(p, rhs, bias);
        std::vector<float> dst(m * n, NAN);
        KAI_ABI(kai_run_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla)(
            m, n, k, lhs_packed->data(), rhs_packed->data(), dst.data(), n * 4, 4, -FLT_MAX, FLT_MAX);
        for (size_t t = 0; t < m * n; ++t) {
            ASSERT_LE(std::fabs(dst[t] - ref[t]), kai_ref::bf16_error_bound(abs_sum[t], ref[t], k, false)) << t;
        }
    }
}

// ------------------------------------------------------------------------------------------
// KleidiAI compat vectors.
// ------------------------------------------------------------------------------------------

std::vector<uint16_t> u16s(const kai_test::CompatSection& s) {
    std::vector<uint16_t> out(s.bytes.size() / 2);
    std::memcpy(out.data(), s.bytes.data(), out.size() * 2);
    return out;
}

Matrix matrix_of(const kai_test::CompatSection& s, size_t rows, size_t cols) {
    Matrix mat;
    mat.rows = rows;
    mat.cols = cols;
    mat.f16 = u16s(s);
    mat.f16.resize(rows * cols);
    finish(&mat);
    return mat;
}

// Packer files: the named packer and its nxk twin (on the transposed matrix) reproduce the bytes.
void replay_packer(const kai_test::CompatVector& f) {
    const std::string name = f.str("name");
    if (f.str("kind") == "lhs_packer") {
        const size_t m = f.size("m"), k = f.size("k");
        ASSERT_EQ(name, lhs_packer().name);
        ASSERT_EQ(f.size("mr"), kMr);
        const auto& expected = f.section("lhs_packed");
        const Matrix lhs = matrix_of(f.section("lhs"), m, k);
        ASSERT_EQ(KAI_ABI(lhs_packer().get_lhs_packed_size)(m, k, kMr, kKr, kSr), expected.bytes.size());
        const auto got = pack_lhs(lhs_packer(), lhs);
        EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.bytes.data(), expected.bytes.size(), expected.mask.data()));
        return;
    }
    const size_t n = f.size("n"), k = f.size("k");
    const auto& expected = f.section("rhs_packed");
    const Matrix rhs = matrix_of(f.section("rhs"), k, n);
    Bias bias;
    if (f.str("bias") == "f16") {
        bias.f16 = u16s(f.section("bias"));
        for (uint16_t h : bias.f16) bias.f32.push_back(kai_ref::f32_from_f16(h));
    } else if (f.str("bias") == "f32") {
        bias.f32.assign(f.section("bias").f32(), f.section("bias").f32() + n);  // biasf32 packers only
    }
    size_t ran = 0;
    for (const Bf16F16RhsPacker& p : kai_registry::bf16f16_rhs_packers()) {
        std::string twin = p.name;
        twin.replace(twin.find(p.nxk ? "_nxk_" : "_kxn_"), 5, "_kxn_");
        if (twin != name) continue;
        SCOPED_TRACE(p.name);
        ASSERT_EQ(KAI_ABI(p.get_rhs_packed_size)(n, k), expected.bytes.size());
        const auto got = pack_rhs(p, rhs, bias);
        EXPECT_TRUE(kai_test::bytes_equal(got->data(), expected.bytes.data(), expected.bytes.size(), expected.mask.data()));
        ++ran;
    }
    EXPECT_EQ(ran, 2u) << name << " and its nxk twin";
}

// f16 spacing at x: 2^(max(e, -14) - 10) for |x| in [2^e, 2^(e+1)).
double ulp_f16(double x) {
    if (x == 0) return std::ldexp(1.0, -24);
    int e = 0;
    std::frexp(std::fabs(x), &e);
    return std::ldexp(1.0, std::max(e - 1, -14) - 10);
}

// Kernel files: on the stored packed operands, against the stored output with the README's rule
// (bit-identical, or |got - expected| <= 1e-4 (|bias| + sum |a b|) + ulp_f16(expected)), and
// against the f64 reference with the interval derived from K (f16_output_interval).
void replay_kernel(const kai_test::CompatVector& f) {
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    ASSERT_EQ(f.str("name"), v.name);
    const size_t m = f.size("m"), n = f.size("n"), k = f.size("k");
    const auto& uk = v.ukernel;
    EXPECT_EQ(KAI_ABI(uk.get_m_step)(), f.size("m_step"));
    EXPECT_EQ(KAI_ABI(uk.get_n_step)(), f.size("n_step"));
    EXPECT_EQ(KAI_ABI(uk.get_mr)(), f.size("mr"));
    EXPECT_EQ(KAI_ABI(uk.get_nr)(), f.size("nr"));
    EXPECT_EQ(KAI_ABI(uk.get_kr)(), f.size("kr"));
    EXPECT_EQ(KAI_ABI(uk.get_sr)(), f.size("sr"));
    const Matrix a = matrix_of(f.section("lhs"), m, k);
    const Matrix b = matrix_of(f.section("rhs"), k, n);
    const bool has_bias = f.str("bias") == "f16";
    std::vector<float> bias;
    if (has_bias) {
        for (uint16_t h : u16s(f.section("bias"))) bias.push_back(kai_ref::f32_from_f16(h));
    }
    std::vector<double> ref, abs_sum;
    kai_ref::bf16_matmul(a.bf16.data(), b.bf16.data(), has_bias ? bias.data() : nullptr, m, n, k, &ref, &abs_sum);
    const std::vector<uint16_t> expected = u16s(f.section("dst"));
    const auto& lsec = f.section("lhs_packed");
    const auto& rsec = f.section("rhs_packed");
    GuardedBuffer lhs_packed(lsec.bytes.size()), rhs_packed(rsec.bytes.size());
    std::memcpy(lhs_packed.data(), lsec.bytes.data(), lsec.bytes.size());
    std::memcpy(rhs_packed.data(), rsec.bytes.data(), rsec.bytes.size());
    // The packers reproduce the stored packed operands too.
    EXPECT_TRUE(kai_test::bytes_equal(pack_lhs(lhs_packer(), a)->data(), lsec.bytes.data(), lsec.bytes.size(),
                                      lsec.mask.data()));
    Bias bb;
    if (has_bias) {
        bb.f16 = u16s(f.section("bias"));
        bb.f32 = bias;
    }
    EXPECT_TRUE(kai_test::bytes_equal(pack_rhs(rhs_packer(false, true), b, bb)->data(), rsec.bytes.data(),
                                      rsec.bytes.size(), rsec.mask.data()));
    const float min = f.clamp_min(), max = f.clamp_max();
    const size_t stride = (n + 1) * 2;
    Dst16 dst(m, n, stride);
    KAI_ABI(uk.run_matmul)(m, n, k, lhs_packed.data(), rhs_packed.data(), dst.at(0, 0), stride, 2, min, max);
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < n; ++j) {
            const uint16_t got = dst.bits(i, j);
            const uint16_t e = expected[i * n + j];
            if (got != e) {
                const double g = kai_ref::f32_from_f16(got), x = kai_ref::f32_from_f16(e);
                ASSERT_TRUE(std::isfinite(g) && std::isfinite(x)) << "dst[" << i << "][" << j << "]";
                ASSERT_LE(std::fabs(g - x), 1e-4 * abs_sum[i * n + j] + ulp_f16(x))
                    << "dst[" << i << "][" << j << "] vs the stored output";
            }
        }
    }
    check_outputs(dst, ref, abs_sum, n, k, 0, m, 0, n, min, max);
}

TEST(Bf16F16Compat, ReplaysKleidiAIVectors) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_BF16 | KAI_FEATURE_FP16);
    size_t files = 0;
    for (const char* prefix : {"kai_matmul_clamp_f16_bf16p", "kai_lhs_pack_bf16p8x4_f16_neon__",
                               "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon__", "kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon__"}) {
        for (const std::string& path : kai_test::list_compat_vectors(prefix)) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector f = kai_test::load_compat_vector(path);
            if (f.str("kind") == "kernel") {
                replay_kernel(f);
            } else {
                replay_packer(f);
            }
            ++files;
        }
    }
    EXPECT_EQ(files, 24u) << "expected the 24 bf16f16 files in test/data/compat";
}

// ------------------------------------------------------------------------------------------
// Preconditions (debug builds only: KAI_ASSUME is compiled out with NDEBUG).
// One death test per (function, message) of the family's KAI_ASSUME_MSG checks: the call violates
// exactly that precondition and the child must print "<file>:<line> <message>" from the
// function's own source file.
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG

struct Violation {
    const char* function;
    std::string message;
    std::function<void()> call;
};

void expect_each_aborts(const char* stem, const std::vector<Violation>& table) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string file = std::string(stem) + ".c";
    for (const Violation& v : table) {
        EXPECT_DEATH(v.call(), kai_test::kai_error_regex(file, v.message)) << v.function << ": \"" << v.message << "\"";
    }
}

TEST(Bf16F16PreconditionsDeathTest, Kernel) {
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    alignas(16) uint8_t lhs[256] = {};
    alignas(16) uint8_t rhs[256] = {};
    alignas(16) uint8_t dst[256] = {};
    const size_t k = 4;
    const auto run = [&](size_t m, const void* l, const void* r, void* d, size_t stride_row, size_t stride_col) {
        KAI_ABI(uk.run_matmul)(m, 1, k, l, r, d, stride_row, stride_col, -FLT_MAX, FLT_MAX);
    };
    EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(8, k), 64u);
    EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(12, k), 120u);
    EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(8, 12, 64), 8u * 64 + 24);
    run(1, lhs, rhs, dst, 2, 2);
    const std::vector<Violation> table = {
        {"get_lhs_packed_offset", "m_idx must be a multiple of mr (8)", [&] { (void)uk.get_lhs_packed_offset(4, k); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr (12)", [&] { (void)uk.get_rhs_packed_offset(6, k); }},
        {"get_dst_offset", "m_idx must be a multiple of m_step (8)", [&] { (void)uk.get_dst_offset(4, 0, 64); }},
        {"get_dst_offset", "n_idx must be a multiple of n_step (12)", [&] { (void)uk.get_dst_offset(0, 6, 64); }},
        {"run_matmul", "dst_stride_col must be sizeof(uint16_t)", [&] { run(1, lhs, rhs, dst, 2, 4); }},
        {"run_matmul", "dst_stride_row must be a multiple of sizeof(uint16_t)", [&] { run(1, lhs, rhs, dst, 3, 2); }},
        {"run_matmul", "lhs_packed must not be NULL", [&] { run(1, nullptr, rhs, dst, 2, 2); }},
        {"run_matmul", "rhs_packed must not be NULL", [&] { run(1, lhs, nullptr, dst, 2, 2); }},
        {"run_matmul", "dst must not be NULL", [&] { run(1, lhs, rhs, nullptr, 2, 2); }},
        {"run_matmul", "dst_stride_row must be at least n * sizeof(uint16_t) when m > 1",
         [&] { run(2, lhs, rhs, dst, 0, 2); }},
    };
    expect_each_aborts(v.name, table);
}

TEST(Bf16F16PreconditionsDeathTest, LhsPacker) {
    const Bf16F16LhsPacker& p = lhs_packer();
    KAI_TEST_SKIP_UNLESS(p.features);
    alignas(16) uint16_t lhs[64] = {};
    alignas(16) uint8_t packed[256] = {};
    const size_t k = 4, stride = k * 2;
    const auto run = [&](size_t m, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* src, void* out) {
        KAI_ABI(p.run)(m, k, mr, kr, sr, m_idx_start, src, stride, out);
    };
    EXPECT_EQ(KAI_ABI(p.get_lhs_packed_size)(1, k, kMr, kKr, kSr), kMr * k * 2);
    run(1, kMr, kKr, kSr, 0, lhs, packed);
    const std::vector<Violation> table = {
        {"get_m_step", "mr must be 8", [&] { (void)p.get_m_step(4); }},
        {"get_lhs_offset", "m_idx must be a multiple of 8", [&] { (void)p.get_lhs_offset(4, stride); }},
        {"get_lhs_packed_offset", "mr must be 8", [&] { (void)p.get_lhs_packed_offset(0, k, 4, kKr, kSr); }},
        {"get_lhs_packed_offset", "kr must be 4", [&] { (void)p.get_lhs_packed_offset(0, k, kMr, 2, kSr); }},
        {"get_lhs_packed_offset", "sr must be 1", [&] { (void)p.get_lhs_packed_offset(0, k, kMr, kKr, 2); }},
        {"get_lhs_packed_offset", "m_idx must be a multiple of mr", [&] { (void)p.get_lhs_packed_offset(4, k, kMr, kKr, kSr); }},
        {"get_lhs_packed_size", "mr must be 8", [&] { (void)p.get_lhs_packed_size(1, k, 4, kKr, kSr); }},
        {"get_lhs_packed_size", "kr must be 4", [&] { (void)p.get_lhs_packed_size(1, k, kMr, 2, kSr); }},
        {"get_lhs_packed_size", "sr must be 1", [&] { (void)p.get_lhs_packed_size(1, k, kMr, kKr, 2); }},
        {"run", "mr must be 8", [&] { run(1, 4, kKr, kSr, 0, lhs, packed); }},
        {"run", "kr must be 4", [&] { run(1, kMr, 2, kSr, 0, lhs, packed); }},
        {"run", "sr must be 1", [&] { run(1, kMr, kKr, 2, 0, lhs, packed); }},
        {"run", "m_idx_start must be 0", [&] { run(1, kMr, kKr, kSr, 8, lhs, packed); }},
        {"run", "lhs must not be NULL", [&] { run(1, kMr, kKr, kSr, 0, nullptr, packed); }},
        {"run", "lhs_packed must not be NULL", [&] { run(1, kMr, kKr, kSr, 0, lhs, nullptr); }},
        {"run", "lhs_stride must be at least k * 2 when m > 1",
         [&] { KAI_ABI(p.run)(2, 8, kMr, kKr, kSr, 0, lhs, 8, packed); }},
    };
    expect_each_aborts(p.name, table);
}

// kai_get_rhs_offset_* is not in the registry (kxn takes n_idx, nxk also the row stride).
size_t rhs_offset(const Bf16F16RhsPacker& p, size_t n_idx, size_t stride) {
    const std::string name = p.name;
    if (name == "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon") {
        return KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon)(n_idx);
    }
    if (name == "kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon") {
        return KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf32_f16_neon)(n_idx);
    }
    if (name == "kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon") {
        return KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_bf16p12x4biasf16_f16_neon)(n_idx, stride);
    }
    return KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_bf16p12x4biasf32_f16_neon)(n_idx, stride);
}

class Bf16F16RhsPackerPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Bf16F16RhsPackerPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const Bf16F16RhsPacker& p = kai_registry::bf16f16_rhs_packers()[GetParam()];
    KAI_TEST_SKIP_UNLESS(p.features);
    // n = 1, k = 4, row stride 16 bytes (kxn: 4 rows of one value; nxk: one row of 4 values).
    alignas(16) uint16_t rhs[64] = {};
    alignas(16) uint8_t packed[256] = {};
    const size_t n = 1, k = 4, stride = 16;
    const float scale = 1.0f;
    const int params = 0;
    const auto run = [&](size_t num_groups, size_t nr, size_t kr, size_t sr, const void* src, const void* s, void* out,
                         size_t extra_bytes, const void* prm) {
        KAI_ABI(p.run)(num_groups, n, k, nr, kr, sr, stride, src, nullptr, s, out, extra_bytes, prm);
    };
    const size_t block = kNr * ((p.bias_f16 ? 2 : 4) + k * 2);
    EXPECT_EQ(rhs_offset(p, kNr, stride), p.nxk ? kNr * stride : kNr * 2);
    EXPECT_EQ(KAI_ABI(p.get_rhs_packed_offset)(kNr, k), block);
    EXPECT_EQ(KAI_ABI(p.get_rhs_packed_size)(n, k), block);
    run(1, kNr, kKr, kSr, rhs, nullptr, packed, 0, nullptr);
    const std::vector<Violation> table = {
        {"get_rhs_offset", "n_idx must be a multiple of 12", [&] { (void)rhs_offset(p, 6, stride); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of 12", [&] { (void)p.get_rhs_packed_offset(6, k); }},
        {"run", "num_groups must be 1", [&] { run(2, kNr, kKr, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "nr must be 12", [&] { run(1, 8, kKr, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "kr must be 4", [&] { run(1, kNr, 2, kSr, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "sr must be 1", [&] { run(1, kNr, kKr, 2, rhs, nullptr, packed, 0, nullptr); }},
        {"run", "scale must be NULL", [&] { run(1, kNr, kKr, kSr, rhs, &scale, packed, 0, nullptr); }},
        {"run", "extra_bytes must be 0", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, packed, 4, nullptr); }},
        {"run", "params must be NULL", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, packed, 0, &params); }},
        {"run", "rhs must not be NULL", [&] { run(1, kNr, kKr, kSr, nullptr, nullptr, packed, 0, nullptr); }},
        {"run", "rhs_packed must not be NULL", [&] { run(1, kNr, kKr, kSr, rhs, nullptr, nullptr, 0, nullptr); }},
        {"run", p.nxk ? "rhs_stride must be at least k * 2 when n > 1" : "rhs_stride must be at least n * 2 when k > 1",
         [&] { KAI_ABI(p.run)(1, 2, 2, kNr, kKr, kSr, 2, rhs, nullptr, nullptr, packed, 0, nullptr); }},
    };
    expect_each_aborts(p.name, table);
}

INSTANTIATE_TEST_SUITE_P(Packers, Bf16F16RhsPackerPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::bf16f16_rhs_packers().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::bf16f16_rhs_packers()[info.param].name);
                         });
#endif

// Sizes and offsets that do not fit in size_t abort in every build (kai_common.h's checked
// arithmetic) instead of wrapping to a small value.
TEST(Bf16F16SizeDeathTest, SizesThatOverflowAbort) {
    GTEST_FLAG_SET(death_test_style, "fast");
    const std::string overflow = kai_test::size_overflow_regex();
    const Bf16F16LhsPacker& lp = lhs_packer();
    EXPECT_DEATH((void)lp.get_lhs_packed_size(1, SIZE_MAX, kMr, kKr, kSr), overflow);
    EXPECT_DEATH((void)lp.get_lhs_packed_size(SIZE_MAX, 4, kMr, kKr, kSr), overflow);
    for (const Bf16F16RhsPacker& p : kai_registry::bf16f16_rhs_packers()) {
        SCOPED_TRACE(p.name);
        EXPECT_DEATH((void)p.get_rhs_packed_size(1, SIZE_MAX), overflow);
        for (size_t n : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 11}) EXPECT_DEATH((void)p.get_rhs_packed_size(n, 4), overflow);
        EXPECT_DEATH((void)p.get_rhs_packed_offset(kNr, SIZE_MAX / 4), overflow);
    }
    const Bf16F16Variant& v = kai_registry::bf16f16_variants().at(0);
    EXPECT_DEATH((void)v.ukernel.get_rhs_packed_offset(kNr, SIZE_MAX), overflow);
    EXPECT_DEATH((void)v.ukernel.get_lhs_packed_offset(8, SIZE_MAX), overflow);
}

}  // namespace
