// SPDX-License-Identifier: Apache-2.0
// Compiles and runs the non-Linux paths of kai/kai_cpu.h against stub system functions: one path
// per build (KAI_CPU_TEST_APPLE, KAI_CPU_TEST_WINDOWS or KAI_CPU_TEST_COMPILER). This checks the
// mapping from each OS's answers to the feature bits; it does not prove the OS calls behave as
// documented (those paths have never run on macOS or Windows here).
#include <stdio.h>
#include <string.h>

#if defined(KAI_CPU_TEST_APPLE)
#define KAI_CPU_PATH_APPLE 1
#define KAI_CPU_NO_SYSTEM_HEADERS 1
#include <stddef.h>
#include <stdint.h>
// Stub of macOS's sysctlbyname: answers from the current table of (name, 32-bit value).
struct sysctl_value {
    const char* name;
    int32_t value;
};
// A mapping case (not a machine): every key kai reads, SME without SME2.
static const struct sysctl_value kMapping[] = {
    {"hw.optional.AdvSIMD", 1},          {"hw.optional.arm.FEAT_DotProd", 1}, {"hw.optional.arm.FEAT_I8MM", 1},
    {"hw.optional.arm.FEAT_BF16", 1},    {"hw.optional.arm.FEAT_FP16", 1},    {"hw.optional.arm.FEAT_SME", 1},
    {"hw.optional.arm.FEAT_SME2", 0},    {"hw.optional.arm.sme_max_svl_b", 64}, {NULL, 0},
};
// Recorded: the SME lines of `sysctl hw` on an M3-series Mac (hw.targettype J516c) and an M4 Mac
// (J773s), as published in https://qiita.com/zacky1972/items/69fd802fd41ae4d7d469 (a diff of
// the two outputs; only the lines that differ are published, so only those are here).
static const struct sysctl_value kM3J516c[] = {
    {"hw.optional.arm.FEAT_SME", 0}, {"hw.optional.arm.FEAT_SME2", 0}, {NULL, 0},
};
static const struct sysctl_value kM4J773s[] = {
    {"hw.optional.arm.FEAT_SME", 1}, {"hw.optional.arm.FEAT_SME2", 1}, {NULL, 0},
};
static const struct sysctl_value* g_sysctl = kMapping;
static int sysctlbyname(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen) {
    (void)newp;
    (void)newlen;
    for (const struct sysctl_value* v = g_sysctl; v->name != NULL; ++v) {
        if (strcmp(name, v->name) == 0 && *oldlenp >= sizeof(int32_t)) {
            memcpy(oldp, &v->value, sizeof(int32_t));
            *oldlenp = sizeof(int32_t);
            return 0;
        }
    }
    return -1;  // ENOENT, as for a sysctl this macOS does not have
}
#elif defined(KAI_CPU_TEST_WINDOWS)
#define KAI_CPU_PATH_WINDOWS 1
#define KAI_CPU_NO_SYSTEM_HEADERS 1
#include <stddef.h>
#include <stdint.h>
// Stub of IsProcessorFeaturePresent: answers 1 for the processor-feature numbers of the current
// case. The numbers are written here from Microsoft's documentation of the function
// (learn.microsoft.com, "IsProcessorFeaturePresent function (processthreadsapi.h)"), not taken
// from kai_cpu.h, so that a wrong number in the header fails. These are mapping cases, not
// recordings of machines.
static const unsigned* g_present;
static int IsProcessorFeaturePresent(unsigned f) {
    for (const unsigned* p = g_present; *p != 0; ++p) {
        if (*p == f) return 1;
    }
    return 0;
}
#elif defined(KAI_CPU_TEST_COMPILER)
#define KAI_CPU_PATH_COMPILER 1
#endif

#include "kai/kai_cpu.h"

static int failures = 0;
#define CHECK(c)                                                \
    do {                                                        \
        if (!(c)) {                                             \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            ++failures;                                         \
        }                                                       \
    } while (0)

#if defined(KAI_CPU_TEST_WINDOWS)
// Documented numbers: 43 PF_ARM_V82_DP, 46 PF_ARM_SVE, 47 PF_ARM_SVE2, 52 PF_ARM_SVE_BF16,
// 54 PF_ARM_SVE_B16B16 (not BF16), 57 PF_ARM_SVE_I8MM, 66 PF_ARM_V82_I8MM, 67 PF_ARM_V82_FP16,
// 68 PF_ARM_V86_BF16, 70 PF_ARM_SME, 71 PF_ARM_SME2, 48 PF_ARM_SVE2_1 (kai does not ask).
static const unsigned kNone[] = {0};
static const unsigned kDotOnly[] = {43, 0};
static const unsigned kNeonAll[] = {43, 66, 67, 68, 0};
static const unsigned kSveForms[] = {43, 46, 47, 52, 57, 0};
static const unsigned kSme2[] = {43, 66, 67, 68, 70, 71, 0};
static const unsigned kUnasked[] = {48, 54, 0};
static const struct {
    const unsigned* present;
    uint64_t expected;
} kCases[] = {
    {kNone, KAI_CPU_FEATURE_NEON},
    {kDotOnly, KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD},
    {kNeonAll, KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_I8MM | KAI_CPU_FEATURE_FP16 |
                   KAI_CPU_FEATURE_BF16},
    {kSveForms, KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_SVE | KAI_CPU_FEATURE_SVE2 |
                    KAI_CPU_FEATURE_BF16 | KAI_CPU_FEATURE_I8MM},
    {kSme2, KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_I8MM | KAI_CPU_FEATURE_FP16 |
                KAI_CPU_FEATURE_BF16 | KAI_CPU_FEATURE_SME | KAI_CPU_FEATURE_SME2},
    {kUnasked, KAI_CPU_FEATURE_NEON},
};
#endif

int main(void) {
#if defined(KAI_CPU_TEST_WINDOWS)
    for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
        g_present = kCases[i].present;
        const uint64_t w = kai_cpu_get_features();
        printf("windows case %zu: features 0x%016llx\n", i, (unsigned long long)w);
        CHECK(w == kCases[i].expected);  // flags only: no vector lengths on Windows
    }
    g_present = kNone;
#elif defined(KAI_CPU_TEST_APPLE)
    // The recorded rows: no sme_max_svl_b line was published, so the SVL field stays 0.
    g_sysctl = kM3J516c;
    CHECK(kai_cpu_get_features() == 0);
    g_sysctl = kM4J773s;
    CHECK(kai_cpu_get_features() == (KAI_CPU_FEATURE_SME | KAI_CPU_FEATURE_SME2));
    g_sysctl = kMapping;
#endif
    const uint64_t f = kai_cpu_get_features();
    printf("features 0x%016llx, SVE VL %zu, SME SVL %zu\n", (unsigned long long)f, kai_cpu_sve_vl_bytes(f),
           kai_cpu_sme_svl_bytes(f));
#if defined(KAI_CPU_TEST_APPLE)
    CHECK((f & KAI_CPU_FEATURE_FLAGS_MASK) == (KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_I8MM |
                                                KAI_CPU_FEATURE_BF16 | KAI_CPU_FEATURE_FP16 | KAI_CPU_FEATURE_SME));
    CHECK(kai_cpu_sme_svl_bytes(f) == 64);
    CHECK(kai_cpu_sve_vl_bytes(f) == 0);
#elif defined(KAI_CPU_TEST_WINDOWS)
    CHECK(f == KAI_CPU_FEATURE_NEON);
#elif defined(KAI_CPU_TEST_COMPILER)
    // This file is built with -march=armv8.2-a+dotprod: exactly NEON and DotProd are guaranteed.
    CHECK((f & KAI_CPU_FEATURE_FLAGS_MASK) == (KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD));
#endif
    printf("kai_cpu_paths_test: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
