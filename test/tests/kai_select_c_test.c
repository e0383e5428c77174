// SPDX-License-Identifier: Apache-2.0
// kai_select.h, kai_cpu.h and kai_threading.h compile as strict C99 with the kernels' warning
// flags (-Wpedantic -Wconversion -Wsign-conversion -Wshadow ... -Werror), and work from C: the
// selection on this CPU is printed and each pointer is NULL exactly when the CPU lacks the family's
// features (the Q4_0 pair never: it has plain NEON kernels).
#include <stdio.h>
#include <string.h>

#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/kai_threading.h"

int main(void) {
    const uint64_t f = kai_cpu_get_features();
    const int dot = kai_cpu_has(f, KAI_CPU_FEATURE_DOTPROD) || kai_cpu_has(f, KAI_CPU_FEATURE_I8MM);
    const int bf16 = kai_cpu_has(f, KAI_CPU_FEATURE_BF16);
    int failures = 0;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* cx = kai_select_qsi4cxp(f, 1, 64, 64);
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* bf = kai_select_bf16(f, 64, 64, 64);
    const struct kai_select_pair_qsi8d32p pair = kai_select_pair_qsi8d32p(f, 4, 8, 2);
    printf("qsi4cxp m=1: %s\nbf16 m=64: %s\nQ4_0 (4, 8, 2) pair: %s / %s\n", KAI_SELECT_NAME(cx), KAI_SELECT_NAME(bf),
           KAI_SELECT_NAME(pair.gemv), KAI_SELECT_NAME(pair.gemm));
    // int4 per-channel has plain Armv8.0 NEON kernels too: every AArch64 CPU gets one, a DotProd one when it can.
    failures += cx == NULL;
    failures += dot && strstr(KAI_SELECT_NAME(cx), "_neon_") == NULL;
    failures += (bf != NULL) != bf16;
    // The Q4_0 (4, 8, 2) pair has plain Armv8.0 NEON kernels: every AArch64 CPU gets both.
    failures += pair.gemv == NULL || pair.gemm == NULL;
    size_t b, e;
    kai_split_range(100, 8, 3, 2, &b, &e);
    failures += !(b == 72 && e == 100);  // 13 chunks over 3 threads: 5, 4, 4
    printf("kai_select_c_test: %s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
