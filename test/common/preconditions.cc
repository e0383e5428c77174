// SPDX-License-Identifier: Apache-2.0
#include "test/common/preconditions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace kai_test {

const char kKaiCommonFile[] = "kai_common.h";
const char kSizeOverflow[] = "size computation overflows size_t";

namespace {
// The literal s as a POSIX extended regular expression (gtest's death-test matcher on Linux).
std::string regex_literal(const std::string& s) {
    std::string re;
    for (const char c : s) {
        if (std::strchr("\\.[](){}*+?|^$", c) != nullptr) re += '\\';
        re += c;
    }
    return re;
}
}  // namespace

std::string kai_error_regex(const std::string& file, const std::string& message) {
#ifdef NDEBUG
    (void)file;
    (void)message;
    return "";
#else
    return regex_literal(file) + ":[0-9]+ " + regex_literal(message) + "\n";
#endif
}

std::string size_overflow_regex() { return kai_error_regex(kKaiCommonFile, kSizeOverflow); }

void expect_preconditions(const std::vector<PreconditionCase>& cases) {
    GTEST_FLAG_SET(death_test_style, "fast");
    std::vector<std::string> seen;
    for (const PreconditionCase& c : cases) {
        SCOPED_TRACE(c.function + ": \"" + c.message + "\"");
        const std::string key = c.function + "|" + c.message;
        EXPECT_EQ(std::count(seen.begin(), seen.end(), key), 0) << "case listed twice";
        seen.push_back(key);
        c.call(false);
        EXPECT_DEATH(c.call(true), kai_error_regex(c.file, c.message));
    }
}

}  // namespace kai_test
