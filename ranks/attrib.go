package ranks

import (
	"math"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// attributor credits one gmon file's samples and calls to the symbols of
// a table, with the numbers gprof's flat profile shows for that file
// alone (self samples, and calls counting a function's calls to itself),
// without building a call graph. It is read-only once made, so one
// attributor serves all workers. Tests hold it to callgraph.Build.
type attributor struct {
	tab    *symtab.Table
	credit *callgraph.Attribution
	isFunc []bool
}

func newAttributor(tab *symtab.Table) *attributor {
	a := &attributor{tab: tab, isFunc: make([]bool, len(tab.Syms))}
	// Build without a profile resolves gprof's default symbol selection.
	g := callgraph.Build(tab, nil, callgraph.Options{})
	a.credit = callgraph.NewAttribution(tab, g.FlatSelected)
	for i := range tab.Syms {
		a.isFunc[i] = tab.Syms[i].IsFunc
	}
	return a
}

// rate returns the file's sampling rate as gprof takes it (0 without a
// histogram).
func (a *attributor) rate(f *gmon.File) uint32 {
	if len(f.Hists) == 0 {
		return 0
	}
	if f.BSD {
		if f.BSD44 && f.BSDRate != 0 {
			return f.BSDRate
		}
		return 100
	}
	return f.Hists[0].Rate
}

// samples adds the file's histogram samples to ticks, sharing each bin
// among the symbols it overlaps in proportion to the overlap, bins and
// symbols measured in 2-byte units with truncated bin edges, the bin width
// being the first histogram's (as gprof's hist.c does).
func (a *attributor) samples(f *gmon.File, ticks []float64) {
	if len(f.Hists) == 0 {
		return
	}
	h0 := f.Hists[0]
	scale := float64((h0.HighPC-h0.LowPC)/2) / float64(h0.Size)
	if !(scale > 0) || math.IsInf(scale, 0) {
		return
	}
	for _, h := range f.Hists {
		callgraph.Credit(a.credit, h.LowPC, h.Bins, scale, ticks, nil)
	}
}

// calls adds the file's arc counts to the callees in calls: both ends
// must lie in a symbol, and a callee that is not a function is charged to
// the function before it (gprof's rules).
func (a *attributor) calls(f *gmon.File, calls []uint64) {
	for _, arc := range f.Arcs {
		if a.tab.Lookup(arc.FromPC) < 0 {
			continue
		}
		c := a.tab.Lookup(arc.SelfPC)
		for c >= 0 && !a.isFunc[c] {
			c--
		}
		if c >= 0 {
			calls[c] += arc.Count
		}
	}
}
