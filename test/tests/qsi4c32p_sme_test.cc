// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
// Tests of the SME2 kernels of the block-wise int4 family (docs/matmul_int4_blockwise.md; docs/formats.md, "qsi4c32p
// SME2 matmul"): kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa, at SVL 128 and 512 bits (prctl:
// mr, nr, the steps and the packed layouts change with it):
//  - bit-exact against test/reference (matmul_qai8dxp_qsi4c32_sme2) over shapes around the tile, K from one block to
//    many, bl 32 to 256, both RHS packers (nxk, kxn; each checked byte for byte against the reference packers),
//    bias or none, clamps, sub-tiles through the offset getters into a wider stride with a sentinel around the tile;
//  - a NaN scale gives FCLAMP's lower bound (KleidiAI's bits); the getters at each SVL; m == 0 / n == 0;
//  - the KleidiAI v1.30.0 vectors (SVL 128 and 512): the packers reproduce the packed buffers, the kernel the outputs;
//  - every documented precondition (death tests, debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1); every kernel call goes through KAI_ABI.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/int4_pack_ref.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi4c32p_registry.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#endif

namespace {

using kai_registry::Qsi4c32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

const std::vector<Qsi4c32pVariant>& variants() {
    return kai_registry::qsi4c32p_sme2_variants();
}

constexpr size_t kSvls[] = {16, 64};  // streaming vector lengths in bytes: 128 and 512 bits

// The message a failed always-on check prints: release builds (NDEBUG) abort without one.
const char* msg(const char* text) {
#ifdef NDEBUG
    (void)text;
    return "";
#else
    return text;
#endif
}

bool use_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    return r >= 0 && static_cast<size_t>(r & 0xffff) == bytes;
}

// One problem: inputs, both packed buffers (kai's packers, checked against the reference packers) and the expected
// m x n output of the reference recipe.
struct Problem {
    size_t m, n, k, bl;
    std::vector<float> lhs, bias;
    std::vector<uint8_t> rhs, scale;
    std::vector<uint8_t> lhs_p, rhs_p;
    std::vector<float> want;

    Problem(const Qsi4c32pVariant& v, size_t m_, size_t n_, size_t k_, size_t bl_, bool kxn, bool with_bias, float lo,
            float hi, uint64_t seed, bool nan_scale = false)
        : m(m_), n(n_), k(k_), bl(bl_) {
        const auto& uk = v.ukernel;
        const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr(), nb = k / bl;
        Rng rng(seed);
        lhs.resize(m * k);
        for (size_t i = 0; i < m; ++i) {
            const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
            for (size_t kk = 0; kk < k; ++kk) lhs[i * k + kk] = rng.uniform(-2.0f, 2.0f) * mul;
            // Rows 1, 2, 3 of each 8: zeros, a positive and a negative constant (the quantiser's special rows).
            const float c = i % 8 == 1 ? 0.0f : i % 8 == 2 ? 0.8125f : -1.375f;
            if (i % 8 >= 1 && i % 8 <= 3) std::fill(lhs.begin() + i * k, lhs.begin() + (i + 1) * k, c);
        }
        const size_t rhs_stride = kxn ? (n + 1) / 2 : k / 2;
        rhs.resize(kxn ? k * rhs_stride : n * rhs_stride);
        for (auto& b : rhs) b = static_cast<uint8_t>(rng.integer(0, 255));
        scale.resize(n * nb * 2);
        for (size_t i = 0; i < n * nb; ++i) {
            const uint16_t s = kai_ref::bf16_from_f32(rng.uniform(0.002f, 0.05f));
            std::memcpy(&scale[2 * i], &s, 2);
        }
        if (nan_scale) {
            const uint16_t q = 0x7FC0;
            std::memcpy(&scale[2 * ((n / 2) * nb)], &q, 2);
        }
        bias.resize(n);
        for (auto& b : bias) b = rng.uniform(-10.0f, 10.0f);
        const float* bp = with_bias ? bias.data() : nullptr;

        lhs_p.assign(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr), 0);
        KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, lhs.data(), k * 4, lhs_p.data());
        std::vector<uint8_t> ref_lhs(kai_ref::qai8dxp_packed_size(m, k, mr));
        kai_ref::pack_qai8dxp(m, k, mr, kr, sr, 0, lhs.data(), k * 4, ref_lhs.data());
        EXPECT_EQ(ref_lhs.size(), lhs_p.size());
        const kai_ref::Qai8dxpUnpacked q = kai_ref::unpack_qai8dxp(ref_lhs.data(), m, k, mr, kr, sr);
        const kai_ref::Qai8dxpUnpacked qk = kai_ref::unpack_qai8dxp(lhs_p.data(), m, k, mr, kr, sr);
        EXPECT_EQ(q.q, qk.q);
        EXPECT_EQ(q.offset, qk.offset);

        const std::vector<uint8_t> ref_rhs =
            kxn ? kai_ref::pack_qsi4c32ps1s0_kxn(n, k, nr, bl, rhs.data(), rhs_stride, bp, scale.data(), nb * 2)
                : kai_ref::pack_qsi4c32ps1s0_nxk(n, k, nr, bl, rhs.data(), rhs_stride, bp, scale.data(), nb * 2);
        if (kxn) {
            rhs_p.assign(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(n, k, nr, kr, sr, bl,
                                                                                                 kai_dt_bf16),
                         0xEE);
            const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
            KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon)(
                1, n, k, nr, kr, sr, bl, rhs.data(), rhs_stride, bp, scale.data(), nb * 2, rhs_p.data(), 0, &params);
        } else {
            rhs_p.assign(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(n, k, nr, kr, sr, bl,
                                                                                                 kai_dt_bf16),
                         0xEE);
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
            KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon)(
                1, n, k, nr, kr, sr, bl, rhs.data(), rhs_stride, bp, scale.data(), nb * 2, rhs_p.data(), 0, &params);
        }
        EXPECT_EQ(ref_rhs.size(), rhs_p.size());
        EXPECT_TRUE(kai_test::bytes_equal(rhs_p.data(), ref_rhs.data(), std::min(ref_rhs.size(), rhs_p.size())));

        // The signed weights, the f32 block scales and the row sums (read from the reference packer's buffer).
        std::vector<int8_t> w(n * k);
        std::vector<float> d(n * nb), row_sum(n);
        for (size_t j = 0; j < n; ++j) {
            for (size_t kk = 0; kk < k; ++kk) {
                const uint8_t u = kxn ? kai_ref::qsu4_kxn_nibble(rhs.data(), rhs_stride, j, kk)
                                      : kai_ref::qsu4_nxk_nibble(rhs.data(), rhs_stride, j, kk);
                w[j * k + kk] = static_cast<int8_t>(static_cast<int>(u) - 8);
            }
            for (size_t b = 0; b < nb; ++b) {
                uint16_t s;
                std::memcpy(&s, &scale[2 * (j * nb + b)], 2);
                d[j * nb + b] = kai_ref::f32_from_bf16(s);
            }
            const size_t block = (j / nr) * nr * (nb * (bl / 2 + 2) + 8);
            std::memcpy(&row_sum[j], &ref_rhs[block + nr * nb * (bl / 2 + 2) + (j % nr) * 4], 4);
        }
        want = kai_ref::matmul_qai8dxp_qsi4c32_sme2(q, n, k, bl, w.data(), d.data(), row_sum.data(), bp, lo, hi);
    }
};

std::string variant_tag(const testing::TestParamInfo<size_t>& info) {
    return std::string(variants()[info.param].name).substr(std::string("kai_matmul_clamp_f32_").size());
}

class Qsi4c32pSme2 : public testing::TestWithParam<size_t> {};

struct Case {
    size_t m, n, k, bl;
};

// Full calls and sub-tiles through the offset getters, at both SVLs, both packers, with and without bias and clamp.
TEST_P(Qsi4c32pSme2, BitExactOnShapesAndSubTiles) {
    const Qsi4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
        ASSERT_EQ(ms, svl / 4);
        ASSERT_EQ(ns, svl);
        std::vector<Case> cases = {{1, 1, 32, 32}, {ms, ns, 64, 32}, {ms + 1, ns + 1, 128, 64}, {2 * ms + 3, 2 * ns + 5, 96, 32}};
        if (!kai_test::reduced_sweep() || svl == 64) {
            cases.push_back({ms - 1, ns - 1, 256, 128});
            cases.push_back({3, 3 * ns - 1, 512, 256});
            cases.push_back({ms + 2, 7, 2048, 32});
        }
        uint64_t seed = 500 + svl;
        for (const Case& c : cases) {
            for (int variant = 0; variant < 4; ++variant) {
                const bool kxn = variant % 2 == 1, with_bias = variant >= 2;
                const float lo = variant == 3 ? -1.5f : -FLT_MAX, hi = variant == 3 ? 2.0f : FLT_MAX;
                SCOPED_TRACE("svl " + std::to_string(svl * 8) + " m" + std::to_string(c.m) + " n" + std::to_string(c.n) +
                             " k" + std::to_string(c.k) + " bl" + std::to_string(c.bl) + " variant " +
                             std::to_string(variant));
                Problem p(v, c.m, c.n, c.k, c.bl, kxn, with_bias, lo, hi, seed++);
                // The whole call into a wider stride.
                const size_t stride = (c.n + 3) * 4;
                DstBuffer dst(c.m, c.n, 4, stride);
                KAI_ABI(uk.run_matmul)(c.m, c.n, c.k, c.bl, p.lhs_p.data(), p.rhs_p.data(),
                                       reinterpret_cast<float*>(dst.at(0, 0)), stride, 4, lo, hi);
                EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), stride,
                                                     p.want.data(), c.n * 4, c.m, c.n));
                EXPECT_TRUE(dst.untouched_outside(0, c.m, 0, c.n));
                // The last tile (row and column) through the getters.
                const size_t m0 = ((c.m - 1) / ms) * ms, n0 = ((c.n - 1) / ns) * ns;
                DstBuffer sub(c.m, c.n, 4, stride);
                KAI_ABI(uk.run_matmul)(c.m - m0, c.n - n0, c.k, c.bl, p.lhs_p.data() + uk.get_lhs_packed_offset(m0, c.k),
                                       p.rhs_p.data() + uk.get_rhs_packed_offset(n0, c.k, c.bl),
                                       reinterpret_cast<float*>(sub.at(0, 0) + uk.get_dst_offset(m0, n0, stride)),
                                       stride, 4, lo, hi);
                EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(sub.at(m0, n0)), stride,
                                                     p.want.data() + m0 * c.n + n0, c.n * 4, c.m - m0, c.n - n0));
                EXPECT_TRUE(sub.untouched_outside(m0, c.m - m0, n0, c.n - n0));
            }
        }
    }
}

// A NaN scale makes a NaN accumulator in its column: FCLAMP gives the lower bound (KleidiAI's values).
TEST_P(Qsi4c32pSme2, NanScaleGivesTheLowerBound) {
    const Qsi4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        const size_t m = uk.get_m_step() + 1, n = 9, k = 64, bl = 32;
        Problem p(v, m, n, k, bl, false, true, -3.0f, 5.0f, 77 + svl, true);
        DstBuffer dst(m, n, 4, n * 4);
        KAI_ABI(uk.run_matmul)(m, n, k, bl, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(dst.at(0, 0)),
                               n * 4, 4, -3.0f, 5.0f);
        EXPECT_TRUE(kai_test::f32_bits_equal(reinterpret_cast<const float*>(dst.at(0, 0)), n * 4, p.want.data(), n * 4, m, n));
        for (size_t i = 0; i < m; ++i) EXPECT_EQ(p.want[i * n + n / 2], -3.0f);
    }
}

// The getters follow the SVL; m == 0 or n == 0 writes nothing.
TEST_P(Qsi4c32pSme2, GettersFollowTheSvlAndEmptyWritesNothing) {
    const Qsi4c32pVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    for (size_t svl : kSvls) {
        ASSERT_TRUE(use_svl(svl));
        EXPECT_EQ(uk.get_m_step(), svl / 4);
        EXPECT_EQ(uk.get_mr(), svl / 4);
        EXPECT_EQ(uk.get_n_step(), svl);
        EXPECT_EQ(uk.get_nr(), svl);
        EXPECT_EQ(uk.get_kr(), 8u);
        EXPECT_EQ(uk.get_sr(), 2u);
        const size_t k = 128, bl = 64, mr = svl / 4, nr = svl;
        EXPECT_EQ(uk.get_lhs_packed_offset(2 * mr, k), 2 * mr * (k + 8));
        EXPECT_EQ(uk.get_rhs_packed_offset(3 * nr, k, bl), 3 * nr * (2 * (bl / 2 + 2) + 8));
        EXPECT_EQ(uk.get_rhs_packed_offset(nr, k, bl),
                  kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(nr, k, nr, 8, 2, bl, kai_dt_bf16));
        EXPECT_EQ(uk.get_dst_offset(mr, nr, 1000), mr * 1000 + nr * 4);
        EXPECT_EQ(uk.get_dst_size(3, 5), 60u);
        Problem p(v, 3, 5, 32, 32, false, false, -FLT_MAX, FLT_MAX, 9);
        DstBuffer empty(1, 1, 4, 4);
        KAI_ABI(uk.run_matmul)(0, 5, 32, 32, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(empty.at(0, 0)), 4,
                               4, -FLT_MAX, FLT_MAX);
        KAI_ABI(uk.run_matmul)(3, 0, 32, 32, p.lhs_p.data(), p.rhs_p.data(), reinterpret_cast<float*>(empty.at(0, 0)), 4,
                               4, -FLT_MAX, FLT_MAX);
        EXPECT_TRUE(empty.untouched_outside(0, 0, 0, 0));
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi4c32pSme2, testing::Range(size_t{0}, variants().size()), variant_tag);

// KleidiAI v1.30.0 vectors (test/data/compat, SVL 128 and 512): kai's packers reproduce the packed buffers from the
// stored inputs, and the kernel the outputs from the stored packed buffers.
TEST(Qsi4c32pSme2Compat, KernelsAndPackers) {
    size_t files = 0;
    for (const Qsi4c32pVariant& v : variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        for (const std::string& path : kai_test::list_compat_vectors(std::string(v.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector f = kai_test::load_compat_vector(path);
            const std::string vlen = f.str("vector_length");
            ASSERT_TRUE(vlen == "svl128" || vlen == "svl512") << vlen;
            ASSERT_TRUE(use_svl(vlen == "svl128" ? 16 : 64));
            const size_t m = f.size("m"), n = f.size("n"), k = f.size("k"), bl = f.size("bl"), nb = k / bl;
            EXPECT_EQ(uk.get_m_step(), f.size("m_step"));
            EXPECT_EQ(uk.get_n_step(), f.size("n_step"));
            EXPECT_EQ(uk.get_mr(), f.size("mr"));
            EXPECT_EQ(uk.get_nr(), f.size("nr"));
            EXPECT_EQ(uk.get_kr(), f.size("kr"));
            EXPECT_EQ(uk.get_sr(), f.size("sr"));
            const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr();
            const auto& lp = f.section("lhs_packed");
            const auto& rp = f.section("rhs_packed");
            GuardedBuffer lhs_k(lp.bytes.size(), 0x00), rhs_k(rp.bytes.size(), 0xEE);
            KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, sr, 0, f.section("lhs").f32(), k * 4, lhs_k.data());
            EXPECT_TRUE(kai_test::bytes_equal(lhs_k.data(), lp.bytes.data(), lp.bytes.size(), lp.mask.data()));
            ASSERT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(n, k, nr, kr, sr, bl,
                                                                                            kai_dt_bf16),
                      rp.bytes.size());
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
            const float* bias = f.has_section("bias") ? f.section("bias").f32() : nullptr;
            KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon)(
                1, n, k, nr, kr, sr, bl, f.section("rhs").bytes.data(), k / 2, bias, f.section("scale").bytes.data(),
                nb * 2, rhs_k.data(), 0, &params);
            EXPECT_TRUE(kai_test::bytes_equal(rhs_k.data(), rp.bytes.data(), rp.bytes.size(), rp.mask.data()));
            std::memcpy(lhs_k.data(), lp.bytes.data(), lp.bytes.size());
            std::memcpy(rhs_k.data(), rp.bytes.data(), rp.bytes.size());
            DstBuffer dst(m, n, 4, (n + 2) * 4);
            KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_k.data(), rhs_k.data(), reinterpret_cast<float*>(dst.at(0, 0)),
                                   (n + 2) * 4, 4, f.clamp_min(), f.clamp_max());
            std::vector<uint8_t> got(m * n * 4);
            for (size_t i = 0; i < m; ++i) std::memcpy(got.data() + i * n * 4, dst.at(i, 0), n * 4);
            EXPECT_TRUE(kai_test::bytes_equal(got.data(), f.section("dst").bytes.data(), got.size(), nullptr)) << "dst";
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            ++files;
        }
    }
    EXPECT_EQ(files, 8u);  // 1 kernel x 4 shapes x 2 SVLs
}

#ifndef NDEBUG
// Every documented precondition aborts naming its parameter.
TEST(Qsi4c32pSme2DeathTest, EachViolationAbortsNamingTheParameter) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    for (const Qsi4c32pVariant& v : variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        const size_t mr = uk.get_mr(), nr = uk.get_nr();
        float dst[8];
        uint8_t buf[64] = {0};
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, 32, nullptr, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), "lhs_packed");
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, 32, buf, nullptr, dst, 4, 4, -FLT_MAX, FLT_MAX), "rhs_packed");
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, 32, buf, buf, nullptr, 4, 4, -FLT_MAX, FLT_MAX), "dst must");
        EXPECT_DEATH(uk.run_matmul(2, 4, 32, 32, buf, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), "dst_stride_row");
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(1, 32), "m_idx");
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(mr, 0), "k must");
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(nr + 1, 32, 32), "n_idx");
        EXPECT_DEATH((void)uk.get_dst_offset(1, 0, 4), "m_idx");
        EXPECT_DEATH((void)uk.get_dst_offset(0, 1, 4), "n_idx");
    }
}
#endif

// The block-length, depth and column-stride checks abort in every build (release builds without the message).
TEST(Qsi4c32pSme2BlockDeathTest, BadBlKAndColumnStrideAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");
    for (const Qsi4c32pVariant& v : variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        const size_t nr = uk.get_nr();
        float dst[4];
        uint8_t buf[64] = {0};
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, 32, buf, buf, dst, 4, 8, -FLT_MAX, FLT_MAX), msg("dst_stride_col"));
        EXPECT_DEATH(uk.run_matmul(1, 1, 32, 16, buf, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), msg("bl must"));
        EXPECT_DEATH(uk.run_matmul(0, 1, 48, 32, buf, buf, dst, 4, 4, -FLT_MAX, FLT_MAX), msg("k must"));
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(nr, 32, 48), msg("bl must"));
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(nr, 40, 32), msg("k must"));
    }
}

// Sizes and offsets that do not fit in size_t abort in every build.
TEST(Qsi4c32pSme2SizeDeathTest, SizesThatOverflowAbort) {
    GTEST_FLAG_SET(death_test_style, "fast");
    const std::string overflow = kai_test::size_overflow_regex();
    for (const Qsi4c32pVariant& v : variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        const auto& uk = v.ukernel;
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(uk.get_mr(), SIZE_MAX - 64), overflow);
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(uk.get_nr() * (SIZE_MAX / 64), 32, 32), overflow);
        EXPECT_DEATH((void)uk.get_dst_offset(uk.get_m_step(), uk.get_n_step(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), overflow);
    }
}

}  // namespace
