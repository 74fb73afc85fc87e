#!/bin/sh
# demangle-sample.sh: make the checked-in golden samples of the demangling
# corpora that scripts/demangle-corpus.sh builds, each name with the
# spelling libiberty gives it under gprof's flags (scripts/demangle-oracle.c):
#
#   testdata/demangle/corpus-sample.tsv.gz   every 15th C++ name (over
#       20,000), --demangle=auto, as "name<TAB>printed" lines;
#   testdata/demangle/styles-sample.tsv.gz   the other styles on the other
#       corpora, as "style<TAB>name<TAB>printed" lines: every 150th C++
#       name under gnu-v3 and java, every 6th Rust name under rust and every
#       14th under auto, every 4th D name under dlang and every 10th under
#       auto, every 3rd Ada name under gnat, every 1000th C++ name under
#       none.
#
# Usage:   scripts/demangle-sample.sh      (from the repository root; needs
#          gcc, libiberty-dev and every corpus's packages)
set -eu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gcc -O2 -I/usr/include/libiberty -o "$tmp/oracle" scripts/demangle-oracle.c -liberty
for language in cxx rust d ada; do
	scripts/demangle-corpus.sh "$language" > "$tmp/$language"
done

awk 'NR % 15 == 0' "$tmp/cxx" > "$tmp/names"
"$tmp/oracle" auto < "$tmp/names" > "$tmp/printed"
paste "$tmp/names" "$tmp/printed" | gzip -n -9 > testdata/demangle/corpus-sample.tsv.gz
echo "demangle-sample: corpus-sample: $(wc -l < "$tmp/names") names" >&2

# sample LANGUAGE STYLE N: every Nth name of the language's corpus,
# printed with the style.
sample() {
	awk -v n="$3" 'NR % n == 0' "$tmp/$1" > "$tmp/names"
	"$tmp/oracle" "$2" < "$tmp/names" > "$tmp/printed"
	paste "$tmp/names" "$tmp/printed" | awk -v style="$2" '{ print style "\t" $0 }'
}
{
	sample cxx gnu-v3 150
	sample cxx java 150
	sample cxx none 1000
	sample rust rust 6
	sample rust auto 14
	sample d dlang 4
	sample d auto 10
	sample ada gnat 3
} > "$tmp/styles"
gzip -n -9 < "$tmp/styles" > testdata/demangle/styles-sample.tsv.gz
echo "demangle-sample: styles-sample: $(wc -l < "$tmp/styles") names" >&2
