// SPDX-License-Identifier: Apache-2.0
// Tests of the f32 and bf16 SME/SME2 kernels and their packers (families f32p_f32p, f32_f32p, bf16p_sme, f32_bf16p),
// each at several streaming vector lengths (SVL 128, 512 and 2048 bits, set with prctl(PR_SME_SET_VL) in the
// test itself: the packed layouts, mr/nr and the tiles all change with it):
//  - packers: byte-exact against test/reference/sme_float_ref (written from the spec), the size getters, and
//    packing in row / column ranges through the offset getters equal to one whole pack;
//  - kernels: f32 bit-exact against the fma chain of docs/formats.md, "SME matmul recipes", bf16 within the bound derived in
//    sme_float_ref.cc, over variant x SVL x shape x clamp x bias, whole matrix and tile by tile through the
//    offset getters, packed inputs ending at guard pages, a NaN-sentinel destination with a wider row stride;
//  - the calling convention: x18-x28 and d8-d15 survive a call (an assembly canary trampoline), streaming mode
//    and ZA are off afterwards, and a pending lazy ZA save of the caller is committed (TPIDR2_EL0);
//  - death tests: every documented precondition aborts naming its parameter (debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1); nothing skips there.

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "test/common/buffers.h"
#include "test/common/compat_vector.h"
#include "test/common/compare.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/reference_common.h"
#include "test/reference/sme_float_ref.h"
#include "test/registry/sme_float_registry.h"

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
static_assert(offsetof(AbiFrame, in_d) == 176, "frame layout of sme_abi_probe.S");
static_assert(offsetof(AbiFrame, out_gpr) == 240, "frame layout of sme_abi_probe.S");
static_assert(offsetof(AbiFrame, out_d) == 328, "frame layout of sme_abi_probe.S");

namespace {

using kai_registry::SmeFloatLhsPacker;
using kai_registry::SmeFloatRhsPacker;
using kai_registry::SmeFloatVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

// The streaming vector lengths the suite runs at, in bytes (128, 512 and 2048 bits).
const std::vector<size_t>& svls() {
    static const std::vector<size_t> v = {16, 64, 256};
    return v;
}

// Sets this thread's SVL (bytes); fails the test when the CPU does not take it.
::testing::AssertionResult set_svl(size_t bytes) {
    const int r = prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0);
    if (r < 0) return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK;
    if (static_cast<size_t>(got) != bytes) {
        return ::testing::AssertionFailure() << "SVL is " << got << " bytes, asked for " << bytes;
    }
    return ::testing::AssertionSuccess();
}

std::string short_name(const char* name) {
    std::string s(name);
    const std::string prefixes[] = {"kai_matmul_clamp_f32_", "kai_lhs_pack_", "kai_rhs_pack_"};
    for (const auto& p : prefixes) {
        if (s.rfind(p, 0) == 0) return s.substr(p.size());
    }
    return s;
}

uint64_t test_seed() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return kai_test::seed_from(std::string(info->test_suite_name()) + "." + info->name());
}

// m x cols values in [-1, 1) with a few exact bf16 ties (every 7th element), so that the bf16 packers' rounding
// to nearest even is exercised.
std::vector<float> make_values(size_t count, uint64_t seed) {
    Rng rng(seed);
    std::vector<float> v(count);
    for (auto& x : v) x = rng.uniform(-1.0f, 1.0f);
    for (size_t t = 3; t < v.size(); t += 7) {
        const uint32_t b = (kai_ref::f32_bits(v[t]) & 0xFFFF0000u) | 0x8000u;
        v[t] = kai_ref::f32_from_bits(b);
    }
    return v;
}

// The source matrix with a row stride of cols + pad elements; the gaps hold NaN the packers must not copy.
std::vector<float> with_stride(const std::vector<float>& dense, size_t rows, size_t cols, size_t pad) {
    std::vector<float> out(std::max<size_t>(rows * (cols + pad), 1), std::numeric_limits<float>::quiet_NaN());
    for (size_t i = 0; i < rows; ++i) std::copy_n(dense.data() + i * cols, cols, out.data() + i * (cols + pad));
    return out;
}

std::vector<float> transpose(const std::vector<float>& a, size_t rows, size_t cols) {
    std::vector<float> t(a.size());
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
    return t;
}

size_t tile_of_svl(size_t svl_bytes) {
    return 2 * svl_bytes / sizeof(float);
}

// ------------------------------------------------------------------------------------------------
// Packers.
// ------------------------------------------------------------------------------------------------

struct PackCase {
    size_t packer;
    size_t svl;
    size_t rows, k;  // rows: m (LHS) or n (RHS)
};

std::string pack_case_name(const std::string& packer, const PackCase& c) {
    std::ostringstream os;
    os << short_name(packer.c_str()) << "_svl" << c.svl * 8 << "_" << c.rows << "x" << c.k;
    return os.str();
}

// Row / column counts relative to the tile (t = 2 * SVL / 32), encoded as t * a + b.
struct Rel {
    int a, b;
};
size_t resolve(Rel r, size_t tile) {
    return static_cast<size_t>(static_cast<long>(tile) * r.a + r.b);
}

std::vector<PackCase> pack_cases(size_t packers) {
    const Rel rows[] = {{0, 1}, {0, 3}, {1, -1}, {1, 0}, {1, 1}, {2, 5}};
    const size_t ks[] = {1, 2, 7, 40, 45, 65};
    std::vector<PackCase> out;
    for (size_t p = 0; p < packers; ++p)
        for (size_t svl : svls())
            for (const Rel& r : rows)
                for (size_t k : ks) {
                    if (kai_test::reduced_sweep() && k != 45 && k != 1) continue;
                    out.push_back({p, svl, resolve(r, tile_of_svl(svl)), k});
                }
    return out;
}

class SmeLhsPackTest : public ::testing::TestWithParam<PackCase> {};

TEST_P(SmeLhsPackTest, MatchesReference) {
    const PackCase& c = GetParam();
    const SmeFloatLhsPacker& p = kai_registry::sme_float_lhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    ASSERT_TRUE(set_svl(c.svl));
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t m = c.rows, k = c.k, mr = tile_of_svl(c.svl), kr = p.bf16 ? 2 : 1, sr = 1;
    const std::vector<float> dense = make_values(m * k, seed);
    const size_t pad = 3;
    const std::vector<float> src = with_stride(dense, m, k, pad);
    const size_t stride = (k + pad) * sizeof(float);

    EXPECT_EQ(p.get_m_step(mr), mr);
    EXPECT_EQ(p.get_lhs_offset(mr, stride), mr * stride);
    const std::vector<uint8_t> expected = p.bf16 ? kai_ref::sme_pack_lhs_bf16p2vlx2(src.data(), m, k, k + pad, mr)
                                                 : kai_ref::sme_pack_lhs_f32p2vlx1(src.data(), m, k, k + pad, mr);
    ASSERT_EQ(p.get_lhs_packed_size(m, k, mr, kr, sr), expected.size());
    GuardedBuffer whole(expected.size());
    p.run(m, k, mr, kr, sr, 0, src.data(), stride, whole.data());
    EXPECT_TRUE(kai_test::bytes_equal(whole.data(), expected.data(), expected.size()));
    EXPECT_TRUE(whole.front_intact());

    // Row ranges starting at multiples of mr, through the offset getters.
    if (m > mr) {
        GuardedBuffer parts(expected.size(), 0x5A);
        for (size_t m0 = 0; m0 < m; m0 += mr) {
            const size_t rows = std::min(mr, m - m0);
            p.run(rows, k, mr, kr, sr, 0, reinterpret_cast<const uint8_t*>(src.data()) + p.get_lhs_offset(m0, stride),
                  stride, parts.data() + p.get_lhs_packed_offset(m0, k, mr, kr, sr));
        }
        EXPECT_TRUE(kai_test::bytes_equal(parts.data(), expected.data(), expected.size())) << "packed by row blocks";
    }
}

INSTANTIATE_TEST_SUITE_P(Packers, SmeLhsPackTest,
                         ::testing::ValuesIn(pack_cases(kai_registry::sme_float_lhs_packers().size())),
                         [](const ::testing::TestParamInfo<PackCase>& info) {
                             return pack_case_name(kai_registry::sme_float_lhs_packers()[info.param.packer].name,
                                                   info.param);
                         });

class SmeRhsPackTest : public ::testing::TestWithParam<PackCase> {};

TEST_P(SmeRhsPackTest, MatchesReference) {
    const PackCase& c = GetParam();
    const SmeFloatRhsPacker& p = kai_registry::sme_float_rhs_packers()[c.packer];
    KAI_TEST_SKIP_UNLESS(p.features);
    ASSERT_TRUE(set_svl(c.svl));
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t n = c.rows, k = c.k, nr = tile_of_svl(c.svl), kr = p.bf16 ? 2 : 1, sr = 1;
    const std::vector<float> kxn = make_values(k * n, seed);
    const std::vector<float> bias = make_values(n, seed + 1);
    const size_t pad = 5;
    // kxn packers (bf16, and the kxn f32 one): K x N source; the nxk f32 packer: N x K source.
    const std::vector<float> src = p.kxn ? with_stride(kxn, k, n, pad) : with_stride(transpose(kxn, k, n), n, k, pad);
    const size_t ld = (p.kxn ? n : k) + pad;
    const size_t stride = ld * sizeof(float);

    EXPECT_EQ(p.get_n_step(), nr);
    EXPECT_EQ(p.get_bias_offset(nr), nr * sizeof(float));
    // The kxn f32 packer writes the nxk one's layout: its reference is the nxk reference of the transposed source.
    const std::vector<float> nxk = with_stride(transpose(kxn, k, n), n, k, 0);
    const std::vector<uint8_t> expected =
        p.bf16  ? kai_ref::sme_pack_rhs_kxn_bf16p2vlx2b(src.data(), ld, bias.data(), n, k, nr)
        : p.kxn ? kai_ref::sme_pack_rhs_nxk_f32p2vlx1biasf32(nxk.data(), k, bias.data(), n, k, nr)
                : kai_ref::sme_pack_rhs_nxk_f32p2vlx1biasf32(src.data(), ld, bias.data(), n, k, nr);
    ASSERT_EQ(p.get_rhs_packed_size(n, k), expected.size());
    const size_t kp = p.bf16 ? (k + 1) / 2 * 2 : k;
    // A kxn packer's stride is a block's bytes, the nxk packer's a channel's (as KleidiAI's).
    EXPECT_EQ(p.get_rhs_packed_stride(k), p.bf16 ? nr * (4 + 2 * kp) : p.kxn ? nr * (4 + 4 * k) : 4 + 4 * k);
    GuardedBuffer whole(expected.size());
    p.run(1, n, k, nr, kr, sr, stride, src.data(), bias.data(), nullptr, whole.data(), 0, nullptr);
    EXPECT_TRUE(kai_test::bytes_equal(whole.data(), expected.data(), expected.size()));
    EXPECT_TRUE(whole.front_intact());

    // Column ranges starting at multiples of nr, through the offset getters.
    if (n > nr) {
        GuardedBuffer parts(expected.size(), 0x5A);
        for (size_t n0 = 0; n0 < n; n0 += nr) {
            const size_t cols = std::min(nr, n - n0);
            const float* s = p.kxn ? src.data() + n0 : src.data() + n0 * ld;
            p.run(1, cols, k, nr, kr, sr, stride, s, bias.data() + n0, nullptr,
                  parts.data() + p.get_rhs_packed_offset(n0, k), 0, nullptr);
        }
        EXPECT_TRUE(kai_test::bytes_equal(parts.data(), expected.data(), expected.size())) << "packed by column blocks";
    }
}

INSTANTIATE_TEST_SUITE_P(Packers, SmeRhsPackTest,
                         ::testing::ValuesIn(pack_cases(kai_registry::sme_float_rhs_packers().size())),
                         [](const ::testing::TestParamInfo<PackCase>& info) {
                             return pack_case_name(kai_registry::sme_float_rhs_packers()[info.param.packer].name,
                                                   info.param);
                         });

// The families' packers by name (docs/formats.md, "SME packed layouts"): the registry holds each of them
// with its layout (kr 1 f32 or kr 2 bf16), so the byte-exact sweeps above cover every one of them
// (a packer dropped from the registry or given the other layout fails here, not silently).
TEST(SmeFloatPackers, TheRegistryHoldsEachPackerWithItsLayout) {
    struct Want {
        const char* name;
        bool bf16;
    };
    const Want lhs[] = {{"kai_lhs_pack_f32p2vlx1_f32_sme", false}, {"kai_lhs_pack_bf16p2vlx2_f32_sme", true}};
    const Want rhs[] = {{"kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme", false},
                        {"kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme", true},
                        {"kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme", false}};
    const auto& lp = kai_registry::sme_float_lhs_packers();
    const auto& rp = kai_registry::sme_float_rhs_packers();
    ASSERT_EQ(lp.size(), 2u);
    ASSERT_EQ(rp.size(), 3u);
    // Each wanted name stands exactly once in its registry, with the wanted layout.
    auto check = [](const auto& packers, const Want* wants, size_t count) {
        for (size_t i = 0; i < count; ++i) {
            size_t found = 0;
            for (const auto& p : packers) {
                if (std::string(p.name) != wants[i].name) continue;
                ++found;
                EXPECT_EQ(p.bf16, wants[i].bf16) << wants[i].name;
            }
            EXPECT_EQ(found, 1u) << wants[i].name;
        }
    };
    check(lp, lhs, 2);
    check(rp, rhs, 3);
}

// KleidiAI v1.30.0's own bytes for the kxn f32 packer, recorded at SVL 128 and 512 (four shapes each), replayed
// at the SVL of each file.
TEST(SmeFloatPackers, KxnF32PackerMatchesKleidiAIsBytes) {
    const SmeFloatRhsPacker* p = nullptr;
    for (const auto& r : kai_registry::sme_float_rhs_packers())
        if (std::string(r.name) == "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme") p = &r;
    ASSERT_NE(p, nullptr);
    KAI_TEST_SKIP_UNLESS(p->features);
    const auto files = kai_test::list_compat_vectors(std::string(p->name) + "__");
    ASSERT_EQ(files.size(), 8u);
    size_t svl128 = 0, svl512 = 0;
    for (const std::string& f : files) {
        const kai_test::CompatVector cv = kai_test::load_compat_vector(f);
        const std::string vl = cv.str("vector_length");
        ASSERT_TRUE(vl == "svl128" || vl == "svl512") << f;
        const size_t svl_bytes = vl == "svl128" ? 16 : 64;
        ++(vl == "svl128" ? svl128 : svl512);
        ASSERT_TRUE(set_svl(svl_bytes));
        const size_t n = cv.size("n"), k = cv.size("k");
        ASSERT_EQ(cv.size("nr"), p->get_n_step()) << f;
        const auto& want = cv.section("rhs_packed");
        ASSERT_EQ(p->get_rhs_packed_size(n, k), want.bytes.size()) << f;
        GuardedBuffer out(want.bytes.size(), 0x77);
        p->run(1, n, k, cv.size("nr"), 1, 1, cv.size("rhs_stride"), cv.section("rhs").bytes.data(),
               cv.section("bias").bytes.data(), nullptr, out.data(), 0, nullptr);
        for (size_t i = 0; i < want.bytes.size(); ++i) {
            if (want.mask[i]) {
                ASSERT_EQ(out.data()[i], want.bytes[i]) << f << " byte " << i;
            }
        }
    }
    EXPECT_EQ(svl128, 4u);
    EXPECT_EQ(svl512, 4u);
}

// ------------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------------

const SmeFloatLhsPacker& lhs_packer_for(const SmeFloatVariant& v) {
    for (const auto& p : kai_registry::sme_float_lhs_packers())
        if (p.bf16 == v.bf16) return p;
    ADD_FAILURE() << "no LHS packer for " << v.name;
    return kai_registry::sme_float_lhs_packers()[0];
}

const SmeFloatRhsPacker& rhs_packer_for(const SmeFloatVariant& v) {
    for (const auto& p : kai_registry::sme_float_rhs_packers())
        if (p.bf16 == v.bf16) return p;
    ADD_FAILURE() << "no RHS packer for " << v.name;
    return kai_registry::sme_float_rhs_packers()[0];
}

enum class Clamp { kNone, kBoth, kLow, kHigh, kInverted };

const char* clamp_name(Clamp c) {
    switch (c) {
        case Clamp::kNone: return "noclamp";
        case Clamp::kBoth: return "clamp";
        case Clamp::kLow: return "lowclamp";
        case Clamp::kHigh: return "highclamp";
        case Clamp::kInverted: return "inverted";
    }
    return "?";
}

struct KernelCase {
    size_t variant;
    size_t svl;
    size_t m, n, k;
    Clamp clamp;
    bool bias;
};

// A problem: inputs, packed operands (each in a buffer of exactly its packed size, ending at a guard page) and
// the expected output.
struct Problem {
    size_t m = 0, n = 0, k = 0;
    std::vector<float> lhs, rhs_kxn, bias;
    std::unique_ptr<GuardedBuffer> lhs_buf, rhs_buf;
    float lo = 0, hi = 0;
    std::vector<float> expected_f32;         // f32 kernels
    std::vector<double> expected, abs_sum;  // bf16 kernel (exact, before the clamp)
};

// SME2 kernels clamp with FCLAMP (as KleidiAI's: a NaN accumulator gives the lower bound), SME kernels with
// FMAX / FMIN (NaN stays NaN): docs/reliability.md, "Special inputs".
bool uses_fclamp(const SmeFloatVariant& v) { return (v.features & KAI_FEATURE_SME2) != 0; }

// KleidiAI's SME (not SME2) f32 GEMV clamps with FMIN (upper bound) then FMAX (lower bound): a NaN stays NaN and
// lo > hi gives lo, where the SME MOPA GEMM's FMAX-then-FMIN gives hi.
bool clamps_min_first(const SmeFloatVariant& v) { return std::strstr(v.name, "_1x8vl_sme_mla") != nullptr; }

// The GEMVs' n step in units of nr: 8 blocks (16 VL), or 4 (8 VL) for the SME one.
size_t gemv_blocks_per_step(const SmeFloatVariant& v) { return std::strstr(v.name, "_1x8vl_") != nullptr ? 4 : 8; }

// tweak (optional) edits the inputs after the clamp bounds are chosen, before the expectation and the packing.
void make_problem(const SmeFloatVariant& v, size_t m, size_t n, size_t k, Clamp clamp, bool bias, uint64_t seed,
                  Problem* pr, void (*tweak)(Problem*) = nullptr) {
    pr->m = m;
    pr->n = n;
    pr->k = k;
    pr->lhs = make_values(m * k, seed);
    pr->rhs_kxn = make_values(k * n, seed + 1);
    pr->bias = bias ? make_values(n, seed + 2) : std::vector<float>(n, 0.0f);
    const std::vector<float> rhs_nxk = transpose(pr->rhs_kxn, k, n);

    // Clamp bounds from the unclamped outputs' range: both sides cut about a quarter of the outputs.
    const std::vector<float> raw = kai_ref::sme_matmul_f32_fma(pr->lhs.data(), rhs_nxk.data(), pr->bias.data(), m, n, k,
                                                               -INFINITY, INFINITY);
    std::vector<float> sorted = raw;
    std::sort(sorted.begin(), sorted.end());
    const float q1 = sorted[sorted.size() / 4], q3 = sorted[sorted.size() * 3 / 4];
    switch (clamp) {
        case Clamp::kNone: pr->lo = -INFINITY; pr->hi = INFINITY; break;
        case Clamp::kBoth: pr->lo = q1; pr->hi = q3; break;
        case Clamp::kLow: pr->lo = q1; pr->hi = INFINITY; break;
        case Clamp::kHigh: pr->lo = -INFINITY; pr->hi = q3; break;
        case Clamp::kInverted: pr->lo = q3 + 1.0f; pr->hi = q1 - 1.0f; break;
    }
    if (tweak != nullptr) tweak(pr);
    const std::vector<float> rhs_nxk_used = transpose(pr->rhs_kxn, k, n);
    if (v.bf16) {
        kai_ref::sme_matmul_bf16_exact(pr->lhs.data(), pr->rhs_kxn.data(), pr->bias.data(), m, n, k, &pr->expected,
                                       &pr->abs_sum);
    } else {
        if (clamps_min_first(v)) {
            pr->expected_f32 = kai_ref::sme_matmul_f32_fma(pr->lhs.data(), rhs_nxk_used.data(), pr->bias.data(), m, n,
                                                           k, -INFINITY, INFINITY, false);
            for (float& x : pr->expected_f32) {
                if (!std::isnan(x)) x = std::max(std::min(x, pr->hi), pr->lo);
            }
        } else {
            pr->expected_f32 = kai_ref::sme_matmul_f32_fma(pr->lhs.data(), rhs_nxk_used.data(), pr->bias.data(), m, n,
                                                           k, pr->lo, pr->hi, uses_fclamp(v));
        }
    }

    // Pack with kai's packers (checked byte for byte against the reference above).
    const SmeFloatRhsPacker& rp = rhs_packer_for(v);
    const size_t nr = v.is_gemv ? v.gemv.get_nr() : v.packed.get_nr();
    const size_t kr = v.is_gemv ? v.gemv.get_kr() : v.packed.get_kr();
    pr->rhs_buf = std::make_unique<GuardedBuffer>(rp.get_rhs_packed_size(n, k));
    if (rp.bf16) {
        rp.run(1, n, k, nr, kr, 1, n * sizeof(float), pr->rhs_kxn.data(), pr->bias.data(), nullptr, pr->rhs_buf->data(),
               0, nullptr);
    } else {
        rp.run(1, n, k, nr, kr, 1, k * sizeof(float), rhs_nxk_used.data(), pr->bias.data(), nullptr, pr->rhs_buf->data(),
               0, nullptr);
    }
    if (v.is_gemv) {
        pr->lhs_buf = std::make_unique<GuardedBuffer>(k * sizeof(float));
        std::memcpy(pr->lhs_buf->data(), pr->lhs.data(), k * sizeof(float));
    } else {
        const SmeFloatLhsPacker& lp = lhs_packer_for(v);
        const size_t mr = v.packed.get_mr();
        pr->lhs_buf = std::make_unique<GuardedBuffer>(lp.get_lhs_packed_size(m, k, mr, kr, 1));
        lp.run(m, k, mr, kr, 1, 0, pr->lhs.data(), k * sizeof(float), pr->lhs_buf->data());
    }
}

// Runs the kernel on the tile [m0, m0 + mh) x [n0, n0 + nw) through the offset getters.
void run_tile(const SmeFloatVariant& v, const Problem& pr, DstBuffer& dst, size_t m0, size_t mh, size_t n0, size_t nw) {
    if (v.is_gemv) {
        const auto& uk = v.gemv;
        uk.run_matmul(mh, nw, pr.k, pr.lhs_buf->data() + uk.get_lhs_offset(m0, pr.k), pr.k * sizeof(float),
                      pr.rhs_buf->data() + uk.get_rhs_packed_offset(n0, pr.k),
                      dst.at(0, 0) + uk.get_dst_offset(m0, n0, dst.stride()), dst.stride(), sizeof(float), pr.lo, pr.hi);
    } else {
        const auto& uk = v.packed;
        uk.run_matmul(mh, nw, pr.k, pr.lhs_buf->data() + uk.get_lhs_packed_offset(m0, pr.k),
                      pr.rhs_buf->data() + uk.get_rhs_packed_offset(n0, pr.k),
                      dst.at(0, 0) + uk.get_dst_offset(m0, n0, dst.stride()), dst.stride(), sizeof(float), pr.lo, pr.hi);
    }
}

::testing::AssertionResult check_output(const SmeFloatVariant& v, const Problem& pr, const DstBuffer& dst) {
    if (!v.bf16) {
        return kai_test::f32_bits_equal(reinterpret_cast<const float*>(const_cast<DstBuffer&>(dst).at(0, 0)),
                                        dst.stride(), pr.expected_f32.data(), pr.n * sizeof(float), pr.m, pr.n);
    }
    std::vector<double> clamped(pr.expected.size());
    for (size_t i = 0; i < clamped.size(); ++i) clamped[i] = kai_ref::sme_clamp(pr.expected[i], pr.lo, pr.hi, uses_fclamp(v));
    return kai_test::f32_within(reinterpret_cast<const float*>(const_cast<DstBuffer&>(dst).at(0, 0)), dst.stride(),
                                clamped.data(), pr.n * sizeof(double), pr.m, pr.n, [&](size_t i, size_t j) {
                                    // A non-finite accumulator is clamped to a bound exactly (or stays NaN / inf).
                                    const double a = pr.abs_sum[i * pr.n + j];
                                    return std::isfinite(a) ? kai_ref::sme_bf16_error_bound(a, pr.k) : 0.0;
                                });
}

class SmeKernelTest : public ::testing::TestWithParam<KernelCase> {};

TEST_P(SmeKernelTest, MatchesReference) {
    const KernelCase& c = GetParam();
    const SmeFloatVariant& v = kai_registry::sme_float_variants()[c.variant];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(c.svl));
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));

    // The getters report the vector length the kernel assumes.
    const size_t tile = tile_of_svl(c.svl);
    size_t m_step, n_step;
    if (v.is_gemv) {
        EXPECT_EQ(v.gemv.get_m_step(), 1u);
        EXPECT_EQ(v.gemv.get_nr(), tile);
        EXPECT_EQ(v.gemv.get_n_step(), gemv_blocks_per_step(v) * tile);
        EXPECT_EQ(v.gemv.get_kr(), v.bf16 ? 2u : 1u);
        EXPECT_EQ(v.gemv.get_sr(), 1u);
        EXPECT_EQ(v.gemv.get_dst_size(c.m, c.n), c.m * c.n * sizeof(float));
        m_step = 1;
        n_step = v.gemv.get_n_step();
    } else {
        const auto& uk = v.packed;
        EXPECT_EQ(uk.get_m_step(), tile);
        EXPECT_EQ(uk.get_n_step(), tile);
        EXPECT_EQ(uk.get_mr(), tile);
        EXPECT_EQ(uk.get_nr(), tile);
        EXPECT_EQ(uk.get_kr(), v.bf16 ? 2u : 1u);
        EXPECT_EQ(uk.get_sr(), 1u);
        EXPECT_EQ(uk.get_dst_size(c.m, c.n), c.m * c.n * sizeof(float));
        // The kernel's offsets are the packers'.
        const SmeFloatLhsPacker& lp = lhs_packer_for(v);
        const SmeFloatRhsPacker& rp = rhs_packer_for(v);
        EXPECT_EQ(uk.get_lhs_packed_offset(tile, c.k), lp.get_lhs_packed_offset(tile, c.k, tile, uk.get_kr(), 1));
        EXPECT_EQ(uk.get_rhs_packed_offset(tile, c.k), rp.get_rhs_packed_offset(tile, c.k));
        m_step = tile;
        n_step = tile;
    }

    Problem pr;
    make_problem(v, c.m, c.n, c.k, c.clamp, c.bias, seed, &pr);
    const size_t stride = (c.n + 5) * sizeof(float);  // wider than the row

    // The whole matrix in one call.
    {
        DstBuffer dst(c.m, c.n + 5, sizeof(float), stride);
        run_tile(v, pr, dst, 0, c.m, 0, c.n);
        EXPECT_TRUE(check_output(v, pr, dst)) << "whole matrix";
        EXPECT_TRUE(dst.untouched_outside(0, c.m, 0, c.n)) << "whole matrix";
    }
    // Tile by tile (m_step x n_step, the smallest sub-tiles allowed), through the offset getters.
    {
        DstBuffer dst(c.m, c.n + 5, sizeof(float), stride);
        for (size_t m0 = 0; m0 < c.m; m0 += m_step)
            for (size_t n0 = 0; n0 < c.n; n0 += n_step)
                run_tile(v, pr, dst, m0, std::min(m_step, c.m - m0), n0, std::min(n_step, c.n - n0));
        EXPECT_TRUE(check_output(v, pr, dst)) << "tile by tile";
        EXPECT_TRUE(dst.untouched_outside(0, c.m, 0, c.n)) << "tile by tile";
    }
    // One sub-tile alone: the second row and column blocks (or the ragged rest), nothing else written.
    if (c.m > m_step || c.n > (v.is_gemv ? tile : n_step)) {
        const size_t col_step = v.is_gemv ? tile : n_step;  // the GEMV accepts any multiple of nr
        const size_t m0 = c.m > m_step ? m_step : 0, n0 = c.n > col_step ? col_step : 0;
        const size_t mh = std::min(m_step, c.m - m0), nw = std::min(2 * col_step, c.n - n0);
        DstBuffer dst(c.m, c.n + 5, sizeof(float), stride);
        run_tile(v, pr, dst, m0, mh, n0, nw);
        EXPECT_TRUE(dst.untouched_outside(m0, mh, n0, nw)) << "sub-tile";
        EXPECT_TRUE(dst.written_inside(m0, mh, n0, nw)) << "sub-tile";
    }
}

std::vector<KernelCase> kernel_cases() {
    std::vector<KernelCase> out;
    const auto& variants = kai_registry::sme_float_variants();
    for (size_t vi = 0; vi < variants.size(); ++vi) {
        const bool gemv = variants[vi].is_gemv;
        for (size_t svl : svls()) {
            const size_t t = tile_of_svl(svl);
            struct S {
                size_t m, n, k;
            };
            std::vector<S> shapes;
            if (gemv) {
                const size_t ns = 8 * t;
                shapes = {{1, 1, 1},      {1, 5, 40},      {1, t - 1, 3},   {1, t, 4},         {1, t + 1, 45},
                          {1, ns - 1, 7}, {1, ns, 8},      {1, ns + 1, 65}, {1, 2 * ns + t + 3, 13},
                          {1, 131, 2},    {1, 33, 23},     {1, t + 3, 1024}, {1, 37, 4096}};
            } else {
                // At SVL 2048 (t = 128) the multi-tile shapes stay narrow: the emulated reference dominates.
                const size_t wide = svl >= 256 ? t + 7 : 3 * t - 1;
                shapes = {{1, 1, 1},          {3, 5, 40},          {t - 1, t + 1, 7}, {t, t, 8},
                          {t + 1, t - 1, 9},  {2 * t + 1, wide, 17}, {13, 33, 23},   {t + 3, 37, 1024},
                          {5, 7, 4096},       {1, 2 * t + 3, 65}};
                if (!kai_test::reduced_sweep() && svl == 64) shapes.push_back({257, 113, 373});
            }
            // K of real models and past 16384 (every path of the K loops) on one row or a tile + 1 of rows and a
            // tile + 1 of columns, at SVL 128 only (the emulated tiles of longer vectors cost too much this deep: 20 to
            // 30 s a case at 512 bits); the reduced sweep keeps the deepest.
            if (svl == 16) {
                if (!kai_test::reduced_sweep()) shapes.push_back({1, t + 1, 11008});
                shapes.push_back({gemv ? size_t{1} : t + 1, t + 1, 16448});
            }
            for (const S& s : shapes) {
                for (Clamp cl : {Clamp::kNone, Clamp::kBoth, Clamp::kLow, Clamp::kHigh, Clamp::kInverted}) {
                    for (bool bias : {false, true}) {
                        // The full clamp x bias grid on small shapes; large ones once.
                        const bool small = s.k <= 65;
                        if (!small && !(cl == Clamp::kBoth && bias)) continue;
                        if (kai_test::reduced_sweep() && !(cl == Clamp::kBoth && bias) &&
                            !(cl == Clamp::kInverted && !bias))
                            continue;
                        out.push_back({vi, svl, s.m, s.n, s.k, cl, bias});
                    }
                }
            }
        }
    }
    return out;
}

std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
    const KernelCase& c = info.param;
    std::ostringstream os;
    os << short_name(kai_registry::sme_float_variants()[c.variant].name) << "_svl" << c.svl * 8 << "_" << c.m << "x"
       << c.n << "x" << c.k << "_" << clamp_name(c.clamp) << (c.bias ? "_bias" : "_nobias");
    return os.str();
}

INSTANTIATE_TEST_SUITE_P(Kernels, SmeKernelTest, ::testing::ValuesIn(kernel_cases()), kernel_case_name);

// NaN accumulators and infinities: +-inf are clamped; a NaN accumulator (a NaN bias, or inf - inf
// from a +inf bias and a -inf weight) becomes the lower bound in the SME2 kernels (FCLAMP, KleidiAI's bits; the
// upper one when the bounds are inverted) and stays NaN in the SME kernels (FMAX / FMIN). Every kernel, f32
// (bit-exact) and bf16 (within its bound), both clamps; the reference models both rules.
// Columns c..c+3 for c in kSpecialColumns (in both halves of a 2VL tile at SVL 512): +inf, -inf and NaN biases,
// then a +inf bias with -inf weights.
constexpr size_t kSpecialColumns[] = {0, 20};

void special_inputs(Problem* pr) {
    for (size_t c : kSpecialColumns) {
        pr->bias[c] = INFINITY;
        pr->bias[c + 1] = -INFINITY;
        pr->bias[c + 2] = std::numeric_limits<float>::quiet_NaN();
        pr->bias[c + 3] = INFINITY;
        for (size_t kk = 0; kk < pr->k; ++kk) pr->rhs_kxn[kk * pr->n + c + 3] = -INFINITY;  // inf - inf (or inf + inf)
    }
}

TEST(SmeKernelSpecialValues, NanAccumulatorsAndInfinitiesAreClampedAsKleidiAI) {
    size_t fclamp_kernels = 0;
    for (const SmeFloatVariant& v : kai_registry::sme_float_variants()) {
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        ASSERT_TRUE(set_svl(64));
        for (Clamp c : {Clamp::kBoth, Clamp::kInverted}) {
            SCOPED_TRACE(clamp_name(c));
            Problem pr;
            const size_t m = v.is_gemv ? 1 : 3, n = 37, k = 9;
            make_problem(v, m, n, k, c, true, 7, &pr, special_inputs);
            DstBuffer dst(m, n, sizeof(float), n * sizeof(float));
            run_tile(v, pr, dst, 0, m, 0, n);
            EXPECT_TRUE(check_output(v, pr, dst));
            const float bound = c == Clamp::kInverted ? pr.hi : pr.lo;  // FCLAMP's result for a NaN
            // What +inf and -inf accumulators become: FMAX-then-FMIN and FCLAMP give hi and `bound`; FMIN-then-FMAX
            // gives hi (lo when lo > hi) and lo.
            const bool min_first = clamps_min_first(v);
            const float pos_inf = min_first && c == Clamp::kInverted ? pr.lo : pr.hi;
            const float neg_inf = min_first ? pr.lo : bound;
            auto nan_result = [&](float x) {
                return uses_fclamp(v) ? kai_ref::f32_bits(x) == kai_ref::f32_bits(bound) : std::isnan(x);
            };
            size_t inf_minus_inf = 0;
            for (size_t i = 0; i < m; ++i) {
                for (size_t c : kSpecialColumns) {
                    EXPECT_TRUE(nan_result(dst.value(i, c + 2))) << "NaN bias, " << i << ", " << c + 2;
                    EXPECT_EQ(dst.value(i, c), pos_inf) << "+inf, row " << i << ", " << c;
                    EXPECT_EQ(dst.value(i, c + 1), neg_inf) << "-inf, row " << i << ", " << c + 1;
                    // +inf bias, -inf weights: inf - inf = NaN unless every LHS value of the row is negative.
                    const float x3 = dst.value(i, c + 3);
                    EXPECT_TRUE(nan_result(x3) || x3 == pos_inf) << "row " << i << ", " << c + 3 << ": " << x3;
                    inf_minus_inf += nan_result(x3);
                }
            }
            EXPECT_GT(inf_minus_inf, 0u) << "no inf - inf accumulator: the test shows nothing";
        }
        fclamp_kernels += uses_fclamp(v);
    }
    EXPECT_GE(fclamp_kernels, 4u) << "the SME2 f32 / bf16 kernels";
}

// ------------------------------------------------------------------------------------------------
// Calling convention.
// ------------------------------------------------------------------------------------------------

class SmeKernelAbiTest : public ::testing::TestWithParam<size_t> {};

// x18-x28 and d8-d15 hold canaries across a call; streaming mode and ZA are off after it.
TEST_P(SmeKernelAbiTest, CalleeSavedRegistersSurviveACall) {
    const SmeFloatVariant& v = kai_registry::sme_float_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        Problem pr;
        const size_t t = tile_of_svl(svl);
        const size_t m = v.is_gemv ? 1 : t + 1, n = v.is_gemv ? 8 * t + 3 : t + 1, k = 19;
        make_problem(v, m, n, k, Clamp::kBoth, true, 11, &pr);
        DstBuffer dst(m, n, sizeof(float), n * sizeof(float));

        AbiFrame f = {};
        if (v.is_gemv) {
            f.fn = reinterpret_cast<uint64_t>(v.gemv.run_matmul);
            const uint64_t x[8] = {m, n, k, reinterpret_cast<uint64_t>(pr.lhs_buf->data()), k * sizeof(float),
                                   reinterpret_cast<uint64_t>(pr.rhs_buf->data()),
                                   reinterpret_cast<uint64_t>(dst.at(0, 0)), dst.stride()};
            std::memcpy(f.x, x, sizeof(x));
            f.stack_arg = sizeof(float);  // dst_stride_col, the 9th integer argument
        } else {
            f.fn = reinterpret_cast<uint64_t>(v.packed.run_matmul);
            const uint64_t x[8] = {m, n, k, reinterpret_cast<uint64_t>(pr.lhs_buf->data()),
                                   reinterpret_cast<uint64_t>(pr.rhs_buf->data()),
                                   reinterpret_cast<uint64_t>(dst.at(0, 0)), dst.stride(), sizeof(float)};
            std::memcpy(f.x, x, sizeof(x));
        }
        f.s0 = pr.lo;
        f.s1 = pr.hi;
        for (size_t i = 0; i < 11; ++i) f.in_gpr[i] = 0x1800000000000000ull + i * 0x0101010101010101ull;
        for (size_t i = 0; i < 8; ++i) f.in_d[i] = 0x3ff0000000000000ull + (i + 1) * 0x0000111111111111ull;
        kai_test_abi_call(&f);
        for (size_t i = 0; i < 11; ++i) EXPECT_EQ(f.out_gpr[i], f.in_gpr[i]) << "x" << 18 + i;
        for (size_t i = 0; i < 8; ++i) EXPECT_EQ(f.out_d[i], f.in_d[i]) << "d" << 8 + i;
        EXPECT_TRUE(check_output(v, pr, dst)) << "through the trampoline";

        uint64_t tpidr2 = 1, svcr = 1;
        kai_test_za_finish(&tpidr2, &svcr);
        EXPECT_EQ(svcr & 3u, 0u) << "SVCR.SM / SVCR.ZA after the call";
        EXPECT_EQ(tpidr2, 0u);
    }
}

// KleidiAI v1.30.0's own outputs of the SME f32 GEMV (its kxn packer's bytes, its kernel's bits), recorded at SVL
// 128 and 512 (five files each: edges of the 8 VL step, a clamp, inverted bounds, NaN and infinite accumulators);
// kai packs the recorded RHS with its own kxn packer and runs its own kernel.
TEST(SmeKernelCompat, SmeF32GemvMatchesKleidiAIsOutputs) {
    const SmeFloatVariant* v = nullptr;
    for (const auto& x : kai_registry::sme_float_variants())
        if (std::string(x.name) == "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla") v = &x;
    const SmeFloatRhsPacker* p = nullptr;
    for (const auto& r : kai_registry::sme_float_rhs_packers())
        if (std::string(r.name) == "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme") p = &r;
    ASSERT_NE(v, nullptr);
    ASSERT_NE(p, nullptr);
    KAI_TEST_SKIP_UNLESS(v->features);
    const auto files = kai_test::list_compat_vectors(std::string(v->name) + "__");
    ASSERT_EQ(files.size(), 10u);
    for (const std::string& f : files) {
        const kai_test::CompatVector cv = kai_test::load_compat_vector(f);
        ASSERT_TRUE(set_svl(cv.str("vector_length") == "svl128" ? 16 : 64)) << f;
        const size_t n = cv.size("n"), k = cv.size("k");
        ASSERT_EQ(cv.size("n_step"), v->gemv.get_n_step()) << f;
        const auto& want_rhs = cv.section("rhs_packed");
        std::vector<uint8_t> packed(p->get_rhs_packed_size(n, k), 0x3C);
        ASSERT_EQ(packed.size(), want_rhs.bytes.size()) << f;
        p->run(1, n, k, v->gemv.get_nr(), 1, 1, cv.size("rhs_stride"), cv.section("rhs").bytes.data(),
               cv.section("bias").bytes.data(), nullptr, packed.data(), 0, nullptr);
        ASSERT_TRUE(kai_test::bytes_equal(packed.data(), want_rhs.bytes.data(), packed.size())) << f;
        DstBuffer dst(1, n, sizeof(float), n * sizeof(float));
        v->gemv.run_matmul(1, n, k, cv.section("lhs").bytes.data(), k * 4, packed.data(), dst.at(0, 0), n * 4, 4,
                           cv.clamp_min(), cv.clamp_max());
        const float* want = cv.section("dst").f32();
        for (size_t j = 0; j < n; ++j) {
            const float got = dst.value(0, j);
            ASSERT_TRUE(std::isnan(want[j]) ? std::isnan(got) : kai_ref::f32_bits(got) == kai_ref::f32_bits(want[j]))
                << f << " column " << j << ": got " << got << ", KleidiAI " << want[j];
        }
        EXPECT_TRUE(dst.untouched_outside(0, 1, 0, n)) << f;
    }
}

// A caller with live ZA and a pending lazy save (TPIDR2_EL0 -> block): the kernel must store ZA to the block's
// buffer and clear TPIDR2_EL0 before using ZA, and still compute the right result.
TEST_P(SmeKernelAbiTest, CommitsAPendingLazyZaSave) {
    const SmeFloatVariant& v = kai_registry::sme_float_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    for (size_t svl : svls()) {
        ASSERT_TRUE(set_svl(svl));
        SCOPED_TRACE("SVL " + std::to_string(svl * 8));
        Problem pr;
        const size_t m = v.is_gemv ? 1 : 5, n = 21, k = 6;
        make_problem(v, m, n, k, Clamp::kNone, true, 13, &pr);
        DstBuffer dst(m, n, sizeof(float), n * sizeof(float));

        std::vector<uint8_t> pattern(svl * svl);
        for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + i / svl + 1);
        std::vector<uint8_t> save(svl * svl, 0);
        struct alignas(16) Tpidr2Block {
            uint64_t za_save_buffer;
            uint16_t num_za_save_slices;
            uint8_t reserved[6];
        } block = {reinterpret_cast<uint64_t>(save.data()), static_cast<uint16_t>(svl), {}};

        kai_test_za_arm_lazy_save(pattern.data(), &block);
        run_tile(v, pr, dst, 0, m, 0, n);
        uint64_t tpidr2 = 1, svcr = 1;
        kai_test_za_finish(&tpidr2, &svcr);
        EXPECT_EQ(tpidr2, 0u) << "TPIDR2_EL0 not cleared: the lazy save was not committed";
        EXPECT_EQ(svcr & 3u, 0u);
        EXPECT_TRUE(kai_test::bytes_equal(save.data(), pattern.data(), pattern.size())) << "ZA save buffer";
        EXPECT_TRUE(check_output(v, pr, dst));
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SmeKernelAbiTest, ::testing::Range<size_t>(0, kai_registry::sme_float_variants().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::sme_float_variants()[info.param].name);
                         });

// Packed buffers are specific to the SVL: a buffer packed at one SVL has another size at a different one, and
// the getters follow the SVL of the calling thread.
TEST(SmeVectorLength, GettersFollowTheThreadsSvl) {
    for (const SmeFloatVariant& v : kai_registry::sme_float_variants()) {
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        for (size_t svl : svls()) {
            ASSERT_TRUE(set_svl(svl));
            EXPECT_EQ(v.is_gemv ? v.gemv.get_nr() : v.packed.get_nr(), tile_of_svl(svl));
        }
    }
    for (const SmeFloatRhsPacker& p : kai_registry::sme_float_rhs_packers()) {
        KAI_TEST_SKIP_UNLESS(p.features);
        ASSERT_TRUE(set_svl(16));
        const size_t small = p.get_rhs_packed_size(3, 5);
        ASSERT_TRUE(set_svl(256));
        EXPECT_GT(p.get_rhs_packed_size(3, 5), small) << p.name;
    }
}

// ------------------------------------------------------------------------------------------------
// Preconditions (debug builds only: KAI_ASSUME is compiled out with NDEBUG).
// ------------------------------------------------------------------------------------------------

#ifndef NDEBUG
struct Violation {
    const char* function;
    std::string message;
    std::function<void()> call;
};

void expect_each_aborts(const char* stem, const std::vector<Violation>& table) {
    GTEST_FLAG_SET(death_test_style, "fast");  // re-exec does not work under qemu-user
    const std::string file = std::string(stem) + ".c";
    for (const Violation& v : table) {
        EXPECT_DEATH(v.call(), kai_test::kai_error_regex(file, v.message)) << v.function << ": \"" << v.message << "\"";
    }
}

class SmeKernelPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(SmeKernelPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const SmeFloatVariant& v = kai_registry::sme_float_variants()[GetParam()];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(64));
    alignas(16) static float buf[8192];
    float* dst = buf + 4096;
    const size_t k = 4, t = tile_of_svl(64);
    std::vector<Violation> table;
    if (v.is_gemv) {
        const auto& uk = v.gemv;
        const auto run = [&, uk](size_t m, const void* lhs, const void* rhs, void* d, size_t dsc) {
            uk.run_matmul(m, 3, k, lhs, k * 4, rhs, d, 64, dsc, -1.0f, 1.0f);
        };
        run(1, buf, buf, dst, 4);  // valid
        table = {
            {"get_lhs_offset", "m_idx must be 0", [&] { (void)uk.get_lhs_offset(1, k); }},
            {"get_rhs_packed_offset", "n_idx must be a multiple of nr", [&] { (void)uk.get_rhs_packed_offset(1, k); }},
            {"get_dst_offset", "m_idx must be 0", [&] { (void)uk.get_dst_offset(1, 0, 64); }},
            {"get_dst_offset", "n_idx must be a multiple of nr", [&] { (void)uk.get_dst_offset(0, t / 2, 64); }},
            {"run_matmul", "m must be 1", [&] { run(2, buf, buf, dst, 4); }},
            {"run_matmul", "dst_stride_col must be 4", [&] { run(1, buf, buf, dst, 8); }},
            {"run_matmul", "lhs must not be NULL", [&] { run(1, nullptr, buf, dst, 4); }},
            {"run_matmul", "rhs_packed must not be NULL", [&] { run(1, buf, nullptr, dst, 4); }},
            {"run_matmul", "dst must not be NULL", [&] { run(1, buf, buf, nullptr, 4); }},
        };
    } else {
        const auto& uk = v.packed;
        const auto run = [&, uk](size_t m, size_t n, const void* lhs, const void* rhs, void* d, size_t dsr, size_t dsc) {
            uk.run_matmul(m, n, k, lhs, rhs, d, dsr, dsc, -1.0f, 1.0f);
        };
        run(2, 3, buf, buf, dst, 64, 4);  // valid
        table = {
            {"get_lhs_packed_offset", "m_idx must be a multiple of the m step",
             [&] { (void)uk.get_lhs_packed_offset(t / 2, k); }},
            {"get_rhs_packed_offset", "n_idx must be a multiple of the n step",
             [&] { (void)uk.get_rhs_packed_offset(t / 2, k); }},
            {"get_dst_offset", "m_idx must be a multiple of the m step", [&] { (void)uk.get_dst_offset(1, 0, 64); }},
            {"get_dst_offset", "n_idx must be a multiple of the n step", [&] { (void)uk.get_dst_offset(0, 1, 64); }},
            {"run_matmul", "dst_stride_col must be 4", [&] { run(2, 3, buf, buf, dst, 64, 8); }},
            {"run_matmul", "lhs_packed must not be NULL", [&] { run(2, 3, nullptr, buf, dst, 64, 4); }},
            {"run_matmul", "rhs_packed must not be NULL", [&] { run(2, 3, buf, nullptr, dst, 64, 4); }},
            {"run_matmul", "dst must not be NULL", [&] { run(2, 3, buf, buf, nullptr, 64, 4); }},
            {"run_matmul", "dst_stride_row must be at least n * 4 when m > 1", [&] { run(2, 3, buf, buf, dst, 8, 4); }},
        };
    }
    expect_each_aborts(v.name, table);
}

INSTANTIATE_TEST_SUITE_P(Kernels, SmeKernelPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::sme_float_variants().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::sme_float_variants()[info.param].name);
                         });

class SmeLhsPackerPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(SmeLhsPackerPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const SmeFloatLhsPacker& p = kai_registry::sme_float_lhs_packers()[GetParam()];
    KAI_TEST_SKIP_UNLESS(p.features);
    ASSERT_TRUE(set_svl(64));
    const size_t mr = tile_of_svl(64), kr = p.bf16 ? 2 : 1, k = 4;
    alignas(16) static float lhs[256];
    alignas(16) static uint8_t packed[8192];
    const std::string kr_msg = p.bf16 ? "kr must be 2" : "kr must be 1";
    const auto run = [&](size_t m, size_t r_mr, size_t r_kr, size_t sr, size_t start, const void* src, void* out,
                         size_t stride) { p.run(m, k, r_mr, r_kr, sr, start, src, stride, out); };
    run(2, mr, kr, 1, 0, lhs, packed, k * 4);  // valid
    const std::vector<Violation> table = {
        {"get_m_step", "mr must be 2 * SVL / 32", [&] { (void)p.get_m_step(mr / 2); }},
        {"get_lhs_packed_offset", "mr must be 2 * SVL / 32", [&] { (void)p.get_lhs_packed_offset(0, k, mr * 2, kr, 1); }},
        {"get_lhs_packed_offset", kr_msg, [&] { (void)p.get_lhs_packed_offset(0, k, mr, kr + 1, 1); }},
        {"get_lhs_packed_offset", "sr must be 1", [&] { (void)p.get_lhs_packed_offset(0, k, mr, kr, 2); }},
        {"get_lhs_packed_offset", "m_idx must be a multiple of mr", [&] { (void)p.get_lhs_packed_offset(1, k, mr, kr, 1); }},
        {"get_lhs_packed_size", "mr must be 2 * SVL / 32", [&] { (void)p.get_lhs_packed_size(1, k, 4, kr, 1); }},
        {"run", "mr must be 2 * SVL / 32", [&] { run(2, 4, kr, 1, 0, lhs, packed, k * 4); }},
        {"run", kr_msg, [&] { run(2, mr, kr + 1, 1, 0, lhs, packed, k * 4); }},
        {"run", "sr must be 1", [&] { run(2, mr, kr, 2, 0, lhs, packed, k * 4); }},
        {"run", "m_idx_start must be 0", [&] { run(2, mr, kr, 1, mr, lhs, packed, k * 4); }},
        {"run", "lhs must not be NULL", [&] { run(2, mr, kr, 1, 0, nullptr, packed, k * 4); }},
        {"run", "lhs_packed must not be NULL", [&] { run(2, mr, kr, 1, 0, lhs, nullptr, k * 4); }},
        {"run", "lhs_stride_row must be at least k * 4 when m > 1", [&] { run(2, mr, kr, 1, 0, lhs, packed, 8); }},
    };
    expect_each_aborts(p.name, table);
}

INSTANTIATE_TEST_SUITE_P(Packers, SmeLhsPackerPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::sme_float_lhs_packers().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::sme_float_lhs_packers()[info.param].name);
                         });

class SmeRhsPackerPreconditionsDeathTest : public ::testing::TestWithParam<size_t> {};

TEST_P(SmeRhsPackerPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    const SmeFloatRhsPacker& p = kai_registry::sme_float_rhs_packers()[GetParam()];
    KAI_TEST_SKIP_UNLESS(p.features);
    ASSERT_TRUE(set_svl(64));
    const size_t nr = tile_of_svl(64), kr = p.bf16 ? 2 : 1, k = 4, n = 3;
    alignas(16) static float rhs[256], bias[64];
    alignas(16) static uint8_t packed[16384];
    static const float scale = 1.0f;
    static const int params = 0;
    const std::string kr_msg = p.bf16 ? "kr must be 2" : "kr must be 1";
    const size_t good_stride = (p.kxn ? n : k) * 4;
    const std::string stride_msg = p.kxn ? "rhs_stride must be at least n * 4 when k > 1"
                                          : "rhs_stride must be at least k * 4 when n > 1";
    const auto run = [&](size_t groups, size_t r_nr, size_t r_kr, size_t sr, size_t stride, const void* src,
                         const void* b, const void* sc, void* out, size_t extra, const void* prm) {
        p.run(groups, n, k, r_nr, r_kr, sr, stride, src, b, sc, out, extra, prm);
    };
    run(1, nr, kr, 1, good_stride, rhs, bias, nullptr, packed, 0, nullptr);  // valid
    const std::vector<Violation> table = {
        {"get_rhs_packed_offset", "n_idx must be a multiple of nr", [&] { (void)p.get_rhs_packed_offset(1, k); }},
        {"run", "num_groups must be 1", [&] { run(2, nr, kr, 1, good_stride, rhs, bias, nullptr, packed, 0, nullptr); }},
        {"run", "nr must be 2 * SVL / 32", [&] { run(1, nr / 2, kr, 1, good_stride, rhs, bias, nullptr, packed, 0, nullptr); }},
        {"run", kr_msg, [&] { run(1, nr, kr + 1, 1, good_stride, rhs, bias, nullptr, packed, 0, nullptr); }},
        {"run", "sr must be 1", [&] { run(1, nr, kr, 2, good_stride, rhs, bias, nullptr, packed, 0, nullptr); }},
        {"run", "scale must be NULL", [&] { run(1, nr, kr, 1, good_stride, rhs, bias, &scale, packed, 0, nullptr); }},
        {"run", "extra_bytes must be 0", [&] { run(1, nr, kr, 1, good_stride, rhs, bias, nullptr, packed, 4, nullptr); }},
        {"run", "params must be NULL", [&] { run(1, nr, kr, 1, good_stride, rhs, bias, nullptr, packed, 0, &params); }},
        {"run", "rhs must not be NULL", [&] { run(1, nr, kr, 1, good_stride, nullptr, bias, nullptr, packed, 0, nullptr); }},
        {"run", "bias must not be NULL (pass zeros for no bias)",
         [&] { run(1, nr, kr, 1, good_stride, rhs, nullptr, nullptr, packed, 0, nullptr); }},
        {"run", "rhs_packed must not be NULL", [&] { run(1, nr, kr, 1, good_stride, rhs, bias, nullptr, nullptr, 0, nullptr); }},
        {"run", stride_msg, [&] { run(1, nr, kr, 1, 4, rhs, bias, nullptr, packed, 0, nullptr); }},
    };
    expect_each_aborts(p.name, table);
}

INSTANTIATE_TEST_SUITE_P(Packers, SmeRhsPackerPreconditionsDeathTest,
                         ::testing::Range<size_t>(0, kai_registry::sme_float_rhs_packers().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                             return short_name(kai_registry::sme_float_rhs_packers()[info.param].name);
                         });
#endif  // NDEBUG

}  // namespace
