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
	idx    symIndex
}

func newAttributor(tab *symtab.Table) *attributor {
	a := &attributor{tab: tab, isFunc: make([]bool, len(tab.Syms))}
	// Build without a profile resolves gprof's default symbol selection.
	g := callgraph.Build(tab, nil, callgraph.Options{})
	a.credit = callgraph.NewAttribution(tab, g.FlatSelected)
	for i := range tab.Syms {
		a.isFunc[i] = tab.Syms[i].IsFunc
	}
	a.idx = newSymIndex(tab)
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
		if a.idx.lookup(arc.FromPC) < 0 {
			continue
		}
		c := a.idx.lookup(arc.SelfPC)
		for c >= 0 && !a.isFunc[c] {
			c--
		}
		if c >= 0 {
			calls[c] += arc.Count
		}
	}
}

// symIndex finds the symbol holding an address, as symtab.Table.Lookup
// does (the symbol with the greatest start not above the address, if the
// address is not past its end), in constant time: a bucket table over the
// address range gives the search its starting point.
type symIndex struct {
	starts, ends []uint64
	base         uint64
	shift        uint
	first        []int32 // per bucket: the last symbol starting at or before the bucket
}

func newSymIndex(tab *symtab.Table) symIndex {
	n := len(tab.Syms)
	x := symIndex{starts: make([]uint64, n), ends: make([]uint64, n)}
	for i := range tab.Syms {
		x.starts[i], x.ends[i] = tab.Syms[i].Addr, tab.Syms[i].End
	}
	if n == 0 {
		return x
	}
	x.base = x.starts[0]
	span := x.starts[n-1] - x.base
	for x.shift = 0; x.shift < 63 && span>>x.shift > uint64(4*n); x.shift++ {
	}
	nb := int(span>>x.shift) + 1
	x.first = make([]int32, nb)
	s := 0
	for b := range nb {
		lo := x.base + uint64(b)<<x.shift
		for s+1 < n && x.starts[s+1] <= lo {
			s++
		}
		x.first[b] = int32(s)
	}
	return x
}

// lookup returns the index of the symbol holding addr, or -1.
func (x *symIndex) lookup(addr uint64) int {
	n := len(x.starts)
	if n == 0 || addr < x.base {
		return -1
	}
	var i int
	if b := (addr - x.base) >> x.shift; b < uint64(len(x.first)) {
		i = int(x.first[b])
	} else {
		i = n - 1
	}
	for i+1 < n && x.starts[i+1] <= addr {
		i++
	}
	if addr > x.ends[i] {
		return -1
	}
	return i
}
