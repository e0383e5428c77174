// SPDX-License-Identifier: Apache-2.0
// What the run asked for through the environment (set with bazel test --test_env=...).
#pragma once

#include <cstdlib>
#include <cstring>

namespace kai_test {

// True when KAI_TEST_REDUCED is set to a non-empty value other than "0": the secondary CI
// configurations (Clang, older CPU models) run a reduced sweep; the main GCC -cpu max run
// leaves it unset and runs every shape.
inline bool reduced_sweep() {
    const char* v = std::getenv("KAI_TEST_REDUCED");
    return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

}  // namespace kai_test
