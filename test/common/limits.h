// SPDX-License-Identifier: Apache-2.0
// Every kernel's and packer's internal limits, declared once (limits.cc), and the test cases they
// expand into. An internal limit is a value of one dimension (M, N, K or the block length bl) at
// which a kernel changes path: a stack buffer stops fitting (the duplicated GEMV LHS, the unpacked
// RHS of the buffered GEMMs), a K or N pass begins, an int16 accumulator must be flushed. The source
// states each one next to the code as "Internal limit: <formula>" (tools/check_tree.py checks that
// every source with such a line has an entry here, and that every entry names a kernel of the list).
//
// The family suites iterate their registry and, for each variant (and packer), run the cases of
// limit_cases(name): the dimension at limit - step, limit and limit + step (step = the dimension's
// granularity, so that the three values are legal and straddle the boundary), the other dimensions
// as declared, bit-exact against the reference like every other case. A new kernel with a buffer or
// a pass gets its boundary tested by adding its entry to limits.cc; nothing else changes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kai_test {

enum class LimitDim { kM, kN, kK, kBl };

// What the inputs of a limit case hold.
enum class LimitData {
    kRandom,     // the suite's usual inputs
    kFullScale,  // an LHS row constant 1.0 (every quantised value at full scale, 127) and, where the
                 // suite has them, the weights of one column at their extreme: a narrow accumulator flushed
                 // too late wraps, a conversion exact only below a bound is past it
};

struct InternalLimit {
    const char* name;  // the kernel or packer (kai/kernels.bzl)
    const char* what;  // the limit as the source states it
    LimitDim dim;      // the dimension that crosses it
    size_t limit;      // the boundary value: the last value on one side (see `what` for which)
    size_t step;       // the dimension's granularity; the cases are limit - step, limit, limit + step
    size_t m, n, k, bl;  // the other dimensions. For kBl the number of blocks k / bl is kept (k = nb * bl);
                         // for kK, bl is kept (0: the family has no bl)
    LimitData data;
    size_t also;  // 0, or one more value of `dim` to run: a point inside the range where a plausible
                  // bug (a buffer sized without its per-block extra bytes) overflows
};

// One case a limit expands into.
struct LimitCase {
    size_t m, n, k, bl;
    LimitData data;
    std::string label;  // for test names: "k9088" ("_full" appended for full-scale data)
};

// Every declared limit.
const std::vector<InternalLimit>& internal_limits();

// The cases of every limit declared for `name` (empty when it has none). Reduced sweeps
// (KAI_TEST_REDUCED) leave out the cases of more than 2^20 multiply-adds (the column passes of the f16
// and bf16 GEMVs, n 1024 at k 4097: seconds each under the emulator); the full sweep runs them.
std::vector<LimitCase> limit_cases(const char* name);

}  // namespace kai_test
