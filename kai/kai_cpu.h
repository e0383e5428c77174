//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Optional, header-only CPU feature detection for callers that dispatch between kai's kernels at
/// run time. No kernel includes this file: kernels never detect features, the caller does
/// (docs/integration.md). Copy it next to the kernels you vendor, or ignore it and use your
/// engine's own detection (cpuinfo, ggml's, ...).
///
/// kai_cpu_get_features() returns a 64-bit mask:
///   bits 0..15   KAI_CPU_FEATURE_* flags (NEON, DotProd, I8MM, BF16, FP16 arithmetic, SVE, SVE2,
///                SME, SME2);
///   bits 32..47  the SVE vector length in bytes (0 without SVE or when the OS does not say);
///   bits 48..63  the SME streaming vector length in bytes (0 without SME or when unknown).
/// Read the lengths with kai_cpu_sve_vl_bytes() and kai_cpu_sme_svl_bytes().
///
/// Where the answer comes from, and what is tested in kai's CI:
///
/// | OS (AArch64)     | source                                                  | tested here            |
/// |------------------|---------------------------------------------------------|------------------------|
/// | Linux, Android   | getauxval(AT_HWCAP / AT_HWCAP2); SVE VL from             | yes: qemu-aarch64 with |
/// |                  | prctl(PR_SVE_GET_VL), SME SVL from prctl(PR_SME_GET_VL), | -cpu max, neoverse-n1, |
/// |                  | each read only when HWCAP says the unit exists; RDVL /   | cortex-a72             |
/// |                  | RDSVL if the prctl is refused                            |                        |
/// | macOS            | sysctlbyname("hw.optional.arm.FEAT_*"),                  | no: only the mapping,  |
/// |                  | "hw.optional.AdvSIMD", "hw.optional.arm.sme_max_svl_b"   | against a stub sysctl  |
/// | Windows          | IsProcessorFeaturePresent(PF_ARM_*), with the documented | no: only the mapping,  |
/// |                  | numbers (KAI_CPU_PF_*; no recent SDK needed)             | against a stub         |
/// | anything else    | what the compiler guarantees (__ARM_NEON,                | compiled only          |
/// |                  | __ARM_FEATURE_DOTPROD, ...): the build's -march          |                        |
///
/// The macOS and Windows paths have never run on those systems; they are isolated below, each in
/// its own #if block, and kai's tests compile and exercise them against stub system functions
/// (test/tests/kai_cpu_paths_test.c; the Linux path is tested in test/tests/kai_select_test.cc).
/// Windows has no documented way to read the SVE or SME vector length, so those fields are 0 there.
/// Android is Linux: getauxval exists from API level 18.
///
/// To force a path (for tests, or an OS the auto-detection gets wrong) define exactly one of
/// KAI_CPU_PATH_LINUX, KAI_CPU_PATH_APPLE, KAI_CPU_PATH_WINDOWS or KAI_CPU_PATH_COMPILER before
/// including this file. With KAI_CPU_NO_SYSTEM_HEADERS the APPLE and WINDOWS paths include no
/// system header: the includer declares sysctlbyname / IsProcessorFeaturePresent itself (that is
/// how the stubs are built). tools/check_platforms.py compiles each path for its OS (Linux and
/// Android, macOS, iOS, Windows; the cl.exe approximation too) against stand-in system headers.

#ifndef KAI_CPU_H
#define KAI_CPU_H

#include <stddef.h>
#include <stdint.h>

// ---------------------------------------------------------------------------------------------
// Feature bits.

#define KAI_CPU_FEATURE_NEON (UINT64_C(1) << 0)     ///< AdvSIMD (baseline on AArch64)
#define KAI_CPU_FEATURE_DOTPROD (UINT64_C(1) << 1)  ///< FEAT_DotProd: SDOT/UDOT
#define KAI_CPU_FEATURE_I8MM (UINT64_C(1) << 2)     ///< FEAT_I8MM: SMMLA/UMMLA/USMMLA/USDOT
#define KAI_CPU_FEATURE_BF16 (UINT64_C(1) << 3)     ///< FEAT_BF16: BFDOT/BFMMLA/BFCVT
#define KAI_CPU_FEATURE_FP16 (UINT64_C(1) << 4)     ///< FEAT_FP16 vector arithmetic (ASIMDHP)
#define KAI_CPU_FEATURE_SVE (UINT64_C(1) << 5)      ///< FEAT_SVE
#define KAI_CPU_FEATURE_SVE2 (UINT64_C(1) << 6)     ///< FEAT_SVE2
#define KAI_CPU_FEATURE_SME (UINT64_C(1) << 7)      ///< FEAT_SME
#define KAI_CPU_FEATURE_SME2 (UINT64_C(1) << 8)     ///< FEAT_SME2
#define KAI_CPU_FEATURE_FLAGS_MASK (UINT64_C(0xFFFF))

#define KAI_CPU_SVE_VL_SHIFT 32
#define KAI_CPU_SME_SVL_SHIFT 48

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the SVE vector length in bytes stored in a feature mask (0: no SVE, or unknown).
static inline size_t kai_cpu_sve_vl_bytes(uint64_t features) {
    return (size_t)((features >> KAI_CPU_SVE_VL_SHIFT) & 0xFFFFu);
}

/// Returns the SME streaming vector length in bytes stored in a feature mask (0: no SME, or unknown).
static inline size_t kai_cpu_sme_svl_bytes(uint64_t features) {
    return (size_t)((features >> KAI_CPU_SME_SVL_SHIFT) & 0xFFFFu);
}

/// Returns `features` with the SVE vector length and the SME streaming vector length (bytes,
/// each at most 65535) stored in their fields.
static inline uint64_t kai_cpu_with_vector_lengths(uint64_t features, size_t sve_vl_bytes, size_t sme_svl_bytes) {
    features &= KAI_CPU_FEATURE_FLAGS_MASK;
    features |= ((uint64_t)(sve_vl_bytes & 0xFFFFu)) << KAI_CPU_SVE_VL_SHIFT;
    features |= ((uint64_t)(sme_svl_bytes & 0xFFFFu)) << KAI_CPU_SME_SVL_SHIFT;
    return features;
}

/// Returns 1 when `features` has every flag of `required` (KAI_CPU_FEATURE_* bits), else 0.
static inline int kai_cpu_has(uint64_t features, uint64_t required) {
    required &= KAI_CPU_FEATURE_FLAGS_MASK;
    return (features & required) == required;
}

// ---------------------------------------------------------------------------------------------
// Linux HWCAP mapping: a pure function, usable (and tested) on any host.

// Bits of arch/arm64/include/uapi/asm/hwcap.h.
#define KAI_CPU_HWCAP_ASIMD (UINT64_C(1) << 1)
#define KAI_CPU_HWCAP_ASIMDHP (UINT64_C(1) << 10)
#define KAI_CPU_HWCAP_ASIMDDP (UINT64_C(1) << 20)
#define KAI_CPU_HWCAP_SVE (UINT64_C(1) << 22)
#define KAI_CPU_HWCAP2_SVE2 (UINT64_C(1) << 1)
#define KAI_CPU_HWCAP2_I8MM (UINT64_C(1) << 13)
#define KAI_CPU_HWCAP2_BF16 (UINT64_C(1) << 14)
#define KAI_CPU_HWCAP2_SME (UINT64_C(1) << 23)
#define KAI_CPU_HWCAP2_SME2 (UINT64_C(1) << 37)

/// Returns the KAI_CPU_FEATURE_* flags that Linux's AT_HWCAP and AT_HWCAP2 words announce.
static inline uint64_t kai_cpu_features_from_hwcaps(uint64_t hwcap, uint64_t hwcap2) {
    uint64_t f = 0;
    if (hwcap & KAI_CPU_HWCAP_ASIMD) f |= KAI_CPU_FEATURE_NEON;
    if (hwcap & KAI_CPU_HWCAP_ASIMDHP) f |= KAI_CPU_FEATURE_FP16;
    if (hwcap & KAI_CPU_HWCAP_ASIMDDP) f |= KAI_CPU_FEATURE_DOTPROD;
    if (hwcap & KAI_CPU_HWCAP_SVE) f |= KAI_CPU_FEATURE_SVE;
    if (hwcap2 & KAI_CPU_HWCAP2_SVE2) f |= KAI_CPU_FEATURE_SVE2;
    if (hwcap2 & KAI_CPU_HWCAP2_I8MM) f |= KAI_CPU_FEATURE_I8MM;
    if (hwcap2 & KAI_CPU_HWCAP2_BF16) f |= KAI_CPU_FEATURE_BF16;
    if (hwcap2 & KAI_CPU_HWCAP2_SME) f |= KAI_CPU_FEATURE_SME;
    if (hwcap2 & KAI_CPU_HWCAP2_SME2) f |= KAI_CPU_FEATURE_SME2;
    return f;
}

/// Returns the flags the compiler guarantees for this translation unit (its -march), from the
/// ACLE macros; the vector-length fields are set only for fixed-length SVE builds.
static inline uint64_t kai_cpu_features_from_compiler(void) {
    uint64_t f = 0;
#if defined(__ARM_NEON) || defined(_M_ARM64)
    f |= KAI_CPU_FEATURE_NEON;
#endif
#if defined(__ARM_FEATURE_DOTPROD)
    f |= KAI_CPU_FEATURE_DOTPROD;
#endif
#if defined(__ARM_FEATURE_MATMUL_INT8)
    f |= KAI_CPU_FEATURE_I8MM;
#endif
#if defined(__ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
    f |= KAI_CPU_FEATURE_BF16;
#endif
#if defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
    f |= KAI_CPU_FEATURE_FP16;
#endif
#if defined(__ARM_FEATURE_SVE)
    f |= KAI_CPU_FEATURE_SVE;
#endif
#if defined(__ARM_FEATURE_SVE2)
    f |= KAI_CPU_FEATURE_SVE2;
#endif
#if defined(__ARM_FEATURE_SME)
    f |= KAI_CPU_FEATURE_SME;
#endif
#if defined(__ARM_FEATURE_SME2)
    f |= KAI_CPU_FEATURE_SME2;
#endif
#if defined(__ARM_FEATURE_SVE_BITS) && __ARM_FEATURE_SVE_BITS > 0
    f = kai_cpu_with_vector_lengths(f, (size_t)(__ARM_FEATURE_SVE_BITS / 8), 0);
#endif
    return f;
}

// ---------------------------------------------------------------------------------------------
// Path selection.

#if !defined(KAI_CPU_PATH_LINUX) && !defined(KAI_CPU_PATH_APPLE) && !defined(KAI_CPU_PATH_WINDOWS) && \
    !defined(KAI_CPU_PATH_COMPILER)
#if defined(__linux__) && defined(__aarch64__)
#define KAI_CPU_PATH_LINUX 1
#elif defined(__APPLE__) && defined(__aarch64__)
#define KAI_CPU_PATH_APPLE 1
#elif defined(_WIN32) && (defined(_M_ARM64) || defined(__aarch64__))
#define KAI_CPU_PATH_WINDOWS 1
#else
#define KAI_CPU_PATH_COMPILER 1
#endif
#endif

// ---------------------------------------------------------------------------------------------
// Linux and Android (tested).
#if defined(KAI_CPU_PATH_LINUX)
#include <sys/auxv.h>
#include <sys/prctl.h>

#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SME_GET_VL
#define PR_SME_GET_VL 64
#endif
#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif

/// Returns the SVE vector length in bytes read with RDVL. Call it only when SVE is present
/// (it is an undefined instruction otherwise).
static inline size_t kai_cpu_rdvl_bytes(void) {
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t vl;
    // RDVL x0, #1 as an encoding, so that no +sve compile flag is needed.
    __asm__ volatile(".inst 0x04bf5020\n\tmov %0, x0" : "=r"(vl) : : "x0");
    return (size_t)vl;
#else
    return 0;
#endif
}

/// Returns the SME streaming vector length in bytes read with RDSVL (valid outside streaming
/// mode). Call it only when SME is present.
static inline size_t kai_cpu_rdsvl_bytes(void) {
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t svl;
    // RDSVL x0, #1 as an encoding, so that no +sme compile flag is needed.
    __asm__ volatile(".inst 0x04bf5820\n\tmov %0, x0" : "=r"(svl) : : "x0");
    return (size_t)svl;
#else
    return 0;
#endif
}

/// Returns the CPU's features and vector lengths as the Linux kernel reports them.
static inline uint64_t kai_cpu_get_features(void) {
    const uint64_t f = kai_cpu_features_from_hwcaps((uint64_t)getauxval(AT_HWCAP), (uint64_t)getauxval(AT_HWCAP2));
    size_t sve_vl = 0;
    size_t sme_svl = 0;
    if (f & KAI_CPU_FEATURE_SVE) {
        // The low 16 bits of the result are the current vector length in bytes (PR_SVE_VL_LEN_MASK).
        const int r = prctl(PR_SVE_GET_VL, 0, 0, 0, 0);
        sve_vl = r > 0 ? (size_t)(r & 0xFFFF) : kai_cpu_rdvl_bytes();
    }
    if (f & KAI_CPU_FEATURE_SME) {
        const int r = prctl(PR_SME_GET_VL, 0, 0, 0, 0);
        sme_svl = r > 0 ? (size_t)(r & 0xFFFF) : kai_cpu_rdsvl_bytes();
    }
    return kai_cpu_with_vector_lengths(f, sve_vl, sme_svl);
}
#endif  // KAI_CPU_PATH_LINUX

// ---------------------------------------------------------------------------------------------
// macOS (NOT run on macOS in kai's CI: the mapping is tested against a stub sysctlbyname).
#if defined(KAI_CPU_PATH_APPLE)
#if !defined(KAI_CPU_NO_SYSTEM_HEADERS)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

/// Returns the integer value of a sysctl, 0 when it does not exist.
static inline int64_t kai_cpu_sysctl_int(const char* name) {
    int64_t v64 = 0;
    int32_t v32 = 0;
    size_t size = sizeof(v64);
    if (sysctlbyname(name, &v64, &size, NULL, 0) == 0) {
        if (size == sizeof(v64)) return v64;
        if (size == sizeof(v32)) {
            // The kernel wrote a 32-bit value into the first four bytes.
            const unsigned char* p = (const unsigned char*)&v64;
            unsigned char* q = (unsigned char*)&v32;
            for (size_t i = 0; i < sizeof(v32); ++i) q[i] = p[i];
            return v32;
        }
    }
    return 0;
}

/// Returns the CPU's features as macOS's hw.optional sysctls report them (no SVE on Apple CPUs).
static inline uint64_t kai_cpu_get_features(void) {
    uint64_t f = 0;
    if (kai_cpu_sysctl_int("hw.optional.AdvSIMD") || kai_cpu_sysctl_int("hw.optional.neon")) f |= KAI_CPU_FEATURE_NEON;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_DotProd")) f |= KAI_CPU_FEATURE_DOTPROD;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_I8MM")) f |= KAI_CPU_FEATURE_I8MM;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_BF16")) f |= KAI_CPU_FEATURE_BF16;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_FP16")) f |= KAI_CPU_FEATURE_FP16;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_SME")) f |= KAI_CPU_FEATURE_SME;
    if (kai_cpu_sysctl_int("hw.optional.arm.FEAT_SME2")) f |= KAI_CPU_FEATURE_SME2;
    size_t svl = 0;
    if (f & KAI_CPU_FEATURE_SME) {
        const int64_t v = kai_cpu_sysctl_int("hw.optional.arm.sme_max_svl_b");
        svl = v > 0 ? (size_t)v : 0;
    }
    return kai_cpu_with_vector_lengths(f, 0, svl);
}
#endif  // KAI_CPU_PATH_APPLE

// ---------------------------------------------------------------------------------------------
// Windows on Arm (NOT run on Windows in kai's CI: the mapping is tested against a stub).
#if defined(KAI_CPU_PATH_WINDOWS)
#if !defined(KAI_CPU_NO_SYSTEM_HEADERS)
#include <windows.h>
#endif

// The PF_ARM_* processor-feature numbers kai asks about, with the values Microsoft documents for
// IsProcessorFeaturePresent (learn.microsoft.com, "IsProcessorFeaturePresent function
// (processthreadsapi.h)"; winnt.h of Windows SDK 20348 for DotProd, 26100 for the others). kai
// uses its own names with those numbers, so it needs no recent SDK: a Windows version that does
// not know a number answers 0 for it.
#define KAI_CPU_PF_ARM_V82_DP 43     ///< PF_ARM_V82_DP_INSTRUCTIONS_AVAILABLE: FEAT_DotProd
#define KAI_CPU_PF_ARM_SVE 46        ///< PF_ARM_SVE_INSTRUCTIONS_AVAILABLE: FEAT_SVE
#define KAI_CPU_PF_ARM_SVE2 47       ///< PF_ARM_SVE2_INSTRUCTIONS_AVAILABLE: FEAT_SVE2
#define KAI_CPU_PF_ARM_SVE_BF16 52   ///< PF_ARM_SVE_BF16_INSTRUCTIONS_AVAILABLE: FEAT_BF16 (SVE)
#define KAI_CPU_PF_ARM_SVE_I8MM 57   ///< PF_ARM_SVE_I8MM_INSTRUCTIONS_AVAILABLE: FEAT_I8MM (SVE)
#define KAI_CPU_PF_ARM_V82_I8MM 66   ///< PF_ARM_V82_I8MM_INSTRUCTIONS_AVAILABLE: FEAT_I8MM (AdvSIMD)
#define KAI_CPU_PF_ARM_V82_FP16 67   ///< PF_ARM_V82_FP16_INSTRUCTIONS_AVAILABLE: FEAT_FP16
#define KAI_CPU_PF_ARM_V86_BF16 68   ///< PF_ARM_V86_BF16_INSTRUCTIONS_AVAILABLE: FEAT_BF16 (AdvSIMD)
#define KAI_CPU_PF_ARM_SME 70        ///< PF_ARM_SME_INSTRUCTIONS_AVAILABLE: FEAT_SME
#define KAI_CPU_PF_ARM_SME2 71       ///< PF_ARM_SME2_INSTRUCTIONS_AVAILABLE: FEAT_SME2

/// Returns the CPU's features as IsProcessorFeaturePresent reports them. The SVE I8MM / BF16
/// numbers imply the AdvSIMD feature (FEAT_I8MM and FEAT_BF16 cover both instruction sets). No
/// vector lengths: Windows has no documented way to read them.
static inline uint64_t kai_cpu_get_features(void) {
    uint64_t f = KAI_CPU_FEATURE_NEON;  // AdvSIMD is mandatory on Windows on Arm
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_V82_DP)) f |= KAI_CPU_FEATURE_DOTPROD;
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_V82_I8MM) || IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SVE_I8MM)) {
        f |= KAI_CPU_FEATURE_I8MM;
    }
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_V86_BF16) || IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SVE_BF16)) {
        f |= KAI_CPU_FEATURE_BF16;
    }
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_V82_FP16)) f |= KAI_CPU_FEATURE_FP16;
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SVE)) f |= KAI_CPU_FEATURE_SVE;
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SVE2)) f |= KAI_CPU_FEATURE_SVE2;
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SME)) f |= KAI_CPU_FEATURE_SME;
    if (IsProcessorFeaturePresent(KAI_CPU_PF_ARM_SME2)) f |= KAI_CPU_FEATURE_SME2;
    return f;
}
#endif  // KAI_CPU_PATH_WINDOWS

// ---------------------------------------------------------------------------------------------
// Any other system: only what the build guarantees.
#if defined(KAI_CPU_PATH_COMPILER)
/// Returns the features the compiler was told the CPU has (no OS query is available).
static inline uint64_t kai_cpu_get_features(void) {
    return kai_cpu_features_from_compiler();
}
#endif  // KAI_CPU_PATH_COMPILER

#ifdef __cplusplus
}
#endif

#endif  // KAI_CPU_H
