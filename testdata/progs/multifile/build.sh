#!/usr/bin/env bash
# multifile: four C files; same-name static functions in a.c and b.c
# (helper, scale); aliases (weak alias, global alias of a static, two global
# names at one address) and a weak function. -O0 with -g, PIE.
# multifile-nopie is the same source linked -no-pie.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -g -O0 -o "$D/prog" "$D/main.c" "$D/a.c" "$D/b.c" "$D/alias.c"

profile gmon.out  3000 1500
profile gmon2.out 1500 3500
