// SPDX-License-Identifier: Apache-2.0
// Calls kai functions through an assembly trampoline (abi_trampoline.S) that checks the AAPCS64
// contract: x19-x28, the frame pointer x29 and d8-d15 hold canaries across the call and must come
// back unchanged, and x18 must not be touched. A violation is a test failure naming the function
// and the register(s).
//
// Usage: KAI_ABI(fn)(args...) instead of fn(args...), for a plain function or a function pointer
// (e.g. a registry entry); the result, if any, is returned unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

extern "C" {
struct KaiAbiState {
    const void* target;  // the function kai_abi_trampoline calls
    uint64_t status;     // bits of the registers the last call changed (see abi_trampoline.S)
};
// This thread's state (thread-local).
KaiAbiState* kai_abi_state(void);
void kai_abi_trampoline(void);
}

namespace kai_test {

// "x19, d8" for a status word; empty for 0.
std::string abi_register_names(uint64_t status);

// Reports a failed status (gtest non-fatal failure) naming `what` (the expression called) and the
// function's symbol.
void abi_report(uint64_t status, const char* what, const void* fn);

template <typename R, typename... A>
class AbiCall {
public:
    AbiCall(R (*fn)(A...), const char* what) : fn_(fn), what_(what) {}

    template <typename... B>
    R operator()(B&&... args) const {
        KaiAbiState* st = kai_abi_state();
        st->target = reinterpret_cast<const void*>(fn_);
        st->status = 0;
        auto* tramp = reinterpret_cast<R (*)(A...)>(&kai_abi_trampoline);
        if constexpr (std::is_void_v<R>) {
            tramp(static_cast<A>(args)...);
            check(st->status);
        } else {
            R r = tramp(static_cast<A>(args)...);
            check(st->status);
            return r;
        }
    }

private:
    void check(uint64_t status) const {
        if (status != 0) abi_report(status, what_, reinterpret_cast<const void*>(fn_));
    }
    R (*fn_)(A...);
    const char* what_;
};

template <typename R, typename... A>
AbiCall<R, A...> abi_call(R (*fn)(A...), const char* what) {
    return AbiCall<R, A...>(fn, what);
}

}  // namespace kai_test

#if defined(__aarch64__)
#define KAI_ABI(fn) ::kai_test::abi_call((fn), #fn)
#else
#define KAI_ABI(fn) (fn)
#endif
