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
// Stub of macOS's sysctlbyname: a table of (name, 32-bit value).
static const struct {
    const char* name;
    int32_t value;
} kSysctl[] = {
    {"hw.optional.AdvSIMD", 1},          {"hw.optional.arm.FEAT_DotProd", 1}, {"hw.optional.arm.FEAT_I8MM", 1},
    {"hw.optional.arm.FEAT_BF16", 1},    {"hw.optional.arm.FEAT_FP16", 1},    {"hw.optional.arm.FEAT_SME", 1},
    {"hw.optional.arm.FEAT_SME2", 0},    {"hw.optional.arm.sme_max_svl_b", 64},
};
static int sysctlbyname(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen) {
    (void)newp;
    (void)newlen;
    for (size_t i = 0; i < sizeof(kSysctl) / sizeof(kSysctl[0]); ++i) {
        if (strcmp(name, kSysctl[i].name) == 0 && *oldlenp >= sizeof(int32_t)) {
            memcpy(oldp, &kSysctl[i].value, sizeof(int32_t));
            *oldlenp = sizeof(int32_t);
            return 0;
        }
    }
    return -1;  // ENOENT, as for a sysctl this macOS does not have
}
#elif defined(KAI_CPU_TEST_WINDOWS)
#define KAI_CPU_PATH_WINDOWS 1
#define KAI_CPU_NO_SYSTEM_HEADERS 1
// The constants of a Windows SDK that defines some of them (the values are this stub's own: the
// header uses only the names); I8MM, SME and
// the FP16 constant are left undefined, as in SDKs that predate them.
#define PF_ARM_V82_DP_INSTRUCTIONS_AVAILABLE 43
#define PF_ARM_SVE_INSTRUCTIONS_AVAILABLE 46
#define PF_ARM_SVE2_INSTRUCTIONS_AVAILABLE 47
#define PF_ARM_SVE_BF16_INSTRUCTIONS_AVAILABLE 54
static int IsProcessorFeaturePresent(unsigned f) {
    return f == 43 || f == 54;  // DotProd and (SVE) BF16, no SVE
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

int main(void) {
    const uint64_t f = kai_cpu_get_features();
    printf("features 0x%016llx, SVE VL %zu, SME SVL %zu\n", (unsigned long long)f, kai_cpu_sve_vl_bytes(f),
           kai_cpu_sme_svl_bytes(f));
#if defined(KAI_CPU_TEST_APPLE)
    CHECK((f & KAI_CPU_FEATURE_FLAGS_MASK) == (KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_I8MM |
                                                KAI_CPU_FEATURE_BF16 | KAI_CPU_FEATURE_FP16 | KAI_CPU_FEATURE_SME));
    CHECK(kai_cpu_sme_svl_bytes(f) == 64);
    CHECK(kai_cpu_sve_vl_bytes(f) == 0);
#elif defined(KAI_CPU_TEST_WINDOWS)
    CHECK((f & KAI_CPU_FEATURE_FLAGS_MASK) == (KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD | KAI_CPU_FEATURE_BF16));
    CHECK(kai_cpu_sve_vl_bytes(f) == 0 && kai_cpu_sme_svl_bytes(f) == 0);
#elif defined(KAI_CPU_TEST_COMPILER)
    // This file is built with -march=armv8.2-a+dotprod: exactly NEON and DotProd are guaranteed.
    CHECK((f & KAI_CPU_FEATURE_FLAGS_MASK) == (KAI_CPU_FEATURE_NEON | KAI_CPU_FEATURE_DOTPROD));
#endif
    printf("kai_cpu_paths_test: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
