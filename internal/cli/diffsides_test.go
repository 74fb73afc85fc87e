package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiffSidesAndPatterns checks the lines that open every differential
// output (which executable and which profiles make each side) and --diff
// patterns expanded by egprof in sorted order.
func TestDiffSidesAndPatterns(t *testing.T) {
	const prog, gmon = "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out"
	const other = "testdata/progs/recursion-O2/prog"
	for _, section := range [][]string{{"-p", "-Q"}, {"-P", "-Q", "--impact"}, {"-P", "-q"}} {
		args := append([]string{"-b"}, section...)
		args = append(args, prog, gmon, "--diff=testdata/progs/recursion-O2/gmon*.out", "--diff-exe="+other)
		stdout, stderr, code := runArgs(t, args...)
		require.Equal(t, 0, code, stderr)
		lines := strings.SplitN(stdout, "\n", 4)
		require.Len(t, lines, 4)
		assert.Equal(t, "'+' (1 profile of "+prog+"): "+gmon, lines[0], "%v", section)
		assert.Equal(t, "'-' (2 profiles of "+other+"): testdata/progs/recursion-O2/gmon.out testdata/progs/recursion-O2/gmon2.out", lines[1], "%v", section)
		assert.Equal(t, "", lines[2])
	}
	_, stderr, code := runArgs(t, "-b", prog, gmon, "--diff=testdata/progs/recursion-O2/nomatch*")
	assert.Equal(t, 1, code)
	assert.Equal(t, "egprof: --diff=testdata/progs/recursion-O2/nomatch* matches no file\n", stderr)
}

// TestDiffFlatNoiseLegend checks that the old-format flat profile names the
// rows within sampling noise in a line after the table, the same rows the
// impact table marks with "~" (those whose self time changed), and keeps
// gprof's columns.
func TestDiffFlatNoiseLegend(t *testing.T) {
	args := []string{demoProg, demoGmon, "--diff=" + demoGmon2}
	impact, _, code := runArgs(t, append([]string{"-b", "-P", "-Q", "--impact"}, args...)...)
	require.Equal(t, 0, code)
	var want []string
	for _, r := range parseImpact(t, impact) {
		if r.diff != 0 && strings.Contains(impact, " "+r.name+"  ~\n") {
			want = append(want, r.name)
		}
	}
	require.NotEmpty(t, want, "the demo's two runs differ within noise somewhere")
	flat, _, code := runArgs(t, append([]string{"-b", "-p", "-Q"}, args...)...)
	require.Equal(t, 0, code)
	assert.Contains(t, flat, "\nWithin sampling noise (two standard errors): "+strings.Join(want, ", ")+"\n")
	off, _, _ := runArgs(t, append([]string{"-b", "-p", "-Q", "--noise=off"}, args...)...)
	assert.NotContains(t, off, "Within sampling noise")
	// Every table row still has gprof's columns: name from column 55.
	for _, line := range strings.Split(flat, "\n") {
		if strings.HasSuffix(line, " blur") {
			assert.Equal(t, "blur", line[54:], line)
		}
	}
}
