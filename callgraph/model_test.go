package callgraph

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/egprof/egprof/gmon"
	"github.com/egprof/egprof/symtab"
)

// The tests in this file build symbol tables and profiles by hand and check
// the model's numbers against values worked out by hand from GNU gprof
// 2.40's algorithms: hist_assign_samples_1 (hist.c) for the attribution of
// samples, cg_tally (call_graph.c) for arcs, cg_dfn.c for cycles, and
// propagate_flags, cycle_time and propagate_time (cg_arcs.c) for the
// propagation of time. No golden file and no gprof run is involved.

// fn is a function symbol of size bytes at addr.
func fn(name string, addr, size uint64) symtab.Symbol {
	return symtab.Symbol{Name: name, Addr: addr, End: addr + size - 1, IsFunc: true}
}

// table is a 64-bit little-endian symbol table of syms (in address order)
// whose text runs from the first symbol to the end of the last.
func table(syms ...symtab.Symbol) *symtab.Table {
	return &symtab.Table{
		Target:  gmon.Target{Order: binary.LittleEndian, AddrSize: 8},
		Syms:    syms,
		TextLow: syms[0].Addr,
		TextEnd: syms[len(syms)-1].End,
	}
}

// histRec is a histogram record: bins of equal width over [low, high).
type histRec struct {
	low, high uint64
	bins      []uint16
}

// arcRec is a call-graph record.
type arcRec struct {
	from, self uint64
	count      uint32
}

// profile encodes a GNU gmon.out (version 1, 64-bit little-endian, 100
// samples per second) holding h (if not nil) and arcs, and reads it as gmon
// does.
func profile(t *testing.T, h *histRec, arcs []arcRec) *gmon.Profile {
	t.Helper()
	le := binary.LittleEndian
	data := []byte("gmon")
	data = le.AppendUint32(data, 1)
	data = append(data, make([]byte, 12)...)
	if h != nil {
		data = append(data, 0)
		data = le.AppendUint64(data, h.low)
		data = le.AppendUint64(data, h.high)
		data = le.AppendUint32(data, uint32(len(h.bins)))
		data = le.AppendUint32(data, 100)
		dimen := make([]byte, 15)
		copy(dimen, "seconds")
		data = append(data, dimen...)
		data = append(data, 's')
		for _, v := range h.bins {
			data = le.AppendUint16(data, v)
		}
	}
	for _, a := range arcs {
		data = append(data, 1)
		data = le.AppendUint64(data, a.from)
		data = le.AppendUint64(data, a.self)
		data = le.AppendUint32(data, a.count)
	}
	p := gmon.NewProfile(gmon.Target{Order: le, AddrSize: 8}, gmon.FormatAuto)
	_, err := p.AddData(data, "hand-made")
	require.NoError(t, err)
	return p
}

// entryByName returns the index of the function called name.
func entryByName(t *testing.T, g *Graph, name string) int {
	t.Helper()
	for i := range g.NumSyms {
		if g.Entries[i].Sym.Name == name {
			return i
		}
	}
	require.Failf(t, "no such function", "%s", name)
	return -1
}

// TestAttribution checks how histogram bins are shared among symbols. A
// symbol's range in gprof's sharing runs from its start to the next
// symbol's start (the last one's to the top of memory), in 2-byte units;
// bin b of a record covers [low/2 + trunc(scale*b), low/2 +
// trunc(scale*(b+1))) with scale = ((high-low)/2)/nbins; a bin of count c
// gives overlap*c/scale to each symbol it overlaps. Every count enters the
// total; the credit of a symbol the flat profile leaves out (-p, -P, the
// profiling runtime) is taken out again.
func TestAttribution(t *testing.T) {
	cases := []struct {
		name     string
		syms     []symtab.Symbol
		hist     histRec
		specs    []SpecUse
		ticks    map[string]float64
		total    float64 // Graph.TotalTime
		credited float64 // Graph.CreditedSamples
	}{
		{
			// scale = (0x20/2)/16 = 1 unit: bin b is units [0x80+b, 0x81+b).
			// f is units [0x80,0x88): bins 0 (3) and 7 (1) give 4; g from
			// 0x88: bin 8 gives 4.
			name:  "each bin inside one symbol",
			syms:  []symtab.Symbol{fn("f", 0x100, 0x10), fn("g", 0x110, 0x10)},
			hist:  histRec{low: 0x100, high: 0x120, bins: []uint16{0: 3, 7: 1, 8: 4, 15: 0}},
			ticks: map[string]float64{"f": 4, "g": 4},
			total: 8, credited: 8,
		},
		{
			// scale = (0x20/2)/2 = 8 units. Bin 0, units [0x80,0x88), holds
			// 10 samples over f [0x80,0x84) and g [0x84,...): 4*10/8 = 5
			// each. Bin 1, [0x88,0x90), all g: 8*2/8 = 2. g = 5+2 = 7.
			name:  "a bin straddling two symbols is split by overlap",
			syms:  []symtab.Symbol{fn("f", 0x100, 8), fn("g", 0x108, 0x18)},
			hist:  histRec{low: 0x100, high: 0x120, bins: []uint16{10, 2}},
			ticks: map[string]float64{"f": 5, "g": 7},
			total: 12, credited: 12,
		},
		{
			// One bin of scale (0x10/2)/1 = 8 units and 8 samples over f
			// (2 units), g (1 unit) and h (the other 5): 2, 1 and 5.
			name:  "a bin over three symbols",
			syms:  []symtab.Symbol{fn("f", 0x100, 4), fn("g", 0x104, 2), fn("h", 0x106, 0x1a)},
			hist:  histRec{low: 0x100, high: 0x110, bins: []uint16{8}},
			ticks: map[string]float64{"f": 2, "g": 1, "h": 5},
			total: 8, credited: 8,
		},
		{
			// f ends at 0x103 but its range runs to g's start at 0x108:
			// of the 8-unit bin of 8 samples, f's 4 units [0x80,0x84) get
			// 4 and g's 4 units get 4.
			name:  "the gap after a symbol is credited to it",
			syms:  []symtab.Symbol{fn("f", 0x100, 4), fn("g", 0x108, 8)},
			hist:  histRec{low: 0x100, high: 0x110, bins: []uint16{8}},
			ticks: map[string]float64{"f": 4, "g": 4},
			total: 8, credited: 8,
		},
		{
			// scale = (6/2)/2 = 1.5. Bin 0 is units [0x80, 0x80+trunc(1.5))
			// = [0x80,0x81), all f: 1*3/1.5 = 2 of its 3 samples. Bin 1 is
			// [0x81, 0x80+trunc(3)) = [0x81,0x83), all g: 2*6/1.5 = 8 from
			// 6 samples. The total counts 9, the symbols 10.
			name:  "bin edges are truncated to whole units",
			syms:  []symtab.Symbol{fn("f", 0x100, 2), fn("g", 0x102, 4)},
			hist:  histRec{low: 0x100, high: 0x106, bins: []uint16{3, 6}},
			ticks: map[string]float64{"f": 2, "g": 8},
			total: 9, credited: 10,
		},
		{
			// scale = (0x10/2)/2 = 4 units. Bin 0, [0x80,0x84), ends where
			// f starts: overlap 0, its 5 samples go to nobody. Bin 1,
			// [0x84,0x88), gives f 4*3/4 = 3.
			name:  "samples below the first symbol count only in the total",
			syms:  []symtab.Symbol{fn("f", 0x108, 8)},
			hist:  histRec{low: 0x100, high: 0x110, bins: []uint16{5, 3}},
			ticks: map[string]float64{"f": 3},
			total: 8, credited: 3,
		},
		{
			// The straddling bin of the second case: g's 5 + 2 leave the
			// total (12 - 7 = 5).
			name:  "-P: an excluded symbol's credit leaves the total",
			syms:  []symtab.Symbol{fn("f", 0x100, 8), fn("g", 0x108, 0x18)},
			hist:  histRec{low: 0x100, high: 0x120, bins: []uint16{10, 2}},
			specs: []SpecUse{{ExclFlat, "g"}},
			ticks: map[string]float64{"f": 5, "g": 0},
			total: 5, credited: 5,
		},
		{
			// The same with -p f: g is not included, so not credited.
			name:  "-p: only the included symbols are credited",
			syms:  []symtab.Symbol{fn("f", 0x100, 8), fn("g", 0x108, 0x18)},
			hist:  histRec{low: 0x100, high: 0x120, bins: []uint16{10, 2}},
			specs: []SpecUse{{InclFlat, "f"}},
			ticks: map[string]float64{"f": 5, "g": 0},
			total: 5, credited: 5,
		},
		{
			// The profiling runtime is excluded by default: of the 10
			// samples split 5/5, mcount's 5 leave the total.
			name:  "mcount is never credited",
			syms:  []symtab.Symbol{fn("f", 0x100, 8), fn("mcount", 0x108, 8)},
			hist:  histRec{low: 0x100, high: 0x110, bins: []uint16{10}},
			ticks: map[string]float64{"f": 5, "mcount": 0},
			total: 5, credited: 5,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := Build(table(c.syms...), profile(t, &c.hist, nil), Options{Specs: c.specs})
			require.True(t, g.HasHist)
			for name, want := range c.ticks {
				assert.InDelta(t, want, g.Entries[entryByName(t, g, name)].Ticks, 1e-12, "%s's samples", name)
			}
			assert.InDelta(t, c.total, g.TotalTime, 1e-12, "total")
			assert.InDelta(t, c.credited, g.CreditedSamples, 1e-12, "credited")
		})
	}
}

// wantEntry is what a test expects of one entry of the call graph.
type wantEntry struct {
	nCalls, selfCalls   uint64
	cycle               int
	propSelf, propChild float64
	hidden              bool // not printed in the call graph
}

// arcTime is the time an arc carries to its caller: the callee's self
// share and children share.
type arcTime struct{ self, child float64 }

// TestPropagation checks the call graph's counts, cycles and propagated
// times on small graphs. Each function is 16 bytes; its samples sit in the
// 2-byte bin at its start, so its self time is exactly its ticks. A callee
// c's self and children time reaches a caller p in the share
// calls(p->c)/ncalls(c), where ncalls excludes self-calls; a cycle
// counts as one callee whose time is its members' and whose ncalls are the
// calls from outside it.
func TestPropagation(t *testing.T) {
	// callers: main calls a and b, both call c (b twice in two records,
	// merged into one arc of 3). Self times 0, 2, 4, 12.
	callers := func(specs ...SpecUse) graphCase {
		return graphCase{
			funcs: []string{"main", "a", "b", "c"},
			ticks: []uint16{0, 2, 4, 12},
			arcs:  [][3]int{{0, 1, 1}, {0, 2, 1}, {1, 3, 1}, {2, 3, 2}, {2, 3, 1}},
			specs: specs,
		}
	}
	// cycle: main calls a; a calls b twice, b calls a three times.
	cycle := func(specs ...SpecUse) graphCase {
		return graphCase{
			funcs: []string{"main", "a", "b"},
			ticks: []uint16{0, 6, 4},
			arcs:  [][3]int{{0, 1, 1}, {1, 2, 2}, {2, 1, 3}},
			specs: specs,
		}
	}
	cases := []struct {
		name string
		graphCase
		entries   map[string]wantEntry // by function name or "<cycle N>"
		arcs      map[[2]string]arcTime
		cycles    [][]string // each cycle's members, head first
		printTime float64
	}{
		{
			// c (12, 4 calls) gives a 12*1/4 = 3 and b 12*3/4 = 9;
			// main gets a's 2+3 and b's 4+9: 18.
			name:      "callers share a callee's time by their calls",
			graphCase: callers(),
			entries: map[string]wantEntry{
				"main": {propChild: 18},
				"a":    {nCalls: 1, propSelf: 2, propChild: 3},
				"b":    {nCalls: 1, propSelf: 4, propChild: 9},
				"c":    {nCalls: 4, propSelf: 12},
			},
			arcs: map[[2]string]arcTime{
				{"a", "c"}: {3, 0}, {"b", "c"}: {9, 0},
				{"main", "a"}: {2, 3}, {"main", "b"}: {4, 9},
			},
			printTime: 18,
		},
		{
			// -e c hides c, but its time still propagates: the numbers of
			// the first case.
			name:      "-e hides a function, its time still reaches callers",
			graphCase: callers(SpecUse{ExclGraph, "c"}),
			entries: map[string]wantEntry{
				"main": {propChild: 18},
				"a":    {nCalls: 1, propSelf: 2, propChild: 3},
				"c":    {nCalls: 4, propSelf: 12, hidden: true},
			},
			printTime: 18,
		},
		{
			// -E c: c's fraction is 0, so nothing of its 12 propagates and
			// it leaves the printed total: main gets only a's 2 and b's 4.
			name:      "-E takes a function's time away from its callers",
			graphCase: callers(SpecUse{ExclTime, "c"}, SpecUse{ExclGraph, "c"}),
			entries: map[string]wantEntry{
				"main": {propChild: 6},
				"a":    {nCalls: 1, propSelf: 2},
				"b":    {nCalls: 1, propSelf: 4},
				"c":    {nCalls: 4, hidden: true},
			},
			arcs:      map[[2]string]arcTime{{"a", "c"}: {0, 0}, {"main", "b"}: {4, 0}},
			printTime: 6,
		},
		{
			// -f a: only a and what it calls are printed (c, because one
			// of its callers is); the times are those of the first case.
			name:      "-f shows a function and its callees only",
			graphCase: callers(SpecUse{InclGraph, "a"}),
			entries: map[string]wantEntry{
				"main": {propChild: 18, hidden: true},
				"a":    {nCalls: 1, propSelf: 2, propChild: 3},
				"b":    {nCalls: 1, propSelf: 4, propChild: 9, hidden: true},
				"c":    {nCalls: 4, propSelf: 12},
			},
			printTime: 18,
		},
		{
			// -k a/c drops the arc when tallying: c has 3 calls, all b's,
			// so b gets its 12; main still gets 2 + 4 + 12 = 18.
			name:      "-k drops an arc before anything is counted",
			graphCase: callers(SpecUse{ExclArcs, "a/c"}),
			entries: map[string]wantEntry{
				"main": {propChild: 18},
				"a":    {nCalls: 1, propSelf: 2},
				"b":    {nCalls: 1, propSelf: 4, propChild: 12},
				"c":    {nCalls: 3, propSelf: 12},
			},
			arcs:      map[[2]string]arcTime{{"main", "a"}: {2, 0}, {"main", "b"}: {4, 12}},
			printTime: 18,
		},
		{
			// f calls itself 5 times: those calls are counted apart
			// (ncalls 7-5 = 2), carry no time, and make no cycle.
			name: "a self-recursive arc",
			graphCase: graphCase{
				funcs: []string{"main", "f"},
				ticks: []uint16{0, 8},
				arcs:  [][3]int{{0, 1, 2}, {1, 1, 5}},
			},
			entries: map[string]wantEntry{
				"main": {propChild: 8},
				"f":    {nCalls: 2, selfCalls: 5, propSelf: 8},
			},
			arcs:      map[[2]string]arcTime{{"main", "f"}: {8, 0}, {"f", "f"}: {0, 0}},
			printTime: 8,
		},
		{
			// Nobody calls f: it is a root of its own (fraction 1,
			// printed), and its 6 samples count in the total 1+2+6.
			name: "a function without callers is spontaneous",
			graphCase: graphCase{
				funcs: []string{"main", "g", "f"},
				ticks: []uint16{1, 2, 6},
				arcs:  [][3]int{{0, 1, 1}},
			},
			entries: map[string]wantEntry{
				"main": {propSelf: 1, propChild: 2},
				"g":    {nCalls: 1, propSelf: 2},
				"f":    {propSelf: 6},
			},
			printTime: 9,
		},
		{
			// a and b form cycle 1: 1 call from outside (main->a), 2+3
			// calls inside, time 6+4 = 10, all of which main gets (its
			// one call is all the cycle's outside calls). Time does not
			// move along arcs inside the cycle.
			name:      "two functions calling each other form a cycle",
			graphCase: cycle(),
			entries: map[string]wantEntry{
				"main":      {propChild: 10},
				"a":         {nCalls: 4, cycle: 1, propSelf: 6},
				"b":         {nCalls: 2, cycle: 1, propSelf: 4},
				"<cycle 1>": {nCalls: 1, selfCalls: 5, cycle: 1, propSelf: 10},
			},
			arcs:      map[[2]string]arcTime{{"main", "a"}: {10, 0}, {"a", "b"}: {0, 0}, {"b", "a"}: {0, 0}},
			cycles:    [][]string{{"a", "b"}},
			printTime: 10,
		},
		{
			// -E b inside the cycle: b's fraction drops to 0, so the
			// cycle's time is a's 6 only (cycle_time skips b).
			name:      "-E on a cycle member takes its time out of the cycle",
			graphCase: cycle(SpecUse{ExclTime, "b"}, SpecUse{ExclGraph, "b"}),
			entries: map[string]wantEntry{
				"main":      {propChild: 6},
				"a":         {nCalls: 4, cycle: 1, propSelf: 6},
				"b":         {nCalls: 2, cycle: 1, hidden: true},
				"<cycle 1>": {nCalls: 1, selfCalls: 5, cycle: 1, propSelf: 6},
			},
			arcs:      map[[2]string]arcTime{{"main", "a"}: {6, 0}},
			cycles:    [][]string{{"a", "b"}},
			printTime: 6,
		},
		{
			// c (8 samples, 4 calls) gives cycle member b 8*2/4 = 4 and d
			// 4. The cycle {a,b} has self 2+2 = 4 and children 4; main's
			// one call of the cycle's one outside call brings 4+4, and d
			// brings 0+4: 12.
			name: "a cycle passes its callees' time up",
			graphCase: graphCase{
				funcs: []string{"main", "a", "b", "c", "d"},
				ticks: []uint16{0, 2, 2, 8, 0},
				arcs:  [][3]int{{0, 1, 1}, {1, 2, 1}, {2, 1, 1}, {2, 3, 2}, {0, 4, 1}, {4, 3, 2}},
			},
			entries: map[string]wantEntry{
				"main":      {propChild: 12},
				"a":         {nCalls: 2, cycle: 1, propSelf: 2},
				"b":         {nCalls: 1, cycle: 1, propSelf: 2, propChild: 4},
				"c":         {nCalls: 4, propSelf: 8},
				"d":         {nCalls: 1, propChild: 4},
				"<cycle 1>": {nCalls: 1, selfCalls: 2, cycle: 1, propSelf: 4, propChild: 4},
			},
			arcs: map[[2]string]arcTime{
				{"main", "a"}: {4, 4}, {"b", "c"}: {4, 0}, {"d", "c"}: {4, 0}, {"main", "d"}: {0, 4},
			},
			cycles:    [][]string{{"a", "b"}},
			printTime: 12,
		},
		{
			// main calls y (added last, so visited first) and q. The
			// depth-first search enters {x,y} at y and {p,q} at q, which
			// become the heads; cycles are numbered by their heads'
			// addresses, so {q,p} is cycle 1 although found second.
			name: "cycles are numbered by the address of their heads",
			graphCase: graphCase{
				funcs: []string{"main", "p", "q", "x", "y"},
				ticks: []uint16{0, 1, 2, 3, 4},
				arcs:  [][3]int{{0, 2, 1}, {2, 1, 1}, {1, 2, 1}, {0, 4, 1}, {4, 3, 1}, {3, 4, 1}},
			},
			entries: map[string]wantEntry{
				"main":      {propChild: 10},
				"p":         {nCalls: 1, cycle: 1, propSelf: 1},
				"q":         {nCalls: 2, cycle: 1, propSelf: 2},
				"x":         {nCalls: 1, cycle: 2, propSelf: 3},
				"y":         {nCalls: 2, cycle: 2, propSelf: 4},
				"<cycle 1>": {nCalls: 1, selfCalls: 2, cycle: 1, propSelf: 3},
				"<cycle 2>": {nCalls: 1, selfCalls: 2, cycle: 2, propSelf: 7},
			},
			cycles:    [][]string{{"q", "p"}, {"y", "x"}},
			printTime: 10,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.build(t)
			entry := func(name string) *Entry {
				var cyc int
				if _, err := fmt.Sscanf(name, "<cycle %d>", &cyc); err == nil {
					require.Less(t, g.NumSyms+cyc-1, len(g.Entries), name)
					return &g.Entries[g.NumSyms+cyc-1]
				}
				return &g.Entries[entryByName(t, g, name)]
			}
			for name, want := range c.entries {
				e := entry(name)
				assert.Equal(t, want.nCalls, e.NCalls, "%s: calls", name)
				assert.Equal(t, want.selfCalls, e.SelfCalls, "%s: self calls", name)
				assert.Equal(t, want.cycle, e.Cycle, "%s: cycle", name)
				assert.InDelta(t, want.propSelf, e.PropSelf, 1e-9, "%s: self time", name)
				assert.InDelta(t, want.propChild, e.PropChild, 1e-9, "%s: children time", name)
				assert.Equal(t, !want.hidden, e.PrintFlag, "%s: printed", name)
			}
			for ends, want := range c.arcs {
				a := g.findArc(entryByName(t, g, ends[0]), entryByName(t, g, ends[1]))
				require.GreaterOrEqual(t, a, 0, "arc %s->%s", ends[0], ends[1])
				assert.InDelta(t, want.self, g.Arcs[a].Time, 1e-9, "arc %s->%s: self share", ends[0], ends[1])
				assert.InDelta(t, want.child, g.Arcs[a].ChildTime, 1e-9, "arc %s->%s: children share", ends[0], ends[1])
			}
			var cycles [][]string
			for _, e := range g.Entries[g.NumSyms:] {
				var names []string
				for _, m := range e.Members {
					names = append(names, g.Entries[m].Sym.Name)
				}
				cycles = append(cycles, names)
			}
			assert.Equal(t, c.cycles, cycles, "cycles")
			assert.InDelta(t, c.printTime, g.PrintTime, 1e-9, "printed total")
		})
	}
}

// graphCase is a call graph made with synthetic: function names, their
// self samples, arcs (caller, callee, count) and symspecs.
type graphCase struct {
	funcs []string
	ticks []uint16
	arcs  [][3]int
	specs []SpecUse
}

func (c graphCase) build(t *testing.T) *Graph {
	tab, prof := synthetic(t, c.funcs, c.ticks, c.arcs)
	return Build(tab, prof, Options{Specs: c.specs})
}

// TestTallyArcEnds checks cg_tally's handling of arc ends: an end outside
// every symbol drops the arc; a callee address inside a symbol that is
// not a function is charged to the function before it.
func TestTallyArcEnds(t *testing.T) {
	tab := table(
		fn("main", 0x100, 0x10),
		fn("f", 0x110, 8),
		symtab.Symbol{Name: "f.cold", Addr: 0x118, End: 0x11f},
	)
	prof := profile(t, nil, []arcRec{
		{from: 0x104, self: 0x11a, count: 2}, // into f.cold: charged to f
		{from: 0x050, self: 0x110, count: 7}, // caller outside every symbol
		{from: 0x104, self: 0x500, count: 9}, // callee outside every symbol
		{from: 0x104, self: 0x110, count: 1}, // main -> f again: merged
	})
	g := Build(tab, prof, Options{})
	assert.Equal(t, 2, g.DroppedArcs)
	require.Len(t, g.Arcs, 1)
	assert.Equal(t, Arc{Parent: 0, Child: 1, Count: 3}, g.Arcs[0])
	assert.Equal(t, uint64(3), g.Entries[1].NCalls)
	assert.Equal(t, uint64(0), g.Entries[2].NCalls)
}

// TestFlowPasses works Flow out by hand on the graphs of TestPropagation
// when only some functions pass their time on.
func TestFlowPasses(t *testing.T) {
	// main calls a and b; a calls c once, b calls c three times. Self
	// times 0, 2, 4, 12.
	callers := graphCase{funcs: []string{"main", "a", "b", "c"}, ticks: []uint16{0, 2, 4, 12},
		arcs: [][3]int{{0, 1, 1}, {0, 2, 1}, {1, 3, 1}, {2, 3, 3}}}
	// main calls a; a and b call each other (a cycle). Self times 0, 6, 4.
	cycle := graphCase{funcs: []string{"main", "a", "b"}, ticks: []uint16{0, 6, 4},
		arcs: [][3]int{{0, 1, 1}, {1, 2, 2}, {2, 1, 3}}}
	cases := []struct {
		name   string
		g      graphCase
		passes []string
		held   []float64 // per function
		called []bool
	}{
		// c's 12 goes 3 to a and 9 to b, which keep it.
		{"one callee passes", callers, []string{"c"}, []float64{0, 5, 13, 12}, []bool{false, true, true, true}},
		// a passes its own 2 and c's 3 on to main.
		{"a chain passes", callers, []string{"c", "a"}, []float64{5, 5, 13, 12}, nil},
		{"nothing passes", callers, nil, []float64{0, 2, 4, 12}, nil},
		// The cycle passes what its passing member holds (b's 4), to
		// main; a keeps its 6, and nothing goes from b to a inside the
		// cycle.
		{"a cycle passes its passing member", cycle, []string{"b"}, []float64{4, 6, 4}, []bool{false, true, true}},
		{"a whole cycle", cycle, []string{"a", "b"}, []float64{10, 6, 4}, nil},
	}
	for _, tc := range cases {
		g := tc.g.build(t)
		pass := map[string]bool{}
		for _, n := range tc.passes {
			pass[n] = true
		}
		held := g.Flow(1, func(i int, v []float64) { v[0] = g.Entries[i].Ticks },
			func(i int) bool { return pass[g.Syms.Syms[i].Name] })
		assert.Equal(t, tc.held, held, tc.name)
		for i, want := range tc.called {
			assert.Equal(t, want, g.Called(i), "%s: %s", tc.name, g.Syms.Syms[i].Name)
		}
	}
}
