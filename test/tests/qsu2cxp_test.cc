// SPDX-License-Identifier: Apache-2.0
// Tests of the qsu2cxp family (2-bit per-channel weights through a 4-entry look-up table, the LHS from
// kai_lhs_quant_pack_qai8dxp_f32; the SME2 kernels at SVL 128 and 512 bits, set with prctl(PR_SME_SET_VL)): the RHS
// packers byte for byte against test/reference/qsu2cxp_ref (padding,
// sums, look-up tables, partial packing through the offset getters), every kernel of the registry bit for bit
// against the reference (shapes around the tiles, K steps, bias, clamps, look-up tables, a wider row stride, a
// NaN sentinel around the tile, sub-tiles through the offset getters), KleidiAI v1.30.0 compat vectors, and the
// documented preconditions.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsu2cxp_ref.h"
#include "test/registry/qsu2cxp_registry.h"

namespace {

using kai_registry::Qsu2cxpVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;

const kai_rhs_pack_qs4cxs1s0_param kParams = {1, 2};

// The look-up tables the sweeps use: the default (NULL), a symmetric {-3, -1, 1, 3} and the extremes.
const int32_t kLutSym[4] = {-3, -1, 1, 3};
const int32_t kLutExtreme[4] = {-64, 63, 0, -1};
const int32_t* const kLuts[] = {nullptr, kLutSym, kLutExtreme};

std::vector<uint8_t> random_codes(size_t n, size_t k, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<uint8_t> r(n * k / 4 + 64);
    for (auto& b : r) b = static_cast<uint8_t>(rng.integer(0, 255));
    return r;
}

bool is_sme(const Qsu2cxpVariant& v) { return (v.features & KAI_FEATURE_SME2) != 0; }

bool gemv_only(const Qsu2cxpVariant& v) { return std::string(v.name).find("_1x4_neon") != std::string::npos; }

// The kernel's f32 epilogue (docs/formats.md, "qsu2cxp matmul").
kai_ref::Qsu2Epilogue epilogue(const Qsu2cxpVariant& v) {
    const std::string name = v.name;
    if (name.find("_sme2_mopa") != std::string::npos) return kai_ref::Qsu2Epilogue::kSme2Mopa;
    if (name.find("_sme2_dot") != std::string::npos) return kai_ref::Qsu2Epilogue::kSme2Dot;
    if (name.find("_8x4_") != std::string::npos) return kai_ref::Qsu2Epilogue::kNeonGemm;
    return kai_ref::Qsu2Epilogue::kNeonGemv;
}

// The two RHS packers share their signatures; the SME2 kernels read the 4vlx4 layout.
struct RhsPacker {
    size_t (*size)(size_t, size_t, size_t, size_t, size_t);
    size_t (*offset)(size_t, size_t, size_t, size_t, size_t);
    void (*run)(size_t, size_t, size_t, size_t, size_t, size_t, const uint8_t*, const float*, const float*, void*,
                size_t, const kai_rhs_pack_qs4cxs1s0_param*, const int32_t*);
};
const RhsPacker kPack4x4 = {kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon,
                            kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon,
                            kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon};
const RhsPacker kPack4vlx4 = {kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon,
                              kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon,
                              kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon};
const RhsPacker& rhs_packer(const Qsu2cxpVariant& v) { return is_sme(v) ? kPack4vlx4 : kPack4x4; }

// Sets this thread's streaming vector length in bytes (PR_SME_SET_VL, PR_SME_GET_VL: 63, 64).
::testing::AssertionResult set_svl(size_t bytes) {
    if (prctl(63, static_cast<unsigned long>(bytes), 0, 0, 0) < 0 || (prctl(64, 0, 0, 0, 0) & 0xffff) != static_cast<int>(bytes))
        return ::testing::AssertionFailure() << "cannot set the SVL to " << bytes << " bytes";
    return ::testing::AssertionSuccess();
}

// ------------------------------------------------------------------------------------------
// RHS packer.
// ------------------------------------------------------------------------------------------

TEST(Qsu2cxpRhsPacker, MatchesTheReferenceByteForByte) {
    for (size_t n : {1, 2, 3, 4, 5, 7, 8, 13, 37}) {
        for (size_t k : {32, 64, 96, 256}) {
            for (const int32_t* lut : kLuts) {
                for (bool with_bias : {false, true}) {
                    const uint64_t seed = kai_test::seed_from("pack" + std::to_string(n * 1000 + k));
                    SCOPED_TRACE("n=" + std::to_string(n) + " k=" + std::to_string(k) + " bias=" +
                                 std::to_string(with_bias) + " " + kai_test::seed_trace(seed));
                    const auto rhs = random_codes(n, k, seed);
                    const auto scale = kai_test::random_f32(n, 0.001f, 0.1f, seed + 1);
                    const auto bias = kai_test::random_f32(n, -2.0f, 2.0f, seed + 2);
                    const auto want = kai_ref::pack_qsu2cxp4x4(n, k, rhs.data(), with_bias ? bias.data() : nullptr,
                                                               scale.data(), lut);
                    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(n, k, 4, 4, 1);
                    ASSERT_EQ(size, want.size());
                    GuardedBuffer got(size);
                    kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(1, n, k, 4, 4, 1, rhs.data(),
                                                                        with_bias ? bias.data() : nullptr, scale.data(),
                                                                        got.data(), 0, &kParams, lut);
                    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
                }
            }
        }
    }
}

TEST(Qsu2cxpRhsPacker, KnownBlock) {
    // One channel, K = 32: the codes are k % 4, so byte i of every group holds the code i in all four fields
    // (0x00, 0x55, 0xAA, 0xFF); the sum is 8 * (-2 - 1 + 0 + 1) = -16. Channels 1-3 are padding.
    std::vector<uint8_t> rhs(8 + 64, 0xE4);  // 0b11100100: codes 0, 1, 2, 3
    const float scale = 0.5f, bias = -1.0f;
    std::vector<uint8_t> got(kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(1, 32, 4, 4, 1));
    ASSERT_EQ(got.size(), 32u + 48u);
    kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(1, 1, 32, 4, 4, 1, rhs.data(), &bias, &scale, got.data(), 0,
                                                        &kParams, nullptr);
    for (size_t g = 0; g < 2; ++g) {
        const uint8_t expect[16] = {0x00, 0x55, 0xAA, 0xFF, 0xAA, 0xAA, 0xAA, 0xAA,
                                    0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA};
        EXPECT_TRUE(kai_test::bytes_equal(got.data() + 16 * g, expect, 16)) << "group " << g;
    }
    int32_t sums[4];
    float tail_f[8];
    std::memcpy(sums, got.data() + 32, 16);
    std::memcpy(tail_f, got.data() + 48, 32);
    EXPECT_EQ(sums[0], -16);
    EXPECT_EQ(sums[1] | sums[2] | sums[3], 0);
    EXPECT_EQ(tail_f[0], 0.5f);
    EXPECT_EQ(tail_f[4], -1.0f);
    for (size_t j = 1; j < 4; ++j) EXPECT_EQ(tail_f[j] + tail_f[4 + j], 0.0f);
}

TEST(Qsu2cxp4vlx4RhsPacker, MatchesTheReferenceByteForByte) {
    for (size_t nr : {8, 16, 64}) {
        for (size_t n : {1, 5, 8, 17, 67}) {
            for (size_t k : {32, 96, 256}) {
                for (const int32_t* lut : kLuts) {
                    const uint64_t seed = kai_test::seed_from("pack4vl" + std::to_string(nr * 100000 + n * 1000 + k));
                    SCOPED_TRACE("nr=" + std::to_string(nr) + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " " +
                                 kai_test::seed_trace(seed));
                    const auto rhs = random_codes(n, k, seed);
                    const auto scale = kai_test::random_f32(n, 0.001f, 0.1f, seed + 1);
                    const auto bias = kai_test::random_f32(n, -2.0f, 2.0f, seed + 2);
                    const float* b = (n % 2) ? bias.data() : nullptr;
                    const auto want = kai_ref::pack_qsu2cxp4vlx4(n, k, nr, rhs.data(), b, scale.data(), lut);
                    const size_t size = kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(n, k, nr, 4, 1);
                    ASSERT_EQ(size, want.size());
                    GuardedBuffer got(size);
                    kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(1, n, k, nr, 4, 1, rhs.data(), b, scale.data(), got.data(),
                                                                  0, &kParams, lut);
                    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
                }
            }
        }
    }
}

TEST(Qsu2cxpRhsPacker, PartialPackingThroughTheOffsetGetters) {
    // Packing channels [n0, n) from the offset getters' positions gives the bytes of the whole buffer.
    const size_t n = 21, k = 96, n0 = 8;
    const auto rhs = random_codes(n, k, 77);
    const auto scale = kai_test::random_f32(n, 0.001f, 0.1f, 78);
    const auto bias = kai_test::random_f32(n, -2.0f, 2.0f, 79);
    const auto want = kai_ref::pack_qsu2cxp4x4(n, k, rhs.data(), bias.data(), scale.data(), kLutSym);
    const size_t off = kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(n0, k, 4, 4, 1);
    EXPECT_EQ(off, n0 / 4 * kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(k, 4, 4, 1));
    EXPECT_EQ(kai_get_n_step_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(4), 4u);
    std::vector<uint8_t> got(want.size(), 0x5A);
    const size_t src = kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(n0, k / 4);
    kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(1, n - n0, k, 4, 4, 1, rhs.data() + src, bias.data() + n0,
                                                        scale.data() + n0, got.data() + off, 0, &kParams, kLutSym);
    EXPECT_TRUE(kai_test::bytes_equal(got.data() + off, want.data() + off, want.size() - off));
}

// ------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------

struct Packed {
    std::vector<uint8_t> lhs_p, rhs_p, rhs;
    std::vector<float> scale, bias;
    kai_ref::Qai8dxpUnpacked lhs;
};

Packed pack_random(const Qsu2cxpVariant& v, size_t m, size_t n, size_t k, uint64_t seed, const int32_t* lut) {
    const auto& uk = v.ukernel;
    Packed p;
    auto lhs = kai_test::random_f32(m * k, -3.0f, 3.0f, seed);
    for (size_t i = 1; i < m; i += 3)  // rows of other magnitudes
        for (size_t kk = 0; kk < k; ++kk) lhs[i * k + kk] *= 50.0f;
    p.rhs = random_codes(n, k, seed + 1);
    p.scale = kai_test::random_f32(n, 0.001f, 0.1f, seed + 2);
    p.bias = kai_test::random_f32(n, -2.0f, 2.0f, seed + 3);
    p.lhs_p.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr()), 0);
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr(), 0, lhs.data(), k * sizeof(float),
                                       p.lhs_p.data());
    p.lhs = kai_ref::unpack_qai8dxp(p.lhs_p.data(), m, k, uk.get_mr(), uk.get_kr(), uk.get_sr());
    const RhsPacker& rp = rhs_packer(v);
    p.rhs_p.assign(rp.size(n, k, uk.get_nr(), uk.get_kr(), uk.get_sr()), 0);
    rp.run(1, n, k, uk.get_nr(), uk.get_kr(), uk.get_sr(), p.rhs.data(), p.bias.data(), p.scale.data(), p.rhs_p.data(), 0,
           &kParams, lut);
    return p;
}

// Runs one whole m x n x k problem into a NaN-filled destination with a wider row stride and checks it bit for bit
// against the reference and the sentinel around it; then again tile by tile through the offset getters.
void check_problem(const Qsu2cxpVariant& v, size_t m, size_t n, size_t k, const int32_t* lut, bool clamp,
                   uint64_t seed) {
    const auto& uk = v.ukernel;
    SCOPED_TRACE(std::string(v.name) + " m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" +
                 std::to_string(k) + " lut=" + (lut ? std::to_string(lut[0]) : "default") + " clamp=" +
                 std::to_string(clamp) + " " + kai_test::seed_trace(seed));
    const Packed p = pack_random(v, m, n, k, seed, lut);
    auto want = kai_ref::matmul_qai8dxp_qsu2cx(p.lhs, n, k, p.rhs.data(), lut, p.scale.data(), p.bias.data(),
                                               -FLT_MAX, FLT_MAX, epilogue(v));
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (clamp) {
        const auto mm = std::minmax_element(want.begin(), want.end());
        lo = *mm.first + 0.3f * (*mm.second - *mm.first);
        hi = *mm.second - 0.3f * (*mm.second - *mm.first);
        want = kai_ref::matmul_qai8dxp_qsu2cx(p.lhs, n, k, p.rhs.data(), lut, p.scale.data(), p.bias.data(), lo, hi,
                                              epilogue(v));
    }
    GuardedBuffer lhs_p(p.lhs_p.size()), rhs_p(p.rhs_p.size());
    std::memcpy(lhs_p.data(), p.lhs_p.data(), p.lhs_p.size());
    std::memcpy(rhs_p.data(), p.rhs_p.data(), p.rhs_p.size());
    const size_t stride = (n + 3) * sizeof(float);
    DstBuffer dst(m, n, 4, stride), tiled(m, n, 4, stride);
    if (!gemv_only(v) || m == 1) {
        uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), stride, 4, lo, hi,
                      lut);
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), stride, want.data(),
                                             n * 4, m, n));
        EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
    }
    for (size_t m0 = 0; m0 < m; m0 += uk.get_m_step())
        for (size_t n0 = 0; n0 < n; n0 += uk.get_n_step())
            uk.run_matmul(std::min(uk.get_m_step(), m - m0), std::min(uk.get_n_step(), n - n0), k,
                          lhs_p.data() + uk.get_lhs_packed_offset(m0, k), rhs_p.data() + uk.get_rhs_packed_offset(n0, k),
                          reinterpret_cast<float*>(tiled.at(0, 0) + uk.get_dst_offset(m0, n0, stride)), stride, 4, lo,
                          hi, lut);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(tiled.at(0, 0)), stride, want.data(), n * 4,
                                         m, n));
    EXPECT_TRUE(tiled.untouched_outside(0, m, 0, n));
}

// A kernel and an SVL in bytes (0 for NEON kernels; 16 and 64, 128 and 512 bits, for the SME2 ones).
struct Instance {
    size_t variant;
    size_t svl;
};

const std::vector<Instance>& instances() {
    static const std::vector<Instance> list = [] {
        std::vector<Instance> l;
        const auto& vs = kai_registry::qsu2cxp_variants();
        for (size_t i = 0; i < vs.size(); ++i) {
            if (is_sme(vs[i])) {
                l.push_back({i, 16});
                l.push_back({i, 64});
            } else {
                l.push_back({i, 0});
            }
        }
        return l;
    }();
    return list;
}

const Qsu2cxpVariant& variant(size_t i) { return kai_registry::qsu2cxp_variants().at(instances().at(i).variant); }

class Qsu2cxpKernel : public ::testing::TestWithParam<size_t> {
protected:
    void SetUp() override {
        KAI_TEST_SKIP_UNLESS(variant(GetParam()).features);
        if (instances().at(GetParam()).svl != 0) ASSERT_TRUE(set_svl(instances().at(GetParam()).svl));
    }
};

TEST_P(Qsu2cxpKernel, GettersMatchTheName) {
    const auto& v = variant(GetParam());
    const auto& uk = v.ukernel;
    const size_t vl = instances().at(GetParam()).svl / 4;  // int32 lanes of a streaming vector
    const kai_ref::Qsu2Epilogue e = epilogue(v);
    const size_t mr = e == kai_ref::Qsu2Epilogue::kNeonGemm ? 4 : e == kai_ref::Qsu2Epilogue::kSme2Mopa ? vl : 1;
    EXPECT_EQ(uk.get_m_step(), e == kai_ref::Qsu2Epilogue::kNeonGemm ? 8u : mr);
    EXPECT_EQ(uk.get_mr(), mr);
    EXPECT_EQ(uk.get_n_step(), is_sme(v) ? 4 * vl : 4u);
    EXPECT_EQ(uk.get_nr(), is_sme(v) ? 4 * vl : 4u);
    EXPECT_EQ(uk.get_kr(), 4u);
    EXPECT_EQ(uk.get_sr(), 1u);
    const size_t nr = uk.get_nr();
    EXPECT_EQ(uk.get_lhs_packed_offset(mr * 3, 64), 3 * mr * (64 + 8));
    EXPECT_EQ(uk.get_rhs_packed_offset(2 * nr, 64), 2 * nr * (16 + 12));
    EXPECT_EQ(uk.get_dst_offset(uk.get_m_step(), nr, 1000), uk.get_m_step() * 1000 + 4 * nr);
    EXPECT_EQ(uk.get_dst_size(3, 5), 60u);
}

TEST_P(Qsu2cxpKernel, MatchesTheReferenceBitForBit) {
    const auto& v = variant(GetParam());
    const size_t ms = v.ukernel.get_m_step(), ns = v.ukernel.get_n_step();
    std::vector<size_t> ms_list = {1};
    if (!gemv_only(v)) ms_list = {1, 2, 4, 5, ms - 1, ms, ms + 1, ms + 4, 2 * ms + 3};  // 4: one LHS block of the 8x4 GEMM
    const bool reduced = kai_test::reduced_sweep();
    for (size_t m : ms_list) {
        if (m == 0) continue;  // ms - 1 of a 1-row tile
        for (size_t n : {size_t{1}, size_t{3}, size_t{5}, ns - 1, ns, ns + 1, 2 * ns + 3}) {
            for (size_t k : {32, 64, 96, 160, 512}) {
                if (reduced && (k == 160 || k == 96)) continue;
                const int32_t* lut = kLuts[(m + n + k / 32) % 3];
                check_problem(v, m, n, k, lut, (n + k / 32) % 2 == 0, kai_test::seed_from(std::string(v.name) +
                              std::to_string(m * 100000 + n * 1000 + k)));
            }
        }
    }
}

TEST_P(Qsu2cxpKernel, LargeKAndEveryLookUpTable) {
    const auto& v = variant(GetParam());
    const size_t m = gemv_only(v) ? 1 : 11;
    for (const int32_t* lut : kLuts) check_problem(v, m, 13, 4096, lut, false, 4242);
    // The default table passed explicitly gives the bits of NULL.
    check_problem(v, m, 6, 128, kai_ref::qsu2_default_lut(), true, 99);
}

TEST(Qsu2cxpRegistry, HoldsTheFourKernels) {
    ASSERT_EQ(kai_registry::qsu2cxp_variants().size(), 4u);
    EXPECT_STREQ(kai_registry::qsu2cxp_variants()[0].name, "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod");
    EXPECT_STREQ(kai_registry::qsu2cxp_variants()[1].name, "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod");
    EXPECT_STREQ(kai_registry::qsu2cxp_variants()[2].name, "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa");
    EXPECT_STREQ(kai_registry::qsu2cxp_variants()[3].name, "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot");
}

// A NaN accumulator (a NaN LHS scale): the NEON kernels keep NaN (FMAX / FMIN), the SME2 kernels give the lower
// bound (FCLAMP), each as KleidiAI's kernel of the same name.
TEST_P(Qsu2cxpKernel, NaNScaleFollowsTheKernelsClamp) {
    const auto& v = variant(GetParam());
    const auto& uk = v.ukernel;
    const size_t m = gemv_only(v) ? 1 : 3, n = 5, k = 64;
    Packed p = pack_random(v, m, n, k, 17, nullptr);
    const float nan = std::nanf("");
    std::memcpy(p.lhs_p.data() + uk.get_mr() * (k + 4), &nan, 4);  // row 0's scale
    std::vector<float> dst(m * n);
    uk.run_matmul(m, n, k, p.lhs_p.data(), p.rhs_p.data(), dst.data(), n * 4, 4, -5.0f, 5.0f, nullptr);
    for (size_t j = 0; j < n; ++j) {
        if (is_sme(v)) {
            EXPECT_EQ(dst[j], -5.0f) << j;
        } else {
            EXPECT_TRUE(std::isnan(dst[j])) << j;
        }
    }
}

// The SME2 kernels return at once when m or n is 0 (the NEON ones require both to be at least 1).
TEST_P(Qsu2cxpKernel, Sme2EmptyTileWritesNothing) {
    const auto& v = variant(GetParam());
    if (!is_sme(v)) GTEST_SKIP() << "m and n must be at least 1 for the NEON kernels";
    const Packed p = pack_random(v, 2, 5, 32, 5, nullptr);
    DstBuffer dst(2, 5, 4, 5 * 4);
    v.ukernel.run_matmul(0, 5, 32, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), 20, 4,
                         -FLT_MAX, FLT_MAX, nullptr);
    v.ukernel.run_matmul(2, 0, 32, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), 20, 4,
                         -FLT_MAX, FLT_MAX, nullptr);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsu2cxpKernel, ::testing::Range(size_t{0}, instances().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             std::string name = std::string(variant(info.param).name).substr(4);
                             const size_t svl = instances().at(info.param).svl;
                             return svl != 0 ? name + "_svl" + std::to_string(svl * 8) : name;
                         });

// ------------------------------------------------------------------------------------------
// Preconditions (debug builds).
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG
using kai_test::PreconditionCase;

TEST(Qsu2cxpPreconditionsDeathTest, Packer) {
    const std::string fn = "kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon";
    const std::string file = "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon.c";
    const size_t n = 5, k = 64;
    const auto rhs = random_codes(n, k, 5);
    const std::vector<float> scale(n, 0.5f);
    std::vector<uint8_t> out(kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(n, k, 4, 4, 1));
    const int32_t bad_lut[4] = {-2, -1, 0, 64};
    auto run = [&](size_t kk, size_t nr, size_t kr, const kai_rhs_pack_qs4cxs1s0_param* prm, const int32_t* lut) {
        kai_run_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon(1, n, kk, nr, kr, 1, rhs.data(), nullptr, scale.data(),
                                                            out.data(), 0, prm, lut);
    };
    const kai_rhs_pack_qs4cxs1s0_param bad_lhs_zp = {0, 2}, bad_rhs_zp = {1, 8};
    kai_test::expect_preconditions({
        {fn, file, "k must be a positive multiple of 32", [&](bool bad) { run(bad ? 48 : 64, 4, 4, &kParams, nullptr); }},
        {fn, file, "nr must be 4", [&](bool bad) { run(k, bad ? 8 : 4, 4, &kParams, nullptr); }},
        {fn, file, "kr must be 4 * sr", [&](bool bad) { run(k, 4, bad ? 8 : 4, &kParams, nullptr); }},
        {fn, file, "params->lhs_zero_point must be 1", [&](bool bad) { run(k, 4, 4, bad ? &bad_lhs_zp : &kParams, nullptr); }},
        {fn, file, "params->rhs_zero_point must be 2", [&](bool bad) { run(k, 4, 4, bad ? &bad_rhs_zp : &kParams, nullptr); }},
        {fn, file, "lut_arg entries must be in [-64, 63]", [&](bool bad) { run(k, 4, 4, &kParams, bad ? bad_lut : kLutSym); }},
    });
}

TEST(Qsu2cxpPreconditionsDeathTest, Kernels) {
    for (size_t i = 0; i < instances().size(); ++i) {
        const auto& v = variant(i);
        if (!kai_test::missing_features(v.features).empty()) continue;
        if (instances()[i].svl != 0) ASSERT_TRUE(set_svl(instances()[i].svl));
        const auto& uk = v.ukernel;
        const std::string stem = std::string(v.name).substr(4);
        const std::string fn = "kai_run_" + stem, file = std::string(v.name) + ".c";
        const size_t m = gemv_only(v) ? 1 : 2, n = 5, k = 64, nr = uk.get_nr();
        const Packed p = pack_random(v, m, n, k, 3, nullptr);
        std::vector<float> dst(2 * n);
        const int32_t bad_lut[4] = {-65, -1, 0, 1};
        auto run = [&](size_t mm, size_t kk, size_t col, const int32_t* lut) {
            uk.run_matmul(mm, n, kk, p.lhs_p.data(), p.rhs_p.data(), dst.data(), n * 4, col, -FLT_MAX, FLT_MAX, lut);
        };
        std::vector<PreconditionCase> cases = {
            {fn, file, "k must be a positive multiple of 32", [&](bool bad) { run(m, bad ? 40 : 64, 4, nullptr); }},
            {fn, file, "dst_stride_col must be sizeof(float)", [&](bool bad) { run(m, k, bad ? 8 : 4, nullptr); }},
            {fn, file, "lut entries must be in [-64, 63]", [&](bool bad) { run(m, k, 4, bad ? bad_lut : nullptr); }},
            {"kai_get_rhs_packed_offset_" + stem, file, "n_idx must be a multiple of nr",
             [&](bool bad) { (void)uk.get_rhs_packed_offset(bad ? nr / 2 : nr, k); }},
        };
        if (gemv_only(v)) {
            cases.push_back({fn, file, "m must be 1", [&](bool bad) { run(bad ? 2 : 1, k, 4, nullptr); }});
        }
        if (!is_sme(v)) {
            cases.push_back({fn, file, "n must be at least 1", [&](bool bad) {
                                 uk.run_matmul(m, bad ? 0 : n, k, p.lhs_p.data(), p.rhs_p.data(), dst.data(), n * 4, 4,
                                               -FLT_MAX, FLT_MAX, nullptr);
                             }});
        }
        const size_t ms = uk.get_m_step(), mr = uk.get_mr();
        if (ms > 1) {
            cases.push_back({"kai_get_dst_offset_" + stem, file, "m_idx must be a multiple of m_step",
                             [&](bool bad) { (void)uk.get_dst_offset(bad ? ms / 2 : ms, 0, 64); }});
        }
        if (mr > 1) {
            cases.push_back({"kai_get_lhs_packed_offset_" + stem, file, "m_idx must be a multiple of mr",
                             [&](bool bad) { (void)uk.get_lhs_packed_offset(bad ? mr / 2 : mr, k); }});
        }
        SCOPED_TRACE(v.name);
        kai_test::expect_preconditions(cases);
    }
}
#endif

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors (test/data/compat).
// ------------------------------------------------------------------------------------------

std::vector<std::string> compat_files() {
    std::vector<std::string> files;
    for (const char* prefix : {"kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon__",
                               "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod__",
                               "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod__",
                               "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon__",
                               "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa__",
                               "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot__"}) {
        for (const auto& f : kai_test::list_compat_vectors(prefix)) files.push_back(f);
    }
    return files;
}

TEST(Compat, EveryVectorOfTheFamilyIsPresent) {
    // NEON: 6 packer files, 5 GEMV and 6 GEMM files; SME2, at SVL 128 and at 512 bits: 4 packer files and 4 per
    // kernel.
    EXPECT_EQ(compat_files().size(), 17u + 2 * 12u);
}

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, Replays) {
    const kai_test::CompatVector cv = kai_test::load_compat_vector(GetParam());
    const std::string& name = cv.str("name");
    const size_t n = cv.size("n"), k = cv.size("k");
    const float* bias = cv.has_section("bias") ? cv.section("bias").f32() : nullptr;
    const int32_t* lut =
        cv.has_section("lut") ? reinterpret_cast<const int32_t*>(cv.section("lut").bytes.data()) : nullptr;
    const uint8_t* rhs = cv.section("rhs").bytes.data();
    const auto& rp = cv.section("rhs_packed");
    // The SME2 files: their packed sizes and tiles hold at the SVL they were recorded at.
    const bool sme = name.find("4vlx4") != std::string::npos;
    if (sme && cv.str("kind") == "kernel") {
        KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
        ASSERT_TRUE(set_svl(cv.str("vector_length") == "svl128" ? 16 : 64));
    }
    const RhsPacker& packer = sme ? kPack4vlx4 : kPack4x4;
    // The packer (alone, or the one that made a kernel file's RHS) gives the stored bytes.
    {
        const size_t nr = cv.size("nr"), kr = cv.size("kr"), sr = cv.size("sr");
        ASSERT_EQ(packer.size(n, k, nr, kr, sr), rp.bytes.size());
        GuardedBuffer got(rp.bytes.size());
        packer.run(1, n, k, nr, kr, sr, rhs, bias, cv.section("scale").f32(), got.data(), 0, &kParams, lut);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
        // And so does the reference.
        const auto ref = sme ? kai_ref::pack_qsu2cxp4vlx4(n, k, nr, rhs, bias, cv.section("scale").f32(), lut)
                             : kai_ref::pack_qsu2cxp4x4(n, k, rhs, bias, cv.section("scale").f32(), lut);
        EXPECT_TRUE(kai_test::bytes_equal(ref.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
    }
    if (cv.str("kind") == "rhs_packer") return;
    const Qsu2cxpVariant* v = nullptr;
    for (const auto& x : kai_registry::qsu2cxp_variants())
        if (name == x.name) v = &x;
    ASSERT_NE(v, nullptr) << name << " is not in the registry";
    KAI_TEST_SKIP_UNLESS(v->features);
    const auto& uk = v->ukernel;
    const size_t m = cv.size("m");
    EXPECT_EQ(uk.get_m_step(), cv.size("m_step"));
    EXPECT_EQ(uk.get_n_step(), cv.size("n_step"));
    EXPECT_EQ(uk.get_mr(), cv.size("mr"));
    const auto& lp = cv.section("lhs_packed");
    ASSERT_EQ(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr()),
              lp.bytes.size());
    std::vector<uint8_t> lhs_mine(lp.bytes.size());
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, uk.get_mr(), uk.get_kr(), uk.get_sr(), 0, cv.section("lhs").f32(),
                                       cv.size("lhs_stride"), lhs_mine.data());
    EXPECT_TRUE(kai_test::bytes_equal(lhs_mine.data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
    GuardedBuffer lhs_p(lp.bytes.size()), rhs_p(rp.bytes.size());
    std::memcpy(lhs_p.data(), lp.bytes.data(), lp.bytes.size());
    std::memcpy(rhs_p.data(), rp.bytes.data(), rp.bytes.size());
    const size_t stride = (n + 3) * 4;
    DstBuffer dst(m, n, 4, stride);
    uk.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)), stride, 4,
                  cv.clamp_min(), cv.clamp_max(), lut);
    EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), stride, cv.section("dst").f32(),
                                         n * 4, m, n));
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
    // The reference computes KleidiAI's output too.
    const auto lhs = kai_ref::unpack_qai8dxp(lp.bytes.data(), m, k, uk.get_mr(), uk.get_kr(), uk.get_sr());
    const auto ref = kai_ref::matmul_qai8dxp_qsu2cx(lhs, n, k, rhs, lut, cv.section("scale").f32(), bias, cv.clamp_min(),
                                                    cv.clamp_max(), epilogue(*v));
    EXPECT_TRUE(kai_test::f32_bits_equal(ref.data(), n * 4, cv.section("dst").f32(), n * 4, m, n));
}

// Test names: the file's stem with every other character than a letter or digit as '_'.
std::string compat_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param.substr(info.param.find_last_of('/') + 1);
    s.resize(s.size() - 4);
    std::replace_if(s.begin(), s.end(), [](char c) { return !isalnum(static_cast<unsigned char>(c)); }, '_');
    return s;
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()), compat_name);

}  // namespace
