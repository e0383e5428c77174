#!/bin/sh
# Installs what kai needs to build and test, from the distribution's archive only (apt-get).
# Idempotent: installs only what is missing, and says what it installs.
#
#   x86-64 host:  bazel-bootstrap, googletest, the AArch64 cross compiler, qemu-user,
#                 clang-19 and llvm-19 (llvm-mca-19 for ../shared/perf), python3, and the
#                 AArch64 AddressSanitizer/UBSan runtimes (bazel test --config=asan / ubsan)
#   AArch64 host: the same without the cross compiler and the emulator
#
# Supported: Debian 12 (bookworm) and later; Ubuntu releases that ship bazel-bootstrap.
set -eu

say() { echo "setup.sh: $*"; }
die() { echo "setup.sh: error: $*" >&2; exit 1; }

[ -r /etc/os-release ] || die "cannot read /etc/os-release; kai's setup supports Debian and Ubuntu"
. /etc/os-release
case "${ID:-}:${ID_LIKE:-}" in
  debian:*|ubuntu:*|*:*debian*) ;;
  *) die "unsupported distribution '${PRETTY_NAME:-unknown}': kai's setup needs apt-get and Debian's packages (Debian 12+ or Ubuntu); install bazel 4.2.3, googletest's source, an aarch64-linux-gnu cross compiler, qemu-user and clang-19 by hand" ;;
esac
command -v apt-get >/dev/null 2>&1 || die "apt-get not found"

arch=$(uname -m)
packages="bazel-bootstrap bazel-rules-java googletest python3 file"
case "$arch" in
  x86_64) packages="$packages g++-aarch64-linux-gnu qemu-user clang-19 llvm-19 libasan8-arm64-cross libubsan1-arm64-cross" ;;
  aarch64) packages="$packages g++ clang-19 llvm-19 libasan8 libubsan1" ;;
  *) die "unsupported host architecture '$arch': kai builds from x86-64 or AArch64 hosts" ;;
esac

missing=""
for p in $packages; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  say "everything is installed ($packages)"
else
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "need root (or sudo) to install:$missing"
    sudo=sudo
  fi
  say "installing:$missing"
  $sudo apt-get update -qq || die "apt-get update failed"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || die "apt-get install failed for:$missing (is the package available in this release? try: apt-cache policy <name>)"
  say "installed:$missing"
fi

# Sanity checks: the tools the build uses must now be on PATH.
command -v bazel >/dev/null 2>&1 || die "bazel not found after installing bazel-bootstrap"
[ -d /usr/src/googletest/googletest ] || die "/usr/src/googletest missing (package googletest)"
[ -d /usr/share/bazel/rules/java ] || die "/usr/share/bazel/rules/java missing (package bazel-rules-java)"
if [ "$arch" = x86_64 ]; then
  command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || die "aarch64-linux-gnu-gcc not found"
  command -v qemu-aarch64 >/dev/null 2>&1 || die "qemu-aarch64 not found"
fi
command -v clang-19 >/dev/null 2>&1 || die "clang-19 not found"
say "ready: bazel test //... (see README.md)"
