#!/usr/bin/env bash
# recursion-O2: the source of ../recursion built with -O2 (and -g, PIE), so
# differential work can compare an -O0 and an -O2 build of one program.
# At -O2 gcc inlines is_odd into is_even (so the even/odd cycle disappears)
# and checksum into hanoi: the symbols remain, with no calls or samples.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -g -O2 -o "$D/prog" testdata/progs/recursion/recursion.c

profile gmon.out  35 9 4000 17
profile gmon2.out 36 8 8000 16
