#!/bin/sh
set -eu
for t in 4 3 7; do
  ${KAI_RUN:-} "$1" "$t"
done
