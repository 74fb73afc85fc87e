#!/bin/sh
# demangle-corpus.sh: build the C++ demangling corpus, every mangled name
# ("_Z...") of a function defined in the C++ shared libraries of the Debian
# packages below, deduplicated and sorted, one a line.
#
# Usage:   scripts/demangle-corpus.sh [--install] > corpus.txt
#
# --install installs the packages first (apt-get, as root). Packages that are
# not installed are skipped with a note on standard error. The symtab test
# TestDemangleFullCorpus runs the same steps itself (it reads this script's
# package list) and compares every name with libiberty.
set -eu

# The packages whose shared libraries make the corpus: libstdc++, LLVM 13 to
# 16, Clang 13 to 15's C++ library, ICU, Qt 5, several Boost libraries, Z3,
# protobuf, OpenCV, OpenVDB and the Point Cloud Library.
PACKAGES="
libstdc++6
libllvm13
libllvm14
libllvm15
libllvm16
libclang-cpp13
libclang-cpp14
libclang-cpp15
libicu72
libqt5core5a
libqt5gui5
libqt5widgets5
libqt5network5
libqt5qml5
libqt5quick5
libboost-filesystem1.74.0
libboost-iostreams1.74.0
libboost-locale1.74.0
libboost-log1.74.0
libboost-program-options1.74.0
libboost-regex1.74.0
libz3-4
libprotobuf32
libopencv-core406
libopencv-imgproc406
libopenvdb10.0
libpcl-common1.13
libpcl-features1.13
libpcl-filters1.13
libpcl-kdtree1.13
libpcl-ml1.13
libpcl-octree1.13
libpcl-sample-consensus1.13
libpcl-search1.13
libpcl-segmentation1.13
"

if [ "${1:-}" = "--install" ]; then
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES >&2
elif [ "${1:-}" = "--packages" ]; then
	# shellcheck disable=SC2086
	printf '%s\n' $PACKAGES
	exit 0
fi

for pkg in $PACKAGES; do
	if ! files=$(dpkg -L "$pkg" 2>/dev/null); then
		echo "demangle-corpus: $pkg is not installed, skipped" >&2
		continue
	fi
	printf '%s\n' "$files" | grep -E '\.so(\.[0-9]+)*$' | while read -r so; do
		# Each library once: symbolic links name a file listed as well.
		[ -L "$so" ] && continue
		# Defined functions only (T: text, W: weak, i: indirect); the
		# version suffix nm prints with "@" is not part of the name.
		nm -D --defined-only "$so" | awk '$2 ~ /^[TWi]$/ && $3 ~ /^_Z/ { sub(/@.*/, "", $3); print $3 }'
	done
done | LC_ALL=C sort -u
