#!/bin/sh
# Checks that `kai_benchmark --list` lists every entry of kai/kernels.bzl.
set -eu
bench=$1
out=$(${KAI_RUN:-} "$bench" --list)
echo "$out"
expected=$(grep -c '"name": "kai_' kai/kernels.bzl || true)
listed=$(echo "$out" | grep -c ' kai_' || true)
if [ "$expected" != "$listed" ]; then
  echo "FAIL: kernels.bzl has $expected entries, --list printed $listed" >&2
  exit 1
fi
echo "PASS: $listed entries listed"
