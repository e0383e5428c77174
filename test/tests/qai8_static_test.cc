// SPDX-License-Identifier: Apache-2.0
// Tests of the static int8 SME families (qai8p_qsi8cxpsb: packed-LHS MOPA GEMMs; qai8_qsi8cxp: the SME2 GEMV on an
// unpacked LHS row): int8 LHS and RHS, int8 output requantized.
//  - packers: byte-exact against test/reference/qai8_static_ref (written from docs/formats.md) and the size /
//    offset getters, at SVL 128, 512 and 2048 bits (set with prctl(PR_SME_SET_VL): mr, nr and the layouts change);
//  - the kernels: bit-exact against the reference's requantization over shapes around the tile, clamps, zero
//    points, whole matrix and tile by tile through the offset getters, a wider DST row stride whose gaps must
//    stay untouched;
//  - the indirect (imatmul) packers: byte-exact against the reference, pointer table with padding entries;
//  - packed inputs and the LHS row ending at guard pages (reads past them fault);
//  - the calling convention: x18-x28 and d8-d15 survive a call, streaming mode and ZA are off afterwards, and a
//    pending lazy ZA save of the caller is committed (TPIDR2_EL0);
//  - death tests: every documented precondition aborts naming its parameter (debug builds);
//  - KleidiAI v1.30.0 compat vectors (test/data/compat, SVL 128 and 512): the packers reproduce the recorded
//    packed buffers and the kernel the recorded output from them.
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1).

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp/kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8_qsi8cxp/kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_qai8_qai8_qsi8cxp/kai_matmul_clamp_qai8_qai8_qsi8cxp_interface.h"
#include "kai/ukernels/pack/kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme.h"
#include "kai/ukernels/pack/kai_lhs_pack_x8p2vlx4_x8_sme.h"
#include "kai/ukernels/pack/kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.h"
#include "test/common/buffers.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/qai8_static_ref.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
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
static_assert(offsetof(AbiFrame, out_d) == 328, "frame layout of sme_abi_probe.S");

namespace {

using kai_test::Rng;

// The suite runs the SME and the SME2 kernels side by side (and its packers read the SVL): it needs both, and
// skips, naming them, on a CPU without (QEMU_CPU=neoverse-n1, or an SME-only core).
constexpr uint32_t kSmeAndSme2 = KAI_FEATURE_SME | KAI_FEATURE_SME2;

::testing::AssertionResult set_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    if (r < 0) return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & 0xffff;
    if (static_cast<size_t>(got) != bytes) return ::testing::AssertionFailure() << "SVL is " << got << " bytes";
    return ::testing::AssertionSuccess();
}

#define KAI_QAI8_UKERNEL(stem)                                                                           \
    {                                                                                                    \
        "kai_" #stem,                                                                                   \
        {kai_get_m_step_##stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_nr_##stem, kai_get_kr_##stem, \
         kai_get_sr_##stem, kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem,         \
         kai_get_dst_offset_##stem, kai_get_dst_size_##stem, kai_run_##stem}                            \
    }

struct Kernel {
    const char* name;
    kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_ukernel u;
};

// The family's kernels (both read the same packed buffers).
const std::vector<Kernel>& kernels() {
    static const std::vector<Kernel> k = {
        KAI_QAI8_UKERNEL(matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa),
        KAI_QAI8_UKERNEL(matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa),
    };
    return k;
}

const kai_matmul_clamp_qai8_qai8p_qsi8cxpsb_ukernel& sme_mopa() {
    return kernels()[0].u;
}

struct Problem {
    size_t m, n, k;
    std::vector<int8_t> lhs, rhs;
    std::vector<int32_t> bias;
    std::vector<float> scale;
    kai_ref::Qai8Params p;
};

Problem make_problem(size_t m, size_t n, size_t k, uint64_t seed, bool narrow_clamp) {
    Rng rng(seed);
    Problem pr{m, n, k, std::vector<int8_t>(m * k), std::vector<int8_t>(k * n), std::vector<int32_t>(n),
               std::vector<float>(n), {}};
    for (auto& v : pr.lhs) v = static_cast<int8_t>(rng.integer(-128, 127));
    for (auto& v : pr.rhs) v = static_cast<int8_t>(rng.integer(-128, 127));
    for (auto& v : pr.bias) v = static_cast<int32_t>(rng.integer(-20000, 20000));
    // Scales small enough that most outputs stay inside the clamp for K up to a few hundred.
    for (auto& v : pr.scale) v = rng.uniform(1e-5f, 4e-4f);
    pr.p.lhs_zero_point = static_cast<int32_t>(rng.integer(-128, 127));
    pr.p.scale_multiplier = rng.uniform(0.05f, 1.0f);
    pr.p.output_zero_point = static_cast<int32_t>(rng.integer(-60, 60));
    pr.p.min_value = narrow_clamp ? static_cast<int32_t>(rng.integer(-100, -20)) : -128;
    pr.p.max_value = narrow_clamp ? static_cast<int32_t>(rng.integer(20, 100)) : 127;
    return pr;
}

std::vector<uint8_t> pack_rhs(const Problem& pr) {
    const size_t nr = kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme();
    // Filled with 0xA5 first, so that padding the packer fails to write shows.
    std::vector<uint8_t> out(kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(pr.n, pr.k), 0xA5);
    const kai_rhs_pack_qsi8cx_params params{pr.p.lhs_zero_point, pr.p.scale_multiplier};
    kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, pr.n, pr.k, nr, 4, 1, pr.n, pr.rhs.data(),
                                                         pr.bias.data(), pr.scale.data(), out.data(), 0, &params);
    return out;
}

std::vector<uint8_t> pack_lhs(const Problem& pr) {
    const size_t mr = sme_mopa().get_mr();
    std::vector<uint8_t> out(kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(pr.m, pr.k, mr, 4, 1), 0xA5);
    kai_run_lhs_pack_x8p2vlx4_x8_sme(pr.m, pr.k, mr, 4, 1, 0, pr.lhs.data(), pr.k, out.data());
    return out;
}

const size_t kSvls[] = {16, 64, 256};

TEST(Qai8Static, PackersMatchTheReferenceByteForByte) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const size_t t = 2 * svl / 4;
        ASSERT_EQ(sme_mopa().get_mr(), t);
        ASSERT_EQ(kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(), t);
        ASSERT_EQ(kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme(t), t);
        const size_t shapes[][2] = {{1, 1}, {t - 1, 3}, {t, 4}, {t + 1, 45}, {2 * t + 3, 203}};
        for (const auto& s : shapes) {
            SCOPED_TRACE("SVL " + std::to_string(svl * 8) + " rows " + std::to_string(s[0]) + " k " +
                         std::to_string(s[1]));
            Problem pr = make_problem(s[0], s[0], s[1], s[0] * 1000 + s[1] + svl, true);
            EXPECT_EQ(pack_lhs(pr), kai_ref::pack_lhs_x8p2vlx4(pr.m, pr.k, t,
                                                                reinterpret_cast<const uint8_t*>(pr.lhs.data()), pr.k));
            EXPECT_EQ(pack_rhs(pr), kai_ref::pack_rhs_qsi8cxp2vlx4sb(pr.n, pr.k, t, pr.rhs.data(), pr.n,
                                                                      pr.bias.data(), pr.scale.data(),
                                                                      pr.p.lhs_zero_point, pr.p.scale_multiplier));
            EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(t, pr.k),
                      t * ((pr.k + 3) / 4 * 4 + 8));
            EXPECT_EQ(sme_mopa().get_rhs_packed_offset(t, pr.k),
                      kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(t, pr.k));
            EXPECT_EQ(sme_mopa().get_lhs_packed_offset(t, pr.k),
                      kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme(t, pr.k, t, 4, 1));
        }
    }
}

// The indirect packers: a pointer table in KleidiAI's order (entry (i / mr * kcc + c) * mr + i % mr) with an
// offset on every entry but the padding chunk's.
TEST(Qai8StaticIndirect, PackersMatchTheReferenceByteForByte) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const size_t t = 2 * svl / 4;
        ASSERT_EQ(kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme(), t);
        ASSERT_EQ(kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(), t);
        const size_t shapes[][3] = {{1, 1, 1}, {t - 1, 2, 3}, {t, 1, 4}, {t + 1, 3, 9}, {2 * t + 3, 9, 16}};
        for (const auto& sh : shapes) {
            const size_t rows = sh[0], kcc = sh[1], kcl = sh[2];
            SCOPED_TRACE("SVL " + std::to_string(svl * 8) + " rows " + std::to_string(rows) + " kcc " +
                         std::to_string(kcc) + " kcl " + std::to_string(kcl));
            Rng rng(rows * 1000 + kcc * 10 + kcl + svl);
            std::vector<uint8_t> src(rows * kcc * kcl), pad(kcl, 0x11);
            for (auto& v : src) v = static_cast<uint8_t>(rng.integer(0, 255));
            const size_t offset = 24, blocks = (rows + t - 1) / t;
            std::vector<const void*> table(blocks * t * kcc, nullptr);
            std::vector<const uint8_t*> resolved(rows * kcc);
            for (size_t i = 0; i < rows; ++i)
                for (size_t c = 0; c < kcc; ++c) {
                    const size_t row = i * kcc + c;
                    const bool is_pad = row % 5 == 3;
                    resolved[row] = is_pad ? pad.data() : src.data() + row * kcl;
                    table[(i / t * kcc + c) * t + i % t] = is_pad ? static_cast<const void*>(pad.data())
                                                                  : static_cast<const void*>(resolved[row] - offset);
                }
            std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(rows, kcc, kcl), 0xA5);
            kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(rows, kcc, kcl, table.data(), offset, pad.data(), lp.data());
            EXPECT_EQ(lp, kai_ref::pack_lhs_indirect_x8p2vlx4(rows, kcc, kcl, t, resolved));
            EXPECT_EQ(kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(t, kcc, kcl), t * kcc * ((kcl + 3) / 4 * 4));

            Problem pr = make_problem(1, rows, kcc * kcl, rows + kcc + kcl + svl, true);
            const kai_rhs_pack_qsi8cx_params params{pr.p.lhs_zero_point, pr.p.scale_multiplier};
            std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(rows, kcc, kcl), 0xA5);
            kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(rows, kcc, kcl, rows, pr.rhs.data(), pr.bias.data(),
                                                                         pr.scale.data(), rp.data(), &params);
            EXPECT_EQ(rp, kai_ref::pack_rhs_indirect_qsi8cxp2vlx4sb(rows, kcc, kcl, t, pr.rhs.data(), rows, pr.bias.data(),
                                                                     pr.scale.data(), pr.p.lhs_zero_point,
                                                                     pr.p.scale_multiplier));
            EXPECT_EQ(kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(t, kcc, kcl),
                      t * (kcc * ((kcl + 3) / 4 * 4) + 8));
        }
    }
}

TEST(Qai8Static, KernelIsBitExactWholeAndTileByTile) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (const Kernel& kern : kernels()) {
        SCOPED_TRACE(kern.name);
        const auto& u = kern.u;
        for (size_t svl : kSvls) {
            ASSERT_TRUE(set_svl(svl));
            const size_t t = u.get_m_step();
            ASSERT_EQ(u.get_n_step(), t);
            std::vector<std::vector<size_t>> shapes = {{1, 1, 1}, {1, t + 1, 7}, {t - 1, t, 4}, {t, t - 1, 45},
                                                       {t + 1, 2 * t + 3, 17}, {2 * t + 1, t + 2, 203}};
            if (kai_test::reduced_sweep() && svl == 256) shapes.resize(3);
            for (const auto& s : shapes) {
                for (int narrow = 0; narrow < 2; ++narrow) {
                    const size_t m = s[0], n = s[1], k = s[2];
                    SCOPED_TRACE("SVL " + std::to_string(svl * 8) + " " + std::to_string(m) + "x" + std::to_string(n) +
                                 "x" + std::to_string(k) + (narrow ? " narrow clamp" : ""));
                    const Problem pr = make_problem(m, n, k, m * 7919 + n * 31 + k + svl + narrow, narrow != 0);
                    const std::vector<int8_t> want = kai_ref::matmul_qai8_static(
                        m, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
                    const auto lp = pack_lhs(pr);
                    const auto rp = pack_rhs(pr);
                    const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
                    // Whole matrix, wider DST rows whose gap bytes must stay 0x5A.
                    const size_t stride = n + 5;
                    std::vector<int8_t> dst(m * stride, 0x5A);
                    u.run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), stride, 1, &qp);
                    size_t bad = 0;
                    for (size_t i = 0; i < m; ++i) {
                        for (size_t j = 0; j < stride; ++j) {
                            const int8_t w = j < n ? want[i * n + j] : static_cast<int8_t>(0x5A);
                            if (dst[i * stride + j] != w && bad++ < 5) {
                                ADD_FAILURE() << "dst[" << i << "][" << j << "] = " << int{dst[i * stride + j]}
                                              << ", want " << int{w};
                            }
                        }
                    }
                    // Tile by tile through the offset getters.
                    std::vector<int8_t> tiled(m * n, 0x5A);
                    for (size_t m0 = 0; m0 < m; m0 += t) {
                        for (size_t n0 = 0; n0 < n; n0 += t) {
                            u.run_matmul(std::min(t, m - m0), std::min(t, n - n0), k,
                                         lp.data() + u.get_lhs_packed_offset(m0, k),
                                         rp.data() + u.get_rhs_packed_offset(n0, k),
                                         tiled.data() + u.get_dst_offset(m0, n0, n), n, 1, &qp);
                        }
                    }
                    EXPECT_EQ(tiled, want);
                    EXPECT_EQ(u.get_dst_size(m, n), m * n);
                }
            }
        }
    }
}

// Scales of 0.5 and 0.25 make many products exact halves: ties must go to even (FRINTN), and large biases
// push some outputs past the clamp bounds on both sides.
TEST(Qai8Static, TiesRoundToEvenAndTheClampHolds) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (const Kernel& kern : kernels()) {
        SCOPED_TRACE(kern.name);
        const auto& u = kern.u;
        for (size_t svl : {size_t{16}, size_t{64}}) {
            ASSERT_TRUE(set_svl(svl));
            const size_t t = u.get_m_step(), m = t + 3, n = 2 * t + 1, k = 3;
            Problem pr = make_problem(m, n, k, 99 + svl, true);
            for (size_t j = 0; j < n; ++j) {
                pr.scale[j] = j % 2 ? 0.5f : 0.25f;
                pr.bias[j] = static_cast<int32_t>(j * 37 % 200) - 100;
            }
            for (auto& v : pr.lhs) v = static_cast<int8_t>(v / 16);
            for (auto& v : pr.rhs) v = static_cast<int8_t>(v / 16);
            pr.p.scale_multiplier = 1.0f;
            const std::vector<int8_t> want =
                kai_ref::matmul_qai8_static(m, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
            const auto lp = pack_lhs(pr);
            const auto rp = pack_rhs(pr);
            const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
            std::vector<int8_t> dst(m * n, 0x5A);
            u.run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n, 1, &qp);
            EXPECT_EQ(dst, want);
            size_t clamped = 0;
            for (int8_t v : want) clamped += v == pr.p.min_value || v == pr.p.max_value;
            EXPECT_GT(clamped, 0u);
        }
    }
}

TEST(Qai8Static, EmptyProblemsWriteNothing) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (const Kernel& kern : kernels()) {
        ASSERT_TRUE(set_svl(64));
        const auto& u = kern.u;
        const kai_matmul_requantize32_params qp{-128, 127, 0};
        int8_t dst = 0x33;
        const uint8_t lhs[1] = {0};
        const uint8_t rhs[1] = {0};
        u.run_matmul(0, 5, 4, lhs, rhs, &dst, 5, 1, &qp);
        u.run_matmul(5, 0, 4, lhs, rhs, &dst, 5, 1, &qp);
        EXPECT_EQ(dst, 0x33);
    }
}


// The SME2 GEMV (family qai8_qsi8cxp): one unpacked LHS row against the same packed RHS.
const kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel& sme2_dot() {
    static const kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel u = {
        kai_get_m_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_n_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_nr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_kr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_sr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_lhs_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_dst_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_get_dst_size_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
        kai_run_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot,
    };
    return u;
}

TEST(Qai8StaticGemv, IsBitExactWholeAndInColumnRanges) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    const auto& u = sme2_dot();
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        const size_t nr = u.get_nr(), step = u.get_n_step();
        ASSERT_EQ(nr, 2 * svl / 4);
        ASSERT_EQ(step, 8 * nr);
        ASSERT_EQ(u.get_m_step(), 1u);
        ASSERT_EQ(u.get_nr(), kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme());
        std::vector<std::vector<size_t>> shapes = {{1, 1},      {nr - 1, 3}, {nr, 4},        {nr + 1, 5},
                                                   {2 * nr, 16}, {3 * nr + 1, 17}, {step + 3, 45}, {2 * nr + 5, 203}};
        if (kai_test::reduced_sweep() && svl == 256) shapes.resize(4);
        for (const auto& sh : shapes) {
            for (int narrow = 0; narrow < 2; ++narrow) {
                const size_t n = sh[0], k = sh[1];
                SCOPED_TRACE("SVL " + std::to_string(svl * 8) + " n " + std::to_string(n) + " k " + std::to_string(k) +
                             (narrow ? " narrow clamp" : ""));
                const Problem pr = make_problem(1, n, k, n * 131 + k + svl + narrow, narrow != 0);
                const std::vector<int8_t> want = kai_ref::matmul_qai8_static(
                    1, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
                const auto rp = pack_rhs(pr);
                const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
                // The whole row, with guard bytes after it.
                std::vector<int8_t> dst(n + 64, 0x5A);
                u.run_matmul(1, n, k, pr.lhs.data() + u.get_lhs_offset(0, k), rp.data(), dst.data(), n, 1, &qp);
                EXPECT_EQ(std::vector<int8_t>(dst.begin(), dst.begin() + static_cast<long>(n)), want);
                for (size_t j = n; j < dst.size(); ++j) ASSERT_EQ(dst[j], 0x5A) << "byte " << j << " past n written";
                // Column ranges of nr (any multiple of nr may start a call) and of the n step.
                for (size_t chunk : {nr, step}) {
                    std::vector<int8_t> part(n, 0x5A);
                    for (size_t n0 = 0; n0 < n; n0 += chunk) {
                        u.run_matmul(1, std::min(chunk, n - n0), k, pr.lhs.data(),
                                     rp.data() + u.get_rhs_packed_offset(n0, k), part.data() + n0, n, 1, &qp);
                    }
                    EXPECT_EQ(part, want) << "chunks of " << chunk;
                }
                // The LHS row and the packed RHS ending at guard pages: nothing may be read past them.
                kai_test::GuardedBuffer lhs_g(k), rhs_g(rp.size());
                std::memcpy(lhs_g.data(), pr.lhs.data(), k);
                std::memcpy(rhs_g.data(), rp.data(), rp.size());
                std::vector<int8_t> guarded(n, 0x5A);
                u.run_matmul(1, n, k, lhs_g.data(), rhs_g.data(), guarded.data(), n, 1, &qp);
                EXPECT_EQ(guarded, want);
                EXPECT_EQ(u.get_dst_offset(0, step, n), step);
                EXPECT_EQ(u.get_dst_size(1, n), n);
            }
        }
    }
}

TEST(Qai8StaticGemv, TiesRoundToEven) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    const auto& u = sme2_dot();
    for (size_t svl : {size_t{16}, size_t{64}}) {
        ASSERT_TRUE(set_svl(svl));
        const size_t n = 5 * u.get_nr() + 3, k = 3;
        Problem pr = make_problem(1, n, k, 7 + svl, true);
        for (size_t j = 0; j < n; ++j) {
            pr.scale[j] = j % 2 ? 0.5f : 0.25f;
            pr.bias[j] = static_cast<int32_t>(j * 37 % 200) - 100;
        }
        for (auto& v : pr.lhs) v = static_cast<int8_t>(v / 16);
        for (auto& v : pr.rhs) v = static_cast<int8_t>(v / 16);
        pr.p.scale_multiplier = 1.0f;
        const std::vector<int8_t> want =
            kai_ref::matmul_qai8_static(1, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
        const auto rp = pack_rhs(pr);
        const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
        std::vector<int8_t> dst(n, 0x5A);
        u.run_matmul(1, n, k, pr.lhs.data(), rp.data(), dst.data(), n, 1, &qp);
        EXPECT_EQ(dst, want);
    }
}

// ------------------------------------------------------------------------------------------------
// Calling convention (the assembly trampoline of sme_abi_probe.S).
// ------------------------------------------------------------------------------------------------

// Calls `run` (a run_matmul of either interface: eight integer arguments and params on the stack) with canaries in
// x18-x28 and d8-d15; they must survive, and streaming mode and ZA must be off afterwards.
void expect_abi_preserved(uint64_t run, const uint64_t (&x)[8], const void* params) {
    AbiFrame f = {};
    f.fn = run;
    std::memcpy(f.x, x, sizeof(x));
    f.stack_arg = reinterpret_cast<uint64_t>(params);
    for (size_t i = 0; i < 11; ++i) f.in_gpr[i] = 0x1800000000000000ull + i * 0x0101010101010101ull;
    for (size_t i = 0; i < 8; ++i) f.in_d[i] = 0x3ff0000000000000ull + (i + 1) * 0x0000111111111111ull;
    kai_test_abi_call(&f);
    for (size_t i = 0; i < 11; ++i) EXPECT_EQ(f.out_gpr[i], f.in_gpr[i]) << "x" << 18 + i;
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(f.out_d[i], f.in_d[i]) << "d" << 8 + i;
    uint64_t tpidr2 = 1, svcr = 1;
    kai_test_za_finish(&tpidr2, &svcr);
    EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
    EXPECT_EQ(tpidr2, 0u);
}

TEST(Qai8StaticAbi, CalleeSavedRegistersSurviveAndStreamingModeEnds) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (size_t svl : kSvls) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t t = 2 * svl / 4, m = t + 1, n = t + 3, k = 19;
        const Problem pr = make_problem(m, n, k, 31 + svl, true);
        const std::vector<int8_t> want =
            kai_ref::matmul_qai8_static(m, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
        const auto lp = pack_lhs(pr);
        const auto rp = pack_rhs(pr);
        const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
        for (const Kernel& kern : kernels()) {
            SCOPED_TRACE(kern.name);
            std::vector<int8_t> dst(m * n, 0x5A);
            const uint64_t x[8] = {m, n, k, reinterpret_cast<uint64_t>(lp.data()), reinterpret_cast<uint64_t>(rp.data()),
                                   reinterpret_cast<uint64_t>(dst.data()), n, 1};
            expect_abi_preserved(reinterpret_cast<uint64_t>(kern.u.run_matmul), x, &qp);
            EXPECT_EQ(dst, want) << "through the trampoline";
        }
        const std::vector<int8_t> want_row(want.begin(), want.begin() + static_cast<long>(n));
        std::vector<int8_t> row(n, 0x5A);
        const uint64_t x[8] = {1, n, k, reinterpret_cast<uint64_t>(pr.lhs.data()), reinterpret_cast<uint64_t>(rp.data()),
                               reinterpret_cast<uint64_t>(row.data()), n, 1};
        expect_abi_preserved(reinterpret_cast<uint64_t>(sme2_dot().run_matmul), x, &qp);
        EXPECT_EQ(row, want_row) << "GEMV through the trampoline";
    }
}

// A caller with live ZA and a pending lazy save (TPIDR2_EL0 -> block): each kernel must store ZA to the block's
// buffer and clear TPIDR2_EL0 before using ZA.
TEST(Qai8StaticAbi, CommitsAPendingLazyZaSave) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    for (size_t svl : {size_t{16}, size_t{64}}) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        const size_t m = 5, n = 21, k = 6;
        const Problem pr = make_problem(m, n, k, 41 + svl, false);
        const std::vector<int8_t> want =
            kai_ref::matmul_qai8_static(m, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(), pr.scale.data(), pr.p);
        const auto lp = pack_lhs(pr);
        const auto rp = pack_rhs(pr);
        const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
        for (size_t which = 0; which <= kernels().size(); ++which) {
            const bool gemv = which == kernels().size();
            SCOPED_TRACE(gemv ? "GEMV" : kernels()[which].name);
            std::vector<uint8_t> pattern(svl * svl);
            for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + i / svl + 1);
            std::vector<uint8_t> save(svl * svl, 0);
            struct alignas(16) Tpidr2Block {
                uint64_t za_save_buffer;
                uint16_t num_za_save_slices;
                uint8_t reserved[6];
            } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};
            std::vector<int8_t> dst(m * n, 0x5A);
            kai_test_za_arm_lazy_save(pattern.data(), &block);
            if (gemv) {
                sme2_dot().run_matmul(1, n, k, pr.lhs.data(), rp.data(), dst.data(), n, 1, &qp);
            } else {
                kernels()[which].u.run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n, 1, &qp);
            }
            uint64_t tpidr2 = 1, svcr = 1;
            kai_test_za_finish(&tpidr2, &svcr);
            EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
            EXPECT_EQ(svcr & 3u, 0u);
            EXPECT_EQ(save, pattern) << "ZA save buffer";
            EXPECT_EQ(std::vector<int8_t>(dst.begin(), dst.begin() + static_cast<long>(gemv ? n : m * n)),
                      std::vector<int8_t>(want.begin(), want.begin() + static_cast<long>(gemv ? n : m * n)));
        }
    }
}

// Preconditions (debug builds only: KAI_ASSUME is compiled out with NDEBUG).
#ifndef NDEBUG
TEST(Qai8StaticDeathTest, EachViolatedPreconditionAbortsNamingTheParameter) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    ASSERT_TRUE(set_svl(64));
    const size_t t = 32, k = 8;
    alignas(16) static uint8_t in[16384];
    alignas(16) static uint8_t out[16384];
    const kai_matmul_requantize32_params ok{-128, 127, 0};
    const kai_matmul_requantize32_params low{-129, 127, 0}, high{-128, 128, 0}, crossed{5, 4, 0};
    const kai_rhs_pack_qsi8cx_params rp{1, 1.0f};
    std::vector<kai_test::PreconditionCase> cases;
    const std::string lhs_file = "kai_lhs_pack_x8p2vlx4_x8_sme.c";
    const std::string rhs_file = "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.c";
    cases.push_back({"lhs pack mr", lhs_file, "mr must be 2 * SVL / 32",
                     [&](bool b) { kai_run_lhs_pack_x8p2vlx4_x8_sme(2, k, b ? t / 2 : t, 4, 1, 0, in, k, out); }});
    cases.push_back({"lhs pack kr", lhs_file, "kr must be 4",
                     [&](bool b) { kai_run_lhs_pack_x8p2vlx4_x8_sme(2, k, t, b ? 8 : 4, 1, 0, in, k, out); }});
    cases.push_back({"lhs pack m_idx_start", lhs_file, "m_idx_start must be 0",
                     [&](bool b) { kai_run_lhs_pack_x8p2vlx4_x8_sme(2, k, t, 4, 1, b ? 1 : 0, in, k, out); }});
    cases.push_back({"lhs pack stride", lhs_file, "lhs_stride_row must be at least k when m > 1",
                     [&](bool b) { kai_run_lhs_pack_x8p2vlx4_x8_sme(2, k, t, 4, 1, 0, in, b ? k - 1 : k, out); }});
    cases.push_back({"lhs pack lhs", lhs_file, "lhs must not be NULL",
                     [&](bool b) { kai_run_lhs_pack_x8p2vlx4_x8_sme(2, k, t, 4, 1, 0, b ? nullptr : in, k, out); }});
    cases.push_back({"rhs pack nr", rhs_file, "nr must be the n step (2 * SVL / 32)", [&](bool b) {
                         kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, 3, k, b ? t + 1 : t, 4, 1, 3, in, in,
                                                                              in, out, 0, &rp);
                     }});
    cases.push_back({"rhs pack extra_bytes", rhs_file, "extra_bytes must be 0", [&](bool b) {
                         kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, 3, k, t, 4, 1, 3, in, in, in, out,
                                                                              b ? 4 : 0, &rp);
                     }});
    cases.push_back({"rhs pack params", rhs_file, "params must not be NULL", [&](bool b) {
                         kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, 3, k, t, 4, 1, 3, in, in, in, out, 0,
                                                                              b ? nullptr : &rp);
                     }});
    cases.push_back({"rhs pack bias", rhs_file, "bias must not be NULL", [&](bool b) {
                         kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, 3, k, t, 4, 1, 3, in, b ? nullptr : in,
                                                                              in, out, 0, &rp);
                     }});
    cases.push_back({"rhs pack stride", rhs_file, "rhs_stride_row must be at least n when k > 1", [&](bool b) {
                         kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(1, 3, k, t, 4, 1, b ? 2 : 3, in, in, in,
                                                                              out, 0, &rp);
                     }});
    for (const Kernel& kern : kernels()) {
        const std::string file = std::string(kern.name) + ".c";
        const auto& u = kern.u;
        const auto run = [&u](size_t n, const void* a, void* d, size_t dsr, size_t dsc,
                              const kai_matmul_requantize32_params* q) {
            u.run_matmul(2, n, 8, a, in, d, dsr, dsc, q);
        };
        const std::string nm = kern.name;
        cases.push_back({nm + " dst_stride_col", file, "dst_stride_col must be 1",
                         [=](bool b) { run(3, in, out, 64, b ? 2 : 1, &ok); }});
        cases.push_back({nm + " params", file, "params must not be NULL",
                         [=](bool b) { run(3, in, out, 64, 1, b ? nullptr : &ok); }});
        cases.push_back({nm + " min", file, "params->min_value must be at least -128",
                         [=](bool b) { run(3, in, out, 64, 1, b ? &low : &ok); }});
        cases.push_back({nm + " max", file, "params->max_value must be at most 127",
                         [=](bool b) { run(3, in, out, 64, 1, b ? &high : &ok); }});
        cases.push_back({nm + " crossed", file, "params->min_value must not exceed params->max_value",
                         [=](bool b) { run(3, in, out, 64, 1, b ? &crossed : &ok); }});
        cases.push_back({nm + " lhs", file, "lhs_packed must not be NULL",
                         [=](bool b) { run(3, b ? nullptr : in, out, 64, 1, &ok); }});
        cases.push_back({nm + " dst", file, "dst must not be NULL",
                         [=](bool b) { run(3, in, b ? nullptr : out, 64, 1, &ok); }});
        cases.push_back({nm + " dst_stride_row", file, "dst_stride_row must be at least n when m > 1",
                         [=](bool b) { run(3, in, out, b ? 2 : 3, 1, &ok); }});
        cases.push_back({nm + " get_lhs_packed_offset", file, "m_idx must be a multiple of mr",
                         [=](bool b) { (void)u.get_lhs_packed_offset(b ? 1 : t, k); }});
        cases.push_back({nm + " get_rhs_packed_offset", file, "n_idx must be a multiple of nr",
                         [=](bool b) { (void)u.get_rhs_packed_offset(b ? 1 : t, k); }});
    }
    const std::string dot_file = "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot.c";
    const auto& g = sme2_dot();
    cases.push_back({"dot m", dot_file, "m must be 1",
                     [&](bool b) { g.run_matmul(b ? 2 : 1, 3, k, in, in, out, 3, 1, &ok); }});
    cases.push_back({"dot dst_stride_col", dot_file, "dst_stride_col must be 1",
                     [&](bool b) { g.run_matmul(1, 3, k, in, in, out, 3, b ? 4 : 1, &ok); }});
    cases.push_back({"dot min", dot_file, "params->min_value must be at least -128",
                     [&](bool b) { g.run_matmul(1, 3, k, in, in, out, 3, 1, b ? &low : &ok); }});
    cases.push_back({"dot lhs", dot_file, "lhs must not be NULL",
                     [&](bool b) { g.run_matmul(1, 3, k, b ? nullptr : in, in, out, 3, 1, &ok); }});
    cases.push_back({"dot rhs", dot_file, "rhs_packed must not be NULL",
                     [&](bool b) { g.run_matmul(1, 3, k, in, b ? nullptr : in, out, 3, 1, &ok); }});
    cases.push_back({"dot get_lhs_offset", dot_file, "m_idx must be 0",
                     [&](bool b) { (void)g.get_lhs_offset(b ? 1 : 0, k); }});
    cases.push_back({"dot get_dst_offset", dot_file, "n_idx must be a multiple of n_step",
                     [&](bool b) { (void)g.get_dst_offset(0, b ? t : 8 * t, 3); }});
    const std::string ilhs = "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme.c";
    const std::string irhs = "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme.c";
    static const void* table[64] = {};
    for (auto& e : table) e = in;
    cases.push_back({"imatmul lhs table", ilhs, "lhs_ptrs must not be NULL", [&](bool b) {
                         kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(2, 1, 4, b ? nullptr : table, 0, nullptr, out);
                     }});
    cases.push_back({"imatmul lhs offset", ilhs, "m_idx must be a multiple of the m step",
                     [&](bool b) { (void)kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(b ? 1 : t, 1, 4); }});
    cases.push_back({"imatmul rhs params", irhs, "params must not be NULL", [&](bool b) {
                         kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(3, 2, 3, 3, in, in, in, out,
                                                                                      b ? nullptr : &rp);
                     }});
    cases.push_back({"imatmul rhs scale", irhs, "scale must not be NULL", [&](bool b) {
                         kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(3, 2, 3, 3, in, in,
                                                                                      b ? nullptr : in, out, &rp);
                     }});
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

// KleidiAI v1.30.0 compat vectors (test/data/compat): the files of the named units, in order.
std::vector<std::string> vectors_of(const std::vector<std::string>& units) {
    std::vector<std::string> files;
    for (const auto& u : units)
        for (const auto& f : kai_test::list_compat_vectors(u + "__")) files.push_back(f);
    return files;
}

std::vector<std::string> compat_files() {
    return vectors_of({kernels()[0].name, kernels()[1].name, "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot"});
}

TEST(Qai8StaticCompat, EveryVectorIsPresent) {
    EXPECT_EQ(compat_files().size(), 24u);
}

class Qai8StaticCompat : public ::testing::TestWithParam<std::string> {};

TEST_P(Qai8StaticCompat, Replays) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    const kai_test::CompatVector cv = kai_test::load_compat_vector(GetParam());
    const size_t svl = cv.str("vector_length") == "svl128" ? 16 : 64;
    ASSERT_TRUE(set_svl(svl));
    const size_t m = cv.size("m"), n = cv.size("n"), k = cv.size("k");
    const bool gemv = cv.str("name") == "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot";
    const Kernel* kern = gemv ? &kernels()[0] : nullptr;
    for (const Kernel& c : kernels())
        if (cv.str("name") == c.name) kern = &c;
    ASSERT_NE(kern, nullptr) << cv.str("name");
    ASSERT_EQ(cv.size("mr"), gemv ? size_t{1} : sme_mopa().get_mr());
    ASSERT_EQ(cv.size("nr"), sme_mopa().get_nr());
    Problem pr{m, n, k, {}, {}, std::vector<int32_t>(n), std::vector<float>(n), {}};
    const auto& lhs = cv.section("lhs").bytes;
    const auto& rhs = cv.section("rhs").bytes;
    pr.lhs.assign(lhs.begin(), lhs.end());
    pr.rhs.assign(rhs.begin(), rhs.end());
    std::memcpy(pr.bias.data(), cv.section("bias").bytes.data(), 4 * n);
    std::memcpy(pr.scale.data(), cv.section("scale").bytes.data(), 4 * n);
    pr.p.lhs_zero_point = std::stoi(cv.str("lhs_zero_point"));
    const uint32_t mult_bits = cv.bits("scale_multiplier_bits");
    std::memcpy(&pr.p.scale_multiplier, &mult_bits, 4);
    pr.p.output_zero_point = std::stoi(cv.str("output_zero_point"));
    pr.p.min_value = std::stoi(cv.str("clamp_min"));
    pr.p.max_value = std::stoi(cv.str("clamp_max"));
    EXPECT_EQ(pack_rhs(pr), cv.section("rhs_packed").bytes);
    // The kernel on KleidiAI's packed buffers, and the reference on the raw inputs.
    const kai_matmul_requantize32_params qp{pr.p.min_value, pr.p.max_value, pr.p.output_zero_point};
    std::vector<int8_t> dst(m * n, 0x5A);
    if (gemv) {
        ASSERT_EQ(m, 1u);
        ASSERT_EQ(cv.size("n_step"), sme2_dot().get_n_step());
        sme2_dot().run_matmul(1, n, k, pr.lhs.data(), cv.section("rhs_packed").bytes.data(), dst.data(), n, 1, &qp);
    } else {
        EXPECT_EQ(pack_lhs(pr), cv.section("lhs_packed").bytes);
        kern->u.run_matmul(m, n, k, cv.section("lhs_packed").bytes.data(), cv.section("rhs_packed").bytes.data(),
                           dst.data(), n, 1, &qp);
    }
    const auto& want = cv.section("dst").bytes;
    EXPECT_EQ(std::vector<uint8_t>(dst.begin(), dst.end()), want);
    const auto ref = kai_ref::matmul_qai8_static(m, n, k, pr.lhs.data(), pr.rhs.data(), pr.bias.data(),
                                                 pr.scale.data(), pr.p);
    EXPECT_EQ(std::vector<uint8_t>(ref.begin(), ref.end()), want);
}

std::vector<std::string> indirect_compat_files() {
    return vectors_of({"kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme", "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme"});
}

TEST(Qai8StaticIndirectCompat, EveryVectorIsPresent) {
    EXPECT_EQ(indirect_compat_files().size(), 16u);
}

class Qai8StaticIndirectCompat : public ::testing::TestWithParam<std::string> {};

TEST_P(Qai8StaticIndirectCompat, Replays) {
    KAI_TEST_SKIP_UNLESS(kSmeAndSme2);
    const kai_test::CompatVector cv = kai_test::load_compat_vector(GetParam());
    ASSERT_TRUE(set_svl(cv.str("vector_length") == "svl128" ? 16 : 64));
    const size_t kcc = cv.size("k_chunk_count"), kcl = cv.size("k_chunk_length");
    if (cv.str("kind") == "lhs_packer") {
        const size_t m = cv.size("m"), mr = cv.size("mr"), offset = cv.size("ptr_offset");
        ASSERT_EQ(mr, kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme());
        const auto& src = cv.section("lhs").bytes;
        std::vector<uint8_t> pad(kcl, static_cast<uint8_t>(cv.size("pad_byte")));
        std::vector<const void*> table((m + mr - 1) / mr * mr * kcc, nullptr);
        for (size_t i = 0; i < m; ++i)
            for (size_t c = 0; c < kcc; ++c) {
                const size_t row = i * kcc + c;
                table[(i / mr * kcc + c) * mr + i % mr] =
                    row % cv.size("pad_every") == cv.size("pad_at") ? static_cast<const void*>(pad.data())
                                                                     : static_cast<const void*>(src.data() + row * kcl - offset);
            }
        std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(m, kcc, kcl), 0xA5);
        kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(m, kcc, kcl, table.data(), offset, pad.data(), lp.data());
        EXPECT_EQ(lp, cv.section("lhs_packed").bytes);
        return;
    }
    const size_t n = cv.size("n");
    ASSERT_EQ(cv.size("nr"), kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme());
    kai_rhs_pack_qsi8cx_params params{};
    params.lhs_zero_point = std::stoi(cv.str("lhs_zero_point"));
    const uint32_t mult_bits = cv.bits("scale_multiplier_bits");
    std::memcpy(&params.scale_multiplier, &mult_bits, 4);
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n, kcc, kcl), 0xA5);
    kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n, kcc, kcl, cv.size("rhs_stride"),
                                                                 cv.section("rhs").bytes.data(), cv.section("bias").bytes.data(),
                                                                 cv.section("scale").bytes.data(), rp.data(), &params);
    EXPECT_EQ(rp, cv.section("rhs_packed").bytes);
}

INSTANTIATE_TEST_SUITE_P(Vectors, Qai8StaticIndirectCompat, ::testing::ValuesIn(indirect_compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param.substr(info.param.rfind("__") + 2);
                             s = s.substr(0, s.find('.'));
                             return (info.param.find("_lhs_") != std::string::npos ? "lhs_" : "rhs_") + s;
                         });

INSTANTIATE_TEST_SUITE_P(Vectors, Qai8StaticCompat, ::testing::ValuesIn(compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param.substr(info.param.rfind("__") + 2);
                             s = s.substr(0, s.find('.'));
                             const bool dot = info.param.find("_sme2_dot") != std::string::npos;
                             const bool sme2 = info.param.find("_sme2_") != std::string::npos;
                             return (dot ? "sme2_dot_" : sme2 ? "sme2_mopa_" : "sme_mopa_") + s;
                         });

}  // namespace
