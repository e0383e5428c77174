#!/bin/sh
# Builds an arm64 PyTorch sysroot for kai's PyTorch extension (torch/, docs/pytorch.md) and writes
# a runner that starts its Python.
#
#   tools/setup_torch.sh [DIR]        DIR defaults to $KAI_TORCH_SYSROOT, else /opt/kai/torch
#
# x86-64 host: the sysroot is Debian trixie's arm64 python3-torch and libtorch-dev with their
# dependencies (about 170 packages, 200 MB to download, 1 GB unpacked), fetched with apt-get under a
# private configuration (its own sources list, lists, cache and an empty dpkg status: the system's
# apt sources and installed packages are not touched) and unpacked with dpkg-deb -x. The archive's
# address is read from the system's own apt configuration (deb822 /etc/apt/sources.list.d/*.sources,
# else /etc/apt/sources.list): the first Debian entry that is not the security archive. Set
# KAI_TORCH_MIRROR=URI to use another one. The runner is DIR/kai-python:
#   qemu-aarch64 -L DIR DIR/usr/bin/python3 ... with QEMU_CPU=max,pauth-impdef=on (trixie's binaries
#   use pointer authentication, which qemu's default algorithm emulates slowly).
# AArch64 host: no sysroot; DIR/kai-python runs the native python3, which must import torch
# (pip install torch); DIR/usr is then the prefix of that torch's headers and libraries.
#
# Idempotent: a complete sysroot (DIR/.kai-torch-ok, written last) is left as it is.
set -eu

say() { echo "setup_torch.sh: $*"; }
die() { echo "setup_torch.sh: error: $*" >&2; exit 1; }

dir=${1:-${KAI_TORCH_SYSROOT:-/opt/kai/torch}}
suite=${KAI_TORCH_SUITE:-trixie}
packages="python3-torch libtorch-dev python3-numpy"
arch=$(uname -m)
mkdir -p "$dir" || die "cannot create $dir (run as root, or pass a directory you can write)"
dir=$(cd "$dir" && pwd)

if [ "$arch" = aarch64 ]; then
  python3 -c 'import torch' 2>/dev/null || die "native python3 cannot import torch: pip install torch (2.6 or later)"
  tdir=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')
  cat > "$dir/kai-python" <<EOF
#!/bin/sh
# Written by kai's tools/setup_torch.sh: the native python3 with its torch ($tdir).
exec python3 "\$@"
EOF
  chmod 0755 "$dir/kai-python"
  say "native torch at $tdir; runner: $dir/kai-python"
  exit 0
fi
[ "$arch" = x86_64 ] || die "unsupported host architecture '$arch'"

write_runner() {
  cat > "$dir/kai-python" <<EOF
#!/bin/sh
# Written by kai's tools/setup_torch.sh: the arm64 sysroot's python3 under qemu-aarch64.
# KAI_QEMU overrides the emulator; QEMU_CPU overrides the emulated CPU.
root=$dir
qemu=\${KAI_QEMU:-qemu-aarch64}
: "\${QEMU_CPU:=max,pauth-impdef=on}"
export QEMU_CPU
exec "\$qemu" -L "\$root" "\$root/usr/bin/python3" "\$@"
EOF
  chmod 0755 "$dir/kai-python"
}

if [ -f "$dir/.kai-torch-ok" ]; then
  write_runner
  say "sysroot present: $dir ($(cat "$dir/.kai-torch-ok")); runner: $dir/kai-python"
  exit 0
fi

command -v qemu-aarch64 >/dev/null 2>&1 || die "qemu-aarch64 not found (run tools/setup.sh first)"
command -v aarch64-linux-gnu-g++ >/dev/null 2>&1 || die "aarch64-linux-gnu-g++ not found (run tools/setup.sh first)"
command -v cmake >/dev/null 2>&1 || die "cmake not found (apt-get install cmake)"

# The archive: the first URI of a non-security Debian entry in the system's apt sources.
mirror=${KAI_TORCH_MIRROR:-}
if [ -z "$mirror" ]; then
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    # deb822 stanzas: URIs + Suites; keep a URI whose suites are a Debian release, not -security.
    mirror=$(awk '
      /^[ \t]*$/ { if (u != "" && s != "" && s !~ /security/) { print u; exit } u = ""; s = ""; next }
      /^URIs:/ { u = $2 }
      /^Suites:/ { s = $0 }
      END { if (u != "" && s != "" && s !~ /security/) print u }' "$f" | head -n 1)
    case "$mirror" in */debian|*/debian/) break ;; *) mirror="" ;; esac
  done
fi
if [ -z "$mirror" ] && [ -r /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /=/ && $i !~ /\]$/) { u = $i; break }
                if (u ~ /\/debian\/?$/ && $0 !~ /security/) { print u; exit } }' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || die "no Debian archive in the system's apt configuration; set KAI_TORCH_MIRROR to a Debian archive URI"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || die "missing $keyring (package debian-archive-keyring)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/parts" "$work/prefs" "$work/x"
: > "$work/status"
echo "deb [arch=arm64 signed-by=$keyring] $mirror $suite main" > "$work/sources.list"
# An arm64-only apt: its own sources, lists, cache and an empty dpkg status, so the download set
# is the whole dependency closure and nothing of the system's configuration is read or written.
apt_private="-o APT::Architecture=arm64 -o APT::Architectures=arm64
  -o Dir::Etc::sourcelist=$work/sources.list -o Dir::Etc::sourceparts=$work/parts
  -o Dir::Etc::preferencesparts=$work/prefs -o Dir::State::Lists=$work/lists
  -o Dir::Cache=$work -o Dir::Cache::archives=$work/archives -o Dir::State::status=$work/status
  -o APT::Sandbox::User=root -o Debug::NoLocking=1 -o APT::Install-Recommends=false"
start=$(date +%s)
say "fetching $packages ($suite, arm64) from $mirror into $dir"
# shellcheck disable=SC2086
apt-get -qq $apt_private update >/dev/null || die "apt-get update of $suite (arm64) failed"
# shellcheck disable=SC2086
apt-get -qq -y $apt_private --download-only install $packages >/dev/null \
  || die "apt-get could not download $packages and their dependencies"
n=0
for deb in "$work"/archives/*.deb; do
  dpkg-deb -x "$deb" "$dir" || die "cannot unpack $deb"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || die "nothing downloaded"
# trixie's packages install into /usr only; the merged-/usr links (/lib -> usr/lib, where the
# dynamic loader is looked up) come from base-files, which nothing depends on: make them.
for l in lib bin sbin; do
  [ -e "$dir/$l" ] || [ -L "$dir/$l" ] || ln -s "usr/$l" "$dir/$l"
done
# libblas.so.3 and liblapack.so.3 are update-alternatives links that the packages' maintainer
# scripts (not run here) would make: point them at the reference BLAS/LAPACK that was unpacked.
tri=$dir/usr/lib/aarch64-linux-gnu
for l in blas/libblas.so.3 lapack/liblapack.so.3; do
  [ -e "$tri/$l" ] && [ ! -e "$tri/${l#*/}" ] && ln -s "$l" "$tri/${l#*/}"
done
[ -x "$dir/usr/bin/python3" ] || die "no usr/bin/python3 in the sysroot"
[ -r "$dir/usr/lib/python3/dist-packages/torch/__init__.py" ] || die "torch not unpacked"
write_runner
tv=$("$dir/kai-python" -c 'import torch; print(torch.__version__)') || die "the sysroot's python cannot import torch"
echo "torch $tv, $n packages, $suite" > "$dir/.kai-torch-ok"
say "done in $(( $(date +%s) - start )) s: torch $tv, $n packages; runner: $dir/kai-python"
