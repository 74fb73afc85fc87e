#!/usr/bin/env bash
# Runs every fuzz target of egprof for a while, all at once at low priority,
# and prints one row per target: wall time, CPU time, executions, inputs
# found interesting, and failures (a failing input is written by Go under
# the package's testdata/fuzz/<Target>/ and must become a regression seed).
#
#   scripts/fuzz-all.sh [DURATION] [TARGET-REGEXP]     (default 30m, all)
#
# A run that ends with "context deadline exceeded" and writes no failing
# input is Go's own race at the end of -fuzztime (go.dev/issue/75804, fixed in
# Go 1.27), not a finding: it is reported as "ok (deadline race)".
#
# -fuzzminimizetime is bounded: with Go's default (60 s per new input) the
# workers spend most of their time minimising what they find, and a run
# looks stalled at "0/sec" for a minute at a time.
set -u
cd "$(dirname "$0")/.."
duration=${1:-30m}
only=${2:-.}
logs=$(mktemp -d)
targets=$(grep -rhoE '^func Fuzz[A-Za-z0-9_]+' --include='*_test.go' -l . |
	while read -r f; do
		for t in $(grep -oE '^func Fuzz[A-Za-z0-9_]+' "$f" | cut -d' ' -f2); do
			echo "$(dirname "$f") $t"
		done
	done | grep -E "$only" | sort)
# Compile first, one package at a time, so the timed runs fuzz at once.
for pkg in $(echo "$targets" | cut -d' ' -f1 | sort -u); do
	go test -c -o /dev/null "$pkg" || exit 1
done
while read -r pkg target; do
	log="$logs/$(echo "$pkg" | tr / _)-$target.log"
	( /usr/bin/time -f '%e %U %S' -o "$log.time" nice -n 19 go test "$pkg" -run '^$' \
		-fuzz "^$target\$" -fuzztime "$duration" -fuzzminimizetime 200x -parallel 1 \
		>"$log" 2>&1 ) &
done <<<"$targets"
wait
printf '%-24s %-26s %8s %8s %12s %12s %s\n' package target wall_s cpu_s executions interesting result
while read -r pkg target; do
	log="$logs/$(echo "$pkg" | tr / _)-$target.log"
	# GNU time puts "Command exited with non-zero status" first on failure.
	read -r wall user sys < <(tail -n 1 "$log.time")
	last=$(grep -E 'execs: [0-9]+' "$log" | tail -1)
	execs=$(sed -E 's/.*execs: ([0-9]+).*/\1/' <<<"$last")
	found=$(sed -E 's/.*new interesting: ([0-9]+).*/\1/' <<<"$last")
	result=ok
	if grep -qE '^(--- FAIL|FAIL)' "$log"; then
		if grep -q 'Failing input written to' "$log" || ! grep -q 'context deadline exceeded' "$log"; then
			result="FAIL (see $log)"
		else
			result="ok (deadline race)"
		fi
	fi
	printf '%-24s %-26s %8.0f %8.0f %12s %12s %s\n' "${pkg#./}" "$target" "$wall" \
		"$(echo "$user + $sys" | bc)" "${execs:-0}" "${found:-0}" "$result"
done <<<"$targets"
