#!/bin/sh
# demangle-libiberty-inputs.sh: make testdata/demangle/libiberty-inputs.txt,
# the mangled names of libiberty's own demangler test suites (binutils
# 2.40's libiberty/testsuite: demangle-expected, rust-demangle-expected,
# d-demangle-expected), one a line, deduplicated. Only the inputs are
# taken: the symtab tests compare egprof with libiberty itself on them
# (scripts/demangle-oracle.c), under gprof's flags and every style, and the
# suites' expected outputs are for other flags.
#
# Usage:   scripts/demangle-libiberty-inputs.sh BINUTILS-SOURCE-DIR
#          (from the repository root; `apt-get source binutils` makes one)
set -eu

src=${1:?usage: $0 BINUTILS-SOURCE-DIR}
suite=$src/libiberty/testsuite
{
	echo "# The inputs of libiberty's demangler test suites (binutils 2.40),"
	echo "# made by scripts/demangle-libiberty-inputs.sh: one name a line."
	# A test case is its options line ("--format=..."), the input, then
	# the expected output(s): the input is the line after the options.
	awk 'prev ~ /^--/ && $0 != "" { print } { prev = $0 }' \
		"$suite/demangle-expected" "$suite/rust-demangle-expected" "$suite/d-demangle-expected" |
		LC_ALL=C sort -u
} > testdata/demangle/libiberty-inputs.txt
echo "demangle-libiberty-inputs: $(grep -vc '^#' testdata/demangle/libiberty-inputs.txt) names" >&2
