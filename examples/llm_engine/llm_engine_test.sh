#!/bin/sh
set -eu
for t in 1 3 4 13; do
  ${KAI_RUN:-} "$1" "$t"
done
