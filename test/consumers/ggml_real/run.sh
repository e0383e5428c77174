#!/bin/bash
# Builds a ggml source tree against this kai checkout, unchanged, for one -march, and runs
# ggml_kai_check under qemu. Not part of CI (it needs a ggml tree, e.g. a snapshot of
# ggml-org/ggml). Usage:
#   test/consumers/ggml_real/run.sh GGML_SRC MARCH [gcc|clang] [QEMU_CPU_OPTIONS]
# e.g.  run.sh /tmp/ggml armv8.6-a+dotprod+i8mm            gcc   max
#       run.sh /tmp/ggml armv8.2-a+dotprod                 gcc   neoverse-n1
#       run.sh /tmp/ggml armv9-a+dotprod+i8mm+sve+sme2     clang max,sme512=on
# Spell the features out: ggml picks the KleidiAI sources by the strings +dotprod, +i8mm, +sve, +sme.
# SME/SME2 builds need clang (GCC 12 has no SME) and the SME2 emulator tools/setup.sh installs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kai=$(cd "$here/../../.." && pwd)
ggml=$(cd "$1" && pwd)
march=$2
compiler=${3:-gcc}
cpu=${4:-max}
build=${KAI_GGML_BUILD:-/tmp/kai_ggml_build}/$(echo "$march-$compiler" | tr '+' '_')
mkdir -p "$build"
cmake -S "$here" -B "$build" -DGGML_SRC="$ggml" \
  -DCMAKE_TOOLCHAIN_FILE="$kai/cmake/aarch64-linux-gnu.cmake" -DKAI_COMPILER="$compiler" \
  -DCMAKE_BUILD_TYPE=Release -DGGML_CPU_ARM_ARCH="$march" \
  -DFETCHCONTENT_SOURCE_DIR_KLEIDIAI_DOWNLOAD="$kai" >"$build.configure.log" 2>&1 ||
  { tail -30 "$build.configure.log"; exit 1; }
cmake --build "$build" -j2 --target ggml_kai_check >"$build.build.log" 2>&1 ||
  { grep -E 'error|Error' "$build.build.log" | head -30; exit 1; }
echo "built: $build/ggml_kai_check ($march, $compiler); warnings in kai files: $(grep -c 'kai/.*warning' "$build.build.log" || true)"
qemu=qemu-aarch64
[ -x /opt/kai/qemu/bin/qemu-aarch64 ] && qemu=/opt/kai/qemu/bin/qemu-aarch64
"$qemu" -cpu "$cpu" -L /usr/aarch64-linux-gnu "$build/ggml_kai_check"
# GGUF K-quants: ggml's own Q4_K / Q6_K mul_mat against kai's K-quant kernels.
cmake --build "$build" -j2 --target ggml_kquant_check >>"$build.build.log" 2>&1 ||
  { grep -E 'error|Error' "$build.build.log" | head -30; exit 1; }
"$qemu" -cpu "$cpu" -L /usr/aarch64-linux-gnu "$build/ggml_kquant_check"
