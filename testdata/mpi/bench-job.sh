#!/usr/bin/env bash
# bench-job.sh: egprof run as an MPI job against egprof alone. Generates
# (once, cached) synthetic per-rank gmon files of a 1,000-function
# executable (internal/progen/cmd/mkranks -funcs 1000 -arcs 4000, 140 KB
# each), builds egprof and, with scripts/build-mpi.sh, its MPI build, and
# for each file count reports the median wall time of the whole command
# and the median of the largest peak RSS of one process, for
#
#   egprof ARGS FILES                      one process (the default build)
#   mpirun -np P egprof-mpi ARGS FILES     P processes, P in 1 2 4
#
# where ARGS is each of the argument sets below. Every output is compared
# with the one-process run's (the script stops if one differs).
#
# Usage: testdata/mpi/bench-job.sh [-n RUNS] [-c COUNTS] [-p PROCS] [-a ARGS]...
#   -a ARGS    an argument set (repeatable; default "-s -b -p" and
#              "--ranks -b -P -Q")
#   -n RUNS    runs per figure (default 3)
#   -c COUNTS  comma-separated file counts (default 1024,16384)
#   -p PROCS   comma-separated process counts (default 1,2,4)
# Needs Go, gcc, Open MPI or MPICH (mpicc, mpirun) and GNU time.
set -euo pipefail
export LC_ALL=C
runs=3 counts=1024,16384 procs=1,2,4
argsets=()
while getopts "a:n:c:p:h" opt; do
	case $opt in
	a) argsets+=("$OPTARG") ;;
	n) runs=$OPTARG ;;
	c) counts=$OPTARG ;;
	p) procs=$OPTARG ;;
	*)
		sed -n '2,/^set/s/^# \{0,1\}//p' "$0" | sed '$d'
		exit 2
		;;
	esac
done
cd "$(dirname "$0")/../.."
[[ -x /usr/bin/time ]] || { echo "bench-job: GNU time (/usr/bin/time) is required" >&2; exit 1; }
command -v mpirun >/dev/null || { echo "bench-job: mpirun is required" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-job.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/egprof" .
scripts/build-mpi.sh -o "$work/egprof-mpi" 2>/dev/null
max=$(tr ',' '\n' <<<"$counts" | sort -n | tail -1)
echo "bench-job: making $max rank files (cached after the first run)" >&2
eval "$(go run ./internal/progen/cmd/mkranks -ranks "$max" -funcs 1000 -arcs 4000)"
[[ -x $RANKS_BINARY && -d $RANKS_DIR ]] || { echo "bench-job: mkranks failed" >&2; exit 1; }

((${#argsets[@]})) || argsets=("-s -b -p" "--ranks -b -P -Q")

# measure N P ARGS: prints the median wall time and the median of the
# largest per-process peak RSS over $runs runs (P 0: one process, the
# default build), and leaves the last run's output in $work/out.P.
measure() {
	local n=$1 p=$2 args=$3 i
	: >"$work/wall"
	: >"$work/peak"
	for ((i = 0; i < runs; i++)); do
		rm -f "$work"/rss.* "$RANKS_DIR/gmon.sum"
		local start end
		start=$(date +%s.%N)
		if ((p == 0)); then
			(cd "$RANKS_DIR" && /usr/bin/time -f "%M" -o "$work/rss.0" "$work/egprof" $args "$RANKS_BINARY" \
				--files-from="$work/list.$n" >"$work/out.$p" 2>"$work/err")
		else
			(cd "$RANKS_DIR" && mpirun --allow-run-as-root --oversubscribe -np "$p" \
				sh -c 'exec /usr/bin/time -f "%M" -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' "$work/rss" \
				"$work/egprof-mpi" $args "$RANKS_BINARY" --files-from="$work/list.$n" >"$work/out.$p" 2>"$work/err")
		fi || { echo "bench-job: $args on $p processes failed: $(head -c 300 "$work/err")" >&2; kill $$; exit 1; }
		end=$(date +%s.%N)
		echo "$end - $start" | bc >>"$work/wall"
		cat "$work"/rss.* | sort -n | tail -1 >>"$work/peak"
	done
	local w m
	w=$(sort -n "$work/wall" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	m=$(sort -n "$work/peak" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	awk -v w="$w" -v m="$m" 'BEGIN { printf "%9.2f %10.1f", w, m / 1024 }'
}

printf '%-20s %7s %-10s %9s %10s\n' "arguments" "files" "processes" "wall s" "peak MiB"
for n in ${counts//,/ }; do
	for ((i = 0; i < n; i++)); do echo "gmon.rank$i.$((40000 + i))"; done >"$work/list.$n"
	for args in "${argsets[@]}"; do
		printf '%-20s %7d %-10s %s\n' "$args" "$n" "alone" "$(measure "$n" 0 "$args")"
		for p in ${procs//,/ }; do
			printf '%-20s %7d %-10s %s\n' "$args" "$n" "mpirun $p" "$(measure "$n" "$p" "$args")"
			cmp -s "$work/out.0" "$work/out.$p" ||
				{ echo "bench-job: $args on $p processes printed another output than one process" >&2; exit 1; }
		done
	done
done
