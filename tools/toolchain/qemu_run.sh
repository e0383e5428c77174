#!/bin/sh
# Runs an AArch64 program: directly on an AArch64 host, under qemu-aarch64 elsewhere.
# The CPU model is $QEMU_CPU (default "max": BF16, I8MM, DotProd, SVE2); pass
# --test_env=QEMU_CPU=neoverse-n1 or cortex-a72 to run as an older core would.
# A script (sh_test) is run as it is, with KAI_RUN set to this wrapper so that it can run the
# AArch64 binaries it calls as "$KAI_RUN" prog args.
KAI_RUN=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
export KAI_RUN
if [ "$(uname -m)" = aarch64 ]; then
  exec "$@"
fi
if [ "$(head -c 4 "$1" 2>/dev/null)" != "$(printf '\177ELF')" ]; then
  exec "$@"
fi
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  echo "qemu_run.sh: qemu-aarch64 not found; run tools/setup.sh" >&2
  exit 127
fi
export KAI_CPU_MODEL="${QEMU_CPU:-max}"
exec qemu-aarch64 -L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}" -cpu "${QEMU_CPU:-max}" "$@"
