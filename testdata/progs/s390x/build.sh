#!/usr/bin/env bash
# s390x: the sources of ../aarch64 built for IBM Z (64-bit, big-endian) with
# -O0 -g, PIE, and run under user-mode QEMU (needs Debian's
# gcc-s390x-linux-gnu, libc6-dev-s390x-cross and qemu-user). Its gmon files
# and debug sections are big-endian; gprof, built for x86, reads the file
# through BFD's generic ELF target.
source "$(dirname "$0")/../../../scripts/build-lib.sh"

need_tools "gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user" s390x-linux-gnu-gcc qemu-s390x
src=testdata/progs/aarch64
build s390x-linux-gnu-gcc -pg -g -O0 -o "$D/prog" "$src/main.c" "$src/glob.c" "$src/util.c"

export RUNNER="qemu-s390x -L /usr/s390x-linux-gnu"
profile gmon.out  2000
profile gmon2.out 1200
