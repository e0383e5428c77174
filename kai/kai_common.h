//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// The one header every kai micro-kernel and packer includes: assertion and error macros,
/// rounding helpers, the datatype enum, bf16/f16 conversions, int4 helpers, the version and the
/// parameter structs of the packers. Names, values and semantics follow KleidiAI v1.30.0's
/// `kai/kai_common.h`, so code written against KleidiAI compiles unchanged unless it calls the
/// SVE/SME vector-length queries (next paragraph). Deliberate differences are marked "kai:".
///
/// kai: KleidiAI's header also declares kai_get_sve_vector_length_u8/u16/u32() and
/// kai_get_sve_vscale() (and, under __ARM_FEATURE_SVE2, the SME queries and kai_commit_za()),
/// implemented in assembly files. kai has no SVE or SME kernels and omits them all.
///
/// Everything here is a macro or `static inline`: the header has no .c file to compile or link.

#ifndef KAI_COMMON_H
#define KAI_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------------
// Error handling.
//
// Preconditions on parameters are written KAI_ASSUME*(cond) in the kernels. In debug builds
// (NDEBUG undefined) a violated precondition prints "<file>:<line> <message>" to stderr and
// aborts; in release builds it becomes an optimisation hint and the behaviour is undefined.
// The *_ALWAYS forms are checked in every build.
// ---------------------------------------------------------------------------------------------

/// Ends the process: abort(), or a trap instruction when built with -DKLEIDIAI_ERROR_TRAP=1.
#if defined(KLEIDIAI_ERROR_TRAP) && KLEIDIAI_ERROR_TRAP && (defined(__GNUC__) || defined(__clang__))
#define KAI_ABORT() __builtin_trap()
#elif defined(KLEIDIAI_ERROR_TRAP) && KLEIDIAI_ERROR_TRAP && defined(_MSC_VER)
#define KAI_ABORT() __debugbreak()
#else
#define KAI_ABORT() abort()
#endif

/// Tells the compiler a path is never taken (no-op on compilers that lack a builtin for it).
#if defined(__GNUC__) || defined(__clang__) || defined(KLEIDIAI_HAS_BUILTIN_UNREACHABLE)
#define KAI_UNREACHABLE() __builtin_unreachable()
#elif defined(KLEIDIAI_HAS_BUILTIN_ASSUME0) || defined(_MSC_VER)
#define KAI_UNREACHABLE() __assume(0)
#else
#define KAI_UNREACHABLE()
#endif

/// Reports "<file>:<line> <msg>" on stderr (debug builds only) and aborts; never compiled out.
#ifdef NDEBUG
#define KAI_ERROR(msg) KAI_ABORT()
#else
#define KAI_ERROR(msg)                                        \
    do {                                                      \
        fflush(stdout);                                       \
        fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, msg); \
        KAI_ABORT();                                          \
    } while (0)
#endif

/// Calls KAI_ERROR(msg) when cond is false, in every build.
#define KAI_ASSERT_ALWAYS_MSG(cond, msg) \
    do {                                 \
        if (!(cond)) {                   \
            KAI_ERROR(msg);              \
        }                                \
    } while (0)

/// Debug builds: KAI_ASSERT_ALWAYS_MSG. Release builds: an optimisation hint (no check).
#ifdef NDEBUG
#define KAI_ASSERT_MSG(cond, msg)  \
    do {                           \
        if (!(cond)) {             \
            KAI_UNREACHABLE();     \
        }                          \
    } while (0)
#else
#define KAI_ASSERT_MSG(cond, msg) KAI_ASSERT_ALWAYS_MSG(cond, msg)
#endif

/// KAI_ASSERT_MSG with the condition's text as the message.
#define KAI_ASSERT(cond) KAI_ASSERT_MSG(cond, #cond)
/// Checks that pre implies cond, with the given message.
#define KAI_ASSERT_IF_MSG(pre, cond, msg) KAI_ASSERT_MSG(!(pre) || (cond), msg)
/// Checks that pre implies cond; the message reads "pre |-> cond".
#define KAI_ASSERT_IF(pre, cond) KAI_ASSERT_IF_MSG(pre, cond, #pre " |-> " #cond)
/// KAI_ASSERT_ALWAYS_MSG with the condition's text as the message.
#define KAI_ASSERT_ALWAYS(cond) KAI_ASSERT_ALWAYS_MSG(cond, #cond)
/// Checks in every build that pre implies cond, with the given message.
#define KAI_ASSERT_ALWAYS_IF_MSG(pre, cond, msg) KAI_ASSERT_ALWAYS_MSG(!(pre) || (cond), msg)
/// Checks in every build that pre implies cond.
#define KAI_ASSERT_ALWAYS_IF(pre, cond) KAI_ASSERT_ALWAYS_IF_MSG(pre, cond, #pre " |-> " #cond)

/// Precondition on a parameter (alias of KAI_ASSERT): checked in debug builds only.
#define KAI_ASSUME(cond) KAI_ASSERT(cond)
/// Precondition with a message naming the parameter: checked in debug builds only.
#define KAI_ASSUME_MSG(cond, msg) KAI_ASSERT_MSG(cond, msg)
/// Conditional precondition ("pre implies cond"): checked in debug builds only.
#define KAI_ASSUME_IF(pre, cond) KAI_ASSERT_IF(pre, cond)
/// Conditional precondition with a message: checked in debug builds only.
#define KAI_ASSUME_IF_MSG(pre, cond, msg) KAI_ASSERT_IF_MSG(pre, cond, msg)
/// Precondition checked in every build.
#define KAI_ASSUME_ALWAYS(cond) KAI_ASSERT_ALWAYS(cond)
/// Precondition with a message, checked in every build.
#define KAI_ASSUME_ALWAYS_MSG(cond, msg) KAI_ASSERT_ALWAYS_MSG(cond, msg)
/// Conditional precondition checked in every build.
#define KAI_ASSUME_ALWAYS_IF(pre, cond) KAI_ASSERT_ALWAYS_IF(pre, cond)
/// Conditional precondition with a message, checked in every build.
#define KAI_ASSUME_ALWAYS_IF_MSG(pre, cond, msg) KAI_ASSERT_ALWAYS_IF_MSG(pre, cond, msg)

// Compiler-specific spellings, so that kernels compile with cl.exe (MSVC defines _MSC_VER and
// neither __GNUC__ nor __clang__; clang-cl defines both _MSC_VER and __clang__ and takes the GNU
// spellings). Each expands to nothing on a compiler that is neither.
//   KAI_ALIGNED(n)    at the start of a variable's declaration: align it to n bytes (a power of 2)
//   KAI_FORCE_INLINE  after `static`: always inline the function (`static KAI_FORCE_INLINE void f(...)`)
//   KAI_NEVER_INLINE  at the start of a function's declaration: never inline it
//   KAI_CODE_ALIGN(n) at the start of a function's definition: align its code to n bytes (cl.exe has
//                     no per-function alignment: there it expands to nothing, a layout hint lost)
//   KAI_RESTRICT      C99 `restrict` (MSVC's C front end spells it __restrict)
#if defined(__GNUC__) || defined(__clang__)
#define KAI_ALIGNED(n) __attribute__((aligned(n)))
#define KAI_FORCE_INLINE inline __attribute__((always_inline))
#define KAI_NEVER_INLINE __attribute__((noinline))
#define KAI_CODE_ALIGN(n) __attribute__((aligned(n)))
#elif defined(_MSC_VER)
#define KAI_ALIGNED(n) __declspec(align(n))
#define KAI_FORCE_INLINE __forceinline
#define KAI_NEVER_INLINE __declspec(noinline)
#define KAI_CODE_ALIGN(n)
#else
#define KAI_ALIGNED(n)
#define KAI_FORCE_INLINE inline
#define KAI_NEVER_INLINE
#define KAI_CODE_ALIGN(n)
#endif
#if defined(_MSC_VER) && !defined(__clang__)
#define KAI_RESTRICT __restrict
#elif defined(__cplusplus)
#define KAI_RESTRICT __restrict__
#else
#define KAI_RESTRICT restrict
#endif

/// Marks a parameter or variable as deliberately unused.
#define KAI_UNUSED(x) (void)(x)
/// The smaller of a and b (evaluates its arguments twice).
#define KAI_MIN(a, b) (((a) < (b)) ? (a) : (b))
/// The larger of a and b (evaluates its arguments twice).
#define KAI_MAX(a, b) (((a) > (b)) ? (a) : (b))

// ---------------------------------------------------------------------------------------------
// Constants and version.
// ---------------------------------------------------------------------------------------------

/// Vector-length constants of the SME/SVE kernels (values as in KleidiAI; unused by NEON kernels).
enum {
    KAI_SME_VEC_LENGTH_MAX_BYTES = 256,  ///< Largest SME streaming vector length, in bytes.
    KAI_VSCALE_UNIT_BYTES = 16,          ///< Bytes of one vscale unit (128 bits).
    KAI_VSCALE_MAX = 16,                 ///< Largest vscale.
};

/// kai's own version (major.minor.patch).
#define KAI_VERSION "0.1.0"
/// The KleidiAI release whose packed formats and interfaces kai reproduces byte for byte.
#define KAI_KLEIDIAI_COMPAT_VERSION "1.30.0"

/// Returns kai's version string, KAI_VERSION.
/// kai: static inline (KleidiAI's plain C99 `inline` leaves an undefined reference at -O0), and
/// the string is kai's version, not KleidiAI's; see KAI_KLEIDIAI_COMPAT_VERSION for that.
static inline const char* kai_get_version(void) {
    return KAI_VERSION;
}

// ---------------------------------------------------------------------------------------------
// Data types: bits 15..8 hold the size in bytes, bits 7..0 the type id.
// ---------------------------------------------------------------------------------------------

/// Element types, with their size encoded in bits 15..8.
enum kai_datatype {
    kai_dt_unknown = 0x0000,  ///< Not set.
    kai_dt_f32 = 0x0411,      ///< IEEE binary32.
    kai_dt_f16 = 0x0212,      ///< IEEE binary16.
    kai_dt_bf16 = 0x0213,     ///< bfloat16 (upper half of a binary32).
    kai_dt_int32 = 0x0421,    ///< int32_t.
    kai_dt_int16 = 0x0222,    ///< int16_t.
    kai_dt_int8 = 0x0124,     ///< int8_t.
    kai_dt_uint32 = 0x0431,   ///< uint32_t.
    kai_dt_uint16 = 0x0232,   ///< uint16_t.
    kai_dt_uint8 = 0x0134,    ///< uint8_t.
    kai_dt_bool = 0x0441,     ///< Boolean stored in 4 bytes.
};

/// Returns the size in bytes of one element of type dt.
static inline size_t kai_get_datatype_size_in_bytes(enum kai_datatype dt) {
    return (size_t)((unsigned)dt >> 8);
}

// ---------------------------------------------------------------------------------------------
// Size arithmetic.
// ---------------------------------------------------------------------------------------------

/// Returns ceil(a / b). Precondition: b > 0.
/// kai: computed without a + b - 1, so it holds for every a.
static inline size_t kai_div_ceil(size_t a, size_t b) {
    return a / b + (a % b != 0);
}

/// Returns a rounded up to a multiple of b. Precondition: b > 0.
/// kai: aborts in every build (with a message in debug builds) when the result does not fit in
/// size_t, so that a size computed from an absurd k or n fails loudly instead of wrapping to a
/// small value.
static inline size_t kai_roundup(size_t a, size_t b) {
    const size_t q = kai_div_ceil(a, b);
    KAI_ASSERT_ALWAYS_MSG(q <= SIZE_MAX / b, "size computation overflows size_t");
    return q * b;
}

/// kai: returns a * b, aborting in every build (with a message in debug builds) when the product
/// overflows size_t.
/// Size getters use it so that an absurd shape fails loudly instead of returning a wrapped size.
static inline size_t kai_mul_size_checked(size_t a, size_t b) {
    KAI_ASSERT_ALWAYS_MSG(b == 0 || a <= SIZE_MAX / b, "size computation overflows size_t");
    return a * b;
}

/// kai: returns a + b, aborting in every build (with a message in debug builds) when the sum
/// overflows size_t.
static inline size_t kai_add_size_checked(size_t a, size_t b) {
    KAI_ASSERT_ALWAYS_MSG(a <= SIZE_MAX - b, "size computation overflows size_t");
    return a + b;
}

// ---------------------------------------------------------------------------------------------
// bf16 and f16 conversions.
// ---------------------------------------------------------------------------------------------

/// Returns the f32 whose upper 16 bits are the bf16 pattern v (exact).
static inline float kai_cast_f32_bf16(uint16_t v) {
    const uint32_t bits = (uint32_t)v << 16;
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

/// Returns the bf16 pattern nearest to f, ties to even, NaNs quietened (what BFCVT does under
/// the default FPCR). kai: the same result on every compiler and target; KleidiAI truncates
/// when __ARM_FEATURE_BF16 is not defined, which is the case under GCC 12.
static inline uint16_t kai_cast_bf16_f32(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
        return (uint16_t)((bits >> 16) | 0x0040u);  // NaN: keep sign and payload top, set quiet bit
    }
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return (uint16_t)(bits >> 16);
}

// The f16 conversions use the FCVT instruction on AArch64 and portable bit manipulation
// elsewhere (or when KAI_COMMON_PORTABLE is defined, which the tests use to check that path).

/// Returns the f32 value of the IEEE binary16 pattern v (exact, subnormals included).
static inline float kai_cast_f32_f16(uint16_t v) {
#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(KAI_COMMON_PORTABLE)
    __fp16 h;
    memcpy(&h, &v, sizeof(h));
    return (float)h;
#else
    const uint32_t sign = (uint32_t)(v & 0x8000u) << 16;
    const uint32_t exp = (uint32_t)(v >> 10) & 0x1Fu;
    uint32_t man = (uint32_t)v & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1Fu) {
        bits = sign | 0x7F800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else {
        // Subnormal: normalise the mantissa.
        uint32_t e = 113u;
        while ((man & 0x400u) == 0) {
            man <<= 1;
            e--;
        }
        bits = sign | (e << 23) | ((man & 0x3FFu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
#endif
}

/// Returns the IEEE binary16 pattern nearest to f, ties to even (overflow gives infinity,
/// subnormal results are kept, NaNs quietened), as FCVT does under the default FPCR.
static inline uint16_t kai_cast_f16_f32(float f) {
#if defined(__aarch64__) && defined(__ARM_NEON) && !defined(KAI_COMMON_PORTABLE)
    const __fp16 h = (__fp16)f;
    uint16_t v;
    memcpy(&v, &h, sizeof(v));
    return v;
#else
    uint32_t bits;
    memcpy(&bits, &f, sizeof(bits));
    const uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    const uint32_t abs = bits & 0x7FFFFFFFu;
    if (abs > 0x7F800000u) {
        return (uint16_t)(sign | 0x7E00u | ((abs >> 13) & 0x3FFu));
    }
    if (abs >= 0x477FF000u) {
        return (uint16_t)(sign | 0x7C00u);  // rounds to or above 2^16: infinity
    }
    if (abs >= 0x38800000u) {
        // Normal result: rebias the exponent, round the 13 dropped bits to nearest even.
        uint32_t r = abs - 0x38000000u;
        r += 0xFFFu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    if (abs < 0x33000000u) {
        return sign;  // below half of the smallest subnormal: zero
    }
    // Subnormal result: shift the full mantissa into place and round to nearest even.
    const uint32_t e = abs >> 23;
    const uint32_t man = (abs & 0x7FFFFFu) | 0x800000u;
    const uint32_t shift = 126u - e;  // 14..24
    const uint32_t half = 1u << (shift - 1);
    uint32_t q = man >> shift;
    const uint32_t rem = man & ((1u << shift) - 1u);
    if (rem > half || (rem == half && (q & 1u))) {
        q++;
    }
    return (uint16_t)(sign | q);
#endif
}

// ---------------------------------------------------------------------------------------------
// int4 helpers.
// ---------------------------------------------------------------------------------------------

/// Returns the two's-complement value of the nibble v (0..15): 0..7 stay, 8..15 become -8..-1.
static inline int8_t kai_ext_sign_i8_i4(int8_t v) {
    KAI_ASSUME_MSG(v >= 0 && v <= 15, "kai_ext_sign_i8_i4: v must hold a nibble (0..15)");
    return (int8_t)((v ^ 8) - 8);
}

// ---------------------------------------------------------------------------------------------
// Parameter structs of the packers (field order and layout as KleidiAI).
// ---------------------------------------------------------------------------------------------

/// Parameters of the int8 per-channel RHS packers.
struct kai_rhs_pack_qsi8cx_params {
    int32_t lhs_zero_point;  ///< Zero point of the LHS the packed RHS will be multiplied with.
    float scale_multiplier;  ///< Multiplier folded into every channel scale.
};

/// Parameters of kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0.
struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params {
    int8_t lhs_zero_point;         ///< Must be 1.
    uint8_t rhs_zero_point;        ///< Zero point of the unsigned input nibbles: must be 8.
    enum kai_datatype scale_dt;    ///< Type of the block scales: must be kai_dt_bf16.
};

/// Parameters of kai_run_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0.
struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params {
    int8_t lhs_zero_point;         ///< Must be 1.
    uint8_t rhs_zero_point;        ///< Zero point of the unsigned input nibbles: must be 8.
    enum kai_datatype scale_dt;    ///< Type of the block scales: must be kai_dt_bf16.
};

/// Parameters of the per-channel int4 RHS packers (qsi4cxp, qs4cxs1s0).
struct kai_rhs_pack_qs4cxs1s0_param {
    int8_t lhs_zero_point;   ///< Must be 1.
    uint8_t rhs_zero_point;  ///< 8: unsigned nibbles (value = nibble - 8); 0: signed nibbles.
};

/// Requantisation parameters of int8-output kernels (not used by kai's f32/bf16-output kernels).
struct kai_matmul_requantize32_params {
    int32_t min_value;          ///< Lower clamp of the int8 output.
    int32_t max_value;          ///< Upper clamp of the int8 output.
    int32_t output_zero_point;  ///< Zero point added to the output.
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_COMMON_H
