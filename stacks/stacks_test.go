package stacks

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/diff"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/progen"
	"github.com/egprof/egprof/internal/testprof"
)

// testPrograms lists the directories of testdata's programs.
func testPrograms(t testing.TB) []string {
	t.Helper()
	progs, err := filepath.Glob("../testdata/progs/*/prog")
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	dirs := []string{"../testdata/demo"}
	for _, p := range progs {
		dirs = append(dirs, filepath.Dir(p))
	}
	return dirs
}

// synthesise synthesises the stacks of d and checks what holds of every
// result: the stacks are unique, non-empty, within the functions of d, and
// Deepest is the deepest of them.
func synthesise(t testing.TB, d *diff.Profile, opt Options) *Result {
	t.Helper()
	r, err := Synthesise(d, opt)
	require.NoError(t, err)
	seen := map[string]bool{}
	deepest := 0
	for _, s := range r.Stacks {
		require.NotEmpty(t, s.Funcs)
		for _, f := range s.Funcs {
			require.True(t, f >= 0 && int(f) < len(d.Functions), "function %d", f)
		}
		key := fmt.Sprint(s.Funcs)
		assert.False(t, seen[key], "stack %v twice", s.Funcs)
		seen[key] = true
		deepest = max(deepest, len(s.Funcs))
	}
	assert.Equal(t, deepest, r.Stats.Deepest)
	return r
}

// view holds what a stack viewer (pprof) computes from the stacks' net
// values, per function: flat values (the stack's leaf), cumulative values
// (each function once per stack) and edge values (each caller-callee pair
// once per stack), and the values of the stacks whose leaf is called by a
// given caller.
type view struct {
	flat, cum        map[int32]Values
	edges, leafEdges map[[2]int32]Values
	// repeated counts the stacks in which a function appears twice.
	repeated map[int32]int
}

func (v Values) plus(w Values) Values {
	return Values{v.Samples + w.Samples, v.Nanos + w.Nanos, v.Calls + w.Calls}
}

func viewOf(r *Result) view {
	v := view{
		flat: map[int32]Values{}, cum: map[int32]Values{},
		edges: map[[2]int32]Values{}, leafEdges: map[[2]int32]Values{},
		repeated: map[int32]int{},
	}
	for _, s := range r.Stacks {
		val := s.Net()
		fs := s.Funcs
		v.flat[fs[0]] = v.flat[fs[0]].plus(val)
		if len(fs) > 1 {
			e := [2]int32{fs[1], fs[0]}
			v.leafEdges[e] = v.leafEdges[e].plus(val)
		}
		seen := map[int32]bool{}
		seenEdge := map[[2]int32]bool{}
		for _, f := range fs {
			if seen[f] {
				v.repeated[f]++
				continue
			}
			seen[f] = true
			v.cum[f] = v.cum[f].plus(val)
		}
		for i := 1; i < len(fs); i++ {
			e := [2]int32{fs[i], fs[i-1]}
			if seenEdge[e] {
				continue
			}
			seenEdge[e] = true
			v.edges[e] = v.edges[e].plus(val)
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

// checkStacks checks that the stacks of d show gprof's numbers: flat
// samples, nanoseconds and calls exactly (rounded as gprof's totals are),
// the cumulative time of functions outside cycles, and the time and calls
// of every arc, each side counted with its sign.
func checkStacks(t *testing.T, d *diff.Profile, opt Options) Stats {
	t.Helper()
	r := synthesise(t, d, opt)
	v := viewOf(r)
	period := 1e9 / float64(d.Plus.HZ)
	assert.Equal(t, period, r.Period)
	// A stack's values are differences of rounded running totals, so a
	// sum over stacks may be off by one unit per stack.
	tol := float64(len(r.Stacks)) + 1
	for k := range d.Functions {
		f := &d.Functions[k]
		fid := int32(k)
		pt, ptot, pc, pcyc := sideValues(d.Plus, f.Plus.Entry)
		mt, mtot, mc, mcyc := sideValues(d.Minus, f.Minus.Entry)
		name := f.Name
		want := Values{
			int64(math.Round(pt)) - int64(math.Round(mt)),
			int64(math.Round(pt*period)) - int64(math.Round(mt*period)),
			pc - mc,
		}
		assert.Equal(t, want, v.flat[fid], "flat of %s", name)
		if !pcyc && !mcyc {
			assert.InDelta(t, (ptot-mtot)*period, float64(v.cum[fid].Nanos), tol, "cum of %s", name)
			assert.Zero(t, v.repeated[fid], "%s twice in a stack", name)
		}
	}
	// Arcs: gprof's propagated time along each arc that leaves or enters
	// a cycle or joins two functions outside cycles (the edge value,
	// everything below the edge), and the calls of every arc (the calls
	// ending on the callee called by the caller). Arcs are keyed by
	// function indexes of d.
	type arcWant struct{ time, calls float64 }
	want := map[[2]int32]arcWant{}
	for _, side := range []struct {
		g    *callgraph.Graph
		sign float64
		plus bool
	}{{d.Plus, 1, true}, {d.Minus, -1, false}} {
		if side.g == nil {
			continue
		}
		fn := map[int]int32{}
		for k := range d.Functions {
			s := d.Functions[k].Plus
			if !side.plus {
				s = d.Functions[k].Minus
			}
			if s.Entry >= 0 {
				fn[s.Entry] = int32(k)
			}
		}
		for _, a := range side.g.Arcs {
			if a.Parent == a.Child || a.Count == 0 {
				continue
			}
			k := [2]int32{fn[int(a.Parent)], fn[int(a.Child)]}
			w := want[k]
			w.calls += side.sign * float64(a.Count)
			w.time += side.sign * (a.Time + a.ChildTime) * period
			want[k] = w
		}
	}
	cyc := func(fid int32) bool {
		f := &d.Functions[fid]
		_, _, _, a := sideValues(d.Plus, f.Plus.Entry)
		_, _, _, b := sideValues(d.Minus, f.Minus.Entry)
		return a || b
	}
	for k, w := range want {
		name := fmt.Sprintf("%s -> %s", d.Functions[k[0]].Name, d.Functions[k[1]].Name)
		assert.InDelta(t, w.calls, float64(v.leafEdges[k].Calls), tol, "calls of %s", name)
		if !(cyc(k[0]) && cyc(k[1])) {
			assert.InDelta(t, w.time, float64(v.edges[k].Nanos), tol, "time of %s", name)
		}
	}
	return r.Stats
}

// boundSets are the bounds the checks run with: the defaults, everything
// routed whole (every bundle light), every bundle deep after one frame,
// and no bounds at all (every path shared in proportion).
var boundSets = []struct {
	name string
	opt  Options
}{
	{"default", Options{}},
	{"all-light", Options{MinWeight: 1}},
	{"depth-1", Options{MaxDepth: 1}},
	{"unbounded", Options{MinWeight: 1e-300, MaxDepth: 1 << 30}},
}

// TestSingle checks the stacks of every testdata profile against its call
// graph under each set of bounds.
func TestSingle(t *testing.T) {
	for _, dir := range testPrograms(t) {
		for _, gm := range []string{"gmon.out", "gmon2.out"} {
			g := testprof.Graph(t, filepath.Join(dir, "prog"), filepath.Join(dir, gm))
			d := diff.Single(g, diff.Options{})
			for _, b := range boundSets {
				t.Run(filepath.Base(dir)+"/"+gm+"/"+b.name, func(t *testing.T) {
					st := checkStacks(t, d, b.opt)
					if b.name == "unbounded" {
						assert.Zero(t, st.Routed)
						assert.Zero(t, st.RoutedTime)
					}
				})
			}
		}
	}
}

// diffPairs are the differential profiles of the tests: two runs of one
// executable (aligned by address) and two builds (aligned by name).
var diffPairs = []struct{ name, plusExe, plusGmon, minusExe, minusGmon string }{
	{"demo-runs", "demo/prog", "demo/gmon.out", "", "demo/gmon2.out"},
	{"cycles-runs", "progs/cycles/prog", "progs/cycles/gmon.out", "", "progs/cycles/gmon2.out"},
	{"multifile-runs", "progs/multifile/prog", "progs/multifile/gmon.out", "", "progs/multifile/gmon2.out"},
	{"recursion-builds", "progs/recursion/prog", "progs/recursion/gmon.out", "progs/recursion-O2/prog", "progs/recursion-O2/gmon.out"},
	{"cxx-builds", "progs/cxx/prog", "progs/cxx/gmon.out", "progs/cxx-O2/prog", "progs/cxx-O2/gmon.out"},
}

// TestDifferential checks the stacks of differential profiles.
func TestDifferential(t *testing.T) {
	td := "../testdata/"
	for _, pr := range diffPairs {
		plus := testprof.Graph(t, td+pr.plusExe, td+pr.plusGmon)
		var minus *callgraph.Graph
		if pr.minusExe == "" {
			// One executable: the '-' side over the same symbol table,
			// as the command builds it.
			prof := gmon.NewProfile(plus.Syms.Target, gmon.FormatAuto)
			data, err := os.ReadFile(td + pr.minusGmon)
			require.NoError(t, err)
			_, err = prof.AddData(data, td+pr.minusGmon)
			require.NoError(t, err)
			minus = callgraph.Build(plus.Syms, prof, callgraph.Options{})
		} else {
			minus = testprof.Graph(t, td+pr.minusExe, td+pr.minusGmon)
		}
		d := diff.Subtract(plus, minus, diff.Options{})
		for _, b := range boundSets {
			t.Run(pr.name+"/"+b.name, func(t *testing.T) {
				checkStacks(t, d, b.opt)
			})
		}
	}
}

// TestSynthetic checks the invariants on a synthetic profile large enough
// for the bounds to matter: deep, with many cycles (gcc needed).
func TestSynthetic(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not on PATH")
	}
	files, err := progen.SyntheticProfile(7, 1500, 7500).Build(t.Context(), t.TempDir())
	require.NoError(t, err)
	g := testprof.Graph(t, files.Binary, files.Gmon)
	cycles := len(g.Entries) - g.NumSyms
	require.Greater(t, cycles, 10, "the synthetic profile has cycles")
	d := diff.Single(g, diff.Options{})
	for _, b := range boundSets[:3] {
		t.Run(b.name, func(t *testing.T) {
			st := checkStacks(t, d, b.opt)
			t.Logf("%+v", st)
			if b.name == "default" {
				assert.Positive(t, st.Routed, "the default bounds route some bundles whole here")
			}
		})
	}
}

// TestNoHistogram synthesises the stacks of a profile without samples:
// calls only.
func TestNoHistogram(t *testing.T) {
	g := testprof.Graph(t, "../testdata/demo/prog", "../testdata/demo/gmon.out")
	// Keep the arcs, drop the time.
	for i := range g.Entries {
		e := &g.Entries[i]
		e.Ticks, e.ChildTime, e.PropSelf, e.PropChild = 0, 0, 0, 0
	}
	for i := range g.Arcs {
		g.Arcs[i].Time, g.Arcs[i].ChildTime = 0, 0
	}
	d := diff.Single(g, diff.Options{})
	v := viewOf(synthesise(t, d, Options{}))
	for k := range d.Functions {
		e := &g.Entries[d.Functions[k].Plus.Entry]
		assert.Equal(t, Values{0, 0, int64(e.NCalls)}, v.flat[int32(k)], d.Functions[k].Name)
	}
}

// TestNoProfile: a profile without a '+' side has no stacks.
func TestNoProfile(t *testing.T) {
	_, err := Synthesise(&diff.Profile{}, Options{})
	assert.Error(t, err)
}
