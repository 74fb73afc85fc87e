#!/usr/bin/env bash
# bench-ranks.sh: the rank aggregation benchmark. Generates (once, cached)
# 1,024 synthetic per-rank gmon files for a 5,000-function executable
# (internal/progen/cmd/mkranks), then reports, for the first 256 and for
# all 1,024 ranks, the median wall time and peak RSS of
#
#   gprof -s          GNU gprof summing the files into gmon.sum
#   egprof -s         egprof doing the same
#   egprof --ranks    summed flat profile and call graph, then the rank analysis (-b)
#   egprof --ranks -P -Q --save-summary   the rank analysis and a summary only
#
# and the ratio of egprof's peak RSS at 1,024 ranks to that at 256.
#
# With -m it measures instead how the memory of a rank analysis grows with
# the number of files: 30,000 rank files of a 1,000-function executable
# (4.2 GB, cached), and the median peak RSS of `egprof --ranks -b -P -Q`
# over the first 3,000, 16,384 and 30,000, named on the command line and
# in a --files-from list, then of `egprof --version` given the same names
# (the process and its command line alone), and the growth per file from
# 3,000 to 30,000.
#
# Usage: testdata/mpi/bench-ranks.sh [-m] [-n RUNS]   (default 5 runs per figure)
# Needs Go, gcc, GNU gprof and GNU time (/usr/bin/time).
set -euo pipefail
export LC_ALL=C
runs=5
scaling=false
while getopts "mn:h" opt; do
	case $opt in
	m) scaling=true ;;
	n) runs=$OPTARG ;;
	*)
		sed -n '2,/^set/s/^# \{0,1\}//p' "$0" | sed '$d'
		exit 2
		;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-ranks: bad run count '$runs'" >&2; exit 2; }
cd "$(dirname "$0")/../.."
[[ -x /usr/bin/time ]] || { echo "bench-ranks: GNU time (/usr/bin/time) is required" >&2; exit 1; }
command -v gprof >/dev/null || { echo "bench-ranks: GNU gprof is required" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-ranks.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "bench-ranks: building egprof and the rank files (cached after the first run)" >&2
go build -o "$work/egprof" .
if $scaling; then
	eval "$(go run ./internal/progen/cmd/mkranks -funcs 1000 -arcs 4000 -ranks 30000)"
else
	eval "$(go run ./internal/progen/cmd/mkranks -ranks 1024)"
fi
[[ -x $RANKS_BINARY && -d $RANKS_DIR ]] || { echo "bench-ranks: mkranks failed" >&2; exit 1; }
# files N: the first N rank files, named from $rundir.
rundir=$work
files() {
	local dir=$RANKS_DIR/
	[[ $rundir == "$RANKS_DIR" ]] && dir=
	for ((i = 0; i < $1; i++)); do echo "${dir}gmon.rank$i.$((40000 + i))"; done
}

# measure LABEL CMD...: runs CMD $runs times in $rundir, prints the median
# wall time (s) and median peak RSS (MiB).
measure() {
	local label=$1 i
	shift
	: >"$work/times"
	for ((i = 0; i < runs; i++)); do
		(cd "$rundir" && /usr/bin/time -f "%e %M" -o "$work/t" "$@" >/dev/null 2>"$work/err") ||
			{ echo "bench-ranks: $label failed: $(head -c 300 "$work/err")" >&2; exit 1; }
		cat "$work/t" >>"$work/times"
	done
	local w m
	w=$(cut -d' ' -f1 "$work/times" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	m=$(cut -d' ' -f2 "$work/times" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	awk -v label="$label" -v w="$w" -v m="$m" 'BEGIN { printf "%-40s %9.2f %10.1f\n", label, w, m / 1024 }'
}

printf '%-40s %9s %10s\n' "command" "wall s" "peak MiB"
declare -A rss
if $scaling; then
	# Names relative to the files' folder, as a job's usually are: 30,000
	# absolute paths would not fit on a command line.
	rundir=$RANKS_DIR
	for n in 3000 16384 30000; do
		mapfile -t f < <(files "$n")
		files "$n" >"$work/list$n"
		for how in args list version; do
			case $how in
			args) line=$(measure "egprof --ranks -b -P -Q ($n files)" "$work/egprof" --ranks -b -P -Q "$RANKS_BINARY" "${f[@]}") ;;
			list) line=$(measure "  the same, --files-from" "$work/egprof" --ranks -b -P -Q "$RANKS_BINARY" --files-from="$work/list$n") ;;
			version) line=$(measure "  egprof --version, the same names" "$work/egprof" --version "${f[@]}") ;;
			esac
			echo "$line"
			rss[$how$n]=$(awk '{print $NF}' <<<"$line")
		done
	done
	for how in args list version; do
		awk -v a="${rss[${how}30000]}" -v b="${rss[${how}3000]}" -v how="$how" 'BEGIN {
			printf "%-8s growth from 3,000 to 30,000 files: %.0f bytes a file\n", how, (a - b) * 1048576 / 27000 }'
	done
	exit 0
fi
for n in 256 1024; do
	mapfile -t f < <(files "$n")
	measure "gprof -s ($n ranks)" gprof -s "$RANKS_BINARY" "${f[@]}"
	measure "egprof -s ($n ranks)" "$work/egprof" -s "$RANKS_BINARY" "${f[@]}"
	line=$(measure "egprof --ranks -b ($n ranks)" "$work/egprof" --ranks -b "$RANKS_BINARY" "${f[@]}")
	echo "$line"
	rss[full$n]=$(awk '{print $NF}' <<<"$line")
	line=$(measure "egprof --ranks -P -Q --save-summary ($n)" "$work/egprof" --ranks -b -P -Q --save-summary="$work/s.sum" "$RANKS_BINARY" "${f[@]}")
	echo "$line"
	rss[only$n]=$(awk '{print $NF}' <<<"$line")
done
awk -v a="${rss[full1024]}" -v b="${rss[full256]}" -v c="${rss[only1024]}" -v d="${rss[only256]}" 'BEGIN {
	printf "peak RSS 1024/256: --ranks -b %.2fx, --ranks -P -Q %.2fx\n", a / b, c / d }'
