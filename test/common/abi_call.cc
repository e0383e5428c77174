// SPDX-License-Identifier: Apache-2.0
#include "test/common/abi_call.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <sstream>

extern "C" KaiAbiState* kai_abi_state(void) {
    static thread_local KaiAbiState state = {nullptr, 0};
    return &state;
}

namespace kai_test {

std::string abi_register_names(uint64_t status) {
    std::ostringstream s;
    const char* sep = "";
    for (int bit = 0; bit < 20; ++bit) {
        if ((status >> bit & 1) == 0) continue;
        s << sep;
        sep = ", ";
        if (bit <= 10) {
            s << "x" << 19 + bit;
        } else if (bit <= 18) {
            s << "d" << bit - 11 + 8;
        } else {
            s << "x18";
        }
    }
    return s.str();
}

void abi_report(uint64_t status, const char* what, const void* fn) {
    Dl_info info{};
    const char* symbol = (dladdr(fn, &info) != 0 && info.dli_sname != nullptr) ? info.dli_sname : "?";
    ADD_FAILURE() << "ABI violation: " << what << " (" << symbol << ") did not preserve "
                  << abi_register_names(status)
                  << " (AAPCS64: x19-x29 and d8-d15 are callee-saved, x18 must not be touched)";
}

}  // namespace kai_test
