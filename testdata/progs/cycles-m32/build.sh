#!/usr/bin/env bash
# cycles-m32: the source of ../cycles built as a 32-bit (i386) PIE with -m32
# (needs gcc-multilib). The gmon files then hold 4-byte addresses.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -m32 -pg -O0 -o "$D/prog" testdata/progs/cycles/cycles.c

profile gmon.out  3
profile gmon2.out 5
