// SPDX-License-Identifier: Apache-2.0
// Tests of kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon (docs/formats.md, "qsi4cxps1s0 RHS": the per-channel int4 layout of
// KleidiAI's SME2 kernels, consecutive K values in one byte, plain sums and scales, zero padded
// lanes): byte-exact against test/reference over shapes (K tails, odd K, K up to 11008), nr, kr and
// sr, both zero points, bias on and off, inputs and output at guard pages, column chunks, the
// KleidiAI v1.30.0 compat vectors and every precondition.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/int4_pack_ref.h"

namespace {

using kai_test::GuardedBuffer;

struct Input {
    size_t n, k;
    std::vector<uint8_t> rhs;  // n rows of ceil(k / 2) bytes
    std::vector<float> scale, bias;
};

Input make_input(size_t n, size_t k, uint64_t seed) {
    return {n, k, kai_test::random_bytes(n * ((k + 1) / 2), seed), kai_test::random_f32(n, -0.1f, 0.1f, seed + 1),
            kai_test::random_f32(n, -1.0f, 1.0f, seed + 2)};
}

// Runs the packer on channels [n0, n0 + count) from guarded copies of the inputs: rhs, scale and
// bias end at guard pages, so a read past channel n - 1 faults.
void run_pack(const Input& in, size_t n0, size_t count, size_t nr, size_t kr, size_t sr, bool has_bias, int zp,
              void* out) {
    const size_t row = (in.k + 1) / 2;
    GuardedBuffer rhs(count * row), scale(count * 4), bias(count * 4);
    std::memcpy(rhs.data(), in.rhs.data() + kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n0, row),
                count * row);
    std::memcpy(scale.data(), in.scale.data() + n0, count * 4);
    std::memcpy(bias.data(), in.bias.data() + n0, count * 4);
    const kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params p{1, static_cast<uint8_t>(zp)};
    kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, count, in.k, nr, kr, sr, rhs.data(),
                                                     has_bias ? reinterpret_cast<const float*>(bias.data()) : nullptr,
                                                     reinterpret_cast<const float*>(scale.data()), out, 0, &p);
}

// (n, k, nr, kr, sr, zero point, bias)
using Param = std::tuple<size_t, size_t, size_t, size_t, size_t, int, bool>;

class PackTest : public ::testing::TestWithParam<Param> {};

TEST_P(PackTest, ByteExactAgainstReference) {
    const auto [n, k, nr, kr, sr, zp, has_bias] = GetParam();
    const uint64_t seed = kai_test::seed_from("cxps1s0" + std::to_string(n) + "x" + std::to_string(k) + "nr" +
                                              std::to_string(nr) + "kr" + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Input in = make_input(n, k, seed);
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, nr, kr, sr);
    GuardedBuffer got(size);
    run_pack(in, 0, n, nr, kr, sr, has_bias, zp, got.data());
    EXPECT_TRUE(got.front_intact());
    const auto want = kai_ref::pack_qsi4cxps1s0(n, k, nr, kr, in.rhs.data(), has_bias ? in.bias.data() : nullptr,
                                                in.scale.data(), zp);
    ASSERT_EQ(size, want.size());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(PackTest, ColumnChunksMatchWholeMatrix) {
    const auto [n_param, k, nr, kr, sr, zp, has_bias] = GetParam();
    const size_t n = n_param + nr;
    const uint64_t seed = kai_test::seed_from("cxps1s0chunks" + std::to_string(n) + "x" + std::to_string(k));
    const Input in = make_input(n, k, seed);
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, nr, kr, sr);
    std::vector<uint8_t> whole(size, 0x5A), split(size, 0xA5);
    run_pack(in, 0, n, nr, kr, sr, has_bias, zp, whole.data());
    const size_t n0 = nr * (n / nr / 2);
    if (n0 > 0) run_pack(in, 0, n0, nr, kr, sr, has_bias, zp, split.data());
    run_pack(in, n0, n - n0, nr, kr, sr, has_bias, zp,
             split.data() + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n0, k, nr, kr, sr));
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::vector<Param> params() {
    std::vector<Param> out;
    // (kr, sr): the SME2 kernels' (4, 1) and (8, 1) at SVL 128 (nr 16 and 32 at longer vectors), and
    // what the interface allows: kr 8 / 16 / 32 with sr 2, kr 2 (scalar path), kr 64 (K multiples of 64).
    struct Pk { size_t nr, kr, sr; };
    const Pk pk[] = {{16, 4, 1}, {32, 8, 1}, {4, 8, 2}, {8, 16, 2}, {16, 32, 2}, {12, 4, 1}, {1, 4, 2}, {3, 2, 1}, {64, 4, 1}};
    struct S { size_t n, k; };
    std::vector<S> shapes = {{1, 1},  {1, 2},  {2, 31}, {5, 32}, {7, 33},  {13, 40},  {16, 45},
                             {17, 64}, {31, 65}, {33, 96}, {4, 127}, {53, 256}, {9, 257}};
    if (!kai_test::reduced_sweep()) {
        shapes.push_back({67, 1024});
        shapes.push_back({19, 4096});
        shapes.push_back({5, 11008});
    }
    size_t i = 0;
    for (const S& s : shapes) {
        for (size_t r = 0; r < 3; ++r, ++i) {
            const Pk& p = pk[i % (sizeof(pk) / sizeof(pk[0]))];
            out.push_back(Param{s.n, s.k, p.nr, p.kr, p.sr, i % 2 ? 0 : 8, i % 3 != 1});
        }
    }
    out.push_back(Param{6, 128, 4, 64, 2, 8, true});  // kr = 64: the scalar path
    return out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
    const auto [n, k, nr, kr, sr, zp, bias] = info.param;
    return "n" + std::to_string(n) + "_k" + std::to_string(k) + "_nr" + std::to_string(nr) + "_kr" +
           std::to_string(kr) + "_sr" + std::to_string(sr) + "_zp" + std::to_string(zp) + (bias ? "_bias" : "");
}

INSTANTIATE_TEST_SUITE_P(Shapes, PackTest, ::testing::ValuesIn(params()), param_name);

TEST(PackEdge, GettersMatchTheLayout) {
    EXPECT_EQ(kai_get_n_step_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(16), 16u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(3, 17), 51u);
    EXPECT_EQ(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(33, 8, 4, 1), 352u);  // 8 * (32 + 12)
    EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(32, 1, 16, 4, 1), 2 * 16 * 28u);
    EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(17, 45, 16, 4, 1), 1408u);
}

TEST(PackEdge, SignedAndUnsignedInputsGiveTheSameBytes) {
    // The same weights as unsigned (u = w + 8, zero point 8) and signed (w & 15, zero point 0).
    const size_t n = 5, k = 45, nr = 4, kr = 8;
    const auto u = kai_test::random_bytes(n * 23, 91);
    std::vector<uint8_t> s(u.size());
    for (size_t i = 0; i < u.size(); ++i) s[i] = static_cast<uint8_t>(u[i] ^ 0x88);
    const auto scale = kai_test::random_f32(n, -1.0f, 1.0f, 92);
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, nr, kr, 2);
    std::vector<uint8_t> a(size), b(size);
    const kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params pu{1, 8}, ps{1, 0};
    kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, n, k, nr, kr, 2, u.data(), nullptr, scale.data(), a.data(), 0, &pu);
    kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, n, k, nr, kr, 2, s.data(), nullptr, scale.data(), b.data(), 0, &ps);
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size));
}

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors.
// ------------------------------------------------------------------------------------------

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, MatchesKleidiAI) {
    const auto vec = kai_test::load_compat_vector(GetParam());
    ASSERT_FALSE(vec.header.empty());
    const size_t n = vec.size("n"), k = vec.size("k"), nr = vec.size("nr"), kr = vec.size("kr"), sr = vec.size("sr");
    const auto& want = vec.section("rhs_packed");
    ASSERT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, nr, kr, sr), want.bytes.size());
    const auto& rhs_s = vec.section("rhs");
    GuardedBuffer rhs(rhs_s.bytes.size()), got(want.bytes.size());
    std::memcpy(rhs.data(), rhs_s.bytes.data(), rhs_s.bytes.size());
    const float* bias = vec.has_section("bias") ? vec.section("bias").f32() : nullptr;
    const kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params p{1, static_cast<uint8_t>(vec.size("rhs_zero_point"))};
    kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, n, k, nr, kr, sr, rhs.data(), bias, vec.section("scale").f32(),
                                                     got.data(), 0, &p);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
}

std::vector<std::string> compat_files() {
    return kai_test::list_compat_vectors("kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon__");
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param.substr(info.param.find("__") + 2);
                             s = s.substr(0, s.size() - 4);
                             for (auto& ch : s)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return s;
                         });

TEST(CompatFiles, AllSixArePresent) {
    EXPECT_EQ(compat_files().size(), 6u);
}

// ------------------------------------------------------------------------------------------
// Preconditions.
// ------------------------------------------------------------------------------------------

TEST(PackPreconditions, SizesThatOverflowAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(SIZE_MAX, 64, 4, 4, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(SIZE_MAX - 31, 4, 4, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(SIZE_MAX / 2, 7), overflow);
}

#ifndef NDEBUG
TEST(PackPreconditions, EveryCheckAbortsNamingItsParameter) {
    const std::string file = "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.c";
    const std::string stem = "rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon";
    const size_t n = 5, k = 40;
    const auto rhs = kai_test::random_bytes(n * 20, 95);
    const auto scale = kai_test::random_f32(n, -1.0f, 1.0f, 96);
    std::vector<uint8_t> out(4096);
    struct Args {
        size_t num_groups = 1, k = 40, nr = 4, kr = 8, sr = 2;
        const uint8_t* rhs;
        const float* scale;
        void* out;
        size_t extra_bytes = 0;
        int8_t lzp = 1;
        uint8_t rzp = 8;
        bool null_params = false;
    };
    Args base;
    base.rhs = rhs.data();
    base.scale = scale.data();
    base.out = out.data();
    auto with = [&](bool bad, auto edit) {
        Args a = base;
        if (bad) edit(a);
        const kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params p{a.lzp, a.rzp};
        kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(a.num_groups, n, a.k, a.nr, a.kr, a.sr, a.rhs, nullptr,
                                                         a.scale, a.out, a.extra_bytes, a.null_params ? nullptr : &p);
    };
    const std::string run = "kai_run_" + stem, stride = "kai_get_rhs_packed_stride_" + stem,
                      offset = "kai_get_rhs_packed_offset_" + stem, size = "kai_get_rhs_packed_size_" + stem;
    using kai_test::PreconditionCase;
    const std::vector<PreconditionCase> cases = {
        {stride, file, "nr must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(k, bad ? 0 : 4, 8, 2); }},
        {stride, file, "k must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(bad ? 0 : k, 4, 8, 2); }},
        {stride, file, "kr must be a multiple of sr",
         [&](bool bad) { (void)kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(k, 4, bad ? 7 : 8, 2); }},
        {offset, file, "nr must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(0, k, bad ? 0 : 4, 8, 2); }},
        {offset, file, "k must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(4, bad ? 0 : k, 4, 8, 2); }},
        {offset, file, "kr must be a multiple of sr",
         [&](bool bad) { (void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(4, k, 4, 8, bad ? 3 : 2); }},
        {offset, file, "n_idx must be a multiple of nr",
         [&](bool bad) { (void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(bad ? 6 : 8, k, 4, 8, 2); }},
        {offset, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
         [&](bool bad) { (void)kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(bad ? SIZE_MAX / 4 * 4 : 4, k, 4, 8, 2); }},
        {size, file, "nr must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, bad ? 0 : 4, 8, 2); }},
        {size, file, "k must be at least 1",
         [&](bool bad) { (void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, bad ? 0 : k, 4, 8, 2); }},
        {size, file, "kr must be a multiple of sr",
         [&](bool bad) { (void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, 4, bad ? 9 : 8, 2); }},
        {run, file, "num_groups must be 1", [&](bool bad) { with(bad, [](Args& a) { a.num_groups = 2; }); }},
        {run, file, "extra_bytes must be 0", [&](bool bad) { with(bad, [](Args& a) { a.extra_bytes = 1; }); }},
        {run, file, "nr must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.nr = 0; }); }},
        {run, file, "kr must be a non-zero multiple of sr", [&](bool bad) { with(bad, [](Args& a) { a.kr = 9; }); }},
        {run, file, "kr must be even", [&](bool bad) { with(bad, [](Args& a) { a.kr = 3; a.sr = 1; }); }},
        {run, file, "k must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.k = 0; }); }},
        {run, file, "roundup(k, 32) must be a multiple of kr", [&](bool bad) { with(bad, [](Args& a) { a.kr = 12; }); }},
        {run, file, "params must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.null_params = true; }); }},
        {run, file, "params->lhs_zero_point must be 1", [&](bool bad) { with(bad, [](Args& a) { a.lzp = 0; }); }},
        {run, file, "params->rhs_zero_point must be 0 or 8", [&](bool bad) { with(bad, [](Args& a) { a.rzp = 7; }); }},
        {run, file, "rhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.rhs = nullptr; }); }},
        {run, file, "scale must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.scale = nullptr; }); }},
        {run, file, "rhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
    };
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

}  // namespace
