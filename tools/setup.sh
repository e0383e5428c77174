#!/bin/sh
# Installs what kai needs to build and test, from the distribution's archive only (apt-get).
# Idempotent: installs only what is missing, and says what it installs.
#
#   x86-64 host:  bazel-bootstrap, googletest, the AArch64 cross compiler, qemu-user,
#                 clang-19 and llvm-19 (llvm-mca-19 for tools/perf), gcc (tools/perf builds its
#                 qemu plugin with the host compiler), python3, and the
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
  x86_64) packages="$packages gcc g++-aarch64-linux-gnu qemu-user clang-19 llvm-19 libasan8-arm64-cross libubsan1-arm64-cross" ;;
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

# The SME2 emulator. Debian 12's qemu 7.2 emulates SME but not SME2; Debian's trixie-backports has
# qemu-user 11.1, whose qemu-aarch64 is a static-pie binary that runs on Debian 12. It is fetched
# from the distribution's archive with apt-get download against a private sources list (the
# system's package sources and installed packages are not touched), and only that one binary is
# unpacked, into $KAI_QEMU_DIR (default /opt/kai/qemu). tools/toolchain/qemu_run.sh runs every
# test under it when it is there (see README.md, "Which emulator").
kai_qemu_min_major=10   # SME2 in qemu-user: 10.1 or newer
qemu_version_ok() {
  # "qemu-aarch64 version 11.1.3 (Debian ...)" -> 11.1; true when >= 10.1.
  v=$("$1" --version 2>/dev/null | sed -n '1s/^qemu-aarch64 version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  [ -n "$v" ] || return 1
  set -- $v
  [ "$1" -gt "$kai_qemu_min_major" ] || { [ "$1" -eq "$kai_qemu_min_major" ] && [ "$2" -ge 1 ]; }
}
# The Debian archive this system's apt already uses, as apt itself reads its sources (one-line
# /etc/apt/sources.list and sources.list.d/*.list, deb822 sources.list.d/*.sources): the base URI of
# the first 'deb' entry whose suite is a Debian release (a codename, or stable/testing/unstable, with
# an optional -updates or -backports), security archives excluded. No host name is written here.
debian_archive() {
  found=$(apt-get indextargets --no-release-info --format '$(TARGET_OF) $(SITE) $(RELEASE)' 2>/dev/null | awk '
    $1 != "deb" || $2 ~ /security/ { next }
    { suite = $3; sub(/-(updates|backports|proposed-updates)$/, "", suite) }
    suite ~ /^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldstable|stable|testing|unstable)$/ { print $2; exit }')
  [ -n "$found" ] && echo "${found%/}"
}
if [ "$arch" = x86_64 ]; then
  qdir=${KAI_QEMU_DIR:-/opt/kai/qemu}
  qbin=$qdir/bin/qemu-aarch64
  if [ -x "$qbin" ] && qemu_version_ok "$qbin"; then
    say "SME2 emulator present: $("$qbin" --version | head -n 1) ($qbin)"
  else
    say "fetching the SME2 emulator (qemu-user from Debian trixie-backports) into $qdir"
    site=$(debian_archive) || die "no Debian archive in this system's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/*.list and *.sources; apt-get indextargets lists what apt reads): the SME2 emulator comes from Debian's trixie-backports, fetched from the archive this system already uses. Add a Debian source (a 'deb' entry for a Debian suite such as bookworm), or put a qemu-aarch64 10.1 or newer at $qbin, then re-run tools/setup.sh"
    say "using the Debian archive of this system's apt sources: $site"
    work=$(mktemp -d)
    mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/parts" "$work/prefs"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $site trixie-backports main" \
      > "$work/sources.list"
    apt_private="-o Dir::Etc::sourcelist=$work/sources.list -o Dir::Etc::sourceparts=$work/parts
      -o Dir::Etc::preferencesparts=$work/prefs -o Dir::State::Lists=$work/lists
      -o Dir::Cache=$work -o Dir::Cache::archives=$work/archives -o Dir::State::status=/dev/null
      -o APT::Sandbox::User=root -o Debug::NoLocking=1"
    [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] || die "missing /usr/share/keyrings/debian-archive-keyring.gpg (package debian-archive-keyring)"
    # shellcheck disable=SC2086
    apt-get -qq $apt_private update >/dev/null || die "apt-get update of trixie-backports from $site failed"
    # shellcheck disable=SC2086
    (cd "$work" && apt-get -qq $apt_private download qemu-user >/dev/null) || die "apt-get download qemu-user (trixie-backports) failed"
    deb=$(ls "$work"/qemu-user_*.deb 2>/dev/null | head -n 1)
    [ -n "$deb" ] || die "qemu-user package not downloaded"
    mkdir -p "$work/x"
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/x" ./usr/bin/qemu-aarch64 || die "cannot unpack qemu-aarch64 from $deb"
    sudo_q=""
    if [ "$(id -u)" != 0 ] && ! mkdir -p "$qdir/bin" 2>/dev/null; then sudo_q=sudo; fi
    $sudo_q mkdir -p "$qdir/bin" && $sudo_q install -m 0755 "$work/x/usr/bin/qemu-aarch64" "$qbin" \
      || die "cannot install $qbin"
    rm -rf "$work"
    qemu_version_ok "$qbin" || die "$qbin is not qemu 10.1 or newer: $("$qbin" --version | head -n 1)"
    say "installed the SME2 emulator: $("$qbin" --version | head -n 1) ($qbin)"
  fi
fi
say "ready: bazel test //... (see README.md)"
