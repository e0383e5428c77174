// SPDX-License-Identifier: Apache-2.0
// Tests of the GGUF K-quant families q4k and q6k (matmul_clamp_f32_qsi8d256p_{q4kp,q6kp}) and their
// packers (docs/matmul_gguf_kquants.md): the reference's GGUF decoding against hand-made blocks; the
// LHS and RHS packers byte-exact against the reference; every kernel bit-exact against the reference
// recipe over shapes, sub-tiles, bias, clamps and strides (NaN sentinel around the tile, packed
// inputs at a guard page); the result against the exact f64 product within a bound derived from the
// activation quantization and K; k that is not a multiple of 256 aborts, naming k.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"
#include "test/common/buffers.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/kquant_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/kquant_registry.h"

namespace {

using kai_ref::Kquant;
using kai_registry::KquantVariant;

// m x k activations (row stride `stride` floats): uniform [-1, 1) times a per-row power of two;
// when m >= 3, row 1 is zero (scale 0) and row 2 has one +-1 outlier per block and ties elsewhere.
std::vector<float> make_lhs(size_t m, size_t k, size_t stride, uint64_t seed) {
    kai_test::Rng rng(seed);
    std::vector<float> x(m * stride, 0.0f);
    for (size_t i = 0; i < m; ++i) {
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-4, 4)));
        for (size_t kk = 0; kk < k; ++kk) x[i * stride + kk] = rng.uniform(-1.0f, 1.0f) * mul;
    }
    if (m >= 3) {
        for (size_t kk = 0; kk < k; ++kk) {
            x[1 * stride + kk] = 0.0f;
            // amax 127 gives 127 / amax = 1: x.5 values are exact ties of the rounding.
            x[2 * stride + kk] = kk % 256 == 0 ? 127.0f : static_cast<float>(rng.integer(-100, 100)) + 0.5f;
        }
    }
    return x;
}

size_t block_bytes(Kquant f) {
    return kai_ref::kquant_block_bytes(f);
}

// ---------------------------------------------------------------------------------------------
// The reference's GGUF decoding against hand-made blocks (values worked out from the format).
// ---------------------------------------------------------------------------------------------

TEST(KquantReference, Q4KHandMadeBlock) {
    std::vector<uint8_t> b(144, 0);
    b[0] = 0x00;  // d = 1.0 (f16 0x3C00)
    b[1] = 0x3C;
    b[2] = 0x00;  // dmin = 0.5 (f16 0x3800)
    b[3] = 0x38;
    uint8_t* s = b.data() + 4;
    s[0] = 5 | (1 << 6);  // sc0 = 5; bit 6 gives bit 4 of sc4
    s[1] = 2;             // sc1 = 2
    s[4] = 3;             // m0 = 3 (and m4's bits 4-5 = 0)
    s[5] = 4;             // m1 = 4
    s[8] = 0x37;          // sc4 = 7 | 16 = 23, m4 = 3
    uint8_t* qs = b.data() + 16;
    qs[0] = 0x21;   // value 0: q 1 (sub-block 0), value 32: q 2 (sub-block 1)
    qs[64] = 0x0A;  // value 128: q 10 (sub-block 4)
    std::vector<float> y(256);
    kai_ref::kquant_dequant_row(Kquant::q4k, b.data(), 256, y.data());
    EXPECT_EQ(y[0], 1.0f * 5 * 1 - 0.5f * 3);
    EXPECT_EQ(y[32], 1.0f * 2 * 2 - 0.5f * 4);
    EXPECT_EQ(y[128], 1.0f * 23 * 10 - 0.5f * 3);
    EXPECT_EQ(y[1], 1.0f * 5 * 0 - 0.5f * 3);
}

TEST(KquantReference, Q6KHandMadeBlock) {
    std::vector<uint8_t> b(210, 0);
    b[0] = 0x5A;                              // ql[0]: value 0 low 4 bits 0xA, value 64 low 4 bits 0x5
    b[128] = 0xE4;                            // qh[0] = 0b11100100: value 0 gets 0, 32 gets 1, 64 gets 2, 96 gets 3
    b[192 + 0] = static_cast<uint8_t>(-3);    // scale of values 0..15
    b[192 + 2] = 7;                           // scale of values 32..47
    b[192 + 4] = 2;                           // scale of values 64..79
    b[192 + 6] = static_cast<uint8_t>(-1);    // scale of values 96..111
    b[208] = 0x00;                            // d = 0.25 (f16 0x3400)
    b[209] = 0x34;
    std::vector<float> y(256);
    kai_ref::kquant_dequant_row(Kquant::q6k, b.data(), 256, y.data());
    EXPECT_EQ(y[0], 0.25f * -3 * (10 - 32));
    EXPECT_EQ(y[32], 0.25f * 7 * ((0 | 1 << 4) - 32));
    EXPECT_EQ(y[64], 0.25f * 2 * ((5 | 2 << 4) - 32));
    EXPECT_EQ(y[96], 0.25f * -1 * ((0 | 3 << 4) - 32));
}

// ---------------------------------------------------------------------------------------------
// Packers, byte for byte.
// ---------------------------------------------------------------------------------------------

TEST(KquantPack, LhsMatchesReference) {
    for (size_t mr : {1, 2, 4, 8}) {
        for (size_t kr : {4, 8}) {
            for (size_t m : {1, 3, 5, 9}) {
                for (size_t k : {256, 768}) {
                    for (size_t start : {0, 1}) {
                        if (start % mr != 0 && mr == 1) continue;
                        SCOPED_TRACE("mr " + std::to_string(mr) + " kr " + std::to_string(kr) + " m " + std::to_string(m) +
                                     " k " + std::to_string(k) + " start " + std::to_string(start));
                        const size_t stride = k + 3;
                        const std::vector<float> x = make_lhs(m, k, stride, 11 + m * k + mr + kr);
                        const size_t rows = start % mr + m;
                        const size_t size = kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(rows, k, mr, kr, 1);
                        ASSERT_EQ(size, kai_ref::kquant_lhs_packed_size(rows, k, mr));
                        kai_test::GuardedBuffer got(size, 0x5C);
                        std::vector<uint8_t> want(size, 0x5C);
                        kai_run_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, 1, start, x.data(), stride * 4, got.data());
                        kai_ref::kquant_pack_lhs(m, k, mr, kr, start, x.data(), stride * 4, want.data());
                        ASSERT_EQ(0, std::memcmp(got.data(), want.data(), size));
                        EXPECT_TRUE(got.front_intact());
                    }
                }
            }
        }
    }
}

void check_rhs_pack(Kquant f) {
    for (size_t n : {1, 3, 4, 5, 13}) {
        for (size_t k : {256, 512}) {
            for (bool with_bias : {false, true}) {
                SCOPED_TRACE("n " + std::to_string(n) + " k " + std::to_string(k) + (with_bias ? " bias" : ""));
                const size_t stride = k / 256 * block_bytes(f) + 7;
                const std::vector<uint8_t> rows = kai_ref::kquant_random_rows(f, n, k, stride, 0.01f, static_cast<uint32_t>(n * k));
                const std::vector<float> bias = kai_test::random_f32(n, -1.0f, 1.0f, n + k);
                const float* b = with_bias ? bias.data() : nullptr;
                const std::vector<uint8_t> want = kai_ref::kquant_pack_rhs(f, n, k, rows.data(), stride, b);
                size_t size;
                if (f == Kquant::q4k) {
                    size = kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(n, k, 4, 8, 1);
                } else {
                    size = kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(n, k, 4, 8, 1);
                }
                ASSERT_EQ(size, want.size());
                kai_test::GuardedBuffer got(size, 0x5C);
                if (f == Kquant::q4k) {
                    kai_run_rhs_pack_nxk_q4kp_q4k_neon(n, k, 4, 8, 1, rows.data(), stride, b, got.data());
                } else {
                    kai_run_rhs_pack_nxk_q6kp_q6k_neon(n, k, 4, 8, 1, rows.data(), stride, b, got.data());
                }
                for (size_t i = 0; i < size; ++i) ASSERT_EQ(got.data()[i], want[i]) << "byte " << i;
                EXPECT_TRUE(got.front_intact());
            }
        }
    }
}

TEST(KquantPack, Q4KRhsMatchesReference) {
    check_rhs_pack(Kquant::q4k);
}

TEST(KquantPack, Q6KRhsMatchesReference) {
    check_rhs_pack(Kquant::q6k);
}

// ---------------------------------------------------------------------------------------------
// Kernels.
// ---------------------------------------------------------------------------------------------

std::string variant_name(const testing::TestParamInfo<size_t>& info) {
    std::string s = kai_registry::kquant_variants()[info.param].name;
    return s.substr(std::string("kai_matmul_clamp_f32_").size());
}

class KquantKernelTest : public testing::TestWithParam<size_t> {
protected:
    const KquantVariant& v() const { return kai_registry::kquant_variants()[GetParam()]; }
    void SetUp() override {
        const uint32_t missing = v().features & ~kai_test::cpu_features();
        if (missing & KAI_FEATURE_I8MM) GTEST_SKIP() << "the CPU lacks FEAT_I8MM";
        if (missing & KAI_FEATURE_DOTPROD) GTEST_SKIP() << "the CPU lacks FEAT_DotProd";
        ASSERT_EQ(missing, 0u);
    }
    Kquant fmt() const { return v().q4k ? Kquant::q4k : Kquant::q6k; }

    struct Packed {
        std::vector<float> lhs;
        std::vector<uint8_t> rows;
        std::vector<float> bias;
        size_t lhs_stride, rhs_stride;
    };

    // Runs the (m_idx, n_idx, m_sub, n_sub) sub-tile of an m x n x k problem and compares it with
    // the reference bit for bit; the destination stride is wider than a row when `wide`.
    void run_case(size_t m, size_t n, size_t k, size_t m_idx, size_t n_idx, size_t m_sub, size_t n_sub, bool bias_on,
                  int clamp, bool wide, uint64_t seed) {
        SCOPED_TRACE(std::string(v().name) + " m " + std::to_string(m) + " n " + std::to_string(n) + " k " + std::to_string(k) +
                     " sub (" + std::to_string(m_idx) + ", " + std::to_string(n_idx) + ", " + std::to_string(m_sub) + ", " +
                     std::to_string(n_sub) + ") seed " + std::to_string(seed));
        const kai_matmul_clamp_f32_qsi8d256p_q4kp_ukernel& u = v().ukernel;
        const size_t mr = u.get_mr(), kr = u.get_kr(), sr = u.get_sr(), nr = u.get_nr();
        const size_t lhs_stride = k + 5;
        const std::vector<float> x = make_lhs(m, k, lhs_stride, seed);
        const Kquant f = fmt();
        const size_t rhs_stride = k / 256 * block_bytes(f) + 3;
        const std::vector<uint8_t> rows = kai_ref::kquant_random_rows(f, n, k, rhs_stride, 0.004f, static_cast<uint32_t>(seed));
        const std::vector<float> bias = kai_test::random_f32(n, -2.0f, 2.0f, seed + 1);
        const float* b = bias_on ? bias.data() : nullptr;

        // Pack both sides into buffers that end at a guard page.
        const size_t lhs_size = kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, sr);
        kai_test::GuardedBuffer lhs_p(lhs_size);
        kai_run_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, sr, 0, x.data(), lhs_stride * 4, lhs_p.data());
        size_t rhs_size;
        if (f == Kquant::q4k) {
            rhs_size = kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(n, k, nr, kr, sr);
        } else {
            rhs_size = kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(n, k, nr, kr, sr);
        }
        kai_test::GuardedBuffer rhs_p(rhs_size);
        if (f == Kquant::q4k) {
            kai_run_rhs_pack_nxk_q4kp_q4k_neon(n, k, nr, kr, sr, rows.data(), rhs_stride, b, rhs_p.data());
        } else {
            kai_run_rhs_pack_nxk_q6kp_q6k_neon(n, k, nr, kr, sr, rows.data(), rhs_stride, b, rhs_p.data());
        }

        // Clamp bounds from the unclamped reference (20 % and 80 % quantiles) when asked.
        const std::vector<float> free = kai_ref::kquant_matmul(f, m, n, k, x.data(), lhs_stride * 4, rows.data(),
                                                                rhs_stride, b, -FLT_MAX, FLT_MAX);
        float lo = -FLT_MAX, hi = FLT_MAX;
        if (clamp == 1) {
            std::vector<float> s = free;
            std::sort(s.begin(), s.end());
            lo = s[s.size() / 5];
            hi = s[s.size() * 4 / 5];
        } else if (clamp == 2) {
            lo = 0.0f;
        }
        const std::vector<float> want = kai_ref::kquant_matmul(f, m, n, k, x.data(), lhs_stride * 4, rows.data(),
                                                                rhs_stride, b, lo, hi);

        const size_t dst_stride = (n + (wide ? 7 : 0)) * sizeof(float);
        kai_test::DstBuffer dst(m, n, sizeof(float), dst_stride);
        const uint8_t* lp = lhs_p.data() + u.get_lhs_packed_offset(m_idx, k);
        const uint8_t* rp = rhs_p.data() + u.get_rhs_packed_offset(n_idx, k);
        float* dp = reinterpret_cast<float*>(dst.at(0, 0) + u.get_dst_offset(m_idx, n_idx, dst_stride));
        u.run_matmul(m_sub, n_sub, k, lp, rp, dp, dst_stride, sizeof(float), lo, hi);
        EXPECT_TRUE(dst.untouched_outside(m_idx, m_sub, n_idx, n_sub));
        EXPECT_TRUE(dst.written_inside(m_idx, m_sub, n_idx, n_sub));
        for (size_t i = m_idx; i < m_idx + m_sub; ++i) {
            for (size_t j = n_idx; j < n_idx + n_sub; ++j) {
                const float g = dst.value(i, j), w = want[i * n + j];
                ASSERT_EQ(kai_ref::f32_bits(g), kai_ref::f32_bits(w)) << "at (" << i << ", " << j << "): " << g << " vs " << w;
            }
        }
    }
};

TEST_P(KquantKernelTest, Shapes) {
    const auto& u = v().ukernel;
    const size_t ms = u.get_m_step(), ns = u.get_n_step();
    std::vector<std::vector<size_t>> shapes = {
        {1, 1, 256}, {ms, ns, 256}, {ms + 1, ns + 1, 512}, {ms > 1 ? ms - 1 : 2, ns - 1, 256},
        {2 * ms + 1, 3 * ns - 1, 768}, {13, 33, 512}, {7, 11, 1280},
    };
    if (!kai_test::reduced_sweep()) {
        shapes.push_back({3, 5, 16384});
        shapes.push_back({17, 19, 4096});
    } else {
        shapes.push_back({2, 5, 4096});
    }
    uint64_t seed = 100;
    for (const auto& s : shapes) {
        run_case(s[0], s[1], s[2], 0, 0, s[0], s[1], true, 0, false, seed++);
        if (HasFatalFailure()) return;
    }
}

TEST_P(KquantKernelTest, BiasClampStride) {
    const auto& u = v().ukernel;
    const size_t m = 2 * u.get_m_step() + 3, n = 2 * u.get_n_step() + 1;
    uint64_t seed = 300;
    for (bool bias_on : {false, true}) {
        for (int clamp : {0, 1, 2}) {
            run_case(m, n, 512, 0, 0, m, n, bias_on, clamp, true, seed++);
            if (HasFatalFailure()) return;
        }
    }
}

TEST_P(KquantKernelTest, SubTiles) {
    const auto& u = v().ukernel;
    const size_t ms = u.get_m_step(), ns = u.get_n_step();
    const size_t m = 3 * ms + 2, n = 3 * ns + 3;
    uint64_t seed = 500;
    // Interior tile, a tile at the ragged corner, and a one-element tile at a step boundary.
    run_case(m, n, 512, ms, ns, ms, ns, true, 1, true, seed++);
    run_case(m, n, 512, 2 * ms, 2 * ns, m - 2 * ms, n - 2 * ns, true, 0, false, seed++);
    run_case(m, n, 256, ms, 2 * ns, 1, 1, false, 0, true, seed++);
    run_case(m, n, 256, 0, ns, m, 2 * ns, true, 2, false, seed++);
}

// The result against the exact f64 product of the f32 activations and the dequantized weights. The
// bound: activation quantization moves each x by at most sa / 2 (sa = amax / 127 of its block), so
// |y - exact| <= sum_k |w_k| * sa_b / 2 over the blocks, plus f32 rounding of the K / 256 block
// terms and of f32(I), bounded by 4 * K * eps * sum_k |x_k w_k| (K-derived, generous).
TEST_P(KquantKernelTest, AgainstExactWithinDerivedBound) {
    const auto& u = v().ukernel;
    const Kquant f = fmt();
    const size_t m = 5, n = 9, k = 2048;
    const size_t mr = u.get_mr(), kr = u.get_kr(), sr = u.get_sr(), nr = u.get_nr();
    const std::vector<float> x = make_lhs(m, k, k, 77);
    const size_t rhs_stride = k / 256 * block_bytes(f);
    const std::vector<uint8_t> rows = kai_ref::kquant_random_rows(f, n, k, rhs_stride, 0.004f, 78);
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qsi8d256p_f32_neon(m, k, mr, kr, sr, 0, x.data(), k * 4, lhs_p.data());
    std::vector<uint8_t> rhs_p(f == Kquant::q4k ? kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(n, k, nr, kr, sr)
                                                : kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(n, k, nr, kr, sr));
    if (f == Kquant::q4k) {
        kai_run_rhs_pack_nxk_q4kp_q4k_neon(n, k, nr, kr, sr, rows.data(), rhs_stride, nullptr, rhs_p.data());
    } else {
        kai_run_rhs_pack_nxk_q6kp_q6k_neon(n, k, nr, kr, sr, rows.data(), rhs_stride, nullptr, rhs_p.data());
    }
    std::vector<float> y(m * n);
    u.run_matmul(m, n, k, lhs_p.data(), rhs_p.data(), y.data(), n * 4, 4, -FLT_MAX, FLT_MAX);
    const std::vector<double> exact = kai_ref::kquant_matmul_exact(f, m, n, k, x.data(), rows.data(), rhs_stride, nullptr);
    std::vector<float> w(k);
    for (size_t j = 0; j < n; ++j) {
        kai_ref::kquant_dequant_row(f, rows.data() + j * rhs_stride, k, w.data());
        for (size_t i = 0; i < m; ++i) {
            double bound = 0.0, mag = 0.0;
            for (size_t b = 0; b < k / 256; ++b) {
                double amax = 0.0, wsum = 0.0;
                for (size_t e = b * 256; e < b * 256 + 256; ++e) {
                    amax = std::max(amax, std::fabs(static_cast<double>(x[i * k + e])));
                    wsum += std::fabs(static_cast<double>(w[e]));
                    mag += std::fabs(static_cast<double>(x[i * k + e]) * w[e]);
                }
                bound += wsum * amax / 127.0 / 2.0;
            }
            bound += 4.0 * static_cast<double>(k) * FLT_EPSILON * mag;
            EXPECT_LE(std::fabs(y[i * n + j] - exact[i * n + j]), bound) << "at (" << i << ", " << j << ")";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, KquantKernelTest, testing::Range(size_t{0}, kai_registry::kquant_variants().size()),
                         variant_name);

TEST(KquantRegistry, BothFormatsAndAllEngines) {
    size_t q4 = 0, q6 = 0;
    for (const KquantVariant& v : kai_registry::kquant_variants()) (v.q4k ? q4 : q6)++;
    EXPECT_EQ(q4, 3u);
    EXPECT_EQ(q6, 3u);
}

// ---------------------------------------------------------------------------------------------
// k must be a non-zero multiple of 256: checked in every build by every function that takes k.
// ---------------------------------------------------------------------------------------------

TEST(KquantDeathTest, KNotMultipleOf256AbortsNamingK) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string msg = "k must be a non-zero multiple of 256";
    std::vector<uint8_t> buf(1 << 16);
    std::vector<float> x(1024);
    for (size_t bad : {0, 128, 320}) {
        EXPECT_DEATH(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(1, bad, 1, 8, 1),
                     kai_test::kai_error_regex("kai_lhs_quant_pack_qsi8d256p_f32_neon.c", msg));
        EXPECT_DEATH(kai_run_lhs_quant_pack_qsi8d256p_f32_neon(1, bad, 1, 8, 1, 0, x.data(), 4096, buf.data()),
                     kai_test::kai_error_regex("kai_lhs_quant_pack_qsi8d256p_f32_neon.c", msg));
        EXPECT_DEATH(kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(4, bad, 4, 8, 1),
                     kai_test::kai_error_regex("kai_rhs_pack_nxk_q4kp_q4k_neon.c", msg));
        EXPECT_DEATH(kai_run_rhs_pack_nxk_q4kp_q4k_neon(1, bad, 4, 8, 1, buf.data(), 144, nullptr, buf.data()),
                     kai_test::kai_error_regex("kai_rhs_pack_nxk_q4kp_q4k_neon.c", msg));
        EXPECT_DEATH(kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(4, bad, 4, 8, 1),
                     kai_test::kai_error_regex("kai_rhs_pack_nxk_q6kp_q6k_neon.c", msg));
        EXPECT_DEATH(kai_run_rhs_pack_nxk_q6kp_q6k_neon(1, bad, 4, 8, 1, buf.data(), 210, nullptr, buf.data()),
                     kai_test::kai_error_regex("kai_rhs_pack_nxk_q6kp_q6k_neon.c", msg));
        for (const KquantVariant& v : kai_registry::kquant_variants()) {
            const std::string file = std::string(v.name) + ".c";
            EXPECT_DEATH(v.ukernel.get_lhs_packed_offset(0, bad), kai_test::kai_error_regex(file, msg));
            EXPECT_DEATH(v.ukernel.get_rhs_packed_offset(0, bad), kai_test::kai_error_regex(file, msg));
            if ((v.features & ~kai_test::cpu_features()) == 0) {
                float y[4];
                EXPECT_DEATH(v.ukernel.run_matmul(1, 1, bad, buf.data(), buf.data(), y, 16, 4, -FLT_MAX, FLT_MAX),
                             kai_test::kai_error_regex(file, msg));
            }
        }
    }
}

#ifndef NDEBUG
TEST(KquantPreconditionsDeathTest, PackersAndKernels) {
    std::vector<uint8_t> buf(1 << 16);
    std::vector<float> x(1024);
    const std::string lf = "kai_lhs_quant_pack_qsi8d256p_f32_neon.c";
    const std::string q4 = "kai_rhs_pack_nxk_q4kp_q4k_neon.c";
    const std::string q6 = "kai_rhs_pack_nxk_q6kp_q6k_neon.c";
    std::vector<kai_test::PreconditionCase> cases = {
        {"lhs mr", lf, "mr must be 1, 2, 4 or 8",
         [&](bool bad) { kai_run_lhs_quant_pack_qsi8d256p_f32_neon(1, 256, bad ? 3 : 4, 8, 1, 0, x.data(), 1024, buf.data()); }},
        {"lhs kr", lf, "kr must be 4 or 8",
         [&](bool bad) { kai_run_lhs_quant_pack_qsi8d256p_f32_neon(1, 256, 4, bad ? 16 : 8, 1, 0, x.data(), 1024, buf.data()); }},
        {"lhs sr", lf, "sr must be 1",
         [&](bool bad) { kai_run_lhs_quant_pack_qsi8d256p_f32_neon(1, 256, 4, 8, bad ? 2 : 1, 0, x.data(), 1024, buf.data()); }},
        {"lhs stride", lf, "lhs_stride must be at least k * sizeof(float)",
         [&](bool bad) { kai_run_lhs_quant_pack_qsi8d256p_f32_neon(2, 256, 4, 8, 1, 0, x.data(), bad ? 1020 : 1024, buf.data()); }},
        {"q4k nr", q4, "nr must be 4",
         [&](bool bad) { kai_run_rhs_pack_nxk_q4kp_q4k_neon(1, 256, bad ? 8 : 4, 8, 1, buf.data(), 144, nullptr, buf.data()); }},
        {"q4k stride", q4, "rhs_stride must be at least k / 256 * 144",
         [&](bool bad) { kai_run_rhs_pack_nxk_q4kp_q4k_neon(2, 256, 4, 8, 1, buf.data(), bad ? 143 : 144, nullptr, buf.data()); }},
        {"q6k nr", q6, "nr must be 4",
         [&](bool bad) { kai_run_rhs_pack_nxk_q6kp_q6k_neon(1, 256, bad ? 8 : 4, 8, 1, buf.data(), 210, nullptr, buf.data()); }},
        {"q6k stride", q6, "rhs_stride must be at least k / 256 * 210",
         [&](bool bad) { kai_run_rhs_pack_nxk_q6kp_q6k_neon(2, 256, 4, 8, 1, buf.data(), bad ? 209 : 210, nullptr, buf.data()); }},
    };
    for (const KquantVariant& v : kai_registry::kquant_variants()) {
        const std::string file = std::string(v.name) + ".c";
        const auto& u = v.ukernel;
        const size_t ms = u.get_m_step();
        if (ms > 1) {
            cases.push_back({std::string(v.name) + " m_idx", file, "m_idx must be a multiple of m_step (" + std::to_string(ms) + ")",
                             [&u, ms](bool bad) { u.get_lhs_packed_offset(bad ? 1 : ms, 256); }});
        }
        cases.push_back({std::string(v.name) + " n_idx", file, "n_idx must be a multiple of n_step (" + std::to_string(u.get_n_step()) + ")",
                         [&u](bool bad) { u.get_rhs_packed_offset(bad ? 2 : u.get_n_step(), 256); }});
        if ((v.features & ~kai_test::cpu_features()) == 0) {
            cases.push_back({std::string(v.name) + " dst_stride_col", file, "dst_stride_col must be sizeof(float)",
                             [&u, &buf](bool bad) {
                                 float y[4];
                                 u.run_matmul(1, 1, 256, buf.data(), buf.data(), y, 16, bad ? 8 : 4, -FLT_MAX, FLT_MAX);
                             }});
        }
    }
    kai_test::expect_preconditions(cases);
}
#endif  // NDEBUG

}  // namespace
