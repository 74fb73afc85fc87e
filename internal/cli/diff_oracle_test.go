package cli

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testenv"
)

// gprofFlatRow is one row of GNU gprof's flat profile.
type gprofFlatRow struct {
	self  float64
	calls uint64
}

// gprofFlat runs GNU gprof -b -p --no-demangle and reads its rows by name.
func gprofFlat(t *testing.T, prog string, gmonFiles ...string) map[string]gprofFlatRow {
	t.Helper()
	args := append([]string{"-b", "-p", "--no-demangle", prog}, gmonFiles...)
	out := testenv.Output(t, testenv.Gprof(t), "", args...)
	parsed, err := testenv.ParseFlat(out)
	require.NoError(t, err, out)
	rows := map[string]gprofFlatRow{}
	for _, r := range parsed {
		_, dup := rows[r.Name]
		require.False(t, dup, "same-named functions are not used in this test: %s", r.Name)
		rows[r.Name] = gprofFlatRow{r.Self, r.Calls}
	}
	return rows
}

// impactRow is one row of egprof's impact table.
type impactRow struct {
	share, plus, minus, diff float64
	plusCalls, minusCalls    string
	callsDiff                int64
	sym, name                string
}

func parseImpact(t *testing.T, out string) []impactRow {
	t.Helper()
	var rows []impactRow
	lines := strings.Split(out, "\n")
	// The sides come first: "'+' (...)", "'-' (...)", "compared: ..." and
	// a blank line.
	require.True(t, len(lines) > 8, out)
	require.True(t, strings.HasPrefix(lines[0], "'+' (") && strings.HasPrefix(lines[1], "'-' (") &&
		strings.HasPrefix(lines[2], "compared: ") && lines[3] == "", out)
	lines = lines[4:]
	require.True(t, strings.HasPrefix(lines[0], "Differential profile"), out)
	for _, line := range lines[4:] {
		if strings.HasPrefix(line, "\f") {
			break // the call graph follows
		}
		if line == "" {
			continue
		}
		line = strings.TrimSuffix(line, "  ~")
		f := strings.Fields(line[:74])
		require.Len(t, f, 8, line)
		num := func(s string) float64 {
			if s == "-" {
				return 0
			}
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err, line)
			return v
		}
		cd, err := strconv.ParseInt(f[6], 10, 64)
		require.NoError(t, err)
		rows = append(rows, impactRow{num(f[0]), num(f[1]), num(f[2]), num(f[3]), f[4], f[5], cd, f[7], line[74:]})
	}
	return rows
}

// TestImpactAgainstGprofFlatProfiles checks the impact table against the
// arithmetic over GNU gprof's own flat profiles of the two sides: self
// seconds and calls per function, the difference, the impact share and the
// order. gprof prints seconds to two decimals, so seconds agree to 0.005 per
// side and differences to 0.01.
func TestImpactAgainstGprofFlatProfiles(t *testing.T) {
	testenv.Need(t, "gprof")
	type pair struct{ name, plusProg, plusGmon, minusProg, minusGmon string }
	d := "testdata/progs/"
	pairs := []pair{
		{"same binary, two workloads", d + "cycles/prog", d + "cycles/gmon.out", "", d + "cycles/gmon2.out"},
		{"same binary, demo", "testdata/demo/prog", "testdata/demo/gmon.out", "", "testdata/demo/gmon2.out"},
		{"two ranks", d + "ranks/prog", d + "ranks/gmon.out", "", d + "ranks/gmon2.out"},
		{"-O0 against -O2", d + "recursion/prog", d + "recursion/gmon.out", d + "recursion-O2/prog", d + "recursion-O2/gmon.out"},
		{"-O2 against -O0", d + "recursion-O2/prog", d + "recursion-O2/gmon2.out", d + "recursion/prog", d + "recursion/gmon2.out"},
		{"C++ two workloads", d + "cxx/prog", d + "cxx/gmon.out", "", d + "cxx/gmon2.out"},
	}
	for _, pr := range pairs {
		t.Run(pr.name, func(t *testing.T) {
			checkImpact(t, pr.plusProg, pr.plusGmon, pr.minusProg, pr.minusGmon)
		})
	}
}

func callsText(n uint64) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatUint(n, 10)
}

func union(a, b map[string]gprofFlatRow) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// checkImpact compares egprof's impact table of plus minus minus with the
// arithmetic over GNU gprof's flat profiles of the two sides. minusProg ""
// means the same executable.
func checkImpact(t *testing.T, plusProg, plusGmon, minusProg, minusGmon string) {
	t.Helper()
	args := []string{"-b", "--impact", "--no-demangle", "--noise=off", plusProg, plusGmon, "--diff=" + minusGmon}
	if minusProg != "" {
		args = append(args, "--diff-exe="+minusProg)
	} else {
		minusProg = plusProg
	}
	res := testenv.RunMain(run, append([]string{"gprof"}, args...)...)
	require.Equal(t, 0, res.Code, res.Stderr)
	rows := parseImpact(t, res.Stdout)
	plus := gprofFlat(t, plusProg, plusGmon)
	minus := gprofFlat(t, minusProg, minusGmon)

	seen := map[string]bool{}
	total := 0.0
	for name := range union(plus, minus) {
		total += math.Abs(plus[name].self - minus[name].self)
	}
	for k, r := range rows {
		p, inPlus := plus[r.name]
		m, inMinus := minus[r.name]
		seen[r.name] = true
		if !inPlus && !inMinus {
			// Kept because arcs touch it; it has no data on either side.
			assert.Equal(t, "-", r.plusCalls, r.name)
			assert.Equal(t, "-", r.minusCalls, r.name)
			assert.Zero(t, r.diff, r.name)
			continue
		}
		assert.InDelta(t, p.self, r.plus, 0.0051, "%s +self", r.name)
		assert.InDelta(t, m.self, r.minus, 0.0051, "%s -self", r.name)
		assert.InDelta(t, p.self-m.self, r.diff, 0.0101, "%s diff", r.name)
		assert.Equal(t, int64(p.calls)-int64(m.calls), r.callsDiff, "%s calls diff", r.name)
		assert.Equal(t, callsText(p.calls), r.plusCalls, r.name)
		assert.Equal(t, callsText(m.calls), r.minusCalls, r.name)
		if total > 0 {
			tol := 100 * 0.0101 * float64(1+len(rows)) / total
			assert.InDelta(t, 100*(p.self-m.self)/total, r.share, tol, "%s share", r.name)
		}
		if k > 0 {
			assert.GreaterOrEqual(t, math.Abs(rows[k-1].diff)+0.0201, math.Abs(r.diff), "order at %s", r.name)
		}
	}
	for name := range union(plus, minus) {
		assert.True(t, seen[name], "gprof lists %s on one side but the impact table does not", name)
	}
}

// TestImpactLive runs the same comparison on random programs built here:
// each program's -O0 build against its -O2 build (two executables), and
// two runs of the -O0 build (one executable); checks the functions their
// pruned differential call graphs draw (see checkPairGraph) and the CI
// gate's verdicts against GNU gprof's totals. (Whether the -O2 profile is
// refused against the -O0 executable depends on how far the builds'
// layouts differ: a small random program's may not, so that is tested on
// the checked-in pairs, TestForeignProfile.)
func TestImpactLive(t *testing.T) {
	testenv.Need(t, "gprof", "gcc")
	for seed := int64(7001); seed < 7005; seed++ {
		t.Run(strconv.FormatInt(seed, 10), func(t *testing.T) {
			t.Parallel()
			prog, err := progen.Generate(seed, progen.DefaultConfig())
			require.NoError(t, err)
			ctx := context.Background()
			build := func(opt string) (bin, gmon1, gmon2 string) {
				dir := t.TempDir()
				bin, err := prog.Build(ctx, dir, progen.BuildOptions{Opt: opt})
				require.NoError(t, err)
				g, err := progen.RunForProfile(ctx, dir, bin)
				require.NoError(t, err)
				gmon1 = filepath.Join(dir, "run1.out")
				require.NoError(t, os.Rename(g, gmon1))
				g, err = progen.RunForProfile(ctx, dir, bin)
				require.NoError(t, err)
				return bin, gmon1, g
			}
			bin0, a0, b0 := build("-O0")
			bin2, a2, _ := build("-O2")
			t.Run("-O0 against -O2", func(t *testing.T) { checkImpact(t, bin0, a0, bin2, a2) })
			t.Run("two runs", func(t *testing.T) { checkImpact(t, bin0, a0, "", b0) })
			t.Run("graph -O0 against -O2", func(t *testing.T) { checkPairGraph(t, bin0, a0, bin2, a2) })
			t.Run("graph of two runs", func(t *testing.T) { checkPairGraph(t, bin0, a0, bin0, b0) })
			t.Run("gate", func(t *testing.T) {
				plus, minus := gprofGraphTotal(t, bin0, a0), gprofGraphTotal(t, bin2, a2)
				for _, pct := range []float64{0, 10} {
					for _, dir := range [][4]string{{bin0, a0, bin2, a2}, {bin2, a2, bin0, a0}} {
						p, m := plus, minus
						if dir[0] == bin2 {
							p, m = minus, plus
						}
						want, ok := gateVerdict(p, m, pct)
						if !ok {
							continue
						}
						res := testenv.RunMain(run, "egprof", "-b", "-P", "-Q", fmt.Sprintf("--fail-if-slower=%g", pct),
							dir[0], dir[1], "--diff="+dir[3], "--diff-exe="+dir[2])
						assert.Equal(t, want, res.Code, "%.2f s against %.2f s at %g%%: %s", p, m, pct, res.Stderr)
					}
				}
			})
		})
	}
}
