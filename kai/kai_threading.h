//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Optional, header-only helpers that split a kernel's M x N output (or a packer's rows or columns)
/// over T threads, for any T and any N: chunks start at multiples of the step (the kernel's m_step /
/// n_step, or a packer's mr / nr), every chunk but the last is a multiple of the step, and the last is
/// ragged. No caller needs n % T == 0 or n % n_step == 0; threads beyond the number of chunks get an
/// empty range (begin == end) and must simply skip the call. Included by no kernel.
///
/// Recipe (docs/integration_runtime.md, "Threading"):
///
///     size_t rows, cols;
///     kai_split_grid(m, n, m_step, n_step, nthreads, &rows, &cols);   // once per call
///     // in thread t:
///     struct kai_split_tile tl = kai_split_get_tile(m, n, m_step, n_step, rows, cols, t);
///     if (tl.m != 0 && tl.n != 0) run_matmul(tl.m, tl.n, k, lhs_p + lhs_off(tl.m0, k),
///                                            rhs_p + rhs_off(tl.n0, k), dst + dst_off(tl.m0, tl.n0, stride), ...);

#ifndef KAI_THREADING_H
#define KAI_THREADING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns ceil(total / step), the number of step-aligned chunks of [0, total); 0 when step is 0.
static inline size_t kai_split_chunks(size_t total, size_t step) {
    return step == 0 ? 0 : total / step + (total % step != 0);
}

/// Thread t's share of [0, total) when the step-aligned chunks are dealt out as evenly as possible
/// over nthreads threads (the first ones get one chunk more). Sets [*begin, *end): begin is a
/// multiple of step, end - begin is a multiple of step unless end == total. Empty (begin == end ==
/// total) for t >= nthreads, for threads without a chunk, and when nthreads or step is 0.
static inline void kai_split_range(size_t total, size_t step, size_t nthreads, size_t t, size_t* begin, size_t* end) {
    const size_t chunks = kai_split_chunks(total, step);
    if (nthreads == 0 || t >= nthreads || chunks == 0) {
        *begin = total;
        *end = total;
        return;
    }
    const size_t base = chunks / nthreads;
    const size_t extra = chunks % nthreads;
    const size_t first = t * base + (t < extra ? t : extra);  // first chunk of thread t
    const size_t count = base + (t < extra ? 1 : 0);
    // first <= chunks, so first * step cannot exceed total + step - 1; guard the multiplication
    // against wrap for total close to SIZE_MAX all the same.
    const size_t b = first >= chunks ? total : first * step;
    const size_t e = first + count >= chunks ? total : (first + count) * step;
    *begin = b;
    *end = e;
}

/// Chooses a rows x cols grid of threads for an m x n output in m_step x n_step tiles: at most
/// nthreads cells, no more rows than row chunks nor columns than column chunks, as many cells as
/// possible and, among those, the fewest rows (N splits share the LHS; M splits share the RHS, the
/// larger operand for inference). Sets *rows, *cols >= 1 (1 x 1 when nthreads is 0).
static inline void kai_split_grid(size_t m, size_t n, size_t m_step, size_t n_step, size_t nthreads, size_t* rows,
                                  size_t* cols) {
    const size_t mc = kai_split_chunks(m, m_step);
    const size_t nc = kai_split_chunks(n, n_step);
    size_t best_r = 1;
    size_t best_c = 1;
    for (size_t r = 1; r <= nthreads && r <= (mc > 0 ? mc : 1); ++r) {
        size_t c = nthreads / r;
        if (c > nc) c = nc > 0 ? nc : 1;
        if (r * c > best_r * best_c) {
            best_r = r;
            best_c = c;
        }
    }
    *rows = best_r;
    *cols = best_c;
}

/// One thread's rectangle of the output: rows [m0, m0 + m), columns [n0, n0 + n).
struct kai_split_tile {
    size_t m0;
    size_t m;
    size_t n0;
    size_t n;
};

/// Thread t's rectangle on a rows x cols grid (from kai_split_grid, or any grid): cell (t / cols,
/// t % cols), row and column ranges from kai_split_range. Empty (m == 0 or n == 0) for
/// t >= rows * cols and for cells without a chunk.
static inline struct kai_split_tile kai_split_get_tile(size_t m, size_t n, size_t m_step, size_t n_step, size_t rows,
                                                   size_t cols, size_t t) {
    struct kai_split_tile tl = {0, 0, 0, 0};
    if (rows == 0 || cols == 0 || t / cols >= rows) {
        tl.m0 = m;
        tl.n0 = n;
        return tl;
    }
    size_t mb, me, nb, ne;
    kai_split_range(m, m_step, rows, t / cols, &mb, &me);
    kai_split_range(n, n_step, cols, t % cols, &nb, &ne);
    tl.m0 = mb;
    tl.m = me - mb;
    tl.n0 = nb;
    tl.n = ne - nb;
    return tl;
}

#ifdef __cplusplus
}
#endif

#endif  // KAI_THREADING_H
