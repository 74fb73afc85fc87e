#!/usr/bin/env bash
# gen-goldens.sh - regenerate every golden file under testdata/golden/ from
# GNU gprof. It builds nothing: it only runs gprof on the checked-in programs
# and profiles (use scripts/build-testdata.sh to rebuild those first).
# Goldens are never edited by hand; rerun this script instead.
#
# Needs: bash, GNU gprof 2.40 (binutils 2.40; Debian 12's /usr/bin/gprof is
#        the reference), coreutils (mktemp, timeout). No compiler.
#        Set GPROF=/path/to/gprof to use another binary (it is still run as
#        argv[0] "gprof"); set ALLOW_OTHER_GPROF=1 to accept a version other
#        than 2.40.
#
# Usage: scripts/gen-goldens.sh [PROGRAM...]
#   PROGRAM is a program directory's base name (demo, cycles, ...); with no
#   arguments every program is regenerated. Running it twice gives the same
#   files (old goldens of a regenerated program are removed first).
#
# For each program directory P (testdata/demo, testdata/progs/*) and each case
# (testdata/golden/cases.txt, minus what P/cases.txt drops, plus P/cases.txt's
# own cases), it writes into testdata/golden/<basename of P>/:
#   <case>.out            gprof's stdout
#   <case>.err            gprof's stderr (reference only; not compared)
#   <case>.rc             gprof's exit status, one line
#   <case>.readback.out   -s cases only, when the -s run exited 0: stdout of
#                         the readback command run on the gmon.sum it wrote
# The case file format is described in testdata/README.md.
set -euo pipefail
export LC_ALL=C
unset POSIXLY_CORRECT GPROF_PATH

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

gprof_bin=${GPROF:-$(command -v gprof || true)}
if [ -z "$gprof_bin" ] || [ ! -x "$gprof_bin" ]; then
	echo "gen-goldens: GNU gprof not found (install binutils, or set GPROF)" >&2
	exit 1
fi
version=$("$gprof_bin" --version | head -n 1)
case $version in
*" 2.40") ;;
*)
	if [ "${ALLOW_OTHER_GPROF:-}" != 1 ]; then
		echo "gen-goldens: expected GNU gprof 2.40, found: $version" >&2
		echo "gen-goldens: set ALLOW_OTHER_GPROF=1 to go on anyway" >&2
		exit 1
	fi
	;;
esac
command -v timeout >/dev/null || { echo "gen-goldens: timeout (coreutils) not found" >&2; exit 1; }

golden=testdata/golden

# run_gprof DIR OUT ERR ARGS... : run gprof with argv[0] "gprof" in DIR;
# prints the exit status.
run_gprof() {
	local dir=$1 out=$2 err=$3
	shift 3
	local rc=0
	# timeout runs bash, which execs gprof with argv[0] set to "gprof".
	(cd "$dir" && exec timeout 120 bash -c 'exec -a gprof "$0" "$@"' "$gprof_bin" "$@") \
		>"$out" 2>"$err" || rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -gt 128 ]; then
		echo "gen-goldens: gprof timed out or crashed (status $rc) in $dir: gprof $*" >&2
		exit 1
	fi
	echo "$rc"
}

# Parsed cases: parallel arrays.
c_name=() c_args=() c_readback=()
drops=()

# parse_file FILE ALLOW_DROPS : append FILE's cases (and drop patterns).
parse_file() {
	local file=$1 allow_drops=$2 line n=0 name args readback rest
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in
		'' | '#'*) continue ;;
		'!'*)
			if [ "$allow_drops" != yes ]; then
				echo "gen-goldens: $file:$n: drop lines are only allowed in a program's cases.txt" >&2
				exit 1
			fi
			drops+=("${line#!}")
			continue
			;;
		esac
		# Fields are separated by one or more TABs.
		IFS=$'\t' read -r name args readback rest <<<"$line"
		if [ -n "${rest:-}" ] || [ -z "${args:-}" ]; then
			echo "gen-goldens: $file:$n: expected <name>TAB<args>[TAB<readback>]" >&2
			exit 1
		fi
		if ! [[ $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; then
			echo "gen-goldens: $file:$n: bad case name '$name'" >&2
			exit 1
		fi
		local i
		for i in "${!c_name[@]}"; do
			if [ "${c_name[$i]}" = "$name" ]; then
				echo "gen-goldens: $file:$n: duplicate case name '$name'" >&2
				exit 1
			fi
		done
		c_name+=("$name")
		c_args+=("$args")
		c_readback+=("${readback:-}")
	done <"$file"
}

# expand WORDS-STRING PROG GMON GMON2 : set the array `expanded`.
expand() {
	local words w
	read -r -a words <<<"$1"
	expanded=()
	for w in "${words[@]}"; do
		w=${w//\{prog\}/$2}
		w=${w//\{gmon\}/$3}
		w=${w//\{gmon2\}/$4}
		w=${w//\{sum\}/gmon.sum}
		if [[ $w == *'{'*'}'* ]]; then
			echo "gen-goldens: unknown placeholder in '$w'" >&2
			exit 1
		fi
		expanded+=("$w")
	done
}

programs=()
for d in testdata/demo testdata/progs/*/; do
	d=${d%/}
	[ -f "$d/prog" ] && programs+=("$d")
done
if [ $# -gt 0 ]; then
	selected=()
	for want in "$@"; do
		found=
		for d in "${programs[@]}"; do
			[ "$(basename "$d")" = "$want" ] && selected+=("$d") && found=1
		done
		[ -n "$found" ] || { echo "gen-goldens: no program directory named '$want'" >&2; exit 1; }
	done
	programs=("${selected[@]}")
else
	# Remove goldens of programs that no longer exist.
	for g in "$golden"/*/; do
		[ -d "$g" ] || continue
		b=$(basename "$g")
		if [ "$b" = demo ]; then
			[ -f testdata/demo/prog ] || rm -rf "$g"
		else
			[ -f "testdata/progs/$b/prog" ] || rm -rf "$g"
		fi
	done
fi

total=0
for d in "${programs[@]}"; do
	base=$(basename "$d")
	for f in prog gmon.out gmon2.out; do
		[ -f "$d/$f" ] || { echo "gen-goldens: $d/$f is missing" >&2; exit 1; }
	done

	c_name=() c_args=() c_readback=() drops=()
	parse_file "$golden/cases.txt" no
	nglobal=${#c_name[@]}
	if [ -f "$d/cases.txt" ]; then
		parse_file "$d/cases.txt" yes
	fi

	# Apply the program's drop patterns to the global cases.
	keep=()
	for i in "${!c_name[@]}"; do
		keep[$i]=1
	done
	for pat in "${drops[@]+"${drops[@]}"}"; do
		matched=
		for ((i = 0; i < nglobal; i++)); do
			# shellcheck disable=SC2053 # glob match on purpose
			if [[ ${c_name[$i]} == $pat ]]; then
				keep[$i]=0
				matched=1
			fi
		done
		[ -n "$matched" ] || echo "gen-goldens: warning: $d/cases.txt: !$pat matches no global case" >&2
	done

	outdir=$golden/$base
	rm -rf "$outdir"
	mkdir -p "$outdir"
	n=0
	for i in "${!c_name[@]}"; do
		[ "${keep[$i]}" = 1 ] || continue
		name=${c_name[$i]}
		if [ -z "${c_readback[$i]}" ]; then
			# Plain case: from the repository root, relative paths.
			expand "${c_args[$i]}" "$d/prog" "$d/gmon.out" "$d/gmon2.out"
			rc=$(run_gprof "$root" "$outdir/$name.out" "$outdir/$name.err" "${expanded[@]}")
			echo "$rc" >"$outdir/$name.rc"
		else
			# -s case: in a scratch directory, absolute paths; then read the
			# gmon.sum back with the readback arguments.
			tmp=$(mktemp -d)
			expand "${c_args[$i]}" "$root/$d/prog" "$root/$d/gmon.out" "$root/$d/gmon2.out"
			rc=$(run_gprof "$tmp" "$outdir/$name.out" "$outdir/$name.err" "${expanded[@]}")
			echo "$rc" >"$outdir/$name.rc"
			if [ "$rc" = 0 ]; then
				if [ ! -f "$tmp/gmon.sum" ]; then
					echo "gen-goldens: $base/$name: the -s run wrote no gmon.sum" >&2
					exit 1
				fi
				expand "${c_readback[$i]}" "$root/$d/prog" "$root/$d/gmon.out" "$root/$d/gmon2.out"
				rbrc=$(run_gprof "$tmp" "$outdir/$name.readback.out" "$tmp/readback.err" "${expanded[@]}")
				if [ "$rbrc" != 0 ]; then
					echo "gen-goldens: $base/$name: readback failed with status $rbrc:" >&2
					cat "$tmp/readback.err" >&2
					exit 1
				fi
			fi
			rm -rf "$tmp"
		fi
		n=$((n + 1))
	done
	total=$((total + n))
	echo "gen-goldens: $base: $n cases" >&2
done
echo "gen-goldens: $total cases in ${#programs[@]} programs" >&2
