// SPDX-License-Identifier: Apache-2.0
// Self-tests of the test harness and of kai_common.h: the checks every family relies on must be
// able to fail.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "kai/kai_common.h"
#include "test/common/abi_call.h"
#include "test/common/buffers.h"
#include "test/common/compare.h"
#include "test/common/compat_vector.h"
#include "test/common/cpu_features.h"
#include "test/common/rng.h"
#include "test/reference/reference_common.h"

extern "C" {
// Fixtures of abi_trampoline.S: each changes the named register(s) and returns.
void kai_abi_clobber_x19(void);
void kai_abi_clobber_d8(void);
void kai_abi_clobber_v15_high(void);
void kai_abi_clobber_x29(void);
void kai_abi_clobber_x28_x18(void);
}

namespace {

using kai_test::DstBuffer;
using kai_test::GuardedBuffer;

// ------------------------------------------------------------------ CPU features vs the model

// The "Features" line of /proc/cpuinfo as kai feature bits, or false when there is no such line
// (under qemu-user the file is the host's).
bool proc_cpuinfo_features(uint32_t* out) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("Features", 0) != 0) continue;
        const std::string words = " " + line.substr(line.find(':') + 1) + " ";
        *out = 0;
        if (words.find(" asimddp ") != std::string::npos) *out |= KAI_FEATURE_DOTPROD;
        if (words.find(" i8mm ") != std::string::npos) *out |= KAI_FEATURE_I8MM;
        if (words.find(" bf16 ") != std::string::npos) *out |= KAI_FEATURE_BF16;
        if (words.find(" asimdhp ") != std::string::npos) *out |= KAI_FEATURE_FP16;
        return true;
    }
    return false;
}

TEST(CpuFeatures, MatchTheModelTheRunWasStartedWith) {
    // tools/toolchain/qemu_run.sh exports the model it starts qemu with; on hardware the kernel's
    // own report, /proc/cpuinfo, is the reference.
    const char* model = std::getenv("KAI_CPU_MODEL");
    if (model == nullptr) {
        uint32_t expected = 0;
        if (!proc_cpuinfo_features(&expected)) {
            GTEST_SKIP() << "neither started through qemu_run.sh nor given a Features line in /proc/cpuinfo";
        }
        const uint32_t all = KAI_FEATURE_DOTPROD | KAI_FEATURE_I8MM | KAI_FEATURE_BF16 | KAI_FEATURE_FP16;
        EXPECT_EQ(kai_test::feature_names(kai_test::cpu_features() & all), kai_test::feature_names(expected))
            << "detected features differ from /proc/cpuinfo";
        return;
    }
    const uint32_t f = kai_test::cpu_features();
    const std::string m = model;
    SCOPED_TRACE("model " + m + ", detected: " + kai_test::feature_names(f));
    if (m == "max") {
        EXPECT_TRUE(f & KAI_FEATURE_DOTPROD);
        EXPECT_TRUE(f & KAI_FEATURE_I8MM);
        EXPECT_TRUE(f & KAI_FEATURE_BF16);
        EXPECT_TRUE(f & KAI_FEATURE_FP16);
        EXPECT_TRUE(f & KAI_FEATURE_SVE);
        EXPECT_TRUE(f & KAI_FEATURE_SVE2);
        EXPECT_TRUE(f & KAI_FEATURE_SME);  // qemu 7.2 and later; SME2 needs qemu 10.1+ (sme2_toolchain_test)
    } else if (m == "neoverse-n1") {
        EXPECT_TRUE(f & KAI_FEATURE_DOTPROD);
        EXPECT_FALSE(f & KAI_FEATURE_I8MM);
        EXPECT_FALSE(f & KAI_FEATURE_BF16);
        EXPECT_TRUE(f & KAI_FEATURE_FP16);  // Armv8.2-A with FEAT_FP16
        EXPECT_FALSE(f & (KAI_FEATURE_SVE | KAI_FEATURE_SME | KAI_FEATURE_SME2));
    } else if (m == "cortex-a72") {
        EXPECT_EQ(f & (KAI_FEATURE_DOTPROD | KAI_FEATURE_I8MM | KAI_FEATURE_BF16 | KAI_FEATURE_FP16), 0u);
        EXPECT_FALSE(f & (KAI_FEATURE_SVE | KAI_FEATURE_SME | KAI_FEATURE_SME2));
    } else {
        GTEST_SKIP() << "no expectation recorded for CPU model " << m;
    }
}

TEST(CpuFeatures, MissingFeaturesAreNamed) {
    EXPECT_EQ(kai_test::feature_names(0), "none");
    EXPECT_EQ(kai_test::feature_names(KAI_FEATURE_I8MM | KAI_FEATURE_BF16), "i8mm bf16");
    EXPECT_EQ(kai_test::missing_features(0), "");
    const uint32_t all = KAI_FEATURE_DOTPROD | KAI_FEATURE_I8MM | KAI_FEATURE_BF16;
    EXPECT_EQ(kai_test::missing_features(all), kai_test::missing_features(all & ~kai_test::cpu_features()));
}

// ------------------------------------------------------------------ destination sentinel

TEST(DstBuffer, AcceptsWritesInsideTheTile) {
    DstBuffer dst(5, 7, 4, 7 * 4 + 12);
    for (size_t r = 1; r < 4; ++r) {
        for (size_t c = 2; c < 6; ++c) {
            const float v = 1.0f;
            std::memcpy(dst.at(r, c), &v, 4);
        }
    }
    EXPECT_TRUE(dst.untouched_outside(1, 3, 2, 4));
    EXPECT_TRUE(dst.written_inside(1, 3, 2, 4));
}

TEST(DstBuffer, CatchesAWriteOutsideTheTile) {
    DstBuffer dst(5, 7, 4, 7 * 4 + 12);
    const float v = 0.0f;
    std::memcpy(dst.at(1, 6), &v, 4);  // one column right of the tile [2, 6)
    const ::testing::AssertionResult r = dst.untouched_outside(1, 3, 2, 4);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("element (1, 6)"), std::string::npos) << r.message();
}

TEST(DstBuffer, CatchesAWriteJustBeforeTheFirstElement) {
    for (size_t es : {size_t{4}, size_t{2}}) {
        DstBuffer dst(2, 3, es, 3 * es);
        EXPECT_TRUE(dst.untouched_outside(0, 2, 0, 3));
        dst.at(0, 0)[-1] = 0;
        EXPECT_FALSE(dst.untouched_outside(0, 2, 0, 3)) << "elem_size " << es;
    }
}

TEST(DstBuffer, CatchesAWriteIntoTheStrideGap) {
    DstBuffer dst(3, 4, 4, 4 * 4 + 8);
    dst.at(1, 4)[0] = 0;  // first byte after row 1's last column
    const ::testing::AssertionResult r = dst.untouched_outside(0, 3, 0, 4);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("stride gap of row 1"), std::string::npos) << r.message();
}

TEST(DstBuffer, CatchesAnUnwrittenElement) {
    DstBuffer dst(2, 2, 2, 4);
    EXPECT_FALSE(dst.written_inside(0, 2, 0, 2));
}

// ------------------------------------------------------------------ guard pages

TEST(GuardedBufferDeathTest, OverrunFaults) {
    GuardedBuffer buf(1000);
    buf.data()[999] = 1;  // last byte: fine
    EXPECT_DEATH(
        {
            volatile uint8_t* p = buf.data();
            p[1000] = 1;
        },
        "");
}

TEST(GuardedBufferDeathTest, OverreadFaults) {
    GuardedBuffer buf(4096);
    EXPECT_DEATH(
        {
            volatile const uint8_t* p = buf.data();
            std::printf("%d\n", p[4096]);
        },
        "");
}

TEST(GuardedBufferDeathTest, UnderrunBeyondTheCanaryFaults) {
    GuardedBuffer buf(64);
    EXPECT_DEATH(
        {
            volatile uint8_t* p = buf.data();
            p[-4096 - 1] = 1;
        },
        "");
}

void write_just_before_a_guarded_buffer() {
    GuardedBuffer buf(64);
    buf.data()[-1] = 1;
}

TEST(GuardedBuffer, WriteJustBeforeTheStartIsReported) {
    EXPECT_NONFATAL_FAILURE(write_just_before_a_guarded_buffer(), ", 1 byte(s) before it");
    GuardedBuffer buf(100);
    EXPECT_TRUE(buf.front_intact());
    const uint8_t canary = buf.data()[-37];
    buf.data()[-37] = static_cast<uint8_t>(canary + 1);
    EXPECT_FALSE(buf.front_intact());
    buf.data()[-37] = canary;  // restored, so that the destructor does not report it
    EXPECT_TRUE(buf.front_intact());
}

TEST(GuardedBuffer, StartsFilled) {
    GuardedBuffer buf(33, 0x5A);
    for (size_t i = 0; i < buf.size(); ++i) ASSERT_EQ(buf.data()[i], 0x5A);
}

// ------------------------------------------------------------------ comparisons

TEST(Compare, BytesEqualReportsTheFirstDifference) {
    uint8_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t b[8] = {1, 2, 3, 9, 5, 6, 0, 8};
    const ::testing::AssertionResult r = kai_test::bytes_equal(a, b, 8);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("first at byte 3"), std::string::npos) << r.message();
    const uint8_t mask[8] = {1, 1, 1, 0, 1, 1, 0, 1};
    EXPECT_TRUE(kai_test::bytes_equal(a, b, 8, mask));
}

TEST(Compare, F32BitsEqualSeesSignedZeroAndGivesCoordinates) {
    const float got[6] = {1, 2, 3, 4, 0.0f, 6};
    const float exp[6] = {1, 2, 3, 4, -0.0f, 6};
    const ::testing::AssertionResult r = kai_test::f32_bits_equal(got, 12, exp, 12, 2, 3);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("(1, 1)"), std::string::npos) << r.message();
    EXPECT_TRUE(kai_test::f32_bits_equal(got, 12, got, 12, 2, 3));
}

TEST(Compare, F32WithinUsesTheBound) {
    const float got[2] = {1.0f, 2.5f};
    const double exp[2] = {1.0, 2.0};
    EXPECT_TRUE(kai_test::f32_within(got, 8, exp, 16, 1, 2, [](size_t, size_t) { return 0.5; }));
    EXPECT_FALSE(kai_test::f32_within(got, 8, exp, 16, 1, 2, [](size_t, size_t) { return 0.25; }));
    const float nan_got[1] = {NAN};
    EXPECT_FALSE(kai_test::f32_within(nan_got, 4, exp, 8, 1, 1, [](size_t, size_t) { return 1e30; }));
}

// ------------------------------------------------------------------ random data

TEST(Rng, IsDeterministicPerSeed) {
    EXPECT_EQ(kai_test::random_f32(16, -1, 1, 7), kai_test::random_f32(16, -1, 1, 7));
    EXPECT_NE(kai_test::random_f32(16, -1, 1, 7), kai_test::random_f32(16, -1, 1, 8));
    for (float v : kai_test::random_f32(1000, -2, 3, 1)) {
        ASSERT_GE(v, -2.0f);
        ASSERT_LT(v, 3.0f);
    }
    for (int8_t v : kai_test::random_i8(1000, -8, 7, 2)) {
        ASSERT_GE(v, -8);
        ASSERT_LE(v, 7);
    }
    for (float v : kai_test::random_bf16_exact_f32(100, -4, 4, 3)) {
        ASSERT_EQ(kai_ref::f32_bits(v) & 0xFFFFu, 0u);
    }
}

// ------------------------------------------------------------------ compat vector reader

TEST(CompatVector, ParsesHeaderSectionsAndUnspecifiedBytes) {
    const char* path = "/tmp/kai_harness_test_vector.txt";
    {
        std::ofstream f(path);
        f << "# comment\nname: kai_x\nm: 3\nclamp_min_bits: 0xff7fffff\n\n[lhs] 5 u8 5\n0102..0405\n\n[dst] 4 f32 1x1\n0000803f\n";
    }
    const kai_test::CompatVector v = kai_test::load_compat_vector(path);
    EXPECT_EQ(v.str("name"), "kai_x");
    EXPECT_EQ(v.size("m"), 3u);
    EXPECT_EQ(v.clamp_min(), -FLT_MAX);
    const kai_test::CompatSection& lhs = v.section("lhs");
    ASSERT_EQ(lhs.bytes.size(), 5u);
    EXPECT_EQ(lhs.bytes[3], 4);
    EXPECT_EQ(lhs.mask[2], 0);
    EXPECT_EQ(lhs.mask[3], 1);
    EXPECT_EQ(v.section("dst").f32()[0], 1.0f);
    std::remove(path);
}

// ------------------------------------------------------------------ kai_common.h

TEST(KaiCommon, VersionAndDatatypes) {
    EXPECT_STREQ(kai_get_version(), KAI_VERSION);
    EXPECT_STREQ(KAI_KLEIDIAI_COMPAT_VERSION, "1.30.0");
    EXPECT_EQ(kai_get_datatype_size_in_bytes(kai_dt_f32), 4u);
    EXPECT_EQ(kai_get_datatype_size_in_bytes(kai_dt_bf16), 2u);
    EXPECT_EQ(kai_get_datatype_size_in_bytes(kai_dt_int8), 1u);
    EXPECT_EQ(kai_get_datatype_size_in_bytes(kai_dt_bool), 4u);
    EXPECT_EQ(sizeof(struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params), 8u);
    EXPECT_EQ(sizeof(struct kai_rhs_pack_qs4cxs1s0_param), 2u);
}

TEST(KaiCommon, Rounding) {
    EXPECT_EQ(kai_div_ceil(0, 4), 0u);
    EXPECT_EQ(kai_div_ceil(5, 4), 2u);
    EXPECT_EQ(kai_roundup(38, 4), 40u);
    EXPECT_EQ(kai_roundup(40, 32), 64u);
    EXPECT_EQ(kai_mul_size_checked(1u << 20, 1u << 10), size_t(1) << 30);
    EXPECT_EQ(kai_add_size_checked(3, 4), 7u);
    EXPECT_EQ(KAI_MIN(3, 5), 3);
    EXPECT_EQ(KAI_MAX(3, 5), 5);
}

TEST(KaiCommon, Int4SignExtension) {
    for (int v = 0; v < 16; ++v) {
        EXPECT_EQ(kai_ext_sign_i8_i4(static_cast<int8_t>(v)), v < 8 ? v : v - 16);
    }
}

TEST(KaiCommon, Bf16CastRoundsToNearestEven) {
    // Exact ties: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7 (ties to the even 1.0);
    // 1 + 3*2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6 (ties to the even 1 + 2^-6).
    EXPECT_EQ(kai_cast_bf16_f32(1.0f + 0x1p-8f), 0x3F80);
    EXPECT_EQ(kai_cast_bf16_f32(1.0f + 3 * 0x1p-8f), 0x3F82);
    EXPECT_EQ(kai_cast_bf16_f32(-1.0f - 0x1p-8f - 0x1p-20f), 0xBF81);
    EXPECT_EQ(kai_cast_bf16_f32(INFINITY), 0x7F80);
    EXPECT_EQ(kai_cast_bf16_f32(FLT_MAX), 0x7F80);  // rounds up to infinity, as BFCVT does
    EXPECT_EQ(kai_cast_bf16_f32(kai_ref::f32_from_bits(0x7F800001u)) & 0x7FC0, 0x7FC0);  // quietened NaN
    kai_test::Rng rng(11);
    for (int i = 0; i < 100000; ++i) {
        const float x = kai_ref::f32_from_bits(static_cast<uint32_t>(rng.next_u64()));
        if (std::isnan(x)) continue;
        ASSERT_EQ(kai_cast_bf16_f32(x), kai_ref::bf16_from_f32(x)) << "x bits 0x" << std::hex << kai_ref::f32_bits(x);
        ASSERT_EQ(kai_ref::f32_bits(kai_cast_f32_bf16(kai_cast_bf16_f32(x))),
                  kai_ref::f32_bits(kai_ref::round_to_bf16(x)));
    }
}

TEST(KaiCommon, F16CastsMatchTheReference) {
    // Every f16 pattern converts to f32 and back unchanged (NaNs aside).
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        const uint16_t hb = static_cast<uint16_t>(h);
        const float f = kai_cast_f32_f16(hb);
        if (std::isnan(f)) continue;
        ASSERT_EQ(kai_ref::f32_bits(f), kai_ref::f32_bits(kai_ref::f32_from_f16(hb))) << "h=0x" << std::hex << h;
        ASSERT_EQ(kai_cast_f16_f32(f), hb) << "h=0x" << std::hex << h;
    }
    // Random f32 values in and around the f16 range, subnormals and ties included.
    kai_test::Rng rng(12);
    for (int i = 0; i < 100000; ++i) {
        const float x = std::ldexp(rng.uniform(-1.0f, 1.0f), static_cast<int>(rng.integer(-30, 18)));
        ASSERT_EQ(kai_cast_f16_f32(x), kai_ref::f16_from_f32(x)) << "x=" << x;
    }
    EXPECT_EQ(kai_cast_f16_f32(65520.0f), 0x7C00);  // tie between 65504 and 2^16: to infinity
    EXPECT_EQ(kai_cast_f16_f32(0x1p-25f), 0x0000);  // tie between 0 and the smallest subnormal
    EXPECT_EQ(kai_cast_f16_f32(0x1.8p-24f), 0x0002);  // tie between 1 and 2 units: to even
}

#ifndef NDEBUG
TEST(KaiCommonDeathTest, PreconditionsNameTheProblem) {
    EXPECT_DEATH(kai_ext_sign_i8_i4(16), "v must hold a nibble");
}
#endif

TEST(KaiCommonDeathTest, SizeOverflowAbortsInEveryBuild) {
#ifdef NDEBUG
    const char* const message = "";  // release builds abort without a message
#else
    const char* const message = "overflows size_t";
#endif
    EXPECT_DEATH(kai_mul_size_checked(SIZE_MAX / 2, 3), message);
    EXPECT_DEATH(kai_add_size_checked(SIZE_MAX, 1), message);
    EXPECT_DEATH(kai_roundup(SIZE_MAX, 4), message);
    EXPECT_DEATH(kai_roundup(SIZE_MAX - 2, 4), message);
}

TEST(KaiCommon, DivCeilAndRoundupHoldForEveryA) {
    EXPECT_EQ(kai_div_ceil(0, 4), 0u);
    EXPECT_EQ(kai_div_ceil(5, 4), 2u);
    EXPECT_EQ(kai_div_ceil(SIZE_MAX, 4), SIZE_MAX / 4 + 1);  // no a + b - 1 to wrap
    EXPECT_EQ(kai_div_ceil(SIZE_MAX, 1), SIZE_MAX);
    EXPECT_EQ(kai_roundup(0, 12), 0u);
    EXPECT_EQ(kai_roundup(13, 12), 24u);
    EXPECT_EQ(kai_roundup(SIZE_MAX - 3, 4), SIZE_MAX - 3);  // the largest multiple of 4
    EXPECT_EQ(kai_roundup(SIZE_MAX, 1), SIZE_MAX);
}

}  // namespace

// ------------------------------------------------------------------ ABI trampoline

namespace {

size_t kai_get_two_for_abi_test() { return 2; }

// Twelve integer and ten floating-point arguments: four integer words and two floats go on the
// stack, as in kai's widest signatures.
double abi_many_args(size_t a0, size_t a1, const void* a2, size_t a3, size_t a4, size_t a5, size_t a6, size_t a7,
                     size_t a8, const float* a9, size_t a10, uint8_t a11, float f0, float f1, float f2, float f3,
                     float f4, float f5, float f6, float f7, float f8, double f9) {
    double s = static_cast<double>(a0 + 2 * a1 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a10 +
                                   10 * a11);
    s += static_cast<double>(a2 != nullptr) + static_cast<double>(*a9);
    s += 1e3 * (f0 + 2 * f1 + 3 * f2 + 4 * f3 + 5 * f4 + 6 * f5 + 7 * f6 + 8 * f7 + 9 * f8) + 1e6 * f9;
    return s;
}

TEST(AbiTrampoline, ForwardsRegisterAndStackArgumentsAndResults) {
    const float nine = 9.0f;
    const double direct = abi_many_args(1, 2, &nine, 3, 4, 5, 6, 7, 8, &nine, 10, 11, 0.5f, 1.5f, 2.5f, 3.5f, 4.5f,
                                        5.5f, 6.5f, 7.5f, 8.5f, 9.25);
    const double through = KAI_ABI(abi_many_args)(1, 2, &nine, 3, 4, 5, 6, 7, 8, &nine, 10, 11, 0.5f, 1.5f, 2.5f,
                                                  3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f, 9.25);
    EXPECT_EQ(direct, through);
    EXPECT_EQ(kai_abi_state()->status, 0u);
    EXPECT_EQ(KAI_ABI(kai_get_two_for_abi_test)(), 2u);
}

TEST(AbiTrampoline, NamesEveryClobberedRegister) {
    EXPECT_NONFATAL_FAILURE(KAI_ABI(kai_abi_clobber_x19)(), "kai_abi_clobber_x19) did not preserve x19 (");
    EXPECT_NONFATAL_FAILURE(KAI_ABI(kai_abi_clobber_d8)(), "did not preserve d8 (");
    EXPECT_NONFATAL_FAILURE(KAI_ABI(kai_abi_clobber_x29)(), "did not preserve x29 (");
    EXPECT_NONFATAL_FAILURE(KAI_ABI(kai_abi_clobber_x28_x18)(), "did not preserve x28, x18 (");
    // The high half of v15 is not callee-saved.
    KAI_ABI(kai_abi_clobber_v15_high)();
    EXPECT_EQ(kai_abi_state()->status, 0u);
    EXPECT_EQ(kai_test::abi_register_names((1u << 0) | (1u << 9) | (1u << 10) | (1u << 11) | (1u << 18) | (1u << 19)),
              "x19, x28, x29, d8, d15, x18");
}

}  // namespace
