// SPDX-License-Identifier: Apache-2.0
// Tests of the matmul_clamp_f32_qai8dxp_qsi8cxp family (int8 per-channel weights): byte-exact RHS
// packers and bit-exact kernels against test/reference (written from docs/formats.md, "qsi8cxp matmul"), the qai8dxp LHS
// packer with this family's (mr, kr, sr), KleidiAI v1.30.0 compat vectors, and the end-to-end error
// against an f64 matmul. The SME / SME2 kernels run every kernel test at three streaming vector lengths (SVL 128,
// 512 and 2048 bits, set with prctl(PR_SME_SET_VL) in the test: mr, nr and the packed layouts change with it), and
// against the family's NEON kernels on the same inputs. The target runs under the SME2 emulator
// (KAI_NEEDS_SME2=1); nothing skips there.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi8cxp_registry.h"

// sme_abi_probe.S (the SME float suite's probes): a caller with live ZA and a pending lazy save, and the state
// after a call.
extern "C" {
void kai_test_za_arm_lazy_save(const void* pattern, void* tpidr2_block);
void kai_test_za_finish(uint64_t* tpidr2, uint64_t* svcr);
}

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
#endif
#ifndef PR_SME_VL_LEN_MASK
#define PR_SME_VL_LEN_MASK 0xffff
#endif

namespace {

using kai_registry::Qsi8cxpVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

// ------------------------------------------------------------------------------------------
// Inputs.
// ------------------------------------------------------------------------------------------

// LHS rows: random values times a per-row power of two, with the quantiser's edge rows mixed in
// (row % 8): all zeros, constant positive, constant negative, one huge outlier, denormals, exact
// .5 ties of x * scale, and two random rows.
std::vector<float> make_lhs(size_t m, size_t k, size_t stride_floats, uint64_t seed, bool edge_rows) {
    Rng rng(seed);
    std::vector<float> lhs(m * stride_floats, std::numeric_limits<float>::quiet_NaN());
    for (size_t i = 0; i < m; ++i) {
        float* x = lhs.data() + i * stride_floats;
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) x[kk] = rng.uniform(-2.0f, 2.0f) * mul;
        if (!edge_rows) continue;
        switch (i % 8) {
            case 1:
                for (size_t kk = 0; kk < k; ++kk) x[kk] = 0.0f;
                break;
            case 2:
                for (size_t kk = 0; kk < k; ++kk) x[kk] = 0.8125f;
                break;
            case 3:
                for (size_t kk = 0; kk < k; ++kk) x[kk] = -1.375f;
                break;
            case 4:
                x[rng.integer(0, static_cast<int64_t>(k) - 1)] = 3.0e6f;
                break;
            case 5:
                for (size_t kk = 0; kk < k; ++kk) x[kk] = rng.uniform(-1.0f, 1.0f) * 1.0e-39f;
                break;
            case 6:
                for (size_t kk = 0; kk < k; ++kk) x[kk] = static_cast<float>(rng.integer(-203, 307)) * 0.5f;
                x[0] = -101.5f;
                if (k > 1) x[k - 1] = 153.5f;
                break;
            default:
                break;
        }
    }
    return lhs;
}

// Random int8 weights over the whole range (-128 included, which symmetric quantisers never
// produce but the packers and kernels must carry). Every 7th call gives all -128 / 127 extremes.
std::vector<int8_t> make_weights(size_t n, size_t k, uint64_t seed) {
    std::vector<int8_t> w = kai_test::random_i8(n * k, -128, 127, seed);
    if (seed % 7 == 0) {
        for (size_t i = 0; i < w.size(); ++i) w[i] = (i % 3 == 0) ? int8_t{127} : int8_t{-128};
    }
    return w;
}

std::vector<float> make_scales(size_t n, uint64_t seed) {
    Rng rng(seed);
    std::vector<float> s(n);
    for (auto& v : s) v = rng.uniform(0.0005f, 0.02f) * (rng.integer(0, 1) ? 1.0f : -1.0f);
    return s;
}

// The n x k weights w (channel-major) as a K x N kxn input.
std::vector<int8_t> to_kxn(const std::vector<int8_t>& w, size_t n, size_t k) {
    std::vector<int8_t> t(n * k);
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) t[kk * n + j] = w[j * k + kk];
    return t;
}

std::string shape_name(size_t m, size_t n, size_t k) {
    std::ostringstream os;
    os << m << "x" << n << "x" << k;
    return os.str();
}

const kai_rhs_pack_qsi8cx_params kParams{1, 1.0f};

// Packs with kai's nxk or kxn packer; `w` is always the n x k (nxk) matrix.
void pack_rhs(bool kxn, size_t n, size_t k, size_t nr, size_t kr, const std::vector<int8_t>& w, const float* bias,
              const float* scale, void* out) {
    if (kxn) {
        const auto t = to_kxn(w, n, k);
        kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, 1, t.data(), bias, scale, out, 0, &kParams);
    } else {
        kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, 1, w.data(), bias, scale, out, 0, &kParams);
    }
}

// The quantised LHS that expected values are computed from: test/reference's packer (docs/formats.md, "qai8dxp LHS") run
// on the f32 rows and read back. Expected values never come from kai's own packer output.
kai_ref::Qai8dxpUnpacked reference_lhs(size_t m, size_t k, size_t mr, size_t kr, const float* lhs, size_t stride_bytes) {
    std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(m, k, mr));
    kai_ref::pack_qai8dxp(m, k, mr, kr, 1, 0, lhs, stride_bytes, packed.data());
    return kai_ref::unpack_qai8dxp(packed.data(), m, k, mr, kr, 1);
}

// ------------------------------------------------------------------------------------------
// The LHS packer with this family's parameters (sr = 1, kr = 4 or 8).
// ------------------------------------------------------------------------------------------

using LhsParam = std::tuple<size_t /*m*/, size_t /*k*/, size_t /*mr*/, size_t /*kr*/>;

class LhsPackTest : public ::testing::TestWithParam<LhsParam> {};

TEST_P(LhsPackTest, ByteExactAgainstReference) {
    const auto [m, k, mr, kr] = GetParam();
    const uint64_t seed = kai_test::seed_from("lhs" + shape_name(m, k, mr) + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride_floats = k + 3;
    const std::vector<float> lhs = make_lhs(m, k, stride_floats, seed, true);
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1);
    ASSERT_EQ(size, kai_ref::qai8dxp_packed_size(m, k, mr));
    GuardedBuffer got(size, 0x5A);
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), stride_floats * 4, got.data());
    std::vector<uint8_t> want(size, 0x5A);
    kai_ref::pack_qai8dxp(m, k, mr, kr, 1, 0, lhs.data(), stride_floats * 4, want.data());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

std::string lhs_param_name(const ::testing::TestParamInfo<LhsParam>& info) {
    const auto [m, k, mr, kr] = info.param;
    return "m" + std::to_string(m) + "_k" + std::to_string(k) + "_mr" + std::to_string(mr) + "_kr" + std::to_string(kr);
}

INSTANTIATE_TEST_SUITE_P(FamilyParameters, LhsPackTest,
                         ::testing::Values(LhsParam{1, 1, 1, 4}, LhsParam{1, 1, 4, 8}, LhsParam{3, 40, 4, 4},
                                           LhsParam{17, 65, 4, 8}, LhsParam{2, 4096, 1, 4}, LhsParam{1, 11008, 1, 8},
                                           LhsParam{5, 33, 4, 4}, LhsParam{9, 129, 1, 8}),
                         lhs_param_name);

// ------------------------------------------------------------------------------------------
// RHS packers.
// ------------------------------------------------------------------------------------------

using RhsParam = std::tuple<bool /*kxn*/, size_t /*n*/, size_t /*k*/, size_t /*nr*/, size_t /*kr*/, bool /*bias*/>;

class RhsPackTest : public ::testing::TestWithParam<RhsParam> {};

TEST_P(RhsPackTest, ByteExactAgainstReference) {
    const auto [kxn, n, k, nr, kr, has_bias] = GetParam();
    const uint64_t seed = kai_test::seed_from("rhs" + shape_name(n, k, nr) + (kxn ? "kxn" : "nxk") + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto w = make_weights(n, k, seed);
    const auto scale = make_scales(n, seed + 1);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    const float* b = has_bias ? bias.data() : nullptr;
    const size_t size = kxn ? kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1)
                            : kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1);
    ASSERT_EQ(size, kai_ref::qsi8cxp_packed_size(n, k, nr));
    GuardedBuffer got(size, 0x5A);
    pack_rhs(kxn, n, k, nr, kr, w, b, scale.data(), got.data());
    EXPECT_TRUE(got.front_intact());
    const auto want = kai_ref::pack_qsi8cxp(n, k, nr, kr, w.data(), b, scale.data(), 1);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(RhsPackTest, ColumnRangesMatchSliceOfWholePack) {
    // nxk: channels [n0, n), n0 a multiple of the packer's n step, packed on their own at
    // get_rhs_packed_offset(n0) give exactly that slice of the whole pack and write nothing before
    // it (the threading recipe). kxn takes no row stride, so it packs whole matrices only; its
    // case checks that the reference's bytes (the nxk ones) come out with n one block longer.
    const auto [kxn, n_param, k, nr, kr, has_bias] = GetParam();
    const size_t n = n_param + nr;  // always more than one block
    const uint64_t seed = kai_test::seed_from("rhsrange" + shape_name(n, k, nr) + (kxn ? "kxn" : "nxk") + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto w = make_weights(n, k, seed);
    const auto scale = make_scales(n, seed + 1);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    const float* b = has_bias ? bias.data() : nullptr;
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1);
    const auto ref = kai_ref::pack_qsi8cxp(n, k, nr, kr, w.data(), b, scale.data(), 1);
    GuardedBuffer whole(size);
    pack_rhs(kxn, n, k, nr, kr, w, b, scale.data(), whole.data());
    ASSERT_TRUE(kai_test::bytes_equal(whole.data(), ref.data(), size)) << "whole pack";
    if (kxn) return;
    const size_t step = kai_get_n_step_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(nr);
    ASSERT_EQ(step, nr);
    for (size_t n0 = step; n0 < n; n0 += step) {
        SCOPED_TRACE("channels [" + std::to_string(n0) + ", " + std::to_string(n) + ")");
        const size_t src_off = kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n0, k);
        ASSERT_EQ(src_off, n0 * k);
        const size_t off = kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n0, k, nr, kr, 1);
        ASSERT_EQ(off, n0 / nr * kai_ref::qsi8cxp_block_stride(k, nr));
        GuardedBuffer got(size, 0x5A);
        kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n - n0, k, nr, kr, 1, w.data() + src_off, b ? b + n0 : nullptr,
                                                 scale.data() + n0, got.data() + off, 0, &kParams);
        EXPECT_TRUE(kai_test::bytes_equal(got.data() + off, ref.data() + off, size - off)) << "slice of the whole pack";
        const std::vector<uint8_t> fill(off, 0x5A);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), fill.data(), off)) << "bytes before the slice";
    }
}

std::vector<RhsParam> rhs_params() {
    std::vector<RhsParam> p;
    // (n, k): 1x1, tile +-1, K tails around the 16-value NEON step and the 32-value padding, primes,
    // real K. nr = 4 and 8 take the NEON paths (kr 4 and 8); nr = 16 and 64 are the widths of
    // KleidiAI's other consumers; nr = 3 and 6 (not multiples of 4) and kr = 16 / 32 go through the
    // scalar path only.
    const std::vector<std::pair<size_t, size_t>> shapes = {{1, 1},   {3, 5},    {4, 32},  {5, 33},   {7, 15},
                                                           {8, 16},  {9, 47},   {13, 65}, {16, 64},  {17, 100},
                                                           {31, 97}, {33, 255}, {3, 4096}, {5, 11008}};
    const std::vector<std::pair<size_t, size_t>> nr_kr = {{4, 4}, {4, 8}, {8, 8}, {8, 4}, {16, 4},
                                                          {64, 4}, {3, 4}, {6, 8}, {4, 16}, {8, 32}};
    for (bool kxn : {false, true})
        for (size_t si = 0; si < shapes.size(); ++si)
            for (size_t ci = 0; ci < nr_kr.size(); ++ci) {
                const size_t kr = nr_kr[ci].second;
                if ((shapes[si].second + 31) / 32 * 32 % kr != 0) continue;
                if (kai_test::reduced_sweep() && shapes[si].second > 4096 && ci > 1) continue;
                p.emplace_back(kxn, shapes[si].first, shapes[si].second, nr_kr[ci].first, kr, (si + ci) % 2 == 0);
            }
    // Strips of 16 columns (the kxn NEON path) with a ragged rest, both kr.
    for (bool kxn : {false, true})
        for (size_t kr : {4, 8}) {
            p.emplace_back(kxn, 37, 70, 4, kr, true);
            p.emplace_back(kxn, 64, 129, 8, kr, false);
            p.emplace_back(kxn, 50, 1024, 16, kr, true);
        }
    return p;
}

std::string rhs_param_name(const ::testing::TestParamInfo<RhsParam>& info) {
    const auto [kxn, n, k, nr, kr, b] = info.param;
    return std::string(kxn ? "kxn" : "nxk") + "_n" + std::to_string(n) + "_k" + std::to_string(k) + "_nr" +
           std::to_string(nr) + "_kr" + std::to_string(kr) + (b ? "_bias" : "_nobias") + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RhsPackTest, ::testing::ValuesIn(rhs_params()), rhs_param_name);

TEST(RhsPack, SpecExampleOffsets) {
    // docs/formats.md, "qsi8cxp RHS": N = 5, K = 40, nr = 4, kr = 8: stride 304, size 608; w[4][37] at 437; block 0's
    // sums at 256, scales at 272, biases at 288.
    for (auto size_fn : {kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon,
                         kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon}) {
        EXPECT_EQ(size_fn(5, 40, 4, 8, 1), 608u);
    }
    EXPECT_EQ(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(40, 4, 8, 1), 304u);
    EXPECT_EQ(kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(40, 4, 8, 1), 304u);
    EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(4, 40, 4, 8, 1), 304u);
    EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(8, 40, 4, 8, 1), 608u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(3, 40), 120u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(3, 999), 3u);
    EXPECT_EQ(kai_get_n_step_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(8), 8u);
    EXPECT_EQ(kai_get_n_step_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(4), 4u);
    std::vector<int8_t> w(5 * 40);
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(i * 7 + 3);
    std::vector<float> scale = {0.5f, 0.25f, 0.125f, 1.0f, 2.0f};
    std::vector<float> bias = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    std::vector<uint8_t> out(608);
    pack_rhs(false, 5, 40, 4, 8, w, bias.data(), scale.data(), out.data());
    EXPECT_EQ(static_cast<int8_t>(out[437]), w[4 * 40 + 37]);
    int32_t sum1 = 0, got_sum1 = 0;
    for (size_t kk = 0; kk < 40; ++kk) sum1 += w[40 + kk];
    std::memcpy(&got_sum1, out.data() + 256 + 4, 4);
    EXPECT_EQ(got_sum1, sum1);
    float s2 = 0, b3 = 0;
    std::memcpy(&s2, out.data() + 272 + 8, 4);
    std::memcpy(&b3, out.data() + 288 + 12, 4);
    EXPECT_EQ(s2, 0.125f);
    EXPECT_EQ(b3, 4.0f);
    for (size_t kk = 40; kk < 64; ++kk) EXPECT_EQ(out[(kk / 8) * 32 + 8 + kk % 8], 0) << "K padding is 0";
    // Lanes 1..3 of block 1 copy channel 4 (data, sum, scale, bias).
    for (size_t j = 1; j < 4; ++j) {
        EXPECT_EQ(out[304 + j * 8 + 5], out[304 + 5]);
        EXPECT_EQ(std::memcmp(out.data() + 304 + 256 + 4 * j, out.data() + 304 + 256, 4), 0);
        EXPECT_EQ(std::memcmp(out.data() + 304 + 272 + 4 * j, out.data() + 304 + 272, 4), 0);
        EXPECT_EQ(std::memcmp(out.data() + 304 + 288 + 4 * j, out.data() + 304 + 288, 4), 0);
    }
}

TEST(RhsPack, ScaleMultiplierIsIgnoredAndEmptyNWritesNothing) {
    const size_t n = 9, k = 45, nr = 4, kr = 4;
    const auto w = make_weights(n, k, 3);
    const auto scale = make_scales(n, 4);
    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1);
    std::vector<uint8_t> a(size), b(size);
    const kai_rhs_pack_qsi8cx_params other{1, 3.5f};
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, 1, w.data(), nullptr, scale.data(), a.data(), 0, &kParams);
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, 1, w.data(), nullptr, scale.data(), b.data(), 0, &other);
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size));
    const auto t = to_kxn(w, n, k);
    kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, 1, t.data(), nullptr, scale.data(), b.data(), 0, &other);
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size));
    uint8_t byte = 0x77;
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, 0, k, nr, kr, 1, nullptr, nullptr, nullptr, &byte, 0, &kParams);
    kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(1, 0, k, nr, kr, 1, nullptr, nullptr, nullptr, &byte, 0, &kParams);
    EXPECT_EQ(byte, 0x77);
}

// ------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------

struct Shape {
    size_t m, n, k;
};

enum class Portion { kFull, kFirstTile, kLastTiles, kMiddle };
enum class Clamp { kNone, kBites, kMinOnly, kMaxOnly, kInverted };

using MatmulParam = std::tuple<size_t /*variant*/, Shape, Portion, Clamp, bool /*bias*/, bool /*kxn*/>;

// A kernel variant at one streaming vector length: every SME / SME2 variant runs at SVL 128, 512 and 2048 bits
// (svl = 16, 64, 256 bytes), the NEON ones once (svl = 0).
struct Instance {
    size_t variant;
    size_t svl;
};

bool is_sme(const Qsi8cxpVariant& v) { return (v.features & (KAI_FEATURE_SME | KAI_FEATURE_SME2)) != 0; }

// The SME / SME2 DOT GEMVs fuse scale and bias in one multiply-add (docs/formats.md, "SME matmul recipes"); every other kernel rounds them
// separately (docs/formats.md, "qsi8cxp matmul").
bool fused_epilogue(const Qsi8cxpVariant& v) { return is_sme(v) && std::strstr(v.name, "_dot") != nullptr; }

// The SME2 kernels clamp with FCLAMP as KleidiAI's (a NaN gives the lower bound), the SME and NEON ones with FMAX /
// FMIN (NaN stays NaN): docs/reliability.md, "Special inputs".
bool uses_fclamp(const Qsi8cxpVariant& v) { return (v.features & KAI_FEATURE_SME2) != 0; }

const std::vector<Instance>& instances() {
    static const std::vector<Instance> list = [] {
        std::vector<Instance> l;
        const auto& vs = kai_registry::qsi8cxp_variants();
        for (size_t vi = 0; vi < vs.size(); ++vi) {
            if (is_sme(vs[vi])) {
                for (size_t svl : {16, 64, 256}) l.push_back({vi, svl});
            } else {
                l.push_back({vi, 0});
            }
        }
        return l;
    }();
    return list;
}

// Variant of instance i (the parameter of the kernel tests).
const Qsi8cxpVariant& variant(size_t i) { return kai_registry::qsi8cxp_variants().at(instances().at(i).variant); }

// Sets this thread's SVL (bytes); fails when the CPU does not take it.
::testing::AssertionResult set_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    if (r < 0) return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK;
    if (static_cast<size_t>(got) != bytes) {
        return ::testing::AssertionFailure() << "SVL is " << got << " bytes, asked for " << bytes;
    }
    return ::testing::AssertionSuccess();
}

// Skips without the variant's features, then sets the instance's SVL.
#define KAI_ENTER_INSTANCE(i)                                 \
    do {                                                      \
        KAI_TEST_SKIP_UNLESS(variant(i).features);            \
        if (instances().at(i).svl != 0) {                     \
            ASSERT_TRUE(set_svl(instances().at(i).svl));      \
        }                                                     \
    } while (0)

std::string instance_name(size_t i) {
    std::string name = std::string(variant(i).name).substr(std::string("kai_matmul_clamp_f32_").size());
    if (instances().at(i).svl != 0) name += "_svl" + std::to_string(instances().at(i).svl * 8);
    return name;
}

// Sub-tile [m0, m0+mh) x [n0, n0+nw) of the portion, snapped to the steps.
void portion_rect(Portion p, size_t m, size_t n, size_t ms, size_t ns, size_t* m0, size_t* mh, size_t* n0, size_t* nw) {
    switch (p) {
        case Portion::kFull:
            *m0 = 0, *mh = m, *n0 = 0, *nw = n;
            return;
        case Portion::kFirstTile:
            *m0 = 0, *mh = std::min(m, ms), *n0 = 0, *nw = std::min(n, ns);
            return;
        case Portion::kLastTiles:
            *m0 = (m - 1) / ms * ms, *n0 = (n - 1) / ns * ns;
            *mh = m - *m0, *nw = n - *n0;
            return;
        case Portion::kMiddle:
            *m0 = (m / 3) / ms * ms, *n0 = (n / 3) / ns * ns;
            *mh = std::max<size_t>(1, std::min(m - *m0, m / 2 + 1));
            *nw = std::max<size_t>(1, std::min(n - *n0, n / 2 + 1));
            return;
    }
}

// Clamp bounds from the unclamped outputs: quantiles so that the clamps bite on both sides (or one
// side, the other being +-inf), or swapped (min > max: the result is max everywhere).
void clamp_bounds(Clamp c, std::vector<float> sorted, float* cmin, float* cmax) {
    *cmin = -FLT_MAX;
    *cmax = FLT_MAX;
    if (c == Clamp::kNone) return;
    std::sort(sorted.begin(), sorted.end());
    const float lo = sorted[sorted.size() / 5], hi = sorted[sorted.size() * 4 / 5];
    switch (c) {
        case Clamp::kBites:
            *cmin = lo, *cmax = hi;
            return;
        case Clamp::kMinOnly:
            *cmin = lo, *cmax = std::numeric_limits<float>::infinity();
            return;
        case Clamp::kMaxOnly:
            *cmin = -std::numeric_limits<float>::infinity(), *cmax = hi;
            return;
        case Clamp::kInverted:
            *cmin = hi, *cmax = lo;
            if (*cmin == *cmax) *cmin = *cmax + 1.0f;
            return;
        case Clamp::kNone:
            return;
    }
}

class MatmulTest : public ::testing::TestWithParam<MatmulParam> {};

TEST_P(MatmulTest, BitExactOnSubTile) {
    const auto [vi, shape, portion, clamp, has_bias, kxn] = GetParam();
    const Qsi8cxpVariant& v = variant(vi);
    KAI_ENTER_INSTANCE(vi);
    const auto& uk = v.ukernel;
    const size_t m = shape.m, n = shape.n, k = shape.k;
    const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr();
    ASSERT_EQ(sr, 1u);
    ASSERT_EQ(uk.get_m_step() % mr, 0u);
    ASSERT_EQ(uk.get_n_step() % nr, 0u);
    const uint64_t seed = kai_test::seed_from(std::string(v.name) + shape_name(m, n, k));
    SCOPED_TRACE(kai_test::seed_trace(seed));

    const std::vector<float> lhs = make_lhs(m, k, k, seed, true);
    const auto w = make_weights(n, k, seed + 1);
    const auto scale = make_scales(n, seed + 2);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
    const float* b = has_bias ? bias.data() : nullptr;

    size_t m0, mh, n0, nw;
    portion_rect(portion, m, n, uk.get_m_step(), uk.get_n_step(), &m0, &mh, &n0, &nw);

    // Pack the whole matrices into buffers of exactly the packed size (guard pages after them).
    GuardedBuffer lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * 4, lhs_p.data());
    GuardedBuffer rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, sr));
    pack_rhs(kxn, n, k, nr, kr, w, b, scale.data(), rhs_p.data());

    // Reference on the full matrix from the reference packer's LHS (not kai's packed LHS).
    const auto lhs_u = reference_lhs(m, k, mr, kr, lhs.data(), k * 4);
    const bool fused = fused_epilogue(v);
    const auto unclamped =
        kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), b, -FLT_MAX, FLT_MAX, fused);
    float cmin, cmax;
    clamp_bounds(clamp, unclamped, &cmin, &cmax);
    const auto want =
        kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), b, cmin, cmax, fused, uses_fclamp(v));

    // Offsets of the kernel equal the packers'.
    ASSERT_EQ(uk.get_lhs_packed_offset(m0, k), kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(m0, k, mr, kr, sr));
    ASSERT_EQ(uk.get_rhs_packed_offset(n0, k), kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n0, k, nr, kr, sr));
    ASSERT_EQ(uk.get_rhs_packed_offset(n0, k), kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(n0, k, nr, kr, sr));
    ASSERT_EQ(uk.get_dst_size(m, n), m * n * 4);

    const size_t stride = (n + 5) * 4;  // wider than a row
    DstBuffer dst(m, n, 4, stride);
    const size_t dst_off = uk.get_dst_offset(m0, n0, stride);
    ASSERT_EQ(dst_off, m0 * stride + n0 * 4);
    // Through the ABI trampoline: x19-x29 and d8-d15 must survive, x18 must not be touched (the SME kernels leave
    // and re-enter streaming mode, which zeroes the Z registers that d8-d15 alias).
    KAI_ABI(uk.run_matmul)(mh, nw, k, lhs_p.data() + uk.get_lhs_packed_offset(m0, k),
                           rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                           reinterpret_cast<float*>(dst.at(0, 0) + dst_off), stride, 4, cmin, cmax);

    std::vector<float> want_tile(mh * nw);
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j) want_tile[i * nw + j] = want[(m0 + i) * n + n0 + j];
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(m0, n0)), stride, want_tile.data(), nw * 4,
                                         mh, nw));
    EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw));
}

std::vector<Shape> matmul_shapes() {
    // 1x1x1; m around mr (4) and m_step (16), n around nr = n_step (4) and two blocks (8); K tails
    // around 32 (the padding) and the loops' 8 / 16 / 32 steps; primes; K of real models.
    return {{1, 1, 1},    {3, 5, 40},   {4, 4, 32},    {5, 3, 31},   {15, 7, 33},   {16, 8, 64},
            {17, 9, 65},  {12, 12, 8},  {13, 33, 23},  {31, 29, 96}, {33, 12, 45},  {7, 16, 17},
            {20, 11, 255}, {4, 35, 1024}, {3, 9, 4096}, {2, 6, 11008}, {1, 5, 14336},
            {2, 5, 16448}};  // past 16384: every path of the K loops
}

std::vector<MatmulParam> matmul_params() {
    std::vector<MatmulParam> p;
    const size_t nv = instances().size();
    for (size_t vi = 0; vi < nv; ++vi) {
        const bool gemv = std::strstr(variant(vi).name, "_1x") != nullptr;  // m_step 1 (the getter needs the SVL)
        // SME kernels: the whole sweep at SVL 512 (the compat vectors' length), every other shape at 128 and 2048.
        const size_t svl = instances()[vi].svl;
        const bool thin = svl != 0 && svl != 64;
        // Reduced sweep: SME shapes every third at 128 / 2048 bits, full and last tiles only at 512.
        const size_t thin_step = kai_test::reduced_sweep() ? 3 : 2;
        const bool sme_reduced = svl != 0 && kai_test::reduced_sweep();
        size_t si = 0;
        std::vector<Shape> shapes = matmul_shapes();
        if (svl != 0) {
            // Several column blocks (nr = 16, 64, 256) and row blocks (mr = 4, 16, 64) of the SME tiles.
            const std::vector<Shape> wide = {{17, 129, 64}, {35, 131, 65}, {65, 257, 33}, {6, 520, 100}};
            shapes.insert(shapes.end(), wide.begin(), wide.end());
        }
        for (const Shape& s : shapes) {
            if (thin && si % thin_step != 0) {
                ++si;
                continue;
            }
            Shape sh = s;
            if (gemv && si % 3 == 0) sh.m = 1;  // GEMV kernels: mostly m = 1 decode, some m > 1
            const bool big = s.k >= 4096;
            for (Portion portion : {Portion::kFull, Portion::kFirstTile, Portion::kLastTiles, Portion::kMiddle}) {
                if (big && portion != Portion::kFull && portion != Portion::kLastTiles) continue;
                if (s.k > 16384 && portion != Portion::kFull) continue;  // the deepest K: once per instance
                if (kai_test::reduced_sweep() && portion == Portion::kMiddle) continue;
                if (sme_reduced && portion == Portion::kFirstTile) continue;
                const size_t c = si + static_cast<size_t>(portion);
                const Clamp clamp = static_cast<Clamp>(c % 5);
                p.emplace_back(vi, sh, portion, clamp, c % 2 == 0, c % 3 == 1);
            }
            ++si;
        }
        // The prime shape of the style guide, once per variant.
        if (!kai_test::reduced_sweep()) {
            p.emplace_back(vi, Shape{gemv ? size_t{3} : size_t{257}, 113, 373}, Portion::kFull, Clamp::kBites, true, false);
        }
    }
    return p;
}

std::string matmul_param_name(const ::testing::TestParamInfo<MatmulParam>& info) {
    const auto [vi, s, portion, clamp, b, kxn] = info.param;
    std::string name = instance_name(vi);
    static const char* portions[] = {"full", "first", "last", "middle"};
    static const char* clamps[] = {"noclamp", "clamp", "minonly", "maxonly", "invclamp"};
    return name + "_" + shape_name(s.m, s.n, s.k) + "_" + portions[static_cast<int>(portion)] + "_" +
           clamps[static_cast<int>(clamp)] + (b ? "_bias" : "_nobias") + (kxn ? "_kxn" : "_nxk") + "_" +
           std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Variants, MatmulTest, ::testing::ValuesIn(matmul_params()), matmul_param_name);

class MatmulVariantTest : public ::testing::TestWithParam<size_t> {};

// Packs m x k random LHS rows and n x k random weights for variant v.
struct Packed {
    std::vector<float> lhs;
    std::vector<int8_t> w;
    std::vector<float> scale;
    std::vector<uint8_t> lhs_p, rhs_p;
};

Packed pack_random(const Qsi8cxpVariant& v, size_t m, size_t n, size_t k, uint64_t seed, const float* bias) {
    const auto& uk = v.ukernel;
    Packed p;
    p.lhs = make_lhs(m, k, k, seed, true);
    p.w = make_weights(n, k, seed + 1);
    p.scale = make_scales(n, seed + 2);
    p.lhs_p.resize(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), 1));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), 1, 0, p.lhs.data(), k * 4, p.lhs_p.data());
    p.rhs_p.resize(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, uk.get_nr(), uk.get_kr(), 1));
    pack_rhs(false, n, k, uk.get_nr(), uk.get_kr(), p.w, bias, p.scale.data(), p.rhs_p.data());
    return p;
}

TEST_P(MatmulVariantTest, TiledRunEqualsFullRun) {
    // Threading recipe of docs/formats.md, "Tiles, offsets and threading": every m_step x n_step tile through the offset getters.
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    const size_t m = uk.get_m_step() == 1 ? 3 : 37, n = 27, k = 77;
    const Packed p = pack_random(v, m, n, k, 7, nullptr);
    DstBuffer full(m, n, 4, n * 4), tiled(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(full.at(0, 0)), n * 4, 4, -FLT_MAX,
                  FLT_MAX);
    for (size_t m0 = 0; m0 < m; m0 += uk.get_m_step())
        for (size_t n0 = 0; n0 < n; n0 += uk.get_n_step())
            uk.run_matmul(std::min(uk.get_m_step(), m - m0), std::min(uk.get_n_step(), n - n0), k,
                          p.lhs_p.data() + uk.get_lhs_packed_offset(m0, k), p.rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                          reinterpret_cast<float*>(tiled.at(0, 0) + uk.get_dst_offset(m0, n0, n * 4)), n * 4, 4, -FLT_MAX,
                          FLT_MAX);
    EXPECT_TRUE(full.written_inside(0, m, 0, n));
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), n * 4,
                                         reinterpret_cast<const float*>(full.at(0, 0)), n * 4, m, n));
}

TEST_P(MatmulVariantTest, EmptyShapesWriteNothing) {
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    DstBuffer dst(2, 2, 4, 8);
    v.ukernel.run_matmul(0, 2, 8, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 8, 4, -FLT_MAX, FLT_MAX);
    v.ukernel.run_matmul(2, 0, 8, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 8, 4, -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

TEST_P(MatmulVariantTest, NonFiniteLhsRowGivesTheBiasAsKleidiAI) {
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    const size_t m = 3, n = 5, k = 40, mr = uk.get_mr(), kr = uk.get_kr();
    auto lhs = make_lhs(m, k, k, 11, false);
    lhs[1 * k + 7] = std::numeric_limits<float>::infinity();
    Packed p = pack_random(v, m, n, k, 12, nullptr);
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), k * 4, p.lhs_p.data());
    DstBuffer dst(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX,
                  FLT_MAX);
    // Row 1 holds +inf: KleidiAI's packing (scale 0, docs/reliability.md "Special inputs") makes
    // its outputs the bias, 0 here.
    for (size_t j = 0; j < n; ++j) {
        EXPECT_FALSE(std::isnan(dst.value(0, j)));
        EXPECT_EQ(dst.value(1, j), 0.0f) << j;
        EXPECT_FALSE(std::isnan(dst.value(2, j)));
    }
    // The sentinel is a NaN too: every element must have been written (and nothing else).
    EXPECT_TRUE(dst.written_inside(0, m, 0, n));
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
}

TEST_P(MatmulVariantTest, NanAccumulatorsClampAsKleidiAI) {
    // Channel 1 has a NaN scale, channel 2 an infinite one (NaN where the int32 sum is 0, else +-inf): the SME2
    // kernels' FCLAMP (KleidiAI's bits) turns a NaN into clamp_min, or clamp_max when the bounds are inverted;
    // the SME and NEON kernels' FMAX / FMIN keep it. Both bound orders; the reference models both rules.
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    const size_t m = uk.get_m_step() == 1 ? 1 : 5, n = 7, k = 40, mr = uk.get_mr(), kr = uk.get_kr();
    const auto lhs = make_lhs(m, k, k, 41, true);
    auto w = make_weights(n, k, 42);
    for (size_t kk = 0; kk < k; ++kk) w[2 * k + kk] = 0;  // T = 0 in channel 2: 0 * inf = NaN
    auto scale = make_scales(n, 43);
    scale[1] = std::numeric_limits<float>::quiet_NaN();
    scale[2] = std::numeric_limits<float>::infinity();
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), k * 4, lhs_p.data());
    std::vector<uint8_t> rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, uk.get_nr(), kr, 1));
    pack_rhs(false, n, k, uk.get_nr(), kr, w, nullptr, scale.data(), rhs_p.data());
    const auto lhs_u = reference_lhs(m, k, mr, kr, lhs.data(), k * 4);
    for (const auto& [lo, hi] : {std::pair<float, float>{-0.5f, 0.75f}, {0.75f, -0.5f}}) {
        const auto want = kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), nullptr, lo, hi,
                                                         fused_epilogue(v), uses_fclamp(v));
        DstBuffer dst(m, n, 4, n * 4);
        uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, lo, hi);
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, want.data(), n * 4, m,
                                             n));
        for (size_t i = 0; i < m; ++i) {
            for (size_t j : {size_t{1}, size_t{2}}) {
                if (uses_fclamp(v)) {
                    EXPECT_EQ(dst.value(i, j), lo < hi ? lo : hi) << "row " << i << " channel " << j;
                } else {
                    EXPECT_TRUE(std::isnan(dst.value(i, j))) << "row " << i << " channel " << j;
                }
            }
        }
    }
}

TEST_P(MatmulVariantTest, ExtremeWeightsAndLongKStayExact) {
    // All weights -128 and every LHS value at an end of its range, K = 14336: the largest sums a
    // real model gives (|A| <= 128 * 128 * K < 2^28, inside int32 for K < 131072, docs/formats.md, "qsi8cxp matmul").
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    // n = 10: the plain kernels' 8-column fast loop (whose int16 bound these rows break, so they must take the
    // exact loop) and their 4-column tail.
    const size_t m = uk.get_m_step() == 1 ? 2 : 5, n = 10, k = 14336, mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr();
    std::vector<float> lhs(m * k);
    for (size_t i = 0; i < m * k; ++i) lhs[i] = (i / k) % 2 ? 1.0f : -1.0f;  // rows of q = 127 or -128
    std::vector<int8_t> w(n * k, -128);
    const auto scale = make_scales(n, 5);
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), k * 4, lhs_p.data());
    std::vector<uint8_t> rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1));
    pack_rhs(false, n, k, nr, kr, w, nullptr, scale.data(), rhs_p.data());
    DstBuffer dst(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX, FLT_MAX);
    const auto lhs_u = reference_lhs(m, k, mr, kr, lhs.data(), k * 4);
    const auto want = kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), nullptr, -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, want.data(), n * 4, m, n));
}

// End-to-end error of f32 -> quantise -> matmul against an f64 matmul of the f32 LHS with the
// dequantised weights w * scale. Bound (docs/matmul_int8_channelwise.md, "Numerics"):
//   |y - y64| <= 1.01 * ls_i * sum_k |w_jk * scale_j| + 8 * eps_f32 * (sum_k |x_ik * w_jk * scale_j| + |b_j|)
// The first term is the int8 quantisation of x: at most one step ls_i per element (half a step
// from rounding plus at most half a step where the rounded zero point makes the range end clamp).
// The second covers the f32 epilogue (conversion, two products, one sum: 4 roundings) with margin.
TEST_P(MatmulVariantTest, EndToEndErrorWithinDerivedBound) {
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    const size_t m = uk.get_m_step() == 1 ? 2 : 21, n = 19, k = 300, mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr();
    const auto lhs = make_lhs(m, k, k, 21, true);
    const auto wf = kai_test::random_f32(n * k, -1.0f, 1.0f, 22);
    std::vector<float> scale(n);
    const auto w = kai_ref::quantize_qsi8cx_nxk(wf.data(), n, k, scale.data());
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 24);
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), k * 4, lhs_p.data());
    std::vector<uint8_t> rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1));
    pack_rhs(false, n, k, nr, kr, w, bias.data(), scale.data(), rhs_p.data());
    DstBuffer dst(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX, FLT_MAX);

    std::vector<float> wdq(k * n);  // K x N dequantised weights
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) wdq[kk * n + j] = static_cast<float>(w[j * k + kk]) * scale[j];
    std::vector<double> y64(m * n);
    kai_ref::matmul_f64(m, n, k, lhs.data(), k, wdq.data(), n, y64.data());
    const auto lhs_u = reference_lhs(m, k, mr, kr, lhs.data(), k * 4);  // the bound's ls_i, not from kai
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) y64[i * n + j] += bias[j];
    const double eps = FLT_EPSILON;
    EXPECT_TRUE(kai_test::f32_within(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, y64.data(), n * 8, m, n,
                                     [&](size_t i, size_t j) {
                                         double sw = 0, sxw = 0;
                                         for (size_t kk = 0; kk < k; ++kk) {
                                             sw += std::fabs(static_cast<double>(wdq[kk * n + j]));
                                             sxw += std::fabs(static_cast<double>(lhs[i * k + kk]) * wdq[kk * n + j]);
                                         }
                                         return 1.01 * lhs_u.scale[i] * sw + 8 * eps * (sxw + std::fabs(bias[j]));
                                     }));
}

std::string variant_param_name(const ::testing::TestParamInfo<size_t>& info) {
    return instance_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(Variants, MatmulVariantTest,
                         ::testing::Range(size_t{0}, instances().size()), variant_param_name);

TEST(Registry, HoldsTheKernelsOfTheFamily) {
    const auto& vs = kai_registry::qsi8cxp_variants();
    ASSERT_EQ(vs.size(), 10u);
    // docs/formats.md, "qsi8cxp matmul": (m_step, n_step, mr, nr, kr, sr).
    struct Want {
        const char* name;
        size_t m_step, n_step, mr, nr, kr;
    };
    const Want want[] = {
        {"kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod", 1, 4, 1, 4, 4},
        {"kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod", 1, 4, 1, 4, 8},
        {"kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod", 16, 4, 4, 4, 4},
        {"kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm", 16, 4, 4, 4, 8},
        // Plain Armv8.0 NEON: the kr = 4 buffers of the DotProd pair.
        {"kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon", 1, 4, 1, 4, 4},
        {"kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_4x4_neon", 4, 4, 4, 4, 4},
        // docs/formats.md, "SME packed layouts" at SVL 512 (set below).
        {"kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa", 16, 64, 16, 64, 4},
        {"kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot", 1, 64, 1, 64, 4},
        {"kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa", 16, 64, 16, 64, 4},
        {"kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot", 1, 64, 1, 64, 4},
    };
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    ASSERT_TRUE(set_svl(64));
    for (const Want& x : want) {
        const Qsi8cxpVariant* v = nullptr;
        for (const auto& y : vs)
            if (std::string(y.name) == x.name) v = &y;
        ASSERT_NE(v, nullptr) << x.name;
        EXPECT_EQ(v->ukernel.get_m_step(), x.m_step) << x.name;
        EXPECT_EQ(v->ukernel.get_n_step(), x.n_step) << x.name;
        EXPECT_EQ(v->ukernel.get_mr(), x.mr) << x.name;
        EXPECT_EQ(v->ukernel.get_nr(), x.nr) << x.name;
        EXPECT_EQ(v->ukernel.get_kr(), x.kr) << x.name;
        EXPECT_EQ(v->ukernel.get_sr(), 1u) << x.name;
        const uint32_t feature = std::strstr(x.name, "i8mm")    ? KAI_FEATURE_I8MM
                                 : std::strstr(x.name, "_sme2_") ? KAI_FEATURE_SME2
                                 : std::strstr(x.name, "_sme_")  ? KAI_FEATURE_SME
                                 : std::strstr(x.name, "dotprod") ? KAI_FEATURE_DOTPROD
                                                                  : 0u;  // plain Armv8.0 NEON
        EXPECT_EQ(v->features, feature) << x.name;
    }
    // The SME getters follow the SVL: mr = SVL / 32 (GEMM), nr = n_step = SVL / 8.
    for (size_t svl : {16, 256}) {
        ASSERT_TRUE(set_svl(svl));
        for (const auto& v : vs) {
            if (!is_sme(v)) continue;
            const bool gemm = std::strstr(v.name, "_mopa") != nullptr;
            EXPECT_EQ(v.ukernel.get_nr(), svl) << v.name;
            EXPECT_EQ(v.ukernel.get_n_step(), svl) << v.name;
            EXPECT_EQ(v.ukernel.get_mr(), gemm ? svl / 4 : 1u) << v.name;
            EXPECT_EQ(v.ukernel.get_m_step(), gemm ? svl / 4 : 1u) << v.name;
        }
    }
}

// One packed buffer for every core: the RHS is packed once per (nr, kr) and the LHS once
// per (mr, kr); every NEON kernel that reads those bytes (plain, DotProd, I8MM, whichever the CPU
// runs) gives the same output bits as every other one. Under -cpu cortex-a72 the plain GEMV and
// GEMM still compare with each other on the one RHS buffer they share.
TEST(SamePackedBytes, PlainDotProdAndI8mmKernelsAgreeBitExactly) {
    const std::vector<Shape> shapes = {{9, 37, 70}, {1, 64, 1000}, {13, 16, 256}};
    size_t compared = 0;
    for (size_t kr : {4u, 8u}) {
        for (const Shape& sh : shapes) {
          // Edge rows (constant, zero, spikes) and plain random rows: the latter keep every row of the plain
          // kernels' tiles on their fast loops, the former send some through the exact one.
          for (bool edge : {true, false}) {
            const size_t m = sh.m, n = sh.n, k = sh.k, nr = 4;
            SCOPED_TRACE(shape_name(m, n, k) + " kr" + std::to_string(kr) + (edge ? " edge rows" : ""));
            const uint64_t seed = kai_test::seed_from("same-bytes" + shape_name(m, n, k) + std::to_string(kr));
            const auto lhs = make_lhs(m, k, k, seed, edge);
            const auto w = make_weights(n, k, seed + 1);
            const auto scale = make_scales(n, seed + 2);
            const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
            std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, 1));
            pack_rhs(false, n, k, nr, kr, w, bias.data(), scale.data(), rp.data());
            std::vector<uint8_t> lp[5];  // by mr (1 or 4)
            std::vector<float> first;
            std::string first_name;
            for (const auto& v : kai_registry::qsi8cxp_variants()) {
                const auto& u = v.ukernel;
                if (is_sme(v) || u.get_kr() != kr || u.get_nr() != nr) continue;
                if (!kai_test::missing_features(v.features).empty()) continue;  // the CPU cannot run it
                const size_t mr = u.get_mr();
                if (lp[mr].empty()) {
                    lp[mr].resize(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1));
                    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, 1, 0, lhs.data(), k * 4, lp[mr].data());
                }
                std::vector<float> out(m * n);
                u.run_matmul(m, n, k, lp[mr].data(), rp.data(), out.data(), n * 4, 4, -FLT_MAX, FLT_MAX);
                if (first_name.empty()) {
                    first = out;
                    first_name = v.name;
                    continue;
                }
                EXPECT_TRUE(kai_test::f32_bits_equal(out.data(), n * 4, first.data(), n * 4, m, n))
                    << v.name << " differs from " << first_name;
                ++compared;
            }
          }
        }
    }
    // The plain pair alone (kr = 4) runs on every core: at least one comparison per shape.
    EXPECT_GE(compared, shapes.size());
}

// The SME / SME2 kernels against the family's NEON kernels on the same f32 inputs, each packed for its own
// kernel: the MOPA GEMMs give the NEON bits always; the DOT GEMVs give them without bias (with a bias their fused
// scale-and-bias differs in the last bit on some outputs, docs/formats.md, "SME matmul recipes") and the fused reference's bits with one.
class SmeAgainstNeonTest : public ::testing::TestWithParam<size_t> {};

TEST_P(SmeAgainstNeonTest, SameBitsAsNeonOnSameInputs) {
    const size_t ii = GetParam();
    const Qsi8cxpVariant& v = variant(ii);
    if (!is_sme(v)) GTEST_SKIP() << "not an SME kernel";  // the parameter list holds SME instances only
    KAI_ENTER_INSTANCE(ii);
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_DOTPROD);
    const Qsi8cxpVariant* neon = nullptr;
    for (const auto& x : kai_registry::qsi8cxp_variants())
        if (std::string(x.name) == "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod") neon = &x;
    ASSERT_NE(neon, nullptr);
    const auto& uk = v.ukernel;
    const bool fused = fused_epilogue(v);
    std::vector<Shape> shapes = {{37, 131, 65}, {1, 300, 256}, {5, 70, 1000}};
    if (kai_test::reduced_sweep()) shapes.resize(1);
    for (const Shape& sh : shapes) {
        for (bool has_bias : {false, true}) {
            const size_t m = sh.m, n = sh.n, k = sh.k;
            SCOPED_TRACE(shape_name(m, n, k) + (has_bias ? " bias" : " no bias"));
            const uint64_t seed = kai_test::seed_from("sme-neon" + std::string(v.name) + shape_name(m, n, k));
            const auto lhs = make_lhs(m, k, k, seed, true);
            const auto w = make_weights(n, k, seed + 1);
            const auto scale = make_scales(n, seed + 2);
            const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
            const float* b = has_bias ? bias.data() : nullptr;
            auto run = [&](const kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel& u) {
                std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, u.get_mr(), u.get_kr(), 1));
                kai_run_lhs_quant_pack_qai8dxp_f32(m, k, u.get_mr(), u.get_kr(), 1, 0, lhs.data(), k * 4, lp.data());
                std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, u.get_nr(), u.get_kr(), 1));
                pack_rhs(false, n, k, u.get_nr(), u.get_kr(), w, b, scale.data(), rp.data());
                std::vector<float> out(m * n);
                u.run_matmul(m, n, k, lp.data(), rp.data(), out.data(), n * 4, 4, -FLT_MAX, FLT_MAX);
                return out;
            };
            const auto got = run(uk);
            const auto want_neon = run(neon->ukernel);
            if (!fused || !has_bias) {
                EXPECT_TRUE(kai_test::f32_bits_equal(got.data(), n * 4, want_neon.data(), n * 4, m, n));
            } else {
                const auto lhs_u = reference_lhs(m, k, uk.get_mr(), uk.get_kr(), lhs.data(), k * 4);
                const auto want =
                    kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), b, -FLT_MAX, FLT_MAX, true);
                EXPECT_TRUE(kai_test::f32_bits_equal(got.data(), n * 4, want.data(), n * 4, m, n));
                // The NEON kernel on the same inputs is the unfused recipe.
                const auto unfused =
                    kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, w.data(), scale.data(), b, -FLT_MAX, FLT_MAX, false);
                EXPECT_TRUE(kai_test::f32_bits_equal(want_neon.data(), n * 4, unfused.data(), n * 4, m, n));
            }
        }
    }
}

std::vector<size_t> sme_instances() {
    std::vector<size_t> r;
    for (size_t i = 0; i < instances().size(); ++i)
        if (is_sme(variant(i))) r.push_back(i);
    return r;
}

INSTANTIATE_TEST_SUITE_P(Variants, SmeAgainstNeonTest, ::testing::ValuesIn(sme_instances()), variant_param_name);

// A caller with live ZA and a pending lazy save (TPIDR2_EL0 -> a TPIDR2 block, AAPCS64 SME): the kernel must store
// ZA to the block's buffer and clear TPIDR2_EL0 before it uses ZA, leave streaming mode and ZA off, and still
// compute the right result (sme_abi_probe.S sets the state up and reads it back).
class SmeLazyZaTest : public ::testing::TestWithParam<size_t> {};

TEST_P(SmeLazyZaTest, CommitsAPendingLazyZaSave) {
    const size_t ii = GetParam();
    const Qsi8cxpVariant& v = variant(ii);
    KAI_ENTER_INSTANCE(ii);
    const size_t svl = instances().at(ii).svl;
    const auto& uk = v.ukernel;
    const size_t m = std::strstr(v.name, "_1x") ? 2 : 5, n = 21, k = 40;
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 77);
    const Packed p = pack_random(v, m, n, k, 76, bias.data());
    const auto lhs_u = reference_lhs(m, k, uk.get_mr(), uk.get_kr(), p.lhs.data(), k * 4);
    const auto want = kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, p.w.data(), p.scale.data(), bias.data(), -FLT_MAX,
                                                     FLT_MAX, fused_epilogue(v));
    std::vector<uint8_t> pattern(svl * svl);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + i / svl + 1);
    std::vector<uint8_t> save(svl * svl, 0);
    struct alignas(16) Tpidr2Block {
        uint64_t za_save_buffer;
        uint16_t num_za_save_slices;
        uint8_t reserved[6];
    } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
    DstBuffer dst(m, n, 4, n * 4);
    kai_test_za_arm_lazy_save(pattern.data(), &block);
    uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX,
                  FLT_MAX);
    uint64_t tpidr2 = 1, svcr = 1;
    kai_test_za_finish(&tpidr2, &svcr);
    EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
    EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
    EXPECT_TRUE(kai_test::bytes_equal(save.data(), pattern.data(), pattern.size())) << "ZA save buffer";
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, want.data(), n * 4, m, n));
    // Without a pending save the call leaves TPIDR2_EL0 at 0 and streaming mode off as well.
    uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX,
                  FLT_MAX);
    tpidr2 = 1, svcr = 1;
    kai_test_za_finish(&tpidr2, &svcr);
    EXPECT_EQ(tpidr2, 0u);
    EXPECT_EQ(svcr & 3u, 0u);
}

INSTANTIATE_TEST_SUITE_P(Variants, SmeLazyZaTest, ::testing::ValuesIn(sme_instances()), variant_param_name);

// ------------------------------------------------------------------------------------------
// Preconditions: one death test per distinct (function, message) of the family's KAI_ASSUME_MSG
// checks (debug builds only: KAI_ASSUME is compiled out with NDEBUG). Each case calls its function
// twice: once with valid arguments, which must return normally, then in a death test with exactly
// one precondition violated, which must abort with "<file>:<line> <message>" printed by that
// function's own source file. Checks that no argument can violate are absent: "m_idx must be a
// multiple of mr" and "... of m_step" when mr = m_step = 1 (the GEMV kernels).
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG
using kai_test::expect_preconditions;
using kai_test::PreconditionCase;

class Qsi8cxpKernelPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Qsi8cxpKernelPreconditionsDeathTest, Kernels) {
    const Qsi8cxpVariant& v = variant(GetParam());
    KAI_ENTER_INSTANCE(GetParam());
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const std::string file = std::string(v.name) + ".c";
    // Two rows and two columns, so that a row stride below one output row can be tested.
    const size_t m = 2, n = 2, k = 32, mr = uk.get_mr(), nr = uk.get_nr(), m_step = uk.get_m_step(),
                 n_step = uk.get_n_step();
    const Packed p = pack_random(v, m, n, k, 31, nullptr);
    std::vector<float> dst(m * n);

    // run_matmul with one argument replaced when the case is violated.
    auto run = [&](size_t kk, const void* l, const void* r, float* d, size_t col_stride) {
        uk.run_matmul(m, n, kk, l, r, d, n * sizeof(float), col_stride, -FLT_MAX, FLT_MAX);
    };
    const std::string run_fn = "kai_run_" + stem, dst_fn = "kai_get_dst_offset_" + stem;
    const std::string lhs_fn = "kai_get_lhs_packed_offset_" + stem, rhs_fn = "kai_get_rhs_packed_offset_" + stem;
    std::vector<PreconditionCase> cases;
    if (mr > 1) {
        cases.push_back({lhs_fn, file, "m_idx must be a multiple of mr",
                         [&](bool bad) { (void)uk.get_lhs_packed_offset(bad ? mr / 2 : mr, k); }});
    }
    if (m_step > 1) {
        cases.push_back({dst_fn, file, "m_idx must be a multiple of m_step",
                         [&](bool bad) { (void)uk.get_dst_offset(bad ? m_step / 2 : m_step, 0, 64); }});
    }
    cases.push_back({rhs_fn, file, "n_idx must be a multiple of nr",
                     [&](bool bad) { (void)uk.get_rhs_packed_offset(bad ? nr / 2 : nr, k); }});
    cases.push_back({dst_fn, file, "n_idx must be a multiple of n_step",
                     [&](bool bad) { (void)uk.get_dst_offset(0, bad ? n_step / 2 : n_step, 64); }});
    cases.push_back({lhs_fn, file, "k must be at least 1", [&](bool bad) { (void)uk.get_lhs_packed_offset(mr, bad ? 0 : k); }});
    cases.push_back({rhs_fn, file, "k must be at least 1", [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, bad ? 0 : k); }});
    cases.push_back({run_fn, file, "dst_stride_col must be sizeof(float)",
                     [&](bool bad) { run(k, p.lhs_p.data(), p.rhs_p.data(), dst.data(), bad ? 8 : 4); }});
    cases.push_back({run_fn, file, "k must be at least 1",
                     [&](bool bad) { run(bad ? 0 : k, p.lhs_p.data(), p.rhs_p.data(), dst.data(), 4); }});
    cases.push_back({run_fn, file, "lhs_packed must not be NULL",
                     [&](bool bad) { run(k, bad ? nullptr : p.lhs_p.data(), p.rhs_p.data(), dst.data(), 4); }});
    cases.push_back({run_fn, file, "rhs_packed must not be NULL",
                     [&](bool bad) { run(k, p.lhs_p.data(), bad ? nullptr : p.rhs_p.data(), dst.data(), 4); }});
    cases.push_back({run_fn, file, "dst must not be NULL",
                     [&](bool bad) { run(k, p.lhs_p.data(), p.rhs_p.data(), bad ? nullptr : dst.data(), 4); }});
    // One output row needs n * 4 bytes; a stride one element short would overlap the rows.
    cases.push_back({run_fn, file, "dst_stride_row must be at least n * dst_stride_col if m > 1", [&](bool bad) {
                         uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), dst.data(),
                                       (bad ? n - 1 : n) * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
                     }});
    expect_preconditions(cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi8cxpKernelPreconditionsDeathTest,
                         ::testing::Range(size_t{0}, instances().size()), variant_param_name);

// The two RHS packers share their signatures.
struct RhsPackerFns {
    const char* stem;  // rhs_pack_{nxk,kxn}_qsi8cxp_qsi8cx_neon
    size_t (*get_stride)(size_t, size_t, size_t, size_t);
    size_t (*get_offset)(size_t, size_t, size_t, size_t, size_t);
    size_t (*get_size)(size_t, size_t, size_t, size_t, size_t);
    void (*run)(size_t, size_t, size_t, size_t, size_t, size_t, const int8_t*, const float*, const float*, void*, size_t,
                const kai_rhs_pack_qsi8cx_params*);
};

TEST(Qsi8cxpPreconditionsDeathTest, RhsPackers) {
    const RhsPackerFns packers[] = {
        {"rhs_pack_nxk_qsi8cxp_qsi8cx_neon", kai_get_rhs_packed_stride_rhs_pack_nxk_qsi8cxp_qsi8cx_neon,
         kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon, kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon,
         kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon},
        {"rhs_pack_kxn_qsi8cxp_qsi8cx_neon", kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp_qsi8cx_neon,
         kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp_qsi8cx_neon, kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon,
         kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon},
    };
    const size_t n = 5, k = 40, nr = 4, kr = 8;
    const auto w = make_weights(n, k, 51);
    const auto scale = make_scales(n, 52);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 53);
    for (const RhsPackerFns& p : packers) {
        const std::string file = std::string("kai_") + p.stem + ".c";
        const std::string stride_fn = std::string("kai_get_rhs_packed_stride_") + p.stem;
        const std::string offset_fn = std::string("kai_get_rhs_packed_offset_") + p.stem;
        const std::string size_fn = std::string("kai_get_rhs_packed_size_") + p.stem;
        const std::string run_fn = std::string("kai_run_") + p.stem;
        std::vector<uint8_t> out(p.get_size(n, k, nr, kr, 1));
        // The run with one argument replaced when the case is violated.
        struct Args {
            size_t num_groups, k, nr, kr, sr;
            const int8_t* rhs;
            const float* scale;
            void* out;
            size_t extra_bytes;
            kai_rhs_pack_qsi8cx_params params;
            bool null_params;
        };
        const Args ok{1, k, nr, kr, 1, w.data(), scale.data(), out.data(), 0, {1, 1.0f}, false};
        auto with = [&](bool bad, auto edit) {
            Args a = ok;
            if (bad) edit(a);
            p.run(a.num_groups, n, a.k, a.nr, a.kr, a.sr, a.rhs, bias.data(), a.scale, a.out, a.extra_bytes,
                  a.null_params ? nullptr : &a.params);
        };
        const std::vector<PreconditionCase> cases = {
            {stride_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_stride(k, bad ? 0 : nr, kr, 1); }},
            {stride_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_stride(bad ? 0 : k, nr, kr, 1); }},
            {stride_fn, file, "kr must be at least 1", [&](bool bad) { (void)p.get_stride(k, nr, bad ? 0 : kr, 1); }},
            {stride_fn, file, "sr must be 1", [&](bool bad) { (void)p.get_stride(k, nr, kr, bad ? 2 : 1); }},
            {offset_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_offset(0, k, bad ? 0 : nr, kr, 1); }},
            {offset_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_offset(nr, bad ? 0 : k, nr, kr, 1); }},
            {offset_fn, file, "n_idx must be a multiple of nr",
             [&](bool bad) { (void)p.get_offset(bad ? nr / 2 : nr, k, nr, kr, 1); }},
            {offset_fn, file, "kr must be at least 1", [&](bool bad) { (void)p.get_offset(nr, k, nr, bad ? 0 : kr, 1); }},
            {offset_fn, file, "sr must be 1", [&](bool bad) { (void)p.get_offset(nr, k, nr, kr, bad ? 2 : 1); }},
            {size_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_size(n, k, bad ? 0 : nr, kr, 1); }},
            {size_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_size(n, bad ? 0 : k, nr, kr, 1); }},
            {size_fn, file, "kr must be at least 1", [&](bool bad) { (void)p.get_size(n, k, nr, bad ? 0 : kr, 1); }},
            {size_fn, file, "sr must be 1", [&](bool bad) { (void)p.get_size(n, k, nr, kr, bad ? 2 : 1); }},
            {run_fn, file, "num_groups must be 1", [&](bool bad) { with(bad, [](Args& a) { a.num_groups = 2; }); }},
            {run_fn, file, "extra_bytes must be 0", [&](bool bad) { with(bad, [](Args& a) { a.extra_bytes = 1; }); }},
            {run_fn, file, "nr must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.nr = 0; }); }},
            {run_fn, file, "kr must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.kr = 0; }); }},
            {run_fn, file, "sr must be 1", [&](bool bad) { with(bad, [](Args& a) { a.sr = 2; }); }},
            {run_fn, file, "k must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.k = 0; }); }},
            {run_fn, file, "kr must divide roundup(k, 32)", [&](bool bad) { with(bad, [](Args& a) { a.kr = 12; }); }},
            {run_fn, file, "params must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.null_params = true; }); }},
            {run_fn, file, "params->lhs_zero_point must be 1",
             [&](bool bad) { with(bad, [](Args& a) { a.params.lhs_zero_point = 0; }); }},
            {run_fn, file, "rhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.rhs = nullptr; }); }},
            {run_fn, file, "scale must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.scale = nullptr; }); }},
            {run_fn, file, "rhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
        };
        expect_preconditions(cases);
    }
}
#endif

// Sizes and offsets that do not fit in size_t abort in every build (release builds without a
// message) instead of wrapping to a small value that a caller would allocate.
TEST(Qsi8cxpSizeDeathTest, SizesThatOverflowAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, SIZE_MAX, 4, 4, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(SIZE_MAX, 32, 4, 4, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(1, SIZE_MAX, 4, 8, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(SIZE_MAX, 32, 4, 8, 1), overflow);
    EXPECT_DEATH((void)kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(SIZE_MAX / 2, 3), overflow);
    std::string not_run;
    for (const Qsi8cxpVariant& v : kai_registry::qsi8cxp_variants()) {
        SCOPED_TRACE(v.name);
        // The SME kernels' getters read the streaming vector length (RDSVL): without SME they
        // cannot be called at all.
        const std::string missing = kai_test::missing_features(v.features & (KAI_FEATURE_SME | KAI_FEATURE_SME2));
        if (!missing.empty()) {
            not_run += std::string(" ") + v.name + " (needs " + missing + ")";
            continue;
        }
        const auto& uk = v.ukernel;
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(uk.get_mr(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(uk.get_nr(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_offset(uk.get_m_step(), uk.get_n_step(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), overflow);
    }
    if (!not_run.empty()) GTEST_SKIP() << "CPU lacks SME for:" << not_run;
}

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors (test/data/compat).
// ------------------------------------------------------------------------------------------

std::vector<std::string> compat_files() {
    std::vector<std::string> files;
    for (const char* prefix : {"kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon__", "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon__",
                               "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod__",
                               "kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod__",
                               "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod__",
                               "kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm__",
                               "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa__",
                               "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot__",
                               "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa__",
                               "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot__"}) {
        for (const auto& f : kai_test::list_compat_vectors(prefix)) files.push_back(f);
    }
    return files;
}

TEST(Compat, EveryVectorOfTheFamilyIsPresent) {
    // 8 nxk (two of them with KleidiAI's SME width nr = 64) + 6 kxn packer files, 6 per NEON kernel, 4 per SME
    // kernel (made at SVL 512).
    EXPECT_EQ(compat_files().size(), 54u);
}

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, Replays) {
    const kai_test::CompatVector cv = kai_test::load_compat_vector(GetParam());
    const std::string& name = cv.str("name");
    const std::string& kind = cv.str("kind");
    const size_t n = cv.size("n"), k = cv.size("k");
    const float* bias = cv.has_section("bias") ? cv.section("bias").f32() : nullptr;
    // The SME vectors say "dynamic" (the kernels' LHS zero point is per row); their RHS was packed with 1.
    const kai_rhs_pack_qsi8cx_params params{
        cv.str("lhs_zero_point") == "dynamic" ? 1 : static_cast<int32_t>(cv.size("lhs_zero_point")), 1.0f};
    if (kind == "rhs_packer") {
        const size_t nr = cv.size("nr"), kr = cv.size("kr"), sr = cv.size("sr");
        const auto& want = cv.section("rhs_packed");
        const bool kxn = name.find("_kxn_") != std::string::npos;
        GuardedBuffer got(want.bytes.size());
        ASSERT_EQ(kxn ? kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(n, k, nr, kr, sr)
                      : kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, sr),
                  want.bytes.size());
        const int8_t* rhs = reinterpret_cast<const int8_t*>(cv.section("rhs").bytes.data());
        if (kxn) {
            kai_run_rhs_pack_kxn_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, sr, rhs, bias, cv.section("scale").f32(), got.data(), 0,
                                                     &params);
        } else {
            kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, sr, rhs, bias, cv.section("scale").f32(), got.data(), 0,
                                                     &params);
        }
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        return;
    }
    // Kernel.
    const Qsi8cxpVariant* v = nullptr;
    for (const auto& x : kai_registry::qsi8cxp_variants())
        if (name == x.name) v = &x;
    ASSERT_NE(v, nullptr) << name << " is not in the registry";
    KAI_TEST_SKIP_UNLESS(v->features);
    if (is_sme(*v)) {
        ASSERT_EQ(cv.str("vector_length"), "svl512");
        ASSERT_TRUE(set_svl(64));
    }
    const auto& uk = v->ukernel;
    const size_t m = cv.size("m");
    EXPECT_EQ(uk.get_m_step(), cv.size("m_step"));
    EXPECT_EQ(uk.get_n_step(), cv.size("n_step"));
    EXPECT_EQ(uk.get_mr(), cv.size("mr"));
    EXPECT_EQ(uk.get_nr(), cv.size("nr"));
    EXPECT_EQ(uk.get_kr(), cv.size("kr"));
    EXPECT_EQ(uk.get_sr(), cv.size("sr"));
    const auto& lp = cv.section("lhs_packed");
    const auto& rp = cv.section("rhs_packed");
    GuardedBuffer lhs_p(lp.bytes.size()), rhs_p(rp.bytes.size());
    std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
    std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
    // The stored packed buffers are what kai's packers make from the stored inputs, too.
    ASSERT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr()), lp.bytes.size());
    std::vector<uint8_t> lhs_mine(lp.bytes.size());
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr(), 0, cv.section("lhs").f32(),
                                       cv.size("lhs_stride"), lhs_mine.data());
    EXPECT_TRUE(kai_test::bytes_equal(lhs_mine.data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
    std::vector<uint8_t> rhs_mine(rp.bytes.size());
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, uk.get_nr(), uk.get_kr(), uk.get_sr(),
                                             reinterpret_cast<const int8_t*>(cv.section("rhs").bytes.data()), bias,
                                             cv.section("scale").f32(), rhs_mine.data(), 0, &params);
    EXPECT_TRUE(kai_test::bytes_equal(rhs_mine.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
    // Whole matrix into a wider-stride NaN buffer, then tile by tile through the offset getters.
    const size_t stride = (n + 3) * 4;
    DstBuffer dst(m, n, 4, stride), tiled(m, n, 4, stride);
    uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), stride, 4, cv.clamp_min(),
                  cv.clamp_max());
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), stride, cv.section("dst").f32(),
                                         n * 4, m, n));
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
    for (size_t m0 = 0; m0 < m; m0 += uk.get_m_step())
        for (size_t n0 = 0; n0 < n; n0 += uk.get_n_step())
            uk.run_matmul(std::min(uk.get_m_step(), m - m0), std::min(uk.get_n_step(), n - n0), k,
                          lhs_p.data() + uk.get_lhs_packed_offset(m0, k), rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                          reinterpret_cast<float*>(tiled.at(0, 0) + uk.get_dst_offset(m0, n0, stride)), stride, 4,
                          cv.clamp_min(), cv.clamp_max());
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), stride, cv.section("dst").f32(),
                                         n * 4, m, n));
    EXPECT_TRUE(tiled.untouched_outside(0, m, 0, n));
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param;
                             const size_t slash = s.find_last_of('/');
                             if (slash != std::string::npos) s = s.substr(slash + 1);
                             s = s.substr(0, s.size() - 4);
                             for (char& c : s)
                                 if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                             return s;
                         });

}  // namespace
