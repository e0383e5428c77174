// SPDX-License-Identifier: Apache-2.0
// Tests of the qai8dxp LHS quantiser and of the matmul_clamp_f32_qai8dxp_qsi4cxp family (RHS
// packers and kernels): byte-exact packers, bit-exact kernels against test/reference (written from
// the spec), KleidiAI v1.30.0 compat vectors, and the end-to-end error against an f64 matmul.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/limits.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/int4_pack_ref.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi4cxp_registry.h"

namespace {

using kai_registry::Qsi4cxpVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

constexpr size_t kKr = 16;
constexpr size_t kSr = 2;

// ------------------------------------------------------------------------------------------
// Inputs.
// ------------------------------------------------------------------------------------------

// LHS rows: random values times a per-row power of two, with the quantiser's edge rows mixed in
// (row % 8): all zeros, constant positive, constant negative, one huge outlier, denormals, exact
// .5 ties of x * scale (range [-101.5, 153.5] gives scale 1), and two random rows.
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

// Packed nibbles of an n x k weight matrix in nxk (or kxn) form, random bytes (unused nibbles too).
std::vector<uint8_t> make_rhs_bytes(size_t n, size_t k, bool kxn, uint64_t seed) {
    const size_t size = kxn ? k * ((n + 1) / 2) : n * ((k + 1) / 2);
    return kai_test::random_bytes(size, seed);
}

std::vector<float> make_scales(size_t n, uint64_t seed) {
    Rng rng(seed);
    std::vector<float> s(n);
    for (auto& v : s) v = rng.uniform(0.002f, 0.05f) * (rng.integer(0, 1) ? 1.0f : -1.0f);
    return s;
}

std::string shape_name(size_t m, size_t n, size_t k) {
    std::ostringstream os;
    os << m << "x" << n << "x" << k;
    return os.str();
}

// Runs kai's LHS packer on rows [0, m) into a buffer of exactly the packed size.
void pack_lhs(size_t m, size_t k, size_t mr, const float* lhs, size_t stride_bytes, GuardedBuffer& out,
              size_t kr = kKr) {
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, kSr, 0, lhs, stride_bytes, out.data());
}

// The quantised LHS that expected values are computed from: test/reference's packer (docs/formats.md, "qai8dxp LHS") run on
// the f32 rows and read back. Expected values must never come from kai's own packer output.
kai_ref::Qai8dxpUnpacked reference_lhs(size_t m, size_t k, size_t mr, const float* lhs, size_t stride_bytes) {
    std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(m, k, mr));
    kai_ref::pack_qai8dxp(m, k, mr, kKr, kSr, 0, lhs, stride_bytes, packed.data());
    return kai_ref::unpack_qai8dxp(packed.data(), m, k, mr, kKr, kSr);
}

void pack_rhs(bool kxn, size_t n, size_t k, size_t nr, const uint8_t* rhs, const float* bias, const float* scale,
              uint8_t zp, void* out, size_t kr = kKr) {
    kai_rhs_pack_qs4cxs1s0_param params{1, zp};
    if (kxn) {
        KAI_ABI(kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(1, n, k, nr, kr, kSr, rhs, bias, scale, out, 0, &params);
    } else {
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(1, n, k, nr, kr, kSr, rhs, bias, scale, out, 0, &params);
    }
}

// ------------------------------------------------------------------------------------------
// LHS quantiser (qai8dxp).
// ------------------------------------------------------------------------------------------

using LhsParam = std::tuple<size_t /*m*/, size_t /*k*/, size_t /*mr*/, size_t /*kr*/, size_t /*sr*/>;

class QuantLhsTest : public ::testing::TestWithParam<LhsParam> {};

TEST_P(QuantLhsTest, ByteExactAgainstReference) {
    const auto [m, k, mr, kr, sr] = GetParam();
    const uint64_t seed = kai_test::seed_from("lhs" + shape_name(m, k, mr) + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride_floats = k + 3;  // row stride wider than the row
    const std::vector<float> lhs = make_lhs(m, k, stride_floats, seed, true);
    const size_t size = KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr);
    ASSERT_EQ(size, kai_ref::qai8dxp_packed_size(m, k, mr));
    GuardedBuffer got(size, 0x5A);
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, lhs.data(), stride_floats * 4, got.data());
    std::vector<uint8_t> want(size, 0x5A);
    kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, lhs.data(), stride_floats * 4, want.data());
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
    // Unwritten lanes of the last block keep the previous contents.
    const std::vector<uint8_t> mask = kai_ref::qai8dxp_written_mask(m, k, mr, kr, sr);
    for (size_t i = 0; i < size; ++i) {
        if (!mask[i]) {
            ASSERT_EQ(got.data()[i], 0x5A) << "byte " << i << " of an unwritten lane changed";
        }
    }
}

TEST_P(QuantLhsTest, RowChunksMatchWholeMatrix) {
    // Threading recipe: packing rows [m0, m) at the packer's offset gives the same bytes.
    const auto [m_param, k, mr, kr, sr] = GetParam();
    const size_t m = m_param + mr;  // always more than one block
    const uint64_t seed = kai_test::seed_from("lhschunk" + shape_name(m, k, mr));
    const std::vector<float> lhs = make_lhs(m, k, k, seed, true);
    const size_t size = KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr);
    std::vector<uint8_t> whole(size, 0), split(size, 0);
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, lhs.data(), k * 4, whole.data());
    const size_t m0 = mr;
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m0, k, mr, kr, sr, 0, lhs.data(), k * 4, split.data());
    const size_t off = KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(m0, k, mr, kr, sr);
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m - m0, k, mr, kr, sr, 0,
                                       lhs.data() + KAI_ABI(kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32)(m0, k * 4) / 4,
                                       k * 4, split.data() + off);
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

TEST_P(QuantLhsTest, RowRangeWithMIdxStartMatchesWholeMatrix) {
    // Rows [m0, m) packed with m_idx_start = m0 into the block get_lhs_packed_offset(m0) gives (the
    // block holding row m0: rounded down when m0 is not a multiple of mr) land in lanes
    // (i + m0) % mr. Alone they write exactly the reference's bytes and nothing else; with rows
    // [0, m0) packed afterwards the buffer is the whole matrix's pack.
    const auto [m_param, k, mr, kr, sr] = GetParam();
    const size_t m = m_param + mr;  // always more than one block
    const uint64_t seed = kai_test::seed_from("lhsrange" + shape_name(m, k, mr) + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride = (k + 3) * 4;
    const std::vector<float> lhs = make_lhs(m, k, k + 3, seed, true);
    const size_t size = KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr);
    GuardedBuffer whole(size, 0x5A);
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, lhs.data(), stride, whole.data());
    // Starts inside a block (when mr > 1) and on block boundaries.
    std::vector<size_t> starts = {1, mr - 1, mr, mr + 1, 2 * mr - 1, m - 1};
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    for (size_t m0 : starts) {
        if (m0 == 0 || m0 >= m) continue;
        SCOPED_TRACE("rows [" + std::to_string(m0) + ", " + std::to_string(m) + ") with m_idx_start " +
                     std::to_string(m0));
        const size_t off = KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(m0, k, mr, kr, sr);
        ASSERT_EQ(off, m0 / mr * kai_ref::qai8dxp_block_stride(k, mr));
        const float* src = lhs.data() + KAI_ABI(kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32)(m0, stride) / 4;
        GuardedBuffer got(size, 0x5A);
        KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m - m0, k, mr, kr, sr, m0, src, stride, got.data() + off);
        std::vector<uint8_t> want(size, 0x5A);
        kai_ref::pack_qai8dxp(m - m0, k, mr, kr, sr, m0, src, stride, want.data() + off);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size)) << "rows [m0, m) alone";
        KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m0, k, mr, kr, sr, 0, lhs.data(), stride, got.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), whole.data(), size)) << "rows [m0, m), then [0, m0)";
    }
}

std::string lhs_param_name(const ::testing::TestParamInfo<LhsParam>& info) {
    const auto [m, k, mr, kr, sr] = info.param;
    return "m" + std::to_string(m) + "_k" + std::to_string(k) + "_mr" + std::to_string(mr) + "_kr" + std::to_string(kr) +
           "_sr" + std::to_string(sr);
}

INSTANTIATE_TEST_SUITE_P(Shapes, QuantLhsTest,
                         ::testing::Values(LhsParam{1, 1, 1, 16, 2}, LhsParam{1, 1, 4, 16, 2}, LhsParam{3, 40, 4, 16, 2},
                                           LhsParam{8, 32, 4, 16, 2}, LhsParam{9, 33, 4, 16, 2}, LhsParam{16, 31, 1, 16, 2},
                                           LhsParam{13, 45, 1, 16, 2}, LhsParam{17, 128, 4, 16, 2},
                                           LhsParam{5, 1031, 4, 16, 2}, LhsParam{7, 64, 4, 8, 2},
                                           LhsParam{6, 100, 4, 16, 1}, LhsParam{5, 77, 3, 4, 1}, LhsParam{2, 1024, 1, 16, 2}),
                         lhs_param_name);

// Unpacks one row packed with mr = 1.
kai_ref::Qai8dxpUnpacked pack_one_row(const std::vector<float>& x) {
    const size_t k = x.size();
    std::vector<uint8_t> buf(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(1, k, 1, kKr, kSr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(1, k, 1, kKr, kSr, 0, x.data(), k * 4, buf.data());
    return kai_ref::unpack_qai8dxp(buf.data(), 1, k, 1, kKr, kSr);
}

TEST(QuantLhsEdge, SpecExampleRow) {
    // docs/formats.md, "qai8dxp LHS": [-1, 0.5, 2, 0] -> scale 85, ZP -43, q = [-128, 0, 127, -43]. The stored scale is
    // 1/85 = 0x3C40C0C1 (0x3BA0A0A1, about 1/204, once printed for this row, was a typo; the
    // compat vectors agree with 0x3C40C0C1's rule).
    const auto u = pack_one_row({-1.0f, 0.5f, 2.0f, 0.0f});
    EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), 0x3C40C0C1u);
    EXPECT_EQ(u.offset[0], 43);
    EXPECT_EQ(u.q[0], -128);
    EXPECT_EQ(u.q[1], 0);
    EXPECT_EQ(u.q[2], 127);
    EXPECT_EQ(u.q[3], -43);
    for (size_t kk = 4; kk < 32; ++kk) EXPECT_EQ(u.q[kk], -43) << "padding repeats the last value";
}

TEST(QuantLhsEdge, AllZeroAndConstantRows) {
    const auto z = pack_one_row(std::vector<float>(37, 0.0f));
    EXPECT_EQ(z.offset[0], -127);
    EXPECT_EQ(z.scale[0], 1.0f);
    for (int8_t q : z.q) EXPECT_EQ(q, 127);
    const auto p = pack_one_row(std::vector<float>(5, 0.8125f));
    EXPECT_EQ(p.offset[0], 128);
    for (int8_t q : p.q) EXPECT_EQ(q, 127);
    const auto n = pack_one_row(std::vector<float>(5, -1.375f));
    EXPECT_EQ(n.offset[0], -127);
    for (int8_t q : n.q) EXPECT_EQ(q, -128);
}

TEST(QuantLhsEdge, TiesRoundDataAwayAndZeroPointToEven) {
    // Range [-101.5, 153.5]: scale 1, zp -26.5 -> ZP -26 (even); 2.5 -> 3 - 26 = -23 (away).
    const auto u = pack_one_row({-101.5f, 153.5f, 2.5f, -2.5f});
    EXPECT_EQ(u.scale[0], 1.0f);
    EXPECT_EQ(u.offset[0], 26);
    EXPECT_EQ(u.q[2], -23);
    EXPECT_EQ(u.q[3], -29);
}

TEST(QuantLhsEdge, OutlierAndDenormalRows) {
    std::vector<float> x(64, 0.25f);
    x[17] = 1.0e30f;
    const auto o = kai_ref::quantize_qai8dx_row(x.data(), x.size());
    const auto u = pack_one_row(x);
    EXPECT_EQ(u.offset[0], -o.zp);
    EXPECT_EQ(u.q[17], 127);
    std::vector<float> d(40);
    for (size_t i = 0; i < d.size(); ++i) d[i] = static_cast<float>(static_cast<int>(i) - 20) * 1.0e-40f;
    const auto ud = pack_one_row(d);
    const auto rd = kai_ref::quantize_qai8dx_row(d.data(), d.size());
    EXPECT_EQ(kai_ref::f32_bits(ud.scale[0]), kai_ref::f32_bits(rd.recip));
    for (size_t i = 0; i < d.size(); ++i) EXPECT_EQ(ud.q[i], rd.q[i]) << i;
}

// Packs `rows` (each of k values) with every packing the kernels use and compares with the
// reference packer byte for byte (data, offsets, scales).
void expect_rows_pack_as_reference(const std::vector<std::vector<float>>& rows, size_t k) {
    std::vector<float> lhs;
    for (const auto& r : rows) lhs.insert(lhs.end(), r.begin(), r.end());
    const size_t m = rows.size();
    for (const auto& [mr, kr, sr] : {std::tuple<size_t, size_t, size_t>{1, 16, 2}, {4, 16, 2}, {4, 8, 2}, {3, 4, 1}}) {
        std::vector<uint8_t> got(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr), 0);
        std::vector<uint8_t> want(kai_ref::qai8dxp_packed_size(m, k, mr), 0);
        ASSERT_EQ(got.size(), want.size());
        KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, lhs.data(), k * 4, got.data());
        kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, lhs.data(), k * 4, want.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), got.size())) << "m " << m << " k " << k << " mr " << mr << " kr " << kr;
    }
}

TEST(QuantLhsEdge, TinyRowsPackAsKleidiAI) {
    // 255 / range overflows (range < 255 / FLT_MAX ~ 7.5e-37): KleidiAI's bytes, derived in
    // docs/matmul_int4_channelwise.md: data 127 for x != 0, -128 for +-0; offset 128; scale 0.
    for (size_t k : {5, 40, 100}) {
        std::vector<std::vector<float>> rows;
        std::vector<float> mixed(k), pos(k), neg(k);
        for (size_t i = 0; i < k; ++i) {
            const float mag = 1.0e-40f * static_cast<float>(i % 7);
            mixed[i] = (i % 3 == 0 ? -1.0f : 1.0f) * mag;
            pos[i] = 3.0e-37f * static_cast<float>(i % 2);  // range 3e-37: still below 7.5e-37
            neg[i] = i % 5 == 1 ? -0.0f : -1.0e-45f * static_cast<float>(1 + i % 3);
        }
        for (const auto& x : {mixed, pos, neg}) {
            const auto u = pack_one_row(x);
            EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), 0u) << k;
            EXPECT_EQ(u.offset[0], 128) << k;
            for (size_t i = 0; i < u.kp; ++i) {
                const float v = x[i < k ? i : k - 1];
                EXPECT_EQ(u.q[i], v != 0.0f ? 127 : -128) << "k " << k << " i " << i;
            }
            rows.push_back(x);
        }
        expect_rows_pack_as_reference(rows, k);
    }
    // The boundary: a range of 255 / FLT_MAX rounded up keeps a finite multiplier.
    const float edge = 7.6e-37f;
    const auto u = pack_one_row({-edge, 0.0f, edge * 0.5f});
    EXPECT_NE(kai_ref::f32_bits(u.scale[0]), 0u);
    EXPECT_NE(u.offset[0], 128);
}

TEST(QuantLhsEdge, RowsWhoseRangeOverflowsPackAsKleidiAI) {
    // KleidiAI's bytes (test/data/compat/*__special_*): rmax - rmin = inf, so the
    // multiplier is 255 / inf = 0, the stored scale 0, ZP = 127 - 0 and every datum 0 + 127:
    // data 127, offset -127, scale 0 (the row's outputs are the bias).
    for (size_t k : {3, 40, 77}) {
        std::vector<float> x(k);
        for (size_t i = 0; i < k; ++i) x[i] = (i % 2 == 0 ? 3.39e38f : -3.39e38f) * (static_cast<float>(1 + i % 3) / 3.0f);
        x[0] = 3.39e38f;
        x[1] = -3.39e38f;
        const auto u = pack_one_row(x);
        EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), 0u) << k;
        EXPECT_EQ(u.offset[0], -127) << k;
        for (size_t i = 0; i < u.kp; ++i) EXPECT_EQ(u.q[i], 127) << "k " << k << " i " << i;
        expect_rows_pack_as_reference({x}, k);
    }
    // One-sided huge rows: the range does not overflow, the usual formula applies.
    expect_rows_pack_as_reference({std::vector<float>(40, 3.0e38f), std::vector<float>(40, -FLT_MAX)}, 40);
}

TEST(QuantLhsEdge, ConstantAndSignedZeroRows) {
    // +-0 rows are the all-zero row (rmin == rmax): scale 1, offset -127, data 127.
    for (size_t k : {1, 33, 64}) {
        std::vector<float> z(k, 0.0f), nz(k, -0.0f), mix(k);
        for (size_t i = 0; i < k; ++i) mix[i] = i % 2 ? -0.0f : 0.0f;
        for (const auto& x : {z, nz, mix}) {
            const auto u = pack_one_row(x);
            EXPECT_EQ(u.scale[0], 1.0f);
            EXPECT_EQ(u.offset[0], -127);
            for (size_t i = 0; i < u.kp; ++i) EXPECT_EQ(u.q[i], 127) << i;
        }
        expect_rows_pack_as_reference({z, nz, mix, std::vector<float>(k, 2.5f), std::vector<float>(k, -1.0e-3f)}, k);
    }
}

TEST(QuantLhsEdge, ZeroPointTiesRoundToEvenBothWays) {
    // Scale 1 (range 255); the zero point is exactly n + 0.5, from either branch of step 6:
    // [rmin, rmax] -> zp: [-154.5, 100.5] -> 26.5 -> 26; [-101.5, 153.5] -> -26.5 -> -26;
    // [-155.5, 99.5] -> 27.5 -> 28; [-100.5, 154.5] -> -27.5 -> -28. Rounding away, down, up or
    // toward zero each gets at least one of them wrong.
    const struct {
        float lo, hi;
        int32_t offset;
    } cases[] = {{-154.5f, 100.5f, -26}, {-101.5f, 153.5f, 26}, {-155.5f, 99.5f, -28}, {-100.5f, 154.5f, 28}};
    for (const auto& c : cases) {
        for (size_t k : {2, 40}) {
            std::vector<float> x(k, 0.5f);
            x[0] = c.lo;
            x[k - 1] = c.hi;
            const auto u = pack_one_row(x);
            EXPECT_EQ(u.scale[0], 1.0f);
            EXPECT_EQ(u.offset[0], c.offset) << c.lo << " " << c.hi;
            // Data ties go away from zero: 0.5 -> 1.
            if (k > 2) EXPECT_EQ(u.q[1], 1 - c.offset);
            expect_rows_pack_as_reference({x}, k);
        }
    }
}

TEST(QuantWeights, ReferenceQuantiserRoundTrips) {
    // quantize_qs4cx_nxk (the recipe in docs/matmul_int4_channelwise.md): |w - q * scale| <= scale / 2.
    const size_t n = 7, k = 45;
    const auto w = kai_test::random_f32(n * k, -3.0f, 3.0f, 99);
    std::vector<float> scales(n);
    const auto bytes = kai_ref::quantize_qs4cx_nxk(w.data(), n, k, scales.data());
    const auto q = kai_ref::qs4_nxk_values(bytes.data(), n, k, 8);
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk)
            EXPECT_LE(std::fabs(w[j * k + kk] - static_cast<float>(q[j * k + kk]) * scales[j]), scales[j] * 0.5f + 1e-6f);
}

TEST(QuantLhsEdge, NonFiniteRowsPackAsKleidiAI) {
    // KleidiAI's bytes (docs/reliability.md "Special inputs"): an infinity makes the
    // multiplier 255 / inf = 0 and the stored scale 0; ZP is 127 - 0 = 127 for -inf with a finite
    // maximum (data 127, offset -127) and NaN -> -128 otherwise (data -128, offset 128).
    const float inf = std::numeric_limits<float>::infinity();
    struct Case {
        std::vector<float> x;
        int8_t q;
        int32_t offset;
    };
    const std::vector<Case> cases = {
        {{1.0f, inf, 2.0f}, -128, 128}, {{-inf, 0.5f}, 127, -127}, {{inf, -inf}, -128, 128}, {{-inf}, 127, -127}};
    for (const Case& c : cases) {
        for (size_t len : {c.x.size(), size_t{40}, size_t{77}}) {  // also through the NEON paths
            std::vector<float> x = c.x;
            x.resize(len, 0.5f);
            const auto u = pack_one_row(x);
            EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), 0u) << len;
            EXPECT_EQ(u.offset[0], c.offset) << len;
            for (size_t i = 0; i < u.kp; ++i) EXPECT_EQ(u.q[i], c.q) << "len " << len << " i " << i;
            expect_rows_pack_as_reference({x}, len);
        }
    }
    // A NaN: skipped by the scalar part of KleidiAI's range, range [0, 0] (scale 1, ZP 127) when it
    // reaches the NEON part's result; either way a finite quantisation, the reference's.
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    for (size_t len : {3u, 40u, 45u, 77u}) {
        for (size_t pos : {size_t{0}, len / 2, len - 1}) {
            std::vector<float> x(len);
            for (size_t i = 0; i < len; ++i) x[i] = static_cast<float>(static_cast<int>(i % 11) - 5) * 0.75f;
            x[len / 3] = 4.0e4f;  // |x * scale| > 32767 once the scale is 1: int16 and int32 paths differ
            x[pos] = qnan;
            const auto u = pack_one_row(x);
            EXPECT_TRUE(std::isfinite(u.scale[0])) << len << " " << pos;
            expect_rows_pack_as_reference({x}, len);
        }
    }
    const auto all_nan = pack_one_row(std::vector<float>(24, qnan));
    EXPECT_EQ(all_nan.scale[0], 1.0f);
    EXPECT_EQ(all_nan.offset[0], -127);
    for (int8_t q : all_nan.q) EXPECT_EQ(q, 127);
}

TEST(QuantLhsEdge, SpecialRowVectorsFromKleidiAIMatchTheReference) {
    // The reference models KleidiAI's arithmetic on the special rows of the recorded vectors (the
    // kernel-side replay is CompatTest.Replays).
    EXPECT_TRUE(kai_test::lhs_pack_matches_vectors(
        "kai_lhs_quant_pack_qai8dxp_f32__special_", 4,
        [](size_t m, size_t k, size_t mr, size_t kr, size_t sr, const uint8_t* lhs, size_t stride, uint8_t* out) {
            kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, reinterpret_cast<const float*>(lhs), stride, out);
        }));
}

TEST(QuantLhsEdge, OffsetsAndSizes) {
    EXPECT_EQ(kai_get_m_step_lhs_quant_pack_qai8dxp_f32(4), 4u);
    EXPECT_EQ(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(4, 40, 4, 16, 2), 288u);
    EXPECT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(3, 40, 4, 16, 2), 288u);
    EXPECT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(3, 40, 1, 16, 2), 216u);
    EXPECT_EQ(kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32(3, 100), 300u);
    // m == 0 writes nothing.
    uint8_t byte = 0x77;
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(0, 8, 4, 16, 2, 0, nullptr, 32, &byte);
    EXPECT_EQ(byte, 0x77);
}

// ------------------------------------------------------------------------------------------
// RHS packers.
// ------------------------------------------------------------------------------------------

using RhsParam = std::tuple<bool /*kxn*/, size_t /*n*/, size_t /*k*/, size_t /*nr*/, uint8_t /*zp*/, bool /*bias*/>;

class RhsPackTest : public ::testing::TestWithParam<RhsParam> {};

TEST_P(RhsPackTest, ByteExactAgainstReference) {
    const auto [kxn, n, k, nr, zp, has_bias] = GetParam();
    const uint64_t seed = kai_test::seed_from("rhs" + shape_name(n, k, nr) + (kxn ? "kxn" : "nxk") + std::to_string(zp));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto bytes = make_rhs_bytes(n, k, kxn, seed);
    const auto scale = make_scales(n, seed + 1);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    const float* b = has_bias ? bias.data() : nullptr;
    const size_t size = kxn ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr)
                            : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr);
    ASSERT_EQ(size, kai_ref::qsi4cxp_packed_size(n, k, nr));
    GuardedBuffer got(size);
    pack_rhs(kxn, n, k, nr, bytes.data(), b, scale.data(), zp, got.data());
    const auto want = kxn ? kai_ref::pack_qsi4cxp_kxn(n, k, nr, kKr, kSr, bytes.data(), b, scale.data(), zp)
                          : kai_ref::pack_qsi4cxp_nxk(n, k, nr, kKr, kSr, bytes.data(), b, scale.data(), zp);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(RhsPackTest, ColumnChunksAndLayoutsAgree) {
    // nxk: packing channels [nr, n) at the packer's offsets gives the whole matrix's bytes (the
    // threading recipe). kxn: the transposed input packs to the nxk bytes (n a multiple of nr, so
    // no padded lanes, whose kxn bytes differ by design).
    const auto [kxn, n_param, k, nr, zp, has_bias] = GetParam();
    const size_t n = kxn ? kai_roundup(n_param, nr) : n_param + nr;
    const uint64_t seed = kai_test::seed_from("rhschunk" + shape_name(n, k, nr));
    const auto bytes = make_rhs_bytes(n, k, false, seed);
    const auto scale = make_scales(n, seed + 1);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    const float* b = has_bias ? bias.data() : nullptr;
    const size_t size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr);
    std::vector<uint8_t> whole(size), other(size);
    pack_rhs(false, n, k, nr, bytes.data(), b, scale.data(), zp, whole.data());
    if (kxn) {
        const size_t row = (n + 1) / 2;
        std::vector<uint8_t> t(k * row, 0);
        const auto w = kai_ref::qs4_nxk_values(bytes.data(), n, k, zp);
        for (size_t kk = 0; kk < k; ++kk)
            for (size_t j = 0; j < n; ++j) {
                const uint8_t nib = static_cast<uint8_t>((w[j * k + kk] + (zp == 8 ? 8 : 0)) & 0x0F);
                t[kk * row + j / 2] |= static_cast<uint8_t>(j % 2 ? nib << 4 : nib);
            }
        pack_rhs(true, n, k, nr, t.data(), b, scale.data(), zp, other.data());
    } else {
        const size_t n0 = nr;
        pack_rhs(false, n0, k, nr, bytes.data(), b, scale.data(), zp, other.data());
        const size_t src_off = KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n0, (k + 1) / 2);
        const size_t dst_off = KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n0, k, nr, kKr, kSr);
        pack_rhs(false, n - n0, k, nr, bytes.data() + src_off, b ? b + n0 : nullptr, scale.data() + n0, zp,
                 other.data() + dst_off);
    }
    EXPECT_TRUE(kai_test::bytes_equal(other.data(), whole.data(), size));
}

TEST_P(RhsPackTest, ColumnRangesMatchSliceOfWholePack) {
    // Columns [n0, n), n0 a multiple of the packer's n step, packed on their own at
    // get_rhs_packed_offset(n0) give exactly that slice of the whole pack, padded lanes included
    // (n0 is even, so kxn's padding reads the same nibble as in the whole matrix), and write nothing
    // before it. The kxn packer takes no row stride, so columns [n0, n) of the K x N input are first
    // copied into a K x (n - n0) matrix of their own; nxk rows are contiguous.
    const auto [kxn, n_param, k, nr, zp, has_bias] = GetParam();
    const size_t n = n_param + nr;  // always more than one block
    const uint64_t seed =
        kai_test::seed_from("rhsrange" + shape_name(n, k, nr) + (kxn ? "kxn" : "nxk") + std::to_string(zp));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const auto bytes = make_rhs_bytes(n, k, kxn, seed);
    const auto scale = make_scales(n, seed + 1);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    const float* b = has_bias ? bias.data() : nullptr;
    const size_t step =
        kxn ? KAI_ABI(kai_get_n_step_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(nr) : KAI_ABI(kai_get_n_step_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(nr);
    ASSERT_EQ(step % 2, 0u);
    const size_t size = kxn ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr)
                            : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr);
    GuardedBuffer whole(size);
    pack_rhs(kxn, n, k, nr, bytes.data(), b, scale.data(), zp, whole.data());
    const auto ref = kxn ? kai_ref::pack_qsi4cxp_kxn(n, k, nr, kKr, kSr, bytes.data(), b, scale.data(), zp)
                         : kai_ref::pack_qsi4cxp_nxk(n, k, nr, kKr, kSr, bytes.data(), b, scale.data(), zp);
    ASSERT_TRUE(kai_test::bytes_equal(whole.data(), ref.data(), size)) << "whole pack";
    for (size_t n0 = step; n0 < n; n0 += step) {
        const size_t nw = n - n0;
        SCOPED_TRACE("columns [" + std::to_string(n0) + ", " + std::to_string(n) + ")");
        std::vector<uint8_t> part;  // the input of columns [n0, n) alone
        if (kxn) {
            const size_t row = (n + 1) / 2, part_row = (nw + 1) / 2;
            const size_t col_off = KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n0, row);
            ASSERT_EQ(col_off + part_row, row);
            part.resize(k * part_row);
            for (size_t kk = 0; kk < k; ++kk)
                std::memcpy(part.data() + kk * part_row, bytes.data() + kk * row + col_off, part_row);
        } else {
            const size_t row_off = KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n0, (k + 1) / 2);
            part.assign(bytes.begin() + static_cast<std::ptrdiff_t>(row_off), bytes.end());
        }
        const size_t off = kxn ? KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n0, k, nr, kKr, kSr)
                               : KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n0, k, nr, kKr, kSr);
        ASSERT_EQ(off, n0 / nr * kai_ref::qsi4cxp_block_stride(k, nr));
        GuardedBuffer got(size, 0x5A);
        pack_rhs(kxn, nw, k, nr, part.data(), b ? b + n0 : nullptr, scale.data() + n0, zp, got.data() + off);
        EXPECT_TRUE(kai_test::bytes_equal(got.data() + off, whole.data() + off, size - off))
            << "slice of the whole pack";
        const std::vector<uint8_t> fill(off, 0x5A);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), fill.data(), off)) << "bytes before the slice";
    }
}

std::vector<RhsParam> rhs_params() {
    std::vector<RhsParam> p;
    const std::vector<std::pair<size_t, size_t>> shapes = {{1, 1}, {5, 40}, {4, 32}, {7, 33}, {9, 65},
                                                           {16, 64}, {13, 45}, {3, 1024}, {11, 1055}, {8, 8230}};
    // Every (layout, shape, nr) runs once with and once without bias (alternating with zp), so both
    // meet padded (n % nr != 0) and unpadded n. nr = 20 (no kernel uses it; the packers take any nr)
    // goes through the generic path with blocks wider than 16 lanes.
    for (bool kxn : {false, true})
        for (size_t si = 0; si < shapes.size(); ++si)
            for (size_t nr : {4, 8, 20})
                for (uint8_t zp : {uint8_t{0}, uint8_t{8}})
                    p.emplace_back(kxn, shapes[si].first, shapes[si].second, nr, zp, (zp == 8) != (si % 2 == 1));
    return p;
}

std::string rhs_param_name(const ::testing::TestParamInfo<RhsParam>& info) {
    const auto [kxn, n, k, nr, zp, b] = info.param;
    return std::string(kxn ? "kxn" : "nxk") + "_n" + std::to_string(n) + "_k" + std::to_string(k) + "_nr" +
           std::to_string(nr) + "_zp" + std::to_string(zp) + (b ? "_bias" : "_nobias");
}

INSTANTIATE_TEST_SUITE_P(Shapes, RhsPackTest, ::testing::ValuesIn(rhs_params()), rhs_param_name);

TEST(RhsPack, SpecOffsetsAndStrides) {
    EXPECT_EQ(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(40, 4, 16, 2), 176u);
    EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(4, 40, 4, 16, 2), 176u);
    EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(5, 40, 4, 16, 2), 352u);
    EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(5, 40, 8, 16, 2), 352u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(6, 123), 3u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(6, 20), 120u);
    EXPECT_EQ(kai_get_n_step_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(8), 8u);
    EXPECT_EQ(kai_get_n_step_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(4), 4u);
}

TEST(RhsPack, SignedAndUnsignedNibblesPackTheSameValues) {
    // The same values given as unsigned (value + 8) and signed nibbles pack to the same bytes.
    const size_t n = 9, k = 70, nr = 8;
    const auto uns = make_rhs_bytes(n, k, false, 42);
    std::vector<uint8_t> sgn(uns.size());
    for (size_t i = 0; i < uns.size(); ++i) sgn[i] = uns[i] ^ 0x88;
    const auto scale = make_scales(n, 43);
    const size_t size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kKr, kSr);
    std::vector<uint8_t> a(size), b(size);
    pack_rhs(false, n, k, nr, uns.data(), nullptr, scale.data(), 8, a.data());
    pack_rhs(false, n, k, nr, sgn.data(), nullptr, scale.data(), 0, b.data());
    EXPECT_TRUE(kai_test::bytes_equal(a.data(), b.data(), size));
}

// ------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------

struct Shape {
    size_t m, n, k;
};

enum class Portion { kFull, kFirstTile, kLastTiles, kMiddle };
// kRelu: [0, +FLT_MAX] (only the lower bound is finite); kMaxOnly: [-FLT_MAX, 60 % quantile].
enum class Clamp { kNone, kBites, kInverted, kRelu, kMaxOnly };

using MatmulParam = std::tuple<size_t /*variant*/, Shape, Portion, Clamp, bool /*bias*/, bool /*kxn*/, uint8_t /*zp*/>;

const Qsi4cxpVariant& variant(size_t i) { return kai_registry::qsi4cxp_variants().at(i); }

// The SME / SME2 kernels read their own RHS layout ("qsi4cxps1s0 RHS") at a vector length set per test: they have
// their own section below ("SME / SME2 kernels"); every other kernel test takes the NEON variants.
bool is_sme(const Qsi4cxpVariant& v) { return (v.features & (KAI_FEATURE_SME | KAI_FEATURE_SME2)) != 0; }

// Sets this thread's SVL (bytes); fails when the CPU does not take it.
::testing::AssertionResult set_svl(size_t bytes) {
    if (kai_test::set_sme_vector_length(bytes)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "cannot set the SVL to " << bytes << " bytes";
}

std::vector<size_t> neon_variants() {
    std::vector<size_t> out;
    for (size_t vi = 0; vi < kai_registry::qsi4cxp_variants().size(); ++vi)
        if (!is_sme(variant(vi))) out.push_back(vi);
    return out;
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

class MatmulTest : public ::testing::TestWithParam<MatmulParam> {};

TEST_P(MatmulTest, BitExactOnSubTile) {
    const auto [vi, shape, portion, clamp, has_bias, kxn, zp] = GetParam();
    const Qsi4cxpVariant& v = variant(vi);
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = shape.m, n = shape.n, k = shape.k;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    ASSERT_TRUE(kr == 16 || kr == 8) << kr;  // kbl = 8 or 4
    ASSERT_EQ(sr, kSr);
    ASSERT_EQ(KAI_ABI(uk.get_m_step)() % mr, 0u);
    ASSERT_EQ(KAI_ABI(uk.get_n_step)() % nr, 0u);
    const uint64_t seed = kai_test::seed_from(std::string(v.name) + shape_name(m, n, k));
    SCOPED_TRACE(kai_test::seed_trace(seed));

    const std::vector<float> lhs = make_lhs(m, k, k, seed, true);
    const auto bytes = make_rhs_bytes(n, k, kxn, seed + 1);
    const auto scale = make_scales(n, seed + 2);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
    const float* b = has_bias ? bias.data() : nullptr;

    size_t m0, mh, n0, nw;
    portion_rect(portion, m, n, KAI_ABI(uk.get_m_step)(), KAI_ABI(uk.get_n_step)(), &m0, &mh, &n0, &nw);

    // Pack the whole matrices into buffers of exactly the packed size (guard pages after them).
    GuardedBuffer lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    pack_lhs(m, k, mr, lhs.data(), k * 4, lhs_p, KAI_ABI(uk.get_kr)());
    const size_t rhs_size = KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, kr, sr);
    GuardedBuffer rhs_p(rhs_size);
    pack_rhs(kxn, n, k, nr, bytes.data(), b, scale.data(), zp, rhs_p.data(), uk.get_kr());

    // Reference on the full matrix from the reference packer's LHS (not kai's packed LHS).
    const auto lhs_u = reference_lhs(m, k, mr, lhs.data(), k * 4);
    const auto w = kxn ? kai_ref::qs4_kxn_values(bytes.data(), n, k, zp) : kai_ref::qs4_nxk_values(bytes.data(), n, k, zp);
    float cmin = -FLT_MAX, cmax = FLT_MAX;
    const auto unclamped = kai_ref::matmul_qai8dxp_qsi4cx(lhs_u, n, k, w.data(), scale.data(), b, cmin, cmax);
    if (clamp != Clamp::kNone) {
        std::vector<float> sorted = unclamped;
        std::sort(sorted.begin(), sorted.end());
        cmin = sorted[sorted.size() / 5];
        cmax = sorted[sorted.size() * 4 / 5];
        if (clamp == Clamp::kInverted) std::swap(cmin, cmax);  // min > max: the result is max
        if (clamp == Clamp::kRelu) {
            cmin = 0.0f;
            cmax = FLT_MAX;
        }
        if (clamp == Clamp::kMaxOnly) {
            cmin = -FLT_MAX;
            cmax = sorted[sorted.size() * 3 / 5];
        }
    }
    const auto want = kai_ref::matmul_qai8dxp_qsi4cx(lhs_u, n, k, w.data(), scale.data(), b, cmin, cmax);

    // Offsets of the kernel equal the packers'.
    ASSERT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(m0, k), KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(m0, k, mr, kr, sr));
    ASSERT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(n0, k), KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n0, k, nr, kr, sr));
    ASSERT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(n0, k), KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n0, k, nr, kr, sr));
    ASSERT_EQ(KAI_ABI(uk.get_dst_size)(m, n), m * n * 4);

    const size_t stride = (n + 5) * 4;  // wider than a row
    DstBuffer dst(m, n, 4, stride);
    const size_t dst_off = KAI_ABI(uk.get_dst_offset)(m0, n0, stride);
    ASSERT_EQ(dst_off, m0 * stride + n0 * 4);
    KAI_ABI(uk.run_matmul)(mh, nw, k, lhs_p.data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, k), rhs_p.data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, k),
                  reinterpret_cast<float*>(dst.at(0, 0) + dst_off), stride, 4, cmin, cmax);

    std::vector<float> want_tile(mh * nw);
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j) want_tile[i * nw + j] = want[(m0 + i) * n + n0 + j];
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(m0, n0)), stride, want_tile.data(), nw * 4,
                                         mh, nw));
    EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw));
}

std::vector<Shape> matmul_shapes() {
    return {{1, 1, 1},   {3, 5, 40},    {7, 3, 31},   {8, 4, 32},   {9, 9, 33},   {16, 8, 64},
            {15, 7, 63}, {17, 17, 65},  {13, 33, 23}, {31, 29, 96}, {33, 12, 45}, {4, 35, 1024}};
}

std::vector<MatmulParam> matmul_params() {
    std::vector<MatmulParam> p;
    const size_t nv = kai_registry::qsi4cxp_variants().size();
    for (size_t vi = 0; vi < nv; ++vi) {
        if (is_sme(variant(vi))) continue;
        const bool gemv = variant(vi).ukernel.get_m_step() == 1;
        size_t si = 0;
        for (const Shape& s : matmul_shapes()) {
            Shape sh = s;
            if (gemv && si % 3 == 0) sh.m = 1;  // GEMV kernels: mostly m = 1 decode, some m > 1
            for (Portion portion : {Portion::kFull, Portion::kFirstTile, Portion::kLastTiles, Portion::kMiddle}) {
                const size_t c = si + static_cast<size_t>(portion);
                // Every variant meets every kind (c runs over 0..14).
                static const Clamp kinds[] = {Clamp::kNone,     Clamp::kBites,   Clamp::kRelu,
                                              Clamp::kInverted, Clamp::kMaxOnly, Clamp::kBites};
                const Clamp clamp = kinds[c % 6];
                p.emplace_back(vi, sh, portion, clamp, c % 2 == 0, c % 3 == 1, static_cast<uint8_t>(c % 5 == 2 ? 0 : 8));
            }
            ++si;
        }
        // A long K through the full kernel.
        p.emplace_back(vi, Shape{gemv ? size_t{1} : size_t{19}, 21, 2111}, Portion::kFull, Clamp::kBites, true, false, uint8_t{8});
        // K of real models and past 16384 (every path of the K loops), on M = 1 or mr + 1 and N = nr + 1; the
        // reduced sweep keeps the deepest.
        const size_t mr = variant(vi).ukernel.get_mr(), nr = variant(vi).ukernel.get_nr();
        for (size_t k : kai_test::reduced_sweep() ? std::vector<size_t>{16448} : std::vector<size_t>{4096, 11008, 16448}) {
            p.emplace_back(vi, Shape{gemv ? size_t{1} : mr + 1, nr + 1, k}, Portion::kFull, Clamp::kBites, k % 2 == 0,
                           k == 11008, uint8_t{8});
        }
    }
    return p;
}

std::string matmul_param_name(const ::testing::TestParamInfo<MatmulParam>& info) {
    const auto [vi, s, portion, clamp, b, kxn, zp] = info.param;
    std::string name = variant(vi).name;
    name = name.substr(std::string("kai_matmul_clamp_f32_").size());
    static const char* portions[] = {"full", "first", "last", "middle"};
    static const char* clamps[] = {"noclamp", "clamp", "invclamp", "reluclamp", "maxonlyclamp"};
    return name + "_" + shape_name(s.m, s.n, s.k) + "_" + portions[static_cast<int>(portion)] + "_" +
           clamps[static_cast<int>(clamp)] + (b ? "_bias" : "_nobias") + (kxn ? "_kxn" : "_nxk") + "_zp" +
           std::to_string(zp) + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Variants, MatmulTest, ::testing::ValuesIn(matmul_params()), matmul_param_name);

// Each variant at its internal limits (test/common/limits.cc: the unpacked-RHS buffer of the I8MM GEMMs, the
// GEMVs' K passes) at limit - 1, limit and limit + 1, in both sweeps: the whole call, bias, no clamp.
std::vector<MatmulParam> limit_matmul_params() {
    std::vector<MatmulParam> p;
    for (size_t vi : neon_variants()) {
        for (const kai_test::LimitCase& l : kai_test::limit_cases(variant(vi).name)) {
            p.emplace_back(vi, Shape{l.m, l.n, l.k}, Portion::kFull, Clamp::kNone, true, false, uint8_t{8});
        }
    }
    return p;
}

INSTANTIATE_TEST_SUITE_P(Limits, MatmulTest, ::testing::ValuesIn(limit_matmul_params()), matmul_param_name);

class MatmulVariantTest : public ::testing::TestWithParam<size_t> {};

TEST_P(MatmulVariantTest, TiledRunEqualsFullRun) {
    // Threading recipe of docs/formats.md, "Tiles, offsets and threading": every m_step x n_step tile through the offset getters.
    const Qsi4cxpVariant& v = variant(GetParam());
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = KAI_ABI(uk.get_m_step)() == 1 ? 3 : 37, n = 27, k = 77;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)();
    const auto lhs = make_lhs(m, k, k, 7, true);
    const auto bytes = make_rhs_bytes(n, k, false, 8);
    const auto scale = make_scales(n, 9);
    GuardedBuffer lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kKr, kSr));
    pack_lhs(m, k, mr, lhs.data(), k * 4, lhs_p, uk.get_kr());
    GuardedBuffer rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kKr, kSr));
    pack_rhs(false, n, k, nr, bytes.data(), nullptr, scale.data(), 8, rhs_p.data(), uk.get_kr());
    DstBuffer full(m, n, 4, n * 4), tiled(m, n, 4, n * 4);
    KAI_ABI(uk.run_matmul)(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(full.at(0, 0)), n * 4, 4, -FLT_MAX, FLT_MAX);
    for (size_t m0 = 0; m0 < m; m0 += KAI_ABI(uk.get_m_step)())
        for (size_t n0 = 0; n0 < n; n0 += KAI_ABI(uk.get_n_step)())
            KAI_ABI(uk.run_matmul)(std::min(KAI_ABI(uk.get_m_step)(), m - m0), std::min(KAI_ABI(uk.get_n_step)(), n - n0), k,
                          lhs_p.data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, k), rhs_p.data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, k),
                          reinterpret_cast<float*>(tiled.at(0, 0) + KAI_ABI(uk.get_dst_offset)(m0, n0, n * 4)), n * 4, 4, -FLT_MAX,
                          FLT_MAX);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), n * 4,
                                         reinterpret_cast<const float*>(full.at(0, 0)), n * 4, m, n));
}

TEST_P(MatmulVariantTest, EmptyShapesWriteNothing) {
    const Qsi4cxpVariant& v = variant(GetParam());
    KAI_TEST_SKIP_UNLESS(v.features);
    DstBuffer dst(2, 2, 4, 8);
    KAI_ABI(v.ukernel.run_matmul)(0, 2, 8, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 8, 4, -FLT_MAX, FLT_MAX);
    KAI_ABI(v.ukernel.run_matmul)(2, 0, 8, nullptr, nullptr, reinterpret_cast<float*>(dst.at(0, 0)), 8, 4, -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

TEST_P(MatmulVariantTest, NonFiniteLhsRowGivesTheBiasAsKleidiAI) {
    const Qsi4cxpVariant& v = variant(GetParam());
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = 3, n = 5, k = 40, mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)();
    auto lhs = make_lhs(m, k, k, 11, false);
    lhs[1 * k + 7] = std::numeric_limits<float>::infinity();
    const auto bytes = make_rhs_bytes(n, k, false, 12);
    const auto scale = make_scales(n, 13);
    GuardedBuffer lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kKr, kSr));
    pack_lhs(m, k, mr, lhs.data(), k * 4, lhs_p, uk.get_kr());
    GuardedBuffer rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kKr, kSr));
    pack_rhs(false, n, k, nr, bytes.data(), nullptr, scale.data(), 8, rhs_p.data(), uk.get_kr());
    DstBuffer dst(m, n, 4, n * 4);
    KAI_ABI(uk.run_matmul)(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX, FLT_MAX);
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

// End-to-end error of f32 -> quantise -> matmul against an f64 matmul of the f32 LHS with the
// dequantised weights w * scale. Bound (derived in docs/matmul_int4_channelwise.md, "Numerics"):
//   |y - y64| <= 1.01 * ls_i * sum_k |w_jk * scale_j| + 8 * eps_f32 * (sum_k |x_ik * w_jk * scale_j| + |b_j|)
// The first term is the int8 quantisation of x: at most one step ls_i = 1/scale_i per element (half a
// step from rounding, plus at most half a step where the rounded zero point makes the range end clamp).
// The second covers the f32 epilogue (conversion, two products, one sum: 4 roundings) with margin.
TEST_P(MatmulVariantTest, EndToEndErrorWithinDerivedBound) {
    const Qsi4cxpVariant& v = variant(GetParam());
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t m = KAI_ABI(uk.get_m_step)() == 1 ? 2 : 21, n = 19, k = 300, mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)();
    const auto lhs = make_lhs(m, k, k, 21, true);
    const auto bytes = make_rhs_bytes(n, k, false, 22);
    const auto scale = make_scales(n, 23);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 24);
    GuardedBuffer lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kKr, kSr));
    pack_lhs(m, k, mr, lhs.data(), k * 4, lhs_p, uk.get_kr());
    GuardedBuffer rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kKr, kSr));
    pack_rhs(false, n, k, nr, bytes.data(), bias.data(), scale.data(), 8, rhs_p.data(), uk.get_kr());
    DstBuffer dst(m, n, 4, n * 4);
    KAI_ABI(uk.run_matmul)(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -FLT_MAX, FLT_MAX);

    const auto w = kai_ref::qs4_nxk_values(bytes.data(), n, k, 8);
    std::vector<float> wdq(k * n);  // K x N dequantised weights
    for (size_t j = 0; j < n; ++j)
        for (size_t kk = 0; kk < k; ++kk) wdq[kk * n + j] = static_cast<float>(w[j * k + kk]) * scale[j];
    std::vector<double> y64(m * n);
    kai_ref::matmul_f64(m, n, k, lhs.data(), k, wdq.data(), n, y64.data());
    const auto lhs_u = reference_lhs(m, k, mr, lhs.data(), k * 4);  // the bound's ls_i, not from kai
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

#ifndef NDEBUG
TEST_P(MatmulVariantTest, PreconditionsAbortWithMessage) {
    const Qsi4cxpVariant& v = variant(GetParam());
    const auto& uk = v.ukernel;
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    if (KAI_ABI(uk.get_mr)() > 1) {
        EXPECT_DEATH(KAI_ABI(uk.get_lhs_packed_offset)(1, 32), "m_idx must be a multiple of mr");
    }
    EXPECT_DEATH(KAI_ABI(uk.get_rhs_packed_offset)(1, 32), "n_idx must be a multiple of nr");
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 1, 32, nullptr, nullptr, nullptr, 4, 8, 0.0f, 1.0f), "dst_stride_col must be sizeof");
}
#endif

std::string variant_param_name(const ::testing::TestParamInfo<size_t>& info) {
    return std::string(variant(info.param).name).substr(std::string("kai_matmul_clamp_f32_").size());
}

INSTANTIATE_TEST_SUITE_P(Variants, MatmulVariantTest,
                         ::testing::ValuesIn(neon_variants()), variant_param_name);

#ifndef NDEBUG
TEST(RhsPackDeath, ParamsChecked) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    uint8_t rhs[4] = {0};
    float s[1] = {1.0f};
    uint8_t out[64];
    kai_rhs_pack_qs4cxs1s0_param bad{1, 3};
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, 1, 8, 4, 16, 2, rhs, nullptr, s, out, 0, &bad),
                 "rhs_zero_point must be 0 or 8");
    kai_rhs_pack_qs4cxs1s0_param bad_lhs{0, 8};
    EXPECT_DEATH(kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0(1, 1, 8, 4, 16, 2, rhs, nullptr, s, out, 0, &bad_lhs),
                 "lhs_zero_point must be 1");
    EXPECT_DEATH(kai_run_lhs_quant_pack_qai8dxp_f32(1, 8, 4, 15, 2, 0, s, 32, out), "kr must be a non-zero multiple of sr");
}
#endif

// ------------------------------------------------------------------------------------------
// Preconditions: one death test per distinct (function, message) of the family's KAI_ASSUME_MSG
// checks (debug builds only: KAI_ASSUME is compiled out with NDEBUG). Each case calls its function
// twice: once with valid arguments, which must return normally (so the baseline is valid), then in
// a death test with exactly one precondition violated, which must abort with "<file>:<line>
// <message>" printed by that function's own source file. The (function, message) pairs already
// covered above (MatmulVariantTest.PreconditionsAbortWithMessage, RhsPackDeath.ParamsChecked) are
// not repeated. Checks that no argument can violate are absent: "m_idx must be a multiple of mr"
// and "... of m_step" when mr = m_step = 1 (the dotprod kernels).
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG
using kai_test::expect_preconditions;
using kai_test::PreconditionCase;

class Qsi4cxpKernelPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(Qsi4cxpKernelPreconditionsDeathTest, Kernels) {
    const Qsi4cxpVariant& v = variant(GetParam());
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::string("kai_").size());
    const std::string file = std::string(v.name) + ".c";
    // Two rows and two columns, so that a row stride below one output row can be tested.
    const size_t m = 2, n = 2, k = 32, mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), m_step = KAI_ABI(uk.get_m_step)(),
                 n_step = KAI_ABI(uk.get_n_step)();
    const auto lhs = make_lhs(m, k, k, 31, false);
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kKr, kSr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, KAI_ABI(uk.get_kr)(), kSr, 0, lhs.data(), k * 4, lhs_p.data());
    const auto bytes = make_rhs_bytes(n, k, false, 32);
    const auto scale = make_scales(n, 33);
    std::vector<uint8_t> rhs_p(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kKr, kSr));
    pack_rhs(false, n, k, nr, bytes.data(), nullptr, scale.data(), 8, rhs_p.data(), uk.get_kr());
    std::vector<float> dst(m * n);

    // run_matmul with one argument replaced when the case is violated.
    auto run = [&](size_t kk, const void* l, const void* r, float* d) {
        KAI_ABI(uk.run_matmul)(m, n, kk, l, r, d, n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    };
    const std::string run_fn = "kai_run_" + stem, dst_fn = "kai_get_dst_offset_" + stem;
    std::vector<PreconditionCase> cases;
    if (m_step > 1) {
        cases.push_back({dst_fn, file, "m_idx must be a multiple of m_step",
                         [&](bool bad) { (void)uk.get_dst_offset(bad ? m_step / 2 : m_step, 0, 64); }});
    }
    cases.push_back({dst_fn, file, "n_idx must be a multiple of n_step",
                     [&](bool bad) { (void)uk.get_dst_offset(0, bad ? n_step / 2 : n_step, 64); }});
    cases.push_back({"kai_get_lhs_packed_offset_" + stem, file, "k must be at least 1",
                     [&](bool bad) { (void)uk.get_lhs_packed_offset(mr, bad ? 0 : k); }});
    cases.push_back({"kai_get_rhs_packed_offset_" + stem, file, "k must be at least 1",
                     [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, bad ? 0 : k); }});
    cases.push_back({run_fn, file, "k must be at least 1",
                     [&](bool bad) { run(bad ? 0 : k, lhs_p.data(), rhs_p.data(), dst.data()); }});
    cases.push_back({run_fn, file, "lhs_packed must not be NULL",
                     [&](bool bad) { run(k, bad ? nullptr : lhs_p.data(), rhs_p.data(), dst.data()); }});
    cases.push_back({run_fn, file, "rhs_packed must not be NULL",
                     [&](bool bad) { run(k, lhs_p.data(), bad ? nullptr : rhs_p.data(), dst.data()); }});
    cases.push_back({run_fn, file, "dst must not be NULL",
                     [&](bool bad) { run(k, lhs_p.data(), rhs_p.data(), bad ? nullptr : dst.data()); }});
    // One output row needs n * 4 bytes; a stride one element short would overlap the rows.
    cases.push_back({run_fn, file, "dst_stride_row must be at least n * dst_stride_col if m > 1", [&](bool bad) {
                         KAI_ABI(uk.run_matmul)(m, n, k, lhs_p.data(), rhs_p.data(), dst.data(),
                                                (bad ? n - 1 : n) * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
                     }});
    expect_preconditions(cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi4cxpKernelPreconditionsDeathTest,
                         ::testing::ValuesIn(neon_variants()), variant_param_name);

TEST(Qsi4cxpPreconditionsDeathTest, LhsPacker) {
    const std::string file = "kai_lhs_quant_pack_qai8dxp_f32.c";
    const std::string offset_fn = "kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32";
    const std::string size_fn = "kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32";
    const std::string run_fn = "kai_run_lhs_quant_pack_qai8dxp_f32";
    const size_t m = 2, k = 40, mr = 4;
    const auto lhs = make_lhs(m, k, k, 41, false);
    std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kKr, kSr));
    // The run with one argument replaced when the case is violated.
    struct Args {
        size_t k, mr, kr;
        const float* lhs;
        size_t stride;
        void* out;
    };
    const Args ok{k, mr, kKr, lhs.data(), k * sizeof(float), out.data()};
    auto run = [&](const Args& a) { KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, a.k, a.mr, a.kr, kSr, 0, a.lhs, a.stride, a.out); };
    auto with = [&](bool bad, auto edit) {
        Args a = ok;
        if (bad) edit(a);
        run(a);
    };
    const std::vector<PreconditionCase> cases = {
        {offset_fn, file, "mr must be at least 1",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(4, k, bad ? 0 : mr, kKr, kSr); }},
        {offset_fn, file, "kr must be a multiple of sr",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(4, k, mr, bad ? 15 : kKr, kSr); }},
        {offset_fn, file, "k must be at least 1",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(4, bad ? 0 : k, mr, kKr, kSr); }},
        {size_fn, file, "mr must be at least 1",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, bad ? 0 : mr, kKr, kSr); }},
        {size_fn, file, "k must be at least 1",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, bad ? 0 : k, mr, kKr, kSr); }},
        {size_fn, file, "kr must be a multiple of sr",
         [&](bool bad) { (void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m, k, mr, bad ? 15 : kKr, kSr); }},
        {run_fn, file, "mr must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.mr = 0; }); }},
        // "kr must be a non-zero multiple of sr": RhsPackDeath.ParamsChecked.
        {run_fn, file, "k must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.k = 0; }); }},
        {run_fn, file, "kr / sr must divide 32", [&](bool bad) { with(bad, [](Args& a) { a.kr = 6; }); }},
        {run_fn, file, "lhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.lhs = nullptr; }); }},
        {run_fn, file, "lhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
        {run_fn, file, "lhs_stride must be at least k * sizeof(float)",
         [&](bool bad) { with(bad, [](Args& a) { a.stride -= sizeof(float); }); }},
    };
    expect_preconditions(cases);
}

// The two RHS packers share their signatures; kxn adds the check of get_rhs_offset.
struct RhsPackerFns {
    const char* stem;  // rhs_pack_{nxk,kxn}_qsi4cxp_qs4cxs1s0
    bool kxn;
    size_t (*get_stride)(size_t, size_t, size_t, size_t);
    size_t (*get_offset)(size_t, size_t, size_t, size_t, size_t);
    size_t (*get_size)(size_t, size_t, size_t, size_t, size_t);
    void (*run)(size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const float*, const float*, void*, size_t,
                const kai_rhs_pack_qs4cxs1s0_param*);
};

TEST(Qsi4cxpPreconditionsDeathTest, RhsPackers) {
    const RhsPackerFns packers[] = {
        {"rhs_pack_nxk_qsi4cxp_qs4cxs1s0", false, kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxp_qs4cxs1s0,
         kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0, kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0,
         kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0},
        {"rhs_pack_kxn_qsi4cxp_qs4cxs1s0", true, kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4cxp_qs4cxs1s0,
         kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0, kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0,
         kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0},
    };
    const size_t n = 5, k = 40, nr = 4;
    const auto bytes = make_rhs_bytes(n, k, true, 51);  // k * ceil(n / 2) = 120 bytes >= n * ceil(k / 2) = 100
    const auto scale = make_scales(n, 52);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 53);
    for (const RhsPackerFns& p : packers) {
        const std::string file = std::string("kai_") + p.stem + ".c";
        const std::string stride_fn = std::string("kai_get_rhs_packed_stride_") + p.stem;
        const std::string offset_fn = std::string("kai_get_rhs_packed_offset_") + p.stem;
        const std::string size_fn = std::string("kai_get_rhs_packed_size_") + p.stem;
        const std::string run_fn = std::string("kai_run_") + p.stem;
        std::vector<uint8_t> out(KAI_ABI(p.get_size)(n, k, nr, kKr, kSr));
        // The run with one argument replaced when the case is violated.
        struct Args {
            size_t num_groups, k, nr, kr;
            const uint8_t* rhs;
            const float* scale;
            void* out;
            size_t extra_bytes;
            kai_rhs_pack_qs4cxs1s0_param params;
            bool null_params;
        };
        const Args ok{1, k, nr, kKr, bytes.data(), scale.data(), out.data(), 0, {1, 8}, false};
        auto with = [&](bool bad, auto edit) {
            Args a = ok;
            if (bad) edit(a);
            KAI_ABI(p.run)(a.num_groups, n, a.k, a.nr, a.kr, kSr, a.rhs, bias.data(), a.scale, a.out, a.extra_bytes,
                  a.null_params ? nullptr : &a.params);
        };
        std::vector<PreconditionCase> cases = {
            {stride_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_stride(k, bad ? 0 : nr, kKr, kSr); }},
            {stride_fn, file, "kr must be a multiple of sr", [&](bool bad) { (void)p.get_stride(k, nr, bad ? 15 : kKr, kSr); }},
            {offset_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_offset(0, k, bad ? 0 : nr, kKr, kSr); }},
            {offset_fn, file, "n_idx must be a multiple of nr",
             [&](bool bad) { (void)p.get_offset(bad ? nr / 2 : nr, k, nr, kKr, kSr); }},
            {offset_fn, file, "kr must be a multiple of sr",
             [&](bool bad) { (void)p.get_offset(nr, k, nr, bad ? 15 : kKr, kSr); }},
            {size_fn, file, "nr must be at least 1", [&](bool bad) { (void)p.get_size(n, k, bad ? 0 : nr, kKr, kSr); }},
            {stride_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_stride(bad ? 0 : k, nr, kKr, kSr); }},
            {offset_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_offset(nr, bad ? 0 : k, nr, kKr, kSr); }},
            {size_fn, file, "k must be at least 1", [&](bool bad) { (void)p.get_size(n, bad ? 0 : k, nr, kKr, kSr); }},
            {size_fn, file, "kr must be a multiple of sr", [&](bool bad) { (void)p.get_size(n, k, nr, bad ? 15 : kKr, kSr); }},
            {run_fn, file, "num_groups must be 1", [&](bool bad) { with(bad, [](Args& a) { a.num_groups = 2; }); }},
            {run_fn, file, "extra_bytes must be 0", [&](bool bad) { with(bad, [](Args& a) { a.extra_bytes = 1; }); }},
            {run_fn, file, "nr must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.nr = 0; }); }},
            {run_fn, file, "kr must be a non-zero multiple of sr", [&](bool bad) { with(bad, [](Args& a) { a.kr = 15; }); }},
            {run_fn, file, "kr / sr must divide 16", [&](bool bad) { with(bad, [](Args& a) { a.kr = 6; }); }},
            {run_fn, file, "k must be at least 1", [&](bool bad) { with(bad, [](Args& a) { a.k = 0; }); }},
            {run_fn, file, "params must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.null_params = true; }); }},
            {run_fn, file, "rhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.rhs = nullptr; }); }},
            {run_fn, file, "scale must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.scale = nullptr; }); }},
            {run_fn, file, "rhs_packed must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }},
        };
        // RhsPackDeath.ParamsChecked covers rhs_zero_point for nxk and lhs_zero_point for kxn.
        if (p.kxn) {
            cases.push_back({run_fn, file, "params->rhs_zero_point must be 0 or 8",
                             [&](bool bad) { with(bad, [](Args& a) { a.params.rhs_zero_point = 3; }); }});
            cases.push_back({std::string("kai_get_rhs_offset_") + p.stem, file, "n_idx must be even",
                             [&](bool bad) { (void)KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(bad ? 3 : 4, 0); }});
        } else {
            cases.push_back({run_fn, file, "params->lhs_zero_point must be 1",
                             [&](bool bad) { with(bad, [](Args& a) { a.params.lhs_zero_point = 0; }); }});
        }
        expect_preconditions(cases);
    }
}
#endif

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors (test/data/compat).
// ------------------------------------------------------------------------------------------

std::vector<std::string> compat_files() {
    std::vector<std::string> files;
    for (const char* prefix : {"kai_lhs_quant_pack_qai8dxp_f32__", "kai_rhs_pack_nxk_qsi4cxp_", "kai_rhs_pack_kxn_qsi4cxp_",
                               "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp", "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp",
                               "kai_matmul_clamp_f32_qai8dxp4x4_qsi4cxp", "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp",
                               "kai_matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp", "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp"}) {
        for (const auto& f : kai_test::list_compat_vectors(prefix)) files.push_back(f);
    }
    return files;
}

TEST(Compat, EveryVectorOfTheFamilyIsPresent) {
    // 72 + 4 special-row files of the f32 LHS packer + 4 per SME / SME2 kernel and SVL (128 and 512 bits).
    EXPECT_EQ(compat_files().size(), 108u);
}

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, Replays) {
    const kai_test::CompatVector cv = kai_test::load_compat_vector(GetParam());
    const std::string& name = cv.str("name");
    const std::string& kind = cv.str("kind");
    if (kind == "lhs_packer") {
        const size_t m = cv.size("m"), k = cv.size("k"), mr = cv.size("mr"), kr = cv.size("kr"), sr = cv.size("sr");
        const auto& want = cv.section("lhs_packed");
        ASSERT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr), want.bytes.size());
        GuardedBuffer got(want.bytes.size());
        KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, cv.section("lhs").f32(), cv.size("lhs_stride"), got.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        return;
    }
    const size_t n = cv.size("n"), k = cv.size("k");
    const uint8_t zp = static_cast<uint8_t>(cv.size("rhs_zero_point"));
    const float* bias = cv.has_section("bias") ? cv.section("bias").f32() : nullptr;
    if (kind == "rhs_packer") {
        const size_t nr = cv.size("nr");
        const auto& want = cv.section("rhs_packed");
        const bool kxn = name.find("_kxn_") != std::string::npos;
        GuardedBuffer got(want.bytes.size());
        ASSERT_EQ(kxn ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(n, k, nr, cv.size("kr"), cv.size("sr"))
                      : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(n, k, nr, cv.size("kr"), cv.size("sr")),
                  want.bytes.size());
        kai_rhs_pack_qs4cxs1s0_param params{1, zp};
        if (kxn) {
            KAI_ABI(kai_run_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(1, n, k, nr, cv.size("kr"), cv.size("sr"), cv.section("rhs").bytes.data(),
                                                   bias, cv.section("scale").f32(), got.data(), 0, &params);
        } else {
            KAI_ABI(kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(1, n, k, nr, cv.size("kr"), cv.size("sr"), cv.section("rhs").bytes.data(),
                                                   bias, cv.section("scale").f32(), got.data(), 0, &params);
        }
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        return;
    }
    // Kernel.
    const Qsi4cxpVariant* v = nullptr;
    for (const auto& x : kai_registry::qsi4cxp_variants())
        if (name == x.name) v = &x;
    ASSERT_NE(v, nullptr) << name << " is not in the registry";
    KAI_TEST_SKIP_UNLESS(v->features);
    if (is_sme(*v)) {
        ASSERT_TRUE(set_svl(cv.str("vector_length") == "svl128" ? 16 : 64)) << cv.str("vector_length");
    }
    const auto& uk = v->ukernel;
    const size_t m = cv.size("m");
    EXPECT_EQ(KAI_ABI(uk.get_m_step)(), cv.size("m_step"));
    EXPECT_EQ(KAI_ABI(uk.get_n_step)(), cv.size("n_step"));
    EXPECT_EQ(KAI_ABI(uk.get_mr)(), cv.size("mr"));
    EXPECT_EQ(KAI_ABI(uk.get_nr)(), cv.size("nr"));
    const auto& lp = cv.section("lhs_packed");
    const auto& rp = cv.section("rhs_packed");
    GuardedBuffer lhs_p(lp.bytes.size()), rhs_p(rp.bytes.size());
    std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
    std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
    DstBuffer dst(m, n, 4, (n + 3) * 4);
    KAI_ABI(uk.run_matmul)(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), (n + 3) * 4, 4,
                  cv.clamp_min(), cv.clamp_max());
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), (n + 3) * 4,
                                         cv.section("dst").f32(), n * 4, m, n));
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
    if (is_sme(*v)) {
        // kai's packers make the stored packed buffers from the stored inputs, and a tile-by-tile run through the
        // offset getters gives the stored output too.
        EXPECT_EQ(uk.get_kr(), cv.size("kr"));
        EXPECT_EQ(uk.get_sr(), cv.size("sr"));
        std::vector<uint8_t> lhs_mine(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr()));
        ASSERT_EQ(lhs_mine.size(), lp.bytes.size());
        kai_run_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr(), 0, cv.section("lhs").f32(),
                                           cv.size("lhs_stride"), lhs_mine.data());
        EXPECT_TRUE(kai_test::bytes_equal(lhs_mine.data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
        // The SME2 kernels read "qsi4cxps1s0 RHS", the SME (SME1) GEMM the NEON "qsi4cxp RHS" (rhs_packer says which).
        const bool s1s0 = cv.str("rhs_packer") == "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon";
        EXPECT_EQ(s1s0, (v->features & KAI_FEATURE_SME2) != 0);
        std::vector<uint8_t> rhs_mine(
            s1s0 ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n, k, uk.get_nr(), uk.get_kr(), uk.get_sr())
                 : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, uk.get_nr(), uk.get_kr(), uk.get_sr()));
        ASSERT_EQ(rhs_mine.size(), rp.bytes.size());
        const kai_rhs_pack_qs4cxs1s0_param params{1, zp};
        if (s1s0) {
            kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, n, k, uk.get_nr(), uk.get_kr(), uk.get_sr(),
                                                             cv.section("rhs").bytes.data(), bias,
                                                             cv.section("scale").f32(), rhs_mine.data(), 0, &params);
        } else {
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, uk.get_nr(), uk.get_kr(), uk.get_sr(), cv.section("rhs").bytes.data(),
                                                  bias, cv.section("scale").f32(), rhs_mine.data(), 0, &params);
        }
        EXPECT_TRUE(kai_test::bytes_equal(rhs_mine.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
        DstBuffer tiled(m, n, 4, (n + 3) * 4);
        for (size_t m0 = 0; m0 < m; m0 += uk.get_m_step())
            for (size_t n0 = 0; n0 < n; n0 += uk.get_n_step())
                uk.run_matmul(std::min(uk.get_m_step(), m - m0), std::min(uk.get_n_step(), n - n0), k,
                              lhs_p.data() + uk.get_lhs_packed_offset(m0, k), rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                              reinterpret_cast<float*>(tiled.at(0, 0) + uk.get_dst_offset(m0, n0, (n + 3) * 4)), (n + 3) * 4,
                              4, cv.clamp_min(), cv.clamp_max());
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), (n + 3) * 4,
                                             cv.section("dst").f32(), n * 4, m, n));
        EXPECT_TRUE(tiled.untouched_outside(0, m, 0, n));
    }
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

// Sizes and offsets that do not fit in size_t abort in every build (release builds without a
// message) instead of wrapping to a small value that a caller would allocate.
TEST(Qsi4cxpSizeDeathTest, SizesThatOverflowAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    EXPECT_DEATH((void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(1, SIZE_MAX, 4, kKr, kSr), overflow);
    EXPECT_DEATH((void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(SIZE_MAX, 32, 4, kKr, kSr), overflow);
    EXPECT_DEATH((void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(1, SIZE_MAX, 4, kKr, kSr), overflow);
    EXPECT_DEATH((void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(SIZE_MAX, 32, 4, kKr, kSr), overflow);
    EXPECT_DEATH((void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(1, SIZE_MAX, 8, kKr, kSr), overflow);
    EXPECT_DEATH((void)KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4cxp_qs4cxs1s0)(SIZE_MAX, 32, 8, kKr, kSr), overflow);
    for (const Qsi4cxpVariant& v : kai_registry::qsi4cxp_variants()) {
        if (is_sme(v)) continue;  // SmeKernel.SizesThatOverflowAbort
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(KAI_ABI(uk.get_mr)(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(KAI_ABI(uk.get_nr)(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_offset(KAI_ABI(uk.get_m_step)(), KAI_ABI(uk.get_n_step)(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), overflow);
    }
}

// ------------------------------------------------------------------------------------------
// SME / SME2 kernels (KleidiAI's: LHS kai_lhs_quant_pack_qai8dxp_f32 with the getters' mr, kr, sr). SME2: kr = 4,
// sr = 1, RHS kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon (docs/formats.md, "qsi4cxps1s0 RHS"), expected values the
// "qsi8cxp matmul" recipe on the signed nibbles (test/reference/qsi8cxp_ref.h), fused scale and bias for the DOT
// GEMVs, FCLAMP. SME (SME1) GEMM: kr = 8, sr = 2, RHS kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0 ("qsi4cxp RHS"), expected
// values the NEON kernels' "qsi4cxp matmul" recipe (FMAX / FMIN), the GEMV's scale and bias fused. Every case at SVL
// 128, 512 and 2048 bits.
// ------------------------------------------------------------------------------------------

using SmeParam = std::tuple<size_t /*variant*/, size_t /*svl bytes*/>;

std::vector<SmeParam> sme_params() {
    std::vector<SmeParam> p;
    for (size_t vi = 0; vi < kai_registry::qsi4cxp_variants().size(); ++vi)
        if (is_sme(variant(vi)))
            for (size_t svl : {16, 64, 256}) p.emplace_back(vi, svl);
    return p;
}

std::string sme_param_name(const ::testing::TestParamInfo<SmeParam>& info) {
    return std::string(variant(std::get<0>(info.param)).name).substr(std::string("kai_matmul_clamp_f32_").size()) +
           "_svl" + std::to_string(std::get<1>(info.param) * 8);
}

// One problem for an SME kernel: inputs, both packed buffers (kai's packers, checked byte for byte against the
// reference packers) and the expected m x n output.
struct SmeProblem {
    size_t m, n, k;
    std::vector<float> lhs, scale, bias;
    std::vector<uint8_t> w;
    GuardedBuffer lhs_p, rhs_p;
    std::vector<float> want;
    SmeProblem(const Qsi4cxpVariant& v, size_t m_, size_t n_, size_t k_, uint64_t seed, bool with_bias, float lo,
               float hi, bool nan_scale)
        : m(m_), n(n_), k(k_), lhs(make_lhs(m_, k_, k_, seed, true)), scale(make_scales(n_, seed + 1)),
          bias(make_scales(n_, seed + 2)), w(make_rhs_bytes(n_, k_, false, seed + 3)),
          lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m_, k_, v.ukernel.get_mr(), v.ukernel.get_kr(),
                                                                   v.ukernel.get_sr())),
          rhs_p((v.features & KAI_FEATURE_SME2) != 0
                    ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(n_, k_, v.ukernel.get_nr(),
                                                                                      v.ukernel.get_kr(), v.ukernel.get_sr())
                    : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n_, k_, v.ukernel.get_nr(), v.ukernel.get_kr(),
                                                                           v.ukernel.get_sr())) {
        const auto& uk = v.ukernel;
        const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr();
        for (auto& b : bias) b *= 40.0f;
        if (nan_scale) scale[n / 2] = std::numeric_limits<float>::quiet_NaN();
        const float* bp = with_bias ? bias.data() : nullptr;
        kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * 4, lhs_p.data());
        const kai_rhs_pack_qs4cxs1s0_param params{1, 8};
        const bool sme2 = (v.features & KAI_FEATURE_SME2) != 0;
        if (sme2) {
            kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(1, n, k, nr, kr, sr, w.data(), bp, scale.data(),
                                                             rhs_p.data(), 0, &params);
        } else {
            kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, nr, kr, sr, w.data(), bp, scale.data(), rhs_p.data(), 0, &params);
        }
        const std::vector<uint8_t> ref_rhs = sme2 ? kai_ref::pack_qsi4cxps1s0(n, k, nr, kr, w.data(), bp, scale.data(), 8)
                                                  : kai_ref::pack_qsi4cxp_nxk(n, k, nr, kr, sr, w.data(), bp, scale.data(), 8);
        EXPECT_EQ(ref_rhs.size(), rhs_p.size());
        EXPECT_TRUE(kai_test::bytes_equal(rhs_p.data(), ref_rhs.data(), std::min(ref_rhs.size(), rhs_p.size())));
        std::vector<uint8_t> ref_lhs(kai_ref::qai8dxp_packed_size(m, k, mr));
        kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, lhs.data(), k * 4, ref_lhs.data());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(ref_lhs.data(), m, k, mr, kr, sr);
        const std::vector<int8_t> wv = kai_ref::qs4_nxk_values(w.data(), n, k, 8);
        // The DOT GEMVs ("_dot", "_sdot") fuse scale and bias (docs/formats.md, "SME matmul recipes").
        const bool fused = std::strstr(v.name, "_dot") != nullptr || std::strstr(v.name, "_sdot") != nullptr;
        // The SME (SME1) GEMV fuses too: "qsi8cxp matmul" on the nibbles gives the same bits as the x16 / /16 fields
        // (both scalings are exact), with FMAX / FMIN.
        want = sme2 || fused ? kai_ref::matmul_qai8dxp_qsi8cx(q, n, k, wv.data(), scale.data(), bp, lo, hi, fused, sme2)
                             : kai_ref::matmul_qai8dxp_qsi4cx(q, n, k, wv.data(), scale.data(), bp, lo, hi);
    }
};

class SmeKernelTest : public ::testing::TestWithParam<SmeParam> {};

// The test's variant v and SVL svl (bytes): skips without the variant's features, then sets the SVL.
#define KAI_ENTER_SME(v, svl)                                  \
    const size_t svl = std::get<1>(GetParam());                \
    const Qsi4cxpVariant& v = variant(std::get<0>(GetParam())); \
    KAI_TEST_SKIP_UNLESS(v.features);                          \
    ASSERT_TRUE(set_svl(svl))

// Shapes around the tile (mr, nr) and K around the 32-chunk, each over the whole matrix, a middle sub-tile and the
// last tiles through the offset getters, into a wider-stride destination ringed by NaN.
TEST_P(SmeKernelTest, BitExactOnSubTiles) {
    KAI_ENTER_SME(v, svl);
    const auto& uk = v.ukernel;
    const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
    ASSERT_EQ(uk.get_nr(), svl);
    ASSERT_EQ(ns, svl);
    const bool sme2 = (v.features & KAI_FEATURE_SME2) != 0;
    ASSERT_EQ(uk.get_kr(), sme2 ? 4u : 8u);
    ASSERT_EQ(uk.get_sr(), sme2 ? 1u : 2u);
    ASSERT_EQ(uk.get_mr(), ms == 1 ? 1 : svl / 4);
    std::vector<Shape> shapes = {{1, 1, 1}, {ms + 1, ns + 1, 33}, {2 * ms + 3, 2 * ns + 5, 95}};
    if (!kai_test::reduced_sweep() || svl == 64) {
        shapes.push_back({ms, ns, 32});
        shapes.push_back({3, ns - 1, 64});
        shapes.push_back({ms + 2, 3 * ns - 1, 257});
        shapes.push_back({1, 7, 4099});
    }
    uint64_t seed = 100 + std::get<0>(GetParam()) * 10 + svl;
    for (const Shape& sh : shapes) {
        for (Portion portion : {Portion::kFull, Portion::kMiddle, Portion::kLastTiles}) {
            const int c = static_cast<int>(portion);
            const bool with_bias = (seed + c) % 2 == 0;
            const float lo = c == 1 ? -1.5f : -FLT_MAX, hi = c == 1 ? 2.0f : FLT_MAX;
            SCOPED_TRACE(shape_name(sh.m, sh.n, sh.k) + " portion " + std::to_string(c));
            SmeProblem pr(v, sh.m, sh.n, sh.k, seed++, with_bias, lo, hi, false);
            size_t m0, mh, n0, nw;
            portion_rect(portion, sh.m, sh.n, ms, ns, &m0, &mh, &n0, &nw);
            const size_t stride = (sh.n + 5) * 4;
            DstBuffer dst(sh.m, sh.n, 4, stride);
            uk.run_matmul(mh, nw, sh.k, pr.lhs_p.data() + uk.get_lhs_packed_offset(m0, sh.k),
                          pr.rhs_p.data() + uk.get_rhs_packed_offset(n0, sh.k),
                          reinterpret_cast<float*>(dst.at(0, 0) + uk.get_dst_offset(m0, n0, stride)), stride, 4, lo, hi);
            EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(m0, n0)), stride,
                                                 pr.want.data() + m0 * sh.n + n0, sh.n * 4, mh, nw));
            EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw));
        }
    }
}

// A NaN scale makes a NaN accumulator: the SME2 kernels' FCLAMP gives the lower bound, the SME (SME1) GEMM's FMAX /
// FMIN keep NaN (KleidiAI's values in both cases).
TEST_P(SmeKernelTest, NanAccumulatorIsClampedAsKleidiAI) {
    KAI_ENTER_SME(v, svl);
    const auto& uk = v.ukernel;
    const size_t m = uk.get_m_step() + 1, n = 9, k = 40;
    SmeProblem pr(v, m, n, k, 77, true, -3.0f, 5.0f, true);
    DstBuffer dst(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, pr.lhs_p.data(), pr.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), n * 4, 4, -3.0f,
                  5.0f);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, pr.want.data(), n * 4, m, n));
    if ((v.features & KAI_FEATURE_SME2) != 0) {
        EXPECT_EQ(pr.want[n / 2], -3.0f);
    } else {
        EXPECT_TRUE(std::isnan(pr.want[n / 2]));
    }
}

// Every m_step x n_step tile through the offset getters gives the whole call's bits; m = 0 or n = 0 writes nothing.
TEST_P(SmeKernelTest, TiledRunEqualsFullRunAndEmptyWritesNothing) {
    KAI_ENTER_SME(v, svl);
    const auto& uk = v.ukernel;
    const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
    const size_t m = ms == 1 ? 3 : 2 * ms + 1, n = 2 * ns + 3, k = 77;
    SmeProblem pr(v, m, n, k, 5, true, -FLT_MAX, FLT_MAX, false);
    DstBuffer full(m, n, 4, n * 4), tiled(m, n, 4, n * 4);
    uk.run_matmul(m, n, k, pr.lhs_p.data(), pr.rhs_p.data(), reinterpret_cast<float*>(full.at(0, 0)), n * 4, 4, -FLT_MAX,
                  FLT_MAX);
    for (size_t m0 = 0; m0 < m; m0 += ms)
        for (size_t n0 = 0; n0 < n; n0 += ns)
            uk.run_matmul(std::min(ms, m - m0), std::min(ns, n - n0), k, pr.lhs_p.data() + uk.get_lhs_packed_offset(m0, k),
                          pr.rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                          reinterpret_cast<float*>(tiled.at(0, 0) + uk.get_dst_offset(m0, n0, n * 4)), n * 4, 4,
                          -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), n * 4,
                                         reinterpret_cast<const float*>(full.at(0, 0)), n * 4, m, n));
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(full.at(0, 0)), n * 4, pr.want.data(), n * 4, m, n));
    DstBuffer empty(1, 1, 4, 4);
    uk.run_matmul(0, n, k, pr.lhs_p.data(), pr.rhs_p.data(), reinterpret_cast<float*>(empty.at(0, 0)), 4, 4, -FLT_MAX, FLT_MAX);
    uk.run_matmul(m, 0, k, pr.lhs_p.data(), pr.rhs_p.data(), reinterpret_cast<float*>(empty.at(0, 0)), 4, 4, -FLT_MAX, FLT_MAX);
    EXPECT_TRUE(empty.untouched_outside(0, 0, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(Variants, SmeKernelTest, ::testing::ValuesIn(sme_params()), sme_param_name);

TEST(SmeKernel, SizesThatOverflowAbort) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    for (const Qsi4cxpVariant& v : kai_registry::qsi4cxp_variants()) {
        if (!is_sme(v)) continue;
        KAI_TEST_SKIP_UNLESS(v.features);
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(uk.get_mr(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(uk.get_nr(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_offset(uk.get_m_step(), uk.get_n_step(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), overflow);
    }
}

#ifndef NDEBUG
TEST(SmeKernelDeathTest, PreconditionsAbortWithMessage) {
    GTEST_FLAG_SET(death_test_style, "fast");
    for (const Qsi4cxpVariant& v : kai_registry::qsi4cxp_variants()) {
        if (!is_sme(v)) continue;
        KAI_TEST_SKIP_UNLESS(v.features);
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        float dst[4];
        uint8_t buf[64] = {0};
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, buf, buf, dst, 4, 8, -FLT_MAX, FLT_MAX), "dst_stride_col");
        EXPECT_DEATH(uk.run_matmul(1, 1, 0, buf, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), "k must");
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, nullptr, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), "lhs_packed");
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, buf, nullptr, dst, 4, 4, -FLT_MAX, FLT_MAX), "rhs_packed");
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, buf, buf, nullptr, 4, 4, -FLT_MAX, FLT_MAX), "dst must");
        EXPECT_DEATH(uk.run_matmul(2, 4, 32, buf, buf, dst, 12, 4, -FLT_MAX, FLT_MAX), "dst_stride_row");
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(1, 32), "n_idx");
        if (uk.get_mr() > 1) {
            EXPECT_DEATH((void)uk.get_lhs_packed_offset(1, 32), "m_idx");
        }
    }
}
#endif

// One packed buffer for every core: the RHS packed once (nr = 4, kr = 16) and the LHS once per mr are
// read by the plain Armv8.0 pair, the DotProd GEMV and the I8MM GEMMs (whichever the CPU runs); each
// gives the reference's bits, hence the same bits as every other. The extreme data set (every weight
// -8, LHS rows constant negative: every q -128) is the plain kernels' int16 worst case.
TEST(SamePackedBytes, PlainDotProdAndI8mmKernelsAgreeBitExactly) {
    const std::vector<Shape> shapes = {{9, 37, 70}, {1, 64, 1000}, {13, 16, 256}, {5, 9, 224}};
    const size_t nr = 4, kr = 16;
    size_t plain = 0, compared = 0;
    for (const Shape& sh : shapes) {
        for (int data = 0; data < 3; ++data) {  // 0 random rows, 1 edge rows, 2 extreme
            const size_t m = sh.m, n = sh.n, k = sh.k;
            SCOPED_TRACE(shape_name(m, n, k) + " data " + std::to_string(data));
            const uint64_t seed = kai_test::seed_from("same-bytes" + shape_name(m, n, k) + std::to_string(data));
            std::vector<float> lhs = make_lhs(m, k, k, seed, data == 1);
            auto bytes = make_rhs_bytes(n, k, false, seed + 1);
            if (data == 2) {
                for (size_t i = 0; i < m; ++i)
                    for (size_t j = 0; j < k; ++j) lhs[i * k + j] = -1.0f - (i % 2 == 0 ? 0.0f : 0.5f);
                std::fill(bytes.begin(), bytes.end(), uint8_t{0});  // unsigned nibble 0, zero point 8: w = -8
            }
            const auto scale = make_scales(n, seed + 2);
            const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 3);
            std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kr, kSr));
            pack_rhs(false, n, k, nr, bytes.data(), bias.data(), scale.data(), 8, rp.data(), kr);
            const auto lhs_u = reference_lhs(m, k, 1, lhs.data(), k * 4);
            const auto w = kai_ref::qs4_nxk_values(bytes.data(), n, k, 8);
            const auto want = kai_ref::matmul_qai8dxp_qsi4cx(lhs_u, n, k, w.data(), scale.data(), bias.data(),
                                                            -FLT_MAX, FLT_MAX);
            std::vector<uint8_t> lp[5];  // by mr (1 or 4)
            for (const auto& v : kai_registry::qsi4cxp_variants()) {
                const auto& u = v.ukernel;
                if (u.get_kr() != kr || u.get_nr() != nr) continue;
                if (!kai_test::missing_features(v.features).empty()) continue;  // the CPU cannot run it
                const size_t mr = u.get_mr();
                if (lp[mr].empty()) {
                    lp[mr].resize(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, kSr));
                    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, kSr, 0, lhs.data(), k * 4, lp[mr].data());
                }
                std::vector<float> out(m * n);
                u.run_matmul(m, n, k, lp[mr].data(), rp.data(), out.data(), n * 4, 4, -FLT_MAX, FLT_MAX);
                EXPECT_TRUE(kai_test::f32_bits_equal(out.data(), n * 4, want.data(), n * 4, m, n)) << v.name;
                ++compared;
                if (v.features == 0) ++plain;
            }
        }
    }
    // The plain pair runs on every core: both kernels on every shape and data set.
    EXPECT_EQ(plain, 2 * 3 * shapes.size());
    EXPECT_GE(compared, plain);
}

// The plain pair reads the buffers of the DotProd GEMV (1x4x32) and of the I8MM GEMM (16x4x32): the
// same mr, nr, kr and sr as those, and no feature.
TEST(Registry, PlainPairSharesTheDotProdAndI8mmBuffers) {
    struct Pair {
        const char* plain;
        const char* partner;
    };
    const Pair pairs[] = {
        {"kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4_neon", "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod"},
        {"kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4_neon", "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm"},
    };
    auto find = [](const char* name) -> const Qsi4cxpVariant* {
        for (const auto& v : kai_registry::qsi4cxp_variants())
            if (std::string(v.name) == name) return &v;
        return nullptr;
    };
    for (const Pair& p : pairs) {
        const Qsi4cxpVariant* a = find(p.plain);
        const Qsi4cxpVariant* b = find(p.partner);
        ASSERT_NE(a, nullptr) << p.plain;
        ASSERT_NE(b, nullptr) << p.partner;
        EXPECT_EQ(a->features, 0u) << p.plain;
        EXPECT_EQ(a->ukernel.get_mr(), b->ukernel.get_mr()) << p.plain;
        EXPECT_EQ(a->ukernel.get_nr(), b->ukernel.get_nr()) << p.plain;
        EXPECT_EQ(a->ukernel.get_kr(), b->ukernel.get_kr()) << p.plain;
        EXPECT_EQ(a->ukernel.get_sr(), b->ukernel.get_sr()) << p.plain;
        EXPECT_EQ(a->ukernel.get_m_step(), std::string(p.plain).find("_1x4_") != std::string::npos ? 1u : 4u);
        EXPECT_EQ(a->ukernel.get_n_step(), 4u);
    }
}

}  // namespace
