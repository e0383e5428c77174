#!/bin/sh
# Runs an AArch64 program: directly on an AArch64 host, under qemu-aarch64 elsewhere.
# The CPU model is $QEMU_CPU (default "max": BF16, I8MM, DotProd, SVE2, SME/SME2 with qemu 11); pass
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
# The emulator: $KAI_QEMU if set. Else the SME2-capable qemu 11 that tools/setup.sh unpacks into
# ${KAI_QEMU_DIR:-/opt/kai/qemu}, when it is there, for
#   - `bazel run` (the benchmark, the examples): Bazel sets BUILD_WORKSPACE_DIRECTORY for a run and
#     TEST_TARGET for a test. Every kernel must run and verify there, SME and SME2 included, and
#     Debian 12's qemu 7.2 has no SME2 and computes SMOPA/UMOPA (the int8 MOPA kernel) wrongly;
#   - test targets that set KAI_NEEDS_SME2=1 (their env in BUILD): the SME2 suites.
# Every other test runs under the distribution's qemu-aarch64 (7.2 on Debian 12: SME but no SME2),
# which runs kai's suites about 1.5 times faster. Without qemu 11, SME2 tests and benchmark entries
# skip naming SME2.
qemu=${KAI_QEMU:-}
sme2_qemu=${KAI_QEMU_DIR:-/opt/kai/qemu}/bin/qemu-aarch64
# KAI_NEEDS_SME2=0 in the environment of `bazel run` keeps it on the distribution's qemu (CI's
# benchmark stage runs its NEON entries that way, for speed).
wants_sme2=${KAI_NEEDS_SME2:-}
if [ -z "$wants_sme2" ]; then
  wants_sme2=0
  if [ -n "${BUILD_WORKSPACE_DIRECTORY:-}" ] && [ -z "${TEST_TARGET:-}" ]; then wants_sme2=1; fi
fi
if [ -z "$qemu" ] && [ "$wants_sme2" = 1 ] && [ -x "$sme2_qemu" ]; then
  qemu=$sme2_qemu
fi
if [ -z "$qemu" ]; then
  if ! command -v qemu-aarch64 >/dev/null 2>&1; then
    echo "qemu_run.sh: qemu-aarch64 not found; run tools/setup.sh" >&2
    exit 127
  fi
  qemu=qemu-aarch64
fi
export KAI_CPU_MODEL="${QEMU_CPU:-max}"
# Tells tests which emulator runs them (test/tests/sme2_toolchain_test.cc).
if [ "$qemu" = "$sme2_qemu" ]; then export KAI_QEMU_SME2=1; else export KAI_QEMU_SME2=0; fi
exec "$qemu" -L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}" -cpu "${QEMU_CPU:-max}" "$@"
