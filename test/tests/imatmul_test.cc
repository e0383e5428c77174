// SPDX-License-Identifier: Apache-2.0
// Tests of the f32 and f16 indirect GEMMs (families imatmul_f32p: kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme,
// kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme and the SME2 / SME MOPA kernels; imatmul_f16p:
// kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme, kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme and the SME2 / SME
// widening MOPA kernels, every chunk padded to an even length), one set of test bodies over both (a family trait
// gives what differs), at SVL 128 and 512 bits (set
// with prctl(PR_SME_SET_VL): mr, nr and the packed layouts change with it):
//  - packers: byte-exact against test/reference/imatmul_ref (written from docs/formats.md, "Indirect GEMM packed
//    layouts"): pointer tables of offsets (lhs_ptr_offset the base, entry 0 included) with padding chunks, the size
//    and stride getters, packing by row / column blocks through the offset getters;
//  - kernels: f32 bit-exact against the recipe's fma chain, f16 within sme_f16_error_bound of the exact sum of
//    the padded operands, over shapes x chunkings x clamps, whole and tile by tile
//    through the offset getters, into a NaN-sentinel destination with a wider row stride; NaN accumulators
//    (inf - inf) give each kernel's KleidiAI clamp result;
//  - KleidiAI v1.30.0 vectors (test/data/compat, SVL 128 and 512): packed bytes and kernel outputs;
//  - death tests: every documented precondition aborts naming its parameter (debug builds).
// The target runs under the SME2 emulator (KAI_NEEDS_SME2=1).

#include <gtest/gtest.h>

#include <sys/prctl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/environment.h"
#include "test/common/preconditions.h"
#include "test/common/rng.h"
#include "test/reference/imatmul_ref.h"
#include "test/reference/reference_common.h"
#include "test/reference/sme_f16_ref.h"
#include "test/registry/imatmul_registry.h"

#ifndef PR_SME_SET_VL
#define PR_SME_SET_VL 63
#define PR_SME_GET_VL 64
#endif
#ifndef PR_SME_VL_LEN_MASK
#define PR_SME_VL_LEN_MASK 0xffff
#endif

namespace {

using kai_registry::ImatmulF16Variant;
using kai_registry::ImatmulLhsPacker;
using kai_registry::ImatmulRhsPacker;
using kai_registry::ImatmulVariant;
using kai_test::DstBuffer;
using kai_test::GuardedBuffer;
using kai_test::Rng;

// The streaming vector lengths of the suite, in bytes (128 and 512 bits).
const size_t kSvls[] = {16, 64};

::testing::AssertionResult set_svl(size_t bytes) {
    if (prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0) < 0)
        return ::testing::AssertionFailure() << "prctl(PR_SME_SET_VL, " << bytes << ") failed";
    const int got = prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK;
    if (static_cast<size_t>(got) != bytes) return ::testing::AssertionFailure() << "SVL is " << got << " bytes";
    return ::testing::AssertionSuccess();
}

size_t tile_of_svl(size_t svl_bytes) {
    return 2 * svl_bytes / sizeof(float);
}

uint64_t test_seed() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return kai_test::seed_from(std::string(info->test_suite_name()) + "." + info->name());
}

std::string short_name(const char* name) {
    std::string s(name);
    for (const std::string p : {"kai_imatmul_clamp_f32_", "kai_imatmul_clamp_f16_", "kai_lhs_imatmul_pack_", "kai_rhs_imatmul_pack_"})
        if (s.rfind(p, 0) == 0) return s.substr(p.size());
    return s;
}

// An indirect LHS: a pool of chunks (k_chunk_length values of T each) and a padding chunk; the table (in the
// packers' blocked order, docs/formats.md, "Indirect GEMM packed layouts") holds byte offsets from the pool (the
// first entry is offset 0, a NULL pointer) or pad_ptr, one in five entries when `pads`.
template <typename T>
struct IndirectLhsT {
    std::vector<T> pool;
    std::vector<T> pad;
    std::vector<const void*> table;
    size_t offset() const { return reinterpret_cast<uintptr_t>(pool.data()); }
};

// The values of T (f32 or f16 bit patterns) from floats.
template <typename T>
T from_float(float x);
template <>
float from_float<float>(float x) {
    return x;
}
template <>
uint16_t from_float<uint16_t>(float x) {
    return kai_ref::f16_from_f32(x);
}

template <typename T>
IndirectLhsT<T> make_lhs(size_t m, size_t kcc, size_t kcl, size_t mr, bool pads, uint64_t seed) {
    Rng rng(seed);
    IndirectLhsT<T> l;
    const size_t chunks = m * kcc + 2;
    l.pool.resize(std::max<size_t>(chunks * kcl, 1));
    for (auto& x : l.pool) x = from_float<T>(rng.uniform(-1.0f, 1.0f));
    l.pad.resize(std::max<size_t>(kcl, 1));
    for (size_t i = 0; i < l.pad.size(); ++i) l.pad[i] = from_float<T>(0.5f + static_cast<float>(i));  // not 0: seen if misread
    const size_t blocks = (m + mr - 1) / mr;
    l.table.assign(blocks * mr * kcc, nullptr);
    size_t next = 0;
    for (size_t e = 0; e < l.table.size(); ++e) {
        if (pads && static_cast<size_t>(rng.next_u64()) % 5 == 0) {
            l.table[e] = l.pad.data();
        } else {
            // The first non-pad entry is offset 0 (NULL); then a scattered chunk of the pool.
            const size_t chunk = next++ == 0 ? 0 : static_cast<size_t>(rng.next_u64()) % chunks;
            l.table[e] = reinterpret_cast<const void*>(static_cast<uintptr_t>(chunk * kcl * sizeof(T)));
        }
    }
    return l;
}

// One output of the f16 kernels against the reference: identical bits, or both finite and within the bound;
// a NaN or an infinity must be matched (NaN as a class).
::testing::AssertionResult f16_close(uint16_t got, uint16_t want, double abs_sum, size_t k) {
    const float g = kai_ref::f32_from_f16(got), w = kai_ref::f32_from_f16(want);
    if (got == want || (std::isnan(g) && std::isnan(w))) return ::testing::AssertionSuccess();
    if (std::isfinite(g) && std::isfinite(w) &&
        std::fabs(static_cast<double>(g) - w) <= kai_ref::sme_f16_error_bound(abs_sum, k, std::fmax(std::fabs(g), std::fabs(w))))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << g << " (0x" << std::hex << got << ") want " << w << " (0x" << want
                                         << ")";
}

// The two families behind one set of test bodies: registry lists, element type, packed depth, reference packers
// and the kernels' reference check (f32: the fma recipe bit for bit; f16: the exact sum of the padded operands
// within sme_f16_error_bound, docs/imatmul.md).
struct F32Family {
    using T = float;
    using Variant = ImatmulVariant;
    static const std::vector<Variant>& variants() { return kai_registry::imatmul_variants(); }
    static const std::vector<ImatmulLhsPacker>& lhs_packers() { return kai_registry::imatmul_lhs_packers(); }
    static const std::vector<ImatmulRhsPacker>& rhs_packers() { return kai_registry::imatmul_rhs_packers(); }
    static size_t packed_depth(size_t kcc, size_t kcl) { return kcc * kcl; }
    static std::vector<uint8_t> ref_lhs(const void* const* table, size_t m, size_t kcc, size_t kcl, size_t mr,
                                        size_t offset, const void* pad) {
        return kai_ref::imatmul_pack_lhs_x32p2vlx1(table, m, kcc, kcl, mr, offset, pad);
    }
    static std::vector<uint8_t> ref_rhs(const uint8_t* rhs, size_t stride, const uint8_t* bias, size_t n, size_t kcc,
                                        size_t kcl, size_t nr) {
        return kai_ref::imatmul_pack_rhs_x32p2vlx1b(rhs, stride, bias, n, kcc * kcl, nr);
    }
    // Compares dst (m x n) with the recipe; returns the number of mismatches (the first three reported).
    static size_t check(const Variant& v, const IndirectLhsT<T>& l, const std::vector<T>& w, const std::vector<T>& bias,
                        size_t m, size_t n, size_t kcc, size_t kcl, size_t t, float lo, float hi, const DstBuffer& dst) {
        const std::vector<float> a = kai_ref::imatmul_gather_f32(l.table.data(), m, kcc, kcl, t, l.offset(), l.pad.data());
        const std::vector<float> ref = kai_ref::imatmul_f32_fma(
            a.data(), w.data(), bias.data(), m, n, kcc * kcl, lo, hi,
            v.fclamp ? kai_ref::ImatmulClamp::fclamp : kai_ref::ImatmulClamp::min_max);
        size_t bad = 0;
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                uint32_t want;
                std::memcpy(&want, &ref[i * n + j], 4);
                if (dst.bits(i, j) != want && bad++ < 3)
                    ADD_FAILURE() << "(" << i << ", " << j << "): got " << dst.value(i, j) << ", want " << ref[i * n + j];
            }
        return bad;
    }
};

struct F16Family {
    using T = uint16_t;
    using Variant = ImatmulF16Variant;
    static const std::vector<Variant>& variants() { return kai_registry::imatmul_f16_variants(); }
    static const std::vector<ImatmulLhsPacker>& lhs_packers() { return kai_registry::imatmul_f16_lhs_packers(); }
    static const std::vector<ImatmulRhsPacker>& rhs_packers() { return kai_registry::imatmul_f16_rhs_packers(); }
    static size_t packed_depth(size_t kcc, size_t kcl) { return kcc * ((kcl + 1) / 2 * 2); }
    static std::vector<uint8_t> ref_lhs(const void* const* table, size_t m, size_t kcc, size_t kcl, size_t mr,
                                        size_t offset, const void* pad) {
        return kai_ref::imatmul_pack_lhs_x16p2vlx2(table, m, kcc, kcl, mr, offset, pad);
    }
    static std::vector<uint8_t> ref_rhs(const uint8_t* rhs, size_t stride, const uint8_t* bias, size_t n, size_t kcc,
                                        size_t kcl, size_t nr) {
        return kai_ref::imatmul_pack_rhs_x16p2vlx2b(rhs, stride, bias, n, kcc, kcl, nr);
    }
    static size_t check(const Variant& v, const IndirectLhsT<T>& l, const std::vector<T>& w, const std::vector<T>& bias,
                        size_t m, size_t n, size_t kcc, size_t kcl, size_t t, float lo, float hi, const DstBuffer& dst) {
        const size_t kp = packed_depth(kcc, kcl);
        const std::vector<uint16_t> a =
            kai_ref::imatmul_gather_f16_padded(l.table.data(), m, kcc, kcl, t, l.offset(), l.pad.data());
        const std::vector<uint16_t> wp =
            kai_ref::imatmul_pad_rhs_f16(reinterpret_cast<const uint8_t*>(w.data()), n * 2, n, kcc, kcl);
        std::vector<double> exact, abs_sum;
        kai_ref::sme_matmul_f16_exact(a.data(), wp.data(), bias.data(), m, n, kp, &exact, &abs_sum);
        size_t bad = 0;
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                const uint16_t want = kai_ref::sme_f16_output(exact[i * n + j], lo, hi, v.fclamp);
                const auto r = f16_close(static_cast<uint16_t>(dst.bits(i, j)), want, abs_sum[i * n + j], kp);
                if (!r && bad++ < 3) ADD_FAILURE() << "(" << i << ", " << j << "): " << r.message();
            }
        return bad;
    }
};

// ------------------------------------------------------------------------------------------------
// Packers.
// ------------------------------------------------------------------------------------------------

struct PackCase {
    size_t svl;
    size_t rows, kcc, kcl;
};

std::vector<PackCase> pack_cases() {
    std::vector<PackCase> out;
    for (size_t svl : kSvls) {
        const size_t t = tile_of_svl(svl);
        for (size_t rows : {size_t{1}, size_t{3}, t - 1, t, t + 1, 2 * t + 5})
            for (const auto& kc : std::vector<std::pair<size_t, size_t>>{{1, 1}, {1, 7}, {3, 1}, {4, 5}, {9, 16}, {2, 33}}) {
                if (kai_test::reduced_sweep() && kc.first != 4 && kc.first != 1) continue;
                out.push_back({svl, rows, kc.first, kc.second});
            }
    }
    return out;
}

std::string pack_case_name(const ::testing::TestParamInfo<PackCase>& info) {
    std::ostringstream os;
    os << "svl" << info.param.svl * 8 << "_" << info.param.rows << "_kc" << info.param.kcc << "x" << info.param.kcl;
    return os.str();
}

// The LHS packers of family F against the reference, whole and by row blocks through the offset getter.
template <typename F>
void lhs_pack_case(const PackCase& c) {
    using T = typename F::T;
    for (const ImatmulLhsPacker& p : F::lhs_packers()) {
        SCOPED_TRACE(p.name);
        KAI_TEST_SKIP_UNLESS(p.features);
        ASSERT_TRUE(set_svl(c.svl));
        const uint64_t seed = test_seed();
        SCOPED_TRACE(kai_test::seed_trace(seed));
        const size_t m = c.rows, mr = tile_of_svl(c.svl);
        const IndirectLhsT<T> l = make_lhs<T>(m, c.kcc, c.kcl, mr, true, seed);
        EXPECT_EQ(p.get_m_step(), mr);
        EXPECT_EQ(p.get_lhs_packed_offset(mr, c.kcc, c.kcl), mr * F::packed_depth(c.kcc, c.kcl) * sizeof(T));
        const std::vector<uint8_t> expected = F::ref_lhs(l.table.data(), m, c.kcc, c.kcl, mr, l.offset(), l.pad.data());
        ASSERT_EQ(p.get_lhs_packed_size(m, c.kcc, c.kcl), expected.size());
        GuardedBuffer whole(expected.size());
        p.run(m, c.kcc, c.kcl, l.table.data(), l.offset(), l.pad.data(), whole.data());
        EXPECT_TRUE(kai_test::bytes_equal(whole.data(), expected.data(), expected.size()));
        EXPECT_TRUE(whole.front_intact());
        if (m > mr) {
            GuardedBuffer parts(expected.size(), 0x5A);
            for (size_t m0 = 0; m0 < m; m0 += mr) {
                p.run(std::min(mr, m - m0), c.kcc, c.kcl, l.table.data() + m0 * c.kcc, l.offset(), l.pad.data(),
                      parts.data() + p.get_lhs_packed_offset(m0, c.kcc, c.kcl));
            }
            EXPECT_TRUE(kai_test::bytes_equal(parts.data(), expected.data(), expected.size())) << "by row blocks";
        }
    }
}

// The RHS packers of family F against the reference (a row stride wider than n, NaN in the gap), whole and by
// column blocks through the offset getters.
template <typename F>
void rhs_pack_case(const PackCase& c) {
    using T = typename F::T;
    for (const ImatmulRhsPacker& p : F::rhs_packers()) {
        SCOPED_TRACE(p.name);
        KAI_TEST_SKIP_UNLESS(p.features);
        ASSERT_TRUE(set_svl(c.svl));
        const uint64_t seed = test_seed();
        SCOPED_TRACE(kai_test::seed_trace(seed));
        const size_t n = c.rows, k = c.kcc * c.kcl, kp = F::packed_depth(c.kcc, c.kcl), nr = tile_of_svl(c.svl),
                     ld = n + 3, e = sizeof(T);
        Rng rng(seed);
        std::vector<T> rhs(k * ld, from_float<T>(std::numeric_limits<float>::quiet_NaN())), bias(n);
        for (size_t kk = 0; kk < k; ++kk)
            for (size_t j = 0; j < n; ++j) rhs[kk * ld + j] = from_float<T>(rng.uniform(-1.0f, 1.0f));
        for (auto& b : bias) b = from_float<T>(rng.uniform(-1.0f, 1.0f));
        EXPECT_EQ(p.get_n_step(), nr);
        EXPECT_EQ(p.get_rhs_offset(nr), nr * e);
        EXPECT_EQ(p.get_bias_offset(3), 3 * e);
        EXPECT_EQ(p.get_rhs_packed_stride(c.kcc, c.kcl), nr * (1 + kp) * e);
        EXPECT_EQ(p.get_rhs_packed_offset(nr, c.kcc, c.kcl), nr * (1 + kp) * e);
        const std::vector<uint8_t> expected = F::ref_rhs(reinterpret_cast<const uint8_t*>(rhs.data()), ld * e,
                                                         reinterpret_cast<const uint8_t*>(bias.data()), n, c.kcc, c.kcl, nr);
        ASSERT_EQ(p.get_rhs_packed_size(n, c.kcc, c.kcl), expected.size());
        GuardedBuffer whole(expected.size());
        p.run(n, c.kcc, c.kcl, ld * e, rhs.data(), bias.data(), whole.data());
        EXPECT_TRUE(kai_test::bytes_equal(whole.data(), expected.data(), expected.size()));
        EXPECT_TRUE(whole.front_intact());
        if (n > nr) {
            GuardedBuffer parts(expected.size(), 0x5A);
            for (size_t n0 = 0; n0 < n; n0 += nr) {
                p.run(std::min(nr, n - n0), c.kcc, c.kcl, ld * e,
                      reinterpret_cast<const uint8_t*>(rhs.data()) + p.get_rhs_offset(n0),
                      reinterpret_cast<const uint8_t*>(bias.data()) + p.get_bias_offset(n0),
                      parts.data() + p.get_rhs_packed_offset(n0, c.kcc, c.kcl));
            }
            EXPECT_TRUE(kai_test::bytes_equal(parts.data(), expected.data(), expected.size())) << "by column blocks";
        }
    }
}

class ImatmulLhsPackTest : public ::testing::TestWithParam<PackCase> {};
TEST_P(ImatmulLhsPackTest, MatchesReference) {
    lhs_pack_case<F32Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Packers, ImatmulLhsPackTest, ::testing::ValuesIn(pack_cases()), pack_case_name);

class ImatmulRhsPackTest : public ::testing::TestWithParam<PackCase> {};
TEST_P(ImatmulRhsPackTest, MatchesReference) {
    rhs_pack_case<F32Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Packers, ImatmulRhsPackTest, ::testing::ValuesIn(pack_cases()), pack_case_name);

// f16: every chunk padded to an even length (kr = 2); odd chunk lengths are in every sweep.
class ImatmulF16LhsPackTest : public ::testing::TestWithParam<PackCase> {};
TEST_P(ImatmulF16LhsPackTest, MatchesReference) {
    lhs_pack_case<F16Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Packers, ImatmulF16LhsPackTest, ::testing::ValuesIn(pack_cases()), pack_case_name);

class ImatmulF16RhsPackTest : public ::testing::TestWithParam<PackCase> {};
TEST_P(ImatmulF16RhsPackTest, MatchesReference) {
    rhs_pack_case<F16Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Packers, ImatmulF16RhsPackTest, ::testing::ValuesIn(pack_cases()), pack_case_name);

// The registry lists each family's units in kernels.bzl's order, the SME2 kernels flagged as FCLAMP ones.
template <typename F>
void expect_registry(const std::vector<std::string>& want) {
    std::vector<std::string> names;
    for (const auto& p : F::lhs_packers()) names.push_back(p.name);
    for (const auto& p : F::rhs_packers()) names.push_back(p.name);
    for (const auto& v : F::variants()) names.push_back(v.name);
    EXPECT_EQ(names, want);
    for (const auto& v : F::variants()) EXPECT_EQ(v.fclamp, std::string(v.name).find("_sme2_") != std::string::npos) << v.name;
}

TEST(ImatmulPackers, TheRegistryHoldsTheFamilysUnits) {
    expect_registry<F32Family>({"kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme", "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme",
                                "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa",
                                "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa"});
    expect_registry<F16Family>({"kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme", "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme",
                                "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa",
                                "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa"});
}

// ------------------------------------------------------------------------------------------------
// Kernels.
// ------------------------------------------------------------------------------------------------

enum class Clamp { kNone, kBoth, kInverted };

struct KernelCase {
    size_t variant;
    size_t svl;
    int m_rel, n_rel;  // tile-relative: t * (x / 100) + x % 100 for x >= 100, else x
    size_t kcc, kcl;
    Clamp clamp;
};

size_t resolve(int x, size_t t) {
    return x >= 100 ? t * static_cast<size_t>(x / 100) + static_cast<size_t>(x % 100) : static_cast<size_t>(x);
}

template <typename F>
std::vector<KernelCase> kernel_cases() {
    std::vector<KernelCase> out;
    const std::pair<int, int> shapes[] = {{1, 1}, {3, 5}, {100, 100}, {101, 199}, {199, 101}, {205, 203}};
    const std::pair<size_t, size_t> chunks[] = {{1, 1}, {1, 9}, {3, 1}, {4, 5}, {9, 8}, {2, 33}};
    for (size_t v = 0; v < F::variants().size(); ++v)
        for (size_t svl : kSvls)
            for (const auto& s : shapes)
                for (const auto& kc : chunks)
                    for (Clamp cl : {Clamp::kNone, Clamp::kBoth, Clamp::kInverted}) {
                        if (cl != Clamp::kNone && kc.first != 4 && kc.first != 2) continue;
                        if (kai_test::reduced_sweep() && (kc.first == 9 || kc.first == 1 || cl == Clamp::kInverted)) continue;
                        out.push_back({v, svl, s.first, s.second, kc.first, kc.second, cl});
                    }
    return out;
}

template <typename F>
std::string kernel_case_name(const ::testing::TestParamInfo<KernelCase>& info) {
    const KernelCase& c = info.param;
    std::ostringstream os;
    os << short_name(F::variants()[c.variant].name) << "_svl" << c.svl * 8 << "_m" << c.m_rel << "_n" << c.n_rel << "_kc"
       << c.kcc << "x" << c.kcl << (c.clamp == Clamp::kNone ? "" : c.clamp == Clamp::kBoth ? "_clamp" : "_inverted");
    return os.str();
}

// Packs an indirect problem with family F's packers.
struct Packed {
    std::vector<uint8_t> lhs, rhs;
};

template <typename F, typename T>
Packed pack(size_t m, size_t n, size_t kcc, size_t kcl, const IndirectLhsT<T>& l, const T* w_kxn, const T* bias) {
    const ImatmulLhsPacker& lp = F::lhs_packers()[0];
    const ImatmulRhsPacker& rp = F::rhs_packers()[0];
    Packed p;
    p.lhs.resize(lp.get_lhs_packed_size(m, kcc, kcl));
    p.rhs.resize(rp.get_rhs_packed_size(n, kcc, kcl));
    lp.run(m, kcc, kcl, l.table.data(), l.offset(), l.pad.data(), p.lhs.data());
    rp.run(n, kcc, kcl, n * sizeof(T), w_kxn, bias, p.rhs.data());
    return p;
}

// One kernel case of family F: the getters, the whole call against the family's check (into a sentinel
// destination with a wider row stride), then tile by tile through the offset getters with the same bits.
template <typename F>
void kernel_case(const KernelCase& c) {
    using T = typename F::T;
    const typename F::Variant& v = F::variants()[c.variant];
    KAI_TEST_SKIP_UNLESS(v.features);
    ASSERT_TRUE(set_svl(c.svl));
    const uint64_t seed = test_seed();
    SCOPED_TRACE(kai_test::seed_trace(seed));
    const size_t t = tile_of_svl(c.svl), m = resolve(c.m_rel, t), n = resolve(c.n_rel, t), k = c.kcc * c.kcl,
                 kp = F::packed_depth(c.kcc, c.kcl), e = sizeof(T);
    const auto& uk = v.uk;
    EXPECT_EQ(uk.get_m_step(), t);
    EXPECT_EQ(uk.get_n_step(), t);
    EXPECT_EQ(uk.get_lhs_packed_offset(t, c.kcc, c.kcl), t * kp * e);
    EXPECT_EQ(uk.get_rhs_packed_offset(t, c.kcc, c.kcl), t * (1 + kp) * e);
    EXPECT_EQ(uk.get_dst_offset(t, t, 1000), t * 1000 + t * e);
    EXPECT_EQ(uk.get_dst_size(m, n), m * n * e);

    const IndirectLhsT<T> l = make_lhs<T>(m, c.kcc, c.kcl, t, true, seed);
    Rng rng(seed + 1);
    std::vector<T> w(k * n), bias(n);
    for (auto& x : w) x = from_float<T>(rng.uniform(-1.0f, 1.0f));
    for (auto& x : bias) x = from_float<T>(rng.uniform(-1.0f, 1.0f));
    const Packed p = pack<F>(m, n, c.kcc, c.kcl, l, w.data(), bias.data());
    float lo = -std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::max();
    if (c.clamp == Clamp::kBoth) lo = -0.3f, hi = 0.4f;
    if (c.clamp == Clamp::kInverted) lo = 0.25f, hi = -0.25f;

    const size_t stride = (n + 3) * e;
    DstBuffer whole(m, n, e, stride);
    uk.run_imatmul(m, n, c.kcc, c.kcl, p.lhs.data(), p.rhs.data(), whole.at(0, 0), stride, lo, hi);
    EXPECT_TRUE(whole.untouched_outside(0, m, 0, n));
    EXPECT_EQ(F::check(v, l, w, bias, m, n, c.kcc, c.kcl, t, lo, hi, whole), 0u);

    if (m > t || n > t) {
        DstBuffer tiles(m, n, e, stride);
        for (size_t m0 = 0; m0 < m; m0 += t)
            for (size_t n0 = 0; n0 < n; n0 += t) {
                uk.run_imatmul(std::min(t, m - m0), std::min(t, n - n0), c.kcc, c.kcl,
                               p.lhs.data() + uk.get_lhs_packed_offset(m0, c.kcc, c.kcl),
                               p.rhs.data() + uk.get_rhs_packed_offset(n0, c.kcc, c.kcl),
                               tiles.at(0, 0) + uk.get_dst_offset(m0, n0, stride), stride, lo, hi);
            }
        EXPECT_TRUE(tiles.untouched_outside(0, m, 0, n));
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) ASSERT_EQ(tiles.bits(i, j), whole.bits(i, j)) << i << ", " << j;
    }
}

class ImatmulKernelTest : public ::testing::TestWithParam<KernelCase> {};
TEST_P(ImatmulKernelTest, BitExactAgainstTheRecipe) {
    kernel_case<F32Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Kernels, ImatmulKernelTest, ::testing::ValuesIn(kernel_cases<F32Family>()),
                         kernel_case_name<F32Family>);

class ImatmulF16KernelTest : public ::testing::TestWithParam<KernelCase> {};
TEST_P(ImatmulF16KernelTest, WithinTheBoundOfTheExactSum) {
    kernel_case<F16Family>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Kernels, ImatmulF16KernelTest, ::testing::ValuesIn(kernel_cases<F16Family>()),
                         kernel_case_name<F16Family>);

// An accumulator that becomes NaN (inf - inf): the SME2 kernel's FCLAMP gives clamp_min, the SME kernel's
// FMIN / FMAX keep NaN (each KleidiAI's result); +inf and -inf accumulators clamp to the bounds. Row i reads
// chunks (inf, inf), (inf, 1) or (1, 1) by i % 3, column j has weights (1, -1), (1, 1) or (-1, -1) by j % 3, over
// 2VL + 3 rows and columns, so every kind reaches both halves of the tile and both store paths (4 rows, 1 row).
TEST(ImatmulSpecialValues, NanAndInfinityAccumulators) {
    for (const ImatmulVariant& v : kai_registry::imatmul_variants()) {
        SCOPED_TRACE(v.name);
        KAI_TEST_SKIP_UNLESS(v.features);
        for (size_t svl : kSvls) {
            ASSERT_TRUE(set_svl(svl));
            const size_t t = tile_of_svl(svl), m = t + 3, n = t + 3, kcc = 2, kcl = 1;
            IndirectLhsT<float> l = make_lhs<float>(m, kcc, kcl, t, false, 1);
            const float inf = std::numeric_limits<float>::infinity();
            l.pool = {inf, inf, inf, 1.0f, 1.0f, 1.0f};  // the three row kinds, chunk by chunk
            for (size_t i = 0; i < m; ++i)
                for (size_t c = 0; c < kcc; ++c)
                    l.table[(i / t) * t * kcc + c * t + i % t] =
                        reinterpret_cast<const void*>(static_cast<uintptr_t>(((i % 3) * kcc + c) * 4));
            const float kinds[3][2] = {{1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, -1.0f}};
            std::vector<float> w(kcc * n), bias(n, 0.0f);
            for (size_t j = 0; j < n; ++j)
                for (size_t c = 0; c < kcc; ++c) w[c * n + j] = kinds[j % 3][c];
            const Packed p = pack<F32Family>(m, n, kcc, kcl, l, w.data(), bias.data());
            DstBuffer dst(m, n, 4, n * 4);
            v.uk.run_imatmul(m, n, kcc, kcl, p.lhs.data(), p.rhs.data(), dst.at(0, 0), n * 4, -2.0f, 3.0f);
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    const float got = dst.value(i, j);
                    if (i % 3 == 0 && j % 3 == 0) {  // inf - inf
                        if (v.fclamp) {
                            EXPECT_EQ(got, -2.0f) << i << ", " << j;
                        } else {
                            EXPECT_TRUE(std::isnan(got)) << i << ", " << j << ": " << got;
                        }
                    } else if (i % 3 != 2 && j % 3 != 0) {  // +-inf
                        EXPECT_EQ(got, j % 3 == 1 ? 3.0f : -2.0f) << i << ", " << j;
                    }
                }
            const std::vector<float> a =
                kai_ref::imatmul_gather_f32(l.table.data(), m, kcc, kcl, t, l.offset(), l.pad.data());
            const std::vector<float> ref = kai_ref::imatmul_f32_fma(
                a.data(), w.data(), bias.data(), m, n, kcc * kcl, -2.0f, 3.0f,
                v.fclamp ? kai_ref::ImatmulClamp::fclamp : kai_ref::ImatmulClamp::min_max);
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    uint32_t want;
                    std::memcpy(&want, &ref[i * n + j], 4);
                    EXPECT_EQ(dst.bits(i, j), want) << i << ", " << j;
                }
        }
    }
}


// ------------------------------------------------------------------------------------------------
// KleidiAI v1.30.0 vectors (docs/imatmul.md, "Compat vectors"): the packers byte for byte on the recorded
// pointer table (chunk indices replayed as byte offsets index * k_chunk_length * sizeof(T)), the reference
// packers too, and the kernel's outputs bit for bit (f16 included: the vectors were recorded under the same
// emulator). Returns the number of files replayed.
// ------------------------------------------------------------------------------------------------

template <typename F>
size_t replay_compat_vectors() {
    using T = typename F::T;
    const size_t e = sizeof(T);
    size_t files = 0;
    for (const typename F::Variant& v : F::variants()) {
        if (!kai_test::missing_features(v.features).empty()) continue;
        for (const std::string& path : kai_test::list_compat_vectors(std::string(v.name) + "__")) {
            SCOPED_TRACE(path);
            const kai_test::CompatVector cv = kai_test::load_compat_vector(path);
            const std::string vl = cv.str("vector_length");
            EXPECT_TRUE(vl == "svl128" || vl == "svl512");
            const size_t svl = vl == "svl128" ? 16 : 64;
            EXPECT_TRUE(set_svl(svl));
            const size_t m = cv.size("m"), n = cv.size("n"), kcc = cv.size("k_chunk_count"),
                         kcl = cv.size("k_chunk_length"), t = tile_of_svl(svl);
            EXPECT_EQ(v.uk.get_m_step(), cv.size("m_step"));
            EXPECT_EQ(v.uk.get_n_step(), cv.size("n_step"));
            // The table: chunk indices of [lhs] (0xFFFFFFFF: the padding chunk, 0xFFFFFFFE: never read).
            const auto& tab = cv.section("table");
            const uint8_t* pool = cv.section("lhs").bytes.data();
            const uint8_t* pad = cv.section("pad").bytes.data();
            std::vector<const void*> table(tab.bytes.size() / 4);
            for (size_t i = 0; i < table.size(); ++i) {
                uint32_t idx;
                std::memcpy(&idx, &tab.bytes[i * 4], 4);
                table[i] = idx == 0xFFFFFFFFu ? static_cast<const void*>(pad)
                           : idx == 0xFFFFFFFEu ? nullptr
                                                : reinterpret_cast<const void*>(static_cast<uintptr_t>(idx * kcl * e));
            }
            const ImatmulLhsPacker& lp = F::lhs_packers()[0];
            const ImatmulRhsPacker& rp = F::rhs_packers()[0];
            const auto& want_l = cv.section("lhs_packed");
            const auto& want_r = cv.section("rhs_packed");
            const auto& rhs = cv.section("rhs").bytes;
            const auto& bias = cv.section("bias").bytes;
            EXPECT_EQ(lp.get_lhs_packed_size(m, kcc, kcl), want_l.bytes.size());
            EXPECT_EQ(rp.get_rhs_packed_size(n, kcc, kcl), want_r.bytes.size());
            if (lp.get_lhs_packed_size(m, kcc, kcl) != want_l.bytes.size() ||
                rp.get_rhs_packed_size(n, kcc, kcl) != want_r.bytes.size())
                continue;
            GuardedBuffer lhs_packed(want_l.bytes.size()), rhs_packed(want_r.bytes.size());
            lp.run(m, kcc, kcl, table.data(), reinterpret_cast<uintptr_t>(pool), pad, lhs_packed.data());
            rp.run(n, kcc, kcl, cv.size("rhs_stride"), rhs.data(), bias.data(), rhs_packed.data());
            const auto same = [](const uint8_t* got, const kai_test::CompatSection& want) {
                return kai_test::bytes_equal(got, want.bytes.data(), want.bytes.size(), want.mask.data());
            };
            EXPECT_TRUE(same(lhs_packed.data(), want_l));
            EXPECT_TRUE(same(rhs_packed.data(), want_r));
            // The reference packers agree with the recorded bytes too (the spec is KleidiAI's layout).
            EXPECT_TRUE(same(F::ref_lhs(table.data(), m, kcc, kcl, t, reinterpret_cast<uintptr_t>(pool), pad).data(), want_l));
            EXPECT_TRUE(same(F::ref_rhs(rhs.data(), cv.size("rhs_stride"), bias.data(), n, kcc, kcl, t).data(), want_r));
            DstBuffer dst(m, n, e, (n + 1) * e);
            v.uk.run_imatmul(m, n, kcc, kcl, lhs_packed.data(), rhs_packed.data(), dst.at(0, 0), (n + 1) * e,
                             cv.clamp_min(), cv.clamp_max());
            EXPECT_TRUE(dst.untouched_outside(0, m, 0, n));
            const auto& want_d = cv.section("dst");
            size_t bad = 0;
            for (size_t i = 0; i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    uint32_t want = 0;
                    std::memcpy(&want, &want_d.bytes[(i * n + j) * e], e);  // little-endian: zero-extended
                    if (dst.bits(i, j) != want && bad++ < 3)
                        ADD_FAILURE() << "(" << i << ", " << j << "): 0x" << std::hex << dst.bits(i, j) << " want 0x" << want;
                }
            EXPECT_EQ(bad, 0u) << "outputs differ from KleidiAI's";
            ++files;
        }
    }
    return files;
}

TEST(ImatmulCompat, PackersAndKernelsAtSvl128And512) {
    KAI_TEST_SKIP_UNLESS(kai_registry::imatmul_variants()[0].features);
    EXPECT_EQ(replay_compat_vectors<F32Family>(), 20u);  // 2 kernels x 5 problems (one with infinities) x 2 SVLs
}

TEST(ImatmulF16Compat, PackersAndKernelsAtSvl128And512) {
    KAI_TEST_SKIP_UNLESS(kai_registry::imatmul_f16_variants()[0].features);
    EXPECT_EQ(replay_compat_vectors<F16Family>(), 20u);  // the same problems, f16
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
    for (const Violation& v : table)
        EXPECT_DEATH(v.call(), kai_test::kai_error_regex(file, v.message)) << v.function << ": \"" << v.message << "\"";
}

// The documented preconditions of a kernel of either family (UK its interface struct, elem the DST element size).
template <typename UK>
void expect_kernel_preconditions(const char* name, const UK& uk, size_t t, float* buf, float* dst, size_t elem) {
    const auto run = [uk](size_t m, size_t n, const void* lhs, const void* rhs, void* d, size_t dsr) {
        uk.run_imatmul(m, n, 2, 2, lhs, rhs, d, dsr, -1.0f, 1.0f);
    };
    run(2, 3, buf, buf, dst, 64);  // valid
    const std::string stride_msg = "dst_stride_row must be at least n * " + std::to_string(elem) + " when m > 1";
    expect_each_aborts(name, {
        {"get_lhs_packed_offset", "m_idx must be a multiple of the m step",
         [&] { (void)uk.get_lhs_packed_offset(t / 2, 2, 2); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of the n step",
         [&] { (void)uk.get_rhs_packed_offset(t / 2, 2, 2); }},
        {"get_dst_offset", "m_idx must be a multiple of the m step", [&] { (void)uk.get_dst_offset(1, 0, 64); }},
        {"get_dst_offset", "n_idx must be a multiple of the n step", [&] { (void)uk.get_dst_offset(0, 1, 64); }},
        {"run_imatmul", "lhs_packed must not be NULL", [&] { run(2, 3, nullptr, buf, dst, 64); }},
        {"run_imatmul", "rhs_packed must not be NULL", [&] { run(2, 3, buf, nullptr, dst, 64); }},
        {"run_imatmul", "dst must not be NULL", [&] { run(2, 3, buf, buf, nullptr, 64); }},
        {"run_imatmul", stride_msg, [&] { run(2, 3, buf, buf, dst, 3 * elem - 1); }},
    });
}

// The documented preconditions of a pair of packers (elem the value size: 4 or 2).
void expect_packer_preconditions(const ImatmulLhsPacker& lp, const ImatmulRhsPacker& rp, float* buf, float* dst,
                                 size_t elem) {
    const void* ptrs[1] = {buf};
    lp.run(1, 1, 1, ptrs, 0, nullptr, dst);  // valid
    expect_each_aborts(lp.name, {
        {"get_lhs_packed_offset", "m_idx must be a multiple of the m step", [&] { (void)lp.get_lhs_packed_offset(1, 1, 1); }},
        {"run", "lhs_ptrs must not be NULL", [&] { lp.run(1, 1, 1, nullptr, 0, nullptr, dst); }},
        {"run", "lhs_packed must not be NULL", [&] { lp.run(1, 1, 1, ptrs, 0, nullptr, nullptr); }},
    });
    const size_t ok = 3 * elem;
    rp.run(3, 1, 2, ok, buf, buf, dst);  // valid
    const std::string stride_msg = "rhs_stride_row must be at least n * " + std::to_string(elem) + " when K > 1";
    expect_each_aborts(rp.name, {
        {"get_rhs_offset", "n_idx must be a multiple of the n step", [&] { (void)rp.get_rhs_offset(1); }},
        {"get_rhs_packed_offset", "n_idx must be a multiple of the n step", [&] { (void)rp.get_rhs_packed_offset(1, 1, 1); }},
        {"run", "rhs must not be NULL", [&] { rp.run(3, 1, 2, ok, nullptr, buf, dst); }},
        {"run", "bias must not be NULL", [&] { rp.run(3, 1, 2, ok, buf, nullptr, dst); }},
        {"run", "rhs_packed must not be NULL", [&] { rp.run(3, 1, 2, ok, buf, buf, nullptr); }},
        {"run", stride_msg, [&] { rp.run(3, 1, 2, ok - 1, buf, buf, dst); }},
    });
}

TEST(ImatmulPreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    KAI_TEST_SKIP_UNLESS(kai_registry::imatmul_lhs_packers()[0].features);
    ASSERT_TRUE(set_svl(64));
    alignas(16) static float buf[8192];
    float* dst = buf + 4096;
    const size_t t = tile_of_svl(64);
    for (const ImatmulVariant& v : kai_registry::imatmul_variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        expect_kernel_preconditions(v.name, v.uk, t, buf, dst, 4);
    }
    expect_packer_preconditions(kai_registry::imatmul_lhs_packers()[0], kai_registry::imatmul_rhs_packers()[0], buf,
                                dst, 4);
}

TEST(ImatmulF16PreconditionsDeathTest, EachViolationAbortsNamingTheParameter) {
    KAI_TEST_SKIP_UNLESS(kai_registry::imatmul_f16_lhs_packers()[0].features);
    ASSERT_TRUE(set_svl(64));
    alignas(16) static float buf[8192];
    float* dst = buf + 4096;
    const size_t t = tile_of_svl(64);
    for (const ImatmulF16Variant& v : kai_registry::imatmul_f16_variants()) {
        KAI_TEST_SKIP_UNLESS(v.features);
        expect_kernel_preconditions(v.name, v.uk, t, buf, dst, 2);
    }
    expect_packer_preconditions(kai_registry::imatmul_f16_lhs_packers()[0], kai_registry::imatmul_f16_rhs_packers()[0],
                                buf, dst, 2);
}
#endif

}  // namespace
