#!/usr/bin/env bash
# graph-sizes.sh: measure egprof's call-graph pictures on real programs built
# from Debian sources with gcc -pg, each at -O0 and at -O2:
#   ninja   ninja-build 1.11 (C++: its own classes and the standard library's
#           templates), g++ -g -pg; workload: a dry run (-n) of a generated
#           40,000-edge build.ninja
#   lua     the lua 5.4 interpreter (C), gcc -g -pg; workload: the script of
#           scripts/bench-corpus.sh
# For each program it draws the -O0 profile alone and the -O0 profile minus
# the -O2 one ('+' = -O0, '-' = -O2) and prints, per picture: the boxes
# (functions drawn), grey ones (self time unchanged or within sampling noise),
# white ones (no self time on either side), solid and dashed edges (dashed:
# call paths through functions left out), the PNG's size in pixels, and the
# median CPU time (user + system, egprof and egprof-graphviz together) of
# the run that writes the PNG.
#
# Usage: scripts/graph-sizes.sh [-n RUNS] [-k DIR] [-- EXTRA-EGPROF-OPTIONS]
#   -n RUNS  timed runs per picture (default 3)
#   -k DIR   keep the pictures (PNG and SVG) in DIR
#
# Environment:
#   EGPROF      the egprof binary to measure, with egprof-graphviz next to it
#               (default: both built from this tree)
#   CORPUS_DIR  where sources and builds live (default
#               $XDG_CACHE_HOME/egprof-corpus, else ~/.cache/egprof-corpus);
#               delete graph-NAME-O0 or graph-NAME-O2 there to rebuild
#
# Needs Go, gcc, g++, GNU time (/usr/bin/time) and apt-get source with
# deb-src entries.

set -uo pipefail
export LC_ALL=C

runs=3
keep=
while getopts "n:k:h" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	k) keep=$OPTARG ;;
	*)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "graph-sizes: bad run count '$runs'" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/egprof-corpus}
src=$corpus/src
mkdir -p "$src"
log() { echo "graph-sizes: $*" >&2; }
[[ -x /usr/bin/time ]] || { log "GNU time (/usr/bin/time) is required: apt-get install time"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/graph-sizes.XXXXXX")
trap 'rm -rf "$work"' EXIT
egprof=${EGPROF:-}
if [[ -z $egprof ]]; then
	log "building egprof and egprof-graphviz"
	(cd "$repo" && go build -o "$work/" . ./cmd/egprof-graphviz) || { log "go build failed"; exit 1; }
	egprof=$work/egprof
fi
out=${keep:-$work/pictures}
mkdir -p "$out"

# source_dir and lua_workload.
source "$repo/scripts/corpus-lib.sh"

# build_ninja OPT DIR and build_lua OPT DIR build the program into DIR/prog
# and run its workload there (leaving DIR/gmon.out).
build_ninja() {
	local d files=()
	d=$(source_dir ninja-build) || return 1
	for f in "$d"/src/*.cc; do
		case $(basename "$f") in
		*_test.cc | *perftest.cc | *-win32.cc | browse.cc | hash_collision_bench.cc | test.cc | *.in.cc) ;;
		*) files+=("$f") ;;
		esac
	done
	g++ "$1" -g -pg -o "$2/prog" "${files[@]}" >"$2/build.log" 2>&1 || { log "g++ failed (see $2/build.log)"; return 1; }
	awk 'BEGIN {
		n = 40000
		print "rule cc\n  command = gcc $cflags -c $in -o $out\nrule link\n  command = gcc $in -o $out"
		for (i = 0; i < 50; i++) printf "build inc/h%d.h: phony\n", i
		for (i = 0; i < n; i++)
			printf "build src/d%d/f%d.c: phony\nbuild obj/d%d/f%d.o: cc src/d%d/f%d.c | inc/h%d.h inc/h%d.h\n  cflags = -O%d -DX=%d\n",
				i % 97, i, i % 97, i, i % 97, i, i % 50, (i * 7) % 50, i % 3, i
		for (j = 0; j < 40; j++) {
			printf "build bin/p%d: link", j
			for (i = j; i < n; i += 40) printf " obj/d%d/f%d.o", i % 97, i
			printf "\n"
		}
		printf "build all: phony"
		for (j = 0; j < 40; j++) printf " bin/p%d", j
		printf "\ndefault all\n"
	}' >"$2/build.ninja"
	(cd "$2" && ./prog -n >/dev/null) || { log "ninja's dry run failed in $2"; return 1; }
}

build_lua() {
	local d files=()
	d=$(source_dir lua5.4) || return 1
	for f in "$d"/src/*.c; do
		[[ $(basename "$f") == luac.c ]] || files+=("$f")
	done
	# Debian's luaconf.h includes a header its packaging generates.
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" >"$2/lua5.4-deb-multiarch.h"
	gcc "$1" -g -pg -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I"$2" -o "$2/prog" "${files[@]}" -lm -ldl >"$2/build.log" 2>&1 ||
		{ log "gcc failed (see $2/build.log)"; return 1; }
	printf '%s\n' "$lua_workload" >"$2/work.lua"
	(cd "$2" && ./prog work.lua >/dev/null) || { log "lua's workload failed in $2"; return 1; }
}

# prepare NAME: builds NAME at -O0 and -O2 unless built already.
prepare() {
	local opt dir
	for opt in -O0 -O2; do
		dir=$corpus/graph-$1$opt
		[[ -f $dir/ok ]] && continue
		rm -rf "$dir" && mkdir -p "$dir"
		log "building $1 $opt"
		"build_$1" "$opt" "$dir" || return 1
		touch "$dir/ok"
	done
}

# median of the numbers on standard input.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure LABEL ARGS...: draws the picture egprof ARGS describes and prints
# its row.
measure() {
	local label=$1
	shift
	local base=$out/$label
	"$egprof" -b -P -Q "$@" --svg="$base.svg" "${extra[@]}" 2>"$work/err" ||
		{ log "$label: egprof failed: $(head -1 "$work/err")"; return; }
	local cpu=()
	for ((r = 0; r < runs; r++)); do
		/usr/bin/time -f '%U %S' -o "$work/time" "$egprof" -b -P -Q "$@" --png="$base.png" "${extra[@]}" 2>/dev/null ||
			{ log "$label: egprof --png failed"; return; }
		cpu+=("$(awk '{ print $1 + $2 }' "$work/time")")
	done
	# Boxes and their fills, edges and their styles, from the SVG: each
	# group's first shape. An elided path is a grey (#969696) dashed edge.
	local counts
	counts=$(awk '
		/class="node"/ { boxes++; node = 1; edge = 0; next }
		/class="edge"/ { edges++; edge = 1; node = 0; next }
		node && /fill="/ {
			if ($0 ~ /fill="#d9d9d9"/) grey++
			if ($0 ~ /fill="#ffffff"/) white++
			node = 0
		}
		edge && /<path / {
			if ($0 ~ /stroke="#969696"/ && $0 ~ /stroke-dasharray="5,2"/) dashed++
			edge = 0
		}
		END { printf "%d %d %d %d %d", boxes, grey, white, edges - dashed, dashed }' "$base.svg")
	local boxes grey white solid dashed pixels
	read -r boxes grey white solid dashed <<<"$counts"
	pixels=$(file "$base.png" | sed -n 's/.* \([0-9]* x [0-9]*\),.*/\1/p' | tr -d ' ')
	printf '%-18s %6d %6d %6d %7d %7d %12s %8.2f\n' "$label" "$boxes" "$grey" "$white" "$solid" "$dashed" "$pixels" \
		"$(printf '%s\n' "${cpu[@]}" | median)"
}

extra=("$@")
printf '%-18s %6s %6s %6s %7s %7s %12s %8s\n' picture boxes grey white solid dashed pixels "cpu s"
for name in ninja lua; do
	prepare "$name" || { log "$name skipped"; continue; }
	o0=$corpus/graph-$name-O0 o2=$corpus/graph-$name-O2
	measure "$name-O0" "$o0/prog" "$o0/gmon.out"
	measure "$name-O0-vs-O2" "$o0/prog" "$o0/gmon.out" --diff="$o2/gmon.out" --diff-exe="$o2/prog"
done
