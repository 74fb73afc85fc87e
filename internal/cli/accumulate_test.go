package cli

import (
	"bytes"
	"debug/elf"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/atomicfile"
	"github.com/egprof/egprof/internal/testenv"
)

// Accumulating runs from many processes at once needs real processes: the
// lock is between processes. The tests build the egprof command once.
func TestAccumulate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and starts many processes")
	}
	egprof := filepath.Join(t.TempDir(), "egprof")
	build := exec.Command("go", "build", "-o", egprof, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	t.Run("concurrent -s", func(t *testing.T) { testAccumulateConcurrently(t, egprof) })
	t.Run("killed writer", func(t *testing.T) { testAccumulateKilledWriter(t, egprof) })
	t.Run("concurrent summaries", func(t *testing.T) { testAccumulateSummaries(t, egprof) })
}

// writers is how many processes accumulate into one file at once.
const writers = 20

// accumulationDir returns a new directory holding testdata/demo's prog and
// gmon.out.
func accumulationDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"prog", "gmon.out"} {
		data, err := os.ReadFile(filepath.Join("testdata/demo", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o755))
	}
	return dir
}

// egprofIn runs the egprof command in dir and fails the test unless it
// succeeds silently on stderr.
func egprofIn(t *testing.T, egprof, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(egprof, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "egprof %s: %s", strings.Join(args, " "), stderr.String())
	require.Empty(t, stderr.String(), "egprof %s", strings.Join(args, " "))
	return stdout.String()
}

// startAll starts n egprof processes in dir, the i-th with args(i), one
// right after the other, and waits for all of them; each must succeed
// without a word on stderr.
func startAll(t *testing.T, egprof, dir string, n int, args func(i int) []string) {
	t.Helper()
	cmds := make([]*exec.Cmd, n)
	stderrs := make([]bytes.Buffer, n)
	for i := range cmds {
		cmds[i] = exec.Command(egprof, args(i)...)
		cmds[i].Dir = dir
		cmds[i].Stdout = nil
		cmds[i].Stderr = &stderrs[i]
	}
	for _, c := range cmds {
		require.NoError(t, c.Start())
	}
	for i, c := range cmds {
		assert.NoError(t, c.Wait(), "writer %d: %s", i, stderrs[i].String())
		assert.Empty(t, stderrs[i].String(), "writer %d", i)
	}
}

// flatCalls returns the calls column of a brief flat profile, by
// function (the rows that print calls).
func flatCalls(t *testing.T, report string) map[string]int64 {
	t.Helper()
	rows, err := testenv.ParseFlat(report)
	require.NoError(t, err, report)
	calls := map[string]int64{}
	for _, r := range rows {
		if r.HasCalls {
			calls[r.Name] = int64(r.Calls)
		}
	}
	require.NotEmpty(t, calls, "no flat profile in:\n%s", report)
	return calls
}

// gnuCalls is GNU gprof's calls column for files of prog, in dir.
func gnuCalls(t *testing.T, gprof, dir string, files ...string) map[string]int64 {
	t.Helper()
	cmd := exec.Command(gprof, append([]string{"-b", "-p", "prog"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err)
	return flatCalls(t, string(out))
}

// times multiplies every count of calls by k.
func times(calls map[string]int64, k int64) map[string]int64 {
	out := make(map[string]int64, len(calls))
	for name, n := range calls {
		out[name] = k * n
	}
	return out
}

// histSamples reads a gmon file of dir's prog with package gmon and
// returns the samples of all its histogram bins.
func histSamples(t *testing.T, dir, name string) int64 {
	t.Helper()
	exe, err := elf.Open(filepath.Join(dir, "prog"))
	require.NoError(t, err)
	defer exe.Close()
	target := gmon.Target{Order: exe.ByteOrder, AddrSize: 8}
	if exe.Class == elf.ELFCLASS32 {
		target.AddrSize = 4
	}
	f, err := gmon.ReadFile(filepath.Join(dir, name), target, gmon.FormatAuto)
	require.NoError(t, err)
	var n int64
	for _, h := range f.Hists {
		for _, b := range h.Bins {
			n += int64(b)
		}
	}
	return n
}

// tempFiles lists the names in dir that start with prefix.
func tempFiles(t *testing.T, dir, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Many processes running "egprof -s prog gmon.sum gmon.out" at once each
// add their run: none is lost.
func testAccumulateConcurrently(t *testing.T, egprof string) {
	dir := accumulationDir(t)
	egprofIn(t, egprof, dir, "-s", "prog", "gmon.out")
	startAll(t, egprof, dir, writers, func(int) []string {
		return []string{"-s", "prog", "gmon.sum", "gmon.out"}
	})

	runs := int64(writers + 1)
	assert.Equal(t, runs*histSamples(t, dir, "gmon.out"), histSamples(t, dir, "gmon.sum"), "histogram samples")
	if gprof, err := exec.LookPath("gprof"); err == nil {
		one := gnuCalls(t, gprof, dir, "gmon.out")
		assert.Equal(t, times(one, runs), gnuCalls(t, gprof, dir, "gmon.sum"), "GNU gprof's calls of the sum")
	} else {
		t.Log("GNU gprof not installed: only the histogram is checked")
	}
	assert.Empty(t, tempFiles(t, dir, ".gmon.sum.tmp-"), "temporary files left")
}

// A writer killed at any moment leaves gmon.sum as it was or as the run
// would have made it, never anything else; the next run removes the
// temporary file a killed writer left, and no other file.
func testAccumulateKilledWriter(t *testing.T, egprof string) {
	const (
		inputs = 1500 // copies of gmon.out, to make a run slow enough to kill
		kills  = 8
	)
	dir := accumulationDir(t)
	ref := accumulationDir(t)
	args := []string{"-s", "prog", "gmon.sum"}
	for range inputs {
		args = append(args, "gmon.out")
	}
	egprofIn(t, egprof, dir, "-s", "prog", "gmon.out")

	left := 0
	for i := range kills {
		old, err := os.ReadFile(filepath.Join(dir, "gmon.sum"))
		require.NoError(t, err)
		// What the run makes when it is not killed, and how long it takes.
		require.NoError(t, os.WriteFile(filepath.Join(ref, "gmon.sum"), old, 0o644))
		start := time.Now()
		egprofIn(t, egprof, ref, args...)
		took := time.Since(start)
		want, err := os.ReadFile(filepath.Join(ref, "gmon.sum"))
		require.NoError(t, err)

		cmd := exec.Command(egprof, args...)
		cmd.Dir = dir
		require.NoError(t, cmd.Start())
		// Kills spread from early in the run to after its usual end,
		// with some jitter.
		at := time.Duration(float64(took) * (0.3 + float64(i)/kills + rand.Float64()/kills))
		time.Sleep(at)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			require.ErrorIs(t, err, os.ErrProcessDone)
		}
		_ = cmd.Wait()

		got, err := os.ReadFile(filepath.Join(dir, "gmon.sum"))
		require.NoError(t, err)
		switch {
		case bytes.Equal(got, old):
			t.Logf("kill %d at %v of %v: gmon.sum kept", i, at.Round(time.Millisecond), took.Round(time.Millisecond))
		case bytes.Equal(got, want):
			t.Logf("kill %d at %v of %v: gmon.sum replaced", i, at.Round(time.Millisecond), took.Round(time.Millisecond))
		default:
			t.Fatalf("kill %d: gmon.sum is neither the old sum nor the new one", i)
		}
		left += len(tempFiles(t, dir, ".gmon.sum.tmp-"))
	}
	t.Logf("%d kills left %d temporary files", kills, left)

	// A writer killed between creating its temporary file and renaming
	// it; and files that only look like such a file, or are another
	// destination's, which must stay.
	stale, err := atomicfile.Create(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	_, err = stale.Write([]byte("half a sum"))
	require.NoError(t, err)
	require.NotEmpty(t, tempFiles(t, dir, ".gmon.sum.tmp-"))
	keep := []string{".gmon.sum.tmp-notours", ".gmon.sum.tmp-ABCDEFGHIJKLM", ".other.sum.tmp-ABCDEFGHIJKL", "gmon.sum.tmp-ABCDEFGHIJKL"}
	for _, name := range keep {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}

	before, err := os.ReadFile(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ref, "gmon.sum"), before, 0o644))
	egprofIn(t, egprof, ref, "-s", "prog", "gmon.sum", "gmon.out")
	egprofIn(t, egprof, dir, "-s", "prog", "gmon.sum", "gmon.out")
	assert.ElementsMatch(t, []string{".gmon.sum.tmp-notours", ".gmon.sum.tmp-ABCDEFGHIJKLM"}, tempFiles(t, dir, ".gmon.sum.tmp-"),
		"the killed writers' temporary files are gone, the others stay")
	for _, name := range keep {
		assert.FileExists(t, filepath.Join(dir, name))
	}
	want, err := os.ReadFile(filepath.Join(ref, "gmon.sum"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(dir, "gmon.sum"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got), "the next run adds to the sum the killed writers left")
}

// Many processes adding one rank each to a summary at once
// (--save-summary=all.sum with all.sum among the inputs): the summary
// ends up with every rank.
func testAccumulateSummaries(t *testing.T, egprof string) {
	dir := accumulationDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "gmon.out"))
	require.NoError(t, err)
	rankFile := func(r int) string { return fmt.Sprintf("gmon.rank%d.%d", r, 100+r) }
	for r := range writers + 1 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, rankFile(r)), data, 0o644))
	}
	egprofIn(t, egprof, dir, "--ranks", "-P", "-Q", "--save-summary=all.sum", "prog", rankFile(0))
	startAll(t, egprof, dir, writers, func(i int) []string {
		return []string{"--ranks", "-P", "-Q", "--save-summary=all.sum", "prog", "all.sum", rankFile(i + 1)}
	})

	report := egprofIn(t, egprof, dir, "--ranks", "-b", "-p", "prog", "all.sum")
	m := regexp.MustCompile(`MPI rank analysis: (\d+) ranks`).FindStringSubmatch(report)
	require.NotNil(t, m, "no rank count in:\n%s", report)
	assert.Equal(t, strconv.Itoa(writers+1), m[1], "ranks in the summary")
	flat, _, _ := strings.Cut(report, "MPI rank analysis")
	if gprof, err := exec.LookPath("gprof"); err == nil {
		one := gnuCalls(t, gprof, dir, "gmon.out")
		assert.Equal(t, times(one, writers+1), flatCalls(t, flat), "calls of the summed ranks")
	}
	assert.Empty(t, tempFiles(t, dir, ".all.sum.tmp-"), "temporary files left")
}

// Where no lock can be had, egprof says so once and accumulates all the
// same (as GNU gprof, which never locks).
func TestAccumulateWarnsWithoutLock(t *testing.T) {
	dir := accumulationDir(t)
	t.Chdir(dir)
	// A directory where the lock file belongs cannot be locked.
	require.NoError(t, os.Mkdir(".gmon.sum.lock", 0o755))
	var stdout, stderr bytes.Buffer
	code := run([]string{"egprof", "-s", "prog", "gmon.out"}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, "egprof: warning: cannot lock gmon.sum ("+filepath.Join(dir, ".gmon.sum.lock")+": Is a directory); runs accumulated into it at the same time may be lost\n", stderr.String())
	assert.Empty(t, stdout.String())
	assert.Equal(t, histSamples(t, dir, "gmon.out"), histSamples(t, dir, "gmon.sum"))
}
