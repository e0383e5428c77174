// SPDX-License-Identifier: Apache-2.0
// Reader for the KleidiAI reference vectors (format: ../shared/compat/README.md; the files the
// tests use are copied into test/data/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kai_test {

struct CompatSection {
    std::string type;           // f32, bf16 or u8
    std::string shape;          // "RxC" or a count
    std::vector<uint8_t> bytes; // the buffer; unspecified bytes ("..") are 0
    std::vector<uint8_t> mask;  // 1 where the byte is specified, 0 for ".."
    const float* f32() const { return reinterpret_cast<const float*>(bytes.data()); }
};

struct CompatVector {
    std::string path;
    std::map<std::string, std::string> header;  // key: value lines
    std::map<std::string, CompatSection> sections;

    bool has(const std::string& key) const { return header.count(key) != 0; }
    const std::string& str(const std::string& key) const;
    size_t size(const std::string& key) const;   // header value as an integer
    uint32_t bits(const std::string& key) const; // hex value such as clamp_min_bits
    float clamp_min() const;
    float clamp_max() const;
    const CompatSection& section(const std::string& name) const;
    bool has_section(const std::string& name) const { return sections.count(name) != 0; }
};

// Parses one vector file; aborts the test (ADD_FAILURE + empty result) on a malformed file.
CompatVector load_compat_vector(const std::string& path);

// Lists the files in test/data/compat (relative to the runfiles root, i.e. the test's working
// directory) whose name starts with `prefix`, sorted.
std::vector<std::string> list_compat_vectors(const std::string& prefix);

// The LHS packer vectors whose names start with `prefix` (exactly `count` of them), each packed by
// `pack(m, k, mr, kr, sr, lhs, lhs_stride, out)` (a reference, say) into a buffer of the recorded size:
// returns failure naming the first file whose specified bytes differ.
using LhsPackFn = std::function<void(size_t m, size_t k, size_t mr, size_t kr, size_t sr, const uint8_t* lhs,
                                     size_t lhs_stride, uint8_t* out)>;
::testing::AssertionResult lhs_pack_matches_vectors(const std::string& prefix, size_t count, const LhsPackFn& pack);

}  // namespace kai_test
