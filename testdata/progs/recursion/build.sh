#!/usr/bin/env bash
# recursion: self recursion (fib, ackermann, hanoi), mutual recursion
# (is_even/is_odd, a 2-member cycle), a function with calls but no samples
# (tiny) and a never-called one (unused). -O0 with -g, PIE.
# recursion-O2 builds the same source with -O2.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -g -O0 -o "$D/prog" "$D/recursion.c"

profile gmon.out  34 8 3000 16
profile gmon2.out 35 7 6000 15
