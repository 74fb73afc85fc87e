#!/usr/bin/env bash
# Copies the inputs Go's fuzzer found interesting (kept in its cache) into
# each target's testdata/fuzz/<Target>/ folder, where `go test` runs them as
# seeds, so that CI replays what the long fuzzing runs explored. Per target
# the smallest inputs are kept up to a byte budget (default 256 KiB), to
# keep the repository and the test run small.
#
#   scripts/fuzz-save-corpus.sh [BUDGET-BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-262144}
cache="$(go env GOCACHE)/fuzz/$(go list -m)"
for dir in "$cache"/*/Fuzz* "$cache"/*/*/Fuzz* "$cache"/*/*/*/Fuzz*; do
	[ -d "$dir" ] || continue
	rel=${dir#"$cache"/}
	pkg=$(dirname "$rel")
	target=$(basename "$rel")
	[ -d "$pkg" ] || continue
	dest="$pkg/testdata/fuzz/$target"
	# internal/cli's tests run from the repository root (its TestMain), and
	# Go reads a target's corpus under the folder a test runs in.
	[ "$pkg" = internal/cli ] && dest="testdata/fuzz/$target"
	mkdir -p "$dest"
	# An empty folder makes du fail, which would end the script (set -e).
	used=$({ du -cb "$dest"/* 2>/dev/null || true; } | tail -1 | cut -f1)
	used=${used:-0}
	copied=0
	# Smallest first: they are the cheapest to replay.
	while read -r size file; do
		name=$(basename "$file")
		[ -e "$dest/$name" ] && continue
		[ $((used + size)) -gt "$budget" ] && break
		cp "$file" "$dest/$name"
		used=$((used + size))
		copied=$((copied + 1))
	done < <(find "$dir" -type f -printf '%s %p\n' | sort -n)
	echo "$pkg $target: $copied inputs added, $used bytes in $dest"
done
