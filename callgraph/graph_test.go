package callgraph

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// synthetic builds a symbol table of 16-byte functions at 0x1000, 0x1010,
// ... and a profile with 2-byte bins, ticks[i] samples at the start of
// function i and the given arcs (caller index, callee index, count).
func synthetic(t *testing.T, names []string, ticks []uint16, arcs [][3]int) (*symtab.Table, *gmon.Profile) {
	t.Helper()
	const base = 0x1000
	syms := make([]symtab.Symbol, len(names))
	for i, n := range names {
		syms[i] = fn(n, uint64(base+16*i), 16)
	}
	tab := table(syms...)
	h := histRec{low: base, high: uint64(base + 16*len(names)), bins: make([]uint16, 8*len(names))}
	for i, v := range ticks {
		h.bins[8*i] = v
	}
	recs := make([]arcRec, len(arcs))
	for k, a := range arcs {
		recs[k] = arcRec{from: uint64(base + 16*a[0] + 8), self: uint64(base + 16*a[1] + 4), count: uint32(a[2])}
	}
	return tab, profile(t, &h, recs)
}

// The worked example of shared/docs/gprof-behaviour/call-graph.md §4.3,
// whose numbers were read off GNU gprof's output.
func workedExample(t *testing.T, specs []SpecUse) *Graph {
	names := []string{"main", "P", "Q", "W", "X"}
	const mainI, pI, qI, wI, xI = 0, 1, 2, 3, 4
	tab, prof := synthetic(t, names, []uint16{5, 10, 20, 60, 5}, [][3]int{
		{mainI, pI, 1}, {mainI, xI, 1}, {xI, qI, 1}, {pI, qI, 2}, {qI, pI, 2}, {qI, wI, 4}, {pI, wI, 2}, {pI, pI, 7},
	})
	return Build(tab, prof, Options{Specs: specs})
}

func TestPropagationWorkedExample(t *testing.T) {
	g := workedExample(t, nil)
	p := &g.Entries[1]
	assert.Equal(t, uint64(3), p.NCalls)
	assert.Equal(t, uint64(7), p.SelfCalls)
	assert.Equal(t, 1, p.Cycle)
	assert.InDelta(t, 10, p.PropSelf, 1e-9)
	assert.InDelta(t, 20, p.PropChild, 1e-9)

	require.Len(t, g.Entries, 6, "five functions and one cycle")
	cyc := &g.Entries[5]
	assert.True(t, cyc.IsCycle())
	assert.Equal(t, uint64(2), cyc.NCalls, "calls from outside the cycle")
	assert.Equal(t, uint64(4), cyc.SelfCalls, "calls among members")
	assert.InDelta(t, 30, cyc.Ticks, 1e-9)

	var mainToP *Arc
	for i := range g.Arcs {
		if g.Arcs[i].Parent == 0 && g.Arcs[i].Child == 1 {
			mainToP = &g.Arcs[i]
		}
	}
	require.NotNil(t, mainToP)
	assert.InDelta(t, 15, mainToP.Time, 1e-9, "main->P self share: 30 ticks x 1/2")
	assert.InDelta(t, 30, mainToP.ChildTime, 1e-9, "main->P children share: 60 ticks x 1/2")
	assert.InDelta(t, 100, g.PrintTime, 1e-9)
}

func TestPropagationExcludingQ(t *testing.T) {
	g := workedExample(t, []SpecUse{{Table: ExclTime, Spec: "Q"}, {Table: ExclGraph, Spec: "Q"}})
	w := &g.Entries[3]
	assert.InDelta(t, 1.0/3, w.Fract, 1e-12)
	assert.InDelta(t, 20, w.PropSelf, 1e-9, "W shows 0.20 s, not 0.60")
	assert.InDelta(t, 40, g.PrintTime, 1e-9, "5 + 10 + 20 + 5 samples")
	assert.False(t, g.Entries[2].PrintFlag, "Q is listed as (n)")
}

// TestNameOrder checks the name order of the index: raw names compared
// bytewise, equal names (two static functions) in address order, the same
// whether Build computed it or it is computed on demand (ModelOnly).
func TestNameOrder(t *testing.T) {
	names := []string{"beta", "_start", "alpha", "beta", "Zed", "alpha2"}
	// Bytewise: uppercase before '_' before lowercase.
	want := []int32{4, 1, 2, 5, 0, 3}
	for _, modelOnly := range []bool{false, true} {
		tab, prof := synthetic(t, names, []uint16{1, 1, 1, 1, 1, 1}, [][3]int{{0, 2, 1}})
		g := Build(tab, prof, Options{ModelOnly: modelOnly})
		assert.Equal(t, want, g.NameOrder(), "ModelOnly %v", modelOnly)
	}
}
