package render

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testprof"

	"github.com/egprof/egprof/internal/testenv"
)

// loadGraph builds the call graph of an executable and its gmon files with
// gprof's default options.
func loadGraph(t testing.TB, exe string, gmons ...string) *callgraph.Graph {
	t.Helper()
	return testprof.Graph(t, exe, gmons...)
}

// exportRoundTrip exports d, writes it, parses it back with pprof's
// parser and checks it.
func exportRoundTrip(t testing.TB, d *diff.Profile, opt PProfOptions) (*profile.Profile, PProfStats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := WritePProf(&buf, d, opt)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(buf.Bytes(), []byte{0x1f, 0x8b}), "gzipped")
	p, err := profile.Parse(&buf)
	require.NoError(t, err)
	require.NoError(t, p.CheckValid())
	require.Len(t, p.SampleType, 3)
	assert.Equal(t, "cpu", p.DefaultSampleType)
	assert.Equal(t, []string{"samples", "cpu", "calls"}, []string{p.SampleType[0].Type, p.SampleType[1].Type, p.SampleType[2].Type})
	assert.Equal(t, st.Samples, len(p.Sample))
	return p, st
}

// pprofView holds what pprof computes from a profile, per function ID:
// flat values (the stack's leaf), cumulative values (each function once
// per stack) and edge values (each caller-callee pair once per stack),
// and the values of the samples whose leaf is called by a given caller.
type pprofView struct {
	flat, cum        map[uint64][3]int64
	edges, leafEdges map[[2]uint64][3]int64
	// repeated counts the stacks in which a function appears twice.
	repeated map[uint64]int
}

func viewOf(p *profile.Profile) pprofView {
	v := pprofView{
		flat: map[uint64][3]int64{}, cum: map[uint64][3]int64{},
		edges: map[[2]uint64][3]int64{}, leafEdges: map[[2]uint64][3]int64{},
		repeated: map[uint64]int{},
	}
	add := func(m map[uint64][3]int64, k uint64, val []int64) {
		x := m[k]
		for i := range x {
			x[i] += val[i]
		}
		m[k] = x
	}
	for _, s := range p.Sample {
		fid := func(i int) uint64 { return s.Location[i].Line[0].Function.ID }
		add(v.flat, fid(0), s.Value)
		if len(s.Location) > 1 {
			e := [2]uint64{fid(1), fid(0)}
			x := v.leafEdges[e]
			for k := range x {
				x[k] += s.Value[k]
			}
			v.leafEdges[e] = x
		}
		seen := map[uint64]bool{}
		seenEdge := map[[2]uint64]bool{}
		for i := range s.Location {
			f := fid(i)
			if seen[f] {
				v.repeated[f]++
				continue
			}
			seen[f] = true
			add(v.cum, f, s.Value)
		}
		for i := 1; i < len(s.Location); i++ {
			e := [2]uint64{fid(i), fid(i - 1)}
			if seenEdge[e] {
				continue
			}
			seenEdge[e] = true
			x := v.edges[e]
			for k := range x {
				x[k] += s.Value[k]
			}
			v.edges[e] = x
		}
	}
	return v
}

// sideValues are one side's expected numbers for one function, from the
// call graph: gprof's self samples, self + children, calls.
func sideValues(g *callgraph.Graph, i int) (ticks, total float64, calls int64, inCycle bool) {
	if g == nil || i < 0 {
		return 0, 0, 0, false
	}
	e := &g.Entries[i]
	return e.Ticks, e.PropSelf + e.PropChild, int64(e.NCalls), e.Cycle != 0
}

// checkExport checks that the export of d shows gprof's numbers: flat
// samples, cpu and calls exactly (rounded as gprof's totals are), the
// cumulative cpu of functions outside cycles, and the cpu and calls of
// every arc, each side counted with its sign.
func checkExport(t *testing.T, d *diff.Profile, opt PProfOptions) PProfStats {
	t.Helper()
	p, st := exportRoundTrip(t, d, opt)
	v := viewOf(p)
	period := 1e9 / float64(d.Plus.HZ)
	// A sample's values are differences of rounded running totals, so a
	// sum over samples may be off by one unit per sample.
	tol := float64(len(p.Sample)) + 1
	for k := range d.Functions {
		f := &d.Functions[k]
		fid := uint64(k + 1)
		pt, ptot, pc, pcyc := sideValues(d.Plus, f.Plus.Entry)
		mt, mtot, mc, mcyc := sideValues(d.Minus, f.Minus.Entry)
		name := f.Name
		want := [3]int64{
			int64(math.Round(pt)) - int64(math.Round(mt)),
			int64(math.Round(pt*period)) - int64(math.Round(mt*period)),
			pc - mc,
		}
		assert.Equal(t, want, v.flat[fid], "flat of %s", name)
		if !pcyc && !mcyc {
			assert.InDelta(t, (ptot-mtot)*period, float64(v.cum[fid][1]), tol, "cum of %s", name)
			assert.Zero(t, v.repeated[fid], "%s twice in a stack", name)
		}
	}
	// Arcs: gprof's propagated time along each arc that leaves or enters
	// a cycle or joins two functions outside cycles (pprof's edge value,
	// everything below the edge), and the calls of every arc (the calls
	// ending on the callee called by the caller). Arcs are keyed by
	// function IDs of the export.
	type arcWant struct{ time, calls float64 }
	want := map[[2]uint64]arcWant{}
	for _, side := range []struct {
		g    *callgraph.Graph
		sign float64
		plus bool
	}{{d.Plus, 1, true}, {d.Minus, -1, false}} {
		if side.g == nil {
			continue
		}
		fn := map[int]uint64{}
		for k := range d.Functions {
			s := d.Functions[k].Plus
			if !side.plus {
				s = d.Functions[k].Minus
			}
			if s.Entry >= 0 {
				fn[s.Entry] = uint64(k + 1)
			}
		}
		for _, a := range side.g.Arcs {
			if a.Parent == a.Child || a.Count == 0 {
				continue
			}
			k := [2]uint64{fn[a.Parent], fn[a.Child]}
			w := want[k]
			w.calls += side.sign * float64(a.Count)
			w.time += side.sign * (a.Time + a.ChildTime) * period
			want[k] = w
		}
	}
	cyc := func(fid uint64) bool {
		f := &d.Functions[fid-1]
		_, _, _, a := sideValues(d.Plus, f.Plus.Entry)
		_, _, _, b := sideValues(d.Minus, f.Minus.Entry)
		return a || b
	}
	for k, w := range want {
		name := fmt.Sprintf("%s -> %s", d.Functions[k[0]-1].Name, d.Functions[k[1]-1].Name)
		assert.InDelta(t, w.calls, float64(v.leafEdges[k][2]), tol, "calls of %s", name)
		if !(cyc(k[0]) && cyc(k[1])) {
			assert.InDelta(t, w.time, float64(v.edges[k][1]), tol, "time of %s", name)
		}
	}
	return st
}

// boundSets are the bounds the checks run with: the defaults, everything
// routed whole (every bundle light), every bundle deep after one frame,
// and no bounds at all (every path shared in proportion).
var boundSets = []struct {
	name string
	opt  PProfOptions
}{
	{"default", PProfOptions{}},
	{"all-light", PProfOptions{MinWeight: 1}},
	{"depth-1", PProfOptions{MaxDepth: 1}},
	{"unbounded", PProfOptions{MinWeight: 1e-300, MaxDepth: 1 << 30}},
}

// TestPProfSingle checks the export of every testdata profile against
// its call graph under each set of bounds.
func TestPProfSingle(t *testing.T) {
	for _, dir := range testenv.Programs(t) {
		for _, gm := range []string{"gmon.out", "gmon2.out"} {
			g := loadGraph(t, filepath.Join(dir, "prog"), filepath.Join(dir, gm))
			d := diff.Single(g, diff.Options{})
			for _, b := range boundSets {
				t.Run(filepath.Base(dir)+"/"+gm+"/"+b.name, func(t *testing.T) {
					st := checkExport(t, d, b.opt)
					if b.name == "unbounded" {
						assert.Zero(t, st.Routed)
						assert.Zero(t, st.RoutedTime)
					}
				})
			}
		}
	}
}

// TestPProfDifferential checks differential exports: two runs of one
// executable (aligned by address) and two builds (aligned by name).
func TestPProfDifferential(t *testing.T) {
	td := "../testdata/"
	pairs := []struct{ name, plusExe, plusGmon, minusExe, minusGmon string }{
		{"demo-runs", td + "demo/prog", td + "demo/gmon.out", "", td + "demo/gmon2.out"},
		{"cycles-runs", td + "progs/cycles/prog", td + "progs/cycles/gmon.out", "", td + "progs/cycles/gmon2.out"},
		{"multifile-runs", td + "progs/multifile/prog", td + "progs/multifile/gmon.out", "", td + "progs/multifile/gmon2.out"},
		{"recursion-builds", td + "progs/recursion/prog", td + "progs/recursion/gmon.out", td + "progs/recursion-O2/prog", td + "progs/recursion-O2/gmon.out"},
		{"cxx-builds", td + "progs/cxx/prog", td + "progs/cxx/gmon.out", td + "progs/cxx-O2/prog", td + "progs/cxx-O2/gmon.out"},
	}
	for _, pr := range pairs {
		plus := loadGraph(t, pr.plusExe, pr.plusGmon)
		var minus *callgraph.Graph
		if pr.minusExe == "" {
			// One executable: the '-' side over the same symbol table,
			// as the command builds it.
			prof := gmon.NewProfile(plus.Syms.Target, gmon.FormatAuto)
			data, err := os.ReadFile(pr.minusGmon)
			require.NoError(t, err)
			_, err = prof.AddData(data, pr.minusGmon)
			require.NoError(t, err)
			minus = callgraph.Build(plus.Syms, prof, callgraph.Options{})
		} else {
			minus = loadGraph(t, pr.minusExe, pr.minusGmon)
		}
		d := diff.Subtract(plus, minus, diff.Options{})
		for _, b := range boundSets {
			t.Run(pr.name+"/"+b.name, func(t *testing.T) {
				p, _ := exportRoundTrip(t, d, b.opt)
				for _, s := range p.Sample {
					assert.NotEqual(t, []int64{0, 0, 0}, s.Value, "all-zero samples are left out")
				}
				checkExport(t, d, b.opt)
			})
		}
	}
}

// TestPProfContent checks the parts of the profile that are not values:
// functions, locations, the mapping and the comments.
func TestPProfContent(t *testing.T) {
	g := loadGraph(t, "../testdata/progs/multifile/prog", "../testdata/progs/multifile/gmon.out")
	d := diff.Single(g, diff.Options{})
	p, st := exportRoundTrip(t, d, PProfOptions{Demangle: true})
	require.Len(t, p.Mapping, 1)
	m := p.Mapping[0]
	assert.Equal(t, "../testdata/progs/multifile/prog", m.File)
	assert.True(t, m.HasFunctions)
	assert.True(t, m.HasFilenames)
	assert.True(t, m.HasLineNumbers)
	if testenv.Has("readelf") {
		out := testenv.Output(t, "readelf", "", "-n", "../testdata/progs/multifile/prog")
		assert.Contains(t, out, "Build ID: "+m.BuildID)
	}
	assert.Regexp(t, "^[0-9a-f]{40}$", m.BuildID)
	assert.Equal(t, len(d.Functions), len(p.Function))
	names := map[string]*profile.Function{}
	for k, f := range p.Function {
		names[f.Name] = f
		loc := p.Location[k]
		assert.Equal(t, f, loc.Line[0].Function)
		i := d.Functions[k].Plus.Entry
		assert.Equal(t, g.Syms.Syms[i].Addr, loc.Address)
		assert.Equal(t, g.Syms.Syms[i].Name, f.SystemName)
		src, ok := g.Syms.SymbolSource(i)
		if ok {
			assert.Equal(t, src.File, f.Filename)
			assert.Equal(t, int64(src.Line), f.StartLine)
		}
		assert.True(t, m.Start <= loc.Address && loc.Address < m.Limit, "%s in the mapping", f.Name)
	}
	// The two static helpers keep apart, named as gprof's index names them.
	assert.Contains(t, names, "helper (a.c)")
	assert.Contains(t, names, "helper (b.c)")
	assert.NotContains(t, names, "helper")
	assert.Len(t, p.Comments, 2)
	assert.Contains(t, p.Comments[1], fmt.Sprintf("%.4g of %.4g s", st.RoutedTime, st.TotalTime))
	assert.Equal(t, int64(1e9/float64(g.HZ)), p.Period)
	assert.Equal(t, "cpu", p.PeriodType.Type)
	assert.Equal(t, "nanoseconds", p.PeriodType.Unit)

	// C++ names are demangled as gprof prints them, the raw name kept as
	// the system name.
	gx := loadGraph(t, "../testdata/progs/cxx/prog", "../testdata/progs/cxx/gmon.out")
	px, _ := exportRoundTrip(t, diff.Single(gx, diff.Options{}), PProfOptions{Demangle: true})
	found := false
	for _, f := range px.Function {
		if f.SystemName == "_ZNK3geo6shapes6Circle4areaEv" {
			found = true
			assert.Equal(t, "geo::shapes::Circle::area() const", f.Name)
		}
	}
	assert.True(t, found)
}

// syntheticGraph builds a synthetic profile with many cycles (gcc needed).
func syntheticGraph(t *testing.T, funcs, arcs int) *callgraph.Graph {
	t.Helper()
	testenv.Need(t, "gcc")
	files, err := progen.SyntheticProfile(7, funcs, arcs).Build(t.Context(), t.TempDir())
	require.NoError(t, err)
	return loadGraph(t, files.Binary, files.Gmon)
}

// TestPProfSynthetic checks the invariants on a synthetic profile large
// enough for the bounds to matter: deep, with many cycles.
func TestPProfSynthetic(t *testing.T) {
	g := syntheticGraph(t, 1500, 7500)
	cycles := len(g.Entries) - g.NumSyms
	require.Greater(t, cycles, 10, "the synthetic profile has cycles")
	d := diff.Single(g, diff.Options{})
	for _, b := range boundSets[:3] {
		t.Run(b.name, func(t *testing.T) {
			st := checkExport(t, d, b.opt)
			t.Logf("%v", st)
			if b.name == "default" {
				assert.Positive(t, st.Routed, "the default bounds route some bundles whole here")
			}
		})
	}
}

// TestPProfNoHistogram exports a profile without samples: calls only.
func TestPProfNoHistogram(t *testing.T) {
	g := loadGraph(t, "../testdata/demo/prog", "../testdata/demo/gmon.out")
	// Keep the arcs, drop the time.
	for i := range g.Entries {
		e := &g.Entries[i]
		e.Ticks, e.ChildTime, e.PropSelf, e.PropChild = 0, 0, 0, 0
	}
	for i := range g.Arcs {
		g.Arcs[i].Time, g.Arcs[i].ChildTime = 0, 0
	}
	d := diff.Single(g, diff.Options{})
	p, _ := exportRoundTrip(t, d, PProfOptions{})
	v := viewOf(p)
	for k := range d.Functions {
		e := &g.Entries[d.Functions[k].Plus.Entry]
		assert.Equal(t, [3]int64{0, 0, int64(e.NCalls)}, v.flat[uint64(k+1)], d.Functions[k].Name)
	}
}
