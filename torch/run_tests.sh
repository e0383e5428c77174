#!/bin/sh
# Builds kai's PyTorch extension against the torch of tools/setup_torch.sh and runs its tests under
# that torch (docs/pytorch.md). One command, after tools/setup.sh and tools/setup_torch.sh:
#
#   torch/run_tests.sh [SYSROOT]      SYSROOT defaults to $KAI_TORCH_SYSROOT, else /opt/kai/torch
#
# Environment: KAI_TORCH_BUILD (build directory, kept; default a temporary one, removed at the end),
# KAI_TORCH_TEST_PERTURB=<op> (perturbs that op's output: its tests must fail), QEMU_CPU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
sysroot=${1:-${KAI_TORCH_SYSROOT:-/opt/kai/torch}}
py=$sysroot/kai-python
[ -x "$py" ] || { echo "run_tests.sh: $py missing: run tools/setup_torch.sh first" >&2; exit 1; }
if [ -n "${KAI_TORCH_BUILD:-}" ]; then
  build=$KAI_TORCH_BUILD
else
  build=$(mktemp -d)
  trap 'rm -rf "$build" "$build.cmake.log" "$build.build.log"' EXIT
fi
if [ "$(uname -m)" = aarch64 ]; then
  prefix=$("$py" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
else
  prefix=$sysroot/usr
fi
cmake -S "$here" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DKAI_TORCH_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release >"$build.cmake.log" 2>&1 \
  || { cat "$build.cmake.log"; exit 1; }
cmake --build "$build" -j2 --target kai_torch_ops >"$build.build.log" 2>&1 || { cat "$build.build.log"; exit 1; }
KAI_TORCH_LIB=$build/libkai_torch_ops.so
export KAI_TORCH_LIB
"$py" "$here/tests/test_kai_torch.py"
