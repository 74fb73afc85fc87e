#!/bin/sh
# demangle-corpus.sh: build a demangling corpus, the mangled names defined
# in the shared libraries of the Debian packages below (for C++, the names
# of functions), deduplicated and sorted, one a line.
#
# Usage:   scripts/demangle-corpus.sh [--install | --packages] [LANGUAGE]
#
# LANGUAGE is cxx (the default: "_Z..." names), rust ("_R..." and
# "_ZN...E" names), d ("_D..." names) or ada (every name: GNAT's are plain
# lower-case words). --install installs the language's packages first
# (apt-get, as root); --packages lists them. Packages that are not installed
# are skipped with a note on standard error. The symtab test
# TestDemangleFullCorpus runs this script for every language and compares
# every name with libiberty.
set -eu

action=build
case "${1:-}" in
--install | --packages)
	action=${1#--}
	shift
	;;
esac
language=${1:-cxx}

case "$language" in
cxx)
	# libstdc++, LLVM 13 to 16, Clang 13 to 15's C++ library, ICU, Qt 5,
	# several Boost libraries, Z3, protobuf, OpenCV, OpenVDB and the Point
	# Cloud Library.
	PACKAGES="
	libstdc++6
	libllvm13 libllvm14 libllvm15 libllvm16
	libclang-cpp13 libclang-cpp14 libclang-cpp15
	libicu72
	libqt5core5a libqt5gui5 libqt5widgets5 libqt5network5 libqt5qml5 libqt5quick5
	libboost-filesystem1.74.0 libboost-iostreams1.74.0 libboost-locale1.74.0
	libboost-log1.74.0 libboost-program-options1.74.0 libboost-regex1.74.0
	libz3-4 libprotobuf32 libopencv-core406 libopencv-imgproc406 libopenvdb10.0
	libpcl-common1.13 libpcl-features1.13 libpcl-filters1.13 libpcl-kdtree1.13
	libpcl-ml1.13 libpcl-octree1.13 libpcl-sample-consensus1.13
	libpcl-search1.13 libpcl-segmentation1.13
	"
	PATTERN='^_Z'
	TYPES='^[TWi]$'
	;;
rust)
	# Rust's standard library and compiler (librustc_driver), built with
	# v0 mangling; the standard library's exported names are legacy ones.
	PACKAGES="libstd-rust-1.63"
	PATTERN='^_(R|ZN)'
	TYPES=.
	;;
d)
	# D's runtime and standard library (GDC's libgphobos).
	PACKAGES="libgphobos3"
	PATTERN='^_D'
	TYPES=.
	;;
ada)
	# GNAT's run-time library and its tasking part.
	PACKAGES="libgnat-12"
	PATTERN=.
	TYPES=.
	;;
*)
	echo "demangle-corpus: unknown language '$language' (cxx, rust, d or ada)" >&2
	exit 2
	;;
esac

case "$action" in
install)
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PACKAGES >&2
	exit 0
	;;
packages)
	# shellcheck disable=SC2086
	printf '%s\n' $PACKAGES
	exit 0
	;;
esac

for pkg in $PACKAGES; do
	if ! files=$(dpkg -L "$pkg" 2>/dev/null); then
		echo "demangle-corpus: $pkg is not installed, skipped" >&2
		continue
	fi
	printf '%s\n' "$files" | grep -E '\.so(\.[0-9]+)*$' | while read -r so; do
		# Each library once: symbolic links name a file listed as well.
		[ -L "$so" ] && continue
		# The symbols of the types TYPES matches (for C++, defined
		# functions: T text, W weak, i indirect; for the others, every
		# defined symbol); the version suffix nm prints with "@" is not
		# part of the name.
		nm -D --defined-only "$so" | awk -v pat="$PATTERN" -v types="$TYPES" '$2 ~ types && $3 ~ pat { sub(/@.*/, "", $3); print $3 }'
	done
done | LC_ALL=C sort -u
