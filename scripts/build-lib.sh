# build-lib.sh: helpers sourced by testdata/demo/build.sh and testdata/progs/*/build.sh.
# Not meant to be run directly. Needs bash, gcc/g++ (-pg), gcc-multilib for -m32,
# and a Linux/glibc system (gmon.out is written by glibc's profiling runtime).
#
# After sourcing, the current directory is the repository root, and
#   ROOT  = absolute path of the repository root
#   D     = the calling program's directory, relative to ROOT (e.g. testdata/progs/cycles)
# Sources are always compiled from ROOT with paths relative to it, plus
# -fdebug-prefix-map=$ROOT=. so the debug info stores "./testdata/progs/..."
# and never the absolute path of the checkout (goldens stay location independent).

set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_here=$(cd "$(dirname "$0")" && pwd)
D=${_here#"$ROOT"/}
cd "$ROOT"

# build CC ARGS... : run one compile command from ROOT, adding the debug prefix map.
build() {
	echo "+ $* -fdebug-prefix-map=\$ROOT=." >&2
	"$@" -fdebug-prefix-map="$ROOT"=.
}

# need_tools PACKAGES TOOL... : stop unless every TOOL is on PATH, naming
# the Debian PACKAGES (one quoted argument) that provide them.
need_tools() {
	local packages=$1 tool
	shift
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 || {
			echo "$D/build.sh: $tool not found (apt-get install $packages)" >&2
			exit 1
		}
	done
}

# profile OUTNAME ARGS... : run $D/prog ARGS in a scratch directory with
# GMON_OUT_PREFIX set, then move the single profile it wrote to $D/OUTNAME.
# RUNNER, when set, is the command that runs the program (an emulator for
# another machine's executable).
# Prints the user CPU time and the number of histogram samples.
profile() {
	local out=$1; shift
	local tmp
	tmp=$(mktemp -d)
	local start end
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # RUNNER is a command line (an emulator and its options)
	( cd "$tmp" && GMON_OUT_PREFIX=run exec ${RUNNER:-} "$ROOT/$D/prog" "$@" ) > "$tmp/stdout.txt"
	end=$(date +%s.%N)
	local files=("$tmp"/run.*)
	if [ "${#files[@]}" -ne 1 ] || [ ! -f "${files[0]}" ]; then
		echo "build-lib: expected one profile from $D/prog $*, got: ${files[*]}" >&2
		rm -rf "$tmp"; return 1
	fi
	mv "${files[0]}" "$D/$out"
	rm -rf "$tmp"
	local secs
	secs=$(gprof -b -p "$D/prog" "$D/$out" 2>/dev/null | awk '$1 ~ /^[0-9.]+$/ && NF >= 3 { s = $2 } END { print s + 0 }')
	awk -v d="$D" -v o="$out" -v a="$start" -v b="$end" -v s="$secs" -v args="$*" \
		'BEGIN { printf "%-28s %-10s wall %5.2fs  sampled %5.2fs  (args: %s)\n", d, o, b - a, s, args }' >&2
}
