// SPDX-License-Identifier: Apache-2.0
#include "test/common/cpu_features.h"

#if defined(__linux__) && defined(__aarch64__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

namespace kai_test {

namespace {
// Linux arm64 hwcap bits (arch/arm64/include/uapi/asm/hwcap.h).
constexpr unsigned long kHwcapAsimdhp = 1ul << 10;
constexpr unsigned long kHwcapAsimddp = 1ul << 20;
constexpr unsigned long kHwcapSve = 1ul << 22;
constexpr unsigned long kHwcap2Sve2 = 1ul << 1;
constexpr unsigned long kHwcap2I8mm = 1ul << 13;
constexpr unsigned long kHwcap2Bf16 = 1ul << 14;
constexpr unsigned long kHwcap2Sme = 1ul << 23;
constexpr unsigned long kHwcap2Sme2 = 1ul << 37;

struct Named {
    uint32_t bit;
    const char* name;
};
constexpr Named kNames[] = {
    {KAI_FEATURE_DOTPROD, "dotprod"},
    {KAI_FEATURE_I8MM, "i8mm"},
    {KAI_FEATURE_BF16, "bf16"},
    {KAI_FEATURE_SVE2, "sve2"},
    {KAI_FEATURE_SVE, "sve"},
    {KAI_FEATURE_SME, "sme"},
    {KAI_FEATURE_SME2, "sme2"},
    {KAI_FEATURE_FP16, "fp16"},
};
}  // namespace

uint32_t cpu_features() {
    uint32_t f = 0;
#if defined(__linux__) && defined(__aarch64__)
    const unsigned long hwcap = getauxval(AT_HWCAP);
    const unsigned long hwcap2 = getauxval(AT_HWCAP2);
    if (hwcap & kHwcapAsimddp) f |= KAI_FEATURE_DOTPROD;
    if (hwcap2 & kHwcap2I8mm) f |= KAI_FEATURE_I8MM;
    if (hwcap2 & kHwcap2Bf16) f |= KAI_FEATURE_BF16;
    if (hwcap2 & kHwcap2Sve2) f |= KAI_FEATURE_SVE2;
    if (hwcap & kHwcapSve) f |= KAI_FEATURE_SVE;
    if (hwcap2 & kHwcap2Sme) f |= KAI_FEATURE_SME;
    if (hwcap2 & kHwcap2Sme2) f |= KAI_FEATURE_SME2;
    if (hwcap & kHwcapAsimdhp) f |= KAI_FEATURE_FP16;
#endif
    return f;
}

std::string feature_names(uint32_t features) {
    std::string out;
    for (const Named& n : kNames) {
        if (features & n.bit) {
            if (!out.empty()) out += ' ';
            out += n.name;
        }
    }
    return out.empty() ? "none" : out;
}

std::string missing_features(uint32_t required) {
    const uint32_t missing = required & ~cpu_features();
    return missing == 0 ? std::string() : feature_names(missing);
}

bool set_sme_vector_length(size_t bytes) {
#if defined(PR_SME_SET_VL)
    if (prctl(PR_SME_SET_VL, static_cast<unsigned long>(bytes), 0, 0, 0) < 0) return false;
    return static_cast<size_t>(prctl(PR_SME_GET_VL, 0, 0, 0, 0) & PR_SME_VL_LEN_MASK) == bytes;
#else
    (void)bytes;
    return false;
#endif
}

}  // namespace kai_test
