package experiment

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// progs is the repository's test programs, relative to this package.
const progs = "../testdata/progs/"

// writeTable writes an experiment table into a temporary folder; paths in
// it are made absolute.
func writeTable(t testing.TB, rows ...string) string {
	t.Helper()
	abs, err := filepath.Abs(progs)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "exp.tsv")
	text := strings.ReplaceAll(strings.Join(rows, "\n")+"\n", "@", abs+"/")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o666))
	return path
}

// selfSeconds is a function's self time in one profile, straight from the
// call-graph model.
func selfSeconds(t *testing.T, binary, gmonFile, name string) float64 {
	t.Helper()
	tab, err := symtab.Load(binary, symtab.Options{})
	require.NoError(t, err)
	data, err := os.ReadFile(gmonFile)
	require.NoError(t, err)
	prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
	_, err = prof.AddData(data, gmonFile)
	require.NoError(t, err)
	g := callgraph.Build(tab, prof, callgraph.Options{})
	for i := 0; i < g.NumSyms; i++ {
		if g.Syms.Syms[i].Name == name {
			return g.Entries[i].Ticks / float64(g.HZ)
		}
	}
	t.Fatalf("%s not in %s", name, binary)
	return 0
}

// TestTwoBuilds runs the statistics over two builds of one program (-O0
// and -O2, aligned by name) and two workloads.
func TestTwoBuilds(t *testing.T) {
	if _, err := os.Stat(progs + "recursion-O2/prog"); err != nil {
		t.Skip("test programs not built")
	}
	path := writeTable(t,
		"gmon\tbinary\tbuild\tworkload",
		"@recursion/gmon.out\t@recursion/prog\tO0\t1",
		"@recursion/gmon2.out\t@recursion/prog\tO0\t2",
		"@recursion-O2/gmon.out\t@recursion-O2/prog\tO2\t1",
		"@recursion-O2/gmon2.out\t@recursion-O2/prog\tO2\t2")
	e, err := ReadTable(path, TableOptions{})
	require.NoError(t, err)
	for _, workers := range []int{1, 3} {
		res, err := Analyze(e, Config{Over: []string{"build", "workload"}, Threshold: 0, ShowNoise: true, Load: LoadOptions{Workers: workers}})
		require.NoError(t, err)
		require.Len(t, res.Perdac, 2)
		assert.Empty(t, res.Scala, "no procs and work columns")
		byBuild := res.Perdac[0]
		assert.Equal(t, "build", byBuild.Over)
		assert.Equal(t, []string{"workload"}, byBuild.Others)
		var fib *PerdacRow
		for i, r := range byBuild.Rows {
			if r.Name == "fib" && r.Metric == "self s" && r.Group[0] == "1" {
				fib = &byBuild.Rows[i]
			}
		}
		require.NotNil(t, fib)
		o0 := selfSeconds(t, progs+"recursion/prog", progs+"recursion/gmon.out", "fib")
		o2 := selfSeconds(t, progs+"recursion-O2/prog", progs+"recursion-O2/gmon.out", "fib")
		assert.Equal(t, 2, fib.N)
		assert.InDelta(t, (o0+o2)/2, fib.Mean, 1e-12)
		assert.Equal(t, min(o0, o2), fib.Min)
		assert.Equal(t, max(o0, o2), fib.Max)
		assert.Equal(t, "O2", fib.MinAt, "fib is faster with -O2 (%g against %g)", o2, o0)
		assert.Zero(t, fib.Absent)
		// Sampled at 100 Hz, a run's self time of v seconds is v·100
		// samples, a Poisson count: its noise variance is v/100 s².
		noise := math.Sqrt((o0 + o2) / 2 / 100)
		assert.InDelta(t, noise, fib.Noise, 1e-12)
		assert.Equal(t, math.Abs(o0-o2)/2 <= 2*noise, fib.WithinNoise, "spread %g s, noise %g s", math.Abs(o0-o2)/2, noise)
		// Every row's function exists; the rows are ordered by share.
		for k := 1; k < len(byBuild.Rows); k++ {
			assert.GreaterOrEqual(t, byBuild.Rows[k-1].Share, byBuild.Rows[k].Share)
		}
	}
}

// A run's samples are its time times the rate, without the float residue
// of dividing and multiplying back (the TSV output printed 14.000000000000002):
// the programs' functions are aligned to whole bins, so every count is a
// whole number of samples.
func TestRunSamplesWhole(t *testing.T) {
	if _, err := os.Stat(progs + "recursion/prog"); err != nil {
		t.Skip("test programs not built")
	}
	path := writeTable(t,
		"gmon\tbinary\tprocs\twork",
		"@recursion/gmon.out\t@recursion/prog\t1\t1",
		"@recursion/gmon2.out\t@recursion/prog\t1\t2",
		"@cycles/gmon.out\t@cycles/prog\t2\t1",
		"@cycles/gmon2.out\t@cycles/prog\t2\t2")
	e, err := ReadTable(path, TableOptions{})
	require.NoError(t, err)
	res, err := Analyze(e, Config{ProcsDim: "procs", WorkDim: "work"})
	require.NoError(t, err)
	require.Len(t, res.Scala, 1)
	require.Len(t, res.Scala[0].Points, 4)
	for _, p := range res.Scala[0].Points {
		assert.InDelta(t, p.T*100, p.Samples, 1e-6, "%+v", p)
		assert.Equal(t, math.Round(p.Samples), p.Samples, "%+v", p)
	}
	// 14 samples at 100 Hz are 0.14 s, and 0.14·100 is 14.000000000000002
	// in floating point; a rank whose time is 7.5 samples (shared bins)
	// keeps its half sample.
	for _, tc := range []struct {
		seconds []float64
		r       Reduction
		want    float64
	}{
		{[]float64{14.0 / 100}, ReduceMax, 14},
		{[]float64{14.0 / 100, 3.0 / 100}, ReduceSum, 17},
		{[]float64{14.0 / 100, 7.0 / 100, 7.0 / 100}, ReduceMean, 28},
		{[]float64{7.5 / 100}, ReduceMax, 7.5},
	} {
		rt := &runTimes{total: make([]Acc, 1), hz: []float64{100}}
		for k, v := range tc.seconds {
			rt.total[0].Add(v, k)
		}
		assert.Equal(t, tc.want, rt.samples(0, &rt.total[0], tc.r), "%v", tc.seconds)
	}
}

// TestMismatchedBinary checks that a profile listed with another program's
// executable is refused with the table's line and column.
func TestMismatchedBinary(t *testing.T) {
	if _, err := os.Stat(progs + "cycles/prog"); err != nil {
		t.Skip("test programs not built")
	}
	path := writeTable(t,
		"gmon\tbinary\trun",
		"@recursion/gmon.out\t@recursion/prog\ta",
		"@cxx/gmon.out\t@recursion/prog\tb")
	e, err := ReadTable(path, TableOptions{})
	require.NoError(t, err)
	_, err = Analyze(e, Config{Over: []string{"run"}})
	require.Error(t, err)
	var te *TableError
	require.True(t, errors.As(err, &te))
	assert.Equal(t, 3, te.Line)
	assert.Equal(t, 2, te.Column)
	assert.Contains(t, err.Error(), "column 2 (binary): ")
	assert.Contains(t, err.Error(), "do not belong together")
	t.Log(err)

	path = writeTable(t,
		"gmon\tbinary\trun",
		"@recursion/gmon.out\t@recursion/prog\ta",
		"@recursion/build.sh\t@recursion/prog\tb")
	e, err = ReadTable(path, TableOptions{})
	require.NoError(t, err)
	_, err = Analyze(e, Config{Over: []string{"run"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), ":3: column 1 (gmon): ")
	t.Log(err)
}

// TestAnalyzeOptionErrors checks the configuration errors.
func TestAnalyzeOptionErrors(t *testing.T) {
	if _, err := os.Stat(progs + "recursion/prog"); err != nil {
		t.Skip("test programs not built")
	}
	path := writeTable(t,
		"gmon\tbinary\trun\tprocs",
		"@recursion/gmon.out\t@recursion/prog\ta\tone",
		"@recursion/gmon2.out\t@recursion/prog\tb\ttwo")
	e, err := ReadTable(path, TableOptions{})
	require.NoError(t, err)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Over: []string{"library"}}, `no dimension "library" to compute statistics over (dimensions: run, procs)`},
		{Config{ProcsDim: "procs", WorkDim: "work", RequireScala: true}, `no "work" column for the scalability analysis`},
		{Config{ProcsDim: "procs", WorkDim: "run", RequireScala: true}, `column "procs" must hold numbers`},
		{Config{CompareDim: "build"}, `no "build" column to compare`},
	} {
		_, err := Analyze(e, tc.cfg)
		assert.ErrorContains(t, err, tc.want)
	}
}

// TestModelOnlyGraph checks that the call graph built without its display
// orders (as the experiment builds one per profile) has the same times
// and counts as the full one, cycles and recursion included.
func TestModelOnlyGraph(t *testing.T) {
	bins, _ := filepath.Glob(progs + "*/prog")
	for _, bin := range bins {
		tab, err := symtab.Load(bin, symtab.Options{})
		require.NoError(t, err)
		data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), "gmon.out"))
		require.NoError(t, err)
		prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
		_, err = prof.AddData(data, "gmon.out")
		require.NoError(t, err)
		full := callgraph.Build(tab, prof, callgraph.Options{})
		lean := callgraph.Build(tab, prof, callgraph.Options{ModelOnly: true})
		require.Equal(t, len(full.Entries), len(lean.Entries), bin)
		for i := range full.Entries {
			f, l := &full.Entries[i], &lean.Entries[i]
			assert.Equal(t, f.Ticks, l.Ticks, "%s entry %d", bin, i)
			assert.Equal(t, f.NCalls, l.NCalls, "%s entry %d", bin, i)
			assert.Equal(t, f.PropSelf, l.PropSelf, "%s entry %d", bin, i)
			assert.Equal(t, f.PropChild, l.PropChild, "%s entry %d", bin, i)
		}
		assert.Equal(t, full.TotalTime, lean.TotalTime, bin)
	}
}
