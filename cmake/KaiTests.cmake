# kai's test suite and benchmark under CMake/CTest: the same sources the Bazel build uses under
# test/, examples/ and benchmark/. Each CTest test is named after its Bazel label
# ("test/tests:bf16_test" for //test/tests:bf16_test), and CI checks that the two sets are equal.
#
# Tests run from the source root (where Bazel runs them from the runfiles root), so they find
# their data as the relative path test/data/compat. Cross builds run them through
# CMAKE_CROSSCOMPILING_EMULATOR (cmake/aarch64-linux-gnu.cmake: tools/toolchain/qemu_run.sh,
# qemu-aarch64 -cpu $QEMU_CPU, max by default); KAI_TEST_REDUCED and QEMU_CPU are read from the
# environment of ctest, as with bazel test --test_env.

enable_language(CXX)
enable_testing()
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(Threads REQUIRED)

set(KAI_SOURCE_ROOT "${PROJECT_SOURCE_DIR}")
set(KAI_GOOGLETEST_DIR "/usr/src/googletest" CACHE PATH
  "GoogleTest's source tree (Debian/Ubuntu: package googletest)")
if(NOT EXISTS "${KAI_GOOGLETEST_DIR}/googletest/src/gtest-all.cc")
  message(FATAL_ERROR "kai: KAI_BUILD_TESTS needs GoogleTest's source; ${KAI_GOOGLETEST_DIR} has none "
    "(install Debian's googletest package, tools/setup.sh, or set KAI_GOOGLETEST_DIR)")
endif()

# A cross build configured without the toolchain file (-DCMAKE_SYSTEM_PROCESSOR=aarch64 and a cross
# compiler only) on a non-AArch64 host runs its tests through the same emulator wrapper.
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR
   AND NOT CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(CMAKE_CROSSCOMPILING_EMULATOR "${KAI_SOURCE_ROOT}/tools/toolchain/qemu_run.sh")
endif()

# The runner of scripts' AArch64 programs ($KAI_RUN, as tools/toolchain/qemu_run.sh sets it
# under Bazel): the emulator when cross-compiling, nothing natively.
set(_kai_run "")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  string(REPLACE ";" " " _kai_run "${CMAKE_CROSSCOMPILING_EMULATOR}")
endif()

# GoogleTest, built from the distribution's source (as third_party/googletest.BUILD does).
add_library(kai_gtest STATIC "${KAI_GOOGLETEST_DIR}/googletest/src/gtest-all.cc")
target_include_directories(kai_gtest SYSTEM PUBLIC
  "${KAI_GOOGLETEST_DIR}/googletest/include" PRIVATE "${KAI_GOOGLETEST_DIR}/googletest")
target_compile_options(kai_gtest PRIVATE -w)
target_link_libraries(kai_gtest PUBLIC Threads::Threads)
add_library(kai_gtest_main STATIC "${KAI_GOOGLETEST_DIR}/googletest/src/gtest_main.cc")
target_compile_options(kai_gtest_main PRIVATE -w)
target_link_libraries(kai_gtest_main PUBLIC kai_gtest)

# Harness, references (the oracle) and registries, shared by the tests and the benchmark. The
# harness has an assembly part (test/common/abi_trampoline.S, the callee-saved register check).
enable_language(ASM)
file(GLOB _kai_harness_srcs CONFIGURE_DEPENDS "${KAI_SOURCE_ROOT}/test/common/*.cc" "${KAI_SOURCE_ROOT}/test/common/*.S")
add_library(kai_test_harness STATIC ${_kai_harness_srcs})
target_include_directories(kai_test_harness PUBLIC "${KAI_SOURCE_ROOT}")
target_link_libraries(kai_test_harness PUBLIC kai_gtest)
# Every test exports its symbols (as Bazel's cc_test links them), so the ABI trampoline's failure
# messages can name the function called.
target_link_options(kai_test_harness INTERFACE -rdynamic)

file(GLOB _kai_reference_srcs CONFIGURE_DEPENDS "${KAI_SOURCE_ROOT}/test/reference/*.cc")
add_library(kai_test_reference STATIC ${_kai_reference_srcs})
target_include_directories(kai_test_reference PUBLIC "${KAI_SOURCE_ROOT}")
# As in test/reference/BUILD.bazel: the family references without FP contraction.
foreach(_src IN LISTS _kai_reference_srcs)
  if(NOT _src MATCHES "/reference_common\\.cc$")
    set_source_files_properties("${_src}" PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
  endif()
endforeach()

file(GLOB _kai_registry_srcs CONFIGURE_DEPENDS "${KAI_SOURCE_ROOT}/test/registry/*.cc")
add_library(kai_test_registry STATIC ${_kai_registry_srcs})
target_include_directories(kai_test_registry PUBLIC "${KAI_GENERATED_DIR}")
target_link_libraries(kai_test_registry PUBLIC kai_test_harness kai)

function(kai_add_test label target)
  add_test(NAME "${label}" COMMAND ${target} ${ARGN})
  set_tests_properties("${label}" PROPERTIES WORKING_DIRECTORY "${KAI_SOURCE_ROOT}")
endfunction()

# A shell-script test (Bazel sh_test): the script gets $KAI_RUN to run AArch64 programs.
function(kai_add_sh_test label script)
  add_test(NAME "${label}" COMMAND sh "${KAI_SOURCE_ROOT}/${script}" ${ARGN})
  set_tests_properties("${label}" PROPERTIES WORKING_DIRECTORY "${KAI_SOURCE_ROOT}"
    ENVIRONMENT "KAI_RUN=${_kai_run}")
endfunction()

if(KAI_BUILD_TESTS)
  # One GoogleTest per test/tests/*_test.cc (every family's suite and the harness self-tests).
  file(GLOB _kai_test_srcs CONFIGURE_DEPENDS "${KAI_SOURCE_ROOT}/test/tests/*_test.cc")
  # The SME2 toolchain test's assembly probe (its SME2 instructions are encoded words,
  # tools/sme_encode.py: any assembler takes it); it runs under the SME2 emulator (KAI_NEEDS_SME2=1).
  if(EXISTS "${KAI_SOURCE_ROOT}/test/tests/sme2_probe.S")
    add_library(kai_sme2_probe STATIC "${KAI_SOURCE_ROOT}/test/tests/sme2_probe.S")
  endif()
  # The SME suites' ABI probe (streaming mode and ZA state after a call; sme_float_test and qsi8cxp_test).
  if(EXISTS "${KAI_SOURCE_ROOT}/test/tests/sme_abi_probe.S")
    add_library(kai_sme_abi_probe STATIC "${KAI_SOURCE_ROOT}/test/tests/sme_abi_probe.S")
  endif()
  # Each suite's copts as test/tests/BUILD.bazel gives them (-ffp-contract=off for the families
  # whose references need it), read from its cc_test rule.
  file(READ "${KAI_SOURCE_ROOT}/test/tests/BUILD.bazel" _kai_tests_build)
  foreach(_src IN LISTS _kai_test_srcs)
    get_filename_component(_stem "${_src}" NAME_WE)
    add_executable(${_stem} "${_src}")
    string(FIND "${_kai_tests_build}" "name = \"${_stem}\"," _pos)
    if(_pos LESS 0)
      message(FATAL_ERROR "kai: test/tests/${_stem}.cc has no cc_test named ${_stem} in test/tests/BUILD.bazel")
    endif()
    string(SUBSTRING "${_kai_tests_build}" ${_pos} -1 _rule)
    string(FIND "${_rule}" "\n)" _end)
    string(SUBSTRING "${_rule}" 0 ${_end} _rule)
    if(_rule MATCHES "copts = \\[([^]]*)\\]")
      string(REGEX MATCHALL "\"[^\"]*\"" _copts "${CMAKE_MATCH_1}")
      string(REPLACE "\"" "" _copts "${_copts}")
      target_compile_options(${_stem} PRIVATE ${_copts})
    endif()
    target_link_libraries(${_stem} PRIVATE kai_test_registry kai_test_reference kai_test_harness kai kai_gtest_main)
    kai_add_test("test/tests:${_stem}" ${_stem})
    if(_stem STREQUAL "sme2_toolchain_test")
      target_link_libraries(${_stem} PRIVATE kai_sme2_probe)
    endif()
    if(_stem STREQUAL "sme_float_test" OR _stem STREQUAL "qsi8cxp_test" OR _stem STREQUAL "sme_q4_0_test"
       OR _stem STREQUAL "qai8_static_test")
      target_link_libraries(${_stem} PRIVATE kai_sme_abi_probe)
    endif()
    # Any other suite whose cc_test rule depends on the probe (qai4c32p_sme_test).
    if(_rule MATCHES "\":sme_abi_probe\"")
      target_link_libraries(${_stem} PRIVATE kai_sme_abi_probe)
    endif()
    if(_rule MATCHES "KAI_NEEDS_SME2")
      set_tests_properties("test/tests:${_stem}" PROPERTIES ENVIRONMENT "KAI_NEEDS_SME2=1")
    endif()
  endforeach()

  # The harness self-tests with kai_common.h's portable f16 conversions.
  add_executable(harness_portable_test "${KAI_SOURCE_ROOT}/test/tests/harness_test.cc")
  target_compile_definitions(harness_portable_test PRIVATE KAI_COMMON_PORTABLE)
  target_link_libraries(harness_portable_test PRIVATE kai_test_reference kai_test_harness kai kai_gtest_main)
  kai_add_test("test/tests:harness_portable_test" harness_portable_test)

  # Standalone use: bf16_standalone.c with one kernel's and its packers' .c files compiled with
  # the kernels' own flags, and nothing else from kai (not even the kai target).
  function(kai_standalone_test name kernels defines)
    set(srcs "${KAI_SOURCE_ROOT}/test/tests/bf16_standalone.c")
    foreach(k IN LISTS kernels)
      list(APPEND srcs "${KAI_SOURCE_ROOT}/${KAI_KERNEL_${k}_DIR}/${k}.c")
    endforeach()
    kai_march("bf16" march)
    add_executable(${name} ${srcs})
    target_include_directories(${name} PRIVATE "${KAI_SOURCE_ROOT}")
    target_compile_options(${name} PRIVATE ${KAI_KERNEL_COPTS} ${march})
    target_compile_definitions(${name} PRIVATE ${defines})
    target_link_libraries(${name} PRIVATE m)
    kai_add_test("test/tests:${name}" ${name})
  endfunction()
  # Family bf16f16 (test/tests/BUILD.bazel): the f16 GEMM and its five packers, standalone; with
  # the assembly, with only the intrinsics, and at -O3.
  function(kai_bf16f16_standalone_test name extra_opts defines)
    set(srcs "${KAI_SOURCE_ROOT}/test/tests/bf16f16_standalone.c")
    foreach(k kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla kai_lhs_pack_bf16p8x4_f16_neon
              kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon
              kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon)
      list(APPEND srcs "${KAI_SOURCE_ROOT}/${KAI_KERNEL_${k}_DIR}/${k}.c")
    endforeach()
    kai_march("bf16;fp16" march)
    add_executable(${name} ${srcs})
    target_include_directories(${name} PRIVATE "${KAI_SOURCE_ROOT}")
    target_compile_options(${name} PRIVATE ${KAI_KERNEL_COPTS} ${march} ${extra_opts})
    target_compile_definitions(${name} PRIVATE ${defines})
    target_link_libraries(${name} PRIVATE m)
    kai_add_test("test/tests:${name}" ${name})
  endfunction()
  kai_bf16f16_standalone_test(bf16f16_standalone_test "" "")
  kai_bf16f16_standalone_test(bf16f16_standalone_intrinsics_test "" "KAI_BF16_NO_ASM")
  kai_bf16f16_standalone_test(bf16f16_standalone_o3_test "-O3" "")
  kai_standalone_test(bf16_standalone_gemm_test
    "kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla;kai_lhs_quant_pack_bf16p8x4_f32_neon;kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon" "")
  kai_standalone_test(bf16_standalone_gemv_test
    "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot;kai_lhs_pack_bf16p1x4_bf16_neon;kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon" "KAI_STANDALONE_GEMV")
  set(_bf16o "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla;kai_lhs_quant_pack_bf16p8x4_f32_neon;kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon")
  kai_standalone_test(bf16_standalone_bf16o_gemm_test "${_bf16o}" "KAI_STANDALONE_BF16O_GEMM")
  kai_standalone_test(bf16_standalone_bf16o_gemm_intrinsics_test "${_bf16o}" "KAI_STANDALONE_BF16O_GEMM;KAI_BF16_NO_ASM")

  # Examples (examples/*/BUILD.bazel).
  add_executable(gguf_q4_0 "${KAI_SOURCE_ROOT}/examples/gguf_q4_0/gguf_q4_0.c")
  target_compile_options(gguf_q4_0 PRIVATE -std=c99 -Wall -Wextra -Werror)
  target_compile_definitions(gguf_q4_0 PRIVATE _DEFAULT_SOURCE)
  target_link_libraries(gguf_q4_0 PRIVATE kai m)
  kai_add_test("examples/gguf_q4_0:gguf_q4_0" gguf_q4_0)

  add_executable(gguf_q8_0 "${KAI_SOURCE_ROOT}/examples/gguf_q8_0/gguf_q8_0.c")
  target_compile_options(gguf_q8_0 PRIVATE -std=c99 -Wall -Wextra -Werror)
  target_compile_definitions(gguf_q8_0 PRIVATE _DEFAULT_SOURCE)
  target_link_libraries(gguf_q8_0 PRIVATE kai m)
  kai_add_test("examples/gguf_q8_0:gguf_q8_0" gguf_q8_0)

  add_executable(threaded_matmul "${KAI_SOURCE_ROOT}/examples/threaded_matmul/threaded_matmul.c")
  target_compile_options(threaded_matmul PRIVATE -std=c11 -Werror)
  target_link_libraries(threaded_matmul PRIVATE kai Threads::Threads)
  kai_add_sh_test("examples/threaded_matmul:threaded_matmul_test"
    examples/threaded_matmul/threaded_matmul_test.sh $<TARGET_FILE:threaded_matmul>)

  # The examples with their own CMakeLists.txt (each needs only kai::kai).
  foreach(_example llm_engine custom_runtime)
    add_subdirectory("${KAI_SOURCE_ROOT}/examples/${_example}" "${CMAKE_BINARY_DIR}/examples/${_example}")
  endforeach()

  # The adoption kit's C tests (test/tests/BUILD.bazel): kai_cpu.h's macOS, Windows and
  # compiler-only paths against stubs, and the adoption headers as strict C99 with the kernels'
  # own flags.
  foreach(_path APPLE WINDOWS COMPILER)
    string(TOLOWER "${_path}" _lower)
    set(_name "kai_cpu_${_lower}_path_test")
    add_executable(${_name} "${KAI_SOURCE_ROOT}/test/tests/kai_cpu_paths_test.c")
    target_include_directories(${_name} PRIVATE "${KAI_SOURCE_ROOT}")
    target_compile_options(${_name} PRIVATE -std=c99 -Wall -Wextra -Wpedantic -Werror)
    target_compile_definitions(${_name} PRIVATE "KAI_CPU_TEST_${_path}")
    if(_path STREQUAL "COMPILER")
      target_compile_options(${_name} PRIVATE -march=armv8.2-a+dotprod)
    endif()
    kai_add_test("test/tests:${_name}" ${_name})
  endforeach()
  add_executable(kai_select_c_test "${KAI_SOURCE_ROOT}/test/tests/kai_select_c_test.c")
  target_compile_options(kai_select_c_test PRIVATE ${KAI_KERNEL_COPTS})
  target_link_libraries(kai_select_c_test PRIVATE kai)
  kai_add_test("test/tests:kai_select_c_test" kai_select_c_test)

  # The runnable snippets of docs/integration.md (docs/BUILD.bazel), extracted at build
  # time by docs/extract_snippets.py as Bazel's genrule does.
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(_snip_dir "${CMAKE_BINARY_DIR}/docs")
  set(_snip_files engine_dispatch.c runtime_tiles.c)
  set(_snip_outputs "")
  foreach(_f IN LISTS _snip_files)
    list(APPEND _snip_outputs "${_snip_dir}/${_f}")
  endforeach()
  add_custom_command(OUTPUT ${_snip_outputs}
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${_snip_dir}"
    COMMAND Python3::Interpreter "${KAI_SOURCE_ROOT}/docs/extract_snippets.py"
      "${KAI_SOURCE_ROOT}/docs/integration.md" "${_snip_dir}" ${_snip_files}
    DEPENDS "${KAI_SOURCE_ROOT}/docs/integration.md" "${KAI_SOURCE_ROOT}/docs/extract_snippets.py"
    COMMENT "Extracting the snippets of docs/integration.md")
  foreach(_s engine_dispatch runtime_tiles)
    add_executable(snippet_${_s}_test "${_snip_dir}/${_s}.c")
    target_compile_options(snippet_${_s}_test PRIVATE ${KAI_KERNEL_COPTS})
    target_link_libraries(snippet_${_s}_test PRIVATE kai)
    kai_add_test("docs:snippet_${_s}_test" snippet_${_s}_test)
  endforeach()
endif()

# The benchmark (built with the tests too: its --list test is part of the suite).
file(GLOB _kai_bench_srcs CONFIGURE_DEPENDS "${KAI_SOURCE_ROOT}/benchmark/*.cc")
add_executable(kai_benchmark ${_kai_bench_srcs})
target_link_libraries(kai_benchmark PRIVATE kai_test_registry kai_test_reference kai_test_harness kai Threads::Threads)
if(KAI_BUILD_TESTS)
  kai_add_sh_test("benchmark:kai_benchmark_list_test" benchmark/kai_benchmark_list_test.sh $<TARGET_FILE:kai_benchmark>)
endif()
