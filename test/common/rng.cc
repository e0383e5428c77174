// SPDX-License-Identifier: Apache-2.0
#include "test/common/rng.h"

#include <cmath>
#include <cstring>

namespace kai_test {

namespace {
uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint16_t bf16_rne(float x) {
    uint32_t b;
    std::memcpy(&b, &x, 4);
    b += 0x7FFFu + ((b >> 16) & 1u);
    return static_cast<uint16_t>(b >> 16);
}
float from_bf16(uint16_t h) {
    const uint32_t b = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
}  // namespace

Rng::Rng(uint64_t seed) {
    for (uint64_t& s : s_) s = splitmix64(seed);
}

uint64_t Rng::next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

float Rng::uniform(float lo, float hi) {
    const double u = static_cast<double>(next_u64() >> 11) * 0x1.0p-53;  // [0, 1)
    const float v = static_cast<float>(lo + (static_cast<double>(hi) - lo) * u);
    return v < hi ? v : lo;
}

int64_t Rng::integer(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(span == 0 ? next_u64() : next_u64() % span);
}

uint64_t seed_from(const std::string& text) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001B3ull;
    }
    return h;
}

std::string seed_trace(uint64_t seed) { return "seed=" + std::to_string(seed); }

std::vector<float> random_f32(size_t n, float lo, float hi, uint64_t seed) {
    Rng rng(seed);
    std::vector<float> v(n);
    for (float& x : v) x = rng.uniform(lo, hi);
    return v;
}

std::vector<float> random_bf16_exact_f32(size_t n, float lo, float hi, uint64_t seed) {
    std::vector<float> v = random_f32(n, lo, hi, seed);
    for (float& x : v) x = from_bf16(bf16_rne(x));
    return v;
}

std::vector<uint16_t> random_bf16(size_t n, float lo, float hi, uint64_t seed) {
    Rng rng(seed);
    std::vector<uint16_t> v(n);
    for (uint16_t& x : v) x = bf16_rne(rng.uniform(lo, hi));
    return v;
}

std::vector<int8_t> random_i8(size_t n, int lo, int hi, uint64_t seed) {
    Rng rng(seed);
    std::vector<int8_t> v(n);
    for (int8_t& x : v) x = static_cast<int8_t>(rng.integer(lo, hi));
    return v;
}

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed) {
    Rng rng(seed);
    std::vector<uint8_t> v(n);
    for (uint8_t& x : v) x = static_cast<uint8_t>(rng.next_u64() >> 56);
    return v;
}

}  // namespace kai_test
