#!/usr/bin/env bash
# bench-vs-gprof.sh: time egprof against GNU gprof on the synthetic benchmark
# profile (20,000 functions, 100,000 arcs; see internal/progen), for the option
# sets -b -p, -b -q, -b and the default full output. Prints, per option set,
# the median wall time and the median CPU time (user + system) of N runs of
# each tool with their ratios (gprof/egprof: above 1 means egprof is
# faster), the median peak RSS of each with their ratio (egprof/gprof:
# below 1 means egprof needs less), and whether the two outputs are
# identical.
#
# Usage: scripts/bench-vs-gprof.sh [-n RUNS] [-k]
#   -n RUNS   runs per measurement (default 7, or $BENCH_RUNS)
#   -k        keep the work directory (egprof binary, outputs) and print it
#
# Environment:
#   GPROF             GNU gprof to compare with (default /usr/bin/gprof, else gprof on PATH)
#   EGPROF_BENCH_DIR  cache for the synthetic profile (default: egprof-bench in
#                     the user cache directory, shared with `go test -bench`)
#   BENCH_NO_INSTALL  set to 1 to never install hyperfine or GNU time
#
# Needs Go, gcc and binutils (gprof). When running as root (or with
# password-less sudo) on a Debian/Ubuntu system it installs hyperfine and GNU
# time with apt-get if they are missing; otherwise it times with a bash loop
# and reports RSS as "n/a".

set -euo pipefail
export LC_ALL=C

runs=${BENCH_RUNS:-7}
keep=
while getopts "n:kh" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	k) keep=1 ;;
	*)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		exit 2
		;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-vs-gprof: bad run count '$runs'" >&2; exit 2; }

cd "$(dirname "$0")/.."

log() { echo "bench-vs-gprof: $*" >&2; }

for tool in go gcc; do
	command -v "$tool" >/dev/null || { log "$tool is required"; exit 1; }
done
gprof=${GPROF:-}
if [[ -z $gprof ]]; then
	if [[ -x /usr/bin/gprof ]]; then
		gprof=/usr/bin/gprof
	else
		gprof=$(command -v gprof || true)
	fi
fi
[[ -n $gprof && -x $gprof ]] || { log "GNU gprof not found (install binutils or set GPROF)"; exit 1; }

# install PKG: try to install a Debian package; fails quietly if we cannot.
install() {
	[[ ${BENCH_NO_INSTALL:-} == 1 ]] && return 1
	command -v apt-get >/dev/null || return 1
	local sudo=()
	if ((EUID != 0)); then
		sudo -n true 2>/dev/null || return 1
		sudo=(sudo -n)
	fi
	log "installing $1 with apt-get"
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$1" >/dev/null 2>&1 && return 0
	"${sudo[@]}" apt-get update -qq >/dev/null 2>&1 || return 1
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$1" >/dev/null 2>&1
}

have_hyperfine=
if command -v hyperfine >/dev/null || install hyperfine; then
	have_hyperfine=1
else
	log "hyperfine not available; timing with a bash loop"
fi
gnu_time() { [[ -x /usr/bin/time ]] && /usr/bin/time -v true >/dev/null 2>&1; }
have_time=
if gnu_time || { install time && gnu_time; }; then
	have_time=1
else
	log "GNU time not available; peak RSS will be n/a"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-vs-gprof.XXXXXX")
if [[ -n $keep ]]; then
	log "keeping $work"
else
	trap 'rm -rf "$work"' EXIT
fi

log "building egprof"
go build -o "$work/egprof" .
log "building the synthetic profile (cached after the first run)"
synth=$(go run ./internal/progen/cmd/mksynth)
SYNTH_BINARY= SYNTH_GMON=
while IFS='=' read -r k v; do
	case $k in
	SYNTH_BINARY) SYNTH_BINARY=$v ;;
	SYNTH_GMON) SYNTH_GMON=$v ;;
	esac
done <<<"$synth"
[[ -f $SYNTH_BINARY && -f $SYNTH_GMON ]] || { log "mksynth printed no usable files: $synth"; exit 1; }

# median_loop CMD...: median wall time in seconds of $runs runs, by hand.
median_loop() {
	local i t0 t1 ts=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s%N)
		ts+=($((t1 - t0)))
	done
	printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {
		m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
		printf "%.3f\n", m / 1e9 }'
}

# median CMD...: median wall time in seconds of $runs runs.
median() {
	if [[ -z $have_hyperfine ]]; then
		median_loop "$@"
		return
	fi
	local json=$work/hyperfine.json q=() a
	for a in "$@"; do q+=("$(printf '%q' "$a")"); done
	if ! hyperfine -N -i --style none --warmup 1 --runs "$runs" --export-json "$json" "${q[*]}" >/dev/null 2>&1; then
		median_loop "$@"
		return
	fi
	grep -o '"median": *[0-9.eE+-]*' "$json" | head -1 | sed 's/.*: *//' | awk '{printf "%.3f\n", $1}'
}

# cpu_rss CMD...: median CPU time (user + system, seconds) and median peak
# resident set size (MiB) of $runs runs, or "n/a n/a".
cpu_rss() {
	if [[ -z $have_time ]]; then
		echo n/a n/a
		return
	fi
	local i
	: >"$work/cpu_rss.txt"
	for ((i = 0; i < runs; i++)); do
		/usr/bin/time -f '%U %S %M' -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
		awk '{ printf "%.3f %.1f\n", $1 + $2, $3 / 1024 }' "$work/time.txt" >>"$work/cpu_rss.txt"
	done
	local c m
	c=$(cut -d' ' -f1 "$work/cpu_rss.txt" | sort -g | awk '{a[NR]=$1} END { print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2 }')
	m=$(cut -d' ' -f2 "$work/cpu_rss.txt" | sort -g | awk '{a[NR]=$1} END { print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2 }')
	echo "$c $m"
}

# ratio A B: A/B with two decimals, or n/a.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a"; else printf "%.2fx\n", a / b }'
}

log "profile: $SYNTH_BINARY"
log "GNU gprof: $gprof; runs per measurement: $runs; hyperfine: $([[ -n $have_hyperfine ]] && echo yes || echo no)"
printf '%-10s %8s %9s %6s %8s %9s %6s %9s %10s %6s  %s\n' \
	options "gprof s" "egprof s" ratio "gprof cpu" "egprof cpu" ratio "gprof MiB" "egprof MiB" "RSS x" "output"
for set in "-b -p" "-b -q" "-b" ""; do
	read -r -a opts <<<"$set"
	g=("$gprof" "${opts[@]}" "$SYNTH_BINARY" "$SYNTH_GMON")
	e=("$work/egprof" "${opts[@]}" "$SYNTH_BINARY" "$SYNTH_GMON")

	gs=0 es=0
	"${g[@]}" >"$work/gprof.out" 2>"$work/gprof.err" || gs=$?
	"${e[@]}" >"$work/egprof.out" 2>"$work/egprof.err" || es=$?
	if ((es != 0)); then
		same="egprof exit $es: $(head -c 200 "$work/egprof.err" | tr '\n' ' ')"
	elif ((gs != 0)); then
		same="gprof exit $gs"
	elif cmp -s "$work/gprof.out" "$work/egprof.out"; then
		same=identical
	else
		line=$(cmp "$work/gprof.out" "$work/egprof.out" 2>&1 | sed -n 's/.* line \([0-9]*\).*/\1/p' || true)
		same="differs from line $line"
		[[ -z $set || $set != *-b* ]] && same+=" (expected without -b: egprof has its own explanations)"
	fi

	gt=$(median "${g[@]}")
	et=$(median "${e[@]}")
	read -r gc gm <<<"$(cpu_rss "${g[@]}")"
	read -r ec em <<<"$(cpu_rss "${e[@]}")"
	printf '%-10s %8s %9s %6s %8s %9s %6s %9s %10s %6s  %s\n' \
		"${set:-(full)}" "$gt" "$et" "$(ratio "$gt" "$et")" "$gc" "$ec" "$(ratio "$gc" "$ec")" "$gm" "$em" "$(ratio "$em" "$gm")" "$same"
done
