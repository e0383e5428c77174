// SPDX-License-Identifier: Apache-2.0
// CPU feature detection for tests and the benchmark (kernels themselves never detect features:
// the caller dispatches).
#pragma once

#include <cstdint>
#include <cstddef>
#include <string>

// Feature bits used by the generated registry (kai/kai_registry.inc) and by the tests.
#define KAI_FEATURE_DOTPROD (1u << 0)  // FEAT_DotProd: SDOT/UDOT
#define KAI_FEATURE_I8MM (1u << 1)     // FEAT_I8MM: SMMLA/UMMLA/USMMLA
#define KAI_FEATURE_BF16 (1u << 2)     // FEAT_BF16: BFDOT/BFMMLA/BFCVT
#define KAI_FEATURE_SVE2 (1u << 3)     // FEAT_SVE2 (reported only; no kai kernel needs it yet)
#define KAI_FEATURE_SVE (1u << 4)      // FEAT_SVE
#define KAI_FEATURE_SME (1u << 5)      // FEAT_SME: streaming mode, ZA, MOPA
#define KAI_FEATURE_SME2 (1u << 6)     // FEAT_SME2: multi-vector instructions, ZT0
#define KAI_FEATURE_FP16 (1u << 7)     // FEAT_FP16: half-precision arithmetic (FCVTN/FCVTL are baseline)

namespace kai_test {

// Returns the KAI_FEATURE_* bits of the CPU running this process, read from
// getauxval(AT_HWCAP/AT_HWCAP2) on Linux/AArch64 (0 elsewhere).
uint32_t cpu_features();

// Returns "" when the CPU has every feature in `required`, else the missing ones' names
// separated by spaces (e.g. "i8mm bf16").
std::string missing_features(uint32_t required);

// Returns the names of the bits in `features`, e.g. "dotprod i8mm"; "none" for 0.
std::string feature_names(uint32_t features);

// Sets this thread's SME streaming vector length to `bytes` (prctl(PR_SME_SET_VL)); true when the CPU took exactly
// that length (an SME CPU; false elsewhere).
bool set_sme_vector_length(size_t bytes);

}  // namespace kai_test

// Skips the current GoogleTest test, naming the missing features, when the CPU lacks any of
// `required`. Use at the top of a TEST/TEST_P body.
#define KAI_TEST_SKIP_UNLESS(required)                                                     \
    do {                                                                                   \
        const std::string kai_missing_ = ::kai_test::missing_features(required);           \
        if (!kai_missing_.empty()) {                                                       \
            GTEST_SKIP() << "CPU lacks FEAT " << kai_missing_ << " (QEMU_CPU or hardware)"; \
        }                                                                                  \
    } while (0)
