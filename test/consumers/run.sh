#!/bin/sh
# Builds and runs the consumer projects against this checkout (CI stage "cmake consumers"):
#   (a) ggml_like:     FetchContent with FETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD, KleidiAI paths,
#                      flat includes; Q4_0 and int4 per-channel matmuls under the emulator;
#   (b) find_package:  kai built with clang-19 and installed (`cmake --install`), then
#                      find_package(KleidiAI) and find_package(kai) from a GCC-built project;
#                      the same project with FetchContent_MakeAvailable and add_subdirectory;
#   and the ISA check: configuring kai with a compiler that cannot build its families (the
#   host's cc on x86-64) must fail, naming each family and its flag.
# Runs offline; everything is built in a temporary directory.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tc="$root/cmake/aarch64-linux-gnu.cmake"
gen=""
if command -v ninja >/dev/null 2>&1; then gen="-G Ninja"; fi
step() { echo; echo "--- consumers: $*"; }

step "(a) ggml-like FetchContent (FETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD), KleidiAI paths, flat includes"
cmake $gen -S "$root/test/consumers/ggml_like" -B "$work/a" -DCMAKE_TOOLCHAIN_FILE="$tc" \
  -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD="$root"
cmake --build "$work/a" -j2
ctest --test-dir "$work/a" --output-on-failure -V | grep -E "max error|PASS|FAIL|tests passed" || true
ctest --test-dir "$work/a" --output-on-failure >/dev/null

step "(b) kai built with clang-19 and installed"
cmake $gen -S "$root" -B "$work/kai" -DCMAKE_TOOLCHAIN_FILE="$tc" -DKAI_COMPILER=clang
cmake --build "$work/kai" -j2
cmake --install "$work/kai" --prefix "$work/prefix" >/dev/null
for f in lib/libkai.a lib/libkleidiai.a lib/cmake/kai/kaiConfig.cmake lib/cmake/KleidiAI/KleidiAIConfig.cmake \
         include/kai/kai_common.h; do
  test -f "$work/prefix/$f" || { echo "missing in the install: $f" >&2; exit 1; }
done

step "(b) find_package(KleidiAI) and find_package(kai) (GCC project)"
cmake $gen -S "$root/test/consumers/find_package" -B "$work/b" -DCMAKE_TOOLCHAIN_FILE="$tc" \
  -DCMAKE_PREFIX_PATH="$work/prefix"
cmake --build "$work/b" -j2
ctest --test-dir "$work/b" --output-on-failure

step "(b) FetchContent_MakeAvailable(kleidiai) with FETCHCONTENT_SOURCE_DIR_KLEIDIAI"
cmake $gen -S "$root/test/consumers/find_package" -B "$work/b-fetch" -DCMAKE_TOOLCHAIN_FILE="$tc" \
  -DCONSUMER_MODE=fetchcontent -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI="$root"
cmake --build "$work/b-fetch" -j2
ctest --test-dir "$work/b-fetch" --output-on-failure

step "(b) add_subdirectory(kai)"
cmake $gen -S "$root/test/consumers/find_package" -B "$work/b-subdir" -DCMAKE_TOOLCHAIN_FILE="$tc" \
  -DCONSUMER_MODE=add_subdirectory -DKAI_SOURCE_DIR="$root"
cmake --build "$work/b-subdir" -j2
ctest --test-dir "$work/b-subdir" --output-on-failure

if [ "$(uname -m)" != aarch64 ] && command -v cc >/dev/null 2>&1; then
  step "a compiler without the families' ISA stops the configure"
  if cmake -S "$root" -B "$work/host" -DCMAKE_C_COMPILER=cc >"$work/host.log" 2>&1; then
    cat "$work/host.log"
    echo "FAIL: configuring kai with the host's cc ($(uname -m)) succeeded" >&2
    exit 1
  fi
  for family in $(python3 "$root/tools/kai_list.py" families); do
    grep -q "family $family needs -march=" "$work/host.log" || {
      cat "$work/host.log"; echo "FAIL: the configure error does not name family $family" >&2; exit 1; }
  done
  grep "needs -march=" "$work/host.log"
fi
echo
echo "consumers: all passed"
