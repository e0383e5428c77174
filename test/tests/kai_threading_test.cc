// SPDX-License-Identifier: Apache-2.0
// kai/kai_threading.h: for many (T, M, N, step), the ranges and tiles cover the output exactly
// once, start at step multiples, are step multiples except the last, and are empty past the chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kai/kai_threading.h"
#include "test/common/environment.h"

namespace {

TEST(KaiThreading, RangesPartitionAnyTotalOverAnyThreadCount) {
    size_t cases = 0;
    for (size_t total : {0, 1, 2, 3, 4, 7, 8, 12, 13, 36, 37, 100, 4095, 4096, 11008}) {
        for (size_t step : {1, 2, 4, 8, 12, 16, 36, 64}) {
            for (size_t nth = 1; nth <= 70; nth += (nth < 10 ? 1 : 7)) {
                ++cases;
                const size_t chunks = kai_split_chunks(total, step);
                std::vector<uint8_t> hit(total, 0);
                size_t expect_begin = 0;
                size_t busy = 0;
                for (size_t t = 0; t < nth; ++t) {
                    size_t b = 0, e = 0;
                    kai_split_range(total, step, nth, t, &b, &e);
                    ASSERT_LE(b, e);
                    ASSERT_LE(e, total);
                    if (b == e) continue;
                    ++busy;
                    EXPECT_EQ(b, expect_begin) << "ranges are contiguous and in thread order";
                    EXPECT_EQ(b % step, 0u);
                    if (e != total) {
                        EXPECT_EQ((e - b) % step, 0u);
                    }
                    for (size_t i = b; i < e; ++i) ++hit[i];
                    expect_begin = e;
                }
                EXPECT_EQ(busy, chunks < nth ? chunks : nth) << "T=" << nth << " total=" << total << " step=" << step;
                for (size_t i = 0; i < total; ++i) ASSERT_EQ(hit[i], 1) << "element " << i << " T=" << nth;
                // Balanced: thread chunk counts differ by at most one.
                size_t lo = SIZE_MAX, hi = 0;
                for (size_t t = 0; t < nth && t < chunks; ++t) {
                    size_t b, e;
                    kai_split_range(total, step, nth, t, &b, &e);
                    const size_t c = kai_split_chunks(e - b, step);
                    lo = c < lo ? c : lo;
                    hi = c > hi ? c : hi;
                }
                if (chunks > 0) {
                    EXPECT_LE(hi - lo, 1u);
                }
            }
        }
    }
    EXPECT_GT(cases, 1000u);
}

TEST(KaiThreading, DegenerateArgumentsGiveEmptyRanges) {
    size_t b = 1, e = 2;
    kai_split_range(10, 4, 0, 0, &b, &e);  // no threads
    EXPECT_EQ(b, e);
    kai_split_range(10, 0, 4, 0, &b, &e);  // step 0
    EXPECT_EQ(b, e);
    kai_split_range(10, 4, 4, 9, &b, &e);  // t >= T
    EXPECT_EQ(b, e);
    kai_split_range(SIZE_MAX, SIZE_MAX / 2, 3, 2, &b, &e);  // near the top of size_t: no wrap
    EXPECT_EQ(e, SIZE_MAX);
    EXPECT_LE(b, e);
}

TEST(KaiThreading, TilesCoverTheOutputOnceForAnyGrid) {
    // The reduced sweep (KAI_TEST_REDUCED=1: Clang, older CPU models) keeps every thread count and
    // step and drops some shapes.
    const bool reduced = kai_test::reduced_sweep();
    const std::vector<size_t> ms = reduced ? std::vector<size_t>{1, 13, 65} : std::vector<size_t>{1, 2, 8, 13, 16, 64, 65};
    const std::vector<size_t> ns = reduced ? std::vector<size_t>{1, 7, 37, 100} : std::vector<size_t>{1, 4, 7, 12, 37, 83, 100};
    size_t cases = 0;
    for (size_t m : ms) {
        for (size_t n : ns) {
            for (size_t m_step : {1, 8, 16}) {
                for (size_t n_step : {4, 8, 12, 36}) {
                    for (size_t nth : {1, 2, 3, 5, 7, 8, 16, 64}) {
                        ++cases;
                        size_t rows = 0, cols = 0;
                        kai_split_grid(m, n, m_step, n_step, nth, &rows, &cols);
                        ASSERT_GE(rows, 1u);
                        ASSERT_GE(cols, 1u);
                        ASSERT_LE(rows * cols, nth);
                        ASSERT_LE(rows, kai_split_chunks(m, m_step));
                        ASSERT_LE(cols, kai_split_chunks(n, n_step));
                        std::vector<uint8_t> hit(m * n, 0);
                        for (size_t t = 0; t < nth; ++t) {  // includes t >= rows * cols
                            const kai_split_tile tl = kai_split_get_tile(m, n, m_step, n_step, rows, cols, t);
                            if (tl.m == 0 || tl.n == 0) continue;
                            ASSERT_LT(t, rows * cols);
                            EXPECT_EQ(tl.m0 % m_step, 0u);
                            EXPECT_EQ(tl.n0 % n_step, 0u);
                            if (tl.m0 + tl.m != m) {
                                EXPECT_EQ(tl.m % m_step, 0u);
                            }
                            if (tl.n0 + tl.n != n) {
                                EXPECT_EQ(tl.n % n_step, 0u);
                            }
                            for (size_t i = tl.m0; i < tl.m0 + tl.m; ++i) {
                                for (size_t j = tl.n0; j < tl.n0 + tl.n; ++j) ++hit[i * n + j];
                            }
                        }
                        for (size_t i = 0; i < m * n; ++i) {
                            ASSERT_EQ(hit[i], 1) << "m=" << m << " n=" << n << " steps " << m_step << "x" << n_step
                                                 << " T=" << nth << " grid " << rows << "x" << cols;
                        }
                    }
                }
            }
        }
    }
    EXPECT_GT(cases, reduced ? 1000u : 4000u);
}

TEST(KaiThreading, GridUsesAsManyThreadsAsThereAreTiles) {
    size_t rows, cols;
    kai_split_grid(64, 4096, 16, 4, 8, &rows, &cols);  // plenty of columns: split N only
    EXPECT_EQ(rows, 1u);
    EXPECT_EQ(cols, 8u);
    kai_split_grid(1, 8, 1, 4, 8, &rows, &cols);  // 2 column chunks for 8 threads
    EXPECT_EQ(rows * cols, 2u);
    kai_split_grid(64, 8, 16, 4, 8, &rows, &cols);  // 4 x 2 chunks: all 8 cells
    EXPECT_EQ(rows * cols, 8u);
    kai_split_grid(64, 8, 16, 4, 0, &rows, &cols);
    EXPECT_EQ(rows * cols, 1u);
}

}  // namespace
