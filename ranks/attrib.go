package ranks

import (
	"math"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// attributor credits one gmon file's samples and calls to the symbols of
// a table, with the numbers gprof's flat profile shows for that file
// alone (self samples, and calls without a function's calls to itself),
// without building a call graph. It is read-only once made, so one
// attributor serves all workers. Tests hold it to callgraph.Build.
type attributor struct {
	tab    *symtab.Table
	credit *callgraph.Attribution
}

func newAttributor(tab *symtab.Table) *attributor {
	a := &attributor{tab: tab}
	// Build without a profile resolves gprof's default symbol selection.
	g := callgraph.Build(tab, nil, callgraph.Options{})
	a.credit = callgraph.NewAttribution(tab, g.FlatSelected)
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

// calls adds the file's arc counts to the callees in calls, as the flat
// profile counts them: the ends are resolved by gprof's rule
// (callgraph.ArcEnds), and a function's calls to itself are left out. It
// reports whether some call enters a function that passes (nil: none
// does).
func (a *attributor) calls(f *gmon.File, calls []uint64, passes func(i int) bool) (entersPassing bool) {
	for _, arc := range f.Arcs {
		p, c, ok := callgraph.ArcEnds(a.tab, arc.FromPC, arc.SelfPC)
		if ok && p != c {
			calls[c] += arc.Count
			entersPassing = entersPassing || (arc.Count > 0 && passes != nil && passes(c))
		}
	}
	return entersPassing
}
