#!/usr/bin/env bash
# aarch64: three C files built for 64-bit Arm with -O0 -g, PIE, and run
# under user-mode QEMU (needs Debian's gcc-aarch64-linux-gnu,
# libc6-dev-arm64-cross and qemu-user). Arm code carries mapping symbols
# ("$x" where code starts, "$d" where data does), which gprof leaves out of
# its table; glob.c has only global functions, so gprof meets it after the
# files it meets through static functions, although its "$x" shares the
# address of its first function. gprof, built for x86, reads the file
# through BFD's generic ELF target (-c: "not supported on architecture
# unknown").
source "$(dirname "$0")/../../../scripts/build-lib.sh"

need_tools "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user" aarch64-linux-gnu-gcc qemu-aarch64
build aarch64-linux-gnu-gcc -pg -g -O0 -o "$D/prog" "$D/main.c" "$D/glob.c" "$D/util.c"

export RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
profile gmon.out  2000
profile gmon2.out 1200
