# Derives, from kai's list, what kai/build_defs.bzl derives for Bazel: the kernel compile options
# (KAI_KERNEL_COPTS, read from kai/build_defs.bzl) and each feature set's -march flag. The list
# itself is cmake/KaiList.cmake, written from kai/kernels.bzl by tools/gen_kernels.py (committed;
# CI's gen_kernels.py --check keeps it equal), as are kai/kai_registry.inc and kai/kai_all_headers.inc.

# The kernel compile options, as KAI_KERNEL_COPTS in kai/build_defs.bzl (read from there, so the
# two builds cannot disagree).
function(kai_read_kernel_copts build_defs out_var)
  file(READ "${build_defs}" text)
  string(REGEX MATCH "KAI_KERNEL_COPTS = \\[[^]]*\\]" block "${text}")
  if(NOT block)
    message(FATAL_ERROR "kai: no KAI_KERNEL_COPTS list in ${build_defs}")
  endif()
  string(REGEX MATCHALL "\"[^\"]*\"" quoted "${block}")
  set(copts "")
  foreach(q IN LISTS quoted)
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" v "${q}")
    list(APPEND copts "${v}")
  endforeach()
  set(${out_var} "${copts}" PARENT_SCOPE)
endfunction()

# kai_march(features out_var): the -march flag for a list of CPU features, from the table
# KAI_MARCH_<features sorted and joined by +> of cmake/KaiList.cmake (tools/kai_list.py march()).
function(kai_march features out_var)
  set(sorted ${features})
  list(SORT sorted)
  string(REPLACE ";" "+" key "${sorted}")
  if(NOT DEFINED "KAI_MARCH_${key}")
    message(FATAL_ERROR "kai: no -march for the features '${key}' in cmake/KaiList.cmake (python3 tools/gen_kernels.py)")
  endif()
  set(${out_var} "${KAI_MARCH_${key}}" PARENT_SCOPE)
endfunction()

# kai_check_isa(): every distinct -march flag of the list must compile, for the family's feature
# macros; otherwise the configure stops naming each family that cannot be built and the flag.
# It never drops kernels: a build either has all of them or fails here.
function(kai_check_isa)
  include(CheckCSourceCompiles)
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  set(failed "")
  foreach(family IN LISTS KAI_FAMILIES)
    set(seen "")
    foreach(name IN LISTS KAI_KERNEL_NAMES)
      if(NOT KAI_KERNEL_${name}_FAMILY STREQUAL family)
        continue()
      endif()
      set(march "${KAI_KERNEL_${name}_MARCH}")
      if(march IN_LIST seen)
        continue()
      endif()
      list(APPEND seen "${march}")
      set(src "#include <arm_neon.h>\n#if !defined(__aarch64__)\n#error not AArch64\n#endif\n")
      foreach(f IN LISTS KAI_KERNEL_${name}_FEATURES)
        # The ACLE macro the feature's code is guarded by; a feature not in this table is
        # checked by the flag alone (the compiler rejects an -march extension it lacks).
        set(macro "")
        if(f STREQUAL "dotprod")
          set(macro __ARM_FEATURE_DOTPROD)
        elseif(f STREQUAL "i8mm")
          set(macro __ARM_FEATURE_MATMUL_INT8)
        elseif(f STREQUAL "bf16")
          set(macro __ARM_FEATURE_BF16_VECTOR_ARITHMETIC)
        elseif(f STREQUAL "fp16")
          set(macro __ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
        elseif(f STREQUAL "sve")
          set(macro __ARM_FEATURE_SVE)
        elseif(f STREQUAL "sve2")
          set(macro __ARM_FEATURE_SVE2)
        endif()
        # sme / sme2: none; their SME instructions are encoded words (tools/sme_encode.py), which
        # any AArch64 compiler and assembler take with the baseline -march the list gives them.
        if(macro)
          string(APPEND src "#if !defined(${macro})\n#error no ${f}\n#endif\n")
        endif()
      endforeach()
      string(APPEND src "int kai_isa_probe(void);\nint kai_isa_probe(void) { return (int)vgetq_lane_s32(vdupq_n_s32(1), 0); }\n")
      string(MAKE_C_IDENTIFIER "KAI_ISA_${CMAKE_C_COMPILER}_${march}" var)
      set(CMAKE_REQUIRED_FLAGS "${march}")
      set(CMAKE_REQUIRED_QUIET ON)
      check_c_source_compiles("${src}" ${var})
      if(${var})
        message(STATUS "kai: family ${family}: ${march}: ok")
      else()
        list(APPEND failed "family ${family} needs ${march}")
      endif()
    endforeach()
  endforeach()
  if(failed)
    string(REPLACE ";" "\n  " failed "${failed}")
    message(FATAL_ERROR
      "kai: the C compiler ${CMAKE_C_COMPILER} (${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}, "
      "target ${CMAKE_SYSTEM_PROCESSOR}) cannot build these kernel families with their flags:\n  ${failed}\n"
      "kai builds every kernel of kai/kernels.bzl or none: use an AArch64 compiler that supports "
      "these -march extensions (GCC >= 10 or Clang >= 11; to cross-compile, "
      "-DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake).")
  endif()
endfunction()
