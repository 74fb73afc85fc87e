// Package callgraph is egprof's profile model: histogram samples attributed
// to symbols, call arcs, cycles and the propagation of time from callees to
// callers, computed exactly as GNU gprof 2.40 computes them.
package callgraph

import (
	"cmp"
	"debug/elf"
	"math"
	"slices"
	"strings"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/internal/pairindex"
	"github.com/egprof/egprof/symtab"
)

// Options are the settings that change the model's numbers.
type Options struct {
	Specs []SpecUse
	// StaticCalls adds count-0 arcs for the direct calls found by scanning
	// the code (-c).
	StaticCalls bool
	// TextBytes is the content of .text, needed only with StaticCalls.
	TextBytes []byte
	// ModelOnly skips what only printing the call graph needs: ByTime,
	// the entries' Index and their display orders. The times and counts
	// are the same.
	ModelOnly bool
	// Release lets Build drop the profile's sample counters and arc
	// records (gmon.Profile.ReleaseBins, TakeArcs) as soon as it has
	// used them, so that their memory is reclaimed while the graph is
	// built. The caller must need neither afterwards.
	Release bool
}

// Entry is a function (or code label) of the symbol table, or the pseudo
// entry standing for a cycle as a whole. Times are in histogram samples.
type Entry struct {
	Sym       *symtab.Symbol // nil for a cycle entry
	Ticks     float64        // self samples credited by the histogram
	NCalls    uint64         // calls from other functions (self-calls excluded)
	SelfCalls uint64         // calls from itself; for a cycle, calls among members
	ChildTime float64        // unscaled time received from callees
	PropSelf  float64        // self time as printed (scaled by Fract)
	PropChild float64        // children time as printed
	Fract     float64        // share of its time that propagates to callers
	PrintFlag bool           // shown in the call graph
	TopOrder  int            // topological number (callees low)
	Cycle     int            // cycle number, 0 if not in a cycle
	Index     int            // call graph index number, 1-based
	// Parents and Children are arc indexes in the order gprof's lists hold
	// them (newest arc first); DisplayParents and DisplayChildren are the
	// order the call graph prints them in.
	Parents, Children               []int32
	DisplayParents, DisplayChildren []int32
	// Members of a cycle entry, head first then as gathered; DisplayMembers
	// in printed order. Empty for functions.
	Members, DisplayMembers []int

	head int // cycle entry (or self) during and after cycle linking
	next int // next member in the cycle chain, -1 at the end
}

// IsCycle reports whether the entry stands for a whole cycle.
func (e *Entry) IsCycle() bool { return e.Sym == nil }

// Arc is a caller-callee pair with its total count and the time that
// propagated along it.
type Arc struct {
	Parent, Child int32 // entry indexes
	Count         uint64
	Time          float64 // callee self time sent to this caller (samples, scaled)
	ChildTime     float64 // callee children time sent to this caller
}

// Graph is the whole profile.
type Graph struct {
	Syms    *symtab.Table
	Entries []Entry // symbols in address order, then one entry per cycle
	NumSyms int
	Arcs    []Arc // in creation order
	Tables  Tables
	// SpecArcs are the arcs gprof's symspec parser added between copies
	// of symbols for FROM/TO specs; only -r and -R see them.
	SpecArcs SpecArcs

	HZ        uint32  // samples per second
	Scale     float64 // histogram bin width in 2-byte units
	Dimen     string  // unit name, e.g. "seconds"
	Abbrev    byte    // unit letter, e.g. 's'
	TotalTime float64 // samples for the flat profile's percentages
	PrintTime float64 // propagated samples for the call graph's percentages
	HasHist   bool    // a histogram record was read
	HasArcs   bool    // a call-graph record was read
	// ByTime lists all entries (cycles included) in call-graph order:
	// entry ByTime[k] has Index k+1.
	ByTime []int
	// CreditedSamples is the sum of the samples credited to the flat
	// profile's symbols (their Ticks); DroppedArcs counts the arcs dropped
	// because an end was outside every symbol.
	CreditedSamples float64
	DroppedArcs     int

	// recorded counts the arcs made from the profile's records; those
	// after them were found by scanning the code (-c).
	recorded int

	// topo lists the symbols callees first, the order time propagates in
	// (empty without arcs).
	topo []int
	// nameOrder lists the symbols by raw name and nameRank gives each
	// symbol's position in that list (see NameOrder); both are nil until
	// assemble orders the entries.
	nameOrder, nameRank []int32
}

// defaultExcluded are the profiling runtime's own functions, which gprof
// never shows and never credits.
var defaultExcluded = [...]string{"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal", "__mcleanup"}

// Build attributes the profile to the symbols and computes the call graph.
func Build(tab *symtab.Table, prof *gmon.Profile, opt Options) *Graph {
	specs := make([]SpecUse, 0, len(opt.Specs)+3*len(defaultExcluded))
	specs = append(specs, opt.Specs...)
	for _, name := range defaultExcluded {
		specs = append(specs, SpecUse{ExclTime, name}, SpecUse{ExclGraph, name}, SpecUse{ExclFlat, name})
	}
	g := &Graph{Syms: tab, NumSyms: len(tab.Syms)}
	g.Tables, g.SpecArcs = ResolveSpecs(tab, specs)
	// Room for the cycle entries, which are few, so that adding them
	// rarely copies the table.
	g.Entries = make([]Entry, len(tab.Syms), len(tab.Syms)+len(tab.Syms)/16+8)
	for i := range g.Entries {
		g.Entries[i] = Entry{Sym: &tab.Syms[i], head: i, next: -1}
	}
	if prof != nil {
		g.HasHist = prof.HasHist
		g.HasArcs = prof.HasArcs
		g.HZ = prof.Rate
		g.Scale = prof.Scale()
		g.Dimen = prof.DimenString()
		g.Abbrev = prof.Abbrev
		if g.HasHist {
			g.assignSamples(prof)
		}
		records := prof.Arcs
		if opt.Release {
			prof.ReleaseBins()
			records = prof.TakeArcs()
		}
		g.tallyArcs(records)
		if g.HasArcs {
			g.assemble(prof, opt)
		}
	}
	return g
}

// flatSelected reports whether the symbol at addr is credited and shown in
// the flat profile (-p/-P).
func (g *Graph) flatSelected(addr uint64) bool {
	t := &g.Tables
	return t[InclFlat].Contains(addr) || (len(t[InclFlat]) == 0 && !t[ExclFlat].Contains(addr))
}

// FlatSelected reports whether symbol i is shown in the flat profile.
func (g *Graph) FlatSelected(i int) bool { return g.flatSelected(g.Syms.Syms[i].Addr) }

// Seconds is the profile's total time in seconds, the flat profile's
// total: the sum of its self seconds, where its cumulative column ends,
// the flame graph's root and, unless -E or -F take time out, the call
// graph's total (0 without a sampling rate). The header of the HTML page,
// the differential profile's totals and --fail-if-slower's check use it.
//
// It is not SampledSeconds: gprof credits each symbol overlap/scale of a
// bin's count, the bin's edges truncated to whole 2-byte units, so with a
// scale that is not whole (most x86-64 profiles: 1.9974 for the demo) a
// bin's credits can sum to more or less than its count, and samples
// outside every symbol are credited to none.
func (g *Graph) Seconds() float64 {
	if g.HZ == 0 {
		return 0
	}
	return g.CreditedSamples / float64(g.HZ)
}

// SampledSeconds is the time of the samples themselves, each counted once
// (gprof's total_time: every histogram sample but those in symbols left
// out of the flat profile), the denominator of the flat profile's
// percentages (0 without a sampling rate).
func (g *Graph) SampledSeconds() float64 {
	if g.HZ == 0 {
		return 0
	}
	return g.TotalTime / float64(g.HZ)
}

// assignSamples shares each bin's count among the symbols it overlaps, in
// proportion to the overlap, as gprof does (bins and symbols measured in
// 2-byte units, bin edges truncated).
func (g *Graph) assignSamples(prof *gmon.Profile) {
	a := NewAttribution(g.Syms, g.FlatSelected)
	ticks := make([]float64, g.NumSyms)
	for i := range prof.Hists {
		g.CreditedSamples += CreditHistogram(a, &prof.Hists[i], g.Scale, ticks, &g.TotalTime)
	}
	for j, t := range ticks {
		g.Entries[j].Ticks = t
	}
}

// tallyArcs adds the arc records, merging the records of one caller and
// callee into one arc, and links each entry's lists of arcs.
func (g *Graph) tallyArcs(records []gmon.ArcRecord) {
	g.Arcs = make([]Arc, 0, len(records))
	pairs := pairindex.New(len(records))
	for _, r := range records {
		p, c, ok := g.tally(r.FromPC, r.SelfPC)
		if !ok {
			continue
		}
		g.Entries[c].NCalls += r.Count
		if a := pairindex.Find(&pairs, g.Arcs, arcKey, uint64(p), uint64(c)); a >= 0 {
			g.Arcs[a].Count += r.Count
			continue
		}
		g.Arcs = append(g.Arcs, Arc{Parent: int32(p), Child: int32(c), Count: r.Count})
		pairindex.Insert(&pairs, g.Arcs, arcKey, len(g.Arcs)-1)
	}
	g.recorded = len(g.Arcs)
	g.linkArcLists()
}

// StaticArc reports whether arc a was found by scanning the code (-c)
// rather than recorded in the profile.
func (g *Graph) StaticArc(a int) bool { return a >= g.recorded }

// tally resolves one arc record as gprof's cg_tally does: both ends must
// lie in a symbol; a callee that is not a function is charged to the
// function before it; the -k/-q arc tables decide whether the arc counts.
// ok is false for a record that adds nothing.
func (g *Graph) tally(from, self uint64) (p, c int, ok bool) {
	p, c, ok = ArcEnds(g.Syms, from, self)
	if !ok {
		g.DroppedArcs++
		return -1, -1, false
	}
	t := &g.Tables
	ps, cs := &g.Syms.Syms[p], &g.Syms.Syms[c]
	if t[InclArcs].HasArc(ps, cs) || (len(t[InclArcs]) == 0 && !t[ExclArcs].HasArc(ps, cs)) {
		return p, c, true
	}
	return -1, -1, false
}

// linkArcLists sets every entry's Parents and Children to its arcs in
// creation order, as addArc leaves them, from two arrays holding all the
// lists (each list capped, so that appending to one copies it).
func (g *Graph) linkArcLists() {
	n := len(g.Entries)
	// end[i] counts, then ends, entry i's list in the shared array.
	childEnd := make([]int, n+1)
	parentEnd := make([]int, n+1)
	for _, a := range g.Arcs {
		childEnd[a.Parent+1]++
		parentEnd[a.Child+1]++
	}
	for i := 1; i <= n; i++ {
		childEnd[i] += childEnd[i-1]
		parentEnd[i] += parentEnd[i-1]
	}
	children := make([]int32, len(g.Arcs))
	parents := make([]int32, len(g.Arcs))
	// childEnd[i] is now where entry i's list starts; filling moves it to
	// where the list ends.
	for id, a := range g.Arcs {
		children[childEnd[a.Parent]] = int32(id)
		childEnd[a.Parent]++
		parents[parentEnd[a.Child]] = int32(id)
		parentEnd[a.Child]++
	}
	start := 0
	pstart := 0
	for i := range g.Entries {
		e := &g.Entries[i]
		if end := childEnd[i]; end > start {
			e.Children = children[start:end:end]
			start = end
		}
		if end := parentEnd[i]; end > pstart {
			e.Parents = parents[pstart:end:end]
			pstart = end
		}
	}
}

// arcKey is the key pair arcs are merged by.
func arcKey(a *Arc) (uint64, uint64) { return uint64(a.Parent), uint64(a.Child) }

// ArcEnds resolves the ends of an arc record as gprof's cg_tally does: the
// symbols holding the caller's and the callee's addresses, the callee moved
// back to the function before it when its symbol is not a function. ok is
// false when the arc is dropped (an end outside every symbol). An arc whose
// parent is its child is a self-call, which the flat profile's calls leave
// out.
func ArcEnds(tab *symtab.Table, from, self uint64) (parent, child int, ok bool) {
	parent = tab.Lookup(from)
	child = tab.Lookup(self)
	if parent < 0 || child < 0 {
		return -1, -1, false
	}
	for child >= 0 && !tab.Syms[child].IsFunc {
		child--
	}
	if child < 0 {
		return -1, -1, false
	}
	return parent, child, true
}

// addArc merges count into the parent-child arc, creating it (newest first
// in both lists) when it does not exist yet.
func (g *Graph) addArc(p, c int, count uint64) {
	if a := g.findArc(p, c); a >= 0 {
		g.Arcs[a].Count += count
		return
	}
	g.Arcs = append(g.Arcs, Arc{Parent: int32(p), Child: int32(c), Count: count})
	id := int32(len(g.Arcs) - 1)
	g.Entries[p].Children = append(g.Entries[p].Children, id)
	g.Entries[c].Parents = append(g.Entries[c].Parents, id)
}

// findArc returns the arc from p to c, or -1. Symbol ranges never overlap,
// so gprof's range-containment lookup is an identity test here.
func (g *Graph) findArc(p, c int) int {
	for _, a := range g.Entries[p].Children {
		if int(g.Arcs[a].Child) == c {
			return int(a)
		}
	}
	return -1
}

// listOrder calls fn for the arcs of list in gprof's list order (newest
// first).
func listOrder(list []int32, fn func(arc int)) {
	for k := len(list) - 1; k >= 0; k-- {
		fn(int(list[k]))
	}
}

// assemble numbers the graph topologically, finds cycles, propagates flags
// and time, and orders the entries for printing.
func (g *Graph) assemble(prof *gmon.Profile, opt Options) {
	n := g.NumSyms
	for i := 0; i < n; i++ {
		e := &g.Entries[i]
		if a := g.findArc(i, i); a >= 0 {
			e.NCalls -= g.Arcs[a].Count
			e.SelfCalls = g.Arcs[a].Count
		}
		if opt.StaticCalls {
			g.findCalls(i, prof, opt.TextBytes)
		}
	}
	dfs := newNumbering(g)
	for i := 0; i < n; i++ {
		if g.Entries[i].TopOrder == dfnNaN {
			dfs.visit(i)
		}
	}
	g.linkCycles()

	topo := g.topologicalOrder(dfs.counter)
	g.topo = topo

	g.propagateFlags(topo)
	g.cycleTime()
	for _, i := range topo {
		g.propagateTime(i)
	}
	if opt.ModelOnly {
		return
	}

	g.nameOrder, g.nameRank = sortNames(g.Syms.Syms)
	g.ByTime = g.totalOrder()
	for k, i := range g.ByTime {
		g.Entries[i].Index = k + 1
	}
	g.orderForDisplay()
}

// topologicalOrder lists the symbols by their topological number (1 to
// maxOrder), in index order within one number (the members of a cycle
// share theirs).
func (g *Graph) topologicalOrder(maxOrder int) []int {
	n := g.NumSyms
	start := make([]int, maxOrder+2)
	for i := 0; i < n; i++ {
		start[g.Entries[i].TopOrder+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	topo := make([]int, n)
	for i := 0; i < n; i++ {
		o := g.Entries[i].TopOrder
		topo[start[o]] = i
		start[o]++
	}
	return topo
}

const (
	dfnNaN  = 0
	dfnBusy = -1
)

// numbering is gprof's depth-first topological numbering with cycle
// detection.
type numbering struct {
	g       *Graph
	stack   []int
	counter int
	// pos is each symbol's position on the stack, -1 when it is not on
	// it, and tail the last member of each cycle head's chain: they make
	// gprof's two linear searches (down the stack, along the chain)
	// constant-time without changing what they find.
	pos, tail []int
}

func newNumbering(g *Graph) *numbering {
	d := &numbering{g: g, stack: []int{-1}} // slot 0 unused, as in gprof
	d.pos = make([]int, len(g.Entries))
	d.tail = make([]int, len(g.Entries))
	for i := range d.pos {
		d.pos[i], d.tail[i] = -1, i
	}
	return d
}

func (d *numbering) visit(p int) {
	e := d.g.Entries
	if e[p].TopOrder != dfnNaN && e[p].TopOrder != dfnBusy {
		return
	}
	if e[p].TopOrder == dfnBusy {
		d.findCycle(p)
		return
	}
	d.stack = append(d.stack, p)
	d.pos[p] = len(d.stack) - 1
	e[p].TopOrder = dfnBusy
	listOrder(e[p].Children, func(a int) { d.visit(int(d.g.Arcs[a].Child)) })
	if e[p].head == p {
		d.counter++
		for m := p; m >= 0; m = e[m].next {
			e[m].TopOrder = d.counter
		}
	}
	d.stack = d.stack[:len(d.stack)-1]
	d.pos[p] = -1
}

// findCycle gathers the symbols between child's stack position and the top
// of the stack into one cycle. gprof scans the stack downwards for the
// first entry that is child, or child's cycle head; that is the higher of
// the two positions.
func (d *numbering) findCycle(child int) {
	e := d.g.Entries
	depth := len(d.stack) - 1
	top := d.pos[child]
	if h := e[child].head; h != child && d.pos[h] > top {
		top = d.pos[h]
	}
	if top <= 0 || top == depth {
		// top <= 0 cannot happen for a busy symbol; top == depth is a
		// self-call, which assemble has already set aside.
		return
	}
	// Every member's head field names its cycle's current head, so the
	// end of the chain through stack[top] is that head's tail.
	head := e[d.stack[top]].head
	tail := d.tail[head]
	for k := top + 1; k <= depth; k++ {
		c := d.stack[k]
		if e[c].head == c {
			e[tail].next = c
			e[c].head = head
			for m := c; e[m].next >= 0; m = e[m].next {
				e[e[m].next].head = head
			}
			tail = d.tail[c]
		}
	}
	d.tail[head] = tail
}

// linkCycles creates one entry per cycle, numbered by the address of its
// head, and counts the calls into and within each cycle.
func (g *Graph) linkCycles() {
	n := g.NumSyms
	heads := 0
	for s := 0; s < n; s++ {
		if g.Entries[s].head == s && g.Entries[s].next >= 0 {
			heads++
		}
	}
	g.Entries = slices.Grow(g.Entries, heads)
	num := 0
	for s := 0; s < n; s++ {
		if !(g.Entries[s].head == s && g.Entries[s].next >= 0) {
			continue
		}
		num++
		cyc := len(g.Entries)
		g.Entries = append(g.Entries, Entry{PrintFlag: true, Cycle: num, head: cyc, next: s})
		for m := s; m >= 0; m = g.Entries[m].next {
			g.Entries[m].Cycle = num
			g.Entries[m].head = cyc
			g.Entries[cyc].Members = append(g.Entries[cyc].Members, m)
		}
		c := &g.Entries[cyc]
		for _, m := range c.Members {
			listOrder(g.Entries[m].Parents, func(a int) {
				arc := &g.Arcs[a]
				if int(arc.Parent) == m {
					return
				}
				if g.Entries[arc.Parent].Cycle == num {
					c.SelfCalls += arc.Count
				} else {
					c.NCalls += arc.Count
				}
			})
		}
	}
}

// inCycle reports whether entry i is a member of a cycle.
func (g *Graph) inCycle(i int) bool { return g.Entries[i].head != i }

// inheritFlags sets the print flag and propagation fraction of a function,
// or of a whole cycle, from its callers.
func (g *Graph) inheritFlags(child int) {
	e := g.Entries
	head := e[child].head
	if head == child {
		c := &e[child]
		c.PrintFlag = false
		c.Fract = 0
		listOrder(c.Parents, func(a int) {
			arc := &g.Arcs[a]
			if int(arc.Parent) == child {
				return
			}
			c.PrintFlag = c.PrintFlag || e[arc.Parent].PrintFlag
			if c.NCalls != 0 {
				c.Fract += float64(e[arc.Parent].Fract * (float64(arc.Count) / float64(c.NCalls)))
			}
		})
		return
	}
	h := &e[head]
	h.PrintFlag = false
	h.Fract = 0
	for m := h.next; m >= 0; m = e[m].next {
		listOrder(e[m].Parents, func(a int) {
			arc := &g.Arcs[a]
			if e[arc.Parent].head == head {
				return
			}
			h.PrintFlag = h.PrintFlag || e[arc.Parent].PrintFlag
			if h.NCalls != 0 {
				h.Fract += float64(e[arc.Parent].Fract * (float64(arc.Count) / float64(h.NCalls)))
			}
		})
	}
	for m := h.next; m >= 0; m = e[m].next {
		e[m].PrintFlag = h.PrintFlag
		e[m].Fract = h.Fract
	}
}

// propagateFlags walks from the topological top down, inheriting flags
// and fractions and applying the graph and time tables.
func (g *Graph) propagateFlags(topo []int) {
	t := &g.Tables
	oldHead := -1
	for k := len(topo) - 1; k >= 0; k-- {
		i := topo[k]
		e := &g.Entries[i]
		if e.head != oldHead {
			oldHead = e.head
			g.inheritFlags(i)
		}
		addr := e.Sym.Addr
		if !e.PrintFlag {
			if t[InclGraph].Contains(addr) || (len(t[InclGraph]) == 0 && !t[ExclGraph].Contains(addr)) {
				e.PrintFlag = true
			}
		} else if !t[InclGraph].Contains(addr) && t[ExclGraph].Contains(addr) {
			e.PrintFlag = false
		}
		if e.Fract == 0 {
			if t[InclTime].Contains(addr) || (len(t[InclTime]) == 0 && !t[ExclTime].Contains(addr)) {
				e.Fract = 1
			}
		} else if !t[InclTime].Contains(addr) && t[ExclTime].Contains(addr) {
			e.Fract = 0
		}
		e.PropSelf = e.Ticks * e.Fract
		g.PrintTime += e.PropSelf
	}
}

// cycleTime sums the members' self time into each cycle entry.
func (g *Graph) cycleTime() {
	for c := g.NumSyms; c < len(g.Entries); c++ {
		h := &g.Entries[c]
		for m := h.next; m >= 0; m = g.Entries[m].next {
			if g.Entries[m].Fract == 0 {
				continue
			}
			h.Ticks += g.Entries[m].Ticks
		}
		h.PropSelf = h.Fract * h.Ticks
	}
}

// propagateTime pulls the time of parent's callees up into parent, sharing
// each callee's time among its callers in proportion to the calls.
func (g *Graph) propagateTime(parent int) {
	e := g.Entries
	p := &e[parent]
	if p.Fract == 0 {
		return
	}
	listOrder(p.Children, func(a int) {
		child, ratio, ok := g.arcShare(parent, a)
		if !ok {
			return
		}
		arc := &g.Arcs[a]
		c := &e[child]
		arc.Time = float64(c.Ticks * ratio)
		arc.ChildTime = float64(c.ChildTime * ratio)
		share := float64(arc.Time + arc.ChildTime)
		p.ChildTime += share
		propShare := float64(p.Fract * share)
		p.PropChild += propShare
		arc.Time = float64(arc.Time * p.Fract)
		arc.ChildTime = float64(arc.ChildTime * p.Fract)
		if g.inCycle(parent) {
			h := &e[p.head]
			h.ChildTime += share
			h.PropChild += propShare
		}
	})
}

// arcShare is gprof's rule for the time an arc carries from a callee to
// its caller parent: from is the entry whose time it carries (the
// callee's cycle when the callee is in one), ratio the share of that time,
// the arc's calls over the entry's calls from outside. ok is false when
// the arc carries nothing: no recorded calls, a call to itself or within
// its cycle, an excluded callee, a callee not below the caller in the
// topological order, or a callee without outside calls.
func (g *Graph) arcShare(parent, a int) (from int, ratio float64, ok bool) {
	e := g.Entries
	arc := &g.Arcs[a]
	child := int(arc.Child)
	if arc.Count == 0 || child == parent || e[child].Fract == 0 {
		return 0, 0, false
	}
	if g.inCycle(child) {
		if e[parent].Cycle == e[child].Cycle {
			return 0, 0, false
		}
		child = e[child].head
	} else if e[parent].TopOrder <= e[child].TopOrder {
		return 0, 0, false
	}
	if e[child].NCalls == 0 {
		return 0, 0, false
	}
	return child, float64(arc.Count) / float64(e[child].NCalls), true
}

// totalKey is what gprof's call-graph order compares of an entry, copied
// out of the entries so that sorting reads one compact array.
type totalKey struct {
	total      float64 // PropSelf + PropChild
	ncalls     uint64
	name       int32 // position of the raw name in name order
	idx        int32
	cycle      bool
	underscore bool // the raw name starts with '_'
}

// totalOrder lists all entries in gprof's call-graph order: more total
// time first, then cycle entries (by number), then names without a
// leading underscore, then more calls, then by raw name; ties keep index
// order, as a stable sort would leave them.
func (g *Graph) totalOrder() []int {
	key := func(i int) totalKey {
		e := &g.Entries[i]
		k := totalKey{total: float64(e.PropSelf + e.PropChild), ncalls: e.NCalls, idx: int32(i), cycle: e.IsCycle()}
		if !k.cycle {
			k.name = g.nameRank[i]
			k.underscore = strings.HasPrefix(e.Sym.Name, "_")
		}
		return k
	}
	if packed, ok := packKeys(len(g.Entries), func(i int) (packedKey, bool) { return packTotal(key(i)) }); ok {
		return sortPacked(packed)
	}
	keys := make([]totalKey, len(g.Entries))
	for i := range keys {
		keys[i] = key(i)
	}
	return sortedEntries(keys, cmpTotal)
}

// packedKey is an entry's sort key packed into two words whose unsigned
// order (hi, then lo) is the order's: sorting such keys compares two
// integers where the order's own comparison tests several fields.
type packedKey struct {
	hi, lo uint64
	idx    int32
}

// Bounds of the fields packed into packedKey.lo: the call counts, and the
// positions in name order and entry indexes.
const (
	packedCalls = 1<<30 - 1
	packedIndex = 1<<31 - 1
)

// packTime packs a time so that more time gives a lower word; ok is false
// for NaN, negative and infinite times, which the orders' comparisons
// treat in their own ways.
func packTime(t float64) (uint64, bool) {
	if !(t >= 0) || math.IsInf(t, 1) {
		return 0, false
	}
	if t == 0 {
		t = 0 // -0 ties with 0
	}
	return ^math.Float64bits(t), true
}

// packTotal packs a key of the call-graph order (see cmpTotal): hi the
// total time; lo the entry index for a cycle, and for a function 1 (2
// with a leading underscore) in its top two bits, then the calls (more
// first), then the name's position. ok is false when it does not fit.
func packTotal(key totalKey) (packedKey, bool) {
	hi, ok := packTime(key.total)
	if !ok || key.ncalls > packedCalls {
		return packedKey{}, false
	}
	lo := uint64(key.idx)
	if !key.cycle {
		class := uint64(1)
		if key.underscore {
			class = 2
		}
		lo = class<<62 | (packedCalls-key.ncalls)<<32 | uint64(key.name)
	}
	return packedKey{hi: hi, lo: lo, idx: key.idx}, true
}

// packKeys packs the keys of n entries, pack(i) packing entry i's; ok is
// false when one does not fit. The keys are packed straight from the
// entries: the unpacked keys are made only when needed.
func packKeys(n int, pack func(i int) (packedKey, bool)) ([]packedKey, bool) {
	if n > packedIndex {
		return nil, false
	}
	packed := make([]packedKey, n)
	for i := range packed {
		p, ok := pack(i)
		if !ok {
			return nil, false
		}
		packed[i] = p
	}
	return packed, true
}

// sortPacked sorts packed keys and returns their entries in that order.
func sortPacked(keys []packedKey) []int {
	slices.SortFunc(keys, func(l, r packedKey) int {
		if l.hi != r.hi {
			return cmp.Compare(l.hi, r.hi)
		}
		return cmp.Compare(l.lo, r.lo)
	})
	order := make([]int, len(keys))
	for k := range keys {
		order[k] = int(keys[k].idx)
	}
	return order
}

// keyed is a sort key that knows the entry it was copied from.
type keyed interface{ entry() int32 }

func (k totalKey) entry() int32 { return k.idx }
func (k flatKey) entry() int32  { return k.idx }

// sortedEntries sorts keys by cmpKeys, which must order every two keys
// (ties broken by entry index, where a stable sort of the entries would
// leave them), and returns their entries in that order.
func sortedEntries[K keyed](keys []K, cmpKeys func(l, r K) int) []int {
	slices.SortFunc(keys, cmpKeys)
	order := make([]int, len(keys))
	for k := range keys {
		order[k] = int(keys[k].entry())
	}
	return order
}

// cmpTotal compares two entries in gprof's call-graph order (see
// totalOrder), ties by index.
func cmpTotal(l, r totalKey) int {
	diff := l.total - r.total
	if diff < 0 {
		return 1
	}
	if diff > 0 {
		return -1
	}
	// Cycles come before functions; two cycles keep their number order.
	switch {
	case l.cycle && r.cycle:
		return cmp.Compare(l.idx, r.idx)
	case l.cycle:
		return -1
	case r.cycle:
		return 1
	}
	if !l.underscore && r.underscore {
		return -1
	}
	if l.underscore && !r.underscore {
		return 1
	}
	if l.ncalls > r.ncalls {
		return -1
	}
	if l.ncalls < r.ncalls {
		return 1
	}
	if c := cmp.Compare(l.name, r.name); c != 0 {
		return c
	}
	return cmp.Compare(l.idx, r.idx)
}

// NameOrder lists the symbols by raw name, equal names in index (address)
// order: the order of gprof's index by function name, and the last
// tie-break of its call-graph and flat-profile orders.
func (g *Graph) NameOrder() []int32 {
	if g.nameOrder != nil {
		return g.nameOrder
	}
	order, _ := sortNames(g.Syms.Syms)
	return order
}

// sortNames returns the symbol indexes in name order (see NameOrder) and
// each symbol's position in it. Sorting the names once lets the other
// orders compare two positions instead of two strings.
func sortNames(syms []symtab.Symbol) (order, rank []int32) {
	type nameKey struct {
		name string
		idx  int32
	}
	keys := make([]nameKey, len(syms))
	for i := range syms {
		keys[i] = nameKey{syms[i].Name, int32(i)}
	}
	slices.SortFunc(keys, func(l, r nameKey) int {
		if c := strings.Compare(l.name, r.name); c != 0 {
			return c
		}
		return cmp.Compare(l.idx, r.idx)
	})
	order = make([]int32, len(keys))
	rank = make([]int32, len(keys))
	for k, key := range keys {
		order[k] = key.idx
		rank[key.idx] = int32(k)
	}
	return order, rank
}

// intraCycleArcs tells for each arc whether it joins two members of one
// cycle.
func (g *Graph) intraCycleArcs() []bool {
	cycle := make([]int32, len(g.Entries)) // compact copy of each entry's Cycle
	for i := range g.Entries {
		cycle[i] = int32(g.Entries[i].Cycle)
	}
	intra := make([]bool, len(g.Arcs))
	for k := range g.Arcs {
		pc, cc := cycle[g.Arcs[k].Parent], cycle[g.Arcs[k].Child]
		intra[k] = pc != 0 && cc != 0 && pc == cc
	}
	return intra
}

// cmpArc is gprof's arc order: self-arcs lowest, then arcs inside a cycle
// (intra says which) by count, then the rest by propagated time and count.
func (g *Graph) cmpArc(intra []bool, x, y int32) int {
	l, r := &g.Arcs[x], &g.Arcs[y]
	if l.Parent == l.Child {
		return -1
	}
	if r.Parent == r.Child {
		return 1
	}
	li, ri := intra[x], intra[y]
	switch {
	case li && ri:
		return cmp.Compare(l.Count, r.Count)
	case li:
		return -1
	case ri:
		return 1
	}
	lt, rt := float64(l.Time+l.ChildTime), float64(r.Time+r.ChildTime)
	if lt < rt {
		return -1
	}
	if lt > rt {
		return 1
	}
	return cmp.Compare(l.Count, r.Count)
}

// orderForDisplay fixes the order in which the call graph lists parents,
// children and cycle members. gprof insertion-sorts its newest-first lists,
// which leaves ties in creation order; a stable sort of the creation order
// gives the same result.
func (g *Graph) orderForDisplay() {
	// Every arc is in one parent list and one child list: two arrays hold
	// all the display lists.
	parents := make([]int32, 0, len(g.Arcs))
	children := make([]int32, 0, len(g.Arcs))
	// The sorts test only "less": x goes before y when cmpArc(x, y) > 0
	// (children) or when cmpMember(x, y) > 0 (members).
	intra := g.intraCycleArcs()
	ascending := func(x, y int32) int { return g.cmpArc(intra, x, y) }
	descending := func(x, y int32) int { return -max(g.cmpArc(intra, x, y), 0) }
	for i := range g.Entries {
		e := &g.Entries[i]
		parents = append(parents, e.Parents...)
		e.DisplayParents = parents[len(parents)-len(e.Parents) : len(parents) : len(parents)]
		slices.SortStableFunc(e.DisplayParents, ascending)
		children = append(children, e.Children...)
		e.DisplayChildren = children[len(children)-len(e.Children) : len(children) : len(children)]
		slices.SortStableFunc(e.DisplayChildren, descending)
		if e.IsCycle() {
			e.DisplayMembers = slices.Clone(e.Members)
			slices.SortStableFunc(e.DisplayMembers, func(a, b int) int { return -max(g.cmpMember(a, b), 0) })
		}
	}
}

func (g *Graph) cmpMember(a, b int) int {
	l, r := &g.Entries[a], &g.Entries[b]
	lt, rt := float64(l.PropSelf+l.PropChild), float64(r.PropSelf+r.PropChild)
	if lt > rt {
		return 1
	}
	if lt < rt {
		return -1
	}
	return cmp.Compare(l.NCalls+l.SelfCalls, r.NCalls+r.SelfCalls)
}

// CycleEntry returns the cycle entry a member belongs to, or -1.
func (g *Graph) CycleEntry(i int) int {
	if g.Entries[i].head == i || g.Entries[i].head < g.NumSyms {
		return -1
	}
	return g.Entries[i].head
}

// ScansCalls reports whether gprof's -c finds the direct calls in code of
// machine m. gprof decodes the calls of the machines its BFD recognises;
// the oracle's, Debian's binutils for x86, recognises x86 only, and opens
// other machines' executables through its generic ELF target, whose
// architecture is "unknown": gprof then says -c is not supported and
// finds no call.
func ScansCalls(m elf.Machine) bool {
	const emIAMCU elf.Machine = 6 // Intel MCU, also i386 to BFD; debug/elf has no name for it
	return m == elf.EM_386 || m == elf.EM_X86_64 || m == emIAMCU
}

// findCalls adds count-0 arcs for direct x86 call instructions in symbol
// i's code whose target is the start of a symbol (gprof -c). As in gprof
// the 32-bit displacement is not sign-extended, so only forward calls are
// found.
func (g *Graph) findCalls(i int, prof *gmon.Profile, text []byte) {
	if len(text) == 0 {
		return
	}
	syms := g.Syms.Syms
	lo := syms[i].Addr
	var hi uint64
	if i+1 < len(syms) {
		hi = syms[i+1].Addr
	} else {
		hi = g.Syms.TextEnd + 1
	}
	lo, hi = clipToHistogram(prof, lo, hi)
	textLo := g.Syms.TextLow
	order := g.Syms.Target.Order
	for pc := lo; pc < hi; pc++ {
		if pc < textLo || pc-textLo+5 > uint64(len(text)) {
			continue
		}
		off := pc - textLo
		if text[off] != 0xe8 {
			continue
		}
		dest := uint64(order.Uint32(text[off+1:off+5])) + pc + 5
		if !inHistogram(prof, uint64(uint32(dest))) {
			continue
		}
		c := g.Syms.Lookup(dest)
		if c >= 0 && syms[c].Addr == dest && g.findArc(i, c) < 0 {
			g.addArc(i, c, 0)
		}
	}
}

func inHistogram(prof *gmon.Profile, addr uint64) bool {
	for _, h := range prof.Hists {
		if h.LowPC <= addr && addr < h.HighPC {
			return true
		}
	}
	return false
}

// clipToHistogram narrows [lo, hi) to the histogram record it overlaps; no
// overlap gives an empty range.
func clipToHistogram(prof *gmon.Profile, lo, hi uint64) (uint64, uint64) {
	for _, h := range prof.Hists {
		cl, ch := max(h.LowPC, lo), min(h.HighPC, hi)
		if cl < ch {
			return cl, ch
		}
	}
	return lo, lo
}

// FlatOrder returns the symbol indexes in flat-profile order: more self
// time first, then more calls, then raw name; ties keep address order.
func (g *Graph) FlatOrder() []int {
	key := func(i int) flatKey {
		e := &g.Entries[i]
		k := flatKey{ticks: e.Ticks, ncalls: e.NCalls, name: e.Sym.Name, idx: int32(i)}
		if g.nameRank != nil {
			k.rank = g.nameRank[i]
		}
		return k
	}
	if g.nameRank != nil {
		if packed, ok := packKeys(g.NumSyms, func(i int) (packedKey, bool) { return packFlat(key(i)) }); ok {
			return sortPacked(packed)
		}
	}
	keys := make([]flatKey, g.NumSyms)
	for i := range keys {
		keys[i] = key(i)
	}
	// Names compare by their positions in name order when assemble has
	// sorted them; ties keep address order either way.
	cmpNames := func(l, r flatKey) int {
		if c := strings.Compare(l.name, r.name); c != 0 {
			return c
		}
		return cmp.Compare(l.idx, r.idx)
	}
	if g.nameRank != nil {
		cmpNames = func(l, r flatKey) int { return cmp.Compare(l.rank, r.rank) }
	}
	return sortedEntries(keys, func(l, r flatKey) int {
		if d := r.ticks - l.ticks; d != 0 {
			if d < 0 {
				return -1
			}
			return 1
		}
		if l.ncalls != r.ncalls {
			if l.ncalls > r.ncalls {
				return -1
			}
			return 1
		}
		return cmpNames(l, r)
	})
}

// packFlat packs a key of the flat profile's order, whose names have
// been sorted: hi the self time, lo the calls (more first) above the
// name's position. ok is false when it does not fit.
func packFlat(key flatKey) (packedKey, bool) {
	hi, ok := packTime(key.ticks)
	if !ok || key.ncalls > packedCalls {
		return packedKey{}, false
	}
	return packedKey{hi: hi, lo: (packedCalls-key.ncalls)<<32 | uint64(key.rank), idx: key.idx}, true
}

// flatKey is what the flat profile's order compares of an entry, copied
// out of the entries so that sorting reads one compact array.
type flatKey struct {
	ticks  float64
	ncalls uint64
	name   string
	rank   int32 // the name's position in name order, if known
	idx    int32
}
