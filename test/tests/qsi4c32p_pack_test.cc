// SPDX-License-Identifier: Apache-2.0
// Tests of the NEON block-wise int4 RHS packers of KleidiAI's names (docs/formats.md, "qsi4c32p RHS" and "qsi4c32ps1s0nrx4 RHS"):
// kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon and ..._nrx8_... (the qsi4c32p layout, row sums
// rounded once per 32-value chunk), kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon and
// kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon (the s1s0 layout of KleidiAI's SME2 kernels):
// byte-exact against test/reference over shapes, block lengths, nr and kr / sr, inputs and outputs
// at guard pages, column chunks, the NEON kernels of the tree that read the nrx4 / nrx8 buffers
// (bit-exact), the KleidiAI v1.30.0 compat vectors and every precondition.

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "kai/kai_common.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.h"
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

namespace {

using kai_test::GuardedBuffer;

const char* msg(const char* text) {
#ifdef NDEBUG
    (void)text;
    return "";
#else
    return text;
#endif
}

// One packer: its getters and a run wrapper that builds the params struct.
struct Packer {
    const char* name;  // kai_rhs_pack_...
    size_t kbl;        // the kr / sr it accepts
    bool kxn;
    bool s1s0;  // the SME layout (else the qsi4c32p layout with chunk-rounded sums)
    size_t (*n_step)(size_t);
    size_t (*rhs_offset)(size_t, size_t);
    size_t (*stride)(size_t, size_t, size_t, size_t, size_t, kai_datatype);
    size_t (*offset)(size_t, size_t, size_t, size_t, size_t, size_t, kai_datatype);
    size_t (*size)(size_t, size_t, size_t, size_t, size_t, size_t, kai_datatype);
    void (*run)(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
                size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* out, size_t extra,
                const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params* params);
};

// The kxn packer takes the kxn params struct (same fields).
void run_kxn(size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
             size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* out, size_t extra,
             const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params* params) {
    kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params p{};
    if (params != nullptr) p = {params->lhs_zero_point, params->rhs_zero_point, params->scale_dt};
    kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(num_groups, n, k, nr, kr, sr, bl, rhs, rhs_stride, bias,
                                                          scale, scale_stride, out, extra,
                                                          params != nullptr ? &p : nullptr);
}

#define KAI_PACKER(stem, kbl, kxn, s1s0, run)                                                             \
    Packer {                                                                                              \
        "kai_" #stem, kbl, kxn, s1s0, kai_get_n_step_##stem, kai_get_rhs_offset_##stem,                   \
            kai_get_rhs_packed_stride_##stem, kai_get_rhs_packed_offset_##stem, kai_get_rhs_packed_size_##stem, run \
    }

const std::vector<Packer>& packers() {
    static const std::vector<Packer> p = {
        KAI_PACKER(rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon, 4, false, false,
                   kai_run_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon),
        KAI_PACKER(rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon, 8, false, false,
                   kai_run_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon),
        KAI_PACKER(rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon, 4, false, true,
                   kai_run_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon),
        KAI_PACKER(rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon, 4, true, true, run_kxn),
    };
    return p;
}

const Packer& packer_named(const std::string& name) {
    for (const auto& p : packers())
        if (name == p.name) return p;
    ADD_FAILURE() << "no packer " << name;
    return packers()[0];
}

// An input: nxk n rows or kxn k rows of rhs_stride bytes (random nibbles), bf16 block scales,
// bias. The rhs and scale bytes are copied into guarded buffers of exactly the bytes the packers
// may read (the last row ends at a guard page), so a read past them faults.
struct Input {
    size_t n, k, bl, rhs_stride, scale_stride;
    bool kxn;
    std::vector<uint8_t> rhs, scales;
    std::vector<float> bias;
    size_t rhs_bytes() const {
        return kxn ? (k - 1) * rhs_stride + (n + 1) / 2 : (n - 1) * rhs_stride + k / 2;
    }
    size_t scale_bytes() const { return (n - 1) * scale_stride + 2 * (k / bl); }
};

Input make_input(size_t n, size_t k, size_t bl, bool kxn, size_t extra_stride, uint64_t seed) {
    Input in{n, k, bl, 0, 2 * (k / bl) + 2 * (extra_stride % 3), kxn, {}, {}, {}};
    in.rhs_stride = (kxn ? (n + 1) / 2 : k / 2) + extra_stride;
    in.rhs = kai_test::random_bytes((kxn ? k : n) * in.rhs_stride, seed);
    kai_test::Rng rng(seed + 1);
    in.scales.assign(n * in.scale_stride, 0xEE);
    for (size_t j = 0; j < n; ++j)
        for (size_t b = 0; b < k / bl; ++b) {
            // Magnitudes over 2^-20 .. 2^20: the row sums then round, and the schedule shows.
            const float v = std::ldexp(rng.uniform(1.0f, 2.0f), static_cast<int>(rng.integer(-20, 20))) *
                            (rng.integer(0, 1) ? 1.0f : -1.0f);
            const uint16_t raw = kai_ref::bf16_from_f32(v);
            std::memcpy(in.scales.data() + j * in.scale_stride + 2 * b, &raw, 2);
        }
    in.bias = kai_test::random_f32(n, -1.0f, 1.0f, seed + 2);
    return in;
}

std::vector<uint8_t> ref_pack(const Packer& p, const Input& in, size_t nr, bool has_bias) {
    const float* bias = has_bias ? in.bias.data() : nullptr;
    if (!p.s1s0)
        return kai_ref::pack_qsi4c32p_nxk_chunk_sums(in.n, in.k, nr, p.kbl, in.bl, in.rhs.data(), in.rhs_stride, bias,
                                                     in.scales.data(), in.scale_stride);
    return p.kxn ? kai_ref::pack_qsi4c32ps1s0_kxn(in.n, in.k, nr, in.bl, in.rhs.data(), in.rhs_stride, bias,
                                                  in.scales.data(), in.scale_stride)
                 : kai_ref::pack_qsi4c32ps1s0_nxk(in.n, in.k, nr, in.bl, in.rhs.data(), in.rhs_stride, bias,
                                                  in.scales.data(), in.scale_stride);
}

// Runs the packer on channels [n0, n0 + count) of `in` from guarded copies of its inputs.
void run_pack(const Packer& p, const Input& in, size_t n0, size_t count, size_t nr, size_t kr, size_t sr,
              bool has_bias, void* out) {
    GuardedBuffer rhs(in.rhs_bytes()), scales(in.scale_bytes());
    std::memcpy(rhs.data(), in.rhs.data(), in.rhs_bytes());
    std::memcpy(scales.data(), in.scales.data(), in.scale_bytes());
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params{1, 8, kai_dt_bf16};
    const uint8_t* r = rhs.data() + p.rhs_offset(n0, in.rhs_stride);
    p.run(1, count, in.k, nr, kr, sr, in.bl, r, in.rhs_stride, has_bias ? in.bias.data() + n0 : nullptr,
          scales.data() + n0 * in.scale_stride, in.scale_stride, out, 0, &params);
}

// ------------------------------------------------------------------------------------------
// Byte-exact against the reference.
// ------------------------------------------------------------------------------------------

// (packer, n, blocks, bl, nr, kr, sr, bias, extra input stride)
using Param = std::tuple<size_t, size_t, size_t, size_t, size_t, size_t, size_t, bool, size_t>;

class PackTest : public ::testing::TestWithParam<Param> {};

TEST_P(PackTest, ByteExactAgainstReference) {
    const auto [pi, n, blocks, bl, nr, kr, sr, has_bias, extra] = GetParam();
    const Packer& p = packers()[pi];
    const size_t k = blocks * bl;
    const uint64_t seed = kai_test::seed_from(std::string(p.name) + std::to_string(n) + "x" + std::to_string(k) +
                                              "bl" + std::to_string(bl) + "nr" + std::to_string(nr));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Input in = make_input(n, k, bl, p.kxn, extra, seed);
    const size_t size = p.size(n, k, nr, kr, sr, bl, kai_dt_bf16);
    ASSERT_EQ(size, kai_ref::qsi4c32p_packed_size(n, k, nr, bl));
    GuardedBuffer got(size);  // ends at a guard page: nothing past the packed size is written
    run_pack(p, in, 0, n, nr, kr, sr, has_bias, got.data());
    EXPECT_TRUE(got.front_intact());
    const auto want = ref_pack(p, in, nr, has_bias);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
}

TEST_P(PackTest, ColumnChunksMatchWholeMatrix) {
    const auto [pi, n_param, blocks, bl, nr, kr, sr, has_bias, extra] = GetParam();
    const Packer& p = packers()[pi];
    const size_t n = n_param + nr, k = blocks * bl;
    const uint64_t seed = kai_test::seed_from(std::string(p.name) + "chunks" + std::to_string(n));
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const Input in = make_input(n, k, bl, p.kxn, extra, seed);
    const size_t size = p.size(n, k, nr, kr, sr, bl, kai_dt_bf16);
    std::vector<uint8_t> whole(size, 0), split(size, 0);
    run_pack(p, in, 0, n, nr, kr, sr, has_bias, whole.data());
    const size_t n0 = nr * (n / nr / 2);
    if (n0 > 0) run_pack(p, in, 0, n0, nr, kr, sr, has_bias, split.data());
    // A chunk call only sees its own columns: for kxn its padded lanes of the last block read the
    // same bytes as in the whole call because the chunk ends where the matrix does.
    run_pack(p, in, n0, n - n0, nr, kr, sr, has_bias, split.data() + p.offset(n0, k, nr, kr, sr, bl, kai_dt_bf16));
    EXPECT_TRUE(kai_test::bytes_equal(split.data(), whole.data(), size));
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
    const auto [pi, n, blocks, bl, nr, kr, sr, bias, extra] = info.param;
    std::string s = packers()[pi].name + std::strlen("kai_rhs_pack_");
    s = s.substr(0, s.find("_qsu4"));
    return s + "_n" + std::to_string(n) + "_k" + std::to_string(blocks * bl) + "_bl" + std::to_string(bl) + "_nr" +
           std::to_string(nr) + "_kr" + std::to_string(kr) + "_sr" + std::to_string(sr) + (bias ? "_bias" : "") +
           (extra ? "_wide" : "");
}

std::vector<Param> params() {
    std::vector<Param> out;
    for (size_t pi = 0; pi < packers().size(); ++pi) {
        const Packer& p = packers()[pi];
        const size_t kbl = p.kbl;
        // The (kr, sr) pairs with kr / sr = kbl that consumers use (kr 8 / 16 with sr 2) or allow (sr 1).
        const size_t kr2 = 2 * kbl;
        // nr: the NEON kernels' 4 and 8, 12 (any multiple of 4), the SME kernels' 16 and 32.
        const std::vector<size_t> nrs = p.s1s0 ? std::vector<size_t>{16, 32, 4, 8, 12} : std::vector<size_t>{4, 8, 12, 16};
        struct S { size_t n, blocks, bl; };
        std::vector<S> shapes = {{1, 1, 32}, {3, 2, 32}, {5, 2, 32}, {13, 3, 32}, {17, 2, 64}, {33, 1, 64},
                                 {7, 1, 128}, {9, 3, 96}, {16, 2, 256}, {31, 4, 32}, {53, 8, 32}, {37, 2, 128}};
        if (!kai_test::reduced_sweep()) {
            shapes.push_back({67, 32, 32});   // K = 1024
            shapes.push_back({19, 11, 128});  // K = 1408
            shapes.push_back({5, 43, 256});   // K = 11008
        }
        size_t i = 0;
        for (const S& s : shapes) {
            const size_t nr = nrs[i % nrs.size()];
            const bool sr1 = i % 5 == 3;
            if (s.bl % (sr1 ? kbl : kr2) != 0) continue;
            out.push_back(Param{pi, s.n, s.blocks, s.bl, nr, sr1 ? kbl : kr2, sr1 ? 1 : 2, i % 2 == 0, i % 3});
            ++i;
        }
        // Every nr with the consumers' (kr, sr), one ragged shape each.
        for (size_t nr : nrs) out.push_back(Param{pi, nr + 3, 3, 32, nr, kr2, 2, true, 1});
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Packers, PackTest, ::testing::ValuesIn(params()), param_name);

// ------------------------------------------------------------------------------------------
// Row-sum schedule (docs/formats.md, "qsi4c32p RHS" and "qsi4c32ps1s0nrx4 RHS"): the difference from the portable packer is real.
// ------------------------------------------------------------------------------------------

TEST(PackEdge, RowSumsAreRoundedPerChunkOrPerFourRows) {
    // One channel, K = 64, bl = 32. Block 0: scale 1, weight +1 at k = 0. Block 1: scale 2^-24,
    // weight +1 at k = 32 and at k = 40. Per 32-chunk (nrx4 / nrx8 / nxk ps1s0nrx4): 1 + 2 * 2^-24 =
    // 1 + 2^-23, exact. Per kbl group (the portable packer) or per 4 K rows (kxn ps1s0nrx4): two
    // roundings of 1 + 2^-24 to 1.0 (ties to even).
    const size_t k = 64, bl = 32;
    std::vector<uint8_t> nxk(k / 2, 0x88);
    nxk[0] = nxk[16] = nxk[20] = 0x89;
    std::vector<uint8_t> kxn(k, 0x88);  // n = 1: one byte per K row, low nibble
    kxn[0] = kxn[32] = kxn[40] = 0x89;
    const uint16_t scales[2] = {0x3F80, 0x3380};
    const float chunk = 1.0f + std::ldexp(1.0f, -23);
    for (const Packer& p : packers()) {
        SCOPED_TRACE(p.name);
        const size_t nr = p.s1s0 ? 16 : 4, kr = 2 * p.kbl;
        std::vector<uint8_t> out(p.size(1, k, nr, kr, 2, bl, kai_dt_bf16));
        const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params prm{1, 8, kai_dt_bf16};
        p.run(1, 1, k, nr, kr, 2, bl, p.kxn ? kxn.data() : nxk.data(), p.kxn ? 1 : k / 2, nullptr, scales, 4,
              out.data(), 0, &prm);
        float sum;
        std::memcpy(&sum, out.data() + 2 * nr * (bl / 2 + 2), 4);
        EXPECT_EQ(kai_ref::f32_bits(sum), kai_ref::f32_bits(p.kxn ? 1.0f : chunk));
    }
    // The portable packer of the same layout rounds per group of 2 * kbl values: 1.0.
    std::vector<uint8_t> out(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, k, 4, 8, 2, bl, kai_dt_bf16));
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params prm{1, 8, kai_dt_bf16};
    kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, 1, k, 4, 8, 2, bl, nxk.data(), k / 2, nullptr, scales, 4, out.data(), 0,
                                              &prm);
    float sum;
    std::memcpy(&sum, out.data() + 2 * 4 * (bl / 2 + 2), 4);
    EXPECT_EQ(kai_ref::f32_bits(sum), kai_ref::f32_bits(1.0f));
}

TEST(PackEdge, KxnS1s0Nrx4WithNrBelow16StaysInsideItsBuffers) {
    // KleidiAI v1.30.0's kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon, at N = 40, K = 256, nr = 4, writes
    // about 14.7 KB past its own packed size and reads past the last row of the RHS (
    // docs/integration.md "Where kai is safer than KleidiAI"). kai's: the output ends at a guard page, and so do
    // the RHS rows and the scales; the bytes are the reference's. Also nr = 8 and 12, and bl 64.
    const Packer& p = packer_named("kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon");
    for (const auto& [nr, bl] : {std::pair<size_t, size_t>{4, 32}, {8, 32}, {12, 64}, {4, 64}}) {
        SCOPED_TRACE("nr " + std::to_string(nr) + " bl " + std::to_string(bl));
        const size_t n = 40, k = 256;
        const Input in = make_input(n, k, bl, true, 0, 31 + nr);
        const size_t size = p.size(n, k, nr, 2 * p.kbl, 2, bl, kai_dt_bf16);
        ASSERT_EQ(size, kai_ref::qsi4c32p_packed_size(n, k, nr, bl));
        GuardedBuffer got(size);  // a write past `size` faults; run_pack guards the RHS rows and scales
        run_pack(p, in, 0, n, nr, 2 * p.kbl, 2, true, got.data());
        EXPECT_TRUE(got.front_intact());
        const auto want = ref_pack(p, in, nr, true);
        EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.data(), size));
    }
}

TEST(PackEdge, GettersMatchTheLayout) {
    for (const Packer& p : packers()) {
        SCOPED_TRACE(p.name);
        const size_t kr = 2 * p.kbl;
        EXPECT_EQ(p.n_step(16), 16u);
        EXPECT_EQ(p.stride(64, 4, kr, 2, 32, kai_dt_bf16), 176u);  // docs/formats.md, "qsi4c32p RHS"
        EXPECT_EQ(p.offset(8, 128, 4, kr, 2, 64, kai_dt_bf16), 2 * 304u);
        EXPECT_EQ(p.size(5, 64, 4, kr, 2, 32, kai_dt_bf16), 352u);
        EXPECT_EQ(p.size(17, 256, 16, kr, 2, 32, kai_dt_bf16), 2 * 16 * (8 * 18 + 8u));
        EXPECT_EQ(p.rhs_offset(6, 36), p.kxn ? 3u : 216u);
    }
}

// ------------------------------------------------------------------------------------------
// The NEON kernels of the tree read the nrx4 / nrx8 buffers (docs/formats.md, "Shared packed buffers"): every registry variant
// with kr / sr = 4 or 8 is run on the matching packer's output, bit-exact against the docs/formats.md, "qsi4c32p matmul"
// recipe with the row sums of that packer's schedule.
// ------------------------------------------------------------------------------------------

using kai_registry::Qsi4c32pVariant;

class ConsumerTest : public ::testing::TestWithParam<size_t> {};

TEST_P(ConsumerTest, KernelReadsTheBuffer) {
    const Qsi4c32pVariant& v = kai_registry::qsi4c32p_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    const auto& uk = v.ukernel;
    const size_t mr = uk.get_mr(), nr = uk.get_nr(), kr = uk.get_kr(), sr = uk.get_sr();
    const Packer& p = packer_named(kr / sr == 4 ? "kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon"
                                                : "kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon");
    struct Shape { size_t m, n, blocks, bl; bool bias; };
    const size_t ms = uk.get_m_step() == 1 ? 1 : uk.get_m_step() + 3;
    for (const Shape s : {Shape{ms, 2 * uk.get_n_step() + 1, 8, 32, true}, Shape{1, 5, 2, 64, false},
                          Shape{ms, 37, 2, 128, true}}) {
        const size_t k = s.blocks * s.bl;
        const uint64_t seed = kai_test::seed_from(std::string(v.name) + std::to_string(s.n) + "x" + std::to_string(k));
        SCOPED_TRACE(kai_test::seed_trace(seed));
        const Input in = make_input(s.n, k, s.bl, false, 0, seed);
        const auto lhs = kai_test::random_f32(s.m * k, -2.0f, 2.0f, seed + 5);
        std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(s.m, k, mr, kr, sr));
        kai_run_lhs_quant_pack_qai8dxp_f32(s.m, k, mr, kr, sr, 0, lhs.data(), k * 4, lp.data());
        GuardedBuffer rp(p.size(s.n, k, nr, kr, sr, s.bl, kai_dt_bf16));
        run_pack(p, in, 0, s.n, nr, kr, sr, s.bias, rp.data());
        // Expected: the reference recipe with the weights, scales and the chunk-rounded row sums.
        const size_t nb = k / s.bl;
        std::vector<int8_t> w(s.n * k);
        std::vector<float> d(s.n * nb), sums(s.n);
        const auto ref_buf = ref_pack(p, in, nr, s.bias);
        const size_t stride = kai_ref::qsi4c32p_block_stride(k, nr, s.bl);
        for (size_t j = 0; j < s.n; ++j) {
            for (size_t kk = 0; kk < k; ++kk)
                w[j * k + kk] = static_cast<int8_t>(kai_ref::qsu4_nxk_nibble(in.rhs.data(), in.rhs_stride, j, kk) - 8);
            for (size_t b = 0; b < nb; ++b) {
                uint16_t raw;
                std::memcpy(&raw, in.scales.data() + j * in.scale_stride + 2 * b, 2);
                d[j * nb + b] = kai_ref::f32_from_bf16(raw);
            }
            std::memcpy(&sums[j], ref_buf.data() + j / nr * stride + nb * nr * (s.bl / 2 + 2) + 4 * (j % nr), 4);
        }
        std::vector<uint8_t> lref(kai_ref::qai8dxp_packed_size(s.m, k, mr));
        kai_ref::pack_qai8dxp(s.m, k, mr, kr, sr, 0, lhs.data(), k * 4, lref.data());
        const auto lu = kai_ref::unpack_qai8dxp(lref.data(), s.m, k, mr, kr, sr);
        const auto want = kai_ref::matmul_qai8dxp_qsi4c32(lu, s.n, k, s.bl, w.data(), d.data(), sums.data(),
                                                          s.bias ? in.bias.data() : nullptr, -FLT_MAX, FLT_MAX);
        const size_t dst_stride = (s.n + 3) * 4;
        kai_test::DstBuffer dst(s.m, s.n + 3, 4, dst_stride);
        uk.run_matmul(s.m, s.n, k, s.bl, lp.data(), rp.data(), reinterpret_cast<float*>(dst.at(0, 0)), dst_stride, 4,
                      -FLT_MAX, FLT_MAX);
        for (size_t i = 0; i < s.m; ++i)
            for (size_t j = 0; j < s.n; ++j)
                ASSERT_EQ(dst.bits(i, j), kai_ref::f32_bits(want[i * s.n + j])) << "dst[" << i << "][" << j << "]";
        EXPECT_TRUE(dst.untouched_outside(0, s.m, 0, s.n));
    }
}

std::vector<size_t> consumers() {
    std::vector<size_t> out;
    const auto& vs = kai_registry::qsi4c32p_variants();
    for (size_t i = 0; i < vs.size(); ++i) {
        const size_t kbl = vs[i].ukernel.get_kr() / vs[i].ukernel.get_sr();
        if (kbl == 4 || kbl == 8) out.push_back(i);
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Variants, ConsumerTest, ::testing::ValuesIn(consumers()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return std::string(kai_registry::qsi4c32p_variants()[info.param].name +
                                                std::strlen("kai_matmul_clamp_f32_"));
                         });

TEST(ConsumerCoverage, TheNrx8PackerFeedsTheTreesKernels) {
    // docs/formats.md, "Shared packed buffers": (nr, kbl) = (4, 8) and (8, 8) kernels read the nrx8 buffer; the tree has them.
    size_t kbl8 = 0;
    for (size_t i : consumers()) kbl8 += kai_registry::qsi4c32p_variants()[i].ukernel.get_kr() == 16;
    EXPECT_GE(kbl8, 2u);
}

// ------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 compat vectors.
// ------------------------------------------------------------------------------------------

class CompatTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatTest, MatchesKleidiAI) {
    const auto vec = kai_test::load_compat_vector(GetParam());
    ASSERT_FALSE(vec.header.empty());
    const Packer& p = packer_named(vec.str("name"));
    const size_t n = vec.size("n"), k = vec.size("k"), bl = vec.size("bl");
    const size_t nr = vec.size("nr"), kr = vec.size("kr"), sr = vec.size("sr");
    const auto& want = vec.section("rhs_packed");
    ASSERT_EQ(p.size(n, k, nr, kr, sr, bl, kai_dt_bf16), want.bytes.size());
    // Inputs at guard pages, exactly their stored size: kai reads nothing past them.
    const auto& rhs_s = vec.section("rhs");
    const auto& sc_s = vec.section("scale");
    GuardedBuffer rhs(rhs_s.bytes.size()), scale(sc_s.bytes.size()), got(want.bytes.size());
    std::memcpy(rhs.data(), rhs_s.bytes.data(), rhs_s.bytes.size());
    std::memcpy(scale.data(), sc_s.bytes.data(), sc_s.bytes.size());
    const float* bias = vec.has_section("bias") ? vec.section("bias").f32() : nullptr;
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params prm{1, 8, kai_dt_bf16};
    p.run(1, n, k, nr, kr, sr, bl, rhs.data(), vec.size("rhs_stride"), bias, scale.data(), vec.size("scale_stride"),
          got.data(), 0, &prm);
    EXPECT_TRUE(kai_test::bytes_equal(got.data(), want.bytes.data(), want.bytes.size(), want.mask.data()));
}

std::vector<std::string> compat_files() {
    std::vector<std::string> out;
    for (const Packer& p : packers())
        for (const auto& f : kai_test::list_compat_vectors(std::string(p.name) + "__")) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Vectors, CompatTest, ::testing::ValuesIn(compat_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param.substr(info.param.find_last_of('/') + 1);
                             s = s.substr(std::strlen("kai_rhs_pack_"), s.size() - 4 - std::strlen("kai_rhs_pack_"));
                             for (auto& ch : s)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return s;
                         });

TEST(CompatFiles, AllTwentyFourArePresent) {
    EXPECT_EQ(compat_files().size(), 24u);
}

// ------------------------------------------------------------------------------------------
// Preconditions.
// ------------------------------------------------------------------------------------------

// The checks made in every build: abort (with the message in debug builds).
TEST(PackPreconditions, AlwaysOnChecksAbortInEveryBuild) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const uint8_t rhs[128] = {};
    const uint16_t s[8] = {};
    uint8_t out[2048];
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params f32_scales{1, 8, kai_dt_f32};
    for (const Packer& p : packers()) {
        SCOPED_TRACE(p.name);
        const size_t kr = 2 * p.kbl;
        EXPECT_DEATH((void)p.size(4, 96, 4, kr, 2, 48, kai_dt_bf16), msg("bl must be a non-zero multiple of 32"));
        EXPECT_DEATH((void)p.stride(96, 4, kr, 2, 64, kai_dt_bf16), msg("k must be a multiple of bl"));
        EXPECT_DEATH(p.run(1, 1, 64, 4, kr, 2, 32, rhs, 32, nullptr, s, 4, out, 0, &f32_scales),
                     msg("scale_dt must be kai_dt_bf16"));
        EXPECT_DEATH((void)p.size(SIZE_MAX, 64, 4, kr, 2, 32, kai_dt_bf16), kai_test::size_overflow_regex());
        EXPECT_DEATH((void)p.size(1, SIZE_MAX - 31, 4, kr, 2, 32, kai_dt_bf16), kai_test::size_overflow_regex());
    }
}

#ifndef NDEBUG
// Every precondition of every function of the four packers, one violated at a time, aborting with
// "<file>:<line> <message>" from the packer's .c (or kai_common.h for size overflow).
TEST(PackPreconditions, EveryCheckAbortsNamingItsParameter) {
    const size_t n = 5, k = 192, bl = 64, nb = k / bl;
    const auto bytes = kai_test::random_bytes(k * 100, 81);
    std::vector<uint8_t> scales(n * 2 * nb, 0);
    const auto bias = kai_test::random_f32(n, -1.0f, 1.0f, 83);
    std::vector<uint8_t> out(1 << 16);
    for (const Packer& p : packers()) {
        SCOPED_TRACE(p.name);
        const std::string stem = std::string(p.name).substr(std::strlen("kai_"));
        const std::string file = std::string(p.name) + ".c";
        const std::string kbl = std::to_string(p.kbl);
        struct Shape {
            size_t k, nr, kr, sr, bl;
            kai_datatype dt;
        };
        const Shape ok{k, 4, 2 * p.kbl, 2, bl, kai_dt_bf16};
        struct Violation {
            std::string message;
            Shape shape;
        };
        const std::vector<Violation> violations = {
            {"bl must be a non-zero multiple of 32", {k, 4, 2 * p.kbl, 2, 48, kai_dt_bf16}},
            {"k must be a multiple of bl", {160, 4, 2 * p.kbl, 2, bl, kai_dt_bf16}},
            {"scale_dt must be kai_dt_bf16", {k, 4, 2 * p.kbl, 2, bl, kai_dt_f16}},
            {"nr must be a non-zero multiple of 4", {k, 6, 2 * p.kbl, 2, bl, kai_dt_bf16}},
            {"kr must be a non-zero multiple of sr", {k, 4, 2 * p.kbl + 1, 2, bl, kai_dt_bf16}},
            {"kr / sr must be " + kbl, {k, 4, 4 * p.kbl, 2, bl, kai_dt_bf16}},
            {"bl must be a multiple of kr", {k, 4, 128, 128 / p.kbl, bl, kai_dt_bf16}},
        };
        struct Args {
            size_t num_groups = 1;
            Shape shape;
            const uint8_t* rhs;
            size_t rhs_stride;
            const void* scale;
            size_t scale_stride;
            void* out;
            size_t extra_bytes = 0;
            int8_t lzp = 1;
            uint8_t rzp = 8;
            bool null_params = false;
        };
        const Args base{1, ok, bytes.data(), p.kxn ? (n + 1) / 2 : k / 2, scales.data(), 2 * nb, out.data()};
        auto run = [&](const Args& a) {
            const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params prm{a.lzp, a.rzp, a.shape.dt};
            p.run(a.num_groups, n, a.shape.k, a.shape.nr, a.shape.kr, a.shape.sr, a.shape.bl, a.rhs, a.rhs_stride,
                  bias.data(), a.scale, a.scale_stride, a.out, a.extra_bytes, a.null_params ? nullptr : &prm);
        };
        auto with = [&](bool bad, auto edit) {
            Args a = base;
            if (bad) edit(a);
            run(a);
        };
        std::vector<kai_test::PreconditionCase> cases;
        for (const Violation& v : violations) {
            const Shape bad_shape = v.shape;
            auto pick = [ok, bad_shape](bool bad) { return bad ? bad_shape : ok; };
            cases.push_back({"kai_get_rhs_packed_stride_" + stem, file, v.message, [&, pick](bool bad) {
                                 const Shape s = pick(bad);
                                 (void)p.stride(s.k, s.nr, s.kr, s.sr, s.bl, s.dt);
                             }});
            cases.push_back({"kai_get_rhs_packed_offset_" + stem, file, v.message, [&, pick](bool bad) {
                                 const Shape s = pick(bad);
                                 (void)p.offset(12, s.k, s.nr, s.kr, s.sr, s.bl, s.dt);
                             }});
            cases.push_back({"kai_get_rhs_packed_size_" + stem, file, v.message, [&, pick](bool bad) {
                                 const Shape s = pick(bad);
                                 (void)p.size(n, s.k, s.nr, s.kr, s.sr, s.bl, s.dt);
                             }});
            cases.push_back({"kai_run_" + stem, file, v.message, [&, pick](bool bad) {
                                 with(bad, [pick](Args& a) { a.shape = pick(true); });
                             }});
        }
        cases.push_back({"kai_get_rhs_packed_offset_" + stem, file, "n_idx must be a multiple of nr",
                         [&](bool bad) { (void)p.offset(bad ? 14 : 12, k, 4, 2 * p.kbl, 2, bl, kai_dt_bf16); }});
        cases.push_back({"kai_get_rhs_packed_stride_" + stem, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
                         [&](bool bad) { (void)p.stride(bad ? SIZE_MAX - 63 : k, 4, 2 * p.kbl, 2, bl, kai_dt_bf16); }});
        cases.push_back({"kai_get_rhs_packed_offset_" + stem, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
                         [&](bool bad) { (void)p.offset(bad ? SIZE_MAX / 4 * 4 : 12, k, 4, 2 * p.kbl, 2, bl, kai_dt_bf16); }});
        cases.push_back({"kai_get_rhs_packed_size_" + stem, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
                         [&](bool bad) { (void)p.size(bad ? SIZE_MAX : n, k, 4, 2 * p.kbl, 2, bl, kai_dt_bf16); }});
        if (p.kxn) {
            cases.push_back({"kai_get_rhs_offset_" + stem, file, "n_idx must be even",
                             [&](bool bad) { (void)p.rhs_offset(bad ? 3 : 4, 3); }});
            cases.push_back({"kai_run_" + stem, file, "rhs_stride must be at least ceil(n / 2)",
                             [&](bool bad) { with(bad, [](Args& a) { a.rhs_stride -= 1; }); }});
        } else {
            cases.push_back({"kai_get_rhs_offset_" + stem, kai_test::kKaiCommonFile, kai_test::kSizeOverflow,
                             [&](bool bad) { (void)p.rhs_offset(bad ? SIZE_MAX / 2 : 3, 96); }});
            cases.push_back({"kai_run_" + stem, file, "rhs_stride must be at least k / 2",
                             [&](bool bad) { with(bad, [](Args& a) { a.rhs_stride -= 1; }); }});
        }
        const std::string run_fn = "kai_run_" + stem;
        cases.push_back({run_fn, file, "params must not be NULL",
                         [&](bool bad) { with(bad, [](Args& a) { a.null_params = true; }); }});
        cases.push_back({run_fn, file, "num_groups must be 1",
                         [&](bool bad) { with(bad, [](Args& a) { a.num_groups = 2; }); }});
        cases.push_back({run_fn, file, "extra_bytes must be 0",
                         [&](bool bad) { with(bad, [](Args& a) { a.extra_bytes = 4; }); }});
        cases.push_back({run_fn, file, "rhs must not be NULL", [&](bool bad) { with(bad, [](Args& a) { a.rhs = nullptr; }); }});
        cases.push_back({run_fn, file, "scale must not be NULL",
                         [&](bool bad) { with(bad, [](Args& a) { a.scale = nullptr; }); }});
        cases.push_back({run_fn, file, "rhs_packed must not be NULL",
                         [&](bool bad) { with(bad, [](Args& a) { a.out = nullptr; }); }});
        cases.push_back({run_fn, file, "params->lhs_zero_point must be 1",
                         [&](bool bad) { with(bad, [](Args& a) { a.lzp = 0; }); }});
        cases.push_back({run_fn, file, "params->rhs_zero_point must be 8",
                         [&](bool bad) { with(bad, [](Args& a) { a.rzp = 0; }); }});
        cases.push_back({run_fn, file, "scale_stride must be at least 2 * (k / bl)",
                         [&](bool bad) { with(bad, [](Args& a) { a.scale_stride -= 1; }); }});
        kai_test::expect_preconditions(cases);
    }
}
#endif  // NDEBUG

}  // namespace
