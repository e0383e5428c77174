# Toolchain file for AArch64 Linux (glibc), from any host:
#
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake            # GCC
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DKAI_COMPILER=clang
#
# GCC is aarch64-linux-gnu-gcc/g++ (Debian: gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu), or the
# native gcc on an AArch64 host; C and assembly go through tools/toolchain/aarch64-gcc.sh, Bazel's
# GCC driver (GCC builds every file, SME included: tools/sme_encode.py). KAI_COMPILER=clang uses clang-19/clang++-19 (or clang/clang++)
# with --target=aarch64-linux-gnu, as tools/toolchain/aarch64-clang.sh does for Bazel. A compiler
# given with -DCMAKE_C_COMPILER=... is kept (a Clang gets the target set).
#
# On a non-AArch64 host, programs (tests, try_run) run through tools/toolchain/qemu_run.sh:
# qemu-aarch64 -cpu $QEMU_CPU (max by default) with the cross sysroot, the runner Bazel uses.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(KAI_COMPILER "gcc" CACHE STRING "Compiler family of the AArch64 toolchain: gcc or clang")
set_property(CACHE KAI_COMPILER PROPERTY STRINGS gcc clang)

set(_kai_native OFF)
if(CMAKE_HOST_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(_kai_native ON)
endif()

if(NOT DEFINED CMAKE_C_COMPILER)
  if(KAI_COMPILER STREQUAL "clang")
    find_program(_kai_cc NAMES clang-19 clang)
    find_program(_kai_cxx NAMES clang++-19 clang++)
  elseif(KAI_COMPILER STREQUAL "gcc")
    find_program(_kai_cc NAMES aarch64-linux-gnu-gcc)
    find_program(_kai_cxx NAMES aarch64-linux-gnu-g++)
    if(NOT _kai_cc AND _kai_native)
      find_program(_kai_cc NAMES gcc)
      find_program(_kai_cxx NAMES g++)
    endif()
    get_filename_component(_kai_gcc_driver "${CMAKE_CURRENT_LIST_DIR}/../tools/toolchain/aarch64-gcc.sh" ABSOLUTE)
    if(_kai_cc AND EXISTS "${_kai_gcc_driver}")
      set(_kai_cc "${_kai_gcc_driver}")
    endif()
  else()
    message(FATAL_ERROR "cmake/aarch64-linux-gnu.cmake: KAI_COMPILER must be gcc or clang, not '${KAI_COMPILER}'")
  endif()
  if(NOT _kai_cc)
    message(FATAL_ERROR "cmake/aarch64-linux-gnu.cmake: no AArch64 ${KAI_COMPILER} found "
      "(Debian: apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu, or clang-19; tools/setup.sh)")
  endif()
  set(CMAKE_C_COMPILER "${_kai_cc}")
  if(_kai_cxx)
    set(CMAKE_CXX_COMPILER "${_kai_cxx}")
  endif()
endif()

# Clang cross-compiles for the target it is given.
get_filename_component(_kai_cc_name "${CMAKE_C_COMPILER}" NAME)
if(_kai_cc_name MATCHES "clang")
  set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
  set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
  set(CMAKE_ASM_COMPILER_TARGET aarch64-linux-gnu)
endif()

if(NOT _kai_native)
  get_filename_component(_kai_qemu_run "${CMAKE_CURRENT_LIST_DIR}/../tools/toolchain/qemu_run.sh" ABSOLUTE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${_kai_qemu_run}")
endif()
