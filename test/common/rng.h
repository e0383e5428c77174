// SPDX-License-Identifier: Apache-2.0
// Seeded random data for tests: every generator is deterministic for a given seed, and tests
// print the seed (SCOPED_TRACE(kai_test::seed_trace(seed))) so a failure can be replayed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kai_test {

// Small, fast, reproducible generator (SplitMix64 seeding + xoshiro256**).
class Rng {
public:
    explicit Rng(uint64_t seed);
    uint64_t next_u64();
    // Uniform float in [lo, hi).
    float uniform(float lo, float hi);
    // Uniform integer in [lo, hi] (inclusive).
    int64_t integer(int64_t lo, int64_t hi);

private:
    uint64_t s_[4];
};

// Returns a seed derived from a string (e.g. the test name) with FNV-1a, so each test case has
// its own stable seed.
uint64_t seed_from(const std::string& text);
// Returns "seed=<n>" for SCOPED_TRACE.
std::string seed_trace(uint64_t seed);

// n floats uniform in [lo, hi).
std::vector<float> random_f32(size_t n, float lo, float hi, uint64_t seed);
// n floats uniform in [lo, hi) that are exactly representable in bf16.
std::vector<float> random_bf16_exact_f32(size_t n, float lo, float hi, uint64_t seed);
// n bf16 bit patterns of values uniform in [lo, hi).
std::vector<uint16_t> random_bf16(size_t n, float lo, float hi, uint64_t seed);
// n int8 values uniform in [lo, hi].
std::vector<int8_t> random_i8(size_t n, int lo, int hi, uint64_t seed);
// n random bytes (e.g. two int4 nibbles per byte).
std::vector<uint8_t> random_bytes(size_t n, uint64_t seed);

}  // namespace kai_test
