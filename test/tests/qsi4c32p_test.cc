// SPDX-License-Identifier: Apache-2.0
// Tests of the matmul_clamp_f32_qai8dxp_qsi4c32p family (int4 weights with one bf16 scale per
// block of bl values along K): byte-exact RHS packers (nxk, kxn, NEON and generic paths, column
// chunks), bit-exact kernels against test/reference (docs/formats.md, "qsi4c32p matmul" recipe) over shapes, block lengths,
// sub-tiles, bias and clamps, the KleidiAI v1.30.0 compat vectors, the end-to-end error against an
// f64 matmul of the dequantised weights, and the parameter checks (every precondition and size
// overflow check aborts naming its parameter).

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
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/preconditions.h"
#include "test/common/environment.h"
#include "test/common/limits.h"
#include "test/common/rng.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/reference_common.h"
#include "test/registry/qsi4c32p_registry.h"

namespace {

using kai_registry::Qsi4c32pVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

constexpr size_t kKr = 16;
constexpr size_t kSr = 2;

// The message a failed always-on check prints: release builds (NDEBUG) abort without one.
const char* msg(const char* text) {
#ifdef NDEBUG
    (void)text;
    return "";
#else
    return text;
#endif
}

// ------------------------------------------------------------------------------------------
// Inputs.
// ------------------------------------------------------------------------------------------

// LHS rows: uniform values times a per-row power of two; with edge_rows, rows i % 8 == 1, 2, 3
// are all zeros, constant positive and constant negative (the quantiser's special rows).
std::vector<float> make_lhs(size_t m, size_t k, size_t stride_floats, uint64_t seed, bool edge_rows) {
    Rng rng(seed);
    std::vector<float> lhs(m * stride_floats, std::numeric_limits<float>::quiet_NaN());
    for (size_t i = 0; i < m; ++i) {
        float* x = lhs.data() + i * stride_floats;
        const float mul = std::ldexp(1.0f, static_cast<int>(rng.integer(-3, 3)));
        for (size_t kk = 0; kk < k; ++kk) x[kk] = rng.uniform(-2.0f, 2.0f) * mul;
        if (!edge_rows) continue;
        const float c = i % 8 == 1 ? 0.0f : i % 8 == 2 ? 0.8125f : -1.375f;
        if (i % 8 >= 1 && i % 8 <= 3) std::fill(x, x + k, c);
    }
    return lhs;
}

// bf16 block scales (n rows of scale_stride bytes): random sign and magnitude 0.002-0.05, and a
// few edge values (zero, a bf16 subnormal, a large value) when edge is set.
std::vector<uint8_t> make_scales(size_t n, size_t nb, size_t scale_stride, uint64_t seed, bool edge) {
    Rng rng(seed);
    std::vector<uint8_t> s(n * scale_stride, 0xEE);
    for (size_t j = 0; j < n; ++j) {
        for (size_t b = 0; b < nb; ++b) {
            const float v = rng.uniform(0.002f, 0.05f) * (rng.integer(0, 1) ? 1.0f : -1.0f);
            uint16_t raw = kai_ref::bf16_from_f32(v);
            if (edge && j == 0 && b == 0) raw = 0x0000;
            if (edge && j == 1 && b + 1 == nb) raw = 0x0003;  // subnormal
            if (edge && j == 2 && b == 0) raw = 0x4780;       // 65536
            std::memcpy(s.data() + j * scale_stride + 2 * b, &raw, 2);
        }
    }
    return s;
}

float scale_value(const std::vector<uint8_t>& s, size_t scale_stride, size_t j, size_t b) {
    uint16_t raw;
    std::memcpy(&raw, s.data() + j * scale_stride + 2 * b, 2);
    return kai_ref::f32_from_bf16(raw);
}

std::string shape_name(size_t m, size_t n, size_t k, size_t bl) {
    std::ostringstream os;
    os << m << "x" << n << "x" << k << "_bl" << bl;
    return os.str();
}

struct RhsInput {
    size_t n, k, bl, rhs_stride, scale_stride;
    bool kxn;
    std::vector<uint8_t> bytes;   // nxk: n rows; kxn: k rows (rhs_stride bytes each)
    std::vector<uint8_t> scales;  // n rows of scale_stride bytes
    std::vector<float> bias;
};

RhsInput make_rhs(size_t n, size_t k, size_t bl, bool kxn, uint64_t seed, bool edge_scales) {
    RhsInput r;
    r.n = n;
    r.k = k;
    r.bl = bl;
    r.kxn = kxn;
    r.rhs_stride = kxn ? (n + 1) / 2 + 3 : k / 2 + 5;  // wider than needed
    r.scale_stride = 2 * (k / bl) + 6;
    r.bytes = kai_test::random_bytes((kxn ? k : n) * r.rhs_stride, seed);
    r.scales = make_scales(n, k / bl, r.scale_stride, seed + 1, edge_scales);
    r.bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    return r;
}

// Signed weights (n x k) of an input.
std::vector<int8_t> weights(const RhsInput& r) {
    std::vector<int8_t> w(r.n * r.k);
    for (size_t j = 0; j < r.n; ++j)
        for (size_t kk = 0; kk < r.k; ++kk) {
            const uint8_t u = r.kxn ? kai_ref::qsu4_kxn_nibble(r.bytes.data(), r.rhs_stride, j, kk)
                                    : kai_ref::qsu4_nxk_nibble(r.bytes.data(), r.rhs_stride, j, kk);
            w[j * r.k + kk] = static_cast<int8_t>(static_cast<int>(u) - 8);
        }
    return w;
}

// Runs kai's packer for channels [n0, n0 + count) of r into out (its offset already applied).
void pack_rhs(const RhsInput& r, size_t n0, size_t count, size_t nr, size_t kr, bool has_bias, void* out) {
    const float* bias = has_bias ? r.bias.data() + n0 : nullptr;
    const uint8_t* scale = r.scales.data() + n0 * r.scale_stride;
    if (r.kxn) {
        const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
        const uint8_t* rhs = r.bytes.data() + KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(n0, r.rhs_stride);
        KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(1, count, r.k, nr, kr, kSr, r.bl, rhs, r.rhs_stride, bias, scale,
                                                  r.scale_stride, out, 0, &p);
    } else {
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
        const uint8_t* rhs = r.bytes.data() + KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(n0, r.rhs_stride);
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, count, r.k, nr, kr, kSr, r.bl, rhs, r.rhs_stride, bias, scale,
                                                  r.scale_stride, out, 0, &p);
    }
}

size_t rhs_packed_size(bool kxn, size_t n, size_t k, size_t nr, size_t kr, size_t bl) {
    return kxn ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(n, k, nr, kr, kSr, bl, kai_dt_bf16)
               : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(n, k, nr, kr, kSr, bl, kai_dt_bf16);
}

size_t rhs_packed_offset(bool kxn, size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl) {
    return kxn ? KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(n_idx, k, nr, kr, kSr, bl, kai_dt_bf16)
               : KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(n_idx, k, nr, kr, kSr, bl, kai_dt_bf16);
}

std::vector<uint8_t> ref_pack(const RhsInput& r, size_t nr, size_t kr, bool has_bias) {
    const float* bias = has_bias ? r.bias.data() : nullptr;
    return r.kxn ? kai_ref::pack_qsi4c32p_kxn(r.n, r.k, nr, kr, kSr, r.bl, r.bytes.data(), r.rhs_stride, bias,
                                              r.scales.data(), r.scale_stride)
                 : kai_ref::pack_qsi4c32p_nxk(r.n, r.k, nr, kr, kSr, r.bl, r.bytes.data(), r.rhs_stride, bias,
                                              r.scales.data(), r.scale_stride);
}

// ------------------------------------------------------------------------------------------
// RHS packers.
// ------------------------------------------------------------------------------------------

using RhsParam = std::tuple<bool /*kxn*/, size_t /*n*/, size_t /*blocks*/, size_t /*bl*/, size_t /*nr*/,
                            size_t /*kr*/, bool /*bias*/>;

class RhsPackTest : public ::testing::TestWithParam<RhsParam> {};

TEST_P(RhsPackTest, ByteExactAgainstReference) {
    const auto [kxn, n, blocks, bl, nr, kr, has_bias] = GetParam();
    const size_t k = blocks * bl;
    const uint64_t seed = kai_test::seed_from("rhs" + shape_name(1, n, k, bl) + (kxn ? "kxn" : "nxk") +
                                              std::to_string(nr) + std::to_string(kr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const RhsInput r = make_rhs(n, k, bl, kxn, seed, true);
    const size_t size = rhs_packed_size(kxn, n, k, nr, kr, bl);
    ASSERT_EQ(size, kai_ref::qsi4c32p_packed_size(n, k, nr, bl));
    GuardedBuffer got(size);
    pack_rhs(r, 0, n, nr, kr, has_bias, got.data());
    const auto want = ref_pack(r, nr, kr, has_bias);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(RhsPackTest, ColumnChunksMatchWholeMatrix) {
    // Threading recipe: channels [0, n0) and [n0, n) packed separately at the packer's offsets
    // give the whole matrix's bytes (n0 a multiple of nr).
    const auto [kxn, n_param, blocks, bl, nr, kr, has_bias] = GetParam();
    const size_t n = n_param + nr;
    const size_t k = blocks * bl;
    const uint64_t seed = kai_test::seed_from("rhschunk" + shape_name(1, n, k, bl) + (kxn ? "kxn" : "nxk"));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const RhsInput r = make_rhs(n, k, bl, kxn, seed, false);
    const size_t size = rhs_packed_size(kxn, n, k, nr, kr, bl);
    std::vector<uint8_t> whole(size, 0), split(size, 0);
    pack_rhs(r, 0, n, nr, kr, has_bias, whole.data());
    const size_t n0 = nr * (n / nr / 2);
    if (n0 > 0) pack_rhs(r, 0, n0, nr, kr, has_bias, split.data());
    pack_rhs(r, n0, n - n0, nr, kr, has_bias, split.data() + rhs_packed_offset(kxn, n0, k, nr, kr, bl));
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::string rhs_param_name(const ::testing::TestParamInfo<RhsParam>& info) {
    const auto [kxn, n, blocks, bl, nr, kr, bias] = info.param;
    return std::string(kxn ? "kxn" : "nxk") + "_n" + std::to_string(n) + "_k" + std::to_string(blocks * bl) + "_bl" +
           std::to_string(bl) + "_nr" + std::to_string(nr) + "_kr" + std::to_string(kr) + (bias ? "_bias" : "");
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RhsPackTest,
    ::testing::Values(RhsParam{false, 1, 1, 32, 4, 16, true}, RhsParam{true, 1, 1, 32, 4, 16, false},
                      RhsParam{false, 5, 2, 32, 4, 16, true}, RhsParam{true, 5, 2, 32, 4, 16, true},
                      RhsParam{false, 13, 3, 64, 8, 16, false}, RhsParam{true, 13, 3, 64, 8, 16, true},
                      RhsParam{false, 8, 1, 128, 8, 16, true}, RhsParam{true, 8, 2, 128, 4, 16, false},
                      RhsParam{false, 7, 2, 256, 4, 16, true}, RhsParam{true, 9, 1, 256, 8, 16, true},
                      RhsParam{false, 33, 32, 32, 4, 16, true}, RhsParam{true, 31, 8, 128, 8, 16, false},
                      RhsParam{false, 6, 2, 64, 4, 8, true}, RhsParam{true, 6, 2, 64, 4, 8, true},
                      RhsParam{false, 5, 1, 32, 4, 32, true}, RhsParam{true, 11, 2, 32, 12, 4, true},
                      RhsParam{false, 3, 2, 96, 4, 16, true}),
    rhs_param_name);

TEST(RhsPackEdge, WorkedExampleOffsets) {
    // docs/formats.md, "qsi4c32p RHS": M = 3, N = 5, K = 64, bl = 32, nr = 4: R = 176, size 352.
    EXPECT_EQ(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(64, 4, 16, 2, 32, kai_dt_bf16), 176u);
    EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(5, 64, 4, 16, 2, 32, kai_dt_bf16), 352u);
    EXPECT_EQ(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(4, 64, 4, 16, 2, 32, kai_dt_bf16), 176u);
    EXPECT_EQ(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(5, 128, 4, 16, 2, 64, kai_dt_bf16), 608u);
    EXPECT_EQ(kai_get_n_step_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(8), 8u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(3, 36), 108u);
    EXPECT_EQ(kai_get_rhs_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(6, 36), 3u);
}

TEST(RhsPackEdge, RowSumsFollowTheSpecOrder) {
    // One channel, K = 64, bl = 32. Block 0: scale 1, one weight +1 (sum 1). Block 1: scale 2^-24,
    // weight +1 at k = 32 (nibble group 0) and at k = 40 (group 1). Spec order, one rounding per
    // group: 1 + 2^-24 rounds to 1 (tie to even), twice: 1.0. Summing the block first would give
    // 1 + 2^-23. Both packers, both paths (kr = 16: NEON; kr = 8: generic) must store 1.0.
    const size_t k = 64, bl = 32;
    std::vector<uint8_t> nxk(k / 2, 0x88);  // all nibbles 8 (value 0)
    nxk[0] = 0x89;                          // k = 0: +1
    nxk[16] = 0x89;                         // k = 32: +1
    nxk[20] = 0x89;                         // k = 40: +1
    std::vector<uint8_t> kxn(k, 0x88);      // k rows of one byte (n = 1: low nibble)
    kxn[0] = kxn[32] = kxn[40] = 0x89;
    const uint16_t scales[2] = {0x3F80, 0x3380};  // 1.0, 2^-24
    for (size_t kr : {16u, 8u}) {
        for (bool is_kxn : {false, true}) {
            std::vector<uint8_t> out(rhs_packed_size(is_kxn, 1, k, 4, kr, bl));
            if (is_kxn) {
                const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
                KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(1, 1, k, 4, kr, kSr, bl, kxn.data(), 1, nullptr, scales, 4,
                                                          out.data(), 0, &p);
            } else {
                const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
                KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, 1, k, 4, kr, kSr, bl, nxk.data(), k / 2, nullptr, scales,
                                                          4, out.data(), 0, &p);
            }
            float sum;
            std::memcpy(&sum, out.data() + 2 * 4 * (bl / 2 + 2), 4);
            EXPECT_EQ(kai_ref::f32_bits(sum), kai_ref::f32_bits(1.0f)) << (is_kxn ? "kxn" : "nxk") << " kr " << kr;
        }
    }
    std::vector<int8_t> w(k, 0);
    w[0] = w[32] = w[40] = 1;
    const float d[2] = {1.0f, std::ldexp(1.0f, -24)};
    EXPECT_EQ(kai_ref::qsi4c32p_row_sum(w.data(), d, k, bl, 8), 1.0f);
}

// ------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------

// kRelu: [0, +FLT_MAX] (only the lower bound finite); kMaxOnly: [-FLT_MAX, 60 % quantile].
enum class Clamp { kNone, kQuantiles, kInverted, kRelu, kMaxOnly };

// (m, n, blocks) shape, block length, bias, clamp, RHS layout.
struct KernelCase {
    size_t m, n, blocks, bl;
    bool bias;
    Clamp clamp;
    bool kxn;
};

using KernelParam = std::tuple<size_t /*variant*/, KernelCase>;

std::vector<KernelCase> kernel_cases(const Qsi4c32pVariant& v) {
    const size_t ms = KAI_ABI(v.ukernel.get_m_step)(), ns = KAI_ABI(v.ukernel.get_n_step)();
    const bool gemv = ms == 1;
    std::vector<KernelCase> cases = {
        {1, 1, 1, 32, true, Clamp::kNone, false},
        {gemv ? 1 : ms - 1, ns - 1, 1, 32, false, Clamp::kQuantiles, false},
        {gemv ? 1 : ms, ns, 2, 32, true, Clamp::kNone, true},
        {gemv ? 2 : ms + 1, ns + 1, 3, 32, true, Clamp::kQuantiles, false},
        {gemv ? size_t{1} : size_t{13}, 33, 1, 64, true, Clamp::kNone, false},
        {gemv ? size_t{3} : size_t{23}, 13, 4, 64, false, Clamp::kRelu, true},
        {gemv ? 1 : 2 * ms + 3, 2 * ns + 1, 1, 128, true, Clamp::kQuantiles, false},
        {gemv ? size_t{1} : size_t{9}, 37, 3, 128, true, Clamp::kNone, false},
        {gemv ? size_t{1} : size_t{17}, 11, 1, 256, false, Clamp::kInverted, false},
        {gemv ? size_t{2} : size_t{5}, 19, 2, 256, true, Clamp::kMaxOnly, true},
        {gemv ? size_t{1} : size_t{37}, 53, 4, 32, true, Clamp::kRelu, false},
        {gemv ? size_t{1} : size_t{11}, 23, 32, 32, true, Clamp::kQuantiles, false},  // K = 1024
        {gemv ? size_t{1} : size_t{7}, 17, 5, 256, true, Clamp::kNone, false},       // K = 1280, bl = 256
        // Inverted bounds across two or more column blocks (the GEMVs' 2-block path) and a ragged one.
        {gemv ? size_t{1} : size_t{9}, 2 * ns + 3, 2, 64, true, Clamp::kInverted, true},
        // Several row tiles with an m_step - 1 row tail (the pre-unpacked RHS path's ragged tile).
        {gemv ? size_t{1} : 2 * ms - 1, 2 * ns + 1, 2, 32, true, Clamp::kQuantiles, false},
        // The 16x4 and 4x8 SDOT GEMMs' buffered path (m > 16): K = 1280 over two K ranges of 1024;
        // K = 1536 with bl = 512 over three, on two row ranges of 128 and an odd last LHS block.
        {gemv ? size_t{1} : size_t{33}, ns + 3, 40, 32, true, Clamp::kQuantiles, false},
        {gemv ? size_t{1} : size_t{137}, 2 * ns + 1, 3, 512, false, Clamp::kNone, true},
    };
    // K of real models and past 16384 (every path of the K loops) on M = 1 or mr + 1, N = nr + 1: 4096 = 128 x 32,
    // 11008 = 43 x 256, 16448 = 257 x 64; the reduced sweep keeps the deepest.
    const size_t mr = KAI_ABI(v.ukernel.get_mr)(), nr = KAI_ABI(v.ukernel.get_nr)();
    cases.push_back({gemv ? 1 : mr + 1, nr + 1, 257, 64, true, Clamp::kQuantiles, false});
    if (!kai_test::reduced_sweep()) {
        cases.push_back({gemv ? 1 : mr + 1, nr + 1, 128, 32, false, Clamp::kNone, true});
        cases.push_back({gemv ? 1 : mr + 1, nr + 1, 43, 256, true, Clamp::kInverted, false});
    }
    if (!kai_test::reduced_sweep()) {
        cases.push_back({gemv ? size_t{1} : size_t{257}, 113, 12, 32, true, Clamp::kNone, false});
        cases.push_back({gemv ? 1 : 3 * ms, 4 * ns + 3, 2, 64, false, Clamp::kQuantiles, true});
    }
    return cases;
}

// Expected output and the packed operands of one case.
struct Prepared {
    size_t m, n, k, bl;
    std::vector<float> lhs;  // m x k, row stride k + 3 floats
    RhsInput rhs;
    std::vector<float> expected;  // m x n, clamped
    float clamp_min = -FLT_MAX, clamp_max = FLT_MAX;
};

// Reference output of rows [m0, m0 + mh) x columns [n0, n0 + nw); kbl = kr / sr of the kernel's packing
// (the row sums' rounding schedule, docs/formats.md, "qsi4c32p RHS").
std::vector<float> reference(const Prepared& p, size_t m0, size_t mh, size_t n0, size_t nw, size_t mr, size_t kbl,
                             bool has_bias,
                             float clamp_min, float clamp_max) {
    std::vector<uint8_t> lp(kai_ref::qai8dxp_packed_size(mh, p.k, mr));
    kai_ref::pack_qai8dxp(mh, p.k, mr, kKr, kSr, 0, p.lhs.data() + m0 * (p.k + 3), (p.k + 3) * 4, lp.data());
    const auto lhs = kai_ref::unpack_qai8dxp(lp.data(), mh, p.k, mr, kKr, kSr);
    const auto w_all = weights(p.rhs);
    const size_t nb = p.k / p.bl;
    std::vector<int8_t> w(nw * p.k);
    std::vector<float> d(nw * nb), sums(nw), bias(nw);
    for (size_t j = 0; j < nw; ++j) {
        std::copy_n(w_all.data() + (n0 + j) * p.k, p.k, w.data() + j * p.k);
        for (size_t b = 0; b < nb; ++b) d[j * nb + b] = scale_value(p.rhs.scales, p.rhs.scale_stride, n0 + j, b);
        sums[j] = kai_ref::qsi4c32p_row_sum(w.data() + j * p.k, d.data() + j * nb, p.k, p.bl, kbl);
        bias[j] = p.rhs.bias[n0 + j];
    }
    return kai_ref::matmul_qai8dxp_qsi4c32(lhs, nw, p.k, p.bl, w.data(), d.data(), sums.data(),
                                           has_bias ? bias.data() : nullptr, clamp_min, clamp_max);
}

// The whole LHS and RHS of a case, each packed once with the kernel's mr / nr, kr and sr.
struct Packed {
    std::vector<uint8_t> lhs, rhs;
};

Packed pack_whole(const Qsi4c32pVariant& v, const Prepared& p, bool has_bias) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    Packed out;
    out.lhs.resize(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(p.m, p.k, mr, kr, sr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(p.m, p.k, mr, kr, sr, 0, p.lhs.data(), (p.k + 3) * 4, out.lhs.data());
    out.rhs.resize(rhs_packed_size(p.rhs.kxn, p.n, p.k, nr, kr, p.bl));
    pack_rhs(p.rhs, 0, p.n, nr, kr, has_bias, out.rhs.data());
    return out;
}

// Runs the kernel on rows [m0, m0 + mh) and columns [n0, n0 + nw) the way a caller tiles the
// work: the operands of the whole matrix (packed once) at get_lhs_packed_offset(m0, k) and
// get_rhs_packed_offset(n0, k, bl), the DST at get_dst_offset(m0, n0, stride) of a wider
// stride, and checks the bits and the sentinel. Each operand is a guarded copy of the whole
// packed buffer cut right after the tile's last packed byte, so a read past the tile's rows or
// columns faults as it would in an exactly sized buffer.
void run_tile(const Qsi4c32pVariant& v, const Prepared& p, const Packed& packed, size_t m0, size_t mh, size_t n0,
              size_t nw, const std::vector<float>& want) {
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    ASSERT_TRUE(kr == 16 || kr == 8) << kr;  // kbl = 8 or 4
    ASSERT_EQ(sr, kSr);
    const size_t lhs_end = KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(m0 + mh, p.k, mr, kr, sr);
    const size_t rhs_end = rhs_packed_size(p.rhs.kxn, n0 + nw, p.k, nr, kr, p.bl);
    ASSERT_LE(lhs_end, packed.lhs.size());
    ASSERT_LE(rhs_end, packed.rhs.size());
    GuardedBuffer lp(lhs_end), rp(rhs_end);
    std::memcpy(lp.data(), packed.lhs.data(), lhs_end);
    std::memcpy(rp.data(), packed.rhs.data(), rhs_end);
    const size_t stride = (p.n + 5) * sizeof(float);
    DstBuffer dst(p.m, p.n + 5, sizeof(float), stride);
    KAI_ABI(uk.run_matmul)(mh, nw, p.k, p.bl, lp.data() + KAI_ABI(uk.get_lhs_packed_offset)(m0, p.k),
                  rp.data() + KAI_ABI(uk.get_rhs_packed_offset)(n0, p.k, p.bl),
                  reinterpret_cast<float*>(dst.at(0, 0) + KAI_ABI(uk.get_dst_offset)(m0, n0, stride)), stride,
                  sizeof(float), p.clamp_min, p.clamp_max);
    for (size_t i = 0; i < mh; ++i)
        for (size_t j = 0; j < nw; ++j) {
            ASSERT_EQ(dst.bits(m0 + i, n0 + j), kai_ref::f32_bits(want[i * nw + j]))
                << "dst[" << m0 + i << "][" << n0 + j << "] = " << dst.value(m0 + i, n0 + j)
                << ", expected " << want[i * nw + j] << " (tile at " << m0 << "," << n0 << ")";
        }
    EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw));
}

// The internal limits' full-scale data: LHS row 0 constant 1.0 (every quantised value 127) and weight
// column 0 all nibbles 0 (w = -8): output (0, 0) has the widest block sums, 127 * -128 * bl (nxk only).
void make_full_scale(Prepared* p) {
    std::fill(p->lhs.begin(), p->lhs.begin() + static_cast<std::ptrdiff_t>(p->k), 1.0f);
    if (!p->rhs.kxn) std::fill(p->rhs.bytes.begin(), p->rhs.bytes.begin() + static_cast<std::ptrdiff_t>(p->k / 2), 0);
}

// One case of variant vi (the caller checked its features): the whole matrix, then sub-tiles.
void check_kernel(size_t vi, const KernelCase& c, bool full_scale) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[vi];
    const size_t k = c.blocks * c.bl;
    const uint64_t seed = kai_test::seed_from(std::string(v.name) + shape_name(c.m, c.n, k, c.bl));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    Prepared p{c.m, c.n, k, c.bl, make_lhs(c.m, k, k + 3, seed, true), make_rhs(c.n, k, c.bl, c.kxn, seed + 10, true),
               {}};
    if (full_scale) make_full_scale(&p);
    const size_t mr = KAI_ABI(v.ukernel.get_mr)(), kbl = KAI_ABI(v.ukernel.get_kr)() / KAI_ABI(v.ukernel.get_sr)();
    if (c.clamp != Clamp::kNone) {
        auto free = reference(p, 0, c.m, 0, c.n, mr, kbl, c.bias, -FLT_MAX, FLT_MAX);
        std::sort(free.begin(), free.end());
        const float lo = free[free.size() / 5], hi = free[free.size() * 4 / 5];
        p.clamp_min = c.clamp == Clamp::kInverted ? hi + 1.0f : lo;
        p.clamp_max = c.clamp == Clamp::kInverted ? lo : hi;
        if (c.clamp == Clamp::kRelu) {
            p.clamp_min = 0.0f;
            p.clamp_max = FLT_MAX;
        } else if (c.clamp == Clamp::kMaxOnly) {
            p.clamp_min = -FLT_MAX;
            p.clamp_max = free[free.size() * 3 / 5];
        }
    }
    const auto want = reference(p, 0, c.m, 0, c.n, mr, kbl, c.bias, p.clamp_min, p.clamp_max);
    const Packed packed = pack_whole(v, p, c.bias);
    {
        SCOPED_TRACE("whole matrix");
        run_tile(v, p, packed, 0, c.m, 0, c.n, want);
    }
    // Sub-tiles through the offset getters, on the operands packed once for the whole matrix: the
    // last tile in each direction (ragged) and an interior one.
    const size_t ms = KAI_ABI(v.ukernel.get_m_step)(), ns = KAI_ABI(v.ukernel.get_n_step)();
    const size_t m0s[] = {(c.m - 1) / ms * ms, c.m > ms ? ms : 0};
    const size_t n0s[] = {(c.n - 1) / ns * ns, c.n > 2 * ns ? ns : 0};
    for (size_t t = 0; t < 2; ++t) {
        const size_t m0 = m0s[t], n0 = n0s[t];
        const size_t mh = t == 0 ? c.m - m0 : std::min(ms, c.m - m0);
        const size_t nw = t == 0 ? c.n - n0 : std::min(2 * ns, c.n - n0);
        if (m0 == 0 && n0 == 0 && mh == c.m && nw == c.n) continue;
        SCOPED_TRACE("tile " + std::to_string(m0) + "," + std::to_string(n0));
        std::vector<float> sub(mh * nw);
        for (size_t i = 0; i < mh; ++i)
            for (size_t j = 0; j < nw; ++j) sub[i * nw + j] = want[(m0 + i) * c.n + n0 + j];
        run_tile(v, p, packed, m0, mh, n0, nw, sub);
    }
}

class KernelTest : public ::testing::TestWithParam<KernelParam> {};

TEST_P(KernelTest, BitExactAgainstSpecRecipe) {
    const auto& [vi, c] = GetParam();
    KAI_TEST_SKIP_UNLESS(kai_registry::qsi4c32p_variants()[vi].features);
    check_kernel(vi, c, false);
}

std::string kernel_param_name(const ::testing::TestParamInfo<KernelParam>& info) {
    const auto& [vi, c] = info.param;
    std::string name = kai_registry::qsi4c32p_variants()[vi].name + std::strlen("kai_matmul_clamp_f32_");
    name += "_" + shape_name(c.m, c.n, c.blocks * c.bl, c.bl);
    name += c.bias ? "_bias" : "_nobias";
    static const char* const clamp_names[] = {"", "_clamp", "_inverted", "_relu", "_maxonly"};
    name += clamp_names[static_cast<int>(c.clamp)];
    name += c.kxn ? "_kxn" : "";
    return name;
}

std::vector<KernelParam> all_kernel_params() {
    std::vector<KernelParam> out;
    const auto& vs = kai_registry::qsi4c32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi)
        for (const auto& c : kernel_cases(vs[vi])) out.emplace_back(vi, c);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Variants, KernelTest, ::testing::ValuesIn(all_kernel_params()), kernel_param_name);

// Each variant at its internal limits (test/common/limits.cc: the I8MM GEMMs' unpacked RHS, the GEMVs'
// duplicated LHS, the SDOT GEMMs' buffered path, long blocks up to bl = k = 4096 with full-scale data) at
// limit - 1, limit and limit + 1, in both sweeps: bias, no clamp, the whole matrix and sub-tiles.
using LimitParam = std::tuple<size_t /*variant*/, KernelCase, bool /*full scale*/>;

std::vector<LimitParam> limit_kernel_params() {
    std::vector<LimitParam> out;
    const auto& vs = kai_registry::qsi4c32p_variants();
    for (size_t vi = 0; vi < vs.size(); ++vi) {
        for (const kai_test::LimitCase& l : kai_test::limit_cases(vs[vi].name)) {
            out.emplace_back(vi, KernelCase{l.m, l.n, l.k / l.bl, l.bl, true, Clamp::kNone, false},
                             l.data == kai_test::LimitData::kFullScale);
        }
    }
    return out;
}

class KernelLimitTest : public ::testing::TestWithParam<LimitParam> {};

TEST_P(KernelLimitTest, BitExactAgainstSpecRecipe) {
    const auto& [vi, c, full] = GetParam();
    KAI_TEST_SKIP_UNLESS(kai_registry::qsi4c32p_variants()[vi].features);
    check_kernel(vi, c, full);
}

std::string limit_param_name(const ::testing::TestParamInfo<LimitParam>& info) {
    const KernelParam kp(std::get<0>(info.param), std::get<1>(info.param));
    return kernel_param_name(::testing::TestParamInfo<KernelParam>(kp, 0)) + (std::get<2>(info.param) ? "_full" : "");
}

INSTANTIATE_TEST_SUITE_P(Limits, KernelLimitTest, ::testing::ValuesIn(limit_kernel_params()), limit_param_name);

void check_error_bound(const Qsi4c32pVariant& v, const KernelCase& c) {
    // End to end against an f64 matmul of the f32 LHS and the dequantised weights w * d (bias
    // added, no clamp). The LHS quantiser rounds each x to (q + off) * ls with error <= ls / 2
    // (ls = 1 / scale = range / 255), so |y - y64| <= ls_i / 2 * sum_k |w d| plus the f32
    // roundings of the epilogue, bounded by a few ulps of sum_k |x w d| + |bias|.
    const size_t k = c.blocks * c.bl;
    const uint64_t seed = kai_test::seed_from(std::string("f64") + v.name + shape_name(c.m, c.n, k, c.bl));
    SCOPED_TRACE(kai_test::seed_trace(seed) + " " + shape_name(c.m, c.n, k, c.bl));
    const std::vector<float> lhs = make_lhs(c.m, k, k, seed, false);
    const RhsInput r = make_rhs(c.n, k, c.bl, false, seed + 10, false);
    const auto w = weights(r);
    std::vector<float> wd(k * c.n);  // K x N dequantised
    for (size_t j = 0; j < c.n; ++j)
        for (size_t kk = 0; kk < k; ++kk)
            wd[kk * c.n + j] = static_cast<float>(w[j * k + kk]) * scale_value(r.scales, r.scale_stride, j, kk / c.bl);
    std::vector<double> y64(c.m * c.n);
    kai_ref::matmul_f64(c.m, c.n, k, lhs.data(), k, wd.data(), c.n, y64.data());
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)();
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(c.m, k, mr, kr, kSr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(c.m, k, mr, kr, kSr, 0, lhs.data(), k * 4, lp.data());
    const auto unpacked = kai_ref::unpack_qai8dxp(lp.data(), c.m, k, mr, kr, kSr);
    std::vector<uint8_t> rp(rhs_packed_size(false, c.n, k, nr, kr, c.bl));
    pack_rhs(r, 0, c.n, nr, kr, true, rp.data());
    std::vector<float> got(c.m * c.n);
    KAI_ABI(uk.run_matmul)(c.m, c.n, k, c.bl, lp.data(), rp.data(), got.data(), c.n * 4, 4, -FLT_MAX, FLT_MAX);
    std::vector<double> expected(c.m * c.n);
    for (size_t i = 0; i < c.m; ++i)
        for (size_t j = 0; j < c.n; ++j) expected[i * c.n + j] = y64[i * c.n + j] + r.bias[j];
    auto bound = [&](size_t i, size_t j) {
        double abs_wd = 0.0, abs_xwd = 0.0;
        for (size_t kk = 0; kk < k; ++kk) {
            abs_wd += std::fabs(static_cast<double>(wd[kk * c.n + j]));
            abs_xwd += std::fabs(static_cast<double>(wd[kk * c.n + j]) * lhs[i * k + kk]);
        }
        const double ls = unpacked.scale[i];
        return 0.5 * ls * abs_wd * (1.0 + 1e-6) + 16.0 * FLT_EPSILON * (abs_xwd + std::fabs(r.bias[j]) + ls * abs_wd);
    };
    EXPECT_TRUE(kai_test::f32_within(got.data(), c.n * 4, expected.data(), c.n * 8, c.m, c.n, bound));
}

class KernelVariantTest : public ::testing::TestWithParam<size_t> {};

TEST_P(KernelVariantTest, ErrorBoundAgainstF64) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const bool gemv = KAI_ABI(v.ukernel.get_m_step)() == 1;
    for (const KernelCase& c : {KernelCase{gemv ? 1u : 19u, 21, 4, 32, true, Clamp::kNone, false},
                                KernelCase{gemv ? 2u : 9u, 13, 2, 128, true, Clamp::kNone, false},
                                KernelCase{gemv ? 1u : 5u, 7, 4, 256, true, Clamp::kNone, false}}) {
        check_error_bound(v, c);
    }
}

TEST_P(KernelVariantTest, GettersAndOffsetsMatchThePackers) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    const auto& uk = v.ukernel;
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)(), sr = KAI_ABI(uk.get_sr)();
    EXPECT_EQ(KAI_ABI(uk.get_m_step)() % mr, 0u);
    EXPECT_EQ(KAI_ABI(uk.get_n_step)() % nr, 0u);
    EXPECT_EQ(kr % sr, 0u);
    EXPECT_TRUE(kr == 16 || kr == 8) << kr;
    EXPECT_EQ(sr, 2u);
    for (size_t bl : {32u, 64u, 128u, 256u}) {
        for (size_t k : {bl, 3 * bl, 8 * bl}) {
            for (size_t i = 0; i < 4; ++i) {
                const size_t m_idx = i * KAI_ABI(uk.get_m_step)(), n_idx = i * KAI_ABI(uk.get_n_step)();
                EXPECT_EQ(KAI_ABI(uk.get_lhs_packed_offset)(m_idx, k),
                          KAI_ABI(kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32)(m_idx, k, mr, kr, sr));
                EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(n_idx, k, bl), rhs_packed_offset(false, n_idx, k, nr, kr, bl));
                EXPECT_EQ(KAI_ABI(uk.get_rhs_packed_offset)(n_idx, k, bl), rhs_packed_offset(true, n_idx, k, nr, kr, bl));
            }
        }
    }
    EXPECT_EQ(KAI_ABI(uk.get_dst_offset)(KAI_ABI(uk.get_m_step)(), KAI_ABI(uk.get_n_step)(), 100), KAI_ABI(uk.get_m_step)() * 100 + KAI_ABI(uk.get_n_step)() * 4);
    EXPECT_EQ(KAI_ABI(uk.get_dst_size)(3, 5), 60u);
}

TEST_P(KernelVariantTest, EmptyShapesWriteNothing) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    DstBuffer dst(1, 1, 4, 4);
    const uint8_t dummy[4] = {0, 0, 0, 0};
    KAI_ABI(v.ukernel.run_matmul)(0, 1, 32, 32, dummy, dummy, reinterpret_cast<float*>(dst.at(0, 0)), 4, 4, -1.0f, 1.0f);
    KAI_ABI(v.ukernel.run_matmul)(1, 0, 32, 32, dummy, dummy, reinterpret_cast<float*>(dst.at(0, 0)), 4, 4, -1.0f, 1.0f);
    EXPECT_TRUE(dst.untouched_outside(0, 0, 0, 0));
    // As the header says, an empty call returns at once: buffers may be NULL then.
    KAI_ABI(v.ukernel.run_matmul)(0, 0, 32, 32, nullptr, nullptr, nullptr, 4, 4, -1.0f, 1.0f);
    KAI_ABI(v.ukernel.run_matmul)(0, 5, 32, 32, nullptr, nullptr, nullptr, 20, 4, -1.0f, 1.0f);
}

TEST_P(KernelVariantTest, BadParametersAbortWithAMessage) {
    // bl, k and dst_stride_col are checked in every build; the messages name the parameter.
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const auto& uk = v.ukernel;
    float out[4];
    const uint8_t dummy[4] = {0, 0, 0, 0};
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 1, 96, 48, dummy, dummy, out, 4, 4, 0.0f, 1.0f), msg("bl must be a non-zero multiple of 32"));
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 1, 96, 64, dummy, dummy, out, 4, 4, 0.0f, 1.0f), msg("k must be a multiple of bl"));
    EXPECT_DEATH(KAI_ABI(uk.run_matmul)(1, 1, 64, 32, dummy, dummy, out, 4, 8, 0.0f, 1.0f), msg("dst_stride_col must be 4"));
    // The RHS offset getter takes bl too and checks it as the run does, in every build (it would
    // otherwise divide by bl = 0 or return an offset for a block length no packer accepts).
    EXPECT_DEATH((void)KAI_ABI(uk.get_rhs_packed_offset)(0, 96, 0), msg("bl must be a non-zero multiple of 32"));
    EXPECT_DEATH((void)KAI_ABI(uk.get_rhs_packed_offset)(0, 96, 48), msg("bl must be a non-zero multiple of 32"));
    EXPECT_DEATH((void)KAI_ABI(uk.get_rhs_packed_offset)(0, 96, 64), msg("k must be a multiple of bl"));
#ifndef NDEBUG
    EXPECT_DEATH(KAI_ABI(uk.get_rhs_packed_offset)(1, 64, 32), "n_idx must be a multiple of nr");
    EXPECT_DEATH(KAI_ABI(uk.get_dst_offset)(0, 1, 64), "n_idx must be a multiple of n_step");
    if (KAI_ABI(uk.get_mr)() > 1) {
        EXPECT_DEATH(KAI_ABI(uk.get_lhs_packed_offset)(1, 32), "m_idx must be a multiple of mr");
    }
#endif
}

std::string variant_name(const ::testing::TestParamInfo<size_t>& info) {
    return kai_registry::qsi4c32p_variants()[info.param].name + std::strlen("kai_matmul_clamp_f32_");
}

INSTANTIATE_TEST_SUITE_P(Variants, KernelVariantTest,
                         ::testing::Range<size_t>(0, kai_registry::qsi4c32p_variants().size()), variant_name);

TEST(RhsPackEdge, BadParametersAbortWithAMessage) {
    GTEST_FLAG_SET(death_test_style, "fast");
    const uint8_t rhs[64] = {};
    const uint16_t s[4] = {};
    uint8_t out[512];
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params ok{1, 8, kai_dt_bf16};
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params f32_scales{1, 8, kai_dt_f32};
    const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params f16_scales{1, 8, kai_dt_f16};
    // Checked in every build.
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, 1, 96, 4, 16, 2, 48, rhs, 48, nullptr, s, 4, out, 0, &ok),
                 msg("bl must be a non-zero multiple of 32"));
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, 1, 96, 4, 16, 2, 64, rhs, 48, nullptr, s, 4, out, 0, &ok),
                 msg("k must be a multiple of bl"));
    EXPECT_DEATH(
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, 1, 64, 4, 16, 2, 32, rhs, 32, nullptr, s, 4, out, 0, &f32_scales),
        msg("scale_dt must be kai_dt_bf16"));
    EXPECT_DEATH(
        KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(1, 1, 64, 4, 16, 2, 32, rhs, 1, nullptr, s, 4, out, 0, &f16_scales),
        msg("scale_dt must be kai_dt_bf16"));
    EXPECT_DEATH(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0(4, 64, 4, 16, 2, 32, kai_dt_f32),
                 msg("scale_dt must be kai_dt_bf16"));
    EXPECT_DEATH(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(64, 4, 16, 2, 40, kai_dt_bf16),
                 msg("bl must be a non-zero multiple of 32"));
#ifndef NDEBUG
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params signed_rhs{1, 0, kai_dt_bf16};
    EXPECT_DEATH(
        KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, 1, 64, 4, 16, 2, 32, rhs, 32, nullptr, s, 4, out, 0, &signed_rhs),
        "params->rhs_zero_point must be 8");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(2, 1, 64, 4, 16, 2, 32, rhs, 32, nullptr, s, 4, out, 0, &ok),
                 "num_groups must be 1");
    EXPECT_DEATH(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, 1, 64, 6, 16, 2, 32, rhs, 32, nullptr, s, 4, out, 0, &ok),
                 "nr must be a non-zero multiple of 4");
#endif
}

// ------------------------------------------------------------------------------------------
// Preconditions: one death test per distinct (function, message) of the family's checks that the
// tests above do not already cover (KernelVariantTest.BadParametersAbortWithAMessage,
// RhsPackEdge.BadParametersAbortWithAMessage), including the size and offset getters' overflow
// checks. Each case calls its function twice: once with valid arguments, which must return
// normally (so the baseline is valid), then in a death test with exactly one precondition
// violated, which must abort with "<file>:<line> <message>" printed by the source file that holds
// the check: the kernel's or packer's own .c, or kai_common.h for "size computation overflows
// size_t" (kai_mul_size_checked and friends). Debug builds only: with NDEBUG the KAI_ASSUME_MSG
// checks are compiled out and KAI_ERROR prints nothing. Checks that no argument can violate are
// absent: "m_idx must be a multiple of mr" / "... of m_step" when mr = m_step = 1 (the dotprod
// GEMVs). The LHS packer (kai_lhs_quant_pack_qai8dxp_f32) is shared with the qsi4cxp family and
// covered by qsi4cxp_test.
// ------------------------------------------------------------------------------------------

#ifndef NDEBUG
using kai_test::expect_preconditions;
using kai_test::PreconditionCase;
const std::string kKaiCommon = kai_test::kKaiCommonFile;
const std::string kOverflow = kai_test::kSizeOverflow;

class Qsi4c32pKernelPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

// The getters run no CPU-feature instruction (as in KernelVariantTest.GettersAndOffsetsMatchThePackers).
TEST_P(Qsi4c32pKernelPreconditionsDeathTest, Getters) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    const auto& uk = v.ukernel;
    const std::string stem = std::string(v.name).substr(std::strlen("kai_"));
    const std::string file = std::string(v.name) + ".c";
    const size_t mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), m_step = KAI_ABI(uk.get_m_step)(), n_step = KAI_ABI(uk.get_n_step)();
    const std::string lhs_fn = "kai_get_lhs_packed_offset_" + stem, rhs_fn = "kai_get_rhs_packed_offset_" + stem,
                      dst_fn = "kai_get_dst_offset_" + stem, size_fn = "kai_get_dst_size_" + stem;
    std::vector<PreconditionCase> cases;
    // "m_idx must be a multiple of mr", "n_idx must be a multiple of nr", "k must be a multiple of
    // bl" and "n_idx must be a multiple of n_step": KernelVariantTest.BadParametersAbortWithAMessage.
    cases.push_back({lhs_fn, kKaiCommon, kOverflow,
                     [&](bool bad) { (void)uk.get_lhs_packed_offset(mr, bad ? SIZE_MAX : 64); }});
    cases.push_back({rhs_fn, file, "bl must be a non-zero multiple of 32",
                     [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, 96, bad ? 48 : 32); }});
    // k = 2^64 - 32, a multiple of bl: (k / bl) * (bl / 2 + 2) does not fit.
    cases.push_back({rhs_fn, kKaiCommon, kOverflow,
                     [&](bool bad) { (void)uk.get_rhs_packed_offset(nr, bad ? SIZE_MAX - 31 : 96, 32); }});
    if (m_step > 1) {
        cases.push_back({dst_fn, file, "m_idx must be a multiple of m_step",
                         [&](bool bad) { (void)uk.get_dst_offset(bad ? m_step / 2 : m_step, n_step, 64); }});
    }
    // m_idx * dst_stride overflows when m_step > 1; with m_step = 1 the sum with n_idx * 4 does.
    cases.push_back({dst_fn, kKaiCommon, kOverflow,
                     [&](bool bad) { (void)uk.get_dst_offset(m_step, n_step, bad ? SIZE_MAX : 64); }});
    // m * n fits, m * n * 4 does not.
    cases.push_back({size_fn, kKaiCommon, kOverflow,
                     [&](bool bad) { (void)uk.get_dst_size(1, bad ? SIZE_MAX / 4 + 1 : 5); }});
    expect_preconditions(cases);
}

TEST_P(Qsi4c32pKernelPreconditionsDeathTest, Run) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const std::string run_fn = "kai_run_" + std::string(v.name).substr(std::strlen("kai_"));
    const std::string file = std::string(v.name) + ".c";
    // Two rows and two columns, so that a row stride below one output row can be tested.
    const size_t m = 2, n = 2, k = 64, bl = 32, mr = KAI_ABI(uk.get_mr)(), nr = KAI_ABI(uk.get_nr)(), kr = KAI_ABI(uk.get_kr)();
    const auto lhs = make_lhs(m, k, k, 61, false);
    std::vector<uint8_t> lhs_p(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, kSr));
    KAI_ABI(kai_run_lhs_quant_pack_qai8dxp_f32)(m, k, mr, kr, kSr, 0, lhs.data(), k * sizeof(float), lhs_p.data());
    const RhsInput r = make_rhs(n, k, bl, false, 62, false);
    std::vector<uint8_t> rhs_p(rhs_packed_size(false, n, k, nr, kr, bl));
    pack_rhs(r, 0, n, nr, kr, true, rhs_p.data());
    std::vector<float> dst(m * n);
    // run_matmul with one pointer replaced by NULL when the case is violated. The checks on bl, k
    // and dst_stride_col: KernelVariantTest.BadParametersAbortWithAMessage.
    auto run = [&](const void* l, const void* rp, float* d) {
        KAI_ABI(uk.run_matmul)(m, n, k, bl, l, rp, d, n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    };
    const std::vector<PreconditionCase> cases = {
        {run_fn, file, "lhs_packed must not be NULL",
         [&](bool bad) { run(bad ? nullptr : lhs_p.data(), rhs_p.data(), dst.data()); }},
        {run_fn, file, "rhs_packed must not be NULL",
         [&](bool bad) { run(lhs_p.data(), bad ? nullptr : rhs_p.data(), dst.data()); }},
        {run_fn, file, "dst must not be NULL",
         [&](bool bad) { run(lhs_p.data(), rhs_p.data(), bad ? nullptr : dst.data()); }},
        // One output row needs n * 4 bytes; a stride one element short would overlap the rows.
        {run_fn, file, "dst_stride_row must be at least n * dst_stride_col if m > 1",
         [&](bool bad) {
             KAI_ABI(uk.run_matmul)(m, n, k, bl, lhs_p.data(), rhs_p.data(), dst.data(),
                                    (bad ? n - 1 : n) * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
         }},
    };
    expect_preconditions(cases);
}

INSTANTIATE_TEST_SUITE_P(Variants, Qsi4c32pKernelPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::qsi4c32p_variants().size()), variant_name);

// The arguments of the RHS packers' shape check (kai_check_shape, called by the three size getters
// and the run). Valid: k = 192, nr = 4 (12 for the offset getter's n_idx, so that nr = 6 leaves
// it a multiple), kr = 16, sr = 2, bl = 64, bf16 scales. Each violation below breaks exactly one
// of the checks, in the order the source makes them.
struct Shape {
    size_t k, nr, kr, sr, bl;
    kai_datatype dt;
};

struct ShapeViolation {
    const char* message;
    void (*edit)(Shape&);
};

const ShapeViolation kShapeViolations[] = {
    {"bl must be a non-zero multiple of 32", [](Shape& s) { s.bl = 48; }},  // 192 % 48 == 0, 48 % 16 == 0
    {"k must be a multiple of bl", [](Shape& s) { s.k = 160; }},
    {"scale_dt must be kai_dt_bf16", [](Shape& s) { s.dt = kai_dt_f16; }},
    {"nr must be a non-zero multiple of 4", [](Shape& s) { s.nr = 6; }},
    {"kr must be a non-zero multiple of sr", [](Shape& s) { s.kr = 15; }},
    {"kr / sr must divide 16", [](Shape& s) { s.kr = 64; }},  // kr / sr = 32; bl % kr == 0
    {"bl must be a multiple of kr", [](Shape& s) {            // kr / sr = 16; 64 % 128 != 0
         s.kr = 128;
         s.sr = 8;
     }},
};

TEST(Qsi4c32pPreconditionsDeathTest, RhsPackers) {
    const size_t n = 5;
    const Shape ok_shape{192, 4, kKr, kSr, 64, kai_dt_bf16};
    const size_t nb = ok_shape.k / ok_shape.bl;
    // One buffer for both layouts: nxk n rows of k / 2 = 96 bytes, kxn k rows of ceil(n / 2) = 3.
    const auto bytes = kai_test::random_bytes(ok_shape.k * ((n + 1) / 2), 71);
    const auto scales = make_scales(n, nb, 2 * nb, 72, false);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 73);
    for (const bool kxn : {false, true}) {
        const std::string stem = kxn ? "rhs_pack_kxn_qsi4c32p_qsu4c32s1s0" : "rhs_pack_nxk_qsi4c32p_qsu4c32s1s0";
        SCOPED_TRACE(stem);
        const std::string file = "kai_" + stem + ".c";
        const std::string stride_fn = "kai_get_rhs_packed_stride_" + stem, offset_fn = "kai_get_rhs_packed_offset_" + stem,
                          size_fn = "kai_get_rhs_packed_size_" + stem, rhs_offset_fn = "kai_get_rhs_offset_" + stem,
                          run_fn = "kai_run_" + stem;
        auto stride = [&](const Shape& s) {
            return kxn ? KAI_ABI(kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(s.k, s.nr, s.kr, s.sr, s.bl, s.dt)
                       : KAI_ABI(kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(s.k, s.nr, s.kr, s.sr, s.bl, s.dt);
        };
        auto offset = [&](size_t n_idx, const Shape& s) {
            return kxn ? KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(n_idx, s.k, s.nr, s.kr, s.sr, s.bl, s.dt)
                       : KAI_ABI(kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(n_idx, s.k, s.nr, s.kr, s.sr, s.bl,
                                                                                     s.dt);
        };
        auto size = [&](size_t nn, const Shape& s) {
            return kxn ? KAI_ABI(kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(nn, s.k, s.nr, s.kr, s.sr, s.bl, s.dt)
                       : KAI_ABI(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(nn, s.k, s.nr, s.kr, s.sr, s.bl, s.dt);
        };
        auto shaped = [&](bool bad, void (*edit)(Shape&)) {
            Shape s = ok_shape;
            if (bad) edit(s);
            return s;
        };
        // Room for every violated shape too, should its check be missing.
        std::vector<uint8_t> out(4 * size(n, ok_shape));
        // The run with one argument replaced when the case is violated.
        struct Args {
            size_t num_groups;
            Shape shape;
            const uint8_t* rhs;
            size_t rhs_stride;
            const void* scale;
            size_t scale_stride;
            void* out;
            size_t extra_bytes;
            int8_t lhs_zero_point;
            uint8_t rhs_zero_point;
            bool null_params;
        };
        const Args ok{1,   ok_shape,    bytes.data(), kxn ? (n + 1) / 2 : ok_shape.k / 2, scales.data(), 2 * nb,
                      out.data(), 0, 1, 8, false};
        auto run = [&](const Args& a) {
            const Shape& s = a.shape;
            if (kxn) {
                const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{a.lhs_zero_point, a.rhs_zero_point, s.dt};
                KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(a.num_groups, n, s.k, s.nr, s.kr, s.sr, s.bl, a.rhs,
                                                          a.rhs_stride, bias.data(), a.scale, a.scale_stride, a.out,
                                                          a.extra_bytes, a.null_params ? nullptr : &p);
            } else {
                const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{a.lhs_zero_point, a.rhs_zero_point, s.dt};
                KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(a.num_groups, n, s.k, s.nr, s.kr, s.sr, s.bl, a.rhs,
                                                          a.rhs_stride, bias.data(), a.scale, a.scale_stride, a.out,
                                                          a.extra_bytes, a.null_params ? nullptr : &p);
            }
        };
        auto with = [&](bool bad, auto edit) {
            Args a = ok;
            if (bad) edit(a);
            run(a);
        };

        std::vector<PreconditionCase> cases;
        for (const ShapeViolation& sv : kShapeViolations) {
            const std::string message = sv.message;
            // Covered by RhsPackEdge.BadParametersAbortWithAMessage.
            const bool covered_stride = !kxn && message == "bl must be a non-zero multiple of 32";
            const bool covered_size = kxn && message == "scale_dt must be kai_dt_bf16";
            const bool covered_run = kxn ? message == "scale_dt must be kai_dt_bf16"
                                         : message == "bl must be a non-zero multiple of 32" ||
                                               message == "k must be a multiple of bl" ||
                                               message == "scale_dt must be kai_dt_bf16" ||
                                               message == "nr must be a non-zero multiple of 4";
            const auto edit = sv.edit;
            if (!covered_stride) {
                cases.push_back({stride_fn, file, message, [&, edit](bool bad) { (void)stride(shaped(bad, edit)); }});
            }
            cases.push_back({offset_fn, file, message, [&, edit](bool bad) { (void)offset(12, shaped(bad, edit)); }});
            if (!covered_size) {
                cases.push_back({size_fn, file, message, [&, edit](bool bad) { (void)size(n, shaped(bad, edit)); }});
            }
            if (!covered_run) {
                cases.push_back({run_fn, file, message, [&, edit](bool bad) {
                                     with(bad, [edit](Args& a) { edit(a.shape); });
                                 }});
            }
        }
        cases.push_back({offset_fn, file, "n_idx must be a multiple of nr",
                         [&](bool bad) { (void)offset(bad ? 14 : 12, ok_shape); }});
        // Absurd shapes: abort rather than return a wrapped size. k = 2^64 - 64 is a multiple of bl.
        cases.push_back({stride_fn, kKaiCommon, kOverflow, [&](bool bad) {
                             Shape s = ok_shape;
                             if (bad) s.k = SIZE_MAX - 63;
                             (void)stride(s);
                         }});
        cases.push_back({offset_fn, kKaiCommon, kOverflow,
                         [&](bool bad) { (void)offset(bad ? SIZE_MAX / 4 * 4 : 12, ok_shape); }});
        // ceil(SIZE_MAX / nr) must not wrap to 0 (as (n + nr - 1) / nr would).
        cases.push_back({size_fn, kKaiCommon, kOverflow, [&](bool bad) { (void)size(bad ? SIZE_MAX : n, ok_shape); }});
        if (kxn) {
            cases.push_back({rhs_offset_fn, file, "n_idx must be even", [&](bool bad) {
                                 (void)KAI_ABI(kai_get_rhs_offset_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(bad ? 3 : 4, 3);
                             }});
        } else {
            cases.push_back({rhs_offset_fn, kKaiCommon, kOverflow, [&](bool bad) {
                                 (void)KAI_ABI(kai_get_rhs_offset_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(bad ? SIZE_MAX / 2 : 3, 96);
                             }});
        }
        // Run: "num_groups must be 1" and "params->rhs_zero_point must be 8" of nxk are covered by
        // RhsPackEdge.BadParametersAbortWithAMessage.
        if (kxn) {
            cases.push_back({run_fn, file, "num_groups must be 1", [&](bool bad) {
                                 with(bad, [](Args& a) { a.num_groups = 2; });
                             }});
            cases.push_back({run_fn, file, "params->rhs_zero_point must be 8", [&](bool bad) {
                                 with(bad, [](Args& a) { a.rhs_zero_point = 0; });
                             }});
            cases.push_back({run_fn, file, "rhs_stride must be at least ceil(n / 2)", [&](bool bad) {
                                 with(bad, [](Args& a) { a.rhs_stride -= 1; });
                             }});
            // n = SIZE_MAX: ceil(n / 2) must not wrap to 0 (as (n + 1) / 2 did), which let any stride pass.
            cases.push_back({run_fn + " (n = SIZE_MAX)", file, "rhs_stride must be at least ceil(n / 2)", [&](bool bad) {
                                 const Shape& sh = ok_shape;
                                 const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params prm{1, 8, sh.dt};
                                 KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(
                                     1, bad ? SIZE_MAX : n, sh.k, sh.nr, sh.kr, sh.sr, sh.bl, bytes.data(),
                                     bad ? size_t{1} : (n + 1) / 2, bias.data(), scales.data(), 2 * nb, out.data(), 0,
                                     &prm);
                             }});
        } else {
            cases.push_back({run_fn, file, "rhs_stride must be at least k / 2", [&](bool bad) {
                                 with(bad, [](Args& a) { a.rhs_stride -= 1; });
                             }});
        }
        cases.push_back({run_fn, file, "params must not be NULL", [&](bool bad) {
                             with(bad, [](Args& a) { a.null_params = true; });
                         }});
        cases.push_back({run_fn, file, "extra_bytes must be 0", [&](bool bad) {
                             with(bad, [](Args& a) { a.extra_bytes = 4; });
                         }});
        cases.push_back({run_fn, file, "rhs must not be NULL", [&](bool bad) {
                             with(bad, [](Args& a) { a.rhs = nullptr; });
                         }});
        cases.push_back({run_fn, file, "scale must not be NULL", [&](bool bad) {
                             with(bad, [](Args& a) { a.scale = nullptr; });
                         }});
        cases.push_back({run_fn, file, "rhs_packed must not be NULL", [&](bool bad) {
                             with(bad, [](Args& a) { a.out = nullptr; });
                         }});
        cases.push_back({run_fn, file, "params->lhs_zero_point must be 1", [&](bool bad) {
                             with(bad, [](Args& a) { a.lhs_zero_point = 0; });
                         }});
        cases.push_back({run_fn, file, "scale_stride must be at least 2 * (k / bl)", [&](bool bad) {
                             with(bad, [](Args& a) { a.scale_stride -= 1; });
                         }});
        expect_preconditions(cases);
    }
}
#endif  // NDEBUG

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors.
// ------------------------------------------------------------------------------------------

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, MatchesKleidiAI) {
    const auto vec = kai_test::load_compat_vector(GetParam());
    ASSERT_FALSE(vec.header.empty());
    const std::string& name = vec.str("name");
    const size_t n = vec.size("n"), k = vec.size("k"), bl = vec.size("bl");
    if (vec.str("kind") == "rhs_packer") {
        const size_t nr = vec.size("nr"), kr = vec.size("kr"), sr = vec.size("sr");
        const bool kxn = name.find("_kxn_") != std::string::npos;
        const auto& want = vec.section("rhs_packed");
        ASSERT_EQ(rhs_packed_size(kxn, n, k, nr, kr, bl), want.bytes.size());
        GuardedBuffer got(want.bytes.size());
        const float* bias = vec.has_section("bias") ? vec.section("bias").f32() : nullptr;
        const void* scale = vec.section("scale").bytes.data();
        const auto* rhs = vec.section("rhs").bytes.data();
        if (kxn) {
            const kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
            KAI_ABI(kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0)(1, n, k, nr, kr, sr, bl, rhs, vec.size("rhs_stride"), bias, scale,
                                                      vec.size("scale_stride"), got.data(), 0, &p);
        } else {
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params p{1, 8, kai_dt_bf16};
            KAI_ABI(kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0)(1, n, k, nr, kr, sr, bl, rhs, vec.size("rhs_stride"), bias, scale,
                                                      vec.size("scale_stride"), got.data(), 0, &p);
        }
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
        return;
    }
    const Qsi4c32pVariant* v = nullptr;
    for (const auto& cand : kai_registry::qsi4c32p_variants())
        if (name == cand.name) v = &cand;
    ASSERT_NE(v, nullptr) << name << " is not in the registry";
    KAI_TEST_SKIP_UNLESS(v->features);
    const auto& uk = v->ukernel;
    EXPECT_EQ(KAI_ABI(uk.get_m_step)(), vec.size("m_step"));
    EXPECT_EQ(KAI_ABI(uk.get_n_step)(), vec.size("n_step"));
    EXPECT_EQ(KAI_ABI(uk.get_mr)(), vec.size("mr"));
    EXPECT_EQ(KAI_ABI(uk.get_nr)(), vec.size("nr"));
    EXPECT_EQ(KAI_ABI(uk.get_kr)(), vec.size("kr"));
    EXPECT_EQ(KAI_ABI(uk.get_sr)(), vec.size("sr"));
    const size_t m = vec.size("m");
    const auto& lhs = vec.section("lhs_packed");
    const auto& rhs = vec.section("rhs_packed");
    GuardedBuffer lp(lhs.bytes.size()), rp(rhs.bytes.size());
    std::memcpy(lp.data(), lhs.bytes.data(), lhs.bytes.size());
    std::memcpy(rp.data(), rhs.bytes.data(), rhs.bytes.size());
    const size_t stride = (n + 2) * 4;
    DstBuffer dst(m, n + 2, 4, stride);
    KAI_ABI(uk.run_matmul)(m, n, k, bl, lp.data(), rp.data(), reinterpret_cast<float*>(dst.at(0, 0)), stride, 4,
                  vec.clamp_min(), vec.clamp_max());
    const float* want = vec.section("dst").f32();
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j)
            ASSERT_EQ(dst.bits(i, j), kai_ref::f32_bits(want[i * n + j])) << "dst[" << i << "][" << j << "]";
    EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
}

std::vector<std::string> compat_files() {
    std::vector<std::string> out;
    for (const char* prefix : {"kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0",
                               "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p", "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p",
                               "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p", "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p"}) {
        for (const auto& f : kai_test::list_compat_vectors(prefix)) out.push_back(f);
    }
    return out;
}

std::string compat_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string s = info.param.substr(info.param.find_last_of('/') + 1);
    s = s.substr(0, s.size() - 4);
    for (auto& ch : s)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()), compat_name);

TEST(CompatFiles, AllSeventyEightArePresent) {
    EXPECT_EQ(compat_files().size(), 78u);
}

// Sizes and offsets that do not fit in size_t abort in every build (release builds without a
// message) instead of wrapping to a small value that a caller would allocate.
TEST(Qsi4c32pSizeDeathTest, SizesThatOverflowAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string overflow = kai_test::size_overflow_regex();
    const size_t bl = 32, huge_k = SIZE_MAX - 31;  // a multiple of bl: passes the always-on k % bl check
    EXPECT_DEATH((void)KAI_ABI(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32)(1, SIZE_MAX, 4, kKr, kSr), overflow);
    for (bool kxn : {false, true}) {
        SCOPED_TRACE(kxn ? "kxn" : "nxk");
        const auto size = kxn ? kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0
                              : kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0;
        EXPECT_DEATH((void)size(1, huge_k, 4, kKr, kSr, bl, kai_dt_bf16), overflow);
        EXPECT_DEATH((void)size(SIZE_MAX, 32, 4, kKr, kSr, bl, kai_dt_bf16), overflow);
    }
    for (const Qsi4c32pVariant& v : kai_registry::qsi4c32p_variants()) {
        SCOPED_TRACE(v.name);
        const auto& uk = v.ukernel;
        EXPECT_DEATH((void)uk.get_lhs_packed_offset(2 * KAI_ABI(uk.get_m_step)(), huge_k), overflow);  // 2 blocks of ~huge_k
        EXPECT_DEATH((void)uk.get_rhs_packed_offset(KAI_ABI(uk.get_nr)(), huge_k, bl), overflow);
        EXPECT_DEATH((void)uk.get_dst_offset(KAI_ABI(uk.get_m_step)(), KAI_ABI(uk.get_n_step)(), SIZE_MAX), overflow);
        EXPECT_DEATH((void)uk.get_dst_size(SIZE_MAX, 5), overflow);
    }
}

}  // namespace
