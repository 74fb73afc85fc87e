package cli

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/testenv"
	"github.com/egprof/egprof/render/pprof"
	"github.com/egprof/egprof/symtab"
)

// The end-to-end checks of --pprof run the real pprof (go tool pprof, which
// ships with Go) on egprof's exports and compare what it shows with the
// reports of GNU gprof (its recorded goldens) and of egprof.

// ppTopRowValues is one function as pprof -top shows it: flat and cum in the
// sample type's unit (milliseconds for cpu, with -unit=ms).
type ppTopRowValues struct{ flat, cum float64 }

var ppTopRow = regexp.MustCompile(`^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.+)$`)

// ppTop runs pprof -top for one sample type, every node kept (no node
// count or fraction trimming), on the profile args name, and returns the
// rows by name.
func ppTop(t *testing.T, sampleType string, args ...string) map[string]ppTopRowValues {
	t.Helper()
	out := testenv.Output(t, testenv.GoTool(t), "", append([]string{"tool", "pprof", "-top", "-nodecount=1000", "-nodefraction=0", "-edgefraction=0", "-unit=ms", "-sample_index=" + sampleType}, args...)...)
	rows := map[string]ppTopRowValues{}
	header := false
	for _, line := range strings.Split(out, "\n") {
		if !header {
			header = strings.HasPrefix(strings.TrimSpace(line), "flat  flat%")
			continue
		}
		if line == "" {
			continue
		}
		m := ppTopRow.FindStringSubmatch(line)
		require.NotNil(t, m, "pprof -top line %q", line)
		_, dup := rows[m[3]]
		require.False(t, dup, "pprof lists %s twice", m[3])
		rows[m[3]] = ppTopRowValues{ppValue(t, m[1]), ppValue(t, m[2])}
	}
	require.True(t, header, "pprof -top output:\n%s", out)
	return rows
}

var ppValueUnit = regexp.MustCompile(`^(-?[0-9.e+]+)([a-zµ]*)$`)

// ppValue reads a value pprof printed: a number with an optional time
// unit, in milliseconds.
func ppValue(t *testing.T, s string) float64 {
	t.Helper()
	m := ppValueUnit.FindStringSubmatch(s)
	require.NotNil(t, m, "pprof value %q", s)
	v, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err, s)
	scale := map[string]float64{"": 1, "ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1e3}
	f, ok := scale[m[2]]
	require.True(t, ok, "unit of %q", s)
	return v * f
}

// ppRawProfile is pprof -raw's view: the samples (values and function
// names, leaf first) and the mapping's build ID.
type ppRawProfile struct {
	samples []ppRawSample
	buildID string
}

type ppRawSample struct {
	values [3]int64
	stack  []string
}

var (
	ppRawSampleLine = regexp.MustCompile(`^\s*(-?\d+)\s+(-?\d+)\s+(-?\d+):\s+([\d ]+)$`)
	ppRawLocLine    = regexp.MustCompile(`^\s*(\d+): 0x[0-9a-f]+ M=\d+ (.+) (\S*):-?\d+:-?\d+ s=-?\d+(?:\(\S+\))?$`)
	ppRawMapLine    = regexp.MustCompile(`^\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ \S+ ([0-9a-f]*) ?\[`)
)

// ppRaw runs pprof -raw on the export and reads it.
func ppRaw(t *testing.T, file string) ppRawProfile {
	t.Helper()
	out := testenv.Output(t, testenv.GoTool(t), "", "tool", "pprof", "-raw", file)
	var r ppRawProfile
	var stacks [][]string
	locs := map[string]string{}
	section := ""
	for _, line := range strings.Split(out, "\n") {
		switch line {
		case "Samples:", "Locations", "Mappings":
			section = line
			continue
		}
		switch section {
		case "Samples:":
			m := ppRawSampleLine.FindStringSubmatch(line)
			if m == nil {
				continue // the sample types line
			}
			var s ppRawSample
			for k := range s.values {
				v, err := strconv.ParseInt(m[k+1], 10, 64)
				require.NoError(t, err)
				s.values[k] = v
			}
			r.samples = append(r.samples, s)
			stacks = append(stacks, strings.Fields(m[4]))
		case "Locations":
			if m := ppRawLocLine.FindStringSubmatch(line); m != nil {
				locs[m[1]] = m[2]
			}
		case "Mappings":
			if m := ppRawMapLine.FindStringSubmatch(line); m != nil {
				r.buildID = m[1]
			}
		}
	}
	require.NotEmpty(t, r.samples, "pprof -raw output:\n%s", out)
	for i, ids := range stacks {
		for _, id := range ids {
			name, ok := locs[id]
			require.True(t, ok, "location %s", id)
			r.samples[i].stack = append(r.samples[i].stack, name)
		}
	}
	return r
}

// ppGprofFunc is one function of a gprof report (-b, flat profile and call
// graph): self seconds and calls from the flat profile, self and children
// seconds from the call graph's primary line.
type ppGprofFunc struct {
	self, graphSelf, children float64
	calls                     uint64
	inFlat, inGraph, inCycle  bool
}

// ppParseGprof reads a gprof -b report holding the flat profile and the call
// graph. Same-named functions (statics of different files) are listed
// under their name once per function.
func ppParseGprof(t *testing.T, report string) map[string][]*ppGprofFunc {
	t.Helper()
	funcs := map[string][]*ppGprofFunc{}
	require.True(t, strings.HasPrefix(report, "Flat profile:"), report)
	flat, err := testenv.ParseFlat(report)
	require.NoError(t, err, report)
	require.NotEmpty(t, flat)
	for _, r := range flat {
		funcs[r.Name] = append(funcs[r.Name], &ppGprofFunc{self: r.Self, calls: r.Calls, inFlat: true})
	}
	entries, err := testenv.ParseCallGraph(report)
	require.NoError(t, err, report)
	// A primary line pairs with a flat row of its name and self time
	// (same-named functions with equal self times are interchangeable
	// here: they are compared as sums).
	for _, e := range entries {
		if e.WholeCycle {
			continue
		}
		var fn *ppGprofFunc
		for _, f := range funcs[e.Name] {
			if !f.inGraph && math.Abs(f.self-e.Self) < 1e-9 {
				fn = f
				break
			}
		}
		if fn == nil {
			fn = &ppGprofFunc{}
			funcs[e.Name] = append(funcs[e.Name], fn)
		}
		fn.inGraph, fn.inCycle, fn.graphSelf, fn.children = true, e.Cycle != 0, e.Self, e.Children
		if called, _, _ := strings.Cut(e.Called, "+"); called != "" && !fn.inFlat {
			fn.calls, err = strconv.ParseUint(called, 10, 64)
			require.NoError(t, err)
		}
	}
	return funcs
}

// ppBaseName maps a name pprof shows to gprof's: same-named statics carry
// their file in the export, "helper (a.c)", as in gprof's index.
func ppBaseName(name string, gprofNames map[string][]*ppGprofFunc) string {
	if _, ok := gprofNames[name]; ok {
		return name
	}
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		if fs := gprofNames[name[:i]]; len(fs) > 1 {
			return name[:i]
		}
	}
	return name
}

// Tolerances: gprof prints seconds to two decimals (0.005 s of rounding),
// pprof milliseconds to two decimals.
const (
	ppPrintedSecond = 0.005 + 1e-6
	ppPrintedMilli  = 0.005 + 1e-9
)

// TestPProfExportAgainstGprof exports every testdata profile and checks
// what pprof shows against the flat profile and call graph: the same
// functions, flat = gprof's self seconds, cum = self + children outside
// cycles, calls = gprof's calls. For gmon.out the report is GNU gprof's
// golden; for gmon2.out egprof's own (which the goldens tests hold to
// gprof's).
func TestPProfExportAgainstGprof(t *testing.T) {
	testenv.GoTool(t)
	for _, dir := range testenv.Programs(t) {
		for _, gm := range []string{"gmon.out", "gmon2.out"} {
			t.Run(filepath.Base(dir)+"/"+gm, func(t *testing.T) {
				t.Parallel()
				prog, gmonFile := filepath.Join(dir, "prog"), filepath.Join(dir, gm)
				file := filepath.Join(t.TempDir(), "cpu.pb.gz")
				report := testenv.RunMain(run, "gprof", "-b", "--pprof="+file, prog, gmonFile).OK(t)
				if gm == "gmon.out" {
					golden := readGolden(t, filepath.Join("testdata/golden", filepath.Base(dir), "default.out"))
					require.Equal(t, golden, report, "--pprof leaves the report alone")
				}
				ppCheckSingleExport(t, ppParseGprof(t, report), file, prog)
			})
		}
	}
}

// ppCheckSingleExport compares pprof's views of the export file (-top for
// cpu and calls, -raw) with the gprof report's functions, and the build ID
// pprof read with readelf's.
func ppCheckSingleExport(t *testing.T, want map[string][]*ppGprofFunc, file, prog string) {
	t.Helper()
	cpu := ppTop(t, "cpu", file)
	calls := ppTop(t, "calls", file)
	raw := ppRaw(t, file)

	// Sum pprof's rows per gprof name (same-named statics are one name in
	// gprof's flat profile).
	type sums struct {
		flat, cum, calls float64
		n                int
	}
	got := map[string]*sums{}
	at := func(name string) *sums {
		b := ppBaseName(name, want)
		if got[b] == nil {
			got[b] = &sums{}
		}
		return got[b]
	}
	names := map[string]bool{}
	for name, r := range cpu {
		s := at(name)
		s.flat += r.flat
		s.cum += r.cum
		names[name] = true
	}
	for name, r := range calls {
		at(name).calls += r.flat
		names[name] = true
	}
	for name := range names {
		at(name).n++
	}

	// The same functions: every flat-profile row is in pprof, and every
	// function pprof shows with flat time or calls is in the flat profile
	// (pprof also lists callers with cum only, like main).
	for name, fs := range want {
		nFlat := 0
		for _, f := range fs {
			if f.inFlat {
				nFlat++
			}
		}
		if nFlat > 0 {
			require.Contains(t, got, name, "flat-profile function in pprof")
			// pprof shows same-named functions as one unless the export
			// told them apart by file.
			assert.True(t, got[name].n == 1 || got[name].n == len(fs), "%s: %d functions of that name, pprof shows %d", name, len(fs), got[name].n)
		}
	}
	for name, s := range got {
		if s.flat != 0 || s.calls != 0 {
			assert.Contains(t, want, name, "pprof function with flat time or calls is in the flat profile")
		}
	}
	for name, fs := range want {
		s := got[name]
		if s == nil {
			continue
		}
		self, total, ncalls, cyc := 0.0, 0.0, uint64(0), false
		for _, f := range fs {
			self += f.self
			total += f.graphSelf + f.children
			ncalls += f.calls
			cyc = cyc || f.inCycle || !f.inGraph
		}
		n := float64(len(fs))
		assert.InDelta(t, self, s.flat/1000, n*(ppPrintedSecond+ppPrintedMilli/1000), "%s: flat = self seconds", name)
		assert.Equal(t, float64(ncalls), s.calls, "%s: calls", name)
		if !cyc && s.n == len(fs) {
			assert.InDelta(t, total, s.cum/1000, n*(2*ppPrintedSecond+ppPrintedMilli/1000), "%s: cum = self + children", name)
		}
	}

	// -raw: the values pprof -top shows add up from the samples, and no
	// stack passes a function outside cycles twice.
	rawFlat, rawCum := map[string]float64{}, map[string]float64{}
	for _, s := range raw.samples {
		rawFlat[s.stack[0]] += float64(s.values[1])
		seen := map[string]bool{}
		for _, name := range s.stack {
			if seen[name] {
				// Only cycle members, and same-named functions pprof
				// sees as one, can be twice in a stack.
				b := ppBaseName(name, want)
				cyc := got[b].n < len(want[b])
				for _, f := range want[b] {
					cyc = cyc || f.inCycle
				}
				assert.True(t, cyc, "%s twice in a stack %v", name, s.stack)
				continue
			}
			seen[name] = true
			rawCum[name] += float64(s.values[1])
		}
	}
	for name, r := range cpu {
		assert.InDelta(t, rawFlat[name]/1e6, r.flat, ppPrintedMilli, "%s: -raw flat", name)
		assert.InDelta(t, rawCum[name]/1e6, r.cum, ppPrintedMilli, "%s: -raw cum", name)
	}
	if testenv.Has("readelf") {
		notes := testenv.Output(t, "readelf", "", "-n", prog)
		if m := regexp.MustCompile(`Build ID: ([0-9a-f]+)`).FindStringSubmatch(notes); m != nil {
			assert.Equal(t, m[1], raw.buildID, "build ID")
		}
	}
}

// ppImpactRow is one row of egprof's impact table: the self-seconds and
// calls deltas.
type ppImpactRow struct {
	diff  float64
	calls int64
}

// ppParseImpactTable reads egprof's impact table (-b --impact -Q), rows
// summed per name.
func ppParseImpactTable(t *testing.T, out string) map[string]*ppImpactRow {
	t.Helper()
	rows := map[string]*ppImpactRow{}
	for _, r := range parseImpact(t, out) {
		if rows[r.name] == nil {
			rows[r.name] = &ppImpactRow{}
		}
		rows[r.name].diff += r.diff
		rows[r.name].calls += r.callsDiff
	}
	return rows
}

// ppDiffPairs are the differential profiles checked: runs of one
// executable and two builds of one source.
var ppDiffPairs = []struct{ name, plusProg, plusGmon, minusGmon, minusExe string }{
	{"demo-runs", "testdata/demo/prog", "testdata/demo/gmon.out", "testdata/demo/gmon2.out", ""},
	{"cycles-runs", "testdata/progs/cycles/prog", "testdata/progs/cycles/gmon.out", "testdata/progs/cycles/gmon2.out", ""},
	{"multifile-runs", "testdata/progs/multifile/prog", "testdata/progs/multifile/gmon.out", "testdata/progs/multifile/gmon2.out", ""},
	{"ranks", "testdata/progs/ranks/prog", "testdata/progs/ranks/gmon.out", "testdata/progs/ranks/gmon2.out", ""},
	{"recursion-builds", "testdata/progs/recursion/prog", "testdata/progs/recursion/gmon.out", "testdata/progs/recursion-O2/gmon.out", "testdata/progs/recursion-O2/prog"},
	{"cxx-builds", "testdata/progs/cxx/prog", "testdata/progs/cxx/gmon.out", "testdata/progs/cxx-O2/gmon.out", "testdata/progs/cxx-O2/prog"},
}

// TestPProfDiffExportAgainstImpact exports differential profiles and
// checks pprof's signed flat values against egprof's impact table: flat =
// the self-seconds delta, calls = the calls delta. Rows whose deltas are
// all zero have no samples (pprof drops all-zero samples); the others are
// all in pprof. It also checks that pprof's own -diff_base over two single
// exports shows the same flat values.
func TestPProfDiffExportAgainstImpact(t *testing.T) {
	testenv.GoTool(t)
	for _, pr := range ppDiffPairs {
		t.Run(pr.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			file := filepath.Join(tmp, "diff.pb.gz")
			args := []string{"-b", "--impact", "-Q", "--pprof=" + file, pr.plusProg, pr.plusGmon, "--diff=" + pr.minusGmon}
			minusProg := pr.plusProg
			if pr.minusExe != "" {
				args = append(args, "--diff-exe="+pr.minusExe)
				minusProg = pr.minusExe
			}
			impact := ppParseImpactTable(t, testenv.RunMain(run, append([]string{"gprof"}, args...)...).OK(t))
			cpu := ppTop(t, "cpu", file)
			calls := ppTop(t, "calls", file)
			flat := map[string]float64{}
			ncalls := map[string]float64{}
			for name, r := range cpu {
				flat[ppImpactName(name, impact)] += r.flat
			}
			for name, r := range calls {
				ncalls[ppImpactName(name, impact)] += r.flat
			}
			for name, row := range impact {
				assert.InDelta(t, row.diff, flat[name]/1000, ppPrintedSecond+ppPrintedMilli, "%s: flat = self delta", name)
				assert.Equal(t, float64(row.calls), ncalls[name], "%s: calls delta", name)
			}
			for name := range flat {
				if flat[name] != 0 || ncalls[name] != 0 {
					assert.Contains(t, impact, name, "pprof function with a delta is in the impact table")
				}
			}

			// The same view from two single exports and pprof's -diff_base.
			plusFile, minusFile := filepath.Join(tmp, "plus.pb.gz"), filepath.Join(tmp, "minus.pb.gz")
			testenv.RunMain(run, "gprof", "-b", "-p", "--pprof="+plusFile, pr.plusProg, pr.plusGmon).OK(t)
			testenv.RunMain(run, "gprof", "-b", "-p", "--pprof="+minusFile, minusProg, pr.minusGmon).OK(t)
			based := ppTop(t, "cpu", "-diff_base="+minusFile, plusFile)
			for name, r := range cpu {
				if r.flat != 0 {
					assert.InDelta(t, r.flat, based[name].flat, 0.01+1e-9, "%s: -diff_base flat", name)
				}
			}
		})
	}
}

// ppImpactName maps a pprof name to the impact table's (same-named statics
// carry their file in the export).
func ppImpactName(name string, impact map[string]*ppImpactRow) string {
	if _, ok := impact[name]; ok {
		return name
	}
	if i := strings.LastIndex(name, " ("); i > 0 && strings.HasSuffix(name, ")") {
		if _, ok := impact[name[:i]]; ok {
			return name[:i]
		}
	}
	return name
}

// TestPProfOutputFile checks how --pprof writes its file: a file that
// exists is replaced, and a path that cannot be written fails the run with
// the option named, leaving nothing behind.
func TestPProfOutputFile(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.pb.gz")
	require.NoError(t, os.WriteFile(existing, []byte("old"), 0o644))
	tests := []struct {
		name, path string
		wantCode   int
	}{
		{"new file", filepath.Join(dir, "new.pb.gz"), 0},
		{"existing file replaced", existing, 0},
		{"a directory", dir, 1},
		{"missing directory", filepath.Join(dir, "no", "such.pb.gz"), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := testenv.RunMain(run, "gprof", "-P", "-Q", "--pprof="+tc.path, "testdata/demo/prog", "testdata/demo/gmon.out")
			require.Equal(t, tc.wantCode, res.Code, res.Stderr)
			if tc.wantCode != 0 {
				assert.Contains(t, res.Stderr, "--pprof="+tc.path+": ")
				return
			}
			assert.Empty(t, res.Stderr)
			f, err := os.Open(tc.path)
			require.NoError(t, err)
			defer f.Close()
			p, err := profile.Parse(f)
			require.NoError(t, err)
			assert.Equal(t, "cpu", p.DefaultSampleType)
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"new.pb.gz", "old.pb.gz"}, names, "no temporary file left")
}

// BenchmarkPProfExport measures egprof --pprof on the large synthetic
// profile (about 20,000 functions and 100,000 arcs with cycles): loading,
// the call graph and the export, no text report. It reports the bounds'
// effect: samples written, bundles routed whole and the share of self
// time on such stacks.
func BenchmarkPProfExport(b *testing.B) {
	files := benchProfile(b)
	out := filepath.Join(b.TempDir(), "cpu.pb.gz")
	ppBenchPProf(b, []string{"gprof", "-P", "-Q", "--pprof=" + out, files.Binary, files.Gmon}, out, files.Binary, files.Gmon, "")
}

// BenchmarkPProfDiffExport measures the differential export of two
// synthetic runs.
func BenchmarkPProfDiffExport(b *testing.B) {
	files := benchProfile(b)
	second := secondRun(b, files)
	out := filepath.Join(b.TempDir(), "diff.pb.gz")
	ppBenchPProf(b, []string{"gprof", "-P", "-Q", "--pprof=" + out, files.Binary, files.Gmon, "--diff=" + second}, out, files.Binary, files.Gmon, second)
}

// ppBenchPProf times the command argv, which writes the export out, and
// reports the export's figures as metrics.
func ppBenchPProf(b *testing.B, argv []string, out, exe, gmonFile, minusGmon string) {
	var stderr bytes.Buffer
	require.Zero(b, run(argv, strings.NewReader(""), io.Discard, &stderr), stderr.String())
	st := ppSynthStats(b, exe, gmonFile, minusGmon)
	fi, err := os.Stat(out)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		run(argv, strings.NewReader(""), io.Discard, io.Discard)
	}
	b.ReportMetric(float64(st.Samples), "samples")
	b.ReportMetric(float64(st.Deepest), "max-frames")
	b.ReportMetric(float64(st.Routed), "routed-bundles")
	b.ReportMetric(100*st.RoutedTime/st.TotalTime, "%time-routed")
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
	b.Logf("bounds: MinWeight %g, MaxDepth %d: %v", st.MinWeight, st.MaxDepth, st)
}

// ppSynthStats exports the synthetic profile once more through the
// render/pprof package to learn what the bounds did.
func ppSynthStats(b *testing.B, exe, gmonFile, minusGmon string) pprof.Stats {
	tab, err := symtab.Load(exe, symtab.Options{})
	require.NoError(b, err)
	graph := func(name string) *callgraph.Graph {
		prof := gmon.NewProfile(tab.Target, gmon.FormatAuto)
		data, err := os.ReadFile(name)
		require.NoError(b, err)
		_, err = prof.AddData(data, name)
		require.NoError(b, err)
		return callgraph.Build(tab, prof, callgraph.Options{})
	}
	d := diff.Single(graph(gmonFile), diff.Options{})
	if minusGmon != "" {
		d = diff.Subtract(d.Plus, graph(minusGmon), diff.Options{})
	}
	_, st, err := pprof.Build(d, pprof.Options{})
	require.NoError(b, err)
	return st
}
