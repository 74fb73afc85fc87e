#!/usr/bin/env bash
# build-mpi.sh: build egprof with the mpi build tag against the system's
# MPI (Open MPI or MPICH), so that `mpirun -np N egprof --ranks ...` reads
# the rank files on N processes and reduces them where the job ran.
#
# Usage: scripts/build-mpi.sh [-o OUTPUT] [go build flags...]
#   -o OUTPUT  the binary to write (default ./egprof-mpi)
#
# The compiler and linker flags come, in this order, from pkg-config
# (ompi-c, ompi, mpich, mpi) or from the MPI compiler wrapper (Open MPI's
# `mpicc -showme:compile` / `-showme:link`, MPICH's `mpicc -compile_info` /
# `-link_info`). MPICC names another wrapper (for example a site's
# mpicc of a given compiler family). CGO_CFLAGS and CGO_LDFLAGS already set
# are kept and used as they are.
set -euo pipefail
cd "$(dirname "$0")/.."

out=./egprof-mpi
if [ "${1:-}" = "-o" ]; then
	out=$2
	shift 2
fi

if [ -z "${CGO_CFLAGS:-}${CGO_LDFLAGS:-}" ]; then
	found=
	for pkg in ompi-c ompi mpich mpi; do
		if pkg-config --exists "$pkg" 2>/dev/null; then
			CGO_CFLAGS=$(pkg-config --cflags "$pkg")
			CGO_LDFLAGS=$(pkg-config --libs "$pkg")
			found="pkg-config $pkg"
			break
		fi
	done
	if [ -z "$found" ]; then
		wrapper=${MPICC:-mpicc}
		if ! command -v "$wrapper" >/dev/null 2>&1; then
			echo "build-mpi.sh: no MPI found: neither pkg-config (ompi-c, mpich) nor $wrapper; install Open MPI (libopenmpi-dev) or MPICH (libmpich-dev)" >&2
			exit 1
		fi
		if CGO_CFLAGS=$("$wrapper" -showme:compile 2>/dev/null); then
			CGO_LDFLAGS=$("$wrapper" -showme:link)
		else
			# MPICH prints the whole compiler command line.
			CGO_CFLAGS=$("$wrapper" -compile_info | cut -d' ' -f2-)
			CGO_LDFLAGS=$("$wrapper" -link_info | cut -d' ' -f2-)
		fi
		found=$wrapper
	fi
	echo "build-mpi.sh: MPI flags from $found" >&2
fi
export CGO_CFLAGS CGO_LDFLAGS CGO_ENABLED=1
go build -tags mpi -o "$out" "$@" .
echo "build-mpi.sh: wrote $out" >&2
