#!/usr/bin/env bash
# bench-corpus.sh: time egprof against GNU gprof on real programs built from
# Debian sources with -pg, plus the synthetic benchmark profile. Prints one
# table: per program, the median CPU time (user + system) and peak RSS of
# `gprof -b PROG gmon.out` and `egprof -b PROG gmon.out` over N paired runs,
# their ratios (egprof / gprof: below 1 means egprof uses less), the CPU
# ratio once each tool's start-up (its --version, the first row) is taken
# off ("work x"; "-" where gprof's work is less than its start-up, too
# little to measure so), and whether the two outputs are identical. The
# "reps" column is how many runs each timed measurement repeats (CPU is
# per run).
#
# Programs (sources fetched with apt-get source, built under the cache folder):
#   lua         lua 5.4 interpreter, gcc -O2 -g -pg
#   lua-static  the same, linked -static
#   sqlite3     sqlite3 shell from its amalgamation, clang -O2 -g -pg
#   sqlite3-nog the same with gcc -O2 -pg (no debug information)
#   minisat     the minisat 2 SAT solver (C++), g++ -O2 -g -pg
#   blas        a Fortran driver calling reference BLAS routines from the
#               lapack source (dgemm, dgemv, daxpy, ddot), gfortran -O2 -g -pg
#   zstd        the zstd command (C), gcc -O2 -g -pg, in its benchmark mode
#   eigen       Eigen 3's dense_solvers benchmark (template-heavy C++: LLT,
#               LDLT, LU, QR, SVD...), g++ -O2 -g -pg, its largest sizes left
#               out so that it runs in seconds
#   gawk        GNU awk 5 (C), gcc -O2 -g -pg, on arrays, strings and
#               regular expressions
#   synthetic   the 20,000-function synthetic profile (internal/progen)
# A program that fails to fetch, build or run is listed with the reason.
#
# Usage: scripts/bench-corpus.sh [-i] [-n RUNS] [-o PROGRAMS]
#   -i           first set up a fresh Debian/Ubuntu machine (as root or with
#                password-less sudo): enable the deb-src entries of the
#                configured archives, apt-get update, and install clang,
#                gfortran, tcl, time and dpkg-dev
#   -n RUNS      paired runs per program (default 7, or $BENCH_RUNS)
#   -o PROGRAMS  comma-separated subset of the programs above
#
# Environment:
#   GPROF        GNU gprof to compare with (default /usr/bin/gprof)
#   EGPROF       an egprof binary to measure (default: built from this tree)
#   CORPUS_DIR   where sources, builds and profiles live (default
#                $XDG_CACHE_HOME/egprof-corpus, else ~/.cache/egprof-corpus);
#                delete a program's folder there to rebuild it
#
# Needs Go, gcc, g++, gfortran, clang (for sqlite3), tclsh (to make the
# sqlite3 amalgamation), GNU time (/usr/bin/time) and apt-get source with
# deb-src entries (-i sets all that up).

set -uo pipefail
export LC_ALL=C

runs=${BENCH_RUNS:-7}
only=
setup=
while getopts "in:o:h" opt; do
	case $opt in
	i) setup=1 ;;
	n) runs=$OPTARG ;;
	o) only=$OPTARG ;;
	*)
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		exit 2
		;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-corpus: bad run count '$runs'" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/egprof-corpus}
src=$corpus/src
mkdir -p "$src"
gprof=${GPROF:-/usr/bin/gprof}

log() { echo "bench-corpus: $*" >&2; }

# setup_machine enables deb-src entries (deb822 .sources files and
# one-line sources.list entries alike), updates the package lists and
# installs the tools the builds need.
setup_machine() {
	local sudo=()
	if ((EUID != 0)); then
		sudo -n true 2>/dev/null || { log "-i needs root or password-less sudo"; return 1; }
		sudo=(sudo -n)
	fi
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		grep -q '^Types:.*deb-src' "$f" || "${sudo[@]}" sed -i 's/^Types: *deb *$/Types: deb deb-src/' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		grep -q '^deb-src ' "$f" && continue
		grep '^deb ' "$f" | sed 's/^deb /deb-src /' | "${sudo[@]}" tee -a "$f" >/dev/null
	done
	"${sudo[@]}" apt-get update -qq || { log "apt-get update failed"; return 1; }
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq clang gfortran tcl time dpkg-dev >/dev/null ||
		{ log "apt-get install failed"; return 1; }
}
if [[ -n $setup ]]; then
	log "setting up the machine"
	setup_machine || exit 1
fi

[[ -x $gprof ]] || { log "GNU gprof not found at $gprof"; exit 1; }
[[ -x /usr/bin/time ]] || { log "GNU time (/usr/bin/time) is required: apt-get install time"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
egprof=${EGPROF:-}
if [[ -z $egprof ]]; then
	log "building egprof"
	(cd "$repo" && go build -o "$work/egprof.built" .) || { log "go build failed"; exit 1; }
	egprof=$work/egprof.built
fi
# The binary measured is a copy written by cp, as gprof's was written by
# its package's installer: the file the Go linker writes through a mapping
# ran 4 to 5% slower on this machine while its pages stayed cached, the
# same bytes copied did not (docs/performance.md, "Measuring").
cp "$egprof" "$work/egprof" || { log "cannot copy $egprof"; exit 1; }
egprof=$work/egprof

# source_dir and lua_workload.
source "$repo/scripts/corpus-lib.sh"

# Each build_NAME function builds the program into $dir/prog and writes a
# workload runner $dir/run (run in $dir, it leaves gmon.out there). It
# fails with a message on stderr.

build_lua_common() { # extra-link-flags...
	local d
	d=$(source_dir lua5.4) || return 1
	local files=()
	for f in "$d"/src/*.c; do
		[[ $(basename "$f") == luac.c ]] && continue
		files+=("$f")
	done
	# Debian's luaconf.h includes a header its packaging generates.
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$(gcc -print-multiarch)" >"$dir/lua5.4-deb-multiarch.h"
	gcc -O2 -g -pg -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I"$dir" -o "$dir/prog" "${files[@]}" "$@" -lm -ldl >"$dir/build.log" 2>&1 ||
		{ echo "gcc failed (see $dir/build.log)" >&2; return 1; }
	printf '%s\n' "$lua_workload" >"$dir/work.lua"
	printf '#!/bin/sh\nexec ./prog work.lua\n' >"$dir/run"
}
build_lua() { build_lua_common; }
build_lua-static() { build_lua_common -static; }

# sqlite3's shell from the amalgamation (made once with the source's own
# configure and make, which need tclsh).
sqlite_amalgamation() {
	local d a=$corpus/sqlite3-amalgamation
	if [[ ! -f $a/sqlite3.c ]]; then
		d=$(source_dir sqlite3) || return 1
		mkdir -p "$a/obj"
		(cd "$a/obj" && "$d/configure" --disable-tcl >"$a/configure.log" 2>&1 && make sqlite3.c shell.c >"$a/make.log" 2>&1) ||
			{ echo "making the sqlite3 amalgamation failed (see $a)" >&2; return 1; }
		cp "$a/obj/sqlite3.c" "$a/obj/sqlite3.h" "$a/obj/shell.c" "$a/"
	fi
	echo "$a"
}

sqlite_workload='
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 200000)
INSERT INTO t SELECT i, hex(randomblob(8)) || i, (i * 7919) % 1000 FROM n;
CREATE INDEX tb ON t(b);
CREATE INDEX tc ON t(c);
SELECT count(*), sum(c), avg(length(b)) FROM t WHERE c > 500;
SELECT c, count(*) FROM t GROUP BY c ORDER BY 2 DESC LIMIT 3;
SELECT count(*) FROM t x JOIN t y ON x.a = y.c + 1 WHERE x.b LIKE "%A%";
UPDATE t SET b = upper(b) WHERE a % 7 = 0;
DELETE FROM t WHERE a % 11 = 0;
SELECT count(*) FROM t;
'

build_sqlite_common() { # compiler flags...
	local a
	a=$(sqlite_amalgamation) || return 1
	"$@" -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I"$a" -o "$dir/prog" "$a/sqlite3.c" "$a/shell.c" -lm >"$dir/build.log" 2>&1 ||
		{ echo "$1 failed (see $dir/build.log)" >&2; return 1; }
	printf '%s\n' "$sqlite_workload" >"$dir/work.sql"
	printf '#!/bin/sh\nexec ./prog :memory: < work.sql\n' >"$dir/run"
}
build_sqlite3() {
	command -v clang >/dev/null || { echo "clang is not installed" >&2; return 1; }
	build_sqlite_common clang -O2 -g -pg
}
build_sqlite3-nog() { build_sqlite_common gcc -O2 -pg; }

build_minisat() {
	local d
	d=$(source_dir minisat2) || return 1
	g++ -O2 -g -pg -D__STDC_LIMIT_MACROS -D__STDC_FORMAT_MACROS -I"$d" -o "$dir/prog" \
		"$d/minisat/core/Main.cc" "$d/minisat/core/Solver.cc" "$d/minisat/utils/Options.cc" "$d/minisat/utils/System.cc" \
		-lz >"$dir/build.log" 2>&1 || { echo "g++ failed (see $dir/build.log)" >&2; return 1; }
	# A random 3-SAT instance near the hard ratio, from a fixed seed.
	awk 'BEGIN { srand(42); n = 230; m = 980; print "p cnf", n, m
		for (i = 0; i < m; i++) { l = ""; for (k = 0; k < 3; k++) { v = int(rand() * n) + 1; if (rand() < 0.5) v = -v; l = l v " " } print l "0" } }' >"$dir/work.cnf"
	printf '#!/bin/sh\n./prog -verb=0 work.cnf >/dev/null; exit 0\n' >"$dir/run"
}

blas_driver='
      program blasdrv
      integer n, it, i, j
      parameter (n = 220)
      double precision a(n,n), b(n,n), c(n,n), x(n), y(n), s
      double precision ddot
      external ddot
      do j = 1, n
        do i = 1, n
          a(i,j) = dble(mod(i*j, 17)) / 7.0d0
          b(i,j) = dble(mod(i+j, 13)) / 5.0d0
          c(i,j) = 0.0d0
        end do
        x(j) = dble(j) / dble(n)
        y(j) = 1.0d0
      end do
      s = 0.0d0
      do it = 1, 12
        call dgemm("N", "T", n, n, n, 1.0d0, a, n, b, n, 0.5d0, c, n)
        do j = 1, 40
          call dgemv("N", n, n, 1.0d0, c, n, x, 1, 0.0d0, y, 1)
          call daxpy(n, 1.0d-3, y, 1, x, 1)
          s = s + ddot(n, x, 1, y, 1)
        end do
      end do
      print *, s
      end
'

build_blas() {
	local d r
	d=$(source_dir lapack) || return 1
	r=$d/BLAS/SRC
	printf '%s\n' "$blas_driver" >"$dir/drv.f"
	gfortran -O2 -g -pg -o "$dir/prog" "$dir/drv.f" "$r/dgemm.f" "$r/dgemv.f" "$r/daxpy.f" "$r/ddot.f" "$r/lsame.f" "$r/xerbla.f" \
		>"$dir/build.log" 2>&1 || { echo "gfortran failed (see $dir/build.log)" >&2; return 1; }
	printf '#!/bin/sh\nexec ./prog >/dev/null\n' >"$dir/run"
}

build_zstd() {
	local d
	d=$(source_dir libzstd) || return 1
	make -C "$d/programs" clean >/dev/null 2>&1
	make -C "$d/programs" -j2 zstd CFLAGS="-O2 -g -pg" LDFLAGS="-pg" >"$dir/build.log" 2>&1 &&
		cp "$d/programs/zstd" "$dir/prog" || { echo "building zstd failed (see $dir/build.log)" >&2; return 1; }
	# Text that compresses: numbers and words from a fixed recipe.
	awk 'BEGIN { for (i = 0; i < 1500000; i++) printf "%d %x line %d of the zstd workload\n", i, i * 2654435761 % 4294967296, i % 977 }' >"$dir/work.txt"
	printf '#!/bin/sh\nexec ./prog -q -b3 -i1 work.txt >/dev/null 2>&1\n' >"$dir/run"
}

build_eigen() {
	local d
	d=$(source_dir eigen3) || return 1
	sed -e '/Array2i(1000,1000)/d; /Array2i(4000,4000)/d; /Array2i(10000,100)/d; /Array2i(10000,1000)/d; /Array2i(10000,4000)/d' \
		"$d/bench/dense_solvers.cpp" >"$dir/dense_solvers.cpp"
	g++ -O2 -g -pg -DNDEBUG -I"$d" -I"$d/bench" -o "$dir/prog" "$dir/dense_solvers.cpp" >"$dir/build.log" 2>&1 ||
		{ echo "g++ failed (see $dir/build.log)" >&2; return 1; }
	printf '#!/bin/sh\nexec ./prog >/dev/null\n' >"$dir/run"
}

build_gawk() {
	local d
	d=$(source_dir gawk) || return 1
	(cd "$d" && ./configure CFLAGS="-O2 -g -pg" LDFLAGS="-pg" --disable-nls --disable-extensions &&
		make clean && make -C support -j2 && make -j2 gawk) >"$dir/build.log" 2>&1 &&
		cp "$d/gawk" "$dir/prog" || { echo "building gawk failed (see $dir/build.log)" >&2; return 1; }
	cat >"$dir/work.awk" <<'EOF'
BEGIN {
	srand(7)
	for (i = 0; i < 300000; i++) { k = int(rand() * 5000); a[k] = a[k] sprintf("%d,", i % 97); n[k]++ }
	for (k in a) { m = split(a[k], p, ","); for (j = 1; j <= m; j++) s += p[j] + 0 }
	for (i = 0; i < 200000; i++) { t = toupper(substr("hello world " i, 2, 8)); gsub(/L/, "x", t); if (match(t, /X+/)) s += RLENGTH }
	print s
}
EOF
	printf '#!/bin/sh\nexec ./prog -f work.awk >/dev/null\n' >"$dir/run"
}

build_synthetic() {
	local out bin gm
	out=$(cd "$repo" && go run ./internal/progen/cmd/mksynth) || { echo "mksynth failed" >&2; return 1; }
	bin=$(sed -n 's/^SYNTH_BINARY=//p' <<<"$out")
	gm=$(sed -n 's/^SYNTH_GMON=//p' <<<"$out")
	ln -sf "$bin" "$dir/prog" && cp "$gm" "$dir/gmon.out" || return 1
	printf '#!/bin/sh\nexit 0\n' >"$dir/run" # the profile is generated, not run
}

# prepare NAME: builds and runs NAME once (cached), leaving $dir/prog and
# $dir/gmon.out.
prepare() {
	dir=$corpus/$1
	# The synthetic profile is cached by its generator under a name that
	# carries the generator's version; it is linked again at every run so
	# that a new version is never measured with an old profile.
	[[ -f $dir/ok && $1 != synthetic ]] && return 0
	rm -rf "$dir" && mkdir -p "$dir"
	log "building $1"
	"build_$1" || return 1
	chmod +x "$dir/run"
	log "running $1"
	(cd "$dir" && ./run) >"$dir/run.log" 2>&1 || { echo "the workload failed (see $dir/run.log)" >&2; return 1; }
	[[ -s $dir/gmon.out ]] || { echo "the run left no gmon.out" >&2; return 1; }
	touch "$dir/ok"
}

# measure TOOL: prints "cpu rss" of TOOL -b on the program: CPU seconds
# (user + system) per run and peak RSS in KiB. Each measurement runs the
# tool $reps times in a row (GNU time reports the largest child's RSS), since
# GNU time counts CPU in 10 ms steps.
measure() {
	measure_cmd "$1" -b "$dir/prog" "$dir/gmon.out"
}

# measure_cmd TOOL ARGS...: measure's figures for any command line.
measure_cmd() {
	/usr/bin/time -f '%U %S %M' -o "$work/time" sh -c 'n=$1; shift; i=0; while [ $i -lt "$n" ]; do "$@" >/dev/null 2>&1; i=$((i+1)); done' sh \
		"$reps" "$@"
	awk -v n="$reps" '{ printf "%.4f %d\n", ($1 + $2) / n, $3 }' "$work/time"
}

median() { sort -g | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print m }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "n/a"; else printf "%.2f\n", a / b }'; }

programs=(lua lua-static sqlite3 sqlite3-nog minisat blas zstd eigen gawk synthetic)
[[ -n $only ]] && IFS=, read -r -a programs <<<"$only"

log "GNU gprof: $gprof; paired runs per program: $runs; corpus: $corpus"
# The start-up row: each tool's --version, the cost of starting the process
# (for egprof the Go runtime and its libraries' initialisation) that every
# run pays before any work. "work x" is the CPU ratio once each tool's
# start-up is taken off its run: what the two spend on the profile itself.
reps=200
: >"$work/gs" && : >"$work/es"
for ((i = 0; i < runs; i++)); do
	measure_cmd "$gprof" --version >>"$work/gs"
	measure_cmd "$egprof" --version >>"$work/es"
done
gs=$(cut -d' ' -f1 "$work/gs" | median) gsm=$(cut -d' ' -f2 "$work/gs" | median)
es=$(cut -d' ' -f1 "$work/es" | median) esm=$(cut -d' ' -f2 "$work/es" | median)
printf '%-12s %9s %9s %7s %9s %9s %7s %5s %7s  %s\n' program "gprof ms" "egprof ms" "CPU x" "gprof MB" "egprof MB" "RSS x" reps "work x" output
printf '%-12s %9.1f %9.1f %7s %9.1f %9.1f %7s %5s %7s  %s\n' "start-up" \
	"$(awk -v v="$gs" 'BEGIN { print v * 1000 }')" "$(awk -v v="$es" 'BEGIN { print v * 1000 }')" "$(ratio "$es" "$gs")" \
	"$(awk -v v="$gsm" 'BEGIN { print v / 1024 }')" "$(awk -v v="$esm" 'BEGIN { print v / 1024 }')" "$(ratio "$esm" "$gsm")" "$reps" "" "(--version)"
for p in "${programs[@]}"; do
	if ! declare -F "build_$p" >/dev/null; then
		printf '%-12s %s\n' "$p" "unknown program"
		continue
	fi
	if ! why=$(prepare "$p" 2>&1 >/dev/null); then
		printf '%-12s not measured: %s\n' "$p" "$(tail -1 <<<"$why")"
		continue
	fi
	dir=$corpus/$p
	"$gprof" -b "$dir/prog" "$dir/gmon.out" >"$work/g.out" 2>&1
	"$egprof" -b "$dir/prog" "$dir/gmon.out" >"$work/e.out" 2>&1
	if cmp -s "$work/g.out" "$work/e.out"; then same=identical; else same="differ ($(cmp "$work/g.out" "$work/e.out" 2>&1 | head -1))"; fi
	# Enough repetitions per measurement for about half a second of
	# gprof's CPU, so that GNU time's 10 ms steps (in the user and the
	# system time, each) stay within 2 to 4%: with at most 40, a 1 ms
	# program's ratio moved between 1.4 and 1.8 from one run of the
	# script to the next. One run sizes the loop, or 20 when one is too
	# short for GNU time to see (a single run of the synthetic profile
	# takes seconds).
	reps=1
	one=$(measure "$gprof" | cut -d' ' -f1)
	if awk -v t="$one" 'BEGIN { exit !(t < 0.05) }'; then
		reps=20
		one=$(measure "$gprof" | cut -d' ' -f1)
	fi
	reps=$(awk -v t="$one" 'BEGIN { r = (t < 0.001) ? 500 : int(0.5 / t + 0.999); if (r < 1) r = 1; if (r > 500) r = 500; print r }')
	: >"$work/g" && : >"$work/e"
	for ((i = 0; i < runs; i++)); do
		measure "$gprof" >>"$work/g"
		measure "$egprof" >>"$work/e"
	done
	gc=$(cut -d' ' -f1 "$work/g" | median) gm=$(cut -d' ' -f2 "$work/g" | median)
	ec=$(cut -d' ' -f1 "$work/e" | median) em=$(cut -d' ' -f2 "$work/e" | median)
	# Where gprof's work is less than its start-up, the work ratio is the
	# difference of two noisy medians over a smaller one: not printed.
	work_x=$(awk -v e="$ec" -v es="$es" -v g="$gc" -v gs="$gs" 'BEGIN { if (g - gs < gs || e - es <= 0) print "-"; else printf "%.2f\n", (e - es) / (g - gs) }')
	printf '%-12s %9.1f %9.1f %7s %9.1f %9.1f %7s %5s %7s  %s\n' "$p" \
		"$(awk -v v="$gc" 'BEGIN { print v * 1000 }')" "$(awk -v v="$ec" 'BEGIN { print v * 1000 }')" "$(ratio "$ec" "$gc")" \
		"$(awk -v v="$gm" 'BEGIN { print v / 1024 }')" "$(awk -v v="$em" 'BEGIN { print v / 1024 }')" "$(ratio "$em" "$gm")" "$reps" "$work_x" "$same"
done
