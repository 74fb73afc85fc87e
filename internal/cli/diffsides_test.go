package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/render"
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
		lines := strings.SplitN(stdout, "\n", 5)
		require.Len(t, lines, 5)
		assert.Equal(t, "'+' (1 profile of "+prog+"): "+gmon, lines[0], "%v", section)
		assert.Equal(t, "'-' (2 profiles of "+other+"): testdata/progs/recursion-O2/gmon.out testdata/progs/recursion-O2/gmon2.out", lines[1], "%v", section)
		assert.Equal(t, "compared: sum of each side's profiles", lines[2])
		assert.Equal(t, "", lines[3])
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

// gprofGraphTotal is the total time GNU gprof's call graph states for a
// profile ("... of 0.36 seconds").
func gprofGraphTotal(t *testing.T, prog string, gmons ...string) float64 {
	t.Helper()
	out := testenv.Output(t, testenv.Gprof(t), ".", append([]string{"-b", "-q", prog}, gmons...)...)
	m := regexp.MustCompile(`of ([0-9.]+) seconds`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	return v
}

// TestImpactMachineReadable checks --impact --format=tsv|json against the
// text table and GNU gprof's totals.
func TestImpactMachineReadable(t *testing.T) {
	const prog, gmon = "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out"
	const other, otherGmon = "testdata/progs/recursion-O2/prog", "testdata/progs/recursion-O2/gmon.out"
	args := []string{"-b", "--impact", prog, gmon, "--diff=" + otherGmon, "--diff-exe=" + other}
	text, _, code := runArgs(t, append(args, "-Q")...)
	require.Equal(t, 0, code)
	rows := parseImpact(t, text)

	out, stderr, code := runArgs(t, append(args, "--format=json")...)
	require.Equal(t, 0, code, stderr)
	var data render.ImpactData
	require.NoError(t, json.Unmarshal([]byte(out), &data))
	assert.Equal(t, prog, data.Plus.Exe)
	assert.Equal(t, []string{otherGmon}, data.Minus.Files)
	assert.Equal(t, "sum", data.Scaling)
	assert.InDelta(t, gprofGraphTotal(t, prog, gmon), data.Plus.TotalSeconds, 0.005)
	assert.InDelta(t, gprofGraphTotal(t, other, otherGmon), data.Minus.TotalSeconds, 0.005)
	require.Len(t, data.Rows, len(rows))
	for k, r := range data.Rows {
		assert.Equal(t, rows[k].name, r.Name)
		assert.InDelta(t, rows[k].plus, r.PlusSelf, 0.005, r.Name)
		assert.InDelta(t, rows[k].minus, r.MinusSelf, 0.005, r.Name)
		assert.InDelta(t, rows[k].diff, r.SelfDelta, 0.005, r.Name)
		assert.Equal(t, rows[k].callsDiff, r.CallsDelta, r.Name)
		assert.Equal(t, strings.Contains(text, " "+r.Name+"  ~\n"), r.WithinNoise, r.Name)
		if r.MinusSelf == 0 {
			assert.Nil(t, r.Ratio, r.Name)
		} else {
			require.NotNil(t, r.Ratio, r.Name)
			assert.InDelta(t, r.PlusSelf/r.MinusSelf, *r.Ratio, 1e-9, r.Name)
		}
	}

	tsv, _, code := runArgs(t, append(args, "--format=tsv")...)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSuffix(tsv, "\n"), "\n")
	require.Len(t, lines, 4+len(rows))
	assert.True(t, strings.HasPrefix(lines[0], "#plus\texecutable="+prog+"\t"))
	assert.Equal(t, "#scaling\tsum", lines[2])
	header := strings.Split(lines[3], "\t")
	for k, line := range lines[4:] {
		f := strings.Split(line, "\t")
		require.Len(t, f, len(header))
		assert.Equal(t, rows[k].name, f[0])
	}
	_, stderr, code = runArgs(t, "-b", "--format=tsv", prog, gmon, "--diff="+otherGmon, "--diff-exe="+other)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "--format=tsv applies to the impact table")
}

// TestFailIfSlower runs the CI gate on real pairs, with both outcomes; the
// expected verdicts follow from GNU gprof's totals and the samples.
func TestFailIfSlower(t *testing.T) {
	// The demo's second workload is heavier: 0.56 s against 0.36 s (gprof),
	// 0.20 s more, beyond 2 standard errors (2*sqrt(36+56)/100 = 0.19 s).
	plus, minus := gprofGraphTotal(t, demoProg, demoGmon), gprofGraphTotal(t, demoProg, demoGmon2)
	require.Greater(t, minus-plus, 2*math.Sqrt(100*(plus+minus))/100)
	_, stderr, code := runArgs(t, "-b", "-P", "-Q", "--fail-if-slower=10", demoProg, demoGmon, "--diff="+demoGmon2)
	assert.Equal(t, gateFailed, code)
	assert.Contains(t, stderr, fmt.Sprintf("the --diff run took %.2f s, the positional run %.2f s", minus, plus))
	// The other way round the --diff run is faster: the gate passes.
	_, stderr, code = runArgs(t, "-b", "-P", "-Q", "--fail-if-slower=10", demoProg, demoGmon2, "--diff="+demoGmon)
	assert.Equal(t, 0, code, stderr)
	// A larger allowance passes too: 55% more is under 60%.
	_, _, code = runArgs(t, "-b", "-P", "-Q", "--fail-if-slower=60", demoProg, demoGmon, "--diff="+demoGmon2)
	assert.Equal(t, 0, code)

	// -O0 against -O2: the -O2 build is no slower in all (0.28 s against
	// 0.30 s), but hanoi's self time grew from 0 to 0.12 s (12 samples,
	// beyond 2*sqrt(12)/100 = 0.07 s): 40% of the -O0 run.
	const prog, gmon = "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out"
	const other, otherGmon = "testdata/progs/recursion-O2/prog", "testdata/progs/recursion-O2/gmon.out"
	pair := []string{prog, gmon, "--diff=" + otherGmon, "--diff-exe=" + other}
	_, stderr, code = runArgs(t, append([]string{"-b", "-P", "-Q", "--fail-if-slower=5"}, pair...)...)
	assert.Equal(t, 0, code, stderr)
	_, stderr, code = runArgs(t, append([]string{"-b", "-P", "-Q", "--fail-if-slower=5,10"}, pair...)...)
	assert.Equal(t, gateFailed, code)
	assert.Contains(t, stderr, "--fail-if-slower: hanoi: self time 0.12 s against 0.00 s")
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "only hanoi: %s", stderr)
}

// gateVerdict is --fail-if-slower=PCT's exit status worked out from GNU
// gprof's totals of the two runs (seconds at 100 Hz): 3 when the '-' run
// took more than PCT percent longer than the '+' run and the growth is
// more than two standard errors (each total a Poisson count of samples),
// else 0. ok is false when the growth is within a sample of a limit,
// where gprof's rounding cannot tell.
func gateVerdict(plus, minus, pct float64) (code int, ok bool) {
	growth := minus - plus
	limit := math.Max(pct/100*plus, 2*math.Sqrt(100*(plus+minus))/100)
	if math.Abs(growth-limit) < 0.011 {
		return 0, false
	}
	if growth > limit {
		return gateFailed, true
	}
	return 0, true
}

// TestFailIfSlowerCxx runs the gate on the C++ program's -O0 and -O2
// builds, both ways, with the verdicts worked out from GNU gprof's totals.
func TestFailIfSlowerCxx(t *testing.T) {
	const o0, o2 = "testdata/progs/cxx/", "testdata/progs/cxx-O2/"
	failing := 0
	for _, g := range []string{"gmon.out", "gmon2.out"} {
		for _, pair := range [][2]string{{o0, o2}, {o2, o0}} {
			plus, minus := gprofGraphTotal(t, pair[0]+"prog", pair[0]+g), gprofGraphTotal(t, pair[1]+"prog", pair[1]+g)
			for _, pct := range []float64{0, 5, 20} {
				want, ok := gateVerdict(plus, minus, pct)
				if !ok {
					continue
				}
				_, stderr, code := runArgs(t, "-b", "-P", "-Q", fmt.Sprintf("--fail-if-slower=%g", pct),
					pair[0]+"prog", pair[0]+g, "--diff="+pair[1]+g, "--diff-exe="+pair[1]+"prog")
				assert.Equal(t, want, code, "%s%s against %s%s at %g%%: %.2f s and %.2f s: %s", pair[0], g, pair[1], g, pct, plus, minus, stderr)
			}
			// Per function, 10% of the '+' run: the functions whose self
			// time grew by more than that and than its noise, by gprof's
			// flat profiles (main's, where -O2 inlined step<T>).
			pf, mf := gprofFlat(t, pair[0]+"prog", pair[0]+g), gprofFlat(t, pair[1]+"prog", pair[1]+g)
			var want []string
			for name := range union(pf, mf) {
				grew := mf[name].self - pf[name].self
				noise := 2 * math.Sqrt(100*(mf[name].self+pf[name].self)) / 100
				if grew > 0.1*plus+0.011 && grew > noise+0.011 {
					want = append(want, name)
				}
			}
			_, stderr, code := runArgs(t, "-b", "-P", "-Q", "--no-demangle", "--fail-if-slower=1000,10",
				pair[0]+"prog", pair[0]+g, "--diff="+pair[1]+g, "--diff-exe="+pair[1]+"prog")
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if name, ok := strings.CutPrefix(line, "egprof: --fail-if-slower: "); ok {
					name, _, _ = strings.Cut(name, ":")
					got = append(got, name)
				}
			}
			sort.Strings(want)
			sort.Strings(got)
			assert.Equal(t, want, got, "%s%s against %s%s", pair[0], g, pair[1], g)
			if len(want) > 0 {
				assert.Equal(t, gateFailed, code)
				failing++
			}
		}
	}
	assert.Positive(t, failing, "some function grew beyond the limit")
}

// gprofSelf reads one function's self seconds from GNU gprof's flat
// profile of prog and gmons.
func gprofSelf(t *testing.T, name, prog string, gmons ...string) float64 {
	t.Helper()
	row, ok := gprofFlat(t, prog, gmons...)[name]
	require.True(t, ok, "%s not in gprof's flat profile", name)
	return row.self
}

// TestDiffScale compares two '+' runs with one '-' run: sums (with a
// warning), per-profile means, and '-' scaled to the total of '+'; the
// expected numbers come from GNU gprof's flat profiles and call graphs.
func TestDiffScale(t *testing.T) {
	d := "testdata/progs/"
	for _, pr := range []struct{ name, fn, plus, minus string }{
		{"C", "fib", d + "recursion/", d + "recursion-O2/"},
		{"C++", "_ZNK3geo6shapes6Circle4areaEv", d + "cxx/", d + "cxx-O2/"},
	} {
		t.Run(pr.name, func(t *testing.T) { checkDiffScale(t, pr.fn, pr.plus, pr.minus) })
	}
}

// checkDiffScale compares the two runs in folder plus (gmon.out and
// gmon2.out) with the first run in folder minus, each folder's prog the
// executable, and checks function fn.
func checkDiffScale(t *testing.T, fn, plusDir, minusDir string) {
	prog, g1, g2 := plusDir+"prog", plusDir+"gmon.out", plusDir+"gmon2.out"
	other, og := minusDir+"prog", minusDir+"gmon.out"
	impact := func(scale string) (render.ImpactData, string) {
		args := []string{"-b", "--impact", "--format=json", "--no-demangle", prog, g1, g2, "--diff=" + og, "--diff-exe=" + other}
		if scale != "" {
			args = append(args, "--diff-scale="+scale)
		}
		out, stderr, code := runArgs(t, args...)
		require.Equal(t, 0, code, stderr)
		var data render.ImpactData
		require.NoError(t, json.Unmarshal([]byte(out), &data))
		return data, stderr
	}
	row := func(data render.ImpactData, name string) render.ImpactRow {
		for _, r := range data.Rows {
			if r.Name == name {
				return r
			}
		}
		t.Fatalf("no row %s", name)
		return render.ImpactRow{}
	}
	fnSum := gprofSelf(t, fn, prog, g1, g2)
	fnEach := gprofSelf(t, fn, prog, g1) + gprofSelf(t, fn, prog, g2)
	require.InDelta(t, fnSum, fnEach, 0.011, "gprof's sum is the sum of its parts")
	fnMinus := gprofSelf(t, fn, other, og)

	sum, stderr := impact("")
	assert.Contains(t, stderr, "warning: '+' sums 2 profiles and '-' 1")
	assert.Equal(t, "sum", sum.Scaling)
	assert.InDelta(t, fnSum, row(sum, fn).PlusSelf, 0.005)
	assert.InDelta(t, fnMinus, row(sum, fn).MinusSelf, 0.005)

	mean, stderr := impact("mean")
	assert.Empty(t, stderr)
	assert.Equal(t, "mean", mean.Scaling)
	assert.InDelta(t, fnSum/2, row(mean, fn).PlusSelf, 0.005)
	assert.InDelta(t, fnMinus, row(mean, fn).MinusSelf, 0.005)
	assert.InDelta(t, gprofGraphTotal(t, prog, g1, g2)/2, mean.Plus.TotalSeconds, 0.006)

	total, _ := impact("total")
	assert.Equal(t, "total", total.Scaling)
	assert.InDelta(t, total.Plus.TotalSeconds, total.Minus.TotalSeconds, 1e-9)
	k := total.Plus.TotalSeconds / gprofGraphTotal(t, other, og)
	assert.InDelta(t, fnMinus*k, row(total, fn).MinusSelf, 0.005*k)
}
