// SPDX-License-Identifier: Apache-2.0
// Tests of the f16 LHS quantizer kai_lhs_quant_pack_qai8dxp_f16_neon and of the f16-output int4
// per-channel kernels (matmul_clamp_f16_qai8dxp_qsi4cxp, family qsi4cxpf16): the packer byte for
// byte against the reference (test/reference/qai8dxp_ref) and the KleidiAI compat vectors; the
// kernels bit for bit against the f32 recipe of docs/formats.md, "qsi4cxp matmul" rounded once to f16 by this file's own
// portable conversion (nearest even, |y| >= 65520 -> inf), over shapes, sub-tiles, clamps (also
// bounds not representable in f16), bias, wider strides, a 16-bit NaN sentinel, guard pages,
// infinities and NaN in the inputs, and outputs that overflow f16.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/limits.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/registry/qsi4cxpf16_registry.h"

namespace {

using kai_registry::Qsi4cxpF16Variant;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// f32 -> binary16, round to nearest even, overflow (|x| >= 65520) to inf; NaN -> 0x7E00 | sign.
// Written here, independent of kai_common.h's conversion.
uint16_t f16_rne(float f) {
    const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7E00);
    const double a = std::fabs(static_cast<double>(f));
    if (a >= 65520.0) return static_cast<uint16_t>(sign | 0x7C00);
    if (a < std::ldexp(1.0, -14)) {
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24))));
    }
    int e = 0;
    (void)std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
    e -= 1;                   // a in [2^e, 2^(e+1))
    double mant = std::nearbyint(std::ldexp(a, 10 - e));
    if (mant >= 2048.0) {
        mant = 1024.0;
        e += 1;
    }
    if (e > 15) return static_cast<uint16_t>(sign | 0x7C00);
    return static_cast<uint16_t>(sign | ((e + 15) << 10) | (static_cast<int>(mant) - 1024));
}

bool same_f16(uint16_t a, uint16_t b) {
    const bool an = (a & 0x7C00) == 0x7C00 && (a & 0x3FF) != 0;
    const bool bn = (b & 0x7C00) == 0x7C00 && (b & 0x3FF) != 0;
    return an || bn ? an == bn : a == b;
}

// Random f16 LHS (bit patterns) with values in [lo, hi].
std::vector<uint16_t> random_f16(size_t count, float lo, float hi, uint64_t seed) {
    const std::vector<float> f = kai_test::random_f32(count, lo, hi, seed);
    std::vector<uint16_t> h(count);
    for (size_t i = 0; i < count; ++i) h[i] = f16_rne(f[i]);
    return h;
}

// ------------------------------------------------------------------------------------------
// LHS packer
// ------------------------------------------------------------------------------------------

// Rows with special content: NaN among large values, +inf, -inf, both, all zero, constant.
void add_special_rows(std::vector<uint16_t>& lhs, size_t m, size_t k) {
    if (m < 6) return;
    for (size_t j = 0; j < k; ++j) {
        lhs[1 * k + j] = f16_rne(j % 3 == 0 ? 40000.0f : -300.0f);  // with a NaN below: scale 1, int16 wrap
        lhs[2 * k + j] = f16_rne(static_cast<float>(j) * 0.25f - 3.0f);
        lhs[3 * k + j] = 0;
        lhs[4 * k + j] = f16_rne(1.7f);
        lhs[5 * k + j] = f16_rne(-0.75f);
    }
    lhs[1 * k + k / 2] = 0x7E00;             // NaN
    lhs[2 * k + (k - 1) / 3] = 0x7C00;       // +inf
    if (k > 2) lhs[5 * k + 1] = 0xFC00;      // -inf
}

struct PackShape {
    size_t m, k, mr, kr, sr, m_idx_start;
};

void check_packer(const PackShape& s, uint64_t seed, bool specials) {
    const size_t stride_el = s.k + 3;  // a row stride wider than k
    std::vector<uint16_t> lhs = random_f16(s.m * stride_el, -3.0f, 3.0f, seed);
    std::vector<uint16_t> dense(s.m * s.k);
    if (specials) {
        for (size_t i = 0; i < s.m; ++i) std::memcpy(&dense[i * s.k], &lhs[i * stride_el], s.k * 2);
        add_special_rows(dense, s.m, s.k);
        for (size_t i = 0; i < s.m; ++i) std::memcpy(&lhs[i * stride_el], &dense[i * s.k], s.k * 2);
    }
    const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(s.m + s.m_idx_start, s.k, s.mr, s.kr, s.sr);
    ASSERT_EQ(size, kai_ref::qai8dxp_packed_size(s.m + s.m_idx_start, s.k, s.mr));
    kai_test::GuardedBuffer got(size, 0x5A);
    std::vector<uint8_t> want(size, 0x5A);
    kai_test::GuardedBuffer src(lhs.size() * 2);  // the input ends at a guard page
    std::memcpy(src.data(), lhs.data(), lhs.size() * 2);
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f16_neon)(s.m, s.k, s.mr, s.kr, s.sr, s.m_idx_start, src.data(), stride_el * 2, got.data());
    kai_ref::pack_qai8dxp_f16(s.m, s.k, s.mr, s.kr, s.sr, s.m_idx_start, lhs.data(), stride_el * 2, want.data());
    for (size_t i = 0; i < size; ++i) {
        ASSERT_EQ(got.data()[i], want[i]) << "byte " << i << " m=" << s.m << " k=" << s.k << " mr=" << s.mr
                                          << " kr=" << s.kr << " sr=" << s.sr << " start=" << s.m_idx_start;
    }
    EXPECT_TRUE(got.front_intact());
}

TEST(Qai8dxpF16Packer, MatchesReference) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_FP16);
    const bool reduced = kai_test::reduced_sweep();
    const std::vector<size_t> ms = reduced ? std::vector<size_t>{1, 4, 7, 13} : std::vector<size_t>{1, 3, 4, 5, 7, 8, 13, 17};
    const std::vector<size_t> ks = reduced ? std::vector<size_t>{1, 9, 33, 128}
                                           : std::vector<size_t>{1, 3, 4, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 40, 63, 64, 65, 127, 1029};
    const size_t krs[][2] = {{4, 1}, {8, 1}, {8, 2}, {16, 2}};
    uint64_t seed = 100;
    for (size_t m : ms) {
        for (size_t k : ks) {
            for (size_t mr : {1, 4}) {
                for (const auto& kr : krs) {
                    check_packer({m, k, mr, kr[0], kr[1], 0}, ++seed, false);
                    check_packer({m, k, mr, kr[0], kr[1], 0}, ++seed, true);
                    if (HasFatalFailure()) return;
                }
            }
            check_packer({m, k, 1, 8, 2, 3}, ++seed, true);  // m_idx_start with mr = 1
            check_packer({m, k, 4, 8, 2, 4}, ++seed, true);  // a block further, mr = 4
            if (m < 4) check_packer({m, k, 4, 8, 1, 1}, ++seed, true);
        }
    }
}

// The probe of docs/formats.md, "qai8dxp LHS from bf16 and f16": 1.7 with scale 1 and ZP -128 packs to -127 on the 4-row path and to
// -126 on the single-row path.
TEST(Qai8dxpF16Packer, FourRowAndSingleRowPathsDiffer) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_FP16);
    const size_t k = 64;
    std::vector<uint16_t> lhs(4 * k);
    for (size_t i = 0; i < lhs.size(); ++i) lhs[i] = f16_rne(i % k == 0 ? 255.0f : 1.7f);  // range [0, 255]: scale 1, ZP -128
    std::vector<uint8_t> four(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(4, k, 4, 16, 2));
    std::vector<uint8_t> one(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(4, k, 1, 16, 2));
    kai_run_lhs_quant_pack_qai8dxp_f16_neon(4, k, 4, 16, 2, 0, lhs.data(), k * 2, four.data());
    kai_run_lhs_quant_pack_qai8dxp_f16_neon(4, k, 1, 16, 2, 0, lhs.data(), k * 2, one.data());
    EXPECT_EQ(static_cast<int8_t>(four[1]), -127);  // row 0, k = 1: truncated
    EXPECT_EQ(static_cast<int8_t>(one[1]), -126);   // row 0, k = 1: half even (1.7 -> 2)
}

// Exact ties and degenerate rows. Row 0 spans [-101.5, 153.5]: scale 1 and zp = -128 + 101.5 =
// -26.5, which rounds to even (-26, stored offset +26); its 2.5 values are data ties, which the
// three data paths of docs/formats.md, "qai8dxp LHS from bf16 and f16" round differently (4-row vector part: truncation, 2 - 26 = -24;
// single-row vector part: ties to even, -24; roundf parts: ties away, 3 - 26 = -23). Rows 1-7: all
// zero, constant +3 and -0.5, +-0, f16 subnormals (the smallest magnitudes an f16 row can hold; the
// f32 packer's infinite-multiplier case cannot occur), +-65504, and one row of ties at scale 1.
TEST(Qai8dxpF16Packer, TiesAndDegenerateRows) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_FP16);
    const size_t k = 64, m = 8;
    std::vector<uint16_t> x(m * k);
    for (size_t j = 0; j < k; ++j) {
        static const float ties[] = {2.5f, -2.5f, 0.5f, 1.5f, 3.5f, -0.5f};
        x[0 * k + j] = f16_rne(j == 0 ? -101.5f : (j == 1 ? 153.5f : ties[j % 6]));
        x[1 * k + j] = 0;
        x[2 * k + j] = f16_rne(3.0f);
        x[3 * k + j] = f16_rne(-0.5f);
        x[4 * k + j] = j % 2 ? 0x8000 : 0x0000;
        x[5 * k + j] = j % 3 ? 0x0001 : 0x8002;
        x[6 * k + j] = j % 2 ? 0xFBFF : 0x7BFF;
        x[7 * k + j] = f16_rne(j == 0 ? -127.5f : (j == 1 ? 127.5f : 0.5f * static_cast<float>(j % 9) - 2.0f));
    }
    x[0 * k + 8] = f16_rne(2.5f);
    x[0 * k + 63] = f16_rne(2.5f);
    const size_t krs[][2] = {{4, 1}, {8, 1}, {8, 2}, {16, 2}};
    for (size_t rows : {size_t{4}, size_t{7}, size_t{8}}) {
        for (size_t mr : {1, 4}) {
            for (const auto& kr : krs) {
                const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(rows, k, mr, kr[0], kr[1]);
                std::vector<uint8_t> got(size, 0x5A), want(size, 0x5A);
                kai_run_lhs_quant_pack_qai8dxp_f16_neon(rows, k, mr, kr[0], kr[1], 0, x.data(), k * 2, got.data());
                kai_ref::pack_qai8dxp_f16(rows, k, mr, kr[0], kr[1], 0, x.data(), k * 2, want.data());
                ASSERT_EQ(got, want) << "m " << rows << " mr " << mr << " kr " << kr[0] << " sr " << kr[1];
            }
        }
    }
    // Spot checks of row 0 against the rules themselves (kbl = 8).
    int32_t off = 0;
    std::vector<uint8_t> one(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(1, k, 1, 8, 1));
    kai_run_lhs_quant_pack_qai8dxp_f16_neon(1, k, 1, 8, 1, 0, x.data(), k * 2, one.data());
    std::memcpy(&off, one.data() + k, 4);  // mr = 1: 64 data bytes, then the offset
    EXPECT_EQ(off, 26);
    EXPECT_EQ(static_cast<int8_t>(one[8]), -24);   // vector part, ties to even
    EXPECT_EQ(static_cast<int8_t>(one[63]), -23);  // last full group: roundf, ties away
    std::vector<uint8_t> four(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(4, k, 4, 8, 1));
    kai_run_lhs_quant_pack_qai8dxp_f16_neon(4, k, 4, 8, 1, 0, x.data(), k * 2, four.data());
    std::memcpy(&off, four.data() + 4 * k, 4);  // mr = 4: 4 x 64 data bytes, then 4 offsets
    EXPECT_EQ(off, 26);
    EXPECT_EQ(static_cast<int8_t>(four[32]), -24);       // q[0][8]: truncated
    EXPECT_EQ(static_cast<int8_t>(four[7 * 32 + 7]), -24);  // q[0][63]: truncated
}

TEST(Qai8dxpF16Packer, CompatVectors) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_FP16);
    const auto files = kai_test::list_compat_vectors("kai_lhs_quant_pack_qai8dxp_f16_neon__");
    // 6 + 3 files of special rows (+-inf, quiet and signalling NaN, tiny and near-maximum ranges;
    // docs/reliability.md "Special inputs"). kai's packer and the reference both give KleidiAI's bytes.
    ASSERT_EQ(files.size(), 9u);
    for (const std::string& f : files) {
        const kai_test::CompatVector v = kai_test::load_compat_vector(f);
        const size_t m = v.size("m"), k = v.size("k"), mr = v.size("mr"), kr = v.size("kr"), sr = v.size("sr");
        const auto& want = v.section("lhs_packed");
        std::vector<uint8_t> got(want.bytes.size(), 0), ref(want.bytes.size(), 0);
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(m, k, mr, kr, sr, 0, v.section("lhs").bytes.data(), v.size("lhs_stride"), got.data());
        kai_ref::pack_qai8dxp_f16(m, k, mr, kr, sr, 0, reinterpret_cast<const uint16_t*>(v.section("lhs").bytes.data()),
                                  v.size("lhs_stride"), ref.data());
        for (size_t i = 0; i < got.size(); ++i) {
            if (!want.mask[i]) continue;
            ASSERT_EQ(got[i], want.bytes[i]) << f << " byte " << i;
            ASSERT_EQ(ref[i], want.bytes[i]) << f << " byte " << i << " (reference)";
        }
    }
}

// ------------------------------------------------------------------------------------------
// Kernels
// ------------------------------------------------------------------------------------------

const std::vector<Qsi4cxpF16Variant>& variants() { return kai_registry::qsi4cxpf16_variants(); }

struct Problem {
    size_t m, n, k;
    std::vector<uint8_t> lhs_packed, rhs_packed;
    std::vector<int8_t> w;
    std::vector<float> scale, bias;
    kai_ref::Qai8dxpUnpacked q;
};

// Packs a random problem (f16 LHS through the f16 packer, or f32 through the f32 packer).
Problem make_problem(const Qsi4cxpF16Variant& v, size_t m, size_t n, size_t k, uint64_t seed, bool with_bias,
                     bool f16_lhs, bool special_lhs, float bias_scale = 1.0f) {
    const auto& uk = v.ukernel;
    const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr();
    Problem p{m, n, k, {}, {}, {}, {}, {}, {}};
    p.lhs_packed.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(m, k, mr, kr, sr), 0);
    if (f16_lhs) {
        std::vector<uint16_t> lhs = random_f16(m * k, -2.0f, 2.0f, seed);
        if (special_lhs) add_special_rows(lhs, m, k);
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(m, k, mr, kr, sr, 0, lhs.data(), k * 2, p.lhs_packed.data());
    } else {
        const std::vector<float> lhs = kai_test::random_f32(m * k, -2.0f, 2.0f, seed);
        kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * sizeof(float), p.lhs_packed.data());
    }
    p.q = kai_ref::unpack_qai8dxp(p.lhs_packed.data(), m, k, mr, kr, sr);
    const std::vector<float> wf = kai_test::random_f32(n * k, -1.0f, 1.0f, seed + 1);
    p.scale.resize(n);
    const std::vector<uint8_t> rhs = kai_ref::quantize_qs4cx_nxk(wf.data(), n, k, p.scale.data());
    p.w = kai_ref::qs4_nxk_values(rhs.data(), n, k, 8);
    p.bias = kai_test::random_f32(n, -bias_scale, bias_scale, seed + 2);
    p.rhs_packed.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kr, sr), 0);
    const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, nr, kr, sr, rhs.data(), with_bias ? p.bias.data() : nullptr,
                                          p.scale.data(), p.rhs_packed.data(), 0, &params);
    if (!with_bias) std::fill(p.bias.begin(), p.bias.end(), 0.0f);
    return p;
}

// Runs the tile [m0, m0+rows) x [n0, n0+cols) and checks it bit for bit, plus everything around it.
void run_and_check(const Qsi4cxpF16Variant& v, const Problem& p, size_t m0, size_t rows, size_t n0, size_t cols,
                   float lo, float hi, size_t extra_stride) {
    const auto& uk = v.ukernel;
    const size_t stride = p.n * 2 + extra_stride;
    kai_test::DstBuffer dst(p.m, p.n, 2, stride);
    // The packed operands end at guard pages.
    kai_test::GuardedBuffer lhs_g(p.lhs_packed.size()), rhs_g(p.rhs_packed.size());
    std::memcpy(lhs_g.data(), p.lhs_packed.data(), p.lhs_packed.size());
    std::memcpy(rhs_g.data(), p.rhs_packed.data(), p.rhs_packed.size());
    const uint8_t* lhs = lhs_g.data() + uk.get_lhs_packed_offset(m0, p.k);
    const uint8_t* rhs = rhs_g.data() + uk.get_rhs_packed_offset(n0, p.k);
    KAI_ABI(uk.run_matmul)(rows, cols, p.k, lhs, rhs, dst.at(m0, n0), stride, 2, lo, hi);
    ASSERT_EQ(uk.get_dst_offset(m0, n0, stride), m0 * stride + n0 * 2);
    const std::vector<float> ref =
        kai_ref::matmul_qai8dxp_qsi4cx(p.q, p.n, p.k, p.w.data(), p.scale.data(), p.bias.data(), lo, hi);
    for (size_t i = m0; i < m0 + rows; ++i) {
        for (size_t j = n0; j < n0 + cols; ++j) {
            const uint16_t got = static_cast<uint16_t>(dst.bits(i, j));
            const uint16_t want = f16_rne(ref[i * p.n + j]);
            ASSERT_TRUE(same_f16(got, want)) << v.name << " (" << i << ", " << j << ") of " << p.m << "x" << p.n << "x"
                                             << p.k << ": got 0x" << std::hex << got << ", want 0x" << want
                                             << " (f32 " << ref[i * p.n + j] << ")";
        }
    }
    EXPECT_TRUE(dst.untouched_outside(m0, rows, n0, cols));
}

class Qsi4cxpF16Test : public ::testing::TestWithParam<size_t> {};

TEST_P(Qsi4cxpF16Test, Shapes) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
    const bool reduced = kai_test::reduced_sweep();
    std::vector<size_t> mv = {1, ms, ms + 1, 2 * ms + 3};
    if (ms > 1) mv.push_back(ms - 1);
    std::vector<size_t> nv = {1, ns - 1, ns, ns + 1, 37};
    std::vector<size_t> kv = reduced ? std::vector<size_t>{1, 33, 256} : std::vector<size_t>{1, 7, 31, 32, 33, 64, 127, 257, 2049};
    uint64_t seed = 1000;
    for (size_t m : mv) {
        for (size_t n : nv) {
            if (n == 0) continue;
            for (size_t k : kv) {
                ++seed;
                const bool f16 = (seed & 1) == 0;
                const bool bias = (seed & 2) != 0;
                const Problem p = make_problem(v, m, n, k, seed, bias, f16, false);
                run_and_check(v, p, 0, m, 0, n, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0);
                if (HasFatalFailure()) return;
            }
        }
    }
}

TEST_P(Qsi4cxpF16Test, LargeK) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const size_t m = v.ukernel.get_m_step() == 1 ? 2 : 17;
    const size_t k = kai_test::reduced_sweep() ? 4096 : 11008;
    const Problem p = make_problem(v, m, 9, k, 77, true, true, false);
    run_and_check(v, p, 0, m, 0, 9, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0);
    // K of real models and past 16384 (every path of the K loops) on M = 1 or mr + 1, N = nr + 1; the reduced
    // sweep keeps the deepest.
    for (size_t kd : kai_test::reduced_sweep() ? std::vector<size_t>{16448} : std::vector<size_t>{4096, 16448}) {
        SCOPED_TRACE("k=" + std::to_string(kd));
        const size_t md = v.ukernel.get_m_step() == 1 ? 1 : v.ukernel.get_mr() + 1, nd = v.ukernel.get_nr() + 1;
        const Problem d = make_problem(v, md, nd, kd, 79 + kd, kd % 2 == 0, true, false);
        run_and_check(v, d, 0, md, 0, nd, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0);
    }
    // Wide and deep with a ragged last tile (k 2100 is one K block of the SDOT GEMV since KAI_DUP_K became
    // 4096: its K passes times its 1024-column passes are InternalLimits' cases, n 1020-1028 at k 4097).
    if (v.ukernel.get_m_step() == 1) {
        const Problem w = make_problem(v, 1, 1030, 2100, 78, true, true, false);
        run_and_check(v, w, 0, w.m, 0, w.n, -1.0f, 1.0f, 0);
    }
}

// The variant's internal limits (test/common/limits.cc: the I8MM GEMM's unpacked RHS, the SDOT GEMV's K and
// column passes) at limit - 1, limit and limit + 1, in both sweeps: the whole call, bias, no clamp.
TEST_P(Qsi4cxpF16Test, InternalLimits) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    uint64_t seed = 5000;
    for (const kai_test::LimitCase& l : kai_test::limit_cases(v.name)) {
        SCOPED_TRACE("limit case " + l.label);
        ++seed;
        const Problem p = make_problem(v, l.m, l.n, l.k, seed, true, (seed & 1) == 0, false);
        run_and_check(v, p, 0, l.m, 0, l.n, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), 0);
        if (HasFatalFailure()) return;
    }
}

TEST_P(Qsi4cxpF16Test, SubTilesClampsAndStride) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
    const size_t m = 3 * ms + 1, n = 3 * ns + 2, k = 96;
    const Problem p = make_problem(v, m, n, k, 4242, true, true, false);
    // Clamps: none, one-sided, two-sided, not representable in f16 (0.1, 0.3: the result may sit half
    // an f16 ulp outside), inverted (max < min: every output is max).
    const float clamps[][2] = {{-kInf, kInf}, {-0.1f, kInf}, {-kInf, 0.3f}, {-0.1f, 0.3f}, {0.1f, 0.3000001f}, {0.5f, -0.5f}};
    for (const auto& c : clamps) {
        run_and_check(v, p, 0, m, 0, n, c[0], c[1], 6);
        run_and_check(v, p, ms, ms, ns, ns, c[0], c[1], 0);          // an interior tile
        run_and_check(v, p, 2 * ms, m - 2 * ms, 2 * ns, n - 2 * ns, c[0], c[1], 2);  // the ragged corner
        if (HasFatalFailure()) return;
    }
}

// Infinities and NaN in the f16 LHS (the packer's special rows) and outputs beyond the f16 range:
// |y| >= 65520 becomes +-inf after the f32 clamp, exactly as FCVTN.
TEST_P(Qsi4cxpF16Test, SpecialInputsAndOverflow) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const size_t m = std::max<size_t>(7, 2 * v.ukernel.get_m_step() + 1), n = 13, k = 64;  // also the unpacked-RHS path
    const Problem special = make_problem(v, m, n, k, 555, true, true, true);
    run_and_check(v, special, 0, m, 0, n, -kInf, kInf, 0);
    // Biases up to +-2e5: many outputs overflow f16.
    const Problem big = make_problem(v, m, n, k, 556, true, true, false, 2e5f);
    run_and_check(v, big, 0, m, 0, n, -kInf, kInf, 0);
    run_and_check(v, big, 0, m, 0, n, -65519.0f, 65519.0f, 0);  // clamped just below the overflow: 65504
    run_and_check(v, big, 0, m, 0, n, -65520.0f, 65520.0f, 0);  // at the threshold: inf
    // NaN clamp bounds: FMAX/FMIN propagate them.
    run_and_check(v, big, 0, m, 0, n, kNaN, kInf, 0);
}

// The f16 kernel is its f32 twin rounded: the same packed operands through the f32 recipe give the
// same numbers (checked through the reference, which the f32 family's suite ties to the f32 kernels).
TEST_P(Qsi4cxpF16Test, CompatVectors) {
    const Qsi4cxpF16Variant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto files = kai_test::list_compat_vectors(std::string(v.name) + "__");
    ASSERT_EQ(files.size(), 6u) << v.name;
    const auto& uk = v.ukernel;
    for (const std::string& f : files) {
        const kai_test::CompatVector cv = kai_test::load_compat_vector(f);
        const size_t m = cv.size("m"), n = cv.size("n"), k = cv.size("k");
        const auto& want_lhs = cv.section("lhs_packed");
        std::vector<uint8_t> lhs_packed(want_lhs.bytes.size(), 0);
        kai_run_lhs_quant_pack_qai8dxp_f16_neon(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr(), 0,
                                                cv.section("lhs").bytes.data(), cv.size("lhs_stride"), lhs_packed.data());
        for (size_t i = 0; i < lhs_packed.size(); ++i) {
            if (want_lhs.mask[i]) {
                ASSERT_EQ(lhs_packed[i], want_lhs.bytes[i]) << f << " lhs_packed byte " << i;
            }
        }
        const auto& want = cv.section("dst");
        const size_t stride = cv.size("dst_stride_row");
        std::vector<uint8_t> dst(m * stride, 0xEE);
        KAI_ABI(uk.run_matmul)(m, n, k, want_lhs.bytes.data(), cv.section("rhs_packed").bytes.data(), dst.data(), stride, 2,
                               cv.clamp_min(), cv.clamp_max());
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                uint16_t got, exp;
                std::memcpy(&got, &dst[i * stride + 2 * j], 2);
                std::memcpy(&exp, &want.bytes[(i * n + j) * 2], 2);
                ASSERT_TRUE(same_f16(got, exp)) << f << " (" << i << ", " << j << ") got 0x" << std::hex << got << " want 0x" << exp;
            }
        }
    }
}

std::string name_of(const ::testing::TestParamInfo<size_t>& info) {
    return std::string(variants()[info.param].name).substr(std::string("kai_matmul_clamp_f16_").size());
}

INSTANTIATE_TEST_SUITE_P(All, Qsi4cxpF16Test, ::testing::Range<size_t>(0, variants().size()), name_of);

#ifndef NDEBUG
TEST(Qsi4cxpF16PreconditionsDeathTest, KernelsAndPacker) {
    using kai_test::PreconditionCase;
    std::vector<PreconditionCase> cases;
    for (const Qsi4cxpF16Variant& v : variants()) {
        if (!kai_test::missing_features(v.features).empty()) continue;
        const auto uk = v.ukernel;
        auto p = std::make_shared<Problem>(make_problem(v, 1, 1, 32, 9, true, true, false));
        cases.push_back({std::string(v.name) + " dst_stride_col", std::string(v.name) + ".c", "dst_stride_col must be 2 (f16)",
                         [uk, p](bool broken) {
                             uint16_t d[4] = {0, 0, 0, 0};
                             uk.run_matmul(1, 1, 32, p->lhs_packed.data(), p->rhs_packed.data(), d, 8, broken ? 4 : 2,
                                           -kInf, kInf);
                         }});
        // Two rows of two f16 columns: one output row needs 4 bytes, a stride of 2 overlaps the rows.
        auto p2 = std::make_shared<Problem>(make_problem(v, 2, 2, 32, 10, true, true, false));
        cases.push_back({std::string(v.name) + " dst_stride_row", std::string(v.name) + ".c",
                         "dst_stride_row must be at least n * dst_stride_col if m > 1", [uk, p2](bool broken) {
                             uint16_t d[4] = {0, 0, 0, 0};
                             uk.run_matmul(2, 2, 32, p2->lhs_packed.data(), p2->rhs_packed.data(), d, broken ? 2 : 4, 2,
                                           -kInf, kInf);
                         }});
    }
    if (kai_test::missing_features(KAI_FEATURE_FP16).empty()) {
        cases.push_back({"kai_run_lhs_quant_pack_qai8dxp_f16_neon kr/sr", "kai_lhs_quant_pack_qai8dxp_f16_neon.c",
                         "kr / sr must be 4 or 8", [](bool broken) {
                             uint16_t x[32] = {};
                             std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(1, 32, 1, 16, 1));
                             kai_run_lhs_quant_pack_qai8dxp_f16_neon(1, 32, 1, broken ? 16 : 8, 1, 0, x, 64, out.data());
                         }});
        cases.push_back({"kai_run_lhs_quant_pack_qai8dxp_f16_neon m_idx_start", "kai_lhs_quant_pack_qai8dxp_f16_neon.c",
                         "m_idx_start must be a multiple of 4 when mr is 4", [](bool broken) {
                             std::vector<uint16_t> x(4 * 32, 0);
                             std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(8, 32, 4, 8, 1));
                             kai_run_lhs_quant_pack_qai8dxp_f16_neon(4, 32, 4, 8, 1, broken ? 2 : 0, x.data(), 64, out.data());
                         }});
    }
    kai_test::expect_preconditions(cases);
}
#endif

}  // namespace
