package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// Defaults of the live differential test; EGPROF_LIVE_SEED and
// EGPROF_LIVE_N override them.
const (
	defaultLiveSeed = 20240601
	defaultLiveN    = 30
)

// liveOptionSet is one gprof command line (without the executable and data
// file operands) compared between egprof and GNU gprof.
type liveOptionSet struct {
	args      []string
	needDebug bool // only meaningful for programs built with -g
}

// liveOptionSets returns the command lines TestLiveAgainstGprof compares.
func liveOptionSets() []liveOptionSet {
	return []liveOptionSet{
		{args: []string{"-b"}},
		{args: []string{"-b", "-p"}},
		{args: []string{"-b", "-q"}},
		{args: []string{"-b", "-z"}},
		{args: []string{"-b", "-l"}, needDebug: true},
		{args: []string{"-b", "-T"}},
		{args: []string{"-b", "-c"}},
		// -c's count-0 arcs often show only next to unused functions.
		{args: []string{"-b", "-c", "-z"}},
	}
}

// liveBuildOptions returns how the program for seed is compiled: -O0 and
// -O2 alternate from one seed to the next, and every other pair adds -g.
// It depends on the seed only, so that a single seed reproduces exactly.
func liveBuildOptions(seed int64) progen.BuildOptions {
	v := ((seed % 4) + 4) % 4
	return progen.BuildOptions{
		Opt:   []string{"-O0", "-O2"}[v%2],
		Debug: v >= 2,
	}
}

// envInt64 returns the integer in environment variable name, or def.
func envInt64(t *testing.T, name string, def int64) int64 {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(s, 10, 64)
	require.NoError(t, err, "bad %s", name)
	return v
}

// diffExcerpt returns a unified-diff-like excerpt around the first
// difference between want (GNU gprof) and got (egprof).
func diffExcerpt(want, got string) string {
	w := strings.SplitAfter(want, "\n")
	g := strings.SplitAfter(got, "\n")
	p := 0
	for p < len(w) && p < len(g) && w[p] == g[p] {
		p++
	}
	s := 0
	for s < len(w)-p && s < len(g)-p && w[len(w)-1-s] == g[len(g)-1-s] {
		s++
	}
	const context, maxLines = 3, 15
	start := max(0, p-context)
	wEnd, gEnd := len(w)-s, len(g)-s
	var b strings.Builder
	fmt.Fprintf(&b, "--- GNU gprof (%d lines)\n+++ egprof (%d lines)\n", countLines(want), countLines(got))
	fmt.Fprintf(&b, "@@ first difference at line %d @@\n", p+1)
	line := func(prefix, l string) {
		if l == "" {
			return // the empty piece after a final newline
		}
		b.WriteString(prefix + strings.TrimSuffix(l, "\n") + "\n")
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
	for _, l := range w[start:p] {
		line(" ", l)
	}
	block := func(prefix string, ls []string) {
		for i, l := range ls {
			if i == maxLines {
				fmt.Fprintf(&b, "%s... (%d more lines)\n", prefix, len(ls)-maxLines)
				break
			}
			line(prefix, l)
		}
	}
	block("-", w[p:wEnd])
	block("+", g[p:gEnd])
	for _, l := range w[wEnd:min(len(w), wEnd+context)] {
		line(" ", l)
	}
	if p < len(w) && p < len(g) {
		fmt.Fprintf(&b, "first differing line, quoted:\n  gprof:  %q\n  egprof: %q\n", w[p], g[p])
	}
	return b.String()
}

// countLines returns the number of lines of s, a final unterminated one
// included.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// compareResults asserts that egprof's result equals GNU gprof's.
func compareResults(t *testing.T, what string, want, got testenv.Result) {
	t.Helper()
	assert.Equal(t, want.Code, got.Code, "%s: exit status differs (stderr: gprof %q, egprof %q)", what, want.Stderr, got.Stderr)
	if want.Stdout != got.Stdout {
		assert.Fail(t, what+": stdout differs", diffExcerpt(want.Stdout, got.Stdout))
	}
	if want.Stderr != got.Stderr {
		assert.Fail(t, what+": stderr differs", diffExcerpt(want.Stderr, got.Stderr))
	}
}

// TestLiveAgainstGprof generates random C programs (see internal/progen),
// builds them with gcc -pg, runs them, and checks that egprof prints the
// same bytes and exits with the same status as GNU gprof on the resulting
// gmon.out, for a table of option sets.
//
// EGPROF_LIVE_SEED sets the first seed (program i uses seed+i),
// EGPROF_LIVE_N the number of programs, and EGPROF_LIVE_KEEP a directory in
// which to keep each program's files (seed-N/) instead of a temporary one.
func TestLiveAgainstGprof(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	base := envInt64(t, "EGPROF_LIVE_SEED", defaultLiveSeed)
	n := envInt64(t, "EGPROF_LIVE_N", defaultLiveN)
	keep := os.Getenv("EGPROF_LIVE_KEEP")

	for i := range n {
		seed := base + i
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel() // at most -parallel (default GOMAXPROCS) at a time
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()

			opts := liveBuildOptions(seed)
			repro := fmt.Sprintf("seed %d, built with gcc %s; reproduce with: EGPROF_LIVE_SEED=%d EGPROF_LIVE_N=1 EGPROF_LIVE_KEEP=/tmp/live go test -run 'TestLiveAgainstGprof' .",
				seed, opts, seed)
			dir := t.TempDir()
			if keep != "" {
				dir = filepath.Join(keep, fmt.Sprintf("seed-%d", seed))
				require.NoError(t, os.MkdirAll(dir, 0o777))
			}

			prog, err := progen.Generate(seed, progen.DefaultConfig())
			require.NoError(t, err)
			bin, err := prog.Build(ctx, dir, opts)
			require.NoError(t, err, "generator bug (program does not compile); %s", repro)
			gmon, err := progen.RunForProfile(ctx, dir, bin)
			require.NoError(t, err, "generator bug (no usable gmon.out); %s", repro)

			compareOptionSets(ctx, t, gprof, dir, bin, gmon, opts.Debug, liveOptionSets(), "("+repro+")")
		})
	}
}

// TestGprofSymlink builds the egprof command, installs it as "gprof" through
// a symlink at the front of PATH, and checks that shell pipelines typical of
// user scripts print the same as with GNU gprof in its place.
func TestGprofSymlink(t *testing.T) {
	testenv.Need(t, "gcc")
	gprof := testenv.Gprof(t)
	bash := testenv.Tool(t, "bash")
	ctx := t.Context()
	tmp := t.TempDir()
	egprof := testenv.EgprofBinary(t)

	egDir, gnuDir, work := filepath.Join(tmp, "egbin"), filepath.Join(tmp, "gnubin"), filepath.Join(tmp, "work")
	for _, d := range []string{egDir, gnuDir, work} {
		require.NoError(t, os.Mkdir(d, 0o777))
	}
	require.NoError(t, os.Symlink(egprof, filepath.Join(egDir, "gprof")))
	require.NoError(t, os.Symlink(gprof, filepath.Join(gnuDir, "gprof")))

	// A -g build with cycles, a comparator and unused functions.
	const seed = 20240603
	prog := progen.MustGenerate(seed)
	_, err := prog.Build(ctx, work, progen.BuildOptions{Opt: "-O0", Debug: true})
	require.NoError(t, err)
	_, err = progen.RunForProfile(ctx, work, filepath.Join(work, "prog"))
	require.NoError(t, err)

	pipelines := []string{
		`gprof -b -p ./prog gmon.out | head -20`,
		`gprof -b ./prog | grep -c '<cycle'`,
		`gprof -b -q ./prog gmon.out | awk '/^\[/ {print $1, $NF}' | sort -n | head -15`,
		`gprof -b ./prog gmon.out > report.txt; echo "status=$?"; wc -l < report.txt; tail -4 report.txt`,
		`gprof -bp -z ./prog gmon.out | awk 'NR > 5 {print $NF}' | sort | uniq -c | sort -rn | head`,
		`gprof -b -p -z ./prog gmon.out | sed -n '1,12p'`,
		`gprof -b -p ./prog missing.out 2>&1; echo "status=$?"`,
		`gprof -b -p ./prog gmon.out gmon.out | tail -n +6 | head -5`,
		`cat gmon.out | gprof -b -p ./prog - | head -8`,
	}
	pathEnv := os.Getenv("PATH")
	runIn := func(binDir, script string) testenv.Result {
		return testenv.Run(ctx, t, bash, work, []string{"bash", "-c", script}, "PATH="+binDir+string(os.PathListSeparator)+pathEnv)
	}
	for _, script := range pipelines {
		want := runIn(gnuDir, script)
		got := runIn(egDir, script)
		compareResults(t, fmt.Sprintf("pipeline %q (program seed %d)", script, seed), want, got)
	}
}
