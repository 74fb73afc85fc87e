#!/usr/bin/env bash
# multifile-nopie: the sources of ../multifile linked as a classic
# position-dependent executable (-no-pie; text at 0x400000), with -g.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

build gcc -pg -g -O0 -no-pie -o "$D/prog" testdata/progs/multifile/main.c \
	testdata/progs/multifile/a.c testdata/progs/multifile/b.c testdata/progs/multifile/alias.c

profile gmon.out  3000 1500
profile gmon2.out 1500 3500
