// SPDX-License-Identifier: Apache-2.0
// The SME2 toolchain end to end: an SME2 assembly file built in every configuration (the GCC
// build hands +sme files to clang-19), run under the SME2 emulator tools/setup.sh installs
// (tools/toolchain/qemu_run.sh picks it for targets with KAI_NEEDS_SME2=1).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "test/common/cpu_features.h"

extern "C" uint64_t kai_test_sme2_probe(float* out);

TEST(Sme2Toolchain, EmulatorReportsSme2) {
    // qemu_run.sh sets KAI_QEMU_SME2=1 when it started the SME2 emulator (qemu 11): -cpu max must
    // then report SME and SME2. Elsewhere (no emulator installed, hardware) there is nothing to check.
    const char* model = std::getenv("KAI_CPU_MODEL");
    const char* sme2_qemu = std::getenv("KAI_QEMU_SME2");
    if (model == nullptr || sme2_qemu == nullptr || std::string(sme2_qemu) != "1" ||
        std::string(model).rfind("max", 0) != 0) {
        GTEST_SKIP() << "not started under the SME2 emulator with -cpu max (run tools/setup.sh)";
    }
    EXPECT_TRUE(kai_test::cpu_features() & KAI_FEATURE_SME) << kai_test::feature_names(kai_test::cpu_features());
    EXPECT_TRUE(kai_test::cpu_features() & KAI_FEATURE_SME2) << kai_test::feature_names(kai_test::cpu_features());
}

TEST(Sme2Toolchain, ProbeRunsInStreamingMode) {
    KAI_TEST_SKIP_UNLESS(KAI_FEATURE_SME2);
    float out[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const uint64_t svl_bytes = kai_test_sme2_probe(out);
    // SVL is a power of two from 128 to 2048 bits.
    EXPECT_GE(svl_bytes, 16u);
    EXPECT_LE(svl_bytes, 256u);
    EXPECT_EQ(svl_bytes & (svl_bytes - 1), 0u);
    for (float v : out) EXPECT_EQ(v, 4.0f);
}
