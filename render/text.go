package render

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/egprof/egprof/callgraph"
	"github.com/egprof/egprof/internal/parallel"
	"github.com/egprof/egprof/symtab"
)

// TextOptions are the display settings of gprof's text report.
type TextOptions struct {
	Brief           bool                 // -b: no explanations
	Traditional     bool                 // -T: BSD layout, raw names
	Demangle        bool                 // print demangled names
	DemangleStyle   symtab.DemangleStyle // --demangle=STYLE
	InlineFileNames bool                 // --inline-file-names
	PrintPath       bool                 // -L: full source paths
	LineGranularity bool                 // -l
	ShowZeros       bool                 // -z
	Width           int                  // -w: index width (80 by default)
}

// Text writes gprof's text sections. It remembers whether anything was
// printed yet, since every section after the first starts with a form feed.
type Text struct {
	w       *bufio.Writer
	opt     TextOptions
	g       *callgraph.Graph
	printed bool
	// names caches each symbol's printed name: demangling is the costly
	// part of printing, and a function appears on many lines.
	names []string
	// demangler is the names' demangler on the printing goroutine (each
	// goroutine of a parallel call graph has its own).
	demangler symtab.Demangler
	// fullNames holds each entry's call-graph name (fullName), computed
	// on first use; fullSpans[i] locates entry i's in it (n == 0: not yet).
	fullNames []byte
	fullSpans []span
	// namesFrozen is set while several goroutines format the call graph:
	// every name it prints has been computed, and none may be added.
	namesFrozen bool
	// par says when and how the call graph is formatted in parallel.
	par parallelism
}

// parallelism says when the call graph is formatted on several
// goroutines: workers of them (0: one per processor) when it has at least
// minRows entries, chunk entries at a time. Tests lower the bounds.
type parallelism struct {
	workers, minRows, chunk int
}

// span is where a name lies in a buffer of names.
type span struct{ off, n int32 }

// Naming is how egprof's own outputs spell function names under these
// options: the naming options of gprof's sections apply the same way.
func (o TextOptions) Naming() symtab.Naming {
	return symtab.Naming{
		Demangle:        o.Demangle && !o.Traditional,
		Style:           o.DemangleStyle,
		FullPath:        o.PrintPath,
		InlineFileNames: o.InlineFileNames,
	}
}

// NewText returns a text renderer for g writing to w. Call Flush at the end.
func NewText(w io.Writer, g *callgraph.Graph, opt TextOptions) *Text {
	if opt.Width == 0 {
		opt.Width = 80
	}
	return &Text{w: bufio.NewWriterSize(w, 64<<10), opt: opt, g: g,
		par: parallelism{minRows: parallelMinRows, chunk: parallelChunk}}
}

// Flush writes out buffered output.
func (t *Text) Flush() error { return t.w.Flush() }

// MarkPrinted records that something (such as -i's file summary) was
// printed before the sections, so the first section starts with a form
// feed.
func (t *Text) MarkPrinted() { t.printed = true }

func (t *Text) separator() {
	if t.printed {
		t.w.WriteString("\f\n")
	}
	t.printed = true
}

// name is gprof's printed name of a symbol: demangled unless -T or
// --no-demangle, with " (file:line)" for -l or --inline-file-names.
func (t *Text) name(i int) string {
	if t.names == nil {
		t.names = make([]string, len(t.g.Syms.Syms))
	}
	if n := t.names[i]; n != "" {
		return n
	}
	n := t.computeName(&t.demangler, i)
	t.names[i] = n
	return n
}

// FlatName is the name the flat profile prints for entry i: with -l, a
// line's "function (file:line @ address)"; with -T, followed by its cycle
// and index as the call graph prints them.
func (t *Text) FlatName(i int) string {
	if t.opt.Traditional {
		return t.fullName(i)
	}
	return t.name(i)
}

func (t *Text) computeName(d *symtab.Demangler, i int) string {
	s := &t.g.Syms.Syms[i]
	n := s.Name
	if !t.opt.Traditional && t.opt.Demangle {
		n = d.Demangle(n, t.opt.DemangleStyle)
	}
	if t.opt.LineGranularity || t.opt.InlineFileNames {
		if loc, ok := t.g.Syms.SymbolSource(i); ok {
			file := t.fileName(loc.File)
			if t.opt.LineGranularity {
				n += fmt.Sprintf(" (%s:%d @ %x)", file, loc.Line, s.Addr)
			} else {
				n += fmt.Sprintf(" (%s:%d)", file, loc.Line)
			}
		}
	}
	return n
}

func (t *Text) fileName(f string) string {
	if t.opt.PrintPath {
		return f
	}
	if k := strings.LastIndexByte(f, '/'); k >= 0 {
		return f[k+1:]
	}
	return f
}

// fullName adds the cycle and index decorations of the call graph.
func (t *Text) fullName(i int) string { return string(t.appendFullName(nil, i)) }

// appendFullName appends fullName(i) to b.
func (t *Text) appendFullName(b []byte, i int) []byte {
	if t.fullSpans == nil {
		t.fullSpans = make([]span, len(t.g.Entries))
	}
	sp := t.fullSpans[i]
	if sp.n == 0 && !t.namesFrozen {
		off := len(t.fullNames)
		t.fullNames = t.decorate(t.fullNames, i)
		sp = span{int32(off), int32(len(t.fullNames) - off)}
		t.fullSpans[i] = sp
	}
	return append(b, t.fullNames[sp.off:sp.off+sp.n]...)
}

// decorate appends entry i's name with its cycle and index number.
func (t *Text) decorate(b []byte, i int) []byte {
	e := &t.g.Entries[i]
	b = append(b, t.name(i)...)
	if e.Cycle != 0 {
		b = append(b, " <cycle "...)
		b = strconv.AppendInt(b, int64(e.Cycle), 10)
		b = append(b, '>')
	}
	if e.Index != 0 {
		b = appendIndexTag(b, e)
	}
	return b
}

// appendIndexTag appends an entry's index number as the call graph and
// the index print it: "[N]" for a printed entry, "(N)" for one left out.
func appendIndexTag(b []byte, e *callgraph.Entry) []byte {
	open, end := byte('('), byte(')')
	if e.PrintFlag {
		open, end = '[', ']'
	}
	b = append(b, ' ', open)
	b = strconv.AppendInt(b, int64(e.Index), 10)
	return append(b, end)
}

// siPrefixes are the per-call unit prefixes in the order gprof tries them.
var siPrefixes = [...]struct {
	prefix byte
	scale  float64
}{
	{'T', 1e-12}, {'G', 1e-09}, {'M', 1e-06}, {'K', 1e-03}, {' ', 1e-00},
	{'m', 1e+03}, {'u', 1e+06}, {'n', 1e+09}, {'p', 1e+12}, {'f', 1e+15}, {'a', 1e+18},
}

// perCallUnit is the index in siPrefixes of the unit of the flat
// profile's per-call columns: the prefix that puts the largest total time
// per call between 1 and 1000, as gprof chooses it.
func perCallUnit(g *callgraph.Graph, order []int) int {
	top := 0.0
	found := false
	for _, i := range order {
		e := &g.Entries[i]
		if e.NCalls == 0 {
			continue
		}
		ct := (e.Ticks + e.ChildTime) / float64(e.NCalls)
		if ct > top {
			top, found = ct, true
		}
	}
	if !found || top <= 0 {
		return 0
	}
	top /= float64(g.HZ)
	for unit := 0; unit < len(siPrefixes); unit++ {
		v := siPrefixes[unit].scale * top
		if v >= 1 && v < 1000 {
			return unit
		}
	}
	// gprof reads past its table here; the first prefix is as good a
	// stand-in as any.
	return 0
}

// FlatUnit is the unit of the flat profile's per-call columns ("ms/call")
// and the factor that turns seconds per call into it, as gprof's flat
// profile (without -T) chooses them.
func FlatUnit(g *callgraph.Graph) (string, float64) {
	u := perCallUnit(g, g.FlatOrder())
	return string([]byte{siPrefixes[u].prefix, g.Abbrev}) + "/call", siPrefixes[u].scale
}

// Fixed formats v with prec decimals as C's printf("%.*f") does, with
// glibc's spellings of infinities and NaN: the numbers of every text
// section, for outputs that must print the same.
func Fixed(v float64, prec int) string { return fixed(v, 0, prec) }

// Flat writes the flat profile.
func (t *Text) Flat() {
	g := t.g
	t.separator()
	w := t.w
	if t.opt.Traditional {
		if !t.opt.Brief {
			w.WriteString("\n\n\nflat profile:\n")
			w.WriteString(FlatBlurb)
		}
	} else {
		w.WriteString("Flat profile:\n")
	}
	order := g.FlatOrder()
	hz := float64(g.HZ)

	unit := 5
	if !t.opt.Traditional {
		unit = perCallUnit(g, order)
	}
	total := g.TotalTime
	unitName := string([]byte{siPrefixes[unit].prefix, g.Abbrev}) + "/call"
	if t.opt.Traditional {
		fmt.Fprintf(w, "\ngranularity: each sample hit covers %d byte(s)", int64(g.Scale)*2)
		if total > 0 {
			fmt.Fprintf(w, " for %s%% of %s %s\n\n", fixed(100/total, 0, 2), fixed(total/hz, 0, 2), g.Dimen)
		}
	} else {
		fmt.Fprintf(w, "\nEach sample counts as %s %s.\n", gfmt(1/hz), g.Dimen)
	}
	if total <= 0 {
		w.WriteString(" no time accumulated\n\n")
		total = 1
	}
	fmt.Fprintf(w, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ", "cumulative", "self  ", "", "self  ", "total ", "")
	fmt.Fprintf(w, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", g.Dimen, g.Dimen, "calls", unitName, unitName, "name")

	scale := siPrefixes[unit].scale
	accum := 0.0
	var line []byte
	for _, i := range order {
		if !g.FlatSelected(i) {
			continue
		}
		e := &g.Entries[i]
		if !t.opt.ShowZeros && e.NCalls == 0 && e.Ticks == 0 {
			continue
		}
		accum += e.Ticks
		pct := 0.0
		if total > 0 {
			pct = 100 * e.Ticks / total
		}
		line = line[:0]
		if t.opt.Traditional {
			line = appendFixed(line, pct, 5, 1)
			line = append(line, ' ')
			line = appendFixed(line, accum/hz, 10, 2)
		} else {
			line = appendFixed(line, pct, 6, 2)
			line = append(line, ' ')
			line = appendFixed(line, accum/hz, 9, 2)
		}
		line = append(line, ' ')
		line = appendFixed(line, e.Ticks/hz, 8, 2)
		if e.NCalls != 0 {
			calls := float64(e.NCalls)
			line = append(line, ' ')
			line = appendUint(line, e.NCalls, 8)
			line = append(line, ' ')
			line = appendFixed(line, scale*e.Ticks/hz/calls, 8, 2)
			line = append(line, ' ')
			line = appendFixed(line, scale*(e.Ticks+e.ChildTime)/hz/calls, 8, 2)
			line = append(line, "  "...)
		} else {
			line = appendSpaces(line, 29)
		}
		line = append(line, t.FlatName(i)...)
		line = append(line, '\n')
		w.Write(line)
	}
	if !t.opt.Brief && !t.opt.Traditional {
		w.WriteString(FlatBlurb)
	}
}

// CallGraph writes the call graph.
func (t *Text) CallGraph() {
	g := t.g
	w := t.w
	bsd := t.opt.Traditional
	if !t.opt.Brief && bsd {
		w.WriteString(CallGraphBlurbBSD)
	}
	t.separator()
	if !bsd {
		if t.opt.Brief {
			w.WriteString("\t\t\tCall graph\n\n")
		} else {
			w.WriteString("\t\t     Call graph (explanation follows)\n\n")
		}
	}
	hz := float64(g.HZ)
	printTime := g.PrintTime
	fmt.Fprintf(w, "\ngranularity: each sample hit covers %d byte(s)", int64(g.Scale)*2)
	if printTime > 0 {
		fmt.Fprintf(w, " for %s%% of %s seconds\n\n", fixed(100/printTime, 0, 2), fixed(printTime/hz, 0, 2))
	} else {
		w.WriteString(" no time propagated\n\n")
		printTime = 1
	}
	childW := 7
	if bsd {
		childW = 11
		fmt.Fprintf(w, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "", "called", "total", "parents")
		fmt.Fprintf(w, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n", "index", "%time", "self", "descendants", "called", "self", "name", "index")
		fmt.Fprintf(w, "%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "", "", "", "called", "total", "children")
		w.WriteString("\n")
	} else {
		w.WriteString("index % time    self  children    called     name\n")
	}
	ends := newArcEnds(g)
	var rows []int
	for _, i := range g.ByTime {
		e := &g.Entries[i]
		if (!t.opt.ShowZeros && e.NCalls == 0 && e.SelfCalls == 0 && e.PropSelf == 0 && e.PropChild == 0) ||
			!e.PrintFlag || (t.opt.LineGranularity && (e.IsCycle() || !e.Sym.IsFunc)) {
			continue
		}
		rows = append(rows, i)
	}
	f := entryFormat{ends: ends, hz: hz, printTime: printTime, childW: childW, bsd: bsd}
	// The names of -l and --inline-file-names come from BFD's line
	// lookups, whose answers can depend on the lookups made before them:
	// those are made in order, on one goroutine.
	workers := parallel.Workers(t.par.workers, len(rows)/t.par.chunk)
	if workers > 1 && len(rows) >= t.par.minRows && !t.opt.LineGranularity && !t.opt.InlineFileNames {
		t.callGraphParallel(rows, f, workers)
	} else {
		var b []byte
		for _, i := range rows {
			b = t.appendEntry(b[:0], i, f)
			w.Write(b)
		}
	}
	if !t.opt.Brief && !bsd {
		w.WriteString(CallGraphBlurb)
	}
}

// parallelMinRows is the least number of call-graph entries that
// CallGraph formats on several goroutines (below it, starting them costs
// more than it saves), and parallelChunk the number of entries each
// goroutine formats at a time: few, so that the buffers waiting to be
// written stay small (with 256 the synthetic profile's peak RSS grew by
// 4 MB).
const (
	parallelMinRows = 4096
	parallelChunk   = 32
)

// entryFormat is what formatting a call-graph entry needs besides the
// graph.
type entryFormat struct {
	ends          *arcEnds
	hz, printTime float64
	childW        int
	bsd           bool
}

// appendEntry appends entry i of the call graph (its parents, its primary
// line, its children, or a cycle with its members) and the separator
// after it.
func (t *Text) appendEntry(b []byte, i int, f entryFormat) []byte {
	g := t.g
	e := &g.Entries[i]
	hz, childW := f.hz, f.childW
	if e.IsCycle() {
		b = t.appendPrimary(b, e, hz, f.printTime, childW)
		b = append(b, ' ')
		b = appendUint(b, e.NCalls, 7)
		b = appendSelfCalls(b, e.SelfCalls)
		b = append(b, " <cycle "...)
		b = strconv.AppendInt(b, int64(e.Cycle), 10)
		b = append(b, " as a whole> ["...)
		b = strconv.AppendInt(b, int64(e.Index), 10)
		b = append(b, "]\n"...)
		for _, m := range e.DisplayMembers {
			me := &g.Entries[m]
			b = appendSpaces(b, 13)
			b = appendFixed(b, me.PropSelf/hz, 7, 2)
			b = append(b, ' ')
			b = appendFixed(b, me.PropChild/hz, childW, 2)
			b = append(b, ' ')
			b = appendUint(b, me.NCalls, 7)
			b = appendSelfCalls(b, me.SelfCalls)
			b = append(b, "     "...)
			b = t.appendFullName(b, m)
			b = append(b, '\n')
		}
	} else {
		b = t.appendParents(b, f.ends, i, childW)
		b = t.appendPrimary(b, e, hz, f.printTime, childW)
		if e.NCalls+e.SelfCalls != 0 {
			b = append(b, ' ')
			b = appendUint(b, e.NCalls, 7)
			b = appendSelfCalls(b, e.SelfCalls)
			b = append(b, ' ')
		} else {
			b = appendSpaces(b, 17)
		}
		b = t.appendFullName(b, i)
		b = append(b, '\n')
		b = t.appendChildren(b, f.ends, i, childW)
	}
	if f.bsd {
		b = append(b, '\n')
	}
	b = append(b, "-----------------------------------------------\n"...)
	if f.bsd {
		b = append(b, '\n')
	}
	return b
}

// callGraphParallel writes the call-graph entries rows as appendEntry
// formats them, on workers goroutines, in order: the names they print are
// computed first (demangled on all the goroutines, then decorated), then
// chunks of entries are formatted into buffers that are written in turn,
// at most twice as many at a time as there are goroutines.
func (t *Text) callGraphParallel(rows []int, f entryFormat, workers int) {
	g := t.g
	// The entries whose names the rows print: the rows' own, their cycle
	// members and the other ends of their arcs.
	need := make([]bool, len(g.Entries))
	isRow := make([]bool, len(g.Entries))
	for _, i := range rows {
		isRow[i], need[i] = true, true
		for _, m := range g.Entries[i].DisplayMembers {
			need[m] = true
		}
	}
	// Every arc is in its child's list of parents and its parent's list
	// of children: going through the arcs in order finds the other ends
	// of the rows' arcs without jumping about the arc table.
	for _, a := range g.Arcs {
		if isRow[a.Child] {
			need[a.Parent] = true
		}
		if isRow[a.Parent] {
			need[a.Child] = true
		}
	}
	var named []int
	for i, ok := range need {
		if ok && i < len(g.Syms.Syms) {
			named = append(named, i)
		}
	}
	if t.names == nil {
		t.names = make([]string, len(g.Syms.Syms))
	}
	var wg sync.WaitGroup
	for k := range workers {
		part := named[k*len(named)/workers : (k+1)*len(named)/workers]
		wg.Go(func() {
			var d symtab.Demangler
			for _, i := range part {
				if t.names[i] == "" {
					t.names[i] = t.computeName(&d, i)
				}
			}
		})
	}
	wg.Wait()
	// The decorated names go into one buffer of the right size, not one
	// grown (and copied) by doubling.
	idxDigits := len(strconv.Itoa(len(g.Entries)))
	cycDigits := len(strconv.Itoa(len(g.Entries) - g.NumSyms))
	size := 0
	for _, i := range named {
		size += len(t.names[i]) + len(" []") + idxDigits
		if g.Entries[i].Cycle != 0 {
			size += len(" <cycle >") + cycDigits
		}
	}
	t.fullNames = slices.Grow(t.fullNames, size)
	for _, i := range named {
		t.appendFullName(nil, i)
	}
	// From here on the goroutines only read the names.
	t.namesFrozen = true
	defer func() { t.namesFrozen = false }()

	chunks := make([][]int, 0, len(rows)/parallelChunk+1)
	for len(rows) > 0 {
		n := min(t.par.chunk, len(rows))
		chunks = append(chunks, rows[:n])
		rows = rows[n:]
	}
	// Buffers written out go back to the goroutines.
	free := make(chan []byte, 2*workers+1)
	_ = parallel.Map(context.Background(), chunks, parallel.Options{Workers: workers},
		func(_, _ int, chunk []int) ([]byte, error) {
			var b []byte
			select {
			case b = <-free:
			default:
			}
			b = b[:0]
			for _, i := range chunk {
				b = t.appendEntry(b, i, f)
			}
			return b, nil
		},
		func(_ int, b []byte) error {
			t.w.Write(b)
			select {
			case free <- b:
			default:
			}
			return nil
		})
}

// appendPrimary appends the start of an entry's primary line: its index
// number in brackets, percentage of the total time, self and children
// time.
func (t *Text) appendPrimary(b []byte, e *callgraph.Entry, hz, printTime float64, childW int) []byte {
	start := len(b)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(e.Index), 10)
	b = append(b, ']')
	if len(b)-start > 6 {
		b = b[:start+6] // printf's "%-6.6s"
	}
	b = appendSpaces(b, start+6-len(b))
	b = append(b, ' ')
	b = appendFixed(b, 100*(e.PropSelf+e.PropChild)/printTime, 5, 1)
	b = append(b, ' ')
	b = appendFixed(b, e.PropSelf/hz, 7, 2)
	b = append(b, ' ')
	return appendFixed(b, e.PropChild/hz, childW, 2)
}

// appendSelfCalls appends "+N" left-aligned in 8 columns, or 8 blanks when
// there are no self-calls.
func appendSelfCalls(b []byte, n uint64) []byte {
	if n == 0 {
		return appendSpaces(b, 8)
	}
	return appendUintLeft(append(b, '+'), n, 7)
}

// appendArcLine appends a parent or child line: the time that flowed along
// the arc (none inside a cycle), its count over the callee's total calls,
// and the other end's name.
func (t *Text) appendArcLine(b []byte, a *callgraph.Arc, other int, intra bool, total uint64, childW int) []byte {
	hz := float64(t.g.HZ)
	b = appendSpaces(b, 13)
	if intra {
		b = appendSpaces(b, 8+childW+1)
		b = appendUint(b, a.Count, 7)
		b = appendSpaces(b, 13)
	} else {
		b = appendFixed(b, a.Time/hz, 7, 2)
		b = append(b, ' ')
		b = appendFixed(b, a.ChildTime/hz, childW, 2)
		b = append(b, ' ')
		b = appendUint(b, a.Count, 7)
		b = append(b, '/')
		b = appendUintLeft(b, total, 7)
		b = append(b, "     "...)
	}
	b = t.appendFullName(b, other)
	return append(b, '\n')
}

func (t *Text) appendParents(b []byte, ends *arcEnds, child, childW int) []byte {
	g := t.g
	e := &g.Entries[child]
	if len(e.Parents) == 0 {
		b = appendSpaces(b, 13+8+childW+1+7+1+7)
		return append(b, "     <spontaneous>\n"...)
	}
	total := ends.calls[child]
	cyc := ends.cycle[child]
	var batch arcBatch
	for list := e.DisplayParents; len(list) > 0; {
		arcs := batch.gather(g, &list)
		for k := range arcs {
			arc := &arcs[k]
			p := int(arc.Parent)
			intra := p == child || (cyc != 0 && ends.cycle[p] == cyc)
			b = t.appendArcLine(b, arc, p, intra, total, childW)
		}
	}
	return b
}

func (t *Text) appendChildren(b []byte, ends *arcEnds, parent, childW int) []byte {
	g := t.g
	e := &g.Entries[parent]
	var batch arcBatch
	for list := e.DisplayChildren; len(list) > 0; {
		arcs := batch.gather(g, &list)
		for k := range arcs {
			arc := &arcs[k]
			c := int(arc.Child)
			cyc := ends.cycle[c]
			intra := c == parent || (cyc != 0 && cyc == ends.cycle[parent])
			b = t.appendArcLine(b, arc, c, intra, ends.calls[c], childW)
		}
	}
	return b
}

// arcBatch holds copies of a few arcs of one list. The arcs of a list lie
// anywhere in the arc table, most of them out of the cache: copying a few
// at once, in a loop whose reads do not wait on one another, lets the
// processor fetch them together instead of one miss after the other.
type arcBatch [16]callgraph.Arc

// gather copies the first arcs of *list into the batch, removes them from
// *list and returns them.
func (batch *arcBatch) gather(g *callgraph.Graph, list *[]int32) []callgraph.Arc {
	n := min(len(*list), len(batch))
	for k, a := range (*list)[:n] {
		batch[k] = g.Arcs[a]
	}
	*list = (*list)[n:]
	return batch[:n]
}

// arcEnds is what the call graph's arc lines need of the entry at an arc's
// other end, copied into two compact arrays: the entries themselves are
// large and an arc's ends are anywhere among them.
type arcEnds struct {
	cycle []int32  // the entry's cycle number, 0 if none
	calls []uint64 // the calls its lines divide by: its cycle's, or its own
}

func newArcEnds(g *callgraph.Graph) *arcEnds {
	ends := &arcEnds{cycle: make([]int32, len(g.Entries)), calls: make([]uint64, len(g.Entries))}
	for i := range g.Entries {
		e := &g.Entries[i]
		ends.cycle[i] = int32(e.Cycle)
		ends.calls[i] = e.NCalls
		if h := g.CycleEntry(i); h >= 0 {
			ends.calls[i] = g.Entries[h].NCalls
		}
	}
	return ends
}

// Index writes the index by function name.
func (t *Text) Index() {
	g := t.g
	w := t.w
	// Equal names keep address order, as gprof's stable sort leaves them.
	var names []int
	for _, i := range g.NameOrder() {
		e := &g.Entries[i]
		if !t.opt.ShowZeros && e.NCalls == 0 && e.Ticks == 0 {
			continue
		}
		names = append(names, int(i))
	}
	nnames := len(names)
	for c := g.NumSyms; c < len(g.Entries); c++ {
		names = append(names, c)
	}
	w.WriteString("\f\n")
	t.printed = true
	w.WriteString("Index by function name\n\n")
	colWidth := (t.opt.Width - 1) / 3
	rows := (len(names) + 2) / 3
	var line, tag []byte
	for r := 0; r < rows; r++ {
		col, start := 0, 0
		line = line[:0]
		for j := r; j < len(names); j += rows {
			i := names[j]
			e := &g.Entries[i]
			tag = appendIndexTag(tag[:0], e)[1:] // without the leading blank
			buf := string(tag)
			label := ""
			if j < nnames {
				label = t.name(i)
			} else {
				label = "<cycle " + strconv.Itoa(e.Cycle) + ">"
			}
			if t.opt.Traditional {
				if j < nnames {
					label = g.Syms.Syms[i].Name
				}
				line = append(line, padLeft(cut(buf, 6), 6)...)
				line = append(line, ' ')
				line = append(line, padRight(cut(label, 19), 19)...)
				continue
			}
			col += len(buf)
			for ; col < start+5; col++ {
				line = append(line, ' ')
			}
			line = append(line, ' ')
			line = append(line, buf...)
			line = append(line, ' ')
			line = append(line, label...)
			col += len(label)
			if j < nnames && !t.opt.LineGranularity && g.Syms.Syms[i].IsStatic {
				if loc, ok := g.Syms.SymbolSource(i); ok {
					f := t.fileName(loc.File)
					line = append(line, " ("...)
					line = append(line, f...)
					line = append(line, ')')
					col += len(f) + 3
				}
			}
			start += colWidth
		}
		line = append(line, '\n')
		w.Write(line)
	}
}

// FunctionOrdering writes -r's suggested function order (raw names, as
// package linkorder computes them), one per line, with no heading or
// separator.
func (t *Text) FunctionOrdering(names []string) { t.lines(names) }

// FileOrdering writes -R's suggested object-file order, one name per line,
// with no heading or separator.
func (t *Text) FileOrdering(names []string) { t.lines(names) }

// lines writes each string on a line of its own.
func (t *Text) lines(ss []string) {
	for _, s := range ss {
		t.w.WriteString(s)
		t.w.WriteByte('\n')
	}
}
