#!/usr/bin/env bash
# build-testdata.sh - rebuild every test program and re-run it to make fresh
# profiles. This CHANGES the checked-in binaries and gmon files (sampling is
# timing dependent), so run scripts/gen-goldens.sh afterwards, and commit the
# programs, profiles and goldens together.
#
# Needs: Linux x86-64 with glibc (its profiling runtime writes gmon.out),
#        bash, gcc and g++ with -pg support (tested with gcc 12.2, Debian 12),
#        gcc-multilib and g++-multilib (for the -m32 program),
#        gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, gcc-s390x-linux-gnu,
#        libc6-dev-s390x-cross and qemu-user (for the 64-bit Arm and IBM Z
#        programs, run under user-mode QEMU),
#        GNU gprof (binutils; only used to report how many samples each run got),
#        awk, mktemp.
#
# Usage: scripts/build-testdata.sh [DIR...]
#   With no arguments, rebuilds testdata/demo and every testdata/progs/*/.
#   DIR may name a few program directories to rebuild only those.
#
# Each program directory has a build.sh that records the exact compiler
# command line and the two workloads (gmon.out and gmon2.out); the helpers
# are in scripts/build-lib.sh. Running this twice is harmless.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

missing=
for tool in gcc g++ gprof awk mktemp; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "build-testdata: missing tools:$missing" >&2
	exit 1
fi
if ! echo 'int main(void){return 0;}' | gcc -m32 -pg -x c -o /dev/null - 2>/dev/null; then
	echo "build-testdata: gcc -m32 does not work; install gcc-multilib g++-multilib" >&2
	exit 1
fi

if [ $# -gt 0 ]; then
	dirs=("$@")
else
	dirs=(testdata/demo testdata/progs/*/)
fi

for d in "${dirs[@]}"; do
	d=${d%/}
	if [ ! -x "$d/build.sh" ]; then
		echo "build-testdata: $d/build.sh not found or not executable" >&2
		exit 1
	fi
	"$d/build.sh"
done
echo "build-testdata: done; now run scripts/gen-goldens.sh" >&2
