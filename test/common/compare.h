// SPDX-License-Identifier: Apache-2.0
// Comparison helpers that report the first mismatch with its coordinates.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace kai_test {

// Byte-for-byte equality of n bytes. `mask`, when not null, marks bytes to compare (non-zero)
// and bytes to ignore (zero). Reports the first differing offset and both values.
::testing::AssertionResult bytes_equal(const void* got, const void* expected, size_t n,
                                       const uint8_t* mask = nullptr);

// Bit-exact equality of a rows x cols f32 matrix (strides in bytes). +0 and -0 differ; NaN
// patterns must match.
::testing::AssertionResult f32_bits_equal(const float* got, size_t got_stride, const float* expected,
                                          size_t expected_stride, size_t rows, size_t cols);

// |got - expected| <= bound(row, col) for every element of a rows x cols matrix (strides in
// bytes). NaN in got fails unless expected is NaN at the same place.
::testing::AssertionResult f32_within(const float* got, size_t got_stride, const double* expected,
                                      size_t expected_stride, size_t rows, size_t cols,
                                      const std::function<double(size_t, size_t)>& bound);

}  // namespace kai_test
