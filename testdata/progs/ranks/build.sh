#!/usr/bin/env bash
# ranks: an "MPI-like" program run once as rank 0 (gmon.out) and once as
# rank 1 (gmon2.out); the ranks do deliberately different work, so the two
# profiles differ in functions, calls and time. -O0 with -g, PIE.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -g -O0 -o "$D/prog" "$D/ranks.c"

profile gmon.out  0 2 2000
profile gmon2.out 1 2 2000
