#!/usr/bin/env bash
# threads: a pthreads program; three worker threads and the main thread all
# burn CPU, so samples come from every thread. -O1, no -g, PIE.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -O1 -pthread -o "$D/prog" "$D/threads.c"

profile gmon.out  1500000 3000 60000 1500
profile gmon2.out 700000 6000 120000 2500
