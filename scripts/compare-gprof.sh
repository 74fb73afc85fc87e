#!/usr/bin/env bash
# compare-gprof.sh: run GNU gprof and egprof on program folders in many
# modes and report every difference. A program folder holds an executable
# named prog and its gmon.out (the corpus folders of bench-corpus.sh, or
# any program built with -pg and run once).
#
# Each mode is one command line, run in the folder by both tools, each
# started with argv[0] "gprof" so that their messages can be compared. It
# compares stdout, the exit status and stderr, and the gmon.sum of -s. The
# modes: the output sections and their options (13 modes), then the
# symbol specifications, gprof's other options and their combinations (53
# modes), built for each program from its own flat profile: its two
# functions with the most time, a static function of the index and its
# file, and a source line of the line-by-line profile. Mode 66 is -R with
# an empty map, on which gprof 2.40 crashes (status 139): egprof refuses
# the map; that difference is expected.
#
# Usage: scripts/compare-gprof.sh [-q] FOLDER...
#   -q   print only the summary line of each folder
#
# Environment:
#   GPROF    GNU gprof (default: gprof on PATH)
#   EGPROF   the egprof binary (default: built from this tree)
#
# Prints one line for each difference ("stdout", "status", "stderr" or
# "gmon.sum", with the mode) and one summary line per folder. Exits with
# status 1 when the stdout, exit status or gmon.sum of a mode other than
# the empty -R map differ, else 0: stderr differences are reported but do
# not fail (see the README's Known differences).

set -uo pipefail
export LC_ALL=C

quiet=
while getopts "qh" opt; do
	case $opt in
	q) quiet=1 ;;
	*)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 2; }

gprof_bin=${GPROF:-$(command -v gprof || true)}
[ -x "$gprof_bin" ] || { echo "compare-gprof: GNU gprof not found (set GPROF)" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${EGPROF:-}" ]; then
	egprof_bin=$(cd "$(dirname "$EGPROF")" && pwd)/$(basename "$EGPROF")
else
	(cd "$repo" && go build -o "$work/egprof" .) || { echo "compare-gprof: go build failed" >&2; exit 2; }
	egprof_bin=$work/egprof
fi

# nth_function N: the raw name of the Nth function of the flat profile.
nth_function() {
	"$gprof_bin" -b -p --no-demangle prog gmon.out 2>/dev/null |
		awk -v n="$1" 'NR > 5 && NF >= 7 { if (++k == n) { print $NF; exit } }'
}

# run TOOL OUT ARGS...: run TOOL as "gprof" in the current folder; OUT.out,
# OUT.err, OUT.rc and, for -s, OUT.sum.
run() {
	local tool=$1 out=$2
	shift 2
	rm -f gmon.sum
	# The braces keep the shell's own report of a crash (gprof's, on the
	# empty -R map) off the terminal.
	{ (exec -a gprof "$tool" "$@" >"$out.out" 2>"$out.err"); } 2>/dev/null
	echo $? >"$out.rc"
	if [ -f gmon.sum ]; then mv gmon.sum "$out.sum"; else rm -f "$out.sum"; fi
}

failed=0
for dir in "$@"; do
	if [ ! -f "$dir/prog" ] || [ ! -f "$dir/gmon.out" ]; then
		echo "$dir: no prog and gmon.out" >&2
		failed=1
		continue
	fi
	(
		cd "$dir" || exit 1
		f1=$(nth_function 1)
		f2=$(nth_function 2)
		f1=${f1:-main} f2=${f2:-main}
		static=$("$gprof_bin" -b -q --no-demangle prog gmon.out 2>/dev/null |
			sed -n '/^Index by function name/,$p' | grep -o '\] [A-Za-z_][A-Za-z0-9_]* ([^)]*)' | head -1)
		sf=$(sed -E 's/.*\] ([^ ]+) \((.*)\)/\1/' <<<"$static")
		sfile=$(sed -E 's/.*\((.*)\)/\1/' <<<"$static")
		sf=${sf:-$f1} sfile=${sfile:-nofile.c}
		line=$("$gprof_bin" -b -l -p prog gmon.out 2>/dev/null | awk 'NR > 5 && NF >= 7' |
			grep -o '([^()]*:[0-9]*' | head -1 | tr -d '(')
		line=${line:-$sfile:1}
		modes=(
			"-b" "-b -p" "-b -q" "-b -l -p" "-b -A" "-b -i" "-b -y -p" "-b -l -q" "-b -x -A"
			"-b -C -p" "-b -q -c" "-b --inline-file-names -q" "-b -L -q"
			"-b -p$f1" "-b -P$f1" "-b -q$f1" "-b -Q$f1" "-b -e$f1 -q" "-b -E$f1" "-b -f$f1"
			"-b -F$f1" "-b -n$f1" "-b -N$f1" "-b -k$f1/$f2 -q" "-b -k$f2/$f1" "-b -p$sfile"
			"-b -q$sfile:$sf" "-b -p$sfile:$sf" "-b -P$sfile" "-b -T" "-b -T -q" "-b -T -p"
			"-b -w60 -q" "-b -z -q" "-b -z -p" "-b -a" "-b -a -q" "-b -c -q" "-b -D" "-b -r"
			"-b -t3 -C" "-b -m2 -C" "-b -n$f1 -N$f2 -q" "-b -l -P -Q" "-b -l -q$f1" "-b -l -p$line"
			"-b -p$line" "-b -q$f1 -p$f2" "-b -E$sf -e$f1" "-b -F$f1 -F$f2" "-b -f$sf -q"
			"-b -x -A$f1" "-b -A$f1" "-b -J -A" "-b -i -s" "-b -p -q -A -C -i" "-b --no-demangle"
			"-b --demangle=gnu-v3" "-b -k$f1/" "-b -k/$f1" "-b -p -c" "-b -w20 -T" "-b -Z -C"
			"-b -C$f1" "-b -I. -A" "-b -R/dev/null"
		)
		n=0 same=0 bad=0
		for m in "${modes[@]}"; do
			n=$((n + 1))
			# shellcheck disable=SC2086 # a mode is several words
			run "$gprof_bin" "$work/g" $m prog gmon.out
			# shellcheck disable=SC2086
			run "$egprof_bin" "$work/e" $m prog gmon.out
			what=
			cmp -s "$work/g.out" "$work/e.out" || what="$what stdout"
			cmp -s "$work/g.rc" "$work/e.rc" || what="$what status($(cat "$work/g.rc") $(cat "$work/e.rc"))"
			if [ -f "$work/g.sum" ] || [ -f "$work/e.sum" ]; then
				cmp -s "$work/g.sum" "$work/e.sum" || what="$what gmon.sum"
			fi
			cmp -s "$work/g.err" "$work/e.err" || what="$what stderr"
			if [ -z "$what" ]; then
				same=$((same + 1))
				continue
			fi
			[ -n "$quiet" ] || echo "$dir [$m]:$what"
			case $what in
			" stderr") ;;
			*) [ "$m" = "-b -R/dev/null" ] || bad=$((bad + 1)) ;;
			esac
		done
		echo "$dir: $same/$n identical; $bad with a different stdout, status or gmon.sum (not counting the empty -R map)"
		[ "$bad" -eq 0 ]
	) || failed=1
done
exit "$failed"
