package render

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/egprof/egprof/callgraph"
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
}

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
	return &Text{w: bufio.NewWriterSize(w, 64<<10), opt: opt, g: g}
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
	n := t.computeName(i)
	t.names[i] = n
	return n
}

func (t *Text) computeName(i int) string {
	s := &t.g.Syms.Syms[i]
	n := s.Name
	if !t.opt.Traditional && t.opt.Demangle {
		n = symtab.Demangle(n, t.opt.DemangleStyle)
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
func (t *Text) fullName(i int) string {
	e := &t.g.Entries[i]
	n := t.name(i)
	if e.Cycle != 0 {
		n += " <cycle " + strconv.Itoa(e.Cycle) + ">"
	}
	if e.Index != 0 {
		if e.PrintFlag {
			n += " [" + strconv.Itoa(e.Index) + "]"
		} else {
			n += " (" + strconv.Itoa(e.Index) + ")"
		}
	}
	return n
}

// siPrefixes are the per-call unit prefixes in the order gprof tries them.
var siPrefixes = [...]struct {
	prefix byte
	scale  float64
}{
	{'T', 1e-12}, {'G', 1e-09}, {'M', 1e-06}, {'K', 1e-03}, {' ', 1e-00},
	{'m', 1e+03}, {'u', 1e+06}, {'n', 1e+09}, {'p', 1e+12}, {'f', 1e+15}, {'a', 1e+18},
}

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

	unit := 0
	if t.opt.Traditional {
		unit = 5
	} else {
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
		if found && top > 0 {
			top /= hz
			for unit = 0; unit < len(siPrefixes); unit++ {
				v := siPrefixes[unit].scale * top
				if v >= 1 && v < 1000 {
					break
				}
			}
			if unit == len(siPrefixes) {
				// gprof reads past its table here; the first prefix is
				// as good a stand-in as any.
				unit = 0
			}
		}
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
			line = append(line, fixed(pct, 5, 1)...)
			line = append(line, ' ')
			line = append(line, fixed(accum/hz, 10, 2)...)
		} else {
			line = append(line, fixed(pct, 6, 2)...)
			line = append(line, ' ')
			line = append(line, fixed(accum/hz, 9, 2)...)
		}
		line = append(line, ' ')
		line = append(line, fixed(e.Ticks/hz, 8, 2)...)
		if e.NCalls != 0 {
			calls := float64(e.NCalls)
			line = append(line, ' ')
			line = append(line, padLeft(strconv.FormatUint(e.NCalls, 10), 8)...)
			line = append(line, ' ')
			line = append(line, fixed(scale*e.Ticks/hz/calls, 8, 2)...)
			line = append(line, ' ')
			line = append(line, fixed(scale*(e.Ticks+e.ChildTime)/hz/calls, 8, 2)...)
			line = append(line, "  "...)
		} else {
			line = append(line, strings.Repeat(" ", 29)...)
		}
		if t.opt.Traditional {
			line = append(line, t.fullName(i)...)
		} else {
			line = append(line, t.name(i)...)
		}
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
	blank := func(n int) string { return strings.Repeat(" ", n) }
	for _, i := range g.ByTime {
		e := &g.Entries[i]
		if (!t.opt.ShowZeros && e.NCalls == 0 && e.SelfCalls == 0 && e.PropSelf == 0 && e.PropChild == 0) ||
			!e.PrintFlag || (t.opt.LineGranularity && (e.IsCycle() || !e.Sym.IsFunc)) {
			continue
		}
		idx := cut(padRight("["+strconv.Itoa(e.Index)+"]", 6), 6)
		pct := fixed(100*(e.PropSelf+e.PropChild)/printTime, 5, 1)
		if e.IsCycle() {
			fmt.Fprintf(w, "%s %s %s %s %7d", idx, pct, fixed(e.PropSelf/hz, 7, 2), fixed(e.PropChild/hz, childW, 2), e.NCalls)
			if e.SelfCalls != 0 {
				fmt.Fprintf(w, "+%-7d", e.SelfCalls)
			} else {
				w.WriteString(blank(8))
			}
			fmt.Fprintf(w, " <cycle %d as a whole> [%d]\n", e.Cycle, e.Index)
			for _, m := range e.DisplayMembers {
				me := &g.Entries[m]
				fmt.Fprintf(w, "%s %s %s %7d", blank(12), fixed(me.PropSelf/hz, 7, 2), fixed(me.PropChild/hz, childW, 2), me.NCalls)
				if me.SelfCalls != 0 {
					fmt.Fprintf(w, "+%-7d", me.SelfCalls)
				} else {
					w.WriteString(blank(8))
				}
				w.WriteString("     ")
				w.WriteString(t.fullName(m))
				w.WriteString("\n")
			}
		} else {
			t.parents(i, childW)
			fmt.Fprintf(w, "%s %s %s %s", idx, pct, fixed(e.PropSelf/hz, 7, 2), fixed(e.PropChild/hz, childW, 2))
			if e.NCalls+e.SelfCalls != 0 {
				fmt.Fprintf(w, " %7d", e.NCalls)
				if e.SelfCalls != 0 {
					fmt.Fprintf(w, "+%-7d ", e.SelfCalls)
				} else {
					w.WriteString(blank(9))
				}
			} else {
				w.WriteString(blank(17))
			}
			w.WriteString(t.fullName(i))
			w.WriteString("\n")
			t.children(i, childW)
		}
		if bsd {
			w.WriteString("\n")
		}
		w.WriteString("-----------------------------------------------\n")
		if bsd {
			w.WriteString("\n")
		}
	}
	if !t.opt.Brief && !bsd {
		w.WriteString(CallGraphBlurb)
	}
}

func (t *Text) arcLine(a *callgraph.Arc, other int, intra bool, total uint64, childW int) {
	g := t.g
	hz := float64(g.HZ)
	w := t.w
	if intra {
		fmt.Fprintf(w, "%s %s %7d %7s     ", strings.Repeat(" ", 12), strings.Repeat(" ", 8+childW), a.Count, "")
	} else {
		fmt.Fprintf(w, "%s %s %s %7d/%-7d     ", strings.Repeat(" ", 12), fixed(a.Time/hz, 7, 2), fixed(a.ChildTime/hz, childW, 2), a.Count, total)
	}
	w.WriteString(t.fullName(other))
	w.WriteString("\n")
}

func (t *Text) parents(child, childW int) {
	g := t.g
	e := &g.Entries[child]
	if len(e.Parents) == 0 {
		fmt.Fprintf(t.w, "%s %s %7s %7s     <spontaneous>\n", strings.Repeat(" ", 12), strings.Repeat(" ", 8+childW), "", "")
		return
	}
	total := e.NCalls
	if c := g.CycleEntry(child); c >= 0 {
		total = g.Entries[c].NCalls
	}
	for _, a := range e.DisplayParents {
		arc := &g.Arcs[a]
		p := arc.Parent
		intra := p == child || (e.Cycle != 0 && g.Entries[p].Cycle == e.Cycle)
		t.arcLine(arc, p, intra, total, childW)
	}
}

func (t *Text) children(parent, childW int) {
	g := t.g
	e := &g.Entries[parent]
	for _, a := range e.DisplayChildren {
		arc := &g.Arcs[a]
		c := arc.Child
		ce := &g.Entries[c]
		intra := c == parent || (ce.Cycle != 0 && ce.Cycle == e.Cycle)
		total := ce.NCalls
		if h := g.CycleEntry(c); h >= 0 {
			total = g.Entries[h].NCalls
		}
		t.arcLine(arc, c, intra, total, childW)
	}
}

// Index writes the index by function name.
func (t *Text) Index() {
	g := t.g
	w := t.w
	var names []int
	for i := 0; i < g.NumSyms; i++ {
		e := &g.Entries[i]
		if !t.opt.ShowZeros && e.NCalls == 0 && e.Ticks == 0 {
			continue
		}
		names = append(names, i)
	}
	sort.SliceStable(names, func(a, b int) bool { return g.Syms.Syms[names[a]].Name < g.Syms.Syms[names[b]].Name })
	nnames := len(names)
	for c := g.NumSyms; c < len(g.Entries); c++ {
		names = append(names, c)
	}
	w.WriteString("\f\n")
	t.printed = true
	w.WriteString("Index by function name\n\n")
	colWidth := (t.opt.Width - 1) / 3
	rows := (len(names) + 2) / 3
	var line []byte
	for r := 0; r < rows; r++ {
		col, start := 0, 0
		line = line[:0]
		for j := r; j < len(names); j += rows {
			i := names[j]
			e := &g.Entries[i]
			var buf string
			if e.PrintFlag {
				buf = "[" + strconv.Itoa(e.Index) + "]"
			} else {
				buf = "(" + strconv.Itoa(e.Index) + ")"
			}
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
