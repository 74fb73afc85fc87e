package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
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

// referenceGprof returns the GNU gprof to compare with, skipping the test
// when gcc or gprof is not on PATH.
func referenceGprof(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not on PATH")
	}
	p, err := exec.LookPath("gprof")
	if err != nil {
		t.Skip("gprof not on PATH")
	}
	if _, err := os.Stat("/usr/bin/gprof"); err == nil {
		return "/usr/bin/gprof"
	}
	return p
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

// cmdResult is what one gprof invocation produced.
type cmdResult struct {
	stdout, stderr string
	code           int
}

// runGNU runs GNU gprof (at path) with argv (argv[0] is passed as is, so
// that messages name the same program as egprof's) in dir.
func runGNU(ctx context.Context, t *testing.T, path, dir string, argv []string, env ...string) cmdResult {
	t.Helper()
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.Exited() {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err, "running %s %q", path, argv)
	}
	return cmdResult{stdout.String(), stderr.String(), code}
}

// runEgprof calls run in-process. A panic is turned into exit status -1
// and a message on stderr, so that one bad program does not take the whole
// test binary down.
func runEgprof(argv []string) (res cmdResult) {
	var stdout, stderr bytes.Buffer
	defer func() {
		if r := recover(); r != nil {
			res = cmdResult{stdout.String(), fmt.Sprintf("%s\nPANIC: %v\n%s", stderr.String(), r, debug.Stack()), -1}
		}
	}()
	code := run(argv, strings.NewReader(""), &stdout, &stderr)
	return cmdResult{stdout.String(), stderr.String(), code}
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
func compareResults(t *testing.T, what string, want, got cmdResult) {
	t.Helper()
	assert.Equal(t, want.code, got.code, "%s: exit status differs (stderr: gprof %q, egprof %q)", what, want.stderr, got.stderr)
	if want.stdout != got.stdout {
		assert.Fail(t, what+": stdout differs", diffExcerpt(want.stdout, got.stdout))
	}
	if want.stderr != got.stderr {
		assert.Fail(t, what+": stderr differs", diffExcerpt(want.stderr, got.stderr))
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
	gprof := referenceGprof(t)
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

			for _, set := range liveOptionSets() {
				if set.needDebug && !opts.Debug {
					continue
				}
				argv := append(append([]string{"gprof"}, set.args...), bin, gmon)
				want := runGNU(ctx, t, gprof, dir, argv)
				got := runEgprof(argv)
				compareResults(t, fmt.Sprintf("gprof %s (%s)", strings.Join(set.args, " "), repro), want, got)
			}
		})
	}
}

// TestGprofSymlink builds the egprof command, installs it as "gprof" through
// a symlink at the front of PATH, and checks that shell pipelines typical of
// user scripts print the same as with GNU gprof in its place.
func TestGprofSymlink(t *testing.T) {
	gprof := referenceGprof(t)
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not on PATH")
	}
	ctx := t.Context()
	tmp := t.TempDir()

	egprof := filepath.Join(tmp, "egprof")
	build := exec.CommandContext(ctx, goTool, "build", "-o", egprof, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	egDir, gnuDir, work := filepath.Join(tmp, "egbin"), filepath.Join(tmp, "gnubin"), filepath.Join(tmp, "work")
	for _, d := range []string{egDir, gnuDir, work} {
		require.NoError(t, os.Mkdir(d, 0o777))
	}
	require.NoError(t, os.Symlink(egprof, filepath.Join(egDir, "gprof")))
	require.NoError(t, os.Symlink(gprof, filepath.Join(gnuDir, "gprof")))

	// A -g build with cycles, a comparator and unused functions.
	const seed = 20240603
	prog := progen.MustGenerate(seed)
	_, err = prog.Build(ctx, work, progen.BuildOptions{Opt: "-O0", Debug: true})
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
	runIn := func(binDir, script string) cmdResult {
		cmd := exec.CommandContext(ctx, bash, "-c", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+pathEnv)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err, "bash -c %q", script)
		}
		return cmdResult{stdout.String(), stderr.String(), code}
	}
	for _, script := range pipelines {
		want := runIn(gnuDir, script)
		got := runIn(egDir, script)
		compareResults(t, fmt.Sprintf("pipeline %q (program seed %d)", script, seed), want, got)
	}
}
