#!/bin/sh
# Clang driver of kai's AArch64 toolchain (--config=clang): clang-19 targeting aarch64-linux-gnu.
if command -v clang-19 >/dev/null 2>&1; then
  exec clang-19 --target=aarch64-linux-gnu "$@"
fi
echo "aarch64-clang.sh: clang-19 not found; run tools/setup.sh" >&2
exit 127
