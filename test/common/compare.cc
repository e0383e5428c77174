// SPDX-License-Identifier: Apache-2.0
#include "test/common/compare.h"

#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>

namespace kai_test {

namespace {
uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
const float* row_ptr(const float* base, size_t stride, size_t row) {
    return reinterpret_cast<const float*>(reinterpret_cast<const uint8_t*>(base) + row * stride);
}
}  // namespace

::testing::AssertionResult bytes_equal(const void* got, const void* expected, size_t n, const uint8_t* mask) {
    const uint8_t* g = static_cast<const uint8_t*>(got);
    const uint8_t* e = static_cast<const uint8_t*>(expected);
    size_t mismatches = 0;
    size_t first = 0;
    for (size_t i = 0; i < n; ++i) {
        if (mask != nullptr && mask[i] == 0) continue;
        if (g[i] != e[i]) {
            if (mismatches++ == 0) first = i;
        }
    }
    if (mismatches == 0) return ::testing::AssertionSuccess();
    std::ostringstream os;
    os << mismatches << " of " << n << " bytes differ; first at byte " << first << ": got 0x" << std::hex
       << std::setw(2) << std::setfill('0') << unsigned(g[first]) << ", expected 0x" << std::setw(2)
       << unsigned(e[first]);
    return ::testing::AssertionFailure() << os.str();
}

::testing::AssertionResult f32_bits_equal(const float* got, size_t got_stride, const float* expected,
                                          size_t expected_stride, size_t rows, size_t cols) {
    size_t mismatches = 0;
    size_t fr = 0, fc = 0;
    for (size_t r = 0; r < rows; ++r) {
        const float* g = row_ptr(got, got_stride, r);
        const float* e = row_ptr(expected, expected_stride, r);
        for (size_t c = 0; c < cols; ++c) {
            if (bits_of(g[c]) != bits_of(e[c])) {
                if (mismatches++ == 0) {
                    fr = r;
                    fc = c;
                }
            }
        }
    }
    if (mismatches == 0) return ::testing::AssertionSuccess();
    const float g = row_ptr(got, got_stride, fr)[fc];
    const float e = row_ptr(expected, expected_stride, fr)[fc];
    std::ostringstream os;
    os << mismatches << " of " << rows * cols << " elements differ; first at (" << fr << ", " << fc
       << "): got " << std::setprecision(9) << g << " (0x" << std::hex << bits_of(g) << "), expected " << std::dec
       << e << " (0x" << std::hex << bits_of(e) << ")";
    return ::testing::AssertionFailure() << os.str();
}

::testing::AssertionResult f32_within(const float* got, size_t got_stride, const double* expected,
                                      size_t expected_stride, size_t rows, size_t cols,
                                      const std::function<double(size_t, size_t)>& bound) {
    size_t mismatches = 0;
    size_t fr = 0, fc = 0;
    double worst_ratio = 0.0;
    for (size_t r = 0; r < rows; ++r) {
        const float* g = row_ptr(got, got_stride, r);
        const double* e =
            reinterpret_cast<const double*>(reinterpret_cast<const uint8_t*>(expected) + r * expected_stride);
        for (size_t c = 0; c < cols; ++c) {
            const double gv = static_cast<double>(g[c]);
            const double ev = e[c];
            bool ok;
            if (std::isnan(ev)) {
                ok = std::isnan(gv);
            } else {
                const double b = bound(r, c);
                const double d = std::fabs(gv - ev);
                ok = !std::isnan(gv) && d <= b;
                if (ok && b > 0) worst_ratio = std::max(worst_ratio, d / b);
            }
            if (!ok && mismatches++ == 0) {
                fr = r;
                fc = c;
            }
        }
    }
    if (mismatches == 0) return ::testing::AssertionSuccess() << "worst error / bound = " << worst_ratio;
    const float gv = row_ptr(got, got_stride, fr)[fc];
    const double ev =
        reinterpret_cast<const double*>(reinterpret_cast<const uint8_t*>(expected) + fr * expected_stride)[fc];
    std::ostringstream os;
    os << mismatches << " of " << rows * cols << " elements out of bounds; first at (" << fr << ", " << fc
       << "): got " << std::setprecision(9) << gv << ", expected " << std::setprecision(17) << ev << ", |diff| "
       << std::fabs(static_cast<double>(gv) - ev) << " > bound " << bound(fr, fc);
    return ::testing::AssertionFailure() << os.str();
}

}  // namespace kai_test
