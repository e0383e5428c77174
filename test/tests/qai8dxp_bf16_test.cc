// SPDX-License-Identifier: Apache-2.0
// Tests of the bf16 activations and outputs of the int4 families (engines running bf16 models end to end, docs/formats.md, "16-bit outputs"):
// kai_lhs_quant_pack_qai8dxp_bf16_neon (byte-exact against test/reference, every rounding path,
// non-finite and degenerate rows, m_idx_start, compat vectors, preconditions) and the four
// bf16-output kernels of families bf16_qsi4cxp and bf16_qsi4c32p (bit-exact against the f32
// reference narrowed once to bf16, over the f32 families' shapes, sub-tiles, bias, clamps
// including bounds that are not bf16 values, a wider stride, the bf16 NaN sentinel around the
// tile, guard pages, non-finite inputs, the f32 LHS packer as feeder, compat vectors and the
// preconditions).

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_bf16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/limits.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/bf16_qai8dxp_registry.h"

namespace {

using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

uint16_t bf16(float x) { return kai_ref::bf16_from_f32(x); }

std::string shape_name(size_t m, size_t n, size_t k) {
    std::ostringstream os;
    os << m << "x" << n << "x" << k;
    return os.str();
}

// ------------------------------------------------------------------------------------------
// Inputs.
// ------------------------------------------------------------------------------------------

// bf16 LHS rows (row stride `stride` elements, the gaps NaN): random values times a per-row power
// of two; with edge_rows, rows i % 8 == 1..4 are all zeros, constant, constant negative and a row
// of exact ties of x * scale (range [-127.5, 127.5] gives scale 1; every value is n + 0.5).
std::vector<uint16_t> make_lhs(size_t m, size_t k, size_t stride, uint64_t seed, bool edge_rows) {
    Rng rng(seed);
    std::vector<uint16_t> lhs(m * stride, 0x7FC1);
    for (size_t i = 0; i < m; ++i) {
        uint16_t* x = lhs.data() + i * stride;
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) x[kk] = bf16(rng.uniform(-2.0f, 2.0f) * mul);
        if (!edge_rows) continue;
        switch (i % 8) {
            case 1: std::fill(x, x + k, bf16(0.0f)); break;
            case 2: std::fill(x, x + k, bf16(0.8125f)); break;
            case 3: std::fill(x, x + k, bf16(-1.375f)); break;
            case 4:
                for (size_t kk = 0; kk < k; ++kk)
                    x[kk] = bf16(static_cast<float>(rng.integer(-127, 126)) + 0.5f);
                x[0] = bf16(-127.5f);
                if (k > 1) x[k / 2] = bf16(127.5f);
                break;
            default: break;
        }
    }
    return lhs;
}

// The reference's quantised LHS of rows [m0, m0 + mh) (test/reference, docs/formats.md, "qai8dxp LHS from bf16 and f16"), read back.
kai_ref::Qai8dxpUnpacked reference_lhs(const uint16_t* lhs, size_t stride, size_t m0, size_t mh, size_t k, size_t mr,
                                       size_t kr, size_t sr) {
    std::vector<uint8_t> packed(kai_ref::qai8dxp_packed_size(mh, k, mr));
    kai_ref::pack_qai8dxp_bf16(mh, k, mr, kr, sr, 0, lhs + m0 * stride, stride * 2, packed.data());
    return kai_ref::unpack_qai8dxp(packed.data(), mh, k, mr, kr, sr);
}

// ------------------------------------------------------------------------------------------
// LHS packer.
// ------------------------------------------------------------------------------------------

struct LhsCase {
    size_t m, k, mr, kr, sr;
};

class Bf16LhsPackTest : public ::testing::TestWithParam<LhsCase> {};

void pack_kai(size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
              size_t stride_bytes, void* out) {
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_bf16_neon)(m, k, mr, kr, sr, m_idx_start, lhs, stride_bytes, out);
}

TEST_P(Bf16LhsPackTest, ByteExactAgainstReference) {
    const LhsCase c = GetParam();
    const uint64_t seed = kai_test::seed_from("bf16lhs" + shape_name(c.m, c.mr, c.k) + std::to_string(c.kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride = c.k + 5;
    const auto lhs = make_lhs(c.m, c.k, stride, seed, true);
    const size_t size = KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon)(c.m, c.k, c.mr, c.kr, c.sr);
    ASSERT_EQ(size, kai_ref::qai8dxp_packed_size(c.m, c.k, c.mr));
    GuardedBuffer got(size);
    pack_kai(c.m, c.k, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 2, got.data());
    std::vector<uint8_t> want(size, 0xA5);  // GuardedBuffer's fill: the unwritten lanes agree
    kai_ref::pack_qai8dxp_bf16(c.m, c.k, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 2, want.data());
    const auto mask = kai_ref::qai8dxp_written_mask(c.m, c.k, c.mr, c.kr, c.sr);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size, mask.data()));
}

TEST_P(Bf16LhsPackTest, RowRangesWithMIdxStartMatchWholeMatrix) {
    // Threading recipe: rows [0, m0) and [m0, m) packed separately (m0 a multiple of mr, the second
    // call at get_lhs_packed_offset(m0) with m_idx_start = m0) give the whole matrix's bytes.
    const LhsCase c = GetParam();
    const uint64_t seed = kai_test::seed_from("bf16lhssplit" + shape_name(c.m, c.mr, c.k));
    const size_t stride = c.k;
    const auto lhs = make_lhs(c.m, c.k, stride, seed, false);
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(c.m, c.k, c.mr, c.kr, c.sr);
    std::vector<uint8_t> whole(size, 0), split(size, 0);
    pack_kai(c.m, c.k, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 2, whole.data());
    const size_t m0 = std::max<size_t>(c.mr, c.m / 2 / c.mr * c.mr);
    ASSERT_LT(m0, c.m) << "every case has more than one block of rows";
    pack_kai(m0, c.k, c.mr, c.kr, c.sr, 0, lhs.data(), stride * 2, split.data());
    const size_t off = kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(m0, c.k, c.mr, c.kr, c.sr);
    const size_t row_off = kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon(m0, stride * 2);
    pack_kai(c.m - m0, c.k, c.mr, c.kr, c.sr, m0, reinterpret_cast<const uint8_t*>(lhs.data()) + row_off, stride * 2,
             split.data() + off);
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::vector<LhsCase> lhs_cases() {
    std::vector<LhsCase> out;
    for (size_t mr : {1u, 4u, 8u})
        for (size_t k : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 24u, 31u, 32u, 33u, 40u, 45u, 64u, 100u, 129u, 1024u})
            out.push_back({mr == 1 ? 3 : 2 * mr + 3, k, mr, 16, 2});
    out.push_back({5, 45, 1, 8, 1});
    out.push_back({9, 40, 4, 8, 1});
    if (!kai_test::reduced_sweep()) {
        out.push_back({13, 4099, 4, 16, 2});
        out.push_back({2, 11008, 1, 16, 2});
        out.push_back({6, 14336, 4, 16, 2});
    }
    return out;
}

std::string lhs_case_name(const ::testing::TestParamInfo<LhsCase>& info) {
    const LhsCase& c = info.param;
    return "m" + std::to_string(c.m) + "_k" + std::to_string(c.k) + "_mr" + std::to_string(c.mr) + "_kr" +
           std::to_string(c.kr) + "_sr" + std::to_string(c.sr);
}

INSTANTIATE_TEST_SUITE_P(Shapes, Bf16LhsPackTest, ::testing::ValuesIn(lhs_cases()), lhs_case_name);

// Packs one row with mr = 1 and reads it back.
kai_ref::Qai8dxpUnpacked pack_one_row(const std::vector<uint16_t>& x) {
    const size_t k = x.size();
    std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(1, k, 1, 16, 2));
    pack_kai(1, k, 1, 16, 2, 0, x.data(), k * 2, out.data());
    return kai_ref::unpack_qai8dxp(out.data(), 1, k, 1, 16, 2);
}

TEST(Bf16LhsPackEdge, FullGroupsTieToEvenTailAndPaddingAway) {
    // Range [-127.5, 127.5]: scale 1, ZP = round_even(-0.5) = 0 (docs/formats.md, "qai8dxp LHS"). x = 2.5 rounds to 2 in a
    // full group of 8 (FCVTNS) and to 3 in the tail and the padding (roundf), docs/formats.md, "qai8dxp LHS from bf16 and f16".
    for (size_t k : {8u, 16u, 12u, 19u}) {
        std::vector<uint16_t> x(k, bf16(2.5f));
        x[0] = bf16(-127.5f);
        x[1] = bf16(127.5f);
        const auto u = pack_one_row(x);
        ASSERT_EQ(u.offset[0], 0) << k;
        const size_t full = k / 8 * 8;
        for (size_t i = 2; i < u.kp; ++i) {
            const int want = i < full ? 2 : 3;
            EXPECT_EQ(u.q[i], want) << "k = " << k << ", position " << i;
        }
        EXPECT_EQ(u.q[0], -128);
        EXPECT_EQ(u.q[1], 127);
    }
}

TEST(Bf16LhsPackEdge, SameBytesAsF32PackerExceptAtTies) {
    // The bf16 packer's layout, range, scale and zero point are the f32 packer's for the widened
    // values (docs/formats.md, "16-bit outputs"); the data differ only where x * scale is an exact tie in a full group of 8
    // (half to even instead of away), by one. Random bf16 rows do hit such ties.
    const size_t m = 11, k = 77;
    auto lhs = make_lhs(m, k, k, 99, false);
    std::vector<float> wide(m * k);
    for (size_t i = 0; i < m * k; ++i) wide[i] = kai_ref::f32_from_bf16(lhs[i]);
    size_t ties = 0;
    for (size_t mr : {1u, 4u}) {
        const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, mr, 16, 2);
        std::vector<uint8_t> a(size, 0), b(size, 0);
        pack_kai(m, k, mr, 16, 2, 0, lhs.data(), k * 2, a.data());
        kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, 16, 2, 0, wide.data(), k * 4, b.data());
        const auto ua = kai_ref::unpack_qai8dxp(a.data(), m, k, mr, 16, 2);
        const auto ub = kai_ref::unpack_qai8dxp(b.data(), m, k, mr, 16, 2);
        for (size_t i = 0; i < m; ++i) {
            EXPECT_EQ(ua.offset[i], ub.offset[i]);
            EXPECT_EQ(kai_ref::f32_bits(ua.scale[i]), kai_ref::f32_bits(ub.scale[i]));
            const float scale = kai_ref::quantize_qai8dx_row(wide.data() + i * k, k).scale;
            for (size_t kk = 0; kk < ua.kp; ++kk) {
                const int qa = ua.q[i * ua.kp + kk], qb = ub.q[i * ub.kp + kk];
                if (qa == qb) continue;
                const volatile float v = wide[i * k + std::min(kk, k - 1)] * scale;
                EXPECT_LT(kk, k / 8 * 8) << "row " << i << " position " << kk;
                EXPECT_EQ(std::fabs(v - std::trunc(v)), 0.5f) << "row " << i << " position " << kk;
                EXPECT_EQ(std::abs(qa - qb), 1);
                ++ties;
            }
        }
    }
    EXPECT_GT(ties, 0u) << "the rows should contain ties (else the test shows nothing)";
}

TEST(Bf16LhsPackEdge, NonFiniteRowsPackAsKleidiAI) {
    // KleidiAI's bytes (docs/reliability.md "Special inputs"): +inf -> data -128, offset
    // 128, scale 0; -inf (finite maximum) -> 127, -127, 0; a NaN -> a finite quantisation (range
    // [0, 0] when it is in the first 8 floor(K/8) values and no value follows them, else skipped).
    for (size_t pos : {0u, 5u, 16u, 20u}) {
        for (const auto& c : {std::tuple<uint16_t, int8_t, int32_t>{0x7F80, -128, 128}, {0xFF80, 127, -127}}) {
            std::vector<uint16_t> x(21, bf16(0.75f));
            x[pos] = std::get<0>(c);
            const auto u = pack_one_row(x);
            EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), 0u) << std::hex << std::get<0>(c) << " at " << pos;
            EXPECT_EQ(u.offset[0], std::get<2>(c));
            for (size_t i = 0; i < u.kp; ++i) EXPECT_EQ(u.q[i], std::get<1>(c)) << i;
        }
        for (uint16_t bad : {uint16_t{0x7FC0}, uint16_t{0xFFA1}}) {
            std::vector<uint16_t> x(21, bf16(0.75f));
            x[3] = bf16(-2.5f);
            x[pos] = bad;
            const auto u = pack_one_row(x);
            EXPECT_TRUE(std::isfinite(u.scale[0])) << std::hex << bad << " at " << pos;
            std::vector<uint8_t> want(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(1, 21, 1, 16, 2));
            kai_ref::pack_qai8dxp_bf16(1, 21, 1, 16, 2, 0, x.data(), 42, want.data());
            const auto w = kai_ref::unpack_qai8dxp(want.data(), 1, 21, 1, 16, 2);
            EXPECT_EQ(u.q, w.q);
            EXPECT_EQ(u.offset[0], w.offset[0]);
            EXPECT_EQ(kai_ref::f32_bits(u.scale[0]), kai_ref::f32_bits(w.scale[0]));
        }
    }
}

TEST(Bf16LhsPackEdge, SpecialRowVectorsFromKleidiAIMatchTheReference) {
    // The reference models KleidiAI's arithmetic on the recorded special rows (kai's packer replays
    // them in Bf16CompatTest).
    EXPECT_TRUE(kai_test::lhs_pack_matches_vectors(
        "kai_lhs_quant_pack_qai8dxp_bf16_neon__special_", 3,
        [](size_t m, size_t k, size_t mr, size_t kr, size_t sr, const uint8_t* lhs, size_t stride, uint8_t* out) {
            kai_ref::pack_qai8dxp_bf16(m, k, mr, kr, sr, 0, reinterpret_cast<const uint16_t*>(lhs), stride, out);
        }));
}

TEST(Bf16LhsPackEdge, DegenerateRowsPackAsReference) {
    // Tiny rows (255 / range overflows: KleidiAI's bytes), huge rows (range overflows f32), constant
    // rows, signed zeros, bf16 subnormals: kai's bytes equal the reference's for mr 1 and 4.
    const size_t k = 37;
    std::vector<std::vector<uint16_t>> rows = {
        std::vector<uint16_t>(k, 0x0001),                 // smallest subnormal
        std::vector<uint16_t>(k, 0x8000),                 // -0
        std::vector<uint16_t>(k, bf16(3.0e38f)),          // constant huge
        std::vector<uint16_t>(k, bf16(1.0e-38f)),         // tiny
    };
    std::vector<uint16_t> mixed(k, bf16(-3.0e38f));
    mixed[3] = bf16(3.0e38f);
    rows.push_back(mixed);
    std::vector<uint16_t> zeros_and_tiny(k, 0x0000);
    zeros_and_tiny[9] = 0x8003;
    rows.push_back(zeros_and_tiny);
    std::vector<uint16_t> flat;
    for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
    const size_t m = rows.size();
    for (size_t mr : {1u, 4u}) {
        const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, mr, 16, 2);
        std::vector<uint8_t> got(size, 0x5A), want(size, 0x5A);
        pack_kai(m, k, mr, 16, 2, 0, flat.data(), k * 2, got.data());
        kai_ref::pack_qai8dxp_bf16(m, k, mr, 16, 2, 0, flat.data(), k * 2, want.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size)) << "mr " << mr;
    }
}

TEST(Bf16LhsPackEdge, EmptyMWritesNothing) {
    std::vector<uint8_t> out(64, 0x33);
    pack_kai(0, 8, 4, 16, 2, 0, nullptr, 16, out.data());
    for (uint8_t b : out) EXPECT_EQ(b, 0x33);
    EXPECT_EQ(kai_get_m_step_lhs_quant_pack_qai8dxp_bf16_neon(4), 4u);
    EXPECT_EQ(kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon(3, 100), 300u);
    EXPECT_EQ(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(8, 40, 4, 16, 2), 2u * 4 * (64 + 8));
    EXPECT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(3, 40, 4, 16, 2), 4u * (64 + 8));
}

#ifndef NDEBUG
TEST(Bf16LhsPackDeathTest, EveryCheckAbortsNamingItsParameter) {
    const std::string file = "kai_lhs_quant_pack_qai8dxp_bf16_neon.c";
    std::vector<uint16_t> x(64, bf16(1.0f));
    std::vector<uint8_t> out(1024);
    auto run = [&](size_t m, size_t k, size_t mr, size_t kr, size_t sr, const void* l, size_t stride, void* o) {
        kai_run_lhs_quant_pack_qai8dxp_bf16_neon(m, k, mr, kr, sr, 0, l, stride, o);
    };
    std::vector<kai_test::PreconditionCase> cases = {
        {"run mr 0", file, "mr must be at least 1",
         [&](bool b) { run(1, 8, b ? 0 : 1, 16, 2, x.data(), 16, out.data()); }},
        {"run kr % sr", file, "kr must be a multiple of sr",
         [&](bool b) { run(1, 8, 1, b ? 15 : 16, 2, x.data(), 16, out.data()); }},
        {"run kr / sr = 4", file, "kr / sr must be 8",
         [&](bool b) { run(1, 8, 1, b ? 8 : 16, 2, x.data(), 16, out.data()); }},
        {"run k 0", file, "k must be at least 1",
         [&](bool b) { run(1, b ? 0 : 8, 1, 16, 2, x.data(), 16, out.data()); }},
        {"run lhs NULL", file, "lhs must not be NULL",
         [&](bool b) { run(1, 8, 1, 16, 2, b ? nullptr : x.data(), 16, out.data()); }},
        {"run lhs_packed NULL", file, "lhs_packed must not be NULL",
         [&](bool b) { run(1, 8, 1, 16, 2, x.data(), 16, b ? nullptr : out.data()); }},
        {"run stride", file, "lhs_stride must be at least k * 2",
         [&](bool b) { run(1, 8, 1, 16, 2, x.data(), b ? 15 : 16, out.data()); }},
        {"packed_offset mr 0", file, "mr must be at least 1",
         [&](bool b) { (void)kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(0, 8, b ? 0 : 1, 16, 2); }},
        {"packed_size k 0", file, "k must be at least 1",
         [&](bool b) { (void)kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(1, b ? 0 : 8, 1, 16, 2); }},
    };
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

// ------------------------------------------------------------------------------------------
// Kernels: one adapter over both families' ukernel structs.
// ------------------------------------------------------------------------------------------

struct Kernel {
    std::string name;
    uint32_t features;
    bool c32;  // block-wise (qsi4c32p) RHS, else per-channel (qsi4cxp)
    size_t ms, ns, mr, nr, kr, sr;
    std::function<size_t(size_t, size_t)> lhs_off;          // (m_idx, k)
    std::function<size_t(size_t, size_t, size_t)> rhs_off;  // (n_idx, k, bl)
    std::function<size_t(size_t, size_t, size_t)> dst_off;  // (m_idx, n_idx, stride)
    std::function<size_t(size_t, size_t)> dst_size;
    // (m, n, k, bl, lhs_packed, rhs_packed, dst, stride_row, stride_col, min, max)
    std::function<void(size_t, size_t, size_t, size_t, const void*, const void*, void*, size_t, size_t, float, float)>
        run;
};

template <typename V>
Kernel adapt_common(const V& v, bool c32) {
    const auto& uk = v.ukernel;
    Kernel k;
    k.name = v.name;
    k.features = v.features;
    k.c32 = c32;
    k.ms = KAI_ABI(uk.get_m_step)();
    k.ns = KAI_ABI(uk.get_n_step)();
    k.mr = KAI_ABI(uk.get_mr)();
    k.nr = KAI_ABI(uk.get_nr)();
    k.kr = KAI_ABI(uk.get_kr)();
    k.sr = KAI_ABI(uk.get_sr)();
    auto lo = uk.get_lhs_packed_offset;
    auto dof = uk.get_dst_offset;
    auto dsz = uk.get_dst_size;
    k.lhs_off = [lo](size_t m_idx, size_t kk) { return KAI_ABI(lo)(m_idx, kk); };
    k.dst_off = [dof](size_t m_idx, size_t n_idx, size_t s) { return KAI_ABI(dof)(m_idx, n_idx, s); };
    k.dst_size = [dsz](size_t m, size_t n) { return KAI_ABI(dsz)(m, n); };
    return k;
}

const std::vector<Kernel>& kernels() {
    static const std::vector<Kernel> all = [] {
        std::vector<Kernel> out;
        for (const auto& v : kai_registry::bf16_qsi4cxp_variants()) {
            Kernel k = adapt_common(v, false);
            auto ro = v.ukernel.get_rhs_packed_offset;
            auto run = v.ukernel.run_matmul;
            k.rhs_off = [ro](size_t n_idx, size_t kk, size_t) { return KAI_ABI(ro)(n_idx, kk); };
            k.run = [run](size_t m, size_t n, size_t kk, size_t, const void* l, const void* r, void* d, size_t sr_,
                          size_t sc, float lo, float hi) { KAI_ABI(run)(m, n, kk, l, r, d, sr_, sc, lo, hi); };
            out.push_back(k);
        }
        for (const auto& v : kai_registry::bf16_qsi4c32p_variants()) {
            Kernel k = adapt_common(v, true);
            auto ro = v.ukernel.get_rhs_packed_offset;
            auto run = v.ukernel.run_matmul;
            k.rhs_off = [ro](size_t n_idx, size_t kk, size_t bl) { return KAI_ABI(ro)(n_idx, kk, bl); };
            k.run = [run](size_t m, size_t n, size_t kk, size_t bl, const void* l, const void* r, void* d, size_t sr_,
                          size_t sc, float lo, float hi) { KAI_ABI(run)(m, n, kk, bl, l, r, d, sr_, sc, lo, hi); };
            out.push_back(k);
        }
        return out;
    }();
    return all;
}

// RHS of a case: nxk int4 bytes (unsigned nibbles, zero point 8), f32 per-channel scales (cx) or
// bf16 block scales (c32), f32 bias.
struct Rhs {
    size_t n, k, bl, rhs_stride, scale_stride;
    std::vector<uint8_t> bytes;
    std::vector<float> scale_f32;    // cx: n
    std::vector<uint8_t> scale_bf16;  // c32: n rows of scale_stride bytes
    std::vector<float> bias;
};

Rhs make_rhs(const Kernel& kn, size_t n, size_t k, size_t bl, uint64_t seed) {
    Rhs r;
    r.n = n;
    r.k = k;
    r.bl = bl;
    r.rhs_stride = kn.c32 ? k / 2 + 3 : (k + 1) / 2;
    r.bytes = kai_test::random_bytes(n * r.rhs_stride, seed);
    r.bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    if (kn.c32) {
        r.scale_stride = 2 * (k / bl) + 4;
        r.scale_bf16.assign(n * r.scale_stride, 0xEE);
        Rng rng(seed + 1);
        for (size_t j = 0; j < n; ++j)
            for (size_t b = 0; b < k / bl; ++b) {
                const uint16_t s = bf16(rng.uniform(0.002f, 0.05f) * (rng.integer(0, 1) ? 1.0f : -1.0f));
                std::memcpy(r.scale_bf16.data() + j * r.scale_stride + 2 * b, &s, 2);
            }
    } else {
        r.scale_stride = 0;
        r.scale_f32 = kai_test::random_f32(n, 0.001f, 0.05f, seed + 1);
    }
    return r;
}

size_t rhs_packed_size(const Kernel& kn, size_t n, size_t k, size_t bl) {
    return kn.c32 ? kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(n, k, kn.nr, kn.kr, kn.sr, bl, kai_dt_bf16)
                  : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, kn.nr, kn.kr, kn.sr);
}

std::vector<uint8_t> pack_rhs(const Kernel& kn, const Rhs& r, bool has_bias) {
    std::vector<uint8_t> out(rhs_packed_size(kn, r.n, r.k, r.bl));
    const float* bias = has_bias ? r.bias.data() : nullptr;
    if (kn.c32) {
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, r.n, r.k, kn.nr, kn.kr, kn.sr, r.bl, r.bytes.data(),
                                                          r.rhs_stride, bias, r.scale_bf16.data(), r.scale_stride,
                                                          out.data(), 0, &p);
    } else {
        kai_rhs_pack_qs4cxs1s0_param p{1, 8};
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0)(1, r.n, r.k, kn.nr, kn.kr, kn.sr, r.bytes.data(), bias,
                                                       r.scale_f32.data(), out.data(), 0, &p);
    }
    return out;
}

// Reference bf16 output (m x nw, columns [n0, n0 + nw)) for a quantised LHS.
std::vector<uint16_t> reference(const Kernel& kn, const Rhs& r, const kai_ref::Qai8dxpUnpacked& lhs, size_t n0,
                                size_t nw, bool has_bias, float lo, float hi) {
    std::vector<int8_t> w(nw * r.k);
    std::vector<float> bias(nw);
    for (size_t j = 0; j < nw; ++j) {
        for (size_t kk = 0; kk < r.k; ++kk) {
            const uint8_t u = kai_ref::qsu4_nxk_nibble(r.bytes.data(), r.rhs_stride, n0 + j, kk);
            w[j * r.k + kk] = static_cast<int8_t>(static_cast<int>(u) - 8);
        }
        bias[j] = r.bias[n0 + j];
    }
    const float* b = has_bias ? bias.data() : nullptr;
    if (!kn.c32) {
        return kai_ref::matmul_qai8dxp_qsi4cx_bf16(lhs, nw, r.k, w.data(), r.scale_f32.data() + n0, b, lo, hi);
    }
    const size_t nb = r.k / r.bl;
    std::vector<float> d(nw * nb), sums(nw);
    for (size_t j = 0; j < nw; ++j) {
        for (size_t bb = 0; bb < nb; ++bb) {
            uint16_t raw;
            std::memcpy(&raw, r.scale_bf16.data() + (n0 + j) * r.scale_stride + 2 * bb, 2);
            d[j * nb + bb] = kai_ref::f32_from_bf16(raw);
        }
        sums[j] = kai_ref::qsi4c32p_row_sum(w.data() + j * r.k, d.data() + j * nb, r.k, r.bl, kn.kr / kn.sr);
    }
    return kai_ref::matmul_qai8dxp_qsi4c32_bf16(lhs, nw, r.k, r.bl, w.data(), d.data(), sums.data(), b, lo, hi);
}

bool is_bf16_nan(uint32_t b) { return (b & 0x7F80u) == 0x7F80u && (b & 0x7Fu) != 0; }

// Equal bits, or both NaN (the NaN payload of a non-finite input is not part of the contract).
::testing::AssertionResult same_bf16(uint32_t got, uint16_t want) {
    if (got == want || (is_bf16_nan(got) && is_bf16_nan(want))) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << std::hex << "got 0x" << got << " (" << kai_ref::f32_from_bf16(
                                                static_cast<uint16_t>(got))
                                         << "), expected 0x" << want << " (" << kai_ref::f32_from_bf16(want) << ")";
}

// Runs the kernel on [m0, m0 + mh) x [n0, n0 + nw) of operands packed once for the whole matrix,
// each in a guarded copy cut after the tile's last packed byte, into a DST with a wider stride
// filled with the bf16 sentinel; checks the bits and that nothing outside the tile was written.
void run_tile(const Kernel& kn, size_t m, size_t n, size_t k, size_t bl, const std::vector<uint8_t>& lhs_packed,
              const std::vector<uint8_t>& rhs_packed, size_t m0, size_t mh, size_t n0, size_t nw, float lo, float hi,
              const std::vector<uint16_t>& want) {
    const size_t lhs_end = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m0 + mh, k, kn.mr, kn.kr, kn.sr);
    const size_t rhs_end = rhs_packed_size(kn, n0 + nw, k, bl);
    ASSERT_LE(lhs_end, lhs_packed.size());
    ASSERT_LE(rhs_end, rhs_packed.size());
    GuardedBuffer lp(lhs_end), rp(rhs_end);
    std::memcpy(lp.data(), lhs_packed.data(), lhs_end);
    std::memcpy(rp.data(), rhs_packed.data(), rhs_end);
    const size_t stride = (n + 3) * 2;
    DstBuffer dst(m, n + 3, 2, stride);
    kn.run(mh, nw, k, bl, lp.data() + kn.lhs_off(m0, k), rp.data() + kn.rhs_off(n0, k, bl),
           dst.at(0, 0) + kn.dst_off(m0, n0, stride), stride, 2, lo, hi);
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j)
            ASSERT_TRUE(same_bf16(dst.bits(m0 + i, n0 + j), want[i * nw + j]))
                << "dst[" << m0 + i << "][" << n0 + j << "] (tile at " << m0 << "," << n0 << ")";
    EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw));
}

// kRelu: [0, +FLT_MAX] (only the lower bound finite); kMaxOnly: [-FLT_MAX, 60 % quantile].
enum class Clamp { kNone, kQuantiles, kInverted, kInfinite, kRelu, kMaxOnly };

struct KCase {
    size_t m, n, k, bl;
    bool bias;
    Clamp clamp;
};

using KParam = std::tuple<size_t, KCase>;

std::vector<KCase> kernel_cases(const Kernel& kn) {
    const bool gemv = kn.ms == 1;
    const size_t ms = kn.ms, ns = kn.ns;
    auto M = [&](size_t gemm, size_t gemv_m) { return gemv ? gemv_m : gemm; };
    std::vector<KCase> c;
    if (kn.c32) {
        c = {
            {1, 1, 32, 32, true, Clamp::kNone},
            {M(ms - 1, 1), ns - 1, 32, 32, false, Clamp::kQuantiles},
            {M(ms, 1), ns, 64, 32, true, Clamp::kNone},
            {M(ms + 1, 2), ns + 1, 96, 32, true, Clamp::kQuantiles},
            {M(13, 1), 33, 64, 64, true, Clamp::kInfinite},
            {M(2 * ms + 3, 3), 2 * ns + 1, 128, 128, true, Clamp::kQuantiles},
            {M(17, 1), 11, 256, 256, false, Clamp::kInverted},
            {M(37, 1), 53, 128, 32, true, Clamp::kRelu},
            {M(ms + 2, 2), ns + 3, 64, 32, false, Clamp::kMaxOnly},
            {M(11, 1), 23, 1024, 32, true, Clamp::kQuantiles},
            // Inverted bounds across several column blocks (the GEMVs' multi-block path).
            {M(9, 1), 4 * ns + 3, 128, 64, true, Clamp::kInverted},
        };
        if (!kai_test::reduced_sweep()) {
            c.push_back({M(29, 2), 37, 4096, 32, true, Clamp::kNone});
            c.push_back({M(3 * ms, 1), 4 * ns + 3, 2048, 128, false, Clamp::kQuantiles});
            c.push_back({1, 300, 11008, 32, true, Clamp::kNone});
        }
        c.push_back({M(kn.mr + 1, 1), kn.nr + 1, 16448, 64, true, Clamp::kQuantiles});  // past 16384, both sweeps
    } else {
        c = {
            {1, 1, 1, 0, true, Clamp::kNone},
            {M(ms - 1, 1), ns - 1, 33, 0, false, Clamp::kQuantiles},
            {M(ms, 1), ns, 32, 0, true, Clamp::kNone},
            {M(ms + 1, 2), ns + 1, 45, 0, true, Clamp::kQuantiles},
            {M(13, 1), 31, 7, 0, true, Clamp::kInfinite},
            {M(2 * ms + 3, 3), 2 * ns + 3, 65, 0, true, Clamp::kQuantiles},
            {M(17, 1), 11, 128, 0, false, Clamp::kInverted},
            {M(37, 1), 53, 101, 0, true, Clamp::kRelu},
            {M(ms + 2, 2), ns + 3, 70, 0, false, Clamp::kMaxOnly},
            {M(11, 1), 23, 1024, 0, true, Clamp::kQuantiles},
            {M(9, 1), 4 * ns + 3, 70, 0, true, Clamp::kInverted},
        };
        if (!kai_test::reduced_sweep()) {
            c.push_back({M(29, 2), 37, 4099, 0, true, Clamp::kNone});
            c.push_back({M(3 * ms, 1), 4 * ns + 3, 2047, 0, false, Clamp::kQuantiles});
            c.push_back({1, 300, 14336, 0, true, Clamp::kNone});
            c.push_back({M(kn.mr + 1, 1), kn.nr + 1, 11008, 0, false, Clamp::kInverted});
        }
        c.push_back({M(kn.mr + 1, 1), kn.nr + 1, 16448, 0, true, Clamp::kQuantiles});  // past 16384, both sweeps
    }
    return c;
}

// One case of kernel ki (the caller checked its features): the whole matrix, then sub-tiles. full_scale (the
// internal limits' full-scale data): LHS row 0 constant 1.0 (every quantised value 127) and weight column 0
// all nibbles 0 (w = -8), so output (0, 0) has the widest block sums.
void check_kernel(size_t ki, const KCase& c, bool full_scale) {
    const Kernel& kn = kernels()[ki];
    const uint64_t seed = kai_test::seed_from(kn.name + shape_name(c.m, c.n, c.k) + std::to_string(c.bl));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t stride = c.k + 3;
    auto lhs = make_lhs(c.m, c.k, stride, seed, true);
    Rhs r = make_rhs(kn, c.n, c.k, c.bl, seed + 10);
    if (full_scale) {
        std::fill(lhs.begin(), lhs.begin() + static_cast<std::ptrdiff_t>(c.k), bf16(1.0f));
        std::fill(r.bytes.begin(), r.bytes.begin() + static_cast<std::ptrdiff_t>(c.k / 2), uint8_t{0});
    }
    const auto ql = reference_lhs(lhs.data(), stride, 0, c.m, c.k, kn.mr, kn.kr, kn.sr);
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (c.clamp == Clamp::kInfinite) {
        lo = -INFINITY;
        hi = INFINITY;
    } else if (c.clamp != Clamp::kNone) {
        auto free = reference(kn, r, ql, 0, c.n, c.bias, -FLT_MAX, FLT_MAX);
        std::vector<float> v(free.size());
        for (size_t i = 0; i < v.size(); ++i) v[i] = kai_ref::f32_from_bf16(free[i]);
        std::sort(v.begin(), v.end());
        // Bounds between bf16 values (a third of a bf16 ulp off), so the rounding after the clamp shows.
        const float q1 = v[v.size() / 5] * (1.0f + 1.0f / 768), q4 = v[v.size() * 4 / 5] * (1.0f - 1.0f / 768);
        lo = c.clamp == Clamp::kInverted ? q4 + 1.0f : q1;
        hi = c.clamp == Clamp::kInverted ? q1 : q4;
        if (c.clamp == Clamp::kRelu) {
            lo = 0.0f;
            hi = FLT_MAX;
        } else if (c.clamp == Clamp::kMaxOnly) {
            lo = -FLT_MAX;
            hi = v[v.size() * 3 / 5] * (1.0f - 1.0f / 768);
        }
    }
    const auto want = reference(kn, r, ql, 0, c.n, c.bias, lo, hi);
    // kai's own packers for the operands.
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(c.m, c.k, kn.mr, kn.kr, kn.sr));
    pack_kai(c.m, c.k, kn.mr, kn.kr, kn.sr, 0, lhs.data(), stride * 2, lp.data());
    const auto rp = pack_rhs(kn, r, c.bias);
    {
        SCOPED_TRACE("whole matrix");
        run_tile(kn, c.m, c.n, c.k, c.bl, lp, rp, 0, c.m, 0, c.n, lo, hi, want);
    }
    const size_t m0s[] = {(c.m - 1) / kn.ms * kn.ms, c.m > kn.ms ? kn.ms : 0};
    const size_t n0s[] = {(c.n - 1) / kn.ns * kn.ns, c.n > 2 * kn.ns ? kn.ns : 0};
    for (size_t t = 0; t < 2; ++t) {
        const size_t m0 = m0s[t], n0 = n0s[t];
        const size_t mh = t == 0 ? c.m - m0 : std::min(kn.ms, c.m - m0);
        const size_t nw = t == 0 ? c.n - n0 : std::min(2 * kn.ns, c.n - n0);
        if (m0 == 0 && n0 == 0 && mh == c.m && nw == c.n) continue;
        SCOPED_TRACE("tile " + std::to_string(m0) + "," + std::to_string(n0));
        std::vector<uint16_t> sub(mh * nw);
        for (size_t i = 0; i < mh; ++i)
            for (size_t j = 0; j < nw; ++j) sub[i * nw + j] = want[(m0 + i) * c.n + n0 + j];
        run_tile(kn, c.m, c.n, c.k, c.bl, lp, rp, m0, mh, n0, nw, lo, hi, sub);
    }
}

class Bf16KernelTest : public ::testing::TestWithParam<KParam> {};

TEST_P(Bf16KernelTest, BitExactOnWholeMatrixAndSubTiles) {
    const auto& [ki, c] = GetParam();
    KAI_TEST_SKIP_UNLESS(kernels()[ki].features);
    check_kernel(ki, c, false);
}

std::vector<KParam> kernel_params() {
    std::vector<KParam> out;
    for (size_t i = 0; i < kernels().size(); ++i)
        for (const auto& c : kernel_cases(kernels()[i])) out.emplace_back(i, c);
    return out;
}

std::string kernel_param_name(const ::testing::TestParamInfo<KParam>& info) {
    const auto& [ki, c] = info.param;
    std::string s = kernels()[ki].name.substr(std::strlen("kai_matmul_clamp_bf16_"));
    s += "_" + shape_name(c.m, c.n, c.k) + (c.bl ? "_bl" + std::to_string(c.bl) : "") + (c.bias ? "_bias" : "");
    s += c.clamp == Clamp::kNone       ? ""
         : c.clamp == Clamp::kQuantiles ? "_clamp"
         : c.clamp == Clamp::kInverted  ? "_inverted"
         : c.clamp == Clamp::kRelu      ? "_relu"
         : c.clamp == Clamp::kMaxOnly   ? "_maxonly"
                                        : "_inf";
    return s;
}

INSTANTIATE_TEST_SUITE_P(Variants, Bf16KernelTest, ::testing::ValuesIn(kernel_params()), kernel_param_name);

// Each kernel at its internal limits (test/common/limits.cc: unpacked or duplicated operands on the stack, K and
// column passes, long blocks with full-scale data) at limit - 1, limit and limit + 1, in both sweeps: bias, no
// clamp, the whole matrix and sub-tiles.
using LimitParam = std::tuple<size_t, KCase, bool /*full scale*/>;

std::vector<LimitParam> limit_kernel_params() {
    std::vector<LimitParam> out;
    for (size_t i = 0; i < kernels().size(); ++i) {
        for (const kai_test::LimitCase& l : kai_test::limit_cases(kernels()[i].name.c_str())) {
            out.emplace_back(i, KCase{l.m, l.n, l.k, l.bl, true, Clamp::kNone}, l.data == kai_test::LimitData::kFullScale);
        }
    }
    return out;
}

std::string limit_param_name(const ::testing::TestParamInfo<LimitParam>& info) {
    const KParam kp(std::get<0>(info.param), std::get<1>(info.param));
    return kernel_param_name(::testing::TestParamInfo<KParam>(kp, 0)) + (std::get<2>(info.param) ? "_full" : "");
}

class Bf16KernelLimitTest : public ::testing::TestWithParam<LimitParam> {};

TEST_P(Bf16KernelLimitTest, BitExactOnWholeMatrixAndSubTiles) {
    const auto& [ki, c, full] = GetParam();
    KAI_TEST_SKIP_UNLESS(kernels()[ki].features);
    check_kernel(ki, c, full);
}

INSTANTIATE_TEST_SUITE_P(Limits, Bf16KernelLimitTest, ::testing::ValuesIn(limit_kernel_params()), limit_param_name);

class Bf16KernelVariantTest : public ::testing::TestWithParam<size_t> {
protected:
    const Kernel& kn() const { return kernels()[GetParam()]; }
    size_t bl() const { return kn().c32 ? 32 : 0; }
};

TEST_P(Bf16KernelVariantTest, ClampBoundsBetweenBf16ValuesRoundAfterTheClamp) {
    // min = max = 1 + 3 * 2^-9 (not a bf16 value): every output is clamped to it in f32, then
    // rounds to 1 + 2^-7 (0x3F81), above max (docs/formats.md, "16-bit outputs").
    KAI_TEST_SKIP_UNLESS(kn().features);
    const size_t m = kn().ms + 1, n = kn().ns + 3, k = 64;
    const auto lhs = make_lhs(m, k, k, 7, false);
    const Rhs r = make_rhs(kn(), n, k, 32, 8);
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, kn().mr, kn().kr, kn().sr));
    pack_kai(m, k, kn().mr, kn().kr, kn().sr, 0, lhs.data(), k * 2, lp.data());
    const auto rp = pack_rhs(kn(), r, true);
    const float bound = 1.0f + 3.0f / 512.0f;
    DstBuffer dst(m, n, 2, n * 2);
    kn().run(m, n, k, 32, lp.data(), rp.data(), dst.at(0, 0), n * 2, 2, bound, bound);
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) ASSERT_EQ(dst.bits(i, j), 0x3F81u) << i << "," << j;
    // Half-way between two bf16 values: ties to even (1 + 2^-8 -> 1.0; 1 + 3 * 2^-8 -> 1 + 2^-6).
    kn().run(m, n, k, 32, lp.data(), rp.data(), dst.at(0, 0), n * 2, 2, 1.0f + 1.0f / 256, 1.0f + 1.0f / 256);
    EXPECT_EQ(dst.bits(m - 1, n - 1), 0x3F80u);
    kn().run(m, n, k, 32, lp.data(), rp.data(), dst.at(0, 0), n * 2, 2, 1.0f + 3.0f / 256, 1.0f + 3.0f / 256);
    EXPECT_EQ(dst.bits(0, 0), 0x3F82u);
}

TEST_P(Bf16KernelVariantTest, NonFiniteInputsGiveTheReferencesValues) {
    // LHS rows with +inf, -inf and NaN pack as KleidiAI does (scale 0 for an infinity: outputs are
    // the bias; a finite quantisation for a NaN); an RHS channel with an infinite scale (cx) or a
    // huge bias gives +-inf or NaN. Every output equals the reference's.
    KAI_TEST_SKIP_UNLESS(kn().features);
    const size_t m = 2 * kn().ms + 1, n = 2 * kn().ns + 1, k = kn().c32 ? 64 : 40;
    auto lhs = make_lhs(m, k, k, 21, false);
    lhs[0 * k + 3] = 0x7F80;
    if (m > 2) lhs[2 * k + k - 1] = 0xFF80;
    lhs[(m - 1) * k + 9] = 0x7FC0;
    Rhs r = make_rhs(kn(), n, k, 32, 22);
    if (!kn().c32) r.scale_f32[1] = INFINITY;
    r.bias[2] = FLT_MAX;
    r.bias[3] = -INFINITY;
    const auto ql = reference_lhs(lhs.data(), k, 0, m, k, kn().mr, kn().kr, kn().sr);
    const auto want = reference(kn(), r, ql, 0, n, true, -INFINITY, INFINITY);
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, kn().mr, kn().kr, kn().sr));
    pack_kai(m, k, kn().mr, kn().kr, kn().sr, 0, lhs.data(), k * 2, lp.data());
    const auto rp = pack_rhs(kn(), r, true);
    run_tile(kn(), m, n, k, bl(), lp, rp, 0, m, 0, n, -INFINITY, INFINITY, want);
    for (size_t j = 4; j < n; ++j) EXPECT_FALSE(is_bf16_nan(want[j])) << "row 0 (+inf) gives its bias";
    for (size_t j = 4; j < n; ++j) EXPECT_FALSE(is_bf16_nan(want[(m - 1) * n + j])) << "the NaN row quantises";
    EXPECT_EQ(want[1 * n + 2] & 0x7FFFu, 0x7F80u) << "FLT_MAX bias rounds to bf16 infinity";
    EXPECT_EQ(want[1 * n + 3], 0xFF80u);
}

TEST_P(Bf16KernelVariantTest, F32LhsPackerFeedsTheKernel) {
    // Any qai8dxp packer gives the layout (docs/formats.md, "16-bit outputs"): the f32 packer's buffer of the widened rows
    // gives the reference of those bytes.
    KAI_TEST_SKIP_UNLESS(kn().features);
    const size_t m = kn().ms + 2, n = kn().ns * 2 + 1, k = kn().c32 ? 128 : 77;
    const auto lhs = make_lhs(m, k, k, 31, true);
    std::vector<float> wide(m * k);
    for (size_t i = 0; i < m * k; ++i) wide[i] = kai_ref::f32_from_bf16(lhs[i]);
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, kn().mr, kn().kr, kn().sr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, kn().mr, kn().kr, kn().sr, 0, wide.data(), k * 4, lp.data());
    std::vector<uint8_t> ref_lp(lp.size());
    kai_ref::pack_qai8dxp(m, k, kn().mr, kn().kr, kn().sr, 0, wide.data(), k * 4, ref_lp.data());
    const auto ql = kai_ref::unpack_qai8dxp(ref_lp.data(), m, k, kn().mr, kn().kr, kn().sr);
    const Rhs r = make_rhs(kn(), n, k, 32, 32);
    const auto want = reference(kn(), r, ql, 0, n, true, -FLT_MAX, FLT_MAX);
    run_tile(kn(), m, n, k, bl(), lp, pack_rhs(kn(), r, true), 0, m, 0, n, -FLT_MAX, FLT_MAX, want);
}

TEST_P(Bf16KernelVariantTest, GettersAndEmptyShapes) {
    EXPECT_EQ(kn().dst_off(kn().ms, kn().ns, 1000), kn().ms * 1000 + kn().ns * 2);
    EXPECT_EQ(kn().dst_size(3, 5), 30u);
    KAI_TEST_SKIP_UNLESS(kn().features);
    std::vector<uint8_t> lp(4096, 0), rp(4096, 0);
    DstBuffer dst(2, 8, 2, 16);
    kn().run(0, 8, 32, bl() ? bl() : 0, lp.data(), rp.data(), dst.at(0, 0), 16, 2, -1.0f, 1.0f);
    kn().run(2, 0, 32, bl() ? bl() : 0, lp.data(), rp.data(), dst.at(0, 0), 16, 2, -1.0f, 1.0f);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

#ifndef NDEBUG
TEST_P(Bf16KernelVariantTest, PreconditionsAbortNamingTheParameter) {
    KAI_TEST_SKIP_UNLESS(kn().features);
    const Kernel& k = kn();
    const std::string file = k.name + ".c";
    // At least two rows, so that a row stride below one output row can be tested.
    const size_t m = k.ms > 1 ? k.ms : 2, n = k.ns, kk = 64, blv = k.c32 ? 32 : 0;
    auto lhs = make_lhs(m, kk, kk, 3, false);
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, kk, k.mr, k.kr, k.sr));
    pack_kai(m, kk, k.mr, k.kr, k.sr, 0, lhs.data(), kk * 2, lp.data());
    const auto rp = pack_rhs(k, make_rhs(k, n, kk, 32, 4), false);
    std::vector<uint16_t> dst(m * n);
    auto run = [&](size_t sc, const void* l, const void* r, void* d) {
        k.run(m, n, kk, blv, l, r, d, n * 2, sc, -1.0f, 1.0f);
    };
    std::vector<kai_test::PreconditionCase> cases = {
        {"dst_stride_col 4", file, k.c32 ? "dst_stride_col must be 2 (sizeof(uint16_t))" : "dst_stride_col must be sizeof(uint16_t)",
         [&](bool b) { run(b ? 4 : 2, lp.data(), rp.data(), dst.data()); }},
        {"lhs_packed NULL", file, "lhs_packed must not be NULL",
         [&](bool b) { run(2, b ? nullptr : lp.data(), rp.data(), dst.data()); }},
        {"rhs_packed NULL", file, "rhs_packed must not be NULL",
         [&](bool b) { run(2, lp.data(), b ? nullptr : rp.data(), dst.data()); }},
        {"dst NULL", file, "dst must not be NULL", [&](bool b) { run(2, lp.data(), rp.data(), b ? nullptr : dst.data()); }},
        {"dst_offset n_idx", file, "n_idx must be a multiple of n_step",
         [&](bool b) { (void)k.dst_off(0, b ? 1 : 0, 64); }},
        // One output row needs n * 2 bytes; a stride one element short would overlap the rows.
        {"dst_stride_row", file, "dst_stride_row must be at least n * dst_stride_col if m > 1",
         [&](bool b) { k.run(m, n, kk, blv, lp.data(), rp.data(), dst.data(), (b ? n - 1 : n) * 2, 2, -1.0f, 1.0f); }},
    };
    if (k.c32) {
        cases.push_back({"k % bl", file, "k must be a multiple of bl", [&](bool b) {
                             k.run(m, n, b ? 48 : kk, 32, lp.data(), rp.data(), dst.data(), n * 2, 2, -1.0f, 1.0f);
                         }});
    } else {
        cases.push_back({"k 0", file, "k must be at least 1", [&](bool b) {
                             k.run(m, n, b ? 0 : kk, 0, lp.data(), rp.data(), dst.data(), n * 2, 2, -1.0f, 1.0f);
                         }});
    }
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

std::string variant_name(const ::testing::TestParamInfo<size_t>& info) {
    return kernels()[info.param].name.substr(std::strlen("kai_matmul_clamp_bf16_"));
}

std::vector<size_t> variant_indices() {
    std::vector<size_t> v(kernels().size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = i;
    return v;
}

INSTANTIATE_TEST_SUITE_P(Variants, Bf16KernelVariantTest, ::testing::ValuesIn(variant_indices()), variant_name);

TEST(Bf16Registry, HasTheFourKernels) {
    EXPECT_EQ(kai_registry::bf16_qsi4cxp_variants().size(), 2u);
    EXPECT_EQ(kai_registry::bf16_qsi4c32p_variants().size(), 2u);
}

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors.
// ------------------------------------------------------------------------------------------

class Bf16CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Bf16CompatTest, MatchesKleidiAI) {
    const auto vec = kai_test::load_compat_vector(GetParam());
    ASSERT_FALSE(vec.header.empty());
    const size_t m = vec.size("m"), k = vec.size("k");
    const auto& lhs_in = vec.section("lhs");
    const auto& want_lp = vec.section("lhs_packed");
    const size_t mr = vec.size("mr"), kr = vec.size("kr"), sr = vec.size("sr");
    // The LHS packer (its own vectors and every kernel vector's [lhs] -> [lhs_packed]).
    {
        ASSERT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(m, k, mr, kr, sr), want_lp.bytes.size());
        GuardedBuffer got(want_lp.bytes.size());
        const size_t stride = vec.size("lhs_stride");
        GuardedBuffer in(lhs_in.bytes.size());
        std::memcpy(in.data(), lhs_in.bytes.data(), lhs_in.bytes.size());
        pack_kai(m, k, mr, kr, sr, vec.has("m_idx_start") ? vec.size("m_idx_start") : 0, in.data(), stride,
                 got.data());
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want_lp.bytes.data(), want_lp.bytes.size(), want_lp.mask.data()));
    }
    if (vec.str("kind") != "kernel") return;
    const std::string& name = vec.str("name");
    const Kernel* kn = nullptr;
    for (const auto& c : kernels())
        if (c.name == name) kn = &c;
    ASSERT_NE(kn, nullptr) << name << " is not in the registry";
    KAI_TEST_SKIP_UNLESS(kn->features);
    EXPECT_EQ(kn->ms, vec.size("m_step"));
    EXPECT_EQ(kn->ns, vec.size("n_step"));
    EXPECT_EQ(kn->mr, mr);
    EXPECT_EQ(kn->nr, vec.size("nr"));
    EXPECT_EQ(kn->kr, kr);
    EXPECT_EQ(kn->sr, sr);
    const size_t n = vec.size("n"), bl = kn->c32 ? vec.size("bl") : 0;
    const auto& rhs = vec.section("rhs_packed");
    GuardedBuffer lp(want_lp.bytes.size()), rp(rhs.bytes.size());
    std::memcpy(lp.data(), want_lp.bytes.data(), want_lp.bytes.size());
    std::memcpy(rp.data(), rhs.bytes.data(), rhs.bytes.size());
    const size_t stride = (n + 2) * 2;
    DstBuffer dst(m, n + 2, 2, stride);
    kn->run(m, n, k, bl, lp.data(), rp.data(), dst.at(0, 0), stride, 2, vec.clamp_min(), vec.clamp_max());
    const auto& want = vec.section("dst");
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            uint16_t w;
            std::memcpy(&w, want.bytes.data() + 2 * (i * n + j), 2);
            ASSERT_EQ(dst.bits(i, j), w) << "dst[" << i << "][" << j << "]";
        }
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
}

std::vector<std::string> compat_files() {
    std::vector<std::string> out;
    for (const char* prefix : {"kai_lhs_quant_pack_qai8dxp_bf16_neon__", "kai_matmul_clamp_bf16_qai8dxp"})
        for (const auto& f : kai_test::list_compat_vectors(prefix)) out.push_back(f);
    return out;
}

std::string compat_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param.substr(info.param.find_last_of('/') + 1);
    s = s.substr(0, s.size() - 4);
    for (auto& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Vectors, Bf16CompatTest, ::testing::ValuesIn(compat_files()), compat_name);

TEST(Bf16CompatFiles, AllThirtyThreeArePresent) {
    EXPECT_EQ(compat_files().size(), 33u);  // 30 + 3 special-row files of the LHS packer
}

}  // namespace
