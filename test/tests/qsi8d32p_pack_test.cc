// SPDX-License-Identifier: Apache-2.0
// Tests of the Q4_0 packers for KleidiAI's SME kernels (docs/formats.md, "Q4_0 layouts of the SME kernels"):
// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon, kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon
// and kai_lhs_quant_pack_qsi8d32p_f32_neon: byte-exact against test/reference over shapes, block
// lengths (32 to 256), nr / mr (4 to 64, and odd ones), inputs and outputs at guard pages, row and
// column chunks, rounding ties and special blocks, the KleidiAI v1.30.0 compat vectors and every
// precondition.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/int4_pack_ref.h"
#include "test/reference/qsi8d32p_ref.h"
#include "test/reference/reference_common.h"

namespace {

using kai_test::GuardedBuffer;

// ------------------------------------------------------------------------------------------
// RHS packers.
// ------------------------------------------------------------------------------------------

struct RhsPacker {
    const char* name;
    size_t (*stride)(size_t, size_t, size_t, size_t);
    size_t (*rhs_offset)(size_t, size_t);
    size_t (*offset)(size_t, size_t, size_t, size_t, size_t);
    size_t (*size)(size_t, size_t, size_t, size_t, size_t);
    void (*run)(size_t, size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const float*, void*, size_t,
                const kai_rhs_pack_qs4cxs1s0_param*);
    std::vector<uint8_t> (*ref)(size_t, size_t, size_t, size_t, const uint8_t*);
};

#define KAI_RHS_PACKER(stem, ref)                                                                                  \
    RhsPacker {                                                                                                    \
        "kai_" #stem, kai_get_rhs_packed_stride_##stem, kai_get_rhs_offset_##stem, kai_get_rhs_packed_offset_##stem, \
            kai_get_rhs_packed_size_##stem, kai_run_##stem, ref                                                    \
    }

const std::vector<RhsPacker>& rhs_packers() {
    static const std::vector<RhsPacker> p = {
        KAI_RHS_PACKER(rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon, kai_ref::pack_qsi4c32ps1s0scalef16),
        KAI_RHS_PACKER(rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon, kai_ref::pack_qsi4c32ps4s0sf16),
    };
    return p;
}

// Q4_0 rows with random nibbles and f16 scales: random sign and magnitude over 2^-16 .. 2^4 (so
// the ps4s0sf16 scales / 16 include f16 subnormals), plus zero, +-0 and the largest finite f16.
std::vector<uint8_t> make_q4_0(size_t n, size_t k, size_t bl, uint64_t seed) {
    const size_t row = kai_ref::q4_0_row_bytes(k, bl);
    auto rows = kai_test::random_bytes(n * row, seed);
    kai_test::Rng rng(seed + 1);
    for (size_t j = 0; j < n; ++j)
        for (size_t b = 0; b < k / bl; ++b) {
            float v = std::ldexp(rng.uniform(1.0f, 2.0f), static_cast<int>(rng.integer(-16, 4)));
            if (rng.integer(0, 1)) v = -v;
            uint16_t h = kai_ref::f16_from_f32(v);
            const size_t pick = (j * 7 + b) % 23;
            if (pick == 0) h = 0x0000;
            if (pick == 1) h = 0x8000;
            if (pick == 2) h = 0x7BFF;
            if (pick == 3) h = 0x0001;  // smallest subnormal
            std::memcpy(rows.data() + j * row + b * (bl / 2 + 2), &h, 2);
        }
    return rows;
}

void run_rhs(const RhsPacker& p, const std::vector<uint8_t>& rows, size_t k, size_t bl, size_t n0, size_t count,
             size_t nr, void* out) {
    const size_t row = kai_ref::q4_0_row_bytes(k, bl);
    GuardedBuffer in(count * row);  // ends at a guard page
    std::memcpy(in.data(), rows.data() + p.rhs_offset(n0, row), count * row);
    const kai_rhs_pack_qs4cxs1s0_param prm{1, 8};
    p.run(1, count, k, nr, 4, 2, bl, in.data(), nullptr, out, 0, &prm);
}

using RhsParam = std::tuple<size_t /*packer*/, size_t /*n*/, size_t /*blocks*/, size_t /*bl*/, size_t /*nr*/>;

class RhsPackTest : public ::testing::TestWithParam<RhsParam> {};

TEST_P(RhsPackTest, ByteExactAgainstReference) {
    const auto [pi, n, blocks, bl, nr] = GetParam();
    const RhsPacker& p = rhs_packers()[pi];
    const size_t k = blocks * bl;
    const uint64_t seed = kai_test::seed_from(std::string(p.name) + std::to_string(n) + "x" + std::to_string(k) + "_" +
                                              std::to_string(bl) + "_" + std::to_string(nr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto rows = make_q4_0(n, k, bl, seed);
    const size_t size = p.size(n, k, nr, 4, bl);
    GuardedBuffer got(size, 0xA5);
    run_rhs(p, rows, k, bl, 0, n, nr, got.data());
    EXPECT_TRUE(got.front_intact());
    const auto want = p.ref(n, k, bl, nr, rows.data());
    ASSERT_EQ(size, want.size());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(RhsPackTest, ColumnChunksMatchWholeMatrix) {
    const auto [pi, n_param, blocks, bl, nr] = GetParam();
    const RhsPacker& p = rhs_packers()[pi];
    const size_t n = n_param + nr, k = blocks * bl;
    const auto rows = make_q4_0(n, k, bl, kai_test::seed_from(std::string(p.name) + "chunk" + std::to_string(n)));
    const size_t size = p.size(n, k, nr, 4, bl);
    std::vector<uint8_t> whole(size, 1), split(size, 2);
    run_rhs(p, rows, k, bl, 0, n, nr, whole.data());
    const size_t n0 = nr * (n / nr / 2);
    if (n0 > 0) run_rhs(p, rows, k, bl, 0, n0, nr, split.data());
    run_rhs(p, rows, k, bl, n0, n - n0, nr, split.data() + p.offset(n0, k, nr, 4, bl));
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::vector<RhsParam> rhs_params() {
    std::vector<RhsParam> out;
    struct S { size_t n, blocks, bl, nr; };
    std::vector<S> shapes = {{1, 1, 32, 4},   {5, 2, 32, 4},   {13, 3, 32, 8},  {17, 2, 64, 16}, {16, 1, 128, 16},
                             {9, 2, 128, 8},  {3, 1, 256, 4},  {33, 4, 64, 32}, {67, 2, 64, 64}, {7, 3, 96, 12},
                             {5, 2, 32, 3},   {6, 1, 160, 5},  {53, 8, 32, 16}, {19, 1, 224, 1}};
    if (!kai_test::reduced_sweep()) {
        shapes.push_back({37, 32, 32, 16});   // K = 1024
        shapes.push_back({9, 43, 256, 16});   // K = 11008
        shapes.push_back({129, 16, 256, 64}); // K = 4096
    }
    for (size_t pi = 0; pi < rhs_packers().size(); ++pi)
        for (const S& s : shapes) out.push_back(RhsParam{pi, s.n, s.blocks, s.bl, s.nr});
    return out;
}

std::string rhs_param_name(const ::testing::TestParamInfo<RhsParam>& info) {
    const auto [pi, n, blocks, bl, nr] = info.param;
    const std::string s = pi == 0 ? "ps1s0scalef16" : "ps4s0sf16";
    return s + "_n" + std::to_string(n) + "_k" + std::to_string(blocks * bl) + "_bl" + std::to_string(bl) + "_nr" +
           std::to_string(nr);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RhsPackTest, ::testing::ValuesIn(rhs_params()), rhs_param_name);

TEST(RhsPackEdge, GettersMatchTheLayout) {
    for (const RhsPacker& p : rhs_packers()) {
        SCOPED_TRACE(p.name);
        EXPECT_EQ(p.stride(64, 4, 4, 32), 144u);  // docs/formats.md, "qsi8d32p matmul": 4 * 2 * 18
        EXPECT_EQ(p.size(5, 64, 4, 4, 32), 288u);
        EXPECT_EQ(p.offset(16, 128, 16, 4, 64), 16 * 2 * 34u);
        EXPECT_EQ(p.rhs_offset(3, 36), 108u);
    }
}

TEST(RhsPackEdge, Ps4s0sf16ScalesAreRoundedToEven) {
    // d / 16 below the f16 normal range: 0x0003 / 16 rounds to 0 (3/16 ulp), 0x0018 / 16 = 1.5 ulp
    // ties to 2, 0x0028 / 16 = 2.5 ulp ties to 2, -0x3C00 (-1) / 16 is exact.
    const size_t k = 32, bl = 32, nr = 4;
    std::vector<uint8_t> rows(4 * 18, 0x88);
    const uint16_t d[4] = {0x0003, 0x0018, 0x0028, 0xBC00};
    for (size_t j = 0; j < 4; ++j) std::memcpy(rows.data() + 18 * j, &d[j], 2);
    std::vector<uint8_t> out(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(4, k, nr, 4, bl));
    const kai_rhs_pack_qs4cxs1s0_param prm{1, 8};
    kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(1, 4, k, nr, 4, 2, bl, rows.data(), nullptr, out.data(), 0,
                                                            &prm);
    const uint16_t want[4] = {0x0000, 0x0002, 0x0002, 0xAC00};
    for (size_t j = 0; j < 4; ++j) {
        uint16_t got;
        std::memcpy(&got, out.data() + nr * bl / 2 + 2 * j, 2);
        EXPECT_EQ(got, want[j]) << "lane " << j;
    }
}

// ------------------------------------------------------------------------------------------
// LHS packer.
// ------------------------------------------------------------------------------------------

// Rows with random values times a per-row power of two, and special rows: all zero, constant,
// half-integer ties with amax 127 (scale 1, every x * rep a tie: ties away from zero).
std::vector<float> make_lhs(size_t m, size_t k, size_t stride_floats, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<float> lhs(m * stride_floats + 16, std::nanf(""));
    for (size_t i = 0; i < m; ++i) {
        float* x = lhs.data() + i * stride_floats;
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-6, 6)));
        for (size_t kk = 0; kk < k; ++kk) x[kk] = rng.uniform(-2.0f, 2.0f) * mul;
        if (i % 5 == 1) std::fill(x, x + k, 0.0f);
        if (i % 5 == 2) std::fill(x, x + k, -0.375f);
        if (i % 5 == 3) {
            for (size_t kk = 0; kk < k; ++kk) x[kk] = kk % 32 == 0 ? 127.0f : static_cast<float>(rng.integer(-126, 126)) + 0.5f;
        }
    }
    return lhs;
}

using LhsParam = std::tuple<size_t /*m*/, size_t /*blocks*/, size_t /*bl*/, size_t /*mr*/, size_t /*extra stride*/>;

class LhsPackTest : public ::testing::TestWithParam<LhsParam> {};

TEST_P(LhsPackTest, ByteExactAgainstReference) {
    const auto [m, blocks, bl, mr, extra] = GetParam();
    const size_t k = blocks * bl, stride = k + extra;
    const uint64_t seed = kai_test::seed_from("lhsneon" + std::to_string(m) + "x" + std::to_string(k) + "_" +
                                              std::to_string(mr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto lhs = make_lhs(m, k, stride, seed);
    // The input ends right after row m - 1's k values, at a guard page.
    GuardedBuffer in(((m - 1) * stride + k) * 4);
    std::memcpy(in.data(), lhs.data(), in.size());
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1);
    GuardedBuffer got(size, 0xC3);
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1, 0, reinterpret_cast<const float*>(in.data()),
                                             stride * 4, got.data());
    EXPECT_TRUE(got.front_intact());
    const auto q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), stride * 4, kai_ref::Q8Rounding::kTiesAway);
    std::vector<uint8_t> mask;
    const auto want = kai_ref::pack_qsi8d32p_scales_last(q, mr, 0xC3, &mask);
    ASSERT_EQ(size, want.size());
    // Unwritten lanes keep the fill: compare every byte.
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(LhsPackTest, RowChunksMatchWholeMatrix) {
    const auto [m_param, blocks, bl, mr, extra] = GetParam();
    const size_t m = m_param + mr, k = blocks * bl, stride = k + extra;
    const auto lhs = make_lhs(m, k, stride, kai_test::seed_from("lhschunk" + std::to_string(m)));
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1);
    std::vector<uint8_t> whole(size, 0), split(size, 0);
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1, 0, lhs.data(), stride * 4, whole.data());
    const size_t m0 = mr * (m / mr / 2);
    if (m0 > 0) kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m0, k, bl, mr, 4, 1, 0, lhs.data(), stride * 4, split.data());
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(
        m - m0, k, bl, mr, 4, 1, 0,
        lhs.data() + kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon(m0, stride * 4) / 4, stride * 4,
        split.data() + kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(m0, k, bl, mr, 4, 1));
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::vector<LhsParam> lhs_params() {
    std::vector<LhsParam> out = {
        {1, 1, 32, 1, 0},  {3, 2, 32, 4, 0},  {4, 1, 64, 4, 3},  {5, 2, 32, 4, 0},  {6, 2, 64, 8, 1},
        {16, 3, 32, 16, 0}, {17, 1, 96, 16, 5}, {9, 2, 128, 3, 0}, {33, 4, 32, 32, 2}, {7, 1, 256, 64, 0},
        {13, 8, 32, 4, 4},  {2, 3, 160, 2, 0},  {37, 4, 64, 8, 0},
    };
    if (!kai_test::reduced_sweep()) {
        out.push_back({128, 32, 32, 4, 0});  // K = 1024
        out.push_back({11, 43, 256, 16, 0}); // K = 11008
    }
    return out;
}

std::string lhs_param_name(const ::testing::TestParamInfo<LhsParam>& info) {
    const auto [m, blocks, bl, mr, extra] = info.param;
    return "m" + std::to_string(m) + "_k" + std::to_string(blocks * bl) + "_bl" + std::to_string(bl) + "_mr" +
           std::to_string(mr) + (extra ? "_wide" : "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, LhsPackTest, ::testing::ValuesIn(lhs_params()), lhs_param_name);

TEST(LhsPackEdge, TiesRoundAwayFromZero) {
    // amax = 127: scale 1; 2.5 -> 3, -2.5 -> -3, 0.5 -> 1 (docs/formats.md, "qsi8d32p LHS").
    std::vector<float> x(32, 0.0f);
    x[0] = 127.0f;
    x[1] = 2.5f;
    x[2] = -2.5f;
    x[3] = 0.5f;
    std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(1, 32, 32, 1, 4, 1));
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(1, 32, 32, 1, 4, 1, 0, x.data(), 128, out.data());
    EXPECT_EQ(static_cast<int8_t>(out[0]), 127);
    EXPECT_EQ(static_cast<int8_t>(out[1]), 3);
    EXPECT_EQ(static_cast<int8_t>(out[2]), -3);
    EXPECT_EQ(static_cast<int8_t>(out[3]), 1);
    EXPECT_EQ(out[32] | (out[33] << 8), 0x3C00);  // scale 1.0 after the data
}

TEST(LhsPackEdge, MIdxStartIsIgnored) {
    // As KleidiAI's packer of this name: rows come from lhs and go to lanes 0.. whatever m_idx_start is.
    const size_t m = 3, k = 64, bl = 32, mr = 4;
    const auto lhs = make_lhs(m, k, k, 5);
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1);
    std::vector<uint8_t> a(size, 0), b(size, 0);
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1, 0, lhs.data(), k * 4, a.data());
    kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, 4, 1, 2, lhs.data(), k * 4, b.data());
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size));
}

TEST(LhsPackEdge, GettersMatchTheLayout) {
    EXPECT_EQ(kai_get_m_step_lhs_quant_pack_qsi8d32p_f32_neon(8), 8u);
    EXPECT_EQ(kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon(3, 256), 768u);
    EXPECT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(3, 64, 32, 4, 4, 1), 272u);
    EXPECT_EQ(kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(8, 128, 64, 8, 4, 1), 8 * 2 * 66u);
}

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors.
// ------------------------------------------------------------------------------------------

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, MatchesKleidiAI) {
    const auto vec = kai_test::load_compat_vector(GetParam());
    ASSERT_FALSE(vec.header.empty());
    const std::string& name = vec.str("name");
    const size_t k = vec.size("k"), bl = vec.size("bl"), kr = vec.size("kr"), sr = vec.size("sr");
    if (vec.str("kind") == "lhs_packer") {
        const size_t m = vec.size("m"), mr = vec.size("mr");
        const auto& want = vec.section("lhs_packed");
        ASSERT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, kr, sr), want.bytes.size());
        const auto& lhs_s = vec.section("lhs");
        GuardedBuffer in(lhs_s.bytes.size()), got(want.bytes.size());
        std::memcpy(in.data(), lhs_s.bytes.data(), lhs_s.bytes.size());
        kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, mr, kr, sr, vec.size("m_idx_start"),
                                                 reinterpret_cast<const float*>(in.data()), vec.size("lhs_stride"),
                                                 got.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        return;
    }
    const RhsPacker* p = nullptr;
    for (const auto& c : rhs_packers())
        if (name == c.name) p = &c;
    ASSERT_NE(p, nullptr) << name;
    const size_t n = vec.size("n"), nr = vec.size("nr");
    const auto& want = vec.section("rhs_packed");
    ASSERT_EQ(p->size(n, k, nr, kr, bl), want.bytes.size());
    const auto& rhs_s = vec.section("rhs");
    GuardedBuffer in(rhs_s.bytes.size()), got(want.bytes.size());
    std::memcpy(in.data(), rhs_s.bytes.data(), rhs_s.bytes.size());
    const kai_rhs_pack_qs4cxs1s0_param prm{1, 8};
    p->run(1, n, k, nr, kr, sr, bl, in.data(), nullptr, got.data(), 0, &prm);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
}

std::vector<std::string> compat_files() {
    std::vector<std::string> out;
    for (const char* prefix : {"kai_lhs_quant_pack_qsi8d32p_f32_neon__",
                               "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon__",
                               "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon__"})
        for (const auto& f : kai_test::list_compat_vectors(prefix)) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param.substr(info.param.find_last_of('/') + 1 + std::strlen("kai_"));
                             s = s.substr(0, s.size() - 4);
                             for (auto& ch : s)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return s;
                         });

TEST(CompatFiles, AllTwentyArePresent) {
    EXPECT_EQ(compat_files().size(), 20u);  // 6 LHS, 8 ps1s0scalef16, 6 ps4s0sf16
}

// ------------------------------------------------------------------------------------------
// Preconditions.
// ------------------------------------------------------------------------------------------

TEST(PackPreconditions, SizesThatOverflowAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    for (const RhsPacker& p : rhs_packers()) {
        SCOPED_TRACE(p.name);
        EXPECT_DEATH((void)p.size(SIZE_MAX, 64, 4, 4, 32), overflow);
        EXPECT_DEATH((void)p.stride(SIZE_MAX - 31, 4, 4, 32), overflow);
    }
    EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(SIZE_MAX, 64, 32, 4, 4, 1), overflow);
    EXPECT_DEATH((void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(1, SIZE_MAX - 31, 32, 4, 4, 1), overflow);
}

#ifndef NDEBUG
using kai_test::PreconditionCase;

TEST(PackPreconditions, RhsEveryCheckAbortsNamingItsParameter) {
    const size_t n = 5, k = 64, bl = 32;
    const auto rows = make_q4_0(n, k, bl, 7);
    std::vector<uint8_t> out(4096);
    const float bias[8] = {};
    for (const RhsPacker& p : rhs_packers()) {
        SCOPED_TRACE(p.name);
        const std::string stem = std::string(p.name).substr(4), file = std::string(p.name) + ".c";
        struct Args {
            size_t num_groups = 1, k = 64, nr = 4, kr = 4, sr = 2, bl = 32;
            const uint8_t* rhs;
            const float* bias = nullptr;
            void* out;
            size_t extra_bytes = 0;
            int8_t lzp = 1;
            uint8_t rzp = 8;
            bool null_params = false;
        };
        Args base;
        base.rhs = rows.data();
        base.out = out.data();
        auto with = [&](bool bad, auto edit) {
            Args a = base;
            if (bad) edit(a);
            const kai_rhs_pack_qs4cxs1s0_param prm{a.lzp, a.rzp};
            p.run(a.num_groups, n, a.k, a.nr, a.kr, a.sr, a.bl, a.rhs, a.bias, a.out, a.extra_bytes,
                  a.null_params ? nullptr : &prm);
        };
        const std::string run = "kai_run_" + stem, stride = "kai_get_rhs_packed_stride_" + stem,
                          offset = "kai_get_rhs_packed_offset_" + stem, size = "kai_get_rhs_packed_size_" + stem;
        std::vector<PreconditionCase> cases = {
            {stride, file, "bl must be a non-zero multiple of 32", [&](bool bad) { (void)p.stride(k, 4, 4, bad ? 16 : bl); }},
            {stride, file, "k must be a multiple of bl", [&](bool bad) { (void)p.stride(bad ? 48 : k, 4, 4, bl); }},
            {stride, file, "nr must be non-zero", [&](bool bad) { (void)p.stride(k, bad ? 0 : 4, 4, bl); }},
            {offset, file, "bl must be a non-zero multiple of 32", [&](bool bad) { (void)p.offset(0, k, 4, 4, bad ? 0 : bl); }},
            {offset, file, "k must be a multiple of bl", [&](bool bad) { (void)p.offset(0, bad ? 96 : k, 4, 4, 64); }},
            {offset, file, "nr must be non-zero", [&](bool bad) { (void)p.offset(0, k, bad ? 0 : 4, 4, bl); }},
            {offset, file, "n_idx must be a multiple of nr", [&](bool bad) { (void)p.offset(bad ? 2 : 4, k, 4, 4, bl); }},
            {offset, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
             [&](bool bad) { (void)p.offset(bad ? SIZE_MAX / 4 * 4 : 4, k, 4, 4, bl); }},
            {size, file, "bl must be a non-zero multiple of 32", [&](bool bad) { (void)p.size(n, k, 4, 4, bad ? 40 : bl); }},
            {size, file, "k must be a multiple of bl", [&](bool bad) { (void)p.size(n, bad ? 80 : k, 4, 4, bl); }},
            {size, file, "nr must be non-zero", [&](bool bad) { (void)p.size(n, k, bad ? 0 : 4, 4, bl); }},
            {"kai_get_rhs_offset_" + stem, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
             [&](bool bad) { (void)p.rhs_offset(bad ? SIZE_MAX / 2 : 3, 36); }},
            {run, file, "bl must be a non-zero multiple of 32", [&](bool bad) { with(bad, [](Args& a) { a.bl = 48; a.k = 96; }); }},
            {run, file, "k must be a multiple of bl", [&](bool bad) { with(bad, [](Args& a) { a.k = 80; }); }},
            {run, file, "nr must be non-zero", [&](bool bad) { with(bad, [](Args& a) { a.nr = 0; }); }},
            {run, file, "bl must be at most 256", [&](bool bad) { with(bad, [](Args& a) { a.bl = 288; a.k = 288; }); }},
            {run, file, "num_groups must be 1", [&](bool bad) { with(bad, [](Args& a) { a.num_groups = 0; }); }},
            {run, file, "kr must be 4", [&](bool bad) { with(bad, [](Args& a) { a.kr = 8; }); }},
            {run, file, "sr must be 2", [&](bool bad) { with(bad, [](Args& a) { a.sr = 1; }); }},
            {run, file, "bias must be NULL: the Q4_0 family takes no bias",
             [&](bool bad) { with(bad, [&](Args& a) { a.bias = bias; }); }},
            {run, file, "extra_bytes must be 0", [&](bool bad) { with(bad, [](Args& a) { a.extra_bytes = 2; }); }},
            {run, file, "params must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.null_params = true; }); }},
            {run, file, "params->lhs_zero_point must be 1", [&](bool bad) { with(bad, [](Args& a) { a.lzp = 2; }); }},
            {run, file, "params->rhs_zero_point must be 8", [&](bool bad) { with(bad, [](Args& a) { a.rzp = 0; }); }},
            {run, file, "rhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.rhs = nullptr; }); }},
            {run, file, "rhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
        };
        kai_test::expect_preconditions(cases);
    }
}

TEST(PackPreconditions, LhsEveryCheckAbortsNamingItsParameter) {
    const std::string stem = "lhs_quant_pack_qsi8d32p_f32_neon", file = "kai_" + stem + ".c";
    const size_t m = 3, k = 64, bl = 32;
    const auto lhs = make_lhs(m, k, k, 9);
    std::vector<uint8_t> out(4096);
    struct Args {
        size_t m = 3, k = 64, bl = 32, mr = 4, kr = 4, sr = 1, stride = 256;
        const float* lhs;
        void* out;
    };
    Args base;
    base.lhs = lhs.data();
    base.out = out.data();
    auto with = [&](bool bad, auto edit) {
        Args a = base;
        if (bad) edit(a);
        kai_run_lhs_quant_pack_qsi8d32p_f32_neon(a.m, a.k, a.bl, a.mr, a.kr, a.sr, 0, a.lhs, a.stride, a.out);
    };
    const std::string run = "kai_run_" + stem, offset = "kai_get_lhs_packed_offset_" + stem,
                      size = "kai_get_lhs_packed_size_" + stem;
    auto off = [](size_t m_idx, size_t kk, size_t b, size_t mr, size_t kr) {
        (void)kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(m_idx, kk, b, mr, kr, 1);
    };
    auto sz = [](size_t mm, size_t kk, size_t b, size_t mr, size_t kr) {
        (void)kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(mm, kk, b, mr, kr, 1);
    };
    const std::vector<PreconditionCase> cases = {
        {offset, file, "bl must be a non-zero multiple of 32", [&](bool bad) { off(4, k, bad ? 0 : bl, 4, 4); }},
        {offset, file, "k must be a multiple of bl", [&](bool bad) { off(4, bad ? 80 : k, bl, 4, 4); }},
        {offset, file, "mr must be non-zero", [&](bool bad) { off(0, k, bl, bad ? 0 : 4, 4); }},
        {offset, file, "k must be a multiple of kr", [&](bool bad) { off(4, k, bl, 4, bad ? 0 : 4); }},
        {offset, file, "m_idx must be a multiple of mr", [&](bool bad) { off(bad ? 2 : 4, k, bl, 4, 4); }},
        {offset, kai_test::kKaiCommonFile, kai_test::kSizeOverflow, [&](bool bad) { off(bad ? SIZE_MAX / 4 * 4 : 4, k, bl, 4, 4); }},
        {size, file, "bl must be a non-zero multiple of 32", [&](bool bad) { sz(m, k, bad ? 16 : bl, 4, 4); }},
        {size, file, "k must be a multiple of bl", [&](bool bad) { sz(m, bad ? 48 : k, bl, 4, 4); }},
        {size, file, "mr must be non-zero", [&](bool bad) { sz(m, k, bl, bad ? 0 : 4, 4); }},
        {size, file, "k must be a multiple of kr", [&](bool bad) { sz(m, k, bl, 4, bad ? 48 : 4); }},
        {run, file, "bl must be a non-zero multiple of 32", [&](bool bad) { with(bad, [](Args& a) { a.bl = 16; }); }},
        {run, file, "k must be a multiple of bl", [&](bool bad) { with(bad, [](Args& a) { a.k = 48; a.stride = 192; }); }},
        {run, file, "mr must be non-zero", [&](bool bad) { with(bad, [](Args& a) { a.mr = 0; }); }},
        {run, file, "k must be a multiple of kr", [&](bool bad) { with(bad, [](Args& a) { a.kr = 0; }); }},
        {run, file, "kr must be 4", [&](bool bad) { with(bad, [](Args& a) { a.kr = 8; }); }},
        {run, file, "lhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.lhs = nullptr; }); }},
        {run, file, "lhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
        {run, file, "lhs_stride must be at least k * sizeof(float) when m > 1",
         [&](bool bad) { with(bad, [](Args& a) { a.stride = 252; }); }},
    };
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

}  // namespace
