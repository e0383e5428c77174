#!/bin/sh
set -eu
for t in 1 4 7; do
  ${KAI_RUN:-} "$1" "$t"
done
