// SPDX-License-Identifier: Apache-2.0
// Run-time selection (kai/kai_select.h, kai/kai_cpu.h):
//  * the selection tables list exactly the matmul kernels of kai/kernels.bzl (through the generated
//    kai/kai_registry.inc), each once, with the same features;
//  * the rule on synthetic feature masks, against an expectation table written here;
//  * on the CPU the test runs on (CI: qemu -cpu max, neoverse-n1, cortex-a72): the mask of
//    kai_cpu_get_features() agrees with the test harness's own HWCAP reading, the selection matches
//    the table for that CPU (NULL where nothing runs), and each selected kernel's output equals the
//    portable reference (bit-exact for the integer families, within the derived bound for BF16);
//  * the pair helper against the "interchangeable packed buffers" table of docs/formats.md, "Shared packed buffers".
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/ukernels/pack/kai_lhs_pack_bf16p1x4_bf16_neon.h"
#include "kai/ukernels/pack/kai_lhs_pack_bf16p8x4_bf16_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/bf16_ref.h"
#include "test/reference/qai8dxp_ref.h"
#include "test/reference/qsi4c32p_ref.h"
#include "test/reference/qsi4cxp_ref.h"
#include "test/reference/qsi8cxp_ref.h"
#include "test/reference/qsi8d32p_ref.h"

namespace {

constexpr uint64_t kDot = KAI_CPU_FEATURE_DOTPROD;
constexpr uint64_t kI8mm = KAI_CPU_FEATURE_I8MM;
constexpr uint64_t kBf16 = KAI_CPU_FEATURE_BF16;
constexpr uint64_t kNeon = KAI_CPU_FEATURE_NEON;
constexpr uint64_t kSve = KAI_CPU_FEATURE_SVE;
constexpr uint64_t kSme = KAI_CPU_FEATURE_SME;
constexpr uint64_t kSme2 = KAI_CPU_FEATURE_SME2;
// Every feature of qemu -cpu max as kai_cpu_get_features() reports it there, SVE at 512 bits.
const uint64_t kMaxSve512 = kai_cpu_with_vector_lengths(kNeon | kDot | kI8mm | kBf16 | kSve, 64, 0);

template <typename Ukernel>
std::string name_of(const Ukernel* uk) {
    return KAI_SELECT_NAME(uk);
}

// ------------------------------------------------------------------ tables against kernels.bzl

struct Listed {
    std::string family, name;
    uint32_t features;  // KAI_FEATURE_* of test/common/cpu_features.h
};

std::vector<Listed> listed_matmuls() {
    std::vector<Listed> v;
#define KAI_REGISTRY_MATMUL(family, stem, features) v.push_back({#family, "kai_" #stem, (features)});
#include "kai/kai_registry.inc"
    return v;
}

uint64_t to_cpu_bits(uint32_t f) {
    uint64_t r = 0;
    if (f & KAI_FEATURE_DOTPROD) r |= kDot;
    if (f & KAI_FEATURE_I8MM) r |= kI8mm;
    if (f & KAI_FEATURE_BF16) r |= kBf16;
    if (f & KAI_FEATURE_SVE2) r |= KAI_CPU_FEATURE_SVE2;
    if (f & KAI_FEATURE_SVE) r |= KAI_CPU_FEATURE_SVE;
    if (f & KAI_FEATURE_SME) r |= KAI_CPU_FEATURE_SME;
    if (f & KAI_FEATURE_SME2) r |= KAI_CPU_FEATURE_SME2;
    return r;
}

// The CPU bits a kernel of kernels.bzl needs: its features, or AdvSIMD for "features": [] (plain Armv8.0).
uint64_t needs_bits(uint32_t f) {
    return f == 0 ? kNeon : to_cpu_bits(f);
}

// Families of kernels.bzl that kai_select does not cover yet. A family listed in kernels.bzl and
// neither selected nor named here fails the test. Not selected yet: the 16-bit-output families
// and the asymmetric int4 families (their interface structs differ from the f32 ones kai_select.h
// returns; docs/integration.md), and the GGUF K-quant families q4k / q6k (their interface structs
// take no bl; an engine picks them with docs/matmul_gguf_kquants.md's table until kai_select.h has them).
const std::set<std::string> kNotSelectedYet = {"bf16_qsi4c32p", "bf16_qsi4cxp", "bf16f16", "f16_qai4c32p", "f16p_qsi4c32p", "q4k", "q6k", "qai4c32p", "qsi4cxpf16", "qsi8cxpf16", "f32_neon",
                                              // KleidiAI's SME/SME2 families engines call by name (their own
                                              // packers and interfaces; no kai_select table yet):
                                              "qsu2cxp", "f16p_f16p", "f16_f16p", "imatmul_f32p", "imatmul_f16p",
                                              "qai8p_qsi8cxpsb", "qai8_qsi8cxp"};
// Kernels of a selected family that its table leaves out: the SME / SME2 Q4_0 GEMVs read other packed layouts than
// the rest of qsi8d32p (kai_lhs_quant_pack_qsi8d32p_f32_neon, kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon
// or ..._ps4s0sf16_..., docs/formats.md, "Q4_0 layouts of the SME kernels" / docs/formats.md, "Q4_0 layouts of the SME kernels"), so kai_select_qsi8d32p() returning it would hand a caller that packs with the family's
// packers a kernel that misreads them. Choosing it needs the packers in the selection result (and the SME bits).
// Likewise the SME2 int4 per-channel kernels: they read the qsi4cxp RHS packed with nr = 4VL, kr = 4, sr = 1
// (docs/matmul_int4_channelwise.md, SME2 section), not the NEON kernels' buffers.
const std::set<std::string> kNotSelectedKernels = {"kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot",
                                                   "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot",
                                                   "kai_matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa",
                                                   "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot",
                                                   // ... and the SME-only pair (nr = 4VL, kr = 8, sr = 2).
                                                   "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa",
                                                   "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot",
                                                   // SME2 GEMM of qsi4c32p: the qsi4c32ps1s0nrx4 RHS layout, at the SVL.
                                                   "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa"};

TEST(KaiSelect, TablesListEveryMatmulOfKernelsBzlOnce) {
    const kai_select_entry* entries = nullptr;
    const size_t count = kai_select_entries(&entries);
    std::map<std::string, const kai_select_entry*> by_name;
    std::set<std::string> selected_families;
    for (size_t i = 0; i < count; ++i) {
        EXPECT_TRUE(by_name.emplace(entries[i].name, &entries[i]).second) << "listed twice: " << entries[i].name;
        selected_families.insert(entries[i].family);
    }
    size_t matched = 0;
    for (const Listed& l : listed_matmuls()) {
        if (!selected_families.count(l.family)) {
            EXPECT_TRUE(kNotSelectedYet.count(l.family))
                << "family " << l.family << " (" << l.name << ") is in kai/kernels.bzl but has no table in kai/kai_select.h";
            continue;
        }
        auto it = by_name.find(l.name);
        if (it == by_name.end() && kNotSelectedKernels.count(l.name)) continue;
        if (it == by_name.end()) {
            ADD_FAILURE() << l.name << " is in kai/kernels.bzl (family " << l.family << ") but not in kai/kai_select.h";
            continue;
        }
        ++matched;
        EXPECT_EQ(it->second->family, l.family) << l.name;
        EXPECT_EQ(it->second->features, needs_bits(l.features)) << l.name << ": features differ from kernels.bzl";
        EXPECT_NE(it->second->run, nullptr) << l.name;
    }
    EXPECT_EQ(matched, count) << "kai/kai_select.h lists kernels that kernels.bzl does not";
}

// ------------------------------------------------------------------ the rule, on synthetic masks

struct Expect {
    uint64_t mask;  // flags and vector lengths
    size_t m;
    const char* bf16;  // nullptr: NULL expected
    const char* bf16o;
    const char* qsi4cxp;
    const char* qsi4c32p;
    const char* qsi8d32p;
    const char* qsi8cxp;
};

#define F32BF(x) "kai_matmul_clamp_f32_bf16p" x
#define BFBF(x) "kai_matmul_clamp_bf16_bf16p" x
#define CX(x) "kai_matmul_clamp_f32_qai8dxp" x
#define Q0(x) "kai_matmul_clamp_f32_qsi8d32p" x
#define I8(x) "kai_matmul_clamp_f32_qai8dxp" x

// Written from the preference order documented in kai/kai_select.h.
const Expect kExpect[] = {
    // qemu -cpu max, Neoverse V1 (SVE at 256 bits or more): the SVE Q4_0 kernels come first
    {kMaxSve512, 1, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("1x4_bf16p12x4b_1x36_neon_dot"),
     CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
     Q0("1x8_qsi4c32p8x8_1x8_sve_dotprod"), I8("1x4_qsi8cxp4x4_1x4_neon_dotprod")},
    {kMaxSve512, 64, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla"),
     CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"),
     Q0("4x8_qsi4c32p8x8_16x8_sve_i8mm"), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
    // SVE at 128 bits (Neoverse N2, V2): the SVE kernels would abort, the NEON ones are chosen
    {kai_cpu_with_vector_lengths(kNeon | kDot | kI8mm | kBf16 | kSve, 16, 0), 64, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"),
     BFBF("8x4_bf16p12x4b_8x12_neon_mmla"), CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"),
     CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"), Q0("4x8_qsi4c32p4x8_16x4_neon_i8mm"), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
    // SVE without a known length (e.g. a mask built by hand): never the SVE kernels
    {kNeon | kDot | kSve, 1, nullptr, nullptr, CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"),
     CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"), Q0("1x4_qsi4c32p4x4_1x4_neon_dotprod"), I8("1x4_qsi8cxp4x4_1x4_neon_dotprod")},
    // DotProd, I8MM and BF16 without SVE (Apple M2+, Cortex-A510 builds without SVE)
    {kNeon | kDot | kI8mm | kBf16, 1, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("1x4_bf16p12x4b_1x36_neon_dot"),
     CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
     Q0("1x4_qsi4c32p4x4_1x4_neon_dotprod"), I8("1x4_qsi8cxp4x4_1x4_neon_dotprod")},
    {kNeon | kDot | kI8mm | kBf16, 64, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla"),
     CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"),
     Q0("4x8_qsi4c32p4x8_16x4_neon_i8mm"), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
    // DotProd only (Neoverse N1, Cortex-A76): no BF16 kernel; the DotProd GEMMs serve m > 1
    {kNeon | kDot, 1, nullptr, nullptr, CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"),
     CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"), Q0("1x4_qsi4c32p4x4_1x4_neon_dotprod"), I8("1x4_qsi8cxp4x4_1x4_neon_dotprod")},
    {kNeon | kDot, 64, nullptr, nullptr, CX("4x8_qsi4cxp4x4_16x4x32_neon_dotprod"),
     CX("4x4_qsi4c32p4x4_16x4_neon_dotprod"), Q0("4x4_qsi4c32p4x4_16x4_neon_dotprod"), I8("4x4_qsi8cxp4x4_16x4_neon_dotprod")},
    // plain Armv8.0 NEON (Cortex-A72, A53): the plain int4 per-channel, int8 and Q4_0 kernels; the other families have none yet
    {kNeon, 1, nullptr, nullptr, CX("1x8_qsi4cxp4x8_1x4_neon"), nullptr, Q0("1x4_qsi4c32p4x4_1x4_neon"), I8("1x4_qsi8cxp4x4_1x4_neon")},
    {kNeon, 64, nullptr, nullptr, CX("4x8_qsi4cxp4x8_4x4_neon"), nullptr, Q0("4x4_qsi4c32p4x4_4x4_neon"), I8("4x4_qsi8cxp4x4_4x4_neon")},
    {0, 13, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr},
    // I8MM without DotProd (not a real CPU; checks the GEMM fallback for m == 1)
    {kI8mm, 1, nullptr, nullptr, CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"),
     Q0("4x8_qsi4c32p4x8_16x4_neon_i8mm"), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
    // BF16 alone: the bf16 GEMV accepts only m == 1, so m = 2 takes the GEMM
    {kBf16, 2, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla"), nullptr, nullptr,
     nullptr, nullptr},
    // SME2 (qemu 11 -cpu max, Apple M4, Arm C1): the SME2 int8 kernels come first; the other families as without
    {kMaxSve512 | kSme | kSme2, 1, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("1x4_bf16p12x4b_1x36_neon_dot"),
     CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
     Q0("1x8_qsi4c32p8x8_1x8_sve_dotprod"), I8("1x4_qsi8cxp4vlx4_1x4vl_sme2_dot")},
    {kMaxSve512 | kSme | kSme2, 64, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla"),
     CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"),
     Q0("4x8_qsi4c32p8x8_16x8_sve_i8mm"), I8("1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa")},
    // SME without SME2 (qemu 7.2 -cpu max): the SME int8 kernels
    {kMaxSve512 | kSme, 1, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("1x4_bf16p12x4b_1x36_neon_dot"),
     CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
     Q0("1x8_qsi4c32p8x8_1x8_sve_dotprod"), I8("1x4_qsi8cxp4vlx4_1x4vl_sme_dot")},
    {kMaxSve512 | kSme, 64, F32BF("8x4_bf16p12x4b_8x12_neon_mmla"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla"),
     CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm"),
     Q0("4x8_qsi4c32p8x8_16x8_sve_i8mm"), I8("1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa")},
    // SME2 and nothing else (not a real CPU): only the int8 SME2 kernels of these families
    {kSme | kSme2, 1, nullptr, nullptr, nullptr, nullptr, nullptr, I8("1x4_qsi8cxp4vlx4_1x4vl_sme2_dot")},
    {kSme | kSme2, 7, nullptr, nullptr, nullptr, nullptr, nullptr, I8("1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa")},
    // m == 0 behaves as m == 1
    {kNeon | kDot | kI8mm | kBf16, 0, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("1x4_bf16p12x4b_1x36_neon_dot"),
     CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"),
     Q0("1x4_qsi4c32p4x4_1x4_neon_dotprod"), I8("1x4_qsi8cxp4x4_1x4_neon_dotprod")},
};

std::string want(const char* s) {
    return s ? s : "(none)";
}

void check_expect(const Expect& e, const char* where) {
    const size_t n = 100, k = 256, bl = 32;
    SCOPED_TRACE(std::string(where) + " mask=" + std::to_string(e.mask) + " m=" + std::to_string(e.m));
    EXPECT_EQ(name_of(kai_select_bf16(e.mask, e.m, n, k)), want(e.bf16));
    EXPECT_EQ(name_of(kai_select_bf16o(e.mask, e.m, n, k)), want(e.bf16o));
    EXPECT_EQ(name_of(kai_select_qsi4cxp(e.mask, e.m, n, k)), want(e.qsi4cxp));
    EXPECT_EQ(name_of(kai_select_qsi4c32p(e.mask, e.m, n, k, bl)), want(e.qsi4c32p));
    EXPECT_EQ(name_of(kai_select_qsi8d32p(e.mask, e.m, n, k, bl)), want(e.qsi8d32p));
    EXPECT_EQ(name_of(kai_select_qsi8cxp(e.mask, e.m, n, k)), want(e.qsi8cxp));
}

TEST(KaiSelect, RuleOnSyntheticMasks) {
    for (const Expect& e : kExpect) check_expect(e, "synthetic");
}

// Without the SVE flag the vector-length fields are ignored (the SVE rows above cover the rest).
TEST(KaiSelect, VectorLengthFieldsMatterOnlyWithSve) {
    for (const Expect& e : kExpect) {
        if (e.mask & kSve) continue;
        Expect f = e;
        f.mask = kai_cpu_with_vector_lengths(e.mask, 64, 32);
        check_expect(f, "with VL fields");
    }
}

TEST(KaiSelect, ShapesThatNoKernelAcceptsGiveNull) {
    const uint64_t all = kNeon | kDot | kI8mm | kBf16;
    EXPECT_EQ(kai_select_bf16(all, 4, 4, 0), nullptr);
    EXPECT_EQ(kai_select_bf16o(all, 4, 4, 0), nullptr);
    EXPECT_EQ(kai_select_qsi4cxp(all, 4, 4, 0), nullptr);
    EXPECT_EQ(kai_select_qsi4c32p(all, 4, 4, 64, 0), nullptr);    // bl = 0
    EXPECT_EQ(kai_select_qsi4c32p(all, 4, 4, 64, 48), nullptr);   // bl not a multiple of 32
    EXPECT_EQ(kai_select_qsi4c32p(all, 4, 4, 96, 64), nullptr);   // k not a multiple of bl
    EXPECT_EQ(kai_select_qsi4c32p(all, 4, 4, 0, 32), nullptr);    // k = 0
    EXPECT_EQ(kai_select_qsi8d32p(all, 4, 4, 48, 32), nullptr);
    EXPECT_EQ(kai_select_qsi8cxp(all, 4, 4, 0), nullptr);
    EXPECT_NE(kai_select_qsi4c32p(all, 4, 4, 128, 64), nullptr);
    EXPECT_EQ(name_of(static_cast<const kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel*>(nullptr)), "(none)");
    kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel not_listed = *kai_select_qsi4cxp(all, 1, 4, 4);
    not_listed.run_matmul = [](size_t, size_t, size_t, const void*, const void*, float*, size_t, size_t, float, float) {};
    EXPECT_EQ(name_of(&not_listed), "(unknown)");
}

// ------------------------------------------------------------------ pairs (docs/formats.md, "Shared packed buffers")

// The SME / SME2 float families: SME2 kernels first, the SME f32 MOPA and GEMV on SME-only CPUs, the GEMVs for m <= 1 only,
// nothing without the SME bits (whatever else the mask has). Synthetic masks: no getter is called.
TEST(KaiSelect, SmeFloatFamiliesOnSyntheticMasks) {
    const size_t n = 100, k = 64;
    struct Row {
        uint64_t mask;
        size_t m;
        const char *f32p, *f32_gemv, *bf16p, *bf16_gemv;
    };
    const Row rows[] = {
        {kMaxSve512 | kSme | kSme2, 1, "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa",
         "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla", "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa",
         "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot"},
        {kSme | kSme2, 64, "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa", nullptr,
         "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa", nullptr},
        {kSme | kSme2, 0, "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa",
         "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla", "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa",
         "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot"},
        {kMaxSve512 | kSme, 1, "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa",
         "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla", nullptr, nullptr},
        {kMaxSve512 | kSme, 64, "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa", nullptr, nullptr, nullptr},
        {kMaxSve512, 1, nullptr, nullptr, nullptr, nullptr},
        {kNeon | kDot | kI8mm | kBf16, 64, nullptr, nullptr, nullptr, nullptr},
        {0, 1, nullptr, nullptr, nullptr, nullptr},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE("mask=" + std::to_string(r.mask) + " m=" + std::to_string(r.m));
        EXPECT_EQ(name_of(kai_select_f32p_f32p(r.mask, r.m, n, k)), want(r.f32p));
        EXPECT_EQ(name_of(kai_select_f32_f32p(r.mask, r.m, n, k)), want(r.f32_gemv));
        EXPECT_EQ(name_of(kai_select_bf16p_sme(r.mask, r.m, n, k)), want(r.bf16p));
        EXPECT_EQ(name_of(kai_select_f32_bf16p(r.mask, r.m, n, k)), want(r.bf16_gemv));
        EXPECT_EQ(name_of(kai_select_f32p_f32p(r.mask, r.m, n, 0)), "(none)");
        EXPECT_EQ(name_of(kai_select_f32_bf16p(r.mask, r.m, n, 0)), "(none)");
    }
    // The pairs on one packed RHS: the GEMV for decode, the GEMM otherwise.
    const auto f32 = kai_select_sme_f32(kSme | kSme2);
    EXPECT_EQ(name_of(f32.gemv), "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla");
    EXPECT_EQ(name_of(f32.gemm), "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa");
    const auto f32_sme = kai_select_sme_f32(kSme);
    EXPECT_EQ(name_of(f32_sme.gemv), "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla");
    EXPECT_EQ(name_of(f32_sme.gemm), "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa");
    const auto bf16 = kai_select_sme_bf16(kSme | kSme2);
    EXPECT_EQ(name_of(bf16.gemv), "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot");
    EXPECT_EQ(name_of(bf16.gemm), "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa");
    const auto none = kai_select_sme_bf16(kMaxSve512 | kSme);
    EXPECT_EQ(none.gemv, nullptr);
    EXPECT_EQ(none.gemm, nullptr);
}

TEST(KaiSelect, PairsReadTheSamePackedBuffer) {
    const uint64_t all = kNeon | kDot | kI8mm | kBf16;
    struct Row {
        const char* family;
        size_t nr, kr, sr;
        const char* gemv;
        const char* gemm;
    };
    // The docs/formats.md, "Shared packed buffers" rows for the kernels kai has (GEMM: the first in kai_select.h's order on that row).
    const Row rows[] = {
        {"bf16", 12, 4, 1, F32BF("1x4_bf16p12x4b_1x36_neon_dot"), F32BF("8x4_bf16p12x4b_8x12_neon_mmla")},
        {"bf16o", 12, 4, 1, BFBF("1x4_bf16p12x4b_1x36_neon_dot"), BFBF("8x4_bf16p12x4b_8x12_neon_mmla")},
        {"qsi4cxp", 4, 16, 2, CX("1x8_qsi4cxp4x8_1x4x32_neon_dotprod"), CX("4x8_qsi4cxp4x8_16x4x32_neon_i8mm")},
        {"qsi4cxp", 8, 16, 2, CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"), CX("4x8_qsi4cxp8x8_8x8x32_neon_i8mm")},
        {"qsi4cxp", 4, 8, 2, CX("1x4_qsi4cxp4x4_1x4_neon_dotprod"), CX("4x8_qsi4cxp4x4_16x4x32_neon_dotprod")},
        {"qsi4c32p", 4, 16, 2, CX("1x8_qsi4c32p4x8_1x4x32_neon_dotprod"), CX("4x8_qsi4c32p4x8_12x4x32_neon_i8mm")},
        {"qsi4c32p", 8, 16, 2, CX("1x8_qsi4c32p8x8_1x8x32_neon_dotprod"), CX("4x8_qsi4c32p8x8_4x8x32_neon_i8mm")},
        {"qsi8d32p", 4, 16, 2, Q0("1x8_qsi4c32p4x8_1x4x32_neon_dotprod"), Q0("4x8_qsi4c32p4x8_16x4_neon_i8mm")},
        {"qsi8d32p", 4, 8, 2, Q0("1x4_qsi4c32p4x4_1x4_neon_dotprod"), Q0("4x4_qsi4c32p4x4_16x4_neon_dotprod")},
        {"qsi8d32p", 8, 16, 2, nullptr, nullptr},  // the SVE pair: not without SVE in the mask
        {"qsi8cxp", 4, 4, 1, I8("1x4_qsi8cxp4x4_1x4_neon_dotprod"), I8("4x4_qsi8cxp4x4_16x4_neon_dotprod")},
        {"qsi8cxp", 4, 8, 1, I8("1x8_qsi8cxp4x8_1x4_neon_dotprod"), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(std::string(r.family) + " nr=" + std::to_string(r.nr) + " kr=" + std::to_string(r.kr));
        std::string gemv, gemm;
        const std::string fam = r.family;
        if (fam == "bf16") {
            auto p = kai_select_pair_bf16(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        } else if (fam == "bf16o") {
            auto p = kai_select_pair_bf16o(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        } else if (fam == "qsi4cxp") {
            auto p = kai_select_pair_qsi4cxp(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        } else if (fam == "qsi4c32p") {
            auto p = kai_select_pair_qsi4c32p(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        } else if (fam == "qsi8cxp") {
            auto p = kai_select_pair_qsi8cxp(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        } else {
            auto p = kai_select_pair_qsi8d32p(all, r.nr, r.kr, r.sr);
            gemv = name_of(p.gemv), gemm = name_of(p.gemm);
        }
        EXPECT_EQ(gemv, want(r.gemv));
        EXPECT_EQ(gemm, want(r.gemm));
    }
    // On a DotProd-only CPU the I8MM GEMMs drop out of the pairs; on plain NEON everything does.
    auto p = kai_select_pair_qsi4cxp(kNeon | kDot, 8, 16, 2);
    EXPECT_EQ(name_of(p.gemv), CX("1x8_qsi4cxp8x8_1x8x32_neon_dotprod"));
    EXPECT_EQ(p.gemm, nullptr);
    auto sve = kai_select_pair_qsi8d32p(kMaxSve512, 8, 16, 2);  // docs/formats.md, "Shared packed buffers" row (8, 8) of Q4_0: the SVE kernels
    EXPECT_EQ(name_of(sve.gemv), Q0("1x8_qsi4c32p8x8_1x8_sve_dotprod"));
    EXPECT_EQ(name_of(sve.gemm), Q0("4x8_qsi4c32p8x8_16x8_sve_i8mm"));
    auto plain = kai_select_pair_qsi8cxp(kNeon, 4, 4, 1);  // every core: the plain pair on the DotProd pair's buffer
    EXPECT_EQ(name_of(plain.gemv), I8("1x4_qsi8cxp4x4_1x4_neon"));
    EXPECT_EQ(name_of(plain.gemm), I8("4x4_qsi8cxp4x4_4x4_neon"));
    auto q = kai_select_pair_qsi8d32p(kNeon, 4, 8, 2);  // the plain Q4_0 pair on the DotProd pair's buffer
    EXPECT_EQ(name_of(q.gemv), Q0("1x4_qsi4c32p4x4_1x4_neon"));
    EXPECT_EQ(name_of(q.gemm), Q0("4x4_qsi4c32p4x4_4x4_neon"));
    auto c4 = kai_select_pair_qsi4cxp(kNeon, 4, 16, 2);  // the plain int4 per-channel pair on the 1x4x32 / 16x4x32 buffer
    EXPECT_EQ(name_of(c4.gemv), CX("1x8_qsi4cxp4x8_1x4_neon"));
    EXPECT_EQ(name_of(c4.gemm), CX("4x8_qsi4cxp4x8_4x4_neon"));
    // DotProd without I8MM: the plain GEMM is not paired with the faster DotProd GEMV (which serves every m).
    auto c4dot = kai_select_pair_qsi4cxp(kNeon | kDot, 4, 16, 2);
    EXPECT_EQ(name_of(c4dot.gemv), CX("1x8_qsi4cxp4x8_1x4x32_neon_dotprod"));
    EXPECT_EQ(c4dot.gemm, nullptr);
    auto q16 = kai_select_pair_qsi8d32p(kNeon, 4, 16, 2);
    EXPECT_EQ(q16.gemv, nullptr);
    EXPECT_EQ(q16.gemm, nullptr);
}

// ------------------------------------------------------------------ no mask selects a missing feature

// The features a kernel needs, from kernels.bzl (through the registry), not from kai_select.h's table.
uint64_t needed_by(const std::string& name) {
    static const std::map<std::string, uint64_t> needs = [] {
        std::map<std::string, uint64_t> r;
        for (const Listed& l : listed_matmuls()) r[l.name] = needs_bits(l.features);
        return r;
    }();
    const auto it = needs.find(name);
    if (it != needs.end()) return it->second;
    ADD_FAILURE() << name << " is not a kernel of kernels.bzl";
    return ~uint64_t{0};
}

// Returns "" when the selected kernel `name` runs on `mask`, else why not.
std::string violation(const std::string& name, uint64_t mask) {
    if (name == "(none)") return "";
    const uint64_t need = needed_by(name);
    if ((need & ~mask) & KAI_CPU_FEATURE_FLAGS_MASK) return name + " needs a feature the mask lacks";
    if ((need & KAI_CPU_FEATURE_SVE) && name.find("_sve_") != std::string::npos && kai_cpu_sve_vl_bytes(mask) < 32)
        return name + " needs SVE at 256 bits or more";
    return "";
}

// Every kai_select_* function, on every subset of the nine feature flags (512 masks; SME without
// SME2 included, as Snapdragon X2 and 8 Elite Gen 5 report it), each with no SVE length, 128 and
// 512 bits, for m = 1 and m = 64, and every pair: no result needs a flag the mask lacks.
TEST(KaiSelect, NoMaskSelectsAKernelNeedingAMissingFeature) {
    const uint64_t flags[] = {kNeon, kDot, kI8mm, kBf16, KAI_CPU_FEATURE_FP16, kSve, KAI_CPU_FEATURE_SVE2, kSme, kSme2};
    size_t checked = 0;
    for (uint32_t subset = 0; subset < (1u << 9); ++subset) {
        uint64_t base = 0;
        for (size_t b = 0; b < 9; ++b)
            if (subset & (1u << b)) base |= flags[b];
        for (size_t vl : {0u, 16u, 64u}) {
            const uint64_t mask = kai_cpu_with_vector_lengths(base, vl, 0);
            SCOPED_TRACE("mask=" + std::to_string(mask));
            for (size_t m : {1u, 64u}) {
                const size_t n = 64, k = 256, bl = 32;
                const std::string picked[] = {
                    name_of(kai_select_bf16(mask, m, n, k)),       name_of(kai_select_bf16o(mask, m, n, k)),
                    name_of(kai_select_qsi4cxp(mask, m, n, k)),    name_of(kai_select_qsi4c32p(mask, m, n, k, bl)),
                    name_of(kai_select_qsi8d32p(mask, m, n, k, bl)), name_of(kai_select_qsi8cxp(mask, m, n, k)),
                    name_of(kai_select_f32p_f32p(mask, m, n, k)),  name_of(kai_select_f32_f32p(mask, m, n, k)),
                    name_of(kai_select_bf16p_sme(mask, m, n, k)),  name_of(kai_select_f32_bf16p(mask, m, n, k))};
                for (const std::string& p : picked) {
                    EXPECT_EQ(violation(p, mask), "");
                    ++checked;
                }
            }
            // The pair functions call the getters of the kernels the mask allows, and the SME getters
            // read the streaming vector length (RDSVL): only masks whose SME bits this CPU has.
            if ((mask & (kSme | kSme2) & ~kai_cpu_get_features()) != 0) {
                checked += 10;
                continue;
            }
            const auto sf = kai_select_sme_f32(mask);
            const auto sb = kai_select_sme_bf16(mask);
            const std::string pairs[] = {name_of(sf.gemv), name_of(sf.gemm), name_of(sb.gemv), name_of(sb.gemm),
                                         name_of(kai_select_pair_qsi8cxp(mask, 4, 4, 1).gemv),
                                         name_of(kai_select_pair_qsi8cxp(mask, 4, 4, 1).gemm),
                                         name_of(kai_select_pair_qsi4cxp(mask, 8, 16, 2).gemv),
                                         name_of(kai_select_pair_qsi4cxp(mask, 8, 16, 2).gemm),
                                         name_of(kai_select_pair_qsi8d32p(mask, 8, 16, 2).gemv),
                                         name_of(kai_select_pair_qsi8d32p(mask, 8, 16, 2).gemm)};
            for (const std::string& p : pairs) {
                EXPECT_EQ(violation(p, mask), "");
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 512u * 3u * (2u * 10u + 10u));
}

// Real cores and what Linux reports on them (docs/integration.md, "Real cores"): the selection never
// needs a feature the core lacks, and every core gets an int8 per-channel and a Q4_0 GEMV and GEMM.
TEST(KaiSelect, RealCores) {
    const uint64_t v8 = kNeon, v82 = kNeon | kDot | KAI_CPU_FEATURE_FP16;
    const uint64_t v86 = v82 | kI8mm | kBf16;
    struct Core {
        const char* name;
        uint64_t mask;
        const char* i8_gemm;  // the qsi8cxp GEMM it must get
    };
    const Core cores[] = {
        {"Cortex-A53 (Raspberry Pi 3), A72 (Pi 4), Graviton1", v8, I8("4x4_qsi8cxp4x4_4x4_neon")},
        {"Cortex-A55, A76, X1, Neoverse N1, Graviton2, Snapdragon 8cx", v82, I8("4x4_qsi8cxp4x4_16x4_neon_dotprod")},
        {"Neoverse V1, Graviton3 (SVE 256)", kai_cpu_with_vector_lengths(v86 | kSve, 32, 0),
         I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
        {"Neoverse N2, V2, V3, Graviton4, Cortex-X4, A720 (SVE2 128)",
         kai_cpu_with_vector_lengths(v86 | kSve | KAI_CPU_FEATURE_SVE2, 16, 0), I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
        {"Apple M1 (Linux)", v82, I8("4x4_qsi8cxp4x4_16x4_neon_dotprod")},
        {"Apple M2, M3", v86, I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
        {"Apple M4, Arm C1 (SME2)", v86 | kSme | kSme2, I8("1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa")},
        {"Snapdragon X Elite (Oryon 1)", v86, I8("4x8_qsi8cxp4x8_16x4_neon_i8mm")},
        {"Snapdragon X2, 8 Elite Gen 5 (SME without SME2)", v86 | kSme, I8("1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa")},
    };
    for (const Core& c : cores) {
        SCOPED_TRACE(c.name);
        EXPECT_EQ(name_of(kai_select_qsi8cxp(c.mask, 64, 64, 256)), c.i8_gemm);
        EXPECT_NE(kai_select_qsi8cxp(c.mask, 1, 64, 256), nullptr);
        EXPECT_NE(kai_select_qsi8d32p(c.mask, 1, 64, 256, 32), nullptr);  // GGUF Q4_0: every core too
        EXPECT_NE(kai_select_qsi8d32p(c.mask, 64, 64, 256, 32), nullptr);
        for (size_t m : {1u, 64u}) {
            EXPECT_EQ(violation(name_of(kai_select_qsi4cxp(c.mask, m, 64, 256)), c.mask), "");
            EXPECT_EQ(violation(name_of(kai_select_qsi8d32p(c.mask, m, 64, 256, 32)), c.mask), "");
            EXPECT_EQ(violation(name_of(kai_select_bf16(c.mask, m, 64, 256)), c.mask), "");
            EXPECT_EQ(violation(name_of(kai_select_qsi8cxp(c.mask, m, 64, 256)), c.mask), "");
        }
    }
}

// ------------------------------------------------------------------ the CPU this test runs on

TEST(KaiCpu, AgreesWithTheHarnessDetection) {
    const uint64_t f = kai_cpu_get_features();
    const uint32_t h = kai_test::cpu_features();
    std::printf("kai_cpu_get_features: 0x%016llx (harness: %s), SVE VL %zu bytes, SME SVL %zu bytes\n",
                static_cast<unsigned long long>(f), kai_test::feature_names(h).c_str(), kai_cpu_sve_vl_bytes(f),
                kai_cpu_sme_svl_bytes(f));
    EXPECT_EQ((f & (kDot | kI8mm | kBf16 | kSve | KAI_CPU_FEATURE_SVE2 | kSme | kSme2)), to_cpu_bits(h));
#if defined(__aarch64__)
    EXPECT_TRUE(f & kNeon) << "AArch64 Linux always reports ASIMD";
#endif
    if (f & KAI_CPU_FEATURE_SVE) {
        const size_t vl = kai_cpu_sve_vl_bytes(f);
        EXPECT_GE(vl, 16u);
        EXPECT_EQ(vl % 16, 0u);
        EXPECT_EQ(vl, kai_cpu_rdvl_bytes()) << "prctl(PR_SVE_GET_VL) and RDVL disagree";
    } else {
        EXPECT_EQ(kai_cpu_sve_vl_bytes(f), 0u);
        EXPECT_FALSE(f & KAI_CPU_FEATURE_SVE2);
    }
    if (f & KAI_CPU_FEATURE_SME) {
        const size_t svl = kai_cpu_sme_svl_bytes(f);
        EXPECT_GE(svl, 16u);
        EXPECT_EQ(svl, kai_cpu_rdsvl_bytes()) << "prctl(PR_SME_GET_VL) and RDSVL disagree";
    } else {
        EXPECT_EQ(kai_cpu_sme_svl_bytes(f), 0u);
        EXPECT_FALSE(f & KAI_CPU_FEATURE_SME2);
    }
}

TEST(KaiCpu, HwcapMapping) {
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 0), 0u);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(1u << 1, 0), kNeon);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(1u << 20, 0), kDot);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(1u << 10, 0), KAI_CPU_FEATURE_FP16);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(1u << 9, 0), 0u) << "FPHP (scalar) is not vector FP16";
    EXPECT_EQ(kai_cpu_features_from_hwcaps(1u << 22, 0), KAI_CPU_FEATURE_SVE);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 1u << 1), KAI_CPU_FEATURE_SVE2);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 1u << 13), kI8mm);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 1u << 14), kBf16);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 1u << 23), KAI_CPU_FEATURE_SME);
    EXPECT_EQ(kai_cpu_features_from_hwcaps(0, 1ull << 37), KAI_CPU_FEATURE_SME2);
    const uint64_t v = kai_cpu_with_vector_lengths(kDot, 256, 64);
    EXPECT_EQ(kai_cpu_sve_vl_bytes(v), 256u);
    EXPECT_EQ(kai_cpu_sme_svl_bytes(v), 64u);
    EXPECT_TRUE(kai_cpu_has(v, kDot));
    EXPECT_FALSE(kai_cpu_has(v, kDot | kI8mm));
}

// Runs `uk` (kai_select's choice) on an m x n x k problem and compares with the reference.
void run_qsi4cxp(const kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* uk, size_t m, size_t n, size_t k) {
    kai_test::Rng rng(11u + m);
    std::vector<float> lhs(m * k), bias(n), scale(n);
    for (float& v : lhs) v = rng.uniform(-2.0f, 2.0f);
    for (float& v : bias) v = rng.uniform(-1.0f, 1.0f);
    for (float& v : scale) v = rng.uniform(0.001f, 0.02f);
    const size_t rs = (k + 1) / 2;
    std::vector<uint8_t> rhs(n * rs);
    for (uint8_t& b : rhs) b = static_cast<uint8_t>(rng.next_u64());
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * sizeof(float), lp.data());
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(n, k, nr, kr, sr));
    const kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, n, k, nr, kr, sr, rhs.data(), bias.data(), scale.data(), rp.data(), 0,
                                           &params);
    std::vector<float> dst(m * n, -1.0f);
    uk->run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    const auto lhs_u = kai_ref::unpack_qai8dxp(lp.data(), m, k, mr, kr, sr);
    const auto w = kai_ref::qs4_nxk_values(rhs.data(), n, k, 8);
    const auto ref = kai_ref::matmul_qai8dxp_qsi4cx(lhs_u, n, k, w.data(), scale.data(), bias.data(), -FLT_MAX, FLT_MAX);
    EXPECT_EQ(0, std::memcmp(dst.data(), ref.data(), dst.size() * sizeof(float))) << KAI_SELECT_NAME(uk);
}

void run_qsi4c32p(const kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* uk, size_t m, size_t n, size_t k, size_t bl) {
    kai_test::Rng rng(23u + m);
    std::vector<float> lhs(m * k), bias(n);
    for (float& v : lhs) v = rng.uniform(-2.0f, 2.0f);
    for (float& v : bias) v = rng.uniform(-1.0f, 1.0f);
    const size_t rs = k / 2, nb = k / bl;
    std::vector<uint8_t> rhs(n * rs);
    for (uint8_t& b : rhs) b = static_cast<uint8_t>(rng.next_u64());
    std::vector<uint16_t> sc(n * nb);
    for (uint16_t& s : sc) s = kai_cast_bf16_f32(rng.uniform(0.001f, 0.02f));
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * sizeof(float), lp.data());
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(n, k, nr, kr, sr, bl, kai_dt_bf16));
    const kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params params = {1, 8, kai_dt_bf16};
    kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0(1, n, k, nr, kr, sr, bl, rhs.data(), rs, bias.data(), sc.data(),
                                              nb * sizeof(uint16_t), rp.data(), 0, &params);
    std::vector<float> dst(m * n, -1.0f);
    uk->run_matmul(m, n, k, bl, lp.data(), rp.data(), dst.data(), n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    const auto lhs_u = kai_ref::unpack_qai8dxp(lp.data(), m, k, mr, kr, sr);
    std::vector<int8_t> w(n * k);
    std::vector<float> d(n * nb), row_sum(n);
    for (size_t j = 0; j < n; ++j) {
        for (size_t kk = 0; kk < k; ++kk) {
            w[j * k + kk] = static_cast<int8_t>(kai_ref::qsu4_nxk_nibble(rhs.data(), rs, j, kk) - 8);
        }
        for (size_t b = 0; b < nb; ++b) d[j * nb + b] = kai_cast_f32_bf16(sc[j * nb + b]);
        row_sum[j] = kai_ref::qsi4c32p_row_sum(&w[j * k], &d[j * nb], k, bl, kr / sr);
    }
    const auto ref = kai_ref::matmul_qai8dxp_qsi4c32(lhs_u, n, k, bl, w.data(), d.data(), row_sum.data(), bias.data(),
                                                     -FLT_MAX, FLT_MAX);
    EXPECT_EQ(0, std::memcmp(dst.data(), ref.data(), dst.size() * sizeof(float))) << KAI_SELECT_NAME(uk);
}

void run_qsi8d32p(const kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* uk, size_t m, size_t n, size_t k, size_t bl) {
    kai_test::Rng rng(37u + m);
    std::vector<float> lhs(m * k), w(n * k);
    for (float& v : lhs) v = rng.uniform(-2.0f, 2.0f);
    for (float& v : w) v = rng.uniform(-0.05f, 0.05f);
    const size_t row = kai_ref::q4_0_row_bytes(k, bl);
    std::vector<uint8_t> rows(n * row);
    for (size_t j = 0; j < n; ++j) kai_ref::quantize_row_q4_0(&w[j * k], k, bl, &rows[j * row]);
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(m, k, bl, mr, kr, sr));
    kai_run_lhs_quant_pack_qsi8d32p_f32(m, k, bl, mr, kr, sr, 0, lhs.data(), k * sizeof(float), lp.data());
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(n, k, nr, kr, bl));
    const kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, n, k, nr, kr, sr, bl, rows.data(), nullptr, rp.data(), 0,
                                                       &params);
    std::vector<float> dst(m * n, -1.0f);
    uk->run_matmul(m, n, k, bl, lp.data(), rp.data(), dst.data(), n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    const auto q = kai_ref::quantize_qsi8d32(m, k, bl, lhs.data(), k * sizeof(float), kai_ref::Q8Rounding::kTiesAway);
    const auto ref = kai_ref::matmul_qsi8d32p_qsi4c32p(q, n, rows.data(), -FLT_MAX, FLT_MAX);
    EXPECT_EQ(0, std::memcmp(dst.data(), ref.data(), dst.size() * sizeof(float))) << KAI_SELECT_NAME(uk);
}

void run_qsi8cxp(const kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel* uk, size_t m, size_t n, size_t k) {
    kai_test::Rng rng(53u + m);
    std::vector<float> lhs(m * k), bias(n), scale(n);
    for (float& v : lhs) v = rng.uniform(-2.0f, 2.0f);
    for (float& v : bias) v = rng.uniform(-1.0f, 1.0f);
    for (float& v : scale) v = rng.uniform(0.001f, 0.02f);
    std::vector<int8_t> rhs(n * k);
    for (int8_t& b : rhs) b = static_cast<int8_t>(rng.integer(-127, 127));
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    std::vector<uint8_t> lp(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, lhs.data(), k * sizeof(float), lp.data());
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, sr));
    const kai_rhs_pack_qsi8cx_params params = {1, 1.0f};
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, sr, rhs.data(), bias.data(), scale.data(), rp.data(), 0,
                                             &params);
    std::vector<float> dst(m * n, -1.0f);
    uk->run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
    const auto lhs_u = kai_ref::unpack_qai8dxp(lp.data(), m, k, mr, kr, sr);
    // The SME / SME2 DOT GEMVs fuse scale and bias (docs/formats.md, "SME matmul recipes").
    const std::string name = KAI_SELECT_NAME(uk);
    const bool fused = name.find("_sme") != std::string::npos && name.find("_dot") != std::string::npos;
    const auto ref =
        kai_ref::matmul_qai8dxp_qsi8cx(lhs_u, n, k, rhs.data(), scale.data(), bias.data(), -FLT_MAX, FLT_MAX, fused);
    EXPECT_EQ(0, std::memcmp(dst.data(), ref.data(), dst.size() * sizeof(float))) << KAI_SELECT_NAME(uk);
}

template <typename Ukernel>
void run_bf16(const Ukernel* uk, size_t m, size_t n, size_t k, bool bf16_out) {
    kai_test::Rng rng(41u + m);
    std::vector<uint16_t> a(m * k), b(k * n);
    std::vector<float> bias(n);
    for (uint16_t& v : a) v = kai_cast_bf16_f32(rng.uniform(-1.0f, 1.0f));
    for (uint16_t& v : b) v = kai_cast_bf16_f32(rng.uniform(-1.0f, 1.0f));
    for (float& v : bias) v = rng.uniform(-1.0f, 1.0f);
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    std::vector<uint8_t> lp;
    if (mr == 1) {
        lp.resize(kai_get_lhs_packed_size_lhs_pack_bf16p1x4_bf16_neon(m, k, mr, kr, sr));
        kai_run_lhs_pack_bf16p1x4_bf16_neon(m, k, mr, kr, sr, 0, a.data(), k * 2, lp.data());
    } else {
        lp.resize(kai_get_lhs_packed_size_lhs_pack_bf16p8x4_bf16_neon(m, k, mr, kr, sr));
        kai_run_lhs_pack_bf16p8x4_bf16_neon(m, k, mr, kr, sr, 0, a.data(), k * 2, lp.data());
    }
    std::vector<uint8_t> rp(kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon(n, k, nr, kr));
    kai_run_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon(1, n, k, nr, kr, sr, n * 2, b.data(), bias.data(), nullptr, rp.data(),
                                                   0, nullptr);
    const size_t es = bf16_out ? 2 : 4;
    std::vector<uint8_t> dst(m * n * es, 0xFF);
    uk->run_matmul(m, n, k, lp.data(), rp.data(), dst.data(), n * es, es, -FLT_MAX, FLT_MAX);
    std::vector<double> exact, abs_sum;
    kai_ref::bf16_matmul(a.data(), b.data(), bias.data(), m, n, k, &exact, &abs_sum);
    size_t bad = 0;
    for (size_t i = 0; i < m * n; ++i) {
        double got;
        if (bf16_out) {
            uint16_t v;
            std::memcpy(&v, &dst[i * 2], 2);
            got = kai_cast_f32_bf16(v);
        } else {
            float v;
            std::memcpy(&v, &dst[i * 4], 4);
            got = v;
        }
        const double x = kai_ref::bf16_clamp(exact[i], -FLT_MAX, FLT_MAX);
        if (!(std::fabs(got - x) <= kai_ref::bf16_error_bound(abs_sum[i], x, k, bf16_out))) ++bad;
    }
    EXPECT_EQ(bad, 0u) << KAI_SELECT_NAME(uk) << ": outputs outside the bound";
}

TEST(KaiSelect, OnThisCpuTheChoiceMatchesAndComputesCorrectly) {
    const uint64_t f = kai_cpu_get_features();
    // This CPU's row of the expectation table: same feature flags (DotProd, I8MM, BF16, and SVE
    // usable or not) as a row's mask.
    auto tier = [](uint64_t mask) {
        uint64_t t = mask & (kDot | kI8mm | kBf16 | kSme | kSme2);
        if ((mask & kSve) && kai_cpu_sve_vl_bytes(mask) >= 32) t |= kSve;
        return t;
    };
    size_t rows = 0;
    for (const Expect& e : kExpect) {
        if (tier(e.mask) != tier(f) || (e.m != 1 && e.m != 64) || (e.mask & kNeon) == 0) continue;
        check_expect({f, e.m, e.bf16, e.bf16o, e.qsi4cxp, e.qsi4c32p, e.qsi8d32p, e.qsi8cxp}, "this CPU");
        ++rows;
    }
    if (rows == 0) {
        std::printf("no expectation row for this CPU's feature mix; checking NULL-ness and results only\n");
    }
    const size_t n = 37, k = 256, bl = 64;
    for (size_t m : {size_t{1}, size_t{13}, size_t{64}}) {
        const auto* a = kai_select_bf16(f, m, n, k);
        const auto* b = kai_select_bf16o(f, m, n, k);
        const auto* c = kai_select_qsi4cxp(f, m, n, k - 3);
        const auto* d = kai_select_qsi4c32p(f, m, n, k, bl);
        const auto* e = kai_select_qsi8d32p(f, m, n, k, 32);
        const auto* g = kai_select_qsi8cxp(f, m, n, k - 5);
        std::printf("m=%3zu  bf16: %s\n        bf16o: %s\n        qsi4cxp: %s\n        qsi4c32p: %s\n        qsi8d32p: %s\n"
                    "        qsi8cxp: %s\n", m, KAI_SELECT_NAME(a), KAI_SELECT_NAME(b), KAI_SELECT_NAME(c), KAI_SELECT_NAME(d),
                    KAI_SELECT_NAME(e), KAI_SELECT_NAME(g));
        // NULL exactly when the CPU has none of the family's features.
        EXPECT_EQ(a == nullptr, !(f & kBf16));
        EXPECT_EQ(b == nullptr, !(f & kBf16));
        EXPECT_EQ(c == nullptr, !(f & (kNeon | kDot | kI8mm)));  // plain NEON kernels
        EXPECT_EQ(d == nullptr, !(f & (kDot | kI8mm)));
        EXPECT_EQ(e == nullptr, !(f & (kNeon | kDot | kI8mm)));  // plain NEON kernels
        EXPECT_EQ(g == nullptr, !(f & (kNeon | kDot | kI8mm)));  // plain NEON kernels
        if (e != nullptr && (name_of(e).find("_sve_") != std::string::npos)) {
            EXPECT_TRUE(f & kSve);
            EXPECT_GE(kai_cpu_sve_vl_bytes(f), 32u);
        }
        if (a) run_bf16(a, m, n, k, false);
        if (b) run_bf16(b, m, n, k, true);
        if (c) run_qsi4cxp(c, m, n, k - 3);
        if (d) run_qsi4c32p(d, m, n, k, bl);
        if (e) run_qsi8d32p(e, m, n, k, 32);
        if (g) run_qsi8cxp(g, m, n, k - 5);
    }
}

}  // namespace
