// SPDX-License-Identifier: Apache-2.0
// Tests of the f16 SME/SME2 GEMMs, GEMVs and their packers (families f16p_f16p and f16_f16p; docs/matmul_sme.md, "f16 SME/SME2 GEMM";
// docs/formats.md, "x16p2vlx2", "x16p2vlx2b" and "f16 SME matmul"), each at SVL 128 and 512 bits
// (prctl(PR_SME_SET_VL): mr, nr and the packed layouts change with it):
//  - the three packers byte for byte against test/reference/sme_f16_ref (shapes, sub-ranges through the offset
//    getters, every byte of the buffer written, nothing written past it);
//  - the two kernels against the exact sum of their f16 operands within the bound of sme_f16_error_bound (derived
//    from K and f16 precision), with KleidiAI's clamp on NaN (SME2: FCLAMP gives the lower bound; SME: NaN stays),
//    over shapes (1x1x1, tile +- 1, primes, large K), clamps, sub-tiles through the offset getters and a wider
//    DST stride with a NaN sentinel around the tile;
//  - the two GEMVs the same way (n around nr and the n step, k tails, a sub-range of columns through the offset
//    getters, NaN accumulators, m == 1 only);
//  - the KleidiAI v1.30.0 vectors (SVL 128 and 512): packers byte-exact, kernels packed byte-exact and their
//    outputs within the bound;
//  - the documented preconditions (death tests, debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1); nothing skips there.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_f16_f16_f16p/kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f16_f16_f16p/kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla.h"
#include "test/common/buffers.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/reference_common.h"
#include "test/reference/sme_f16_ref.h"
#include "test/registry/sme_f16_registry.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
#endif
#ifndef PR_SME_VL_LEN_MASK
#define PR_SME_VL_LEN_MASK 0xffff
#endif

extern "C" {
struct AbiFrame {
    uint64_t fn;
    uint64_t x[8];
    uint64_t stack_arg;
    float s0, s1;
    uint64_t in_gpr[11];  // x18 ... x28
    uint64_t in_d[8];     // d8 ... d15
    uint64_t out_gpr[11];
    uint64_t out_d[8];
};
void kai_test_abi_call(AbiFrame* f);
void kai_test_za_arm_lazy_save(const void* pattern, void* tpidr2_block);
void kai_test_za_finish(uint64_t* tpidr2, uint64_t* svcr);
}
static_assert(offsetof(AbiFrame, stack_arg) == 72, "frame layout of sme_abi_probe.S");
static_assert(offsetof(AbiFrame, in_gpr) == 88, "frame layout of sme_abi_probe.S");

namespace {

using kai_registry::SmeF16Variant;

const size_t kSvls[] = {16, 64};  // bytes: 128 and 512 bits

::testing::AssertionResult set_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    if (r < 0) return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK;
    if (static_cast<size_t>(got) != bytes) {
        return ::testing::AssertionFailure() << "SVL is " << got << " bytes, asked for " << bytes;
    }
    return ::testing::AssertionSuccess();
}

std::vector<uint16_t> random_f16(size_t n, uint64_t seed) {
    const std::vector<float> f = kai_test::random_f32(n, -2.0f, 2.0f, seed);
    std::vector<uint16_t> h(n);
    for (size_t i = 0; i < n; ++i) h[i] = kai_ref::f16_from_f32(f[i]);
    return h;
}

const kai_registry::SmeF16LhsPacker& lhs_packer() {
    return kai_registry::sme_f16_lhs_packers().at(0);
}

const kai_registry::SmeF16RhsPacker& rhs_packer(bool kxn) {
    for (const auto& p : kai_registry::sme_f16_rhs_packers()) {
        if (p.kxn == kxn) return p;
    }
    return kai_registry::sme_f16_rhs_packers().at(0);
}

bool skip_for(uint32_t features) {
    return !kai_test::missing_features(features).empty();
}

// Packs with kai's packers into exact-size guarded buffers (nothing may be written past them).
std::vector<uint8_t> kai_pack_lhs(const uint16_t* lhs, size_t m, size_t k, size_t mr) {
    const auto& p = lhs_packer();
    const size_t size = p.get_lhs_packed_size(m, k, mr, 2, 1);
    kai_test::GuardedBuffer buf(size, 0x5A);
    p.run(m, k, mr, 2, 1, 0, lhs, k * 2, buf.data());
    return std::vector<uint8_t>(buf.data(), buf.data() + size);
}

std::vector<uint8_t> kai_pack_rhs(bool kxn, const uint16_t* rhs, const uint16_t* bias, size_t n, size_t k, size_t nr) {
    const auto& p = rhs_packer(kxn);
    const size_t size = p.get_rhs_packed_size(n, k);
    kai_test::GuardedBuffer buf(size, 0x5A);
    p.run(1, n, k, nr, 2, 1, kxn ? n * 2 : k * 2, rhs, bias, nullptr, buf.data(), 0, nullptr);
    return std::vector<uint8_t>(buf.data(), buf.data() + size);
}

std::vector<uint16_t> transpose(const std::vector<uint16_t>& kxn, size_t k, size_t n) {
    std::vector<uint16_t> t(n * k);
    for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) t[j * k + kk] = kxn[kk * n + j];
    return t;
}

// One output against the reference: identical bits, or both finite and within the bound. A NaN or an infinity
// must be matched exactly (as a class for NaN).
::testing::AssertionResult f16_close(uint16_t got, uint16_t want, double abs_sum, size_t k) {
    const float g = kai_ref::f32_from_f16(got), w = kai_ref::f32_from_f16(want);
    if (got == want || (std::isnan(g) && std::isnan(w))) return ::testing::AssertionSuccess();
    if (std::isfinite(g) && std::isfinite(w)) {
        const double bound = kai_ref::sme_f16_error_bound(abs_sum, k, std::fmax(std::fabs(g), std::fabs(w)));
        if (std::fabs(static_cast<double>(g) - w) <= bound) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "got " << g << " want " << w << " bound " << bound;
    }
    return ::testing::AssertionFailure() << "got " << g << " (0x" << std::hex << got << ") want " << w << " (0x" << want
                                         << ")";
}

// ---- packers ----

TEST(SmeF16Pack, PackersMatchTheReferenceAtEachSvl) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const size_t tile = svl / 2;  // 2 * SVL / 32 lanes
        ASSERT_EQ(lhs_packer().get_m_step(tile), tile);
        for (bool kxn : {true, false}) ASSERT_EQ(rhs_packer(kxn).get_n_step(), tile);
        const size_t shapes[][2] = {{1, 1}, {1, 2}, {3, 7}, {tile - 1, 40}, {tile, 45}, {tile + 1, 64}, {2 * tile + 3, 65}, {37, 129}};
        for (const auto& s : shapes) {
            const size_t mn = s[0], k = s[1];
            SCOPED_TRACE("svl " + std::to_string(svl * 8) + " m/n " + std::to_string(mn) + " k " + std::to_string(k));
            const std::vector<uint16_t> a = random_f16(mn * k, mn * 131 + k);
            EXPECT_EQ(kai_pack_lhs(a.data(), mn, k, tile), kai_ref::sme_pack_lhs_x16p2vlx2(a.data(), mn, k, k, tile));
            const std::vector<uint16_t> bias = random_f16(mn, mn + 7);
            const std::vector<uint8_t> want = kai_ref::sme_pack_rhs_x16p2vlx2b(a.data(), true, mn, bias.data(), mn, k, tile);
            EXPECT_EQ(kai_pack_rhs(true, a.data(), bias.data(), mn, k, tile), want);
            const std::vector<uint16_t> t = transpose(a, k, mn);
            EXPECT_EQ(kai_pack_rhs(false, t.data(), bias.data(), mn, k, tile), want);
        }
    }
}

TEST(SmeF16Pack, GettersAndSubRanges) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const size_t tile = svl / 2, k = 13, kp = 14, n = 2 * tile + 5;
        const auto& kxn = rhs_packer(true);
        const auto& nxk = rhs_packer(false);
        // KleidiAI's strides: per block for the kxn packer, per channel for the nxk one.
        EXPECT_EQ(kxn.get_rhs_packed_stride(k), tile * (2 + 2 * kp));
        EXPECT_EQ(nxk.get_rhs_packed_stride(k), 2 + 2 * kp);
        EXPECT_EQ(kxn.get_rhs_packed_offset(tile, k), tile * (2 + 2 * kp));
        EXPECT_EQ(nxk.get_rhs_packed_offset(tile, k), tile * (2 + 2 * kp));
        EXPECT_EQ(kxn.get_rhs_packed_size(n, k), 3 * tile * (2 + 2 * kp));
        EXPECT_EQ(nxk.get_rhs_packed_size(n, k), 3 * tile * (2 + 2 * kp));
        EXPECT_EQ(kxn.get_bias_offset(3), 6u);
        EXPECT_EQ(lhs_packer().get_lhs_packed_offset(tile, k, tile, 2, 1), tile * kp * 2);
        EXPECT_EQ(lhs_packer().get_lhs_offset(tile, 100), tile * 100);
        EXPECT_EQ(lhs_packer().get_lhs_packed_size(n, k, tile, 2, 1), 3 * tile * kp * 2);
        // The second block packed on its own lands where the whole packing puts it.
        const std::vector<uint16_t> w = random_f16(n * k, 99), bias = random_f16(n, 98);
        const std::vector<uint8_t> whole = kai_pack_rhs(false, w.data(), bias.data(), n, k, tile);
        const size_t off = nxk.get_rhs_packed_offset(tile, k);
        const std::vector<uint8_t> part = kai_pack_rhs(false, w.data() + tile * k, bias.data() + tile, n - tile, k, tile);
        EXPECT_EQ(part, std::vector<uint8_t>(whole.begin() + static_cast<long>(off), whole.end()));
        const std::vector<uint8_t> lw = kai_pack_lhs(w.data(), n, k, tile);
        const std::vector<uint8_t> lp = kai_pack_lhs(w.data() + tile * k, n - tile, k, tile);
        EXPECT_EQ(lp, std::vector<uint8_t>(lw.begin() + static_cast<long>(tile * kp * 2), lw.end()));
    }
}

// ---- kernels ----

struct Problem {
    size_t m, n, k;
    std::vector<uint16_t> lhs, rhs_kxn, bias;
    std::vector<double> exact, abs_sum;
};

Problem make_problem(size_t m, size_t n, size_t k, uint64_t seed) {
    Problem p{m, n, k, random_f16(m * k, seed), random_f16(k * n, seed + 1), random_f16(n, seed + 2), {}, {}};
    kai_ref::sme_matmul_f16_exact(p.lhs.data(), p.rhs_kxn.data(), p.bias.data(), m, n, k, &p.exact, &p.abs_sum);
    return p;
}

// Runs the kernel on the rows [m0, m0 + mt) and columns [n0, n0 + nt) (origins multiples of the steps) into a
// DST with a row stride of `stride` elements, and checks the tile and that nothing around it was written.
void run_and_check(const SmeF16Variant& v, const Problem& p, size_t m0, size_t mt, size_t n0, size_t nt, size_t stride,
                   float lo, float hi) {
    const auto& u = v.ukernel;
    const size_t tile = u.get_m_step();
    const std::vector<uint8_t> lp = kai_pack_lhs(p.lhs.data(), p.m, p.k, u.get_mr());
    const std::vector<uint8_t> rp = kai_pack_rhs(true, p.rhs_kxn.data(), p.bias.data(), p.n, p.k, u.get_nr());
    kai_test::DstBuffer dst(p.m, p.n, 2, stride * 2);
    ASSERT_EQ(m0 % tile, 0u);
    u.run_matmul(mt, nt, p.k, lp.data() + u.get_lhs_packed_offset(m0, p.k), rp.data() + u.get_rhs_packed_offset(n0, p.k),
                 dst.at(0, 0) + u.get_dst_offset(m0, n0, stride * 2), stride * 2, 2, lo, hi);
    EXPECT_TRUE(dst.untouched_outside(m0, mt, n0, nt));
    size_t bad = 0;
    for (size_t i = m0; i < m0 + mt; ++i) {
        for (size_t j = n0; j < n0 + nt; ++j) {
            const uint16_t want = kai_ref::sme_f16_output(p.exact[i * p.n + j], lo, hi, v.fclamp);
            const uint16_t got = static_cast<uint16_t>(dst.bits(i, j));
            const auto r = f16_close(got, want, p.abs_sum[i * p.n + j], p.k);
            if (!r && bad++ < 5) ADD_FAILURE() << v.name << " (" << i << ", " << j << ") of " << p.m << "x" << p.n << "x" << p.k << ": " << r.message();
        }
    }
    EXPECT_EQ(bad, 0u) << v.name;
}

TEST(SmeF16Kernel, ShapesClampsAndSubTiles) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    const bool reduced = kai_test::reduced_sweep();
    for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
        if (skip_for(v.features)) continue;  // an SME-only CPU: the SME2 kernels skip
        for (size_t svl : kSvls) {
            ASSERT_TRUE(set_svl(svl));
            const size_t t = v.ukernel.get_m_step();
            ASSERT_EQ(t, svl / 2);
            ASSERT_EQ(v.ukernel.get_n_step(), t);
            ASSERT_EQ(v.ukernel.get_kr(), 2u);
            ASSERT_EQ(v.ukernel.get_sr(), 1u);
            SCOPED_TRACE(std::string(v.name) + " svl " + std::to_string(svl * 8));
            const size_t shapes[][3] = {{1, 1, 1}, {1, t + 1, 7}, {t - 1, t, 8}, {t, t - 1, 9}, {t + 1, t + 1, 45},
                                        {2 * t + 3, 2 * t + 5, 64}, {13, 31, 129}, {3, 5, reduced ? 512u : 2048u}};
            uint64_t seed = 1;
            for (const auto& s : shapes) {
                const Problem p = make_problem(s[0], s[1], s[2], seed++);
                run_and_check(v, p, 0, p.m, 0, p.n, p.n, -INFINITY, INFINITY);
                // Clamped at the 20 % / 80 % quantiles, which need not be f16 values.
                std::vector<double> sorted = p.exact;
                std::sort(sorted.begin(), sorted.end());
                const float lo = static_cast<float>(sorted[sorted.size() / 5]) + 1e-4f;
                const float hi = static_cast<float>(sorted[sorted.size() * 4 / 5]) - 1e-4f;
                if (lo < hi) run_and_check(v, p, 0, p.m, 0, p.n, p.n + 3, lo, hi);
            }
            // One sub-tile through the offset getters, in a wider DST.
            const Problem p = make_problem(2 * t + 3, 3 * t + 1, 33, 77);
            run_and_check(v, p, t, t + 3, t, 2 * t, p.n + 5, -3.0f, 3.0f);
        }
    }
}

TEST(SmeF16Kernel, NanAccumulatorsFollowKleidiAI) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
        if (skip_for(v.features)) continue;
        ASSERT_TRUE(set_svl(64));
        Problem p = make_problem(5, 9, 6, 5);
        // Row 2 all +inf: every column with both signs among its weights, or a zero, gives inf - inf or inf * 0.
        for (size_t kk = 0; kk < p.k; ++kk) p.lhs[2 * p.k + kk] = 0x7c00;
        p.rhs_kxn[0] = 0;
        kai_ref::sme_matmul_f16_exact(p.lhs.data(), p.rhs_kxn.data(), p.bias.data(), p.m, p.n, p.k, &p.exact, &p.abs_sum);
        ASSERT_TRUE(std::isnan(p.exact[2 * p.n + 0]));
        run_and_check(v, p, 0, p.m, 0, p.n, p.n, -1.5f, 2.5f);
        const auto& u = v.ukernel;
        const std::vector<uint8_t> lp = kai_pack_lhs(p.lhs.data(), p.m, p.k, u.get_mr());
        const std::vector<uint8_t> rp = kai_pack_rhs(true, p.rhs_kxn.data(), p.bias.data(), p.n, p.k, u.get_nr());
        std::vector<uint16_t> dst(p.m * p.n);
        u.run_matmul(p.m, p.n, p.k, lp.data(), rp.data(), dst.data(), p.n * 2, 2, -1.5f, 2.5f);
        // SME2 (FCLAMP): NaN -> the lower bound; SME (FMIN / FMAX): NaN stays NaN.
        if (v.fclamp) {
            EXPECT_EQ(dst[2 * p.n], kai_ref::f16_from_f32(-1.5f)) << v.name;
        } else {
            EXPECT_TRUE(std::isnan(kai_ref::f32_from_f16(dst[2 * p.n]))) << v.name;
        }
    }
}

// ---- GEMVs ----

using kai_registry::SmeF16GemvVariant;

// Runs the GEMV on columns [n0, n0 + nt) (n0 a multiple of nr) and checks them and that nothing else was written.
void run_gemv_and_check(const SmeF16GemvVariant& v, const Problem& p, size_t n0, size_t nt, float lo, float hi) {
    const auto& u = v.ukernel;
    const std::vector<uint8_t> rp = kai_pack_rhs(false, transpose(p.rhs_kxn, p.k, p.n).data(), p.bias.data(), p.n, p.k,
                                                 u.get_nr());
    kai_test::GuardedBuffer lhs(p.k * 2, 0);  // the LHS row ends at a guard page
    std::memcpy(lhs.data(), p.lhs.data(), p.k * 2);
    kai_test::DstBuffer dst(1, p.n, 2, p.n * 2);
    u.run_matmul(1, nt, p.k, lhs.data(), p.k * 2, rp.data() + u.get_rhs_packed_offset(n0, p.k),
                 dst.at(0, 0) + u.get_dst_offset(0, n0, p.n * 2), p.n * 2, 2, lo, hi);
    EXPECT_TRUE(dst.untouched_outside(0, 1, n0, nt));
    size_t bad = 0;
    for (size_t j = n0; j < n0 + nt; ++j) {
        const uint16_t want = kai_ref::sme_f16_output(p.exact[j], lo, hi, v.fclamp);
        const auto r = f16_close(static_cast<uint16_t>(dst.bits(0, j)), want, p.abs_sum[j], p.k);
        if (!r && bad++ < 5) ADD_FAILURE() << v.name << " column " << j << " of 1x" << p.n << "x" << p.k << ": " << r.message();
    }
    EXPECT_EQ(bad, 0u) << v.name;
}

TEST(SmeF16Gemv, ShapesClampsAndSubRanges) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    const bool reduced = kai_test::reduced_sweep();
    for (const SmeF16GemvVariant& v : kai_registry::sme_f16_gemv_variants()) {
        if (skip_for(v.features)) continue;  // an SME-only CPU: the SME2 kernels skip
        for (size_t svl : kSvls) {
            ASSERT_TRUE(set_svl(svl));
            const size_t nr = svl / 2, step = v.ukernel.get_n_step();
            ASSERT_EQ(v.ukernel.get_m_step(), 1u);
            ASSERT_EQ(v.ukernel.get_nr(), nr);
            ASSERT_EQ(step, (v.fclamp ? 8 : 4) * nr);
            ASSERT_EQ(v.ukernel.get_kr(), 2u);
            ASSERT_EQ(v.ukernel.get_sr(), 1u);
            SCOPED_TRACE(std::string(v.name) + " svl " + std::to_string(svl * 8));
            const size_t ns[] = {1, nr - 1, nr + 1, step - 1, step, step + 1, 2 * step + 3};
            const size_t ks[] = {1, 2, 7, 8, 9, 45, 129, reduced ? 512u : 2048u};
            uint64_t seed = 100;
            for (size_t n : ns) {
                for (size_t k : ks) {
                    if (reduced && k > 9 && n != step + 1) continue;
                    const Problem p = make_problem(1, n, k, seed++);
                    run_gemv_and_check(v, p, 0, n, -INFINITY, INFINITY);
                }
            }
            const Problem p = make_problem(1, 2 * step + 3, 33, 7);
            std::vector<double> sorted = p.exact;
            std::sort(sorted.begin(), sorted.end());
            run_gemv_and_check(v, p, 0, p.n, static_cast<float>(sorted[p.n / 5]) + 1e-4f,
                               static_cast<float>(sorted[p.n * 4 / 5]) - 1e-4f);
            run_gemv_and_check(v, p, nr, p.n - nr, -1.0f, 1.0f);   // a sub-range from a block boundary
            run_gemv_and_check(v, p, step, nr + 1, -INFINITY, INFINITY);
        }
    }
    // KleidiAI names the LHS-offset getter differently in the two kernels; both return 0.
    EXPECT_EQ(kai_get_lhs_packed_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(0, 77), 0u);
    EXPECT_EQ(kai_get_lhs_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(0, 77), 0u);
}

TEST(SmeF16Gemv, NanAccumulatorsFollowKleidiAI) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    for (const SmeF16GemvVariant& v : kai_registry::sme_f16_gemv_variants()) {
        if (skip_for(v.features)) continue;
        ASSERT_TRUE(set_svl(16));
        Problem p = make_problem(1, 19, 6, 9);
        for (size_t kk = 0; kk < p.k; ++kk) p.lhs[kk] = 0x7c00;  // +inf
        p.rhs_kxn[0] = 0;                                        // column 0: inf * 0
        kai_ref::sme_matmul_f16_exact(p.lhs.data(), p.rhs_kxn.data(), p.bias.data(), 1, p.n, p.k, &p.exact, &p.abs_sum);
        ASSERT_TRUE(std::isnan(p.exact[0]));
        run_gemv_and_check(v, p, 0, p.n, -1.5f, 2.5f);
    }
}

// ---- KleidiAI v1.30.0 vectors ----

std::vector<uint16_t> halfwords(const kai_test::CompatSection& s) {
    std::vector<uint16_t> h(s.bytes.size() / 2);
    std::memcpy(h.data(), s.bytes.data(), h.size() * 2);
    return h;
}

TEST(SmeF16Compat, KleidiAIVectors) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME | KAI_FEATURE_SME2);  // the files of all four kernels
    size_t files = 0;
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const std::string tag = "_svl" + std::to_string(svl * 8) + ".txt";
        auto for_prefix = [&](const std::string& prefix, const std::function<void(const kai_test::CompatVector&)>& f) {
            for (const std::string& path : kai_test::list_compat_vectors(prefix)) {
                if (path.size() < tag.size() || path.compare(path.size() - tag.size(), tag.size(), tag) != 0) continue;
                SCOPED_TRACE(path);
                const kai_test::CompatVector cv = kai_test::load_compat_vector(path);
                ASSERT_EQ(cv.str("vector_length"), "svl" + std::to_string(svl * 8));
                f(cv);
                ++files;
            }
        };
        for_prefix("kai_lhs_pack_x16p2vlx2_x16_sme__", [&](const kai_test::CompatVector& cv) {
            const std::vector<uint16_t> lhs = halfwords(cv.section("lhs"));
            EXPECT_EQ(kai_pack_lhs(lhs.data(), cv.size("m"), cv.size("k"), cv.size("mr")), cv.section("lhs_packed").bytes);
        });
        for (bool kxn : {true, false}) {
            for_prefix(kxn ? "kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme__" : "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme__",
                       [&](const kai_test::CompatVector& cv) {
                           const std::vector<uint16_t> rhs = halfwords(cv.section("rhs")), bias = halfwords(cv.section("bias"));
                           EXPECT_EQ(kai_pack_rhs(kxn, rhs.data(), bias.data(), cv.size("n"), cv.size("k"), cv.size("nr")),
                                     cv.section("rhs_packed").bytes);
                       });
        }
        for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
            for_prefix(std::string(v.name) + "__", [&](const kai_test::CompatVector& cv) {
                const size_t m = cv.size("m"), n = cv.size("n"), k = cv.size("k");
                const auto& u = v.ukernel;
                ASSERT_EQ(u.get_mr(), cv.size("mr"));
                ASSERT_EQ(u.get_nr(), cv.size("nr"));
                const std::vector<uint16_t> lhs = halfwords(cv.section("lhs")), rhs = halfwords(cv.section("rhs")),
                                            bias = halfwords(cv.section("bias")), want = halfwords(cv.section("dst"));
                const std::vector<uint8_t> lp = kai_pack_lhs(lhs.data(), m, k, u.get_mr());
                const std::vector<uint8_t> rp = kai_pack_rhs(true, rhs.data(), bias.data(), n, k, u.get_nr());
                EXPECT_EQ(lp, cv.section("lhs_packed").bytes);
                EXPECT_EQ(rp, cv.section("rhs_packed").bytes);
                std::vector<uint16_t> dst(m * n, 0x7dde);
                u.run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n * 2, 2, cv.clamp_min(), cv.clamp_max());
                std::vector<double> exact, abs_sum;
                kai_ref::sme_matmul_f16_exact(lhs.data(), rhs.data(), bias.data(), m, n, k, &exact, &abs_sum);
                size_t bad = 0;
                for (size_t i = 0; i < m * n; ++i) {
                    const auto r = f16_close(dst[i], want[i], abs_sum[i], k);
                    if (!r && bad++ < 5) ADD_FAILURE() << "element " << i << ": " << r.message();
                }
                EXPECT_EQ(bad, 0u);
            });
        }
        for (const SmeF16GemvVariant& v : kai_registry::sme_f16_gemv_variants()) {
            for_prefix(std::string(v.name) + "__", [&](const kai_test::CompatVector& cv) {
                const size_t n = cv.size("n"), k = cv.size("k");
                ASSERT_EQ(cv.size("m"), 1u);
                const auto& u = v.ukernel;
                ASSERT_EQ(u.get_nr(), cv.size("nr"));
                ASSERT_EQ(u.get_n_step(), cv.size("n_step"));
                const std::vector<uint16_t> lhs = halfwords(cv.section("lhs")), rhs = halfwords(cv.section("rhs")),
                                            bias = halfwords(cv.section("bias")), want = halfwords(cv.section("dst"));
                const std::vector<uint8_t> rp = kai_pack_rhs(true, rhs.data(), bias.data(), n, k, u.get_nr());
                EXPECT_EQ(rp, cv.section("rhs_packed").bytes);
                std::vector<uint16_t> dst(n, 0x7dde);
                u.run_matmul(1, n, k, lhs.data(), k * 2, rp.data(), dst.data(), n * 2, 2, cv.clamp_min(), cv.clamp_max());
                std::vector<double> exact, abs_sum;
                kai_ref::sme_matmul_f16_exact(lhs.data(), rhs.data(), bias.data(), 1, n, k, &exact, &abs_sum);
                size_t bad = 0;
                for (size_t j = 0; j < n; ++j) {
                    const auto r = f16_close(dst[j], want[j], abs_sum[j], k);
                    if (!r && bad++ < 5) ADD_FAILURE() << "column " << j << ": " << r.message();
                }
                EXPECT_EQ(bad, 0u);
            });
        }
    }
    // 4 LHS, 8 RHS, 8 GEMM and 8 GEMV files per SVL.
    EXPECT_EQ(files, 2u * (4 + 8 + 8 + 8));
}

// ---- calling convention ----

// Each kernel through the assembly trampoline (x18-x28 and d8-d15 hold canaries across the call; streaming mode
// and ZA are off after it), then with a pending lazy ZA save of the caller (the kernel must commit it: TPIDR2_EL0
// cleared, the save buffer holding the caller's ZA), both times with a right result.
TEST(SmeF16Abi, CalleeSavedRegistersAndLazyZaSave) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    struct Call {
        const char* name;
        uint32_t features;
        bool gemv;
        uint64_t fn;
        std::function<void(const Problem&, std::vector<uint8_t>*, std::vector<uint8_t>*)> pack;
        std::function<void(const Problem&, const uint8_t*, const uint8_t*, uint16_t*)> run;
        bool fclamp;
    };
    std::vector<Call> calls;
    for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
        const auto u = v.ukernel;
        calls.push_back({v.name, v.features, false, reinterpret_cast<uint64_t>(u.run_matmul),
                         [u](const Problem& p, std::vector<uint8_t>* lp, std::vector<uint8_t>* rp) {
                             *lp = kai_pack_lhs(p.lhs.data(), p.m, p.k, u.get_mr());
                             *rp = kai_pack_rhs(true, p.rhs_kxn.data(), p.bias.data(), p.n, p.k, u.get_nr());
                         },
                         [u](const Problem& p, const uint8_t* lp, const uint8_t* rp, uint16_t* d) {
                             u.run_matmul(p.m, p.n, p.k, lp, rp, d, p.n * 2, 2, -2.0f, 2.0f);
                         },
                         v.fclamp});
    }
    for (const SmeF16GemvVariant& v : kai_registry::sme_f16_gemv_variants()) {
        const auto u = v.ukernel;
        calls.push_back({v.name, v.features, true, reinterpret_cast<uint64_t>(u.run_matmul),
                         [u](const Problem& p, std::vector<uint8_t>* lp, std::vector<uint8_t>* rp) {
                             lp->assign(reinterpret_cast<const uint8_t*>(p.lhs.data()),
                                        reinterpret_cast<const uint8_t*>(p.lhs.data()) + p.k * 2);
                             *rp = kai_pack_rhs(true, p.rhs_kxn.data(), p.bias.data(), p.n, p.k, u.get_nr());
                         },
                         [u](const Problem& p, const uint8_t* lp, const uint8_t* rp, uint16_t* d) {
                             u.run_matmul(1, p.n, p.k, lp, p.k * 2, rp, d, p.n * 2, 2, -2.0f, 2.0f);
                         },
                         v.fclamp});
    }
    for (const Call& c : calls) {
        if (skip_for(c.features)) continue;
        for (size_t svl : kSvls) {
            ASSERT_TRUE(set_svl(svl));
            SCOPED_TRACE(std::string(c.name) + " svl " + std::to_string(svl * 8));
            const size_t t = svl / 2;
            const Problem p = make_problem(c.gemv ? 1 : t + 1, c.gemv ? 8 * t + 3 : t + 1, 19, 11);
            std::vector<uint8_t> lp, rp;
            c.pack(p, &lp, &rp);
            auto check = [&](const std::vector<uint16_t>& d) {
                size_t bad = 0;
                for (size_t i = 0; i < p.m * p.n; ++i) {
                    const uint16_t want = kai_ref::sme_f16_output(p.exact[i], -2.0f, 2.0f, c.fclamp);
                    bad += !f16_close(d[i], want, p.abs_sum[i], p.k);
                }
                return bad;
            };
            std::vector<uint16_t> dst(p.m * p.n, 0x7dde);
            AbiFrame f = {};
            f.fn = c.fn;
            const uint64_t dst_addr = reinterpret_cast<uint64_t>(dst.data());
            if (c.gemv) {
                const uint64_t x[8] = {1, p.n, p.k, reinterpret_cast<uint64_t>(lp.data()), p.k * 2,
                                       reinterpret_cast<uint64_t>(rp.data()), dst_addr, p.n * 2};
                std::memcpy(f.x, x, sizeof(x));
                f.stack_arg = 2;  // dst_stride_col, the 9th integer argument
            } else {
                const uint64_t x[8] = {p.m, p.n, p.k, reinterpret_cast<uint64_t>(lp.data()),
                                       reinterpret_cast<uint64_t>(rp.data()), dst_addr, p.n * 2, 2};
                std::memcpy(f.x, x, sizeof(x));
            }
            f.s0 = -2.0f;
            f.s1 = 2.0f;
            for (size_t i = 0; i < 11; ++i) f.in_gpr[i] = 0x1800000000000000ull + i * 0x0101010101010101ull;
            for (size_t i = 0; i < 8; ++i) f.in_d[i] = 0x3ff0000000000000ull + (i + 1) * 0x0000111111111111ull;
            kai_test_abi_call(&f);
            for (size_t i = 0; i < 11; ++i) EXPECT_EQ(f.out_gpr[i], f.in_gpr[i]) << "x" << 18 + i;
            for (size_t i = 0; i < 8; ++i) EXPECT_EQ(f.out_d[i], f.in_d[i]) << "d" << 8 + i;
            EXPECT_EQ(check(dst), 0u) << "through the trampoline";
            uint64_t tpidr2 = 1, svcr = 1;
            kai_test_za_finish(&tpidr2, &svcr);
            EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";

            std::vector<uint8_t> pattern(svl * svl), save(svl * svl, 0);
            for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + i / svl + 1);
            struct alignas(16) Tpidr2Block {
                uint64_t za_save_buffer;
                uint16_t num_za_save_slices;
                uint8_t reserved[6];
            } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
            std::fill(dst.begin(), dst.end(), 0x7dde);
            kai_test_za_arm_lazy_save(pattern.data(), &block);
            c.run(p, lp.data(), rp.data(), dst.data());
            kai_test_za_finish(&tpidr2, &svcr);
            EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
            EXPECT_EQ(svcr & 3u, 0u);
            EXPECT_EQ(save, pattern) << "ZA save buffer";
            EXPECT_EQ(check(dst), 0u) << "after a lazy save";
        }
    }
}

// ---- preconditions ----

TEST(SmeF16Preconditions, DocumentedChecksFire) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME);
    ASSERT_TRUE(set_svl(64));
    const size_t t = 32;
    std::vector<uint16_t> in(4 * t * 8, 0), bias(4 * t, 0);
    std::vector<uint8_t> out(64 * 1024);
    std::vector<kai_test::PreconditionCase> cases;
    const auto& lp = lhs_packer();
    const std::string lfile = "kai_lhs_pack_x16p2vlx2_x16_sme.c";
    cases.push_back({"lhs run mr", lfile, "mr must be 2 * SVL / 32",
                     [&](bool bad) { lp.run(2, 8, bad ? t + 1 : t, 2, 1, 0, in.data(), 16, out.data()); }});
    cases.push_back({"lhs run kr", lfile, "kr must be 2",
                     [&](bool bad) { lp.run(2, 8, t, bad ? 1 : 2, 1, 0, in.data(), 16, out.data()); }});
    cases.push_back({"lhs run stride", lfile, "lhs_stride_row must be at least k * 2 when m > 1",
                     [&](bool bad) { lp.run(2, 8, t, 2, 1, 0, in.data(), bad ? 14 : 16, out.data()); }});
    for (bool kxn : {true, false}) {
        const auto& rp = rhs_packer(kxn);
        const std::string rfile = std::string(rp.name) + ".c";
        cases.push_back({std::string(rp.name) + " nr", rfile, "nr must be 2 * SVL / 32", [&rp, &in, &bias, &out, t](bool bad) {
                             rp.run(1, 4, 8, bad ? t / 2 : t, 2, 1, 16, in.data(), bias.data(), nullptr, out.data(), 0, nullptr);
                         }});
        cases.push_back({std::string(rp.name) + " bias", rfile, "bias must not be NULL (pass zeros for no bias)",
                         [&rp, &in, &bias, &out, t](bool bad) {
                             rp.run(1, 4, 8, t, 2, 1, 16, in.data(), bad ? nullptr : bias.data(), nullptr, out.data(), 0, nullptr);
                         }});
    }
    for (const SmeF16Variant& v : kai_registry::sme_f16_variants()) {
        if (skip_for(v.features)) continue;
        const std::string kfile = std::string(v.name) + ".c";
        const auto u = v.ukernel;
        cases.push_back({std::string(v.name) + " dst_stride_col", kfile, "dst_stride_col must be 2", [u, &out](bool bad) {
                             u.run_matmul(1, 1, 2, out.data(), out.data() + 4096, out.data() + 32768, 2, bad ? 4 : 2, -1.0f, 1.0f);
                         }});
        cases.push_back({std::string(v.name) + " m_idx", kfile, "m_idx must be a multiple of the m step",
                         [u, t](bool bad) { (void)u.get_lhs_packed_offset(bad ? 1 : t, 8); }});
    }
    for (const SmeF16GemvVariant& v : kai_registry::sme_f16_gemv_variants()) {
        if (skip_for(v.features)) continue;
        const std::string kfile = std::string(v.name) + ".c";
        const auto u = v.ukernel;
        cases.push_back({std::string(v.name) + " m", kfile, "m must be 1", [u, &out](bool bad) {
                             u.run_matmul(bad ? 2 : 1, 1, 2, out.data(), 4, out.data() + 4096, out.data() + 32768, 2, 2, -1.0f, 1.0f);
                         }});
        cases.push_back({std::string(v.name) + " n_idx", kfile, "n_idx must be a multiple of nr",
                         [u, t](bool bad) { (void)u.get_rhs_packed_offset(bad ? 1 : t, 8); }});
    }
    kai_test::expect_preconditions(cases);
}

}  // namespace
