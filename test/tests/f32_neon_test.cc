// SPDX-License-Identifier: Apache-2.0
// Tests of the f32 NEON GEMM (family f32_neon: matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla and
// kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon): the packer byte for byte against the reference of
// docs/formats.md, "f32p8x1biasf32 RHS" (padding included, column ranges, guard pages, wider strides); the kernel
// bit for bit against the recipe of "f32 NEON matmul" (an fmaf chain from the bias) and within the bound derived
// from K of the exact product, over shapes around the tile, K tails, sub-tiles through the offset getters, clamps
// (lo > hi, NaN and infinities), wider strides, a NaN sentinel around the tile and guard pages; and KleidiAI
// v1.30.0's own bytes and outputs (compat vectors).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/f32_neon_ref.h"
#include "test/registry/f32_neon_registry.h"

namespace {

using kai_registry::F32NeonRhsPacker;
using kai_registry::F32NeonVariant;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const std::vector<F32NeonVariant>& variants() {
    return kai_registry::f32_neon_variants();
}

const F32NeonRhsPacker& packer() {
    return kai_registry::f32_neon_rhs_packers().at(0);
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// Equal bits, or both NaN.
bool same_f32(float got, float want) {
    return std::isnan(got) || std::isnan(want) ? std::isnan(got) && std::isnan(want) : bits_of(got) == bits_of(want);
}

// A problem: LHS m x k with row stride lhs_row (elements), RHS k x n with row stride rhs_row, bias, packed RHS
// (by the packer under test, checked against the reference in PackerTest).
struct Problem {
    size_t m, n, k, lhs_row, rhs_row;
    std::vector<float> lhs, rhs, bias;
    std::vector<uint8_t> rhs_packed;
};

Problem make_problem(size_t m, size_t n, size_t k, uint64_t seed, size_t lhs_pad = 0, size_t rhs_pad = 0) {
    Problem p{m, n, k, k + lhs_pad, n + rhs_pad, {}, {}, {}, {}};
    p.lhs = kai_test::random_f32(m * p.lhs_row + 1, -2.0f, 2.0f, seed);
    p.rhs = kai_test::random_f32(k * p.rhs_row + 1, -1.0f, 1.0f, seed + 1);
    p.bias = kai_test::random_f32(n, -4.0f, 4.0f, seed + 2);
    const F32NeonRhsPacker& pk = packer();
    p.rhs_packed.assign(pk.get_rhs_packed_size(n, k), 0xCD);
    pk.run(1, n, k, 8, 1, 1, p.rhs_row * 4, p.rhs.data(), p.bias.data(), nullptr, p.rhs_packed.data(), 0, nullptr);
    return p;
}

// Runs the whole problem into a DstBuffer of stride dst_row elements and checks every output bit for bit against
// the recipe and within the bound of the exact value, and the sentinel outside.
void check_full(const F32NeonVariant& v, const Problem& p, float lo, float hi, size_t dst_pad, const std::string& what) {
    const auto& uk = v.ukernel;
    kai_test::DstBuffer dst(p.m, p.n, 4, (p.n + dst_pad) * 4);
    // The LHS ends at a guard page (a read past row m - 1's k values faults); so does the packed RHS.
    const size_t lhs_bytes = ((p.m - 1) * p.lhs_row + p.k) * 4;
    kai_test::GuardedBuffer lhs(lhs_bytes);
    std::memcpy(lhs.data(), p.lhs.data(), lhs_bytes);
    kai_test::GuardedBuffer rhs(p.rhs_packed.size());
    std::memcpy(rhs.data(), p.rhs_packed.data(), p.rhs_packed.size());
    KAI_ABI(uk.run_matmul)(p.m, p.n, p.k, lhs.data(), p.lhs_row * 4, rhs.data(), dst.at(0, 0), dst.stride(), 4, lo, hi);
    const std::vector<float> want =
        kai_ref::f32_matmul_fma(p.lhs.data(), p.lhs_row, p.rhs.data(), p.rhs_row, p.bias.data(), p.m, p.n, p.k, lo, hi);
    std::vector<double> exact, scale;
    kai_ref::f32_matmul_exact(p.lhs.data(), p.lhs_row, p.rhs.data(), p.rhs_row, p.bias.data(), p.m, p.n, p.k, &exact,
                              &scale);
    for (size_t i = 0; i < p.m; ++i) {
        for (size_t j = 0; j < p.n; ++j) {
            const float got = dst.value(i, j);
            ASSERT_TRUE(same_f32(got, want[i * p.n + j]))
                << what << " (" << i << ", " << j << ") got " << got << " want " << want[i * p.n + j];
            if (std::isfinite(exact[i * p.n + j]) && lo <= hi) {
                const double e = std::fmin(std::fmax(exact[i * p.n + j], (double)lo), (double)hi);
                ASSERT_LE(std::fabs((double)got - e), kai_ref::f32_error_bound(scale[i * p.n + j], p.k))
                    << what << " (" << i << ", " << j << ")";
            }
        }
    }
    EXPECT_TRUE(dst.untouched_outside(0, p.m, 0, p.n)) << what;
    EXPECT_TRUE(lhs.front_intact()) << what;
}

class F32NeonTest : public ::testing::TestWithParam<size_t> {};

TEST_P(F32NeonTest, Getters) {
    const auto& uk = variants()[GetParam()].ukernel;
    EXPECT_EQ(uk.get_m_step(), 6u);
    EXPECT_EQ(uk.get_n_step(), 8u);
    EXPECT_EQ(uk.get_nr(), 8u);
    EXPECT_EQ(uk.get_kr(), 1u);
    EXPECT_EQ(uk.get_sr(), 1u);
    EXPECT_EQ(uk.get_lhs_offset(12, 100), 1200u);
    EXPECT_EQ(uk.get_rhs_packed_offset(16, 5), 16u * 6 * 4);
    EXPECT_EQ(uk.get_rhs_packed_offset(16, 5), packer().get_rhs_packed_offset(16, 5));
    EXPECT_EQ(uk.get_dst_offset(6, 8, 200), 6u * 200 + 32);
    EXPECT_EQ(uk.get_dst_size(7, 9), 7u * 9 * 4);
}

TEST_P(F32NeonTest, ShapesAgainstRecipe) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const bool reduced = kai_test::reduced_sweep();
    const std::vector<size_t> ms = reduced ? std::vector<size_t>{1, 5, 7, 13} : std::vector<size_t>{1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 19};
    const std::vector<size_t> ns = reduced ? std::vector<size_t>{1, 8, 9, 23} : std::vector<size_t>{1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 37};
    const std::vector<size_t> ks = reduced ? std::vector<size_t>{1, 4, 7, 33} : std::vector<size_t>{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 64};
    uint64_t seed = 100;
    for (size_t m : ms) {
        for (size_t n : ns) {
            for (size_t k : ks) {
                const Problem p = make_problem(m, n, k, ++seed);
                check_full(v, p, -kInf, kInf, 0, "m" + std::to_string(m) + " n" + std::to_string(n) + " k" + std::to_string(k));
                if (HasFatalFailure()) return;
            }
        }
    }
}

TEST_P(F32NeonTest, LargeKAndWideStrides) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    check_full(v, make_problem(13, 19, 1031, 7), -kInf, kInf, 0, "k1031");
    check_full(v, make_problem(14, 21, 45, 8, 3, 5), -kInf, kInf, 7, "wide strides");
    check_full(v, make_problem(1, 67, 2048, 9), -kInf, kInf, 0, "gemv k2048");
    // A single row takes 4 column blocks at a time: with K tails, and as the last row of a GEMM.
    for (size_t k : {1, 3, 6, 13}) {
        check_full(v, make_problem(1, 41, k, 10 + k), -kInf, kInf, 0, "gemv n41 k" + std::to_string(k));
        check_full(v, make_problem(7, 64, k, 20 + k), -1.0f, 1.0f, 0, "m7 n64 k" + std::to_string(k));
    }
}

TEST_P(F32NeonTest, Clamps) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const Problem p = make_problem(9, 13, 17, 21);
    check_full(v, p, -0.5f, 0.75f, 0, "clamp [-0.5, 0.75]");
    check_full(v, p, 0.0f, kInf, 0, "relu");
    check_full(v, p, 1.0f, -1.0f, 0, "lo > hi gives lo");
    check_full(v, p, 2.5f, 2.5f, 0, "lo == hi");
}

// NaN and infinities in the inputs: a NaN accumulator stays NaN through the clamp (FMIN, FMAX), inf - inf gives
// NaN, an infinity is clamped.
TEST_P(F32NeonTest, SpecialValues) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    Problem p = make_problem(7, 11, 9, 31);
    p.lhs[0 * p.lhs_row + 3] = kNaN;
    p.lhs[1 * p.lhs_row + 0] = kInf;
    p.lhs[2 * p.lhs_row + 5] = -kInf;
    p.lhs[2 * p.lhs_row + 6] = kInf;
    p.rhs[4 * p.rhs_row + 2] = kInf;
    p.bias[10] = kNaN;
    const F32NeonRhsPacker& pk = packer();
    pk.run(1, p.n, p.k, 8, 1, 1, p.rhs_row * 4, p.rhs.data(), p.bias.data(), nullptr, p.rhs_packed.data(), 0, nullptr);
    check_full(v, p, -1.0f, 1.0f, 0, "special, clamped");
    check_full(v, p, -kInf, kInf, 0, "special, no clamp");
}

// Every sub-tile a thread could take: (m0, n0) at multiples of the steps, through the offset getters, each writing
// exactly its own outputs.
TEST_P(F32NeonTest, SubTiles) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const Problem p = make_problem(19, 29, 37, 41, 2, 0);
    const std::vector<float> want =
        kai_ref::f32_matmul_fma(p.lhs.data(), p.lhs_row, p.rhs.data(), p.rhs_row, p.bias.data(), p.m, p.n, p.k, -1.5f, 1.5f);
    const size_t ms = uk.get_m_step(), ns = uk.get_n_step();
    for (const size_t tm : {ms, 2 * ms}) {
        for (const size_t tn : {ns, 3 * ns}) {
            for (size_t m0 = 0; m0 < p.m; m0 += tm) {
                for (size_t n0 = 0; n0 < p.n; n0 += tn) {
                    const size_t mm = std::min(tm, p.m - m0), nn = std::min(tn, p.n - n0);
                    kai_test::DstBuffer dst(p.m, p.n, 4, (p.n + 3) * 4);
                    const uint8_t* lhs = reinterpret_cast<const uint8_t*>(p.lhs.data()) + uk.get_lhs_offset(m0, p.lhs_row * 4);
                    const uint8_t* rhs = p.rhs_packed.data() + uk.get_rhs_packed_offset(n0, p.k);
                    uint8_t* d = dst.at(0, 0) + uk.get_dst_offset(m0, n0, dst.stride());
                    KAI_ABI(uk.run_matmul)(mm, nn, p.k, lhs, p.lhs_row * 4, rhs, d, dst.stride(), 4, -1.5f, 1.5f);
                    for (size_t i = m0; i < m0 + mm; ++i) {
                        for (size_t j = n0; j < n0 + nn; ++j) {
                            ASSERT_TRUE(same_f32(dst.value(i, j), want[i * p.n + j])) << "tile " << m0 << "," << n0 << " (" << i << ", " << j << ")";
                        }
                    }
                    ASSERT_TRUE(dst.untouched_outside(m0, mm, n0, nn)) << "tile " << m0 << "," << n0 << " " << tm << "x" << tn;
                }
            }
        }
    }
}

TEST_P(F32NeonTest, ZeroSizesWriteNothing) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const Problem p = make_problem(3, 5, 4, 51);
    kai_test::DstBuffer dst(3, 5, 4, 20);
    v.ukernel.run_matmul(0, 5, 4, p.lhs.data(), 16, p.rhs_packed.data(), dst.at(0, 0), 20, 4, -kInf, kInf);
    v.ukernel.run_matmul(3, 0, 4, p.lhs.data(), 16, p.rhs_packed.data(), dst.at(0, 0), 20, 4, -kInf, kInf);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
}

// The compat vectors recorded for `name` (KleidiAI v1.30.0's own bytes and outputs), each file parsed.
std::vector<kai_test::CompatVector> vectors_of(const std::string& name) {
    std::vector<kai_test::CompatVector> out;
    for (const std::string& f : kai_test::list_compat_vectors(name + "__")) out.push_back(kai_test::load_compat_vector(f));
    return out;
}

// KleidiAI v1.30.0's packed bytes (with its unwritten bias padding masked) and outputs, bit for bit.
TEST_P(F32NeonTest, CompatVectors) {
    const F32NeonVariant& v = variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const std::vector<kai_test::CompatVector> vectors = vectors_of(v.name);
    ASSERT_EQ(vectors.size(), 6u) << v.name;
    const auto& uk = v.ukernel;
    for (const kai_test::CompatVector& cv : vectors) {
        const std::string& f = cv.path;
        const size_t m = cv.size("m"), n = cv.size("n"), k = cv.size("k");
        ASSERT_EQ(cv.size("m_step"), uk.get_m_step()) << f;
        ASSERT_EQ(cv.size("nr"), uk.get_nr()) << f;
        const auto& want_rhs = cv.section("rhs_packed");
        std::vector<float> zeros(n, 0.0f);
        const void* bias = cv.str("bias") == "f32" ? static_cast<const void*>(cv.section("bias").bytes.data()) : zeros.data();
        std::vector<uint8_t> rhs_packed(packer().get_rhs_packed_size(n, k), 0x5A);
        ASSERT_EQ(rhs_packed.size(), want_rhs.bytes.size()) << f;
        packer().run(1, n, k, uk.get_nr(), uk.get_kr(), uk.get_sr(), cv.size("rhs_stride"), cv.section("rhs").bytes.data(),
                     bias, nullptr, rhs_packed.data(), 0, nullptr);
        for (size_t i = 0; i < rhs_packed.size(); ++i) {
            if (want_rhs.mask[i]) {
                ASSERT_EQ(rhs_packed[i], want_rhs.bytes[i]) << f << " rhs_packed byte " << i;
            }
        }
        const auto& want = cv.section("dst");
        const size_t stride = cv.size("dst_stride_row");
        std::vector<uint8_t> dst(m * stride, 0xEE);
        KAI_ABI(uk.run_matmul)(m, n, k, cv.section("lhs").bytes.data(), cv.size("lhs_stride"), rhs_packed.data(), dst.data(),
                               stride, 4, cv.clamp_min(), cv.clamp_max());
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                float got, exp;
                std::memcpy(&got, &dst[i * stride + 4 * j], 4);
                std::memcpy(&exp, &want.bytes[(i * n + j) * 4], 4);
                ASSERT_TRUE(same_f32(got, exp)) << f << " (" << i << ", " << j << ") got " << got << " want " << exp;
            }
        }
    }
}

std::string name_of(const ::testing::TestParamInfo<size_t>& info) {
    return std::string(variants()[info.param].name).substr(std::string("kai_matmul_clamp_f32_").size());
}

INSTANTIATE_TEST_SUITE_P(All, F32NeonTest, ::testing::Range<size_t>(0, variants().size()), name_of);

// The packer: byte for byte against the reference (padding included), in one call and by column ranges, into a
// buffer ending at a guard page, with wider input strides.
TEST(F32NeonPackerTest, AgainstReference) {
    const F32NeonRhsPacker& pk = packer();
    EXPECT_EQ(pk.get_n_step(), 8u);
    EXPECT_EQ(pk.get_rhs_offset(16), 64u);
    EXPECT_EQ(pk.get_bias_offset(5), 20u);
    EXPECT_EQ(pk.get_rhs_packed_size(9, 3), 16u * 4 * 4);
    uint64_t seed = 500;
    for (size_t n : {1, 3, 7, 8, 9, 15, 16, 17, 33, 67}) {
        for (size_t k : {0, 1, 2, 5, 8, 45}) {
            for (size_t pad : {0, 3}) {
                const size_t row = n + pad;
                const std::vector<float> rhs = kai_test::random_f32(k * row + 1, -3.0f, 3.0f, ++seed);
                const std::vector<float> bias = kai_test::random_f32(n, -3.0f, 3.0f, ++seed);
                const std::vector<uint8_t> want = kai_ref::f32_pack_rhs_kxn_bias(rhs.data(), row, bias.data(), n, k, 8);
                const size_t size = pk.get_rhs_packed_size(n, k);
                ASSERT_EQ(size, want.size());
                kai_test::GuardedBuffer out(size, 0xA5);
                pk.run(1, n, k, 8, 1, 1, row * 4, rhs.data(), bias.data(), nullptr, out.data(), 0, nullptr);
                ASSERT_EQ(0, std::memcmp(out.data(), want.data(), size)) << "n" << n << " k" << k << " pad" << pad;
                EXPECT_TRUE(out.front_intact());
                // By ranges of 8 and 16 columns (the last one ragged).
                for (size_t step : {8, 16}) {
                    kai_test::GuardedBuffer parts(size, 0x3C);
                    for (size_t n0 = 0; n0 < n; n0 += step) {
                        const size_t nn = std::min(step, n - n0);
                        pk.run(1, nn, k, 8, 1, 1, row * 4, reinterpret_cast<const uint8_t*>(rhs.data()) + pk.get_rhs_offset(n0),
                               reinterpret_cast<const uint8_t*>(bias.data()) + pk.get_bias_offset(n0), nullptr,
                               parts.data() + pk.get_rhs_packed_offset(n0, k), 0, nullptr);
                    }
                    ASSERT_EQ(0, std::memcmp(parts.data(), want.data(), size)) << "ranges of " << step << " n" << n << " k" << k;
                }
            }
        }
    }
}

// KleidiAI v1.30.0's packed bytes for the packer's own vectors (its unwritten bias padding masked).
TEST(F32NeonPackerTest, CompatVectors) {
    const F32NeonRhsPacker& pk = packer();
    const std::vector<kai_test::CompatVector> vectors = vectors_of(pk.name);
    ASSERT_EQ(vectors.size(), 6u);
    size_t masked = 0;
    for (const kai_test::CompatVector& cv : vectors) {
        const std::string& f = cv.path;
        const size_t n = cv.size("n"), k = cv.size("k");
        const auto& want = cv.section("rhs_packed");
        ASSERT_EQ(pk.get_rhs_packed_size(n, k), want.bytes.size()) << f;
        kai_test::GuardedBuffer out(want.bytes.size(), 0x77);
        pk.run(1, n, k, cv.size("nr"), cv.size("kr"), cv.size("sr"), cv.size("rhs_stride"), cv.section("rhs").bytes.data(),
               cv.section("bias").bytes.data(), nullptr, out.data(), 0, nullptr);
        for (size_t i = 0; i < want.bytes.size(); ++i) {
            if (want.mask[i]) {
                ASSERT_EQ(out.data()[i], want.bytes[i]) << f << " byte " << i;
            } else {
                ++masked;
                ASSERT_EQ(out.data()[i], 0) << f << " byte " << i << ": kai writes 0 to padded biases";
            }
        }
    }
    EXPECT_GT(masked, 0u);  // the vectors do cover KleidiAI's unwritten bias padding
}

#ifndef NDEBUG
TEST(F32NeonPreconditionsDeathTest, KernelAndPacker) {
    using kai_test::PreconditionCase;
    std::vector<PreconditionCase> cases;
    auto p = std::make_shared<Problem>(make_problem(2, 3, 4, 77));
    for (const F32NeonVariant& v : variants()) {
        if (!kai_test::missing_features(v.features).empty()) continue;
        const auto uk = v.ukernel;
        const std::string file = std::string(v.name) + ".c";
        cases.push_back({std::string(v.name) + " dst_stride_col", file, "dst_stride_col must be 4", [uk, p](bool broken) {
                             float d[8];
                             uk.run_matmul(2, 3, 4, p->lhs.data(), 16, p->rhs_packed.data(), d, 12, broken ? 8 : 4, -kInf, kInf);
                         }});
        cases.push_back({std::string(v.name) + " lhs_stride", file, "lhs_stride must be at least k * 4", [uk, p](bool broken) {
                             float d[8];
                             uk.run_matmul(2, 3, 4, p->lhs.data(), broken ? 12 : 16, p->rhs_packed.data(), d, 12, 4, -kInf, kInf);
                         }});
        cases.push_back({std::string(v.name) + " dst_stride_row", file, "dst_stride_row must be at least n * 4",
                         [uk, p](bool broken) {
                             float d[8];
                             uk.run_matmul(2, 3, 4, p->lhs.data(), 16, p->rhs_packed.data(), d, broken ? 8 : 12, 4, -kInf, kInf);
                         }});
        cases.push_back({std::string(v.name) + " lhs", file, "lhs must not be NULL", [uk, p](bool broken) {
                             float d[8];
                             uk.run_matmul(2, 3, 4, broken ? nullptr : p->lhs.data(), 16, p->rhs_packed.data(), d, 12, 4, -kInf, kInf);
                         }});
        cases.push_back({std::string(v.name) + " m_idx", file, "m_idx must be a multiple of m_step (6)",
                         [uk](bool broken) { (void)uk.get_lhs_offset(broken ? 3 : 6, 16); }});
        cases.push_back({std::string(v.name) + " n_idx", file, "n_idx must be a multiple of nr (8)",
                         [uk](bool broken) { (void)uk.get_rhs_packed_offset(broken ? 4 : 8, 16); }});
    }
    const F32NeonRhsPacker pk = packer();
    const std::string pfile = std::string(pk.name) + ".c";
    auto pack = [pk, p](size_t nr, size_t kr, const void* bias, const void* scale, size_t stride) {
        std::vector<uint8_t> out(pk.get_rhs_packed_size(3, 4));
        pk.run(1, 3, 4, nr, kr, 1, stride, p->rhs.data(), bias, scale, out.data(), 0, nullptr);
    };
    cases.push_back({"packer nr", pfile, "nr must be 8", [pack, p](bool b) { pack(b ? 4 : 8, 1, p->bias.data(), nullptr, 12); }});
    cases.push_back({"packer kr", pfile, "kr must be 1", [pack, p](bool b) { pack(8, b ? 2 : 1, p->bias.data(), nullptr, 12); }});
    cases.push_back({"packer bias", pfile, "bias must not be NULL",
                     [pack, p](bool b) { pack(8, 1, b ? nullptr : p->bias.data(), nullptr, 12); }});
    cases.push_back({"packer scale", pfile, "scale must be NULL",
                     [pack, p](bool b) { pack(8, 1, p->bias.data(), b ? p->bias.data() : nullptr, 12); }});
    cases.push_back({"packer rhs_stride", pfile, "rhs_stride must be at least n * 4",
                     [pack, p](bool b) { pack(8, 1, p->bias.data(), nullptr, b ? 8 : 12); }});
    kai_test::expect_preconditions(cases);
}
#endif

}  // namespace
