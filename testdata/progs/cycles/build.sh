#!/usr/bin/env bash
# cycles: interlocking cycles (p/q/r, merged into one), a separate 2-cycle
# (x/y), a 3-ring (a/b/c) and a cycle with no visible caller (cmp_a/cmp_b,
# reached only through qsort). -O0, no -g, PIE. cycles-m32 is the same
# source built 32-bit.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -O0 -o "$D/prog" "$D/cycles.c"

profile gmon.out  3
profile gmon2.out 5
