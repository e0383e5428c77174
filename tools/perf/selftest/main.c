// SPDX-License-Identifier: Apache-2.0
// Calls the known loops of loops.S (tools/perf/selftest/run.py measures these calls).
#include <stdint.h>

void selftest_mix(uint64_t iterations, void* buffer);
void selftest_peak(uint64_t iterations);

int main(void) {
    static uint8_t buffer[64] __attribute__((aligned(16)));
    selftest_mix(10, buffer);
    selftest_mix(5, buffer);
    selftest_peak(100);
    return 0;
}
