#!/usr/bin/env bash
# callbacks: functions called only from uninstrumented libc code (qsort,
# bsearch, tsearch/twalk callbacks, a constructor, a destructor, an atexit
# handler, a signal handler), calls through function pointers, a function
# called but never sampled, functions never called. -O0, no -g, PIE.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -O0 -o "$D/prog" "$D/callbacks.c"

profile gmon.out  200000 300000
profile gmon2.out 130000 3000000
