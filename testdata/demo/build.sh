#!/usr/bin/env bash
# demo: the README's example. A readable C program with a hot loop (blur),
# a helper called per pixel (clamp), and recursion (fill).
# Built PIE (Debian's default) with -g, so -l, -A and file:line symspecs work.
source "$(dirname "$0")/../../scripts/build-lib.sh"

build gcc -pg -g -O0 -o "$D/prog" "$D/filter.c"

profile gmon.out  300
profile gmon2.out 480
