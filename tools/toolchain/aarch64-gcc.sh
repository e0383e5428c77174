#!/bin/sh
# GCC driver of kai's AArch64 toolchain: the cross compiler, or the native gcc on an AArch64 host.
# GCC 12 cannot compile or assemble SME/SME2: a compile whose -march names +sme (the SME kernels
# and their tests, see kai/kernels.bzl) goes to clang-19 instead, in every configuration, with
# the same flags. Everything else is built by GCC.
for arg in "$@"; do
  case "$arg" in
    -march=*+sme*)
      exec "$(dirname "$0")/aarch64-clang.sh" "$@"
      ;;
  esac
done
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
  exec aarch64-linux-gnu-gcc "$@"
fi
if [ "$(uname -m)" = aarch64 ]; then
  exec gcc "$@"
fi
echo "aarch64-gcc.sh: aarch64-linux-gnu-gcc not found; run tools/setup.sh" >&2
exit 127
