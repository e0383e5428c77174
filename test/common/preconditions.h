// SPDX-License-Identifier: Apache-2.0
// Death tests for kai's precondition checks: a violated check prints "<file>:<line> <message>\n"
// (KAI_ERROR, debug builds) and aborts; release builds (NDEBUG) abort without a message.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kai_test {

// The source file and message of kai_common.h's checked size arithmetic.
extern const char kKaiCommonFile[];  // "kai_common.h"
extern const char kSizeOverflow[];   // "size computation overflows size_t"

// The regular expression gtest's death tests must find in the output of a check of `file`
// (a basename) failing with `message`: the whole message up to its newline, so that it cannot
// match a longer one. Empty under NDEBUG, where KAI_ERROR prints nothing.
std::string kai_error_regex(const std::string& file, const std::string& message);

// kai_error_regex(kKaiCommonFile, kSizeOverflow).
std::string size_overflow_regex();

// One precondition: call(false) passes valid arguments and must return; call(true) breaks
// exactly one precondition and must abort with `message` from `file`.
struct PreconditionCase {
    std::string function;            // the function called (and what is broken), for the trace
    std::string file;                // basename of the source file whose check must fire
    std::string message;             // the message, exactly as in the source
    std::function<void(bool)> call;  // call(false): valid arguments; call(true): one broken
};

// Runs every case as above (gtest's "fast" death-test style: re-exec does not work under
// qemu-user) and fails when a (function, message) pair is listed twice. Call from a test body.
void expect_preconditions(const std::vector<PreconditionCase>& cases);

}  // namespace kai_test
