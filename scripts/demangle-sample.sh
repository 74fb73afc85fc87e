#!/bin/sh
# demangle-sample.sh: make testdata/demangle/corpus-sample.tsv.gz, the
# checked-in golden sample of the C++ corpus: every 15th name of the corpus
# that scripts/demangle-corpus.sh builds (over 20,000 names), each with the
# spelling libiberty gives it under gprof's flags (scripts/demangle-oracle.c,
# --demangle=auto), as "name<TAB>printed" lines.
#
# Usage:   scripts/demangle-sample.sh      (from the repository root; needs
#          gcc, libiberty-dev and the corpus packages)
set -eu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gcc -O2 -I/usr/include/libiberty -o "$tmp/oracle" scripts/demangle-oracle.c -liberty
scripts/demangle-corpus.sh | awk 'NR % 15 == 0' > "$tmp/names"
"$tmp/oracle" auto < "$tmp/names" > "$tmp/printed"
paste "$tmp/names" "$tmp/printed" | gzip -n -9 > testdata/demangle/corpus-sample.tsv.gz
echo "demangle-sample: $(wc -l < "$tmp/names") names" >&2
