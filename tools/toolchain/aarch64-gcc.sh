#!/bin/sh
# GCC driver of kai's AArch64 toolchain: the cross compiler, or the native gcc on an AArch64 host.
# Every file is built by GCC, the SME/SME2 kernels included: their SME instructions are encoded
# words (tools/sme_encode.py), which GCC 12 and binutils 2.40 take with any -march.
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
  exec aarch64-linux-gnu-gcc "$@"
fi
if [ "$(uname -m)" = aarch64 ]; then
  exec gcc "$@"
fi
echo "aarch64-gcc.sh: aarch64-linux-gnu-gcc not found; run tools/setup.sh" >&2
exit 127
